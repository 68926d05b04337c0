//! What the server sends. Three kinds of message reach a client:
//!
//! - [`ServerMessage`]: a reply (`welcome`, `seek`, `ack`, `refused`, the whole game as
//!   `state` ...) or a list (`seeks`, `games`, `playing`, `ratings`), its type in `t`;
//! - [`Numbered`]: one of a game's events (`step`, `reveal`, `draw_offer`, `end`), with
//!   the game's id and its version `v`, one more than the event before;
//! - [`Hidden`]: an event this client may not see (another side's hidden deployment in
//!   Screen HexaChess): only the game and the version, so that no number is missed.
//!
//! [`FromServer`] reads any of them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A value as JSON text. The protocol's types have string keys and no floats that are
/// not numbers, so writing cannot fail; should it ever, the text is an `error` message
/// saying so rather than a panic.
pub(crate) fn to_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        let said = serde_json::to_string(&format!("a message could not be written: {e}"))
            .unwrap_or_default();
        format!("{{\"t\":\"error\",\"message\":{said}}}")
    })
}

/// A reply or a list, its type in `t`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`, `register` and `login`: who this connection speaks for.
    Welcome(Welcome),
    /// A message refused, or not understood.
    Error(ErrorMessage),
    /// The answer to `ping`.
    Pong,
    /// The lobby's open seeks (the oldest 200), now and on every change, as the list's
    /// newest state.
    Seeks {
        /// The seeks, oldest first.
        seeks: Vec<SeekListing>,
    },
    /// The answer to `seek` or `quick`: the seek's id, and a private challenge's code.
    Seek(SeekReply),
    /// A game of yours started (it may come before the `seek` answer).
    Started(Started),
    /// Who has asked for a rematch of a finished game of yours, at each ask.
    Rematch(RematchAsked),
    /// Your games in play, those on your turn first.
    Games {
        /// Your games.
        games: Vec<YourGame>,
    },
    /// The games in play, to watch (at most 100).
    Playing {
        /// The games.
        games: Vec<GameInPlay>,
    },
    /// A finished game's record (the answer to `record`).
    Record {
        /// The game's id.
        game: String,
        /// Its PGN.
        pgn: String,
    },
    /// A player's page (the answer to `player`).
    Player(Box<PlayerProfile>),
    /// A variant's leaderboard (the answer to `leaderboard`).
    Leaderboard(Leaderboard),
    /// The names whose chat you hide (the answer to `mute` and `unmute`).
    Muted {
        /// The names, in order.
        names: Vec<String>,
    },
    /// Your ratings, per variant and speed.
    Ratings {
        /// One line per variant and speed played rated.
        ratings: Vec<RatingLine>,
    },
    /// The whole game as you may see it (the answer to `join`, or a resync).
    State(Box<GameState>),
    /// A `join` with `seen` is caught up: every event since came before this.
    Joined(Joined),
    /// A move stored: everyone following hears of it next.
    Ack(Ack),
    /// A move or an act refused.
    Refused(Box<Refused>),
    /// The tournaments (the answer to `tournaments`, and on every change).
    Tournaments(crate::TournamentList),
    /// A tournament and its standings (the answer to `tournament` and
    /// `tournament_create`, and on every change).
    Tournament(Box<crate::TournamentView>),
}

impl ServerMessage {
    /// The message as the wire carries it.
    pub fn to_text(&self) -> String {
        to_text(self)
    }

    /// An `error` about no game in particular.
    pub fn error(message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error(ErrorMessage {
            game: None,
            message: message.into(),
        })
    }
}

/// Who a connection speaks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Welcome {
    /// The protocol version the server speaks ([`crate::PROTOCOL`]).
    pub protocol: u32,
    /// The player's id.
    pub player: String,
    /// Its name: an account's (ASCII, lower case), or `Anonymous ` and four characters.
    pub name: String,
    /// The secret to keep and send in every later `hello`.
    pub token: String,
    /// Whether the player is an account (with a name and a password).
    pub account: bool,
    /// The names whose chat this player hides (left out when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub muted: Vec<String>,
}

/// What was wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorMessage {
    /// The game the message named, when it named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// What was wrong, for a person to read.
    pub message: String,
}

/// One open seek in the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeekListing {
    /// The seek's id, to `accept`.
    pub id: String,
    /// The variant's id.
    pub variant: String,
    /// Minutes each on the clock; none for correspondence or untimed.
    pub minutes: Option<u32>,
    /// Seconds added after each move.
    pub increment: u32,
    /// Correspondence: days per move.
    pub days: Option<u32>,
    /// Whether the game moves ratings.
    pub rated: bool,
    /// The seeker's name.
    pub by: Option<String>,
    /// Seats in the game.
    pub seats: u32,
    /// Seats still open.
    pub open: u32,
    /// Whether a program seeks (a bot's account, or engine seats the seek fills).
    #[serde(default)]
    pub bot: bool,
    /// The seeker's rating in the seek's variant and speed (none where it could not be
    /// read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<SeatRating>,
}

