//! What a table shows: its board and pieces (rebuilt on a new game or view, a step
//! animated), the highlights (the last turn, the selection and its targets, an army
//! frozen or out, the pieces a removal may take), the way the board faces (turned to
//! the person on move), and the person's clicks.

use bevy::prelude::*;
use hexchess_core::Layout;
use hexchess_core::bitboard::CellSet;
use hexchess_core::game::{Standing, Step};
use hexchess_core::{Cell, Move};

use super::{TableChanged, TableRequest, TableState, facing_side};
use crate::board::{CELL_SIZE, TileLook, board_centre, board_radius, cell_world, spawn_tiles};
use crate::game::Seating;
use crate::input::{PointerCell, PointerOverUi};
use crate::look::mesh;
use crate::look::{Settings, Surface, Theme, ViewChanged};
use crate::pieces::animation::{Slide, Vanish};
use crate::pieces::{PieceAssets, PieceView, rest_height, spawn_piece};

/// Everything a table spawned (despawned when it is left or rebuilt).
#[derive(Component)]
pub struct TableOwned;

/// Whatever was on the board before a table's board: its own entities and the
/// two-player game's.
type AnyBoardPart = Or<(
    With<TableOwned>,
    With<crate::board::CellTile>,
    With<PieceView>,
    With<crate::board::BoardLabel>,
    With<crate::board::Highlight>,
)>;

/// Pieces still moving or leaving.
type InMotion = Or<(With<Slide>, With<Vanish>)>;

/// A highlight of the table.
#[derive(Component)]
pub struct TableMark;

/// Where the board is and which seat it faces, for the camera.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct TableFrame {
    pub centre: Vec3,
    pub radius: f32,
    /// The seat the board is turned to (radians, counter-clockwise from White's).
    pub turn: f32,
    /// Whether a new board was just built (the camera fits it).
    pub fresh: bool,
}

pub struct TableViewPlugin;

impl Plugin for TableViewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TableFrame>()
            .add_systems(
                Update,
                (
                    rebuild_scene,
                    animate_steps,
                    verify_pieces,
                    turn_board,
                    update_marks,
                )
                    .chain()
                    .in_set(crate::game::GameSet::View)
                    .after(crate::pieces::PieceLooks)
                    .run_if(in_state(Seating::Table)),
            )
            .configure_sets(Update, super::TableInput.before(super::apply_requests))
            .add_systems(
                Update,
                clicks
                    .in_set(super::TableInput)
                    .run_if(in_state(Seating::Table)),
            )
            .add_systems(OnExit(Seating::Table), despawn_table);
    }
}

fn despawn_table(mut commands: Commands, owned: Query<Entity, With<TableOwned>>) {
    for e in &owned {
        commands.entity(e).despawn();
    }
}

/// A new game or view: the board and pieces from scratch; the two-player game's
/// entities go.
#[allow(clippy::too_many_arguments)]
fn rebuild_scene(
    mut commands: Commands,
    mut changes: MessageReader<TableChanged>,
    mut views: MessageReader<ViewChanged>,
    table: Option<Res<TableState>>,
    settings: Res<Settings>,
    theme: Res<Theme>,
    assets: Res<PieceAssets>,
    mut frame: ResMut<TableFrame>,
    old: Query<Entity, AnyBoardPart>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Surface>>,
    mut built: Local<bool>,
) {
    let Some(table) = table else {
        return;
    };
    let reset = changes.read().any(|c| matches!(c, TableChanged::Reset));
    let view = views.read().count() > 0;
    if *built && !reset && !view {
        return;
    }
    *built = true;
    for e in &old {
        commands.entity(e).despawn();
    }
    let rules = table.game.position().rules();
    let look = TileLook::new(rules, settings.view, &theme, &mut meshes, &mut materials);
    for e in spawn_tiles(&mut commands, rules, &look) {
        commands.entity(e).insert(TableOwned);
    }
    spawn_pieces(&mut commands, &table, &assets, &settings);
    frame.centre = board_centre(rules);
    frame.radius = board_radius(rules);
    frame.fresh = true;
}

fn spawn_pieces(
    commands: &mut Commands,
    table: &TableState,
    assets: &PieceAssets,
    settings: &Settings,
) {
    let pos = table.game.position();
    for (cell, piece) in pos.pieces() {
        let e = spawn_piece(commands, assets, pos.rules(), cell, piece, settings);
        commands.entity(e).insert(TableOwned);
    }
}

