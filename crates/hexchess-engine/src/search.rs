//! Alpha-beta search: iterative deepening with aspiration windows, principal variation
//! search, a transposition table, quiescence search, check extension, null-move pruning,
//! late-move reductions, killer, countermove and history ordering, and draw detection
//! in the tree.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rand::Rng;

use super::eval::{EvalMode, EvalWeights, Evaluator};
use super::order::{self, KILLERS, MoveOrder, Source, StagedMoves};
use super::see::see;
use super::skill::Handicap;
use super::time::{Deadlines, SearchLimits};
use super::tt::{Bound, TranspositionTable};
use super::{Score, SearchInfo, SearchOptions, SearchResult};
use hexchess_core::MAX_CELLS;
use hexchess_core::moves::{Move, MoveList};
use hexchess_core::piece::Side;
use hexchess_core::position::Position;
use hexchess_core::rules::Rules;

/// Deepest ply the search reaches (tables are sized by it).
pub const MAX_PLY: usize = 128;
/// The score of mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
const INFINITY: i32 = MATE + 1;

/// Entries in the evaluation cache (a power of two). Small enough to stay in the
/// processor's second-level cache: with 65,536 entries (1 MB) most lookups missed it and
/// waited on memory, and the search ran 12% slower (10 paired `bench` runs).
const EVAL_CACHE_SIZE: usize = 1 << 12;

/// Nodes between checks of the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// Most threads a search uses.
pub const MAX_THREADS: usize = 64;

/// Most lines a search reports (`SearchOptions::multi_pv`).
pub const MAX_MULTI_PV: usize = 64;

/// Stack of each helper thread, as for the protocol's search thread: the search recurses
/// up to [`MAX_PLY`] deep.
const HELPER_STACK: usize = 64 * 1024 * 1024;

/// A reusable searcher: its hash table and ordering statistics persist between moves.
///
/// With more than one thread (`SearchOptions::threads`) it searches "lazy SMP": helper
/// searchers, each with its own ordering statistics, run the same iterative deepening
/// on their own threads, half of them a ply ahead, and share only the hash table. What
/// they learn reaches the main search through the table (cutoffs, moves to try first)
/// while the main search alone decides the move and reports; the helpers stop when it
/// does.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    /// Helper searchers for a multi-threaded search, kept between searches.
    helpers: Vec<Searcher>,
    /// Nodes the helpers of the running search have counted so far (they add to it
    /// as they go, so the main search's reports include them).
    helper_nodes: Arc<AtomicU64>,
    /// For a helper: its number (1, 2, ...); 0 for the main search.
    helper_id: usize,
    /// Root moves left out of the current search: the first moves of the better lines
    /// already found at this depth, when several lines are searched.
    excluded: Vec<Move>,
    /// The evaluator and the rules and weights it was built from (the same `Arc`: a
    /// variant reloaded under the same id, with other pieces perhaps, gets a new
    /// evaluator).
    eval: Option<(Arc<Rules>, EvalWeights, Arc<Evaluator>)>,
    options: SearchOptions,
    history: Vec<i32>,
    /// `[side][from][to]` of a move: the quiet move that last refuted it.
    counters: Vec<Option<Move>>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    lists: Vec<MoveList>,
    orders: Vec<MoveOrder>,
    staged: Vec<StagedMoves>,
    /// Per ply: the quiet moves searched so far at the node, which lose history if a
    /// later quiet move cuts off.
    tried: Vec<Vec<Move>>,
    pv: Vec<Vec<Move>>,
    lmr: [[u8; 64]; 64],
    /// Full evaluations by position hash; cleared with the mode or variant.
    eval_cache: Vec<(u64, i32)>,
    // Per search:
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    started: Instant,
    deadlines: Deadlines,
    node_limit: Option<u64>,
    stalemate_score: i32,
    /// At a level with a noisy evaluation: this search's seed and the noise's reach.
    noise: Option<(u64, i32)>,
    mode: EvalMode,
    stop: Arc<AtomicBool>,
}