/// A seek made: its id, and a private challenge's code to share (`null` otherwise).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeekReply {
    /// The seek's id, to `cancel` it.
    pub id: String,
    /// A private challenge's code, for the other player's `accept`.
    pub code: Option<String>,
}

/// A game of yours started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Started {
    /// The game's id, to `join`.
    pub game: String,
    /// The variant's id.
    pub variant: String,
    /// Your seat, by the variant's name for it (`White`, `Black`, `Red` ...).
    pub side: String,
    /// The tournament the game is a round of, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
}

/// The seats that have asked for a rematch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RematchAsked {
    /// The finished game's id.
    pub game: String,
    /// The seats that have asked so far, by the variant's names for them.
    pub asked: Vec<String>,
}

/// One of your games in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct YourGame {
    /// The game's id.
    pub game: String,
    /// The variant's id.
    pub variant: String,
    /// Its speed (`blitz`, `correspondence`, ...).
    pub speed: String,
    /// Each seat's player, in seat order.
    pub names: Vec<String>,
    /// Whether a seat of yours is on move.
    pub your_turn: bool,
}

/// A game in play, to watch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameInPlay {
    /// The game's id, to `join` as a spectator.
    pub game: String,
    /// The variant's id.
    pub variant: String,
    /// Its speed.
    pub speed: String,
    /// Each seat's player, in seat order.
    pub names: Vec<String>,
    /// Which seats a program plays, in seat order (left out by older servers).
    #[serde(default)]
    pub bots: Vec<bool>,
}

/// The games in play, as `/games` answers over HTTP.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GamesInPlay {
    /// The games.
    pub games: Vec<GameInPlay>,
}

impl GamesInPlay {
    /// The list as JSON text.
    pub fn to_text(&self) -> String {
        to_text(self)
    }
}

/// A rating in one variant at one speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RatingLine {
    /// The variant's id.
    pub variant: String,
    /// `ultrabullet` ... `classical`, `correspondence`, `untimed`.
    pub speed: String,
    /// The rating (Glicko-2 for two sides, Weng-Lin for more).
    pub rating: f64,
    /// How unsure it still is: a rating is provisional while this is high.
    pub deviation: f64,
    /// Rated games it rests on.
    pub games: u32,
    /// Too few rated games to trust it yet (shown with a `?`).
    #[serde(default)]
    pub provisional: bool,
}

/// A player's page (`GET /player/NAME`, or `player` over the socket): their ratings
/// and their last games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerProfile {
    /// The account's name.
    pub name: String,
    /// Whether a program plays for the account (a bridge's bot).
    #[serde(default)]
    pub bot: bool,
    /// One line per variant and speed played rated.
    pub ratings: Vec<RatingLine>,
    /// The newest games first (at most 30), finished or not.
    pub games: Vec<PlayedGame>,
}

/// One game in a player's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlayedGame {
    /// The game's id (its record: `/game/ID.pgn`).
    pub game: String,
    /// The variant's id.
    pub variant: String,
    /// Its speed.
    pub speed: String,
    /// Whether it moved ratings.
    pub rated: bool,
    /// The player's seat, by name.
    pub seat: String,
    /// Each seat's name, in seat order.
    pub names: Vec<String>,
    /// Each seat's points joined by `-`, `*` for an abort; none while it is on.
    pub result: Option<String>,
    /// Why it ended (none while it is on).
    pub why: Option<String>,
    /// When it last changed (its end, for a finished game), ms since 1970.
    pub updated_ms: i64,
}

/// The best rated players of one variant (`GET /leaderboard/VARIANT`, or `leaderboard`
/// over the socket), at each speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Leaderboard {
    /// The variant's id.
    pub variant: String,
    /// Each speed played rated, in the order of the speeds.
    pub speeds: Vec<SpeedBoard>,
}

/// One speed's leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SpeedBoard {
    /// The speed.
    pub speed: String,
    /// At most 50 players: established ratings first, best first, then provisional
    /// ones (a new server shows its first players, marked).
    pub players: Vec<LeaderLine>,
}

/// One player on a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LeaderLine {
    /// The account's name.
    pub name: String,
    /// The rating.
    pub rating: f64,
    /// How unsure it is.
    pub deviation: f64,
    /// Rated games it rests on.
    pub games: u32,
    /// Too few rated games to trust it yet.
    pub provisional: bool,
}

