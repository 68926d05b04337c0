//! A game's events, numbered: every change the server announces (a move, a clock, an
//! offer, the end) gets the next version, and the newest are kept so that a client
//! that lost its connection names the last version it saw and receives what it
//! missed. When what it missed is no longer all kept, it is told to resync (fetch the
//! whole game) instead: a gap is never papered over.
//!
//! An event may be for one seat only (Screen HexaChess: a side's hidden deployment).
//! Everyone else still receives its number, without its content, so that every
//! client's count stays without gaps and a missing event is always noticed.

use std::collections::VecDeque;

use hexchess_core::Side;
use hexchess_protocol::{FromServer, GameEvent, Hidden, Numbered};

/// Who may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Every follower.
    Everyone,
    /// Only the player of this seat (a hidden deployment).
    Seat(Side),
    /// Only those who hold no seat (the spectators' chat).
    Spectators,
}

/// Who is looking: a seat's player, or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The player of this seat.
    Seat(Side),
    /// Anyone else.
    Spectator,
}

impl Audience {
    fn shows_to(self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Audience::Everyone, _) => true,
            (Audience::Seat(s), Viewer::Seat(v)) => s == v,
            (Audience::Seat(_), Viewer::Spectator) => false,
            (Audience::Spectators, viewer) => viewer == Viewer::Spectator,
        }
    }
}

/// One event as kept.
#[derive(Clone, Debug, PartialEq)]
struct Event {
    version: u64,
    audience: Audience,
    body: GameEvent,
}

/// What a viewer is sent of one event: the event with its version, or only its version
/// when it is not theirs to see.
#[derive(Clone, Debug, PartialEq)]
pub enum Sent {
    /// The event.
    Event {
        /// The game's version after it.
        version: u64,
        /// What happened.
        body: GameEvent,
    },
    /// An event this viewer may not see: its number only.
    Skip {
        /// The game's version after it.
        version: u64,
    },
}

impl Sent {
    /// The game's version after the event.
    pub fn version(&self) -> u64 {
        match self {
            Sent::Event { version, .. } | Sent::Skip { version } => *version,
        }
    }

    /// What a client of game `game` receives: the event with its game and version, or
    /// those two alone.
    pub fn to_message(&self, game: &str) -> FromServer {
        match self {
            Sent::Skip { version } => FromServer::Hidden(Hidden {
                game: game.to_string(),
                v: *version,
            }),
            Sent::Event { version, body } => FromServer::Event(Numbered {
                game: game.to_string(),
                v: *version,
                event: body.clone(),
            }),
        }
    }
}

/// What a reconnecting client receives.
#[derive(Clone, Debug, PartialEq)]
pub enum CatchUp {
    /// It has seen everything.
    UpToDate,
    /// The events after the version it named, oldest first.
    Events(Vec<Sent>),
    /// What it missed is no longer all kept (or it named a version that never was):
    /// it must fetch the whole game.
    Resync,
}

/// A game's numbered events, the newest `capacity` kept.
#[derive(Clone, Debug)]
pub struct EventLog {
    newest: u64,
    kept: VecDeque<Event>,
    capacity: usize,
}

/// Events kept per game: lichess keeps 20; a turn of two moves with its clocks and
/// standings is more events than a two-player move, so a few more.
pub const KEPT_EVENTS: usize = 64;

impl EventLog {
    /// A log starting after `version` (0 for a new game; a game's stored version when
    /// the server restarts, so that numbering goes on).
    pub fn starting_at(version: u64, capacity: usize) -> EventLog {
        EventLog {
            newest: version,
            kept: VecDeque::with_capacity(capacity),
            capacity: capacity.max(1),
        }
    }

    /// The newest version (0 before any event).
    pub fn version(&self) -> u64 {
        self.newest
    }

    /// Numbers and keeps an event; its version.
    pub fn publish(&mut self, audience: Audience, body: GameEvent) -> u64 {
        self.newest += 1;
        if self.kept.len() == self.capacity {
            self.kept.pop_front();
        }
        self.kept.push_back(Event {
            version: self.newest,
            audience,
            body,
        });
        self.newest
    }

    /// How `viewer` sees the event just published (for sending it live).
    pub fn latest_for(&self, viewer: Viewer) -> Option<Sent> {
        self.kept.back().map(|e| sent(e, viewer))
    }

