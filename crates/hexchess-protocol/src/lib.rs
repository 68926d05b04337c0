//! The online protocol (docs/online.md), both directions, as types: what a client
//! sends ([`ClientMessage`]) and what the server sends ([`FromServer`]: a reply or a list
//! [`ServerMessage`], a numbered game event [`Numbered`], or an event hidden from this
//! client [`Hidden`]). The server, the game (on the desktop and in a browser), the
//! engine bridge and the load tool all read and write the wire through these types, so
//! a field renamed here is renamed everywhere, or the build fails.
//!
//! Every message is one JSON object in a websocket text frame, its type in `t`. Unknown
//! fields are ignored when reading, so a newer peer still speaks to an older one. The
//! JSON Schema of both directions, for clients in other languages, is generated from
//! these types ([`schema`]) and shipped as `docs/protocol.schema.json`.

#![warn(missing_docs)]

mod client;
mod server;
mod tournament;

pub use client::{ClientMessage, MAX_CHAT_CHARS, MAX_MESSAGE_BYTES, MessageError, SeekRequest};
pub use server::{
    Ack, AwaySeat, BoardView, ChatLine, ChatRoom, ErrorMessage, FromServer, GameEvent, GameInPlay,
    GameState, GamesInPlay, Hidden, Joined, LeaderLine, Leaderboard, Numbered, PlayedGame,
    PlayerProfile, RatingChange, RatingLine, Refused, RematchAsked, RevealedStep, SeatRating,
    SeekListing, SeekReply, ServerMessage, SpeedBoard, Started, Welcome, YourGame,
};
pub use tournament::{
    StandingLine, TournamentKind, TournamentList, TournamentListing, TournamentRequest,
    TournamentView,
};

/// The speeds a game is rated at, fastest first.
pub const SPEEDS: [&str; 7] = [
    "ultrabullet",
    "bullet",
    "blitz",
    "rapid",
    "classical",
    "correspondence",
    "untimed",
];

/// lichess's speed of a clock of `base` seconds and `increment` seconds a move, by
/// the length of a game of 40 moves a side (ratings are kept per variant and speed;
/// the lobby filters by it).
pub fn speed_of_clock(base: u64, increment: u64) -> &'static str {
    match base + 40 * increment {
        0..=28 => "ultrabullet",
        29..=178 => "bullet",
        179..=478 => "blitz",
        479..=1498 => "rapid",
        _ => "classical",
    }
}

impl SeekListing {
    /// The seek's speed: its clock's, `correspondence` with days a move, or `untimed`.
    pub fn speed(&self) -> &'static str {
        match (self.minutes, self.days) {
            (Some(m), _) => speed_of_clock(u64::from(m) * 60, u64::from(self.increment)),
            (None, Some(_)) => "correspondence",
            (None, None) => "untimed",
        }
    }
}

/// The protocol's version, said in `hello` and `welcome`.
pub const PROTOCOL: u32 = 1;

/// The JSON Schema of both directions (draft 2020-12): `{"client": ..., "server": ...}`,
/// each a schema of every message that way.
pub fn schema() -> serde_json::Value {
    let client = schemars::schema_for!(ClientMessage);
    let server = schemars::schema_for!(FromServer);
    serde_json::json!({
        "$comment": "hexchess online protocol, version 1: generated from crates/hexchess-protocol (docs/online.md); do not edit",
        "client": client,
        "server": server,
    })
}
