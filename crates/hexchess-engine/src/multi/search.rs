//! The searches over whole turns: paranoid, max-n and best-reply, deepened one turn at
//! a time within a budget; and the random mover.

use std::any::Any;
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use hexchess_core::bitboard::CellSet;
use hexchess_core::game::{Game, Standing, Step, TurnSteps};
use hexchess_core::piece::{MAX_SIDES, Side};
use hexchess_core::position::PieceSquareTable;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::eval::{Endgame, judged_relative, kind_value, placement_table, relative, scores_with};
use super::{Features, MultiLimits, Player, Strategy};
use crate::time::Ponder;

/// A score past any evaluation: a game won (or lost) in the tree.
const WIN: i32 = 1_000_000;

/// Capturing turns quiescence plays on past a leaf, at most.
const QUIESCENCE_TURNS: u32 = 4;

/// Entries the transposition table holds before it is emptied (at a search's start).
const TABLE_ENTRIES: usize = 1 << 20;

/// What the transposition table knows of a state at a turn's start, searched so deep.
struct Entry {
    depth: u32,
    value: i32,
    bound: Bound,
    /// The best turn found there (the move to try first next time).
    best: Option<TurnSteps>,
}

/// How an alpha-beta node starts (see [`MultiSearcher::open`]).
enum Opened {
    Settled(i32),
    Open { key: u64, hint: Option<TurnSteps> },
}

/// How a stored value relates to the state's true value (alpha-beta's window).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// At least this (it cut: a better turn may exist).
    Lower,
    /// At most this (nothing reached the window).
    Upper,
}

/// The turn a search chose, with what it saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiChoice {
    /// The turn's steps, to play in order.
    pub steps: Vec<Step>,
    /// Turns deep the last finished iteration looked.
    pub depth: u32,
    /// Turns played in the search tree.
    pub nodes: u64,
    /// The chooser's score (its evaluation less the others' mean) after the turn.
    pub score: i32,
}

/// Chooses turns for one side of a game of more sides.
pub struct MultiSearcher {
    strategy: Strategy,
    features: Features,
    rng: StdRng,
    /// Turns played so far in this search (quiescence's too, counted as they are
    /// played, hence a cell: the leaves read while children are listed count).
    nodes: Cell<u64>,
    limits: MultiLimits,
    started: Instant,
    aborted: bool,
    stop: Arc<AtomicBool>,
    /// The only turns chosen among (`go searchmoves`); empty: every turn.
    only: Vec<TurnSteps>,
    /// Set for a search on the opponent's time (`go ponder`): no time limit binds until
    /// the ponder hit, and the time counts from it.
    ponder: Option<Ponder>,
    /// By state key and chooser: kept from one search to the next of this searcher.
    table: HashMap<u64, Entry>,
    /// The board's knowledge for endings, read at each search's start (the searcher
    /// may be handed another variant's game).
    endgame: Endgame,
    /// The evaluation's [`placement_table`] for the game searched, attached to it at
    /// each search's start: an `Arc<PieceSquareTable<B>>` for the game's cell sets `B`
    /// (one searcher may be handed games of either width).
    placed: Option<Box<dyn Any + Send>>,
}

/// A turn of the side to move at a node: its steps, and what the search read while
/// the game stood after it (a value for ordering, or a leaf's value).
struct Child<V> {
    steps: TurnSteps,
    value: V,
}

/// Plays `steps` on `game`, runs `f` on the game after them, and takes them back: a
/// child visited on the one game the search walks.
fn visit<B: CellSet, T>(
    game: &mut Game<B>,
    steps: &[Step],
    f: impl FnOnce(&mut Game<B>) -> T,
) -> T {
    let saved = game.save();
    for s in steps {
        game.play_unchecked(*s);
    }
    let out = f(game);
    game.restore(saved);
    out
}

impl MultiSearcher {
    /// A searcher with every feature (see [`Features`]).
    pub fn new(strategy: Strategy, seed: u64) -> MultiSearcher {
        MultiSearcher::for_player(Player::new(strategy), seed)
    }

