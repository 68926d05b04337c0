//! A socket node (`hexchess-server --role socket`): it holds clients' websockets and
//! no rooms. A client's command for a game goes to the game node that owns it (its
//! lease says which), what that room sends comes back for the client, and when a game
//! changes hands (its node died, another took it) every client here that follows it
//! joins it again on the new node, which sends each the game as it stands (`joined`):
//! the client goes on from there as after a reconnect.
//!
//! A command for a game no node holds at that moment (a new game not yet taken, or
//! one whose node just died) waits here, a few per game, until a node takes it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::mpsc;

use super::briefs::Briefs;
use super::broker::{Broker, Delivery};
use super::lease::Leases;
use super::wire::{Command, RemoteConn, ToAll, ToGame, ToSocket};
use crate::hosted::PlayerId;
use crate::lists::Brief;
use crate::outbox::Outbox;
use crate::room::{ConnId, RoomCommand};
use crate::store::Store;

/// Commands kept for a game no node holds, at most (older ones are dropped: a client
/// whose move is dropped sends it again, as after a lost connection).
const MAX_WAITING: usize = 64;

/// Games with commands waiting, at most (a client can make a command wait only for a
/// game in play, which a node takes within seconds; this bounds the rest).
const MAX_WAITING_GAMES: usize = 10_000;

/// A client here that follows a game.
#[derive(Clone)]
struct Follow {
    who: Option<String>,
    muted: Vec<String>,
}

/// A socket node's state.
pub struct SocketNode {
    /// The server's side that holds the clients (the hub).
    hub: Weak<dyn Clients>,
    store: Store,
    leases: Leases,
    broker: Broker,
    /// Every connection here with a game elsewhere: where its messages go.
    conns: Mutex<HashMap<ConnId, Outbox>>,
    /// Who follows each game, by connection.
    follows: Mutex<HashMap<String, HashMap<ConnId, Follow>>>,
    /// Commands for games no node holds yet.
    waiting: Mutex<HashMap<String, Vec<ToGame>>>,
    briefs: Briefs,
    /// A game node's briefs changed since they were last read.
    briefs_changed: AtomicBool,
}

/// How often a socket node reads the briefs even when told of no change (a game
/// node that died takes its briefs away without a word).
const READ_BRIEFS_EVERY: Duration = Duration::from_secs(5);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Why a command was not passed on.
#[derive(Debug, PartialEq, Eq)]
pub enum NotSent {
    /// The game is not in play (finished, or no such game).
    NoGame,
    /// Redis or the database could not be reached.
    Unreachable(String),
}

/// What a socket node asks of the server's side that holds its clients (the hub): a
/// trait, so that the two need not know each other's modules.
pub trait Clients: Send + Sync {
    /// Tells `player`'s connections on this node.
    fn tell_here(&self, player: &PlayerId, text: &str);
    /// The shared lobby changed: pushed with the next lists.
    fn mark_seeks_changed(&self);
    /// The games' briefs from every game node, in place of the ones before.
    fn replace_briefs(&self, briefs: HashMap<String, Brief>);
    /// The broker's subscription was lost and made again.
    fn broker_gap(&self);
}

impl SocketNode {
    /// Starts socket node `node` for `clients` (the hub), on database `store` and
    /// Redis at `redis`.
    pub async fn start(
        clients: Weak<dyn Clients>,
        store: Store,
        redis: &str,
        node: &str,
    ) -> Result<Arc<SocketNode>, String> {
        // Only read here (who owns a game); the time to live is the game nodes'.
        let leases = Leases::connect(redis, node, Duration::from_secs(1))
            .await
            .map_err(|e| e.to_string())?;
        let (broker, deliveries) = Broker::connect(redis, node)
            .await
            .map_err(|e| e.to_string())?;
        let socket_node = Arc::new(SocketNode {
            hub: clients,
            store,
            leases,
            broker,
            conns: Mutex::default(),
            follows: Mutex::default(),
            waiting: Mutex::default(),
            briefs: Briefs::connect(redis).await?,
            briefs_changed: AtomicBool::new(true),
        });
        tokio::spawn(Arc::clone(&socket_node).read(deliveries));
        tokio::spawn(Arc::clone(&socket_node).keep_briefs());
        Ok(socket_node)
    }

    /// This node's name.
    pub fn node(&self) -> &str {
        self.broker.node()
    }

    /// Passes connection `conn`'s `command` for `game` to the node that owns it.
    pub async fn send(
        &self,
        game: &str,
        conn: ConnId,
        command: RoomCommand,
    ) -> Result<(), NotSent> {
        let command = self.note(game, conn, command);
        let message = ToGame {
            game: game.to_string(),
            from: RemoteConn {
                node: self.node().to_string(),
                conn,
            },
            command,
        };
        match self.leases.owner(game).await {
            // 0 got it: the owner is gone, its lease not yet lapsed. The command waits
            // for the node that takes the game over.
            Ok(Some(owner)) => match self.to_owner(&owner, &message).await? {
                0 => {
                    self.keep_waiting(message);
                    Ok(())
                }
                _ => Ok(()),
            },
            Ok(None) => self.wait_for_owner(message).await,
            Err(e) => Err(NotSent::Unreachable(e.to_string())),
        }
    }

