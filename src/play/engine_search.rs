//! The engine's searches as the game starts them, one type whatever runs them: the
//! two-player search ([`EngineSearch`]: the opponent's move, the analysis board's lines,
//! the hint) and the search of a whole turn of a game of more sides ([`TurnSearch`]: an
//! engine seat, the analysis of a table). Natively each runs on a thread of its own;
//! in a browser, in an engine Web Worker (`crate::web::worker`), told the variant,
//! the strength and the game so far through the engine's protocol. The callers poll
//! each frame and never wait.

use std::sync::Arc;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::AtomicBool;

use hexchess_core::{Game, Position, Step};
use hexchess_engine::multi::{MultiLimits, Strategy};
#[cfg(not(target_arch = "wasm32"))]
use hexchess_engine::{RunningSearch, multi::MultiSearcher};
use hexchess_engine::{
    SearchInfo, SearchLimits, SearchOptions, SearchResult, Searcher, Tablebases,
};

#[cfg(not(target_arch = "wasm32"))]
use super::work::{Answer, Job, SEARCH_STACK};

/// How long a search without end (the analysis board's) thinks in a browser's worker,
/// which cannot be told to stop: ten minutes.
#[cfg(target_arch = "wasm32")]
const LONGEST_WORKER_SEARCH_MS: u64 = 10 * 60 * 1000;

/// What a two-player search is asked.
pub struct SearchAsk {
    /// The game up to the position searched: the engine sees its history.
    pub game: Game,
    /// The same position on the narrow cell sets the search runs on.
    pub position: Position,
    pub limits: SearchLimits,
    pub options: SearchOptions,
    /// The searcher of an earlier search (its hash table), where it can be kept.
    pub kept: Option<Searcher>,
    /// The position's endgame tables (a browser's worker reads its own copies).
    pub tables: Arc<Tablebases>,
    /// Which worker runs it in a browser: searches of one purpose share one.
    pub purpose: &'static str,
}

/// A two-player search under way.
pub struct EngineSearch {
    #[cfg(not(target_arch = "wasm32"))]
    running: RunningSearch,
    #[cfg(target_arch = "wasm32")]
    running: crate::web::worker::WorkerSearch,
}

impl EngineSearch {
    /// Starts the search; `on_info` hears each completed depth (on the search's
    /// thread, or in a browser when [`EngineSearch::poll`] reads it).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn start(
        ask: SearchAsk,
        on_info: impl FnMut(&Position, &SearchInfo) + Send + 'static,
    ) -> Result<EngineSearch, String> {
        let SearchAsk {
            position,
            limits,
            options,
            kept,
            tables,
            ..
        } = ask;
        // Made (or re-optioned) on the search thread: a fresh hash table takes a while.
        let make = move || {
            let mut searcher = kept.unwrap_or_else(|| Searcher::new(options));
            if *searcher.options() != options {
                searcher.set_options(options);
            }
            searcher.set_tablebases(tables);
            searcher
        };
        let running = RunningSearch::start(make, position, limits, on_info, |_, _| {});
        Ok(EngineSearch { running })
    }

    #[cfg(target_arch = "wasm32")]
    pub fn start(
        ask: SearchAsk,
        on_info: impl FnMut(&Position, &SearchInfo) + Send + 'static,
    ) -> Result<EngineSearch, String> {
        let variant = ask.position.rules().id().to_string();
        // No stop reaches a worker's search: one without end thinks for a while, then
        // its lines stay.
        let limits = if ask.limits.ends_by_itself() {
            ask.limits.clone()
        } else {
            SearchLimits::movetime(LONGEST_WORKER_SEARCH_MS)
        };
        let lines = crate::web::lines::search_lines(&variant, &ask.game, &ask.options, &limits);
        let running =
            crate::web::worker::WorkerSearch::start(ask.purpose, ask.position, &lines, on_info)?;
        Ok(EngineSearch { running })
    }

    /// Whether it has answered (a browser's worker's lines are read on the way).
    pub fn poll(&mut self) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        return self.running.is_finished();
        #[cfg(target_arch = "wasm32")]
        return self.running.poll();
    }

    /// Asks it to stop: a thread answers soon with what it has; a browser's worker is
    /// ended and answers nothing.
    pub fn stop(&mut self) {
        self.running.stop();
    }

    /// Its answer (waiting for a thread that has not finished), and its searcher to
    /// keep for the next search where there is one.
    pub fn finish(self) -> (Option<Searcher>, SearchResult) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (searcher, result) = self.running.join();
            (Some(searcher), result)
        }
        #[cfg(target_arch = "wasm32")]
        {
            let mut running = self.running;
            (None, running.take_result())
        }
    }
}

/// A search for a whole turn of a game of more sides under way (dropped: stopped).
pub struct TurnSearch {
    #[cfg(not(target_arch = "wasm32"))]
    job: Job<Option<Vec<Step>>>,
    #[cfg(target_arch = "wasm32")]
    job: crate::web::worker::WorkerTurn,
    #[cfg(target_arch = "wasm32")]
    game: Game,
}

/// A turn search's answer, when the frame asks.
#[derive(Debug, PartialEq, Eq)]
pub enum TurnAnswer {
    Pending,
    /// The turn's steps (none: the search found no turn).
    Ready(Option<Vec<Step>>),
    /// The search failed (its thread or worker ended without an answer).
    Lost,
}

impl TurnSearch {
    /// Searches the turn of the side on move in `game` with `strategy` within
    /// `limits`; `seed` varies the choices of a random search.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn start(
        purpose: &'static str,
        game: Game,
        strategy: Strategy,
        seed: u64,
        limits: MultiLimits,
    ) -> Result<TurnSearch, String> {
        let job = Job::start(purpose, SEARCH_STACK, move |stop: Arc<AtomicBool>| {
            let mut searcher = MultiSearcher::new(strategy, seed);
            searcher.choose(&game, &limits, &stop).map(|c| c.steps)
        });
        Ok(TurnSearch { job })
    }

    #[cfg(target_arch = "wasm32")]
    pub fn start(
        purpose: &'static str,
        game: Game,
        strategy: Strategy,
        seed: u64,
        limits: MultiLimits,
    ) -> Result<TurnSearch, String> {
        let _ = seed;
        let variant = game.position().rules().id().to_string();
        let lines = crate::web::lines::turn_lines(&variant, &game, strategy, &limits);
        let job = crate::web::worker::WorkerTurn::start(purpose, &lines)?;
        Ok(TurnSearch { job, game })
    }

    /// The answer if it has come (once), without waiting.
    pub fn poll(&mut self) -> TurnAnswer {
        #[cfg(not(target_arch = "wasm32"))]
        return match self.job.poll() {
            Answer::Pending => TurnAnswer::Pending,
            Answer::Ready(steps) => TurnAnswer::Ready(steps),
            Answer::Lost => TurnAnswer::Lost,
        };
        #[cfg(target_arch = "wasm32")]
        return match self.job.poll() {
            None => TurnAnswer::Pending,
            Some(None) => TurnAnswer::Ready(None),
            Some(Some(text)) => match self.game.turn_steps(&text) {
                Ok(steps) => TurnAnswer::Ready(Some(steps)),
                Err(e) => {
                    bevy::log::warn!("engine worker: its turn '{text}': {e}");
                    TurnAnswer::Lost
                }
            },
        };
    }
}
