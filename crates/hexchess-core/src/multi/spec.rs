//! The rules of a game of more than two sides that a variant file states in its
//! `multiplayer:` section (docs/rules.md §13): Peterson's turns against several
//! attackers, fair exchange, and what happens to a side that is mated or out.

use crate::piece::MAX_KINDS;

/// What makes a side "threatened" by an opponent, for the turns of several moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum Threat {
    /// The opponent attacks any of the side's pieces (the text's word, read plainly).
    Attack,
    /// The opponent gives check.
    Check,
}

/// What a side out of the game (its royal piece captured) leaves behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum Eliminated {
    /// Immovable obstacles nobody may capture (Peterson's rule).
    Obstacles,
    /// Immovable obstacles that may be captured (his variant "if all players agree").
    Capturable,
}

/// How the game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum Goal {
    /// The last side whose royal piece stands wins (3-player Hexachess).
    LastKingStanding,
    /// The team that first checkmates (or captures the king of) a player of the other
    /// team wins (4-player team Hexachess).
    FirstCheckmate,
}

/// Peterson's fair-exchange rule: when two sides exchange pieces within a round, each
/// side that took no part removes a piece worth at least the weakest one exchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairExchange {
    /// Worth of each kind (index by [`Kind::index`](crate::Kind::index)); 0 for a kind
    /// never removed (the royal piece).
    pub values: [u16; MAX_KINDS],
}

/// The rules of a game of more than two sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiRules {
    /// Whether a side threatened by several opponents moves several pieces.
    pub defence: bool,
    pub threat: Threat,
    pub fair_exchange: Option<FairExchange>,
    pub eliminated: Eliminated,
    pub goal: Goal,
}

impl Default for MultiRules {
    /// Peterson's 3-player rules without fair exchange (its values are the variant's).
    fn default() -> MultiRules {
        MultiRules {
            defence: true,
            threat: Threat::Attack,
            fair_exchange: None,
            eliminated: Eliminated::Obstacles,
            goal: Goal::LastKingStanding,
        }
    }
}
