//! The engine as the game asks it, one type whatever the game and wherever it runs: the
//! opponent's move, an engine seat's turn, the analysis board's lines and a table's
//! analysis, the hint, the browser's review. The game gives the engine's facade
//! ([`hexchess_engine::Engine`]) a [`Question`] and gets a turn back; the facade picks
//! the search. Natively it thinks on a thread of its own; in a browser, in an engine
//! Web Worker (`crate::web::worker`), told the variant, the strength and the game so far
//! through the engine's protocol, whose `go` asks the same facade. The callers poll each
//! frame and never wait.

use std::sync::Arc;

use hexchess_core::Position;
#[cfg(target_arch = "wasm32")]
use hexchess_engine::SearchLimits;
use hexchess_engine::multi::Strategy;
use hexchess_engine::{Answer, Engine, Question, SearchInfo, SearchOptions, Tablebases};

/// How long a search without end (the analysis board's) thinks in a browser's worker,
/// which cannot be told to stop: ten minutes.
#[cfg(target_arch = "wasm32")]
const LONGEST_WORKER_SEARCH_MS: u64 = 10 * 60 * 1000;

/// What the engine is asked, and how it is to think.
pub struct Ask {
    /// The game up to the position searched (the engine sees its history), its
    /// variant's two-player rules and the limits.
    pub question: Question,
    pub options: SearchOptions,
    /// How a game of more sides is searched.
    pub strategy: Strategy,
    /// The engine of an earlier search (its hash table), where it can be kept.
    pub kept: Option<Engine>,
    /// The position's endgame tables (a browser's worker reads its own copies).
    pub tables: Arc<Tablebases>,
    /// Which worker runs it in a browser: searches of one purpose share one.
    pub purpose: &'static str,
}

/// The engine thinking, off the frame.
pub struct EngineThinking {
    #[cfg(not(target_arch = "wasm32"))]
    thinking: hexchess_engine::Thinking,
    #[cfg(target_arch = "wasm32")]
    worker: crate::web::worker::WorkerThinking,
}

impl EngineThinking {
    /// Starts the engine on `ask`; `on_info` hears each completed depth of a two-player
    /// search (on the search's thread, or in a browser when [`EngineThinking::poll`]
    /// reads it), with the position its moves are on.
    pub fn start(
        ask: Ask,
        on_info: impl FnMut(&Position, &SearchInfo) + Send + 'static,
    ) -> Result<EngineThinking, String> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let mut engine = ask.kept.unwrap_or_else(|| Engine::new(ask.options));
            engine.set_options(ask.options);
            engine.set_strategy(ask.strategy);
            engine.set_tablebases(ask.tables);
            let thinking = engine
                .go(ask.question, on_info, |_, _| {})
                .map_err(|e| format!("{}: no thread for the engine: {e}", ask.purpose))?;
            Ok(EngineThinking { thinking })
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = (ask.kept, ask.tables);
            // No stop reaches a worker's search: one without end thinks for a while,
            // then its lines stay.
            let question = if ask.question.limits().ends_by_itself() {
                ask.question
            } else {
                ask.question
                    .with_limits(SearchLimits::movetime(LONGEST_WORKER_SEARCH_MS))
            };
            let lines = crate::web::lines::engine_lines(&question, &ask.options, ask.strategy);
            let worker =
                crate::web::worker::WorkerThinking::start(ask.purpose, question, &lines, on_info)?;
            Ok(EngineThinking { worker })
        }
    }

    /// Whether it has answered (a browser's worker's lines are read on the way).
    pub fn poll(&mut self) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        return self.thinking.is_finished();
        #[cfg(target_arch = "wasm32")]
        return self.worker.poll();
    }

    /// Asks it to stop: a thread answers soon with what it has; a browser's worker is
    /// ended and answers nothing.
    pub fn stop(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        self.thinking.stop();
        #[cfg(target_arch = "wasm32")]
        self.worker.stop();
    }

    /// Its answer (waiting for a thread that has not finished; none from a browser's
    /// worker that was given up or refused the question), and the engine to keep for
    /// the next search where there is one.
    pub fn finish(self) -> (Option<Engine>, Option<Answer>) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (engine, answer) = self.thinking.join();
            (Some(engine), Some(answer))
        }
        #[cfg(target_arch = "wasm32")]
        {
            let mut worker = self.worker;
            (None, worker.take_answer())
        }
    }
}
