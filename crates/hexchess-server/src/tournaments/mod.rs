//! Tournaments (issue 67): arenas, Swiss tournaments by the FIDE Dutch system, and
//! round robins, held by one task, the director, which every change passes through
//! in turn: a tournament created, an entry, a withdrawal, a game's end, the clock.
//!
//! The director writes before it tells, as the rooms do: a round's pairings are
//! stored before their games start, each game's result before the standings show
//! it. Killed at any moment, the server reads it all back (`Director::load`): a
//! pairing whose game was not made yet starts then, a result the database has but
//! the tournament missed is counted, and the tournament goes on from where it was.
//!
//! The pairing itself is `hexchess-tournament`'s (Berger tables, the Dutch system,
//! the arena's pairing of the free); this module holds the events in time.

pub mod standings;

use std::collections::HashMap;
use std::sync::Weak;
use std::time::{Duration, Instant};

use hexchess_protocol::{
    ServerMessage, TournamentKind, TournamentList, TournamentRequest, TournamentView,
};
use hexchess_tournament::arena::{Free, pair_free};
use hexchess_tournament::round_robin::{self, Cycles, Number};
use hexchess_tournament::swiss;
use tokio::sync::{mpsc, oneshot};

use crate::hosted::PlayerId;
use crate::outbox::{List, Outbox};
use crate::room::ConnId;
use crate::room::GameEnded;
use crate::seat::Identity;
use crate::seat::SeatHolder;
use crate::secret::new_code;
use crate::store::{Store, StoredEntry, StoredPairing, StoredTournament, now_ms};
use standings::Held;

/// How often the director looks at the clock: starts, arena pairings, ends, and the
/// standings pushed when they changed.
const TICK: Duration = Duration::from_millis(250);

/// Standings and the list are pushed at most this often (a crowd's results come
/// many a second; each push is a list to every follower).
const PUSH_EVERY: Duration = Duration::from_secs(1);

/// The standings' lines a push carries: the first ones (an arena of hundreds would
/// otherwise send each follower all of them every second).
pub const PUSHED_LINES: usize = 100;

/// An arena player is paired again this long after their game ended (time to see it).
pub const ARENA_PAUSE: Duration = Duration::from_secs(2);

/// The most tournaments not finished at once, server-wide, and per creator.
pub const MAX_OPEN: usize = 100;
/// The most tournaments not finished one account may have created.
pub const MAX_OPEN_PER_CREATOR: usize = 3;
/// The most entrants: an arena, a Swiss (its pairing costs grow fast with the
/// field: docs/tournaments.md), a round robin.
pub const MAX_ARENA: usize = 1000;
/// The most entrants of a Swiss.
pub const MAX_SWISS: usize = 200;
/// The most entrants of a round robin.
pub const MAX_ROUND_ROBIN: usize = 16;
/// The most rounds of a Swiss.
pub const MAX_SWISS_ROUNDS: u32 = 15;
/// The finished tournaments the list keeps showing.
const FINISHED_SHOWN: u32 = 20;

/// What the director asks of the server that holds it (the hub, which implements it:
/// a trait, so that the hub holds the director without the director importing the
/// hub).
pub trait Host: Send + Sync + 'static {
    /// The server is stopping: the director ends.
    fn is_stopping(&self) -> bool;
    /// Whether `who` has a connection (an arena pairs those present).
    fn is_online(&self, who: &PlayerId) -> bool;
    /// Why tournaments may not be held in `variant` at this clock, if not.
    fn check_game(&self, variant: &str, minutes: u32, increment: u32) -> Result<(), String>;
    /// Starts a pairing's game (its id chosen with the pairing) and tells its players.
    fn start_game(
        &self,
        game: &str,
        t: &StoredTournament,
        seats: Vec<SeatHolder>,
    ) -> impl std::future::Future<Output = Result<(), String>> + Send;
}

/// What the hub asks of the director.
enum Command {
    Create {
        who: Identity,
        request: Box<TournamentRequest>,
        reply: oneshot::Sender<Result<TournamentView, String>>,
    },
    Join {
        who: Identity,
        tournament: String,
        engine: Option<u8>,
        reply: oneshot::Sender<Result<(), String>>,
    },
    Withdraw {
        who: PlayerId,
        tournament: String,
        reply: oneshot::Sender<Result<(), String>>,
    },
    Follow {
        conn: ConnId,
        out: Outbox,
        tournament: String,
        reply: oneshot::Sender<Result<(), String>>,
    },
    FollowList {
        conn: ConnId,
        out: Outbox,
    },
    Forget {
        conn: ConnId,
    },
    List {
        reply: oneshot::Sender<TournamentList>,
    },
    View {
        tournament: String,
        reply: oneshot::Sender<Option<TournamentView>>,
    },
    Trf {
        tournament: String,
        reply: oneshot::Sender<Option<String>>,
    },
}

