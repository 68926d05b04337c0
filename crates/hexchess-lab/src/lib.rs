//! The lab: tools that measure the engine rather than play with it.
//!
//! [`arena`] plays engine-vs-engine matches (in process or against any program that
//! speaks the protocol) and stops them early by a sequential probability ratio test;
//! [`tune`] fits the evaluation's weights to game results. Both are driven from the
//! `hexchess-engine match` and `hexchess-engine tune` commands; nothing here is needed
//! to play a game.

pub mod arena;
pub mod tune;
