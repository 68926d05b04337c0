//! Who may look at the board while Screen HexaChess's armies deploy unseen: the state
//! the board, the pieces and the interface read to hide the other side's placements
//! (the play plugin keeps it up to date).

use bevy::prelude::*;
use hexchess_core::{Cell, Side};

use super::CurrentGame;

/// Who may look at the board during a hidden deployment.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenState {
    /// The side whose pieces the board shows while deployments are hidden; `None` while
    /// the hand-over screen is up (nobody's pieces show).
    pub viewer: Option<Side>,
    /// Whether both armies have been shown after the deployments.
    pub revealed: bool,
}

/// The player at the screen is ready: shows their side, or reveals both armies.
#[derive(Message, Clone, Copy, Debug)]
pub struct ScreenReady;

/// Whether the game is in a hidden deployment not yet revealed.
pub fn hiding(game: &CurrentGame, screen: &ScreenState) -> bool {
    game.rules().setup_is_hidden() && !screen.revealed
}

/// Whether the piece on `cell` may be seen now.
pub fn shows(game: &CurrentGame, screen: &ScreenState, cell: Cell) -> bool {
    if !hiding(game, screen) {
        return true;
    }
    let side = game.displayed().piece_at(cell).map(|p| p.side);
    side.is_some() && side == screen.viewer
}
