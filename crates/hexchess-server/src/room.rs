//! A game in play on the server: one task that owns its [`HostedGame`] and is the only
//! one to change it (lila's `RoundAsyncActor`). Connections send it commands through
//! its mailbox; it checks them, stores each move before anyone hears of it, then
//! sends every follower the events it has not seen, each as its seat may see them.
//! It also runs the game's timer (the flag) and the engine's seats.
//!
//! The mailbox is the seam where games would move to other machines: a command is
//! plain data, and so is everything a room sends out (JSON text to an outbox), so
//! both could cross a broker instead of a channel (docs/online.md, "Beyond one
//! machine").

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use hexchess_core::record::GameRecord;
use hexchess_core::{GameOutcome, Rules, Side};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::engine_seat;
use crate::history::CatchUp;
use crate::hosted::{HostedGame, PlayerId, Refusal, Status};
use crate::ratings::{Rating, TableRating, rate_game, rate_table};
use crate::store::Store;

/// Where a room sends a connection's messages: JSON text, in order.
pub type Outbox = mpsc::Sender<String>;

/// A connection's number, unique while the server runs.
pub type ConnId = u64;

/// What a connection asks of a game.
#[derive(Debug)]
pub enum RoomCommand {
    /// Follow the game from version `seen` (none: from a full view).
    Join {
        conn: ConnId,
        who: Option<PlayerId>,
        seen: Option<u64>,
        out: Outbox,
    },
    /// Stop following: the player closed the game, or the connection was lost.
    Leave { conn: ConnId, on_purpose: bool },
    Move {
        who: PlayerId,
        ply: u32,
        step: String,
        ack: u64,
        lag: Duration,
        out: Outbox,
    },
    Act {
        who: PlayerId,
        act: Act,
        out: Outbox,
    },
}

/// The other things a player may do in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    Resign,
    Draw,
    Abort,
    Claim,
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatHolder {
    Player {
        id: PlayerId,
        name: String,
    },
    /// The built-in engine at a level.
    Engine {
        level: u8,
    },
}

impl SeatHolder {
    pub fn name(&self) -> String {
        match self {
            SeatHolder::Player { name, .. } => name.clone(),
            SeatHolder::Engine { level } => format!("hexchess engine, level {level}"),
        }
    }

    /// The id the hosted game knows this seat's holder by (each engine seat its own).
    fn id(&self, seat: usize) -> PlayerId {
        match self {
            SeatHolder::Player { id, .. } => id.clone(),
            SeatHolder::Engine { .. } => PlayerId(format!("@engine{seat}")),
        }
    }
}

/// A game's lasting facts, as stored with it.
#[derive(Clone, Debug)]
pub struct GameFacts {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    /// `bullet` ... `classical`, or `correspondence`, or `untimed`.
    pub speed: String,
    pub seats: Vec<SeatHolder>,
    /// Correspondence: days for each move.
    pub days: Option<u32>,
}

/// What the server's lists show of a game in progress: who plays, and whose turn it
/// is (the "your turn" list).
#[derive(Clone, Debug, PartialEq)]
pub struct Brief {
    pub variant: String,
    pub speed: String,
    pub names: Vec<String>,
    pub players: Vec<Option<PlayerId>>,
    pub to_move: Option<PlayerId>,
    pub over: bool,
}

/// What every room shares: the database, the server's clock, and the lists.
#[derive(Clone, Debug)]
pub struct RoomContext {
    pub store: Store,
    /// The server's start: times in a game are durations since it.
    pub origin: Instant,
    pub briefs: Arc<Mutex<HashMap<String, Brief>>>,
    /// How long a finished game's room stays open to its followers.
    pub linger: Duration,
    /// How long a correspondence day lasts (a day; shorter in tests).
    pub day: Duration,
}

