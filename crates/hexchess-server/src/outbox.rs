//! What the server has to send one connection, bounded: a queue of messages in order,
//! and the newest state of each list the client follows (the lobby's seeks, its games,
//! the games to watch).
//!
//! A client that stops reading must not grow the server. Its socket stops taking bytes,
//! the connection's writer waits, and what rooms and the hub send piles up here; past
//! [`MAX_QUEUED`] messages or [`MAX_QUEUED_BYTES`] bytes the outbox ends and the
//! connection is closed (it catches up by version when it comes back). A list is not
//! a queue of every change: a new one replaces the one not yet sent, in the place the
//! first took in the queue, so a client following the lobby holds at most one list of
//! each kind however fast the lobby changes.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::{Notify, watch};

/// Messages queued for one connection before it counts as not reading.
pub const MAX_QUEUED: usize = 256;

/// Bytes queued for one connection before it counts as not reading.
pub const MAX_QUEUED_BYTES: usize = 256 * 1024;

/// The lists a client may follow, each sent as its newest state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    /// The lobby's open seeks (`seeks`).
    Seeks,
    /// The player's games in play (`games`).
    Games,
    /// The games to watch (`playing`).
    Playing,
    /// The tournaments (`tournaments`).
    Tournaments,
    /// The standings of the tournament followed (`tournament`).
    Standings,
}

impl List {
    const ALL: usize = 5;

    fn index(self) -> usize {
        match self {
            List::Seeks => 0,
            List::Games => 1,
            List::Playing => 2,
            List::Tournaments => 3,
            List::Standings => 4,
        }
    }
}

/// How an outbox ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The close frame's code and reason, if one is sent.
    pub frame: Option<(u16, String)>,
    /// Whether what is queued is sent first (a normal close, a restart), or dropped (a
    /// client over its limits).
    pub drain: bool,
}

/// What the connection's writer sends next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A message to write.
    Text(String),
    /// Nothing more: close with this frame (if any).
    End(Option<(u16, String)>),
}

enum Entry {
    Text(String),
    /// The list's newest state, taken from its slot when the writer gets here.
    List(List),
}

#[derive(Default)]
struct Queue {
    entries: VecDeque<Entry>,
    bytes: usize,
    latest: [Option<String>; List::ALL],
    ending: Option<Ending>,
}

struct Shared {
    queue: Mutex<Queue>,
    wake: Notify,
    ended: watch::Sender<bool>,
}

/// One connection's outbox; clones share it.
#[derive(Clone)]
pub struct Outbox(Arc<Shared>);

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Outbox")
    }
}

impl Default for Outbox {
    fn default() -> Outbox {
        Outbox::new()
    }
}

/// The close code for a client over its limits (RFC 6455: policy violation).
pub const POLICY_VIOLATION: u16 = 1008;

impl Outbox {
    /// An empty outbox.
    pub fn new() -> Outbox {
        Outbox(Arc::new(Shared {
            queue: Mutex::default(),
            wake: Notify::new(),
            ended: watch::channel(false).0,
        }))
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.0
            .queue
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues a message; false when the outbox has ended, or ends now because the
    /// client is not reading (the caller forgets this connection).
    pub fn send(&self, text: String) -> bool {
        let mut q = self.queue();
        if q.ending.is_some() {
            return false;
        }
        if q.entries.len() >= MAX_QUEUED || q.bytes + text.len() > MAX_QUEUED_BYTES {
            drop(q);
            self.end(Ending {
                frame: Some((POLICY_VIOLATION, "not reading: too much unsent".into())),
                drain: false,
            });
            return false;
        }
        q.bytes += text.len();
        q.entries.push_back(Entry::Text(text));
        drop(q);
        self.0.wake.notify_one();
        true
    }

    /// Sets a list's newest state: it replaces one not yet sent, or is queued.
    pub fn set_list(&self, list: List, text: String) -> bool {
        let mut q = self.queue();
        if q.ending.is_some() {
            return false;
        }
        let slot = &mut q.latest[list.index()];
        let queued = slot.is_some();
        let old = slot.replace(text).map_or(0, |t| t.len());
        let new = q.latest[list.index()].as_ref().map_or(0, String::len);
        q.bytes = q.bytes + new - old;
        if !queued {
            q.entries.push_back(Entry::List(list));
        }
        drop(q);
        self.0.wake.notify_one();
        true
    }

    /// Ends the outbox (once: the first ending stands).
    pub fn end(&self, ending: Ending) {
        let mut q = self.queue();
        if q.ending.is_some() {
            return;
        }
        if !ending.drain {
            q.entries.clear();
            q.latest = Default::default();
            q.bytes = 0;
        }
        q.ending = Some(ending);
        drop(q);
        self.0.wake.notify_one();
        self.0.ended.send_replace(true);
    }

    /// Whether it has ended (the connection is closing or gone).
    pub fn has_ended(&self) -> bool {
        self.queue().ending.is_some()
    }

    /// How it ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.queue().ending.clone()
    }