/// A step: the piece slides (a knight hops), a captured or removed one vanishes.
fn animate_steps(
    mut commands: Commands,
    mut changes: MessageReader<TableChanged>,
    table: Option<Res<TableState>>,
    settings: Res<Settings>,
    mut pieces: Query<(Entity, &mut PieceView, &Transform), Without<Vanish>>,
) {
    let Some(table) = table else {
        return;
    };
    let rules = table.game.position().rules();
    let speed = if settings.animate {
        settings.animation_speed.max(0.05)
    } else {
        0.0
    };
    for change in changes.read() {
        let TableChanged::Stepped { moved, gone } = *change else {
            continue;
        };
        if let Some(cell) = gone {
            let moving_from = moved.map(|m| m.0);
            for (e, view, t) in &pieces {
                if view.cell == cell && Some(view.cell) != moving_from {
                    commands
                        .entity(e)
                        .insert(Vanish::new(t.scale, 0.35 / speed.max(0.05)));
                }
            }
        }
        if let Some((from, to, piece)) = moved {
            for (e, mut view, t) in &mut pieces {
                if view.cell == from && view.piece == piece {
                    view.cell = to;
                    let end = cell_world(rules, to) + Vec3::Y * rest_height(settings.view);
                    if speed == 0.0 {
                        commands
                            .entity(e)
                            .insert(Transform::from_translation(end).with_rotation(t.rotation));
                    } else {
                        let hop = rules.kind_info(piece.kind).letter == 'N';
                        commands.entity(e).insert(Slide::new(
                            t.translation,
                            end,
                            0.45 / speed,
                            hop,
                        ));
                    }
                    break;
                }
            }
        }
    }
}

/// Once the pieces are still, they must match the board (a promotion or a swap
/// changes a piece's kind): otherwise they are rebuilt.
fn verify_pieces(
    mut commands: Commands,
    table: Option<Res<TableState>>,
    settings: Res<Settings>,
    assets: Res<PieceAssets>,
    pieces: Query<(Entity, &PieceView), With<TableOwned>>,
    moving: Query<(), InMotion>,
) {
    let Some(table) = table else {
        return;
    };
    if !moving.is_empty() {
        return;
    }
    let pos = table.game.position();
    let mut shown: Vec<(Cell, hexchess_core::Piece)> =
        pieces.iter().map(|(_, v)| (v.cell, v.piece)).collect();
    let mut actual: Vec<(Cell, hexchess_core::Piece)> = pos.pieces().collect();
    shown.sort_by_key(|(c, p)| (c.index(), p.side.index(), p.kind.index()));
    actual.sort_by_key(|(c, p)| (c.index(), p.side.index(), p.kind.index()));
    if shown == actual {
        return;
    }
    for (e, _) in &pieces {
        commands.entity(e).despawn();
    }
    spawn_pieces(&mut commands, &table, &assets, &settings);
}

/// The board turns to the person on move (with several people at one screen), or to
/// the one person playing.
fn turn_board(table: Option<Res<TableState>>, mut frame: ResMut<TableFrame>) {
    let Some(table) = table else {
        return;
    };
    let side = facing_side(&table);
    let turn = table
        .game
        .position()
        .rules()
        .side_rotation_degrees(side)
        .to_radians();
    if frame.turn != turn {
        frame.turn = turn;
    }
}

/// Meshes and materials of the table's highlights.
struct MarkAssets {
    hex: Handle<Mesh>,
    ring: Handle<Mesh>,
    dot: Handle<Mesh>,
    last: Handle<Surface>,
    selected: Handle<Surface>,
    target: Handle<Surface>,
    capture: Handle<Surface>,
    frozen: Handle<Surface>,
    out: Handle<Surface>,
    owed: Handle<Surface>,
    on_move: Handle<Surface>,
}

impl MarkAssets {
    fn new(
        flat_top: bool,
        theme: &Theme,
        meshes: &mut Assets<Mesh>,
        materials: &mut Assets<Surface>,
    ) -> MarkAssets {
        let h = &theme.highlights;
        let mut flat = |c: Color| materials.add(Surface::flat(c));
        MarkAssets {
            hex: meshes.add(mesh::hex_ring(CELL_SIZE * 0.965, 0.0, flat_top).into_mesh()),
            ring: meshes
                .add(mesh::hex_ring(CELL_SIZE * 0.93, CELL_SIZE * 0.74, flat_top).into_mesh()),
            dot: meshes.add(mesh::disc(CELL_SIZE * 0.2, 24).into_mesh()),
            last: flat(h.last_move.into()),
            selected: flat(h.selected.into()),
            target: flat(h.target.into()),
            capture: flat(h.capture.into()),
            frozen: flat(Color::srgba(0.25, 0.65, 0.95, 0.8)),
            out: flat(Color::srgba(0.1, 0.1, 0.1, 0.55)),
            owed: flat(Color::srgba(0.95, 0.55, 0.1, 0.85)),
            on_move: flat(Color::srgba(0.3, 0.85, 0.35, 0.6)),
        }
    }
}