impl RoomContext {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// One follower of the game.
#[derive(Debug)]
struct Follower {
    conn: ConnId,
    who: Option<PlayerId>,
    out: Outbox,
    /// The newest version it was sent.
    seen: u64,
}

/// A room's running state.
pub struct Room {
    facts: GameFacts,
    hosted: HostedGame,
    /// The variant's two-player rules (the two-player engine searches on them).
    narrow: Option<Arc<Rules>>,
    context: RoomContext,
    followers: Vec<Follower>,
    /// The engine thinking for a seat: its stop flag, and the ply it started at.
    thinking: Option<(Arc<AtomicBool>, u32)>,
    engine_tx: mpsc::UnboundedSender<(u32, Vec<String>)>,
    engine_rx: mpsc::UnboundedReceiver<(u32, Vec<String>)>,
    /// The end is stored (and rated).
    finished: bool,
    /// When the last move was played (a correspondence move's days count from it).
    last_move: SystemTime,
}

/// Sends one message to a follower; false when its outbox is full or gone (a
/// connection that does not read: it is dropped, and catches up when it joins again).
fn send(out: &Outbox, message: &Value) -> bool {
    out.try_send(message.to_string()).is_ok()
}

impl Room {
    /// A room for `hosted`, its last move played at `last_move`.
    pub fn new(
        facts: GameFacts,
        hosted: HostedGame,
        narrow: Option<Arc<Rules>>,
        context: RoomContext,
        last_move: SystemTime,
    ) -> Room {
        let (engine_tx, engine_rx) = mpsc::unbounded_channel();
        let finished = hosted.status() != Status::Playing;
        Room {
            facts,
            hosted,
            narrow,
            context,
            followers: Vec::new(),
            thinking: None,
            engine_tx,
            engine_rx,
            finished,
            last_move,
        }
    }

    /// The ids each seat is known by in the hosted game.
    pub fn seat_ids(seats: &[SeatHolder]) -> Vec<Option<PlayerId>> {
        seats
            .iter()
            .enumerate()
            .map(|(i, s)| Some(s.id(i)))
            .collect()
    }

    /// Runs the room until its game is over and no one has followed it for a while.
    pub async fn run(mut self, mut mailbox: mpsc::Receiver<RoomCommand>) {
        self.after_change().await;
        loop {
            let now = self.context.now();
            let flag_at = self.hosted.flag_due(now).map(|d| Instant::now() + d);
            let days_at = self.move_deadline().map(|at| {
                let left = at.duration_since(SystemTime::now()).unwrap_or_default();
                Instant::now() + left
            });
            let idle_until = (self.finished && self.followers.is_empty())
                .then(|| Instant::now() + self.context.linger);
            tokio::select! {
                command = mailbox.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                Some((ply, steps)) = self.engine_rx.recv() => self.engine_played(ply, steps).await,
                () = sleep_until(flag_at), if flag_at.is_some() => {
                    self.hosted.check_flag(self.context.now());
                }
                () = sleep_until(days_at), if days_at.is_some() => {
                    self.hosted.out_of_days();
                }
                () = sleep_until(idle_until), if idle_until.is_some() => break,
            }
            self.after_change().await;
        }
        if let Some((stop, _)) = &self.thinking {
            stop.store(true, Ordering::Relaxed);
        }
        if let Ok(mut briefs) = self.context.briefs.lock() {
            briefs.remove(&self.facts.id);
        }
    }

