//! The online server's mechanisms, apart from the network and the database that will
//! carry them (issue 40; the research behind them is docs/online-research.md):
//!
//! - [`history`]: every event of a game numbered, the newest kept, a reconnecting
//!   client caught up from the last number it saw (or told to resync), and events a
//!   seat may not see (a hidden deployment) sent to the others as a bare number.
//! - [`clock`]: a clock per seat with Fischer increment, charged for the time a move
//!   took less the network's lag, within a quota that grows with each move.
//! - [`rate`]: how many messages a client may send in a window of time, and limits per
//!   address or account name.
//! - [`outbox`]: what is to be sent to one connection, bounded, lists as their newest
//!   state; [`passwords`]: password hashing on a small pool of its own.
//! - [`ratings`]: Glicko-2 with lichess's constants for two sides, Weng-Lin for tables.
//! - [`message`]: what a client sends, read with a size limit and clear errors, and
//!   the judgement of a move by its ply, so that a move sent twice is played once.
//! - [`hosted`]: a game the server holds, of any variant and number of sides, with
//!   these together: only a seat's owner moves, every step checked by the rules, the
//!   server's clocks, and every end (rules, flag, resignation, agreement, abort).
//!
//! Around them, the server itself:
//!
//! - [`store`]: SQLite or PostgreSQL, one schema, every move stored before it is
//!   acknowledged; [`secret`]: secrets, codes and password hashes.
//! - [`room`]: one task per game in play, the only one to change it; [`seat`]: who
//!   sits in a seat; [`engine_seat`]: the built-in engine in a seat; [`lists`]: what
//!   the lobby's lists show of each game, pushed as it changes.
//! - [`hub`]: who is online, seeks and pairing, the rooms; [`connection`]: one
//!   websocket; [`http`]: the routes; [`metrics`]: what an operator watches;
//!   [`local`]: a whole server on a thread.
//!
//! Time is passed in as a [`std::time::Duration`] since any fixed moment, so that each
//! mechanism is tested exactly, without sleeping.

#![warn(missing_docs)]

pub mod chat;
pub mod client;
pub mod clock;
pub mod cluster;
pub mod connection;
pub mod engine_seat;
pub mod history;
pub mod hosted;
pub mod http;
pub mod hub;
pub mod lists;
pub mod load;
pub mod local;
pub mod message;
pub mod metrics;
pub mod outbox;
pub mod passwords;
pub mod profiles;
pub mod rate;
pub mod ratings;
pub mod rematches;
pub mod room;
pub mod seat;
pub mod secret;
pub mod seek_book;
pub mod store;
pub mod tournaments;
