//! The engine thinks while frames keep running. Alone in its own test binary (the rest of
//! the game's tests are one binary, `tests/game`), so that other tests' engine threads do
//! not compete with its frames for the two cores.

#[path = "game/common.rs"]
mod common;

use std::time::{Duration, Instant};

use bevy::prelude::*;
use hexchess::game::CurrentGame;
use hexchess::look::Settings;
use hexchess::play::EnginePlayer;
use hexchess::play::{Seats, Session};
use hexchess_core::Side;
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

#[test]
fn the_engine_replies_while_frames_keep_running() {
    // The engine has White and thinks for 1.5 s; no frame may wait for it.
    let mut app = new_app(
        "glinski",
        None,
        Session {
            seats: Seats::against_engines(Side::Black),
            level: Skill::FULL,
            think_time: Duration::from_millis(1500),
            move_delay: Duration::from_millis(100),
            ..Session::default()
        },
    );
    let start = Instant::now();
    let mut slowest = Duration::ZERO;
    let mut frames = 0;
    while game(&app).position().ply_count() == 0 {
        assert!(start.elapsed() < Duration::from_secs(20), "no engine move");
        let t = Instant::now();
        app.update();
        slowest = slowest.max(t.elapsed());
        frames += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        start.elapsed() >= Duration::from_millis(1400),
        "it thought for its time"
    );
    assert!(frames >= 3, "frames ran while it thought: {frames}");
    // A frame that waited for the search would take the whole 1.5 s; half of that
    // leaves room for a busy machine's scheduling.
    assert!(
        slowest < Duration::from_millis(750),
        "a frame took {slowest:?}"
    );
    let report = app
        .world()
        .resource::<EnginePlayer>()
        .report
        .clone()
        .expect("an evaluation");
    assert_eq!(report.side, Side::White);
    // Numbered SAN, like the move list: "1. e6 ...".
    assert!(
        report.line.starts_with(|c: char| c.is_ascii_digit()) && report.line.contains(". "),
        "{}",
        report.line
    );
}
