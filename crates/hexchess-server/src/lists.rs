//! The lists a client follows, pushed as they change: the games to watch (to everyone
//! in the lobby) and each player's own games with whose turn it is (to the
//! connections that asked for them once). Rooms only mark what changed; once a
//! second, the hub sends each follower the list's newest state, in the outbox's slot
//! for it (a client that reads slowly skips the states in between, never piles them
//! up). A move costs a flag and a set insert, not a list.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::hosted::PlayerId;
use crate::seat::SeatHolder;

/// What the server's lists show of a game in progress: who plays, and whose turn it
/// is (the "your turn" list).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Brief {
    /// The variant's id.
    pub variant: String,
    /// Its speed.
    pub speed: String,
    /// Each seat's name, in seat order.
    pub names: Vec<String>,
    /// Each seat's player (none for an engine seat).
    pub players: Vec<Option<PlayerId>>,
    /// Who is on move while the game is on (an engine seat has an id of its own).
    pub to_move: Option<PlayerId>,
    /// Whether it has ended.
    pub over: bool,
    /// Who sits in each seat (a rematch seats them again).
    pub seats: Vec<SeatHolder>,
    /// Whether it moves ratings.
    pub rated: bool,
    /// The time control as the database keeps it.
    pub control: String,
}

/// How often changed lists are pushed.
pub const PUSH_EVERY: Duration = Duration::from_secs(1);

/// What changed in the lists since they were last pushed.
#[derive(Debug, Default)]
pub struct ListChanges {
    /// A game started or ended (the watch list).
    playing: AtomicBool,
    /// The players whose games changed: one started, ended, or passed the turn.
    players: Mutex<HashSet<PlayerId>>,
}

impl ListChanges {
    /// A game's brief went from `old` (none: a new game) to `new`.
    pub fn brief_changed(&self, old: Option<&Brief>, new: &Brief) {
        let started_or_ended = old.is_none_or(|o| o.over != new.over);
        if started_or_ended {
            self.playing.store(true, Ordering::Relaxed);
        }
        if (started_or_ended || old.is_some_and(|o| o.to_move != new.to_move))
            && let Ok(mut players) = self.players.lock()
        {
            players.extend(new.players.iter().flatten().cloned());
        }
    }

    /// A game's room closed: it leaves the lists.
    pub fn game_closed(&self, brief: Option<&Brief>) {
        self.playing.store(true, Ordering::Relaxed);
        if let (Some(brief), Ok(mut players)) = (brief, self.players.lock()) {
            players.extend(brief.players.iter().flatten().cloned());
        }
    }

    /// What changed, forgotten here: whether the watch list did, and whose games.
    pub fn take(&self) -> (bool, HashSet<PlayerId>) {
        let playing = self.playing.swap(false, Ordering::Relaxed);
        let players = self
            .players
            .lock()
            .map(|mut p| std::mem::take(&mut *p))
            .unwrap_or_default();
        (playing, players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brief(to_move: &str, over: bool) -> Brief {
        Brief {
            variant: "glinski".into(),
            speed: "blitz".into(),
            names: vec!["a".into(), "b".into()],
            players: vec![Some(PlayerId("a".into())), Some(PlayerId("b".into()))],
            to_move: Some(PlayerId(to_move.into())),
            over,
            seats: Vec::new(),
            rated: false,
            control: "{}".into(),
        }
    }

    #[test]
    fn a_start_a_turn_and_an_end_mark_what_they_change() {
        let changes = ListChanges::default();
        let both: HashSet<PlayerId> = ["a", "b"].map(|p| PlayerId(p.into())).into();
        changes.brief_changed(None, &brief("a", false));
        assert_eq!(
            changes.take(),
            (true, both.clone()),
            "a new game: both lists"
        );
        changes.brief_changed(Some(&brief("a", false)), &brief("a", false));
        assert_eq!(changes.take(), (false, HashSet::new()), "nothing changed");
        changes.brief_changed(Some(&brief("a", false)), &brief("b", false));
        assert_eq!(changes.take(), (false, both.clone()), "the turn passed");
        changes.brief_changed(Some(&brief("b", false)), &brief("b", true));
        assert_eq!(changes.take(), (true, both), "it ended");
    }
}
