//! The engine: evaluation, search, time management, strength levels, the UCI-style
//! protocol, and the one door every caller searches through ([`Engine`]: given a game
//! of any number of sides, it picks the search, in place or on its own thread).
//!
//! Search a position of any variant:
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::AtomicBool;
//! use hexchess_core::{Catalog, Position};
//! use hexchess_engine::{SearchLimits, SearchOptions, Searcher};
//!
//! let catalog = Catalog::builtin();
//! let mut pos = Position::start(catalog.get("mccooey").unwrap().two_player_rules().unwrap());
//! let mut searcher = Searcher::new(SearchOptions { hash_mb: 4, ..SearchOptions::default() });
//! let stop = Arc::new(AtomicBool::new(false));
//! let result = searcher.search(&mut pos, &SearchLimits::depth(4), &stop, &mut |info| {
//!     println!("depth {} score {}", info.depth, info.score);
//! });
//! let best = result.best.expect("the start has legal moves");
//! assert!(pos.legal_moves().contains(&best));
//! println!("bestmove {} {}", pos.move_to_lan(best), pos.to_fen());
//! ```
//!
//! The protocol, its options and the strength levels are described in the project's
//! `docs/engine.md` and `docs/strength.md`.

#![warn(missing_docs)]

pub mod bench;
pub mod deploy;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod job;
pub mod multi;
mod order;
pub mod protocol;
pub mod review;
pub mod search;
pub mod see;
pub mod skill;
pub mod time;
pub mod tt;
pub mod wdl;

use std::fmt;

pub use endgame::{TablebaseShelf, Tablebases};
pub use engine::{Answer, Engine, Found, Question, Thinking};
pub use eval::{EvalMode, EvalTerms, EvalWeights, Evaluator};
pub use search::{MATE, MATE_BOUND, MAX_MULTI_PV, MAX_PLY, MAX_THREADS, Searcher};
pub use skill::{Handicap, Skill, SkillError};
pub use time::{Clock, Ponder, SearchLimits};
pub use wdl::Wdl;

use hexchess_core::moves::Move;
use hexchess_core::piece::Side;
use hexchess_core::position::Position;

/// A search score as players and protocols show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves; negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    pub(crate) fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-((MATE + s) / 2))
        } else {
            Score::Cp(s)
        }
    }

    /// From White's point of view, given the side to move.
    pub fn for_white(self, turn: hexchess_core::piece::Side) -> Score {
        match (turn, self) {
            (hexchess_core::piece::Side::White, s) => s,
            (_, Score::Cp(c)) => Score::Cp(-c),
            (_, Score::Mate(m)) => Score::Mate(-m),
        }
    }
}

impl fmt::Display for Score {
    /// As the protocol writes it: `cp 35` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// Engine settings that persist between searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// The search's techniques, each of which can be turned off (to measure it).
    pub techniques: Techniques,
    /// Which evaluation terms count (the full evaluation, or material and placement).
    pub eval: EvalMode,
    /// A depth the search never exceeds, whatever the time.
    pub max_depth: Option<u32>,
    /// The strength level: below full strength the search is shallower and its move
    /// varies (drawn among the root moves, weaker ones more often at lower levels, or
    /// at the top level the best move under a noisy evaluation; see [`Skill`]).
    pub skill: Skill,
    /// The evaluation's weights (tuned defaults; settable to try others in matches).
    pub weights: EvalWeights,
    /// Threads searching each position together at full strength (helpers share the
    /// hash table; see [`Searcher`]). Levels below full strength search alone.
    pub threads: usize,
    /// Best lines searched and reported at full strength (analysis: the best move, the
    /// best other move, ...). One for play: each further line costs about one more
    /// search of the position.
    pub multi_pv: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 64,
            techniques: Techniques::ALL,
            eval: EvalMode::FULL,
            max_depth: None,
            skill: Skill::FULL,
            weights: EvalWeights::default(),
            threads: 1,
            multi_pv: 1,
        }
    }
}

/// The search techniques that can be switched off one by one, so that a match of the
/// engine against itself without one shows what that technique is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub reductions: bool,
    /// Reverse futility, futility and move-count pruning near the leaves.
    pub futility: bool,
    /// One more ply for the side in check.
    pub check_extension: bool,
    /// A narrow window around the previous iteration's score.
    pub aspiration: bool,
}

impl Techniques {
    /// Every technique: the engine at full strength.
    pub const ALL: Techniques = Techniques {
        null_move: true,
        reductions: true,
        futility: true,
        check_extension: true,
        aspiration: true,
    };

    /// Switches the techniques that cut the tree on or off together.
    pub fn set_pruning(&mut self, on: bool) {
        self.null_move = on;
        self.reductions = on;
        self.futility = on;
    }
}