/// The whole game as one client may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameState {
    /// The game's id.
    pub game: String,
    /// Whether it moves ratings.
    pub rated: bool,
    /// Its speed.
    pub speed: String,
    /// A correspondence game's deadline for the side on move (ms since 1970).
    pub deadline_ms: Option<u64>,
    /// Each seat's player, in seat order.
    pub names: Vec<String>,
    /// Whether each seat is played by a program (the server's engine), in seat order
    /// (left out by older servers: none marked).
    #[serde(default)]
    pub bots: Vec<bool>,
    /// Each seat's rating in this game's variant and speed, in seat order (none for an
    /// engine's seat; left out by older servers). After a rated game's end, the new
    /// ones.
    #[serde(default)]
    pub ratings: Vec<Option<SeatRating>>,
    /// The seats whose players are away now, with how long until a claim (left out
    /// when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub away: Vec<AwaySeat>,
    /// The game's chat as this client may read it, oldest first (the players' chat,
    /// and a spectator's own room; lines of muted names left out).
    #[serde(default)]
    pub chat: Vec<ChatLine>,
    /// The seats this client holds, by name (none: a spectator).
    pub you: Vec<String>,
    /// The game itself (its fields sit beside these on the wire).
    #[serde(flatten)]
    pub board: BoardView,
}

/// A seat whose player is away.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AwaySeat {
    /// The seat.
    pub side: String,
    /// How long until its opponents may claim the game (on its turn), in milliseconds.
    pub claim_in_ms: u64,
}

/// A seat's rating, as the players' bars show it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatRating {
    /// The rating (Glicko-2 from 1500; at a table Weng-Lin's skill from 25).
    pub rating: f64,
    /// Too few rated games to trust it yet (shown with a `?`).
    pub provisional: bool,
}

/// Which of a game's two chats a line belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChatRoom {
    /// The players' chat: said by a seat's player; everyone following reads it.
    Players,
    /// The spectators' chat: said by a spectator; only spectators read it (a player
    /// is never told what the watchers think of the position).
    Spectators,
}

/// One line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChatLine {
    /// Who said it, as the lists name them.
    pub from: String,
    /// What they said.
    pub text: String,
    /// Which chat it is in.
    pub room: ChatRoom,
}

/// A player's rating before and after a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RatingChange {
    /// Before the game.
    pub before: f64,
    /// After it.
    pub after: f64,
    /// Whether the new rating is still provisional.
    pub provisional: bool,
}

/// The game itself as one client may see it: what the server's game holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BoardView {
    /// The variant's id.
    pub variant: String,
    /// Every step, in the protocol's long notation; `null` for another side's
    /// deployment still hidden.
    pub steps: Vec<Option<String>>,
    /// The seat on move, by name.
    pub to_move: String,
    /// Every step the side on move may play now; `null` while deployments are hidden
    /// and once the game is over.
    pub legal: Option<Vec<String>>,
    /// Steps played so far: the ply the next move names.
    pub ply: u32,
    /// While deployments are hidden: the position as this client may see it.
    pub view_fen: Option<String>,
    /// Each seat's time left, when timed.
    pub clocks_ms: Option<Vec<u64>>,
    /// The seat whose clock runs.
    pub running: Option<String>,
    /// The seats offering a draw.
    pub draw_offers: Vec<String>,
    /// Once over: each seat's points joined by `-` (as [`GameEvent::End`]).
    pub result: Option<String>,
    /// Once over: why (as [`GameEvent::End`]).
    pub why: Option<String>,
    /// Each seat's points in thousandths, once over.
    pub points: Option<Vec<u32>>,
    /// The version this view is at.
    pub v: u64,
}

/// A join caught up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Joined {
    /// The game's id.
    pub game: String,
    /// The version the client is at now.
    pub v: u64,
}

/// A move stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ack {
    /// The game's id.
    pub game: String,
    /// The client's own number for the move.
    pub ack: u64,
}

/// A move or an act refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Refused {
    /// The game's id.
    pub game: String,
    /// The refused move's `ack` (none for a resign, draw, abort or claim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack: Option<u64>,
    /// Why, for a person to read.
    pub why: String,
    /// A client out of step: the whole game, to rebuild its board from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<GameState>,
}

/// One of a game's events, numbered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Numbered {
    /// The game's id.
    pub game: String,
    /// The game's version after this event.
    pub v: u64,
    /// What happened (its `t` and fields sit beside these on the wire).
    #[serde(flatten)]
    pub event: GameEvent,
}

impl Numbered {
    /// The event as JSON text.
    pub fn to_text(&self) -> String {
        to_text(self)
    }
}

