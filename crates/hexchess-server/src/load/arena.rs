//! `hexchess-server load --arena PLAYERS`: an arena of simulated players, to measure
//! the tournaments' director under a crowd.
//!
//! One account creates an arena of the run's length (a 3+0 clock); every player
//! enters it, and plays each game it is given: a random legal move after a think time
//! of 0.5 to 1.5 s, until a length drawn between 20 and 60 plies, where the side on
//! move resigns. Measured: how long a player waits from its game's end to its next
//! game's start, beyond the arena's own pause before pairing a player again
//! ([`crate::tournaments::ARENA_PAUSE`]); how long a move takes to be acknowledged.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::Rng;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::{LoadArgs, check_loopback, percentile};
use crate::client::Client;

#[derive(Default)]
struct Figures {
    games: usize,
    moves: usize,
    errors: usize,
    first_errors: Vec<String>,
    /// Game end to next start, less the pause, in ms.
    pairing_ms: Vec<f64>,
    ack_ms: Vec<f64>,
}

type Shared = Arc<Mutex<Figures>>;

fn note(figures: &Shared, f: impl FnOnce(&mut Figures)) {
    if let Ok(mut g) = figures.lock() {
        f(&mut g);
    }
}

fn error(figures: &Shared, what: String) {
    note(figures, |f| {
        f.errors += 1;
        if f.first_errors.len() < 5 {
            f.first_errors.push(what);
        }
    });
}

