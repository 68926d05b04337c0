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
use hexchess_core::bitboard::CellSet;
use hexchess_core::{Cell, Piece, Rules, Side};

use crate::board::{CELL_SIZE, cell_world};
use crate::game::GameSet;
use crate::look::mesh::Detail;
use crate::look::pin::{ScreenPin, pinned_text};
use crate::look::theme::Rgb8;
use crate::look::{Settings, Surface, Theme, View};
use crate::machine::Rasteriser;
use models::PieceShape;

/// A piece on the board: where it stands in the game and what it is.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub cell: Cell,
    pub piece: Piece,
}

/// The colour an army is drawn in: White's and Black's from the theme, the other seats
/// of games of more sides by their names (a seat named otherwise takes its seat's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArmyColour {
    White,
    Black,
    Red,
    Gold,
    Blue,
    Green,
}

impl ArmyColour {
    pub const ALL: [ArmyColour; 6] = [
        ArmyColour::White,
        ArmyColour::Black,
        ArmyColour::Red,
        ArmyColour::Gold,
        ArmyColour::Blue,
        ArmyColour::Green,
    ];

    /// The colour of `side`'s army in this variant.
    pub fn of<B: CellSet>(rules: &Rules<B>, side: Side) -> ArmyColour {
        match rules.side_name(side).to_ascii_lowercase().as_str() {
            "white" => ArmyColour::White,
            "black" => ArmyColour::Black,
            "red" => ArmyColour::Red,
            "gold" | "yellow" => ArmyColour::Gold,
            "blue" => ArmyColour::Blue,
            "green" => ArmyColour::Green,
            _ => [
                ArmyColour::White,
                ArmyColour::Black,
                ArmyColour::Red,
                ArmyColour::Blue,
            ][side.index()],
        }
    }

    /// The army's colour for the interface (swatches, the side to move).
    pub fn swatch(self) -> Color {
        let (fill, _) = self.fixed();
        Color::srgb_u8(fill.0, fill.1, fill.2)
    }

    /// Body and outline of the seats the theme does not colour.
    fn fixed(self) -> (Rgb8, Rgb8) {
        match self {
            ArmyColour::White => (Rgb8(238, 226, 200), Rgb8(40, 34, 30)),
            ArmyColour::Black => (Rgb8(46, 40, 38), Rgb8(226, 214, 190)),
            ArmyColour::Red => (Rgb8(186, 48, 40), Rgb8(250, 232, 222)),
            ArmyColour::Gold => (Rgb8(222, 170, 40), Rgb8(60, 40, 10)),
            ArmyColour::Blue => (Rgb8(46, 104, 196), Rgb8(226, 236, 250)),
            ArmyColour::Green => (Rgb8(46, 139, 87), Rgb8(226, 246, 230)),
        }
    }
}

/// Meshes and materials of pieces, made once.
#[derive(Resource, Default)]
pub struct PieceAssets {
    models: HashMap<PieceShape, Handle<Mesh>>,
    images: HashMap<(PieceShape, ArmyColour), Handle<Surface>>,
    /// The 2D images themselves, for the interface (the editor's palette).
    pictures: HashMap<(PieceShape, ArmyColour), Handle<Image>>,
    /// The 3D pieces' material of each army colour.
    armies: HashMap<ArmyColour, Handle<Surface>>,
    quad: Handle<Mesh>,
    /// The letter on a piece without a model: ink for each army colour, and size.
    letter_ink: HashMap<ArmyColour, Color>,
    letter_size: f32,
}

