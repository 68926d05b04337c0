//! A game the server holds: the core's one [`Game`] for every variant (two sides or
//! more), who sits in each seat, the clocks, and the numbered events every client
//! follows. The server is the authority: only a seat's owner moves for it, every step
//! is checked by the rules, a step sent twice is played once, the clocks are the
//! server's, and every end (by the rules, a flag, a resignation, a draw agreed, an
//! abort) is decided here.

use std::time::Duration;

use hexchess_core::{Cell, Game, GameOutcome, Phase, Setup, Side, Step, Termination};
use hexchess_protocol::{BoardView, GameEvent, RevealedStep};

use crate::clock::{Clock, Flagged, TimeControl};
use crate::history::{Audience, CatchUp, EventLog, KEPT_EVENTS, Viewer};
use crate::message::{MoveCheck, check_move};

/// Who a player is to the server (an account, or an anonymous player's secret id).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub String);

/// Why a request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The player holds no seat in this game.
    NotSeated,
    /// The seat on move is another's.
    NotYourTurn,
    /// The game has ended.
    GameOver,
    /// The move names a ply the game is not at (the client resyncs).
    OutOfStep,
    /// Not a step the rules allow now, with what the rules said.
    NotAllowed(String),
    /// A step the rules allow, not written in the protocol's long notation (SAN is
    /// for people: a typo in it may name another move): what was sent, and the step's
    /// long form.
    NotLongNotation {
        /// What was sent.
        sent: String,
        /// The step in long notation.
        long: String,
    },
    /// An abort once every seat has moved.
    TooLateToAbort,
    /// A claim of victory while the seat on move is present, or before every side has
    /// moved.
    NothingToClaim,
    /// A claim of victory before the absent player's wait is over: this long is left.
    TooEarlyToClaim(Duration),
    /// A decline with no other seat's draw offer on the table.
    NoDrawOffered,
    /// An abort of a tournament's game (its result counts: resign instead).
    TournamentGame,
    /// Berserk where it is not allowed: another game, after one's first move, twice.
    NoBerserk,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotSeated => f.write_str("you hold no seat in this game"),
            Refusal::NotYourTurn => f.write_str("it is not your turn"),
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::OutOfStep => f.write_str("that move is for another ply: resync"),
            Refusal::NotAllowed(why) => write!(f, "not allowed: {why}"),
            Refusal::NotLongNotation { sent, long } => write!(
                f,
                "'{sent}' is not in the protocol's long notation (from cell, to cell: \
                 '{long}'); steps are sent as the `legal` list writes them"
            ),
            Refusal::TooLateToAbort => f.write_str("every side has moved: resign instead"),
            Refusal::NoDrawOffered => f.write_str("no draw is offered to you"),
            Refusal::NoBerserk => f.write_str(
                "berserk is for an arena's game that allows it, once, before your first move",
            ),
            Refusal::TournamentGame => {
                f.write_str("a tournament's game cannot be aborted: resign instead")
            }
            Refusal::NothingToClaim => {
                f.write_str("the side on move is here, or not every side has moved")
            }
            Refusal::TooEarlyToClaim(left) => {
                write!(f, "they may still come back: {} s more", left.as_secs() + 1)
            }
        }
    }
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Still on.
    Playing,
    /// Ended, and how.
    Over(GameOutcome),
    /// Called off before every side had moved: no result.
    Aborted,
}

/// What a move request did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The newest event version after it.
    pub version: u64,
    /// The step had already been played (a resend): nothing changed.
    pub resent: bool,
}

/// A game on the server.
#[derive(Clone, Debug)]
pub struct HostedGame {
    game: Game,
    seats: Vec<Option<PlayerId>>,
    clock: Option<Clock>,
    log: EventLog,
    /// Each step played, as its mover sent it, by ply: a resend compares equal.
    sent: Vec<String>,
    /// Each step by ply as the game writes it, and the seat that alone may see it
    /// until the reveal (a hidden deployment's), for a full view of the game.
    written: Vec<(String, Option<Side>)>,
    /// The side that played each ply (only its player may send that step again).
    movers: Vec<Side>,
    /// Where each hidden deployment put its piece, until the reveal.
    hidden_cells: Vec<(Side, Cell)>,
    status: Status,
    /// The sides offering a draw now.
    draw_offers: Vec<Side>,
    /// `[seat]`: since when its player has been away, if they are.
    away: Vec<Option<Away>>,
}

/// A player gone from a game: since when, and whether they left on purpose (closed
/// the game) or their connection was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Away {
    since: Duration,
    on_purpose: bool,
}

/// How long an opponent must wait before claiming a game whose player left on
/// purpose (lichess: 10 s).
pub const CLAIM_AFTER_LEAVING: Duration = Duration::from_secs(10);
/// ...and after a lost connection, in a blitz game (lichess: 40 s; twice that in a
/// rapid game, three times in a classical or untimed one).
pub const CLAIM_AFTER_DISCONNECT: Duration = Duration::from_secs(40);

