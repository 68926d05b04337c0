//! Game review: every move of a two-player game judged by the engine, as lichess's
//! analysis judges one (see [`chances`] for the model and docs/review.md for the
//! numbers).
//!
//! Each position of the game is searched once, from the start to the position after
//! the last move, with one [`Searcher`] (its hash table carries over from a position
//! to the next, which is most of the next one's search). The search of the position
//! before a move gives the engine's best move, its line and the evaluation before the
//! move; the search of the position after it gives the evaluation after the move, the
//! played move's own score. That is what lichess does too: one search per position
//! instead of two per move (a second search of the played move would cost as much
//! again and say the same thing one ply deeper). A game that ends on the board
//! (checkmate, stalemate, a draw by rule) is evaluated after its last move by its
//! result, not searched.
//!
//! Scores come from the search for the side to move; a review turns them to White's
//! point of view ([`Evaluation`]) for a graph of the game, and to the mover's for the
//! judgement of each move.

pub mod chances;
mod pgn;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use hexchess_core::moves::Move;
use hexchess_core::outcome::{GameOutcome, Repetitions};
use hexchess_core::piece::Side;
use hexchess_core::position::Position;

use crate::{Score, SearchLimits, SearchOptions, SearchResult, Searcher, Skill};
pub use chances::{Judgement, WinPercent};
pub use pgn::{AnnotateError, GameError, annotate, main_line};

/// Plies of the engine's line kept for each move: enough to show the idea of the
/// better move, few enough to read in a comment.
pub const LINE_PLIES: usize = 8;

/// A position's value from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The engine's score turned to White's side: `Cp(35)` White is better, `Mate(-2)`
    /// Black mates in 2. Never `Mate(0)`: a position with no legal move is
    /// [`Evaluation::Over`] (and `Mate(0)` could not say who is mated).
    Score(Score),
    /// The game is over in this position by the rules: its result.
    Over(GameOutcome),
}

impl Evaluation {
    /// The chances of `side` (White or Black) in this position.
    pub fn win_percent(self, side: Side) -> WinPercent {
        let white = match self {
            Evaluation::Score(s) => WinPercent::from_score(s),
            Evaluation::Over(o) => WinPercent::from_points(o.points(Side::White).millis()),
        };
        if side == Side::White {
            white
        } else {
            white.other()
        }
    }

    /// Centipawns for `side`, capped at [`chances::CP_CEILING`] (a mate or a finished
    /// game counts as the ceiling), for the average centipawn loss.
    fn capped_cp(self, side: Side) -> i32 {
        let ceiling = chances::CP_CEILING;
        let white = match self {
            Evaluation::Score(Score::Cp(c)) => c.clamp(-ceiling, ceiling),
            Evaluation::Score(Score::Mate(m)) if m > 0 => ceiling,
            Evaluation::Score(Score::Mate(_)) => -ceiling,
            Evaluation::Over(o) => match o.winner() {
                Some(Side::White) => ceiling,
                Some(_) => -ceiling,
                None => 0,
            },
        };
        if side == Side::White { white } else { -white }
    }
}

impl fmt::Display for Evaluation {
    /// As a player reads it: `+1.35`, `-0.40`, `0.00` in pawns, `#3` or `#-3` for a
    /// mate (negative: Black mates), the result (`1-0`, `3/4-1/4`) for a finished game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evaluation::Score(Score::Cp(0)) => f.write_str("0.00"),
            Evaluation::Score(Score::Cp(c)) => write!(f, "{:+.2}", f64::from(*c) / 100.0),
            Evaluation::Score(Score::Mate(m)) => write!(f, "#{m}"),
            Evaluation::Over(o) => f.write_str(&o.result_text()),
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The side that played it.
    pub side: Side,
    /// The move played.
    pub played: Move,
    /// The move played, in SAN.
    pub san: String,
    /// The position before the move, from White's point of view.
    pub before: Evaluation,
    /// The position after the move, from White's point of view.
    pub after: Evaluation,
    /// The engine's move in the position before.
    pub best: Move,
    /// The engine's move in SAN.
    pub best_san: String,
    /// The engine's line from the position before, in SAN, its first move the best
    /// move; at most [`LINE_PLIES`] plies.
    pub line: Vec<String>,
    /// Whether the move was the only legal one.
    pub forced: bool,
    /// Win% points the mover's chances fell by (0 when they did not fall). Measured
    /// for every move, the best included: two searches of neighbouring positions can
    /// disagree a little.
    pub drop: f64,
    /// Centipawns the mover's score fell by, each score capped at ±1000 first (as
    /// lichess counts the average centipawn loss).
    pub cp_loss: u32,
    /// Lichess's accuracy of the move, 0 to 100 ([`chances::accuracy`]).
    pub accuracy: f64,
    /// What the move is called, if it gave enough away. Never for a forced move nor
    /// for the engine's own best move.
    pub judgement: Option<Judgement>,
}

