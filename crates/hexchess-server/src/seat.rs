//! Who sits in a seat of a hosted game: a player (a person or a bridge's bot) or the
//! server's own engine. The rooms, the lists and the records all name seats this way.

use crate::hosted::PlayerId;

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatHolder {
    /// A person (or a bridge's bot) with an account or an anonymous secret.
    Player {
        /// Their id.
        id: PlayerId,
        /// Their name as the lists show it.
        name: String,
        /// Whether a program plays for the account.
        bot: bool,
    },
    /// The built-in engine at a level.
    Engine {
        /// 1 to 20.
        level: u8,
    },
}

impl SeatHolder {
    /// The name the lists and records show for the seat.
    pub fn name(&self) -> String {
        match self {
            SeatHolder::Player { name, .. } => name.clone(),
            SeatHolder::Engine { level } => format!("hexchess engine, level {level}"),
        }
    }

    /// Whether a program plays the seat (the server's engine, or a bot's account).
    pub fn is_bot(&self) -> bool {
        match self {
            SeatHolder::Player { bot, .. } => *bot,
            SeatHolder::Engine { .. } => true,
        }
    }

    /// The id the hosted game knows this seat's holder by (each engine seat its own).
    pub(crate) fn id(&self, seat: usize) -> PlayerId {
        match self {
            SeatHolder::Player { id, .. } => id.clone(),
            SeatHolder::Engine { .. } => PlayerId(format!("@engine{seat}")),
        }
    }
}

/// Who a connection speaks for, once it said hello.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The player's id.
    pub id: PlayerId,
    /// Their name as the lists show it.
    pub name: String,
    /// The secret the client keeps (a new one for a new player or a login).
    pub token: String,
    /// Whether the player is an account (a name and a password).
    pub account: bool,
    /// Whether a program plays for the account (a bridge's bot, marked in the lists).
    pub bot: bool,
}

impl Identity {
    /// The seat this player takes.
    pub(crate) fn seat(&self) -> SeatHolder {
        SeatHolder::Player {
            id: self.id.clone(),
            name: self.name.clone(),
            bot: self.bot,
        }
    }
}
