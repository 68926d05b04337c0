//! The search of one node: principal variation search with its pruning and reductions
//! ([`Searcher::negamax`]), quiescence at the leaves, and the move-ordering statistics
//! a cutoff teaches.
//!
//! A node goes through these steps: the checks that end it at once (draw, mate
//! distance, the hash table), the pruning that needs no move (reverse futility, null
//! move), then each move in order, pruned, reduced or searched in full
//! ([`Searcher::search_move`]), and the result stored.

use super::params::{
    DELTA_MARGIN, FUTILITY_DEPTH, FUTILITY_MARGIN, HISTORY_MAX, IIR_MIN_DEPTH, LMR_MIN_DEPTH,
    LMR_MIN_MOVES, MOVE_COUNT_DEPTH, NULL_MOVE_MIN_DEPTH, REVERSE_FUTILITY_DEPTH,
    REVERSE_FUTILITY_MARGIN, history_bonus, move_count_limit, null_move_reduction,
};
use super::{EVAL_CACHE_SIZE, INFINITY, MATE, MATE_BOUND, MAX_PLY, Searcher, table_score};
use crate::eval::Evaluator;
use crate::order::{self, KILLERS, MoveOrder, Source};
use crate::see::see;
use crate::tt::Bound;
use hexchess_core::MAX_CELLS;
use hexchess_core::moves::Move;
use hexchess_core::piece::Side;
use hexchess_core::position::{Phase, Position};

/// What a node knows before it tries its moves.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    is_pv: bool,
    in_check: bool,
    static_eval: i32,
}

/// What a move is, for the pruning and reductions that look at it.
#[derive(Clone, Copy)]
struct Tried {
    /// Moves searched at the node before this one.
    searched: usize,
    quiet: bool,
    /// A killer or the countermove: it refuted something like this before.
    refutation: bool,
    gives_check: bool,
}

