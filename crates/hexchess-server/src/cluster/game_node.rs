//! A game node (`hexchess-server --role game`): it holds rooms, no sockets. It takes a
//! game when asked for it (a new game's `open`, a command for a game no node holds)
//! and when it finds one in play whose lease has lapsed (its node died), each time
//! with the lease first and a new fencing token second, then the game as the database
//! has it. It renews its leases while it lives; a lease found taken by another node
//! closes the game's room here.
//!
//! Clients sit on socket nodes. Each one that follows a game here is, to the game's
//! room, a follower with an outbox like any other; a task per such client carries
//! what the room puts in it to the client's socket node, as one broker message per
//! burst.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::briefs::{Briefs, SharedBrief};
use super::broker::{Broker, Delivery};
use super::lease::{Lease, Leases};
use super::wire::{Command, RemoteConn, ToAll, ToGame, ToSocket};
use crate::chat::Muted;
use crate::hosted::PlayerId;
use crate::hub::Hub;
use crate::outbox::{Ending, Next, Outbox};
use crate::room::{ConnId, RoomCommand};

/// How long a lease lives unrenewed: a node that dies has its games taken over this
/// long after its last renewal, at most (plus one look for lapsed games).
pub const LEASE_TTL: Duration = Duration::from_secs(3);

/// Games a node takes over at once after another died (each a few queries).
const TAKES_AT_ONCE: usize = 8;

/// How long a second take of a game waits for the first.
const TAKE_WAIT: Duration = Duration::from_secs(5);

/// Messages of one burst a client's carrier sends as one broker message at most.
const BURST: usize = 64;

/// A client on a socket node that follows games here.
struct Remote {
    /// Its number here (rooms know followers by it).
    conn: ConnId,
    out: Outbox,
    muted: Muted,
    /// The games it follows here.
    games: HashSet<String>,
}

/// A game this node holds: its lease, and the fencing token it took it with.
struct Held {
    lease: Lease,
    fence: u64,
}

