//! The connection to a server: a websocket that says hello (with the secret kept for
//! that server), passes messages both ways, and when the connection is lost tries
//! again by itself, waiting a little longer each time (up to five seconds), until it
//! is closed. The frames never wait on the network.
//!
//! Two ways, one surface ([`Link`]): on a desktop a blocking socket on its own thread
//! (`native`); in a browser the page's own `WebSocket`, whose callbacks fill a
//! queue the frame reads (`web`).

use std::time::Duration;

use serde_json::Value;

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::Link;
#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::Link;

/// The protocol the game speaks (docs/online.md).
pub const PROTOCOL: u32 = 1;

/// How the connection stands.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkStatus {
    Connecting,
    Connected,
    /// Lost (or never made): why, and the next try is on its way.
    Lost(String),
    Closed,
}

/// What the link tells the game.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkEvent {
    Status(LinkStatus),
    /// A message from the server (the first after each connection is `welcome`).
    Message(Value),
}

/// The first wait before trying again, doubled after each failure up to [`MAX_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(250);
const MAX_WAIT: Duration = Duration::from_secs(5);