impl HostedGame {
    /// A game of `game` with a player (or none yet) for each seat, and a clock.
    pub fn new(game: Game, seats: Vec<Option<PlayerId>>, control: Option<TimeControl>) -> Self {
        let sides = game.sides().count();
        let mut seats = seats;
        seats.resize(sides, None);
        HostedGame {
            clock: control.map(|c| Clock::new(c, sides)),
            game,
            seats,
            log: EventLog::starting_at(0, KEPT_EVENTS),
            sent: Vec::new(),
            written: Vec::new(),
            movers: Vec::new(),
            hidden_cells: Vec::new(),
            status: Status::Playing,
            draw_offers: Vec::new(),
            away: vec![None; sides],
        }
    }

    /// A game the server held before it stopped, from its stored steps (as their movers
    /// sent them), its event version and each seat's time left: the clock of the seat
    /// on move starts again at `now`, and clients that saw an older version resync.
    pub fn restore(
        game: Game,
        seats: Vec<Option<PlayerId>>,
        control: Option<TimeControl>,
        steps: &[String],
        version: u64,
        left: Option<&[Duration]>,
        now: Duration,
    ) -> Result<HostedGame, String> {
        let mut hosted = HostedGame::new(game, seats, control);
        for (ply, text) in steps.iter().enumerate() {
            let step = hosted
                .game
                .parse_step(text)
                .map_err(|e| format!("ply {ply} '{text}': {e}"))?;
            let hidden = hosted.is_hidden(step);
            let side = hosted.game.side_to_move();
            let lan = hosted.game.step_lan(step);
            let report = hosted
                .game
                .play(step)
                .map_err(|e| format!("ply {ply} '{text}': {e}"))?;
            hosted.keep_step(text, lan, side, step, hidden);
            if hosted.game.position().phase() != Phase::Setup {
                hosted.written.iter_mut().for_each(|(_, only)| *only = None);
                hosted.hidden_cells.clear();
            }
            if let Some(end) = report.end {
                hosted.status = Status::Over(end);
            }
        }
        hosted.log = EventLog::starting_at(version, KEPT_EVENTS);
        let turns = hosted.game.turns().len();
        let on_move = hosted.game.side_to_move();
        if let (Some(clock), Some(left)) = (hosted.clock.as_mut(), left) {
            clock.restore(left);
            if turns >= hosted.seats.len() && hosted.status == Status::Playing {
                clock.start(on_move, now);
            }
        }
        Ok(hosted)
    }

    /// The game as the rules hold it.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The time control, when timed.
    pub fn control(&self) -> Option<TimeControl> {
        self.clock.as_ref().map(|c| c.control())
    }

    /// Who holds each seat (none: open, or an engine the caller tracks).
    pub fn seats(&self) -> &[Option<PlayerId>] {
        &self.seats
    }

    /// The player whose seat is on move, while the game is on.
    pub fn on_move(&self) -> Option<&PlayerId> {
        if self.status != Status::Playing {
            return None;
        }
        self.seats[self.game.side_to_move().index()].as_ref()
    }

    /// The steps as their movers sent them, by ply (what a restart replays).
    pub fn sent_steps(&self) -> &[String] {
        &self.sent
    }

    /// The newest event version.
    pub fn version(&self) -> u64 {
        self.log.version()
    }

    /// Every seat's time left at `now`, with a clock.
    pub fn clocks(&self, now: Duration) -> Option<Vec<Duration>> {
        let clock = self.clock.as_ref()?;
        Some(self.game.sides().map(|s| clock.left(s, now)).collect())
    }

    /// How long from `now` until the running clock's flag falls (for the server's
    /// timer).
    pub fn flag_due(&self, now: Duration) -> Option<Duration> {
        if self.status != Status::Playing {
            return None;
        }
        let clock = self.clock.as_ref()?;
        let side = clock.running()?;
        Some(clock.left(side, now) + clock.quota(side).grace())
    }

    /// The whole game as `who` may see it: every step (a hidden deployment of another
    /// seat as `null` before the reveal), the clocks, the status and the version the
    /// view is at. A client that joins, or resyncs, starts from this.
    pub fn view_for(&self, who: Option<&PlayerId>, now: Duration) -> BoardView {
        let viewer = self.viewer(who);
        let rules = self.game.position().rules();
        let steps = self
            .written
            .iter()
            .map(|(step, only)| match (only, viewer) {
                (None, _) => Some(step.clone()),
                (Some(side), Viewer::Seat(me)) if *side == me => Some(step.clone()),
                _ => None,
            })
            .collect();
        let (result, why) = match self.status {
            Status::Playing => (None, None),
            Status::Over(end) => (Some(end.result_text()), Some(end.termination.to_string())),
            Status::Aborted => (Some("*".to_string()), Some("aborted".to_string())),
        };
        let points = match self.status {
            Status::Over(end) => Some(self.points(end)),
            _ => None,
        };
        BoardView {
            variant: rules.id().to_string(),
            steps,
            to_move: rules.side_name(self.game.side_to_move()).to_string(),
            legal: self.legal_texts(),
            ply: self.ply(),
            // While deployments are hidden: the position as this viewer may see it
            // (the hidden steps are `null` in `steps`).
            view_fen: self.view_fen(viewer),
            clocks_ms: self
                .clocks(now)
                .map(|c| c.iter().map(|d| d.as_millis() as u64).collect()),
            running: self
                .clock
                .as_ref()
                .and_then(|c| c.running())
                .map(|s| rules.side_name(s).to_string()),
            draw_offers: self
                .draw_offers
                .iter()
                .map(|s| rules.side_name(*s).to_string())
                .collect(),
            result,
            why,
            points,
            v: self.log.version(),
        }
    }

