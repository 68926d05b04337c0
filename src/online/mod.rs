//! Playing on a server (docs/online.md): the game as a client of `hexchess-server`.
//!
//! The connection lives on its own thread ([`link`]); this plugin turns what the
//! server says into the game's own requests and resources, so that the board,
//! animation, sound and clocks of an online game are those of local play:
//!
//! - the server's `state` puts its game on the board (a reset), each `step` is a
//!   [`StepDecided`] (animated and heard like any move), `end` ends the game;
//! - while an online game is on the board, [`Authority::Server`] makes a person's
//!   moves [`StepProposed`]: sent with their ply, played when the server sends them
//!   back; a move not yet acknowledged is sent again after a reconnection (the server
//!   plays it once);
//! - the lobby (seeks, your games, ratings) is kept in [`Online`] for the interface,
//!   which asks for things with [`OnlineRequest`].

pub mod link;
pub mod secrets;

use std::time::Duration;

use bevy::prelude::*;
use hexchess_core::piece::MAX_SIDES;
use hexchess_core::{Game, GameOutcome, Points, Side, Termination};
use serde_json::{Value, json};

use crate::game::{
    Authority, BoardChanged, CurrentGame, GameNotice, GameSet, StepDecided, StepProposed, Variants,
};
use crate::play::session::OnlineSeats;
use crate::play::{Clocks, Mode, Session};
use link::{Link, LinkEvent, LinkStatus};

/// The server the game connects to unless told otherwise.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:7474/socket";

/// The player as the server knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Me {
    pub player: String,
    pub name: String,
    pub account: bool,
}

/// A move sent and not yet acknowledged.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pending {
    ply: u32,
    step: String,
    ack: u64,
}

/// The server's game on the board.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OnlineTable {
    pub game: String,
    pub variant: String,
    pub names: Vec<String>,
    /// The sides this player holds (none: watching).
    pub mine: Vec<Side>,
    /// The newest event version received.
    pub seen: u64,
    pub draw_offers: Vec<String>,
    /// The result once over (`*` for an aborted game), and why.
    pub result: Option<(String, String)>,
    pub rated: bool,
    pub speed: String,
    pending: Option<Pending>,
    /// The server's ply where the board's game begins: 0, or while deployments are
    /// hidden the ply of the view the server sent (the others' hidden steps are not
    /// on this board).
    ply_base: u32,
}

impl OnlineTable {
    /// A move of this player's is on its way to the server (the next waits for it).
    pub fn waiting(&self) -> bool {
        self.pending.is_some()
    }

    /// The server's ply of the board's next step.
    fn next_ply(&self, game: &CurrentGame) -> u32 {
        self.ply_base + game.game.steps_played() as u32
    }
}

/// Everything the game knows of the server.
#[derive(Resource, Debug)]
pub struct Online {
    /// The server's address (kept in the settings).
    pub server: String,
    pub status: LinkStatus,
    pub me: Option<Me>,
    /// The open seeks, as the server lists them.
    pub seeks: Vec<Value>,
    /// This player's games in play, those on their turn first.
    pub my_games: Vec<Value>,
    /// The player's ratings.
    pub ratings: Vec<Value>,
    /// Games in play, to watch.
    pub playing: Vec<Value>,
    /// The code of this player's private challenge, to share.
    pub challenge: Option<String>,
    pub table: Option<OnlineTable>,
    /// Where the secrets are kept (none: not kept, in tests).
    pub secrets: Option<std::path::PathBuf>,
    link: Option<Link>,
    acks: u64,
    since_refresh: Duration,
}

impl Default for Online {
    fn default() -> Online {
        Online {
            server: DEFAULT_SERVER.into(),
            status: LinkStatus::Closed,
            me: None,
            seeks: Vec::new(),
            my_games: Vec::new(),
            ratings: Vec::new(),
            playing: Vec::new(),
            challenge: None,
            table: None,
            secrets: None,
            link: None,
            acks: 0,
            since_refresh: Duration::ZERO,
        }
    }
}

impl Online {
    /// Nothing known yet of the server at `server`; secrets kept in `secrets`.
    pub fn new(server: String, secrets: Option<std::path::PathBuf>) -> Online {
        Online {
            server,
            secrets,
            ..Online::default()
        }
    }

    pub fn is_connected(&self) -> bool {
        self.status == LinkStatus::Connected && self.me.is_some()
    }

    fn send(&self, message: Value) {
        if let Some(link) = &self.link {
            link.send(&message);
        }
    }
}

