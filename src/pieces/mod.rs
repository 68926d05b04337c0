//! Piece entities: spawned from the game state and kept in step with it.
//!
//! After a single move the existing entities are animated into place; after anything
//! else (new game, undo, a rebuilt scene) they are rebuilt from the position. A final
//! check compares every entity with the position once animations end, so the view can
//! never drift from the game.

use std::collections::HashMap;

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use hexchess_core::{Cell, Piece, Rules, Side};

use crate::animation::{CheckFlash, Promote, Slide, Vanish};
use crate::board::{CELL_SIZE, SceneRebuilt, cell_world};
use crate::game::{BoardChanged, GameSet, GameState};
use crate::models::PieceShape;
use crate::settings::{Settings, View};
use crate::shading::Surface;
use crate::sprites;

/// Models are designed a little small for a unit cell; this sizes them on the board.
const PIECE_SCALE: f32 = 1.15;

/// A piece on the board: where it stands in the game and what it is.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub cell: Cell,
    pub piece: Piece,
}

/// Meshes and materials of pieces, made once.
#[derive(Resource, Default)]
pub struct PieceAssets {
    models: HashMap<PieceShape, Handle<Mesh>>,
    images: HashMap<(PieceShape, Side), Handle<Surface>>,
    white: Handle<Surface>,
    black: Handle<Surface>,
    quad: Handle<Mesh>,
}

pub struct PiecesPlugin;

impl Plugin for PiecesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PieceAssets>()
            .add_systems(Startup, make_piece_assets)
            .add_systems(
                Update,
                (follow_game, verify_pieces)
                    .chain()
                    .in_set(GameSet::View)
                    .after(crate::board::rebuild_board),
            )
            .add_systems(
                PostUpdate,
                place_piece_letters.after(TransformSystems::Propagate),
            );
    }
}

fn make_piece_assets(
    mut assets: ResMut<PieceAssets>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Surface>>,
    mut images: ResMut<Assets<Image>>,
    rasteriser: Option<Res<crate::shading::Rasteriser>>,
) {
    let detail = rasteriser.map(|r| r.detail()).unwrap_or_default();
    assets.white = materials.add(Surface::lit(Color::srgb(0.93, 0.88, 0.78), 0.35, 40.0));
    assets.black = materials.add(Surface::lit(Color::srgb(0.13, 0.11, 0.10), 0.5, 48.0));
    assets.quad = meshes.add(quad(CELL_SIZE * 1.6));
    for shape in [
        PieceShape::King,
        PieceShape::Queen,
        PieceShape::Rook,
        PieceShape::Bishop,
        PieceShape::Knight,
        PieceShape::Pawn,
        PieceShape::Vizir,
        PieceShape::WarMachine,
        PieceShape::Duke,
        PieceShape::Token,
    ] {
        assets.models.insert(
            shape,
            meshes.add(
                shape
                    .model(detail)
                    .transformed(Vec3::ZERO, Quat::IDENTITY, PIECE_SCALE)
                    .into_mesh(),
            ),
        );
        for side in Side::BOTH {
            let image = images.add(sprites::piece_image(shape, side == Side::White));
            let material = materials.add(Surface::image(image));
            assets.images.insert((shape, side), material);
        }
    }
}

/// A square lying in the XZ plane, facing up, its image's top toward -Z.
fn quad(size: f32) -> Mesh {
    let h = size / 2.0;
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(
        Mesh::ATTRIBUTE_POSITION,
        vec![[-h, 0.0, -h], [h, 0.0, -h], [h, 0.0, h], [-h, 0.0, h]],
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 1.0, 0.0]; 4])
    .with_inserted_attribute(
        Mesh::ATTRIBUTE_UV_0,
        vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
    )
    .with_inserted_indices(Indices::U32(vec![0, 2, 1, 0, 3, 2]))
}

/// The shape a piece is drawn with.
pub fn shape_of(rules: &Rules, piece: Piece) -> PieceShape {
    PieceShape::for_letter(rules.kind_info(piece.kind).letter)
}