/// The hub's handle on the director.
#[derive(Clone, Debug)]
pub struct Tournaments {
    tx: mpsc::Sender<Command>,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("tournament command")
    }
}

/// The director's queue: commands wait here while it works (each connection sends
/// one at a time, within its message rate).
const QUEUE: usize = 1024;

impl Tournaments {
    /// Starts the director over `store` for `hub`; game ends arrive on `ends`.
    pub fn start<H: Host>(
        hub: Weak<H>,
        store: Store,
        ends: mpsc::UnboundedReceiver<GameEnded>,
    ) -> Tournaments {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(hub, store, rx, ends));
        Tournaments { tx }
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(make(reply)).await.ok()?;
        answer.await.ok()
    }

    /// Creates a tournament; its view.
    pub async fn create(
        &self,
        who: &Identity,
        request: TournamentRequest,
    ) -> Result<TournamentView, String> {
        self.ask(|reply| Command::Create {
            who: who.clone(),
            request: Box::new(request),
            reply,
        })
        .await
        .unwrap_or_else(|| Err(STOPPING.into()))
    }

    /// Enters `who` (or, with `engine`, an engine seat of that level).
    pub async fn join(
        &self,
        who: &Identity,
        tournament: String,
        engine: Option<u8>,
    ) -> Result<(), String> {
        self.ask(|reply| Command::Join {
            who: who.clone(),
            tournament,
            engine,
            reply,
        })
        .await
        .unwrap_or_else(|| Err(STOPPING.into()))
    }

    /// Withdraws `who`.
    pub async fn withdraw(&self, who: &PlayerId, tournament: String) -> Result<(), String> {
        self.ask(|reply| Command::Withdraw {
            who: who.clone(),
            tournament,
            reply,
        })
        .await
        .unwrap_or_else(|| Err(STOPPING.into()))
    }

    /// `out` follows a tournament's standings (and no other tournament's).
    pub async fn follow(
        &self,
        conn: ConnId,
        out: Outbox,
        tournament: String,
    ) -> Result<(), String> {
        self.ask(|reply| Command::Follow {
            conn,
            out,
            tournament,
            reply,
        })
        .await
        .unwrap_or_else(|| Err(STOPPING.into()))
    }

    /// `out` follows the list of tournaments.
    pub async fn follow_list(&self, conn: ConnId, out: Outbox) {
        let _ = self.tx.send(Command::FollowList { conn, out }).await;
    }

    /// A connection closed: it follows nothing any more.
    pub fn forget(&self, conn: ConnId) {
        let _ = self.tx.try_send(Command::Forget { conn });
    }

    /// The list (`GET /tournaments`).
    pub async fn list(&self) -> TournamentList {
        self.ask(|reply| Command::List { reply })
            .await
            .unwrap_or(TournamentList {
                tournaments: Vec::new(),
            })
    }

    /// One tournament with its standings (`GET /tournament/ID`).
    pub async fn view(&self, tournament: String) -> Option<TournamentView> {
        self.ask(|reply| Command::View { tournament, reply })
            .await
            .flatten()
    }

    /// One tournament in TRF16 (`GET /tournament/ID.trf`).
    pub async fn trf(&self, tournament: String) -> Option<String> {
        self.ask(|reply| Command::Trf { tournament, reply })
            .await
            .flatten()
    }
}

const STOPPING: &str = "the server is stopping";

async fn run<H: Host>(
    hub: Weak<H>,
    store: Store,
    mut commands: mpsc::Receiver<Command>,
    mut ends: mpsc::UnboundedReceiver<GameEnded>,
) {
    let mut director = Director::new(hub, store);
    if let Err(e) = director.load().await {
        tracing::error!(error = %e, "the tournaments could not be read back; none is held");
    }
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                Some(c) => director.command(c).await,
                None => break,
            },
            Some(end) = ends.recv() => director.game_ended(end).await,
            _ = tick.tick() => {
                if director.hub.upgrade().is_none_or(|h| h.is_stopping()) {
                    break;
                }
                director.tick().await;
            }
        }
    }
}

struct Director<H> {
    hub: Weak<H>,
    store: Store,
    held: Vec<Held>,
    /// Each tournament game's place: the tournament, round and board.
    by_game: HashMap<String, (String, u32, u32)>,
    /// When each arena entrant's last game ended (they wait [`ARENA_PAUSE`]).
    free_since: HashMap<(String, String), Instant>,
    list_followers: Vec<(ConnId, Outbox)>,
    followers: HashMap<ConnId, (String, Outbox)>,
    /// Tournaments whose standings changed since they were pushed.
    changed: std::collections::HashSet<String>,
    list_changed: bool,
    /// When the changes were last pushed.
    pushed: Instant,
}

