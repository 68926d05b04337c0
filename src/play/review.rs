//! The engine's review of the game on the board (after a game, or a loaded one): every
//! move searched on a thread of its own while the game stays responsive, judged as
//! lichess judges moves ([`hexchess_engine::review`]), with its progress for the panel
//! and a stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bevy::prelude::*;
use hexchess_core::{Game, Move, Position};
use hexchess_engine::review::{GameReview, ReviewError};
#[cfg(target_arch = "wasm32")]
use hexchess_engine::review::{Searched, review_searched};
use hexchess_engine::{SearchLimits, SearchOptions};
#[cfg(not(target_arch = "wasm32"))]
use hexchess_engine::{Searcher, review::review_game};

#[cfg(target_arch = "wasm32")]
use super::engine_search::{Ask, EngineThinking};
use super::work::Answer;
#[cfg(not(target_arch = "wasm32"))]
use super::work::{Job, SEARCH_STACK};
use crate::game::{CurrentGame, GameNotice};

/// Nodes searched in each position: a 90-ply game takes about ten seconds on one core
/// (docs/review.md measures the budgets), and finds the same blunders as five times
/// more.
pub const REVIEW_NODES: u64 = 150_000;

/// Start or stop the review of the game on the board.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameReviewRequest {
    Start,
    Stop,
}

/// A review running off the frame (dropped: stopped).
struct Running {
    /// Positions searched so far, of `total`.
    done: Arc<AtomicUsize>,
    total: usize,
    job: ReviewWork,
    of: Reviewed,
}

/// The review's work: natively one job on its own thread; in a browser, the positions
/// searched one after another by an engine worker, judged here at the end.
#[cfg(not(target_arch = "wasm32"))]
type ReviewWork = Job<Result<GameReview, ReviewError>>;
#[cfg(target_arch = "wasm32")]
type ReviewWork = WorkerReview;

/// The game a review is of: its variant and start (as the game keeps them: no replay
/// needed to compare, which the panel does every frame) and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reviewed {
    variant: String,
    start_fen: Option<String>,
    moves: Vec<Move>,
}

impl Reviewed {
    /// The game's moves, and its start on the engine's cell sets (none for a game of
    /// more sides: the review judges two-player moves).
    fn of(game: &CurrentGame) -> Option<(Reviewed, Position)> {
        let rules = game.two_player_rules()?;
        let start = Position::from_fen(rules, &game.start_position().to_fen()).ok()?;
        Some((
            Reviewed {
                variant: game.rules().id().to_string(),
                start_fen: game.start_fen.clone(),
                moves: game.position().moves_played().collect(),
            },
            start,
        ))
    }
}

/// The review of the game, running or done.
#[derive(Resource, Default)]
pub struct GameReviewState {
    running: Option<Running>,
    done: Option<(Reviewed, GameReview)>,
}

impl GameReviewState {
    /// Positions searched so far and how many there are, while a review runs.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.running
            .as_ref()
            .map(|r| (r.done.load(Ordering::Relaxed), r.total))
    }

    /// The review of this game's moves, if one was made: also of a game that went on
    /// after it (its moves reviewed are the first ones), never of another game.
    pub fn review_of(&self, game: &CurrentGame) -> Option<&GameReview> {
        let (reviewed, review) = self.done.as_ref()?;
        let same_start =
            game.rules().id() == reviewed.variant && game.start_fen == reviewed.start_fen;
        let plies = game.position().ply_count();
        let prefix = plies >= reviewed.moves.len()
            && game
                .position()
                .moves_played()
                .zip(&reviewed.moves)
                .all(|(a, b)| a == *b);
        (same_start && prefix).then_some(review)
    }
}

pub struct GameReviewPlugin;

impl Plugin for GameReviewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<GameReviewState>()
            .add_message::<GameReviewRequest>()
            // After the game's requests: a review asked for with a game just loaded
            // reviews that game.
            .add_systems(
                Update,
                (answer_review_requests, collect_review)
                    .chain()
                    .in_set(crate::game::GameSet::View),
            );
    }
}

