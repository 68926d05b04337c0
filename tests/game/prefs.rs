//! Settings and the unfinished game kept between runs: written when they change, read
//! back at the next start, and a corrupt settings file ignored with a warning.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use hexchess::game::{CurrentGame, EndRequest};
use hexchess::look::{Settings, View};
use hexchess::play::{Seats, Session};
use hexchess::prefs::{
    AutosaveHeld, KeptPreferences, ModePref, Preferences, PrefsFiles, Resume, ResumeOffer,
    VariantKind, ViewPref, autosave,
};
use hexchess_core::{Catalog, GameOutcome, Side, Termination};
use hexchess_files::Files;

/// The tests' files are on the disk.
const DISK: Files = Files::disk();

fn folder(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hexchess-prefs-app-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A two-player game whose settings and autosave go to `dir`, after its first frame.
fn app(dir: &Path, prefs: Preferences, offer: ResumeOffer) -> App {
    let mut app = unstarted_app(dir, prefs, offer);
    app.update();
    app
}

/// The same before its first frame, for a test to add what it needs first.
fn unstarted_app(dir: &Path, prefs: Preferences, offer: ResumeOffer) -> App {
    let session = Session {
        seats: Seats::people(),
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
    let (read, warnings) = Preferences::read(&DISK, &dir.join("settings.ron")).unwrap();
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
    assert_eq!(read.session().seats, Seats::people());
}

#[test]
fn an_unfinished_game_is_kept_after_every_move_and_offered_again() {
    let dir = folder("autosave");
    let path = dir.join("autosave.pgn");
    let mut first = app(&dir, Preferences::default(), ResumeOffer::default());
    play(&mut first, &["f5f6", "c7c5", "Ni3"]);
    let unfinished = autosave::read(&DISK, &path).unwrap().expect("a game kept");
    assert_eq!(unfinished.plies, 3);
    assert_eq!(unfinished.variant, "glinski");
    assert_eq!(unfinished.record.main_line_turns(), ["f6", "c5", "Ni3"]);
    drop(first);

    // The next start: while the offer waits, the file is left alone.
    let mut second = app(
        &dir,
        Preferences::default(),
        ResumeOffer(Some(unfinished.clone())),
    );
    second.update();
    assert_eq!(
        autosave::read(&DISK, &path).unwrap(),
        Some(unfinished.clone())
    );
    second.world_mut().write_message(Resume::Continue);
    for _ in 0..3 {
        second.update();
    }
    let game = second.world().resource::<CurrentGame>();
    assert_eq!(game.position().ply_count(), 3, "the game continues");
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
    let found = autosave::read(&DISK, &path).unwrap();
    let mut fourth = app(&dir, Preferences::default(), ResumeOffer(found));
    fourth.world_mut().write_message(Resume::Discard);
    fourth.update();
    assert!(!path.exists());
    assert_eq!(
        fourth
            .world()
            .resource::<CurrentGame>()
            .position()
            .ply_count(),
        0
    );
}

#[test]
fn a_corrupt_settings_file_starts_the_defaults_with_a_warning() {
    let dir = folder("corrupt");
    let path = dir.join("settings.ron");
    std::fs::write(&path, "(view: Sideways)").unwrap();
    let (prefs, warnings) =
        Preferences::read_or_default(&DISK, &path, |id| VariantKind::of(&Catalog::builtin(), id));
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
    assert_eq!(
        Preferences::read(&DISK, &path).unwrap().0.view,
        ViewPref::TwoD
    );
    assert!(dir.join("settings.ron.bad").exists(), "the bad one is kept");
}

#[test]
fn an_unfinished_game_of_more_sides_comes_back_at_its_table_with_its_seats() {
    use hexchess::play::{EngineSeat, Seat, Seats, Session, StartGame};
    use hexchess_engine::multi::Strategy;

    let dir = folder("autosave-table");
    let path = dir.join("autosave.pgn");
    let mut first = app(&dir, Preferences::default(), ResumeOffer::default());
    let mut seats = Seats::default();
    *seats.seat_mut(Side::Black) = Seat::Engine(EngineSeat::new(Strategy::BestReply));
    *seats.seat_mut(Side::Third) = Seat::Person;
    // Two people and an engine that is not on move here: the turns are given.
    first.world_mut().write_message(StartGame {
        variant: "hexachess-3".into(),
        seats,
        level: hexchess::play::DEFAULT_LEVEL,
        time_control: None,
        fen: None,
        moves: ["e3e4", "c13d13", "l13l12"].map(String::from).to_vec(),
    });
    for _ in 0..4 {
        first.update();
    }
    let turns = first.world().resource::<CurrentGame>().move_texts();
    assert_eq!(turns.len(), 3);
    // Kept as soon as the game changed; White (a person) is on move again after the
    // round, so nothing else was played yet.
    let unfinished = autosave::read(&DISK, &path)
        .unwrap()
        .expect("the table's game kept");
    assert_eq!(unfinished.variant, "hexachess-3");
    assert_eq!(unfinished.record.main_line_turns(), turns);
    assert_eq!(unfinished.record.tag("Seats"), Some("human,brs,human"));
    // The settings keep the two-player variant: the next start does not refuse it
    // (a table's variant written there was moved aside as "not a two-player variant").
    // A setting changed at the table has the file written.
    first.world_mut().resource_mut::<Settings>().view = View::TwoD;
    first.update();
    first.update();
    assert!(dir.join("settings.ron").exists());
    let catalog = Catalog::builtin();
    let (kept, warnings) = Preferences::read_or_default(&DISK, &dir.join("settings.ron"), |id| {
        VariantKind::of(&catalog, id)
    });
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        (kept.variant.as_str(), kept.view),
        ("glinski", ViewPref::TwoD)
    );
    drop(first);

    let mut second = app(&dir, Preferences::default(), ResumeOffer(Some(unfinished)));
    second.world_mut().write_message(Resume::Continue);
    for _ in 0..6 {
        second.update();
    }
    let game = second.world().resource::<CurrentGame>();
    assert_eq!(game.side_count(), 3);
    assert_eq!(game.move_texts()[..3], turns[..]);
    let sat = second.world().resource::<Session>().seats;
    for side in [Side::White, Side::Black, Side::Third] {
        assert_eq!(sat.seat(side), seats.seat(side), "{side:?}");
    }
}

#[test]
fn a_start_with_a_game_of_its_own_asks_before_the_unfinished_game_is_replaced() {
    let dir = folder("own-game");
    let path = dir.join("autosave.pgn");
    let catalog = Catalog::builtin();
    let mut first = app(&dir, Preferences::default(), ResumeOffer::default());
    play(&mut first, &["f5f6", "c7c5", "Ni3"]);
    drop(first);
    let kept = std::fs::read(&path).unwrap();

    // `--moves`, `--load`, `--fen` or `--variant`: the game is offered all the same,
    // and while the offer waits the run's own moves are not written over it.
    let (offer, warning) = autosave::offer_at_start(&DISK, &path, &catalog);
    assert_eq!(warning, None);
    let offer = offer.expect("the unfinished game is offered");
    assert_eq!(offer.plies, 3);
    let mut second = app(&dir, Preferences::default(), ResumeOffer(Some(offer)));
    play(&mut second, &["e4e5", "e7e6"]);
    assert_eq!(std::fs::read(&path).unwrap(), kept, "not replaced unasked");

    // Kept for later: this run's game goes on unsaved, the file stays as it was.
    second.world_mut().write_message(Resume::KeepForLater);
    second.update();
    assert!(second.world().resource::<ResumeOffer>().0.is_none());
    assert_eq!(
        *second.world().resource::<AutosaveHeld>(),
        AutosaveHeld(true)
    );
    play(&mut second, &["d3d5"]);
    assert_eq!(std::fs::read(&path).unwrap(), kept);
    assert_eq!(
        second
            .world()
            .resource::<CurrentGame>()
            .position()
            .ply_count(),
        3,
        "the run's own game is on the board"
    );
    drop(second);

    // The next start finds it still; discarding it lets the new game be kept.
    let (offer, _) = autosave::offer_at_start(&DISK, &path, &catalog);
    let mut third = app(&dir, Preferences::default(), ResumeOffer(offer));
    third.world_mut().write_message(Resume::Discard);
    third.update();
    assert!(!path.exists());
    play(&mut third, &["f5f6"]);
    let now = autosave::read(&DISK, &path)
        .unwrap()
        .expect("the new game kept");
    assert_eq!(now.record.main_line_turns(), ["f6"]);
}

#[test]
fn an_unfinished_game_that_cannot_be_read_is_kept_aside_before_anything_is_written() {
    let catalog = Catalog::builtin();
    let good = "[Variant \"glinski\"]\n\n1. f6 c5 *\n";
    let cases: [(&str, Vec<u8>, &str); 4] = [
        (
            "junk",
            b"this is not a game at all {".to_vec(),
            "autosave.pgn",
        ),
        (
            "binary",
            vec![0x00, 0xff, 0x13, 0x88, 0x00, 0x9c],
            "autosave.pgn",
        ),
        (
            "illegal",
            b"[Variant \"glinski\"]\n\n1. f6 c5 2. Qxk9 *\n".to_vec(),
            "Qxk9",
        ),
        (
            "gone",
            b"[Variant \"no-such-variant\"]\n\n1. f6 c5 *\n".to_vec(),
            "no-such-variant",
        ),
    ];
    for (name, bytes, named) in cases {
        let dir = folder(&format!("unreadable-{name}"));
        let path = dir.join("autosave.pgn");
        std::fs::write(&path, &bytes).unwrap();
        let (offer, warning) = autosave::offer_at_start(&DISK, &path, &catalog);
        assert!(offer.is_none(), "{name}");
        let warning = warning.unwrap_or_else(|| panic!("{name}: nothing said"));
        let aside = dir.join("autosave.pgn.bad");
        assert!(
            warning.contains(named) && warning.contains(&aside.display().to_string()),
            "{name}: {warning}"
        );
        assert_eq!(std::fs::read(&aside).unwrap(), bytes, "{name}: kept whole");
        // The next game is kept in its place; the one set aside stays.
        let mut app = app(&dir, Preferences::default(), ResumeOffer(offer));
        play(&mut app, &["f5f6"]);
        assert!(autosave::read(&DISK, &path).unwrap().is_some(), "{name}");
        assert_eq!(std::fs::read(&aside).unwrap(), bytes, "{name}");
    }
    // A good game is offered, and left where it is.
    let dir = folder("readable");
    let path = dir.join("autosave.pgn");
    std::fs::write(&path, good).unwrap();
    assert!(autosave::offer_at_start(&DISK, &path, &catalog).0.is_some());
    assert!(path.exists());
}

#[test]
fn a_latin1_byte_in_a_comment_does_not_cost_the_unfinished_game() {
    let dir = folder("latin1");
    let path = dir.join("autosave.pgn");
    std::fs::write(
        &path,
        b"[Variant \"glinski\"]\n[White \"Ren\xe9\"]\n\n1. f6 {caf\xe9} c5 *\n",
    )
    .unwrap();
    let (offer, warning) = autosave::offer_at_start(&DISK, &path, &Catalog::builtin());
    assert_eq!(warning, None);
    let offer = offer.expect("offered");
    assert_eq!(offer.record.main_line_turns(), ["f6", "c5"]);
    assert_eq!(offer.record.tag("White"), Some("René"));
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_the_autosave_is_set_aside_at_once() {
    let dir = folder("fifo");
    let path = dir.join("autosave.pgn");
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    // Opened, it would block here for ever: nothing writes to it.
    let (offer, warning) = autosave::offer_at_start(&DISK, &path, &Catalog::builtin());
    assert!(offer.is_none());
    assert!(warning.is_some_and(|w| w.contains("FIFO")));
    let mut app = app(&dir, Preferences::default(), ResumeOffer::default());
    play(&mut app, &["f5f6"]);
    assert!(
        autosave::read(&DISK, &path).unwrap().is_some(),
        "a regular file now"
    );
}

#[test]
fn a_window_kept_larger_than_the_screen_is_fitted_and_the_settings_copied_aside() {
    use bevy::window::{Monitor, PrimaryMonitor, PrimaryWindow, WindowResolution};
    let dir = folder("window");
    let settings = dir.join("settings.ron");
    let text = "(window: (16384, 16384), level: 4, mode: TwoPlayers)";
    std::fs::write(&settings, text).unwrap();
    let (prefs, warnings) = Preferences::read_or_default(&DISK, &settings, |id| {
        VariantKind::of(&Catalog::builtin(), id)
    });
    assert!(warnings.is_empty(), "within the file's range: {warnings:?}");
    let mut app = unstarted_app(&dir, prefs, ResumeOffer::default());
    app.world_mut().spawn((
        Window {
            resolution: WindowResolution::new(16384, 16384),
            ..Window::default()
        },
        PrimaryWindow,
    ));
    app.world_mut().spawn((
        Monitor {
            name: Some("test".into()),
            physical_width: 1920,
            physical_height: 1080,
            physical_position: IVec2::ZERO,
            refresh_rate_millihertz: None,
            scale_factor: 1.0,
            video_modes: Vec::new(),
        },
        PrimaryMonitor,
    ));
    app.update();
    let mut windows = app
        .world_mut()
        .query_filtered::<&Window, With<PrimaryWindow>>();
    let window = windows.single(app.world()).unwrap();
    assert_eq!(
        (window.resolution.width(), window.resolution.height()),
        (1920.0, 1080.0)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("settings.ron.bad")).unwrap(),
        text,
        "the file as the player left it"
    );
    // The fitted size is what the settings keep from now on.
    app.update();
    app.update();
    assert_eq!(
        Preferences::read(&DISK, &settings).unwrap().0.window,
        (1920, 1080)
    );
}