impl<H: Host> Director<H> {
    fn new(hub: Weak<H>, store: Store) -> Director<H> {
        Director {
            hub,
            store,
            held: Vec::new(),
            by_game: HashMap::new(),
            free_since: HashMap::new(),
            list_followers: Vec::new(),
            followers: HashMap::new(),
            changed: Default::default(),
            list_changed: false,
            pushed: Instant::now(),
        }
    }

    fn find(&self, id: &str) -> Option<usize> {
        self.held.iter().position(|h| h.t.id == id)
    }

    fn touched(&mut self, id: &str) {
        self.changed.insert(id.to_string());
        self.list_changed = true;
    }

    /// Reads the tournaments back, and brings each up to what the database says:
    /// results stored with their games but not yet with the tournament are counted,
    /// and pairings whose games were never made start now.
    async fn load(&mut self) -> Result<(), crate::store::StoreError> {
        for t in self.store.tournaments(FINISHED_SHOWN).await? {
            let entries = self.store.entries(&t.id).await?;
            let pairings = self.store.pairings(&t.id).await?;
            for p in &pairings {
                if let Some(g) = &p.game {
                    self.by_game
                        .insert(g.clone(), (t.id.clone(), p.round, p.board));
                }
            }
            self.held.push(Held {
                t,
                entries,
                pairings,
            });
        }
        let pending: Vec<(usize, StoredPairing)> = self
            .held
            .iter()
            .enumerate()
            .flat_map(|(i, h)| h.in_play().cloned().map(move |p| (i, p)))
            .collect();
        for (i, p) in pending {
            let Some(game) = &p.game else { continue };
            match self.store.game_end(game).await? {
                Some((result, plies, control)) => {
                    let berserk = crate::room::TournamentMark::of_control(&control).berserk_seats;
                    self.record_result(i, &p, &result, plies, &berserk).await;
                }
                None if !self.store.has_game(game).await? => {
                    let held = self.held[i].clone();
                    self.start_game(&held, &p).await;
                }
                None => {}
            }
        }
        tracing::info!(tournaments = self.held.len(), "tournaments read back");
        Ok(())
    }

    async fn command(&mut self, command: Command) {
        match command {
            Command::Create {
                who,
                request,
                reply,
            } => {
                let _ = reply.send(self.create(&who, *request).await);
            }
            Command::Join {
                who,
                tournament,
                engine,
                reply,
            } => {
                let _ = reply.send(self.join(&who, &tournament, engine).await);
            }
            Command::Withdraw {
                who,
                tournament,
                reply,
            } => {
                let _ = reply.send(self.withdraw(&who, &tournament).await);
            }
            Command::Follow {
                conn,
                out,
                tournament,
                reply,
            } => {
                let answer = match self.find(&tournament) {
                    Some(i) => {
                        let text = self.view_message(i);
                        out.set_list(List::Standings, text);
                        self.followers.insert(conn, (tournament, out));
                        Ok(())
                    }
                    None => Err(format!("no tournament {tournament} is held here")),
                };
                let _ = reply.send(answer);
            }
            Command::FollowList { conn, out } => {
                out.set_list(List::Tournaments, self.list_message().to_text());
                self.list_followers.retain(|(c, _)| *c != conn);
                self.list_followers.push((conn, out));
            }
            Command::Forget { conn } => {
                self.followers.remove(&conn);
                self.list_followers.retain(|(c, _)| *c != conn);
            }
            Command::List { reply } => {
                let _ = reply.send(self.list());
            }
            Command::View { tournament, reply } => {
                let _ = reply.send(
                    self.find(&tournament)
                        .map(|i| standings::view(&self.held[i])),
                );
            }
            Command::Trf { tournament, reply } => {
                let text = self.find(&tournament).map(|i| {
                    hexchess_tournament::trf::write(&standings::trf_of(&self.held[i], None))
                });
                let _ = reply.send(text);
            }
        }
    }

    /// A tournament's view as its followers get it: the first [`PUSHED_LINES`] lines
    /// of its standings (`GET /tournament/ID` has them all).
    fn view_message(&self, i: usize) -> String {
        let mut view = standings::view(&self.held[i]);
        view.standings.truncate(PUSHED_LINES);
        ServerMessage::Tournament(Box::new(view)).to_text()
    }

    fn list(&self) -> TournamentList {
        let mut tournaments: Vec<_> = self.held.iter().map(standings::listing).collect();
        tournaments.sort_by_key(|l| (l.status == "finished", l.starts_ms));
        TournamentList { tournaments }
    }

    fn list_message(&self) -> ServerMessage {
        ServerMessage::Tournaments(self.list())
    }

