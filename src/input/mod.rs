//! Moving pieces: click a piece then a target, or drag and drop; Escape cancels; an
//! illegal drop snaps back; several moves between the same cells open the promotion
//! picker. Keyboard shortcuts for the view live here too.
//!
//! The mouse is read through [`PointerCell`], the cell under the cursor, which the real
//! app computes from the camera and tests set directly.

use bevy::input::mouse::MouseButton;
use bevy::prelude::*;
use hexchess_core::{Cell, Move, Side};

use crate::animation::Slide;
use crate::board::{cell_world, world_cell};
use crate::game::{
    BoardChanged, GameSet, GameState, MoveRequest, RedoRequest, ReviewRequest, UndoRequest,
};
use crate::pieces::{PieceView, rest_height};
use crate::settings::{Settings, View, ViewChanged};

/// The cell under the pointer and the pointer's point on the board plane.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct PointerCell {
    pub cell: Option<Cell>,
    pub world: Option<Vec3>,
}

/// The selected piece's cell.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub from: Option<Cell>,
}

/// The moves between one pair of cells when there are several (promotion choices,
/// perhaps declining): the picker shows them and plays the chosen one.
#[derive(Resource, Default, Clone, Debug, PartialEq, Eq)]
pub struct PendingPromotion {
    pub moves: Vec<Move>,
}

/// The player's answer to the promotion picker: an index into
/// [`PendingPromotion::moves`], or `None` to cancel.
#[derive(Message, Clone, Copy, Debug)]
pub struct PromotionChoice(pub Option<usize>);

/// Who moves which side from this screen.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HumanSides {
    pub white: bool,
    pub black: bool,
}

impl Default for HumanSides {
    fn default() -> Self {
        HumanSides {
            white: true,
            black: true,
        }
    }
}

impl HumanSides {
    pub fn moves(&self, side: Side) -> bool {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }
}

/// A piece being dragged by the pointer.
#[derive(Component, Clone, Copy, Debug)]
pub struct Dragging {
    /// Whether the pointer has left the start cell (a drag, not a click).
    pub moved: bool,
}

/// The pointer is over the user interface: the board must not react.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct PointerOverUi(pub bool);

pub struct InputPlugin;

impl Plugin for InputPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PointerCell>()
            .init_resource::<Selection>()
            .init_resource::<PendingPromotion>()
            .init_resource::<HumanSides>()
            .init_resource::<PointerOverUi>()
            .add_message::<PromotionChoice>()
            .add_systems(
                Update,
                (
                    track_pointer,
                    handle_mouse,
                    drag_piece,
                    handle_keys,
                    answer_promotion,
                    clear_stale_selection,
                )
                    .chain()
                    .in_set(GameSet::Input),
            )
            .configure_sets(
                Update,
                (GameSet::Input, GameSet::Apply, GameSet::View).chain(),
            );
    }
}

/// Finds the cell under the cursor from the board camera. Without a window or camera
/// (headless tests) it leaves [`PointerCell`] alone.
fn track_pointer(
    windows: Query<&Window>,
    camera: Query<(&Camera, &GlobalTransform), With<crate::camera::BoardCamera>>,
    game: Res<GameState>,
    over_ui: Res<PointerOverUi>,
    mut pointer: ResMut<PointerCell>,
) {
    let (Ok(window), Ok((camera, transform))) = (windows.single(), camera.single()) else {
        return;
    };
    let hit = window
        .cursor_position()
        .filter(|_| !over_ui.0)
        .and_then(|c| camera.viewport_to_world(transform, c).ok())
        .and_then(|ray| {
            let d = ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y))?;
            Some(ray.get_point(d))
        });
    let next = PointerCell {
        cell: hit.and_then(|p| world_cell(game.rules(), p)),
        world: hit,
    };
    if pointer.cell != next.cell || pointer.world != next.world {
        *pointer = next;
    }
}

/// The legal moves from `from` to `to`.
fn moves_between(game: &GameState, from: Cell, to: Cell) -> Vec<Move> {
    game.position
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == from && m.to() == to)
        .collect()
}

