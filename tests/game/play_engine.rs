//! Playing against the engine in a headless app: replies arrive without blocking
//! frames, undo cancels thinking, engine-vs-engine games end as the rules say, saved
//! games load back, and the game-over dialog shows the right result.

use crate::common;

use std::time::{Duration, Instant};

use bevy::prelude::*;
use hexchess::game::{CurrentGame, LoadRequest, StepRequest, UndoRequest};
use hexchess::look::Settings;
use hexchess::play::EnginePlayer;
use hexchess::play::{AppState, GameOverDialog, Seats, Session};
use hexchess_core::{Catalog, Position, Side, Termination};
use hexchess_engine::Skill;

fn new_app(variant: &str, fen: Option<&str>, session: Session) -> App {
    let settings = Settings {
        animate: false,
        ..Settings::default()
    };
    let frame = Some(Duration::from_millis(16));
    let mut app = common::headless_app(variant, fen, settings, session, frame);
    app.update();
    app
}

fn game(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

/// Runs frames until `done`, failing after `limit` of real time.
fn run_until(app: &mut App, limit: Duration, mut done: impl FnMut(&mut App) -> bool) {
    let start = Instant::now();
    while !done(app) {
        assert!(start.elapsed() < limit, "timed out");
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn undo_while_the_engine_thinks_cancels_the_search() {
    let mut app = new_app(
        "glinski",
        None,
        Session {
            seats: Seats::against_engines(Side::White),
            level: Skill::FULL,
            think_time: Duration::from_millis(2000),
            move_delay: Duration::ZERO,
            ..Session::default()
        },
    );
    let mv = game(&app).position().parse_move("f5f6").unwrap();
    app.world_mut().write_message(StepRequest::play(mv));
    run_until(&mut app, Duration::from_secs(5), |app| {
        app.world().resource::<EnginePlayer>().is_thinking()
    });
    app.world_mut().write_message(UndoRequest(1));
    app.update();
    assert_eq!(
        game(&app).position().ply_count(),
        0,
        "the move is taken back"
    );
    assert!(
        !app.world().resource::<EnginePlayer>().is_thinking(),
        "thinking stopped"
    );
    // Well past the engine's thinking time, it has played nothing: it is White's turn.
    let until = Instant::now() + Duration::from_millis(2500);
    while Instant::now() < until {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(game(&app).position().ply_count(), 0);
    assert_eq!(game(&app).position().turn(), Side::White);
    // And it still plays once it is its turn again.
    app.world_mut().write_message(StepRequest::play(mv));
    run_until(&mut app, Duration::from_secs(10), |app| {
        game(app).position().ply_count() == 2
    });
}

#[test]
fn an_engine_game_at_a_low_level_ends_as_the_rules_say() {
    // Queen and rook against a rook: short enough to finish by mate, stalemate or a draw.
    let mut app = new_app(
        "glinski",
        Some("6/7/1K6/9/10/4Q6/5R4/9/8/3r3/k5 w - 0 1"),
        Session {
            seats: Seats::engines(),
            level: Skill::new(3).expect("a level"),
            think_time: Duration::from_millis(40),
            move_delay: Duration::ZERO,
            ..Session::default()
        },
    );
    run_until(&mut app, Duration::from_secs(240), |app| {
        game(app).outcome().is_some()
    });
    let state = game(&app).clone();
    let outcome = state.outcome().unwrap();
    // Replay the moves in the rules core alone: the same end.
    let catalog = Catalog::builtin();
    let rules = catalog.get("glinski").unwrap().two_player_rules().unwrap();
    let mut replay = Position::from_fen(rules, state.start_fen.as_deref().unwrap()).unwrap();
    for san in state.move_texts() {
        let mv = replay.parse_move(&san).unwrap();
        replay.make_move(mv);
    }
    assert_eq!(replay.outcome(), Some(outcome));
    app.update();
    assert_eq!(
        *app.world().resource::<State<AppState>>().get(),
        AppState::GameOver
    );
}

#[test]
fn save_then_load_restores_position_and_moves() {
    let mut app = new_app(
        "mccooey",
        None,
        Session {
            seats: Seats::people(),
            ..Session::default()
        },
    );
    for m in ["f4f5", "e8e6", "e3e4", "g8g7"] {
        let mv = game(&app).position().parse_move(m).unwrap();
        app.world_mut().write_message(StepRequest::play(mv));
        app.update();
    }
    let before = game(&app).clone();
    assert_eq!(before.position().ply_count(), 4);
    let session = app.world().resource::<Session>().clone();
    let path = std::env::temp_dir().join(format!("hexchess-save-{}.txt", std::process::id()));
    hexchess::game::records::save_pgn(
        &hexchess_files::Files::disk(),
        &path,
        &hexchess::game::records::game_record(&before, &session.players(2)),
    )
    .unwrap();
    // A different game in between, then load.
    app.world_mut().write_message(UndoRequest(4));
    app.update();
    assert_eq!(game(&app).position().ply_count(), 0);
    let record =
        hexchess::game::records::load(&hexchess_files::Files::disk(), &path, None).unwrap();
    app.world_mut().write_message(LoadRequest(record));
    app.update();
    let after = game(&app);
    assert_eq!(after.position().to_fen(), before.position().to_fen());
    assert_eq!(after.move_texts(), before.move_texts());
    std::fs::remove_file(&path).ok();
}

#[test]
fn the_game_over_dialog_shows_mate_and_stalemate_scores() {
    // Mate in one: the queen's move ends the game 1-0.
    let mut app = new_app(
        "glinski",
        Some("6/1R5/4Q3/6K2/10/k10/10/9/8/7/6 w - 0 1"),
        Session {
            seats: Seats::people(),
            ..Session::default()
        },
    );
    let pos = game(&app).position().clone();
    let mate = pos
        .legal_moves()
        .into_iter()
        .find(|m| {
            let mut p = pos.clone();
            p.make_move(*m);
            p.outcome()
                .is_some_and(|o| o.termination == Termination::Checkmate)
        })
        .unwrap();
    app.world_mut().write_message(StepRequest::play(mate));
    app.update();
    app.update();
    assert_eq!(
        *app.world().resource::<State<AppState>>().get(),
        AppState::GameOver
    );
    let dialog = app.world().resource::<GameOverDialog>().clone();
    let o = dialog.outcome.unwrap();
    assert_eq!(
        (o.termination, o.result_text()),
        (Termination::Checkmate, "1-0".to_string())
    );

    // Gliński stalemate: 3/4 to the side that gave it.
    let mut app = new_app(
        "glinski",
        Some("6/7/8/7K1/10/10k/10/7Q1/8/7/6 b - 0 1"),
        Session {
            seats: Seats::people(),
            ..Session::default()
        },
    );
    app.update();
    let dialog = app.world().resource::<GameOverDialog>().clone();
    let o = dialog.outcome.expect("stalemate ends the game at once");
    assert_eq!(o.termination, Termination::Stalemate);
    assert_eq!(o.result_text(), "3/4-1/4");
    assert_eq!(
        *app.world().resource::<State<AppState>>().get(),
        AppState::GameOver
    );
}

#[test]
fn a_new_game_does_not_show_the_last_games_evaluation() {
    let mut app = new_app(
        "glinski",
        None,
        Session {
            seats: Seats::against_engines(Side::White),
            level: Skill::new(5).unwrap(),
            move_delay: Duration::ZERO,
            ..Session::default()
        },
    );
    let mv = game(&app).position().parse_move("f5f6").unwrap();
    app.world_mut().write_message(StepRequest::play(mv));
    run_until(&mut app, Duration::from_secs(10), |app| {
        app.world().resource::<EnginePlayer>().report.is_some() && game(app).turn_count() == 2
    });
    // An undo keeps it: the same game.
    app.world_mut().write_message(UndoRequest(2));
    app.update();
    assert!(app.world().resource::<EnginePlayer>().report.is_some());
    app.world_mut().write_message(hexchess::play::StartGame {
        variant: "mccooey".into(),
        seats: Seats::against_engines(Side::White),
        level: Skill::new(5).unwrap(),
        time_control: None,
        fen: None,
        moves: Vec::new(),
    });
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(game(&app).rules().id(), "mccooey");
    assert!(
        app.world().resource::<EnginePlayer>().report.is_none(),
        "the Gliński game's evaluation is gone"
    );
}