    async fn create(
        &mut self,
        who: &Identity,
        r: TournamentRequest,
    ) -> Result<TournamentView, String> {
        let hub = self.hub.upgrade().ok_or(STOPPING)?;
        if !who.account {
            return Err("only an account may create a tournament: register first".into());
        }
        let open = self.held.iter().filter(|h| h.t.status != "finished");
        if open.clone().count() >= MAX_OPEN {
            return Err(format!(
                "{MAX_OPEN} tournaments are open already: try later"
            ));
        }
        if open.filter(|h| h.t.creator == who.id.0).count() >= MAX_OPEN_PER_CREATOR {
            return Err(format!(
                "you have {MAX_OPEN_PER_CREATOR} tournaments open already"
            ));
        }
        let t = check_request(hub.as_ref(), who, &r)?;
        self.store
            .add_tournament(&t)
            .await
            .map_err(|e| e.to_string())?;
        self.held.push(Held {
            t,
            entries: Vec::new(),
            pairings: Vec::new(),
        });
        let held = self.held.last().expect("just pushed");
        let view = standings::view(held);
        let id = held.t.id.clone();
        self.touched(&id);
        tracing::info!(tournament = %id, by = %who.name, kind = ?r.kind, "tournament created");
        Ok(view)
    }

    async fn join(&mut self, who: &Identity, id: &str, engine: Option<u8>) -> Result<(), String> {
        let i = self
            .find(id)
            .ok_or_else(|| format!("no tournament {id} is held here"))?;
        let held = &self.held[i];
        let kind = held.kind();
        let open = match (held.t.status.as_str(), kind) {
            ("waiting", _) => true,
            ("running", TournamentKind::Arena) => held.ends_ms().is_some_and(|e| now_ms() < e),
            ("running", TournamentKind::Swiss) => held.t.round < held.t.rounds,
            _ => false,
        };
        if !open {
            return Err("this tournament takes no more entries".into());
        }
        let limit = match kind {
            TournamentKind::Arena => MAX_ARENA,
            TournamentKind::Swiss => MAX_SWISS,
            TournamentKind::RoundRobin => MAX_ROUND_ROBIN,
        };
        let entrant = match engine {
            Some(level) => {
                if who.id.0 != held.t.creator {
                    return Err("only its creator adds engine seats".into());
                }
                if !held.t.bots {
                    return Err("bots may not enter this tournament".into());
                }
                if !(1..=20).contains(&level) {
                    return Err(format!("engine level {level} (1 to 20)"));
                }
                let k = held.entries.iter().filter(|e| e.engine.is_some()).count() + 1;
                StoredEntry {
                    entrant: format!("engine-{k}"),
                    number: None,
                    player: None,
                    name: format!("Engine {k} (level {level})"),
                    engine: Some(level),
                    bot: true,
                    rating: 1000.0 + 50.0 * f64::from(level),
                    joined_ms: now_ms(),
                    withdrawn: false,
                }
            }
            None => {
                if who.bot && !held.t.bots {
                    return Err("bots may not enter this tournament".into());
                }
                if held.t.rated && !who.account {
                    return Err("a rated tournament is for accounts: register first".into());
                }
                if let Some(e) = held.entry(&who.id.0) {
                    if !e.withdrawn {
                        return Err("you are in this tournament already".into());
                    }
                    let mut back = e.clone();
                    back.withdrawn = false;
                    back
                } else {
                    let speed = hexchess_protocol::speed_of_clock(
                        u64::from(held.t.minutes) * 60,
                        u64::from(held.t.increment),
                    );
                    let rating = self
                        .store
                        .rating(&who.id.0, &held.t.variant, speed)
                        .await
                        .map(|(r, _)| r.rating)
                        .unwrap_or(1500.0);
                    StoredEntry {
                        entrant: who.id.0.clone(),
                        number: None,
                        player: Some(who.id.0.clone()),
                        name: who.name.clone(),
                        engine: None,
                        bot: who.bot,
                        rating,
                        joined_ms: now_ms(),
                        withdrawn: false,
                    }
                }
            }
        };
        let returning = held.entry(&entrant.entrant).is_some();
        if !returning && held.entries.len() >= limit {
            return Err(format!("this tournament is full ({limit} players)"));
        }
        let mut entrant = entrant;
        // A late entry into a Swiss takes the next starting number.
        if held.t.status == "running" && entrant.number.is_none() {
            entrant.number = Some(
                held.entries
                    .iter()
                    .filter_map(|e| e.number)
                    .max()
                    .unwrap_or(0)
                    + 1,
            );
        }
        self.store
            .add_entry(id, &entrant)
            .await
            .map_err(|e| e.to_string())?;
        let held = &mut self.held[i];
        held.entries.retain(|e| e.entrant != entrant.entrant);
        held.entries.push(entrant);
        self.touched(id);
        Ok(())
    }

