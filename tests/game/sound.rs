//! What the game would play: a cue for each quiet move, capture, check and ending, in
//! two-player games and at the table; nothing for a new, loaded or stepped-back game;
//! and (with the `sound` feature) a short-lived player at the chosen loudness, none
//! when muted. Whether a move captures or checks is found here by the test's own
//! means (the position before and after), not from the game's messages.

use crate::common;

use std::time::Duration;

use bevy::prelude::*;
use hexchess::game::{
    BoardPosition, CurrentGame, EndRequest, LoadRequest, StepRequest, UndoRequest,
};
use hexchess::look::Settings;
use hexchess::play::{Seats, Session};
use hexchess::sound::{Cue, SoundSettings};
use hexchess_core::{GameOutcome, Move, Side, Termination};

/// Every cue written, in order.
#[derive(Resource, Default)]
struct Heard(Vec<Cue>);

fn listen(mut cues: MessageReader<Cue>, mut heard: ResMut<Heard>) {
    heard.0.extend(cues.read().copied());
}

fn app(variant: &str, fen: Option<&str>) -> App {
    let settings = Settings {
        animate: false,
        ..Settings::default()
    };
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let frame = Some(Duration::from_millis(50));
    let mut app = common::headless_app(variant, fen, settings, session, frame);
    #[cfg(feature = "sound")]
    app.init_asset::<bevy::audio::AudioSource>();
    app.init_resource::<Heard>().add_systems(Last, listen);
    app.update();
    app
}

fn position(app: &App) -> BoardPosition {
    app.world().resource::<CurrentGame>().position().clone()
}

/// Plays `mv` and returns the cues it made.
fn hear(app: &mut App, mv: Move) -> Vec<Cue> {
    app.world_mut().resource_mut::<Heard>().0.clear();
    app.world_mut().write_message(StepRequest::play(mv));
    app.update();
    app.update();
    std::mem::take(&mut app.world_mut().resource_mut::<Heard>().0)
}

fn after(pos: &BoardPosition, mv: Move) -> BoardPosition {
    let mut p = pos.clone();
    p.make_move(mv);
    p
}

/// A line from `pos` of at most `depth` plies after which the side to move can capture.
fn line_to_a_capture(pos: &BoardPosition, depth: u32) -> Option<Vec<Move>> {
    if pos.legal_moves().iter().any(|m| pos.is_capture(*m)) {
        return Some(Vec::new());
    }
    if depth == 0 {
        return None;
    }
    pos.legal_moves().iter().find_map(|m| {
        let mut line = line_to_a_capture(&after(pos, *m), depth - 1)?;
        line.insert(0, *m);
        Some(line)
    })
}

#[test]
fn a_quiet_move_a_capture_a_check_and_a_mate_each_sound_as_themselves() {
    let mut app = app("glinski", None);
    let start = position(&app);
    let quiet = *start
        .legal_moves()
        .iter()
        .find(|m| !start.is_capture(**m) && !after(&start, **m).in_check())
        .unwrap();
    assert_eq!(hear(&mut app, quiet), [Cue::Move]);

    let line = line_to_a_capture(&position(&app), 3).expect("contact within three plies");
    for mv in line {
        hear(&mut app, mv);
    }
    let pos = position(&app);
    let capture = *pos
        .legal_moves()
        .iter()
        .find(|m| pos.is_capture(**m) && !after(&pos, **m).in_check())
        .expect("a capture that does not check");
    assert_eq!(hear(&mut app, capture), [Cue::Capture]);

    // McCooey, White mates in one with two rooks: a check that is not mate sounds as a
    // check, the mate as the end of the game.
    let fen = "6/7/8/9/9R/1R9/10/9/4K3/6k/6 w - 0 1";
    let mut app = self::app("mccooey", Some(fen));
    let pos = position(&app);
    let ends = |m: &Move| after(&pos, *m).outcome().is_some();
    let check = *pos
        .legal_moves()
        .iter()
        .find(|m| after(&pos, **m).in_check() && !ends(m))
        .expect("a check that is not mate");
    let mate = *pos.legal_moves().iter().find(|m| ends(m)).unwrap();
    assert_eq!(hear(&mut app, check), [Cue::Check]);
    app.world_mut().write_message(UndoRequest(1));
    app.update();
    assert_eq!(app.world().resource::<Heard>().0, [], "undo is silent");
    assert_eq!(hear(&mut app, mate), [Cue::GameEnd]);
}

#[test]
fn a_resignation_ends_with_its_sound_and_a_loaded_game_is_silent() {
    let mut app = app("glinski", None);
    app.world_mut().write_message(EndRequest(GameOutcome::win(
        Side::Black,
        Termination::Resignation,
    )));
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Heard>().0, [Cue::GameEnd]);

    // A finished game loaded: the board changes, nothing is heard.
    app.world_mut().resource_mut::<Heard>().0.clear();
    let record = hexchess::game::records::game_record(
        app.world().resource::<CurrentGame>(),
        &Session::default().players(2),
    );
    let mut fresh = self::app("glinski", None);
    fresh.world_mut().write_message(LoadRequest(record));
    fresh.update();
    fresh.update();
    assert!(fresh.world().resource::<CurrentGame>().outcome().is_some());
    assert_eq!(fresh.world().resource::<Heard>().0, []);
}