/// A game node's state.
pub struct GameNode {
    hub: Arc<Hub>,
    leases: Leases,
    broker: Broker,
    briefs: Briefs,
    /// The games this node holds.
    held: Mutex<HashMap<String, Held>>,
    remotes: Mutex<HashMap<RemoteConn, Remote>>,
    /// Takes under way hold it to read, a hand-over to write (it waits for them).
    taking: tokio::sync::RwLock<()>,
    /// The games being taken now (a second take of one waits for the first).
    claiming: Mutex<HashSet<String>>,
    /// Set once the node hands its games over: it takes none any more.
    stopping: std::sync::atomic::AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl GameNode {
    /// Starts game node `node` on `hub` (made with [`Hub::without_games`]), Redis at
    /// `redis`: it takes what no node holds at once, and keeps doing so.
    pub async fn start(
        hub: Arc<Hub>,
        redis: &str,
        node: &str,
        ttl: Duration,
    ) -> Result<Arc<GameNode>, String> {
        let leases = Leases::connect(redis, node, ttl)
            .await
            .map_err(|e| e.to_string())?;
        let (broker, deliveries) = Broker::connect(redis, node)
            .await
            .map_err(|e| e.to_string())?;
        let briefs = Briefs::connect(redis).await?;
        let game_node = Arc::new(GameNode {
            hub,
            leases,
            broker,
            briefs,
            held: Mutex::default(),
            remotes: Mutex::default(),
            taking: tokio::sync::RwLock::new(()),
            claiming: Mutex::default(),
            stopping: std::sync::atomic::AtomicBool::new(false),
        });
        tokio::spawn(Arc::clone(&game_node).read(deliveries));
        tokio::spawn(Arc::clone(&game_node).keep_leases());
        tokio::spawn(Arc::clone(&game_node).share_briefs());
        Ok(game_node)
    }

    /// Hands every game held here to the other game nodes at once (the node is
    /// stopping): each lease is given up and the others are asked to take the game.
    /// A room here that still writes after another node took its game is refused
    /// by the newer fencing token, so the hand-over needs no pause.
    pub async fn hand_over(&self) {
        self.stopping
            .store(true, std::sync::atomic::Ordering::Relaxed);
        // The takes under way end before the games are counted.
        let _all = self.taking.write().await;
        let held: Vec<(String, Lease)> = lock(&self.held)
            .drain()
            .map(|(game, held)| (game, held.lease))
            .collect();
        for (game, lease) in &held {
            let _ = self.leases.release(lease).await;
            if let Ok(text) = serde_json::to_string(&ToAll::Open { game: game.clone() }) {
                let _ = self.broker.to_all(&text).await;
            }
        }
        tracing::info!(
            games = held.len(),
            "handed the games over to the other game nodes"
        );
    }

    /// The games this node holds now.
    pub fn held(&self) -> Vec<String> {
        lock(&self.held).keys().cloned().collect()
    }

    /// Handles what the broker brings until the node stops.
    async fn read(self: Arc<Self>, mut deliveries: mpsc::Receiver<Delivery>) {
        let mut subscribed = false;
        while let Some(delivery) = deliveries.recv().await {
            match delivery {
                Delivery::ToNode(text) => match serde_json::from_str::<ToGame>(&text) {
                    Ok(command) => self.command(command).await,
                    Err(e) => tracing::warn!(error = %e, "a node message not understood"),
                },
                // Taken beside the reading: the commands for other games go on.
                Delivery::ToAll(text) => {
                    if let Ok(ToAll::Open { game }) = serde_json::from_str::<ToAll>(&text) {
                        let node = Arc::clone(&self);
                        tokio::spawn(async move { node.take(&game).await });
                    }
                }
                // Socket nodes ask again for what they miss (a `Gap` of theirs).
                Delivery::Gap => {
                    if subscribed {
                        self.hub.metrics.broker_gaps.inc();
                    }
                    subscribed = true;
                }
            }
        }
    }

    /// Takes `game` if no node holds it: its lease, a new fencing token, its room from
    /// the database; every node is told. Whether this node holds it after.
    async fn take(self: &Arc<Self>, game: &str) -> bool {
        let _taking = self.taking.read().await;
        if self.stopping.load(std::sync::atomic::Ordering::Relaxed) {
            return false;
        }
        // One take of a game at a time; a second waits for the first's outcome.
        let deadline = Instant::now() + TAKE_WAIT;
        while !lock(&self.claiming).insert(game.to_string()) {
            if Instant::now() > deadline {
                return lock(&self.held).contains_key(game);
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let taken = self.take_now(game).await;
        lock(&self.claiming).remove(game);
        taken
    }

    async fn take_now(self: &Arc<Self>, game: &str) -> bool {
        if lock(&self.held).contains_key(game) {
            return true;
        }
        let lease = match self.leases.claim(game).await {
            Ok(Some(lease)) => lease,
            Ok(None) => return false,
            Err(e) => {
                tracing::warn!(%game, error = %e, "could not take a game");
                return false;
            }
        };
        match self.open(game).await {
            Ok(fence) => {
                lock(&self.held).insert(game.to_string(), Held { lease, fence });
                let took = ToAll::Took {
                    game: game.to_string(),
                    node: self.leases.node().to_string(),
                };
                if let Ok(text) = serde_json::to_string(&took) {
                    let _ = self.broker.to_all(&text).await;
                }
                self.hub.metrics.games_taken.inc();
                tracing::info!(%game, "took the game");
                true
            }
            Err(why) => {
                tracing::warn!(%game, %why, "did not take the game");
                let _ = self.leases.release(&lease).await;
                false
            }
        }
    }

    /// Game `game`'s room, with a new fencing token (returned): the database's game
    /// in play.
    async fn open(self: &Arc<Self>, game: &str) -> Result<u64, String> {
        let store = &self.hub.store;
        let fence = store.take_game(game).await.map_err(|e| e.to_string())?;
        let stored = match store.game_in_progress(game).await {
            Ok(Some(Ok(stored))) => stored,
            Ok(Some(Err(bad))) => return Err(bad.why),
            Ok(None) => return Err("it is not in play".into()),
            Err(e) => return Err(e.to_string()),
        };
        self.hub.restore_room(&stored, fence)?;
        Ok(fence)
    }

    /// A client's command from a socket node, for the game's room here (taken first
    /// if no node holds it).
    async fn command(self: &Arc<Self>, message: ToGame) {
        let ToGame {
            game,
            from,
            command,
        } = message;
        let room = match self.hub.room(&game) {
            Some(room) if lock(&self.held).contains_key(&game) => room,
            _ => {
                if !self.take(&game).await {
                    return;
                }
                match self.hub.room(&game) {
                    Some(room) => room,
                    None => return,
                }
            }
        };
        let leaving = matches!(command, Command::Leave { .. });
        let (conn, out, muted) = self.remote(&from, &game, &command);
        let command = room_command(command, conn, out, muted);
        let _ = room.send(command).await;
        if leaving {
            self.left(&from, &game);
        }
    }

    /// The follower here for client `from`, made (with its carrier) on its first
    /// command.
    fn remote(
        self: &Arc<Self>,
        from: &RemoteConn,
        game: &str,
        command: &Command,
    ) -> (ConnId, Outbox, Muted) {
        let mut remotes = lock(&self.remotes);
        let remote = remotes.entry(from.clone()).or_insert_with(|| {
            let out = Outbox::new();
            tokio::spawn(carry(
                self.broker.clone(),
                from.clone(),
                out.clone(),
                Arc::downgrade(self),
            ));
            Remote {
                conn: self.hub.next_conn(),
                out,
                muted: Muted::default(),
                games: HashSet::new(),
            }
        });
        if let Command::Join { muted, .. } = command {
            remote.muted = Muted::of(muted.iter().cloned());
            remote.games.insert(game.to_string());
        }
        (remote.conn, remote.out.clone(), remote.muted.clone())
    }

    /// Client `from` left `game`: when it follows nothing more here, its carrier ends.
    fn left(&self, from: &RemoteConn, game: &str) {
        let mut remotes = lock(&self.remotes);
        if let Some(remote) = remotes.get_mut(from) {
            remote.games.remove(game);
            if remote.games.is_empty() {
                remote.out.end(Ending {
                    frame: None,
                    drain: true,
                });
                remotes.remove(from);
            }
        }
    }

    /// Forgets client `from` (its socket node is gone or unreachable): the rooms
    /// drop it as a follower whose outbox ended.
    fn forget(&self, from: &RemoteConn) {
        if let Some(remote) = lock(&self.remotes).remove(from) {
            remote.out.end(Ending {
                frame: None,
                drain: false,
            });
        }
    }

    /// Renews the leases a third of their life, and looks for games in play that no
    /// node holds twice a life; a lease lost closes its room here.
    async fn keep_leases(self: Arc<Self>) {
        let ttl = self.leases.ttl();
        let mut renew = tokio::time::interval(ttl / 3);
        let mut look = tokio::time::interval(ttl / 2);
        loop {
            tokio::select! {
                _ = renew.tick() => self.renew().await,
                _ = look.tick() => self.take_lapsed().await,
            }
        }
    }

    async fn renew(&self) {
        let held: Vec<Lease> = lock(&self.held).values().map(|h| h.lease.clone()).collect();
        match self.leases.renew(&held).await {
            Ok(kept) => {
                for (lease, kept) in held.iter().zip(kept) {
                    if !kept {
                        tracing::warn!(
                            game = lease.game(),
                            "the game's lease was taken; its room here closes"
                        );
                        lock(&self.held).remove(lease.game());
                        self.hub.close_room(lease.game());
                    }
                }
            }
            // Redis unreachable: the rooms go on (their writes are fenced), and the
            // next renewal tries again.
            Err(e) => tracing::warn!(error = %e, "leases not renewed"),
        }
        // A game over closes its room by itself: its lease goes too.
        let closed: Vec<Lease> = {
            let mut held = lock(&self.held);
            let closed: Vec<String> = held
                .keys()
                .filter(|game| self.hub.room(game).is_none())
                .cloned()
                .collect();
            closed
                .iter()
                .filter_map(|g| held.remove(g))
                .map(|h| h.lease)
                .collect()
        };
        for lease in closed {
            let _ = self.leases.release(&lease).await;
        }
    }

    /// Shares the briefs of the games held here once a second, what changed only;
    /// socket nodes are told when anything did.
    async fn share_briefs(self: Arc<Self>) {
        let mut every = tokio::time::interval(crate::lists::PUSH_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut written: HashMap<String, SharedBrief> = HashMap::new();
        loop {
            every.tick().await;
            let now: HashMap<String, SharedBrief> = {
                let fences: HashMap<String, u64> = lock(&self.held)
                    .iter()
                    .map(|(g, h)| (g.clone(), h.fence))
                    .collect();
                self.hub
                    .briefs()
                    .into_iter()
                    .filter_map(|(game, brief)| {
                        let fence = *fences.get(&game)?;
                        Some((game, SharedBrief { fence, brief }))
                    })
                    .collect()
            };
            let changed: Vec<(String, SharedBrief)> = now
                .iter()
                .filter(|(game, brief)| written.get(*game) != Some(brief))
                .map(|(g, b)| (g.clone(), b.clone()))
                .collect();
            let gone: Vec<String> = written
                .keys()
                .filter(|game| !now.contains_key(*game))
                .cloned()
                .collect();
            match self.briefs.write(self.leases.node(), &changed, &gone).await {
                Ok(held) => {
                    // Redis lost what it had (it restarted): all again next time.
                    written = if held < now.len() {
                        HashMap::new()
                    } else {
                        now
                    };
                    if (!changed.is_empty() || !gone.is_empty())
                        && let Ok(text) = serde_json::to_string(&ToAll::BriefsChanged)
                    {
                        let _ = self.broker.to_all(&text).await;
                    }
                }
                Err(e) => tracing::warn!(error = %e, "the games' briefs were not shared"),
            }
        }
    }

    /// Takes every game in play that no node holds (its node died): their leases
    /// read a few hundred at a time, the games taken [`TAKES_AT_ONCE`] at a time
    /// (other game nodes take their share meanwhile: each game goes to one).
    async fn take_lapsed(self: &Arc<Self>) {
        let Ok(ids) = self.hub.store.ids_in_play().await else {
            return;
        };
        let ids: Vec<String> = {
            let held = lock(&self.held);
            ids.into_iter().filter(|g| !held.contains_key(g)).collect()
        };
        let mut lapsed = Vec::new();
        for chunk in ids.chunks(500) {
            match self.leases.owners(chunk).await {
                Ok(owners) => lapsed.extend(
                    chunk
                        .iter()
                        .zip(owners)
                        .filter(|(_, owner)| owner.is_none())
                        .map(|(game, _)| game.clone()),
                ),
                Err(e) => return tracing::warn!(error = %e, "leases not read"),
            }
        }
        futures_util::stream::iter(lapsed)
            .map(|game| async move { self.take(&game).await })
            .buffer_unordered(TAKES_AT_ONCE)
            .for_each(|_| async {})
            .await;
    }
}

/// The room's command for a client's.
fn room_command(command: Command, conn: ConnId, out: Outbox, muted: Muted) -> RoomCommand {
    match command {
        Command::Join { who, seen, .. } => RoomCommand::Join {
            conn,
            who: who.map(PlayerId),
            seen,
            out,
            muted,
        },
        Command::Leave { on_purpose } => RoomCommand::Leave { conn, on_purpose },
        Command::Move {
            who,
            ply,
            step,
            ack,
            lag_ms,
        } => RoomCommand::Move {
            who: PlayerId(who),
            ply,
            step,
            ack,
            lag: Duration::from_millis(lag_ms.min(5_000)),
            out,
            received: tokio::time::Instant::now(),
        },
        Command::Chat {
            who,
            name,
            account,
            text,
        } => RoomCommand::Chat {
            who: PlayerId(who),
            name,
            account,
            text,
            out,
        },
        Command::Act { who, act } => RoomCommand::Act {
            who: PlayerId(who),
            act,
            out,
        },
    }
}

/// Carries what rooms put in client `to`'s outbox here to its socket node, a burst at
/// a time, until the outbox ends; a socket node gone (no one reads its channel) or
/// Redis unreachable forgets the client here (its socket node joins again once it
/// can, and the client catches up by version).
async fn carry(broker: Broker, to: RemoteConn, out: Outbox, node: std::sync::Weak<GameNode>) {
    loop {
        let mut texts = match out.next().await {
            Next::Text(text) => vec![text],
            Next::End(_) => return,
        };
        while texts.len() < BURST {
            match out.try_next() {
                Some(Next::Text(text)) => texts.push(text),
                _ => break,
            }
        }
        let deliver = ToSocket::Deliver {
            conn: to.conn,
            texts,
        };
        let Ok(payload) = serde_json::to_string(&deliver) else {
            continue;
        };
        let sent = broker.to_node(&to.node, &payload).await;
        if !matches!(sent, Ok(n) if n > 0) {
            if let Some(node) = node.upgrade() {
                node.forget(&to);
            }
            return;
        }
    }
}
