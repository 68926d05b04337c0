//! Screen HexaChess at one screen: while the armies deploy unseen, the board shows
//! only the pieces of the side whose player is looking. At one screen (both sides
//! people) a hand-over screen stands between the deployments and before the reveal, so
//! neither sees the other's; against the engine the person sees only their own army
//! until the engine has deployed and both are revealed.

use bevy::prelude::*;
use hexchess_core::{Phase, Side};

pub use crate::game::deployment::{ScreenReady, ScreenState, hiding, shows};
use crate::game::{BoardChanged, CurrentGame};
use crate::pieces::PieceView;
use crate::play::{Seats, Session};

/// What the hand-over screen asks, if it is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandOver {
    /// Pass the screen to this side's player.
    PassTo(Side),
    /// Both have deployed: show both armies.
    Reveal,
}

pub struct HiddenSetupPlugin;

impl Plugin for HiddenSetupPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (follow_deployment, hide_unseen_pieces).chain());
    }
}

/// The hand-over screen's question, when one is up (people on both sides only).
pub fn hand_over(game: &CurrentGame, screen: &ScreenState, seats: &Seats) -> Option<HandOver> {
    if !(hiding(game, screen) && seats.person(Side::White) && seats.person(Side::Black)) {
        return None;
    }
    let pos = &game.position();
    match pos.phase() {
        Phase::Setup if screen.viewer != Some(pos.turn()) => Some(HandOver::PassTo(pos.turn())),
        Phase::Setup => None,
        _ => Some(HandOver::Reveal),
    }
}

/// Keeps who looks in step with the game: a new game hides again; against the engine
/// the person looks at their own side and the armies show once deployed; at one screen
/// the player's "ready" answers the hand-over screen.
fn follow_deployment(
    mut changes: MessageReader<BoardChanged>,
    mut ready: MessageReader<ScreenReady>,
    game: Res<CurrentGame>,
    session: Res<Session>,
    mut screen: ResMut<ScreenState>,
) {
    let pos = &game.position();
    let restarted = changes
        .read()
        .any(|c| matches!(c, BoardChanged::Reset { .. }))
        && pos.phase() == Phase::Setup;
    let mut next = *screen;
    if restarted || !game.rules().setup_is_hidden() {
        next = ScreenState::default();
    }
    let answered = ready.read().count() > 0;
    let seats = &session.seats;
    match (seats.person(Side::White), seats.person(Side::Black)) {
        (true, true) => {
            let setting_up = pos.phase() == Phase::Setup;
            if answered && setting_up {
                next.viewer = Some(pos.turn());
            } else if answered {
                next.revealed = true;
            } else if !setting_up || next.viewer != Some(pos.turn()) {
                // The other player's turn to deploy, or the reveal: nobody looks.
                next.viewer = None;
            }
        }
        (true, false) | (false, true) => {
            next.viewer = Some(if seats.person(Side::White) {
                Side::White
            } else {
                Side::Black
            });
            next.revealed = pos.phase() != Phase::Setup;
        }
        (false, false) => next.revealed = true,
    }
    if !game.rules().setup_is_hidden() {
        next.revealed = true;
    }
    if next != *screen {
        *screen = next;
    }
}

/// Pieces the looking player may not see are not drawn.
fn hide_unseen_pieces(
    game: Res<CurrentGame>,
    screen: Res<ScreenState>,
    mut pieces: Query<(&PieceView, &mut Visibility)>,
) {
    let hide = hiding(&game, &screen);
    for (view, mut visibility) in &mut pieces {
        let seen = !hide || Some(view.piece.side) == screen.viewer;
        let want = if seen {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *visibility != want {
            *visibility = want;
        }
    }
}
