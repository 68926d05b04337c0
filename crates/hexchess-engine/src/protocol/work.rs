//! Long work off the protocol's thread: `go perft` (moves, or whole turns in a game of
//! more sides) and `bench` run on a thread of their own, as searches do, so that
//! `isready` is answered while they run and `stop` and `quit` end them at once (a count
//! of depth 7 runs for a quarter of an hour). A count that is stopped says so instead
//! of printing a total that is not one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::search::turn_lan;
use super::{SharedOut, say};
use crate::bench;
use crate::eval::EvalMode;
use crate::job::{self, Job};
use hexchess_core::game::{Game, TurnSteps};
use hexchess_core::position::Position;

/// A count or a bench running on its own thread. Dropping it stops it.
pub(crate) struct Task {
    stop: Arc<AtomicBool>,
    handle: Option<Job<()>>,
}

impl Task {
    /// Starts `work` on a thread called `name`; `work` ends early once its flag is set.
    pub(crate) fn start(
        name: &str,
        work: impl FnOnce(&Arc<AtomicBool>) + Send + 'static,
    ) -> std::io::Result<Task> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = job::start(name, None, move || work(&flag))?;
        Ok(Task {
            stop,
            handle: Some(handle),
        })
    }

    /// Stops the work and waits for it to say that it stopped.
    pub(crate) fn stop(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.join();
    }

    /// Waits for the work to end by itself.
    pub(crate) fn wait(mut self) {
        self.join();
    }

    fn join(&mut self) {
        if let Some(handle) = self.handle.take() {
            // A panic in the work has been reported on stderr already; the protocol goes
            // on.
            let _ = handle.join();
        }
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.join();
    }
}

/// `go perft`: each root move with the leaves under it, sorted, then the total; or,
/// once stopped, how far it got.
pub(crate) fn perft(mut pos: Position, depth: u32, stop: &AtomicBool) -> String {
    let moves = pos.legal_moves();
    let mut lines = Vec::with_capacity(moves.len());
    for (done, &mv) in moves.iter().enumerate() {
        pos.make_move(mv);
        let leaves = if depth <= 1 {
            Some(1)
        } else {
            pos.perft_until(depth - 1, stop)
        };
        pos.unmake_move();
        match leaves {
            Some(n) => lines.push((pos.move_to_lan(mv), n)),
            None => return stopped_count(done, moves.len(), "moves"),
        }
    }
    divide_text(lines)
}

/// `go perft` in a game of more sides: each turn with the whole turns under it, then the
/// total; or, once stopped, how far it got.
pub(crate) fn count_turns(game: &Game, depth: u32, stop: &AtomicBool) -> String {
    let before = game.turns().len();
    let mut lines: Vec<(String, u64)> = Vec::new();
    let mut turns = 0;
    let mut stopped = false;
    game.for_each_turn(&mut |g| {
        turns += 1;
        if stopped {
            return true;
        }
        let steps = g
            .turns()
            .get(before)
            .map(|t| t.1)
            .unwrap_or(TurnSteps::EMPTY);
        let leaves = if depth <= 1 {
            Some(1)
        } else {
            g.perft_until(depth - 1, stop)
        };
        match leaves {
            Some(n) => lines.push((turn_lan(game, &steps), n)),
            None => stopped = true,
        }
        true
    });
    if stopped {
        return stopped_count(lines.len(), turns, "turns");
    }
    divide_text(lines)
}

/// The text of a finished count: one `move: leaves` line per root move (sorted), a
/// blank line, and `Nodes searched: total`.
pub(crate) fn divide_text(mut lines: Vec<(String, u64)>) -> String {
    lines.sort();
    let total: u64 = lines.iter().map(|l| l.1).sum();
    let mut text = String::new();
    for (mv, n) in lines {
        text.push_str(&format!("{mv}: {n}\n"));
    }
    text.push_str(&format!("\nNodes searched: {total}"));
    text
}

/// What a stopped count says: `done` of `of` root moves (or turns) counted.
pub(crate) fn stopped_count(done: usize, of: usize, what: &str) -> String {
    format!("info string perft stopped: {done} of {of} root {what} counted")
}

/// `bench`: the bench positions searched one by one, a line for each, then the totals;
/// once stopped, how many it searched (a partial bench has no signature to give).
pub(crate) fn bench(out: &SharedOut, depth: u32, stop: &Arc<AtomicBool>) {
    let lines = bench::run_until(depth, EvalMode::FULL, stop, |l| {
        say(
            out,
            format!(
                "info string bench {} {} nodes {} time {} bestmove {}",
                l.variant, l.fen, l.nodes, l.millis, l.best
            ),
        );
    });
    if stop.load(Ordering::Relaxed) {
        let of = bench::BENCH_POSITIONS.len();
        say(
            out,
            format!(
                "info string bench stopped: {} of {of} positions searched",
                lines.len()
            ),
        );
        return;
    }
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let millis: u128 = lines.iter().map(|l| l.millis).sum::<u128>().max(1);
    say(out, format!("Nodes searched: {nodes}"));
    say(
        out,
        format!("Nodes/second: {}", nodes as u128 * 1000 / millis),
    );
}
