//! An engine for games of more than two sides (docs/multiplayer.md).
//!
//! A node is a whole turn (a removal, one or two moves), played on the one
//! [`Game`](hexchess_core::game::Game) the search walks and taken back after. Three
//! searches are built, because which plays best in a game of three is a question of
//! measurement (docs/multiplayer.md has the round robin):
//!
//! - **Paranoid**: every opponent plays against the side to choose, as one coalition;
//!   alpha-beta on its score less the others' mean.
//! - **Max-n**: each side chooses the turn best for itself (its score less the others'
//!   mean), looking at every side's score; no pruning.
//! - **Best-reply search** (Schadd and Winands, 2011): the side to choose moves, then
//!   only the single strongest reply among all opponents is played, the others pass;
//!   alpha-beta, so it looks as deep in its own turns as paranoid does with two sides.
//!
//! And a **random** mover, the yardstick.

pub mod bench;
mod eval;
mod search;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

pub use eval::{OUT, evaluate, kind_value, relative};
pub use search::{MultiChoice, MultiSearcher};

/// How a side chooses its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    Paranoid,
    MaxN,
    BestReply,
    Random,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::BestReply,
        Strategy::Paranoid,
        Strategy::MaxN,
        Strategy::Random,
    ];

    /// The name used by the protocol's option and the round robin.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Paranoid => "paranoid",
            Strategy::MaxN => "maxn",
            Strategy::BestReply => "brs",
            Strategy::Random => "random",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Strategy, String> {
        Strategy::ALL
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("'{s}' is not a search: brs, paranoid, maxn or random"))
    }
}

/// The nodes (whole turns) a search of a game of more sides may play at a strength
/// level: 60 at level 1, doubling every two levels (about 31,000 at 19); none at full
/// strength. A search of whole turns has no handicaps of its own: fewer nodes is a
/// shallower, cruder choice.
pub fn skill_nodes(skill: crate::Skill) -> Option<u64> {
    if skill.is_full() {
        return None;
    }
    let level = u32::from(skill.level().max(1));
    Some(60u64 << ((level - 1) / 2))
}

/// How long a search may run: it stops at whichever comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiLimits {
    /// Turns played in the search tree (each a node).
    pub nodes: u64,
    /// Whole turns deep.
    pub depth: u32,
    pub time: Option<Duration>,
}

impl MultiLimits {
    /// A budget of nodes, as deep as it reaches.
    pub fn nodes(nodes: u64) -> MultiLimits {
        MultiLimits {
            nodes,
            depth: 64,
            time: None,
        }
    }
}

impl Default for MultiLimits {
    fn default() -> MultiLimits {
        MultiLimits::nodes(20_000)
    }
}
