//! Games of more than two sides, as Peterson wrote them for 3-player Hexachess and his
//! 4-player team game (seed 003; docs/rules.md §13).
//!
//! A [`Game`] holds a [`Position`] and what the rules add above it: each side's
//! standing (playing, under a checkmate freeze, out), a turn of one or more moves, the
//! captures of the current rounds and the removals they oblige. A turn is played step by
//! step ([`Game::steps`], [`Game::play`]); each step is a [`Move`] (a move on the board,
//! or a removal or swap owed after a fair exchange) or [`Step::Stop`], which ends a turn
//! that could have had a second move.

mod exchange;
mod game;
mod notation;
mod rounds;
mod spec;
mod turn;

pub use game::{Game, Standing, Step};
pub use notation::TurnError;
pub use spec::{Eliminated, FairExchange, Goal, MultiRules, Threat};

#[cfg(doc)]
use crate::{Move, Position};
