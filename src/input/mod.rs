//! Moving pieces: click a piece then a target, or drag and drop; Escape cancels; an
//! illegal drop snaps back; several moves between the same cells open the promotion
//! picker. In a setup phase a piece picked or dragged from the tray (the hand) is
//! placed on the cell clicked or dropped on. Keyboard shortcuts for the view live here
//! too.
//!
//! The mouse is read through [`PointerCell`], the cell under the cursor, which the
//! screen computes from the camera (`crate::screen::camera`) and tests set directly.

use bevy::ecs::system::SystemParam;
use bevy::input::mouse::MouseButton;
use bevy::prelude::*;
use hexchess_core::{Cell, Move, Side, Step};

mod touch;

pub use touch::TouchPoint;

use crate::board::{Premove, Selection, cell_world};
use crate::game::{
    BoardChanged, CurrentGame, GameNotice, GameSet, RedoRequest, ReviewRequest, StepRequest,
    UndoRequest,
};
use crate::look::{Settings, View, ViewChanged};
use crate::pieces::animation::Slide;
use crate::pieces::{Dragging, PieceView, rest_height};
use crate::play::analysis::{Analysis, AnalysisRequest};
use crate::play::{Session, undo_turns};

/// The cell under the pointer and the pointer's point on the board plane.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct PointerCell {
    pub cell: Option<Cell>,
    pub world: Option<Vec3>,
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

/// A piece is being dragged from the hand (the tray): a release over a cell places it.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct HandDrag(pub bool);

/// The pointer is over the user interface: the board must not react.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct PointerOverUi(pub bool);

/// Where the pointer's cell is found (by the screen, from the camera): before any
/// input system reads it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PointerTracking;

pub struct InputPlugin;

impl Plugin for InputPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TouchPoint>()
            .add_systems(
                PreUpdate,
                touch::touch_as_mouse.after(bevy::input::InputSystems),
            )
            .init_resource::<PointerCell>()
            .init_resource::<PendingPromotion>()
            .init_resource::<PointerOverUi>()
            .init_resource::<HandDrag>()
            .add_message::<PromotionChoice>()
            .add_systems(
                Update,
                (
                    // Last frame's changes first: a click of this frame is on the
                    // position as it is now.
                    clear_stale_selection,
                    play_premove,
                    note_hovered_piece,
                    handle_mouse,
                    drag_piece,
                    handle_keys,
                    answer_promotion,
                )
                    .chain()
                    .in_set(GameSet::Input)
                    .after(PointerTracking)
                    // The board editor's clicks are its own.
                    .run_if(in_state(crate::game::BoardMode::Game)),
            )
            .add_systems(Update, toggle_fullscreen)
            .configure_sets(Update, PointerTracking.in_set(GameSet::Input));
    }
}

/// The moves the rules allow now (in a turn of several moves, the second moves the
/// limits allow), without removals and swaps.
fn moves_now(game: &CurrentGame) -> Vec<Move> {
    game.played
        .steps()
        .into_iter()
        .filter_map(|s| match s {
            Step::Play(mv) if !mv.is_edit() => Some(mv),
            _ => None,
        })
        .collect()
}

/// The moves allowed from `from` to `to`.
fn moves_between(game: &CurrentGame, from: Cell, to: Cell) -> Vec<Move> {
    moves_now(game)
        .into_iter()
        .filter(|m| m.from() == from && m.to() == to)
        .collect()
}

/// Plays the move between two cells, or opens the picker when there is a choice.
/// Returns whether anything legal was found.
fn try_move(
    game: &CurrentGame,
    from: Cell,
    to: Cell,
    requests: &mut MessageWriter<StepRequest>,
    pending: &mut PendingPromotion,
) -> bool {
    let moves = moves_between(game, from, to);
    match moves.as_slice() {
        [] => false,
        [one] => {
            requests.write(StepRequest::play(*one));
            true
        }
        _ => {
            pending.moves = moves;
            true
        }
    }
}

/// The piece entities, for the mouse handlers.
type PieceEntities<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static PieceView,
        &'static Transform,
        Option<&'static Dragging>,
    ),
>;

/// What the mouse handlers read and change.
struct Mouse<'a, 'w, 's> {
    commands: Commands<'w, 's>,
    game: &'a CurrentGame,
    settings: &'a Settings,
    pieces: &'a PieceEntities<'w, 's>,
    /// Whether a person may move now: their turn, the game live and on, no picker open.
    playable: bool,
    /// The side a person at this screen may premove for now (another side on move).
    premovable: Option<Side>,
}

