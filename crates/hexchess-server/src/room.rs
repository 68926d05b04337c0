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

use hexchess_core::pgn::PgnGame;
use hexchess_core::{GameOutcome, Rules, Side};
use hexchess_protocol::{
    Ack, AwaySeat, ChatLine, ChatRoom, ErrorMessage, FromServer, GameEvent, GameState, Joined,
    RatingChange, Refused, SeatRating, ServerMessage,
};
use tokio::sync::{Semaphore, mpsc};
use tokio::time::Instant;

use crate::chat::{CHAT_BURST, CHAT_WINDOW, ChatRefusal, MAX_CHAT_LINES, Muted, checked_text};
use crate::engine_seat;
use crate::history::{Audience, CatchUp, Sent};
use crate::hosted::{HostedGame, PlayerId, Refusal, Status};
use crate::lists::{Brief, ListChanges};
use crate::metrics::Metrics;
use crate::rate::RateLimit;
use crate::ratings::{Rating, TableRating, is_provisional, rate_game, rate_table};
use crate::seat::SeatHolder;
use crate::store::{Changes, GameEnd, NewRating, Store, StoreError};

pub use crate::outbox::Outbox;

/// A connection's number, unique while the server runs.
pub type ConnId = u64;

/// Spectators one game takes at most (its players always get in).
pub const MAX_SPECTATORS: usize = 500;

/// How long a room waits before it tries its timers or its engine again after the
/// database failed to store a change (the change was undone; no one was told of it).
const RETRY_AFTER_STORE_FAILED: Duration = Duration::from_secs(1);

/// What a connection asks of a game.
#[derive(Debug)]
pub enum RoomCommand {
    /// Follow the game from version `seen` (none: from a full view).
    Join {
        /// The connection.
        conn: ConnId,
        /// Its player, if signed in (a spectator may be anonymous).
        who: Option<PlayerId>,
        /// The last version it has.
        seen: Option<u64>,
        /// Where its messages go.
        out: Outbox,
        /// The names whose chat it hides.
        muted: Muted,
    },
    /// Stop following: the player closed the game, or the connection was lost.
    Leave {
        /// The connection.
        conn: ConnId,
        /// Whether the player left (not the connection lost).
        on_purpose: bool,
    },
    /// A step for the ply named.
    Move {
        /// The player.
        who: PlayerId,
        /// Steps played before it, as the client counts them.
        ply: u32,
        /// The step, in the protocol's long notation.
        step: String,
        /// The client's number for it, echoed in `ack` or `refused`.
        ack: u64,
        /// The client's own measure of its lag.
        lag: Duration,
        /// Where the answer goes.
        out: Outbox,
        /// When the connection read it (the relay's start).
        received: Instant,
    },
    /// A line for the game's chat.
    Chat {
        /// Who says it.
        who: PlayerId,
        /// Their name as the chat shows it.
        name: String,
        /// Whether they have an account (spectators need one to chat).
        account: bool,
        /// What they say.
        text: String,
        /// Where a refusal goes.
        out: Outbox,
    },
    /// Anything else a player does (resign, offer a draw ...).
    Act {
        /// The player.
        who: PlayerId,
        /// What they do.
        act: Act,
        /// Where a refusal goes.
        out: Outbox,
    },
}

/// The other things a player may do in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    /// Give the game up.
    Resign,
    /// Offer a draw, or accept one on the table.
    Draw,
    /// Decline the draw offers on the table.
    Decline,
    /// Call the game off before every side has moved.
    Abort,
    /// Claim the game from a player who stays away.
    Claim,
    /// Go berserk (an arena's game, before one's first move).
    Berserk,
}

/// A game's lasting facts, as stored with it.
#[derive(Clone, Debug)]
pub struct GameFacts {
    /// The game's id.
    pub id: String,
    /// The variant's id.
    pub variant: String,
    /// Whether it moves ratings.
    pub rated: bool,
    /// `bullet` ... `classical`, or `correspondence`, or `untimed`.
    pub speed: String,
    /// Who sits in each seat, in seat order.
    pub seats: Vec<SeatHolder>,
    /// Correspondence: days for each move.
    pub days: Option<u32>,
    /// When the game started (ms since 1970): its record's date.
    pub started_ms: i64,
    /// The time control as the database keeps it (a rematch plays it again).
    pub control: String,
}

