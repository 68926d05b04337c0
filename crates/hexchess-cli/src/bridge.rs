//! `hexchess-engine bridge`: an engine plays on a server (docs/online.md), as a bot
//! account, through the same protocol as people.
//!
//! The engine is any program that speaks this project's UCI-style protocol (by
//! default this very program): the bridge starts it, sets its variant, and for each
//! of its turns sends `position startpos moves ...` (the game so far, whole turns in
//! a game of more sides) and `go movetime N`, and plays its `bestmove` on the server,
//! step by step. It signs in to its account (registering it the first time), pairs
//! quickly for a game like the one given, plays it to the end, and seeks the next
//! until it has played `--games`. Its rule for rematches: when the opponent asks within
//! [`REMATCH_WAIT`] of the end, it agrees, up to `--rematches` in a row; otherwise it
//! does not answer (the server's rematch then never starts) and seeks again.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use hexchess_core::Game;
use hexchess_protocol::{
    ClientMessage, FromServer, GameEvent, Numbered, PROTOCOL, SeekRequest, ServerMessage, Welcome,
};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

#[derive(Args, Debug, Clone)]
pub struct BridgeArgs {
    /// The server's socket: `ws://127.0.0.1:7474/socket`.
    #[arg(long)]
    pub url: String,
    /// The bot's account name and password (the account is made on first use).
    #[arg(long)]
    pub name: String,
    #[arg(long)]
    pub password: String,
    /// The engine to run and its arguments (default: this program).
    #[arg(long, num_args = 1.., allow_hyphen_values = true)]
    pub engine: Vec<String>,
    #[arg(long, default_value = "glinski")]
    pub variant: String,
    /// The clock of the games it seeks: minutes and increment (none: untimed).
    #[arg(long)]
    pub minutes: Option<u32>,
    #[arg(long, default_value_t = 0)]
    pub increment: u32,
    /// How long the engine thinks over a move: 1 ms to a day (the protocol's range
    /// for `go movetime`).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub movetime_ms: u64,
    /// Games to play, then stop (0: on and on).
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// Rematches it agrees to in a row when the opponent asks (0: none).
    #[arg(long, default_value_t = 2)]
    pub rematches: u32,
}

