//! The rules games of more than two sides add, as Peterson wrote them for 3-player
//! Hexachess and his 4-player team game (seed 003; docs/rules.md §13): what a variant
//! file says of them ([`MultiRules`]), the limits on a turn of several moves, the
//! captures of a round and the fair exchange they oblige. A [`crate::game::Game`] of
//! such a variant plays by them; a two-player game has none.

mod exchange;
pub(crate) mod rounds;
mod spec;
mod turn;

pub use spec::{Eliminated, FairExchange, Goal, MultiRules, Threat};