/// What every room shares: the database, the server's clock, and the lists.
#[derive(Clone, Debug)]
pub struct RoomContext {
    /// The database.
    pub store: Store,
    /// The server's start: times in a game are durations since it.
    pub origin: Instant,
    /// Every game's brief, by id: what the lists show.
    pub briefs: Arc<Mutex<HashMap<String, Brief>>>,
    /// How long a finished game's room stays open to its followers.
    pub linger: Duration,
    /// How long a correspondence day lasts (a day; shorter in tests).
    pub day: Duration,
    /// The server's counters and histograms.
    pub metrics: Arc<Metrics>,
    /// At most this many engine seats think at once, server-wide.
    pub engines: Arc<Semaphore>,
    /// What changed in the lists the hub pushes.
    pub lists: Arc<ListChanges>,
    /// Where each stored end is told, once a director of tournaments listens (they
    /// count their games by it).
    pub game_ends: Arc<std::sync::OnceLock<mpsc::UnboundedSender<GameEnded>>>,
}

/// A game's end as stored: its result (`1-0`, `0-1`, `1/2-1/2` ..., `*` aborted) and
/// how many steps it had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnded {
    /// The game's id.
    pub game: String,
    /// The result as the record has it.
    pub result: String,
    /// Steps played.
    pub plies: u32,
    /// The seats that went berserk.
    pub berserk: Vec<usize>,
}

/// What a tournament's game carries in its stored time control, beyond the clock:
/// the tournament, and how long a side has for its first move.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TournamentMark {
    /// The tournament's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// Seconds a side has for its first move before it loses the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move: Option<u64>,
    /// Whether its players may go berserk (an arena that allows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub berserk: Option<bool>,
    /// The seats gone berserk (stored as they go: the tournament counts them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub berserk_seats: Vec<usize>,
}

impl TournamentMark {
    /// The mark in a stored time control (none for other games).
    pub fn of_control(control: &str) -> TournamentMark {
        serde_json::from_str(control).unwrap_or_default()
    }
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
    /// The names whose chat it hides.
    muted: Muted,
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
    /// What the database holds of the game: its steps, its event version, and
    /// whether its end. Nothing newer is ever sent.
    stored: Stored,
    stored_state: StoredState,
    /// When the last move was played (a correspondence move's days count from it).
    last_move: SystemTime,
    /// After the database failed to store a change: timers and the engine wait until
    /// then.
    hold_until: Option<Instant>,
    /// The chat, oldest first, each line with the version that told it (0 for lines
    /// told before a restart).
    chat: Vec<(u64, ChatLine)>,
    /// Each chatting player's lines in the window (at most one per line kept).
    chat_limits: HashMap<PlayerId, RateLimit>,
    /// Each seat's rating in this variant and speed (none for an engine seat, or
    /// until read).
    ratings: Vec<Option<SeatRating>>,
    /// This room's fencing token for its game (0 where one process holds every game):
    /// its writes are refused once another owner has taken the game with a newer one.
    fence: u64,
    /// Set when a write was refused for a newer owner: the room ends.
    lost: bool,
    /// A tournament's game: its first moves are timed, and it cannot be aborted.
    mark: TournamentMark,
    /// When the side on move began its turn (its first move is timed from it).
    turn_began: Instant,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stored {
    plies: u32,
    version: u64,
    end: bool,
    /// Chat lines stored.
    chat: usize,
}

/// What the database holds of the game beyond its steps and version: each seat's time
/// left after the last stored move, and the draw offers stored. A change the database
/// refused is undone by replaying the stored steps to these (a failure's rare path: the
/// usual one clones nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct StoredState {
    clocks: Option<Vec<Duration>>,
    offers: Vec<usize>,
}

/// The answer to a command that changed the game, sent once the change is stored (or
/// a refusal in its place when it could not be).
struct Reply {
    out: Outbox,
    answer: ServerMessage,
    /// A move's `ack` (its refusal carries it too).
    ack: Option<u64>,
    /// A move's arrival, for the relay's time.
    received: Option<Instant>,
}

/// Sends one message to a follower; false when its outbox has ended (a connection
/// that does not read is closed, and catches up when it joins again).
fn send(out: &Outbox, message: &ServerMessage) -> bool {
    out.send(message.to_text())
}

/// Sends one of the game's numbered messages to a follower, as [`send`].
fn send_event(out: &Outbox, message: &FromServer) -> bool {
    out.send(message.to_text())
}

