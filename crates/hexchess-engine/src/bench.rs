//! `bench`: a fixed set of positions from every built-in variant, searched to a fixed
//! depth with a fresh hash table. Its node count is a signature of the search (any
//! change to it changes the count) and its speed the number to watch for regressions.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use super::{EvalMode, SearchLimits, SearchOptions, Searcher};
use hexchess_core::catalog::Catalog;
use hexchess_core::position::Position;

/// The positions: each built-in's start and its reference special position.
pub const BENCH_POSITIONS: &[(&str, &str)] = &[
    (
        "glinski",
        "6/P5p/RP4pr/N1P3p1n/Q2P2p2q/BBB1P1p1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 w - 0 1",
    ),
    (
        "glinski",
        "6/P5p/RP4pr/N1P3p2/Q2P2p2q/BBB1P1p1bbb/K2P2p1nk/N1P1p3n/R3P1pr/P5p/6 w h6 0 3",
    ),
    (
        "mccooey",
        "6/7/P6p/RP5pr/QNP4pnq/BBBP3pbbb/KNP4pnk/RP5pr/P6p/7/6 w - 0 1",
    ),
    (
        "mccooey",
        "6/7/P6p/RP5pr/QNP2p2nq/BBBP2p1bbb/KNP5nk/R5P1r/1P5p/7/6 w - 0 5",
    ),
    (
        "grand",
        "2DKV2/8/BNRQBWRNB/10/PPPPPPPPPPP/12/13/12/ppppppppppp/10/bnrqbwrnb/8/2dkv2 w - 0 1",
    ),
    (
        "grand",
        "2D1V2/2K5/1N4RN1/10/PB1P2w2r1/5P6/4P8/1p6p3/p2p4p1n/4P5/1nrqb4/8/2dkv2 w - 0 18",
    ),
    (
        "standard",
        "7/8/BNRQBKRNB/10/PPPPPPPPPPP/12/13/12/ppppppppppp/10/bnrqbkrnb/8/7 w - 0 1",
    ),
    (
        "standard",
        "7/8/BNRQBKRNB/10/PP1PPPPPPPP/12/13/1p5pp1p1/nppp1p2pp1/10/b2qb2nb/2P2rk1/7 w - 0 8",
    ),
];

/// The depth `bench` searches by default.
pub const BENCH_DEPTH: u32 = 7;

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The variant's id.
    pub variant: &'static str,
    /// The position searched.
    pub fen: &'static str,
    /// Nodes the search visited.
    pub nodes: u64,
    /// How long it took.
    pub millis: u128,
    /// The move it chose, in long algebraic.
    pub best: String,
}

/// Runs the benchmark with the engine's evaluation `eval` (the standard signature is
/// [`EvalMode::FULL`]; a lesser one shows what the evaluation costs in speed); `progress`
/// sees each position as it finishes.
pub fn run(depth: u32, eval: EvalMode, progress: impl FnMut(&BenchLine)) -> Vec<BenchLine> {
    run_until(depth, eval, &Arc::new(AtomicBool::new(false)), progress)
}

/// [`run`], ending as soon as `stop` is set (the protocol's `stop` and `quit`): the
/// positions searched to the end before it, without the one it interrupted.
pub fn run_until(
    depth: u32,
    eval: EvalMode,
    stop: &Arc<AtomicBool>,
    mut progress: impl FnMut(&BenchLine),
) -> Vec<BenchLine> {
    let catalog = Catalog::builtin();
    let mut lines = Vec::new();
    // One searcher for the whole run, cleared before each position as for a new game:
    // the clock then times the search alone. A fresh table per position spent part of
    // every search on the operating system's first touch of each of its pages, and
    // building the variant's evaluator is work a game does once, not per move.
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 16,
        eval,
        ..SearchOptions::default()
    });
    // The table's pages, fetched now rather than by the first position's search.
    searcher.touch_hash();
    for &(variant, fen) in BENCH_POSITIONS {
        let rules = catalog
            .get(variant)
            .and_then(|e| e.two_player_rules())
            .expect("a built-in two-player variant");
        let mut pos = Position::from_fen(rules, fen).expect("bench positions are valid");
        searcher.clear();
        searcher.evaluator(&pos);
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let start = Instant::now();
        let result = searcher.search(&mut pos, &SearchLimits::depth(depth), stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let line = BenchLine {
            variant,
            fen,
            nodes: result.nodes,
            millis: start.elapsed().as_millis(),
            best: result.best.map(|m| pos.move_to_lan(m)).unwrap_or_default(),
        };
        progress(&line);
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EvalTerms;

    #[test]
    fn every_position_is_searched_with_the_evaluation_asked_for() {
        let total = |eval| -> u64 {
            let lines = run(2, eval, |_| {});
            assert_eq!(lines.len(), BENCH_POSITIONS.len());
            assert!(lines.iter().all(|l| l.nodes > 0 && !l.best.is_empty()));
            lines.iter().map(|l| l.nodes).sum()
        };
        let full = total(EvalMode::FULL);
        // Other evaluations search other trees: the mode reached the searcher.
        assert_ne!(full, total(EvalMode::Material));
        assert_ne!(full, total(EvalMode::Terms(EvalTerms::NONE)));
        // The same settings search the same tree (the count is a signature).
        assert_eq!(full, total(EvalMode::FULL));
    }
}