/// Runs the arena load and prints its figures.
pub async fn run(args: LoadArgs, players: usize) -> Result<(), String> {
    let url = args.url[0].clone();
    check_loopback(&url)?;
    let mut boss = Client::hello(&url, None).await?;
    let name = format!("arena{}", rand::rng().random_range(100_000..999_999));
    boss.send(&json!({"t": "register", "name": name, "password": "the load tool's arena"}))
        .await?;
    boss.wait_for("welcome").await?;
    let starts_in = 5;
    boss.send(
        &json!({"t": "tournament_create", "kind": "arena", "name": "Load arena",
                      "variant": args.variant, "minutes": 3, "seconds": args.seconds,
                      "starts_in": starts_in}),
    )
    .await?;
    let id = boss.wait_for("tournament").await?["listing"]["id"]
        .as_str()
        .ok_or("no tournament id")?
        .to_string();
    let figures: Shared = Arc::default();
    let started = Instant::now();
    let end = started + Duration::from_secs(starts_in + args.seconds);
    let mut tasks = Vec::new();
    for i in 0..players {
        let (url, id, figures) = (url.clone(), id.clone(), Arc::clone(&figures));
        // Arrivals spread over the wait before the start.
        let arrive = Duration::from_millis(i as u64 * 4_000 / players.max(1) as u64);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(arrive).await;
            if let Err(e) = play(&url, &id, &figures, end).await {
                error(&figures, e);
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let mut f = figures.lock().map_err(|_| "the figures were lost")?;
    f.pairing_ms.sort_by(f64::total_cmp);
    f.ack_ms.sort_by(f64::total_cmp);
    let report = json!({
        "tournament": id,
        "players": players,
        "games": f.games / 2,
        "moves": f.moves,
        "seconds": started.elapsed().as_secs_f64(),
        "errors": f.errors,
        "first_errors": f.first_errors,
        "pairings": f.pairing_ms.len(),
        "pairing_beyond_pause_p50_ms": percentile(&f.pairing_ms, 0.5),
        "pairing_beyond_pause_p99_ms": percentile(&f.pairing_ms, 0.99),
        "pairing_beyond_pause_max_ms": f.pairing_ms.last().copied().unwrap_or(0.0),
        "ack_p50_ms": percentile(&f.ack_ms, 0.5),
        "ack_p99_ms": percentile(&f.ack_ms, 0.99),
    });
    if args.json {
        println!("{report}");
    } else {
        println!(
            "{} players, {} games, {} moves, pairing beyond the pause p50 {:.1} ms p99 {:.1} ms, ack p99 {:.1} ms, {} errors",
            players,
            f.games / 2,
            f.moves,
            report["pairing_beyond_pause_p50_ms"],
            report["pairing_beyond_pause_p99_ms"],
            report["ack_p99_ms"],
            f.errors
        );
    }
    Ok(())
}

/// One game as its player sees it.
struct Playing {
    mine: Vec<String>,
    length: u32,
}

/// One player: enters, plays every game it is given until the arena ends.
async fn play(url: &str, id: &str, figures: &Shared, end: Instant) -> Result<(), String> {
    let mut c = Client::hello(url, None).await?;
    c.send(&json!({"t": "tournament_join", "tournament": id}))
        .await?;
    let mut games: HashMap<String, Playing> = HashMap::new();
    let mut ended_at: Option<Instant> = None;
    let mut sent_at: HashMap<u64, Instant> = HashMap::new();
    let pause = crate::tournaments::ARENA_PAUSE.as_secs_f64() * 1000.0;
    let mut due: Option<(Instant, String, u32, String)> = None;
    while Instant::now() < end + Duration::from_secs(5) {
        let wake = due
            .as_ref()
            .map_or(Instant::now() + Duration::from_millis(500), |d| d.0);
        let message = tokio::select! {
            m = c.recv() => Some(m?),
            () = tokio::time::sleep_until(wake) => None,
        };
        if let Some((at, game, ply, step)) = due.clone()
            && Instant::now() >= at
        {
            due = None;
            let length = games.get(&game).map_or(40, |g| g.length);
            let message = if ply >= length {
                json!({"t": "resign", "game": game})
            } else {
                sent_at.insert(u64::from(ply), Instant::now());
                json!({"t": "move", "game": game, "ply": ply, "step": step, "ack": ply})
            };
            c.send(&message).await?;
        }
        let Some(m) = message else { continue };
        let game = m["game"].as_str().unwrap_or_default().to_string();
        match m["t"].as_str().unwrap_or_default() {
            "started" => {
                if let Some(at) = ended_at.take() {
                    let waited = at.elapsed().as_secs_f64() * 1000.0;
                    note(figures, |f| f.pairing_ms.push((waited - pause).max(0.0)));
                }
                c.send(&json!({"t": "join", "game": game})).await?;
            }
            "state" => {
                let mine = strings(&m["you"]);
                let length = rand::rng().random_range(20..60);
                let on_move = m["to_move"].as_str().unwrap_or_default().to_string();
                let ply = m["ply"].as_u64().unwrap_or(0) as u32;
                if m["result"].is_null() && mine.contains(&on_move) {
                    due = next_move(&game, ply, &m["legal"]);
                }
                games.insert(game, Playing { mine, length });
            }
            "step" => {
                let on_move = m["to_move"].as_str().unwrap_or_default().to_string();
                let ply = m["ply"].as_u64().unwrap_or(0) as u32 + 1;
                if games.get(&game).is_some_and(|g| g.mine.contains(&on_move)) {
                    due = next_move(&game, ply, &m["legal"]);
                }
            }
            "ack" => {
                if let Some(at) = m["ack"].as_u64().and_then(|a| sent_at.remove(&a)) {
                    let ms = at.elapsed().as_secs_f64() * 1000.0;
                    note(figures, |f| {
                        f.moves += 1;
                        f.ack_ms.push(ms);
                    });
                }
            }
            "end" if games.remove(&game).is_some() => {
                note(figures, |f| f.games += 1);
                ended_at = Some(Instant::now());
                due = None;
            }
            "error" | "refused" => error(figures, m.to_string()),
            _ => {}
        }
    }
    c.close().await;
    Ok(())
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(String::from))
        .collect()
}

/// A random legal step after a think time of 0.5 to 1.5 s.
fn next_move(game: &str, ply: u32, legal: &Value) -> Option<(Instant, String, u32, String)> {
    let legal = strings(legal);
    if legal.is_empty() {
        return None;
    }
    let mut rng = rand::rng();
    let step = legal[rng.random_range(0..legal.len())].clone();
    let think = Duration::from_millis(rng.random_range(500..1500));
    Some((Instant::now() + think, game.to_string(), ply, step))
}