impl Room {
    /// A room for `hosted` as the database holds it (its steps and version; its end not
    /// yet, even when its steps end it: a restart between the last step's write and
    /// the end's stores the end now), its last move played at `last_move`.
    pub fn new(
        facts: GameFacts,
        hosted: HostedGame,
        narrow: Option<Arc<Rules>>,
        context: RoomContext,
        last_move: SystemTime,
        chat: Vec<ChatLine>,
    ) -> Room {
        let (engine_tx, engine_rx) = mpsc::unbounded_channel();
        let stored = Stored {
            plies: hosted.ply(),
            version: hosted.version(),
            end: false,
            chat: chat.len(),
        };
        let seats = facts.seats.len();
        let stored_state = StoredState {
            clocks: hosted.clocks(context.now()),
            offers: hosted.draw_offers(),
        };
        let mark = TournamentMark::of_control(&facts.control);
        let mut hosted = hosted;
        for &seat in &mark.berserk_seats {
            hosted.restore_berserk(seat);
        }
        Room {
            mark,
            turn_began: Instant::now(),
            facts,
            hosted,
            narrow,
            context,
            followers: Vec::new(),
            thinking: None,
            engine_tx,
            engine_rx,
            stored,
            stored_state,
            last_move,
            hold_until: None,
            chat: chat.into_iter().map(|line| (0, line)).collect(),
            chat_limits: HashMap::new(),
            ratings: vec![None; seats],
            fence: 0,
            lost: false,
        }
    }

    /// The room of a game node that took the game with fencing token `fence`: its
    /// writes are refused once a newer owner has taken the game.
    pub fn fenced(mut self, fence: u64) -> Room {
        self.fence = fence;
        self
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
        self.context.metrics.games_in_play.inc();
        self.read_ratings().await;
        self.settle(None).await;
        while !self.lost {
            let now = self.context.now();
            let held = |at: Instant| self.hold_until.map_or(at, |h| h.max(at));
            let flag_at = self.hosted.flag_due(now).map(|d| held(Instant::now() + d));
            let days_at = self.move_deadline().map(|at| {
                let left = at.duration_since(SystemTime::now()).unwrap_or_default();
                held(Instant::now() + left)
            });
            let engine_at = self.hold_until.filter(|_| self.thinking.is_none());
            let first_move_at = self
                .mark
                .first_move
                .filter(|_| self.hosted.first_moves_pending())
                .map(|s| held(self.turn_began + Duration::from_secs(s)));
            let idle_until = (self.stored.end && self.followers.is_empty())
                .then(|| Instant::now() + self.context.linger);
            tokio::select! {
                command = mailbox.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                Some((ply, steps)) = self.engine_rx.recv() => {
                    self.engine_played(ply, steps);
                    self.settle(None).await;
                }
                () = sleep_until(flag_at), if flag_at.is_some() => {
                    self.hosted.check_flag(self.context.now());
                    self.settle(None).await;
                }
                () = sleep_until(days_at), if days_at.is_some() => {
                    self.hosted.out_of_days();
                    self.settle(None).await;
                }
                () = sleep_until(first_move_at), if first_move_at.is_some() => {
                    self.hosted.first_move_missed();
                    self.settle(None).await;
                }
                () = sleep_until(engine_at), if engine_at.is_some() => {
                    self.hold_until = None;
                    self.start_engine();
                }
                () = sleep_until(idle_until), if idle_until.is_some() => break,
            }
        }
        if let Some((stop, _)) = &self.thinking {
            stop.store(true, Ordering::Relaxed);
        }
        if let Ok(mut briefs) = self.context.briefs.lock() {
            let gone = briefs.remove(&self.facts.id);
            self.context.lists.game_closed(gone.as_ref());
        }
        self.context.metrics.games_in_play.dec();
    }

