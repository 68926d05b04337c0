//! Search limits and time management.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use web_time::Instant;

use hexchess_core::moves::Move;
use hexchess_core::piece::Side;

/// A chess clock as the protocol reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's time left (`wtime`).
    pub white: Duration,
    /// Black's time left (`btime`).
    pub black: Duration,
    /// White's increment per move (`winc`).
    pub white_increment: Duration,
    /// Black's increment per move (`binc`).
    pub black_increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// What bounds one search. Unset fields do not limit it; with nothing set the search
/// runs until stopped (or to the deepest ply).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Plies deep (two sides) or whole turns deep (more sides), at most.
    pub depth: Option<u32>,
    /// Nodes searched, at most.
    pub nodes: Option<u64>,
    /// Time to think, exactly (the search stops then).
    pub movetime: Option<Duration>,
    /// A clock to budget from (a share of the time left, with the increment).
    pub clock: Option<Clock>,
    /// Search until stopped: no deadline, and the answer waits for the stop even when
    /// the search ends sooner (a mate found, the deepest ply).
    pub infinite: bool,
    /// Stop as soon as a mate in this many moves or fewer is found (`go mate N`).
    pub mate: Option<u32>,
    /// Only these root moves are searched (`go searchmoves ...`); empty: all of them.
    pub searchmoves: Vec<Move>,
    /// Thinking on the opponent's time (`go ponder`): see [`Ponder`].
    pub ponder: Option<Ponder>,
}

/// A search on the opponent's time: while it is pondering no deadline binds and the
/// answer waits; at [`Ponder::hit`] (the opponent played the expected move) the clock's
/// deadlines start counting from that moment, as the player's own clock does.
#[derive(Clone, Debug)]
pub struct Ponder(Arc<PonderState>);

#[derive(Debug)]
struct PonderState {
    active: AtomicBool,
    hit_at: Mutex<Option<Instant>>,
}

impl Ponder {
    /// A search that starts pondering.
    pub fn new() -> Ponder {
        Ponder(Arc::new(PonderState {
            active: AtomicBool::new(true),
            hit_at: Mutex::new(None),
        }))
    }

    /// The expected move was played: from now the search is the player's own.
    pub fn hit(&self) {
        *self.0.hit_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.0.active.store(false, Ordering::Release);
    }

    /// Whether the search is still on the opponent's time.
    pub fn is_pondering(&self) -> bool {
        self.0.active.load(Ordering::Acquire)
    }

    /// When the ponder hit came, if it has.
    pub fn hit_at(&self) -> Option<Instant> {
        *self.0.hit_at.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Default for Ponder {
    fn default() -> Ponder {
        Ponder::new()
    }
}

/// Two ponder states are the same search's only if they are one state.
impl PartialEq for Ponder {
    fn eq(&self, other: &Ponder) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Ponder {}

/// Time left to spend on an answer, kept back from a clock for communication.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(15);

/// When to stop: `soft` is checked between iterations (do not start another depth),
/// `hard` inside the search (stop at once).
#[derive(Clone, Copy, Debug, Default)]
pub struct Deadlines {
    /// No new depth after this long.
    pub soft: Option<Duration>,
    /// Stop at once after this long.
    pub hard: Option<Duration>,
}

impl Deadlines {
    /// Whether the soft deadline has passed since `start`.
    pub fn soft_passed(&self, start: Instant) -> bool {
        self.soft.is_some_and(|s| start.elapsed() >= s)
    }

    /// Whether the hard deadline has passed since `start`.
    pub fn hard_passed(&self, start: Instant) -> bool {
        self.hard.is_some_and(|h| start.elapsed() >= h)
    }
}

impl SearchLimits {
    /// A search to `depth` and no other limit.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..Default::default()
        }
    }

    /// A search of `ms` milliseconds and no other limit.
    pub fn movetime(ms: u64) -> SearchLimits {
        SearchLimits {
            movetime: Some(Duration::from_millis(ms)),
            ..Default::default()
        }
    }

    /// Whether the answer must wait for `stop` (or a ponder hit) even when the search
    /// ends sooner, as the protocol asks of `go infinite` and `go ponder`.
    pub fn answer_waits(&self) -> bool {
        self.infinite || self.ponder.as_ref().is_some_and(Ponder::is_pondering)
    }

    /// Whether the search ends without a `stop`: it has a depth, a node count, a time or
    /// a mate to look for, and does not hold its answer. Where the search runs in place
    /// ([`crate::job::RUNS_IN_PLACE`]) it must, since no `stop` can reach it.
    pub fn ends_by_itself(&self) -> bool {
        let bounded = self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.clock.is_some()
            || self.mate.is_some();
        bounded && !self.infinite
    }

    /// The deadlines for `side` to move.
    pub fn deadlines(&self, side: Side) -> Deadlines {
        if self.infinite {
            return Deadlines::default();
        }
        if let Some(t) = self.movetime {
            let t = t
                .saturating_sub(Duration::from_millis(2))
                .max(Duration::from_millis(1));
            return Deadlines {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(c) = self.clock else {
            return Deadlines::default();
        };
        let (left, inc) = match side {
            Side::White => (c.white, c.white_increment),
            _ => (c.black, c.black_increment),
        };
        let usable = left
            .saturating_sub(MOVE_OVERHEAD)
            .max(Duration::from_millis(1));
        // Spread the clock over the moves to go (or a horizon of 30), plus most of the
        // increment; stop early between depths, and never spend more than a fifth of
        // what is left on one move in mid-search.
        let moves = c.moves_to_go.unwrap_or(30).clamp(1, 50);
        let base = usable / moves + inc * 3 / 4;
        let soft = (base / 2).min(usable);
        let hard = (base * 3).min(usable / 5 + inc / 2).min(usable).max(soft);
        Deadlines {
            soft: Some(soft),
            hard: Some(hard),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_ends_by_itself_only_with_a_bound_and_no_infinite() {
        assert!(!SearchLimits::default().ends_by_itself());
        assert!(SearchLimits::depth(3).ends_by_itself());
        assert!(SearchLimits::movetime(50).ends_by_itself());
        let mate = SearchLimits {
            mate: Some(2),
            ..Default::default()
        };
        assert!(mate.ends_by_itself());
        let infinite = SearchLimits {
            infinite: true,
            ..SearchLimits::depth(3)
        };
        assert!(!infinite.ends_by_itself());
    }

    #[test]
    fn clock_budget_stays_within_the_time_left() {
        let limits = SearchLimits {
            clock: Some(Clock {
                white: Duration::from_secs(60),
                black: Duration::from_millis(200),
                white_increment: Duration::from_secs(1),
                black_increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Default::default()
        };
        let w = limits.deadlines(Side::White);
        assert!(w.soft.unwrap() >= Duration::from_millis(900));
        assert!(w.hard.unwrap() <= Duration::from_secs(13));
        let b = limits.deadlines(Side::Black);
        assert!(b.hard.unwrap() <= Duration::from_millis(40), "{b:?}");
        assert!(b.soft.unwrap() <= b.hard.unwrap());
        let m = SearchLimits::movetime(100).deadlines(Side::White);
        assert_eq!(m.soft, m.hard);
        assert!(SearchLimits::depth(5).deadlines(Side::Black).hard.is_none());
    }
}