/// A game's moves judged, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    /// One review per move reviewed, from the first move of the game.
    pub moves: Vec<MoveReview>,
    /// Whether every move was reviewed: false when the stop flag ended the review
    /// first, `moves` then holding those reviewed before it.
    pub complete: bool,
}

/// One side's moves summed up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideSummary {
    /// The side.
    pub side: Side,
    /// Moves reviewed.
    pub moves: usize,
    /// Moves judged inaccuracies.
    pub inaccuracies: usize,
    /// Moves judged mistakes.
    pub mistakes: usize,
    /// Moves judged blunders.
    pub blunders: usize,
    /// Mean centipawn loss per move (`None` without moves).
    pub average_cp_loss: Option<f64>,
    /// Mean accuracy of the moves, 0 to 100 (`None` without moves). A plain mean:
    /// lichess's game accuracy weights moves by how much the position swung around them
    /// and mixes in a harmonic mean, which this does not.
    pub accuracy: Option<f64>,
}

impl SideSummary {
    /// How many moves got `judgement`.
    pub fn count(&self, judgement: Judgement) -> usize {
        match judgement {
            Judgement::Inaccuracy => self.inaccuracies,
            Judgement::Mistake => self.mistakes,
            Judgement::Blunder => self.blunders,
        }
    }
}

impl fmt::Display for SideSummary {
    /// `White: 1 inaccuracy, 0 mistakes, 1 blunder; accuracy 85.2%, average centipawn
    /// loss 34`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counted =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        write!(
            f,
            "{}: {}, {}, {}",
            self.side,
            counted(self.inaccuracies, "inaccuracy", "inaccuracies"),
            counted(self.mistakes, "mistake", "mistakes"),
            counted(self.blunders, "blunder", "blunders")
        )?;
        match (self.accuracy, self.average_cp_loss) {
            (Some(a), Some(l)) => write!(f, "; accuracy {a:.1}%, average centipawn loss {l:.0}"),
            _ => f.write_str("; no moves"),
        }
    }
}

impl GameReview {
    /// The moves of `side` summed up.
    pub fn summary(&self, side: Side) -> SideSummary {
        let mine: Vec<&MoveReview> = self.moves.iter().filter(|m| m.side == side).collect();
        let count = |j| mine.iter().filter(|m| m.judgement == Some(j)).count();
        let mean = |f: &dyn Fn(&MoveReview) -> f64| {
            (!mine.is_empty()).then(|| mine.iter().map(|m| f(m)).sum::<f64>() / mine.len() as f64)
        };
        SideSummary {
            side,
            moves: mine.len(),
            inaccuracies: count(Judgement::Inaccuracy),
            mistakes: count(Judgement::Mistake),
            blunders: count(Judgement::Blunder),
            average_cp_loss: mean(&|m| f64::from(m.cp_loss)),
            accuracy: mean(&|m| m.accuracy),
        }
    }
}

/// Why a game cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewError {
    /// The variant has more than two sides: the search and the judgement of a move
    /// by one side's chances are for two.
    NotTwoSides {
        /// How many sides it has.
        sides: usize,
    },
    /// The move at `ply` (from 0) is not legal where it stands.
    IllegalMove {
        /// Plies before it.
        ply: usize,
    },
    /// The move at `ply` (from 0) comes after the rules had ended the game, as
    /// `ended` says (a position after the end has no move to judge).
    AfterEnd {
        /// Plies before it.
        ply: usize,
        /// How the rules had ended the game.
        ended: GameOutcome,
    },
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::NotTwoSides { sides } => {
                write!(f, "a game of {sides} sides cannot be reviewed (two only)")
            }
            ReviewError::IllegalMove { ply } => {
                write!(f, "ply {} is not a legal move where it stands", ply + 1)
            }
            ReviewError::AfterEnd { ply, ended } => write!(
                f,
                "ply {} comes after the end of the game: {}",
                ply + 1,
                ended.description()
            ),
        }
    }
}

impl std::error::Error for ReviewError {}

/// What the review keeps of one position of the game: made by [`review_game`] from
/// its own searches, or by a caller whose searches run elsewhere (a browser's engine
/// worker) for [`review_searched`].
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    eval: Evaluation,
    /// The engine's move and line (none in a finished game).
    best: Option<Move>,
    line: Vec<Move>,
}

impl Searched {
    /// A search of `pos` (its side to move's score, as a search gives it).
    pub fn from_result(pos: &Position, result: &SearchResult) -> Searched {
        Searched {
            eval: Evaluation::Score(result.score.for_white(pos.turn())),
            best: result.best,
            line: result.pv.clone(),
        }
    }

