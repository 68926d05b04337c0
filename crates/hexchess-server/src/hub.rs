//! Everything the server shares between connections: who is online, the open seeks,
//! the rooms of the games in play, and the database. Pairing happens here: a seek
//! filled (by people, and the engine for the seats it was given) becomes a game,
//! stored, given a room, and announced to every seated player.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hexchess_core::{Catalog, Game};
use hexchess_protocol::{
    GameInPlay, GamesInPlay, RatingLine, RematchAsked, SeatRating, SeekReply, ServerMessage,
    Started, YourGame,
};
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::time::Instant;

use crate::chat::{ChatRefusal, MAX_MUTES, Muted, checked_name};
use crate::clock::TimeControl;
use crate::hosted::{HostedGame, PlayerId};
use crate::lists::Brief;
use crate::message::SeekRequest;
use crate::metrics::{Metrics, SignInRefusal};
use crate::outbox::List;
use crate::passwords::Passwords;
use crate::rate::{KeyedLimits, address_key};
use crate::rematches::{Asked, RematchBook};
use crate::room::{ConnId, GameFacts, Outbox, Room, RoomCommand, RoomContext};
use crate::seat::SeatHolder;
use crate::secret::{new_code, new_secret, secret_hash};
use crate::seek_book::{BookError, NO_SEEK, OpenSeek, Seated, SeekBook};
use crate::store::{NewGame, Store, StoreError};

/// Commands a room's mailbox holds before a sender waits.
const ROOM_MAILBOX: usize = 256;

/// Open seeks and challenges one player may have at once (a flood of seeks would
/// fill the lobby and the server's memory), and on the whole server.
pub use crate::seek_book::{MAX_SEEKS, MAX_SEEKS_PER_PLAYER};

pub use crate::rematches::MAX_REMATCHES;

/// Seeks the lobby's list shows (the oldest first).
pub const LISTED_SEEKS: usize = 200;

/// Games in play one player may be seated in at once (correspondence games last
/// weeks: lichess allows a couple of hundred).
pub const MAX_GAMES_PER_PLAYER: usize = 100;

/// Games against the server's engine one player may have in play at once.
pub const MAX_ENGINE_GAMES_PER_PLAYER: usize = 3;

/// Games one connection may follow at once.
pub const MAX_FOLLOWED: usize = 50;

/// Addresses (or accounts' names) the keyed limits remember at most.
const MAX_KEYS: usize = 100_000;

/// The server's limits, set by its flags.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// New connections an address may open per [`Limits::window`].
    pub connections_per_address: u32,
    /// The window new connections are counted in.
    pub window: Duration,
    /// Connections open at once from one address.
    pub open_per_address: usize,
    /// Connections open at once on the whole server.
    pub max_connections: usize,
    /// Sign-ins (logins and registrations) an address may try per
    /// [`Limits::sign_in_window`].
    pub sign_ins_per_address: u32,
    /// Logins one account's name may be tried with per [`Limits::sign_in_window`].
    pub sign_ins_per_name: u32,
    /// The window sign-ins are counted in.
    pub sign_in_window: Duration,
    /// New anonymous players (each a row in the database) an address may make per
    /// hour.
    pub new_players_per_address: u32,
    /// How long a client may send nothing at all (not even a pong to the server's
    /// pings) before it is closed; the server pings every third of it, and a write that
    /// waits half of it counts as a client not reading.
    pub idle: Duration,
    /// How long a correspondence game's day lasts (shorter only in tests).
    pub day: Duration,
    /// Behind a proxy on this machine (nginx): a connection from a loopback address is
    /// counted as the address the proxy names in `X-Real-IP`.
    pub behind_proxy: bool,
    /// Pages read per address per minute (players, leaderboards, tournaments: each a
    /// few queries or a turn of the tournaments' director).
    pub lookups_per_minute: u32,
}

impl Limits {
    /// How often the server pings each client.
    pub fn ping_every(&self) -> Duration {
        self.idle / 3
    }

    /// How long one write may wait for the client to take it.
    pub fn write_stall(&self) -> Duration {
        self.idle / 2
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections_per_address: 30,
            window: Duration::from_secs(10),
            open_per_address: 100,
            max_connections: 10_000,
            sign_ins_per_address: 30,
            sign_ins_per_name: 10,
            sign_in_window: Duration::from_secs(10 * 60),
            new_players_per_address: 200,
            idle: Duration::from_secs(60),
            day: Duration::from_secs(24 * 60 * 60),
            behind_proxy: false,
            lookups_per_minute: LOOKUPS_PER_MINUTE,
        }
    }
}

/// A connection counted against its address's and the server's limits while it is
/// open: dropping it frees its place.
pub struct ConnectionPlace {
    hub: Arc<Hub>,
    address: IpAddr,
}

impl std::fmt::Debug for ConnectionPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ConnectionPlace({})", self.address)
    }
}

impl Drop for ConnectionPlace {
    fn drop(&mut self) {
        self.hub.open_total.fetch_sub(1, Ordering::Relaxed);
        self.hub.metrics.sockets.dec();
        let mut open = lock(&self.hub.open);
        if let Some(n) = open.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.address);
            }
        }
    }
}

pub use crate::seat::Identity;

/// The answer to a seek: its id, and a private challenge's code.
fn seek_reply(seek: &OpenSeek) -> ServerMessage {
    ServerMessage::Seek(SeekReply {
        id: seek.id.clone(),
        code: seek.code.clone(),
    })
}

impl crate::cluster::socket_node::Clients for Hub {
    fn tell_here(&self, player: &PlayerId, text: &str) {
        Hub::tell_here(self, player, text);
    }

    fn mark_seeks_changed(&self) {
        Hub::mark_seeks_changed(self);
    }

    fn replace_briefs(&self, briefs: HashMap<String, Brief>) {
        Hub::replace_briefs(self, briefs);
    }

    fn broker_gap(&self) {
        self.metrics.broker_gaps.inc();
    }
}

impl From<BookError> for HubError {
    fn from(e: BookError) -> HubError {
        match e {
            BookError::Refused(why) => HubError::Refused(why),
            BookError::Unreachable(why) => {
                tracing::warn!(%why, "the shared lobby could not be reached");
                HubError::Refused("the lobby cannot be reached now: try again in a moment".into())
            }
        }
    }
}

/// Why a request of the lobby or the accounts was refused.
#[derive(Debug)]
pub enum HubError {
    /// What the player asked cannot be done, and why.
    Refused(String),
    /// The database failed.
    Store(StoreError),
}

impl std::fmt::Display for HubError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HubError::Refused(why) => f.write_str(why),
            HubError::Store(e) => write!(f, "the server's database failed: {e}"),
        }
    }
}

impl From<StoreError> for HubError {
    fn from(e: StoreError) -> HubError {
        HubError::Store(e)
    }
}

