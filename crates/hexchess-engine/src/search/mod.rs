//! Alpha-beta search: iterative deepening with aspiration windows, principal variation
//! search, a transposition table, quiescence search, check extension, null-move pruning,
//! late-move reductions, killer, countermove and history ordering, and draw detection
//! in the tree.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use web_time::Instant;

use rand::Rng;

mod node;
pub mod params;

use crate::endgame::{TableValue, Tablebases};
use crate::eval::{EvalMode, EvalWeights, Evaluator};
use crate::order::{MoveOrder, StagedMoves};
use crate::skill::Handicap;
use crate::time::{Deadlines, Ponder, SearchLimits};
use crate::tt::{HashError, TranspositionTable};
use crate::{Progress, ProgressSink, Score, ScoreBound, SearchInfo, SearchOptions, SearchResult};
use hexchess_core::MAX_CELLS;
use hexchess_core::moves::{Move, MoveList};
use hexchess_core::position::Position;
use hexchess_core::rules::Rules;
use hexchess_tablebase::Value;
use params::{
    ASPIRATION_GIVE_UP, ASPIRATION_GROWTH, ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW, HISTORY_AGEING,
    lmr_reduction,
};
#[cfg(test)]
use {node::noise, node::nudge, params::HISTORY_MAX};

/// Deepest ply the search reaches (tables are sized by it).
pub const MAX_PLY: usize = 128;
/// The score of mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
// No evaluation, with a level's noise and margins added, reads as a mate.
const _: () = assert!(crate::eval::MAX_EVAL + 5_000 < MATE_BOUND);
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
    /// The only root moves searched (`go searchmoves`); empty: every move.
    root_only: Vec<Move>,
    /// Where the main search tells what it is doing between depths (the protocol's
    /// currmove and bound lines); `None`: nowhere.
    progress: Option<ProgressSink>,
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
    /// A search on the opponent's time, whose deadlines count from its ponder hit.
    ponder: Option<Ponder>,
    node_limit: Option<u64>,
    stalemate_score: i32,
    /// Endgame tables the search reads (none by default).
    tablebases: Arc<Tablebases>,
    /// At a level with a noisy evaluation: this search's seed and the noise's reach.
    noise: Option<(u64, i32)>,
    mode: EvalMode,
    stop: Arc<AtomicBool>,
}

impl Searcher {
    /// A searcher with `options` and a fresh hash table of their size.
    pub fn new(options: SearchOptions) -> Searcher {
        Searcher::with_table(options, Arc::new(TranspositionTable::new(options.hash_mb)))
    }

