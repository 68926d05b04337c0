//! Where a game comes from: the variant's start or a FEN, then the moves played (every
//! program that sets up a game does it here), and the same game on the other cell sets,
//! for the two-player engine.

use std::fmt;
use std::sync::Arc;

use super::{Draws, Game, TurnError};
use crate::bitboard::CellSet;
use crate::fen::FenError;
use crate::piece::MAX_SIDES;
use crate::position::Position;
use crate::rules::Rules;

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The FEN is not a position of the variant.
    Fen(FenError),
    /// A move (a whole turn in a game of more sides) the game refused: its number
    /// from 1, its text, and why; the moves before it were good.
    Turn {
        /// Its place in the list of moves given, from 1 (not the FEN's move number).
        number: usize,
        /// The move as given.
        text: String,
        /// Why the game refused it.
        error: TurnError,
    },
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Fen(e) => write!(f, "bad FEN: {e}"),
            StartError::Turn {
                number,
                text,
                error,
            } => write!(f, "move {number} '{text}': {error}"),
        }
    }
}

impl std::error::Error for StartError {}

impl<B: CellSet> Game<B> {
    /// The game from the variant's start, or from `fen` when given, after `turns`: each
    /// a move in either notation, or in a game of more sides a whole turn (its steps
    /// joined by `&`, `--` for none).
    pub fn from_moves<S: AsRef<str>>(
        rules: Arc<Rules<B>>,
        fen: Option<&str>,
        turns: &[S],
    ) -> Result<Game<B>, StartError> {
        Game::from_moves_with(rules, fen, turns, Draws::ByRule)
    }

    /// [`Game::from_moves`] with its draws by rule called by `draws` from the start:
    /// with [`Draws::Called`] the moves go on past a repetition or the move rule, as
    /// a GUI may send them to the engine.
    pub fn from_moves_with<S: AsRef<str>>(
        rules: Arc<Rules<B>>,
        fen: Option<&str>,
        turns: &[S],
        draws: Draws,
    ) -> Result<Game<B>, StartError> {
        let (pos, owed) = match fen {
            Some(fen) => Game::read_fen(rules, fen).map_err(StartError::Fen)?,
            None => (Position::start(rules), [0; MAX_SIDES]),
        };
        let mut game = Game::from_position_with(pos, owed, draws);
        for (i, text) in turns.iter().enumerate() {
            let text = text.as_ref();
            game.play_turn(text).map_err(|error| StartError::Turn {
                number: i + 1,
                text: text.to_string(),
                error,
            })?;
        }
        Ok(game)
    }

    /// The same game on the same variant compiled with other cell sets (`rules`): the
    /// two-player engine searches on the narrow ones. Its position has the game's whole
    /// history, so that repetitions count there too.
    ///
    /// Panics when `rules` are not this variant's (the moves would not be legal there).
    pub fn position_on<C: CellSet>(&self, rules: Arc<Rules<C>>) -> Position<C> {
        self.replay_on(rules, |_| {})
    }

    /// [`Game::position_on`], showing `visit` the position after every move (the
    /// tuner reads every position of a game).
    pub fn replay_on<C: CellSet>(
        &self,
        rules: Arc<Rules<C>>,
        mut visit: impl FnMut(&Position<C>),
    ) -> Position<C> {
        assert_eq!(rules.id(), self.position().rules().id(), "the same variant");
        let mut pos = Position::from_fen(rules, &self.start_position().to_fen())
            .expect("the game's own start reads back");
        for mv in self.moves() {
            pos.make_move(mv);
            visit(&pos);
        }
        pos
    }
}