/// Which side of the true score a provisional score is: an aspiration window that
/// failed shows where the search stands before it searches again with a wider one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// What a long search tells while it works, between its depth reports: the root move
/// it is on, and provisional scores from failed aspiration windows. The protocol turns
/// them into `info currmove` and `info ... lowerbound|upperbound` lines, as GUIs show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The root move being searched.
    CurrMove {
        /// The depth being searched.
        depth: u32,
        /// The move.
        mv: Move,
        /// 1 for the first root move searched at this depth.
        number: u32,
    },
    /// A provisional score ([`SearchInfo::bound`] says which side).
    Bound(SearchInfo),
}

/// Where a search sends its [`Progress`], and from when: a GUI needs no currmove lines
/// during a search of a few milliseconds (other engines wait about a second or more).
pub struct ProgressSink {
    /// How long a search runs before it reports.
    pub after: std::time::Duration,
    /// What hears each report.
    pub report: Box<dyn FnMut(&Progress) + Send + Sync>,
}

/// Progress after a completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// The depth completed.
    pub depth: u32,
    /// The deepest ply any line reached (quiescence and extensions included).
    pub seldepth: u32,
    /// The line's score for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// The line: the moves the search expects.
    pub pv: Vec<Move>,
    /// Which of the best lines this is (1 = the best), when the search reports several
    /// (`SearchOptions::multi_pv`).
    pub multipv: Option<u32>,
    /// Set when the score is provisional (a [`Progress::Bound`]); `None` for a
    /// completed depth.
    pub bound: Option<ScoreBound>,
}

impl SearchInfo {
    /// The protocol's `info` line, with the PV in long algebraic.
    pub fn to_uci(&self, pos: &Position) -> String {
        self.to_uci_with(pos, false)
    }

    /// [`SearchInfo::to_uci`], with the chances of a win, draw and loss after the score
    /// when `show_wdl` (the `UCI_ShowWDL` option; see [`Wdl`]).
    pub fn to_uci_with(&self, pos: &Position, show_wdl: bool) -> String {
        let bound = match self.bound {
            Some(ScoreBound::Lower) => " lowerbound",
            Some(ScoreBound::Upper) => " upperbound",
            None => "",
        };
        let wdl = if show_wdl {
            format!(" wdl {}", Wdl::from_score(self.score))
        } else {
            String::new()
        };
        let mut line = format!(
            "info depth {} seldepth {}{} score {}{bound}{wdl} nodes {} nps {} time {} hashfull {}",
            self.depth,
            self.seldepth,
            self.multipv
                .map_or(String::new(), |k| format!(" multipv {k}")),
            self.score,
            self.nodes,
            self.nps,
            self.time_ms,
            self.hashfull
        );
        if !self.pv.is_empty() {
            line.push_str(" pv");
            for m in pv_text(pos, &self.pv) {
                line.push(' ');
                line.push_str(&m);
            }
        }
        line
    }
}

/// A PV as long algebraic text, stopping at the first move that is not legal (a stale
/// hash entry can end a PV with nonsense; it is never played).
pub fn pv_text(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = pos.without_history();
    let mut out = Vec::new();
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        out.push(p.move_to_lan(m));
        p.make_move(m);
    }
    out
}

/// A PV as a player reads it: SAN with move numbers (`19... Nd4 20. Bxe5 Nxe5`), at most
/// `max_moves` moves, stopping like [`pv_text`] at the first move that is not legal.
pub fn pv_san<B: hexchess_core::bitboard::CellSet>(
    pos: &Position<B>,
    pv: &[Move],
    max_moves: usize,
) -> String {
    let mut p = pos.without_history();
    let mut out = String::new();
    for (i, &m) in pv.iter().take(max_moves).enumerate() {
        if !p.is_legal(m) {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        match p.turn() {
            Side::White => out.push_str(&format!("{}. ", p.fullmove_number())),
            _ if i == 0 => out.push_str(&format!("{}... ", p.fullmove_number())),
            _ => {}
        }
        out.push_str(&p.move_to_san(m));
        p.make_move(m);
    }
    out
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: Score,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The line it expects, the best move first.
    pub pv: Vec<Move>,
}

/// Cell `i` of a radius-5 hexagon (91 cells), for unit tests that only need distinct
/// cells (a board is the only way to get cells outside the core).
#[cfg(test)]
pub(crate) fn test_cell(i: u8) -> hexchess_core::Cell {
    use hexchess_core::{Board, Layout, Naming};
    let board = Board::new(
        Layout::FlatTop,
        Naming::default_for(Layout::FlatTop),
        &Board::hexagon_cells(5),
    )
    .expect("a radius-5 hexagon is a valid board");
    board.cells().nth(i as usize).expect("cell index within 91")
}
