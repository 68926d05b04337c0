//! The engine's review of the game on the board runs on its own thread, shows its
//! progress, can be stopped, and belongs to the game it was made for.

use crate::common;

use std::time::{Duration, Instant};

use bevy::prelude::*;
use hexchess::game::{CurrentGame, NewGameRequest, StepRequest};
use hexchess::look::Settings;
use hexchess::play::review::{GameReviewRequest, GameReviewState};
use hexchess::play::{Seats, Session};
use hexchess_engine::review::Judgement;

fn app_with(moves: &[&str]) -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.update();
    common::play(&mut app, moves, 1);
    app
}

fn state(app: &App) -> &GameReviewState {
    app.world().resource::<GameReviewState>()
}

#[test]
fn a_review_runs_in_the_background_and_marks_a_queen_given_away() {
    // After four quiet opening moves White's queen walks where a pawn takes it.
    let mut app = app_with(&["f5f6", "c7c5", "e4e5", "g7g6"]);
    let pos = app.world().resource::<CurrentGame>().position().clone();
    // The first queen move that puts it where a pawn takes it for nothing.
    let hanging = pos
        .legal_moves()
        .into_iter()
        .find(|&m| {
            pos.piece_at(m.from())
                .is_some_and(|p| p.kind == pos.rules().kind_by_letter('Q').unwrap())
                && {
                    let mut after = pos.clone();
                    after.make_move(m);
                    after.legal_moves().into_iter().any(|r| {
                        r.to() == m.to()
                            && after
                                .piece_at(r.from())
                                .is_some_and(|p| p.kind == pos.rules().kind_by_letter('P').unwrap())
                    })
                }
        })
        .expect("a queen move into a pawn's capture");
    app.world_mut().write_message(StepRequest::play(hanging));
    app.update();
    app.world_mut().write_message(GameReviewRequest::Start);
    app.update();
    assert!(state(&app).progress().is_some(), "running");
    let until = Instant::now() + Duration::from_secs(120);
    while state(&app).progress().is_some() {
        assert!(Instant::now() < until, "the review never ended");
        app.update();
        std::thread::sleep(Duration::from_millis(20));
    }
    let game = app.world().resource::<CurrentGame>().clone();
    let review = state(&app).review_of(&game).expect("a review of this game");
    assert_eq!(review.moves.len(), 5);
    assert!(review.complete);
    assert_eq!(
        review.moves[4].judgement,
        Some(Judgement::Blunder),
        "{:?}",
        review.moves[4]
    );
    assert_ne!(review.moves[4].best, hanging);
    // Another game: the review is not its.
    app.world_mut().write_message(NewGameRequest::default());
    app.update();
    let game = app.world().resource::<CurrentGame>().clone();
    assert!(state(&app).review_of(&game).is_none());
}

#[test]
fn a_review_can_be_stopped() {
    let mut app = app_with(&["f5f6", "c7c5", "e4e5", "g7g6", "Ni3", "Nc6"]);
    app.world_mut().write_message(GameReviewRequest::Start);
    app.update();
    app.world_mut().write_message(GameReviewRequest::Stop);
    let started = Instant::now();
    app.update();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(state(&app).progress().is_none());
}
