//! Settings and the unfinished game kept between runs: written when they change, read
//! back at the next start, and a corrupt settings file ignored with a warning.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use hexchess::game::{EndRequest, GameState};
use hexchess::look::{Settings, View};
use hexchess::play::{Mode, Session};
use hexchess::prefs::{
    KeptPreferences, ModePref, Preferences, PrefsFiles, Resume, ResumeOffer, ViewPref, autosave,
};
use hexchess_core::{GameOutcome, Side, Termination};

fn folder(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hexchess-prefs-app-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A two-player game whose settings and autosave go to `dir`.
fn app(dir: &Path, prefs: Preferences, offer: ResumeOffer) -> App {
    let session = Session {
        mode: Mode::HumanVsHuman,
        ..prefs.session()
    };
    let mut app = common::headless_app("glinski", None, prefs.settings(), session, None);
    app.insert_resource(PrefsFiles {
        settings: Some(dir.join("settings.ron")),
        autosave: Some(dir.join("autosave.pgn")),
        every: Duration::ZERO,
    })
    .insert_resource(KeptPreferences::new(prefs))
    .insert_resource(offer);
    app.update();
    app
}

fn play(app: &mut App, moves: &[&str]) {
    common::play(app, moves, 2);
}

#[test]
fn changed_settings_are_written_and_the_next_start_reads_them() {
    let dir = folder("settings");
    let two_players = Preferences {
        mode: ModePref::TwoPlayers,
        ..Preferences::default()
    };
    let mut app = app(&dir, two_players, ResumeOffer::default());
    assert!(!dir.join("settings.ron").exists(), "nothing changed yet");
    app.world_mut().resource_mut::<Settings>().view = View::TwoD;
    app.world_mut().resource_mut::<Settings>().show_coordinates = false;
    app.update();
    app.update();
    let (read, warnings) = Preferences::read(&dir.join("settings.ron")).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(read.view, ViewPref::TwoD);
    assert!(!read.show_coordinates);
    assert_eq!(read.mode, ModePref::TwoPlayers);
    assert_eq!(read.variant, "glinski");
    // The next start from what was read shows the same.
    let settings = read.settings();
    assert_eq!(
        (settings.view, settings.show_coordinates),
        (View::TwoD, false)
    );
    assert_eq!(read.session().mode, Mode::HumanVsHuman);
}

#[test]
fn an_unfinished_game_is_kept_after_every_move_and_offered_again() {
    let dir = folder("autosave");
    let path = dir.join("autosave.pgn");
    let mut first = app(&dir, Preferences::default(), ResumeOffer::default());
    play(&mut first, &["f5f6", "c7c5", "Ni3"]);
    let unfinished = autosave::read(&path).unwrap().expect("a game kept");
    assert_eq!(unfinished.plies, 3);
    assert_eq!(unfinished.variant, "glinski");
    assert_eq!(unfinished.record.moves, ["f6", "c5", "Ni3"]);
    drop(first);

    // The next start: while the offer waits, the file is left alone.
    let mut second = app(
        &dir,
        Preferences::default(),
        ResumeOffer(Some(unfinished.clone())),
    );
    second.update();
    assert_eq!(autosave::read(&path).unwrap(), Some(unfinished.clone()));
    second.world_mut().write_message(Resume::Continue);
    for _ in 0..3 {
        second.update();
    }
    let game = second.world().resource::<GameState>();
    assert_eq!(game.position.ply_count(), 3, "the game continues");
    assert!(second.world().resource::<ResumeOffer>().0.is_none());

    // Over: nothing to offer any more.
    second
        .world_mut()
        .write_message(EndRequest(GameOutcome::win(
            Side::White,
            Termination::Resignation,
        )));
    second.update();
    second.update();
    assert!(!path.exists(), "a finished game is not kept");

    // Discarding an offer removes the file.
    let mut third = app(&dir, Preferences::default(), ResumeOffer::default());
    play(&mut third, &["f5f6"]);
    assert!(path.exists());
    let found = autosave::read(&path).unwrap();
    let mut fourth = app(&dir, Preferences::default(), ResumeOffer(found));
    fourth.world_mut().write_message(Resume::Discard);
    fourth.update();
    assert!(!path.exists());
    assert_eq!(
        fourth.world().resource::<GameState>().position.ply_count(),
        0
    );
}

#[test]
fn a_corrupt_settings_file_starts_the_defaults_with_a_warning() {
    let dir = folder("corrupt");
    let path = dir.join("settings.ron");
    std::fs::write(&path, "(view: Sideways)").unwrap();
    let (prefs, warnings) = Preferences::read_or_default(&path);
    assert_eq!(prefs, Preferences::default());
    assert!(warnings[0].contains("settings.ron:1:"), "{warnings:?}");
    // The game runs with them and writes a good file at the next change.
    let prefs = Preferences {
        mode: ModePref::TwoPlayers,
        ..prefs
    };
    let mut app = app(&dir, prefs, ResumeOffer::default());
    app.world_mut().resource_mut::<Settings>().view = View::TwoD;
    app.update();
    assert_eq!(Preferences::read(&path).unwrap().0.view, ViewPref::TwoD);
    assert!(dir.join("settings.ron.bad").exists(), "the bad one is kept");
}

#[test]
fn an_unfinished_game_of_more_sides_comes_back_at_its_table_with_its_seats() {
    use hexchess::game::Seating;
    use hexchess::table::{SeatPlayer, TableRequest, TableState};
    use hexchess_engine::multi::Strategy;

    let dir = folder("autosave-table");
    let path = dir.join("autosave.pgn");
    let mut first = app(&dir, Preferences::default(), ResumeOffer::default());
    let seats = vec![
        SeatPlayer::Human,
        SeatPlayer::Engine(Strategy::BestReply),
        SeatPlayer::Human,
    ];
    // Two people and an engine that never moves here: the turns are given.
    first.world_mut().write_message(TableRequest::Start {
        variant: "hexachess-3".into(),
        seats: seats.clone(),
        fen: None,
        turns: ["e3e4", "c13d13", "l13l12"].map(String::from).to_vec(),
    });
    for _ in 0..4 {
        first.update();
    }
    let turns = first.world().resource::<TableState>().game.turn_texts();
    assert_eq!(turns.len(), 3);
    // Kept as soon as the table changed; the engine's seat is back on move (White's
    // turn again after the round), so nothing else was played yet.
    let unfinished = autosave::read(&path)
        .unwrap()
        .expect("the table's game kept");
    assert_eq!(unfinished.variant, "hexachess-3");
    assert_eq!(unfinished.record.moves, turns);
    assert_eq!(unfinished.record.tag("Seats"), Some("human,brs,human"));
    drop(first);

    let mut second = app(&dir, Preferences::default(), ResumeOffer(Some(unfinished)));
    second.world_mut().write_message(Resume::Continue);
    for _ in 0..6 {
        second.update();
    }
    assert_eq!(
        *second.world().resource::<State<Seating>>().get(),
        Seating::Table
    );
    let table = second.world().resource::<TableState>();
    assert_eq!(table.seats, seats);
    assert_eq!(table.game.turn_texts()[..3], turns[..]);
}
