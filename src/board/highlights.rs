//! Highlights on cells: the last move (the last turn's moves), a king in check, the
//! selected piece and where it may go (dots on empty cells, rings on captures), and in
//! games of more sides the side on move, armies frozen or out, and a removal owed.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use hexchess_core::{Cell, Game, Kind, Layout, Move, Standing, Step};

use super::SceneRebuilt;
use super::space::{CELL_SIZE, cell_world};
use crate::game::CurrentGame;
use crate::look::mesh;
use crate::look::{Paint, Settings, Surface, Theme};

/// The selected piece's cell, or the kind picked from the hand in a setup phase: the
/// input and the tray set it, the highlights show its moves.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub from: Option<Cell>,
    pub hand: Option<Kind>,
}

/// A move queued while another side is on move (a premove): from one cell to
/// another, played the moment this player's turn comes if it is legal then, dropped
/// otherwise; a click cancels it. Two-sided games only.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Premove(pub Option<(Cell, Cell)>);

/// The piece under the pointer (none over the interface or an empty cell): with nothing
/// selected, where it can go is shown faintly, so that a player can look before taking.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hovered(pub Option<Cell>);

/// An overlay marking a cell.
#[derive(Component)]
pub struct Highlight;

/// What the highlights show: a change to any of it redraws them.
#[derive(SystemParam)]
pub(super) struct Marked<'w> {
    game: Res<'w, CurrentGame>,
    selection: Res<'w, Selection>,
    premove: Res<'w, Premove>,
    hovered: Res<'w, Hovered>,
    screen: Res<'w, crate::game::deployment::ScreenState>,
    picture: Res<'w, crate::game::BoardPicture>,
    settings: Res<'w, Settings>,
}

impl Marked<'_> {
    fn changed(&self) -> bool {
        self.game.is_changed()
            || self.selection.is_changed()
            || self.premove.is_changed()
            || self.hovered.is_changed()
            || self.settings.is_changed()
            || self.screen.is_changed()
            || self.picture.is_changed()
    }
}

pub(super) fn update_highlights(
    mut commands: Commands,
    marked: Marked,
    mut rebuilt: MessageReader<SceneRebuilt>,
    existing: Query<Entity, With<Highlight>>,
    mut paint: Paint,
    mut cache: Local<Option<HighlightAssets>>,
) {
    let Marked {
        game,
        selection,
        premove,
        hovered,
        screen,
        picture,
        ..
    } = &marked;
    if paint.theme.is_changed() {
        // A theme switched: the marks' colours are made again.
        *cache = None;
    }
    let scene = rebuilt.read().count() > 0;
    if !scene && !marked.changed() {
        return;
    }
    for e in &existing {
        commands.entity(e).despawn();
    }
    // The editor's picture is no moment of the game: none of its marks apply.
    if picture.0.is_some() {
        return;
    }
    let rules = game.rules();
    let flat_top = rules.layout() == Layout::FlatTop;
    let assets = match cache.as_ref() {
        Some(a) if a.flat_top == flat_top => a.clone(),
        _ => {
            let Paint {
                meshes,
                materials,
                theme,
            } = &mut paint;
            let a = HighlightAssets::new(flat_top, theme, meshes, materials);
            *cache = Some(a.clone());
            a
        }
    };
    let shown = game.displayed_game();
    let pos = shown.position();
    let mut mark = |cell: Cell, mesh: &Handle<Mesh>, material: &Handle<Surface>, lift: f32| {
        commands.spawn((
            Highlight,
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(cell_world(rules, cell) + Vec3::Y * lift),
        ));
    };
    for last in last_turn_moves(&shown) {
        if crate::game::deployment::shows(game, screen, last.to()) {
            mark(last.from(), &assets.hex, &assets.last_move, 0.004);
            mark(last.to(), &assets.hex, &assets.last_move, 0.004);
        }
    }
    mark_standings(&shown, &assets, &mut mark);
    // The pieces a removal owed may take (a swap is the panel's).
    let steps = shown.steps();
    if shown.owed(shown.side_to_move()) > 0 {
        for s in &steps {
            if let Step::Play(m) = s
                && m.promotion().is_none()
            {
                mark(m.to(), &assets.ring, &assets.owed, 0.013);
            }
        }
    }
    let moves: Vec<Move> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Play(m) if !m.is_edit() => Some(*m),
            _ => None,
        })
        .collect();
    if let Some(kind) = selection.hand {
        for mv in moves.iter().filter(|m| m.placed_kind() == Some(kind)) {
            mark(mv.to(), &assets.dot, &assets.target, 0.01);
        }
    }
    for side in shown.sides_in() {
        if shown.in_check(side) {
            mark(pos.royal_cell(side), &assets.hex, &assets.check, 0.006);
        }
    }
    // With nothing selected, the moves of the piece under the pointer, faintly.
    if let Some(at) = hovered
        .0
        .filter(|_| selection.from.is_none() && selection.hand.is_none())
        && crate::game::deployment::shows(game, screen, at)
    {
        for mv in moves.iter().filter(|m| m.from() == at && !m.is_placement()) {
            mark(mv.to(), &assets.dot, &assets.hover, 0.01);
        }
    }
    if let Some((from, to)) = premove.0 {
        mark(from, &assets.hex, &assets.premove, 0.009);
        mark(to, &assets.hex, &assets.premove, 0.009);
    }
    if let Some(from) = selection.from {
        mark(from, &assets.hex, &assets.selected, 0.008);
        for mv in moves.iter().filter(|m| m.from() == from) {
            if pos.is_capture(*mv) {
                mark(mv.to(), &assets.ring, &assets.capture, 0.01);
            } else {
                mark(mv.to(), &assets.dot, &assets.target, 0.01);
            }
        }
    }
}