    /// Each seat's points in thousandths (a third of a point is 333).
    fn points(&self, end: GameOutcome) -> Vec<u32> {
        self.game
            .sides()
            .map(|s| u32::from(end.points(s).millis()))
            .collect()
    }

    /// The result as a record writes it (`*` while on, or aborted).
    pub fn result_text(&self) -> String {
        match self.status {
            Status::Over(end) => end.result_text(),
            _ => "*".to_string(),
        }
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The seats offering a draw now, by number (what the store keeps).
    pub fn draw_offers(&self) -> Vec<usize> {
        self.draw_offers.iter().map(|s| s.index()).collect()
    }

    /// The draw offers that stood when the game was stored (after [`HostedGame::restore`]);
    /// seats the game does not have, or sides out of the game, are left out.
    pub fn restore_offers(&mut self, seats: &[usize]) {
        let sides_in = self.game.sides_in();
        self.draw_offers = self
            .game
            .sides()
            .filter(|s| seats.contains(&s.index()) && sides_in.contains(s))
            .collect();
    }

    /// The time `side` has left at `now`, with a clock.
    pub fn time_left(&self, side: Side, now: Duration) -> Option<Duration> {
        self.clock.as_ref().map(|c| c.left(side, now))
    }

    /// The seats `who` holds (several at one screen).
    pub fn seats_of(&self, who: &PlayerId) -> Vec<Side> {
        self.game
            .sides()
            .filter(|s| self.seats[s.index()].as_ref() == Some(who))
            .collect()
    }

    /// How `who` sees the game's events: as the player of its (first) seat, or as a
    /// spectator.
    /// Numbers and keeps an event the room adds (a chat line, the ratings moved): its
    /// version.
    pub fn tell(&mut self, audience: Audience, event: GameEvent) -> u64 {
        self.log.publish(audience, event)
    }

    /// Whether `who` holds a seat here.
    pub fn is_seated(&self, who: &PlayerId) -> bool {
        !self.seats_of(who).is_empty()
    }

    fn viewer(&self, who: Option<&PlayerId>) -> Viewer {
        match who.and_then(|w| self.seats_of(w).first().copied()) {
            Some(side) => Viewer::Seat(side),
            None => Viewer::Spectator,
        }
    }

    /// What `who` missed since the version it saw.
    pub fn catch_up(&self, who: Option<&PlayerId>, seen: u64) -> CatchUp {
        self.log.since(seen, self.viewer(who))
    }

    /// The steps played so far (the ply the next move must name).
    pub fn ply(&self) -> u32 {
        self.sent.len() as u32
    }

    /// Plays `who`'s step `text` for ply `ply`, its move reaching the server at `now`
    /// after `lag` on the wire.
    pub fn play(
        &mut self,
        who: &PlayerId,
        ply: u32,
        text: &str,
        now: Duration,
        lag: Duration,
    ) -> Result<Played, Refusal> {
        match check_move(self.ply(), ply, text, |p| {
            self.sent.get(p as usize).cloned()
        }) {
            MoveCheck::AlreadyPlayed => {
                // The same step again, but only from the player who played it.
                let mover = self.movers[ply as usize];
                if self.seats[mover.index()].as_ref() != Some(who) {
                    return Err(self.not_theirs(who));
                }
                return Ok(Played {
                    version: self.log.version(),
                    resent: true,
                });
            }
            MoveCheck::OutOfStep => return Err(Refusal::OutOfStep),
            MoveCheck::Play => {}
        }
        if self.status != Status::Playing {
            return Err(Refusal::GameOver);
        }
        let side = self.game.side_to_move();
        if self.seats[side.index()].as_ref() != Some(who) {
            return Err(self.not_theirs(who));
        }
        let step = self
            .game
            .parse_step(text)
            .map_err(|e| Refusal::NotAllowed(e.to_string()))?;
        let lan = self.game.step_lan(step);
        if text != lan {
            return Err(Refusal::NotLongNotation {
                sent: text.to_string(),
                long: lan,
            });
        }
        let hidden = self.is_hidden(step);
        let turns = self.game.turns().len();
        let report = self
            .game
            .play(step)
            .map_err(|e| Refusal::NotAllowed(e.to_string()))?;
        self.keep_step(text, lan.clone(), side, step, hidden);
        self.draw_offers.clear();
        let mut left = None;
        if self.game.turns().len() > turns {
            left = self.end_turn_on_the_clock(side, now, lag)?;
        }
        let audience = if hidden {
            Audience::Seat(side)
        } else {
            Audience::Everyone
        };
        let rules = self.game.position().rules();
        let event = GameEvent::Step {
            ply,
            side: rules.side_name(side).to_string(),
            step: lan,
            left_ms: left.map(|d: Duration| d.as_millis() as u64),
            to_move: rules.side_name(self.game.side_to_move()).to_string(),
            legal: self.legal_texts(),
        };
        self.log.publish(audience, event);
        if hidden && self.game.position().phase() != Phase::Setup {
            self.reveal();
        }
        if let Some(end) = report.end {
            self.finish(Status::Over(end));
        }
        Ok(Played {
            version: self.log.version(),
            resent: false,
        })
    }

    /// The steps the side on move may play, as the protocol writes them (as lichess
    /// sends a move's destinations, so that a client needs no rules of its own). None
    /// while deployments are hidden (a side's choices would tell where its pieces
    /// stand) and once the game is over.
    fn legal_texts(&self) -> Option<Vec<String>> {
        let pos = self.game.position();
        if self.status != Status::Playing
            || self.game.end().is_some()
            || (pos.phase() == Phase::Setup && pos.rules().setup_is_hidden())
        {
            return None;
        }
        Some(
            self.game
                .steps()
                .into_iter()
                .map(|s| self.game.step_lan(s))
                .collect(),
        )
    }

    /// The position as `viewer` may see it while deployments are hidden: the others'
    /// pieces placed so far are back in their hands (so the viewer's own placements
    /// play on it as on the real position: Screen HexaChess's placements ignore the
    /// other side's pieces). None when nothing is hidden from it.
    fn view_fen(&self, viewer: Viewer) -> Option<String> {
        let unseen: Vec<(Side, Cell)> = self
            .hidden_cells
            .iter()
            .copied()
            .filter(|(side, _)| viewer != Viewer::Seat(*side))
            .collect();
        if unseen.is_empty() {
            return None;
        }
        let mut setup = Setup::from_position(self.game.position());
        for (side, cell) in unseen {
            if let Some(piece) = setup.remove(cell) {
                let held = setup.in_hand(side, piece.kind);
                setup
                    .set_in_hand(side, piece.kind, held.saturating_add(1))
                    .ok()?;
            }
        }
        Some(setup.to_fen())
    }

    /// Why `who` may not play a seat's step: it holds no seat, or another.
    fn not_theirs(&self, who: &PlayerId) -> Refusal {
        if self.seats_of(who).is_empty() {
            Refusal::NotSeated
        } else {
            Refusal::NotYourTurn
        }
    }

    /// Keeps what a played step leaves: its text as sent (a resend compares equal),
    /// as written, who played it, and a hidden deployment's cell.
    fn keep_step(&mut self, sent: &str, lan: String, side: Side, step: Step, hidden: bool) {
        self.sent.push(sent.to_string());
        self.written.push((lan, hidden.then_some(side)));
        if let (true, Step::Play(mv)) = (hidden, step) {
            self.hidden_cells.push((side, mv.to()));
        }
        self.movers.push(side);
    }

    /// Every side has deployed: the hidden steps reach everyone, in the order played.
    fn reveal(&mut self) {
        self.hidden_cells.clear();
        let steps: Vec<_> = self
            .written
            .iter_mut()
            .enumerate()
            .filter(|(_, (_, only))| only.is_some())
            .map(|(ply, (step, only))| {
                *only = None;
                RevealedStep {
                    ply: ply as u32,
                    step: step.clone(),
                }
            })
            .collect();
        self.log
            .publish(Audience::Everyone, GameEvent::Reveal { steps });
    }

    /// Whether a step is a hidden deployment's (Screen HexaChess: placements unseen
    /// by the other side until both have deployed).
    fn is_hidden(&self, step: Step) -> bool {
        let pos = self.game.position();
        matches!(step, Step::Play(mv) if mv.is_placement())
            && pos.phase() == Phase::Setup
            && pos.rules().setup_is_hidden()
    }

    /// The clock of a turn just ended; a flag ends the game (the step stays played:
    /// it is the record of what reached the server).
    fn end_turn_on_the_clock(
        &mut self,
        side: Side,
        now: Duration,
        lag: Duration,
    ) -> Result<Option<Duration>, Refusal> {
        let next = self.game.side_to_move();
        let Some(clock) = self.clock.as_mut() else {
            return Ok(None);
        };
        // The clocks start once every side has played its first turn.
        let started = self.game.turns().len() > self.seats.len();
        if !started {
            if self.game.turns().len() == self.seats.len() {
                clock.start(next, now);
            }
            return Ok(None);
        }
        match clock.turn_ended(side, now, lag, next) {
            Ok(left) => Ok(Some(left)),
            Err(Flagged(side)) => {
                let end = self.game.lost_by(side, Termination::Time);
                self.finish(Status::Over(end));
                Ok(None)
            }
        }
    }

    /// The server's timer: ends the game when the seat on move has run out of time.
    pub fn check_flag(&mut self, now: Duration) -> Option<GameOutcome> {
        if self.status != Status::Playing {
            return None;
        }
        let side = self.clock.as_ref()?.flagged(now)?;
        let end = self.game.lost_by(side, Termination::Time);
        self.finish(Status::Over(end));
        Some(end)
    }

    /// The side on move let its days for a move (correspondence) pass: it loses on
    /// time, or the game is aborted when not every side had moved yet.
    pub fn out_of_days(&mut self) -> Option<Status> {
        if self.status != Status::Playing {
            return None;
        }
        let status = if self.game.turns().len() < self.seats.len() {
            Status::Aborted
        } else {
            Status::Over(
                self.game
                    .lost_by(self.game.side_to_move(), Termination::Time),
            )
        };
        self.finish(status);
        Some(status)
    }

    /// The side on move has not made its first move in the time a tournament gives
    /// for it: it loses the game (as abandoned). Nothing happens once every side has
    /// moved, or after the end.
    pub fn first_move_missed(&mut self) -> Option<GameOutcome> {
        if self.status != Status::Playing || self.game.turns().len() >= self.seats.len() {
            return None;
        }
        let end = self
            .game
            .lost_by(self.game.side_to_move(), Termination::Abandonment);
        self.finish(Status::Over(end));
        Some(end)
    }

    /// `who` goes berserk before its first move (an arena's game): its clock halved
    /// and without increment, told to everyone following. The seat.
    pub fn berserk(&mut self, who: &PlayerId) -> Result<Side, Refusal> {
        if self.status != Status::Playing {
            return Err(Refusal::GameOver);
        }
        let side = *self.seats_of(who).first().ok_or(Refusal::NotSeated)?;
        let moved = self.game.turns().len() > side.index();
        let clock = self.clock.as_mut().ok_or(Refusal::NoBerserk)?;
        if moved || clock.is_berserk(side) {
            return Err(Refusal::NoBerserk);
        }
        clock.berserk(side, true);
        let name = self.game.position().rules().side_name(side).to_string();
        self.tell(Audience::Everyone, GameEvent::Berserk { side: name });
        Ok(side)
    }

    /// A berserk seat after a restart (its halved time is stored with the clocks).
    pub fn restore_berserk(&mut self, seat: usize) {
        if let Some(clock) = self.clock.as_mut()
            && seat < self.seats.len()
        {
            clock.berserk(Side::from_index(seat), false);
        }
    }

    /// Whether the side on move has yet to make its first move.
    pub fn first_moves_pending(&self) -> bool {
        self.status == Status::Playing && self.game.turns().len() < self.seats.len()
    }

    /// `who` resigns (for its seat; with several, the one on move or its first).
    pub fn resign(&mut self, who: &PlayerId) -> Result<GameOutcome, Refusal> {
        let side = self.acting_seat(who)?;
        let end = self.game.lost_by(side, Termination::Resignation);
        self.finish(Status::Over(end));
        Ok(end)
    }

    /// `who` offers a draw (or accepts one): once every side still in has, the game is
    /// drawn by agreement. Whether it was.
    pub fn offer_draw(&mut self, who: &PlayerId) -> Result<bool, Refusal> {
        let side = self.acting_seat(who)?;
        if !self.draw_offers.contains(&side) {
            self.draw_offers.push(side);
            self.log.publish(
                Audience::Everyone,
                GameEvent::DrawOffer {
                    side: self.game.position().rules().side_name(side).to_string(),
                },
            );
        }
        let all = self
            .game
            .sides_in()
            .iter()
            .all(|s| self.draw_offers.contains(s));
        if all {
            let sides_in = self.game.sides_in();
            let n = self.seats.len();
            let end = GameOutcome::shared(Termination::Agreement, &sides_in, n);
            self.finish(Status::Over(end));
        }
        Ok(all)
    }

    /// `who` declines the draw offers on the table (another seat's): none stands any
    /// more, and everyone following is told.
    pub fn decline_draw(&mut self, who: &PlayerId) -> Result<(), Refusal> {
        let side = self.acting_seat(who)?;
        if !self.draw_offers.iter().any(|s| *s != side) {
            return Err(Refusal::NoDrawOffered);
        }
        self.draw_offers.clear();
        self.log.publish(
            Audience::Everyone,
            GameEvent::DrawDeclined {
                side: self.game.position().rules().side_name(side).to_string(),
            },
        );
        Ok(())
    }

    /// `who`'s player left at `now`: closed the game (`on_purpose`) or lost the
    /// connection.
    /// Every follower is told (`away`, with how long until a claim) while the game is
    /// on; a seat away already is not told of again.
    pub fn left(&mut self, who: &PlayerId, now: Duration, on_purpose: bool) {
        for side in self.seats_of(who) {
            if self.away[side.index()].is_some() {
                continue;
            }
            let away = Away {
                since: now,
                on_purpose,
            };
            self.away[side.index()] = Some(away);
            if self.status == Status::Playing {
                let event = GameEvent::Away {
                    side: self.game.position().rules().side_name(side).to_string(),
                    claim_in_ms: self.claim_wait(away).as_millis() as u64,
                };
                self.log.publish(Audience::Everyone, event);
            }
        }
    }

    /// `who` is back: told (`back`) for each seat that was away, while the game is on.
    pub fn returned(&mut self, who: &PlayerId) {
        for side in self.seats_of(who) {
            if self.away[side.index()].take().is_some() && self.status == Status::Playing {
                let event = GameEvent::Back {
                    side: self.game.position().rules().side_name(side).to_string(),
                };
                self.log.publish(Audience::Everyone, event);
            }
        }
    }

    /// The seats whose players are away, and how long until each may be claimed.
    pub fn away_seats(&self, now: Duration) -> Vec<(Side, Duration)> {
        self.away
            .iter()
            .enumerate()
            .filter_map(|(i, away)| {
                let away = (*away)?;
                let waited = now.saturating_sub(away.since);
                Some((
                    Side::from_index(i),
                    self.claim_wait(away).saturating_sub(waited),
                ))
            })
            .collect()
    }

    /// How long an opponent waits to claim a game whose player is away: after leaving
    /// on purpose [`CLAIM_AFTER_LEAVING`]; after a lost connection
    /// [`CLAIM_AFTER_DISCONNECT`], times two in a rapid game and three in a classical
    /// or untimed one (a longer game gives a lost connection longer to come back).
    fn claim_wait(&self, away: Away) -> Duration {
        if away.on_purpose {
            return CLAIM_AFTER_LEAVING;
        }
        let length = self
            .clock
            .as_ref()
            .map(|c| c.control().base + c.control().increment * 40);
        let factor = match length {
            Some(l) if l < Duration::from_secs(480) => 1,
            Some(l) if l < Duration::from_secs(1500) => 2,
            _ => 3,
        };
        CLAIM_AFTER_DISCONNECT * factor
    }

    /// `who` claims the game because the player on move has stayed away long enough
    /// (only once every side has moved): that side loses by abandonment, its opponents
    /// still in sharing the point.
    pub fn claim_victory(&mut self, who: &PlayerId, now: Duration) -> Result<GameOutcome, Refusal> {
        self.acting_seat(who)?;
        let absent = self.game.side_to_move();
        let Some(away) = self.away[absent.index()] else {
            return Err(Refusal::NothingToClaim);
        };
        if self.seats_of(who).contains(&absent) || self.game.turns().len() < self.seats.len() {
            return Err(Refusal::NothingToClaim);
        }
        let waited = now.saturating_sub(away.since);
        let wait = self.claim_wait(away);
        if waited < wait {
            return Err(Refusal::TooEarlyToClaim(wait - waited));
        }
        let end = self.game.lost_by(absent, Termination::Abandonment);
        self.finish(Status::Over(end));
        Ok(end)
    }

    /// Calls the game off before every side has moved.
    pub fn abort(&mut self, who: &PlayerId) -> Result<(), Refusal> {
        self.acting_seat(who)?;
        if self.game.turns().len() >= self.seats.len() {
            return Err(Refusal::TooLateToAbort);
        }
        self.finish(Status::Aborted);
        Ok(())
    }

    /// The seat `who` acts for in a game still on.
    fn acting_seat(&self, who: &PlayerId) -> Result<Side, Refusal> {
        if self.status != Status::Playing {
            return Err(Refusal::GameOver);
        }
        let seats = self.seats_of(who);
        let on_move = self.game.side_to_move();
        if seats.contains(&on_move) {
            return Ok(on_move);
        }
        seats.first().copied().ok_or(Refusal::NotSeated)
    }

    fn finish(&mut self, status: Status) {
        self.status = status;
        let body = match status {
            Status::Over(end) => GameEvent::End {
                result: end.result_text(),
                why: end.termination.to_string(),
                points: Some(self.points(end)),
            },
            Status::Aborted => GameEvent::End {
                result: "*".into(),
                why: "aborted".into(),
                points: None,
            },
            Status::Playing => return,
        };
        self.log.publish(Audience::Everyone, body);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::history::Sent;
    use hexchess_core::Catalog;

    fn player(name: &str) -> PlayerId {
        PlayerId(name.into())
    }

    fn hosted(variant: &str, names: &[&str], control: Option<TimeControl>) -> HostedGame {
        let catalog = Catalog::builtin();
        let game = Game::new(Arc::clone(catalog.get(variant).unwrap().rules()));
        let seats = names.iter().map(|n| Some(player(n))).collect();
        HostedGame::new(game, seats, control)
    }

    const T0: Duration = Duration::ZERO;

    #[test]
    fn only_the_seats_owner_moves_and_each_step_is_checked() {
        let mut g = hosted("glinski", &["ann", "ben"], None);
        assert_eq!(
            g.play(&player("ben"), 0, "c7c6", T0, T0),
            Err(Refusal::NotYourTurn)
        );
        assert_eq!(
            g.play(&player("eve"), 0, "f5f6", T0, T0),
            Err(Refusal::NotSeated)
        );
        assert!(matches!(
            g.play(&player("ann"), 0, "f5f8", T0, T0),
            Err(Refusal::NotAllowed(_))
        ));
        assert_eq!(g.ply(), 0, "nothing played");
        let played = g.play(&player("ann"), 0, "f5f6", T0, T0).unwrap();
        assert!(!played.resent);
        assert_eq!(g.ply(), 1);
        assert_eq!(g.game().side_to_move(), Side::Black);
    }

    #[test]
    fn a_step_sent_again_by_another_player_is_refused_not_acknowledged() {
        let mut g = hosted("glinski", &["ann", "ben"], None);
        g.play(&player("ann"), 0, "f5f6", T0, T0).unwrap();
        assert_eq!(
            g.play(&player("ben"), 0, "f5f6", T0, T0),
            Err(Refusal::NotYourTurn)
        );
        assert_eq!(
            g.play(&player("eve"), 0, "f5f6", T0, T0),
            Err(Refusal::NotSeated)
        );
        assert!(g.play(&player("ann"), 0, "f5f6", T0, T0).unwrap().resent);
    }

    #[test]
    fn a_move_sent_twice_is_played_once_and_a_stale_ply_is_refused() {
        let mut g = hosted("glinski", &["ann", "ben"], None);
        g.play(&player("ann"), 0, "f5f6", T0, T0).unwrap();
        let version = g.log.version();
        // The acknowledgement was lost: the same move comes again.
        let again = g.play(&player("ann"), 0, "f5f6", T0, T0).unwrap();
        assert!(again.resent);
        assert_eq!(again.version, version, "no new event");
        assert_eq!(g.ply(), 1);
        // Black replies; a resend of White's first move is still recognised, not
        // played as a second White move.
        g.play(&player("ben"), 1, "c7c5", T0, T0).unwrap();
        assert!(g.play(&player("ann"), 0, "f5f6", T0, T0).unwrap().resent);
        assert_eq!(g.ply(), 2);
        assert_eq!(
            g.play(&player("ann"), 0, "e4e5", T0, T0),
            Err(Refusal::OutOfStep)
        );
        assert_eq!(
            g.play(&player("ann"), 7, "e4e5", T0, T0),
            Err(Refusal::OutOfStep)
        );
    }

    #[test]
    fn the_clocks_start_once_every_side_has_moved_and_a_flag_ends_the_game_for_the_others() {
        let control = TimeControl {
            base: Duration::from_secs(60),
            increment: Duration::ZERO,
        };
        let mut g = hosted("hexachess-3", &["ann", "ben", "cy"], Some(control));
        let s = Duration::from_secs;
        g.play(&player("ann"), 0, "e3e4", s(5), T0).unwrap();
        g.play(&player("ben"), 1, "c13d13", s(30), T0).unwrap();
        g.play(&player("cy"), 2, "l13l12", s(50), T0).unwrap();
        // Now White's clock runs, from 50 s.
        assert_eq!(g.time_left(Side::White, s(60)), Some(s(50)));
        assert_eq!(g.time_left(Side::Black, s(60)), Some(s(60)));
        assert_eq!(g.check_flag(s(100)), None, "50 s of its 60 spent");
        let end = g.check_flag(s(115)).expect("White's flag");
        assert_eq!(end.termination, Termination::Time);
        assert_eq!(end.winners(), vec![Side::Black, Side::Third]);
        assert!(matches!(g.status(), Status::Over(_)));
        assert_eq!(
            g.play(&player("ann"), 3, "d1e15", s(116), T0),
            Err(Refusal::GameOver)
        );
    }

    #[test]
    fn a_draw_needs_every_side_still_in_and_an_abort_only_comes_before_all_have_moved() {
        let mut g = hosted("hexachess-3", &["ann", "ben", "cy"], None);
        assert_eq!(g.offer_draw(&player("ann")), Ok(false));
        assert_eq!(g.offer_draw(&player("ben")), Ok(false));
        assert_eq!(g.offer_draw(&player("cy")), Ok(true));
        let Status::Over(end) = g.status() else {
            panic!("drawn")
        };
        assert!(end.is_draw());

        let mut early = hosted("glinski", &["ann", "ben"], None);
        early.play(&player("ann"), 0, "f5f6", T0, T0).unwrap();
        assert_eq!(early.abort(&player("ben")), Ok(()));
        assert_eq!(early.status(), Status::Aborted);
        let mut late = hosted("glinski", &["ann", "ben"], None);
        late.play(&player("ann"), 0, "f5f6", T0, T0).unwrap();
        late.play(&player("ben"), 1, "c7c5", T0, T0).unwrap();
        assert_eq!(late.abort(&player("ann")), Err(Refusal::TooLateToAbort));
        let end = late.resign(&player("ann")).unwrap();
        assert_eq!(end.winner(), Some(Side::Black));
    }

    #[test]
    fn a_game_is_claimed_only_from_a_player_away_on_their_turn_long_enough() {
        let s = Duration::from_secs;
        let blitz = TimeControl {
            base: s(180),
            increment: s(2),
        };
        let mut g = hosted("glinski", &["ann", "ben"], Some(blitz));
        g.play(&player("ann"), 0, "f5f6", s(1), T0).unwrap();
        // Before both have moved: nothing to claim (an abort instead).
        g.left(&player("ben"), s(2), true);
        assert_eq!(
            g.claim_victory(&player("ann"), s(60)),
            Err(Refusal::NothingToClaim)
        );
        g.returned(&player("ben"));
        g.play(&player("ben"), 1, "c7c5", s(3), T0).unwrap();
        // White on move and present: Black cannot claim.
        assert_eq!(
            g.claim_victory(&player("ben"), s(4)),
            Err(Refusal::NothingToClaim)
        );
        // White closes the game: after 10 s Black may claim, not before.
        g.left(&player("ann"), s(5), true);
        assert_eq!(
            g.claim_victory(&player("ben"), s(12)),
            Err(Refusal::TooEarlyToClaim(s(3)))
        );
        // The absent player cannot claim against themselves.
        assert_eq!(
            g.claim_victory(&player("ann"), s(30)),
            Err(Refusal::NothingToClaim)
        );
        let end = g.claim_victory(&player("ben"), s(15)).unwrap();
        assert_eq!(end.winner(), Some(Side::Black));
        assert_eq!(end.termination, Termination::Abandonment);
        assert_eq!(g.status(), Status::Over(end));
    }

    #[test]
    fn a_lost_connection_is_waited_for_longer_in_longer_games() {
        let s = Duration::from_secs;
        let cases = [(3, 2, 40), (10, 5, 80), (30, 20, 120)];
        for (minutes, increment, wait) in cases {
            let control = TimeControl {
                base: s(minutes * 60),
                increment: s(increment),
            };
            let mut g = hosted("glinski", &["ann", "ben"], Some(control));
            g.play(&player("ann"), 0, "f5f6", T0, T0).unwrap();
            g.play(&player("ben"), 1, "c7c5", T0, T0).unwrap();
            g.left(&player("ann"), s(100), false);
            assert_eq!(
                g.claim_victory(&player("ben"), s(100 + wait - 1)),
                Err(Refusal::TooEarlyToClaim(s(1))),
                "{minutes}+{increment}"
            );
            assert!(g.claim_victory(&player("ben"), s(100 + wait)).is_ok());
        }
        // At a table: the absent side loses, the two others share.
        let mut t = hosted("hexachess-3", &["ann", "ben", "cy"], None);
        for (ply, (who, step)) in [("ann", "e3e4"), ("ben", "c13d13"), ("cy", "l13l12")]
            .into_iter()
            .enumerate()
        {
            t.play(&player(who), ply as u32, step, T0, T0).unwrap();
        }
        t.left(&player("ann"), s(0), false);
        let end = t.claim_victory(&player("cy"), s(120)).unwrap();
        assert_eq!(end.winners(), vec![Side::Black, Side::Third]);
    }

    #[test]
    fn a_hidden_deployment_reaches_no_one_else_before_the_reveal() {
        let catalog = Catalog::builtin();
        let Some(entry) = catalog
            .entries()
            .iter()
            .find(|e| e.spec.sides.len() == 2 && e.rules().setup_is_hidden())
        else {
            panic!("a variant with a hidden setup (Screen HexaChess)");
        };
        let game = Game::new(Arc::clone(entry.rules()));
        let mut g = HostedGame::new(game, vec![Some(player("ann")), Some(player("ben"))], None);
        let placement = g
            .game()
            .steps()
            .into_iter()
            .find_map(|s| match s {
                Step::Play(mv) if mv.is_placement() => Some(g.game().step_lan(s)),
                _ => None,
            })
            .expect("a placement");
        g.play(&player("ann"), 0, &placement, T0, T0).unwrap();
        let seen_by = |who: Option<&PlayerId>| match g.catch_up(who, 0) {
            CatchUp::Events(e) => e,
            other => panic!("{other:?}"),
        };
        let own = seen_by(Some(&player("ann")));
        assert!(matches!(&own[0], Sent::Event { .. }), "{own:?}");
        for other in [seen_by(Some(&player("ben"))), seen_by(None)] {
            assert_eq!(other[0], Sent::Skip { version: 1 });
            let text: String = other.iter().map(|s| s.to_message("g").to_text()).collect();
            assert!(!text.contains(&placement), "{text}");
        }
    }
}
