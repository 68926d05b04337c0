//! Tournament pairings (issue 67), apart from the server that runs the tournaments:
//! pure functions of who plays, tested on their own.
//!
//! - [`arena`]: lichess's arena: points with streaks and berserk, the free paired at
//!   once by score and rating, never twice running with the same opponent.
//! - [`trf`]: FIDE's Tournament Report File (TRF16), read and written.
//! - [`round_robin`]: every player meets every other, in the rounds and colours of
//!   FIDE's Berger tables (Handbook C.05, Annex 1), once or twice.

#![warn(missing_docs)]

pub mod arena;
pub mod round_robin;
pub mod swiss;
pub mod trf;