/// Height above the cell surface where pieces stand in each view.
pub fn rest_height(view: View) -> f32 {
    match view {
        View::ThreeD => 0.0,
        View::TwoD => 0.02,
    }
}

/// How a piece entity looks and faces, for its side and the current view.
pub fn piece_look(
    assets: &PieceAssets,
    rules: &Rules,
    piece: Piece,
    settings: &Settings,
) -> (Handle<Mesh>, Handle<Surface>, Quat) {
    let shape = shape_of(rules, piece);
    match settings.view {
        View::ThreeD => {
            // Models face +X; White's face up the board (-Z), Black's down it.
            let turn = match piece.side {
                Side::White => std::f32::consts::FRAC_PI_2,
                Side::Black => -std::f32::consts::FRAC_PI_2,
            };
            let material = match piece.side {
                Side::White => assets.white.clone(),
                Side::Black => assets.black.clone(),
            };
            // Horse heads turn a little toward the viewer, to read as horses.
            let head_turn = if shape.has_head() { 0.9 } else { 0.0 };
            (
                assets.models[&shape].clone(),
                material,
                Quat::from_rotation_y(turn + head_turn),
            )
        }
        View::TwoD => {
            // Images stand upright for whoever sits at the bottom.
            let turn = if settings.flipped {
                std::f32::consts::PI
            } else {
                0.0
            };
            (
                assets.quad.clone(),
                assets.images[&(shape, piece.side)].clone(),
                Quat::from_rotation_y(turn),
            )
        }
    }
}

fn spawn_piece(
    commands: &mut Commands,
    assets: &PieceAssets,
    rules: &Rules,
    cell: Cell,
    piece: Piece,
    settings: &Settings,
) -> Entity {
    let (mesh, material, rotation) = piece_look(assets, rules, piece, settings);
    let at = cell_world(rules, cell) + Vec3::Y * rest_height(settings.view);
    let id = commands
        .spawn((
            PieceView { cell, piece },
            Mesh3d(mesh),
            MeshMaterial3d(material),
            Transform::from_translation(at).with_rotation(rotation),
        ))
        .id();
    // Pieces without a model of their own (a variant's fairy pieces) show their letter.
    if shape_of(rules, piece) == PieceShape::Token {
        // Dark ink on White's light pieces, light ink on Black's.
        let text = match piece.side {
            Side::White => Color::srgb(0.1, 0.08, 0.06),
            Side::Black => Color::srgb(0.95, 0.92, 0.85),
        };
        commands.spawn((
            PieceLetter(id),
            Text::new(rules.kind_info(piece.kind).letter.to_string()),
            TextFont {
                font_size: FontSize::Px(20.0),
                ..default()
            },
            TextColor(text),
            Node {
                position_type: PositionType::Absolute,
                ..default()
            },
            Visibility::Hidden,
        ));
    }
    id
}

/// The letter shown on a piece that has no model of its own.
#[derive(Component, Clone, Copy, Debug)]
pub struct PieceLetter(pub Entity);

/// Keeps letters on their pieces (and removes those whose piece is gone).
fn place_piece_letters(
    mut commands: Commands,
    camera: Query<(&Camera, &GlobalTransform), With<crate::camera::BoardCamera>>,
    settings: Res<Settings>,
    pieces: Query<&GlobalTransform, With<PieceView>>,
    mut letters: Query<(
        Entity,
        &PieceLetter,
        &mut Node,
        &mut Visibility,
        &ComputedNode,
    )>,
) {
    let camera = camera.single().ok();
    let lift = match settings.view {
        View::ThreeD => 0.45,
        View::TwoD => 0.1,
    };
    for (e, letter, mut node, mut vis, computed) in &mut letters {
        let Ok(piece) = pieces.get(letter.0) else {
            commands.entity(e).despawn();
            continue;
        };
        let Some((camera, at)) = camera else { continue };
        match camera.world_to_viewport(at, piece.translation() + Vec3::Y * lift) {
            Ok(p) => {
                let size = computed.size() * computed.inverse_scale_factor();
                node.left = Val::Px(p.x - size.x / 2.0);
                node.top = Val::Px(p.y - size.y / 2.0);
                *vis = Visibility::Inherited;
            }
            Err(_) => *vis = Visibility::Hidden,
        }
    }
}