impl Searcher {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
        in_check: bool,
    ) -> i32 {
        self.pv[ply].clear();
        debug_assert_eq!(in_check, pos.in_check());
        if in_check && self.options.techniques.check_extension {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, eval, alpha, beta, ply, Some(in_check));
        }
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let is_pv = beta - alpha > 1;
        if ply > 0 {
            if self.is_draw(pos) {
                return 0;
            }
            // An ending a table holds: its exact value ends the branch.
            if let Some(score) = self.table_value(pos, ply) {
                return score;
            }
            // Mate distance pruning: no line here can beat a shorter mate found already.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return eval.evaluate(pos, self.mode);
            }
        }
        let key = pos.hash();
        let (tt_move, cutoff) = self.probe_table(key, depth, alpha, beta, ply, is_pv);
        if let Some(score) = cutoff {
            return score;
        }
        // Internal iterative reduction: with no move remembered from an earlier search,
        // a deep node is searched a ply shallower; the next iteration finds it again
        // with a hash move to try first.
        if tt_move.is_none() && depth >= IIR_MIN_DEPTH && self.options.techniques.reductions {
            depth -= 1;
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.static_eval(pos, eval, alpha, beta)
        };
        let node = Node {
            depth,
            ply,
            is_pv,
            in_check,
            static_eval,
        };
        if !is_pv
            && !in_check
            && ply > 0
            && let Some(score) = self.prune_node(pos, eval, node, beta, allow_null)
        {
            return score;
        }
        self.search_moves(pos, eval, node, alpha, beta, tt_move, key)
    }

    /// The exact score of a position an endgame table holds, `ply` plies from the root.
    #[inline]
    fn table_value(&self, pos: &Position, ply: usize) -> Option<i32> {
        self.tablebases
            .probe_full(pos)
            .map(|v| table_score(v, ply, self.stalemate_score))
    }

    /// The hash table's move for this position, and its score when that settles the
    /// node (deep enough, and a bound that holds; never at PV nodes or the root).
    fn probe_table(
        &self,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        is_pv: bool,
    ) -> (Option<Move>, Option<i32>) {
        let hit = self.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit
            && !is_pv
            && ply > 0
            && h.depth >= depth
        {
            let s = from_tt(h.score, ply);
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if usable {
                return (tt_move, Some(s));
            }
        }
        (tt_move, None)
    }

    /// Pruning before any move is tried, at non-PV nodes not in check: reverse
    /// futility and the null move. A score when the node can be cut off.
    fn prune_node(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        node: Node,
        beta: i32,
        allow_null: bool,
    ) -> Option<i32> {
        let techniques = self.options.techniques;
        let Node {
            depth,
            ply,
            static_eval,
            ..
        } = node;
        // Reverse futility: far above beta near the leaves, assume it holds.
        if techniques.futility
            && depth <= REVERSE_FUTILITY_DEPTH
            && static_eval - REVERSE_FUTILITY_MARGIN * depth >= beta
            && beta.abs() < MATE_BOUND
        {
            return Some(static_eval);
        }
        // Null move: if passing still fails high, a real move will too. Not when
        // only pawns are left, where passing may be the best move (zugzwang).
        if techniques.null_move
            && allow_null
            && pos.phase() == Phase::Play
            && depth >= NULL_MOVE_MIN_DEPTH
            && static_eval >= beta
            && eval.piece_material(pos, pos.turn()) > 0
        {
            let r = null_move_reduction(depth);
            pos.make_null_move();
            let s = -self.negamax(
                pos,
                eval,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                false,
            );
            pos.unmake_null_move();
            if self.stopped {
                return Some(0);
            }
            if s >= beta {
                return Some(if s >= MATE_BOUND { beta } else { s });
            }
        }
        None
    }

    /// Tries the node's moves in order and returns the best score; stores it in the
    /// hash table.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        node: Node,
        mut alpha: i32,
        beta: i32,
        tt_move: Option<Move>,
        key: u64,
    ) -> i32 {
        let Node { depth, ply, .. } = node;
        let us = pos.turn();
        let legality = pos.legality();
        let mut staged = std::mem::take(&mut self.staged[ply]);
        let previous = pos.last_move();
        let counter = previous.and_then(|p| self.counters[history_index((!us).index(), p)]);
        let [k0, k1] = self.killers[ply];
        staged.start(tt_move, [k0, k1, counter]);
        self.tried[ply].clear();
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        // Moves given so far: the index of the current one.
        let mut i = 0;
        while let Some((mv, source)) = staged.next(pos, &legality, eval, |m| {
            self.history[history_index(us.index(), m)]
        }) {
            if ply == 0 {
                if !self.root_allows(mv) {
                    continue;
                }
                self.report_root_move(depth, mv, i + 1);
            }
            i += 1;
            let mut tried = Tried {
                searched: i - 1,
                quiet: !pos.is_capture(mv) && mv.promotion().is_none(),
                refutation: source == Source::Refutation,
                gives_check: false,
            };
            let prunable = self.is_prunable(node, tried, best);
            if prunable
                && node.depth <= MOVE_COUNT_DEPTH
                && tried.searched >= move_count_limit(node.depth)
            {
                continue;
            }
            pos.make_move(mv);
            tried.gives_check = pos.in_check();
            if prunable
                && !tried.gives_check
                && depth <= FUTILITY_DEPTH
                && node.static_eval + FUTILITY_MARGIN * depth <= alpha
            {
                pos.unmake_move();
                continue;
            }
            let s = self.search_move(pos, eval, node, tried, alpha, beta);
            pos.unmake_move();
            if self.stopped {
                self.staged[ply] = staged;
                return 0;
            }
            if tried.quiet && s < beta {
                self.tried[ply].push(mv);
            }
            if s > best {
                best = s;
                best_move = Some(mv);
                if s > alpha {
                    alpha = s;
                    self.extend_pv(ply, mv);
                    if s >= beta {
                        if tried.quiet {
                            self.reward_quiet(us, mv, previous, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.staged[ply] = staged;
        if i == 0 {
            return if node.in_check {
                -MATE + ply as i32
            } else {
                self.stalemate_score
            };
        }
        self.store(key, best, best_move, original_alpha, beta, depth, ply);
        best
    }

    /// Late quiet moves near the leaves of non-PV nodes are rarely good: after enough
    /// of them, skip the rest (move-count pruning), and skip any that cannot lift a
    /// hopeless static score to alpha (futility pruning).
    #[inline]
    fn is_prunable(&self, node: Node, tried: Tried, best: i32) -> bool {
        self.options.techniques.futility
            && !node.is_pv
            && !node.in_check
            && tried.quiet
            && !tried.refutation
            && tried.searched > 0
            && best > -MATE_BOUND
    }

    /// The score of a move already made on `pos`: the first move with the full window,
    /// the others with a null window first (reduced for late quiet moves), searched
    /// again deeper and wider only when they may beat alpha.
    #[inline]
    fn search_move(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        node: Node,
        tried: Tried,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let depth = node.depth;
        let child = |this: &mut Self, pos: &mut Position, depth: i32, alpha: i32, beta: i32| {
            -this.negamax(
                pos,
                eval,
                depth,
                -beta,
                -alpha,
                node.ply + 1,
                true,
                tried.gives_check,
            )
        };
        if tried.searched == 0 {
            return child(self, pos, depth - 1, alpha, beta);
        }
        let r = self.reduction(node, tried, alpha);
        let mut s = child(self, pos, depth - 1 - r, alpha, alpha + 1);
        if s > alpha && r > 0 {
            s = child(self, pos, depth - 1, alpha, alpha + 1);
        }
        if s > alpha && s < beta {
            s = child(self, pos, depth - 1, alpha, beta);
        }
        s
    }

    /// Late-move reduction of a quiet move: none once a mate is in hand, where the
    /// search is after a shorter one whose first move is often a quiet one late in the
    /// order (a king step that takes squares away).
    #[inline]
    fn reduction(&self, node: Node, tried: Tried, alpha: i32) -> i32 {
        let Node {
            depth,
            is_pv,
            in_check,
            ..
        } = node;
        if !(self.options.techniques.reductions
            && depth >= LMR_MIN_DEPTH
            && tried.searched >= LMR_MIN_MOVES
            && tried.quiet
            && !in_check
            && !tried.gives_check
            && alpha.abs() < MATE_BOUND)
        {
            return 0;
        }
        let mut r = self.lmr[(depth as usize).min(63)][tried.searched.min(63)] as i32;
        if is_pv {
            r -= 1;
        }
        if tried.refutation {
            r -= 1;
        }
        r.clamp(0, depth - 2)
    }

    /// The line through `mv` becomes the principal variation at `ply`.
    #[inline]
    fn extend_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Keeps the node's result in the hash table, with the bound it is.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        key: u64,
        best: i32,
        best_move: Option<Move>,
        original_alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched without some of its moves has no score of its own to keep.
        if ply > 0 || !self.root_restricted() {
            self.tt
                .store(key, best_move, to_tt(best, ply), depth, bound);
        }
    }

    pub(super) fn quiesce(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        known_check: Option<bool>,
    ) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return eval.evaluate(pos, self.mode);
        }
        if ply > 0
            && let Some(score) = self.table_value(pos, ply)
        {
            return score;
        }
        let in_check = known_check.unwrap_or_else(|| pos.in_check());
        let stand_pat = if in_check {
            -INFINITY
        } else {
            self.static_eval(pos, eval, alpha, beta)
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);

        let mut moves = std::mem::take(&mut self.lists[ply]);
        if in_check {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                self.lists[ply] = moves;
                return -MATE + ply as i32;
            }
        } else {
            pos.legal_noisy_moves_into(&mut moves);
        }
        let mut order = std::mem::take(&mut self.orders[ply]);
        self.score_moves(pos, eval, &moves, &mut order, ply);
        let mut best = stand_pat;
        for i in 0..moves.len() {
            let (mv, score) = if in_check {
                order.next(i, &moves, pos, eval)
            } else {
                order.pick(i, &moves)
            };
            if !in_check && mv.promotion().is_none() {
                // Delta pruning: even winning this piece cannot lift the score to alpha.
                let gain = pos.piece_at(mv.to()).map_or(100, |p| eval.value(p.kind));
                if stand_pat + gain + DELTA_MARGIN < alpha {
                    continue;
                }
                // A capture that loses material in the exchange is not worth a look.
                if order::unsettled(score) && see(pos, eval, mv) < 0 {
                    continue;
                }
            } else if in_check
                && best > -MATE_BOUND
                && mv.promotion().is_none()
                && !pos.is_capture(mv)
            {
                // Evasion pruning: once one move escapes, the other quiet evasions are
                // not looked at. Checks met by every evasion, each opening more captures
                // and checks, otherwise make quiescence explode with an open window
                // (millions of nodes from one tangled middlegame position).
                continue;
            }
            pos.make_move(mv);
            let s = -self.quiesce(pos, eval, -beta, -alpha, ply + 1, None);
            pos.unmake_move();
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.orders[ply] = order;
        best
    }

    /// The evaluation, from the cache when this position was fully evaluated before,
    /// plus the level's noise if it has one (the cache keeps the evaluation without it).
    fn static_eval(&mut self, pos: &Position, eval: &Evaluator, alpha: i32, beta: i32) -> i32 {
        let key = pos.hash();
        let noise = self
            .noise
            .map_or(0, |(seed, reach)| noise(key ^ seed, reach));
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key {
            return slot.1 + noise;
        }
        let (score, exact) = eval.evaluate_lazy(pos, self.mode, alpha, beta);
        if exact {
            *slot = (key, score);
        }
        score + noise
    }

    /// Draws the search recognises: repetition (once is enough inside the tree), the
    /// move rule and bare royals. Not when the side to move has no move: a mate or
    /// stalemate counts as such even on the 100th quiet ply or on a repetition
    /// (docs/rules.md §5.4), and the node's move loop scores it.
    fn is_draw(&self, pos: &Position) -> bool {
        let draws = pos.rules().draw_rules();
        let by_rule = (draws.move_rule_plies > 0 && pos.halfmove_clock() >= draws.move_rule_plies)
            || (draws.bare_royals && pos.only_royals_left())
            || (draws.repetitions > 0 && {
                let h = pos.hash();
                pos.reversible_history()
                    .skip(1)
                    .step_by(2)
                    .any(|old| old == h)
            });
        by_rule && !pos.legal_moves().is_empty()
    }

    /// Orders a quiescence node's moves: captures and promotions by MVV-LVA, and when
    /// it is in check, the quiet evasions by killers and history.
    fn score_moves(
        &self,
        pos: &Position,
        eval: &Evaluator,
        moves: &[Move],
        order: &mut MoveOrder,
        ply: usize,
    ) {
        order.clear();
        let side = pos.turn().index();
        for (i, &m) in moves.iter().enumerate() {
            let s = if pos.is_capture(m) || m.promotion().is_some() {
                order::noisy_score(pos, eval, m)
            } else if self.killers[ply][0] == Some(m) {
                KILLERS[0]
            } else if self.killers[ply][1] == Some(m) {
                KILLERS[1]
            } else {
                self.history[history_index(side, m)]
            };
            order.push(i, s);
        }
    }

    /// A quiet move cut off: it becomes a killer, the countermove of the move before it
    /// (`previous`) and gains history, and the quiet moves searched before it in vain at
    /// this node lose as much.
    fn reward_quiet(
        &mut self,
        side: Side,
        mv: Move,
        previous: Option<Move>,
        depth: i32,
        ply: usize,
    ) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        if let Some(p) = previous {
            self.counters[history_index((!side).index(), p)] = Some(mv);
        }
        let bonus = history_bonus(depth);
        nudge(&mut self.history[history_index(side.index(), mv)], bonus);
        for &m in &self.tried[ply] {
            nudge(&mut self.history[history_index(side.index(), m)], -bonus);
        }
    }
}

/// Moves a history score by `bonus`, less the closer it already is to the bound on that
/// side, so that scores stay bounded and recent results outweigh old ones.
#[inline]
pub(super) fn nudge(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// A number in `-reach..=reach` that looks random but is the same for the same `key`,
/// so that a position keeps its noise wherever the search meets it (the hash table's
/// scores stay consistent within a search).
pub(super) fn noise(key: u64, reach: i32) -> i32 {
    let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    (mixed % (2 * reach as u64 + 1)) as i32 - reach
}

#[inline]
fn history_index(side: usize, m: Move) -> usize {
    (side * MAX_CELLS + m.from().index()) * MAX_CELLS + m.to().index()
}

/// Mate scores are stored relative to the node, so they stay right at any ply.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
