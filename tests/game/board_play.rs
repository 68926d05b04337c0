//! The game's plugins in a headless app: clicks and drags, promotions, variant switches
//! and flips, checked against the game state and the entities shown.

use crate::common;

use std::time::Duration;

use bevy::prelude::*;
use hexchess::board::Selection;
use hexchess::board::{BoardLabel, CellTile, cell_world};
use hexchess::game::{CurrentGame, NewGameRequest};
use hexchess::input::{PendingPromotion, PointerCell, PromotionChoice};
use hexchess::look::{Settings, ViewChanged};
use hexchess::pieces::PieceView;
use hexchess::play::{Seats, Session};
use hexchess_core::Cell;

fn app(variant: &str, fen: Option<&str>) -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let frame = Some(Duration::from_millis(20));
    let mut app = common::headless_app(variant, fen, Settings::default(), session, frame);
    app.update();
    app
}

fn cell(app: &App, name: &str) -> Cell {
    app.world()
        .resource::<CurrentGame>()
        .rules()
        .board()
        .parse_cell(name)
        .unwrap()
}

use crate::common::{button, point_at};

/// Presses and releases the left button over a cell.
fn click(app: &mut App, name: &str) {
    point_at(app, name);
    button(app, true);
    button(app, false);
}

/// Runs frames until every animation has finished (at most five seconds of game time).
fn settle(app: &mut App) {
    for _ in 0..250 {
        app.update();
        if !hexchess::pieces::animation::animating(app.world_mut()) {
            app.update();
            return;
        }
    }
    panic!("animations never finished");
}

fn piece_entities(app: &mut App) -> Vec<(Entity, PieceView, Vec3)> {
    let mut q = app.world_mut().query::<(Entity, &PieceView, &Transform)>();
    q.iter(app.world())
        .map(|(e, v, t)| (e, *v, t.translation))
        .collect()
}

fn fen(app: &App) -> String {
    app.world().resource::<CurrentGame>().position().to_fen()
}

#[test]
fn click_a_piece_then_a_target_moves_it_and_its_entity() {
    let mut app = app("glinski", None);
    assert_eq!(piece_entities(&mut app).len(), 36);
    let e4 = cell(&app, "e4");
    let e6 = cell(&app, "e6");
    let pawn = piece_entities(&mut app)
        .into_iter()
        .find(|(_, v, _)| v.cell == e4)
        .unwrap()
        .0;
    click(&mut app, "e4");
    assert_eq!(app.world().resource::<Selection>().from, Some(e4));
    click(&mut app, "e6");
    let pos = &app.world().resource::<CurrentGame>().position();
    assert_eq!(
        pos.last_move().map(|m| pos.move_to_lan(m)).as_deref(),
        Some("e4e6")
    );
    settle(&mut app);
    let (_, view, at) = piece_entities(&mut app)
        .into_iter()
        .find(|(e, _, _)| *e == pawn)
        .unwrap();
    assert_eq!(view.cell, e6, "the same entity now stands on e6");
    let expected = cell_world(app.world().resource::<CurrentGame>().rules(), e6);
    assert!(at.distance(expected) < 1e-3, "{at} vs {expected}");
    assert_eq!(app.world().resource::<Selection>().from, None);
}

#[test]
fn an_illegal_target_changes_nothing() {
    let mut app = app("glinski", None);
    let before = fen(&app);
    let shown_before: Vec<_> = piece_entities(&mut app)
        .into_iter()
        .map(|(_, v, _)| v)
        .collect();
    click(&mut app, "f5");
    click(&mut app, "f9"); // three cells ahead: not a pawn move
    click(&mut app, "c7"); // an enemy piece cannot be selected
    settle(&mut app);
    assert_eq!(fen(&app), before);
    let mut shown_after: Vec<_> = piece_entities(&mut app)
        .into_iter()
        .map(|(_, v, _)| v)
        .collect();
    let mut sorted_before = shown_before;
    sorted_before.sort_by_key(|v| v.cell);
    shown_after.sort_by_key(|v| v.cell);
    assert_eq!(shown_after, sorted_before);
}

