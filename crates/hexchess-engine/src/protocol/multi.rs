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
use hexchess_core::catalog::CatalogEntry;
use hexchess_core::game::{Game, Standing, Step};
use hexchess_core::rules::Rules;

use super::{Engine, Go, SharedOut, Start, error, say, work};
use crate::multi::{MultiChoice, MultiLimits, MultiSearcher, Strategy};
use crate::{Ponder, SearchLimits};

/// A game of more sides being played through the protocol.
pub(crate) struct Table {
    rules: Arc<Rules<WideBitboard>>,
    game: Game<WideBitboard>,
    running: Option<(JoinHandle<()>, Arc<AtomicBool>)>,
    /// The running search's ponder state, for `ponderhit`.
    ponder: Option<Ponder>,
}

impl Table {
    pub(crate) fn new(entry: &CatalogEntry) -> Option<Table> {
        if entry.side_count() <= 2 {
            return None;
        }
        let rules = Arc::clone(&entry.rules);
        Some(Table {
            game: Game::new(Arc::clone(&rules)),
            rules,
            running: None,
            ponder: None,
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

    /// The opponent played the turn pondered on: the search's time runs from now.
    pub(crate) fn ponder_hit(&self) {
        if let Some(p) = self.ponder.as_ref().filter(|p| p.is_pondering()) {
            p.hit();
        }
    }

    /// The steps of each turn of `go searchmoves`, each one the game allows here, or
    /// what is wrong with one.
    fn read_turns(&self, texts: &[String]) -> Result<Vec<Vec<Step>>, String> {
        texts
            .iter()
            .map(|t| {
                let mut g = self.game.clone();
                let before = g.turns().len();
                g.play_turn(t)
                    .map_err(|e| format!("searchmoves '{t}': {e}; no search"))?;
                Ok(g.turns()
                    .get(before)
                    .map(|turn| turn.1.clone())
                    .unwrap_or_else(|| g.current_steps().to_vec()))
            })
            .collect()
    }

    /// Sets the game from the start or a FEN and whole turns; on an error nothing
    /// changes.
    pub(crate) fn set_position(&mut self, out: &SharedOut, start: &Start, turns: &[String]) {
        let mut game = match start {
            Start::StartPos => Game::new(Arc::clone(&self.rules)),
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

    /// Searches on its own thread (among the turns `only`, or all when it is empty) and
    /// prints `bestmove` with the whole turn; `go infinite` holds its answer until
    /// `stop`, and `go ponder` until `stop` or `ponderhit`.
    pub(crate) fn go(
        &mut self,
        out: &SharedOut,
        limits: SearchLimits,
        strategy: Strategy,
        seed: u64,
        only: Vec<Vec<Step>>,
    ) {
        self.stop();
        let game = self.game.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let answer_to = Arc::clone(out);
        let multi_limits = to_multi_limits(&limits, &game);
        self.ponder = limits.ponder.clone();
        let spawned = std::thread::Builder::new()
            .name("hexchess-multi-search".into())
            .spawn(move || {
                let mut searcher = MultiSearcher::new(strategy, seed);
                searcher.only_turns(only);
                searcher.ponder(limits.ponder.clone());
                let choice = searcher.choose(&game, &multi_limits, &flag);
                while limits.answer_waits() && !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
                answer(&answer_to, &game, choice.as_ref(), strategy);
            });
        match spawned {
            Ok(handle) => self.running = Some((handle, stop)),
            Err(e) => error(out, format!("cannot start a thread for the search: {e}")),
        }
    }

    /// A count of whole turns under each turn of the side to move, to run on a thread of
    /// its own (see [`work`]): what it prints, once done or stopped.
    pub(crate) fn counter(&self, depth: u32) -> impl FnOnce(&AtomicBool) -> String + Send + use<> {
        let game = self.game.clone();
        move |stop| count_turns(&game, depth, stop)
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
                .winners()
                .iter()
                .map(|s| self.rules.side_name(*s))
                .collect();
            text.push_str(&format!(
                "Over: {:?}, {}",
                end.termination,
                names.join(" and ")
            ));
        }
        say(out, text.trim_end());
    }
}

/// `go perft` in a game of more sides: each turn with the whole turns under it, then the
/// total; or, once stopped, how far it got.
fn count_turns(game: &Game<WideBitboard>, depth: u32, stop: &AtomicBool) -> String {
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
            .map(|t| t.1.clone())
            .unwrap_or_default();
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
        return work::stopped_count(lines.len(), turns, "turns");
    }
    work::divide_text(lines)
}

/// The protocol's answer to a search of whole turns: its depth, nodes and score, then
/// `bestmove` with the turn (`bestmove (none)` when there is none).
fn answer(
    out: &SharedOut,
    game: &Game<WideBitboard>,
    choice: Option<&MultiChoice>,
    strategy: Strategy,
) {
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
fn turn_lan(game: &Game<WideBitboard>, steps: &[Step]) -> String {
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
    /// `go` in a game of more sides: the search `MultiSearch` names, within the limits
    /// (and the level's node cap), among the turns of `searchmoves` if it names any (one
    /// the game does not allow is an error, and nothing is searched).
    pub(crate) fn go_multi(&mut self, go: Go) {
        self.searches += 1;
        let mut limits = go.limits;
        if let Some(cap) = crate::multi::skill_nodes(self.searcher().options().skill) {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        if go.ponder {
            limits.ponder = Some(Ponder::new());
        }
        let (search, seed) = (self.multi_search, self.searches);
        let Some(t) = self.table.as_mut() else {
            return;
        };
        match t.read_turns(&go.searchmoves) {
            Ok(only) => t.go(&self.out, limits, search, seed, only),
            Err(e) => error(&self.out, e),
        }
    }

    /// Plays a game of more sides, from its start.
    pub(crate) fn set_multi_variant(&mut self, id: &str) -> bool {
        let Some(entry) = self.catalog.get(id).filter(|e| e.side_count() > 2).cloned() else {
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