/// A game offered, as the interface's form sets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekForm {
    pub variant: String,
    /// Minutes and increment in seconds; none: untimed (or `days`).
    pub clock: Option<(u32, u32)>,
    pub days: Option<u32>,
    pub rated: bool,
    /// The side by the variant's name; none: any.
    pub side: Option<String>,
    pub engines: u32,
    pub level: u8,
}

impl SeekForm {
    fn message(&self, t: &str, private: bool) -> Value {
        json!({
            "t": t,
            "variant": self.variant,
            "minutes": self.clock.map(|c| c.0),
            "increment": self.clock.map_or(0, |c| c.1),
            "days": self.days,
            "rated": self.rated,
            "side": self.side,
            "private": private,
            "engines": self.engines,
            "level": self.level,
        })
    }
}

/// What the interface (or the command line) asks of the server.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum OnlineRequest {
    /// Connect to [`Online::server`] (again).
    Connect,
    Disconnect,
    Seek(SeekForm),
    /// A private challenge: the server gives a code to share.
    Challenge(SeekForm),
    Quick(SeekForm),
    /// Take a seat in a seek, or a challenge by its code.
    Accept(String),
    Cancel(String),
    /// Open a game: one's own, or another's to watch.
    Open(String),
    Resign,
    Draw,
    Abort,
    Claim,
    /// Ask again for the lists (your games, ratings).
    Refresh,
    Register {
        name: String,
        password: String,
    },
    Login {
        name: String,
        password: String,
    },
}

/// Requests held until the connection is up and the server has said welcome (the
/// command line's `--online-quick`).
#[derive(Resource, Clone, Debug, Default)]
pub struct WhenConnected(pub Vec<OnlineRequest>);

pub struct OnlinePlugin;

impl Plugin for OnlinePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Online>()
            .init_resource::<WhenConnected>()
            .add_message::<OnlineRequest>()
            .add_systems(
                Update,
                (
                    send_when_connected,
                    handle_requests,
                    receive,
                    send_proposed_steps,
                    refresh_lists,
                    follow_the_session,
                )
                    .chain()
                    .in_set(GameSet::Input),
            );
    }
}

fn send_when_connected(
    online: Res<Online>,
    mut held: ResMut<WhenConnected>,
    mut requests: MessageWriter<OnlineRequest>,
) {
    if online.is_connected() && !held.0.is_empty() {
        requests.write_batch(std::mem::take(&mut held.0));
    }
}

fn handle_requests(mut requests: MessageReader<OnlineRequest>, mut online: ResMut<Online>) {
    for request in requests.read() {
        let game = online.table.as_ref().map(|t| t.game.clone());
        let message = match request {
            OnlineRequest::Connect => {
                let token = online
                    .secrets
                    .as_deref()
                    .and_then(|f| secrets::read(f, &online.server));
                online.me = None;
                online.link = Some(Link::open(online.server.clone(), token));
                continue;
            }
            OnlineRequest::Disconnect => {
                online.link = None;
                online.me = None;
                online.status = LinkStatus::Closed;
                continue;
            }
            OnlineRequest::Seek(form) => form.message("seek", false),
            OnlineRequest::Challenge(form) => form.message("seek", true),
            OnlineRequest::Quick(form) => form.message("quick", false),
            OnlineRequest::Accept(id) => json!({ "t": "accept", "seek": id }),
            OnlineRequest::Cancel(id) => json!({ "t": "cancel", "seek": id }),
            OnlineRequest::Open(id) => {
                online.table = Some(OnlineTable {
                    game: id.clone(),
                    ..OnlineTable::default()
                });
                json!({ "t": "join", "game": id })
            }
            OnlineRequest::Resign => json!({ "t": "resign", "game": game }),
            OnlineRequest::Draw => json!({ "t": "draw", "game": game }),
            OnlineRequest::Abort => json!({ "t": "abort", "game": game }),
            OnlineRequest::Claim => json!({ "t": "claim", "game": game }),
            OnlineRequest::Refresh => {
                online.send(json!({ "t": "games" }));
                online.send(json!({ "t": "playing" }));
                json!({ "t": "ratings" })
            }
            OnlineRequest::Register { name, password } => {
                json!({ "t": "register", "name": name, "password": password })
            }
            OnlineRequest::Login { name, password } => {
                json!({ "t": "login", "name": name, "password": password })
            }
        };
        online.send(message);
    }
}