#[test]
fn dragging_to_an_illegal_cell_snaps_back() {
    let mut app = app("glinski", None);
    let before = fen(&app);
    let f5 = cell(&app, "f5");
    let rules_pos =
        |app: &App, c: Cell| cell_world(app.world().resource::<CurrentGame>().rules(), c);
    // Press on f5, move the pointer over f9, release there.
    let home = rules_pos(&app, f5);
    point_at(&mut app, "f5");
    button(&mut app, true);
    point_at(&mut app, "f9");
    app.update();
    let dragged = piece_entities(&mut app)
        .into_iter()
        .find(|(_, v, _)| v.cell == f5)
        .unwrap();
    assert!(
        dragged.2.distance(home) > 1.0,
        "the piece follows the pointer"
    );
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .release(MouseButton::Left);
    app.update();
    settle(&mut app);
    assert_eq!(fen(&app), before);
    let back = piece_entities(&mut app)
        .into_iter()
        .find(|(e, _, _)| *e == dragged.0)
        .unwrap();
    assert!(back.2.distance(home) < 1e-3);
}

#[test]
fn a_promotion_completes_through_the_picker() {
    // White pawn on k6 can reach k7 (promotion) or capture on l6.
    let mut app = app("glinski", Some("6/K6/8/9/10/4k6/10/9/8/5P1/5r w - 0 1"));
    click(&mut app, "k6");
    click(&mut app, "k7");
    let pending = app.world().resource::<PendingPromotion>().moves.clone();
    assert_eq!(pending.len(), 4, "queen, rook, bishop, knight");
    let pos = app.world().resource::<CurrentGame>().position().clone();
    let knight = pending
        .iter()
        .position(|m| m.promotion().map(|k| pos.rules().kind_info(k).letter) == Some('N'))
        .unwrap();
    app.world_mut().write_message(PromotionChoice(Some(knight)));
    app.update();
    settle(&mut app);
    let state = app.world().resource::<CurrentGame>();
    let k7 = state.rules().board().parse_cell("k7").unwrap();
    let promoted = state.position().piece_at(k7).unwrap();
    assert_eq!(state.rules().kind_info(promoted.kind).letter, 'N');
    let shown = piece_entities(&mut app)
        .into_iter()
        .find(|(_, v, _)| v.cell == k7)
        .unwrap();
    assert_eq!(shown.1.piece, promoted, "the entity shows the knight");
}

#[test]
fn switching_variant_rebuilds_board_and_pieces() {
    let mut app = app("glinski", None);
    let cells = |app: &mut App| {
        let mut q = app.world_mut().query::<&CellTile>();
        let mut v: Vec<Cell> = q.iter(app.world()).map(|t| t.0).collect();
        v.sort();
        v.dedup();
        v.len()
    };
    assert_eq!(cells(&mut app), 91);
    app.world_mut().write_message(NewGameRequest {
        variant: Some("grand".into()),
        fen: None,
        moves: Vec::new(),
    });
    app.update();
    app.update();
    assert_eq!(cells(&mut app), 127);
    assert_eq!(piece_entities(&mut app).len(), 46);
    assert_eq!(app.world().resource::<CurrentGame>().rules().id(), "grand");
}

#[test]
fn flipping_keeps_every_coordinate_label_on_its_cell() {
    let mut app = app("grand", None);
    let labels = |app: &mut App| {
        let mut q = app.world_mut().query::<(&BoardLabel, &Text)>();
        let mut v: Vec<(String, [i32; 3])> = q
            .iter(app.world())
            .map(|(l, t)| (t.0.clone(), (l.world * 100.0).round().as_ivec3().to_array()))
            .collect();
        v.sort();
        v
    };
    let before = labels(&mut app);
    assert_eq!(before.len(), 26);
    app.world_mut().resource_mut::<Settings>().flipped = true;
    app.world_mut().write_message(ViewChanged);
    app.update();
    app.update();
    let after = labels(&mut app);
    assert_eq!(after, before, "labels stay on their cells");
    // Each label sits next to a cell whose name contains it.
    let state = app.world().resource::<CurrentGame>();
    let b = state.rules().board();
    for (text, p) in &after {
        let world = Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32) / 100.0;
        let nearest = b
            .cells()
            .min_by(|x, y| {
                cell_world(state.rules(), *x)
                    .distance(world)
                    .total_cmp(&cell_world(state.rules(), *y).distance(world))
            })
            .unwrap();
        let name = b.name(nearest);
        let (letters, digits) = name.split_at(name.find(|c: char| c.is_ascii_digit()).unwrap());
        assert!(
            text == letters || text == digits,
            "label {text} beside {name}"
        );
    }
}