/// How long after a game's end the bridge listens for the opponent's rematch.
pub const REMATCH_WAIT: Duration = Duration::from_secs(10);

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// The engine's process.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(command: &[String], variant: &str) -> Result<Engine, String> {
        let (program, args): (PathBuf, &[String]) = match command.split_first() {
            Some((p, rest)) => (PathBuf::from(p), rest),
            None => (
                std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?,
                &[],
            ),
        };
        let mut child = Command::new(&program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting {}: {e}", program.display()))?;
        let input = child.stdin.take().ok_or("no engine input")?;
        let output = BufReader::new(child.stdout.take().ok_or("no engine output")?);
        let mut engine = Engine {
            child,
            input,
            output,
        };
        engine.say("uci")?;
        engine.wait_for("uciok")?;
        engine.say(&format!("setoption name UCI_Variant value {variant}"))?;
        engine.say("isready")?;
        engine.wait_for("readyok")?;
        Ok(engine)
    }

    fn say(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("the engine: {e}"))
    }

    /// Lines until one starting with `word`; that line.
    fn wait_for(&mut self, word: &str) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("the engine: {e}"))?;
            if n == 0 {
                return Err(format!("the engine ended before '{word}'"));
            }
            if line.trim_start().starts_with(word) {
                return Ok(line.trim().to_string());
            }
        }
    }

    /// The engine's turn after `turns` (each a turn's text).
    fn best(&mut self, turns: &[String], movetime: u64) -> Result<String, String> {
        let moves = if turns.is_empty() {
            String::new()
        } else {
            format!(" moves {}", turns.join(" "))
        };
        self.say(&format!("position startpos{moves}"))?;
        self.say(&format!("go movetime {movetime}"))?;
        let line = self.wait_for("bestmove")?;
        line.split_whitespace()
            .nth(1)
            .map(String::from)
            .ok_or_else(|| format!("the engine said '{line}'"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.say("quit");
        let _ = self.child.wait();
    }
}

fn send(socket: &mut Socket, message: &ClientMessage) -> Result<(), String> {
    socket
        .send(Message::Text(message.to_text().into()))
        .map_err(|e| format!("the server: {e}"))
}

/// The next message that `wanted` takes (others passed over, an `error` returned as
/// one).
fn wait_for<T>(
    socket: &mut Socket,
    wanted: impl Fn(ServerMessage) -> Option<T>,
) -> Result<T, String> {
    loop {
        if let FromServer::Message(message) = read(socket)? {
            if let ServerMessage::Error(e) = &message {
                return Err(format!("the server: {}", e.message));
            }
            if let Some(found) = wanted(message) {
                return Ok(found);
            }
        }
    }
}

fn welcome(message: ServerMessage) -> Option<Welcome> {
    match message {
        ServerMessage::Welcome(w) => Some(w),
        _ => None,
    }
}

fn read(socket: &mut Socket) -> Result<FromServer, String> {
    loop {
        match socket.read().map_err(|e| format!("the server: {e}"))? {
            Message::Text(text) => {
                return FromServer::read(&text).map_err(|e| format!("the server: {e}"));
            }
            Message::Close(_) => return Err("the server closed the connection".into()),
            _ => {}
        }
    }
}

/// Listens for `wait` for the opponent's rematch of `game`; agrees to one, and gives
/// the new game once the server starts it.
fn answer_a_rematch(
    socket: &mut Socket,
    game: &str,
    wait: Duration,
) -> Result<Option<hexchess_protocol::Started>, String> {
    let until = Instant::now() + wait;
    let mut agreed = false;
    set_read_timeout(socket, Some(Duration::from_millis(200)))?;
    let found = loop {
        if Instant::now() >= until {
            break None;
        }
        let message = match socket.read() {
            Ok(Message::Text(text)) => {
                FromServer::read(&text).map_err(|e| format!("the server: {e}"))?
            }
            Ok(Message::Close(_)) => return Err("the server closed the connection".into()),
            Ok(_) => continue,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                continue;
            }
            Err(e) => return Err(format!("the server: {e}")),
        };
        match message {
            FromServer::Message(ServerMessage::Rematch(r)) if r.game == game && !agreed => {
                agreed = true;
                let ask = ClientMessage::Rematch {
                    game: game.to_string(),
                };
                send(socket, &ask)?;
            }
            FromServer::Message(ServerMessage::Started(s)) if agreed => break Some(s),
            _ => {}
        }
    };
    set_read_timeout(socket, None)?;
    Ok(found)
}

/// Reads from the server wait at most `timeout` (none: for ever).
fn set_read_timeout(socket: &mut Socket, timeout: Option<Duration>) -> Result<(), String> {
    match socket.get_mut() {
        MaybeTlsStream::Plain(stream) => stream
            .set_read_timeout(timeout)
            .map_err(|e| format!("the connection: {e}")),
        _ => Ok(()),
    }
}

/// Signs in to the account, or makes it.
fn sign_in(socket: &mut Socket, args: &BridgeArgs) -> Result<String, String> {
    let hello = ClientMessage::Hello {
        protocol: PROTOCOL,
        token: None,
    };
    send(socket, &hello)?;
    wait_for(socket, welcome)?;
    let login = ClientMessage::Login {
        name: args.name.clone(),
        password: args.password.clone(),
    };
    send(socket, &login)?;
    if let Ok(welcome) = wait_for(socket, welcome) {
        return Ok(welcome.name);
    }
    // A new account is a bot's: the lists and the board mark it so.
    let register = ClientMessage::Register {
        name: args.name.clone(),
        password: args.password.clone(),
        bot: true,
    };
    send(socket, &register)?;
    Ok(wait_for(socket, welcome)?.name)
}