fn refused<T>(why: impl Into<String>) -> Result<T, HubError> {
    Err(HubError::Refused(why.into()))
}

/// The server's shared state.
pub struct Hub {
    /// The database.
    pub store: Store,
    pub(crate) catalog: Catalog,
    context: RoomContext,
    /// What a client may cost.
    pub limits: Limits,
    /// The server's counters and histograms.
    pub metrics: Arc<Metrics>,
    rooms: Mutex<HashMap<String, mpsc::Sender<RoomCommand>>>,
    seeks: SeekBook,
    /// On a socket node: the shared lobby changed since it was last pushed.
    seeks_changed: std::sync::atomic::AtomicBool,
    /// Rematches asked, by the finished game's id.
    rematches: RematchBook,
    lobby: Mutex<Vec<(ConnId, Outbox)>>,
    online: Mutex<HashMap<PlayerId, Vec<(ConnId, Outbox)>>>,
    /// The connections that follow their player's games list (pushed as it changes).
    games_followers: Mutex<HashMap<ConnId, (PlayerId, Outbox)>>,
    /// New connections per address.
    arrivals: KeyedLimits<IpAddr>,
    /// Connections open per address, and in all.
    open: Mutex<HashMap<IpAddr, usize>>,
    open_total: AtomicUsize,
    sign_ins_by_address: KeyedLimits<IpAddr>,
    sign_ins_by_name: KeyedLimits<String>,
    new_players: KeyedLimits<IpAddr>,
    /// Players' pages and leaderboards read, per address (each is a few queries).
    pub(crate) lookups: KeyedLimits<IpAddr>,
    passwords: Passwords,
    next_conn: AtomicU64,
    /// On a socket node: where its clients' games are (on game nodes).
    socket_node: std::sync::OnceLock<Arc<crate::cluster::socket_node::SocketNode>>,
    /// Set when the server is stopping: connections close (1012) and no new ones
    /// are served.
    stopping: watch::Sender<bool>,
    /// The tournaments' director (a server of `--role all` only).
    tournaments: std::sync::OnceLock<crate::tournaments::Tournaments>,
}

impl crate::tournaments::Host for Hub {
    fn is_stopping(&self) -> bool {
        Hub::is_stopping(self)
    }

    fn is_online(&self, who: &PlayerId) -> bool {
        Hub::is_online(self, who)
    }

    fn check_game(&self, variant: &str, minutes: u32, increment: u32) -> Result<(), String> {
        let Some(entry) = self.catalog.get(variant) else {
            return Err(format!("no variant {variant} is played here"));
        };
        if entry.side_count() != 2 {
            return Err("tournaments are for two-player variants".into());
        }
        if u64::from(minutes) > MAX_MINUTES
            || u64::from(increment) > MAX_INCREMENT
            || (minutes == 0 && increment == 0)
        {
            return Err(format!(
                "a clock of 0 to {MAX_MINUTES} minutes and 0 to {MAX_INCREMENT} seconds a move, not both 0"
            ));
        }
        Ok(())
    }

    async fn start_game(
        &self,
        game: &str,
        t: &crate::store::StoredTournament,
        seats: Vec<SeatHolder>,
    ) -> Result<(), String> {
        self.start_tournament_game(game, t, seats)
            .await
            .map_err(|e| e.to_string())
    }
}