    async fn withdraw(&mut self, who: &PlayerId, id: &str) -> Result<(), String> {
        let i = self
            .find(id)
            .ok_or_else(|| format!("no tournament {id} is held here"))?;
        let held = &self.held[i];
        if held.t.status == "finished" {
            return Err("this tournament is over".into());
        }
        let entrant = match held.entry(&who.0) {
            Some(e) if !e.withdrawn => e.entrant.clone(),
            _ => return Err("you are not in this tournament".into()),
        };
        self.store
            .set_withdrawn(id, &entrant, true)
            .await
            .map_err(|e| e.to_string())?;
        if let Some(e) = self.held[i]
            .entries
            .iter_mut()
            .find(|e| e.entrant == entrant)
        {
            e.withdrawn = true;
        }
        self.touched(id);
        Ok(())
    }

    /// A game ended: its tournament counts it.
    async fn game_ended(&mut self, end: GameEnded) {
        let Some((id, round, board)) = self.by_game.get(&end.game).cloned() else {
            return;
        };
        let Some(i) = self.find(&id) else { return };
        let Some(p) = self.held[i]
            .pairings
            .iter()
            .find(|p| p.round == round && p.board == board)
            .cloned()
        else {
            return;
        };
        if p.result.is_some() {
            return;
        }
        self.record_result(i, &p, &end.result, end.plies, &end.berserk)
            .await;
        self.advance(i).await;
    }

    /// Stores a pairing's result (from the game's record, with the seats that went
    /// berserk), then counts it.
    async fn record_result(
        &mut self,
        i: usize,
        p: &StoredPairing,
        record: &str,
        plies: u32,
        berserk: &[usize],
    ) {
        let code = result_code(record, plies);
        let marks: String = [(0, 'w'), (1, 'b')]
            .iter()
            .filter(|(seat, _)| berserk.contains(seat))
            .map(|(_, m)| *m)
            .collect();
        let id = self.held[i].t.id.clone();
        if let Err(e) = self
            .store
            .set_pairing_result(&id, (p.round, p.board), &code, plies, &marks)
            .await
        {
            // Read back at the next start (the game's end is stored with the game).
            tracing::error!(tournament = %id, error = %e, "a result was not stored");
            return;
        }
        if let Some(q) = self.held[i]
            .pairings
            .iter_mut()
            .find(|q| q.round == p.round && q.board == p.board)
        {
            q.result = Some(code);
            q.plies = Some(plies);
            q.berserk = marks;
        }
        let now = Instant::now();
        for who in std::iter::once(&p.white).chain(p.black.as_ref()) {
            self.free_since.insert((id.clone(), who.clone()), now);
        }
        self.touched(&id);
    }

    async fn tick(&mut self) {
        for i in 0..self.held.len() {
            self.advance(i).await;
        }
        self.push();
    }

    /// Whatever the clock and the results call for: the start, the next round, an
    /// arena's pairings, the end.
    async fn advance(&mut self, i: usize) {
        let now = now_ms();
        let held = &self.held[i];
        match (held.t.status.as_str(), held.kind()) {
            ("waiting", _) if now >= held.t.starts_ms => self.begin(i).await,
            ("running", TournamentKind::Arena) => {
                let over = held.ends_ms().is_some_and(|e| now >= e);
                if !over {
                    self.pair_arena(i).await;
                } else if held.in_play().next().is_none() {
                    self.finish(i).await;
                }
            }
            ("running", _) if held.in_play().next().is_none() => {
                let total = held.total_rounds().unwrap_or(0);
                if held.t.round >= total {
                    self.finish(i).await;
                } else {
                    self.pair_round(i).await;
                }
            }
            _ => {}
        }
    }

    async fn finish(&mut self, i: usize) {
        let id = self.held[i].t.id.clone();
        let round = self.held[i].t.round;
        if let Err(e) = self
            .store
            .set_tournament_status(&id, "finished", round)
            .await
        {
            tracing::error!(tournament = %id, error = %e, "the end was not stored; tried again");
            return;
        }
        self.held[i].t.status = "finished".into();
        tracing::info!(tournament = %id, rounds = round, "tournament finished");
        self.touched(&id);
        // The list keeps the last finished ones only.
        let finished: Vec<usize> = (0..self.held.len())
            .filter(|&j| self.held[j].t.status == "finished")
            .collect();
        if finished.len() > FINISHED_SHOWN as usize {
            let gone = self.held.remove(finished[0]);
            self.by_game.retain(|_, (t, _, _)| *t != gone.t.id);
        }
    }

