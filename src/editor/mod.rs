//! The board editor: a position of any variant set up by hand (pieces placed, moved and
//! removed, the side to move, pieces in hand where the variant has hands), checked as it
//! is edited ([`hexchess_core::Setup::validate`] names every problem: which king is
//! missing, which side is in check out of turn), then played or analysed from.
//!
//! While the editor is open (the state [`BoardMode::Editing`]) the board shows its setup
//! ([`BoardPicture`]) instead of the game, and a click on a cell is the editor's: the tool in hand is placed there (a
//! click on the same piece takes it away), the eraser removes, a right click removes.

use bevy::prelude::*;
use hexchess_core::bitboard::WideBitboard;
use hexchess_core::{Cell, Piece, Setup, SetupError, Side};

use crate::game::{BoardMode, BoardPicture, CurrentGame, NewGameRequest};
use crate::input::{PointerCell, PointerOverUi};
use crate::play::analysis::AnalysisRequest;

/// What a click on the board does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Place(Piece),
    Erase,
}

/// The editor's state: the setup being edited (none while closed) and the tool.
#[derive(Resource, Clone, Debug)]
pub struct BoardEditor {
    pub setup: Option<Setup<WideBitboard>>,
    pub tool: Tool,
    /// The cell the left button went down on, until it comes up (a piece dragged from
    /// there moves to the cell it is released on).
    pub pressed: Option<Cell>,
}

impl Default for BoardEditor {
    fn default() -> BoardEditor {
        BoardEditor {
            setup: None,
            tool: Tool::Erase,
            pressed: None,
        }
    }
}

impl BoardEditor {
    /// The setup's problems, or the position it is.
    pub fn checked(&self) -> Option<Result<hexchess_core::Position<WideBitboard>, SetupError>> {
        self.setup.as_ref().map(Setup::validate)
    }
}

/// Open the editor on the position shown, close it, or leave it for a game or the
/// analysis board from its position.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditorRequest {
    Open,
    Close,
    Play,
    Analyse,
}

pub struct EditorPlugin;

impl Plugin for EditorPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<BoardEditor>()
            .add_message::<EditorRequest>()
            .add_systems(
                Update,
                (
                    answer_requests,
                    edit_by_clicks.run_if(in_state(BoardMode::Editing)),
                    show_the_setup,
                )
                    .chain()
                    .after(crate::input::PointerTracking),
            );
    }
}

fn answer_requests(
    mut requests: MessageReader<EditorRequest>,
    mut editor: ResMut<BoardEditor>,
    game: Res<CurrentGame>,
    mut new_game: MessageWriter<NewGameRequest>,
    mut analysis: MessageWriter<AnalysisRequest>,
) {
    for request in requests.read() {
        match request {
            EditorRequest::Open => {
                editor.setup = Some(Setup::from_position(&game.displayed()));
            }
            EditorRequest::Close => editor.setup = None,
            EditorRequest::Play | EditorRequest::Analyse => {
                // Only a legal setup leaves the editor (the window says what is wrong).
                let Some(Ok(position)) = editor.checked() else {
                    continue;
                };
                new_game.write(NewGameRequest {
                    variant: Some(position.rules().id().to_string()),
                    fen: Some(position.to_fen()),
                    moves: Vec::new(),
                });
                if *request == EditorRequest::Analyse {
                    analysis.write(AnalysisRequest::On);
                }
                editor.setup = None;
            }
        }
    }
}

/// A left click applies the tool to the cell under the pointer; a piece dragged to
/// another cell moves there (taking the place of what stood there); a right click
/// empties a cell.
fn edit_by_clicks(
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerCell>,
    over_ui: Res<PointerOverUi>,
    mut editor: ResMut<BoardEditor>,
) {
    let cell = pointer.cell.filter(|_| !over_ui.0);
    if buttons.just_pressed(MouseButton::Left) {
        editor.pressed = cell;
    }
    let released = buttons
        .just_released(MouseButton::Left)
        .then(|| editor.pressed.take())
        .flatten();
    let tool = editor.tool;
    let (Some(setup), Some(cell)) = (editor.setup.as_mut(), cell) else {
        return;
    };
    if buttons.just_pressed(MouseButton::Right) {
        setup.remove(cell);
    }
    match released {
        Some(from) if from == cell => apply(setup, tool, cell),
        Some(from) if setup.piece_at(from).is_some() => {
            // Two cells of this variant's board: nothing to refuse.
            let _ = setup.move_piece(from, cell);
        }
        _ => {}
    }
}

/// The tool used on a cell: a piece is placed (or taken away if it is already there),
/// the eraser empties the cell.
pub fn apply(setup: &mut Setup<WideBitboard>, tool: Tool, cell: hexchess_core::Cell) {
    match tool {
        Tool::Place(piece) if setup.piece_at(cell) == Some(piece) => {
            setup.remove(cell);
        }
        Tool::Place(piece) => {
            // A piece of this variant on a cell of its board: nothing to refuse.
            let _ = setup.place(cell, piece);
        }
        Tool::Erase => {
            setup.remove(cell);
        }
    }
}

/// The board shows the setup while the editor is open, and the game again after.
fn show_the_setup(
    editor: Res<BoardEditor>,
    mut picture: ResMut<BoardPicture>,
    mode: Res<State<BoardMode>>,
    mut next: ResMut<NextState<BoardMode>>,
) {
    if !editor.is_changed() {
        return;
    }
    let wanted = if editor.setup.is_some() {
        BoardMode::Editing
    } else {
        BoardMode::Game
    };
    if *mode.get() != wanted {
        next.set(wanted);
    }
    let next = editor.setup.as_ref().map(|s| s.pieces().collect());
    if picture.0 != next {
        picture.0 = next;
    }
}

/// Whether the editor is open (for the interface).
pub fn is_open(editor: &BoardEditor) -> bool {
    editor.setup.is_some()
}

/// The sides of the setup's variant, in turn order.
pub fn sides(setup: &Setup<WideBitboard>) -> &'static [Side] {
    &Side::ALL[..setup.rules().side_count().min(Side::ALL.len())]
}
