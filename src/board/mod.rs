//! The board: cell tiles in the variant's three colours, coordinate labels along the
//! edges, and highlights (selection, legal targets, last move, check).

use bevy::prelude::*;
use hexchess_core::{Cell, Hex, Layout, Naming, Rules};

use crate::game::{BoardChanged, GameSet, GameState};
use crate::input::Selection;
use crate::models;
use crate::settings::{Settings, View, ViewChanged};
use crate::shading::Surface;

/// Cell circumradius in world units.
pub const CELL_SIZE: f32 = 1.0;
/// Height of the raised 3D cells.
const CELL_HEIGHT: f32 = 0.22;

/// The world position of a cell's centre on the board's top surface. The board lies in
/// the XZ plane; White sits at +Z, so "up the board" (toward Black) is -Z.
pub fn cell_world(rules: &Rules, cell: Cell) -> Vec3 {
    hex_world(rules.layout(), rules.board().hex(cell))
}

/// The world position of any cube coordinate (on the board or not).
pub fn hex_world(layout: Layout, h: Hex) -> Vec3 {
    let (x, y) = layout.to_pixel(h);
    Vec3::new(x * CELL_SIZE, 0.0, -y * CELL_SIZE)
}

/// The cell under a point of the board plane, if any.
pub fn world_cell(rules: &Rules, p: Vec3) -> Option<Cell> {
    let h = rules.layout().from_pixel(p.x / CELL_SIZE, -p.z / CELL_SIZE);
    rules.board().cell(h)
}

/// The centre of the board's cells (for cameras).
pub fn board_centre(rules: &Rules) -> Vec3 {
    let b = rules.board();
    let sum: Vec3 = b.cells().map(|c| cell_world(rules, c)).sum();
    sum / b.len().max(1) as f32
}

/// Half the board's extent (for fitting cameras).
pub fn board_radius(rules: &Rules) -> f32 {
    let c = board_centre(rules);
    rules
        .board()
        .cells()
        .map(|cell| cell_world(rules, cell).distance(c))
        .fold(0.0, f32::max)
        + CELL_SIZE
}

#[derive(Component)]
pub struct CellTile(pub Cell);

/// A coordinate label, drawn at the screen position of a world point.
#[derive(Component)]
pub struct BoardLabel {
    pub world: Vec3,
}

/// An overlay marking a cell.
#[derive(Component)]
pub struct Highlight;

/// The board's scene was rebuilt (new variant or view): pieces follow.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct SceneRebuilt;

pub struct BoardPlugin;

impl Plugin for BoardPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<SceneRebuilt>()
            .add_message::<ViewChanged>()
            .add_systems(
                Update,
                (rebuild_board, update_highlights)
                    .chain()
                    .in_set(GameSet::View),
            )
            .add_systems(PostUpdate, place_labels.after(TransformSystems::Propagate));
    }
}

/// The three cell colours: centre colour, then the other two.
const PALETTE: [Color; 3] = [
    Color::srgb(0.80, 0.63, 0.44),
    Color::srgb(0.95, 0.87, 0.71),
    Color::srgb(0.56, 0.38, 0.24),
];

/// Entities that belong to the board itself (rebuilt with it).
type BoardPart = Or<(With<CellTile>, With<BoardLabel>)>;

#[allow(clippy::too_many_arguments)]
pub fn rebuild_board(
    mut commands: Commands,
    mut first: Local<bool>,
    mut changes: MessageReader<BoardChanged>,
    mut views: MessageReader<ViewChanged>,
    mut rebuilt: MessageWriter<SceneRebuilt>,
    game: Res<GameState>,
    settings: Res<Settings>,
    tiles: Query<Entity, BoardPart>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Surface>>,
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
    let flat_top = rules.layout() == Layout::FlatTop;
    let is_3d = settings.view == View::ThreeD;
    let tile = if is_3d {
        meshes.add(models::hex_prism(CELL_SIZE * 0.965, CELL_HEIGHT, flat_top).into_mesh())
    } else {
        meshes.add(models::hex_ring(CELL_SIZE * 0.985, 0.0, flat_top).into_mesh())
    };
    let colours: Vec<Handle<Surface>> = PALETTE
        .iter()
        .map(|c| {
            materials.add(if is_3d {
                Surface::lit(*c, 0.12, 24.0)
            } else {
                Surface::flat(*c)
            })
        })
        .collect();
    // A dark frame under the cells: one slightly larger, lower prism per cell.
    let frame = is_3d.then(|| {
        (
            meshes.add(
                models::hex_frame(
                    CELL_SIZE * 1.07,
                    CELL_SIZE * 0.9,
                    CELL_HEIGHT * 1.6,
                    flat_top,
                )
                .into_mesh(),
            ),
            materials.add(Surface::lit(Color::srgb(0.17, 0.11, 0.07), 0.2, 32.0)),
        )
    });
    let b = rules.board();
    for cell in b.cells() {
        let pos = cell_world(rules, cell);
        let colour = b.hex(cell).colour() as usize;
        commands.spawn((
            CellTile(cell),
            Mesh3d(tile.clone()),
            MeshMaterial3d(colours[colour].clone()),
            Transform::from_translation(pos),
        ));
        if let Some((mesh, material)) = &frame {
            commands.spawn((
                CellTile(cell),
                Mesh3d(mesh.clone()),
                MeshMaterial3d(material.clone()),
                Transform::from_translation(pos - Vec3::Y * 0.04),
            ));
        }
    }
    if settings.show_coordinates {
        spawn_labels(&mut commands, rules);
    }
    rebuilt.write(SceneRebuilt);
}