    /// A searcher using the hash table `tt` (shared with the searcher it helps).
    fn with_table(options: SearchOptions, tt: Arc<TranspositionTable>) -> Searcher {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = lmr_reduction(d, m);
            }
        }
        Searcher {
            tt,
            helpers: Vec::new(),
            helper_nodes: Arc::new(AtomicU64::new(0)),
            helper_id: 0,
            excluded: Vec::new(),
            root_only: Vec::new(),
            progress: None,
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
            ponder: None,
            node_limit: None,
            stalemate_score: 0,
            tablebases: Arc::new(Tablebases::none()),
            noise: None,
            mode: EvalMode::FULL,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The options it searches with.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes options; a new hash size reallocates the table (a size the system
    /// refuses keeps the table there is, and its size in the options: see
    /// [`Searcher::set_hash`] for the reason).
    pub fn set_options(&mut self, mut options: SearchOptions) {
        if options.hash_mb != self.options.hash_mb && self.set_hash(options.hash_mb).is_err() {
            options.hash_mb = self.options.hash_mb;
        }
        for h in &mut self.helpers {
            h.options = options;
        }
        self.options = options;
    }

    /// A hash table of `mb` megabytes in place of the current one, or, when the system
    /// refuses that much, the current one kept and the reason.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), HashError> {
        if mb == self.options.hash_mb {
            return Ok(());
        }
        self.tt = Arc::new(TranspositionTable::try_new(mb)?);
        // Helpers share the old table: they are made again when next needed.
        self.helpers.clear();
        self.options.hash_mb = mb;
        Ok(())
    }

    /// Where the next searches tell their progress (`None`: nowhere). Only the main
    /// search reports; helpers never do.
    pub fn set_progress(&mut self, sink: Option<ProgressSink>) {
        self.progress = sink;
    }

    /// The endgame tables the next searches read.
    pub fn set_tablebases(&mut self, tables: Arc<Tablebases>) {
        for h in &mut self.helpers {
            h.tablebases = Arc::clone(&tables);
        }
        self.tablebases = tables;
    }

    /// Size of the hash table in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Brings every page of the hash table into memory now (see
    /// [`TranspositionTable::touch_all`]), for a timed search.
    pub fn touch_hash(&self) {
        self.tt.touch_all();
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
            h.tablebases = Arc::clone(&self.tablebases);
            self.helpers.push(h);
        }
        let halt = Arc::new(AtomicBool::new(false));
        let mut helpers = std::mem::take(&mut self.helpers);
        let mut running = 0;
        let mut result = std::thread::scope(|scope| {
            for h in helpers.iter_mut() {
                // What repetitions can look back on, not the whole game's history.
                let mut p = pos.with_reversible_history();
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

    /// The search on this thread: iterative deepening from depth 1 until a limit, then
    /// at reduced strength a move drawn among the root moves.
    fn search_attached(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        limits: &SearchLimits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.begin_search(pos, limits, stop);
        let root_moves = self.searched_root_moves(pos, limits);
        if root_moves.is_empty() {
            return self.no_move_result(pos);
        }
        if self.root_only.is_empty()
            && let Some(result) = self.deploy_unseen(pos, eval, report)
        {
            return result;
        }
        let handicap = self.options.skill.handicap();
        if handicap.is_none()
            && let Some(result) = self.play_from_table(pos, report)
        {
            return result;
        }
        self.noise = handicap
            .filter(|h| h.noise > 0)
            .map(|h| (rand::rng().random::<u64>(), h.noise as i32));
        let max_depth = self.depth_limit(limits, handicap);
        let lines = self.line_count(handicap, root_moves.len());
        let mut root = RootBest::new(root_moves[0]);
        self.deepen(pos, eval, limits, stop, report, max_depth, lines, &mut root);
        if root.score == -INFINITY {
            root.score = root.last;
        }
        if let Some(handicap) = handicap
            && handicap.temperature > 0
            && root_moves.len() > 1
        {
            let depth = root.completed.max(1);
            root.mv =
                self.pick_by_skill(pos, eval, &root_moves, root.mv, root.score, depth, handicap);
            if root.pv.first() != Some(&root.mv) {
                root.pv = vec![root.mv];
            }
        }
        SearchResult {
            best: Some(root.mv),
            score: Score::from_internal(root.score),
            depth: root.completed as u32,
            nodes: self.nodes,
            pv: root.pv,
        }
    }

    /// The root moves this search may play: the legal ones, or of them only those
    /// `go searchmoves` names (all of them if it names none that is legal).
    fn searched_root_moves(&mut self, pos: &Position, limits: &SearchLimits) -> MoveList {
        let mut moves = pos.legal_moves();
        self.root_only.clear();
        let allowed: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if !allowed.is_empty() {
            moves.retain(|m| allowed.contains(m));
            self.root_only = allowed;
        }
        moves
    }

    /// Whether the root may try `mv` in the current search.
    pub(super) fn root_allows(&self, mv: Move) -> bool {
        !self.excluded.contains(&mv) && (self.root_only.is_empty() || self.root_only.contains(&mv))
    }

    /// Whether the root searches only some of its moves (its score is then not the
    /// position's, and is not stored as such).
    pub(super) fn root_restricted(&self) -> bool {
        !self.excluded.is_empty() || !self.root_only.is_empty()
    }

    /// Resets what one search counts and decides, and ages what searches learn.
    fn begin_search(&mut self, pos: &Position, limits: &SearchLimits, stop: &Arc<AtomicBool>) {
        self.stop = Arc::clone(stop);
        self.started = Instant::now();
        self.deadlines = limits.deadlines(pos.turn());
        self.ponder = limits.ponder.clone();
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
            *h /= HISTORY_AGEING;
        }
        self.stalemate_score = stalemate_value(pos);
    }

    /// At full strength, in a position a table holds with every move's outcome: the
    /// table's best move (the soonest mate, or the longest defence), reported with its
    /// score and the line both sides would play, without a search.
    fn play_from_table(
        &mut self,
        pos: &Position,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        let ranked = self.tablebases.rank_moves(pos)?;
        let &(best, value) = ranked.iter().find(|(m, _)| self.root_allows(*m))?;
        let score = table_score(value, 0, self.stalemate_score);
        let mut after = pos.without_history();
        after.make_move(best);
        let mut pv = vec![best];
        pv.extend(self.tablebases.line(&after, 40));
        Some(self.answer_at_once(score, pv, report))
    }

    /// In a hidden setup phase: the next placement of a deployment chosen without
    /// looking at the other side (a search would look), reported with the rest of it.
    fn deploy_unseen(
        &mut self,
        pos: &Position,
        eval: &Evaluator,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        let pv = crate::deploy::choose_deployment(pos, eval, &mut rand::rng());
        pv.first()?;
        let score = eval.evaluate(pos, self.mode);
        Some(self.answer_at_once(score, pv, report))
    }

    /// A result found without searching (a table's move, a deployment): reported once as
    /// depth 1 with its line, which must not be empty.
    fn answer_at_once(
        &mut self,
        score: i32,
        pv: Vec<Move>,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        if self.helper_id == 0 {
            report(&self.info(1, score, &pv));
        }
        SearchResult {
            best: pv.first().copied(),
            score: Score::from_internal(score),
            depth: 1,
            nodes: self.nodes,
            pv,
        }
    }

    /// The result when the side to move has no legal move: mated or stalemated.
    fn no_move_result(&self, pos: &Position) -> SearchResult {
        let score = if pos.in_check() {
            -MATE
        } else {
            self.stalemate_score
        };
        SearchResult {
            best: None,
            score: Score::from_internal(score),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        }
    }

    /// The deepest iteration: the least of the `go depth`, the depth option and the
    /// level's. A helper goes on past a `go depth` until the main search halts it: it
    /// only feeds the table, and idle it would leave its core unused.
    fn depth_limit(&self, limits: &SearchLimits, handicap: Option<Handicap>) -> i32 {
        let depth_limit = if self.helper_id > 0 {
            None
        } else {
            limits.depth
        };
        [
            depth_limit,
            self.options.max_depth,
            handicap.map(|h| h.depth),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1) as i32
    }

    /// Lines to search: several only at full strength, and only the main search
    /// reports them.
    fn line_count(&self, handicap: Option<Handicap>, root_moves: usize) -> usize {
        if handicap.is_some() || self.helper_id > 0 {
            1
        } else {
            self.options.multi_pv.clamp(1, MAX_MULTI_PV).min(root_moves)
        }
    }

    /// Iterative deepening: each depth in an aspiration window around the last score,
    /// the other lines after the best, a report after each completed depth, until a
    /// limit, a stop or a mate found within the depth.
    #[allow(clippy::too_many_arguments)]
    fn deepen(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        limits: &SearchLimits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchInfo),
        max_depth: i32,
        lines: usize,
        root: &mut RootBest,
    ) {
        let root_in_check = pos.in_check();
        let mut line_scores = vec![0; lines];
        for iteration in 1..=max_depth {
            // Half the helpers run a ply ahead of the main search, so that the threads
            // do not all fill in the same entries at once.
            let depth = (iteration + (self.helper_id % 2) as i32).min(max_depth);
            self.seldepth = 0;
            self.excluded.clear();
            let s = self.aspiration_search(pos, eval, depth, root.last, root_in_check);
            if self.stopped {
                // A partial iteration still names a move that was searched to the end
                // and raised the root's alpha: at least as good as the last best.
                if let Some(&m) = self.pv[0].first() {
                    root.mv = m;
                    root.pv = self.pv[0].clone();
                }
                break;
            }
            root.last = s;
            if let Some(&m) = self.pv[0].first() {
                root.mv = m;
                root.pv = self.pv[0].clone();
            }
            root.score = s;
            root.completed = depth;
            if lines == 1 {
                report(&self.info(depth, s, &root.pv));
            } else {
                self.report_lines(
                    pos,
                    eval,
                    depth,
                    root_in_check,
                    &mut line_scores,
                    root,
                    report,
                );
                if self.stopped {
                    break;
                }
            }
            if self.deep_enough(root.last, depth, limits, stop) {
                break;
            }
        }
    }

    /// With several lines: searches the others after the best and reports them all,
    /// best first (a line searched later, with more in the hash table, may come out
    /// better than the first); the best of them becomes the root's.
    #[allow(clippy::too_many_arguments)]
    fn report_lines(
        &mut self,
        pos: &mut Position,
        eval: &Evaluator,
        depth: i32,
        root_in_check: bool,
        line_scores: &mut [i32],
        root: &mut RootBest,
        report: &mut dyn FnMut(&SearchInfo),
    ) {
        let mut found = vec![(root.score, root.pv.clone())];
        self.search_more_lines(pos, eval, depth, line_scores, root_in_check, &mut found);
        found.sort_by_key(|line| std::cmp::Reverse(line.0));
        for (k, (s, pv)) in found.iter().enumerate() {
            line_scores[k] = *s;
            let mut info = self.info(depth, *s, pv);
            info.multipv = Some(k as u32 + 1);
            report(&info);
        }
        (root.score, root.pv) = found.swap_remove(0);
        root.mv = root.pv[0];
        root.last = root.score;
    }

    /// Whether to stop deepening after a completed `depth` scoring `score`: a mate
    /// within the searched depth will not be improved by going deeper (unless a depth
    /// was asked for), and the stop flag, the soft deadline and the node limit end it.
    fn deep_enough(
        &self,
        score: i32,
        depth: i32,
        limits: &SearchLimits,
        stop: &Arc<AtomicBool>,
    ) -> bool {
        let mate_found = score.abs() >= MATE_BOUND && MATE - score.abs() < depth;
        if mate_found && limits.depth.is_none() {
            return true;
        }
        if let Some(moves) = limits.mate
            && let Score::Mate(m) = Score::from_internal(score)
            && (1..=moves as i32).contains(&m)
        {
            return true;
        }
        let soft_passed = self
            .clock_start()
            .is_some_and(|t| self.deadlines.soft_passed(t));
        if stop.load(Ordering::Relaxed) || soft_passed {
            return true;
        }
        self.node_limit.is_some_and(|n| self.nodes >= n)
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
        let mut delta = ASPIRATION_WINDOW;
        let aspiration = self.options.techniques.aspiration;
        let (mut alpha, mut beta) =
            if aspiration && depth >= ASPIRATION_MIN_DEPTH && center.abs() < MATE_BOUND {
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
                self.report_bound(depth, s, ScoreBound::Upper);
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INFINITY);
            } else if s >= beta {
                self.report_bound(depth, s, ScoreBound::Lower);
                beta = (s + delta).min(INFINITY);
            } else {
                return s;
            }
            delta += delta / 2 + ASPIRATION_GROWTH;
            if delta > ASPIRATION_GIVE_UP {
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
            bound: None,
        }
    }

    /// Whether the main search has run long enough to tell its progress, and to whom.
    fn progress_sink(&mut self) -> Option<&mut ProgressSink> {
        if self.helper_id > 0 {
            return None;
        }
        let started = self.started;
        self.progress
            .as_mut()
            .filter(|p| started.elapsed() >= p.after)
    }

    /// Tells a score that fell outside the aspiration window, with the line so far.
    fn report_bound(&mut self, depth: i32, score: i32, bound: ScoreBound) {
        if self.progress_sink().is_none() {
            return;
        }
        let mut info = self.info(depth, score, &self.pv[0]);
        info.bound = Some(bound);
        if let Some(sink) = self.progress_sink() {
            (sink.report)(&Progress::Bound(info));
        }
    }

    /// Tells which root move the search is on.
    pub(super) fn report_root_move(&mut self, depth: i32, mv: Move, number: usize) {
        if let Some(sink) = self.progress_sink() {
            (sink.report)(&Progress::CurrMove {
                depth: depth as u32,
                mv,
                number: number as u32,
            });
        }
    }

    /// From when the clock's deadlines count: the search's start, or the ponder hit of
    /// a search that began on the opponent's time; `None` while it is still pondering
    /// (no deadline binds).
    fn clock_start(&self) -> Option<Instant> {
        match &self.ponder {
            None => Some(self.started),
            Some(p) if p.is_pondering() => None,
            Some(p) => Some(p.hit_at().unwrap_or(self.started)),
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
            let hard_passed = self
                .clock_start()
                .is_some_and(|t| self.deadlines.hard_passed(t));
            if hard_passed || self.stop_flag() {
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
}

/// The best root move found so far.
struct RootBest {
    mv: Move,
    /// Its score at the last completed depth (`-INFINITY` before the first).
    score: i32,
    pv: Vec<Move>,
    /// The last depth searched to the end.
    completed: i32,
    /// The last iteration's score: the next aspiration window's centre.
    last: i32,
}

impl RootBest {
    fn new(first: Move) -> RootBest {
        RootBest {
            mv: first,
            score: -INFINITY,
            pv: vec![first],
            completed: 0,
            last: 0,
        }
    }
}

/// The search score of a table's value `ply` plies from the root, given the score of
/// being stalemated: mates as the search scores them (so `score mate N` shows), a
/// stalemate one way or the other a little nearer the sooner it comes; a mate the move
/// rule spoils at this clock (a cursed win, a blessed loss), a draw.
fn table_score(v: TableValue, ply: usize, stalemated: i32) -> i32 {
    let ply = ply as i32;
    if v.spoiled() {
        return 0;
    }
    match v.value {
        Value::Win(d) => MATE - ply - i32::from(d),
        Value::Loss(d) => -MATE + ply + i32::from(d),
        Value::StalemateWin(d) => -stalemated - i32::from(d).min(50),
        Value::StalemateLoss(d) => stalemated + i32::from(d).min(50),
        Value::Draw | Value::DrawPerpetual => 0,
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
