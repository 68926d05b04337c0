//! Highlights on cells: the last move, a king in check, the selected piece and where it
//! may go (dots on empty cells, rings on captures).

use bevy::prelude::*;
use hexchess_core::{Cell, Kind, Layout};

use super::SceneRebuilt;
use super::space::{CELL_SIZE, cell_world};
use crate::game::GameState;
use crate::look::mesh;
use crate::look::{Settings, Surface, Theme};

/// The selected piece's cell, or the kind picked from the hand in a setup phase: the
/// input and the tray set it, the highlights show its moves.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub from: Option<Cell>,
    pub hand: Option<Kind>,
}

/// The piece under the pointer (none over the interface or an empty cell): with nothing
/// selected, where it can go is shown faintly, so that a player can look before taking.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hovered(pub Option<Cell>);

/// An overlay marking a cell.
#[derive(Component)]
pub struct Highlight;

#[allow(clippy::too_many_arguments)]
pub(super) fn update_highlights(
    mut commands: Commands,
    game: Res<GameState>,
    selection: Res<Selection>,
    hovered: Res<Hovered>,
    screen: Res<crate::game::deployment::ScreenState>,
    picture: Res<crate::game::BoardPicture>,
    settings: Res<Settings>,
    theme: Res<Theme>,
    mut rebuilt: MessageReader<SceneRebuilt>,
    existing: Query<Entity, With<Highlight>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Surface>>,
    mut cache: Local<Option<HighlightAssets>>,
) {
    if theme.is_changed() {
        // A theme switched: the marks' colours are made again.
        *cache = None;
    }
    let scene = rebuilt.read().count() > 0;
    if !scene
        && !game.is_changed()
        && !selection.is_changed()
        && !hovered.is_changed()
        && !settings.is_changed()
        && !screen.is_changed()
        && !picture.is_changed()
    {
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
            let a = HighlightAssets::new(flat_top, &theme, &mut meshes, &mut materials);
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
    if let Some(last) = pos.last_move()
        && crate::game::deployment::shows(&game, &screen, last.to())
    {
        mark(last.from(), &assets.hex, &assets.last_move, 0.004);
        mark(last.to(), &assets.hex, &assets.last_move, 0.004);
    }
    if let Some(kind) = selection.hand {
        for mv in pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.placed_kind() == Some(kind))
        {
            mark(mv.to(), &assets.dot, &assets.target, 0.01);
        }
    }
    if pos.in_check() {
        mark(
            pos.royal_cell(pos.turn()),
            &assets.hex,
            &assets.check,
            0.006,
        );
    }
    // With nothing selected, the moves of the piece under the pointer, faintly.
    if let Some(at) = hovered
        .0
        .filter(|_| selection.from.is_none() && selection.hand.is_none())
        && crate::game::deployment::shows(&game, &screen, at)
    {
        for mv in pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == at && !m.is_placement())
        {
            mark(mv.to(), &assets.dot, &assets.hover, 0.01);
        }
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
        }
    }
}