    /// The game's last position, when the rules have ended the game there: nothing to
    /// search.
    pub fn finished(pos: &Position) -> Option<Searched> {
        pos.outcome().map(|outcome| Searched {
            eval: Evaluation::Over(outcome),
            best: None,
            line: Vec::new(),
        })
    }
}

/// The review of the game played from `start` with `moves`, from the searches of its
/// positions made elsewhere, in order (the last one [`Searched::finished`] when the
/// game has ended). Fewer searches than positions review the moves they reach, with
/// [`GameReview::complete`] false, as a stopped [`review_game`] does.
pub fn review_searched(
    start: &Position,
    moves: &[Move],
    searched: &[Searched],
) -> Result<GameReview, ReviewError> {
    check_game(start, moves)?;
    let reviewed = searched.len().saturating_sub(1).min(moves.len());
    Ok(GameReview {
        moves: judge_moves(start, &moves[..reviewed], searched),
        complete: reviewed == moves.len(),
    })
}

/// Reviews the game played from `start` with `moves`: each position searched within
/// `limits` by `searcher`, each move judged.
///
/// `limits` bounds each position's search: nodes, a depth or a movetime (its
/// `searchmoves` and `ponder` are not used; an infinite one runs until `stop`). The
/// searcher is cleared first, so that a review does not depend on what it searched
/// before, and searches at full strength with one line whatever its options say (they
/// are given back at the end); its hash size and threads are used as they are. With
/// one thread and a limit of nodes or depth the review is the same every time.
///
/// `progress(done, total)` is called with the positions searched so far of the
/// game's `moves.len() + 1`, at the start and after each. Setting `stop` ends the
/// review soon after: the search under way is abandoned and the review returned holds
/// the moves reviewed before it, with [`GameReview::complete`] false.
pub fn review_game(
    searcher: &mut Searcher,
    start: &Position,
    moves: &[Move],
    limits: &SearchLimits,
    stop: &Arc<AtomicBool>,
    mut progress: impl FnMut(usize, usize),
) -> Result<GameReview, ReviewError> {
    check_game(start, moves)?;
    let limits = SearchLimits {
        searchmoves: Vec::new(),
        ponder: None,
        ..limits.clone()
    };
    let saved = *searcher.options();
    searcher.set_options(SearchOptions {
        multi_pv: 1,
        skill: Skill::FULL,
        ..saved
    });
    searcher.clear();
    let total = moves.len() + 1;
    progress(0, total);
    let mut pos = start.clone();
    let mut searched: Vec<Searched> = Vec::with_capacity(total);
    for k in 0..total {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let position = search_position(searcher, &mut pos, k + 1 == total, &limits, stop);
        // A search the flag cut short says nothing sure: it is left out.
        if stop.load(Ordering::Relaxed) {
            break;
        }
        searched.push(position);
        progress(k + 1, total);
        if let Some(&mv) = moves.get(k) {
            pos.make_move(mv);
        }
    }
    searcher.set_options(saved);
    let reviewed = searched.len().saturating_sub(1);
    Ok(GameReview {
        moves: judge_moves(start, &moves[..reviewed], &searched),
        complete: reviewed == moves.len(),
    })
}

/// Refuses a game of more sides, a move that is not legal and a move after the rules
/// ended the game, before any search. Repetitions are counted as the moves come, so
/// that the check costs the same per move however long the game.
fn check_game(start: &Position, moves: &[Move]) -> Result<(), ReviewError> {
    let sides = start.rules().side_count();
    if sides != 2 {
        return Err(ReviewError::NotTwoSides { sides });
    }
    let mut pos = start.without_history();
    let mut seen = Repetitions::new(&pos);
    for (ply, &mv) in moves.iter().enumerate() {
        if let Some(ended) = seen.outcome(&pos) {
            return Err(ReviewError::AfterEnd { ply, ended });
        }
        // Not written out: a move made up elsewhere may not even name cells of
        // this board.
        if !pos.is_legal(mv) {
            return Err(ReviewError::IllegalMove { ply });
        }
        pos.make_move(mv);
        seen.note(&pos);
    }
    Ok(())
}

/// The engine's view of one position; the last one of the game is its result when
/// the game is over there (no move follows it to be judged).
fn search_position(
    searcher: &mut Searcher,
    pos: &mut Position,
    last: bool,
    limits: &SearchLimits,
    stop: &Arc<AtomicBool>,
) -> Searched {
    if last && let Some(over) = Searched::finished(pos) {
        return over;
    }
    let result = searcher.search(pos, limits, stop, &mut |_| {});
    Searched::from_result(pos, &result)
}