/// The moves of the last turn (the turn in progress once it has a move).
fn last_turn_moves(game: &Game) -> Vec<Move> {
    let steps = match game.current_steps() {
        [] => game.turns().last().map_or(&[][..], |(_, s)| s),
        now => now,
    };
    steps
        .iter()
        .filter_map(|s| match s {
            Step::Play(mv) if !mv.is_edit() => Some(*mv),
            _ => None,
        })
        .collect()
}

/// In a game of more sides: the royal piece of the side on move, and the armies that
/// stand checkmated (frozen: its pieces cannot be taken, its king can) or out.
fn mark_standings(
    game: &Game,
    assets: &HighlightAssets,
    mark: &mut impl FnMut(Cell, &Handle<Mesh>, &Handle<Surface>, f32),
) {
    if !game.has_more_sides() {
        return;
    }
    let pos = game.position();
    for side in game.sides() {
        let cells = pos.side_cells(side);
        match game.standing(side) {
            Standing::Playing => {}
            Standing::Frozen => {
                let royal = pos.royal_cell(side);
                for c in cells.into_iter().filter(|c| *c != royal) {
                    mark(c, &assets.ring, &assets.frozen, 0.012);
                }
            }
            Standing::Out => {
                for c in cells {
                    mark(c, &assets.hex, &assets.out, 0.006);
                }
            }
        }
    }
    let side = game.side_to_move();
    if game.end().is_none() && pos.royal_on_board(side) {
        mark(pos.royal_cell(side), &assets.ring, &assets.on_move, 0.011);
    }
}

/// Meshes and materials of the highlights, made once per board orientation.
#[derive(Clone)]
pub(super) struct HighlightAssets {
    flat_top: bool,
    hex: Handle<Mesh>,
    ring: Handle<Mesh>,
    dot: Handle<Mesh>,
    last_move: Handle<Surface>,
    selected: Handle<Surface>,
    check: Handle<Surface>,
    target: Handle<Surface>,
    capture: Handle<Surface>,
    /// The target dots of the piece under the pointer: the target colour, fainter.
    hover: Handle<Surface>,
    /// More sides: an army checkmated (frozen), an army out, a piece a removal owed
    /// may take, the royal piece of the side on move.
    frozen: Handle<Surface>,
    out: Handle<Surface>,
    owed: Handle<Surface>,
    on_move: Handle<Surface>,
    /// A premove's two cells.
    premove: Handle<Surface>,
}

impl HighlightAssets {
    fn new(
        flat_top: bool,
        theme: &Theme,
        meshes: &mut Assets<Mesh>,
        materials: &mut Assets<Surface>,
    ) -> HighlightAssets {
        let mut overlay = |c: crate::look::theme::Rgba| materials.add(Surface::flat(c.into()));
        let h = &theme.highlights;
        HighlightAssets {
            flat_top,
            hex: meshes.add(mesh::hex_ring(CELL_SIZE * 0.965, 0.0, flat_top).into_mesh()),
            ring: meshes
                .add(mesh::hex_ring(CELL_SIZE * 0.93, CELL_SIZE * 0.74, flat_top).into_mesh()),
            dot: meshes.add(mesh::disc(CELL_SIZE * 0.2, 24).into_mesh()),
            last_move: overlay(h.last_move),
            selected: overlay(h.selected),
            check: overlay(h.check),
            target: overlay(h.target),
            capture: overlay(h.capture),
            hover: overlay(crate::look::theme::Rgba(
                h.target.0,
                h.target.1,
                h.target.2,
                h.target.3 * 0.45,
            )),
            frozen: materials.add(Surface::flat(Color::srgba(0.25, 0.65, 0.95, 0.8))),
            out: materials.add(Surface::flat(Color::srgba(0.1, 0.1, 0.1, 0.55))),
            owed: materials.add(Surface::flat(Color::srgba(0.95, 0.55, 0.1, 0.85))),
            on_move: materials.add(Surface::flat(Color::srgba(0.3, 0.85, 0.35, 0.6))),
            premove: materials.add(Surface::flat(Color::srgba(0.85, 0.3, 0.45, 0.65))),
        }
    }
}
