//! What cannot be taken back is asked twice: resigning and a new game over a game in
//! play wait for the person's yes, a no changes nothing, the setting turns the question
//! off, and a question about a game that ended meanwhile goes away.

use crate::common;

use std::time::Duration;

use bevy::prelude::*;
use hexchess::confirm::{AskFirst, Question, Reply, Weighty};
use hexchess::game::{CurrentGame, EndRequest};
use hexchess::look::Settings;
use hexchess::play::{Seats, Session, StartDrill, StartGame, Target};
use hexchess_core::{GameOutcome, Side, Termination};

/// People at one screen, Gliński.
fn app() -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let frame = Some(Duration::from_millis(20));
    let mut app = common::headless_app("glinski", None, Settings::default(), session, frame);
    app.update();
    app
}

fn game(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

fn asked(app: &App) -> bool {
    app.world().resource::<Question>().0.is_some()
}

fn send(app: &mut App, weighty: Weighty) {
    app.world_mut().write_message(weighty);
    app.update();
    app.update();
}

fn reply(app: &mut App, reply: Reply) {
    app.world_mut().write_message(reply);
    app.update();
    app.update();
}

fn mccooey() -> Weighty {
    Weighty::NewGame(Box::new(StartGame {
        variant: "mccooey".into(),
        seats: Seats::people(),
        level: hexchess::play::DEFAULT_LEVEL,
        time_control: None,
        fen: None,
        moves: Vec::new(),
    }))
}

#[test]
fn resigning_waits_for_a_yes_and_a_no_changes_nothing() {
    let mut app = app();
    common::play(&mut app, &["f5f6"], 2);
    send(&mut app, Weighty::Resign);
    assert!(asked(&app));
    assert_eq!(game(&app).outcome(), None, "not before the yes");
    reply(&mut app, Reply::No);
    assert!(!asked(&app));
    assert_eq!(game(&app).outcome(), None);
    assert_eq!(game(&app).turn_count(), 1, "the game goes on as it was");

    send(&mut app, Weighty::Resign);
    reply(&mut app, Reply::Yes);
    let end = game(&app).outcome().expect("resigned");
    assert_eq!(end.termination, Termination::Resignation);
    // People at one screen: the side on move gives up.
    assert_eq!(end.winner(), Some(Side::White));
}

#[test]
fn against_the_engine_the_persons_seat_resigns_even_off_move() {
    let session = Session {
        seats: Seats::against_engines(Side::White),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.insert_resource(AskFirst(false));
    app.update();
    common::play(&mut app, &["f5f6"], 1);
    // Black (the engine) is on move, maybe thinking: White resigns.
    send(&mut app, Weighty::Resign);
    let end = game(&app)
        .outcome()
        .expect("resigned at once: the setting is off");
    assert_eq!(end.winner(), Some(Side::Black));
    assert!(!asked(&app));
}

#[test]
fn a_new_game_over_a_game_in_play_is_asked_and_over_a_fresh_one_is_not() {
    let mut app = app();
    // Nothing played yet: the new game starts at once.
    send(&mut app, mccooey());
    assert!(!asked(&app));
    assert_eq!(game(&app).rules().id(), "mccooey");
    // A move made: asked; no keeps the game.
    let first = game(&app).played.steps()[0];
    app.world_mut()
        .write_message(hexchess::game::StepRequest(first));
    app.update();
    assert_eq!(game(&app).turn_count(), 1);
    send(&mut app, mccooey());
    assert!(asked(&app));
    reply(&mut app, Reply::No);
    assert_eq!(game(&app).turn_count(), 1, "kept");
    send(&mut app, mccooey());
    reply(&mut app, Reply::Yes);
    assert_eq!(game(&app).turn_count(), 0, "a new game");
    // A game that is over is left without a question.
    let first = game(&app).played.steps()[0];
    app.world_mut()
        .write_message(hexchess::game::StepRequest(first));
    app.update();
    app.world_mut()
        .write_message(EndRequest(GameOutcome::draw(Termination::Agreement)));
    app.update();
    assert!(game(&app).outcome().is_some());
    send(&mut app, mccooey());
    assert!(!asked(&app));
    assert_eq!(game(&app).turn_count(), 0);
}

#[test]
fn a_question_about_a_game_that_ended_meanwhile_goes_away() {
    let mut app = app();
    common::play(&mut app, &["f5f6"], 2);
    send(&mut app, Weighty::Resign);
    assert!(asked(&app));
    app.world_mut()
        .write_message(EndRequest(GameOutcome::draw(Termination::Agreement)));
    app.update();
    app.update();
    assert!(!asked(&app), "nothing left to resign");
    reply(&mut app, Reply::Yes);
    assert_eq!(
        game(&app).outcome().map(|o| o.termination),
        Some(Termination::Agreement),
        "the late yes does nothing"
    );
}

/// The drills asked for, in order.
#[derive(Resource, Default)]
struct Drills(Vec<String>);

fn note_drills(mut drills: MessageReader<StartDrill>, mut noted: ResMut<Drills>) {
    noted.0.extend(drills.read().map(|d| d.ending.clone()));
}

/// A drill of `variant` (one that no catalog holds starts no table build here: the
/// test looks only at what is asked, not at the drill).
fn krvk(variant: &str) -> Weighty {
    Weighty::Drill(StartDrill {
        variant: variant.into(),
        ending: "KRvK".into(),
        target: Target::Random,
    })
}

#[test]
fn a_drill_over_a_game_in_play_is_asked_and_over_a_fresh_board_is_not() {
    let mut app = app();
    app.init_resource::<Drills>()
        .add_systems(Update, note_drills);
    common::play(&mut app, &["f5f6"], 2);
    send(&mut app, krvk("glinski"));
    assert!(asked(&app));
    assert!(
        app.world().resource::<Drills>().0.is_empty(),
        "not before the yes"
    );
    reply(&mut app, Reply::No);
    assert!(app.world().resource::<Drills>().0.is_empty());
    assert_eq!(game(&app).turn_count(), 1, "the game kept");
    // Over the start position, nothing to lose: the drill is asked for at once.
    let mut fresh = self::app();
    fresh
        .init_resource::<Drills>()
        .add_systems(Update, note_drills);
    send(&mut fresh, krvk("no-such-variant"));
    assert!(!asked(&fresh));
    assert_eq!(fresh.world().resource::<Drills>().0, ["KRvK"]);
}