/// The highlights, redrawn whenever the table changes.
#[allow(clippy::too_many_arguments)]
fn update_marks(
    mut commands: Commands,
    table: Option<Res<TableState>>,
    theme: Res<Theme>,
    existing: Query<Entity, With<TableMark>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Surface>>,
    mut cache: Local<Option<(bool, MarkAssets)>>,
) {
    if theme.is_changed() {
        // A theme switched: the marks' colours are made again.
        *cache = None;
    }
    let Some(table) = table else {
        return;
    };
    if !table.is_changed() {
        return;
    }
    for e in &existing {
        commands.entity(e).despawn();
    }
    let game = &table.game;
    let pos = game.position();
    let rules = pos.rules();
    let flat_top = rules.layout() == Layout::FlatTop;
    if cache.as_ref().is_none_or(|c| c.0 != flat_top) {
        *cache = Some((
            flat_top,
            MarkAssets::new(flat_top, &theme, &mut meshes, &mut materials),
        ));
    }
    let a = &cache.as_ref().expect("made above").1;
    let mut mark = |cell: Cell, mesh: &Handle<Mesh>, material: &Handle<Surface>, lift: f32| {
        commands.spawn((
            TableMark,
            TableOwned,
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(cell_world(rules, cell) + Vec3::Y * lift),
        ));
    };
    for (from, to) in &table.last {
        mark(*from, &a.hex, &a.last, 0.004);
        mark(*to, &a.hex, &a.last, 0.004);
    }
    for side in game.sides() {
        let cells = pos.side_cells(side);
        match game.standing(side) {
            Standing::Playing => {}
            Standing::Frozen => {
                // Its pieces cannot be taken; its king can.
                let royal = pos.royal_cell(side);
                for c in cells.into_iter().filter(|c| *c != royal) {
                    mark(c, &a.ring, &a.frozen, 0.012);
                }
            }
            Standing::Out => {
                for c in cells {
                    mark(c, &a.hex, &a.out, 0.006);
                }
            }
        }
    }
    if game.end().is_some() {
        return;
    }
    let side = game.side_to_move();
    if pos.royal_on_board(side) {
        mark(pos.royal_cell(side), &a.ring, &a.on_move, 0.011);
    }
    if !table.human_on_move() {
        return;
    }
    let steps = game.steps();
    if game.owed(side) > 0 {
        for s in &steps {
            if let Step::Play(m) = s {
                mark(m.to(), &a.ring, &a.owed, 0.013);
            }
        }
        return;
    }
    if let Some(from) = table.selected {
        mark(from, &a.hex, &a.selected, 0.008);
        for s in &steps {
            let Step::Play(m) = s else { continue };
            if m.from() != from || m.is_edit() {
                continue;
            }
            if pos.piece_at(m.to()).is_some() {
                mark(m.to(), &a.ring, &a.capture, 0.01);
            } else {
                mark(m.to(), &a.dot, &a.target, 0.01);
            }
        }
    }
}

/// A person's clicks: a piece of theirs selects it, a target plays the move (a
/// promotion waits for the piece chosen in the panel); while a removal is owed, a
/// marked piece is removed (swaps are the panel's buttons).
fn clicks(
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    pointer: Res<PointerCell>,
    over_ui: Res<PointerOverUi>,
    table: Option<ResMut<TableState>>,
    mut requests: MessageWriter<TableRequest>,
) {
    let (Some(buttons), Some(mut table)) = (buttons, table) else {
        return;
    };
    if over_ui.0 || !buttons.just_pressed(MouseButton::Left) || !table.human_on_move() {
        return;
    }
    let Some(cell) = pointer.cell else {
        return;
    };
    let steps = table.game.steps();
    let side = table.game.side_to_move();
    if table.game.owed(side) > 0 {
        if steps.contains(&Step::Play(Move::removal(cell))) {
            requests.write(TableRequest::Step(Step::Play(Move::removal(cell))));
        }
        return;
    }
    let pos = table.game.position();
    if let Some(from) = table.selected {
        let candidates: Vec<Move> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Play(m) if !m.is_edit() && m.from() == from && m.to() == cell => Some(*m),
                _ => None,
            })
            .collect();
        // Several promotions: the panel asks which piece.
        if candidates.len() > 1 {
            table.promoting = Some((from, cell));
            return;
        }
        if let Some(m) = candidates.first() {
            requests.write(TableRequest::Step(Step::Play(*m)));
            return;
        }
    }
    let own = pos.side_cells(side).contains(cell);
    let movable = steps
        .iter()
        .any(|s| matches!(s, Step::Play(m) if m.from() == cell && !m.is_edit()));
    table.promoting = None;
    table.selected = (own && movable).then_some(cell);
}