impl PieceAssets {
    /// The 2D image of `piece`, for the interface; `None` for a piece with no image of
    /// its own (a variant's token, told by its letter) or before the images are made.
    pub fn picture<B: CellSet>(&self, rules: &Rules<B>, piece: Piece) -> Option<&Handle<Image>> {
        let shape = shape_of(rules, piece);
        if shape == PieceShape::Token {
            return None;
        }
        self.pictures
            .get(&(shape, ArmyColour::of(rules, piece.side)))
    }
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
                remake_piece_assets_for_theme
                    .in_set(PieceLooks)
                    .in_set(GameSet::View)
                    .before(sync::follow_game),
            )
            .add_systems(
                Update,
                (
                    sync::follow_game,
                    sync::verify_pieces,
                    relabel_promoted_pieces.after(animation::Animate),
                )
                    .chain()
                    .in_set(GameSet::View)
                    .after(crate::board::rebuild_board),
            )
            .configure_sets(Update, animation::Animate.after(sync::follow_game))
            .add_plugins(animation::AnimationPlugin);
    }
}

/// Where the pieces' looks are made again after a theme switch: whatever spawns pieces
/// runs after it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct PieceLooks;

/// The stores the pieces' looks are made into.
#[derive(bevy::ecs::system::SystemParam)]
struct LookStores<'w> {
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<Surface>>,
    images: ResMut<'w, Assets<Image>>,
}

fn make_piece_assets(
    mut assets: ResMut<PieceAssets>,
    stores: LookStores,
    rasteriser: Option<Res<Rasteriser>>,
    theme: Res<Theme>,
) {
    let detail = rasteriser.map_or_else(Detail::default, |r| Detail::for_rasteriser(*r));
    build_piece_assets(&mut assets, stores, detail, &theme);
}

/// A theme switched while the game runs (not the one it started with): the pieces'
/// looks are made again, before the pieces are respawned with them (the switch also
/// rebuilds the board, which respawns the pieces).
fn remake_piece_assets_for_theme(
    mut assets: ResMut<PieceAssets>,
    stores: LookStores,
    rasteriser: Option<Res<Rasteriser>>,
    theme: Res<Theme>,
    mut made_for: Local<Option<Theme>>,
) {
    if !theme.is_changed() || made_for.as_ref() == Some(&*theme) {
        return;
    }
    let first = made_for.is_none();
    *made_for = Some(theme.clone());
    if first {
        // The start's theme: `make_piece_assets` made its looks.
        return;
    }
    let detail = rasteriser.map_or_else(Detail::default, |r| Detail::for_rasteriser(*r));
    *assets = PieceAssets::default();
    build_piece_assets(&mut assets, stores, detail, &theme);
}

