//! Opening games, positions and variants from files, drops and the clipboard, and
//! saving a game as PGN that reads back.

use crate::common;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;
use hexchess::game::files::{GameChoice, OpenFile, OpenText};
use hexchess::game::records::{game_pgn, load, save_pgn};
use hexchess::game::{CurrentGame, EndRequest, StepRequest};
use hexchess::look::Settings;
use hexchess::play::{Seats, Session};
use hexchess_core::{GameOutcome, Side, Termination};
use hexchess_files::Files;

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hexchess-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn app() -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.update();
    app
}

fn run(app: &mut App) {
    for _ in 0..3 {
        app.update();
    }
}

fn game(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

const THREE_GAMES: &str = "[Event \"one\"]\n[White \"Ann\"]\n\n1. f6 c5 *\n\n[Event \"two\"]\n[Variant \"mccooey\"]\n\n1. f6 *\n\n[Event \"three\" oops]\n\n1. f6 *\n";

#[test]
fn a_file_of_several_games_waits_for_a_pick_and_names_the_bad_one() {
    let dir = folder("several");
    let path = dir.join("games.pgn");
    std::fs::write(&path, THREE_GAMES).unwrap();
    let mut app = app();
    app.world_mut().write_message(OpenFile(path.clone()));
    run(&mut app);
    let choice = app.world().resource::<GameChoice>();
    assert_eq!(choice.games.len(), 2);
    assert_eq!(choice.games[1].variant(), "mccooey");
    assert_eq!(choice.problems.len(), 1);
    assert!(
        choice.problems[0].starts_with("game 3, line 11"),
        "{:?}",
        choice.problems
    );
    assert_eq!(game(&app).position().ply_count(), 0, "nothing loaded yet");
    // From the command line: the file's games counted, one chosen by number.
    let e = load(&Files::disk(), &path, None).unwrap_err();
    assert!(e.contains("holds 3 games"), "{e}");
    assert_eq!(
        load(&Files::disk(), &path, Some(2)).unwrap().tag("Variant"),
        Some("mccooey")
    );
    assert!(
        load(&Files::disk(), &path, Some(3))
            .unwrap_err()
            .contains("line 11")
    );
    assert!(
        load(&Files::disk(), &path, Some(4))
            .unwrap_err()
            .contains("no game 4")
    );
}

#[test]
fn one_game_dropped_on_the_window_loads_and_a_position_pasted_starts() {
    let dir = folder("drop");
    let path = dir.join("one.pgn");
    std::fs::write(&path, "[Event \"x\"]\n\n1. f6 c5 2. Ni3 *\n").unwrap();
    let mut app = app();
    app.world_mut().write_message(FileDragAndDrop::DroppedFile {
        window: Entity::PLACEHOLDER,
        path_buf: path,
    });
    run(&mut app);
    assert_eq!(game(&app).position().ply_count(), 3);
    // A Grand Hexachess position from the clipboard, while Gliński is on the board:
    // it fits only Grand's board. (A FEN that fits the board on screen stays there:
    // Gliński's and McCooey's boards are the same.)
    let fen = "2DKV2/8/BNRQBWRNB/10/PPPPPPPPPPP/12/13/12/ppppppppppp/10/bnrqbwrnb/8/2dkv2 w - 0 1";
    app.world_mut().write_message(OpenText(fen.into()));
    run(&mut app);
    assert_eq!(game(&app).rules().id(), "grand");
    assert_eq!(game(&app).position().to_fen(), fen);
    // Garbage changes nothing.
    app.world_mut()
        .write_message(OpenText("not a game at all {".into()));
    run(&mut app);
    assert_eq!(game(&app).position().to_fen(), fen);
}

#[test]
fn a_variant_file_dropped_loads_and_starts() {
    let dir = folder("variant");
    let path = dir.join("mine.ron");
    let text =
        include_str!("../../variants/glinski.ron").replace("id: \"glinski\"", "id: \"mine\"");
    std::fs::write(&path, text).unwrap();
    let mut app = app();
    app.world_mut().write_message(OpenFile(path));
    run(&mut app);
    assert_eq!(game(&app).rules().id(), "mine");
}

#[test]
fn a_saved_game_is_pgn_with_its_ending_and_reads_back() {
    let dir = folder("save");
    let path = dir.join("sub").join("game.pgn");
    let mut app = app();
    for m in ["f5f6", "c7c5"] {
        let mv = game(&app).position().parse_move(m).unwrap();
        app.world_mut().write_message(StepRequest::play(mv));
        run(&mut app);
    }
    app.world_mut().write_message(EndRequest(GameOutcome::win(
        Side::Black,
        Termination::Resignation,
    )));
    run(&mut app);
    let session = app.world().resource::<Session>();
    let pgn = game_pgn(game(&app), &session.players(2));
    save_pgn(&Files::disk(), &path, &pgn).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \""),
        "{text}"
    );
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.contains("[Termination \"normal\"]"), "{text}");
    assert!(text.contains("1. f6 c5 {"), "{text}");
    let back = load(&Files::disk(), &path, None).unwrap();
    assert_eq!(back.main_line_turns(), ["f6", "c5"]);
}