#[test]
fn a_selected_piece_shows_its_targets() {
    let mut app = app("glinski", None);
    click(&mut app, "e4");
    let mut q = app
        .world_mut()
        .query_filtered::<&Transform, With<hexchess::board::Highlight>>();
    let marks: Vec<Vec3> = q.iter(app.world()).map(|t| t.translation).collect();
    let state = app.world().resource::<CurrentGame>();
    let at = |n: &str| cell_world(state.rules(), state.rules().board().parse_cell(n).unwrap());
    for target in ["e4", "e5", "e6"] {
        assert!(
            marks
                .iter()
                .any(|m| (m.x - at(target).x).abs() < 1e-3 && (m.z - at(target).z).abs() < 1e-3),
            "no mark on {target}: {marks:?}"
        );
    }
}

/// Pre-HexaChess: a piece picked from the hand goes to the cell clicked if it may
/// stand there; a drag from the tray drops it where the button is released.
#[test]
fn a_piece_from_the_hand_is_placed_by_click_or_drag() {
    use hexchess::input::HandDrag;
    let mut app = app("pre-hexachess", None);
    let bishop = app
        .world()
        .resource::<CurrentGame>()
        .rules()
        .kind_by_letter('B')
        .unwrap();
    app.world_mut().resource_mut::<Selection>().hand = Some(bishop);
    // The fifth rank holds pawns: not a cell to place on; the pick stays.
    click(&mut app, "c5");
    assert!(
        fen(&app).contains("[KQRRBBBNNkqrrbbbnn] w"),
        "{}",
        fen(&app)
    );
    assert_eq!(app.world().resource::<Selection>().hand, Some(bishop));
    click(&mut app, "c3");
    settle(&mut app);
    assert!(fen(&app).starts_with("7/8/2B6/"), "{}", fen(&app));
    assert_eq!(app.world().resource::<Selection>().hand, None);
    let shown = piece_entities(&mut app);
    assert!(shown.iter().any(|(_, v, _)| v.cell == cell(&app, "c3")));
    // Black drags a knight from the tray and lets go over f11.
    let knight = app
        .world()
        .resource::<CurrentGame>()
        .rules()
        .kind_by_letter('N')
        .unwrap();
    // The press lands on the tray (no cell under the pointer); the drag starts there.
    *app.world_mut().resource_mut::<PointerCell>() = PointerCell::default();
    button(&mut app, true);
    app.world_mut().resource_mut::<Selection>().hand = Some(knight);
    app.world_mut().resource_mut::<HandDrag>().0 = true;
    point_at(&mut app, "f11");
    let mut b = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
    b.press(MouseButton::Left);
    b.clear();
    button(&mut app, false);
    settle(&mut app);
    assert!(fen(&app).contains("[KQRRBBNNkqrrbbbn] w"), "{}", fen(&app));
    assert!(!app.world().resource::<HandDrag>().0);
}