impl Mouse<'_, '_, '_> {
    fn entity_at(&self, cell: Cell) -> Option<(Entity, &Transform)> {
        self.pieces
            .iter()
            .find(|(_, v, _, _)| v.cell == cell)
            .map(|(e, _, t, _)| (e, t))
    }

    /// The piece on `cell` slides back home and is no longer dragged.
    fn snap_back(&mut self, cell: Cell) {
        if let Some((e, t)) = self.entity_at(cell) {
            let home =
                cell_world(self.game.rules(), cell) + Vec3::Y * rest_height(self.settings.view);
            let slide = Slide::new(t.translation, home, 0.15, false);
            self.commands.entity(e).remove::<Dragging>().insert(slide);
        }
    }
}

/// What a click or drag changes: the selection, the promotion picker, a pick from the
/// hand, and the steps asked of the game.
#[derive(SystemParam)]
struct Choosing<'w> {
    selection: ResMut<'w, Selection>,
    pending: ResMut<'w, PendingPromotion>,
    requests: MessageWriter<'w, StepRequest>,
    hand_drag: ResMut<'w, HandDrag>,
    premove: ResMut<'w, Premove>,
}

fn handle_mouse(
    commands: Commands,
    (buttons, pointer): (Res<ButtonInput<MouseButton>>, Res<PointerCell>),
    (game, session, settings): (Res<CurrentGame>, Res<Session>, Res<Settings>),
    choosing: Choosing,
    pieces: PieceEntities,
) {
    let Choosing {
        mut selection,
        mut pending,
        mut requests,
        mut hand_drag,
        mut premove,
    } = choosing;
    let playable = session.seats.person(game.side_to_move())
        && game.outcome().is_none()
        && game.is_live()
        && pending.moves.is_empty();
    let mut mouse = Mouse {
        commands,
        game: &game,
        settings: &settings,
        pieces: &pieces,
        playable,
        premovable: premovable_side(&game, &session),
    };
    if !playable && let Some(mine) = mouse.premovable {
        premove_with_mouse(
            &mut mouse,
            mine,
            (&buttons, &pointer),
            &mut selection,
            &mut premove,
        );
        return;
    }
    if buttons.just_released(MouseButton::Left) && hand_drag.0 {
        hand_drag.0 = false;
        if let (true, Some(cell)) = (mouse.playable, pointer.cell) {
            place(&game, &mut selection, cell, &mut requests);
        }
        return;
    }
    if buttons.just_pressed(MouseButton::Left) {
        press(
            &mut mouse,
            pointer.cell,
            &mut selection,
            &mut pending,
            &mut requests,
        );
    }
    if buttons.just_released(MouseButton::Left)
        && let Some((_, view, _, Some(drag))) = pieces.iter().find(|(_, _, _, d)| d.is_some())
    {
        let moved_to = pointer.cell.filter(|to| *to != view.cell && drag.moved);
        release(
            &mut mouse,
            view.cell,
            moved_to,
            &mut selection,
            &mut pending,
            &mut requests,
        );
    }
}

/// The side a person at this screen could queue a premove for now: a game of two
/// sides, on and live, with the other side (an engine's, or a player's on a server)
/// on move.
fn premovable_side(game: &CurrentGame, session: &Session) -> Option<Side> {
    if game.side_count() != 2 || game.outcome().is_some() || !game.is_live() {
        return None;
    }
    let on_move = game.side_to_move();
    let other = Side::from_index(1 - on_move.index());
    (session.seats.person(other) && !session.seats.person(on_move)).then_some(other)
}

/// While another side is on move: a press on one's own piece picks it (and drags
/// it), a second click or a drop names where it goes, and queues the premove; any
/// click with a premove queued cancels it.
fn premove_with_mouse(
    mouse: &mut Mouse,
    mine: Side,
    (buttons, pointer): (&ButtonInput<MouseButton>, &PointerCell),
    selection: &mut Selection,
    premove: &mut Premove,
) {
    let own = |cell: Cell| {
        mouse
            .game
            .position()
            .piece_at(cell)
            .is_some_and(|p| p.side == mine)
    };
    if buttons.just_pressed(MouseButton::Left) {
        if premove.0.is_some() {
            premove.0 = None;
            selection.from = None;
            return;
        }
        match (selection.from, pointer.cell) {
            (Some(from), Some(to)) if from != to && !own(to) => {
                premove.0 = Some((from, to));
                selection.from = None;
            }
            (_, Some(cell)) if own(cell) => {
                selection.from = Some(cell);
                if let Some((e, _)) = mouse.entity_at(cell) {
                    mouse.commands.entity(e).insert(Dragging { moved: false });
                }
            }
            _ => selection.from = None,
        }
    }
    if buttons.just_released(MouseButton::Left)
        && let Some((_, view, _, Some(drag))) = mouse.pieces.iter().find(|(_, _, _, d)| d.is_some())
    {
        let (from, moved) = (view.cell, drag.moved);
        mouse.snap_back(from);
        if let Some(to) = pointer.cell.filter(|to| *to != from && moved) {
            premove.0 = Some((from, to));
            selection.from = None;
        }
    }
}