/// What [`receive`] changes on the board.
#[derive(bevy::ecs::system::SystemParam)]
struct Board<'w> {
    game: ResMut<'w, CurrentGame>,
    session: ResMut<'w, Session>,
    clocks: ResMut<'w, Clocks>,
    authority: ResMut<'w, Authority>,
    settings: ResMut<'w, crate::look::Settings>,
    variants: Res<'w, Variants>,
    changed: MessageWriter<'w, BoardChanged>,
    decided: MessageWriter<'w, StepDecided>,
    notices: MessageWriter<'w, GameNotice>,
}

fn receive(mut online: ResMut<Online>, mut board: Board) {
    let Some(link) = &online.link else { return };
    for event in link.poll() {
        match event {
            LinkEvent::Status(status) => online.status = status,
            LinkEvent::Message(message) => received(&mut online, &mut board, &message),
        }
    }
}

fn received(online: &mut Online, board: &mut Board, message: &Value) {
    let about_table = online
        .table
        .as_ref()
        .is_some_and(|t| message["game"].as_str() == Some(t.game.as_str()));
    match message["t"].as_str().unwrap_or_default() {
        "welcome" => welcomed(online, message),
        "seeks" => online.seeks = list(message, "seeks"),
        "games" => online.my_games = list(message, "games"),
        "ratings" => online.ratings = list(message, "ratings"),
        "playing" => online.playing = list(message, "games"),
        "seek" => {
            if let Some(code) = message["code"].as_str() {
                online.challenge = Some(code.to_string());
            }
        }
        "started" => {
            let id = message["game"].as_str().unwrap_or_default().to_string();
            online.challenge = None;
            online.table = Some(OnlineTable {
                game: id.clone(),
                ..OnlineTable::default()
            });
            online.send(json!({ "t": "join", "game": id }));
            online.send(json!({ "t": "games" }));
        }
        "state" if about_table => put_on_board(online, board, message),
        "refused" if about_table => {
            if let Some(t) = online.table.as_mut()
                && t.pending.as_ref().map(|p| p.ack) == message["ack"].as_u64()
            {
                t.pending = None;
            }
            board.notices.write(GameNotice(format!(
                "the server: {}",
                message["why"].as_str().unwrap_or("refused")
            )));
            if message["state"].is_object() {
                put_on_board(online, board, &message["state"]);
            }
        }
        "error" => {
            board.notices.write(GameNotice(format!(
                "the server: {}",
                message["message"].as_str().unwrap_or("error")
            )));
        }
        _ if about_table => game_event(online, board, message),
        // An event without a type: another side's hidden step (one ply).
        _ if message["t"].is_null() && message["v"].is_u64() => {
            if let Some(t) = online.table.as_mut() {
                t.seen = t.seen.max(message["v"].as_u64().unwrap_or(0));
            }
        }
        _ => {}
    }
}

fn list(message: &Value, key: &str) -> Vec<Value> {
    message[key].as_array().cloned().unwrap_or_default()
}

/// Hello answered: the secret kept, the lists asked for, and a game on the board
/// followed again from the version last seen.
fn welcomed(online: &mut Online, message: &Value) {
    online.me = Some(Me {
        player: message["player"].as_str().unwrap_or_default().into(),
        name: message["name"].as_str().unwrap_or_default().into(),
        account: message["account"].as_bool().unwrap_or(false),
    });
    if let (Some(file), Some(token)) = (online.secrets.as_deref(), message["token"].as_str())
        && let Err(e) = secrets::write(file, &online.server, token)
    {
        warn!(
            "the online secret could not be kept in {}: {e}",
            file.display()
        );
    }
    online.send(json!({ "t": "lobby" }));
    online.send(json!({ "t": "games" }));
    online.send(json!({ "t": "ratings" }));
    online.send(json!({ "t": "playing" }));
    if let Some(t) = &online.table {
        let seen = (t.seen > 0).then_some(t.seen);
        online.send(json!({ "t": "join", "game": t.game, "seen": seen }));
    }
}