    /// Notes what `command` changes here (who follows, where replies go); the
    /// command as it travels.
    fn note(&self, game: &str, conn: ConnId, command: RoomCommand) -> Command {
        let (command, out) = match command {
            RoomCommand::Join {
                who,
                seen,
                out,
                muted,
                ..
            } => {
                let follow = Follow {
                    who: who.map(|p| p.0),
                    muted: muted.names(),
                };
                lock(&self.follows)
                    .entry(game.to_string())
                    .or_default()
                    .insert(conn, follow.clone());
                let command = Command::Join {
                    who: follow.who,
                    seen,
                    muted: follow.muted,
                };
                (command, Some(out))
            }
            RoomCommand::Leave { on_purpose, .. } => {
                self.unfollow(game, conn);
                (Command::Leave { on_purpose }, None)
            }
            RoomCommand::Move {
                who,
                ply,
                step,
                ack,
                lag,
                out,
                ..
            } => (
                Command::Move {
                    who: who.0,
                    ply,
                    step,
                    ack,
                    lag_ms: lag.as_millis() as u64,
                },
                Some(out),
            ),
            RoomCommand::Chat {
                who,
                name,
                account,
                text,
                out,
            } => (
                Command::Chat {
                    who: who.0,
                    name,
                    account,
                    text,
                },
                Some(out),
            ),
            RoomCommand::Act { who, act, out } => (Command::Act { who: who.0, act }, Some(out)),
        };
        if let Some(out) = out {
            lock(&self.conns).entry(conn).or_insert(out);
        }
        command
    }

    /// Connection `conn` no longer follows `game`; once it follows nothing elsewhere,
    /// it is forgotten here.
    fn unfollow(&self, game: &str, conn: ConnId) {
        let mut follows = lock(&self.follows);
        if let Some(followers) = follows.get_mut(game) {
            followers.remove(&conn);
            if followers.is_empty() {
                follows.remove(game);
            }
        }
        if !follows.values().any(|f| f.contains_key(&conn)) {
            lock(&self.conns).remove(&conn);
        }
    }

    /// Sends `message` to node `owner`; how many nodes got it (0: it is gone).
    async fn to_owner(&self, owner: &str, message: &ToGame) -> Result<u64, NotSent> {
        let text =
            serde_json::to_string(message).map_err(|e| NotSent::Unreachable(e.to_string()))?;
        self.broker
            .to_node(owner, &text)
            .await
            .map_err(|e| NotSent::Unreachable(e.to_string()))
    }

    /// Keeps `message` until a node takes its game (a join is taken again from the
    /// followers then; the oldest commands go first when too many wait).
    fn keep_waiting(&self, message: ToGame) {
        if matches!(message.command, Command::Join { .. }) {
            return;
        }
        let mut waiting = lock(&self.waiting);
        if waiting.len() >= MAX_WAITING_GAMES && !waiting.contains_key(&message.game) {
            tracing::warn!(game = %message.game, "too many games wait for an owner: a command dropped");
            return;
        }
        let queue = waiting.entry(message.game.clone()).or_default();
        if queue.len() >= MAX_WAITING {
            queue.remove(0);
        }
        queue.push(message);
    }

    /// No node holds the game: if it is in play, the command waits for one to take
    /// it (asked for at once).
    async fn wait_for_owner(&self, message: ToGame) -> Result<(), NotSent> {
        match self.store.is_in_play(&message.game).await {
            Ok(true) => {}
            Ok(false) => {
                if let Command::Join { .. } = message.command {
                    self.unfollow(&message.game, message.from.conn);
                }
                return Err(NotSent::NoGame);
            }
            Err(e) => return Err(NotSent::Unreachable(e.to_string())),
        }
        let game = message.game.clone();
        self.keep_waiting(message);
        self.open(&game).await
    }

    /// Asks the game nodes to take `game`.
    pub async fn open(&self, game: &str) -> Result<(), NotSent> {
        let open = ToAll::Open {
            game: game.to_string(),
        };
        let text = serde_json::to_string(&open).map_err(|e| NotSent::Unreachable(e.to_string()))?;
        self.broker
            .to_all(&text)
            .await
            .map(drop)
            .map_err(|e| NotSent::Unreachable(e.to_string()))
    }