impl Searcher {
    pub fn new(options: SearchOptions) -> Searcher {
        Searcher::with_table(options, Arc::new(TranspositionTable::new(options.hash_mb)))
    }

    /// A searcher using the hash table `tt` (shared with the searcher it helps).
    fn with_table(options: SearchOptions, tt: Arc<TranspositionTable>) -> Searcher {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Searcher {
            tt,
            helpers: Vec::new(),
            helper_nodes: Arc::new(AtomicU64::new(0)),
            helper_id: 0,
            excluded: Vec::new(),
            eval: None,
            options,
            history: vec![0; 2 * MAX_CELLS * MAX_CELLS],
            counters: vec![None; 2 * MAX_CELLS * MAX_CELLS],
            killers: [[None; 2]; MAX_PLY + 1],
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            orders: (0..=MAX_PLY).map(|_| MoveOrder::default()).collect(),
            staged: (0..=MAX_PLY).map(|_| StagedMoves::default()).collect(),
            tried: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            lmr,
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            started: Instant::now(),
            deadlines: Deadlines::default(),
            node_limit: None,
            stalemate_score: 0,
            noise: None,
            mode: EvalMode::FULL,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes options; a new hash size reallocates the table.
    pub fn set_options(&mut self, options: SearchOptions) {
        if options.hash_mb != self.options.hash_mb {
            self.tt = Arc::new(TranspositionTable::new(options.hash_mb));
            // Helpers share the old table: they are made again when next needed.
            self.helpers.clear();
        }
        for h in &mut self.helpers {
            h.options = options;
        }
        self.options = options;
    }

    /// Size of the hash table in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        for h in &mut self.helpers {
            h.clear();
        }
        self.tt.clear();
        self.eval_cache.fill((0, 0));
        self.history.fill(0);
        self.counters.fill(None);
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// The evaluator for a position's variant, built once per variant and weights.
    pub fn evaluator(&mut self, pos: &Position) -> Arc<Evaluator> {
        let weights = self.options.weights;
        match &self.eval {
            Some((rules, w, e)) if Arc::ptr_eq(rules, pos.rules_arc()) && *w == weights => {
                Arc::clone(e)
            }
            _ => {
                self.eval_cache.fill((0, 0));
                let e = Arc::new(Evaluator::with_weights(pos.rules(), &weights));
                self.eval = Some((Arc::clone(pos.rules_arc()), weights, Arc::clone(&e)));
                e
            }
        }
    }

    /// Searches `pos` within `limits`, calling `report` after each completed depth.
    /// Returns the best move (none only when the side to move has no legal move).
    pub fn search(
        &mut self,
        pos: &mut Position,
        limits: &SearchLimits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let eval = self.evaluator(pos);
        // The position keeps the evaluation's material and placement summed while the
        // search moves through it.
        eval.attach(pos);
        self.tt.new_search();
        self.helper_nodes.store(0, Ordering::Relaxed);
        // A level below full strength searches alone: its handicap (and the draw
        // among root moves) is calibrated for one thread.
        let helpers = if self.options.skill.handicap().is_some() {
            0
        } else {
            self.options.threads.clamp(1, MAX_THREADS) - 1
        };
        let result = if helpers == 0 {
            self.search_attached(pos, &eval, limits, stop, report)
        } else {
            self.search_with_helpers(pos, &eval, limits, stop, report, helpers)
        };
        pos.detach_table();
        result
    }

    /// The main search on this thread and `count` helpers on their own, until the main
    /// search ends.
    fn search_with_helpers(
        &mut self,
        pos: &mut Position,
        eval: &Arc<Evaluator>,
        limits: &SearchLimits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchInfo),
        count: usize,
    ) -> SearchResult {
        self.helpers.truncate(count);
        while self.helpers.len() < count {
            let mut h = Searcher::with_table(self.options, Arc::clone(&self.tt));
            h.helper_id = self.helpers.len() + 1;
            h.helper_nodes = Arc::clone(&self.helper_nodes);
            self.helpers.push(h);
        }
        let halt = Arc::new(AtomicBool::new(false));
        let mut helpers = std::mem::take(&mut self.helpers);
        let mut running = 0;
        let mut result = std::thread::scope(|scope| {
            for h in helpers.iter_mut() {
                let mut p = pos.clone();
                let (halt, eval) = (&halt, Arc::clone(eval));
                let spawned = std::thread::Builder::new()
                    .name(format!("hexchess-helper-{}", h.helper_id))
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        h.evaluator_from(&eval, &p);
                        h.search_attached(&mut p, &eval, limits, halt, &mut |_| {})
                    });
                // Without a thread for it, a helper is simply not there.
                if spawned.is_err() {
                    break;
                }
                running += 1;
            }
            let result = self.search_attached(pos, eval, limits, stop, report);
            halt.store(true, Ordering::Relaxed);
            result
        });
        result.nodes += helpers[..running].iter().map(|h| h.nodes).sum::<u64>();
        self.helpers = helpers;
        result
    }

    /// Takes `eval` (the main search's evaluator for `pos`'s variant) as this helper's.
    fn evaluator_from(&mut self, eval: &Arc<Evaluator>, pos: &Position) {
        let same = matches!(&self.eval, Some((_, _, e)) if Arc::ptr_eq(e, eval));
        if !same {
            self.eval_cache.fill((0, 0));
            self.eval = Some((
                Arc::clone(pos.rules_arc()),
                self.options.weights,
                Arc::clone(eval),
            ));
        }
    }

    fn search_attached(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        limits: &SearchLimits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.stop = Arc::clone(stop);
        self.started = Instant::now();
        self.deadlines = limits.deadlines(pos.turn());
        self.node_limit = if self.helper_id > 0 {
            None
        } else {
            limits.nodes
        };
        self.nodes = 0;
        self.stopped = false;
        if self.mode != self.options.eval {
            self.eval_cache.fill((0, 0));
        }
        self.mode = self.options.eval;
        self.killers = [[None; 2]; MAX_PLY + 1];
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        self.stalemate_score = stalemate_value(pos);

        let root_moves = pos.legal_moves();
        if root_moves.is_empty() {
            let score = if pos.in_check() {
                -MATE
            } else {
                self.stalemate_score
            };
            return SearchResult {
                best: None,
                score: Score::from_internal(score),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }

        let handicap = self.options.skill.handicap();
        self.noise = handicap
            .filter(|h| h.noise > 0)
            .map(|h| (rand::rng().random::<u64>(), h.noise as i32));
        // A helper goes on past a `go depth` until the main search halts it: it only
        // feeds the table, and idle it would leave its core unused.
        let depth_limit = if self.helper_id > 0 {
            None
        } else {
            limits.depth
        };
        let max_depth = [
            depth_limit,
            self.options.max_depth,
            handicap.map(|h| h.depth),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1) as i32;

        let root_in_check = pos.in_check();
        let mut best = root_moves[0];
        let mut best_score = -INFINITY;
        let mut best_pv = vec![best];
        let mut completed = 0;
        let mut score: i32 = 0;
        // Several lines only at full strength, and only the main search reports them.
        let lines = if handicap.is_some() || self.helper_id > 0 {
            1
        } else {
            self.options
                .multi_pv
                .clamp(1, MAX_MULTI_PV)
                .min(root_moves.len())
        };
        let mut line_scores = vec![0; lines];
        for iteration in 1..=max_depth {
            // Half the helpers run a ply ahead of the main search, so that the threads
            // do not all fill in the same entries at once.
            let depth = (iteration + (self.helper_id % 2) as i32).min(max_depth);
            self.seldepth = 0;
            self.excluded.clear();
            let s = self.aspiration_search(pos, eval, depth, score, root_in_check);
            if self.stopped {
                // A partial iteration still names a move that was searched to the end
                // and raised the root's alpha: at least as good as the last best.
                if let Some(&m) = self.pv[0].first() {
                    best = m;
                    best_pv = self.pv[0].clone();
                }
                break;
            }
            score = s;
            if let Some(&m) = self.pv[0].first() {
                best = m;
                best_pv = self.pv[0].clone();
            }
            best_score = score;
            completed = depth;
            if lines == 1 {
                report(&self.info(depth, score, &best_pv));
            } else {
                // The other lines, then all of them best first: a line searched later
                // (with more in the hash table) may come out better than the first.
                let mut found = vec![(score, best_pv.clone())];
                self.search_more_lines(pos, eval, depth, &line_scores, root_in_check, &mut found);
                found.sort_by_key(|line| std::cmp::Reverse(line.0));
                for (k, (s, pv)) in found.iter().enumerate() {
                    line_scores[k] = *s;
                    let mut info = self.info(depth, *s, pv);
                    info.multipv = Some(k as u32 + 1);
                    report(&info);
                }
                (best_score, best_pv) = found.swap_remove(0);
                best = best_pv[0];
                score = best_score;
                if self.stopped {
                    break;
                }
            }
            // A mate within the searched depth will not be improved by going deeper.
            let mate_found = score.abs() >= MATE_BOUND && MATE - score.abs() < depth;
            if mate_found && limits.depth.is_none() {
                break;
            }
            if stop.load(Ordering::Relaxed) || self.deadlines.soft_passed(self.started) {
                break;
            }
            if let Some(n) = self.node_limit
                && self.nodes >= n
            {
                break;
            }
        }
        if best_score == -INFINITY {
            best_score = score;
        }

        if let Some(handicap) = handicap
            && handicap.temperature > 0
            && root_moves.len() > 1
        {
            let depth = completed.max(1);
            best = self.pick_by_skill(pos, eval, &root_moves, best, best_score, depth, handicap);
            if best_pv.first() != Some(&best) {
                best_pv = vec![best];
            }
        }
        SearchResult {
            best: Some(best),
            score: Score::from_internal(best_score),
            depth: completed as u32,
            nodes: self.nodes,
            pv: best_pv,
        }
    }

    /// One search of the root at `depth`, in an aspiration window around `center` (the
    /// last iteration's score) widened until the score falls inside. The result means
    /// nothing if the search was stopped.
    fn aspiration_search(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        depth: i32,
        center: i32,
        root_in_check: bool,
    ) -> i32 {
        let mut delta = 35;
        let aspiration = self.options.techniques.aspiration;
        let (mut alpha, mut beta) = if aspiration && depth >= 4 && center.abs() < MATE_BOUND {
            (center - delta, center + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let s = self.negamax(pos, eval, depth, alpha, beta, 0, true, root_in_check);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INFINITY);
            } else if s >= beta {
                beta = (s + delta).min(INFINITY);
            } else {
                return s;
            }
            delta += delta / 2 + 10;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// After the best line at `depth` (the first of `found`): the next best lines, each
    /// a search of the root without the first moves of the lines before it, around the
    /// last iteration's score of its rank. Each completed line is added to `found`.
    fn search_more_lines(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        depth: i32,
        line_scores: &[i32],
        root_in_check: bool,
        found: &mut Vec<(i32, Vec<Move>)>,
    ) {
        self.excluded.clear();
        self.excluded
            .extend(found.iter().filter_map(|line| line.1.first().copied()));
        for &center in &line_scores[1..] {
            let s = self.aspiration_search(pos, eval, depth, center, root_in_check);
            if self.stopped {
                break;
            }
            let Some(&first) = self.pv[0].first() else {
                break;
            };
            found.push((s, self.pv[0].clone()));
            self.excluded.push(first);
        }
        self.excluded.clear();
    }

    fn info(&self, depth: i32, score: i32, pv: &[Move]) -> SearchInfo {
        let elapsed = self.started.elapsed();
        let ms = elapsed.as_millis() as u64;
        let nodes = self.nodes + self.helper_nodes.load(Ordering::Relaxed);
        SearchInfo {
            depth: depth as u32,
            seldepth: self.seldepth as u32,
            score: Score::from_internal(score),
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            time_ms: ms,
            hashfull: self.tt.hashfull(),
            pv: pv.to_vec(),
            multipv: None,
        }
    }

    /// At reduced strength: scores every root move at the completed depth and draws one,
    /// better moves more likely, as the level's [`Handicap`] says.
    ///
    /// Only moves within the handicap's [`Handicap::reach`] of the best take part, so the
    /// searches stay in a narrow window around the best score: with an open window
    /// quiescence must resolve every capture sequence exactly, which took seconds even at
    /// depth 1 in a tangled middlegame. The search's deadlines still hold: when time
    /// runs out the draw is among the moves scored so far, the best one first.
    #[allow(clippy::too_many_arguments)]
    fn pick_by_skill(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        moves: &[Move],
        best: Move,
        best_score: i32,
        depth: i32,
        handicap: Handicap,
    ) -> Move {
        let temperature = f64::from(handicap.temperature.max(1));
        let reach = handicap.reach();
        let floor = (best_score - reach).max(-INFINITY);
        let ceiling = (best_score + reach).min(INFINITY);
        self.stopped = false;
        self.node_limit = None;
        let mut scored = Vec::with_capacity(moves.len());
        for m in std::iter::once(best).chain(moves.iter().copied().filter(|&m| m != best)) {
            pos.make_move(m);
            let check = pos.in_check();
            let s = -self.negamax(pos, eval, depth - 1, -ceiling, -floor, 1, true, check);
            pos.unmake_move();
            if self.stopped {
                break;
            }
            if s > floor || m == best {
                scored.push((m, s.clamp(floor, ceiling)));
            }
        }
        let Some(top) = scored.iter().map(|x| x.1).max() else {
            return best;
        };
        let weights: Vec<f64> = scored
            .iter()
            .map(|(_, s)| (f64::from(*s - top) / temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut pick = rand::rng().random_range(0.0..total);
        for (i, w) in weights.iter().enumerate() {
            if pick < *w {
                return scored[i].0;
            }
            pick -= w;
        }
        scored[0].0
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.helper_id > 0 {
                self.helper_nodes.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            }
            if self.deadlines.hard_passed(self.started) || self.stop_flag() {
                self.stopped = true;
            }
            if let Some(n) = self.node_limit
                && self.nodes >= n
            {
                self.stopped = true;
            }
        }
    }

    fn stop_flag(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
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
        let techniques = self.options.techniques;
        if in_check && techniques.check_extension {
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
                return s;
            }
        }

        // Internal iterative reduction: with no move remembered from an earlier search,
        // a deep node is searched a ply shallower; the next iteration finds it again
        // with a hash move to try first.
        if tt_move.is_none() && depth >= 4 && self.options.techniques.reductions {
            depth -= 1;
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            self.static_eval(pos, eval, alpha, beta)
        };
        let us = pos.turn();

        if !is_pv && !in_check && ply > 0 {
            // Reverse futility: far above beta near the leaves, assume it holds.
            if techniques.futility
                && depth <= 3
                && static_eval - 110 * depth >= beta
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move will too. Not when
            // only pawns are left, where passing may be the best move (zugzwang).
            if techniques.null_move
                && allow_null
                && depth >= 3
                && static_eval >= beta
                && eval.piece_material(pos, us) > 0
            {
                let r = 3 + depth / 4;
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
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

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
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            i += 1;
            let searched = i - 1;
            let quiet = !pos.is_capture(mv) && mv.promotion().is_none();
            let refutation = source == Source::Refutation;
            // Late quiet moves near the leaves of non-PV nodes are rarely good: after
            // enough of them, skip the rest (move-count pruning), and skip any that
            // cannot lift a hopeless static score to alpha (futility pruning).
            let prunable = techniques.futility
                && !is_pv
                && !in_check
                && quiet
                && !refutation
                && searched > 0
                && best > -MATE_BOUND;
            if prunable && depth <= 3 && searched >= 4 + 3 * (depth * depth) as usize {
                continue;
            }
            pos.make_move(mv);
            let gives_check = pos.in_check();
            if prunable && !gives_check && depth <= 2 && static_eval + 160 * depth <= alpha {
                pos.unmake_move();
                continue;
            }
            // The child's score, searched `depth` deep within the window `alpha..beta`.
            let child = |this: &mut Self, pos: &mut Position, depth: i32, alpha: i32, beta: i32| {
                -this.negamax(pos, eval, depth, -beta, -alpha, ply + 1, true, gives_check)
            };
            let mut s;
            if searched == 0 {
                s = child(self, pos, depth - 1, alpha, beta);
            } else {
                let mut r = 0;
                // Not once a mate is in hand: then the search is after a shorter one,
                // and its first move is often a quiet one late in the order (a king
                // step that takes squares away).
                if techniques.reductions
                    && depth >= 3
                    && searched >= 3
                    && quiet
                    && !in_check
                    && !gives_check
                    && alpha.abs() < MATE_BOUND
                {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    if is_pv {
                        r -= 1;
                    }
                    if refutation {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 2);
                }
                // A null window first, reduced for late quiet moves; the full depth and
                // window only when the move may beat alpha.
                s = child(self, pos, depth - 1 - r, alpha, alpha + 1);
                if s > alpha && r > 0 {
                    s = child(self, pos, depth - 1, alpha, alpha + 1);
                }
                if s > alpha && s < beta {
                    s = child(self, pos, depth - 1, alpha, beta);
                }
            }
            pos.unmake_move();
            if self.stopped {
                self.staged[ply] = staged;
                return 0;
            }
            if quiet && s < beta {
                self.tried[ply].push(mv);
            }
            if s > best {
                best = s;
                best_move = Some(mv);
                if s > alpha {
                    alpha = s;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if s >= beta {
                        if quiet {
                            self.reward_quiet(us, mv, previous, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.staged[ply] = staged;
        if i == 0 {
            return if in_check {
                -MATE + ply as i32
            } else {
                self.stalemate_score
            };
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched without some of its moves has no score of its own to keep.
        if ply > 0 || self.excluded.is_empty() {
            self.tt
                .store(key, best_move, to_tt(best, ply), depth, bound);
        }
        best
    }

    fn quiesce(
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
                if stand_pat + gain + 200 < alpha {
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
    /// move rule and bare royals.
    fn is_draw(&self, pos: &Position) -> bool {
        let draws = pos.rules().draw_rules();
        if draws.move_rule_plies > 0 && pos.halfmove_clock() >= draws.move_rule_plies {
            return true;
        }
        if draws.bare_royals && pos.only_royals_left() {
            return true;
        }
        if draws.repetitions > 0 {
            let h = pos.hash();
            if pos
                .reversible_history()
                .skip(1)
                .step_by(2)
                .any(|old| old == h)
            {
                return true;
            }
        }
        false
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
        let bonus = (depth * depth * 16).min(HISTORY_MAX / 8);
        nudge(&mut self.history[history_index(side.index(), mv)], bonus);
        for &m in &self.tried[ply] {
            nudge(&mut self.history[history_index(side.index(), m)], -bonus);
        }
    }
}

/// History scores stay within `-HISTORY_MAX..=HISTORY_MAX`, below the killers' order.
const HISTORY_MAX: i32 = 16_384;

/// Moves a history score by `bonus`, less the closer it already is to the bound on that
/// side, so that scores stay bounded and recent results outweigh old ones.
#[inline]
fn nudge(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// A number in `-reach..=reach` that looks random but is the same for the same `key`,
/// so that a position keeps its noise wherever the search meets it (the hash table's
/// scores stay consistent within a search).
fn noise(key: u64, reach: i32) -> i32 {
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

/// The search value of being stalemated, from the variant's score: the points the
/// stalemated side gets, turned into centipawns the way expected score relates to an
/// advantage (a 1/4 share is worth about -190).
fn stalemate_value(pos: &Position) -> i32 {
    let p = pos.rules().stalemate().stalemated.millis() as f64 / 1000.0;
    if p <= 0.0 {
        return -MATE_BOUND + 1;
    }
    if p >= 1.0 {
        return MATE_BOUND - 1;
    }
    (400.0 * (p / (1.0 - p)).log10()).round() as i32
}

#[cfg(test)]
mod tests {
    use super::{HISTORY_MAX, noise, nudge};

    #[test]
    fn evaluation_noise_stays_within_its_reach_and_spreads_over_it() {
        let reach = 25;
        let mut seen = vec![0u32; 2 * reach as usize + 1];
        let mut key = 0x1234_5678_9abc_def0u64;
        for _ in 0..20_000 {
            key = key.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let n = noise(key, reach);
            assert!((-reach..=reach).contains(&n), "{n}");
            assert_eq!(noise(key, reach), n, "the same position, the same noise");
            seen[(n + reach) as usize] += 1;
        }
        // 20,000 draws over 51 values: about 392 each.
        assert!(seen.iter().all(|&c| (250..550).contains(&c)), "{seen:?}");
    }

    #[test]
    fn history_nudges_stay_bounded_and_follow_recent_results() {
        let bonus = HISTORY_MAX / 8;
        let mut h = 0;
        for _ in 0..1_000 {
            nudge(&mut h, bonus);
            assert!(h <= HISTORY_MAX, "{h}");
        }
        assert!(
            h > HISTORY_MAX * 9 / 10,
            "a move that keeps cutting off nears the top: {h}"
        );
        // A few failures bring a long-good move down fast: the closer to the bound,
        // the larger a step against it.
        let before = h;
        nudge(&mut h, -bonus);
        assert!(before - h > bonus, "{before} -> {h}");
        for _ in 0..1_000 {
            nudge(&mut h, -bonus);
            assert!(h >= -HISTORY_MAX, "{h}");
        }
        assert!(h < -HISTORY_MAX * 9 / 10, "{h}");
    }

    #[test]
    fn helpers_search_alongside_the_main_search_and_their_nodes_count() {
        use super::{SearchLimits, SearchOptions, Searcher};
        use crate::Skill;
        use hexchess_core::position::Position;
        use hexchess_core::rules::Rules;
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;

        let rules = Arc::new(
            Rules::new(&hexchess_core::variant::builtin("glinski").unwrap().unwrap()).unwrap(),
        );
        let stop = Arc::new(AtomicBool::new(false));
        let options = SearchOptions {
            hash_mb: 8,
            threads: 3,
            ..SearchOptions::default()
        };
        let mut s = Searcher::new(options);
        let mut pos = Position::start(Arc::clone(&rules));
        let r = s.search(&mut pos, &SearchLimits::depth(8), &stop, &mut |_| {});
        assert!(pos.legal_moves().contains(&r.best.unwrap()));
        assert_eq!(s.helpers.len(), 2);
        assert!(
            s.helpers.iter().all(|h| h.nodes > 0),
            "every helper searched"
        );
        let helpers: u64 = s.helpers.iter().map(|h| h.nodes).sum();
        assert_eq!(r.nodes, s.nodes + helpers, "the result counts every thread");
        assert!(
            s.helpers.iter().all(|h| Arc::ptr_eq(&h.tt, &s.tt)),
            "one table"
        );

        // A level below full strength searches alone.
        s.set_options(SearchOptions {
            skill: Skill::new(12).unwrap(),
            ..options
        });
        let before: Vec<u64> = s.helpers.iter().map(|h| h.nodes).collect();
        let r = s.search(&mut pos, &SearchLimits::depth(8), &stop, &mut |_| {});
        assert_eq!(r.nodes, s.nodes);
        assert_eq!(
            before,
            s.helpers.iter().map(|h| h.nodes).collect::<Vec<_>>()
        );

        // A new table size gives the helpers the new table.
        s.set_options(SearchOptions {
            hash_mb: 4,
            ..options
        });
        s.search(&mut pos, &SearchLimits::depth(6), &stop, &mut |_| {});
        assert_eq!(s.helpers.len(), 2);
        assert!(
            s.helpers.iter().all(|h| Arc::ptr_eq(&h.tt, &s.tt)),
            "one table"
        );
    }
}