    /// Waits until the outbox ends.
    pub async fn ended(&self) {
        let mut rx = self.0.ended.subscribe();
        let _ = rx.wait_for(|ended| *ended).await;
    }

    /// Messages and bytes queued now.
    pub fn queued(&self) -> (usize, usize) {
        let q = self.queue();
        (q.entries.len(), q.bytes)
    }

    /// The next message to write (waiting for one), or the end.
    pub async fn next(&self) -> Next {
        loop {
            if let Some(next) = self.take() {
                return next;
            }
            self.0.wake.notified().await;
        }
    }

    /// The next message if one is waiting (or the end), without waiting.
    pub fn try_next(&self) -> Option<Next> {
        self.take()
    }

    fn take(&self) -> Option<Next> {
        let mut q = self.queue();
        if let Some(entry) = q.entries.pop_front() {
            let text = match entry {
                Entry::Text(text) => text,
                Entry::List(list) => q.latest[list.index()].take().unwrap_or_default(),
            };
            q.bytes -= text.len();
            return Some(Next::Text(text));
        }
        q.ending.as_ref().map(|e| Next::End(e.frame.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(out: &Outbox) -> Vec<String> {
        let mut sent = Vec::new();
        while let Some(Next::Text(t)) = out.take() {
            sent.push(t);
        }
        sent
    }

    #[test]
    fn messages_go_in_order_and_a_list_only_as_its_newest_state() {
        let out = Outbox::new();
        assert!(out.send("a".into()));
        assert!(out.set_list(List::Seeks, "seeks 1".into()));
        assert!(out.send("b".into()));
        for i in 2..=1000 {
            assert!(out.set_list(List::Seeks, format!("seeks {i}")));
        }
        assert!(out.set_list(List::Games, "games".into()));
        assert_eq!(out.queued().0, 4, "a, the seeks, b, the games");
        assert_eq!(drain(&out), ["a", "seeks 1000", "b", "games"]);
        assert_eq!(out.queued(), (0, 0));
        // Sent lists are queued again when they change.
        out.set_list(List::Seeks, "seeks 1001".into());
        assert_eq!(drain(&out), ["seeks 1001"]);
    }

    #[test]
    fn a_client_that_does_not_read_ends_its_outbox_at_the_limits() {
        let out = Outbox::new();
        for i in 0..MAX_QUEUED {
            assert!(out.send(format!("{i}")), "message {i}");
        }
        assert!(!out.has_ended());
        assert!(!out.send("one too many".into()));
        assert!(out.has_ended());
        let ending = out.ending().unwrap();
        assert_eq!(ending.frame.unwrap().0, POLICY_VIOLATION);
        assert!(!ending.drain);
        assert_eq!(out.queued(), (0, 0), "what was queued is dropped");
        assert!(!out.send("after".into()));
        assert!(!out.set_list(List::Seeks, "after".into()));

        let out = Outbox::new();
        let big = "x".repeat(MAX_QUEUED_BYTES / 4);
        for _ in 0..4 {
            assert!(out.send(big.clone()));
        }
        assert!(!out.send("y".into()), "over the bytes");
        assert!(out.has_ended());
    }

    #[test]
    fn a_normal_end_sends_what_is_queued_first() {
        let out = Outbox::new();
        out.send("a".into());
        out.end(Ending {
            frame: Some((1012, "restart".into())),
            drain: true,
        });
        // A later ending does not replace the first.
        out.end(Ending {
            frame: None,
            drain: false,
        });
        assert_eq!(out.take(), Some(Next::Text("a".into())));
        assert_eq!(out.take(), Some(Next::End(Some((1012, "restart".into())))));
    }

    #[tokio::test]
    async fn the_writer_waits_for_a_message_and_the_reader_for_the_end() {
        let out = Outbox::new();
        let writer = out.clone();
        let task = tokio::spawn(async move { writer.next().await });
        tokio::task::yield_now().await;
        out.send("late".into());
        assert_eq!(task.await.unwrap(), Next::Text("late".into()));
        let reader = out.clone();
        let ended = tokio::spawn(async move { reader.ended().await });
        out.end(Ending {
            frame: None,
            drain: true,
        });
        tokio::time::timeout(std::time::Duration::from_secs(5), ended)
            .await
            .expect("the end is heard")
            .unwrap();
    }
}