fn build_piece_assets(assets: &mut PieceAssets, stores: LookStores, detail: Detail, theme: &Theme) {
    let LookStores {
        mut meshes,
        mut materials,
        mut images,
    } = stores;
    let t = &theme.pieces;
    for army in ArmyColour::ALL {
        let material = match army {
            ArmyColour::White => Surface::lit(
                t.white.into(),
                t.white_finish.specular,
                t.white_finish.shininess,
            )
            .with_rim(t.white_finish.rim),
            ArmyColour::Black => Surface::lit(
                t.black.into(),
                t.black_finish.specular,
                t.black_finish.shininess,
            )
            .with_rim(t.black_finish.rim),
            other => {
                let (fill, _) = other.fixed();
                Surface::lit(
                    Color::srgb_u8(fill.0, fill.1, fill.2),
                    t.white_finish.specular,
                    t.white_finish.shininess,
                )
            }
        };
        assets.armies.insert(army, materials.add(material));
        let ink = match army {
            ArmyColour::White => t.white_letter.into(),
            ArmyColour::Black => t.black_letter.into(),
            other => {
                let (_, outline) = other.fixed();
                Color::srgb_u8(outline.0, outline.1, outline.2)
            }
        };
        assets.letter_ink.insert(army, ink);
    }
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
        for army in ArmyColour::ALL {
            let colours = match army {
                ArmyColour::White => t.white_image,
                ArmyColour::Black => t.black_image,
                other => {
                    let (fill, outline) = other.fixed();
                    crate::look::ImageColours { fill, outline }
                }
            };
            let image = images.add(sprites::piece_image(shape, colours));
            assets.pictures.insert((shape, army), image.clone());
            let material = materials.add(Surface::image(image));
            assets.images.insert((shape, army), material);
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
pub fn shape_of<B: CellSet>(rules: &Rules<B>, piece: Piece) -> PieceShape {
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
pub fn piece_look<B: CellSet>(
    assets: &PieceAssets,
    rules: &Rules<B>,
    piece: Piece,
    settings: &Settings,
) -> (Handle<Mesh>, Handle<Surface>, Quat) {
    let shape = shape_of(rules, piece);
    let army = ArmyColour::of(rules, piece.side);
    match settings.view {
        View::ThreeD => {
            // Models face +X; each army faces the way its side looks up the board
            // (White's up it, -Z; Black's down; other seats turned with their rotation).
            let turn =
                std::f32::consts::FRAC_PI_2 + rules.side_rotation_degrees(piece.side).to_radians();
            let material = assets.armies[&army].clone();
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
                assets.images[&(shape, army)].clone(),
                Quat::from_rotation_y(turn),
            )
        }
    }
}

pub(crate) fn spawn_piece<B: CellSet>(
    commands: &mut Commands,
    assets: &PieceAssets,
    rules: &Rules<B>,
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
    spawn_letter(commands, assets, rules, id, piece, settings.view);
    id
}

/// The letter `piece` (shown by entity `id`) carries in `view`, if any.
fn spawn_letter<B: CellSet>(
    commands: &mut Commands,
    assets: &PieceAssets,
    rules: &Rules<B>,
    id: Entity,
    piece: Piece,
    view: View,
) {
    let Some(lift) = letter_lift(shape_of(rules, piece), view) else {
        return;
    };
    // Dark ink on White's light pieces, light ink on Black's (in the classic theme).
    let ink = assets.letter_ink[&ArmyColour::of(rules, piece.side)];
    commands.spawn((
        PieceLetter(id),
        pinned_text(
            ScreenPin::Above { entity: id, lift },
            rules.kind_info(piece.kind).letter.to_string(),
            assets.letter_size,
            ink,
        ),
    ));
}

/// A piece that changed kind on its cell (a promotion, after its animation) gets the
/// letter of its new kind and loses the old one.
fn relabel_promoted_pieces(
    mut commands: Commands,
    assets: Res<PieceAssets>,
    game: Res<crate::game::CurrentGame>,
    settings: Res<Settings>,
    changed: Query<(Entity, &PieceView), Changed<PieceView>>,
    letters: Query<(Entity, &PieceLetter, &Text)>,
) {
    let rules = game.rules();
    for (id, view) in &changed {
        let wanted = letter_lift(shape_of(rules, view.piece), settings.view)
            .map(|_| rules.kind_info(view.piece.kind).letter.to_string());
        let shown = letters.iter().find(|(_, l, _)| l.0 == id);
        if shown.map(|(_, _, t)| &t.0) == wanted.as_ref() {
            continue;
        }
        if let Some((letter, _, _)) = shown {
            commands.entity(letter).despawn();
        }
        spawn_letter(&mut commands, &assets, rules, id, view.piece, settings.view);
    }
}

/// How high above its cell a piece shows its letter, if it shows one: a piece with no
/// model of its own always; in 3D the War Machine, Vizir and Duke too, whose knight's
/// heads look alike from behind (their 2D images carry the letter on the body).
pub fn letter_lift(shape: PieceShape, view: View) -> Option<f32> {
    match (shape, view) {
        (PieceShape::Token, View::ThreeD) => Some(0.45),
        (PieceShape::Token, View::TwoD) => Some(0.1),
        (PieceShape::WarMachine | PieceShape::Vizir | PieceShape::Duke, View::ThreeD) => Some(0.3),
        _ => None,
    }
}

/// The letter shown on a piece: one with no model of its own, or a fairy piece in 3D.
#[derive(Component, Clone, Copy, Debug)]
pub struct PieceLetter(pub Entity);
