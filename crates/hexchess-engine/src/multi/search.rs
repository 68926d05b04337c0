//! The searches over whole turns: paranoid, max-n and best-reply, deepened one turn at
//! a time within a budget; and the random mover.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use hexchess_core::bitboard::CellSet;
use hexchess_core::game::{Game, Standing, Step};
use hexchess_core::piece::{MAX_SIDES, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::eval::{evaluate, relative};
use super::{MultiLimits, Strategy};
use crate::time::Ponder;

/// A score past any evaluation: a game won (or lost) in the tree.
const WIN: i32 = 1_000_000;

/// The turn a search chose, with what it saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiChoice {
    /// The turn's steps, to play in order.
    pub steps: Vec<Step>,
    /// Turns deep the last finished iteration looked.
    pub depth: u32,
    pub nodes: u64,
    /// The chooser's score (its evaluation less the others' mean) after the turn.
    pub score: i32,
}

/// Chooses turns for one side of a game of more sides.
pub struct MultiSearcher {
    strategy: Strategy,
    rng: StdRng,
    nodes: u64,
    limits: MultiLimits,
    started: Instant,
    aborted: bool,
    stop: Arc<AtomicBool>,
    /// The only turns chosen among (`go searchmoves`); empty: every turn.
    only: Vec<Vec<Step>>,
    /// Set for a search on the opponent's time (`go ponder`): no time limit binds until
    /// the ponder hit, and the time counts from it.
    ponder: Option<Ponder>,
}

/// A turn of the side to move at a node: its steps, and what the search read while
/// the game stood after it (a value for ordering, or a leaf's value).
struct Child<V> {
    steps: Vec<Step>,
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
    pub fn new(strategy: Strategy, seed: u64) -> MultiSearcher {
        MultiSearcher {
            strategy,
            rng: StdRng::seed_from_u64(seed),
            nodes: 0,
            limits: MultiLimits::default(),
            started: Instant::now(),
            aborted: false,
            stop: Arc::new(AtomicBool::new(false)),
            only: Vec::new(),
            ponder: None,
        }
    }

    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Chooses only among these whole turns (each the steps of a turn the game
    /// allows, as [`Game::turns`] records them), as `go searchmoves` asks; empty: every
    /// turn.
    pub fn only_turns(&mut self, turns: Vec<Vec<Step>>) {
        self.only = turns;
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
        self.nodes = 0;
        self.limits = *limits;
        self.started = Instant::now();
        self.aborted = false;
        if self.strategy == Strategy::Random && self.only.is_empty() {
            return self.random_turn(&root);
        }
        let me = root.side_to_move();
        let mut children = if self.only.is_empty() {
            self.scored_children(&mut root, me)
        } else {
            self.allowed_children(&mut root, me)
        };
        if self.strategy == Strategy::Random {
            let i = self.rng.random_range(0..children.len().max(1));
            return children.get(i).map(|c| MultiChoice {
                steps: c.steps.clone(),
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
            steps: children[0].steps.clone(),
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
                    best.steps = children[i].steps.clone();
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
                steps: children[i].steps.clone(),
                depth,
                nodes: self.nodes,
                score: *s,
            };
            // The best first next time: alpha-beta cuts more.
            let chosen = children.remove(i);
            children.insert(0, chosen);
            if s.abs() >= WIN / 2 {
                break;
            }
        }
        best.nodes = self.nodes;
        Some(best)
    }

    /// Whether the budget is spent (checked as nodes are made).
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let time_up = self.nodes.is_multiple_of(64)
            && self
                .limits
                .time
                .zip(self.clock_start())
                .is_some_and(|(t, start)| start.elapsed() >= t);
        if self.nodes >= self.limits.nodes || time_up || self.stop.load(Ordering::Relaxed) {
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
                steps: steps.clone(),
                value: visit(game, steps, |g| self.leaf_static(g, me)),
            })
            .collect();
        self.only = only;
        self.nodes += children.len() as u64;
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
        let room = self.limits.nodes.saturating_sub(self.nodes);
        let this = &*self;
        let mut full = false;
        game.for_each_turn_mut(&mut |g, steps| {
            let (value, more) = value(this, g);
            out.push(Child {
                steps: steps.to_vec(),
                value,
            });
            full = out.len() as u64 >= room;
            more && !full
        });
        self.nodes += out.len() as u64;
        if full {
            // The budget ran out inside this node: what was found is not all its turns.
            self.aborted = true;
        }
        out
    }

