//! A game's review off the frame: natively one job on a thread of its own; in a
//! browser, each position searched in turn by an engine worker and the moves judged at
//! the end from those searches, as the native review judges them (`review_searched`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use hexchess_core::{Game, Move, Position};
use hexchess_engine::review::{GameReview, ReviewError};

use super::Answer;

/// A review running: how far it is, and its answer when the frame asks.
pub struct ReviewWork {
    /// Positions searched so far.
    done: Arc<AtomicUsize>,
    /// Positions to search: one per move and the last.
    total: usize,
    work: Work,
}

#[cfg(not(target_arch = "wasm32"))]
type Work = super::Job<Result<GameReview, ReviewError>>;
#[cfg(target_arch = "wasm32")]
type Work = browser::WorkerReview;

impl ReviewWork {
    /// Starts the review of `moves` from `start` (two sides, on the engine's cell sets),
    /// each position searched to `nodes`; `game` is the game they are of, whose history
    /// the engine sees.
    pub fn start(start: Position, moves: Vec<Move>, game: Game, nodes: u64) -> ReviewWork {
        let done = Arc::new(AtomicUsize::new(0));
        let total = moves.len() + 1;
        let work = begin(start, moves, game, nodes, Arc::clone(&done));
        ReviewWork { done, total, work }
    }

    /// Positions searched so far, and how many there are.
    pub fn progress(&self) -> (usize, usize) {
        (self.done.load(Ordering::Relaxed), self.total)
    }

    /// The review, once it is done (given once), without waiting.
    pub fn poll(&mut self) -> Answer<Result<GameReview, ReviewError>> {
        self.work.poll()
    }
}

/// The review on a thread: one searcher for every position, its hash kept between
/// them.
#[cfg(not(target_arch = "wasm32"))]
fn begin(
    start: Position,
    moves: Vec<Move>,
    _game: Game,
    nodes: u64,
    done: Arc<AtomicUsize>,
) -> Work {
    use hexchess_engine::review::review_game;
    use hexchess_engine::{SearchLimits, SearchOptions, Searcher};
    super::Job::start("hexchess-review", super::SEARCH_STACK, move |stop| {
        let mut searcher = Searcher::new(SearchOptions {
            hash_mb: 32,
            ..SearchOptions::default()
        });
        let limits = SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        };
        review_game(&mut searcher, &start, &moves, &limits, &stop, |d, _| {
            done.store(d, Ordering::Relaxed)
        })
    })
}

#[cfg(target_arch = "wasm32")]
fn begin(
    start: Position,
    moves: Vec<Move>,
    game: Game,
    nodes: u64,
    done: Arc<AtomicUsize>,
) -> Work {
    browser::WorkerReview {
        game,
        pos: start.clone(),
        start,
        moves,
        nodes,
        searched: Vec::new(),
        search: None,
        done,
    }
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use hexchess_core::{Game, Move, Position};
    use hexchess_engine::review::{GameReview, ReviewError, Searched, review_searched};
    use hexchess_engine::{SearchLimits, SearchOptions};

    use super::super::Answer;
    use super::super::engine::{Ask, EngineThinking};

    /// A review in a browser: each position of the game searched in turn by the
    /// review's engine worker (with the game's history, as the native review's searcher
    /// has it), then every move judged from those searches.
    pub struct WorkerReview {
        /// The game reviewed (the engine is given it up to each position).
        pub game: Game,
        pub start: Position,
        pub moves: Vec<Move>,
        /// Nodes searched in each position.
        pub nodes: u64,
        /// The position searched now, or next.
        pub pos: Position,
        pub searched: Vec<Searched>,
        pub search: Option<EngineThinking>,
        pub done: Arc<AtomicUsize>,
    }

    impl WorkerReview {
        /// Takes a search that has answered and starts the next one; the review once
        /// every position is searched.
        pub fn poll(&mut self) -> Answer<Result<GameReview, ReviewError>> {
            if let Some(search) = self.search.as_mut() {
                if !search.poll() {
                    return Answer::Pending;
                }
                let (_, answer) = self.search.take().expect("polled above").finish();
                // A search given up or refused counts as one that found nothing.
                let result = match answer.map(|a| a.found) {
                    Some(hexchess_engine::Found::Move { result, .. }) => result,
                    _ => hexchess_engine::SearchResult {
                        best: None,
                        score: hexchess_engine::Score::Cp(0),
                        depth: 0,
                        nodes: 0,
                        pv: Vec::new(),
                    },
                };
                self.searched
                    .push(Searched::from_result(&self.pos, &result));
                self.next_position();
            }
            let k = self.searched.len();
            if k == self.moves.len()
                && let Some(over) = Searched::finished(&self.pos)
            {
                self.searched.push(over);
                self.next_position();
            }
            if self.searched.len() > self.moves.len() {
                return Answer::Ready(review_searched(&self.start, &self.moves, &self.searched));
            }
            let limits = SearchLimits {
                nodes: Some(self.nodes),
                ..SearchLimits::default()
            };
            let two_player = Some(Arc::clone(self.pos.rules_arc()));
            let ask = Ask {
                question: hexchess_engine::Question::new(self.game.rewound(k), two_player, limits),
                options: SearchOptions::default(),
                strategy: hexchess_engine::multi::Strategy::Paranoid,
                kept: None,
                tables: Arc::default(),
                purpose: "review",
            };
            match EngineThinking::start(ask, |_, _| {}) {
                Ok(search) => {
                    self.search = Some(search);
                    Answer::Pending
                }
                Err(e) => {
                    bevy::log::error!("{e}");
                    Answer::Lost
                }
            }
        }

        /// Counts the position searched and moves on to the next.
        fn next_position(&mut self) {
            if let Some(&mv) = self.moves.get(self.searched.len() - 1) {
                self.pos.make_move(mv);
            }
            self.done.store(self.searched.len(), Ordering::Relaxed);
        }
    }
}