    /// The start: an arena opens; a Swiss or round robin numbers its entrants by
    /// rating and pairs its first round (fewer than two entrants: it ends).
    async fn begin(&mut self, i: usize) {
        let held = &self.held[i];
        let id = held.t.id.clone();
        if held.kind() == TournamentKind::Arena {
            if let Err(e) = self.store.set_tournament_status(&id, "running", 0).await {
                tracing::error!(tournament = %id, error = %e, "the start was not stored");
                return;
            }
            self.held[i].t.status = "running".into();
            self.touched(&id);
            return;
        }
        let mut active: Vec<&StoredEntry> = held.entries.iter().filter(|e| !e.withdrawn).collect();
        let too_many = held.kind() == TournamentKind::RoundRobin && active.len() > MAX_ROUND_ROBIN;
        if active.len() < 2 || too_many {
            self.finish(i).await;
            return;
        }
        active.sort_by(|a, b| {
            b.rating
                .partial_cmp(&a.rating)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.name.cmp(&b.name))
        });
        let numbers: Vec<(String, u32)> = active
            .iter()
            .enumerate()
            .map(|(k, e)| (e.entrant.clone(), k as u32 + 1))
            .collect();
        let mut numbered = held.clone();
        for e in &mut numbered.entries {
            e.number = numbers
                .iter()
                .find(|(k, _)| *k == e.entrant)
                .map(|(_, n)| *n);
        }
        numbered.t.status = "running".into();
        let pairings = match next_pairings(&numbered, 1) {
            Ok(p) => p,
            Err(why) => {
                tracing::error!(tournament = %id, %why, "the first round could not be paired");
                self.finish(i).await;
                return;
            }
        };
        if let Err(e) = self
            .store
            .start_tournament(&id, &numbers, 1, &pairings)
            .await
        {
            tracing::error!(tournament = %id, error = %e, "the start was not stored; tried again");
            return;
        }
        numbered.t.round = 1;
        self.held[i] = numbered;
        self.begin_round(i, pairings).await;
    }

    /// Pairs the next round of a Swiss or round robin.
    async fn pair_round(&mut self, i: usize) {
        let round = self.held[i].t.round + 1;
        let id = self.held[i].t.id.clone();
        let pairings = match next_pairings(&self.held[i], round) {
            Ok(p) => p,
            Err(why) => {
                tracing::error!(tournament = %id, round, %why, "a round could not be paired: the tournament ends");
                self.finish(i).await;
                return;
            }
        };
        if let Err(e) = self.store.add_pairings(&id, round, &pairings).await {
            tracing::error!(tournament = %id, error = %e, "a round was not stored; tried again");
            return;
        }
        self.held[i].t.round = round;
        self.begin_round(i, pairings).await;
    }

    /// Stored pairings come into play: their games start (a withdrawn player's game
    /// is forfeited at once; a bye stands as stored).
    async fn begin_round(&mut self, i: usize, pairings: Vec<StoredPairing>) {
        let id = self.held[i].t.id.clone();
        for p in &pairings {
            if let Some(g) = &p.game {
                self.by_game
                    .insert(g.clone(), (id.clone(), p.round, p.board));
            }
        }
        self.held[i].pairings.extend(pairings.iter().cloned());
        self.touched(&id);
        for p in pairings.iter().filter(|p| p.result.is_none()) {
            let held = self.held[i].clone();
            let gone = |who: &str| held.entry(who).is_none_or(|e| e.withdrawn);
            match (gone(&p.white), p.black.as_deref().is_some_and(gone)) {
                (false, false) => self.start_game(&held, p).await,
                (w, b) => {
                    let record = match (w, b) {
                        (true, true) => "*",
                        (true, false) => "0-1",
                        _ => "1-0",
                    };
                    self.record_result(i, p, record, 0, &[]).await;
                }
            }
        }
    }

    /// An arena pairs its free entrants: present (connected, or an engine seat), not
    /// in a game, their last game over for [`ARENA_PAUSE`].
    async fn pair_arena(&mut self, i: usize) {
        let Some(hub) = self.hub.upgrade() else {
            return;
        };
        let held = &self.held[i];
        let id = held.t.id.clone();
        let sheets = standings::arena_sheets(held);
        // One pass over the games: who plays now, each one's last opponent, whites.
        let mut busy = std::collections::HashSet::new();
        let mut last: HashMap<&str, &str> = HashMap::new();
        let mut whites: HashMap<&str, usize> = HashMap::new();
        for p in &held.pairings {
            let Some(black) = p.black.as_deref() else {
                continue;
            };
            if p.result.is_none() {
                busy.insert(p.white.as_str());
                busy.insert(black);
            }
            last.insert(p.white.as_str(), black);
            last.insert(black, p.white.as_str());
            *whites.entry(p.white.as_str()).or_default() += 1;
        }
        let free: Vec<Free<String>> = held
            .entries
            .iter()
            .filter(|e| !e.withdrawn && !busy.contains(e.entrant.as_str()))
            .filter(|e| {
                e.player
                    .as_ref()
                    .is_none_or(|p| hub.is_online(&PlayerId(p.clone())))
            })
            .filter(|e| {
                self.free_since
                    .get(&(id.clone(), e.entrant.clone()))
                    .is_none_or(|at| at.elapsed() >= ARENA_PAUSE)
            })
            .map(|e| Free {
                player: e.entrant.clone(),
                score: sheets.get(&e.entrant).map_or(0, |s| s.score()),
                rating: e.rating as i32,
                last_opponent: last.get(e.entrant.as_str()).map(|o| o.to_string()),
            })
            .collect();
        if free.len() < 2 {
            return;
        }
        // Two engine seats never meet in an arena: they would only farm points off
        // each other, and their games are the long ones.
        let engine = |who: &String| held.entry(who).is_some_and(|e| e.engine.is_some());
        let (pairs, _) = pair_free(free, |a, b| !(engine(a) && engine(b)));
        if pairs.is_empty() {
            return;
        }
        let wave = held.t.round + 1;
        let whites = |who: &str| whites.get(who).copied().unwrap_or(0);
        let pairings: Vec<StoredPairing> = pairs
            .into_iter()
            .enumerate()
            .map(|(board, (a, b))| {
                // Whoever had white less often takes it.
                let (white, black) = if whites(&a) <= whites(&b) {
                    (a, b)
                } else {
                    (b, a)
                };
                StoredPairing {
                    round: wave,
                    board: board as u32 + 1,
                    game: Some(new_code(12)),
                    white,
                    black: Some(black),
                    result: None,
                    plies: None,
                    berserk: String::new(),
                }
            })
            .collect();
        if let Err(e) = self.store.add_pairings(&id, wave, &pairings).await {
            tracing::error!(tournament = %id, error = %e, "arena pairings were not stored");
            return;
        }
        self.held[i].t.round = wave;
        self.begin_round(i, pairings).await;
    }

    /// Starts a pairing's game (its id chosen with the pairing), and tells its players.
    async fn start_game(&mut self, held: &Held, p: &StoredPairing) {
        let Some(hub) = self.hub.upgrade() else {
            return;
        };
        let Some(game) = &p.game else { return };
        let seat = |who: &str| -> Option<SeatHolder> {
            let e = held.entry(who)?;
            Some(match (&e.player, e.engine) {
                (_, Some(level)) => SeatHolder::Engine { level },
                (Some(id), None) => SeatHolder::Player {
                    id: PlayerId(id.clone()),
                    name: e.name.clone(),
                    bot: e.bot,
                },
                (None, None) => return None,
            })
        };
        let (Some(white), Some(black)) = (seat(&p.white), p.black.as_deref().and_then(seat)) else {
            return;
        };
        if let Err(e) = hub.start_game(game, &held.t, vec![white, black]).await {
            tracing::error!(tournament = %held.t.id, game, error = %e, "a tournament game did not start");
        }
    }

    /// Sends what changed, once a second at most: each changed tournament's view to
    /// its followers (its first [`PUSHED_LINES`] lines), the list to the list's.
    fn push(&mut self) {
        if self.pushed.elapsed() < PUSH_EVERY {
            return;
        }
        self.pushed = Instant::now();
        for id in std::mem::take(&mut self.changed) {
            let Some(i) = self.find(&id) else { continue };
            let text = self.view_message(i);
            self.followers
                .retain(|_, (t, out)| *t != id || out.set_list(List::Standings, text.clone()));
        }
        if std::mem::take(&mut self.list_changed) {
            let text = self.list_message().to_text();
            self.list_followers
                .retain(|(_, out)| out.set_list(List::Tournaments, text.clone()));
        }
    }
}

