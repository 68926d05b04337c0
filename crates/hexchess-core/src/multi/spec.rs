//! The rules of a game of more than two sides that a variant file states in its
//! `multiplayer:` section (docs/rules.md §13): Peterson's turns against several
//! attackers, fair exchange, and what happens to a side that is mated or out.

use crate::piece::MAX_KINDS;

/// What makes a side "threatened" by an opponent, for the turns of several moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum Threat {
    /// The opponent could win material: it gives check, or attacks a piece that is
    /// undefended or worth more than the cheapest of its attackers (our reading of
    /// "threatened", docs/rules.md §13.2).
    Hanging,
    /// The opponent attacks any of the side's pieces, defended or not (the word read
    /// plainly: in the opening a bishop's long diagonal already counts).
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
    /// What counts as an opponent threatening a side, for `defence`.
    pub threat: Threat,
    /// Peterson's fair-exchange rule, if the variant plays it.
    pub fair_exchange: Option<FairExchange>,
    /// What a side out of the game leaves on the board.
    pub eliminated: Eliminated,
    /// How the game is won.
    pub goal: Goal,
}

impl MultiRules {
    /// The worth of a kind for the rules that weigh pieces (threats, fair exchange):
    /// the fair-exchange value when the variant gives one, else the piece's value in
    /// the file (in pawns), else a standard worth by its letter.
    pub fn worth<B: crate::bitboard::CellSet>(
        &self,
        rules: &crate::rules::Rules<B>,
        kind: crate::piece::Kind,
    ) -> u16 {
        if rules.is_royal(kind) {
            return u16::MAX;
        }
        if let Some(f) = &self.fair_exchange
            && f.values[kind.index()] > 0
        {
            return f.values[kind.index()];
        }
        let info = rules.kind_info(kind);
        if let Some(v) = info.value {
            return (v / 100).clamp(1, 1000) as u16;
        }
        match info.letter {
            'P' => 1,
            'N' | 'B' => 3,
            'R' => 5,
            'Q' => 9,
            _ => 4,
        }
    }
}

impl Default for MultiRules {
    /// Peterson's 3-player rules without fair exchange (its values are the variant's).
    fn default() -> MultiRules {
        MultiRules {
            defence: true,
            threat: Threat::Hanging,
            fair_exchange: None,
            eliminated: Eliminated::Obstacles,
            goal: Goal::LastKingStanding,
        }
    }
}