    /// Every turn with the chooser's evaluation after it, to order them by.
    fn scored_children<B: CellSet>(&mut self, game: &mut Game<B>, me: Side) -> Vec<Child<i32>> {
        self.children(game, |s, g| (s.leaf_static(g, me), true))
    }

    fn leaf_static<B: CellSet>(&self, game: &Game<B>, me: Side) -> i32 {
        terminal(game, me).unwrap_or_else(|| relative(&evaluate(game), me, game.sides().count()))
    }

    /// Paranoid: `me` maximises, everyone else minimises `me`'s score.
    fn paranoid<B: CellSet>(
        &mut self,
        game: &mut Game<B>,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        me: Side,
    ) -> i32 {
        if let Some(t) = terminal(game, me) {
            return t;
        }
        if depth == 0 || self.out_of_budget() {
            return self.leaf_static(game, me);
        }
        let maximising = game.side_to_move() == me;
        if depth == 1 {
            return self.last_layer(game, alpha, beta, me, maximising);
        }
        let mut children = self.scored_children(game, me);
        if children.is_empty() {
            return self.leaf_static(game, me);
        }
        order(&mut children);
        if !maximising {
            children.reverse();
        }
        let mut best = if maximising { -WIN - 1 } else { WIN + 1 };
        for child in &children {
            let v = visit(game, &child.steps, |g| {
                self.paranoid(g, depth - 1, alpha, beta, me)
            });
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta || self.aborted {
                break;
            }
        }
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
            let v = s.leaf_static(g, me);
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

    /// Best-reply search, the opponents' layer: the single strongest reply of any
    /// opponent (the others pass), then `me` again.
    fn brs_min<B: CellSet>(
        &mut self,
        game: &mut Game<B>,
        depth: u32,
        alpha: i32,
        mut beta: i32,
        me: Side,
    ) -> i32 {
        if let Some(t) = terminal(game, me) {
            return t;
        }
        if depth == 0 || self.out_of_budget() {
            return self.leaf_static(game, me);
        }
        let opponents: Vec<Side> = game
            .sides_in()
            .into_iter()
            .filter(|s| *s != me && game.standing(*s) == Standing::Playing)
            .collect();
        let mut best = WIN + 1;
        let mut any = false;
        for o in opponents {
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
                    let v = s.leaf_static(g, me);
                    g.restore(back);
                    best = best.min(v);
                    beta = beta.min(v);
                    ((), alpha < beta)
                });
                any |= !replies.is_empty();
                if alpha >= beta || self.aborted {
                    game.restore(saved);
                    return best;
                }
                game.restore(saved);
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
        if let Some(t) = terminal(game, me) {
            return t;
        }
        if depth == 0 || self.out_of_budget() {
            return self.leaf_static(game, me);
        }
        if depth == 1 {
            return self.last_layer(game, alpha, beta, me, true);
        }
        let mut children = self.scored_children(game, me);
        if children.is_empty() {
            return self.leaf_static(game, me);
        }
        order(&mut children);
        let mut best = -WIN - 1;
        for child in &children {
            let v = visit(game, &child.steps, |g| {
                self.brs_min(g, depth - 1, alpha, beta, me)
            });
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta || self.aborted {
                break;
            }
        }
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
        let seats = game.sides().count();
        let scores = evaluate(game);
        for side in game.sides() {
            out[side.index()] =
                terminal(game, side).unwrap_or_else(|| relative(&scores, side, seats));
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
