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

pub use eval::{Endgame, judge, judge_endgame, judged_relative};
pub use eval::{OUT, evaluate, kind_value, relative};
pub use search::{MultiChoice, MultiSearcher};

/// What a search adds to its plain algorithm. All are on by default; the round robin
/// turns them off to measure each against the search without it (`paranoid:plain` is
/// the search as it was before them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Features {
    /// A transposition table keyed by the state at a turn's start (board, side to
    /// move, standings, removals owed): values and the best turn from earlier
    /// iterations and other move orders.
    pub table: bool,
    /// Captures played on past the search's depth, one capturing turn after another,
    /// until the position is quiet: no leaf is read in the middle of an exchange.
    pub quiescence: bool,
    /// The evaluation that knows teams (a partner is not an opponent), removals owed
    /// and who leads, and how free each king is.
    pub judgement: bool,
    /// Knowledge of endings: pawns valued by their way to promotion (not by the
    /// centre, halfway there on these boards), and a side far ahead of a bare king
    /// paid for driving it to the edge with its own king near. Read with the
    /// judgement's terms (on its own it adds those too).
    pub endgame: bool,
}

impl Features {
    /// Every feature on: the searches as they play.
    pub const ALL: Features = Features {
        table: true,
        quiescence: true,
        judgement: true,
        endgame: true,
    };
    /// None of them: the searches before the transposition table, quiescence and the
    /// refined evaluation.
    pub const PLAIN: Features = Features {
        table: false,
        quiescence: false,
        judgement: false,
        endgame: false,
    };

    /// The names the round robin reads after a search's name (`paranoid:table+quiescence`).
    const NAMES: [&'static str; 4] = ["table", "quiescence", "judgement", "endgame"];

    fn flags(self) -> [bool; 4] {
        [self.table, self.quiescence, self.judgement, self.endgame]
    }
}

/// A search with the features it uses: what a seat of the round robin plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player {
    /// How it chooses.
    pub strategy: Strategy,
    /// What its search uses.
    pub features: Features,
}

impl Player {
    /// `strategy` with every feature.
    pub fn new(strategy: Strategy) -> Player {
        Player {
            strategy,
            features: Features::ALL,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.strategy.name())?;
        // The random mover uses none of them: its name alone says it.
        if self.features == Features::ALL || self.strategy == Strategy::Random {
            return Ok(());
        }
        if self.features == Features::PLAIN {
            return f.write_str(":plain");
        }
        let on: Vec<&str> = Features::NAMES
            .iter()
            .zip(self.features.flags())
            .filter(|(_, on)| *on)
            .map(|(n, _)| *n)
            .collect();
        write!(f, ":{}", on.join("+"))
    }
}

impl FromStr for Player {
    type Err = String;

    /// `paranoid` (every feature), `paranoid:plain` (none), or `paranoid:` with the
    /// features on joined by `+` (`table`, `quiescence`, `judgement`).
    fn from_str(s: &str) -> Result<Player, String> {
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        let strategy: Strategy = name.parse()?;
        let features = match rest.trim() {
            "" if !s.contains(':') => Features::ALL,
            "plain" => Features::PLAIN,
            list => {
                let mut flags = [false; 4];
                for word in list.split('+').map(str::trim) {
                    let i = Features::NAMES
                        .iter()
                        .position(|n| *n == word)
                        .ok_or_else(|| {
                            format!(
                                "'{word}' in '{s}' is not a feature: plain, or {} joined by +",
                                Features::NAMES.join(", ")
                            )
                        })?;
                    flags[i] = true;
                }
                Features {
                    table: flags[0],
                    quiescence: flags[1],
                    judgement: flags[2],
                    endgame: flags[3],
                }
            }
        };
        Ok(Player { strategy, features })
    }
}

/// How a side chooses its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// Every other side plays against the side choosing (`paranoid`).
    Paranoid,
    /// Each side plays for its own score (`maxn`).
    MaxN,
    /// Only the strongest reply of any other side is searched (`brs`).
    BestReply,
    /// A legal turn at random (`random`).
    Random,
}

impl Strategy {
    /// Every strategy.
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
    /// Time to think, at most.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_named_by_their_search_and_the_features_they_leave_out() {
        for text in [
            "paranoid",
            "brs:plain",
            "maxn:table+quiescence",
            "paranoid:judgement",
            "paranoid:table+quiescence+judgement",
            "brs:endgame",
            "random",
        ] {
            let player: Player = text.parse().unwrap();
            assert_eq!(player.to_string(), text);
        }
        let plain: Player = "paranoid:plain".parse().unwrap();
        assert_eq!(plain.features, Features::PLAIN);
        assert_eq!(
            "paranoid".parse::<Player>().unwrap().features,
            Features::ALL
        );
        let some: Player = "brs:quiescence".parse().unwrap();
        assert!(some.features.quiescence && !some.features.table && !some.features.judgement);
        let err = "paranoid:tables".parse::<Player>().unwrap_err();
        assert!(
            err.contains("'tables'") && err.contains("table, quiescence, judgement, endgame"),
            "{err}"
        );
        assert!("paranoia".parse::<Player>().is_err());
    }
}