/// Screen HexaChess at one screen: White's deployment is not drawn once it is Black's
/// turn to deploy, nor Black's own until Black says he is at the screen; after the
/// reveal every piece is drawn.
#[test]
fn a_hidden_deployment_is_not_drawn_for_the_other_player() {
    use hexchess::game::deployment::{ScreenReady, ScreenState};
    let mut app = app("screen-hexachess", None);
    let visible = |app: &mut App| {
        let mut q = app.world_mut().query::<(&PieceView, &Visibility)>();
        q.iter(app.world())
            .filter(|(_, v)| **v != Visibility::Hidden)
            .map(|(p, _)| p.piece.side)
            .collect::<Vec<_>>()
    };
    let place = |app: &mut App, text: &str| {
        let mv = {
            let game = app.world().resource::<CurrentGame>();
            game.position().parse_move(text).unwrap()
        };
        app.world_mut()
            .write_message(hexchess::game::StepRequest::play(mv));
        settle(app);
    };
    app.world_mut().write_message(ScreenReady);
    app.update();
    let white = [
        "K@f1", "Q@d3", "R@c3", "R@g3", "B@a3", "B@e3", "B@i3", "N@b3", "N@h3", "P@a5", "P@b5",
        "P@c5", "P@d5", "P@e5", "P@f5", "P@g5", "P@h5", "P@i5", "P@k5", "P@l5",
    ];
    for text in white {
        place(&mut app, text);
    }
    assert_eq!(piece_entities(&mut app).len(), 20);
    assert_eq!(
        visible(&mut app),
        vec![],
        "the hand-over screen hides everything"
    );
    app.world_mut().write_message(ScreenReady);
    app.update();
    assert_eq!(
        app.world().resource::<ScreenState>().viewer,
        Some(hexchess_core::Side::Black)
    );
    let black = [
        "K@f13", "Q@d11", "R@c11", "R@g11", "B@a11", "B@e11", "B@i11", "N@b11", "N@h11", "P@a9",
        "P@b9", "P@c9", "P@d9",
    ];
    for text in black {
        place(&mut app, text);
    }
    let seen = visible(&mut app);
    assert_eq!(seen.len(), black.len());
    assert!(seen.iter().all(|s| *s == hexchess_core::Side::Black));
    for text in ["P@e9", "P@f9", "P@g9", "P@h9", "P@i9", "P@k9", "P@l9"] {
        place(&mut app, text);
    }
    // Deployed: the reveal waits for the player.
    assert!(visible(&mut app).is_empty());
    app.world_mut().write_message(ScreenReady);
    app.update();
    app.update();
    assert_eq!(visible(&mut app).len(), 40);
    assert!(app.world().resource::<ScreenState>().revealed);
}

#[test]
fn grands_fairy_pieces_carry_their_letter_in_3d_and_on_their_image_in_2d() {
    use hexchess::look::View;
    use hexchess::pieces::PieceLetter;

    let mut app = app("grand", None);
    // The letters of pieces on the board (a letter whose piece is gone is despawned by
    // the screen's pins, which a headless app does not run).
    let letters = |app: &mut App| {
        let mut q = app.world_mut().query::<(&PieceLetter, &Text)>();
        let mut v: Vec<String> = q
            .iter(app.world())
            .filter(|(l, _)| app.world().get::<PieceView>(l.0).is_some())
            .map(|(_, t)| t.0.clone())
            .collect();
        v.sort();
        v
    };
    // Each side has one War Machine, one Vizir and one Duke; no other piece is lettered.
    assert_eq!(letters(&mut app), ["D", "D", "V", "V", "W", "W"]);
    app.world_mut().resource_mut::<Settings>().view = View::TwoD;
    app.world_mut().write_message(ViewChanged);
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(letters(&mut app), Vec::<String>::new());
    // And back: the letters come back with the models.
    app.world_mut().resource_mut::<Settings>().view = View::ThreeD;
    app.world_mut().write_message(ViewChanged);
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(letters(&mut app).len(), 6);
    // Gliński has no fairy piece: nothing lettered in 3D either.
    let mut app = self::app("glinski", None);
    assert_eq!(letters(&mut app), Vec::<String>::new());
}

