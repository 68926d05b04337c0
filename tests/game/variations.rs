//! The tree of lines tried on the analysis board: a move from an earlier position
//! starts a side line, each line can be gone to, promoted and deleted.

use crate::common;

use bevy::prelude::*;
use hexchess::game::{CurrentGame, ReviewRequest};
use hexchess::look::Settings;
use hexchess::play::analysis::AnalysisRequest;
use hexchess::play::variations::{VariationRequest, Variations};
use hexchess::play::{Seats, Session};

fn app() -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.update();
    app.world_mut().write_message(AnalysisRequest::On);
    app.update();
    app
}

fn run(app: &mut App) {
    for _ in 0..4 {
        app.update();
    }
}

fn play(app: &mut App, m: &str) {
    common::play(app, &[m], 4);
}

/// The game's moves in SAN.
fn line(app: &App) -> Vec<String> {
    app.world().resource::<CurrentGame>().move_texts()
}

/// The tree written as PGN movetext (main line, side lines in parentheses).
fn tree_text(app: &App) -> String {
    let v = app.world().resource::<Variations>();
    let mut game = hexchess_core::pgn::PgnGame::new();
    game.tree = v.tree.clone();
    let text = game.to_string();
    text.lines()
        .skip_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .trim_end_matches('*')
        .trim()
        .to_string()
}

#[test]
fn a_move_from_an_earlier_position_starts_a_side_line() {
    let mut app = app();
    play(&mut app, "f5f6");
    play(&mut app, "c7c5");
    play(&mut app, "Ni3");
    // Back to the position after 1. f6, and another reply.
    app.world_mut().write_message(ReviewRequest(Some(1)));
    run(&mut app);
    assert_eq!(line(&app), ["f6"], "the position shown is the board's now");
    play(&mut app, "e7e6");
    assert_eq!(line(&app), ["f6", "e6"]);
    assert_eq!(tree_text(&app), "1. f6 c5 ( 1... e6 ) 2. Ni3");

    // Go to the main line's end, then promote the side line.
    let (c5, e6, ni3) = {
        let v = app.world().resource::<Variations>();
        let f6 = v.tree.children(v.tree.root())[0];
        let kids = v.tree.children(f6).to_vec();
        (kids[0], kids[1], v.tree.children(kids[0])[0])
    };
    app.world_mut().write_message(VariationRequest::GoTo(ni3));
    run(&mut app);
    assert_eq!(line(&app), ["f6", "c5", "Ni3"]);
    app.world_mut().write_message(VariationRequest::Promote(e6));
    run(&mut app);
    assert_eq!(tree_text(&app), "1. f6 e6 ( 1... c5 2. Ni3 )");
    assert_eq!(
        line(&app),
        ["f6", "c5", "Ni3"],
        "promoting does not move the board"
    );

    // Deleting the line the board is on takes the board back to where it branched.
    app.world_mut().write_message(VariationRequest::Delete(c5));
    run(&mut app);
    assert_eq!(tree_text(&app), "1. f6 e6");
    assert_eq!(line(&app), ["f6"]);
}

#[test]
fn a_game_file_brings_its_side_lines_and_saving_keeps_them() {
    use hexchess::game::files::OpenText;
    use hexchess::game::records::game_pgn_with;

    let mut app = app();
    let text = "[Event \"study\"]\n\n1. f6 {the usual} c5 (1... e6 $1) 2. Ni3 *\n";
    app.world_mut().write_message(OpenText(text.into()));
    run(&mut app);
    assert_eq!(line(&app), ["f6", "c5", "Ni3"]);
    assert_eq!(
        tree_text(&app),
        "1. f6 { the usual } 1... c5 ( 1... e6 $1 ) 2. Ni3"
    );
    // Going into the side line and saving: the tree is written, the result left open.
    let e6 = {
        let v = app.world().resource::<Variations>();
        let f6 = v.tree.children(v.tree.root())[0];
        v.tree.children(f6)[1]
    };
    app.world_mut().write_message(VariationRequest::GoTo(e6));
    run(&mut app);
    assert_eq!(line(&app), ["f6", "e6"]);
    let game = app.world().resource::<CurrentGame>().clone();
    let variations = app.world().resource::<Variations>();
    let tree = variations
        .worth_saving(&game)
        .expect("side lines worth saving");
    let players = app.world().resource::<Session>().players(2);
    let text = game_pgn_with(&game, &players, Some(tree)).to_string();
    assert!(
        text.contains("1. f6 { the usual } 1... c5 ( 1... e6 $1 ) 2. Ni3 *"),
        "{text}"
    );
    assert!(text.contains("[Result \"*\"]"), "{text}");
}
