//! The engine's review of the game on the board (after a game, or a loaded one): every
//! move searched on a thread of its own while the game stays responsive, judged as
//! lichess judges moves ([`hexchess_engine::review`]), with its progress for the panel
//! and a stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;

use bevy::prelude::*;
use hexchess_core::{Move, Position};
use hexchess_engine::review::{GameReview, ReviewError, review_game};
use hexchess_engine::{SearchLimits, SearchOptions, Searcher};

use crate::game::{GameNotice, GameState};

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

/// A review running on its thread.
struct Running {
    stop: Arc<AtomicBool>,
    /// Positions searched so far, of `total`.
    done: Arc<AtomicUsize>,
    total: usize,
    handle: JoinHandle<Result<GameReview, ReviewError>>,
    of: Reviewed,
}

/// The game a review is of: its start and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reviewed {
    start_fen: String,
    moves: Vec<Move>,
}

impl Reviewed {
    fn of(game: &GameState) -> (Reviewed, Position) {
        let mut start = game.position.clone();
        let moves: Vec<Move> = game.position.moves_played().collect();
        for _ in 0..moves.len() {
            start.unmake_move();
        }
        (
            Reviewed {
                start_fen: start.to_fen(),
                moves,
            },
            start,
        )
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
    pub fn review_of(&self, game: &GameState) -> Option<&GameReview> {
        let (reviewed, review) = self.done.as_ref()?;
        let played: Vec<Move> = game.position.moves_played().collect();
        let prefix = played.starts_with(&reviewed.moves);
        (prefix && start_fen(game) == reviewed.start_fen).then_some(review)
    }
}

fn start_fen(game: &GameState) -> String {
    let mut p = game.position.clone();
    while p.ply_count() > 0 {
        p.unmake_move();
    }
    p.to_fen()
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
    game: Res<GameState>,
    mut notices: MessageWriter<GameNotice>,
) {
    for request in requests.read() {
        if let Some(r) = state.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            // The search stops within a few thousand nodes.
            let _ = r.handle.join();
        }
        if *request == GameReviewRequest::Stop {
            continue;
        }
        if game.position.ply_count() == 0 {
            notices.write(GameNotice("no move to review yet".into()));
            continue;
        }
        state.running = Some(start(&game));
    }
}

/// The review of the game so far, on a thread.
fn start(game: &GameState) -> Running {
    let (of, start) = Reviewed::of(game);
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicUsize::new(0));
    let total = of.moves.len() + 1;
    let (flag, counter, moves) = (Arc::clone(&stop), Arc::clone(&done), of.moves.clone());
    let handle = std::thread::Builder::new()
        .name("hexchess-review".into())
        .stack_size(64 * 1024 * 1024)
        .spawn(move || {
            let mut searcher = Searcher::new(SearchOptions {
                hash_mb: 32,
                ..SearchOptions::default()
            });
            let limits = SearchLimits {
                nodes: Some(REVIEW_NODES),
                ..SearchLimits::default()
            };
            review_game(&mut searcher, &start, &moves, &limits, &flag, |d, _| {
                counter.store(d, Ordering::Relaxed)
            })
        })
        .expect("the review thread starts");
    Running {
        stop,
        done,
        total,
        handle,
        of,
    }
}

/// A finished review becomes the game's.
fn collect_review(mut state: ResMut<GameReviewState>, mut notices: MessageWriter<GameNotice>) {
    if !state
        .running
        .as_ref()
        .is_some_and(|r| r.handle.is_finished())
    {
        return;
    }
    let Some(r) = state.running.take() else {
        return;
    };
    match r.handle.join() {
        Ok(Ok(review)) => state.done = Some((r.of, review)),
        Ok(Err(e)) => {
            notices.write(GameNotice(format!("the review stopped: {e}")));
        }
        Err(_) => {
            notices.write(GameNotice("the review failed".into()));
        }
    }
}