#[test]
fn a_pawn_promoted_to_a_vizir_in_3d_takes_the_vizirs_letter() {
    use hexchess::pieces::PieceLetter;
    use hexchess_core::setup::Setup;
    use hexchess_core::{Piece, Side};

    // White has only its king and a pawn a step from promotion: every other piece is
    // lost, so the pawn may become a Vizir (Grand Hexachess).
    let start = app("grand", None);
    let pos = start.world().resource::<CurrentGame>().position().clone();
    let rules = pos.rules_arc().clone();
    let (k, p, v) = ['K', 'P', 'V']
        .map(|c| rules.kind_by_letter(c).unwrap())
        .into();
    let kings: Vec<_> = pos.pieces().filter(|(_, pc)| pc.kind == k).collect();
    let found = rules.board().cells().find_map(|cell| {
        let mut setup = Setup::empty(rules.clone());
        for (at, king) in &kings {
            setup.place(*at, *king).ok()?;
        }
        setup.place(cell, Piece::new(Side::White, p)).ok()?;
        let pos = setup.validate().ok()?;
        let mv = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.promotion() == Some(v))?;
        Some((pos.to_fen(), mv))
    });
    let (fen, mv) = found.expect("a cell a step from promotion");
    let mut app = app("grand", Some(&fen));
    let letters = |app: &mut App| {
        let mut q = app.world_mut().query::<(&PieceLetter, &Text)>();
        q.iter(app.world())
            .filter(|(l, _)| app.world().get::<PieceView>(l.0).is_some())
            .map(|(_, t)| t.0.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(letters(&mut app), Vec::<String>::new());
    app.world_mut()
        .write_message(hexchess::game::StepRequest::play(mv));
    // Through the move's animation.
    for _ in 0..60 {
        app.update();
    }
    assert_eq!(letters(&mut app), ["V"]);
}

#[test]
fn a_theme_switched_while_playing_redraws_the_board_and_pieces_in_its_colours() {
    use hexchess::look::{Surface, Theme};
    use hexchess_core::Side;

    let mut app = app("glinski", None);
    // The colours the board's cells and Black's pieces are drawn in now.
    let drawn = |app: &mut App| {
        let mut cells = app
            .world_mut()
            .query::<(&CellTile, &MeshMaterial3d<Surface>)>();
        let mut pieces = app
            .world_mut()
            .query::<(&PieceView, &MeshMaterial3d<Surface>)>();
        let surfaces = app.world().resource::<Assets<Surface>>();
        let colour = |h: &MeshMaterial3d<Surface>| surfaces.get(&h.0).unwrap().colour;
        let mut cell_colours: Vec<Color> = Vec::new();
        for (_, m) in cells.iter(app.world()) {
            let c = colour(m);
            if !cell_colours.contains(&c) {
                cell_colours.push(c);
            }
        }
        let black: Vec<Color> = pieces
            .iter(app.world())
            .filter(|(v, _)| v.piece.side == Side::Black)
            .map(|(_, m)| colour(m))
            .collect();
        (cell_colours, black)
    };
    let contains = |colours: &[Color], rgb: hexchess::look::theme::Rgb| {
        let want: Color = rgb.into();
        let (w, v) = (want.to_srgba(), |c: &Color| c.to_srgba());
        colours.iter().any(|c| {
            let c = v(c);
            (c.red - w.red).abs() + (c.green - w.green).abs() + (c.blue - w.blue).abs() < 1e-3
        })
    };
    let classic = Theme::shipped("classic").unwrap();
    let slate = Theme::shipped("slate").unwrap();
    let (cells, black) = drawn(&mut app);
    assert!(contains(&cells, classic.board.cells[1]));
    assert!(!contains(&cells, slate.board.cells[1]));
    assert!(black.iter().all(|c| contains(&[*c], classic.pieces.black)));

    *app.world_mut().resource_mut::<Theme>() = slate.clone();
    app.world_mut().write_message(ViewChanged);
    for _ in 0..4 {
        app.update();
    }
    let (cells, black) = drawn(&mut app);
    assert!(contains(&cells, slate.board.cells[1]), "{cells:?}");
    assert!(!contains(&cells, classic.board.cells[1]));
    assert_eq!(black.len(), 18, "every Black piece is back");
    assert!(black.iter().all(|c| contains(&[*c], slate.pieces.black)));
}
