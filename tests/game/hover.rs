//! The piece under the pointer: with nothing selected its moves show faintly, and
//! nothing shows over an empty cell.

use crate::common;

use bevy::prelude::*;
use hexchess::board::highlights::{Highlight, Hovered};
use hexchess::game::CurrentGame;
use hexchess::input::PointerCell;
use hexchess::look::Settings;
use hexchess::play::{Seats, Session};

fn highlights(app: &mut App) -> usize {
    app.world_mut()
        .query_filtered::<Entity, With<Highlight>>()
        .iter(app.world())
        .count()
}

#[test]
fn hovering_a_piece_shows_where_it_can_go() {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.update();
    app.update();
    assert_eq!(highlights(&mut app), 0, "nothing marked at the start");
    let pos = app.world().resource::<CurrentGame>().position().clone();
    let knight = pos.rules().board().parse_cell("d1").unwrap();
    let moves = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == knight)
        .count();
    assert!(moves > 0);
    app.world_mut().resource_mut::<PointerCell>().cell = Some(knight);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Hovered>().0, Some(knight));
    assert_eq!(highlights(&mut app), moves, "a faint dot per move");
    // An empty cell: nothing.
    let empty = pos.rules().board().parse_cell("f6").unwrap();
    app.world_mut().resource_mut::<PointerCell>().cell = Some(empty);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Hovered>().0, None);
    assert_eq!(highlights(&mut app), 0);
}
