//! Move ordering: the order in which a node tries its moves decides how soon it cuts
//! off, so every move gets a score (hash move, winning captures by MVV-LVA, promotions,
//! killers, history, losing captures last) and the search takes them best first.
//!
//! Most nodes cut off after one or two moves, so the list is not sorted up front: the
//! next best move is selected each time, and only a node that gets past its first few
//! moves (an all-node, which will try them all) sorts the rest once. Exchange evaluation
//! of a capture that might lose material is put off until that capture comes up.

use super::eval::Evaluator;
use super::see::see;
use hexchess_core::moves::{Move, MoveList};
use hexchess_core::position::Position;
use hexchess_core::{Legality, MoveSet};

/// Score of the hash table's move: searched first.
pub const TT_MOVE: i32 = 2_000_000;
/// Base score of captures that do not lose material: `GOOD_CAPTURE + 2 * mvv_lva`, plus
/// one while the exchange is not yet evaluated.
pub const GOOD_CAPTURE: i32 = 1_000_000;
/// Base score of promotions that capture nothing.
pub const PROMOTION: i32 = 900_000;
/// Scores of the two killer moves of a ply.
pub const KILLERS: [i32; 2] = [800_000, 799_000];
/// Base score of captures that lose material in the exchange: after the quiet moves.
pub const BAD_CAPTURE: i32 = -1_000_000;

/// Picks after which a node sorts its remaining moves instead of selecting each one.
const SORT_AFTER: usize = 3;

/// The score of a capture by MVV-LVA: the most valuable victim first, the least valuable
/// attacker among equals. `unsettled` marks one whose exchange still needs evaluating.
#[inline]
pub fn capture_score(mvv_lva: i32, unsettled: bool) -> i32 {
    GOOD_CAPTURE + 2 * mvv_lva + i32::from(unsettled)
}

/// The ordering score of a capture or promotion: MVV-LVA, a capture of a piece worth at
/// least the capturer settled at once, the others left for [`MoveOrder::next`].
#[inline]
pub fn noisy_score(pos: &Position, eval: &Evaluator, m: Move) -> i32 {
    if let Some(victim) = pos.piece_at(m.to()) {
        let attacker = pos.piece_at(m.from()).map_or(0, |p| eval.value(p.kind));
        let mvv_lva = eval.value(victim.kind) * 16 - attacker / 8
            + m.promotion().map_or(0, |k| eval.value(k));
        capture_score(mvv_lva, eval.value(victim.kind) < attacker)
    } else if m.is_en_passant() {
        capture_score(100 * 16 - 100 / 8, false)
    } else if let Some(k) = m.promotion() {
        PROMOTION + eval.value(k)
    } else {
        0
    }
}

/// Whether a score marks a capture whose exchange is still to be evaluated.
#[inline]
pub fn unsettled(score: i32) -> bool {
    (GOOD_CAPTURE..TT_MOVE).contains(&score) && score & 1 == 1
}

/// The moves of one node in the order to try them: each move's score and its index in
/// the node's move list, packed into one integer so that choosing the best is a single
/// comparison per move.
pub struct MoveOrder {
    keys: Vec<i64>,
    /// From this index on the keys are sorted best first (`usize::MAX`: not sorted).
    sorted_from: usize,
}

impl Default for MoveOrder {
    fn default() -> Self {
        MoveOrder {
            keys: Vec::new(),
            sorted_from: usize::MAX,
        }
    }
}

impl MoveOrder {
    /// Empties the order for a new node.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.sorted_from = usize::MAX;
    }

    /// Adds the move at `index` in the node's list with `score`.
    #[inline]
    pub fn push(&mut self, index: usize, score: i32) {
        debug_assert!(index < 1 << 16);
        self.keys.push((i64::from(score) << 16) | index as i64);
    }

    /// How many moves the order holds.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The `i`-th best move (the first `i` having been taken) and its score, without
    /// evaluating exchanges.
    #[inline]
    pub fn pick(&mut self, i: usize, moves: &[Move]) -> (Move, i32) {
        if i < self.sorted_from {
            if i == SORT_AFTER {
                self.keys[i..].sort_unstable_by(|a, b| b.cmp(a));
                self.sorted_from = i;
            } else {
                let mut best = i;
                for j in i + 1..self.keys.len() {
                    if self.keys[j] > self.keys[best] {
                        best = j;
                    }
                }
                self.keys.swap(i, best);
            }
        }
        let key = self.keys[i];
        (moves[(key & 0xFFFF) as usize], (key >> 16) as i32)
    }

    /// Like [`MoveOrder::pick`], but a capture whose exchange has not been evaluated
    /// gets it now; if it loses material it goes back among the losing captures and the
    /// next best move is taken instead.
    #[inline]
    pub fn next(
        &mut self,
        i: usize,
        moves: &[Move],
        pos: &Position,
        eval: &Evaluator,
    ) -> (Move, i32) {
        loop {
            let (mv, score) = self.pick(i, moves);
            if !unsettled(score) {
                return (mv, score);
            }
            let settled = if see(pos, eval, mv) >= 0 {
                score - 1
            } else {
                BAD_CAPTURE + (score - 1 - GOOD_CAPTURE)
            };
            self.keys[i] = (i64::from(settled) << 16) | (self.keys[i] & 0xFFFF);
            if settled > 0 {
                return (mv, settled);
            }
            // Out of place now: select among the rest again.
            self.sorted_from = usize::MAX;
        }
    }
}