/// A premove queued, once its side is on move: played if a move between its cells is
/// legal now (a promotion to the strongest piece, as lichess does), dropped with a word
/// otherwise. A new game, or its end, drops it too.
fn play_premove(
    game: Res<CurrentGame>,
    session: Res<Session>,
    mut premove: ResMut<Premove>,
    mut requests: MessageWriter<StepRequest>,
    mut notices: MessageWriter<GameNotice>,
) {
    let Some((from, to)) = premove.0 else { return };
    if game.outcome().is_some() || game.side_count() != 2 {
        premove.0 = None;
        return;
    }
    if !session.seats.person(game.side_to_move()) || !game.is_live() {
        return;
    }
    premove.0 = None;
    let moves = moves_between(&game, from, to);
    let worth = |m: &&Move| {
        m.promotion()
            .map(|k| game.rules().kind_info(k).value.unwrap_or(0))
    };
    match moves.iter().max_by_key(worth) {
        Some(mv) => {
            requests.write(StepRequest::play(*mv));
        }
        None => {
            let board = game.rules().board();
            notices.write(GameNotice(format!(
                "premove {}-{} dropped: not legal now",
                board.name(from),
                board.name(to)
            )));
        }
    }
}

/// A press selects one's own piece (and starts dragging it), or, with a piece
/// selected, names the target of a click-click move.
fn press(
    mouse: &mut Mouse,
    cell: Option<Cell>,
    selection: &mut Selection,
    pending: &mut PendingPromotion,
    requests: &mut MessageWriter<StepRequest>,
) {
    let Some(cell) = cell else {
        selection.from = None;
        return;
    };
    if !mouse.playable {
        return;
    }
    if selection.hand.is_some() {
        place(mouse.game, selection, cell, requests);
        return;
    }
    let game = &mouse.game.played;
    if game.owed(game.side_to_move()) > 0 {
        // A removal owed comes first: a click on a piece it may take takes it.
        let removal = Step::Play(Move::removal(cell));
        if game.steps().contains(&removal) {
            requests.write(StepRequest(removal));
        }
        return;
    }
    let pos = game.position();
    let own = pos
        .piece_at(cell)
        .is_some_and(|p| p.side == game.side_to_move());
    if let Some(from) = selection.from
        && from != cell
        && !own
    {
        // Click-click: the second click names the target.
        try_move(mouse.game, from, cell, requests, pending);
        selection.from = None;
        return;
    }
    if own {
        selection.from = Some(cell);
        if let Some((e, _)) = mouse.entity_at(cell) {
            mouse.commands.entity(e).insert(Dragging { moved: false });
        }
    } else {
        selection.from = None;
    }
}

/// Places the kind picked from the hand on `cell` if that is legal; the pick is kept
/// after an illegal cell (the player may try another), dropped after a placement.
fn place(
    game: &CurrentGame,
    selection: &mut Selection,
    cell: Cell,
    requests: &mut MessageWriter<StepRequest>,
) {
    let Some(kind) = selection.hand else { return };
    let found = moves_now(game)
        .into_iter()
        .find(|m| m.placed_kind() == Some(kind) && m.to() == cell);
    if let Some(mv) = found {
        requests.write(StepRequest::play(mv));
        selection.hand = None;
    }
}

