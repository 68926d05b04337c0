//! The rules of hexagonal chess, for any variant described as data.
//!
//! A variant (a RON file, or anything implementing [`Variant`]) is compiled into
//! [`Rules`]; a [`Position`] of those rules generates legal moves, plays and takes them
//! back, reads and writes hex FEN and move notation, and tells when the game is over.
//! Nothing here depends on Bevy, so the engine and the tests build in seconds.

pub mod bitboard;
pub mod board;
pub mod catalog;
pub mod cell;
mod display;
pub mod fen;
pub mod hex;
mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod piece;
pub mod position;
pub mod record;
pub mod rules;
pub mod variant;

pub use bitboard::Bitboard;
pub use board::{Board, Naming};
pub use catalog::{Catalog, CatalogEntry};
pub use cell::{Cell, MAX_CELLS};
pub use fen::FenError;
pub use hex::{Hex, Layout};
pub use movegen::{Legality, MoveSet};
pub use moves::{Move, MoveList};
pub use notation::MoveError;
pub use outcome::{GameOutcome, Termination};
pub use piece::{Kind, Piece, Points, Side};
pub use position::{EnPassant, PieceSquareTable, Position};
pub use rules::{KindInfo, Rules, RulesError};
pub use variant::{Variant, VariantError, VariantSpec};
