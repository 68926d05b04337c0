//! The board editor: the board shows the setup, every problem is named as it is
//! edited, and a legal setup becomes a game or the analysis board.

use crate::common;

use bevy::prelude::*;
use hexchess::editor::{BoardEditor, EditorRequest, Tool, apply};
use hexchess::game::{BoardPicture, CurrentGame};
use hexchess::look::Settings;
use hexchess::play::analysis::Analysis;
use hexchess::play::{Seats, Session};
use hexchess_core::{Piece, Side};

fn app() -> App {
    let session = Session {
        seats: Seats::against_engines(Side::White),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.update();
    app.world_mut().write_message(EditorRequest::Open);
    app.update();
    app
}

fn editor(app: &mut App) -> Mut<'_, BoardEditor> {
    app.world_mut().resource_mut::<BoardEditor>()
}

fn problems(app: &App) -> Vec<String> {
    match app.world().resource::<BoardEditor>().checked() {
        Some(Err(e)) => e.descriptions().to_vec(),
        _ => Vec::new(),
    }
}

#[test]
fn the_board_shows_the_setup_and_its_problems_are_named() {
    let mut app = app();
    let rules = app
        .world()
        .resource::<CurrentGame>()
        .position()
        .rules_arc()
        .clone();
    let king = rules.kind_by_letter('K').unwrap();
    let board = rules.board();
    let (g1, g10) = (
        board.parse_cell("g1").unwrap(),
        board.parse_cell("g10").unwrap(),
    );
    // White's king (g1 in Gliński) taken away: the board shows it gone, the editor
    // says so, and the game underneath is untouched.
    {
        let mut e = editor(&mut app);
        let setup = e.setup.as_mut().unwrap();
        assert_eq!(setup.piece_at(g1), Some(Piece::new(Side::White, king)));
        apply(setup, Tool::Erase, g1);
    }
    app.update();
    let picture = app
        .world()
        .resource::<BoardPicture>()
        .0
        .clone()
        .expect("a picture");
    assert!(!picture.iter().any(|(c, _)| *c == g1));
    assert_eq!(problems(&app), ["White has no king"]);
    assert_eq!(
        app.world().resource::<CurrentGame>().position().ply_count(),
        0
    );
    // A white rook on g2 checking Black's king on g10 along the file (the pawns of
    // file g gone), with White to move: Black is in check out of turn.
    let rook = rules.kind_by_letter('R').unwrap();
    {
        let mut e = editor(&mut app);
        let setup = e.setup.as_mut().unwrap();
        apply(setup, Tool::Place(Piece::new(Side::White, king)), g1);
        for name in ["g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9"] {
            setup.remove(board.parse_cell(name).unwrap());
        }
        apply(
            setup,
            Tool::Place(Piece::new(Side::White, rook)),
            board.parse_cell("g2").unwrap(),
        );
        assert_eq!(setup.piece_at(g10).map(|p| p.kind), Some(king));
    }
    app.update();
    assert_eq!(problems(&app), ["Black is in check but it is White's move"]);
    // Black to move: a legal position, played from.
    editor(&mut app)
        .setup
        .as_mut()
        .unwrap()
        .set_turn(Side::Black)
        .unwrap();
    app.update();
    assert!(problems(&app).is_empty());
    let fen = editor(&mut app).setup.as_ref().unwrap().to_fen();
    app.world_mut().write_message(EditorRequest::Analyse);
    for _ in 0..3 {
        app.update();
    }
    assert!(
        app.world().resource::<BoardEditor>().setup.is_none(),
        "closed"
    );
    assert!(
        app.world().resource::<BoardPicture>().0.is_none(),
        "the game shown again"
    );
    let game = app.world().resource::<CurrentGame>();
    assert_eq!(game.position().to_fen(), fen);
    assert!(game.position().in_check());
    assert!(app.world().resource::<Analysis>().on);
}

#[test]
fn an_illegal_setup_does_not_leave_the_editor() {
    let mut app = app();
    editor(&mut app).setup.as_mut().unwrap().clear();
    app.update();
    assert_eq!(problems(&app), ["White has no king", "Black has no king"]);
    let before = app.world().resource::<CurrentGame>().position().to_fen();
    app.world_mut().write_message(EditorRequest::Play);
    app.update();
    assert!(app.world().resource::<BoardEditor>().setup.is_some());
    assert_eq!(
        app.world().resource::<CurrentGame>().position().to_fen(),
        before
    );
    // Cancel: the game is shown again as it was.
    app.world_mut().write_message(EditorRequest::Close);
    app.update();
    app.update();
    assert!(app.world().resource::<BoardPicture>().0.is_none());
}

#[test]
fn a_piece_dragged_moves_and_a_click_uses_the_tool() {
    use crate::common::{button, point_at};

    let mut app = app();
    let board = app
        .world()
        .resource::<CurrentGame>()
        .rules()
        .board()
        .clone();
    let cell = |name: &str| board.parse_cell(name).unwrap();
    let at = |app: &mut App, name: &str| editor(app).setup.as_ref().unwrap().piece_at(cell(name));
    // White's queen (e1) dragged to e6.
    let queen = at(&mut app, "e1").expect("the queen");
    point_at(&mut app, "e1");
    button(&mut app, true);
    point_at(&mut app, "e6");
    button(&mut app, false);
    assert_eq!(
        (at(&mut app, "e1"), at(&mut app, "e6")),
        (None, Some(queen))
    );
    // The board shows it.
    let picture = app.world().resource::<BoardPicture>().0.clone().unwrap();
    assert!(picture.contains(&(cell("e6"), queen)));
    // A click (down and up on one cell) uses the tool: the eraser empties e6.
    editor(&mut app).tool = Tool::Erase;
    point_at(&mut app, "e6");
    button(&mut app, true);
    button(&mut app, false);
    assert_eq!(at(&mut app, "e6"), None);
    // A drag from an empty cell moves nothing.
    point_at(&mut app, "e6");
    button(&mut app, true);
    point_at(&mut app, "f1");
    let bishop = at(&mut app, "f1");
    button(&mut app, false);
    assert_eq!((at(&mut app, "e6"), at(&mut app, "f1")), (None, bishop));
}