fn answer_review_requests(
    mut requests: MessageReader<GameReviewRequest>,
    mut state: ResMut<GameReviewState>,
    game: Res<CurrentGame>,
    mut notices: MessageWriter<GameNotice>,
) {
    for request in requests.read() {
        // A review under way stops (its thread ends within a few thousand nodes).
        state.running = None;
        if *request == GameReviewRequest::Stop {
            continue;
        }
        if game.position().ply_count() == 0 {
            notices.write(GameNotice("no move to review yet".into()));
            continue;
        }
        let Some(of) = Reviewed::of(&game) else {
            notices.write(GameNotice(
                "the review judges two-player games; step through this one with the move list"
                    .into(),
            ));
            continue;
        };
        state.running = Some(start(of, game.game.clone()));
    }
}

/// The review of the game so far, on a thread.
#[cfg(not(target_arch = "wasm32"))]
fn start((of, start): (Reviewed, Position), _game: Game) -> Running {
    let done = Arc::new(AtomicUsize::new(0));
    let total = of.moves.len() + 1;
    let (counter, moves) = (Arc::clone(&done), of.moves.clone());
    let job = Job::start("hexchess-review", SEARCH_STACK, move |stop| {
        let mut searcher = Searcher::new(SearchOptions {
            hash_mb: 32,
            ..SearchOptions::default()
        });
        let limits = SearchLimits {
            nodes: Some(REVIEW_NODES),
            ..SearchLimits::default()
        };
        review_game(&mut searcher, &start, &moves, &limits, &stop, |d, _| {
            counter.store(d, Ordering::Relaxed)
        })
    });
    Running {
        done,
        total,
        job,
        of,
    }
}

/// The review of the game so far, by an engine worker.
#[cfg(target_arch = "wasm32")]
fn start((of, start): (Reviewed, Position), game: Game) -> Running {
    let done = Arc::new(AtomicUsize::new(0));
    let total = of.moves.len() + 1;
    let job = WorkerReview {
        game,
        pos: start.clone(),
        start,
        moves: of.moves.clone(),
        searched: Vec::new(),
        search: None,
        done: Arc::clone(&done),
    };
    Running {
        done,
        total,
        job,
        of,
    }
}

/// A review in a browser: each position of the game searched in turn by the review's
/// engine worker (with the game's history, as the native review's searcher has it),
/// then every move judged from those searches as the native review judges them.
#[cfg(target_arch = "wasm32")]
struct WorkerReview {
    /// The game reviewed (the engine is given it up to each position).
    game: Game,
    start: Position,
    moves: Vec<Move>,
    /// The position searched now, or next.
    pos: Position,
    searched: Vec<Searched>,
    search: Option<EngineThinking>,
    done: Arc<AtomicUsize>,
}

#[cfg(target_arch = "wasm32")]
impl WorkerReview {
    /// Takes a search that has answered and starts the next one; the review once
    /// every position is searched.
    fn poll(&mut self) -> Answer<Result<GameReview, ReviewError>> {
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
            nodes: Some(REVIEW_NODES),
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
                error!("{e}");
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

/// A finished review becomes the game's.
fn collect_review(mut state: ResMut<GameReviewState>, mut notices: MessageWriter<GameNotice>) {
    let Some(r) = state.running.as_mut() else {
        return;
    };
    let answer = r.job.poll();
    if matches!(answer, Answer::Pending) {
        return;
    }
    let Some(r) = state.running.take() else {
        return;
    };
    match answer {
        Answer::Ready(Ok(review)) => {
            crate::web::milestone(&format!("review done {} moves", review.moves.len()));
            state.done = Some((r.of, review));
        }
        Answer::Ready(Err(e)) => {
            notices.write(GameNotice(format!("the review stopped: {e}")));
        }
        Answer::Pending | Answer::Lost => {
            notices.write(GameNotice("the review failed".into()));
        }
    }
}