/// A release ends a drag: a drop on another cell (`moved_to`) plays the move there if
/// it is legal; anything else sends the piece home.
fn release(
    mouse: &mut Mouse,
    from: Cell,
    moved_to: Option<Cell>,
    selection: &mut Selection,
    pending: &mut PendingPromotion,
    requests: &mut MessageWriter<StepRequest>,
) {
    let Some(to) = moved_to else {
        mouse.snap_back(from);
        return;
    };
    if mouse.playable && try_move(mouse.game, from, to, requests, pending) {
        // The move's animation takes the piece from where it was dropped.
        if let Some((e, _)) = mouse.entity_at(from) {
            mouse.commands.entity(e).remove::<Dragging>();
        }
        if pending.moves.is_empty() {
            selection.from = None;
        } else {
            mouse.snap_back(from);
        }
    } else {
        // An illegal drop: back home, selection cleared.
        mouse.snap_back(from);
        selection.from = None;
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

/// What the keyboard's shortcuts ask for: a view, a take-back or replay, a step through
/// the moves, the analysis board.
#[derive(SystemParam)]
struct Shortcuts<'w> {
    views: MessageWriter<'w, ViewChanged>,
    undo: MessageWriter<'w, UndoRequest>,
    redo: MessageWriter<'w, RedoRequest>,
    review: MessageWriter<'w, ReviewRequest>,
    analysis: MessageWriter<'w, AnalysisRequest>,
    analysing: Res<'w, Analysis>,
}

fn handle_keys(
    mut commands: Commands,
    (keys, keyboard_busy): (
        Res<ButtonInput<KeyCode>>,
        Option<Res<bevy_egui::input::EguiWantsInput>>,
    ),
    mut settings: ResMut<Settings>,
    (mut selection, mut pending): (ResMut<Selection>, ResMut<PendingPromotion>),
    shortcuts: Shortcuts,
    (game, session): (Res<CurrentGame>, Res<Session>),
    dragged: Query<(Entity, &PieceView, &Transform), With<Dragging>>,
) {
    let Shortcuts {
        mut views,
        mut undo,
        mut redo,
        mut review,
        mut analysis,
        analysing,
    } = shortcuts;
    // Typing in a text field is not a shortcut.
    if keyboard_busy.is_some_and(|w| w.wants_any_keyboard_input()) {
        return;
    }
    if keys.just_pressed(KeyCode::Escape) {
        selection.from = None;
        selection.hand = None;
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
    if keys.just_pressed(KeyCode::KeyH) {
        analysis.write(AnalysisRequest::Hint);
    }
    if keys.just_pressed(KeyCode::KeyA) {
        analysis.write(if analysing.on {
            AnalysisRequest::Off
        } else {
            AnalysisRequest::On
        });
    }
    let ctrl = command_key_held(&keys);
    let turns = undo_turns(&game, &session);
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        undo.write(UndoRequest(turns));
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        redo.write(RedoRequest(turns.clamp(1, game.redo.len().max(1))));
    }
    let total = game.turn_count();
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

/// The piece under the pointer, for its faint moves and its name.
fn note_hovered_piece(
    pointer: Res<PointerCell>,
    over_ui: Res<PointerOverUi>,
    game: Res<CurrentGame>,
    mut hovered: ResMut<crate::board::highlights::Hovered>,
) {
    let occupied = |c: Cell| match game.viewing {
        Some(_) => game.displayed().piece_at(c).is_some(),
        None => game.position().piece_at(c).is_some(),
    };
    let cell = pointer.cell.filter(|&c| !over_ui.0 && occupied(c));
    if hovered.0 != cell {
        hovered.0 = cell;
    }
}

/// Whether the platform's command modifier is held: Cmd on macOS, Ctrl elsewhere.
pub fn command_key_held(keys: &ButtonInput<KeyCode>) -> bool {
    if cfg!(target_os = "macos") {
        keys.any_pressed([KeyCode::SuperLeft, KeyCode::SuperRight])
    } else {
        keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight])
    }
}

/// Full screen on the window's monitor, or back to a window.
pub fn fullscreen_mode(full: bool) -> bevy::window::WindowMode {
    use bevy::window::{MonitorSelection, WindowMode};
    if full {
        WindowMode::BorderlessFullscreen(MonitorSelection::Current)
    } else {
        WindowMode::Windowed
    }
}

/// F11: full screen and back (whatever has the keyboard: it is the window's key).
fn toggle_fullscreen(
    keys: Res<ButtonInput<KeyCode>>,
    mut window: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    if keys.just_pressed(KeyCode::F11)
        && let Ok(mut w) = window.single_mut()
    {
        let full = w.mode == bevy::window::WindowMode::Windowed;
        w.mode = fullscreen_mode(full);
    }
}

/// Plays the move chosen in the promotion picker.
fn answer_promotion(
    mut choices: MessageReader<PromotionChoice>,
    mut pending: ResMut<PendingPromotion>,
    mut requests: MessageWriter<StepRequest>,
) {
    for PromotionChoice(choice) in choices.read() {
        if let Some(mv) = choice.and_then(|i| pending.moves.get(i).copied()) {
            requests.write(StepRequest::play(mv));
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
        if selection.hand.is_some() {
            selection.hand = None;
        }
        if !pending.moves.is_empty() {
            pending.moves.clear();
        }
    }
}