/// Where each coordinate label goes: file letters and rank numbers at the board's edge,
/// each next to the first cell it names.
pub fn label_positions(rules: &Rules) -> Vec<(String, Vec3)> {
    let b = rules.board();
    let layout = rules.layout();
    let split = |c: Cell| {
        let n = b.name(c);
        let i = n.find(|ch: char| ch.is_ascii_digit()).unwrap_or(n.len());
        (n[..i].to_string(), n[i..].to_string())
    };
    let px = |c: Cell| layout.to_pixel(b.hex(c));
    // Files naming: letters straight below each file, numbers at the outer edge.
    // Ranks naming: numbers straight left of each rank, letters at the outer edge.
    let (fixed_dir, fixed_is_letter) = match b.naming() {
        Naming::Files | Naming::SlantedRanks => (Hex::new(0, -1), true),
        Naming::Ranks => (Hex::new(-1, 0), false),
    };
    let outward = |c: Cell| -> Vec2 {
        let mut v = Vec2::ZERO;
        for d in hexchess_core::hex::ORTHOGONAL {
            if d != fixed_dir && b.offset(c, d).is_none() {
                let (x, y) = layout.to_pixel(d);
                v += Vec2::new(x, y);
            }
        }
        v.normalize_or(Vec2::new(0.0, -1.0))
    };
    let fixed = {
        let (x, y) = layout.to_pixel(fixed_dir);
        Vec2::new(x, y).normalize()
    };
    let mut out: Vec<(String, Vec3)> = Vec::new();
    let mut add = |text: String, c: Cell, dir: Vec2| {
        if out.iter().any(|(t, _)| *t == text) {
            return;
        }
        let (x, y) = px(c);
        let p = Vec2::new(x, y) + dir * 1.45 * CELL_SIZE;
        out.push((text, Vec3::new(p.x, 0.0, -p.y)));
    };
    // Letters: the lowest cell with each letter; numbers: the leftmost with each.
    let mut by_letter: Vec<Cell> = b.cells().collect();
    by_letter.sort_by(|a, c| {
        px(*a)
            .1
            .total_cmp(&px(*c).1)
            .then(px(*a).0.total_cmp(&px(*c).0))
    });
    for c in by_letter {
        let dir = if fixed_is_letter { fixed } else { outward(c) };
        add(split(c).0, c, dir);
    }
    let mut by_number: Vec<Cell> = b.cells().collect();
    by_number.sort_by(|a, c| {
        px(*a)
            .0
            .total_cmp(&px(*c).0)
            .then(px(*a).1.total_cmp(&px(*c).1))
    });
    for c in by_number {
        let dir = if fixed_is_letter { outward(c) } else { fixed };
        add(split(c).1, c, dir);
    }
    out
}

fn spawn_labels(commands: &mut Commands, rules: &Rules) {
    for (text, world) in label_positions(rules) {
        commands.spawn((
            BoardLabel { world },
            Text::new(text),
            TextFont {
                font_size: FontSize::Px(15.0),
                ..default()
            },
            TextColor(Color::srgb(0.93, 0.88, 0.78)),
            Node {
                position_type: PositionType::Absolute,
                ..default()
            },
            Visibility::Hidden,
        ));
    }
}

