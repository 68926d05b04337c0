//! Playing a game: who sits in each seat in [`seats`], the engine's level, the clocks,
//! the app's states (playing, new-game menu, game over) in [`session`], and the engine as an
//! opponent thinking on its own thread in [`opponent`], the endgame trainer in
//! [`trainer`], the hidden deployments of Screen HexaChess in [`hidden`], the engine's
//! review of a game in [`review`], and the analysis board and hint in [`analysis`]
//! with its tree of lines in [`variations`].

pub mod analysis;
pub mod hidden;
pub mod opponent;
pub mod review;
pub mod seats;
pub mod session;
pub mod trainer;
pub mod variations;
pub mod work;

use bevy::prelude::*;

pub use opponent::{DrawOffer, EnginePlayer};
pub use seats::{EngineSeat, Matchup, SEAT_NODES, Seat, Seats};
pub use session::{
    AppState, Clocks, DEFAULT_LEVEL, GameOverDialog, Session, StartGame, TIME_CONTROLS,
    TimeControl, loss_of, undo_turns,
};
pub use trainer::{ENDINGS, StartDrill, Target, Trainer};

/// The session and the engine opponent.
pub struct PlayPlugin;

impl Plugin for PlayPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            session::SessionPlugin,
            opponent::OpponentPlugin,
            hidden::HiddenSetupPlugin,
            trainer::TrainerPlugin,
            review::GameReviewPlugin,
            analysis::AnalysisPlugin,
            variations::VariationsPlugin,
        ));
    }
}
