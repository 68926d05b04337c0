//! What nodes say to each other through the broker, as JSON: a socket node passes a
//! client's commands for a game to the game node that owns it, and that node passes
//! back what the game's room sends to the client. The room itself does not know: to
//! it, a client on another node is one more follower with an outbox.

use serde::{Deserialize, Serialize};

use crate::room::Act;

/// A client's connection on a socket node, as other nodes name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RemoteConn {
    /// The socket node.
    pub node: String,
    /// The connection's number there.
    pub conn: u64,
}

/// What a socket node asks of the game node that owns `game`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToGame {
    /// The game.
    pub game: String,
    /// The client's connection.
    pub from: RemoteConn,
    /// What it asks.
    pub command: Command,
}

/// A client's command for a game, as the room takes it (see [`crate::room::RoomCommand`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Command {
    /// Follow the game from version `seen`.
    Join {
        /// The client's player, if signed in.
        who: Option<String>,
        /// The last version it has.
        seen: Option<u64>,
        /// The names whose chat it hides.
        muted: Vec<String>,
    },
    /// Stop following.
    Leave {
        /// Whether the player left (not the connection lost).
        on_purpose: bool,
    },
    /// A step for the ply named.
    Move {
        /// The player.
        who: String,
        /// Steps played before it, as the client counts them.
        ply: u32,
        /// The step.
        step: String,
        /// The client's number for it.
        ack: u64,
        /// The client's measure of its lag, in milliseconds.
        lag_ms: u64,
    },
    /// A line for the game's chat.
    Chat {
        /// Who says it.
        who: String,
        /// Their name as the chat shows it.
        name: String,
        /// Whether they have an account.
        account: bool,
        /// What they say.
        text: String,
    },
    /// Resign, offer or decline a draw, abort, claim.
    Act {
        /// The player.
        who: String,
        /// What they do.
        act: Act,
    },
}

/// What a game node sends a socket node for its clients.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToSocket {
    /// Messages for a client, in order, as the room wrote them.
    Deliver {
        /// The connection's number on the socket node.
        conn: u64,
        /// The messages.
        texts: Vec<String>,
    },
}

/// What every node hears.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToAll {
    /// A game was stored and waits for a game node to take it.
    Open {
        /// The game.
        game: String,
    },
    /// A game node took a game (new, or from a node that died): followers elsewhere
    /// join it again there.
    Took {
        /// The game.
        game: String,
        /// The game node.
        node: String,
    },
    /// The shared lobby changed: each socket node pushes it to its followers.
    SeeksChanged,
    /// A game node's briefs changed: socket nodes read them again.
    BriefsChanged,
    /// A message for a player's connections, wherever they are (`started`).
    Tell {
        /// The socket node that tells it (its own connections were told already).
        from: String,
        /// The player's id.
        player: String,
        /// The message.
        text: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written() {
        let to_game = ToGame {
            game: "G".into(),
            from: RemoteConn {
                node: "s1".into(),
                conn: 7,
            },
            command: Command::Act {
                who: "p".into(),
                act: Act::Resign,
            },
        };
        let text = serde_json::to_string(&to_game).unwrap();
        assert_eq!(
            text,
            r#"{"game":"G","from":{"node":"s1","conn":7},"command":{"kind":"act","who":"p","act":"resign"}}"#
        );
        assert_eq!(serde_json::from_str::<ToGame>(&text).unwrap(), to_game);
        let took = ToAll::Took {
            game: "G".into(),
            node: "g2".into(),
        };
        let text = serde_json::to_string(&took).unwrap();
        assert_eq!(text, r#"{"kind":"took","game":"G","node":"g2"}"#);
        assert_eq!(serde_json::from_str::<ToAll>(&text).unwrap(), took);
    }
}
