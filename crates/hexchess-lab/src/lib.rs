//! The lab: tools that measure the engine rather than play with it.
//!
//! [`arena`] plays engine-vs-engine matches against any program that speaks the
//! protocol (started without a shell, each engine on its own clock, its stderr and
//! traffic logged if asked), reports them as engine testers expect (Elo per game and per
//! pair of games, pentanomial counts, LOS) and stops them early by a sequential
//! probability ratio test;
//! [`tune`] fits the evaluation's weights to game results; [`soak`] plays many fast
//! games in every variant and runs long series of searches, checking every move and
//! watching memory. They are driven from the `hexchess-engine match`, `tune` and `soak`
//! commands; nothing here is needed to play a game.
//!
//! A match's score as Elo, and the sequential test that stops a match once the result
//! is clear:
//!
//! ```
//! use hexchess_lab::arena::stats::elo;
//! use hexchess_lab::arena::{Sprt, SprtVerdict};
//!
//! assert!((elo(0.64) - 100.0).abs() < 1.0); // 64% is about +100 Elo
//! let sprt: Sprt = "0,10".parse()?; // H0: +0 Elo, H1: +10 Elo
//! // The first engine's mean score over each pair of games (0, 1/4, 1/2, 3/4 or 1):
//! // every pair won, and the test accepts H1.
//! let pairs = vec![1.0; 400];
//! assert_eq!(sprt.decide(&pairs), Some(SprtVerdict::H1));
//! # Ok::<(), hexchess_lab::arena::SprtError>(())
//! ```

#![warn(missing_docs)]

pub mod arena;
pub mod round_robin;
pub mod soak;
pub mod tune;