/// A mutex's contents even if a thread panicked holding it (the maps stay usable).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Hub {
    /// The hub over `store`, with the games in progress there resumed.
    pub async fn start(store: Store, limits: Limits) -> Result<Arc<Hub>, StoreError> {
        let hub = Hub::without_games(store, limits);
        // Ends are told from the first resumed game on: the director reads them once
        // it has read its tournaments back.
        let (ends, ended) = mpsc::unbounded_channel();
        let _ = hub.context.game_ends.set(ends);
        hub.resume_games().await?;
        let director =
            crate::tournaments::Tournaments::start(Arc::downgrade(&hub), hub.store.clone(), ended);
        let _ = hub.tournaments.set(director);
        Ok(hub)
    }

    /// The hub over `store` with no game resumed: a game node's, which takes games one
    /// by one as their leases allow (`crate::cluster::game_node`).
    pub fn without_games(store: Store, limits: Limits) -> Arc<Hub> {
        Hub::with_books(store, limits, SeekBook::here(), RematchBook::here())
    }

    /// The hub over `store` with no game resumed, its seeks and rematches kept in
    /// these books (a socket node's: shared in Redis).
    pub fn with_books(
        store: Store,
        limits: Limits,
        seeks: SeekBook,
        rematches: RematchBook,
    ) -> Arc<Hub> {
        let metrics = Arc::new(Metrics::new());
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let context = RoomContext {
            store: store.clone(),
            origin: Instant::now(),
            briefs: Arc::default(),
            linger: Duration::from_secs(120),
            day: limits.day,
            metrics: Arc::clone(&metrics),
            // Engine seats think on at most half the cores: the other half serves.
            engines: Arc::new(Semaphore::new((cores / 2).max(1))),
            lists: Arc::default(),
            game_ends: Arc::default(),
        };
        let hub = Arc::new(Hub {
            store,
            catalog: hexchess_files::variants::load_default(&hexchess_files::Files::disk()),
            context,
            metrics,
            rooms: Mutex::default(),
            seeks,
            seeks_changed: std::sync::atomic::AtomicBool::new(false),
            rematches,
            lobby: Mutex::default(),
            online: Mutex::default(),
            games_followers: Mutex::default(),
            arrivals: KeyedLimits::new(limits.connections_per_address, limits.window, MAX_KEYS),
            open: Mutex::default(),
            open_total: AtomicUsize::new(0),
            sign_ins_by_address: KeyedLimits::new(
                limits.sign_ins_per_address,
                limits.sign_in_window,
                MAX_KEYS,
            ),
            sign_ins_by_name: KeyedLimits::new(
                limits.sign_ins_per_name,
                limits.sign_in_window,
                MAX_KEYS,
            ),
            new_players: KeyedLimits::new(
                limits.new_players_per_address,
                Duration::from_secs(3600),
                MAX_KEYS,
            ),
            lookups: KeyedLimits::new(limits.lookups_per_minute, Duration::from_secs(60), MAX_KEYS),
            passwords: Passwords::new(),
            next_conn: AtomicU64::new(1),
            socket_node: std::sync::OnceLock::new(),
            stopping: watch::channel(false).0,
            tournaments: std::sync::OnceLock::new(),
            limits,
        });
        tokio::spawn(push_lists(Arc::downgrade(&hub)));
        hub
    }

    /// Makes this hub a socket node's: games live on game nodes, reached through
    /// `node` (set once, when the node starts).
    pub fn serve_games_from(&self, node: Arc<crate::cluster::socket_node::SocketNode>) {
        let _ = self.socket_node.set(node);
    }

    /// The socket node this hub is part of, if it is one.
    pub fn socket_node(&self) -> Option<&Arc<crate::cluster::socket_node::SocketNode>> {
        self.socket_node.get()
    }

    /// Tells every connection the server is stopping.
    pub fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// Whether the server is stopping (it was sent SIGTERM).
    pub fn is_stopping(&self) -> bool {
        *self.stopping.borrow()
    }

    /// Waits until the server is stopping.
    pub async fn stopping(&self) {
        let mut rx = self.stopping.subscribe();
        let _ = rx.wait_for(|s| *s).await;
    }

    /// Connections open now.
    pub fn connections(&self) -> usize {
        self.open_total.load(Ordering::Relaxed)
    }

    /// The time since the server started (the games' clocks count from it).
    pub fn now(&self) -> Duration {
        self.context.origin.elapsed()
    }

    /// A number for a new connection.
    pub fn next_conn(&self) -> ConnId {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// A place for a new connection from `address`, or why there is none: too many
    /// new ones from it lately, too many open from it, or too many on the server.
    pub fn admit(self: &Arc<Hub>, address: IpAddr) -> Result<ConnectionPlace, String> {
        let address = address_key(address);
        if *self.stopping.borrow() {
            return Err("the server is restarting".into());
        }
        if let Err(wait) = self.arrivals.check(&address, self.now()) {
            return Err(format!(
                "too many new connections from your address: {wait}"
            ));
        }
        let mut open = lock(&self.open);
        let here = open.get(&address).copied().unwrap_or(0);
        if here >= self.limits.open_per_address {
            return Err(format!(
                "{} connections open from your address, the most it may have",
                self.limits.open_per_address
            ));
        }
        if self.open_total.load(Ordering::Relaxed) >= self.limits.max_connections {
            return Err("the server is full: try again later".into());
        }
        *open.entry(address).or_default() += 1;
        self.open_total.fetch_add(1, Ordering::Relaxed);
        self.metrics.sockets.inc();
        Ok(ConnectionPlace {
            hub: Arc::clone(self),
            address,
        })
    }

    /// Every game the database holds as in progress, in a room again: each goes on
    /// from its last stored move.
    /// A game that cannot be read back or replayed is left in the database as it is,
    /// named in the log with why, and the others are served.
    async fn resume_games(self: &Arc<Hub>) -> Result<(), StoreError> {
        let (mut resumed, mut skipped) = (0, 0);
        for stored in self.store.games_in_progress().await? {
            let done = match &stored {
                Ok(game) => self
                    .restore_room(game, 0)
                    .map_err(|why| (game.game.id.clone(), why)),
                Err(bad) => Err((bad.id.clone(), bad.why.clone())),
            };
            match done {
                Ok(()) => resumed += 1,
                Err((game, why)) => {
                    skipped += 1;
                    tracing::error!(%game, %why, "a stored game was not resumed");
                }
            }
        }
        tracing::info!(resumed, skipped, "games in play resumed");
        Ok(())
    }

    /// Game `stored` in a room again, writing with fencing token `fence` (0 where one
    /// process holds every game).
    pub(crate) fn restore_room(
        self: &Arc<Hub>,
        stored: &crate::store::GameInProgress,
        fence: u64,
    ) -> Result<(), String> {
        let seats = seats_from_text(&stored.game.seats)?;
        let control = StoredControl::read(&stored.game.control)?;
        let clock = control.clock()?;
        if let Some(days) = control.days
            && !(1..=u64::from(MAX_DAYS)).contains(&days)
        {
            return Err(format!("{days} days a move (1 to {MAX_DAYS})"));
        }
        let entry = self
            .catalog
            .get(&stored.game.variant)
            .ok_or_else(|| format!("no variant '{}' here", stored.game.variant))?;
        if seats.len() != entry.side_count() {
            return Err(format!(
                "{} seats for a variant of {} sides",
                seats.len(),
                entry.side_count()
            ));
        }
        let left: Option<Vec<Duration>> = stored
            .clocks
            .as_deref()
            .map(|c| serde_json::from_str::<Vec<u64>>(c).map_err(|e| format!("its clocks: {e}")))
            .transpose()?
            .map(|ms| ms.into_iter().map(Duration::from_millis).collect());
        if let Some(left) = &left
            && left.len() != seats.len()
        {
            return Err(format!("{} clocks for {} seats", left.len(), seats.len()));
        }
        let offers: Vec<usize> = stored
            .draw_offers
            .as_deref()
            .map(|o| serde_json::from_str(o).map_err(|e| format!("its draw offers: {e}")))
            .transpose()?
            .unwrap_or_default();
        let mut hosted = HostedGame::restore(
            Game::new(Arc::clone(entry.rules())),
            Room::seat_ids(&seats),
            clock,
            &stored.steps,
            stored.version,
            left.as_deref(),
            self.now(),
        )?;
        hosted.restore_offers(&offers);
        let facts = GameFacts {
            id: stored.game.id.clone(),
            variant: stored.game.variant.clone(),
            rated: stored.game.rated,
            speed: control.speed(clock),
            seats,
            days: control.days(),
            started_ms: stored.created_ms,
            control: control.text(),
        };
        let last_move = std::time::UNIX_EPOCH
            + Duration::from_millis(u64::try_from(stored.updated_ms).unwrap_or(0));
        self.open_room(
            facts,
            hosted,
            entry.two_player_rules(),
            last_move,
            stored.chat.clone(),
            fence,
        );
        Ok(())
    }

    fn open_room(
        &self,
        facts: GameFacts,
        hosted: HostedGame,
        narrow: Option<Arc<hexchess_core::Rules>>,
        last_move: std::time::SystemTime,
        chat: Vec<hexchess_protocol::ChatLine>,
        fence: u64,
    ) {
        let (tx, rx) = mpsc::channel(ROOM_MAILBOX);
        let id = facts.id.clone();
        let room =
            Room::new(facts, hosted, narrow, self.context.clone(), last_move, chat).fenced(fence);
        // In the lists before anyone is told the game started (its room's task writes
        // it again as the game goes): a player's "games" right after `started` finds it.
        room.write_brief();
        let mut rooms = lock(&self.rooms);
        if rooms.len() % 256 == 255 {
            // Forget the rooms that closed since (a finished game's room ends).
            rooms.retain(|_, tx| !tx.is_closed());
        }
        rooms.insert(id, tx);
        drop(rooms);
        tokio::spawn(room.run(rx));
    }

    /// The briefs of the games in play here (a game node shares them).
    pub fn briefs(&self) -> HashMap<String, Brief> {
        lock(&self.context.briefs).clone()
    }

    /// The briefs of every node's games (a socket node's copy of what the game nodes
    /// share), in place of the ones before: the lists learn what changed.
    pub fn replace_briefs(&self, new: HashMap<String, Brief>) {
        let mut briefs = lock(&self.context.briefs);
        for (game, brief) in &new {
            if briefs.get(game) != Some(brief) {
                self.context.lists.brief_changed(briefs.get(game), brief);
            }
        }
        for (game, old) in briefs.iter() {
            if !new.contains_key(game) {
                self.context.lists.game_closed(Some(old));
            }
        }
        *briefs = new;
    }

    /// Forgets game `id`'s room: once no command for it is on its way, it ends (a game
    /// node that lost the game's lease).
    pub(crate) fn close_room(&self, id: &str) {
        lock(&self.rooms).remove(id);
    }

    /// The mailbox of game `id`'s room, while it is open.
    pub fn room(&self, id: &str) -> Option<mpsc::Sender<RoomCommand>> {
        let mut rooms = lock(&self.rooms);
        match rooms.get(id) {
            Some(tx) if tx.is_closed() => {
                rooms.remove(id);
                None
            }
            Some(tx) => Some(tx.clone()),
            None => None,
        }
    }

    // ---- who is who ----

    /// A connection's hello: the player its secret names, or a new anonymous player
    /// (at most [`Limits::new_players_per_address`] an hour from one address: each
    /// is a row in the database).
    pub async fn hello(&self, token: Option<&str>, from: IpAddr) -> Result<Identity, HubError> {
        if let Some(token) = token {
            return match self.store.player_by_token(&secret_hash(token)).await? {
                Some(p) => Ok(Identity {
                    name: p.name.clone().unwrap_or_else(|| anonymous_name(&p.id)),
                    account: p.name.is_some(),
                    bot: p.bot,
                    id: PlayerId(p.id),
                    token: token.to_string(),
                }),
                None => refused("unknown secret: say hello without one for a new player"),
            };
        }
        if let Err(wait) = self.new_players.check(&address_key(from), self.now()) {
            return refused(format!(
                "too many new players from your address: {wait}, or say hello with your secret"
            ));
        }
        let id = new_code(12);
        let token = new_secret();
        self.store.add_player(&id, &secret_hash(&token)).await?;
        Ok(Identity {
            name: anonymous_name(&id),
            id: PlayerId(id),
            token,
            account: false,
            bot: false,
        })
    }

    /// Counts a sign-in from `from` (and for account `name`, for a login) against
    /// their limits.
    fn sign_in_allowed(&self, from: IpAddr, name: Option<&str>) -> Result<(), HubError> {
        let now = self.now();
        let limited = |what: &str, wait| {
            self.metrics.sign_in_refused(SignInRefusal::Limited);
            HubError::Refused(format!("too many sign-ins {what}: {wait}"))
        };
        self.sign_ins_by_address
            .check(&address_key(from), now)
            .map_err(|wait| limited("from your address", wait))?;
        if let Some(name) = name {
            self.sign_ins_by_name
                .check(&name.to_string(), now)
                .map_err(|wait| limited("to this account", wait))?;
        }
        Ok(())
    }

    fn busy(&self, e: crate::passwords::PoolError) -> HubError {
        self.metrics.sign_in_refused(SignInRefusal::Busy);
        HubError::Refused(e.to_string())
    }

    /// Makes an anonymous player an account.
    pub async fn register(
        &self,
        who: &Identity,
        name: &str,
        password: &str,
        bot: bool,
        from: IpAddr,
    ) -> Result<Identity, HubError> {
        let name = check_name(name)?;
        if password.chars().count() < 8 || password.len() > 256 {
            return refused("a password has 8 to 256 characters");
        }
        if who.account {
            return refused("this player already has an account");
        }
        self.sign_in_allowed(from, None)?;
        let hash = self
            .passwords
            .hash(password.to_string())
            .await
            .map_err(|e| self.busy(e))?
            .ok_or_else(|| HubError::Refused("the password could not be hashed".into()))?;
        if !self.store.name_player(&who.id.0, &name, &hash).await? {
            return refused(format!("the name '{name}' is taken"));
        }
        if bot {
            self.store.make_bot(&who.id.0).await?;
        }
        Ok(Identity {
            name,
            account: true,
            bot,
            ..who.clone()
        })
    }

    /// Signs in to an account: a new secret for this client.
    pub async fn login(
        &self,
        name: &str,
        password: &str,
        from: IpAddr,
    ) -> Result<Identity, HubError> {
        let name = name.trim().to_lowercase();
        if password.len() > 256 || name.len() > 64 {
            return refused("no account with that name and password");
        }
        self.sign_in_allowed(from, Some(&name))?;
        let found = self.store.player_by_name(&name).await?;
        let hash = found.as_ref().and_then(|p| p.password_hash.clone());
        // Checked even for an unknown name (against nothing), so the answer's time
        // does not tell which names exist.
        let matches = self
            .passwords
            .check(password.to_string(), hash)
            .await
            .map_err(|e| self.busy(e))?;
        let (true, Some(player)) = (matches, found) else {
            self.metrics.sign_in_refused(SignInRefusal::Wrong);
            return refused("no account with that name and password");
        };
        let token = new_secret();
        self.store
            .set_token(&player.id, &secret_hash(&token))
            .await?;
        Ok(Identity {
            id: PlayerId(player.id),
            name,
            token,
            account: true,
            bot: player.bot,
        })
    }

    /// A connection of `who` is open (it hears of games that start for it).
    pub fn online(&self, who: &PlayerId, conn: ConnId, out: Outbox) {
        lock(&self.online)
            .entry(who.clone())
            .or_default()
            .push((conn, out));
    }

    /// A connection closed: it follows no list any more, and its seeks go when it was
    /// the player's last.
    pub fn offline(&self, who: Option<&PlayerId>, conn: ConnId) {
        lock(&self.lobby).retain(|(c, _)| *c != conn);
        lock(&self.games_followers).remove(&conn);
        if let Some(t) = self.tournaments.get() {
            t.forget(conn);
        }
        let Some(who) = who else { return };
        let last = {
            let mut online = lock(&self.online);
            let conns = online.entry(who.clone()).or_default();
            conns.retain(|(c, _)| *c != conn);
            let last = conns.is_empty();
            if last {
                online.remove(who);
            }
            last
        };
        if !last {
            return;
        }
        match &self.seeks {
            SeekBook::Here(_) => {
                let withdrawn =
                    futures_util::FutureExt::now_or_never(self.seeks.withdraw_listed(who));
                if matches!(withdrawn, Some(Ok(true))) {
                    self.announce_seeks();
                }
            }
            SeekBook::Shared(shared) => {
                let (book, who) = (SeekBook::Shared(shared.clone()), who.clone());
                let node = self.socket_node().cloned();
                tokio::spawn(async move {
                    if matches!(book.withdraw_listed(&who).await, Ok(true))
                        && let Some(node) = node
                    {
                        node.seeks_changed().await;
                    }
                });
            }
        }
    }

    /// Whether `who` has a connection to this server.
    pub fn is_online(&self, who: &PlayerId) -> bool {
        lock(&self.online).contains_key(who)
    }

    /// The tournaments' director: a server of `--role all` holds tournaments; the
    /// nodes of several processes do not yet.
    pub fn tournaments(&self) -> Result<&crate::tournaments::Tournaments, HubError> {
        self.tournaments.get().ok_or_else(|| {
            HubError::Refused(
                "tournaments are held by a server of one process (--role all) for now".into(),
            )
        })
    }

    /// Tells `who`'s connections, here and (on a socket node) on the other nodes.
    fn tell_player(&self, who: &PlayerId, message: &ServerMessage) {
        let text = message.to_text();
        self.tell_here(who, &text);
        if let Some(node) = self.socket_node() {
            let (node, who) = (Arc::clone(node), who.clone());
            tokio::spawn(async move { node.tell_elsewhere(&who, &text).await });
        }
    }

    /// Tells `who`'s connections on this node.
    pub fn tell_here(&self, who: &PlayerId, text: &str) {
        if let Some(conns) = lock(&self.online).get(who) {
            for (_, out) in conns {
                out.send(text.to_string());
            }
        }
    }

    // ---- the lobby ----

    /// Follows the list of open seeks: sent now and on every change, as its newest
    /// state (a client that reads slowly skips the states in between).
    pub async fn follow_lobby(&self, conn: ConnId, out: Outbox) {
        out.set_list(List::Seeks, self.seek_list().await.to_text());
        out.set_list(List::Playing, self.playing_list().to_text());
        let mut lobby = lock(&self.lobby);
        lobby.retain(|(c, _)| *c != conn);
        lobby.push((conn, out));
    }

    /// The listed seeks, the oldest [`LISTED_SEEKS`] (challenges are not listed).
    async fn seek_list(&self) -> ServerMessage {
        let seeks = match self.seeks.listed(LISTED_SEEKS).await {
            Ok(seeks) => seeks.iter().map(OpenSeek::listing).collect(),
            Err(e) => {
                tracing::warn!(error = ?e, "the lobby's seeks could not be read");
                Vec::new()
            }
        };
        ServerMessage::Seeks { seeks }
    }

    /// The lobby changed: its followers get the new list (here at once; on a socket
    /// node every node is told, and each pushes it with its lists).
    fn announce_seeks(&self) {
        match &self.seeks {
            SeekBook::Here(_) => {
                if let Some(list) = futures_util::FutureExt::now_or_never(self.seek_list()) {
                    let text = list.to_text();
                    lock(&self.lobby).retain(|(_, out)| out.set_list(List::Seeks, text.clone()));
                }
            }
            SeekBook::Shared(_) => {
                if let Some(node) = self.socket_node() {
                    let node = Arc::clone(node);
                    tokio::spawn(async move { node.seeks_changed().await });
                }
            }
        }
    }

    /// Another node changed the shared lobby: pushed with the next lists.
    pub fn mark_seeks_changed(&self) {
        self.seeks_changed.store(true, Ordering::Relaxed);
    }

    /// Pushes the shared lobby to this node's followers if it changed.
    async fn push_shared_seeks(&self) {
        if !self.seeks_changed.swap(false, Ordering::Relaxed) {
            return;
        }
        let text = self.seek_list().await.to_text();
        lock(&self.lobby).retain(|(_, out)| out.set_list(List::Seeks, text.clone()));
    }

    /// Offers a game; started at once when the engine takes every other seat. The
    /// seek's id (and a private challenge's code).
    pub async fn seek(
        &self,
        who: &Identity,
        request: SeekRequest,
    ) -> Result<ServerMessage, HubError> {
        self.seeks.has_room_for(&who.id).await?;
        let mut seek = self.make_seek(who, request)?;
        let answer = seek_reply(&seek);
        if seek.open_seats() > 0 && seek.code.is_none() {
            seek.rating = self.seek_rating(&seek).await;
        }
        if seek.open_seats() == 0 {
            self.start_game(seek).await?;
        } else {
            let private = seek.code.is_some();
            self.seeks.add(seek).await?;
            if !private {
                self.announce_seeks();
            }
        }
        Ok(answer)
    }

    /// The seek's owner's rating in its variant and speed (none if it cannot be read:
    /// the seek is listed without it).
    async fn seek_rating(&self, seek: &OpenSeek) -> Option<SeatRating> {
        let speed = seek.listing().speed();
        let (rating, games) = self
            .store
            .rating(&seek.owner.0, &seek.request.variant, speed)
            .await
            .ok()?;
        Some(crate::room::seat_rating(
            rating,
            games,
            seek.seats.len() > 2,
        ))
    }

    fn make_seek(&self, who: &Identity, request: SeekRequest) -> Result<OpenSeek, HubError> {
        self.check_games_of(&who.id, request.engines > 0)?;
        let Some(entry) = self.catalog.get(&request.variant) else {
            return refused(format!("no variant '{}' on this server", request.variant));
        };
        check_control(&request)?;
        let rules = entry.rules();
        let sides: Vec<_> = rules.sides().collect();
        let mut seats: Vec<Option<SeatHolder>> = vec![None; sides.len()];
        let mine = match &request.side {
            Some(name) => sides
                .iter()
                .position(|s| rules.side_name(*s).eq_ignore_ascii_case(name))
                .ok_or_else(|| HubError::Refused(format!("no side '{name}' in this variant")))?,
            None => rand::random_range(0..sides.len()),
        };
        seats[mine] = Some(who.seat());
        let engines = request.engines as usize;
        if engines >= sides.len() {
            return refused(format!(
                "{} seats: at most {} engines",
                sides.len(),
                sides.len() - 1
            ));
        }
        if engines > 0 && request.rated {
            return refused("a game with the engine is casual");
        }
        let level = engine_level(request.level)?;
        let mut free: Vec<usize> = (0..seats.len()).filter(|i| seats[*i].is_none()).collect();
        free.shuffle(&mut rand::rng());
        for i in free.into_iter().take(engines) {
            seats[i] = Some(SeatHolder::Engine { level });
        }
        Ok(OpenSeek {
            id: new_code(10),
            code: request.private.then(|| new_code(8)),
            owner: who.id.clone(),
            request,
            seats,
            rating: None,
            made_ms: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64),
        })
    }

    /// Withdraws `who`'s seek `id`.
    pub async fn cancel(&self, who: &PlayerId, id: &str) -> Result<(), HubError> {
        if !self.seeks.cancel(who, id).await? {
            return refused("no seek of yours by that id");
        }
        self.announce_seeks();
        Ok(())
    }

    /// Takes a seat in seek `id` (or a private challenge by its code); the game
    /// starts when the last seat is taken.
    pub async fn accept(&self, who: &Identity, id: &str) -> Result<(), HubError> {
        let allowed = |seek: &OpenSeek| {
            if seek.has(&who.id) {
                // Two tabs or windows of one browser share one kept secret: one player.
                return Err(
                    "you already sit in this seek: it is your own (every tab and \
                     window of one browser, or one desktop's game, plays as the same \
                     player); send the link to a friend, or open it in a private window \
                     or another browser to play against it yourself"
                        .to_string(),
                );
            }
            self.check_games_of(&who.id, false)
                .map_err(|e| e.to_string())
        };
        let seated = self.seeks.take_seat(id, who.seat(), allowed).await?;
        self.announce_seeks();
        if let Seated::Full(seek) = seated {
            self.start_game(seek).await?;
        }
        Ok(())
    }

    /// Plays the oldest listed seek like `request` (variant, time, rating), or seeks
    /// one.
    pub async fn quick(
        &self,
        who: &Identity,
        request: SeekRequest,
    ) -> Result<ServerMessage, HubError> {
        let listed = self.seeks.listed(MAX_SEEKS).await?;
        let like = listed
            .iter()
            .find(|s| {
                s.code.is_none()
                    && !s.has(&who.id)
                    && s.request.variant == request.variant
                    && s.request.minutes == request.minutes
                    && s.request.increment == request.increment
                    && s.request.days == request.days
                    && s.request.rated == request.rated
            })
            .map(|s| s.id.clone());
        match like {
            Some(id) => match self.accept(who, &id).await {
                Ok(()) => Ok(ServerMessage::Seek(SeekReply { id, code: None })),
                // Taken by someone else in the meantime (through another node): seek.
                Err(HubError::Refused(why)) if why == NO_SEEK => self.seek(who, request).await,
                Err(e) => Err(e),
            },
            None => self.seek(who, request).await,
        }
    }

    /// A full seek becomes a game: stored, given a room, announced to its players.
    async fn start_game(&self, seek: OpenSeek) -> Result<(), HubError> {
        let seats: Vec<SeatHolder> = seek.seats.into_iter().flatten().collect();
        let control = StoredControl::of(&seek.request);
        self.start_seated(&seek.request.variant, control, seek.request.rated, seats)
            .await
    }

    /// A game of `variant` with these seats: stored, given a room, announced to its
    /// players.
    async fn start_seated(
        &self,
        variant: &str,
        control: StoredControl,
        rated: bool,
        seats: Vec<SeatHolder>,
    ) -> Result<(), HubError> {
        let text = control.text();
        self.open_game(new_code(12), variant, control, text, rated, seats, None)
            .await
    }

    /// A tournament's game, its id chosen with its pairing: its stored time control
    /// carries the tournament and the first move's wait (`crate::room::TournamentMark`).
    pub async fn start_tournament_game(
        &self,
        game: &str,
        t: &crate::store::StoredTournament,
        seats: Vec<SeatHolder>,
    ) -> Result<(), HubError> {
        let control = StoredControl {
            minutes: Some(u64::from(t.minutes)),
            increment: Some(u64::from(t.increment)),
            days: None,
        };
        let mark = crate::room::TournamentMark {
            tournament: Some(t.id.clone()),
            first_move: Some(u64::from(t.first_move)),
            berserk: t.berserk.then_some(true),
            berserk_seats: Vec::new(),
        };
        let mut text = serde_json::to_value(control).unwrap_or_default();
        if let (Some(fields), Ok(serde_json::Value::Object(more))) =
            (text.as_object_mut(), serde_json::to_value(&mark))
        {
            fields.extend(more);
        }
        self.open_game(
            game.to_string(),
            &t.variant,
            control,
            text.to_string(),
            t.rated,
            seats,
            Some(t.id.clone()),
        )
        .await
    }

    #[allow(clippy::too_many_arguments)]
    async fn open_game(
        &self,
        id: String,
        variant: &str,
        control: StoredControl,
        control_text: String,
        rated: bool,
        seats: Vec<SeatHolder>,
        tournament: Option<String>,
    ) -> Result<(), HubError> {
        let Some(entry) = self.catalog.get(variant) else {
            return refused("the variant is gone");
        };
        let clock = control.clock().map_err(HubError::Refused)?;
        let started_ms = self
            .store
            .add_game(&NewGame {
                id: id.clone(),
                variant: variant.to_string(),
                seats: seats_text(&seats),
                control: control_text.clone(),
                rated,
                players: seats
                    .iter()
                    .map(|s| match s {
                        SeatHolder::Player { id, .. } => Some(id.0.clone()),
                        SeatHolder::Engine { .. } => None,
                    })
                    .collect(),
            })
            .await?;
        let hosted = HostedGame::new(
            Game::new(Arc::clone(entry.rules())),
            Room::seat_ids(&seats),
            clock,
        );
        let facts = GameFacts {
            id: id.clone(),
            variant: variant.to_string(),
            rated,
            speed: control.speed(clock),
            seats: seats.clone(),
            days: control.days(),
            started_ms,
            control: control_text.clone(),
        };
        match self.socket_node() {
            // A game node takes it (its players' joins wait here until one has).
            Some(node) => {
                if let Err(e) = node.open(&id).await {
                    tracing::warn!(game = %id, error = ?e, "no game node asked to take a new game yet");
                }
            }
            None => {
                self.open_room(
                    facts,
                    hosted,
                    entry.two_player_rules(),
                    std::time::SystemTime::now(),
                    Vec::new(),
                    0,
                );
            }
        }
        let rules = entry.rules();
        for (i, seat) in seats.iter().enumerate() {
            if let SeatHolder::Player { id: player, .. } = seat {
                let side = rules.side_name(hexchess_core::Side::from_index(i));
                let started = Started {
                    game: id.clone(),
                    variant: variant.to_string(),
                    side: side.to_string(),
                    tournament: tournament.clone(),
                };
                self.tell_player(player, &ServerMessage::Started(started));
            }
        }
        Ok(())
    }

    /// `who` asks for a rematch of finished game `game`: its players are told who has
    /// asked; once every seat has (an engine seat always agrees), the new game starts
    /// with the seats one on (two players swap).
    pub async fn rematch(&self, who: &Identity, game: &str) -> Result<(), HubError> {
        let Some(brief) = self.brief_after_the_end(game).await else {
            return refused(
                "no finished game by that id here: a rematch is asked within two minutes of the end",
            );
        };
        if !brief.over {
            return refused("the game is still on");
        }
        let mine: Vec<usize> = (0..brief.seats.len())
            .filter(|i| brief.players[*i].as_ref() == Some(&who.id))
            .collect();
        if mine.is_empty() {
            return refused("you hold no seat in this game");
        }
        // The player's seats, and the engine's (which always agree).
        let asking: Vec<usize> = (0..brief.seats.len())
            .filter(|i| mine.contains(i) || matches!(brief.seats[*i], SeatHolder::Engine { .. }))
            .collect();
        // Asks of games whose rooms have closed go when the book is full.
        let open = |id: &str| lock(&self.context.briefs).contains_key(id);
        let answer = self
            .rematches
            .ask(game, brief.seats.len(), &asking, open)
            .await
            .map_err(|why| {
                tracing::warn!(%why, "a rematch's asks could not be kept");
                HubError::Refused(
                    "the server cannot keep this ask now: try again in a moment".into(),
                )
            })?;
        let (asked, start) = match answer {
            Asked::Seats { asked, start } => (asked, start),
            Asked::Started => return refused("the rematch has started"),
            Asked::Full => {
                return refused("too many rematches asked at once: try again in a minute");
            }
        };
        let Some(entry) = self.catalog.get(&brief.variant) else {
            return refused("the variant is gone");
        };
        let rules = entry.rules();
        let names: Vec<String> = (0..asked.len())
            .filter(|i| asked[*i])
            .map(|i| {
                rules
                    .side_name(hexchess_core::Side::from_index(i))
                    .to_string()
            })
            .collect();
        for player in brief.players.iter().flatten() {
            let told = ServerMessage::Rematch(RematchAsked {
                game: game.to_string(),
                asked: names.clone(),
            });
            self.tell_player(player, &told);
        }
        if !start {
            return Ok(());
        }
        for player in brief.players.iter().flatten() {
            let engines = brief.players.iter().any(Option::is_none);
            if let Err(e) = self.check_games_of(player, engines) {
                // The rematch cannot start; it may be asked again.
                self.rematches.forget(game).await;
                return Err(e);
            }
        }
        let control = StoredControl::read(&brief.control).map_err(HubError::Refused)?;
        let mut seats = brief.seats.clone();
        seats.rotate_right(1);
        self.start_seated(&brief.variant, control, brief.rated, seats)
            .await
    }

    /// Game `game`'s brief, once it says the game is over. On a socket node the game
    /// nodes' briefs arrive up to a second or two after the end a player was told of:
    /// they are read again for a moment before the game counts as still on.
    async fn brief_after_the_end(&self, game: &str) -> Option<Brief> {
        let brief = || lock(&self.context.briefs).get(game).cloned();
        let Some(node) = self.socket_node() else {
            return brief();
        };
        for _ in 0..10 {
            if brief().is_some_and(|b| b.over) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
            node.refresh_briefs().await;
        }
        brief()
    }

    /// Refuses a new game to a player seated in too many already (or, for a game with
    /// the engine, in too many of those).
    fn check_games_of(&self, who: &PlayerId, with_engine: bool) -> Result<(), HubError> {
        let briefs = lock(&self.context.briefs);
        let mine: Vec<&Brief> = briefs
            .values()
            .filter(|b| !b.over && b.players.iter().flatten().any(|p| p == who))
            .collect();
        if mine.len() >= MAX_GAMES_PER_PLAYER {
            return refused(format!(
                "you play {MAX_GAMES_PER_PLAYER} games already, the most one may"
            ));
        }
        let against_engine = mine
            .iter()
            .filter(|b| b.players.iter().any(Option::is_none))
            .count();
        if with_engine && against_engine >= MAX_ENGINE_GAMES_PER_PLAYER {
            return refused(format!(
                "you play {MAX_ENGINE_GAMES_PER_PLAYER} games against the engine already: \
                 finish one first"
            ));
        }
        Ok(())
    }

    // ---- lists ----

    /// Follows `who`'s games list: sent now and whenever one of their games starts,
    /// ends or passes the turn.
    pub fn follow_games(&self, conn: ConnId, who: &PlayerId, out: Outbox) {
        out.set_list(List::Games, self.games_of(who).to_text());
        lock(&self.games_followers).insert(conn, (who.clone(), out));
    }

    /// The watch list as a message.
    pub fn playing_list(&self) -> ServerMessage {
        ServerMessage::Playing {
            games: self.games_in_play().games,
        }
    }

    /// Sends the lists that changed to their followers (see `lists.rs`).
    fn push_lists(&self) {
        let (playing, players) = self.context.lists.take();
        if playing {
            let text = self.playing_list().to_text();
            lock(&self.lobby).retain(|(_, out)| out.set_list(List::Playing, text.clone()));
        }
        if players.is_empty() {
            return;
        }
        let followers: Vec<(PlayerId, Outbox)> = lock(&self.games_followers)
            .values()
            .filter(|(who, _)| players.contains(who))
            .cloned()
            .collect();
        for (who, out) in followers {
            out.set_list(List::Games, self.games_of(&who).to_text());
        }
    }

    /// `who`'s games in progress, those on their turn first (the "your turn" list).
    pub fn games_of(&self, who: &PlayerId) -> ServerMessage {
        let briefs = lock(&self.context.briefs);
        let mut games: Vec<(&String, &Brief)> = briefs
            .iter()
            .filter(|(_, b)| !b.over && b.players.iter().flatten().any(|p| p == who))
            .collect();
        games.sort_by_key(|(id, b)| (b.to_move.as_ref() != Some(who), (*id).clone()));
        let games = games
            .into_iter()
            .map(|(id, b)| YourGame {
                game: id.clone(),
                variant: b.variant.clone(),
                speed: b.speed.clone(),
                names: b.names.clone(),
                your_turn: b.to_move.as_ref() == Some(who),
            })
            .collect();
        ServerMessage::Games { games }
    }

    /// The games in play (for spectators), at most a hundred.
    pub fn games_in_play(&self) -> GamesInPlay {
        let briefs = lock(&self.context.briefs);
        let games = briefs
            .iter()
            .filter(|(_, b)| !b.over)
            .take(100)
            .map(|(id, b)| GameInPlay {
                game: id.clone(),
                variant: b.variant.clone(),
                speed: b.speed.clone(),
                names: b.names.clone(),
                bots: b.seats.iter().map(SeatHolder::is_bot).collect(),
            })
            .collect();
        GamesInPlay { games }
    }

    /// `who`'s ratings.
    pub async fn ratings_of(&self, who: &PlayerId) -> Result<ServerMessage, HubError> {
        let ratings = self
            .store
            .ratings_of(&who.0)
            .await?
            .into_iter()
            .map(|(variant, speed, r, games)| {
                let table = self
                    .catalog
                    .get(&variant)
                    .is_some_and(|e| e.side_count() > 2);
                RatingLine {
                    provisional: crate::ratings::is_provisional(r, games, table),
                    variant,
                    speed,
                    rating: r.rating.round(),
                    deviation: r.deviation.round(),
                    games,
                }
            })
            .collect();
        Ok(ServerMessage::Ratings { ratings })
    }
}

