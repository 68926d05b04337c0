//! Reviews and PGN games: a game read from a file as the review takes it (a start
//! and the moves of its main line), and a review written back into the game as a
//! commentator would annotate it.

use std::fmt;

use hexchess_core::catalog::Catalog;
use hexchess_core::moves::Move;
use hexchess_core::pgn::{PgnGame, ReplayError};
use hexchess_core::position::Position;

use super::GameReview;

/// Why a PGN game gives nothing to review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game does not replay (unknown variant, bad FEN, a move that is not legal).
    Replay(ReplayError),
    /// A game of more sides: the review is for two.
    MoreSides {
        /// The game's number in its file, from 1 (0: not known).
        game: usize,
        /// How many sides it has.
        sides: usize,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Replay(e) => e.fmt(f),
            GameError::MoreSides { game, sides } => {
                if *game > 0 {
                    write!(f, "game {game}: ")?;
                }
                write!(f, "a game of {sides} sides cannot be reviewed (two only)")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// The start position and the main line's moves of a two-player game, its tree
/// replayed on the way (every line checked, moves rewritten in canonical SAN and
/// numbered, as [`annotate`] needs them).
pub fn main_line(
    game: &mut PgnGame,
    catalog: &Catalog,
) -> Result<(Position, Vec<Move>), GameError> {
    let played = game.replay(catalog).map_err(GameError::Replay)?;
    let rules = catalog
        .get(game.variant())
        .and_then(|e| e.two_player_rules())
        .ok_or(GameError::MoreSides {
            game: game.number,
            sides: played.position().rules().side_count(),
        })?;
    // The engine reviews on the narrow cell sets: the same start, the same moves.
    let moves: Vec<Move> = played.moves().collect();
    let start = Position::from_fen(rules, &played.start_position().to_fen())
        .expect("the game's own start reads back");
    Ok((start, moves))
}

/// Why a review does not fit a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnnotateError {
    /// The game's main line is shorter than the review.
    TooShort {
        /// Moves in the game's main line.
        moves: usize,
        /// Moves the review judged.
        reviewed: usize,
    },
    /// The move at `ply` (from 0) differs: the review is of another game, or the game
    /// was not replayed (its moves not in canonical SAN).
    Differs {
        /// Plies before it.
        ply: usize,
        /// The game's move, in SAN.
        game: String,
        /// The review's.
        review: String,
    },
}

impl fmt::Display for AnnotateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnnotateError::TooShort { moves, reviewed } => write!(
                f,
                "the game has {moves} moves in its main line, the review {reviewed}"
            ),
            AnnotateError::Differs { ply, game, review } => write!(
                f,
                "move {} is {game} in the game but {review} in the review",
                ply + 1
            ),
        }
    }
}

impl std::error::Error for AnnotateError {}

/// Writes `review` into `game` (replayed, as [`main_line`] leaves it), the way lichess
/// annotates an analysed game: each judged move gets its glyph ($6 inaccuracy, $2
/// mistake, $4 blunder), a comment after it with the evaluation after the move and
/// the better move (`-1.35 Blunder; Qd3 was best`, after any comment already there),
/// and a variation from the position before it holding the engine's line, the better
/// move first. The `Annotator` tag is set to `annotator`.
///
/// Nothing is changed when the review does not fit the game's main line.
pub fn annotate(
    game: &mut PgnGame,
    review: &GameReview,
    annotator: &str,
) -> Result<(), AnnotateError> {
    let tree = &game.tree;
    let line = tree.main_line();
    if line.len() < review.moves.len() {
        return Err(AnnotateError::TooShort {
            moves: line.len(),
            reviewed: review.moves.len(),
        });
    }
    for (ply, (&id, m)) in line.iter().zip(&review.moves).enumerate() {
        if tree.san(id) != m.san {
            return Err(AnnotateError::Differs {
                ply,
                game: tree.san(id).to_string(),
                review: m.san.clone(),
            });
        }
    }
    for (&id, m) in line.iter().zip(&review.moves) {
        let Some(judgement) = m.judgement else {
            continue;
        };
        let tree = &mut game.tree;
        tree.add_nag(id, judgement.nag());
        let ours = format!("{} {judgement}; {} was best", m.after, m.best_san);
        let comment = match tree.get(id).map(|n| n.comment_after()) {
            Some(old) if !old.is_empty() => format!("{old} {ours}"),
            _ => ours,
        };
        tree.set_comment_after(id, &comment);
        let mut at = tree.parent(id).expect("a move has a parent");
        for san in &m.line {
            at = tree.add_move(at, san);
        }
    }
    game.set_tag("Annotator", annotator);
    Ok(())
}