    /// What a client that saw up to `seen` has missed.
    pub fn since(&self, seen: u64, viewer: Viewer) -> CatchUp {
        if seen == self.newest {
            return CatchUp::UpToDate;
        }
        if seen > self.newest {
            return CatchUp::Resync;
        }
        let oldest_kept = self.kept.front().map_or(self.newest + 1, |e| e.version);
        if seen + 1 < oldest_kept {
            return CatchUp::Resync;
        }
        CatchUp::Events(
            self.kept
                .iter()
                .filter(|e| e.version > seen)
                .map(|e| sent(e, viewer))
                .collect(),
        )
    }
}

fn sent(e: &Event, viewer: Viewer) -> Sent {
    if e.audience.shows_to(viewer) {
        Sent::Event {
            version: e.version,
            body: e.body.clone(),
        }
    } else {
        Sent::Skip { version: e.version }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_protocol::RevealedStep;

    fn offer(n: u64) -> GameEvent {
        GameEvent::DrawOffer {
            side: format!("seat {n}"),
        }
    }

    fn log_of(n: u64, capacity: usize) -> EventLog {
        let mut log = EventLog::starting_at(0, capacity);
        for i in 1..=n {
            assert_eq!(log.publish(Audience::Everyone, offer(i)), i);
        }
        log
    }

    #[test]
    fn a_client_is_caught_up_from_the_last_version_it_saw() {
        let log = log_of(10, 64);
        assert_eq!(log.since(10, Viewer::Spectator), CatchUp::UpToDate);
        let CatchUp::Events(missed) = log.since(7, Viewer::Spectator) else {
            panic!("events")
        };
        let versions: Vec<u64> = missed.iter().map(Sent::version).collect();
        assert_eq!(versions, [8, 9, 10]);
        assert_eq!(
            missed[0].to_message("g"),
            FromServer::Event(Numbered {
                game: "g".into(),
                v: 8,
                event: offer(8)
            })
        );
        // From the very start, while everything is kept.
        let CatchUp::Events(all) = log.since(0, Viewer::Spectator) else {
            panic!("events")
        };
        assert_eq!(all.len(), 10);
    }

    #[test]
    fn a_gap_that_is_no_longer_kept_or_a_version_from_the_future_means_resync() {
        let log = log_of(30, 20);
        // Kept: 11..=30. Seen 10: 11 onwards are all there.
        assert!(matches!(log.since(10, Viewer::Spectator), CatchUp::Events(e) if e.len() == 20));
        // Seen 9: event 10 is gone.
        assert_eq!(log.since(9, Viewer::Spectator), CatchUp::Resync);
        assert_eq!(log.since(31, Viewer::Spectator), CatchUp::Resync);
    }

    #[test]
    fn a_hidden_deployment_reaches_its_seat_only_and_the_others_keep_count() {
        let mut log = EventLog::starting_at(0, 64);
        log.publish(Audience::Everyone, offer(1));
        let placed = GameEvent::Reveal {
            steps: vec![RevealedStep {
                ply: 0,
                step: "K@f2".into(),
            }],
        };
        log.publish(Audience::Seat(Side::White), placed.clone());
        log.publish(Audience::Everyone, offer(3));
        let white = log.since(0, Viewer::Seat(Side::White));
        let black = log.since(0, Viewer::Seat(Side::Black));
        let watcher = log.since(0, Viewer::Spectator);
        let CatchUp::Events(w) = white else { panic!() };
        assert_eq!(
            w[1],
            Sent::Event {
                version: 2,
                body: placed
            }
        );
        for other in [black, watcher] {
            let CatchUp::Events(o) = other else { panic!() };
            assert_eq!(o[1], Sent::Skip { version: 2 });
            assert_eq!(o[1].to_message("g").to_text(), r#"{"game":"g","v":2}"#);
            // Nothing of the hidden cell in anything sent.
            let text: String = o.iter().map(|s| s.to_message("g").to_text()).collect();
            assert!(!text.contains("f2"), "{text}");
            let versions: Vec<u64> = o.iter().map(Sent::version).collect();
            assert_eq!(versions, [1, 2, 3], "no gap");
        }
    }

    #[test]
    fn numbering_goes_on_after_a_restart() {
        let mut log = EventLog::starting_at(41, KEPT_EVENTS);
        assert_eq!(log.version(), 41);
        // Nothing kept yet: a client that saw 41 is up to date, one that saw 40 resyncs.
        assert_eq!(log.since(41, Viewer::Spectator), CatchUp::UpToDate);
        assert_eq!(log.since(40, Viewer::Spectator), CatchUp::Resync);
        assert_eq!(log.publish(Audience::Everyone, offer(42)), 42);
        assert!(matches!(log.since(41, Viewer::Spectator), CatchUp::Events(e) if e.len() == 1));
    }
}
