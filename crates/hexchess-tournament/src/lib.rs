//! Tournament pairings (issue 67), apart from the server that runs the tournaments:
//! pure functions of who plays, tested on their own.
//!
//! - [`round_robin`]: every player meets every other, in the rounds and colours of
//!   FIDE's Berger tables (Handbook C.05, Annex 1), once or twice.

#![warn(missing_docs)]

pub mod round_robin;