    /// Tells `player`'s connections on the other socket nodes (this node's own are
    /// told by the hub).
    pub async fn tell_elsewhere(&self, player: &PlayerId, text: &str) {
        let tell = ToAll::Tell {
            from: self.node().to_string(),
            player: player.0.clone(),
            text: text.to_string(),
        };
        if let Ok(text) = serde_json::to_string(&tell)
            && let Err(e) = self.broker.to_all(&text).await
        {
            tracing::warn!(error = %e, "a message for a player elsewhere was not sent");
        }
    }

    /// Tells every socket node (this one too) that the shared lobby changed.
    pub async fn seeks_changed(&self) {
        if let Ok(text) = serde_json::to_string(&ToAll::SeeksChanged)
            && let Err(e) = self.broker.to_all(&text).await
        {
            tracing::warn!(error = %e, "the lobby's change was not told to the other nodes");
        }
    }

    /// Reads the game nodes' briefs into the hub now.
    pub async fn refresh_briefs(&self) {
        if let (Some(hub), Ok(briefs)) = (self.hub.upgrade(), self.briefs.read_all().await) {
            hub.replace_briefs(briefs);
        }
    }

    /// Reads the game nodes' briefs into the hub when they changed (once a second at
    /// most), or every few seconds: the lists here go on from them.
    async fn keep_briefs(self: Arc<Self>) {
        let mut every = tokio::time::interval(crate::lists::PUSH_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last = tokio::time::Instant::now();
        loop {
            every.tick().await;
            let Some(hub) = self.hub.upgrade() else {
                return;
            };
            let due = last.elapsed() >= READ_BRIEFS_EVERY;
            if !self.briefs_changed.swap(false, Ordering::Relaxed) && !due {
                continue;
            }
            match self.briefs.read_all().await {
                Ok(briefs) => {
                    hub.replace_briefs(briefs);
                    last = tokio::time::Instant::now();
                }
                Err(e) => {
                    self.briefs_changed.store(true, Ordering::Relaxed);
                    tracing::warn!(error = %e, "the games' briefs could not be read");
                }
            }
        }
    }

    /// Handles what the broker brings until the node stops.
    async fn read(self: Arc<Self>, mut deliveries: mpsc::Receiver<Delivery>) {
        let mut subscribed = false;
        while let Some(delivery) = deliveries.recv().await {
            match delivery {
                Delivery::ToNode(text) => match serde_json::from_str::<ToSocket>(&text) {
                    Ok(ToSocket::Deliver { conn, texts }) => self.deliver(conn, texts),
                    Err(e) => tracing::warn!(error = %e, "a node message not understood"),
                },
                Delivery::ToAll(text) => match serde_json::from_str::<ToAll>(&text) {
                    Ok(ToAll::Took { game, node }) => self.rejoin(&game, &node).await,
                    Ok(ToAll::BriefsChanged) => self.briefs_changed.store(true, Ordering::Relaxed),
                    Ok(ToAll::SeeksChanged) => {
                        if let Some(hub) = self.hub.upgrade() {
                            hub.mark_seeks_changed();
                        }
                    }
                    Ok(ToAll::Tell { from, player, text }) if from != self.node() => {
                        if let Some(hub) = self.hub.upgrade() {
                            hub.tell_here(&PlayerId(player), &text);
                        }
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "a node message not understood"),
                },
                // Messages may have been lost both ways: every game followed here is
                // joined again, and each client gets its game as it stands.
                Delivery::Gap => {
                    if let Some(hub) = self.hub.upgrade().filter(|_| subscribed) {
                        hub.broker_gap();
                    }
                    subscribed = true;
                    let games: Vec<String> = lock(&self.follows).keys().cloned().collect();
                    for game in games {
                        if let Ok(Some(owner)) = self.leases.owner(&game).await {
                            self.rejoin(&game, &owner).await;
                        }
                    }
                }
            }
        }
    }

    fn deliver(&self, conn: ConnId, texts: Vec<String>) {
        let out = lock(&self.conns).get(&conn).cloned();
        if let Some(out) = out {
            for text in texts {
                out.send(text);
            }
        }
    }

    /// `node` holds `game` now: each client here that follows it joins it there, and
    /// the commands that waited for an owner go after.
    async fn rejoin(&self, game: &str, node: &str) {
        let followers: Vec<(ConnId, Follow)> = lock(&self.follows)
            .get(game)
            .map(|f| f.iter().map(|(c, f)| (*c, f.clone())).collect())
            .unwrap_or_default();
        for (conn, follow) in followers {
            let join = ToGame {
                game: game.to_string(),
                from: RemoteConn {
                    node: self.node().to_string(),
                    conn,
                },
                command: Command::Join {
                    who: follow.who,
                    seen: None,
                    muted: follow.muted,
                },
            };
            let _ = self.to_owner(node, &join).await;
        }
        let waited = lock(&self.waiting).remove(game).unwrap_or_default();
        for message in waited {
            let _ = self.to_owner(node, &message).await;
        }
    }
}
