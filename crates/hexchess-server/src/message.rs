//! What the server does with a move by its ply, so that a move sent twice is played
//! once. The messages themselves are the protocol crate's (`hexchess-protocol`).

pub use hexchess_protocol::{ClientMessage, MAX_MESSAGE_BYTES, MessageError, SeekRequest};

/// What to do with a move for ply `claimed` when the game has played `played` steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveCheck {
    /// The move is for the ply the game is at: play it (if the rules allow).
    Play,
    /// The same step was already played at that ply (a resend): acknowledge it again,
    /// play nothing.
    AlreadyPlayed,
    /// For a ply long past with another step, or one not reached yet: refused, and
    /// the client resyncs.
    OutOfStep,
}

/// Judges a move by its ply: `played_at` gives the step the game played at a past ply
/// (as the client wrote it, so a resend compares equal), `step` is the move's text.
pub fn check_move(
    played: u32,
    claimed: u32,
    step: &str,
    played_at: impl Fn(u32) -> Option<String>,
) -> MoveCheck {
    if claimed == played {
        return MoveCheck::Play;
    }
    if claimed < played && played_at(claimed).is_some_and(|s| s == step) {
        return MoveCheck::AlreadyPlayed;
    }
    MoveCheck::OutOfStep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_sent_again_is_acknowledged_again_and_never_played_twice() {
        let history = ["f5f6", "c7c5", "Ni3"];
        let played_at = |ply: u32| history.get(ply as usize).map(|s| s.to_string());
        // The game has played 3 steps: the next is ply 3.
        assert_eq!(check_move(3, 3, "e4e5", played_at), MoveCheck::Play);
        // Ply 2 was "Ni3": the same sent again after a lost ack.
        assert_eq!(check_move(3, 2, "Ni3", played_at), MoveCheck::AlreadyPlayed);
        // Ply 2 with another move: the client is out of step (it resyncs).
        assert_eq!(check_move(3, 2, "Nf4", played_at), MoveCheck::OutOfStep);
        // A ply not reached yet.
        assert_eq!(check_move(3, 5, "e4e5", played_at), MoveCheck::OutOfStep);
    }
}