/// Plays the move between two cells, or opens the picker when there is a choice.
/// Returns whether anything legal was found.
fn try_move(
    game: &GameState,
    from: Cell,
    to: Cell,
    requests: &mut MessageWriter<MoveRequest>,
    pending: &mut PendingPromotion,
) -> bool {
    let moves = moves_between(game, from, to);
    match moves.as_slice() {
        [] => false,
        [one] => {
            requests.write(MoveRequest(*one));
            true
        }
        _ => {
            pending.moves = moves;
            true
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn handle_mouse(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerCell>,
    game: Res<GameState>,
    humans: Res<HumanSides>,
    settings: Res<Settings>,
    mut selection: ResMut<Selection>,
    mut pending: ResMut<PendingPromotion>,
    mut requests: MessageWriter<MoveRequest>,
    pieces: Query<(Entity, &PieceView, &Transform, Option<&Dragging>)>,
) {
    let pos = &game.position;
    let playable = humans.moves(pos.turn())
        && game.outcome().is_none()
        && game.is_live()
        && pending.moves.is_empty();
    let piece_at = |cell: Cell| pieces.iter().find(|(_, v, _, _)| v.cell == cell);
    let snap_back = |commands: &mut Commands, cell: Cell| {
        if let Some((e, _, t, _)) = piece_at(cell) {
            let home = cell_world(game.rules(), cell) + Vec3::Y * rest_height(settings.view);
            commands.entity(e).remove::<Dragging>().insert(Slide::new(
                t.translation,
                home,
                0.15,
                false,
            ));
        }
    };

    if buttons.just_pressed(MouseButton::Left) {
        let Some(cell) = pointer.cell else {
            selection.from = None;
            return;
        };
        if !playable {
            return;
        }
        let own = pos.piece_at(cell).is_some_and(|p| p.side == pos.turn());
        if let Some(from) = selection.from
            && from != cell
            && !own
        {
            // Click-click: the second click names the target.
            try_move(&game, from, cell, &mut requests, &mut pending);
            selection.from = None;
            return;
        }
        if own {
            selection.from = Some(cell);
            if let Some((e, _, _, _)) = piece_at(cell) {
                commands.entity(e).insert(Dragging { moved: false });
            }
        } else {
            selection.from = None;
        }
    }

    if buttons.just_released(MouseButton::Left)
        && let Some((_, view, _, Some(drag))) = pieces.iter().find(|(_, _, _, d)| d.is_some())
    {
        let from = view.cell;
        let target = pointer.cell;
        match target {
            Some(to) if to != from && drag.moved => {
                if playable && try_move(&game, from, to, &mut requests, &mut pending) {
                    // The move's animation takes the piece from where it was dropped.
                    if let Some((e, _, _, _)) = piece_at(from) {
                        commands.entity(e).remove::<Dragging>();
                    }
                    if pending.moves.is_empty() {
                        selection.from = None;
                    } else {
                        snap_back(&mut commands, from);
                    }
                } else {
                    // An illegal drop: back home, selection cleared.
                    snap_back(&mut commands, from);
                    selection.from = None;
                }
            }
            _ => snap_back(&mut commands, from),
        }
    }
}

/// The dragged piece follows the pointer, lifted above the board.
fn drag_piece(
    pointer: Res<PointerCell>,
    settings: Res<Settings>,
    mut dragged: Query<(&PieceView, &mut Transform, &mut Dragging)>,
) {
    let Some(world) = pointer.world else { return };
    for (view, mut t, mut drag) in &mut dragged {
        if pointer.cell != Some(view.cell) {
            drag.moved = true;
        }
        if drag.moved {
            let lift = if settings.view == View::ThreeD {
                0.6
            } else {
                0.05
            };
            t.translation = world + Vec3::Y * lift;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn handle_keys(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    keyboard_busy: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut settings: ResMut<Settings>,
    mut selection: ResMut<Selection>,
    mut pending: ResMut<PendingPromotion>,
    mut views: MessageWriter<ViewChanged>,
    mut undo: MessageWriter<UndoRequest>,
    mut redo: MessageWriter<RedoRequest>,
    mut review: MessageWriter<ReviewRequest>,
    game: Res<GameState>,
    session: Res<crate::session::Session>,
    player: Res<crate::ai::EnginePlayer>,
    dragged: Query<(Entity, &PieceView, &Transform), With<Dragging>>,
) {
    // Typing in a text field is not a shortcut.
    if keyboard_busy.is_some_and(|w| w.wants_any_keyboard_input()) {
        return;
    }
    if keys.just_pressed(KeyCode::Escape) {
        selection.from = None;
        pending.moves.clear();
        for (e, view, t) in &dragged {
            let home = cell_world(game.rules(), view.cell) + Vec3::Y * rest_height(settings.view);
            commands.entity(e).remove::<Dragging>().insert(Slide::new(
                t.translation,
                home,
                0.15,
                false,
            ));
        }
    }
    if keys.just_pressed(KeyCode::KeyV) {
        settings.view = settings.view.toggled();
        views.write(ViewChanged);
    }
    if keys.just_pressed(KeyCode::KeyF) {
        settings.flipped = !settings.flipped;
        views.write(ViewChanged);
    }
    let ctrl = keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight);
    let plies = crate::ui::undo_plies(&game, &session, player.is_thinking());
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        undo.write(UndoRequest(plies));
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        redo.write(RedoRequest(plies.min(game.redo.len().max(1))));
    }
    let total = game.position.ply_count();
    let shown = game.viewing.unwrap_or(total);
    if keys.just_pressed(KeyCode::ArrowLeft) && shown > 0 {
        review.write(ReviewRequest(Some(shown - 1)));
    }
    if keys.just_pressed(KeyCode::ArrowRight) && game.viewing.is_some() {
        review.write(ReviewRequest((shown + 1 < total).then_some(shown + 1)));
    }
    if keys.just_pressed(KeyCode::End) {
        review.write(ReviewRequest(None));
    }
}

/// Plays the move chosen in the promotion picker.
fn answer_promotion(
    mut choices: MessageReader<PromotionChoice>,
    mut pending: ResMut<PendingPromotion>,
    mut requests: MessageWriter<MoveRequest>,
) {
    for PromotionChoice(choice) in choices.read() {
        if let Some(mv) = choice.and_then(|i| pending.moves.get(i).copied()) {
            requests.write(MoveRequest(mv));
        }
        pending.moves.clear();
    }
}

/// A selection cannot outlive the position it was made in.
fn clear_stale_selection(
    mut changes: MessageReader<BoardChanged>,
    mut selection: ResMut<Selection>,
    mut pending: ResMut<PendingPromotion>,
) {
    if changes.read().count() > 0 {
        if selection.from.is_some() {
            selection.from = None;
        }
        if !pending.moves.is_empty() {
            pending.moves.clear();
        }
    }
}