    /// A searcher playing as `player` (a strategy with some features off: the round
    /// robin's), its random choices seeded by `seed`.
    pub fn for_player(player: Player, seed: u64) -> MultiSearcher {
        MultiSearcher {
            strategy: player.strategy,
            features: player.features,
            rng: StdRng::seed_from_u64(seed),
            nodes: Cell::new(0),
            limits: MultiLimits::default(),
            started: Instant::now(),
            aborted: false,
            stop: Arc::new(AtomicBool::new(false)),
            only: Vec::new(),
            ponder: None,
            table: HashMap::new(),
            endgame: Endgame::default(),
            placed: None,
        }
    }

    /// How it chooses.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Chooses only among these whole turns (each the steps of a turn the game
    /// allows, as [`Game::turns`] records them), as `go searchmoves` asks; empty: every
    /// turn.
    pub fn only_turns(&mut self, turns: Vec<Vec<Step>>) {
        // A turn longer than any the rules allow is none of the game's: dropped.
        self.only = turns
            .iter()
            .filter_map(|t| TurnSteps::from_slice(Step::Stop, t))
            .collect();
    }

    /// Searches on the opponent's time (`go ponder`) while `ponder` is pondering: the
    /// time limit counts from its hit.
    pub fn ponder(&mut self, ponder: Option<Ponder>) {
        self.ponder = ponder;
    }

    /// The turn to play for the side to move; `None` when the game is over or the side
    /// has nothing to do.
    pub fn choose<B: CellSet>(
        &mut self,
        game: &Game<B>,
        limits: &MultiLimits,
        stop: &Arc<AtomicBool>,
    ) -> Option<MultiChoice> {
        let mut root = game.lean();
        self.stop = Arc::clone(stop);
        self.nodes.set(0);
        if self.table.len() > TABLE_ENTRIES {
            self.table.clear();
        }
        self.limits = *limits;
        self.started = Instant::now();
        self.aborted = false;
        if self.features.endgame {
            self.endgame = Endgame::new(game.position().rules());
        }
        if self.strategy == Strategy::Random && self.only.is_empty() {
            return self.random_turn(&root);
        }
        // Every search below evaluates: the table it reads is built once a search.
        let endgame = self.features.endgame.then_some(&self.endgame);
        let placed = Arc::new(placement_table(game.position().rules(), endgame));
        root.attach_table(Arc::clone(&placed));
        self.placed = Some(Box::new(placed));
        let me = root.side_to_move();
        let mut children = if self.only.is_empty() {
            self.scored_children(&mut root, me)
        } else {
            self.allowed_children(&mut root, me)
        };
        if self.strategy == Strategy::Random {
            let i = self.rng.random_range(0..children.len().max(1));
            return children.get(i).map(|c| MultiChoice {
                steps: c.steps.to_vec(),
                depth: 0,
                nodes: 0,
                score: 0,
            });
        }
        if children.is_empty() {
            return None;
        }
        order(&mut children);
        let mut best = MultiChoice {
            steps: children[0].steps.to_vec(),
            depth: 0,
            nodes: 0,
            score: children[0].value,
        };
        for depth in 1..=limits.depth.max(1) {
            let mut scores = Vec::with_capacity(children.len());
            let mut alpha = -WIN - 1;
            for child in &children {
                let score = visit(&mut root, &child.steps, |g| match self.strategy {
                    Strategy::Paranoid => self.paranoid(g, depth - 1, alpha, WIN + 1, me),
                    Strategy::BestReply => self.brs_min(g, depth - 1, alpha, WIN + 1, me),
                    Strategy::MaxN => {
                        let v = self.maxn(g, depth - 1);
                        relative(&v, me, g.sides().count())
                    }
                    Strategy::Random => unreachable!("handled above"),
                });
                if self.aborted {
                    break;
                }
                alpha = alpha.max(score);
                scores.push(score);
            }
            if self.aborted {
                // An unfinished iteration keeps its best so far if that beats the last.
                if let Some((i, s)) = scores.iter().enumerate().max_by_key(|(_, s)| **s)
                    && i > 0
                    && *s > best.score
                {
                    best.steps = children[i].steps.to_vec();
                    best.score = *s;
                }
                break;
            }
            let (i, s) = scores
                .iter()
                .enumerate()
                .max_by_key(|(i, s)| (**s, std::cmp::Reverse(*i)))
                .expect("children");
            best = MultiChoice {
                steps: children[i].steps.to_vec(),
                depth,
                nodes: self.nodes.get(),
                score: *s,
            };
            // The best first next time: alpha-beta cuts more.
            let chosen = children.remove(i);
            children.insert(0, chosen);
            if s.abs() >= WIN / 2 {
                break;
            }
        }
        best.nodes = self.nodes.get();
        Some(best)
    }