impl Hub {
    /// The names a player mutes (none when the database cannot say).
    pub async fn mutes_of(&self, who: &PlayerId) -> Vec<String> {
        match self.store.mutes_of(&who.0).await {
            Ok(names) => names,
            Err(e) => {
                tracing::warn!(error = %e, "a player's mutes were not read");
                Vec::new()
            }
        }
    }

    /// Mutes `name` for `who` (or shows it again), stored and then in effect in every
    /// game they follow; the list as `muted`.
    pub async fn mute(
        &self,
        who: &Identity,
        muted: &Muted,
        name: &str,
        on: bool,
    ) -> Result<ServerMessage, HubError> {
        let name = checked_name(name).map_err(|e| HubError::Refused(e.to_string()))?;
        if on && !muted.hides(&name) && muted.names().len() >= MAX_MUTES {
            return refused(ChatRefusal::TooManyMutes.to_string());
        }
        self.store.set_mute(&who.id.0, &name, on).await?;
        muted.set(&name, on);
        Ok(ServerMessage::Muted {
            names: muted.names(),
        })
    }
}

/// Players' pages and leaderboards (`crate::profiles`) one address may read each
/// minute. Kept here, where the limit is made: the pages are methods of the hub, which
/// needs nothing else of them.
pub const LOOKUPS_PER_MINUTE: u32 = 60;

