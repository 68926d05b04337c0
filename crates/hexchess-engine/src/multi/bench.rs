//! The bench of the searches of games of more sides: a fixed set of tables (the start
//! and three positions from one engine game of each), each searched a fixed number of
//! whole turns deep. Its turns per second are what a faster node shows; its turn count
//! is a signature of the search, as the two-player bench's node count is.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use hexchess_core::catalog::Catalog;
use hexchess_core::game::Game;
use web_time::Instant;

#[cfg(test)]
use super::Strategy;
use super::{MultiLimits, MultiSearcher, Player};

/// The positions, by variant: the start, and the table after 12, 30 and 60 turns of a
/// game paranoid played against itself at 400 turns a move.
pub const MULTI_BENCH_POSITIONS: &[(&str, &str)] = &[
    (
        "hexachess-3",
        "wBwNwRwQwBwKwRwNwB/10/wPwPwPwPwPwPwPwPwPwPwP/12/13/14/bP13cP/1bP12cP1/bB1bP11cP1cB/bN1bP10cP1cN/bR1bP9cP1cR/bK1bP8cP1cQ/bB1bP7cP1cB/bQ1bP6cP1cK/bR1bP5cP1cR/bN1bP4cP1cN/bB1bP3cP1cB w - 0 1",
    ),
    (
        "hexachess-3",
        "wBwNwR1wBwKwRwNwB/10/wPwPwPwP1wPwPwPwPwPwP/4wP7/13/14/bP5bR4cBbQ1cP/1bP12cP1/bB1bP11cP1cB/bN1bP10cP1cN/bR1bP9cP1cR/bK1bP7cPcP1cQ/bB2bP8cB/3bP5cP1cK/2bP5cP1cR/bN1bP4cP1cN/bB1bP3cP2 w - 1 5",
    ),
    (
        "hexachess-3",
        "4wBwKwRwNwB/10/wP1wPwP1wPwPwPwPwPwP/1wP2wP7/13/5wN8/bP13cP/1bP12cP1/2bP11cP1cB/bN1bP9cPcP1cN/bR2bP7cP2cR/bK1bP6cP4/3bP8cB/3bP4cPcP1cK/2bP3bB3cR/bN1bP4cP1cN/bB1bP3cP2 w - 0 11",
    ),
    (
        "hexachess-3",
        "4wB3wB/7wK2/2wPwP1wP1wPwPwPwP/wPwP2wP2wPwN3/13/9bB4/bP13cP/1bP12cP1/2bP1wR3cB5cP2/bN9cN1cP3/11cP3/2bP6cP4/3bP9/2bRbP4cPcP2/9cK1/bN6cP1cN/cR1bP3cP2 w - 1 22",
    ),
    (
        "hexachess-4",
        "wBwBwRwQwNwKwRwN1/wPwB4wPwP3/wPwPwPwPwPwPwPwP3dN/11dPdR/11dPdPdK/12dP1dN/13dP1dQ/bP13dP1dR/bPbP13dP1dB/bBbBbP13dPdBdB/bB1bP13dPdP/bR1bP13dP/bQ1bP13/bN1bP12/bKbPbP11/bRbP11/bN3cPcPcPcPcPcPcPcP/3cPcP4cBcP/1cNcRcKcNcQcRcBcB w - 0 1",
    ),
    (
        "hexachess-4",
        "wBwBwRwQwNwKwR2/wPwB4wPwP3/wPwPwPwPwPwPwPwP3dN/11dPdR/11dPdP1/7bQ3dP1dKdN/13dP2/bP10wN2dP1dR/bPbP13dPdQdB/bBbBbP13dPdBdB/bB1bP13dPdP/bR1bP13dP/2bP13/bNbKbP12/1bPbP11/bRbP4cB1cP4/bNcN2cPcPcP1cPcPcPcP/3cPcP4cBcP/2cRcKcNcQcRcB1 w - 4 4",
    ),
    (
        "hexachess-4",
        "wBwBwR1wNwKwR2/wPwB4wPwP3/wPwPwPwPwPwPwPwP3dN/11dPdR/11dPdP1/11dP2dN/13dPdK1/bP13dP1dR/bPbP13dP1dB/bBbB14dPdBdB/bB1bPbP4bQ7dPdP/bR1bP7wQ5dP/2bP7wN5/bNbKbP12/1bPbP6dQ4/bRbP4cB1cPcP3/4cPcPcP2cPcPcP/2bNcPcP4cBcP/2cRcKcNcQcRcB1 c - 4 9",
    ),
    (
        "hexachess-4",
        "1wBwR1wNwKwR2/wPwBwB3wP4/wPwPwPwPwPwPwPwP1wP1dN/11dP1/11dPdPdR/11dP2dN/13dP1dK/bP13dP1dR/bPbP13dP1dB/2bR13dP1dB/1bBbPbP12dPdP/1bBbP13dP/2bP13/1bKbP12/1bPbP1bN2cQ6/bRbP6cPcP1cP1/bN3cPcPcP2cPcP1/3cPcPcK3cBcP/2cR1cN2cB1 w - 1 18",
    ),
];

/// The whole turns deep the bench searches by default.
pub const MULTI_BENCH_DEPTH: u32 = 3;

/// One position's result.
#[derive(Clone, Debug)]
pub struct MultiBenchLine {
    /// The variant's id.
    pub variant: &'static str,
    /// The position searched.
    pub fen: &'static str,
    /// Turns played in the search tree.
    pub turns: u64,
    /// How long it took.
    pub millis: u128,
    /// The turn chosen, its steps joined by `&`.
    pub best: String,
}

/// Searches every bench position of `variant` (every one when `None`) `depth` whole
/// turns deep by `player`; `progress` sees each line as it is done.
pub fn run(
    variant: Option<&str>,
    player: Player,
    depth: u32,
    mut progress: impl FnMut(&MultiBenchLine),
) -> Vec<MultiBenchLine> {
    let catalog = Catalog::builtin();
    let limits = MultiLimits {
        nodes: u64::MAX,
        depth,
        time: None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let mut lines = Vec::new();
    for &(id, fen) in MULTI_BENCH_POSITIONS {
        if variant.is_some_and(|v| v != id) {
            continue;
        }
        let rules = catalog.get(id).expect("a built-in variant").rules();
        let game = Game::from_fen(Arc::clone(rules), fen).expect("bench positions are valid");
        let mut searcher = MultiSearcher::for_player(player, 1);
        let start = Instant::now();
        let choice = searcher.choose(&game, &limits, &stop);
        let line = MultiBenchLine {
            variant: id,
            fen,
            turns: choice.as_ref().map_or(0, |c| c.nodes),
            millis: start.elapsed().as_millis(),
            best: choice.map_or(String::new(), |c| game.lean().write_turn(&c.steps)),
        };
        progress(&line);
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_searched_and_the_count_is_a_signature() {
        let total = |player| -> u64 {
            let lines = run(None, player, 1, |_| {});
            assert_eq!(lines.len(), MULTI_BENCH_POSITIONS.len());
            assert!(lines.iter().all(|l| l.turns > 0 && !l.best.is_empty()));
            lines.iter().map(|l| l.turns).sum()
        };
        let paranoid = Player::new(Strategy::Paranoid);
        assert_eq!(total(paranoid), total(paranoid));
        assert_eq!(run(Some("hexachess-4"), paranoid, 1, |_| {}).len(), 4);
    }
}