/// Where a node is in its staged moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stage {
    #[default]
    HashMove,
    GenerateNoisy,
    Noisy,
    Refutations,
    GenerateQuiet,
    Quiet,
    LosingCaptures,
    Done,
}

/// A node's moves produced in stages, so that a node which cuts off early never
/// generates or scores the moves it does not reach: the hash move (tested on its own),
/// then captures and promotions best first, then the refutations (the killers and the
/// countermove, tested on their own), then the quiet moves by history, and last the
/// captures that lose material.
#[derive(Default)]
pub struct StagedMoves {
    stage: Stage,
    hash_move: Option<Move>,
    refutations: [Option<Move>; REFUTATIONS],
    /// Refutations already played at this node, left out of the quiet moves.
    played_refutations: [Option<Move>; REFUTATIONS],
    next_refutation: usize,
    noisy: MoveList,
    noisy_order: MoveOrder,
    noisy_at: usize,
    quiet: MoveList,
    quiet_order: MoveOrder,
    quiet_at: usize,
    scratch: MoveList,
}

/// Moves tried after the captures and before the other quiet moves: two killers and
/// a countermove.
pub const REFUTATIONS: usize = 3;

/// Which stage a move came from, as far as the search cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    HashMove,
    Noisy,
    /// A killer or the countermove.
    Refutation,
    Quiet,
    LosingCapture,
}

impl StagedMoves {
    /// Starts a node with its hash move and its refutations: the two killers of its
    /// ply, then the countermove of the move that led to it.
    pub fn start(&mut self, hash_move: Option<Move>, refutations: [Option<Move>; REFUTATIONS]) {
        self.stage = Stage::HashMove;
        self.hash_move = hash_move;
        self.refutations = refutations;
        self.played_refutations = [None; REFUTATIONS];
        self.next_refutation = 0;
        self.noisy_at = 0;
        self.quiet_at = 0;
    }

