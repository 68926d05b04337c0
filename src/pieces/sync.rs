//! Keeping piece entities in step with the game: animate a single move, rebuild after
//! anything else, and check once all is still that nothing drifted.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use hexchess_core::{Cell, Move, Piece, Step, StepReport};

use super::animation::{CheckFlash, Promote, Slide, Vanish};
use super::models::PieceShape;
use super::{Dragging, PieceAssets, PieceView, piece_look, rest_height, shape_of, spawn_piece};
use crate::board::{SceneRebuilt, cell_world};
use crate::game::{BoardChanged, BoardPicture, CurrentGame};
use crate::look::{Settings, View};

/// The pieces the board shows: the editor's picture, or the position shown.
fn shown_pieces(game: &CurrentGame, picture: &BoardPicture) -> Vec<(Cell, Piece)> {
    match &picture.0 {
        Some(pieces) => pieces.clone(),
        None => game.displayed().pieces().collect(),
    }
}

/// Rebuilds every piece entity from the pieces shown, despawning `old` ones.
fn rebuild(
    commands: &mut Commands,
    assets: &PieceAssets,
    game: &CurrentGame,
    picture: &BoardPicture,
    settings: &Settings,
    old: impl IntoIterator<Item = Entity>,
) {
    for e in old {
        commands.entity(e).despawn();
    }
    let rules = game.rules();
    for (cell, piece) in shown_pieces(game, picture) {
        spawn_piece(commands, assets, rules, cell, piece, settings);
    }
}

/// Pieces not at rest: moving, leaving, changing kind or dragged.
type Unsettled = Or<(With<Slide>, With<Vanish>, With<Promote>, With<Dragging>)>;

/// The pieces' entities of the board, with where they stand.
type PieceEntities<'w, 's> =
    Query<'w, 's, (Entity, &'static mut PieceView, &'static Transform), Without<Vanish>>;

/// Where the pieces shown come from: the game (or the editor's picture), and how they
/// look.
#[derive(SystemParam)]
pub struct PieceSource<'w> {
    game: Res<'w, CurrentGame>,
    picture: Res<'w, BoardPicture>,
    settings: Res<'w, Settings>,
    assets: Res<'w, PieceAssets>,
}

/// After one move, animates the pieces it moves (or moves them at once with animation
/// off); after anything else, rebuilds them from the position.
pub fn follow_game(
    mut commands: Commands,
    (mut changes, mut scenes): (MessageReader<BoardChanged>, MessageReader<SceneRebuilt>),
    source: PieceSource,
    mut pieces: PieceEntities,
    vanishing: Query<Entity, With<Vanish>>,
) {
    let PieceSource {
        game,
        picture,
        settings,
        assets,
    } = &source;
    let changes: Vec<BoardChanged> = changes.read().cloned().collect();
    let scene = scenes.read().count() > 0;
    let reset = scene
        || changes
            .iter()
            .any(|c| matches!(c, BoardChanged::Reset { .. }));
    if reset {
        let old: Vec<Entity> = pieces
            .iter()
            .map(|(e, _, _)| e)
            .chain(vanishing.iter())
            .collect();
        rebuild(&mut commands, assets, game, picture, settings, old);
        return;
    }
    let speed = if settings.animate {
        settings.animation_speed.max(0.05)
    } else {
        0.0
    };
    for change in changes {
        let BoardChanged::Played(report) = change else {
            continue;
        };
        follow_step(
            &mut commands,
            &mut pieces,
            (game, settings, assets),
            &report,
            speed,
        );
    }
}

/// Animates what one step did, as the game reported it.
fn follow_step(
    commands: &mut Commands,
    pieces: &mut PieceEntities,
    (game, settings, assets): (&CurrentGame, &Settings, &PieceAssets),
    report: &StepReport,
    speed: f32,
) {
    let (Step::Play(mv), Some(piece)) = (report.step, report.piece) else {
        return;
    };
    if mv.is_placement() {
        drop_from_hand(commands, (game, settings, assets), mv.to(), piece, speed);
        return;
    }
    if mv.is_edit() {
        // A removal takes the piece off; a swap's new piece is put in place once all
        // is still (`verify_pieces`).
        if mv.promotion().is_none() {
            remove_captured(commands, pieces, mv.to(), speed);
        }
        return;
    }
    if let Some((_, cell)) = report.capture {
        remove_captured(commands, pieces, cell, speed);
    }
    if let Some(rook) = report.rook {
        move_castling_rook(commands, pieces, game, settings, rook, speed);
    }
    move_piece(commands, pieces, (game, settings, assets), mv, piece, speed);
    if speed > 0.0 {
        let rules = game.rules();
        for side in &report.checks {
            if !game.position().royal_on_board(*side) {
                continue;
            }
            let king = game.position().royal_cell(*side);
            commands.spawn((
                CheckFlash::new(0.9 / speed),
                Transform::from_translation(cell_world(rules, king)),
                Visibility::default(),
            ));
        }
    }
}

