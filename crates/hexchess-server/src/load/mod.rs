//! `hexchess-server load`: simulated pairs of players against a server, to measure it.
//!
//! Each pair plays private games of a two-player variant, untimed, one after another:
//! each player answers after a think time of 0.5 to 1.5 s with a random legal move,
//! and now and then first sends a move that must be refused (one out of turn, or one
//! the rules forbid). A player whose connection is lost (the server killed and
//! started again, or `--drop`) comes back with its secret, joins from the last
//! version it saw, and resends a move not yet acknowledged; at the end of every game,
//! and of the run, each game's moves as the server holds them are compared with the
//! moves the players saw: none lost, none doubled.
//!
//! Only 127.0.0.1 (or `localhost`) is accepted: a load is never sent elsewhere.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use hexchess_core::{Catalog, Game, Rules};
use rand::Rng;
use serde_json::json;
use tokio::time::Instant;

use crate::client::Client;
use hexchess_protocol::{
    Ack, ClientMessage, FromServer, GameEvent, GameState, Numbered, SeekRequest, ServerMessage,
};

mod arena;
mod hostile;

// No doc comment: clap would read it as the command's help, which the `load`
// subcommand's own gives (main.rs); the flags below say what a run is.
#[allow(missing_docs)]
#[derive(Args, Debug, Clone)]
pub struct LoadArgs {
    /// The server's socket, on this machine: `ws://127.0.0.1:7474/socket`. Given
    /// again for each socket node of several: the two players of a game then sit on
    /// two of them (game i's White on the i-th, its Black on the next).
    #[arg(long, required = true)]
    pub url: Vec<String>,
    /// Games played at once (two players each).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// How long the load runs.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// A two-player variant.
    #[arg(long, default_value = "glinski")]
    pub variant: String,
    /// The share of connections dropped, each once, at random moments in the middle
    /// half of the run (they come back by themselves).
    #[arg(long, default_value_t = 0.0)]
    pub drop: f64,
    /// Print one JSON object (otherwise a line of text).
    #[arg(long)]
    pub json: bool,
    /// Connections that send wrong passwords for the whole run, as fast as their
    /// message rate allows (beside the games, whose relay shows what they cost).
    #[arg(long, default_value_t = 0)]
    pub login_flood: usize,
    /// Connections that follow the lobby and never read.
    #[arg(long, default_value_t = 0)]
    pub sleepers: usize,
    /// Connections that keep ten public seeks open each and change one every 420 ms.
    #[arg(long, default_value_t = 0)]
    pub seekers: usize,
    /// The server's process (on this machine): its resident memory is sampled every
    /// 250 ms and the peak reported.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Instead of pairs of players: an arena of this many players, as long as the
    /// run (`--seconds`), each playing every game the arena gives it.
    #[arg(long)]
    pub arena: Option<usize>,
}

/// The run's figures.
#[derive(Debug, Default)]
struct Stats {
    games: u64,
    moves: u64,
    errors: u64,
    illegal_sent: u64,
    illegal_accepted: u64,
    /// Move sent to the opponent's receipt, in milliseconds.
    relay_ms: Vec<f64>,
    dropped: u64,
    reconnects: u64,
    /// Connection lost to back in step, in milliseconds.
    rejoin_ms: Vec<f64>,
    /// Games whose moves on the server differ from what their players saw.
    mismatches: u64,
    checked: u64,
    first_errors: Vec<String>,
}

impl Stats {
    fn error(&mut self, what: String) {
        self.errors += 1;
        if self.first_errors.len() < 5 {
            self.first_errors.push(what);
        }
    }
}

type Shared = Arc<Mutex<Stats>>;