    /// Whether the budget is spent (checked as nodes are made).
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let nodes = self.nodes.get();
        let time_up = nodes.is_multiple_of(64)
            && self
                .limits
                .time
                .zip(self.clock_start())
                .is_some_and(|(t, start)| start.elapsed() >= t);
        if nodes >= self.limits.nodes || time_up || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    /// From when the time limit counts: the search's start, or the ponder hit of one on
    /// the opponent's time; `None` while it is still pondering.
    fn clock_start(&self) -> Option<Instant> {
        match &self.ponder {
            Some(p) if p.is_pondering() => None,
            Some(p) => Some(p.hit_at().unwrap_or(self.started)),
            None => Some(self.started),
        }
    }

    /// The turns of [`MultiSearcher::only_turns`], each with the evaluation after it.
    fn allowed_children<B: CellSet>(&mut self, game: &mut Game<B>, me: Side) -> Vec<Child<i32>> {
        let only = std::mem::take(&mut self.only);
        let children: Vec<Child<i32>> = only
            .iter()
            .map(|steps| Child {
                steps: *steps,
                value: visit(game, steps, |g| self.leaf_static(g, me)),
            })
            .collect();
        self.only = only;
        self.nodes.set(self.nodes.get() + children.len() as u64);
        children
    }

    /// Every whole turn of the side to move, each with `value` read on the game after
    /// it (played and taken back on `game`), until `value` says no more are needed (a
    /// cut at the last layer, where the values are the leaves').
    fn children<B: CellSet, V>(
        &mut self,
        game: &mut Game<B>,
        mut value: impl FnMut(&Self, &mut Game<B>) -> (V, bool),
    ) -> Vec<Child<V>> {
        let mut out = Vec::new();
        let this = &*self;
        let mut full = false;
        game.for_each_turn_mut(&mut |g, steps| {
            this.count_node();
            let (value, more) = value(this, g);
            out.push(Child {
                steps: *steps,
                value,
            });
            full = this.nodes.get() >= this.limits.nodes;
            more && !full
        });
        if full {
            // The budget ran out inside this node: what was found is not all its turns.
            self.aborted = true;
        }
        out
    }

    fn count_node(&self) {
        self.nodes.set(self.nodes.get() + 1);
    }

    /// Every turn with the chooser's evaluation after it, to order them by.
    fn scored_children<B: CellSet>(&mut self, game: &mut Game<B>, me: Side) -> Vec<Child<i32>> {
        self.children(game, |s, g| (s.leaf_static(g, me), true))
    }

    fn leaf_static<B: CellSet>(&self, game: &Game<B>, me: Side) -> i32 {
        terminal(game, me).unwrap_or_else(|| self.relative(game, &self.scores(game), me))
    }

    /// Whether the refined judgement's terms are read (the endings' knowledge adds to
    /// them, so it brings them too).
    fn judged(&self) -> bool {
        self.features.judgement || self.features.endgame
    }

    /// Every side's score, by the evaluation the features ask for.
    fn scores<B: CellSet>(&self, game: &Game<B>) -> [i32; MAX_SIDES] {
        let endgame = self.features.endgame.then_some(&self.endgame);
        let placed = self
            .placed
            .as_ref()
            .and_then(|p| p.downcast_ref::<Arc<PieceSquareTable<B>>>());
        scores_with(game, self.judged(), endgame, placed)
    }

    /// `me`'s score against the others': by the refined judgement (teams, the
    /// leader), or its own less their mean.
    fn relative<B: CellSet>(&self, game: &Game<B>, scores: &[i32; MAX_SIDES], me: Side) -> i32 {
        if self.judged() {
            judged_relative(scores, me, game.position().rules())
        } else {
            relative(scores, me, game.sides().count())
        }
    }

