//! The analysis board: the engine's lines follow the position shown, nobody's engine
//! plays meanwhile, and the session comes back as it was; the hint names a legal move.

use crate::common;

use std::time::{Duration, Instant};

use bevy::prelude::*;
use hexchess::game::{CurrentGame, ReviewRequest, StepRequest};
use hexchess::look::Settings;
use hexchess::play::analysis::{Analysis, AnalysisRequest};
use hexchess::play::opponent::EnginePlayer;
use hexchess::play::{Seats, Session};
use hexchess_core::Side;

fn app() -> App {
    let session = Session {
        seats: Seats::against_engines(Side::White),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.update();
    app
}

/// Runs frames until `done` holds (or fails after `limit`).
fn run_until(app: &mut App, limit: Duration, done: impl Fn(&App) -> bool) {
    let until = Instant::now() + limit;
    while !done(app) {
        assert!(Instant::now() < until, "not within {limit:?}");
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn lines(app: &App) -> usize {
    let shown = app.world().resource::<CurrentGame>().displayed();
    app.world().resource::<Analysis>().lines_for(&shown).len()
}

#[test]
fn an_engine_already_thinking_when_the_analysis_starts_does_not_play() {
    // Black's engine starts on its move; the analysis is turned on before it answers.
    let mut app = app();
    let start = app.world().resource::<CurrentGame>().displayed();
    app.world_mut()
        .write_message(StepRequest::play(start.parse_move("f5f6").unwrap()));
    let until = Instant::now() + Duration::from_secs(10);
    while app.world().resource::<EnginePlayer>().thinking_for() != Some(Side::Black) {
        assert!(Instant::now() < until, "the engine never started");
        app.update();
    }
    app.world_mut().write_message(AnalysisRequest::On);
    // Longer than the level's think time, and until its answer has come (a loaded
    // machine takes longer: this waits for the answer, not only for a time), and a few
    // frames after: it was not played.
    let started = Instant::now();
    let thinking = |app: &App| app.world().resource::<EnginePlayer>().is_thinking();
    while started.elapsed() < Duration::from_secs(4) || thinking(&app) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the engine never answered"
        );
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    for _ in 0..20 {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    let game = app.world().resource::<CurrentGame>();
    assert_eq!(game.position().ply_count(), 1, "no engine move");
}

#[test]
fn the_lines_follow_the_position_shown_and_nobody_plays_meanwhile() {
    let mut app = app();
    app.world_mut().write_message(AnalysisRequest::On);
    app.world_mut().write_message(AnalysisRequest::Lines(2));
    app.update();
    assert_eq!(app.world().resource::<Session>().seats, Seats::people());
    run_until(&mut app, Duration::from_secs(20), |a| lines(a) == 2);
    // The two lines start with different legal moves, the better first.
    let shown = app.world().resource::<CurrentGame>().displayed();
    let found = app.world().resource::<Analysis>().lines_for(&shown);
    assert_ne!(found[0].pv[0], found[1].pv[0]);
    assert!(found.iter().all(|l| shown.is_legal(l.pv[0])));
    assert_eq!(found[0].multipv, Some(1));

    // White moves; Black is the player's too now: no engine reply comes.
    let mv = shown.parse_move("f5f6").unwrap();
    app.world_mut().write_message(StepRequest::play(mv));
    app.update();
    run_until(&mut app, Duration::from_secs(20), |a| lines(a) == 2);
    let game = app.world().resource::<CurrentGame>();
    assert_eq!(game.position().ply_count(), 1, "no engine move");
    let after = game.displayed();
    let found = app.world().resource::<Analysis>().lines_for(&after);
    assert!(
        found.iter().all(|l| after.is_legal(l.pv[0])),
        "lines of the new position"
    );

    // Back to the start under review: the lines follow.
    app.world_mut().write_message(ReviewRequest(Some(0)));
    app.update();
    run_until(&mut app, Duration::from_secs(20), |a| lines(a) > 0);
    let start = app.world().resource::<CurrentGame>().displayed();
    assert_eq!(start.ply_count(), 0);

    // Off: the session is as it was.
    app.world_mut().write_message(AnalysisRequest::Off);
    app.update();
    assert_eq!(
        app.world().resource::<Session>().seats,
        Seats::against_engines(Side::White)
    );
    assert_eq!(lines(&app), 0);
}

#[test]
fn the_hint_names_a_legal_move() {
    let mut app = app();
    app.world_mut().write_message(AnalysisRequest::Hint);
    app.update();
    run_until(&mut app, Duration::from_secs(20), |a| {
        let pos = &a.world().resource::<CurrentGame>().position();
        a.world().resource::<Analysis>().hint_for(pos).is_some()
    });
    let pos = app.world().resource::<CurrentGame>().position().clone();
    let hint = app.world().resource::<Analysis>().hint_for(&pos).unwrap();
    assert!(pos.is_legal(hint));
}

#[test]
fn with_an_endgame_table_the_lines_give_the_mates_exact_length() {
    use std::sync::Arc;

    use hexchess::play::trainer::{Target, Trainer, pick_start};
    use hexchess_core::Catalog;
    use hexchess_engine::{Score, Tablebases};
    use hexchess_tablebase::{Material, Table, Value};

    let rules = Catalog::builtin()
        .get("glinski")
        .unwrap()
        .two_player_rules()
        .unwrap();
    let table =
        |m: &str| Arc::new(Table::generate(&rules, &Material::parse(m, &rules).unwrap()).unwrap());
    let krk = table("KRvK");
    let tables = Arc::new(Tablebases::new(vec![Arc::clone(&krk), table("KvK")]));
    // A rook mate too long for the search to see at once.
    let start = pick_start(&krk, Target::MateIn(14)).unwrap();
    let Some(Value::Win(plies)) = krk.probe(&start) else {
        panic!("a won start");
    };
    assert!(plies >= 21, "mate in {} moves", plies.div_ceil(2));

    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let fen = start.to_fen();
    let mut app = common::headless_app("glinski", Some(&fen), Settings::default(), session, None);
    app.update();
    // The tables of this position, as the trainer finds them on disk.
    app.world_mut().resource_mut::<Trainer>().tables = tables;
    app.world_mut().write_message(AnalysisRequest::On);
    let exact = Score::Mate(i32::from(plies).div_euclid(2) + 1);
    run_until(&mut app, Duration::from_secs(20), |a| {
        let shown = a.world().resource::<CurrentGame>().displayed();
        let lines = a.world().resource::<Analysis>().lines_for(&shown);
        lines.first().is_some_and(|l| l.score == exact)
    });
}