fn note(stats: &Shared, f: impl FnOnce(&mut Stats)) {
    if let Ok(mut s) = stats.lock() {
        f(&mut s);
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Refuses any address but this machine's loopback, and a URL that is not a server's
/// socket.
fn check_loopback(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("ws://")
        .ok_or("the load runs on ws:// to this machine only")?;
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = authority.split(':').next().unwrap_or_default();
    if host != "127.0.0.1" && host != "localhost" {
        return Err(format!("the load is sent to 127.0.0.1 only, not '{host}'"));
    }
    if path != "socket" {
        return Err(format!(
            "{url} is not a server's socket: its path is /socket (ws://{authority}/socket)"
        ));
    }
    Ok(())
}

/// The most a run may ask for: games at once (two connections each), seconds, and
/// hostile connections of each kind.
pub const MAX_GAMES: usize = 5_000;
/// The longest run, in seconds.
pub const MAX_SECONDS: u64 = 3_600;
/// The most hostile connections of each kind.
pub const MAX_HOSTILE: usize = 1_000;

impl LoadArgs {
    /// The socket of the `i`-th player (of the `i/2`-th game).
    fn url_of(&self, i: usize) -> &str {
        &self.url[i % self.url.len()]
    }

    /// Every count and share within its range, and the URL a socket on this machine.
    pub fn check(&self) -> Result<(), String> {
        if self.url.is_empty() {
            return Err("--url: the server's socket".into());
        }
        for url in &self.url {
            check_loopback(url)?;
        }
        if !(1..=MAX_GAMES).contains(&self.games) {
            return Err(format!("--games {}: 1 to {MAX_GAMES}", self.games));
        }
        if !(1..=MAX_SECONDS).contains(&self.seconds) {
            return Err(format!("--seconds {}: 1 to {MAX_SECONDS}", self.seconds));
        }
        if !(0.0..=1.0).contains(&self.drop) {
            return Err(format!("--drop {}: a share from 0 to 1", self.drop));
        }
        for (flag, n) in [
            ("--login-flood", self.login_flood),
            ("--sleepers", self.sleepers),
            ("--seekers", self.seekers),
        ] {
            if n > MAX_HOSTILE {
                return Err(format!("{flag} {n}: 0 to {MAX_HOSTILE}"));
            }
        }
        Ok(())
    }
}

/// Runs the load `args` describe against a server on this machine and prints its
/// figures as JSON (or says what is wrong with the arguments or the run).
pub async fn run(args: LoadArgs) -> Result<(), String> {
    args.check()?;
    if let Some(players) = args.arena {
        if !(2..=crate::tournaments::MAX_ARENA).contains(&players) {
            return Err(format!(
                "--arena {players}: 2 to {} players",
                crate::tournaments::MAX_ARENA
            ));
        }
        return arena::run(args, players).await;
    }
    let catalog = Catalog::builtin();
    let entry = catalog
        .get(&args.variant)
        .ok_or_else(|| format!("no variant '{}'", args.variant))?;
    if entry.side_count() != 2 {
        return Err("the load plays two-player variants".into());
    }
    let rules = Arc::clone(entry.rules());
    let stats: Shared = Arc::default();
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let hostile = tokio::spawn(hostile::run(args.clone(), deadline));
    let mut pairs = Vec::new();
    for i in 0..args.games {
        let (args, rules, stats) = (args.clone(), Arc::clone(&rules), Arc::clone(&stats));
        // Arrivals spread over the first seconds, as people come.
        let arrive = Duration::from_millis((i as u64 * 2_000) / args.games.max(1) as u64);
        pairs.push(tokio::spawn(async move {
            tokio::time::sleep(arrive).await;
            Pair::play(i, args, rules, stats, deadline).await;
        }));
    }
    for p in pairs {
        let _ = p.await;
    }
    let hostile = hostile.await.map_err(|e| e.to_string())?;
    let mut s = stats.lock().map_err(|_| "the figures were lost")?;
    s.relay_ms.sort_by(f64::total_cmp);
    s.rejoin_ms.sort_by(f64::total_cmp);
    let report = json!({
        "games": s.games,
        "moves": s.moves,
        "seconds": started.elapsed().as_secs_f64(),
        "errors": s.errors,
        "illegal_sent": s.illegal_sent,
        "illegal_accepted": s.illegal_accepted,
        "p50_ms": percentile(&s.relay_ms, 0.5),
        "p99_ms": percentile(&s.relay_ms, 0.99),
        "max_ms": s.relay_ms.last().copied().unwrap_or(0.0),
        "dropped": s.dropped,
        "reconnects": s.reconnects,
        "rejoin_p50_ms": percentile(&s.rejoin_ms, 0.5),
        "rejoin_max_ms": s.rejoin_ms.last().copied().unwrap_or(0.0),
        "games_checked": s.checked,
        "mismatches": s.mismatches,
        "first_errors": s.first_errors,
        "hostile": hostile,
    });
    if args.json {
        println!("{report}");
    } else {
        println!(
            "{} games, {} moves, p50 {:.1} ms, p99 {:.1} ms, {} errors, {} illegal accepted, {} mismatches",
            s.games,
            s.moves,
            report["p50_ms"],
            report["p99_ms"],
            s.errors,
            s.illegal_accepted,
            s.mismatches
        );
    }
    Ok(())
}

/// One simulated player.
struct Player {
    /// Its server's socket (it comes back there).
    url: String,
    client: Option<Client>,
    token: String,
    acks: u64,
    /// Acks of moves sent to be refused.
    must_refuse: HashSet<u64>,
    /// A move sent and not acknowledged: ply, step, ack.
    pending: Option<(u32, String, u64)>,
    seen: u64,
    /// When its connection was lost, until it is back in step.
    lost_at: Option<Instant>,
    drop_at: Option<Instant>,
}

impl Player {
    async fn new(url: &str) -> Result<Player, String> {
        let client = Client::hello(url, None).await?;
        Ok(Player {
            url: url.to_string(),
            token: client.token.clone().unwrap_or_default(),
            client: Some(client),
            acks: 0,
            must_refuse: HashSet::new(),
            pending: None,
            seen: 0,
            lost_at: None,
            drop_at: None,
        })
    }

    async fn send(&mut self, message: &ClientMessage) {
        if let Some(c) = self.client.as_mut()
            && c.send_message(message).await.is_err()
        {
            self.lost();
        }
    }

    fn lost(&mut self) {
        self.client = None;
        self.lost_at.get_or_insert_with(Instant::now);
    }
}

async fn recv(player: &mut Option<Client>) -> Result<FromServer, String> {
    match player.as_mut() {
        Some(c) => c.recv_message().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Two players and their game.
struct Pair {
    args: LoadArgs,
    rules: Arc<Rules<hexchess_core::bitboard::WideBitboard>>,
    stats: Shared,
    players: [Player; 2],
    game: String,
    /// The game as the players saw it, and each step's text.
    replica: Game,
    texts: Vec<String>,
    sent_at: HashMap<u32, Instant>,
    /// The next move: which player, when.
    next: Option<(usize, Instant)>,
    over: bool,
}

fn think() -> Duration {
    Duration::from_millis(rand::rng().random_range(500..=1500))
}

impl Pair {
    async fn play(
        game: usize,
        args: LoadArgs,
        rules: Arc<Rules<hexchess_core::bitboard::WideBitboard>>,
        stats: Shared,
        deadline: Instant,
    ) {
        let (white, black) = (args.url_of(game), args.url_of(game + 1));
        let players = match (Player::new(white).await, Player::new(black).await) {
            (Ok(a), Ok(b)) => [a, b],
            (Err(e), _) | (_, Err(e)) => return note(&stats, |s| s.error(e)),
        };
        let mut pair = Pair {
            replica: Game::new(Arc::clone(&rules)),
            args,
            rules,
            stats,
            players,
            game: String::new(),
            texts: Vec::new(),
            sent_at: HashMap::new(),
            next: None,
            over: false,
        };
        let span = deadline.saturating_duration_since(Instant::now());
        for p in &mut pair.players {
            let mut rng = rand::rng();
            if rng.random_bool(pair.args.drop) {
                let at = span.mul_f64(rng.random_range(0.25..0.75));
                p.drop_at = Some(Instant::now() + at);
            }
        }
        while Instant::now() < deadline {
            if let Err(e) = pair.start_game().await {
                note(&pair.stats, |s| s.error(format!("starting a game: {e}")));
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
            pair.play_game(deadline).await;
            pair.check_game().await;
        }
    }

    async fn start_game(&mut self) -> Result<(), String> {
        let [a, b] = &mut self.players;
        let (Some(ca), Some(cb)) = (a.client.as_mut(), b.client.as_mut()) else {
            return Err("a player is away".into());
        };
        let seek = SeekRequest {
            variant: self.args.variant.clone(),
            side: Some("white".into()),
            private: true,
            ..SeekRequest::default()
        };
        ca.send_message(&ClientMessage::Seek(seek)).await?;
        let FromServer::Message(ServerMessage::Seek(reply)) = ca
            .wait_message(
                |m| matches!(m, FromServer::Message(ServerMessage::Seek(_))),
                "seek",
            )
            .await?
        else {
            return Err("no seek".into());
        };
        let code = reply.code.unwrap_or_default();
        cb.send_message(&ClientMessage::Accept { seek: code })
            .await?;
        let started = |m: &FromServer| matches!(m, FromServer::Message(ServerMessage::Started(_)));
        let FromServer::Message(ServerMessage::Started(started_a)) =
            ca.wait_message(started, "started").await?
        else {
            return Err("no start".into());
        };
        cb.wait_message(started, "started").await?;
        self.game = started_a.game;
        for c in [&mut *ca, &mut *cb] {
            c.send_message(&ClientMessage::Join {
                game: self.game.clone(),
                seen: None,
            })
            .await?;
            c.wait_message(
                |m| matches!(m, FromServer::Message(ServerMessage::State(_))),
                "state",
            )
            .await?;
        }
        self.replica = Game::new(Arc::clone(&self.rules));
        self.texts.clear();
        self.sent_at.clear();
        self.over = false;
        self.next = Some((0, Instant::now() + think()));
        note(&self.stats, |s| s.games += 1);
        Ok(())
    }

    async fn play_game(&mut self, deadline: Instant) {
        while !self.over {
            let next_at = self.next.map(|(_, at)| at);
            let drop_at = self.players.iter().filter_map(|p| p.drop_at).min();
            let retry_at = self
                .players
                .iter()
                .any(|p| p.client.is_none())
                .then(|| Instant::now() + Duration::from_millis(200));
            let [a, b] = &mut self.players;
            tokio::select! {
                m = recv(&mut a.client) => self.received(0, m).await,
                m = recv(&mut b.client) => self.received(1, m).await,
                () = sleep_until(next_at) => self.move_now().await,
                () = sleep_until(drop_at) => self.drop_due(),
                () = sleep_until(retry_at) => self.reconnect().await,
                () = tokio::time::sleep_until(deadline) => return,
            }
        }
    }

    /// The connections due to drop go, without a goodbye.
    fn drop_due(&mut self) {
        let now = Instant::now();
        for p in &mut self.players {
            if p.drop_at.is_some_and(|at| at <= now) {
                p.drop_at = None;
                if p.client.is_some() {
                    p.lost();
                    note(&self.stats, |s| s.dropped += 1);
                }
            }
        }
    }

    /// Players away come back: hello with their secret, and join from what they saw.
    async fn reconnect(&mut self) {
        for p in &mut self.players {
            if p.client.is_some() {
                continue;
            }
            let Ok(Ok(mut client)) = tokio::time::timeout(
                Duration::from_secs(2),
                Client::hello(&p.url, Some(&p.token)),
            )
            .await
            else {
                continue;
            };
            note(&self.stats, |s| s.reconnects += 1);
            let join = ClientMessage::Join {
                game: self.game.clone(),
                seen: Some(p.seen),
            };
            if client.send_message(&join).await.is_ok() {
                p.client = Some(client);
            }
        }
    }

    async fn received(&mut self, i: usize, message: Result<FromServer, String>) {
        let message = match message {
            Ok(m) => m,
            Err(_) => return self.players[i].lost(),
        };
        if let Some(v) = message.version() {
            self.players[i].seen = self.players[i].seen.max(v);
        }
        match message {
            FromServer::Event(Numbered {
                event: GameEvent::Step { ply, step, .. },
                ..
            }) => self.step_seen(i, ply, step),
            FromServer::Event(Numbered {
                event: GameEvent::End { .. },
                ..
            }) => self.over = true,
            FromServer::Message(ServerMessage::State(state)) => self.resync(i, &state).await,
            FromServer::Message(ServerMessage::Joined(_)) => self.back_in_step(i).await,
            FromServer::Message(ServerMessage::Ack(Ack { ack, .. })) => {
                let p = &mut self.players[i];
                if p.must_refuse.remove(&ack) {
                    note(&self.stats, |s| s.illegal_accepted += 1);
                }
                if p.pending.as_ref().is_some_and(|(_, _, a)| *a == ack) {
                    p.pending = None;
                }
            }
            FromServer::Message(ServerMessage::Refused(refused)) => {
                let ack = refused.ack.unwrap_or(0);
                if !self.players[i].must_refuse.remove(&ack) {
                    note(&self.stats, |s| {
                        s.error(format!("refused: {}", refused.why))
                    });
                }
            }
            FromServer::Message(ServerMessage::Error(e)) => {
                note(&self.stats, |s| s.error(format!("error: {}", e.message)))
            }
            _ => {}
        }
    }

    /// A step event: played on the replica (by whichever player hears of it first),
    /// timed when the opponent receives it, and the opponent's answer planned.
    fn step_seen(&mut self, i: usize, ply: u32, text: String) {
        let ply = ply as usize;
        if ply < self.texts.len() {
            if self.texts[ply] != text {
                note(&self.stats, |s| {
                    s.error(format!("ply {ply}: {text} after {}", self.texts[ply]))
                });
            }
        } else if ply == self.texts.len() {
            let played = self
                .replica
                .parse_step(&text)
                .ok()
                .and_then(|s| self.replica.play(s).ok());
            if played.is_none() {
                return note(&self.stats, |s| {
                    s.error(format!("ply {ply}: '{text}' does not play"))
                });
            }
            self.texts.push(text);
        } else {
            return note(&self.stats, |s| {
                s.error(format!("ply {ply} before {}", self.texts.len()))
            });
        }
        let mover = ply % 2;
        if i != mover {
            if let Some(sent) = self.sent_at.remove(&(ply as u32)) {
                let ms = sent.elapsed().as_secs_f64() * 1000.0;
                note(&self.stats, |s| {
                    s.relay_ms.push(ms);
                    s.moves += 1;
                });
            }
            if self.replica.end().is_none() && self.next.is_none() {
                self.next = Some((i, Instant::now() + think()));
            }
        }
    }

    /// The whole game (after a gap): the replica rebuilt from it.
    async fn resync(&mut self, i: usize, state: &GameState) {
        let steps: Vec<String> = state.board.steps.iter().flatten().cloned().collect();
        // A state older than a step the other player's connection brought already (two
        // connections, two nodes: either may hear first) is behind, not different.
        let behind = steps.len() < self.texts.len() && self.texts[..steps.len()] == steps[..];
        if behind {
            // Nothing to take from it.
        } else if steps.len() >= self.texts.len() && steps[..self.texts.len()] == self.texts[..] {
            let mut replica = Game::new(Arc::clone(&self.rules));
            for s in &steps {
                if let Ok(step) = replica.parse_step(s) {
                    let _ = replica.play(step);
                }
            }
            self.replica = replica;
            self.texts = steps;
        } else {
            self.stats.lock().map(|mut s| s.mismatches += 1).ok();
        }
        if state.board.result.is_some() {
            self.over = true;
        }
        self.back_in_step(i).await;
    }

    /// A player back in step after a lost connection: timed, its unacknowledged move
    /// sent again, and the next move planned if it was lost with the connection.
    async fn back_in_step(&mut self, i: usize) {
        if let Some(lost) = self.players[i].lost_at.take() {
            let ms = lost.elapsed().as_secs_f64() * 1000.0;
            note(&self.stats, |s| s.rejoin_ms.push(ms));
        }
        if let Some((ply, step, ack)) = self.players[i].pending.clone() {
            let message = self.move_message(ply, step, ack);
            self.players[i].send(&message).await;
        }
        let on_move = self.texts.len() % 2;
        if self.next.is_none() && self.players[on_move].pending.is_none() && !self.over {
            self.next = Some((on_move, Instant::now() + think()));
        }
    }

    /// The planned move: now and then a move that must be refused first, then a
    /// random legal one.
    async fn move_now(&mut self) {
        let Some((i, _)) = self.next.take() else {
            return;
        };
        if self.texts.len() % 2 != i || self.replica.end().is_some() {
            return;
        }
        let steps = self.replica.steps();
        if steps.is_empty() {
            return;
        }
        let (step, bad, out_of_turn) = {
            let mut rng = rand::rng();
            let step = steps[rng.random_range(0..steps.len())];
            (step, rng.random_bool(0.05), rng.random_bool(0.5))
        };
        let text = self.replica.step_lan(step);
        let ply = self.texts.len() as u32;
        if bad {
            // Out of turn: the opponent sends this very move; or the mover a move
            // from a cell to itself, which no rule allows.
            let (who, wrong) = if out_of_turn {
                (1 - i, text.clone())
            } else {
                (i, format!("{0}{0}", &text[..text.len() / 2]))
            };
            let p = &mut self.players[who];
            p.acks += 1;
            p.must_refuse.insert(p.acks);
            let message = ClientMessage::Move {
                game: self.game.clone(),
                ply,
                step: wrong,
                ack: p.acks,
                lag_ms: None,
            };
            p.send(&message).await;
            note(&self.stats, |s| s.illegal_sent += 1);
        }
        let p = &mut self.players[i];
        p.acks += 1;
        p.pending = Some((ply, text.clone(), p.acks));
        self.sent_at.insert(ply, Instant::now());
        let message = ClientMessage::Move {
            game: self.game.clone(),
            ply,
            step: text,
            ack: p.acks,
            lag_ms: None,
        };
        p.send(&message).await;
    }

    fn move_message(&self, ply: u32, step: String, ack: u64) -> ClientMessage {
        ClientMessage::Move {
            game: self.game.clone(),
            ply,
            step,
            ack,
            lag_ms: None,
        }
    }

    /// The game as the server holds it against what the players saw.
    async fn check_game(&mut self) {
        let Some(c) = self.players[0].client.as_mut() else {
            return;
        };
        let join = ClientMessage::Join {
            game: self.game.clone(),
            seen: None,
        };
        let Ok(()) = c.send_message(&join).await else {
            return;
        };
        let game = self.game.clone();
        let Ok(FromServer::Message(ServerMessage::State(state))) = c
            .wait_message(
                |m| matches!(m, FromServer::Message(ServerMessage::State(s)) if s.game == game),
                "state",
            )
            .await
        else {
            return;
        };
        let steps: Vec<String> = state.board.steps.iter().flatten().cloned().collect();
        // The last move may have been in flight when the run ended: the server may
        // hold one more, never fewer, never others.
        let same = steps.len() >= self.texts.len()
            && steps.len() <= self.texts.len() + 1
            && steps[..self.texts.len()] == self.texts[..];
        note(&self.stats, |s| {
            s.checked += 1;
            if !same {
                s.mismatches += 1;
            }
        });
        if state.board.result.is_none() {
            // Leave it resigned, so the server's list of games in play stays short.
            let resign = ClientMessage::Resign {
                game: self.game.clone(),
            };
            let _ = c.send_message(&resign).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(url: &str, games: usize, seconds: u64, drop: f64) -> LoadArgs {
        LoadArgs {
            url: vec![url.into()],
            games,
            seconds,
            variant: "glinski".into(),
            drop,
            json: false,
            login_flood: 0,
            sleepers: 0,
            seekers: 0,
            server_pid: None,
            arena: None,
        }
    }

    #[test]
    fn every_count_and_share_is_ranged_and_the_url_is_a_local_socket() {
        let url = "ws://127.0.0.1:7474/socket";
        assert_eq!(args(url, 10, 30, 0.1).check(), Ok(()));
        assert_eq!(
            args("ws://localhost:7474/socket", 1, 1, 1.0).check(),
            Ok(())
        );
        for (bad, said) in [
            (args(url, 0, 30, 0.0), "--games 0: 1 to 5000"),
            (args(url, 1_000_000_000_000, 30, 0.0), "1 to 5000"),
            (args(url, 10, 0, 0.0), "--seconds 0"),
            (args(url, 10, 86_400, 0.0), "1 to 3600"),
            (
                args(url, 10, 30, f64::NAN),
                "--drop NaN: a share from 0 to 1",
            ),
            (args(url, 10, 30, -0.5), "a share from 0 to 1"),
            (args(url, 10, 30, 2.0), "a share from 0 to 1"),
            (
                args("ws://127.0.0.1:7474", 10, 30, 0.0),
                "is not a server's socket: its path is /socket (ws://127.0.0.1:7474/socket)",
            ),
            (
                args("ws://127.0.0.1:7474/", 10, 30, 0.0),
                "its path is /socket",
            ),
            (
                args("ws://10.0.0.1:7474/socket", 10, 30, 0.0),
                "127.0.0.1 only",
            ),
            (
                args("wss://127.0.0.1/socket", 10, 30, 0.0),
                "ws:// to this machine",
            ),
        ] {
            let e = bad.check().unwrap_err();
            assert!(e.contains(said), "{e}");
        }
    }
}