/// A result code from white's side for a game's record (`1-0` ...) and length: a
/// game whose loser never moved is a forfeit, not a game played.
fn result_code(record: &str, plies: u32) -> String {
    let share = |s: &str| -> Option<f64> {
        match s.split_once('/') {
            Some((n, d)) => Some(n.trim().parse::<f64>().ok()? / d.trim().parse::<f64>().ok()?),
            None => s.trim().parse().ok(),
        }
    };
    let Some((w, b)) = record.split_once('-') else {
        return "--".into();
    };
    let (Some(w), Some(b)) = (share(w), share(b)) else {
        return "--".into();
    };
    let code = if w > b {
        if plies <= 1 { "+" } else { "1" }
    } else if b > w {
        if plies == 0 { "-" } else { "0" }
    } else {
        "="
    };
    code.into()
}

/// The pairings of round `round` of a Swiss (the Dutch system, over its TRF) or a
/// round robin (Berger tables), each game's id chosen now.
fn next_pairings(held: &Held, round: u32) -> Result<Vec<StoredPairing>, String> {
    let by_number: HashMap<u32, &str> = held
        .entries
        .iter()
        .filter_map(|e| Some((e.number?, e.entrant.as_str())))
        .collect();
    let entrant = |n: Number| by_number.get(&n.0).map(|s| s.to_string());
    let mut boards: Vec<(String, Option<String>, Option<String>)> = Vec::new();
    match held.kind() {
        TournamentKind::Swiss => {
            let trf = standings::trf_of(held, Some(round));
            let pairings = swiss::pair_next_round(&trf).map_err(|e| e.to_string())?;
            for b in pairings.boards {
                let (Some(w), Some(bl)) = (entrant(b.white), entrant(b.black)) else {
                    return Err("a pairing named a player not entered".into());
                };
                boards.push((w, Some(bl), None));
            }
            if let Some(bye) = pairings.bye.and_then(entrant) {
                boards.push((bye, None, Some("U".into())));
            }
        }
        TournamentKind::RoundRobin => {
            let n = by_number.len() as u32;
            let cycles = if held.t.rounds >= 2 {
                Cycles::Double
            } else {
                Cycles::Single
            };
            let table = round_robin::rounds(n, cycles).map_err(|e| e.to_string())?;
            let this = table
                .get(round as usize - 1)
                .ok_or_else(|| format!("round {round} is past the table"))?;
            for b in this {
                match *b {
                    round_robin::Board::Game { white, black } => {
                        let (Some(w), Some(bl)) = (entrant(white), entrant(black)) else {
                            return Err("a table named a player not entered".into());
                        };
                        boards.push((w, Some(bl), None));
                    }
                    round_robin::Board::Bye(p) => {
                        if let Some(p) = entrant(p) {
                            boards.push((p, None, Some("Z".into())));
                        }
                    }
                }
            }
        }
        TournamentKind::Arena => return Err("an arena has no rounds".into()),
    }
    Ok(boards
        .into_iter()
        .enumerate()
        .map(|(k, (white, black, result))| StoredPairing {
            round,
            board: k as u32 + 1,
            game: black.as_ref().map(|_| new_code(12)),
            white,
            black,
            result,
            plies: None,
            berserk: String::new(),
        })
        .collect())
}

