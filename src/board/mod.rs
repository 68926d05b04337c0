//! The board: where cells are in the world ([`space`]), the cell tiles in the
//! variant's three colours, coordinate labels along the edges ([`labels`]) and the
//! highlights on cells ([`highlights`]). Rebuilt when the variant or the view changes;
//! the pieces follow its [`SceneRebuilt`] message.

pub mod highlights;
pub mod labels;
pub mod space;

use bevy::prelude::*;
use hexchess_core::bitboard::CellSet;
use hexchess_core::{Cell, Layout, Rules};

pub use highlights::{Highlight, Premove, Selection};
pub use labels::BoardLabel;
pub use space::{CELL_SIZE, board_centre, board_radius, cell_world, hex_world, world_cell};

use crate::game::{BoardChanged, CurrentGame, GameSet};
use crate::look::mesh;
use crate::look::{Paint, Settings, Surface, Theme, View, ViewChanged};

/// Height of the raised 3D cells.
const CELL_HEIGHT: f32 = 0.22;

/// A cell's tile (and, in 3D, its frame).
#[derive(Component)]
pub struct CellTile(pub Cell);

/// The board's scene was rebuilt (new variant or view): pieces follow.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct SceneRebuilt;

pub struct BoardPlugin;

impl Plugin for BoardPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<SceneRebuilt>()
            .init_resource::<Selection>()
            .init_resource::<Premove>()
            .init_resource::<highlights::Hovered>()
            .add_systems(
                Update,
                (rebuild_board, highlights::update_highlights)
                    .chain()
                    .in_set(GameSet::View),
            );
    }
}

/// Entities that belong to the board itself (rebuilt with it).
type BoardPart = Or<(With<CellTile>, With<BoardLabel>)>;

pub fn rebuild_board(
    mut commands: Commands,
    mut first: Local<bool>,
    (mut changes, mut views): (MessageReader<BoardChanged>, MessageReader<ViewChanged>),
    mut rebuilt: MessageWriter<SceneRebuilt>,
    (game, settings): (Res<CurrentGame>, Res<Settings>),
    tiles: Query<Entity, BoardPart>,
    mut paint: Paint,
) {
    let variant_changed = changes.read().any(|c| {
        matches!(
            c,
            BoardChanged::Reset {
                variant_changed: true
            }
        )
    });
    let view_changed = views.read().count() > 0;
    if *first && !variant_changed && !view_changed {
        return;
    }
    *first = true;
    for e in &tiles {
        commands.entity(e).despawn();
    }
    let rules = game.rules();
    let Paint {
        meshes,
        materials,
        theme,
    } = &mut paint;
    let look = TileLook::new(rules, settings.view, theme, meshes, materials);
    spawn_tiles(&mut commands, rules, &look);
    if settings.show_coordinates {
        labels::spawn_labels(&mut commands, rules, theme);
    }
    rebuilt.write(SceneRebuilt);
}

/// The meshes and materials of one board's cells.
pub(crate) struct TileLook {
    tile: Handle<Mesh>,
    /// By cell colour: the centre's, then the other two.
    colours: Vec<Handle<Surface>>,
    /// In 3D, a dark frame under the cells: one slightly larger, lower prism per cell.
    frame: Option<(Handle<Mesh>, Handle<Surface>)>,
}

impl TileLook {
    pub(crate) fn new<B: CellSet>(
        rules: &Rules<B>,
        view: View,
        theme: &Theme,
        meshes: &mut Assets<Mesh>,
        materials: &mut Assets<Surface>,
    ) -> TileLook {
        let flat_top = rules.layout() == Layout::FlatTop;
        let is_3d = view == View::ThreeD;
        let tile = if is_3d {
            meshes.add(mesh::hex_prism(CELL_SIZE * 0.965, CELL_HEIGHT, flat_top).into_mesh())
        } else {
            meshes.add(mesh::hex_ring(CELL_SIZE * 0.985, 0.0, flat_top).into_mesh())
        };
        let finish = theme.board.cell_finish;
        let colours = theme
            .board
            .cells
            .iter()
            .map(|c| {
                materials.add(if is_3d {
                    Surface::lit((*c).into(), finish.specular, finish.shininess)
                } else {
                    Surface::flat((*c).into())
                })
            })
            .collect();
        let frame = is_3d.then(|| {
            (
                meshes.add(
                    mesh::hex_frame(
                        CELL_SIZE * 1.07,
                        CELL_SIZE * 0.9,
                        CELL_HEIGHT * 1.6,
                        flat_top,
                    )
                    .into_mesh(),
                ),
                materials.add(Surface::lit(
                    theme.board.frame.into(),
                    theme.board.frame_finish.specular,
                    theme.board.frame_finish.shininess,
                )),
            )
        });
        TileLook {
            tile,
            colours,
            frame,
        }
    }
}

/// A tile (and in 3D its frame) on every cell, in the cell's colour.
pub(crate) fn spawn_tiles<B: CellSet>(
    commands: &mut Commands,
    rules: &Rules<B>,
    look: &TileLook,
) -> Vec<Entity> {
    let b = rules.board();
    let mut spawned = Vec::new();
    for cell in b.cells() {
        let pos = cell_world(rules, cell);
        let colour = b.hex(cell).colour() as usize;
        spawned.push(
            commands
                .spawn((
                    CellTile(cell),
                    Mesh3d(look.tile.clone()),
                    MeshMaterial3d(look.colours[colour].clone()),
                    Transform::from_translation(pos),
                ))
                .id(),
        );
        if let Some((mesh, material)) = &look.frame {
            spawned.push(
                commands
                    .spawn((
                        CellTile(cell),
                        Mesh3d(mesh.clone()),
                        MeshMaterial3d(material.clone()),
                        Transform::from_translation(pos - Vec3::Y * 0.04),
                    ))
                    .id(),
            );
        }
    }
    spawned
}