/// The server's whole game, on the board.
fn put_on_board(online: &mut Online, board: &mut Board, state: &Value) {
    let Some(table) = online.table.as_mut() else {
        return;
    };
    let first_look = table.variant.is_empty();
    let variant = state["variant"].as_str().unwrap_or_default();
    let Some(entry) = board.variants.0.get(variant) else {
        board.notices.write(GameNotice(format!(
            "the server plays '{variant}', which this game does not know"
        )));
        return;
    };
    if first_look {
        crate::web::milestone(&format!("online joined {}", table.game));
    }
    let ply = state["ply"].as_u64().unwrap_or(0) as u32;
    // While deployments are hidden, the server sends the position as this player may
    // see it; otherwise the game is its steps from the start.
    let view = state["view_fen"].as_str().and_then(|fen| {
        Game::from_moves(
            std::sync::Arc::clone(entry.rules()),
            Some(fen),
            &[] as &[&str],
        )
        .ok()
    });
    table.ply_base = if view.is_some() { ply } else { 0 };
    let mut game = view.unwrap_or_else(|| Game::new(std::sync::Arc::clone(entry.rules())));
    let steps = if table.ply_base > 0 {
        None
    } else {
        state["steps"].as_array()
    };
    for step in steps.into_iter().flatten() {
        // A hidden step of another side (null) ends what can be shown; the reveal
        // brings the rest.
        let Some(text) = step.as_str() else { break };
        match game.parse_step(text) {
            Ok(s) if game.play(s).is_ok() => {}
            _ => {
                board.notices.write(GameNotice(format!(
                    "the server's '{text}' does not play here"
                )));
                break;
            }
        }
    }
    let rules = std::sync::Arc::clone(entry.rules());
    let names = |key: &str| -> Vec<String> {
        state[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(String::from))
            .collect()
    };
    table.variant = variant.to_string();
    table.names = names("names");
    table.mine = names("you")
        .iter()
        .filter_map(|n| rules.sides().find(|s| rules.side_name(*s) == n))
        .collect();
    table.draw_offers = names("draw_offers");
    table.rated = state["rated"].as_bool().unwrap_or(false);
    table.speed = state["speed"].as_str().unwrap_or_default().to_string();
    table.seen = state["v"].as_u64().unwrap_or(0);
    let variant_changed = board.game.rules().id() != variant;
    *board.game = CurrentGame::of(game, entry, None);
    board.game.ended = outcome_of(state, board.game.side_count());
    table.result = result_of(state);
    board.session.mode = Mode::Online(OnlineSeats::holding(&table.mine));
    if first_look && board.game.side_count() == 2 {
        // Seen from one's own side (the player may flip it afterwards).
        let black_only = table.mine == [Side::Black];
        if board.settings.flipped != black_only {
            board.settings.flipped = black_only;
        }
    }
    *board.authority = Authority::Server;
    set_clocks(&mut board.clocks, state["clocks_ms"].as_array(), None);
    board.changed.write(BoardChanged::Reset { variant_changed });
    resend_pending(online, ply);
}

/// After a reconnection: a move the server had not acknowledged goes again with its
/// ply (played once whatever became of it); one for a ply long past is forgotten.
fn resend_pending(online: &mut Online, ply: u32) {
    let Some(table) = online.table.as_mut() else {
        return;
    };
    let Some(p) = table.pending.clone() else {
        return;
    };
    if p.ply < ply {
        table.pending = None;
        return;
    }
    let message =
        json!({ "t": "move", "game": table.game, "ply": p.ply, "step": p.step, "ack": p.ack });
    online.send(message);
}

fn game_event(online: &mut Online, board: &mut Board, event: &Value) {
    let Some(table) = online.table.as_mut() else {
        return;
    };
    // The end of a catch-up carries the version of the last event caught up, never a
    // new one: it is heard whatever the version (a move the server has not
    // acknowledged goes again now).
    if event["t"] == "joined" {
        let ply = table.next_ply(&board.game);
        return resend_pending(online, ply);
    }
    if let Some(v) = event["v"].as_u64() {
        if v <= table.seen {
            return; // seen already
        }
        table.seen = v;
    }
    match event["t"].as_str().unwrap_or_default() {
        "step" => {
            let Some(ply) = event["ply"]
                .as_u64()
                .and_then(|p| p.checked_sub(u64::from(table.ply_base)))
            else {
                return;
            };
            let ply = ply as usize;
            let played = board.game.game.steps_played();
            if ply < played {
                return;
            }
            if ply > played {
                // A gap: ask for the whole game.
                let id = table.game.clone();
                online.send(json!({ "t": "join", "game": id }));
                return;
            }
            let text = event["step"].as_str().unwrap_or_default();
            match board.game.game.parse_step(text) {
                Ok(step) => {
                    board.decided.write(StepDecided(step));
                }
                Err(e) => {
                    board
                        .notices
                        .write(GameNotice(format!("the server's '{text}': {e}")));
                }
            }
            if let (Some(mover), Some(ms)) =
                (side_named(board, &event["side"]), event["left_ms"].as_u64())
                && let Some(r) = board.clocks.remaining.as_mut()
            {
                r[mover.index()] = Duration::from_millis(ms);
            }
            table.draw_offers.clear();
        }
        // Another side's hidden step: the view changed (whose turn it is, what is in
        // hand), so ask for it again.
        "" if event["t"].is_null() => {
            let id = table.game.clone();
            online.send(json!({ "t": "join", "game": id }));
        }
        "ack" if table.pending.as_ref().map(|p| p.ack) == event["ack"].as_u64() => {
            table.pending = None;
        }
        "draw_offer" => {
            let side = event["side"].as_str().unwrap_or_default().to_string();
            board
                .notices
                .write(GameNotice(format!("{side} offers a draw")));
            table.draw_offers.push(side);
        }
        "reveal" => {
            let id = table.game.clone();
            online.send(json!({ "t": "join", "game": id }));
        }
        "end" => {
            table.result = result_of(event);
            if board.game.outcome().is_none() {
                board.game.ended = outcome_of(event, board.game.side_count());
            }
            let result = table.result.clone().unwrap_or_default();
            board.notices.write(GameNotice(format!(
                "game over: {} ({})",
                result.0, result.1
            )));
            online.send(json!({ "t": "games" }));
            online.send(json!({ "t": "ratings" }));
        }
        _ => {}
    }
}