/// A request checked against the server's ranges: the tournament to store.
fn check_request(
    hub: &impl Host,
    who: &Identity,
    r: &TournamentRequest,
) -> Result<StoredTournament, String> {
    let name = r.name.trim();
    if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
        return Err("a tournament's name has 1 to 40 characters, on one line".into());
    }
    hub.check_game(&r.variant, r.minutes, r.increment)?;
    if r.starts_in > 7 * 24 * 3600 {
        return Err("a tournament starts within a week".into());
    }
    let first_move = r.first_move_seconds.unwrap_or(30);
    if !(5..=300).contains(&first_move) {
        return Err("5 to 300 seconds for a first move".into());
    }
    let (seconds, rounds) = match r.kind {
        TournamentKind::Arena => {
            let s = r.seconds.unwrap_or(3600);
            if !(10..=3 * 3600).contains(&s) {
                return Err("an arena lasts 10 seconds to 3 hours".into());
            }
            (s, 0)
        }
        TournamentKind::Swiss => {
            let n = r.rounds.unwrap_or(0);
            if !(1..=MAX_SWISS_ROUNDS).contains(&n) {
                return Err(format!("a Swiss has 1 to {MAX_SWISS_ROUNDS} rounds"));
            }
            (0, n)
        }
        TournamentKind::RoundRobin => {
            let n = r.rounds.unwrap_or(1);
            if !(1..=2).contains(&n) {
                return Err("a round robin goes round once or twice (rounds 1 or 2)".into());
            }
            (0, n)
        }
    };
    Ok(StoredTournament {
        id: new_code(8),
        kind: r.kind.name().into(),
        name: name.into(),
        variant: r.variant.clone(),
        minutes: r.minutes,
        increment: r.increment,
        rated: r.rated,
        bots: r.bots,
        creator: who.id.0.clone(),
        creator_name: who.name.clone(),
        starts_ms: now_ms() + i64::from(r.starts_in) * 1000,
        seconds,
        rounds,
        first_move,
        berserk: r.berserk && r.kind == TournamentKind::Arena,
        status: "waiting".into(),
        round: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_read_from_white_s_side() {
        assert_eq!(result_code("1-0", 40), "1");
        assert_eq!(result_code("0-1", 40), "0");
        assert_eq!(result_code("1/2-1/2", 40), "=");
        assert_eq!(
            result_code("3/4-1/4", 40),
            "1",
            "Gliński's stalemate counts as a win"
        );
        assert_eq!(result_code("1-0", 1), "+", "black never moved: a forfeit");
        assert_eq!(result_code("0-1", 0), "-", "white never moved: a forfeit");
        assert_eq!(result_code("0-1", 1), "0", "white moved: a game");
        assert_eq!(result_code("*", 0), "--");
    }
}
