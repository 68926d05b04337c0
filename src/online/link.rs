//! The connection to a server: a websocket that says hello (with the secret kept for
//! that server), passes messages both ways, and when the connection is lost tries
//! again by itself, waiting a little longer each time (up to five seconds), until it
//! is closed. The frames never wait on the network.
//!
//! Two ways, one surface ([`Link`]): on a desktop a blocking socket on its own thread
//! (`native`); in a browser the page's own `WebSocket`, whose callbacks fill a
//! queue the frame reads (`web`).

use std::time::Duration;

use hexchess_protocol::{ClientMessage, FromServer, PROTOCOL, ServerMessage};

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::Link;
#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::Link;

/// The `hello` that opens each connection (with the secret kept, or none: a new
/// player).
fn hello(token: Option<&str>) -> String {
    ClientMessage::Hello {
        protocol: PROTOCOL,
        token: token.map(String::from),
    }
    .to_text()
}

/// What a message from the server means to the link itself: a welcome (its secret to
/// keep), or, before any welcome, an error (a secret this server does not know: its
/// database was reset; start again as a new player).
enum Heard {
    Welcome(String),
    Error,
    Other,
}

fn meaning(message: &FromServer) -> Heard {
    match message {
        FromServer::Message(ServerMessage::Welcome(w)) => Heard::Welcome(w.token.clone()),
        FromServer::Message(ServerMessage::Error(_)) => Heard::Error,
        _ => Heard::Other,
    }
}

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
    Message(Box<FromServer>),
}

/// The first wait before trying again, doubled after each failure up to [`MAX_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(250);
const MAX_WAIT: Duration = Duration::from_secs(5);
