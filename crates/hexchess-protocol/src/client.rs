//! What a client sends: JSON objects with a type `t`, each at most
//! [`MAX_MESSAGE_BYTES`], read with errors that say what is wrong (and where), never a
//! panic. A move names the ply it is for (how many steps the game had played before
//! it), so that a move sent again after a lost acknowledgement is recognised and
//! acknowledged again, never played twice.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The largest message a client may send (lila-ws refuses frames over 8 KiB; a move
/// is some tens of bytes).
pub const MAX_MESSAGE_BYTES: usize = 8192;

/// The longest chat line, in characters (lichess: 140; a sentence with a move or two).
pub const MAX_CHAT_CHARS: usize = 200;

/// A client's message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message: who the client is (an anonymous secret, or none for a new
    /// anonymous player), and the protocol version it speaks.
    Hello {
        /// The protocol version the client speaks ([`crate::PROTOCOL`]).
        protocol: u32,
        /// The secret `welcome` gave this player before; none for a new player.
        #[serde(default)]
        token: Option<String>,
    },
    /// Make this anonymous player an account: a name and a password.
    Register {
        /// The account's name (letters, digits, `-` and `_`).
        name: String,
        /// Its password, hashed by the server (Argon2) and never stored as sent.
        password: String,
        /// A program plays for this account (a bridge's bot): marked as a bot in
        /// every list and on the board, for good.
        #[serde(default)]
        bot: bool,
    },
    /// Sign in to an account (a new secret for this client).
    Login {
        /// The account's name.
        name: String,
        /// Its password.
        password: String,
    },
    /// Follow the list of open seeks.
    Lobby,
    /// Offer a game.
    Seek(SeekRequest),
    /// Withdraw one's seek.
    Cancel {
        /// The seek's id, as `seeking` gave it.
        seek: String,
    },
    /// Take a seat in a seek (by its id, or a private challenge's code).
    Accept {
        /// The seek's id from the lobby, or a private challenge's code.
        seek: String,
    },
    /// Play the first compatible seek, or seek one like it.
    Quick(SeekRequest),
    /// Follow a game, as a seat's player or a spectator, from the last event version
    /// seen (none: the whole game).
    Join {
        /// The game's id.
        game: String,
        /// The last event version the client has; the server sends what came after.
        #[serde(default)]
        seen: Option<u64>,
    },
    /// Stop following a game (a player leaving on purpose).
    Leave {
        /// The game's id.
        game: String,
    },
    /// One step of a turn (a move, a removal, a swap, or `--` to end a turn of two
    /// moves after one), for the ply it names; `ack` is the client's number for it.
    Move {
        /// The game's id.
        game: String,
        /// How many steps the game had played before this one.
        ply: u32,
        /// The step in long algebraic notation, exactly as `legal` writes it.
        step: String,
        /// The client's own number for this message, echoed by `ack` or `refused`.
        ack: u64,
        /// The client's own measure of its lag, in milliseconds.
        #[serde(default)]
        lag_ms: Option<u32>,
    },
    /// Give the game up.
    Resign {
        /// The game's id.
        game: String,
    },
    /// Offer a draw, or accept one on the table.
    Draw {
        /// The game's id.
        game: String,
    },
    /// Call the game off before every side has moved.
    Abort {
        /// The game's id.
        game: String,
    },
    /// Decline the draw offers on the table (`draw_declined` to everyone following).
    Decline {
        /// The game's id.
        game: String,
    },
    /// Claim the game from a player who stays away.
    Claim {
        /// The game's id.
        game: String,
    },
    /// Ask for a rematch of a finished game of yours (while its room is open, two
    /// minutes after its end). Every seat's player is told who has asked (`rematch`);
    /// once every seat has (an engine seat always agrees), each gets `started` for a new
    /// game of the same variant, clock and rating, the seats swapped (at a table, each
    /// player one seat on).
    Rematch {
        /// The finished game's id.
        game: String,
    },
    /// Say something in a game's chat: a seat's player in the players' chat (which
    /// spectators read too), anyone else signed in to an account in the spectators'
    /// chat (which the players never see). At most [`MAX_CHAT_CHARS`] characters on
    /// one line; a few lines a player each ten seconds.
    Chat {
        /// The game's id.
        game: String,
        /// What is said.
        text: String,
    },
    /// Hide a player's chat from now on, in every game (`muted` answers with the list).
    Mute {
        /// The name the chat shows.
        name: String,
    },
    /// Show a muted player's chat again.
    Unmute {
        /// The name the chat shows.
        name: String,
    },
    /// A player's page: ratings and last games (`player`; also `GET /player/NAME`).
    Player {
        /// The account's name; none for your own page (an anonymous player has one too,
        /// over the socket only: it lists their games to open in the analysis board).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// A variant's best rated players (`leaderboard`; also `GET /leaderboard/VARIANT`).
    Leaderboard {
        /// The variant's id.
        variant: String,
    },
    /// A finished game's record (`record`, its PGN; also `GET /game/ID.pgn`).
    Record {
        /// The game's id.
        game: String,
    },
    /// The player's games in progress, those on their turn first (sent now and
    /// whenever one starts, ends or passes the turn).
    Games,
    /// The player's ratings.
    Ratings,
    /// The games in play, to watch.
    Playing,
    /// Go berserk in an arena's game before your first move: half your clock and no
    /// increment, for one more point if you win in 13 plies or more (`berserk` tells
    /// everyone following).
    Berserk {
        /// The game's id.
        game: String,
    },
    /// Follow the list of tournaments (`tournaments`, pushed as it changes).
    Tournaments,
    /// Create a tournament (an account only; a few each).
    TournamentCreate(Box<crate::TournamentRequest>),
    /// Enter a tournament (an arena at any time before its end, a Swiss before its
    /// last round, a round robin before it starts), or, for its creator when bots may
    /// enter, add an engine seat of `engine` level (1 to 20).
    TournamentJoin {
        /// The tournament's id.
        tournament: String,
        /// An engine seat's level, instead of oneself.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        engine: Option<u8>,
    },
    /// Leave a tournament: no longer paired (an arena's points stay; a round robin's
    /// games to come are forfeited).
    TournamentWithdraw {
        /// The tournament's id.
        tournament: String,
    },
    /// Follow a tournament's standings (`tournament`, pushed as they change; one
    /// tournament at a time).
    Tournament {
        /// The tournament's id.
        tournament: String,
    },
    /// Are you there? (`pong`).
    Ping,
}