/// Pushes the changed lists every [`crate::lists::PUSH_EVERY`] while the hub lives.
async fn push_lists(hub: std::sync::Weak<Hub>) {
    let mut every = tokio::time::interval(crate::lists::PUSH_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let Some(hub) = hub.upgrade() else { return };
        if hub.is_stopping() {
            return;
        }
        hub.push_lists();
        hub.push_shared_seeks().await;
    }
}

fn anonymous_name(id: &str) -> String {
    format!("Anonymous {}", &id[..id.len().min(4)])
}

/// An account's name: 3 to 20 letters, digits, `-` or `_`, kept in lower case.
fn check_name(name: &str) -> Result<String, HubError> {
    let name = name.trim().to_lowercase();
    let ok = (3..=20).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return refused("a name has 3 to 20 letters, digits, '-' or '_'");
    }
    Ok(name)
}

fn check_control(request: &SeekRequest) -> Result<(), HubError> {
    match (request.minutes, request.days) {
        (Some(_), Some(_)) => refused("minutes or days, not both"),
        (Some(m), None)
            if u64::from(m) > MAX_MINUTES || u64::from(request.increment) > MAX_INCREMENT =>
        {
            refused(format!(
                "at most {MAX_MINUTES} minutes and {MAX_INCREMENT} seconds' increment"
            ))
        }
        (Some(0), None) if request.increment == 0 => refused("a clock needs time"),
        (None, Some(d)) if !(1..=MAX_DAYS).contains(&d) => {
            refused(format!("1 to {MAX_DAYS} days a move"))
        }
        _ => Ok(()),
    }
}

