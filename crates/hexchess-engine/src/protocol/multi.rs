//! The protocol for games of more than two sides: the same commands over a
//! [`Game`] instead of a position. `position ... moves` takes whole turns
//! (`e3h5&i9i10`, a removal `-p11`, a swap `l11>r`), `go` answers `bestmove` with a
//! whole turn, `perft` counts whole turns, `d` shows the standings too. The search is
//! the `MultiSearch` option's (docs/engine.md).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use hexchess_core::bitboard::WideBitboard;
use hexchess_core::catalog::MultiEntry;
use hexchess_core::multi::{Game, Standing, Step};
use hexchess_core::rules::Rules;

use super::{Engine, SharedOut, Start, error, say};
use crate::SearchLimits;
use crate::multi::{MultiLimits, MultiSearcher, Strategy};

/// A game of more sides being played through the protocol.
pub(crate) struct Table {
    rules: Arc<Rules<WideBitboard>>,
    game: Game<WideBitboard>,
    running: Option<(JoinHandle<()>, Arc<AtomicBool>)>,
}

impl Table {
    pub(crate) fn new(entry: &MultiEntry) -> Option<Table> {
        let rules = Arc::clone(&entry.rules);
        Some(Table {
            game: Game::new(Arc::clone(&rules))?,
            rules,
            running: None,
        })
    }

    pub(crate) fn rules(&self) -> &Rules<WideBitboard> {
        &self.rules
    }

    /// Stops a running search (its `bestmove` is printed) and waits for it.
    pub(crate) fn stop(&mut self) {
        if let Some((handle, stop)) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
    }

    /// Waits for a running search to end by itself.
    pub(crate) fn wait(&mut self) {
        if let Some((handle, _)) = self.running.take() {
            let _ = handle.join();
        }
    }

    pub(crate) fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|(h, _)| !h.is_finished())
    }

    /// Sets the game from the start or a FEN and whole turns; on an error nothing
    /// changes.
    pub(crate) fn set_position(&mut self, out: &SharedOut, start: &Start, turns: &[String]) {
        let mut game = match start {
            Start::StartPos => match Game::new(Arc::clone(&self.rules)) {
                Some(g) => g,
                None => return error(out, "not a game of more sides"),
            },
            Start::Fen(fen) => match Game::from_fen(Arc::clone(&self.rules), fen) {
                Ok(g) => g,
                Err(e) => return error(out, format!("bad FEN: {e}")),
            },
        };
        for (i, t) in turns.iter().enumerate() {
            if let Err(e) = game.play_turn(t) {
                return error(
                    out,
                    format!("{t}: {e} (after {i} turns); position unchanged"),
                );
            }
        }
        self.stop();
        self.game = game;
    }

    /// Searches on its own thread and prints `bestmove` with the whole turn.
    pub(crate) fn go(
        &mut self,
        out: &SharedOut,
        limits: SearchLimits,
        strategy: Strategy,
        seed: u64,
    ) {
        self.stop();
        let game = self.game.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let out = Arc::clone(out);
        let multi_limits = to_multi_limits(&limits, &game);
        let handle = std::thread::spawn(move || {
            let mut searcher = MultiSearcher::new(strategy, seed);
            let choice = searcher.choose(&game, &multi_limits, &flag);
            match choice {
                Some(c) => {
                    say(
                        &out,
                        format!(
                            "info depth {} nodes {} score cp {} string {}",
                            c.depth, c.nodes, c.score, strategy
                        ),
                    );
                    say(&out, format!("bestmove {}", turn_lan(&game, &c.steps)));
                }
                None => say(&out, "bestmove (none)"),
            }
        });
        self.running = Some((handle, stop));
    }

    /// Counts whole turns under each turn of the side to move.
    pub(crate) fn perft(&self, out: &SharedOut, depth: u32) {
        let mut lines: Vec<(String, u64)> = Vec::new();
        let before = self.game.turns().len();
        if depth > 0 {
            self.game.for_each_turn(&mut |g| {
                let steps = g
                    .turns()
                    .get(before)
                    .map(|t| t.1.clone())
                    .unwrap_or_default();
                lines.push((turn_lan(&self.game, &steps), g.perft(depth - 1)));
                true
            });
        }
        lines.sort();
        let total: u64 = if depth == 0 {
            1
        } else {
            lines.iter().map(|l| l.1).sum()
        };
        let mut text = String::new();
        for (t, n) in lines {
            text.push_str(&format!("{t}: {n}\n"));
        }
        text.push_str(&format!("\nNodes searched: {total}"));
        say(out, text);
    }

    /// The board, the FEN, who moves and where each side stands.
    pub(crate) fn display(&self, out: &SharedOut) {
        let g = &self.game;
        let pos = g.position();
        let mut text = pos.ascii();
        text.push_str(&format!("Variant: {}\n", self.rules.name()));
        text.push_str(&format!("Fen: {}\n", g.to_fen()));
        text.push_str(&format!(
            "To move: {} ({} move(s) this turn)\n",
            self.rules.side_name(g.side_to_move()),
            g.moves_this_turn().0.max(1)
        ));
        for side in g.sides() {
            let standing = match g.standing(side) {
                Standing::Playing => "playing",
                Standing::Frozen => "checkmated: loses its turns",
                Standing::Out => "out",
            };
            let owed = match g.owed(side) {
                0 => String::new(),
                v => format!(", owes a piece worth {v}"),
            };
            text.push_str(&format!(
                "{}: {standing}{owed}\n",
                self.rules.side_name(side)
            ));
        }
        if let Some(end) = g.end() {
            let names: Vec<&str> = end
                .winners
                .iter()
                .map(|s| self.rules.side_name(*s))
                .collect();
            text.push_str(&format!("Over: {:?}, {}", end.reason, names.join(" and ")));
        }
        say(out, text.trim_end());
    }
}

/// A whole turn in long algebraic, steps joined by `&`.
fn turn_lan(game: &Game<WideBitboard>, steps: &[Step]) -> String {
    let mut g = game.clone();
    let mut parts = Vec::new();
    for s in steps {
        if *s != Step::Stop {
            parts.push(g.step_lan(*s));
        }
        g.play(*s);
    }
    parts.join("&")
}

/// The protocol's limits as a search of whole turns takes them: nodes and depth as
/// given, a move time, or a share of the side to move's clock (`wtime`/`winc`
/// whatever its seat).
fn to_multi_limits(limits: &SearchLimits, game: &Game<WideBitboard>) -> MultiLimits {
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

impl Engine {
    /// Plays a game of more sides, from its start.
    pub(crate) fn set_multi_variant(&mut self, id: &str) -> bool {
        let Some(entry) = self.catalog.get_multi(id).cloned() else {
            return false;
        };
        self.stop();
        match Table::new(&entry) {
            Some(t) => self.table = Some(t),
            None => error(&self.out, format!("{id} is not a game of more sides")),
        }
        true
    }
}
