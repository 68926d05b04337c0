//! The engine's review of the game on the board (after a game, or a loaded one): every
//! move searched on a thread of its own while the game stays responsive, judged as
//! lichess judges moves ([`hexchess_engine::review`]), with its progress for the panel
//! and a stop.

use bevy::prelude::*;
use hexchess_core::{Move, Position};
use hexchess_engine::review::GameReview;

use super::work::Answer;
use super::work::review::ReviewWork;
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
    /// The searches and the judging (see [`ReviewWork`]).
    work: ReviewWork,
    of: Reviewed,
}

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
        self.running.as_ref().map(|r| r.work.progress())
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
        let (of, start) = of;
        let work = ReviewWork::start(start, of.moves.clone(), game.played.clone(), REVIEW_NODES);
        state.running = Some(Running { work, of });
    }
}

/// A finished review becomes the game's.
fn collect_review(mut state: ResMut<GameReviewState>, mut notices: MessageWriter<GameNotice>) {
    let Some(r) = state.running.as_mut() else {
        return;
    };
    let answer = r.work.poll();
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