fn side_named(board: &Board, name: &Value) -> Option<Side> {
    let rules = board.game.rules();
    let name = name.as_str()?;
    rules.sides().find(|s| rules.side_name(*s) == name)
}

fn result_of(message: &Value) -> Option<(String, String)> {
    let result = message["result"].as_str()?;
    let why = message["why"].as_str().unwrap_or_default();
    Some((result.to_string(), why.to_string()))
}

/// The end the server sent, as the game's own outcome (none for an abort).
fn outcome_of(message: &Value, sides: usize) -> Option<GameOutcome> {
    let termination = Termination::from_name(message["why"].as_str()?)?;
    let points: Vec<Points> = message["points"]
        .as_array()?
        .iter()
        .take(sides.min(MAX_SIDES))
        .map(|p| {
            p.as_u64()
                .and_then(|m| u16::try_from(m).ok())
                .and_then(Points::from_millis)
                .unwrap_or(Points::ZERO)
        })
        .collect();
    Some(GameOutcome::scored(termination, &points))
}

fn set_clocks(clocks: &mut Clocks, ms: Option<&Vec<Value>>, increment: Option<Duration>) {
    let Some(ms) = ms else {
        clocks.remaining = None;
        return;
    };
    let mut remaining = [Duration::ZERO; MAX_SIDES];
    for (r, m) in remaining.iter_mut().zip(ms) {
        *r = Duration::from_millis(m.as_u64().unwrap_or(0));
    }
    clocks.remaining = Some(remaining);
    if let Some(i) = increment {
        clocks.increment = i;
    }
}

/// A person's move in the server's game: sent with its ply and a number to match the
/// acknowledgement.
fn send_proposed_steps(
    mut proposed: MessageReader<StepProposed>,
    mut online: ResMut<Online>,
    game: Res<CurrentGame>,
    mut notices: MessageWriter<GameNotice>,
) {
    for StepProposed(step) in proposed.read() {
        let Some(table) = online.table.as_ref() else {
            continue;
        };
        if table.pending.is_some() {
            notices.write(GameNotice(
                "waiting for the server to take your last move".into(),
            ));
            continue;
        }
        let id = table.game.clone();
        let text = game.game.step_lan(*step);
        let ply = table.next_ply(&game);
        online.acks += 1;
        let ack = online.acks;
        if let Some(t) = online.table.as_mut() {
            t.pending = Some(Pending {
                ply,
                step: text.clone(),
                ack,
            });
        }
        online.send(json!({ "t": "move", "game": id, "ply": ply, "step": text, "ack": ack }));
    }
}

/// The "your turn" list kept fresh (correspondence games move while one is away).
fn refresh_lists(time: Res<Time>, mut online: ResMut<Online>) {
    online.since_refresh += time.delta();
    if online.since_refresh >= Duration::from_secs(10) && online.is_connected() {
        online.since_refresh = Duration::ZERO;
        online.send(json!({ "t": "games" }));
    }
}

/// A local game started from the menu leaves the server's game: the board is this
/// program's again.
fn follow_the_session(
    session: Res<Session>,
    mut authority: ResMut<Authority>,
    mut online: ResMut<Online>,
) {
    if !session.is_changed() || matches!(session.mode, Mode::Online(_)) {
        return;
    }
    *authority = Authority::Local;
    if let Some(table) = online.table.take() {
        online.send(json!({ "t": "leave", "game": table.game }));
    }
}
