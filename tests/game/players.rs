//! The players' bars: the seat the board faces at the bottom, the others across, each
//! with its player's name, side and clock; the side on move marked; the last seconds
//! warned of.

use crate::common;

use std::time::Duration;

use bevy::prelude::*;
use hexchess::game::CurrentGame;
use hexchess::look::Settings;
use hexchess::online::Online;
use hexchess::play::{Clocks, Seats, Session, StartGame, TimeControl};
use hexchess::ui::players::{LOW_TIME, SeatLine, seat_lines};
use hexchess_core::Side;

fn lines(app: &App, flipped: bool) -> (Vec<SeatLine>, SeatLine) {
    let w = app.world();
    seat_lines(
        w.resource::<CurrentGame>(),
        w.resource::<Session>(),
        w.resource::<Clocks>(),
        w.resource::<Online>(),
        flipped,
    )
}

fn start(app: &mut App, variant: &str, seats: Seats) {
    app.world_mut().write_message(StartGame {
        variant: variant.into(),
        seats,
        level: hexchess::play::DEFAULT_LEVEL,
        time_control: Some(TimeControl {
            base: Duration::from_secs(180),
            increment: Duration::from_secs(2),
        }),
        fen: None,
        moves: Vec::new(),
    });
    for _ in 0..3 {
        app.update();
    }
}

#[test]
fn you_at_the_bottom_the_engine_across_with_names_sides_and_clocks() {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.update();
    start(&mut app, "glinski", Seats::against_engines(Side::Black));
    // Seen from Black's side (the flip a Black player's game starts with).
    let (across, facing) = lines(&app, true);
    assert_eq!(facing.side, Side::Black);
    assert_eq!(
        (facing.name.as_str(), facing.colour.as_str()),
        ("Player", "Black")
    );
    assert!(facing.yours && !facing.on_move);
    assert_eq!(across.len(), 1);
    assert_eq!(across[0].name, "hexchess-engine (level 11)");
    assert!(across[0].on_move && !across[0].yours);
    assert!(
        across[0].bot && !facing.bot,
        "the engine is marked, the player not"
    );
    assert_eq!(across[0].clock, Some(Duration::from_secs(180)));
    // The last seconds of the side on move are warned of; not the waiting side's.
    {
        let mut clocks = app.world_mut().resource_mut::<Clocks>();
        let remaining = clocks.remaining.as_mut().unwrap();
        remaining[Side::White.index()] = LOW_TIME / 2;
        remaining[Side::Black.index()] = LOW_TIME / 2;
    }
    let (across, facing) = lines(&app, true);
    assert!(across[0].low_time);
    assert!(!facing.low_time, "Black waits");
    // Unflipped, White is at the bottom.
    let (_, facing) = lines(&app, false);
    assert_eq!(facing.side, Side::White);
}

#[test]
fn at_a_table_the_board_faces_the_person_on_move_and_the_others_are_across() {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.update();
    start(&mut app, "hexachess-3", Seats::people());
    let (across, facing) = lines(&app, false);
    assert_eq!(facing.side, Side::White);
    assert!(facing.on_move && facing.yours);
    assert_eq!(facing.name, "person");
    let sides: Vec<Side> = across.iter().map(|l| l.side).collect();
    assert_eq!(sides, [Side::Black, Side::Third]);
    assert_eq!(across[1].colour, "Red");
    // After White's move the board turns to Black, on move now.
    let step = app.world().resource::<CurrentGame>().played.steps()[0];
    app.world_mut()
        .write_message(hexchess::game::StepRequest(step));
    app.update();
    let (across, facing) = lines(&app, false);
    assert_eq!(facing.side, Side::Black);
    assert!(facing.on_move);
    assert_eq!(
        across.iter().map(|l| l.side).collect::<Vec<_>>(),
        [Side::White, Side::Third]
    );
}
