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

/// A child of a node: the turn's steps and the game after it.
struct Child<B: CellSet> {
    steps: Vec<Step>,
    game: Game<B>,
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
        let root = game.lean();
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
            self.children(&root)
        } else {
            self.allowed_children(&root)
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
        self.order(&mut children, me);
        let mut best = MultiChoice {
            steps: children[0].steps.clone(),
            depth: 0,
            nodes: 0,
            score: self.leaf(&children[0].game, me),
        };
        for depth in 1..=limits.depth.max(1) {
            let mut scores = Vec::with_capacity(children.len());
            let mut alpha = -WIN - 1;
            for child in &children {
                let score = match self.strategy {
                    Strategy::Paranoid => self.paranoid(&child.game, depth - 1, alpha, WIN + 1, me),
                    Strategy::BestReply => self.brs_min(&child.game, depth - 1, alpha, WIN + 1, me),
                    Strategy::MaxN => {
                        let v = self.maxn(&child.game, depth - 1);
                        relative(&v, me, child.game.sides().count())
                    }
                    Strategy::Random => unreachable!("handled above"),
                };
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

    /// The turns of [`MultiSearcher::only_turns`], with the game after each.
    fn allowed_children<B: CellSet>(&mut self, game: &Game<B>) -> Vec<Child<B>> {
        let children: Vec<Child<B>> = self
            .only
            .iter()
            .map(|steps| {
                let mut g = game.clone();
                for s in steps {
                    g.play_unchecked(*s);
                }
                Child {
                    steps: steps.clone(),
                    game: g,
                }
            })
            .collect();
        self.nodes += children.len() as u64;
        children
    }

    /// Every whole turn of the side to move, with the game after it.
    fn children<B: CellSet>(&mut self, game: &Game<B>) -> Vec<Child<B>> {
        let before = game.turns().len();
        let mut out = Vec::new();
        let room = self.limits.nodes.saturating_sub(self.nodes);
        let complete = game.for_each_turn(&mut |g| {
            let steps = g
                .turns()
                .get(before)
                .map(|t| t.1.clone())
                .unwrap_or_else(|| g.current_steps().to_vec());
            out.push(Child {
                steps,
                game: g.clone(),
            });
            (out.len() as u64) < room
        });
        self.nodes += out.len() as u64;
        if !complete {
            // The budget ran out inside this node: what was found is not all its turns.
            self.aborted = true;
        }
        out
    }

    /// Best first for `me`: by the evaluation after each turn.
    fn order<B: CellSet>(&self, children: &mut [Child<B>], me: Side) {
        children.sort_by_cached_key(|c| -self.leaf_static(&c.game, me));
    }

    fn leaf_static<B: CellSet>(&self, game: &Game<B>, me: Side) -> i32 {
        terminal(game, me).unwrap_or_else(|| relative(&evaluate(game), me, game.sides().count()))
    }

    fn leaf<B: CellSet>(&mut self, game: &Game<B>, me: Side) -> i32 {
        self.leaf_static(game, me)
    }

    /// Paranoid: `me` maximises, everyone else minimises `me`'s score.
    fn paranoid<B: CellSet>(
        &mut self,
        game: &Game<B>,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        me: Side,
    ) -> i32 {
        if let Some(t) = terminal(game, me) {
            return t;
        }
        if depth == 0 || self.out_of_budget() {
            return self.leaf(game, me);
        }
        let mut children = self.children(game);
        if children.is_empty() {
            return self.leaf(game, me);
        }
        let maximising = game.side_to_move() == me;
        if depth > 1 {
            self.order(&mut children, me);
            if !maximising {
                children.reverse();
            }
        }
        let mut best = if maximising { -WIN - 1 } else { WIN + 1 };
        for child in &children {
            let v = self.paranoid(&child.game, depth - 1, alpha, beta, me);
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

    /// Best-reply search, the opponents' layer: the single strongest reply of any
    /// opponent (the others pass), then `me` again.
    fn brs_min<B: CellSet>(
        &mut self,
        game: &Game<B>,
        depth: u32,
        alpha: i32,
        mut beta: i32,
        me: Side,
    ) -> i32 {
        if let Some(t) = terminal(game, me) {
            return t;
        }
        if depth == 0 || self.out_of_budget() {
            return self.leaf(game, me);
        }
        let opponents: Vec<Side> = game
            .sides_in()
            .into_iter()
            .filter(|s| *s != me && game.standing(*s) == Standing::Playing)
            .collect();
        let mut best = WIN + 1;
        let mut any = false;
        for o in opponents {
            let Some(handed) = game.handed_to(o) else {
                continue;
            };
            let mut replies = self.children(&handed);
            if depth > 1 {
                self.order(&mut replies, me);
                replies.reverse();
            }
            for reply in &replies {
                any = true;
                let v = match reply.game.handed_to(me) {
                    Some(back) => self.brs_max(&back, depth - 1, alpha, beta, me),
                    None => self.leaf(&reply.game, me),
                };
                best = best.min(v);
                beta = beta.min(v);
                if alpha >= beta || self.aborted {
                    return best;
                }
            }
        }
        if any { best } else { self.leaf(game, me) }
    }

    /// Best-reply search, `me`'s layer.
    fn brs_max<B: CellSet>(
        &mut self,
        game: &Game<B>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        me: Side,
    ) -> i32 {
        if let Some(t) = terminal(game, me) {
            return t;
        }
        if depth == 0 || self.out_of_budget() {
            return self.leaf(game, me);
        }
        let mut children = self.children(game);
        if children.is_empty() {
            return self.leaf(game, me);
        }
        if depth > 1 {
            self.order(&mut children, me);
        }
        let mut best = -WIN - 1;
        for child in &children {
            let v = self.brs_min(&child.game, depth - 1, alpha, beta, me);
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
    fn maxn<B: CellSet>(&mut self, game: &Game<B>, depth: u32) -> [i32; MAX_SIDES] {
        if game.end().is_some() || depth == 0 || self.out_of_budget() {
            return self.vector(game);
        }
        let children = self.children(game);
        if children.is_empty() {
            return self.vector(game);
        }
        let mover = game.side_to_move();
        let mut best: Option<[i32; MAX_SIDES]> = None;
        for child in &children {
            let v = self.maxn(&child.game, depth - 1);
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