/// What can happen in a game, its type in `t`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum GameEvent {
    /// A step played.
    Step {
        /// Steps played before it.
        ply: u32,
        /// The seat that played it.
        side: String,
        /// The step in the protocol's long notation.
        step: String,
        /// The mover's clock after it, once the clocks run.
        left_ms: Option<u64>,
        /// The seat on move after it.
        to_move: String,
        /// Every step the seat on move may play (as [`BoardView::legal`]).
        legal: Option<Vec<String>>,
    },
    /// Every side has deployed: the hidden steps, for everyone.
    Reveal {
        /// Each hidden step with its ply.
        steps: Vec<RevealedStep>,
    },
    /// A draw offered (every side still in offering ends the game).
    DrawOffer {
        /// The seat offering.
        side: String,
    },
    /// The draw offers on the table declined: none stands any more.
    DrawDeclined {
        /// The seat declining.
        side: String,
    },
    /// A seat's player left the game (closed it, or lost the connection): once it is
    /// that seat's turn and `claim_in_ms` has passed, its opponents may `claim`.
    Away {
        /// The seat.
        side: String,
        /// How long after this its opponents may claim the game, in milliseconds.
        claim_in_ms: u64,
    },
    /// A seat's player who was away is back.
    Back {
        /// The seat.
        side: String,
    },
    /// A line of the game's chat.
    Chat(ChatLine),
    /// A seat's player went berserk (an arena's game): half their clock, no increment.
    Berserk {
        /// The seat.
        side: String,
    },
    /// A rated game's ratings moved (right after its end): each seat's change, in seat
    /// order (none for a seat not rated).
    Rated {
        /// Each seat's rating before and after.
        changes: Vec<Option<RatingChange>>,
    },
    /// The end.
    End {
        /// Each seat's points joined by `-` (`1-0`, `3/4-1/4`, `0-1/2-1/2`), `*` for an
        /// abort.
        result: String,
        /// `checkmate`, `stalemate`, ..., `aborted` (docs/online.md).
        why: String,
        /// Each seat's points in thousandths (none for an abort).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        points: Option<Vec<u32>>,
    },
}

/// A hidden step made known at the reveal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RevealedStep {
    /// Steps played before it.
    pub ply: u32,
    /// The step in the protocol's long notation.
    pub step: String,
}

/// An event this client may not see: its number only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Hidden {
    /// The game's id.
    pub game: String,
    /// The game's version after the event.
    pub v: u64,
}

impl Hidden {
    /// The event's number as JSON text.
    pub fn to_text(&self) -> String {
        to_text(self)
    }
}

/// Anything the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum FromServer {
    /// A reply or a list.
    Message(ServerMessage),
    /// A game's event.
    Event(Numbered),
    /// A game's event this client may not see.
    Hidden(Hidden),
}

/// The `t` of every [`GameEvent`].
const EVENTS: [&str; 10] = [
    "away",
    "berserk",
    "back",
    "step",
    "reveal",
    "draw_offer",
    "draw_declined",
    "end",
    "chat",
    "rated",
];

impl FromServer {
    /// Reads one message from the server, by its `t` (none: a hidden event), with what
    /// is wrong when it is not one.
    pub fn read(text: &str) -> Result<FromServer, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let kind = value.get("t").and_then(Value::as_str).map(str::to_string);
        let read = match kind.as_deref() {
            None => serde_json::from_value(value).map(FromServer::Hidden),
            Some(t) if EVENTS.contains(&t) => serde_json::from_value(value).map(FromServer::Event),
            Some(_) => serde_json::from_value(value).map(FromServer::Message),
        };
        read.map_err(|e| format!("not a message of the protocol: {e}"))
    }

    /// The game a message is about, when it is about one.
    pub fn game(&self) -> Option<&str> {
        match self {
            FromServer::Event(e) => Some(&e.game),
            FromServer::Hidden(h) => Some(&h.game),
            FromServer::Message(m) => match m {
                ServerMessage::State(s) => Some(&s.game),
                ServerMessage::Joined(j) => Some(&j.game),
                ServerMessage::Ack(a) => Some(&a.game),
                ServerMessage::Refused(r) => Some(&r.game),
                ServerMessage::Started(s) => Some(&s.game),
                ServerMessage::Rematch(r) => Some(&r.game),
                ServerMessage::Error(e) => e.game.as_deref(),
                _ => None,
            },
        }
    }

    /// The game's version this message brings a client to, when it is one of a game's
    /// numbered messages.
    pub fn version(&self) -> Option<u64> {
        match self {
            FromServer::Event(e) => Some(e.v),
            FromServer::Hidden(h) => Some(h.v),
            FromServer::Message(ServerMessage::State(s)) => Some(s.board.v),
            FromServer::Message(ServerMessage::Joined(j)) => Some(j.v),
            FromServer::Message(_) => None,
        }
    }

    /// The message as the wire carries it.
    pub fn to_text(&self) -> String {
        to_text(self)
    }
}