fn engine_level(level: Option<u8>) -> Result<u8, HubError> {
    let skill = crate::engine_seat::level(level);
    match level {
        Some(l) if l != skill.level() => refused(format!(
            "levels are 1 to {}",
            hexchess_engine::Skill::FULL.level()
        )),
        _ => Ok(skill.level()),
    }
}

/// A game's time control as the `games.control` column keeps it, in JSON:
/// `{"minutes":5,"increment":3}`, `{"days":2}`, or `{}` (untimed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredControl {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    minutes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    increment: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    days: Option<u64>,
}

impl StoredControl {
    fn of(request: &SeekRequest) -> StoredControl {
        match (request.minutes, request.days) {
            (Some(minutes), _) => StoredControl {
                minutes: Some(u64::from(minutes)),
                increment: Some(u64::from(request.increment)),
                days: None,
            },
            (None, days) => StoredControl {
                days: days.map(u64::from),
                ..StoredControl::default()
            },
        }
    }

    pub(crate) fn read(text: &str) -> Result<StoredControl, String> {
        serde_json::from_str(text).map_err(|e| format!("its time control: {e}"))
    }

    fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The clock (none: untimed or correspondence), within the ranges a seek may ask.
    pub(crate) fn clock(&self) -> Result<Option<TimeControl>, String> {
        let Some(minutes) = self.minutes else {
            return Ok(None);
        };
        if minutes > MAX_MINUTES {
            return Err(format!("{minutes} minutes (0 to {MAX_MINUTES})"));
        }
        let increment = self.increment.unwrap_or(0);
        if increment > MAX_INCREMENT {
            return Err(format!(
                "an increment of {increment} s (0 to {MAX_INCREMENT})"
            ));
        }
        if minutes == 0 && increment == 0 {
            return Err("a clock with no time".into());
        }
        Ok(Some(TimeControl {
            base: Duration::from_secs(minutes * 60),
            increment: Duration::from_secs(increment),
        }))
    }