/// Keeps each label on its world point as the camera moves or flips.
fn place_labels(
    camera: Query<(&Camera, &GlobalTransform), With<crate::camera::BoardCamera>>,
    mut labels: Query<(&BoardLabel, &mut Node, &mut Visibility, &ComputedNode)>,
) {
    let Ok((camera, transform)) = camera.single() else {
        return;
    };
    for (label, mut node, mut vis, computed) in &mut labels {
        match camera.world_to_viewport(transform, label.world) {
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

#[allow(clippy::too_many_arguments)]
fn update_highlights(
    mut commands: Commands,
    game: Res<GameState>,
    selection: Res<Selection>,
    settings: Res<Settings>,
    mut rebuilt: MessageReader<SceneRebuilt>,
    existing: Query<Entity, With<Highlight>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Surface>>,
    mut cache: Local<Option<HighlightAssets>>,
) {
    let scene = rebuilt.read().count() > 0;
    if !scene && !game.is_changed() && !selection.is_changed() && !settings.is_changed() {
        return;
    }
    for e in &existing {
        commands.entity(e).despawn();
    }
    let rules = game.rules();
    let flat_top = rules.layout() == Layout::FlatTop;
    let assets = match cache.as_ref() {
        Some(a) if a.flat_top == flat_top => a.clone(),
        _ => {
            let a = HighlightAssets::new(flat_top, &mut meshes, &mut materials);
            *cache = Some(a.clone());
            a
        }
    };
    let shown = game.displayed();
    let pos = &shown;
    let mut mark = |cell: Cell, mesh: &Handle<Mesh>, material: &Handle<Surface>, lift: f32| {
        commands.spawn((
            Highlight,
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(cell_world(rules, cell) + Vec3::Y * lift),
        ));
    };
    if let Some(last) = pos.last_move() {
        mark(last.from(), &assets.hex, &assets.last_move, 0.004);
        mark(last.to(), &assets.hex, &assets.last_move, 0.004);
    }
    if pos.in_check() {
        mark(
            pos.royal_cell(pos.turn()),
            &assets.hex,
            &assets.check,
            0.006,
        );
    }
    if let Some(from) = selection.from {
        mark(from, &assets.hex, &assets.selected, 0.008);
        for mv in pos.legal_moves().into_iter().filter(|m| m.from() == from) {
            if pos.is_capture(mv) {
                mark(mv.to(), &assets.ring, &assets.capture, 0.01);
            } else {
                mark(mv.to(), &assets.dot, &assets.target, 0.01);
            }
        }
    }
}

/// Meshes and materials of the highlights, made once per board orientation.
#[derive(Clone)]
struct HighlightAssets {
    flat_top: bool,
    hex: Handle<Mesh>,
    ring: Handle<Mesh>,
    dot: Handle<Mesh>,
    last_move: Handle<Surface>,
    selected: Handle<Surface>,
    check: Handle<Surface>,
    target: Handle<Surface>,
    capture: Handle<Surface>,
}

impl HighlightAssets {
    fn new(
        flat_top: bool,
        meshes: &mut Assets<Mesh>,
        materials: &mut Assets<Surface>,
    ) -> HighlightAssets {
        let mut overlay = |c: Color| materials.add(Surface::flat(c));
        HighlightAssets {
            flat_top,
            hex: meshes.add(models::hex_ring(CELL_SIZE * 0.965, 0.0, flat_top).into_mesh()),
            ring: meshes
                .add(models::hex_ring(CELL_SIZE * 0.93, CELL_SIZE * 0.74, flat_top).into_mesh()),
            dot: meshes.add(models::disc(CELL_SIZE * 0.2, 24).into_mesh()),
            last_move: overlay(Color::srgba(0.95, 0.85, 0.2, 0.45)),
            selected: overlay(Color::srgba(0.3, 0.85, 0.35, 0.55)),
            check: overlay(Color::srgba(0.95, 0.1, 0.05, 0.65)),
            target: overlay(Color::srgba(0.1, 0.25, 0.12, 0.55)),
            capture: overlay(Color::srgba(0.75, 0.12, 0.08, 0.7)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::Catalog;

    #[test]
    fn world_positions_round_trip_to_cells() {
        let catalog = Catalog::builtin();
        for e in catalog.entries() {
            let rules = &e.rules;
            for c in rules.board().cells() {
                let p = cell_world(rules, c);
                assert_eq!(world_cell(rules, p + Vec3::new(0.3, 0.0, -0.4)), Some(c));
            }
            assert_eq!(world_cell(rules, Vec3::new(100.0, 0.0, 0.0)), None);
        }
    }

    #[test]
    fn every_file_and_rank_gets_one_label_off_the_board() {
        let catalog = Catalog::builtin();
        for (id, count) in [("glinski", 11 + 11), ("grand", 13 + 13)] {
            let rules = &catalog.get(id).unwrap().rules;
            let labels = label_positions(rules);
            assert_eq!(labels.len(), count, "{id}: {labels:?}");
            for (text, p) in &labels {
                // Outside every cell, but near one.
                let nearest = rules
                    .board()
                    .cells()
                    .map(|c| cell_world(rules, c).distance(*p))
                    .fold(f32::MAX, f32::min);
                assert!(
                    nearest > 0.9 * CELL_SIZE && nearest < 2.0 * CELL_SIZE,
                    "{id} {text} at {nearest}"
                );
            }
        }
    }
}