#[cfg(feature = "sound")]
#[test]
fn a_cue_plays_at_the_chosen_loudness_for_its_length_and_not_when_muted() {
    use bevy::audio::{AudioPlayer, PlaybackSettings, Volume};

    let mut app = app("glinski", None);
    app.world_mut().resource_mut::<SoundSettings>().volume = 0.4;
    let quiet = position(&app).legal_moves()[0];
    hear(&mut app, quiet);
    let mut players = app.world_mut().query::<(&AudioPlayer, &PlaybackSettings)>();
    let playing: Vec<Volume> = players
        .iter(app.world())
        .map(|(_, settings)| settings.volume)
        .collect();
    assert_eq!(playing, [Volume::Linear(0.4)]);
    // Without an audio device nothing ends the playback: the game clears it after
    // the sound's length (0.12 s) and a margin, here in frames of 50 ms.
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(players.iter(app.world()).count(), 0);

    app.world_mut().resource_mut::<SoundSettings>().on = false;
    let reply = position(&app).legal_moves()[0];
    assert_eq!(
        hear(&mut app, reply),
        [Cue::Move],
        "the cue is still decided"
    );
    assert_eq!(players.iter(app.world()).count(), 0, "but nothing plays");
}

#[test]
fn the_table_sounds_its_moves_and_captures() {
    use hexchess::game::StepRequest;
    use hexchess::play::StartGame;
    use hexchess_core::game::Step;

    let mut app = app("glinski", None);
    let start = |app: &mut App, turns: &[&str]| {
        app.world_mut().write_message(StartGame {
            variant: "hexachess-3".into(),
            seats: Seats::people(),
            level: hexchess::play::DEFAULT_LEVEL,
            time_control: None,
            fen: None,
            moves: turns.iter().map(|t| t.to_string()).collect(),
        });
        for _ in 0..4 {
            app.update();
        }
    };
    // Set in front of a capture: White's g15n7, then Grey's a14n7 can take it.
    start(
        &mut app,
        &[
            "e3e4", "c13d13", "l13l12", "d1e15", "c14d14", "i17n9", "e15g15", "a15g7", "n9l13",
            "g15n7",
        ],
    );
    assert_eq!(
        app.world().resource::<Heard>().0,
        [],
        "a new table is silent"
    );
    let step = |app: &mut App, capture: bool| {
        let game = &app.world().resource::<CurrentGame>().played;
        let found = game.steps().into_iter().find(|s| match s {
            Step::Play(m) => {
                let takes = game.position().piece_at(m.to()).is_some();
                let mut next = game.clone();
                next.play_unchecked(*s);
                takes == capture && !next.sides_in().iter().any(|&x| next.in_check(x))
            }
            _ => false,
        });
        let found = found.expect("such a step");
        app.world_mut().resource_mut::<Heard>().0.clear();
        app.world_mut().write_message(StepRequest(found));
        app.update();
        app.update();
        std::mem::take(&mut app.world_mut().resource_mut::<Heard>().0)
    };
    assert_eq!(step(&mut app, true), [Cue::Capture]);
    assert_eq!(step(&mut app, false), [Cue::Move]);
}

#[cfg(feature = "sound")]
#[test]
fn the_players_own_sounds_replace_the_games_and_a_bad_one_is_named() {
    use bevy::audio::AudioSource;
    use hexchess::game::GameNotice;
    use hexchess::sound::{SoundFolder, Sounds, synth};

    let dir = std::env::temp_dir().join(format!("hexchess-own-sounds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A 0.3 s move at 22,050 samples a second; a check that is no WAV file.
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 22_050,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(dir.join("move.wav"), spec).unwrap();
    for i in 0..6_615 {
        w.write_sample(((i % 50) * 200) as i16).unwrap();
    }
    w.finalize().unwrap();
    std::fs::write(dir.join("check.wav"), "not a sound").unwrap();

    let settings = Settings {
        animate: false,
        ..Settings::default()
    };
    let mut app = common::headless_app("glinski", None, settings, Session::default(), None);
    app.init_asset::<AudioSource>()
        .insert_resource(SoundFolder(Some(dir.clone())));
    app.update();
    let decoded = |app: &App, cue: Cue| {
        let sounds = app.world().resource::<Sounds>();
        let source = app
            .world()
            .resource::<Assets<AudioSource>>()
            .get(sounds.get(cue).unwrap())
            .unwrap();
        let reader = hound::WavReader::new(std::io::Cursor::new(source.bytes.to_vec())).unwrap();
        (reader.spec().sample_rate, reader.len())
    };
    assert_eq!(
        decoded(&app, Cue::Move),
        (22_050, 6_615),
        "the player's own"
    );
    let game_check = synth::samples(Cue::Check).len() as u32;
    assert_eq!(
        decoded(&app, Cue::Check),
        (synth::RATE, game_check),
        "the game's"
    );
    let notices: Vec<String> = app
        .world()
        .resource::<Messages<GameNotice>>()
        .iter_current_update_messages()
        .map(|n| n.0.clone())
        .collect();
    assert!(
        notices
            .iter()
            .any(|n| n.contains("check.wav") && n.contains("not a WAV file")),
        "{notices:?}"
    );
}