/// A game offered: its variant and time, rated or casual, which side the seeker
/// takes, and which seats the server's engine fills.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeekRequest {
    /// The variant's id (`glinski`, `mccooey`, `hexachess-3`, ...).
    pub variant: String,
    /// Minutes each on the clock (with `increment`), or none with `days`.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// Seconds added to a side's clock after each of its moves.
    #[serde(default)]
    pub increment: u32,
    /// Correspondence: days per move.
    #[serde(default)]
    pub days: Option<u32>,
    /// Whether the game moves the players' ratings.
    #[serde(default)]
    pub rated: bool,
    /// The seeker's side by name (`white`, `black`, ...), or none for any.
    #[serde(default)]
    pub side: Option<String>,
    /// A private challenge: not listed; the server answers with a code to share.
    #[serde(default)]
    pub private: bool,
    /// How many of the other seats the built-in engine takes, at `level`.
    #[serde(default)]
    pub engines: u32,
    /// The engine's strength, 1 to 20 (none: full strength).
    #[serde(default)]
    pub level: Option<u8>,
}

/// Why a message was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// Longer than [`MAX_MESSAGE_BYTES`].
    TooLong {
        /// How long it was.
        bytes: usize,
    },
    /// Not UTF-8 text.
    NotText,
    /// A binary frame: every message is JSON text.
    Binary,
    /// Not JSON: what is wrong, and where.
    NotJson {
        /// The line of the fault, from 1.
        line: usize,
        /// Its column, from 1.
        column: usize,
        /// What JSON's reader found wrong.
        what: String,
    },
    /// JSON, but not a message: an unknown type, a field missing or of the wrong kind.
    NotAMessage(String),
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::TooLong { bytes } => write!(
                f,
                "message of {bytes} bytes; at most {MAX_MESSAGE_BYTES} are read"
            ),
            MessageError::NotText => f.write_str("message is not UTF-8 text"),
            MessageError::Binary => {
                f.write_str("a binary frame: every message is JSON in a text frame")
            }
            MessageError::NotJson { line, column, what } => {
                write!(f, "not JSON: line {line}, column {column}: {what}")
            }
            MessageError::NotAMessage(what) => write!(f, "not a message: {what}"),
        }
    }
}

impl std::error::Error for MessageError {}

impl ClientMessage {
    /// Reads one message from a websocket frame's bytes.
    pub fn read(bytes: &[u8]) -> Result<ClientMessage, MessageError> {
        if bytes.len() > MAX_MESSAGE_BYTES {
            return Err(MessageError::TooLong { bytes: bytes.len() });
        }
        let text = std::str::from_utf8(bytes).map_err(|_| MessageError::NotText)?;
        // In two steps: the syntax first, whose errors have a place (a tagged enum's
        // own errors come without one).
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| MessageError::NotJson {
                line: e.line(),
                column: e.column(),
                what: e.to_string(),
            })?;
        ClientMessage::deserialize(value).map_err(|e| MessageError::NotAMessage(e.to_string()))
    }
}

impl ClientMessage {
    /// The message as the wire carries it.
    pub fn to_text(&self) -> String {
        crate::server::to_text(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_read_by_their_type() {
        assert_eq!(
            ClientMessage::read(br#"{"t":"move","game":"ab12","ply":4,"step":"f5f6","ack":7}"#),
            Ok(ClientMessage::Move {
                game: "ab12".into(),
                ply: 4,
                step: "f5f6".into(),
                ack: 7,
                lag_ms: None,
            })
        );
        assert_eq!(
            ClientMessage::read(br#"{"t":"ping"}"#),
            Ok(ClientMessage::Ping)
        );
        assert_eq!(
            ClientMessage::read(br#"{"t":"join","game":"ab12","seen":41}"#),
            Ok(ClientMessage::Join {
                game: "ab12".into(),
                seen: Some(41),
            })
        );
    }

    #[test]
    fn a_bad_message_is_refused_with_what_and_where() {
        let long = vec![b' '; MAX_MESSAGE_BYTES + 1];
        assert_eq!(
            ClientMessage::read(&long),
            Err(MessageError::TooLong {
                bytes: MAX_MESSAGE_BYTES + 1
            })
        );
        assert_eq!(ClientMessage::read(b"\xff\xfe"), Err(MessageError::NotText));
        for (bad, said) in [
            ("{\"t\":\"move\",\n\"ply\": four}", "line 2, column 9"),
            (
                r#"{"t":"move","game":"x","ply":"four","step":"a","ack":1}"#,
                "invalid type",
            ),
            (r#"{"t":"move","game":"x","ply":4}"#, "missing field"),
            (r#"{"t":"castle"}"#, "unknown variant `castle`"),
            (
                r#"{"t":"move","game":"x","ply":-1,"step":"a","ack":1}"#,
                "-1",
            ),
            (r#"[1,2]"#, "not a message"),
            ("", "EOF"),
        ] {
            let e = ClientMessage::read(bad.as_bytes()).unwrap_err();
            assert!(e.to_string().contains(said), "{bad}: {e}");
        }
    }
}