    /// When the side on move runs out of its days (correspondence games in play).
    fn move_deadline(&self) -> Option<SystemTime> {
        let days = self.facts.days?;
        if self.hosted.status() != Status::Playing {
            return None;
        }
        let allowed = self.context.day.checked_mul(days)?;
        self.last_move.checked_add(allowed)
    }

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Join {
                conn,
                who,
                seen,
                out,
                muted,
            } => {
                // Back: stored and told to the others before the joiner catches up.
                if let Some(who) = &who {
                    self.hosted.returned(who);
                    self.settle(None).await;
                }
                self.join(conn, who, seen, out, muted);
            }
            RoomCommand::Chat {
                who,
                name,
                account,
                text,
                out,
            } => match self.say(&who, name, account, &text) {
                Ok(()) => self.settle(None).await,
                Err(why) => {
                    send(
                        &out,
                        &ServerMessage::Error(ErrorMessage {
                            game: Some(self.facts.id.clone()),
                            message: why.to_string(),
                        }),
                    );
                }
            },
            RoomCommand::Leave { conn, on_purpose } => {
                self.leave(conn, on_purpose);
                self.settle(None).await;
            }
            RoomCommand::Move {
                who,
                ply,
                step,
                ack,
                lag,
                out,
                received,
            } => {
                let now = self.context.now();
                let answer = match self.hosted.play(&who, ply, &step, now, lag) {
                    Ok(_) => ServerMessage::Ack(Ack {
                        game: self.facts.id.clone(),
                        ack,
                    }),
                    Err(refusal) => self.refused(&who, Some(ack), &refusal),
                };
                let reply = Reply {
                    out,
                    answer,
                    ack: Some(ack),
                    received: Some(received),
                };
                self.settle(Some(reply)).await;
            }
            RoomCommand::Act { who, act, out } => {
                let now = self.context.now();
                let done = match act {
                    Act::Resign => self.hosted.resign(&who).map(|_| ()),
                    Act::Draw => self.hosted.offer_draw(&who).map(|_| ()),
                    Act::Decline => self.hosted.decline_draw(&who),
                    Act::Abort if self.mark.tournament.is_some() => {
                        Err(crate::hosted::Refusal::TournamentGame)
                    }
                    Act::Abort => self.hosted.abort(&who),
                    Act::Berserk => self.berserk(&who).await,
                    Act::Claim => self.hosted.claim_victory(&who, now).map(|_| ()),
                };
                let reply = done.err().map(|refusal| Reply {
                    answer: self.refused(&who, None, &refusal),
                    out,
                    ack: None,
                    received: None,
                });
                self.settle(reply).await;
            }
        }
    }

    /// `who` goes berserk: allowed by the tournament, then stored with the game's
    /// mark before anyone is told (the tournament scores it from there).
    async fn berserk(&mut self, who: &PlayerId) -> Result<(), crate::hosted::Refusal> {
        if self.mark.berserk != Some(true) {
            return Err(crate::hosted::Refusal::NoBerserk);
        }
        let side = self.hosted.berserk(who)?;
        let mut mark = self.mark.clone();
        mark.berserk_seats.push(side.index());
        let mut control: serde_json::Value =
            serde_json::from_str(&self.facts.control).unwrap_or_default();
        if let (Some(fields), Ok(serde_json::Value::Object(more))) =
            (control.as_object_mut(), serde_json::to_value(&mark))
        {
            fields.extend(more);
        }
        let text = control.to_string();
        if let Err(e) = self
            .context
            .store
            .set_game_control(&self.facts.id, &text)
            .await
        {
            tracing::error!(game = %self.facts.id, error = %e, "a berserk was not stored, and undone");
            self.back_to_stored();
            return Err(crate::hosted::Refusal::NotAllowed(
                "the server could not store this: send it again in a moment".into(),
            ));
        }
        self.facts.control = text;
        self.mark = mark;
        Ok(())
    }

    /// A refusal's message; a client out of step gets the whole game with it.
    fn refused(&self, who: &PlayerId, ack: Option<u64>, refusal: &Refusal) -> ServerMessage {
        ServerMessage::Refused(Box::new(Refused {
            game: self.facts.id.clone(),
            ack,
            why: refusal.to_string(),
            state: (*refusal == Refusal::OutOfStep).then(|| {
                let muted = self
                    .followers
                    .iter()
                    .find(|f| f.who.as_ref() == Some(who))
                    .map(|f| f.muted.clone())
                    .unwrap_or_default();
                self.view_for(Some(who), &muted)
            }),
        }))
    }

    /// After anything that may have changed the game: what changed is stored, and only
    /// then is it told (the reply to the command, the followers' events); the lists
    /// learn whose turn it is, and an engine on move starts thinking. When the database
    /// fails, the game goes back to what the database holds, the command is refused, and
    /// no one hears of it: every event a client was sent is in the database.
    async fn settle(&mut self, reply: Option<Reply>) {
        match self.store_changes().await {
            Ok(()) => {
                // The lists first: a player told of the end may ask for a rematch at
                // once, and the hub reads from the brief that the game is over.
                self.write_brief();
                if let Some(r) = &reply {
                    send(&r.out, &r.answer);
                }
                self.send_news();
                // A follower found gone on the way is away: its opponents are told once
                // that is stored too (if it cannot be now, the next change stores it).
                if self.hosted.version() != self.stored.version
                    && self.store_changes().await.is_ok()
                {
                    self.send_news();
                }
                if let Some(received) = reply.and_then(|r| r.received) {
                    self.context.metrics.relay(received.elapsed());
                }
            }
            Err(e @ StoreError::Fenced { .. }) => {
                // Another node holds the game now: nothing more is written or told
                // here (the command's client hears from the new owner).
                tracing::warn!(game = %self.facts.id, error = %e, "the game was taken over; its room here ends");
                self.context.metrics.writes_fenced.inc();
                self.lost = true;
                return;
            }
            Err(e) => {
                tracing::error!(game = %self.facts.id, error = %e, "a change was not stored, and undone");
                self.back_to_stored();
                self.thinking = None;
                self.hold_until = Some(Instant::now() + RETRY_AFTER_STORE_FAILED);
                if let Some(r) = reply {
                    let answer = ServerMessage::Refused(Box::new(Refused {
                        game: self.facts.id.clone(),
                        ack: r.ack,
                        why: "the server could not store this: send it again in a moment".into(),
                        state: None,
                    }));
                    send(&r.out, &answer);
                }
            }
        }
        self.write_brief();
        if self.hold_until.is_none() {
            self.start_engine();
        }
    }

    /// Stores what the game has that the database does not: new steps, the event
    /// version, the draw offers, the end (with the record and the ratings), in one
    /// transaction.
    async fn store_changes(&mut self) -> Result<(), StoreError> {
        let now = self.context.now();
        let over = self.hosted.status() != Status::Playing;
        // The end first: its ratings are an event of their own, stored with it.
        let (end, new_ratings) = if over && !self.stored.end {
            let (end, changes) = self.ending().await?;
            if changes.iter().any(Option::is_some) {
                self.hosted.tell(
                    Audience::Everyone,
                    GameEvent::Rated {
                        changes: changes.clone(),
                    },
                );
            }
            (Some(end), changes)
        } else {
            (None, Vec::new())
        };
        let plies = self.hosted.ply();
        let version = self.hosted.version();
        let target = Stored {
            plies,
            version,
            end: over,
            chat: self.chat.len(),
        };
        if target == self.stored {
            return Ok(());
        }
        let steps = self.hosted.sent_steps()[self.stored.plies as usize..plies as usize].to_vec();
        let new_steps = steps.len() as u64;
        let clocks = self.hosted.clocks(now).map(|c| {
            let ms: Vec<u64> = c.iter().map(|d| d.as_millis() as u64).collect();
            serde_json::to_string(&ms).unwrap_or_default()
        });
        let offer_seats = self.hosted.draw_offers();
        let changes = Changes {
            first_ply: self.stored.plies,
            steps,
            version,
            clocks,
            offers: serde_json::to_string(&offer_seats).unwrap_or_default(),
            first_line: self.stored.chat as u32,
            chat: self.chat[self.stored.chat..].to_vec(),
            end,
            fence: self.fence,
        };
        let started = Instant::now();
        self.context
            .store
            .save_game(&self.facts.id, changes)
            .await?;
        self.context.metrics.commit(started.elapsed());
        if let Some(ends) = self
            .context
            .game_ends
            .get()
            .filter(|_| over && !self.stored.end)
        {
            let _ = ends.send(GameEnded {
                game: self.facts.id.clone(),
                result: self.hosted.result_text(),
                plies,
                berserk: self.mark.berserk_seats.clone(),
            });
        }
        if new_steps > 0 {
            self.turn_began = Instant::now();
            self.last_move = SystemTime::now();
            self.context.metrics.moves.inc_by(new_steps);
            self.stored_state.clocks = self.hosted.clocks(now);
        }
        self.stored_state.offers = offer_seats;
        self.stored = target;
        for (seat, change) in new_ratings.iter().enumerate() {
            if let Some(change) = change {
                self.ratings[seat] = Some(SeatRating {
                    rating: change.after,
                    provisional: change.provisional,
                });
            }
        }
        Ok(())
    }

    /// The game as the database holds it: its stored steps replayed, its stored clocks
    /// and offers (the clock on move runs again from now). Followers that saw nothing
    /// newer go on as they were; the event log starts again from the stored version, so
    /// a client behind it resyncs.
    fn back_to_stored(&mut self) {
        self.chat.truncate(self.stored.chat);
        let rules = Arc::clone(self.hosted.game().position().rules_arc());
        let steps = &self.hosted.sent_steps()[..self.stored.plies as usize];
        let restored = HostedGame::restore(
            hexchess_core::Game::new(rules),
            self.hosted.seats().to_vec(),
            self.hosted.control(),
            steps,
            self.stored.version,
            self.stored_state.clocks.as_deref(),
            self.context.now(),
        );
        match restored {
            Ok(mut game) => {
                game.restore_offers(&self.stored_state.offers);
                self.hosted = game;
            }
            // The stored steps were played once already: they replay.
            Err(why) => {
                tracing::error!(game = %self.facts.id, %why, "the stored steps did not replay")
            }
        }
    }

    fn join(
        &mut self,
        conn: ConnId,
        who: Option<PlayerId>,
        seen: Option<u64>,
        out: Outbox,
        muted: Muted,
    ) {
        self.followers.retain(|f| f.conn != conn);
        let seated = who
            .as_ref()
            .is_some_and(|w| !self.hosted.seats_of(w).is_empty());
        let watching = self
            .followers
            .iter()
            .filter(|f| {
                f.who
                    .as_ref()
                    .is_none_or(|w| self.hosted.seats_of(w).is_empty())
            })
            .count();
        if !seated && watching >= MAX_SPECTATORS {
            let full = ErrorMessage {
                game: Some(self.facts.id.clone()),
                message: format!("this game has {MAX_SPECTATORS} spectators, the most it takes"),
            };
            send(&out, &ServerMessage::Error(full));
            return;
        }
        // A join is answered by the whole game, or by the events missed and then
        // `joined` (so a client knows it is in step even when it missed nothing).
        let joined = ServerMessage::Joined(Joined {
            game: self.facts.id.clone(),
            v: self.hosted.version(),
        });
        let sent = match seen.map(|v| self.hosted.catch_up(who.as_ref(), v)) {
            Some(CatchUp::UpToDate) => send(&out, &joined),
            Some(CatchUp::Events(events)) => {
                self.send_events(&out, events, &muted) && send(&out, &joined)
            }
            Some(CatchUp::Resync) | None => send(&out, &self.state_for(who.as_ref(), &muted)),
        };
        if sent {
            self.followers.push(Follower {
                conn,
                who,
                out,
                seen: self.hosted.version(),
                muted,
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

    /// Sends events to one follower, a muted author's lines as their numbers alone.
    fn send_events(&self, out: &Outbox, events: Vec<Sent>, muted: &Muted) -> bool {
        events
            .into_iter()
            .all(|e| send_event(out, &muted.filter(e).to_message(&self.facts.id)))
    }

    /// Adds a line to the chat (in memory: the caller stores it, then tells it), or
    /// says why not.
    fn say(
        &mut self,
        who: &PlayerId,
        name: String,
        account: bool,
        text: &str,
    ) -> Result<(), ChatRefusal> {
        let text = checked_text(text)?;
        let room = if self.hosted.is_seated(who) {
            ChatRoom::Players
        } else if account {
            ChatRoom::Spectators
        } else {
            return Err(ChatRefusal::NoAccount);
        };
        if self.chat.len() >= MAX_CHAT_LINES {
            return Err(ChatRefusal::Full);
        }
        let now = self.context.now();
        let limit = self
            .chat_limits
            .entry(who.clone())
            .or_insert_with(|| RateLimit::new(CHAT_BURST, CHAT_WINDOW, now));
        if !limit.allow(now) {
            return Err(ChatRefusal::TooFast(limit.retry_after(now)));
        }
        let line = ChatLine {
            from: name,
            text,
            room,
        };
        let audience = match room {
            ChatRoom::Players => Audience::Everyone,
            ChatRoom::Spectators => Audience::Spectators,
        };
        let version = self.hosted.tell(audience, GameEvent::Chat(line.clone()));
        self.chat.push((version, line));
        Ok(())
    }

    /// Each player's rating in this variant and speed, as the bars show it (a failed
    /// read leaves a seat without one: it is shown, not relied on).
    async fn read_ratings(&mut self) {
        let table = self.facts.seats.len() > 2;
        for (seat, holder) in self.facts.seats.iter().enumerate() {
            let SeatHolder::Player { id, .. } = holder else {
                continue;
            };
            let read = self
                .context
                .store
                .rating(&id.0, &self.facts.variant, &self.facts.speed)
                .await;
            if let Ok((rating, games)) = read {
                self.ratings[seat] = Some(seat_rating(rating, games, table));
            }
        }
    }

    /// The whole game as `who` sees it (a spectator's chat too; a muted author's lines
    /// left out), with the seats' names and the game's facts.
    fn view_for(&self, who: Option<&PlayerId>, muted: &Muted) -> GameState {
        let rules = self.hosted.game().position().rules();
        let spectator = who.is_none_or(|w| !self.hosted.is_seated(w));
        GameState {
            game: self.facts.id.clone(),
            rated: self.facts.rated,
            speed: self.facts.speed.clone(),
            deadline_ms: self.move_deadline().and_then(|at| {
                at.duration_since(SystemTime::UNIX_EPOCH)
                    .ok()
                    .map(|d| d.as_millis() as u64)
            }),
            names: self.facts.seats.iter().map(SeatHolder::name).collect(),
            bots: self.facts.seats.iter().map(SeatHolder::is_bot).collect(),
            ratings: self.ratings.clone(),
            away: self
                .hosted
                .away_seats(self.context.now())
                .into_iter()
                .map(|(side, left)| AwaySeat {
                    side: rules.side_name(side).to_string(),
                    claim_in_ms: left.as_millis() as u64,
                })
                .collect(),
            chat: self
                .chat
                .iter()
                .map(|(_, line)| line)
                .filter(|line| spectator || line.room == ChatRoom::Players)
                .filter(|line| muted.shows(line))
                .cloned()
                .collect(),
            you: who
                .map(|w| self.hosted.seats_of(w))
                .unwrap_or_default()
                .into_iter()
                .map(|s| rules.side_name(s).to_string())
                .collect(),
            board: self.hosted.view_for(who, self.context.now()),
        }
    }

    /// The whole game as a `state` message.
    fn state_for(&self, who: Option<&PlayerId>, muted: &Muted) -> ServerMessage {
        ServerMessage::State(Box::new(self.view_for(who, muted)))
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
                CatchUp::Events(events) => self.send_events(&f.out, events, &f.muted),
                CatchUp::Resync => send(&f.out, &self.state_for(f.who.as_ref(), &f.muted)),
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

    /// Puts the game's brief (who plays, whose turn, over or not) in the lists.
    pub(crate) fn write_brief(&self) {
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
            seats: self.facts.seats.clone(),
            rated: self.facts.rated,
            control: self.facts.control.clone(),
        };
        if let Ok(mut briefs) = self.context.briefs.lock() {
            let old = briefs.get(&self.facts.id);
            self.context.lists.brief_changed(old, &brief);
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
        let engines = Arc::clone(&self.context.engines);
        // At most so many engine seats think at once, server-wide: the others wait
        // their turn (a game against the engine is slower under load, the server not).
        tokio::spawn(async move {
            let Ok(permit) = engines.acquire_owned().await else {
                return;
            };
            if flag.load(Ordering::Relaxed) {
                return;
            }
            let thought = tokio::task::spawn_blocking(move || {
                let steps =
                    engine_seat::think(&game, narrow, engine_seat::level(Some(level)), left, &flag);
                drop(permit);
                steps
            })
            .await;
            if let Ok(steps) = thought {
                let _ = tx.send((ply, steps));
            }
        });
        self.thinking = Some((stop, ply));
    }

    /// Plays the engine's steps for the turn it was asked at `ply` (in memory: the
    /// caller stores them).
    fn engine_played(&mut self, ply: u32, steps: Vec<String>) {
        if self.hosted.ply() != ply {
            return;
        }
        let seat = self.hosted.game().side_to_move().index();
        let who = self.facts.seats[seat].id(seat);
        let now = self.context.now();
        for (i, step) in steps.iter().enumerate() {
            if let Err(refusal) = self
                .hosted
                .play(&who, ply + i as u32, step, now, Duration::ZERO)
            {
                tracing::error!(game = %self.facts.id, step = %step, %refusal, "the engine's step was refused");
                break;
            }
        }
    }

    /// The end as stored: its status (`over` or `aborted`), result, why, the record,
    /// and each player's new rating when the game is rated.
    async fn ending(&self) -> Result<(GameEnd, Vec<Option<RatingChange>>), StoreError> {
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
        let rated = match (self.facts.rated, outcome) {
            (true, Some(end)) => self.rate(&end).await?,
            _ => Vec::new(),
        };
        let table = self.facts.seats.len() > 2;
        let changes = (0..self.facts.seats.len())
            .map(|seat| {
                rated.get(seat).map(|(new, before)| RatingChange {
                    before: before.rating,
                    after: new.rating.rating,
                    provisional: is_provisional(new.rating, new.games, table),
                })
            })
            .collect();
        let end = GameEnd {
            status,
            result,
            why,
            pgn,
            ratings: rated.into_iter().map(|(new, _)| new).collect(),
        };
        Ok((end, changes))
    }

    fn pgn(&self, outcome: Option<&GameOutcome>) -> String {
        let names: Vec<String> = self.facts.seats.iter().map(SeatHolder::name).collect();
        let (date, time) = utc_date_time(self.facts.started_ms);
        let mut tags = vec![
            ("Event", "hexchess online".to_string()),
            ("Site", format!("hexchess-server, game {}", self.facts.id)),
            ("Date", date.clone()),
            ("UTCDate", date),
            ("UTCTime", time),
        ];
        if names.len() == 2 {
            tags.push(("White", names[0].clone()));
            tags.push(("Black", names[1].clone()));
        } else {
            tags.push(("Players", names.join(", ")));
        }
        let mut pgn = PgnGame::from_game(self.hosted.game(), None, &tags);
        match outcome {
            Some(end) => pgn.set_outcome(end),
            None => pgn.set_tag("Result", "*"),
        }
        pgn.to_string()
    }

    /// New ratings for every player of a rated game: Glicko-2 for two, Weng-Lin for a
    /// table (kept in the same columns: skill, uncertainty). None for a game with an
    /// engine (never rated).
    async fn rate(&self, end: &GameOutcome) -> Result<Vec<(NewRating, Rating)>, StoreError> {
        let store = &self.context.store;
        let (variant, speed) = (&self.facts.variant, &self.facts.speed);
        let mut players = Vec::new();
        for seat in &self.facts.seats {
            let SeatHolder::Player { id, .. } = seat else {
                return Ok(Vec::new());
            };
            players.push((id.clone(), store.rating(&id.0, variant, speed).await?));
        }
        let new_rating = |id: &PlayerId, rating: Rating, games: u32| NewRating {
            player: id.0.clone(),
            variant: variant.clone(),
            speed: speed.clone(),
            rating,
            games: games + 1,
        };
        if players.len() == 2 {
            let (white, black) = rate_game(players[0].1.0, players[1].1.0, end);
            return Ok(players
                .iter()
                .zip([white, black])
                .map(|((id, (before, games)), rating)| (new_rating(id, rating, *games), *before))
                .collect());
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
        Ok(players
            .iter()
            .zip(&table)
            .zip(rate_table(&table, end))
            .map(|(((id, (_, games)), before), new)| {
                let rating = |r: TableRating| Rating {
                    rating: r.skill,
                    deviation: r.uncertainty,
                    volatility: 0.0,
                };
                (new_rating(id, rating(new), *games), rating(*before))
            })
            .collect())
    }
}

/// A rating as the players' bars (and the lobby's seeks) show it.
pub(crate) fn seat_rating(rating: Rating, games: u32, table: bool) -> SeatRating {
    if table && games == 0 {
        return SeatRating {
            rating: TableRating::NEW.skill,
            provisional: true,
        };
    }
    SeatRating {
        rating: rating.rating,
        provisional: is_provisional(rating, games, table),
    }
}

/// A moment (ms since 1970) as PGN writes it: the date `YYYY.MM.DD` and the time
/// `HH:MM:SS`, both in UTC (the proleptic Gregorian calendar, from the days since 1970
/// by Howard Hinnant's `civil_from_days`).
pub fn utc_date_time(ms: i64) -> (String, String) {
    let secs = ms.div_euclid(1000);
    let (days, of_day) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{year:04}.{month:02}.{day:02}"),
        format!(
            "{:02}:{:02}:{:02}",
            of_day / 3600,
            of_day / 60 % 60,
            of_day % 60
        ),
    )
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::utc_date_time;

    #[test]
    fn a_moment_is_written_as_pgn_dates_it() {
        // Counted by hand from known days: 1970-01-01 is day 0; 2000-02-29 is day
        // 11,016 (30 years of 365 days, 7 leap days, 59 days of 2000); 2026-12-07 at
        // 03:57:45 is 1,796,615,865 s (20,794 days: 56 years, 14 leap days, 340 days
        // into 2026).
        assert_eq!(utc_date_time(0), ("1970.01.01".into(), "00:00:00".into()));
        assert_eq!(
            utc_date_time(11_016 * 86_400_000 + 1_000),
            ("2000.02.29".into(), "00:00:01".into())
        );
        assert_eq!(
            utc_date_time(1_796_615_865_000),
            ("2026.12.07".into(), "03:57:45".into())
        );
        assert_eq!(utc_date_time(-1), ("1969.12.31".into(), "23:59:59".into()));
    }
}
