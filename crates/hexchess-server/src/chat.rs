//! A game's chat: who may say what, how much, and who reads it.
//!
//! A game has two chats. A seat's player speaks in the players' chat, which everyone
//! following the game reads; anyone else speaks in the spectators' chat, which only
//! spectators read, so that no player is ever told what the watchers see in the
//! position (lichess keeps its "spectator room" apart for the same reason). A line is
//! one of the game's numbered events: stored with the game before anyone reads it, so
//! a chat survives a restart as its moves do, and a client that may not read a line
//! (a player, for the spectators' chat; anyone who muted its author) gets its number
//! only, as for a hidden deployment.
//!
//! Every cost is bounded: a line is at most [`MAX_CHAT_CHARS`] characters, a game
//! holds at most [`MAX_CHAT_LINES`], a player says at most [`CHAT_BURST`] lines each
//! [`CHAT_WINDOW`] in a game, spectators need an account, and a player mutes at most
//! [`MAX_MUTES`] names.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use hexchess_protocol::{ChatLine, GameEvent, MAX_CHAT_CHARS};

use crate::history::Sent;

/// Lines a game's chat holds at most (both chats together): its storage is bounded.
pub const MAX_CHAT_LINES: usize = 500;

/// Lines one player may say in a game each [`CHAT_WINDOW`].
pub const CHAT_BURST: u32 = 5;

/// The window of [`CHAT_BURST`].
pub const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// Names a player may mute at most.
pub const MAX_MUTES: usize = 200;

/// The longest name a mute keeps (an account's name has at most 20 characters, an
/// anonymous player's 14).
pub const MAX_MUTED_NAME: usize = 40;

/// Why a chat line or a mute was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatRefusal {
    /// Nothing but spaces.
    Empty,
    /// Longer than [`MAX_CHAT_CHARS`]: how long it was.
    TooLong(usize),
    /// A line break or another control character.
    ControlCharacter,
    /// A spectator without an account.
    NoAccount,
    /// The game's chat holds [`MAX_CHAT_LINES`] already.
    Full,
    /// Over [`CHAT_BURST`]: the window's time left.
    TooFast(Duration),
    /// [`MAX_MUTES`] names muted already.
    TooManyMutes,
    /// A name no player can have.
    BadName,
}

impl fmt::Display for ChatRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChatRefusal::Empty => f.write_str("say something: the line is empty"),
            ChatRefusal::TooLong(chars) => write!(
                f,
                "a chat line has at most {MAX_CHAT_CHARS} characters, not {chars}"
            ),
            ChatRefusal::ControlCharacter => {
                f.write_str("a chat line is one line, without control characters")
            }
            ChatRefusal::NoAccount => {
                f.write_str("spectators chat with an account: register or log in first")
            }
            ChatRefusal::Full => write!(
                f,
                "this game's chat holds {MAX_CHAT_LINES} lines, the most it keeps"
            ),
            ChatRefusal::TooFast(left) => write!(
                f,
                "at most {CHAT_BURST} lines each {} s: wait {} s",
                CHAT_WINDOW.as_secs(),
                left.as_secs() + 1
            ),
            ChatRefusal::TooManyMutes => write!(f, "you mute {MAX_MUTES} names already"),
            ChatRefusal::BadName => write!(
                f,
                "a name to mute has 1 to {MAX_MUTED_NAME} characters, as the chat shows it"
            ),
        }
    }
}

/// A chat line as it will be kept: trimmed, one line, not too long.
pub fn checked_text(text: &str) -> Result<String, ChatRefusal> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ChatRefusal::Empty);
    }
    let chars = text.chars().count();
    if chars > MAX_CHAT_CHARS {
        return Err(ChatRefusal::TooLong(chars));
    }
    if text.chars().any(char::is_control) {
        return Err(ChatRefusal::ControlCharacter);
    }
    Ok(text.to_string())
}

/// A name as a mute keeps it.
pub fn checked_name(name: &str) -> Result<String, ChatRefusal> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_MUTED_NAME || name.chars().any(char::is_control) {
        return Err(ChatRefusal::BadName);
    }
    Ok(name.to_string())
}

/// The names a player hides, shared by their connection (which changes it when they
/// mute or unmute) and the rooms it follows (which read it for every line they send).
#[derive(Clone, Debug, Default)]
pub struct Muted(Arc<RwLock<BTreeSet<String>>>);

impl Muted {
    /// A list of these names.
    pub fn of(names: impl IntoIterator<Item = String>) -> Muted {
        Muted(Arc::new(RwLock::new(names.into_iter().collect())))
    }

    /// Whether lines by `name` are hidden.
    pub fn hides(&self, name: &str) -> bool {
        self.0.read().is_ok_and(|names| names.contains(name))
    }

    /// Hides or shows `name`'s lines from now on.
    pub fn set(&self, name: &str, muted: bool) {
        if let Ok(mut names) = self.0.write() {
            if muted {
                names.insert(name.to_string());
            } else {
                names.remove(name);
            }
        }
    }

    /// The names, in order.
    pub fn names(&self) -> Vec<String> {
        self.0
            .read()
            .map(|names| names.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// What a reader with these mutes is sent of an event: a muted author's line
    /// becomes its number alone.
    pub fn filter(&self, sent: Sent) -> Sent {
        match &sent {
            Sent::Event {
                version,
                body: GameEvent::Chat(line),
            } if self.hides(&line.from) => Sent::Skip { version: *version },
            _ => sent,
        }
    }

    /// Whether a line of the kept chat is shown to a reader with these mutes.
    pub fn shows(&self, line: &ChatLine) -> bool {
        !self.hides(&line.from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_protocol::ChatRoom;

    #[test]
    fn a_line_is_one_trimmed_line_of_at_most_the_limit() {
        assert_eq!(checked_text("  good luck "), Ok("good luck".into()));
        assert_eq!(checked_text("   "), Err(ChatRefusal::Empty));
        assert_eq!(checked_text("gg\nwp"), Err(ChatRefusal::ControlCharacter));
        let long = "é".repeat(MAX_CHAT_CHARS + 1);
        assert_eq!(
            checked_text(&long),
            Err(ChatRefusal::TooLong(MAX_CHAT_CHARS + 1))
        );
        // Characters are counted, not bytes: 200 two-byte letters pass.
        assert!(checked_text(&"é".repeat(MAX_CHAT_CHARS)).is_ok());
    }

    #[test]
    fn a_muted_authors_line_is_sent_as_its_number_alone() {
        let muted = Muted::of(["troll".to_string()]);
        let line = |from: &str| Sent::Event {
            version: 7,
            body: GameEvent::Chat(ChatLine {
                from: from.into(),
                text: "hi".into(),
                room: ChatRoom::Players,
            }),
        };
        assert_eq!(muted.filter(line("troll")), Sent::Skip { version: 7 });
        assert_eq!(muted.filter(line("friend")), line("friend"));
        muted.set("troll", false);
        assert_eq!(muted.filter(line("troll")), line("troll"));
        assert_eq!(muted.names(), Vec::<String>::new());
    }
}
