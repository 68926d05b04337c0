//! The searches `go` starts, one kind for each number of sides: a two-player game is
//! searched move by move on its narrow position ([`Searcher`]), a game of more sides
//! turn by turn on the game itself ([`MultiSearcher`], the `MultiSearch` option's
//! strategy). Either runs on its own thread as a [`Running`] search, which `stop`,
//! `ponderhit` and the end of the input treat alike.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use hexchess_core::game::{Game, Step};
use hexchess_core::position::Position;

use super::{SharedOut, say};
use crate::job::{self, Job};
use crate::multi::{MultiChoice, MultiLimits, MultiSearcher, Strategy};
use crate::{Ponder, RunningSearch, SearchLimits, SearchResult, Searcher};

/// A search running on its own thread.
pub(crate) enum Running {
    /// A two-player search: it hands its searcher (and hash table) back when joined.
    TwoSides(RunningSearch),
    /// A search of whole turns in a game of more sides.
    MoreSides(TurnSearch),
}

impl Running {
    /// Asks the search to stop, waits for its `bestmove`, and gives back the
    /// two-player searcher.
    pub(crate) fn stop(self) -> Option<Searcher> {
        match self {
            Running::TwoSides(r) => {
                r.stop();
                Some(r.join().0)
            }
            Running::MoreSides(t) => {
                t.stop.store(true, Ordering::Relaxed);
                t.join();
                None
            }
        }
    }

    /// Waits for the search to end by itself (its `bestmove`), and gives back the
    /// two-player searcher.
    pub(crate) fn wait(self) -> Option<Searcher> {
        match self {
            Running::TwoSides(r) => Some(r.join().0),
            Running::MoreSides(t) => {
                t.join();
                None
            }
        }
    }

    pub(crate) fn is_finished(&self) -> bool {
        match self {
            Running::TwoSides(r) => r.is_finished(),
            Running::MoreSides(t) => t.handle.is_finished(),
        }
    }

    /// The opponent played the move (or turn) pondered on: the search's time runs from
    /// now. Nothing for a search that was not pondering.
    pub(crate) fn ponder_hit(&self) {
        match self {
            Running::TwoSides(r) => {
                r.ponder_hit();
            }
            Running::MoreSides(t) => {
                if let Some(p) = t.ponder.as_ref().filter(|p| p.is_pondering()) {
                    p.hit();
                }
            }
        }
    }
}

/// A search of whole turns on its thread, with its stop flag and its ponder state.
pub(crate) struct TurnSearch {
    handle: Job<()>,
    stop: Arc<AtomicBool>,
    ponder: Option<Ponder>,
}

impl TurnSearch {
    fn join(self) {
        // A panic in the search has been reported on stderr already; the protocol
        // goes on.
        let _ = self.handle.join();
    }
}

/// What a search of whole turns is asked: the game, the turns it may choose among
/// (all when empty), the strategy and the seed of its random choices.
pub(crate) struct TurnQuestion {
    /// The game as the rules judge it (its draws by rule end lines of the search).
    pub game: Game,
    pub only: Vec<Vec<Step>>,
    pub strategy: Strategy,
    pub seed: u64,
}

/// Searches whole turns on a thread of its own and prints `bestmove` with the whole
/// turn; `go infinite` holds its answer until `stop`, and `go ponder` until `stop` or
/// `ponderhit`.
pub(crate) fn start_turn_search(
    out: &SharedOut,
    question: TurnQuestion,
    limits: SearchLimits,
) -> std::io::Result<TurnSearch> {
    let TurnQuestion {
        game,
        only,
        strategy,
        seed,
    } = question;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let answer_to = Arc::clone(out);
    let multi_limits = to_multi_limits(&limits, &game);
    let ponder = limits.ponder.clone();
    let handle = job::start("hexchess-multi-search", None, move || {
        let mut searcher = MultiSearcher::new(strategy, seed);
        searcher.only_turns(only);
        searcher.ponder(limits.ponder.clone());
        let choice = searcher.choose(&game, &multi_limits, &flag);
        while limits.answer_waits() && !flag.load(Ordering::Relaxed) && !job::RUNS_IN_PLACE {
            job::pause();
        }
        answer(&answer_to, &game, choice.as_ref(), strategy);
    })?;
    Ok(TurnSearch {
        handle,
        stop,
        ponder,
    })
}

/// The steps of each turn of `go searchmoves`, each one the game allows here, or
/// what is wrong with one.
pub(crate) fn read_turns(game: &Game, texts: &[String]) -> Result<Vec<Vec<Step>>, String> {
    texts
        .iter()
        .map(|t| {
            let mut g = game.clone();
            let before = g.turns().len();
            g.play_turn(t)
                .map_err(|e| format!("searchmoves '{t}': {e}; no search"))?;
            Ok(g.turns()
                .get(before)
                .map(|turn| turn.1.to_vec())
                .unwrap_or_else(|| g.current_steps().to_vec()))
        })
        .collect()
}

/// The protocol's answer to a search of whole turns: its depth, nodes and score, then
/// `bestmove` with the turn (`bestmove (none)` when there is none).
fn answer(out: &SharedOut, game: &Game, choice: Option<&MultiChoice>, strategy: Strategy) {
    match choice {
        Some(c) => {
            say(
                out,
                format!(
                    "info depth {} nodes {} score cp {} string {}",
                    c.depth, c.nodes, c.score, strategy
                ),
            );
            say(out, format!("bestmove {}", turn_lan(game, &c.steps)));
        }
        None => say(out, "bestmove (none)"),
    }
}

/// A whole turn in long algebraic, steps joined by `&`.
pub(crate) fn turn_lan(game: &Game, steps: &[Step]) -> String {
    let mut g = game.clone();
    let mut parts = Vec::new();
    for s in steps {
        if *s != Step::Stop {
            parts.push(g.step_lan(*s));
        }
        g.play_unchecked(*s);
    }
    parts.join("&")
}

/// The protocol's limits as a search of whole turns takes them: nodes and depth as
/// given, a move time, or a share of the side to move's clock (`wtime`/`winc`
/// whatever its seat).
fn to_multi_limits(limits: &SearchLimits, game: &Game) -> MultiLimits {
    let mut m = MultiLimits {
        nodes: limits.nodes.unwrap_or(u64::MAX),
        depth: limits.depth.unwrap_or(64),
        time: limits.movetime,
    };
    if let Some(clock) = &limits.clock
        && m.time.is_none()
    {
        let (left, inc) = if game.side_to_move().index() == 1 && clock.black > Duration::ZERO {
            (clock.black, clock.black_increment)
        } else {
            (clock.white, clock.white_increment)
        };
        m.time = Some(left / 30 + inc / 2);
    }
    let unbounded =
        limits.nodes.is_none() && limits.depth.is_none() && m.time.is_none() && !limits.infinite;
    if unbounded {
        m.nodes = MultiLimits::default().nodes;
    }
    m
}

/// The protocol's answer to a two-player search: `bestmove <move>`, with `ponder
/// <move>` when the line goes on (the reply the engine expects, for a GUI that
/// ponders), or `bestmove (none)` when there is no legal move.
pub(crate) fn bestmove_line(pos: &Position, result: &SearchResult) -> String {
    let Some(best) = result.best else {
        return "bestmove (none)".to_string();
    };
    let mut line = format!("bestmove {}", pos.move_to_lan(best));
    if let [first, reply, ..] = result.pv[..]
        && first == best
    {
        let mut after = pos.clone();
        after.make_move(best);
        if after.is_legal(reply) {
            line.push_str(&format!(" ponder {}", after.move_to_lan(reply)));
        }
    }
    line
}