    /// When the side on move runs out of its days (correspondence games in play).
    fn move_deadline(&self) -> Option<SystemTime> {
        let days = self.facts.days?;
        (self.hosted.status() == Status::Playing).then(|| self.last_move + self.context.day * days)
    }

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Join {
                conn,
                who,
                seen,
                out,
            } => self.join(conn, who, seen, out),
            RoomCommand::Leave { conn, on_purpose } => self.leave(conn, on_purpose),
            RoomCommand::Move {
                who,
                ply,
                step,
                ack,
                lag,
                out,
            } => {
                let answer = match self.play(&who, ply, &step, lag).await {
                    Ok(()) => json!({ "t": "ack", "game": self.facts.id, "ack": ack }),
                    Err(refusal) => self.refused(&who, Some(ack), &refusal),
                };
                send(&out, &answer);
            }
            RoomCommand::Act { who, act, out } => {
                let now = self.context.now();
                let done = match act {
                    Act::Resign => self.hosted.resign(&who).map(|_| ()),
                    Act::Draw => self.hosted.offer_draw(&who).map(|_| ()),
                    Act::Abort => self.hosted.abort(&who),
                    Act::Claim => self.hosted.claim_victory(&who, now).map(|_| ()),
                };
                if let Err(refusal) = done {
                    send(&out, &self.refused(&who, None, &refusal));
                }
            }
        }
    }

    /// A refusal's message; a client out of step gets the whole game with it.
    fn refused(&self, who: &PlayerId, ack: Option<u64>, refusal: &Refusal) -> Value {
        let mut answer = json!({
            "t": "refused",
            "game": self.facts.id,
            "why": refusal.to_string(),
        });
        if let Some(ack) = ack {
            answer["ack"] = json!(ack);
        }
        if *refusal == Refusal::OutOfStep {
            answer["state"] = self.view_for(Some(who));
        }
        answer
    }

    /// Plays a step, stores it, and only then lets it be known (the caller's ack, the
    /// followers' events).
    async fn play(
        &mut self,
        who: &PlayerId,
        ply: u32,
        step: &str,
        lag: Duration,
    ) -> Result<(), Refusal> {
        let now = self.context.now();
        let played = self.hosted.play(who, ply, step, now, lag)?;
        if played.resent {
            return Ok(());
        }
        self.last_move = SystemTime::now();
        let clocks = self.hosted.clocks(now).map(|c| {
            let ms: Vec<u64> = c.iter().map(|d| d.as_millis() as u64).collect();
            json!(ms).to_string()
        });
        let stored = self
            .context
            .store
            .add_step(
                &self.facts.id,
                ply,
                step,
                self.hosted.version(),
                clocks.as_deref(),
            )
            .await;
        if let Err(e) = stored {
            // The move stands in memory and the players hear of it; the next restart
            // would lose it. Said loudly: the database is failing.
            eprintln!("hexchess-server: game {}: {e}", self.facts.id);
        }
        Ok(())
    }

    fn join(&mut self, conn: ConnId, who: Option<PlayerId>, seen: Option<u64>, out: Outbox) {
        self.followers.retain(|f| f.conn != conn);
        if let Some(who) = &who {
            self.hosted.returned(who);
        }
        // A join is answered by the whole game, or by the events missed and then
        // `joined` (so a client knows it is in step even when it missed nothing).
        let joined = json!({ "t": "joined", "game": self.facts.id, "v": self.hosted.version() });
        let sent = match seen.map(|v| self.hosted.catch_up(who.as_ref(), v)) {
            Some(CatchUp::UpToDate) => send(&out, &joined),
            Some(CatchUp::Events(events)) => {
                events
                    .iter()
                    .all(|e| send(&out, &self.event_json(e.to_json())))
                    && send(&out, &joined)
            }
            Some(CatchUp::Resync) | None => send(&out, &self.view_for(who.as_ref())),
        };
        if sent {
            self.followers.push(Follower {
                conn,
                who,
                out,
                seen: self.hosted.version(),
            });
        }
    }

    fn leave(&mut self, conn: ConnId, on_purpose: bool) {
        let Some(i) = self.followers.iter().position(|f| f.conn == conn) else {
            return;
        };
        let gone = self.followers.remove(i);
        let Some(who) = gone.who else { return };
        // Still here on another connection (another tab, a reconnect that came first).
        if self.followers.iter().any(|f| f.who.as_ref() == Some(&who)) {
            return;
        }
        self.hosted.left(&who, self.context.now(), on_purpose);
    }

    /// The whole game as `who` sees it, with the seats' names and the game's facts.
    fn view_for(&self, who: Option<&PlayerId>) -> Value {
        let mut view = self.hosted.view_for(who, self.context.now());
        view["game"] = json!(self.facts.id);
        view["rated"] = json!(self.facts.rated);
        view["speed"] = json!(self.facts.speed);
        view["deadline_ms"] = json!(self.move_deadline().and_then(|at| {
            at.duration_since(SystemTime::UNIX_EPOCH)
                .ok()
                .map(|d| d.as_millis() as u64)
        }));
        view["names"] = json!(
            self.facts
                .seats
                .iter()
                .map(SeatHolder::name)
                .collect::<Vec<_>>()
        );
        let rules = self.hosted.game().position().rules();
        let mine: Vec<&str> = who
            .map(|w| self.hosted.seats_of(w))
            .unwrap_or_default()
            .into_iter()
            .map(|s| rules.side_name(s))
            .collect();
        view["you"] = json!(mine);
        view
    }

    fn event_json(&self, mut event: Value) -> Value {
        event["game"] = json!(self.facts.id);
        event
    }

    /// After anything: the followers hear what is new, the lists learn whose turn it
    /// is, a finished game is stored and rated, and an engine on move starts thinking.
    async fn after_change(&mut self) {
        self.send_news();
        self.write_brief();
        if !self.finished && self.hosted.status() != Status::Playing {
            self.finished = true;
            self.store_end().await;
        }
        self.start_engine();
    }

    fn send_news(&mut self) {
        let version = self.hosted.version();
        let mut gone = Vec::new();
        for (i, f) in self.followers.iter().enumerate() {
            if f.seen == version {
                continue;
            }
            let ok = match self.hosted.catch_up(f.who.as_ref(), f.seen) {
                CatchUp::UpToDate => true,
                CatchUp::Events(events) => events
                    .iter()
                    .all(|e| send(&f.out, &self.event_json(e.to_json()))),
                CatchUp::Resync => send(&f.out, &self.view_for(f.who.as_ref())),
            };
            if !ok {
                gone.push(i);
            }
        }
        for f in &mut self.followers {
            f.seen = version;
        }
        for i in gone.into_iter().rev() {
            let f = self.followers.remove(i);
            if let Some(who) = f.who {
                self.hosted.left(&who, self.context.now(), false);
            }
        }
    }

    fn write_brief(&self) {
        let brief = Brief {
            variant: self.facts.variant.clone(),
            speed: self.facts.speed.clone(),
            names: self.facts.seats.iter().map(SeatHolder::name).collect(),
            players: self
                .facts
                .seats
                .iter()
                .map(|s| match s {
                    SeatHolder::Player { id, .. } => Some(id.clone()),
                    SeatHolder::Engine { .. } => None,
                })
                .collect(),
            to_move: self.hosted.on_move().cloned(),
            over: self.hosted.status() != Status::Playing,
        };
        if let Ok(mut briefs) = self.context.briefs.lock() {
            briefs.insert(self.facts.id.clone(), brief);
        }
    }

    /// The engine's turn, when a seat of its is on move.
    fn start_engine(&mut self) {
        let Some(on_move) = self.hosted.on_move() else {
            return;
        };
        let seat = self.hosted.game().side_to_move().index();
        let SeatHolder::Engine { level } = self.facts.seats[seat] else {
            return;
        };
        let ply = self.hosted.ply();
        if self.thinking.as_ref().is_some_and(|(_, at)| *at == ply) {
            return;
        }
        debug_assert!(on_move.0.starts_with("@engine"));
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.hosted.game().clone();
        let narrow = self.narrow.clone();
        let left = self
            .hosted
            .time_left(Side::from_index(seat), self.context.now());
        let tx = self.engine_tx.clone();
        let flag = Arc::clone(&stop);
        tokio::task::spawn_blocking(move || {
            let steps =
                engine_seat::think(&game, narrow, engine_seat::level(Some(level)), left, &flag);
            let _ = tx.send((ply, steps));
        });
        self.thinking = Some((stop, ply));
    }

    async fn engine_played(&mut self, ply: u32, steps: Vec<String>) {
        if self.hosted.ply() != ply {
            return;
        }
        let seat = self.hosted.game().side_to_move().index();
        let who = self.facts.seats[seat].id(seat);
        for (i, step) in steps.iter().enumerate() {
            if let Err(refusal) = self.play(&who, ply + i as u32, step, Duration::ZERO).await {
                eprintln!(
                    "hexchess-server: game {}: the engine's '{step}' refused: {refusal}",
                    self.facts.id
                );
                break;
            }
        }
    }

    /// Stores the end with the game's PGN, and rates a rated game.
    async fn store_end(&mut self) {
        let (status, result, why, outcome) = match self.hosted.status() {
            Status::Over(end) => (
                "over",
                end.result_text(),
                end.termination.to_string(),
                Some(end),
            ),
            _ => ("aborted", "*".to_string(), "aborted".to_string(), None),
        };
        let pgn = self.pgn(outcome.as_ref());
        let store = &self.context.store;
        if let Err(e) = store
            .finish_game(&self.facts.id, status, &result, &why, &pgn)
            .await
        {
            eprintln!("hexchess-server: game {}: {e}", self.facts.id);
        }
        if let (true, Some(end)) = (self.facts.rated, outcome)
            && let Err(e) = self.rate(&end).await
        {
            eprintln!("hexchess-server: game {}: {e}", self.facts.id);
        }
    }

    fn pgn(&self, outcome: Option<&GameOutcome>) -> String {
        let names: Vec<String> = self.facts.seats.iter().map(SeatHolder::name).collect();
        let mut tags = vec![
            ("Event", "hexchess online".to_string()),
            ("Site", format!("hexchess-server, game {}", self.facts.id)),
        ];
        if names.len() == 2 {
            tags.push(("White", names[0].clone()));
            tags.push(("Black", names[1].clone()));
        } else {
            tags.push(("Players", names.join(", ")));
        }
        let record = GameRecord::from_game(self.hosted.game(), None, &tags);
        let mut pgn = record.to_pgn();
        match outcome {
            Some(end) => pgn.set_outcome(end),
            None => pgn.set_tag("Result", "*"),
        }
        pgn.to_string()
    }

    /// New ratings for every player of a rated game: Glicko-2 for two, Weng-Lin for a
    /// table (kept in the same columns: skill, uncertainty).
    async fn rate(&self, end: &GameOutcome) -> Result<(), crate::store::StoreError> {
        let store = &self.context.store;
        let (variant, speed) = (&self.facts.variant, &self.facts.speed);
        let mut players = Vec::new();
        for seat in &self.facts.seats {
            let SeatHolder::Player { id, .. } = seat else {
                return Ok(()); // an engine's game is never rated
            };
            players.push((id.clone(), store.rating(&id.0, variant, speed).await?));
        }
        if players.len() == 2 {
            let (white, black) = rate_game(players[0].1.0, players[1].1.0, end);
            for ((id, (_, games)), rating) in players.iter().zip([white, black]) {
                store
                    .set_rating(&id.0, variant, speed, rating, games + 1)
                    .await?;
            }
            return Ok(());
        }
        let table: Vec<TableRating> = players
            .iter()
            .map(|(_, (r, games))| {
                if *games == 0 {
                    TableRating::NEW
                } else {
                    TableRating {
                        skill: r.rating,
                        uncertainty: r.deviation,
                    }
                }
            })
            .collect();
        for ((id, (_, games)), new) in players.iter().zip(rate_table(&table, end)) {
            let rating = Rating {
                rating: new.skill,
                deviation: new.uncertainty,
                volatility: 0.0,
            };
            store
                .set_rating(&id.0, variant, speed, rating, games + 1)
                .await?;
        }
        Ok(())
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
