//! The pieces on the board: how each kind looks ([`models`] in 3D, [`sprites`] in 2D),
//! the entities that show them, kept in step with the game ([`sync`]), and how they
//! move ([`animation`]).
//!
//! After a single move the existing entities are animated into place; after anything
//! else (new game, undo, a rebuilt scene) they are rebuilt from the position. A final
//! check compares every entity with the position once animations end, so the view can
//! never drift from the game.

pub mod animation;
pub mod models;
pub mod sprites;
pub mod sync;

use std::collections::HashMap;

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use hexchess_core::{Cell, Piece, Rules, Side};

use crate::board::{CELL_SIZE, cell_world};
use crate::game::GameSet;
use crate::look::mesh::Detail;
use crate::look::pin::{ScreenPin, pinned_text};
use crate::look::{Settings, Surface, Theme, View};
use crate::machine::Rasteriser;
use models::PieceShape;

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
    /// The letter on a piece without a model: ink for White's and Black's, and size.
    letter_ink: [Color; 2],
    letter_size: f32,
}

/// A piece being dragged by the pointer (the input moves it; syncing waits for it).
#[derive(Component, Clone, Copy, Debug)]
pub struct Dragging {
    /// Whether the pointer has left the start cell (a drag, not a click).
    pub moved: bool,
}

pub struct PiecesPlugin;

impl Plugin for PiecesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PieceAssets>()
            .add_systems(Startup, make_piece_assets)
            .add_systems(
                Update,
                (sync::follow_game, sync::verify_pieces)
                    .chain()
                    .in_set(GameSet::View)
                    .after(crate::board::rebuild_board),
            )
            .configure_sets(Update, animation::Animate.after(sync::follow_game))
            .add_plugins(animation::AnimationPlugin);
    }
}

fn make_piece_assets(
    mut assets: ResMut<PieceAssets>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Surface>>,
    mut images: ResMut<Assets<Image>>,
    rasteriser: Option<Res<Rasteriser>>,
    theme: Res<Theme>,
) {
    let detail = rasteriser.map_or_else(Detail::default, |r| Detail::for_rasteriser(*r));
    let t = &theme.pieces;
    assets.white = materials.add(Surface::lit(
        t.white.into(),
        t.white_finish.specular,
        t.white_finish.shininess,
    ));
    assets.black = materials.add(Surface::lit(
        t.black.into(),
        t.black_finish.specular,
        t.black_finish.shininess,
    ));
    assets.letter_ink = [t.white_letter.into(), t.black_letter.into()];
    assets.letter_size = t.letter_size;
    assets.quad = meshes.add(quad(CELL_SIZE * 1.6));
    for shape in PieceShape::ALL {
        assets.models.insert(
            shape,
            meshes.add(
                shape
                    .model(detail)
                    .transformed(Vec3::ZERO, Quat::IDENTITY, t.scale)
                    .into_mesh(),
            ),
        );
        for side in Side::BOTH {
            let colours = match side {
                Side::White => t.white_image,
                _ => t.black_image,
            };
            let image = images.add(sprites::piece_image(shape, colours));
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
                _ => -std::f32::consts::FRAC_PI_2,
            };
            let material = match piece.side {
                Side::White => assets.white.clone(),
                _ => assets.black.clone(),
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

pub(crate) fn spawn_piece(
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
            // Shown or hidden per piece (Screen HexaChess hides the other army).
            Visibility::default(),
        ))
        .id();
    // Pieces without a model of their own (a variant's fairy pieces) show their letter.
    if shape_of(rules, piece) == PieceShape::Token {
        // Dark ink on White's light pieces, light ink on Black's (in the classic theme).
        let text = assets.letter_ink[piece.side.index()];
        let lift = match settings.view {
            View::ThreeD => 0.45,
            View::TwoD => 0.1,
        };
        commands.spawn((
            PieceLetter(id),
            pinned_text(
                ScreenPin::Above { entity: id, lift },
                rules.kind_info(piece.kind).letter.to_string(),
                assets.letter_size,
                text,
            ),
        ));
    }
    id
}

/// The letter shown on a piece that has no model of its own.
#[derive(Component, Clone, Copy, Debug)]
pub struct PieceLetter(pub Entity);