    fn days(&self) -> Option<u32> {
        self.days.and_then(|d| u32::try_from(d).ok())
    }

    pub(crate) fn speed(&self, clock: Option<TimeControl>) -> String {
        match clock {
            Some(tc) => tc.speed().to_string(),
            None if self.days.is_some() => "correspondence".to_string(),
            None => "untimed".to_string(),
        }
    }
}

/// The most a seek may ask for: minutes on the clock, seconds of increment, days a
/// move. A stored game beyond them is not resumed (it would overflow the clock's
/// arithmetic).
pub const MAX_MINUTES: u64 = 180;
/// The most seconds of increment a seek may ask for.
pub const MAX_INCREMENT: u64 = 180;
/// The most days a move a seek may ask for.
pub const MAX_DAYS: u32 = 14;

/// A seat as the `games.seats` column keeps it, in JSON: `{"player":ID,"name":NAME}`
/// or `{"engine":LEVEL}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum StoredSeat {
    Engine {
        engine: u64,
    },
    Player {
        player: String,
        name: String,
        /// Left out for a person.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        bot: bool,
    },
}

fn seats_text(seats: &[SeatHolder]) -> String {
    let stored: Vec<StoredSeat> = seats
        .iter()
        .map(|s| match s {
            SeatHolder::Player { id, name, bot } => StoredSeat::Player {
                player: id.0.clone(),
                name: name.clone(),
                bot: *bot,
            },
            SeatHolder::Engine { level } => StoredSeat::Engine {
                engine: u64::from(*level),
            },
        })
        .collect();
    serde_json::to_string(&stored).unwrap_or_default()
}

pub(crate) fn seats_from_text(text: &str) -> Result<Vec<SeatHolder>, String> {
    let seats: Vec<StoredSeat> =
        serde_json::from_str(text).map_err(|e| format!("its seats: {e}"))?;
    seats
        .into_iter()
        .map(|s| match s {
            StoredSeat::Engine { engine } => u8::try_from(engine)
                .ok()
                .filter(|l| hexchess_engine::Skill::new(*l).is_some())
                .map(|level| SeatHolder::Engine { level })
                .ok_or_else(|| format!("an engine seat at level {engine}")),
            StoredSeat::Player { player, name, bot } => Ok(SeatHolder::Player {
                id: PlayerId(player),
                name,
                bot,
            }),
        })
        .collect()
}