    /// A leaf's value: the evaluation, or with quiescence, what the captures from
    /// here come to.
    fn leaf<B: CellSet>(&self, game: &mut Game<B>, me: Side, alpha: i32, beta: i32) -> i32 {
        if self.features.quiescence {
            self.quiesce(game, alpha, beta, me, QUIESCENCE_TURNS)
        } else {
            self.leaf_static(game, me)
        }
    }

    /// Whether the side to move plays for `me` (itself, or with the refined judgement
    /// a partner): the paranoid layers maximise there.
    fn for_me<B: CellSet>(&self, game: &Game<B>, me: Side) -> bool {
        let mover = game.side_to_move();
        mover == me || (self.judged() && !game.position().rules().enemies(me).contains(&mover))
    }

    /// Quiescence: the side to move may stand on the evaluation or play a capturing
    /// turn (a capture, ending the turn there), the rest as in paranoid alpha-beta,
    /// `left` capturing turns at most. Its turns count as nodes; when the budget is
    /// spent it stands.
    fn quiesce<B: CellSet>(
        &self,
        game: &mut Game<B>,
        mut alpha: i32,
        mut beta: i32,
        me: Side,
        left: u32,
    ) -> i32 {
        let stand = self.leaf_static(game, me);
        if left == 0 || game.end().is_some() || self.nodes.get() >= self.limits.nodes {
            return stand;
        }
        let maximising = self.for_me(game, me);
        if maximising {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mut best = stand;
        for step in capturing_steps(game) {
            if self.nodes.get() >= self.limits.nodes {
                break;
            }
            let saved = game.save();
            if !end_turn_with(game, step) {
                game.restore(saved);
                continue;
            }
            self.count_node();
            let v = self.quiesce(game, alpha, beta, me, left - 1);
            game.restore(saved);
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The start of an alpha-beta node: settled by a finished game, a leaf (the depth
    /// or the budget reached) or the table; or open, with its key and the table's
    /// best turn there.
    fn open<B: CellSet>(
        &mut self,
        game: &mut Game<B>,
        depth: u32,
        alpha: i32,
        beta: i32,
        me: Side,
    ) -> Opened {
        if let Some(t) = terminal(game, me) {
            return Opened::Settled(t);
        }
        if depth == 0 || self.out_of_budget() {
            return Opened::Settled(self.leaf(game, me, alpha, beta));
        }
        let key = Self::key(game, me);
        match self.probe(key, depth, alpha, beta) {
            (Some(v), _) => Opened::Settled(v),
            (None, hint) => Opened::Open { key, hint },
        }
    }

    /// The table's key for the state at `game`'s turn start, searched for `me`.
    fn key<B: CellSet>(game: &Game<B>, me: Side) -> u64 {
        game.state_key() ^ (me.index() as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }

    /// What the table says of `key` searched `depth` deep: a value that settles it in
    /// the window, and the best turn found there before (to try first).
    fn probe(
        &self,
        key: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> (Option<i32>, Option<TurnSteps>) {
        if !self.features.table {
            return (None, None);
        }
        let Some(e) = self.table.get(&key) else {
            return (None, None);
        };
        let settles = e.depth >= depth
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            };
        (settles.then_some(e.value), e.best)
    }

    /// Keeps `value`, found in the window `alpha..beta`, unless the search was cut
    /// short (then it is not the state's value).
    fn store(
        &mut self,
        key: u64,
        depth: u32,
        value: i32,
        window: (i32, i32),
        best: Option<TurnSteps>,
    ) {
        if !self.features.table || self.aborted {
            return;
        }
        let bound = if value <= window.0 {
            Bound::Upper
        } else if value >= window.1 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let keep = self.table.get(&key).is_none_or(|e| e.depth <= depth);
        if keep {
            self.table.insert(
                key,
                Entry {
                    depth,
                    value,
                    bound,
                    best,
                },
            );
        }
    }

    /// Puts the turn `best` (from the table) first among `children`, if it is there.
    fn first<V>(children: &mut [Child<V>], best: Option<&TurnSteps>) {
        if let Some(i) = best.and_then(|b| children.iter().position(|c| c.steps == *b)) {
            children[..=i].rotate_right(1);
        }
    }

    /// Paranoid: `me` maximises, everyone else minimises `me`'s score (with the
    /// refined judgement, `me`'s partners maximise too).
    fn paranoid<B: CellSet>(
        &mut self,
        game: &mut Game<B>,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        me: Side,
    ) -> i32 {
        let (key, hint) = match self.open(game, depth, alpha, beta, me) {
            Opened::Settled(v) => return v,
            Opened::Open { key, hint } => (key, hint),
        };
        let window = (alpha, beta);
        let maximising = self.for_me(game, me);
        if depth == 1 {
            let v = self.last_layer(game, alpha, beta, me, maximising);
            self.store(key, depth, v, window, None);
            return v;
        }
        let mut children = self.scored_children(game, me);
        if children.is_empty() {
            return self.leaf_static(game, me);
        }
        order(&mut children);
        if !maximising {
            children.reverse();
        }
        Self::first(&mut children, hint.as_ref());
        let mut best = if maximising { -WIN - 1 } else { WIN + 1 };
        let mut best_turn = None;
        for child in &children {
            let v = visit(game, &child.steps, |g| {
                self.paranoid(g, depth - 1, alpha, beta, me)
            });
            let better = if maximising { v > best } else { v < best };
            if better {
                best = v;
                best_turn = Some(&child.steps);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta || self.aborted {
                break;
            }
        }
        let best_turn = best_turn.cloned();
        self.store(key, depth, best, window, best_turn);
        best
    }

    /// The last layer of alpha-beta (paranoid's, best-reply's own turns): each turn's
    /// leaf read as it is played, in the order they come, until one cuts (the rest are
    /// never played).
    fn last_layer<B: CellSet>(
        &mut self,
        game: &mut Game<B>,
        mut alpha: i32,
        mut beta: i32,
        me: Side,
        maximising: bool,
    ) -> i32 {
        let mut best = if maximising { -WIN - 1 } else { WIN + 1 };
        let children = self.children(game, |s, g| {
            let v = s.leaf(g, me, alpha, beta);
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            ((), alpha < beta)
        });
        if children.is_empty() {
            return self.leaf_static(game, me);
        }
        best
    }

    /// The sides whose replies best-reply search tries against `me`: every other side
    /// still playing (with the refined judgement, enemies only: a partner passes).
    fn repliers<B: CellSet>(&self, game: &Game<B>, me: Side) -> Vec<Side> {
        let rules = game.position().rules();
        game.sides_in()
            .into_iter()
            .filter(|s| *s != me && game.standing(*s) == Standing::Playing)
            .filter(|s| !self.judged() || rules.enemies(me).contains(s))
            .collect()
    }

    /// Best-reply search, the opponents' layer: the single strongest reply of any
    /// opponent (the others pass), then `me` again.
    fn brs_min<B: CellSet>(
        &mut self,
        game: &mut Game<B>,
        depth: u32,
        alpha: i32,
        beta: i32,
        me: Side,
    ) -> i32 {
        let key = match self.open(game, depth, alpha, beta, me) {
            Opened::Settled(v) => return v,
            Opened::Open { key, .. } => key,
        };
        let v = self.brs_replies(game, depth, alpha, beta, me);
        self.store(key, depth, v, (alpha, beta), None);
        v
    }

    /// [`MultiSearcher::brs_min`] past its table: every replier's turns.
    fn brs_replies<B: CellSet>(
        &mut self,
        game: &mut Game<B>,
        depth: u32,
        alpha: i32,
        mut beta: i32,
        me: Side,
    ) -> i32 {
        let mut best = WIN + 1;
        let mut any = false;
        for o in self.repliers(game, me) {
            let saved = game.save();
            if !game.hand_to(o) {
                continue;
            }
            // At the last layer a reply's value is the leaf's after the turn comes back
            // to `me`, read as it is played until one cuts; deeper, the evaluation
            // orders the replies.
            if depth == 1 {
                let replies = self.children(game, |s, g| {
                    let back = g.save();
                    g.hand_to(me);
                    let v = s.leaf(g, me, alpha, beta);
                    g.restore(back);
                    best = best.min(v);
                    beta = beta.min(v);
                    ((), alpha < beta)
                });
                any |= !replies.is_empty();
                game.restore(saved);
                if alpha >= beta || self.aborted {
                    return best;
                }
                continue;
            }
            let mut replies = self.scored_children(game, me);
            order(&mut replies);
            replies.reverse();
            for reply in &replies {
                any = true;
                let v = visit(game, &reply.steps, |g| {
                    let back = g.save();
                    let v = if g.hand_to(me) {
                        self.brs_max(g, depth - 1, alpha, beta, me)
                    } else {
                        self.leaf_static(g, me)
                    };
                    g.restore(back);
                    v
                });
                best = best.min(v);
                beta = beta.min(v);
                if alpha >= beta || self.aborted {
                    game.restore(saved);
                    return best;
                }
            }
            game.restore(saved);
        }
        if any {
            best
        } else {
            self.leaf_static(game, me)
        }
    }

    /// Best-reply search, `me`'s layer.
    fn brs_max<B: CellSet>(
        &mut self,
        game: &mut Game<B>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        me: Side,
    ) -> i32 {
        let (key, hint) = match self.open(game, depth, alpha, beta, me) {
            Opened::Settled(v) => return v,
            Opened::Open { key, hint } => (key, hint),
        };
        let window = (alpha, beta);
        if depth == 1 {
            let v = self.last_layer(game, alpha, beta, me, true);
            self.store(key, depth, v, window, None);
            return v;
        }
        let mut children = self.scored_children(game, me);
        if children.is_empty() {
            return self.leaf_static(game, me);
        }
        order(&mut children);
        Self::first(&mut children, hint.as_ref());
        let mut best = -WIN - 1;
        let mut best_turn = None;
        for child in &children {
            let v = visit(game, &child.steps, |g| {
                self.brs_min(g, depth - 1, alpha, beta, me)
            });
            if v > best {
                best = v;
                best_turn = Some(&child.steps);
            }
            alpha = alpha.max(v);
            if alpha >= beta || self.aborted {
                break;
            }
        }
        let best_turn = best_turn.cloned();
        self.store(key, depth, best, window, best_turn);
        best
    }

    /// Max-n: each side picks the turn best for itself; the vector of every side's
    /// score (its own less the others' mean) goes up the tree.
    fn maxn<B: CellSet>(&mut self, game: &mut Game<B>, depth: u32) -> [i32; MAX_SIDES] {
        if game.end().is_some() || depth == 0 || self.out_of_budget() {
            return self.vector(game);
        }
        // A leaf's vector is read as its turn is played; deeper, nothing is.
        let children = self.children(game, |s, g| ((depth == 1).then(|| s.vector(g)), true));
        if children.is_empty() {
            return self.vector(game);
        }
        let mover = game.side_to_move();
        let mut best: Option<[i32; MAX_SIDES]> = None;
        for child in &children {
            let v = match child.value {
                Some(v) => v,
                None => visit(game, &child.steps, |g| self.maxn(g, depth - 1)),
            };
            if best.is_none_or(|b| v[mover.index()] > b[mover.index()]) {
                best = Some(v);
            }
            if self.aborted {
                break;
            }
        }
        best.unwrap_or_else(|| self.vector(game))
    }

    /// Every side's relative score (a finished game: the winners' share of a win).
    fn vector<B: CellSet>(&self, game: &Game<B>) -> [i32; MAX_SIDES] {
        let mut out = [0; MAX_SIDES];
        let scores = self.scores(game);
        for side in game.sides() {
            out[side.index()] =
                terminal(game, side).unwrap_or_else(|| self.relative(game, &scores, side));
        }
        out
    }

    /// A uniformly random step at each step of the turn.
    fn random_turn<B: CellSet>(&mut self, game: &Game<B>) -> Option<MultiChoice> {
        let mut g = game.clone();
        let before = g.turns().len();
        let mut steps = Vec::new();
        while g.turns().len() == before && g.end().is_none() {
            let options = g.steps();
            if options.is_empty() {
                break;
            }
            let step = options[self.rng.random_range(0..options.len())];
            steps.push(step);
            g.play_unchecked(step);
        }
        (!steps.is_empty()).then_some(MultiChoice {
            steps,
            depth: 0,
            nodes: 0,
            score: 0,
        })
    }
}

/// The score of a finished game for `me`: a win shared among the winners, a loss, or a
/// draw (0).
fn terminal<B: CellSet>(game: &Game<B>, me: Side) -> Option<i32> {
    let end = game.end()?;
    if end.is_draw() {
        return Some(0);
    }
    let winners = end.winners();
    Some(if winners.contains(&me) {
        WIN / winners.len() as i32
    } else {
        -WIN
    })
}

/// Best first for the chooser: by the value read after each turn, highest first (the
/// sort keeps equal turns in the order they were generated).
fn order(children: &mut [Child<i32>]) {
    children.sort_by_key(|c| -c.value);
}

/// The steps that start a capturing turn at `game`'s turn start, the most valuable
/// victim first (a king before all).
fn capturing_steps<B: CellSet>(game: &Game<B>) -> Vec<Step> {
    let pos = game.position();
    let rules = pos.rules();
    let mut captures: Vec<(i32, Step)> = game
        .noisy_steps()
        .into_iter()
        .filter_map(|step| match step {
            Step::Play(m) if !m.is_edit() && pos.is_capture(m) => {
                let victim = pos.piece_at(m.to()).map_or(100, |p| {
                    if rules.is_royal(p.kind) {
                        WIN
                    } else {
                        kind_value(rules, p.kind)
                    }
                });
                Some((victim, step))
            }
            _ => None,
        })
        .collect();
    captures.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    captures.into_iter().map(|(_, s)| s).collect()
}

/// Plays `step` and ends the turn there (a second move the rules offer is declined);
/// false when the turn cannot end after it (a second move is owed).
fn end_turn_with<B: CellSet>(game: &mut Game<B>, step: Step) -> bool {
    if let Step::Play(mv) = step
        && game.play_as_whole_turn(mv)
    {
        return true;
    }
    let before = game.turns().len();
    game.play_unchecked(step);
    if game.turns().len() > before || game.end().is_some() {
        return true;
    }
    if game.may_stop() {
        game.play_unchecked(Step::Stop);
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::bench::MULTI_BENCH_POSITIONS;
    use hexchess_core::catalog::Catalog;
    use rand::seq::IndexedRandom;

    fn bench_games() -> Vec<Game> {
        let catalog = Catalog::builtin();
        MULTI_BENCH_POSITIONS
            .iter()
            .map(|(id, fen)| {
                let rules = catalog.get(id).expect("built in").rules();
                Game::from_fen(Arc::clone(rules), fen).expect("a bench position")
            })
            .collect()
    }

    fn searcher(strategy: Strategy, features: Features) -> MultiSearcher {
        let mut s = MultiSearcher::for_player(Player { strategy, features }, 1);
        s.limits = MultiLimits::nodes(u64::MAX);
        s
    }

    /// Plain minimax over capturing turns (each ended at its capture), no pruning:
    /// what quiescence's alpha-beta must come to with a full window.
    fn capture_minimax(s: &MultiSearcher, game: &Game, me: Side, left: u32) -> i32 {
        let stand = s.leaf_static(game, me);
        if left == 0 || game.end().is_some() {
            return stand;
        }
        let maximising = s.for_me(game, me);
        let mut best = stand;
        for step in game.steps() {
            let Step::Play(m) = step else { continue };
            if m.is_edit() || !game.position().is_capture(m) {
                continue;
            }
            let mut child = game.clone();
            assert!(child.play(step).is_ok());
            let open = child.turns().len() == game.turns().len() && child.end().is_none();
            if open && child.play(Step::Stop).is_err() {
                continue;
            }
            let v = capture_minimax(s, &child, me, left - 1);
            best = if maximising { best.max(v) } else { best.min(v) };
        }
        best
    }

    #[test]
    fn quiescence_comes_to_the_minimax_of_the_captures() {
        // Positions from random games of 3- and 4-player Hexachess, where captures
        // abound; two capturing turns deep, both with and without teams' judgement.
        let mut rng = StdRng::seed_from_u64(43);
        let mut tried = 0;
        let mut with_captures = 0;
        for mut game in bench_games() {
            for _ in 0..6 {
                for _ in 0..rng.random_range(2..12) {
                    let steps = game.steps();
                    let Some(step) = steps.choose(&mut rng) else {
                        break;
                    };
                    game.play_unchecked(*step);
                }
                if game.end().is_some() {
                    break;
                }
                let mut turn_start = game.clone();
                while turn_start.moves_this_turn().1 > 0 {
                    let steps = turn_start.steps();
                    turn_start.play_unchecked(steps[0]);
                }
                for features in [Features::ALL, Features::PLAIN] {
                    let s = searcher(Strategy::Paranoid, features);
                    let me = turn_start.side_to_move();
                    let mut g = turn_start.clone();
                    let q = s.quiesce(&mut g, -WIN - 1, WIN + 1, me, 2);
                    assert_eq!(q, capture_minimax(&s, &turn_start, me, 2));
                    tried += 1;
                    with_captures += usize::from(!capturing_steps(&turn_start).is_empty());
                }
            }
        }
        assert!(
            tried >= 40 && with_captures >= 10,
            "{tried} tried, {with_captures} with captures"
        );
    }

    #[test]
    fn the_table_keeps_the_values_of_a_search_and_saves_turns() {
        // Up to three turns deep, no state recurs at another remaining depth (the side
        // to move differs), so the table may only reuse values of the same depth: the
        // root's value must not move, and transpositions must save turns.
        let table_only = Features {
            table: true,
            ..Features::PLAIN
        };
        let stop = Arc::new(AtomicBool::new(false));
        let (mut with, mut without) = (0, 0);
        for game in bench_games() {
            // Two turns deep everywhere (transpositions: a turn's two moves in either
            // order), and three for paranoid on the 4-player tables (the 3-player ones
            // take minutes there in a debug build).
            let deeper = (game.sides().count() == 4).then_some((Strategy::Paranoid, 3));
            let runs = [(Strategy::Paranoid, 2), (Strategy::BestReply, 2)];
            for (strategy, depth) in runs.into_iter().chain(deeper) {
                let limits = MultiLimits {
                    nodes: u64::MAX,
                    depth,
                    time: None,
                };
                let plain = searcher(strategy, Features::PLAIN).choose(&game, &limits, &stop);
                let tabled = searcher(strategy, table_only).choose(&game, &limits, &stop);
                let (plain, tabled) = (plain.expect("a turn"), tabled.expect("a turn"));
                assert_eq!(
                    plain.score,
                    tabled.score,
                    "{strategy}: {}",
                    game.lean().to_fen()
                );
                without += plain.nodes;
                with += tabled.nodes;
            }
        }
        assert!(
            with < without,
            "{with} turns with the table, {without} without"
        );
    }

    #[test]
    fn the_table_answers_only_within_what_its_bounds_prove() {
        let mut s = searcher(Strategy::Paranoid, Features::ALL);
        // A node that cut at 50 (its value is at least 50), one that found nothing
        // above -10 (at most -10), one searched exactly.
        s.store(1, 2, 50, (0, 40), None);
        s.store(2, 2, -10, (0, 40), None);
        let stop = TurnSteps::from_slice(Step::Stop, &[Step::Stop]);
        s.store(3, 2, 20, (0, 40), stop);
        assert_eq!(s.probe(1, 2, 0, 40).0, Some(50));
        assert_eq!(s.probe(1, 2, 0, 100).0, None, "a lower bound under beta");
        assert_eq!(s.probe(2, 2, 0, 40).0, Some(-10));
        assert_eq!(s.probe(2, 2, -50, 40).0, None, "an upper bound over alpha");
        assert_eq!(s.probe(3, 2, -100, 100), (Some(20), stop));
        assert_eq!(
            s.probe(3, 1, 30, 100).0,
            Some(20),
            "deeper answers shallower"
        );
        assert_eq!(
            s.probe(3, 3, -100, 100).0,
            None,
            "shallower does not answer deeper"
        );
        // A search cut short keeps nothing; a plain searcher has no table.
        s.aborted = true;
        s.store(4, 2, 0, (-1, 1), None);
        assert_eq!(s.probe(4, 1, -1, 1).0, None);
        let mut plain = searcher(Strategy::Paranoid, Features::PLAIN);
        plain.store(5, 2, 0, (-1, 1), None);
        assert_eq!(plain.probe(5, 1, -1, 1).0, None);
    }
}