/// Judges each move from the searches of the positions before and after it.
fn judge_moves(start: &Position, moves: &[Move], searched: &[Searched]) -> Vec<MoveReview> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (k, &played) in moves.iter().enumerate() {
        let (here, next) = (&searched[k], &searched[k + 1]);
        let side = pos.turn();
        let forced = pos.legal_moves().len() == 1;
        // Every position before a move has legal moves, so its search named one.
        let best = here.best.unwrap_or(played);
        let (before, after) = (here.eval, next.eval);
        let drop = chances::drop(before.win_percent(side), after.win_percent(side));
        out.push(MoveReview {
            side,
            played,
            san: pos.move_to_san(played),
            before,
            after,
            best,
            best_san: pos.move_to_san(best),
            line: line_san(&pos, best, &here.line),
            forced,
            drop,
            cp_loss: (before.capped_cp(side) - after.capped_cp(side)).max(0) as u32,
            accuracy: chances::accuracy(before.win_percent(side), after.win_percent(side)),
            judgement: judge(forced, best == played, drop),
        });
        pos.make_move(played);
    }
    out
}

/// A move's judgement: none for the only legal move (there was no choice) nor for the
/// engine's own choice (a drop then is two searches disagreeing, not a fault of the
/// move), else by the drop in the mover's Win%.
fn judge(forced: bool, engine_choice: bool, drop: f64) -> Option<Judgement> {
    if forced || engine_choice {
        None
    } else {
        Judgement::from_drop(drop)
    }
}

/// The engine's line in SAN from `pos`, starting with `best`, stopping at the first
/// move that is not legal (a stale hash entry can end a line with nonsense).
fn line_san(pos: &Position, best: Move, pv: &[Move]) -> Vec<String> {
    let pv = if pv.first() == Some(&best) {
        pv
    } else {
        std::slice::from_ref(&best)
    };
    // A copy without the game's history: a whole copy per move would make a review
    // cost the square of the game's length.
    let mut p = pos.without_history();
    let mut out = Vec::new();
    for &m in pv.iter().take(LINE_PLIES) {
        if !p.is_legal(m) {
            break;
        }
        out.push(p.move_to_san(m));
        p.make_move(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::rules::Rules;

    fn glinski(fen: Option<&str>) -> Position {
        let rules = Arc::new(
            Rules::new(&hexchess_core::variant::builtin("glinski").unwrap().unwrap()).unwrap(),
        );
        match fen {
            Some(f) => Position::from_fen(rules, f).unwrap(),
            None => Position::start(rules),
        }
    }

    fn searched(cp: i32, best: Option<Move>) -> Searched {
        Searched {
            eval: Evaluation::Score(Score::Cp(cp)),
            best,
            line: best.into_iter().collect(),
        }
    }

    /// Judged on made-up searches: a drop from equality to nine pawns down.
    fn judged(pos: &Position, played: Move, best: Move) -> MoveReview {
        let evals = [searched(0, Some(best)), searched(-900, None)];
        judge_moves(pos, &[played], &evals).remove(0)
    }

    #[test]
    fn the_engines_own_move_and_a_forced_move_are_never_judged() {
        let start = glinski(None);
        let moves = start.legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let m = judged(&start, a, b);
        assert_eq!(m.judgement, Some(Judgement::Blunder));
        assert!(m.drop > 45.0 && m.cp_loss == 900, "{m:?}");
        assert_eq!(m.after.to_string(), "-9.00");
        assert_eq!(judged(&start, a, a).judgement, None, "the best move");
        // With Black to move the same White-side drop is a gain for Black.
        let mut black = start.clone();
        black.make_move(a);
        let replies = black.legal_moves();
        let m = judged(&black, replies[0], replies[1]);
        assert_eq!((m.side, m.judgement, m.cp_loss), (Side::Black, None, 0));
        assert_eq!(m.accuracy, 100.0);

        // A position with one legal move: after a check that leaves one way out.
        let mate_in_one = glinski(Some("6/1R5/4Q3/6K2/10/k10/10/9/8/7/6 w - 0 1"));
        let forced = mate_in_one
            .legal_moves()
            .into_iter()
            .find_map(|m| {
                let mut p = mate_in_one.clone();
                p.make_move(m);
                (p.legal_moves().len() == 1).then_some(p)
            })
            .expect("a check with one way out");
        let only = forced.legal_moves()[0];
        assert!(judged(&forced, only, only).forced);
        assert_eq!(judge(true, false, 50.0), None, "forced");
        assert_eq!(judge(false, true, 50.0), None, "the engine's choice");
        assert_eq!(judge(false, false, 50.0), Some(Judgement::Blunder));
    }
}