    /// The next move to search, or `None` when every legal move has been given.
    /// `quiet_score` orders the quiet moves (history).
    ///
    /// Always inlined into the search's move loop, its one caller: called there
    /// out of line it cost 1.3% more instructions per node (callgrind, `bench search
    /// --depth 6`).
    #[inline(always)]
    pub fn next(
        &mut self,
        pos: &Position,
        legality: &Legality,
        eval: &Evaluator,
        quiet_score: impl Fn(Move) -> i32,
    ) -> Option<(Move, Source)> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateNoisy;
                    if let Some(m) = self.hash_move {
                        if pos.is_legal_with(legality, m, &mut self.scratch) {
                            return Some((m, Source::HashMove));
                        }
                        self.hash_move = None;
                    }
                }
                Stage::GenerateNoisy => {
                    pos.moves_into(legality, MoveSet::Noisy, &mut self.noisy);
                    // The moves already given stay in the list but get no place in the
                    // order, which is what the stages walk.
                    let hash = self.hash_move;
                    self.noisy_order.clear();
                    for (i, &m) in self.noisy.iter().enumerate() {
                        if Some(m) != hash {
                            self.noisy_order.push(i, noisy_score(pos, eval, m));
                        }
                    }
                    self.stage = Stage::Noisy;
                }
                Stage::Noisy => {
                    if self.noisy_at < self.noisy_order.len() {
                        let (m, score) =
                            self.noisy_order.next(self.noisy_at, &self.noisy, pos, eval);
                        if score >= 0 {
                            self.noisy_at += 1;
                            return Some((m, Source::Noisy));
                        }
                    }
                    self.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    while self.next_refutation < REFUTATIONS {
                        let k = self.refutations[self.next_refutation];
                        self.next_refutation += 1;
                        if let Some(m) = k
                            && k != self.hash_move
                            && !self.played_refutations.contains(&k)
                            && !pos.is_capture(m)
                            && m.promotion().is_none()
                            && pos.is_legal_with(legality, m, &mut self.scratch)
                        {
                            self.played_refutations[self.next_refutation - 1] = k;
                            return Some((m, Source::Refutation));
                        }
                    }
                    self.stage = Stage::GenerateQuiet;
                }
                Stage::GenerateQuiet => {
                    pos.moves_into(legality, MoveSet::Quiet, &mut self.quiet);
                    let (hash, played) = (self.hash_move, self.played_refutations);
                    self.quiet_order.clear();
                    for (i, &m) in self.quiet.iter().enumerate() {
                        if Some(m) != hash && !played.contains(&Some(m)) {
                            self.quiet_order.push(i, quiet_score(m));
                        }
                    }
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if self.quiet_at < self.quiet_order.len() {
                        let (m, _) = self.quiet_order.pick(self.quiet_at, &self.quiet);
                        self.quiet_at += 1;
                        return Some((m, Source::Quiet));
                    }
                    self.stage = Stage::LosingCaptures;
                }
                Stage::LosingCaptures => {
                    // Every capture left was settled as losing when the noisy stage ended.
                    if self.noisy_at < self.noisy_order.len() {
                        let (m, _) = self.noisy_order.pick(self.noisy_at, &self.noisy);
                        self.noisy_at += 1;
                        return Some((m, Source::LosingCapture));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_cell as cell;

    fn moves(n: usize) -> Vec<Move> {
        (0..n)
            .map(|i| Move::new(cell(i as u8), cell(i as u8 + 1)))
            .collect()
    }

    #[test]
    fn picks_best_first_before_and_after_sorting() {
        let list = moves(10);
        let scores = [5, -3, 800_000, 12, 12, 0, TT_MOVE, -1_000_000, 7, 3];
        let mut order = MoveOrder::default();
        for (i, s) in scores.iter().enumerate() {
            order.push(i, *s);
        }
        let picked: Vec<i32> = (0..order.len()).map(|i| order.pick(i, &list).1).collect();
        let mut expected = scores.to_vec();
        expected.sort_by(|a, b| b.cmp(a));
        assert_eq!(picked, expected);
        // Each move comes out exactly once.
        let mut seen: Vec<Move> = (0..order.len()).map(|i| order.pick(i, &list).0).collect();
        seen.sort_by_key(|m| m.from().index());
        assert_eq!(seen, list);
    }

    #[test]
    fn refutations_come_once_after_the_hash_move_and_before_the_other_quiets() {
        use crate::eval::Evaluator;
        use hexchess_core::position::Position;
        use hexchess_core::rules::Rules;
        use std::sync::Arc;

        let rules = Arc::new(
            Rules::new(&hexchess_core::variant::builtin("glinski").unwrap().unwrap()).unwrap(),
        );
        let pos = Position::start(Arc::clone(&rules));
        let eval = Evaluator::new(&rules);
        let legality = pos.legality();
        let legal = pos.legal_moves();
        let [a, b, c, d] = [legal[0], legal[1], legal[2], legal[3]];
        // A move from another position (not legal here) is never given.
        let foreign = Move::new(cell(0), cell(1));
        assert!(!legal.contains(&foreign));
        for (counter, refutations) in [(b, vec![b, c]), (d, vec![b, c, d]), (foreign, vec![b, c])] {
            let mut staged = StagedMoves::default();
            staged.start(Some(a), [Some(b), Some(c), Some(counter)]);
            let mut given = Vec::new();
            while let Some((m, source)) = staged.next(&pos, &legality, &eval, |_| 0) {
                given.push((m, source));
            }
            assert_eq!(given[0], (a, Source::HashMove));
            let given_refutations: Vec<Move> = given
                .iter()
                .filter(|(_, s)| *s == Source::Refutation)
                .map(|(m, _)| *m)
                .collect();
            assert_eq!(given_refutations, refutations);
            // Every legal move exactly once (the start has no captures).
            let mut all: Vec<Move> = given.iter().map(|(m, _)| *m).collect();
            all.sort_by_key(|m| (m.from().index(), m.to().index()));
            let mut expected = legal.clone();
            expected.sort_by_key(|m| (m.from().index(), m.to().index()));
            assert_eq!(all, expected);
        }
    }

    #[test]
    fn capture_scores_keep_mvv_lva_order_and_mark_unsettled_ones() {
        assert!(capture_score(1600, false) > capture_score(1500, true));
        assert!(unsettled(capture_score(300, true)));
        assert!(!unsettled(capture_score(300, false)));
        assert!(!unsettled(TT_MOVE));
        assert!(!unsettled(KILLERS[1]));
    }
}