pub fn run(args: &BridgeArgs) -> Result<(), String> {
    let catalog = hexchess_files::variants::load_default(&crate::disk::DISK);
    let entry = catalog
        .get(&args.variant)
        .ok_or_else(|| format!("no variant '{}'", args.variant))?;
    let rules = Arc::clone(entry.rules());
    let mut engine = Engine::start(&args.engine, &args.variant)?;
    let (mut socket, _) =
        tungstenite::connect(args.url.as_str()).map_err(|e| format!("{}: {e}", args.url))?;
    let name = sign_in(&mut socket, args)?;
    eprintln!("bridge: playing as {name} on {}", args.url);
    let mut played = 0;
    let (mut rematch, mut in_a_row) = (None, 0);
    while args.games == 0 || played < args.games {
        let started = match rematch.take() {
            Some(started) => started,
            None => {
                let quick = ClientMessage::Quick(SeekRequest {
                    variant: args.variant.clone(),
                    minutes: args.minutes,
                    increment: args.increment,
                    ..SeekRequest::default()
                });
                send(&mut socket, &quick)?;
                wait_for(&mut socket, |m| match m {
                    ServerMessage::Started(s) => Some(s),
                    _ => None,
                })?
            }
        };
        eprintln!("bridge: game {} as {}", started.game, started.side);
        let end = play_game(
            &mut socket,
            &mut engine,
            &rules,
            &started.game,
            &started.side,
            args.movetime_ms,
        )?;
        eprintln!("bridge: game {} over: {end}", started.game);
        println!("{} {end}", started.game);
        played += 1;
        let more = args.games == 0 || played < args.games;
        if more && in_a_row < args.rematches {
            rematch = answer_a_rematch(&mut socket, &started.game, REMATCH_WAIT)?;
        }
        in_a_row = if rematch.is_some() { in_a_row + 1 } else { 0 };
    }
    let _ = socket.close(None);
    Ok(())
}

/// Plays one game to its end; its result and why.
fn play_game(
    socket: &mut Socket,
    engine: &mut Engine,
    rules: &Arc<hexchess_core::Rules<hexchess_core::bitboard::WideBitboard>>,
    game_id: &str,
    side: &str,
    movetime: u64,
) -> Result<String, String> {
    let join = ClientMessage::Join {
        game: game_id.to_string(),
        seen: None,
    };
    send(socket, &join)?;
    let mut ack = 0;
    let mut steps: Vec<String> = Vec::new();
    let mut to_move: String;
    // The steps played once the engine's last turn is in (none of it sent twice).
    let mut sent_up_to = 0;
    let deadline = Instant::now() + Duration::from_secs(6 * 60 * 60);
    while Instant::now() < deadline {
        let message = read(socket)?;
        if message.game() != Some(game_id) {
            continue;
        }
        match message {
            FromServer::Message(ServerMessage::State(state)) => {
                let board = state.board;
                steps = board.steps.into_iter().flatten().collect();
                to_move = board.to_move;
                if let Some(result) = board.result {
                    return Ok(format!("{result} {}", board.why.unwrap_or_default()));
                }
            }
            FromServer::Event(Numbered { event, .. }) => match event {
                GameEvent::Step {
                    ply,
                    step,
                    to_move: next,
                    ..
                } => {
                    if ply as usize == steps.len() {
                        steps.push(step);
                    }
                    to_move = next;
                }
                GameEvent::End { result, why, .. } => return Ok(format!("{result} {why}")),
                _ => continue,
            },
            FromServer::Message(ServerMessage::Refused(refused)) => {
                return Err(format!(
                    "the server refused the engine's move: {}",
                    refused.why
                ));
            }
            _ => continue,
        }
        if to_move != side {
            continue;
        }
        // The game so far as whole turns, for the engine's `position`.
        let mut local = Game::new(Arc::clone(rules));
        for text in &steps {
            let step = local
                .parse_step(text)
                .map_err(|e| format!("'{text}': {e}"))?;
            local.play(step).map_err(|e| format!("'{text}': {e}"))?;
        }
        if local.steps_played() < sent_up_to {
            continue; // our own steps, on their way back
        }
        let turns = local.turn_texts();
        let best = engine.best(&turns, movetime)?;
        // A turn of several steps is written with `&` between them. Each is sent in the
        // protocol's long notation, whatever notation the engine wrote it in (the
        // server reads nothing else).
        for text in best.split('&') {
            ack += 1;
            let step = local
                .parse_step(text)
                .map_err(|e| format!("the engine's '{text}': {e}"))?;
            let message = ClientMessage::Move {
                game: game_id.to_string(),
                ply: local.steps_played() as u32,
                step: local.step_lan(step),
                ack,
                lag_ms: None,
            };
            local
                .play(step)
                .map_err(|e| format!("the engine's '{text}': {e}"))?;
            send(socket, &message)?;
        }
        sent_up_to = local.steps_played();
    }
    Err("the game went on for six hours".into())
}