/// A piece placed from the hand comes down onto its cell (or appears at once).
fn drop_from_hand(
    commands: &mut Commands,
    (game, settings, assets): (&CurrentGame, &Settings, &PieceAssets),
    cell: Cell,
    piece: Piece,
    speed: f32,
) {
    let rules = game.rules();
    let e = spawn_piece(commands, assets, rules, cell, piece, settings);
    if speed > 0.0 {
        let to = cell_world(rules, cell) + Vec3::Y * rest_height(settings.view);
        let from = to + Vec3::Y * 2.5;
        commands
            .entity(e)
            .insert(Slide::new(from, to, 0.3 / speed, false));
    }
}

/// A captured piece sinks away (or goes at once).
fn remove_captured(commands: &mut Commands, pieces: &PieceEntities, cell: Cell, speed: f32) {
    let Some((e, _, t)) = pieces.iter().find(|(_, v, _)| v.cell == cell) else {
        return;
    };
    if speed > 0.0 {
        commands
            .entity(e)
            .remove::<PieceView>()
            .insert(Vanish::new(t.scale, 0.35 / speed));
    } else {
        commands.entity(e).despawn();
    }
}

/// Castling moves the rook too: from, to.
fn move_castling_rook(
    commands: &mut Commands,
    pieces: &mut PieceEntities,
    game: &CurrentGame,
    settings: &Settings,
    (rook, rook_to): (Cell, Cell),
    speed: f32,
) {
    let rules = game.rules();
    let Some((re, mut rview, rt)) = pieces.iter_mut().find(|(_, v, _)| v.cell == rook) else {
        return;
    };
    rview.cell = rook_to;
    let to = cell_world(rules, rook_to) + Vec3::Y * rest_height(settings.view);
    if speed > 0.0 {
        let duration = (0.22 + 0.045 * rt.translation.distance(to)) / speed;
        commands
            .entity(re)
            .insert(Slide::new(rt.translation, to, duration, false));
    } else {
        let mut moved = *rt;
        moved.translation = to;
        commands.entity(re).insert(moved);
    }
}

/// The moving piece slides (a knight hops in 3D) and, promoting, becomes its new
/// piece at the end; with animation off it is put there at once.
fn move_piece(
    commands: &mut Commands,
    pieces: &mut PieceEntities,
    (game, settings, assets): (&CurrentGame, &Settings, &PieceAssets),
    mv: Move,
    piece: Piece,
    speed: f32,
) {
    let rules = game.rules();
    let Some((e, mut view, t)) = pieces
        .iter_mut()
        .find(|(_, v, _)| v.cell == mv.from() && v.piece == piece)
    else {
        return;
    };
    view.cell = mv.to();
    let to = cell_world(rules, mv.to()) + Vec3::Y * rest_height(settings.view);
    let promoted = mv.promotion().map(|k| Piece::new(piece.side, k));
    if speed > 0.0 {
        let distance = t.translation.distance(to);
        let hop = settings.view == View::ThreeD && shape_of(rules, piece) == PieceShape::Knight;
        let duration = (0.22 + 0.045 * distance) / speed;
        commands
            .entity(e)
            .insert(Slide::new(t.translation, to, duration, hop));
        if let Some(p) = promoted {
            commands.entity(e).insert(Promote(p));
        }
    } else {
        let mut transform = *t;
        transform.translation = to;
        commands.entity(e).insert(transform);
        if let Some(p) = promoted {
            view.piece = p;
            let (mesh, material, rotation) = piece_look(assets, rules, p, settings);
            commands.entity(e).insert((
                Mesh3d(mesh),
                MeshMaterial3d(material),
                transform.with_rotation(rotation),
            ));
        }
    }
}

/// When nothing moves, every piece entity must match the position; if not (a missed
/// message, an interrupted animation), rebuild.
pub fn verify_pieces(
    mut commands: Commands,
    source: PieceSource,
    moving: Query<(), Unsettled>,
    pieces: Query<(Entity, &PieceView), Without<Vanish>>,
    vanishing: Query<Entity, With<Vanish>>,
) {
    let PieceSource {
        game,
        picture,
        settings,
        assets,
    } = &source;
    if !moving.is_empty() {
        return;
    }
    let mut expected = shown_pieces(game, picture);
    let mut shown: Vec<(Cell, Piece)> = pieces.iter().map(|(_, v)| (v.cell, v.piece)).collect();
    expected.sort_by_key(|(c, _)| *c);
    shown.sort_by_key(|(c, _)| *c);
    if expected != shown {
        let old: Vec<Entity> = pieces
            .iter()
            .map(|(e, _)| e)
            .chain(vanishing.iter())
            .collect();
        rebuild(&mut commands, assets, game, picture, settings, old);
    }
}
