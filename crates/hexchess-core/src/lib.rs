//! The rules of hexagonal chess, for any variant described as data.
//!
//! A variant (a RON file, or anything implementing [`Variant`]) is compiled into
//! [`Rules`]; a [`Position`] of those rules generates legal moves, plays and takes them
//! back, reads and writes hex FEN and move notation, and tells when the game is over.
//! Nothing here depends on Bevy, so the engine and the tests build in seconds.
//!
//! Load a variant, play moves in either notation, and read the position back:
//!
//! ```
//! use std::sync::Arc;
//! use hexchess_core::{Catalog, Position};
//!
//! let catalog = Catalog::builtin();
//! let rules = catalog.get("glinski").expect("a built-in").two_player_rules().unwrap();
//! let mut pos = Position::start(rules);
//! for text in ["f5f6", "c7c5", "Bxc5"] {
//!     let mv = pos.parse_move(text)?;
//!     pos.make_move(mv);
//! }
//! println!("{}", pos.to_fen());
//! assert_eq!(
//!     pos.to_fen(),
//!     "6/P5p/RP2B2r/N1P3p1n/Q2P2p2q/B1B2Pp1bbb/K2P2p2k/N1P3p1n/RP4pr/P5p/6 b - 0 2"
//! );
//! assert!(pos.legal_moves().len() > 20);
//! # Ok::<(), hexchess_core::MoveError>(())
//! ```
//!
//! The rules of every built-in variant, hex FEN and the notation are written down in
//! the project's `docs/rules.md`.
//!
//! The crate does no I/O: files and folders are `hexchess-files`'s, which reads variant
//! and PGN files into the types here.

#![warn(missing_docs)]

pub mod bitboard;
pub mod board;
pub mod catalog;
pub mod cell;
mod display;
mod edit;
pub mod fen;
pub mod game;
pub mod hex;
mod movegen;
pub mod moves;
pub mod multi;
pub mod notation;
pub mod outcome;
pub mod pgn;
pub mod piece;
mod placement;
pub mod position;
pub mod rules;
pub mod setup;
pub mod short;
pub mod text;
pub mod variant;
#[cfg(test)]
pub(crate) mod work;

pub use bitboard::Bitboard;
pub use board::{Board, Naming};
pub use catalog::{Catalog, CatalogEntry};
pub use cell::{Cell, MAX_CELLS};
pub use fen::FenError;
pub use game::{
    Draws, Game, PlayError, Standing, StartError, Step, StepReport, TurnError, TurnSteps,
};
pub use hex::{Hex, Layout};
pub use movegen::{Legality, MoveSet};
pub use moves::{Move, MoveList};
pub use notation::MoveError;
pub use outcome::{GameOutcome, Repetitions, Termination};
pub use piece::{Kind, Piece, Points, Side};
pub use position::{EnPassant, Phase, PieceSquareTable, Position};
pub use rules::{AnyRules, CastlingCells, KindInfo, Rules, RulesError};
pub use setup::{EditError, EnPassantFault, Setup, SetupError, SetupProblem};
pub use variant::{PlacementOrder, SetupPhase, Variant, VariantError, VariantSpec};