/// Rebuilds every piece entity from the position, despawning `old` ones.
fn rebuild(
    commands: &mut Commands,
    assets: &PieceAssets,
    game: &GameState,
    settings: &Settings,
    old: impl IntoIterator<Item = Entity>,
) {
    for e in old {
        commands.entity(e).despawn();
    }
    let rules = game.rules();
    for (cell, piece) in game.displayed().pieces() {
        spawn_piece(commands, assets, rules, cell, piece, settings);
    }
}

#[allow(clippy::too_many_arguments)]
pub fn follow_game(
    mut commands: Commands,
    mut changes: MessageReader<BoardChanged>,
    mut scenes: MessageReader<SceneRebuilt>,
    game: Res<GameState>,
    settings: Res<Settings>,
    assets: Res<PieceAssets>,
    mut pieces: Query<(Entity, &mut PieceView, &Transform), Without<Vanish>>,
    vanishing: Query<Entity, With<Vanish>>,
) {
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
        rebuild(&mut commands, &assets, &game, &settings, old);
        return;
    }
    let rules = game.rules();
    for change in changes {
        let BoardChanged::Moved {
            mv,
            piece,
            captured,
            check,
        } = change
        else {
            continue;
        };
        let speed = if settings.animate {
            settings.animation_speed.max(0.05)
        } else {
            0.0
        };
        if let Some((cell, _)) = captured
            && let Some((e, _, t)) = pieces.iter().find(|(_, v, _)| v.cell == cell)
        {
            if speed > 0.0 {
                commands
                    .entity(e)
                    .remove::<PieceView>()
                    .insert(Vanish::new(t.scale, 0.35 / speed));
            } else {
                commands.entity(e).despawn();
            }
        }
        // Castling moves the rook too.
        if let Some(i) = mv.castling()
            && let Some((_, _, rook, rook_to)) = rules.castling_cells(piece.side, i)
            && let Some((re, mut rview, rt)) = pieces.iter_mut().find(|(_, v, _)| v.cell == rook)
        {
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
        let Some((e, mut view, t)) = pieces
            .iter_mut()
            .find(|(_, v, _)| v.cell == mv.from() && v.piece == piece)
        else {
            continue;
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
                let (mesh, material, rotation) = piece_look(&assets, rules, p, &settings);
                commands.entity(e).insert((
                    Mesh3d(mesh),
                    MeshMaterial3d(material),
                    transform.with_rotation(rotation),
                ));
            }
        }
        if check && speed > 0.0 {
            let king = game.position.royal_cell(game.position.turn());
            commands.spawn((
                CheckFlash::new(0.9 / speed),
                Transform::from_translation(cell_world(rules, king)),
                Visibility::default(),
            ));
        }
    }
}

/// When nothing moves, every piece entity must match the position; if not (a missed
/// message, an interrupted animation), rebuild.
#[allow(clippy::type_complexity)]
fn verify_pieces(
    mut commands: Commands,
    game: Res<GameState>,
    settings: Res<Settings>,
    assets: Res<PieceAssets>,
    moving: Query<
        (),
        Or<(
            With<Slide>,
            With<Vanish>,
            With<Promote>,
            With<crate::input::Dragging>,
        )>,
    >,
    pieces: Query<(Entity, &PieceView), Without<Vanish>>,
    vanishing: Query<Entity, With<Vanish>>,
) {
    if !moving.is_empty() {
        return;
    }
    let shown = game.displayed();
    let mut expected: Vec<(Cell, Piece)> = shown.pieces().collect();
    let mut shown: Vec<(Cell, Piece)> = pieces.iter().map(|(_, v)| (v.cell, v.piece)).collect();
    expected.sort_by_key(|(c, _)| *c);
    shown.sort_by_key(|(c, _)| *c);
    if expected != shown {
        let old: Vec<Entity> = pieces
            .iter()
            .map(|(e, _)| e)
            .chain(vanishing.iter())
            .collect();
        rebuild(&mut commands, &assets, &game, &settings, old);
    }
}
