//! Tournaments (issue 67): the Dutch pairing as a command; a Swiss, a round robin of
//! engine seats and an arena held by the server, each across a `kill -9`, on SQLite
//! and PostgreSQL. Every server here listens on 127.0.0.1.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{Server, postgres, sqlite};
use hexchess_server::client::Client;
use hexchess_tournament::round_robin::{self, Number};
use hexchess_tournament::swiss::pair_next_round;
use hexchess_tournament::trf::{self, Colour, RoundResult};
use serde_json::{Value, json};
use tokio::sync::mpsc;

const BINARY: &str = env!("CARGO_BIN_EXE_hexchess-server");

/// A tournament bbpPairings generated and paired (the tournament crate's test
/// data): the round it paired third.
fn before_round_three() -> (trf::Tournament, String) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hexchess-tournament/tests/dutch/02-9-players-5-rounds-feat.trf"
    );
    let mut full = trf::read(&std::fs::read_to_string(path).unwrap()).unwrap();
    full.rounds = Some(5);
    let mut boards = Vec::new();
    let mut bye = None;
    for p in &full.players {
        let r = p.rounds[2];
        match (r.opponent, r.colour) {
            (Some(o), Some(Colour::White)) => boards.push(format!("{} {}", p.number, o)),
            _ if r.result == trf::RoundResult::PairingBye => bye = Some(p.number),
            _ => {}
        }
    }
    boards.sort();
    boards.extend(bye.map(|b| format!("{b} 0")));
    (full.before_round(3), boards.join("\n"))
}

#[test]
fn pair_swiss_prints_the_next_round_as_the_pairing_programs_do() {
    let (before, expected) = before_round_three();
    let dir = std::env::temp_dir().join(format!("hexchess-pair-swiss-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("round3.trf");
    std::fs::write(&file, trf::write(&before)).unwrap();
    let out = Command::new(BINARY)
        .arg("pair-swiss")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.remove(0).parse::<usize>().unwrap(),
        lines.len(),
        "the count comes first"
    );
    let byes: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.ends_with(" 0"))
        .collect();
    let mut boards: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.ends_with(" 0"))
        .collect();
    boards.sort();
    boards.extend(byes);
    assert_eq!(boards.join("\n"), expected, "bbpPairings's third round");

    // A fault names the file, the line and the column, and nothing is printed.
    let bad = dir.join("bad.trf");
    std::fs::write(&bad, trf::write(&before).replace("XXR 5", "XXR five")).unwrap();
    let out = Command::new(BINARY)
        .arg("pair-swiss")
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("bad.trf: line 2, column 5: rounds"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// How a test player plays.
#[derive(Clone, Default)]
struct Style {
    /// An account of a bot with this name (a bridge's), else an anonymous player.
    bot: Option<String>,
    /// Games of fourteen plies (then the side on move resigns), instead of the plan.
    long: bool,
    /// Goes berserk in every game, before its first move.
    berserk: bool,
}

/// What the test tells a player to do in a tournament.
enum Order {
    Join(String),
    Withdraw(String),
}

/// How a game ends, by its id (so that the results are mixed, whoever plays it):
/// white resigns at ply 2, black resigns at ply 3, or white offers a draw at ply 2
/// and black takes it. Each first plays its moves: a game played, not a forfeit.
fn plan(game: &str) -> u32 {
    game.bytes().map(u32::from).sum::<u32>() % 3
}

/// One game as a player sees it.
#[derive(Default)]
struct Seen {
    mine: Vec<String>,
    ply: u32,
    to_move: String,
    legal: Vec<String>,
    offered: bool,
    over: bool,
    /// A program holds the other seat (it takes no draw).
    against_bot: bool,
    /// Berserk sent.
    berserk: bool,
    /// What was last sent, for which ply (not sent twice).
    sent: Option<(u32, &'static str)>,
}

/// A player that follows orders and plays every tournament game it is given by the
/// plan above. Ending a game (a resignation, taking a draw) takes one of `ends`'s
/// permits, so that the test decides how many games may end, and when. It
/// reconnects with its secret whenever the server goes away, and joins its games
/// in play again. Stops when `stop` is set.
async fn player(
    url: String,
    mut orders: mpsc::UnboundedReceiver<Order>,
    ends: Arc<tokio::sync::Semaphore>,
    stop: Arc<AtomicBool>,
    style: Style,
) {
    let bot = style.bot.clone();
    let mut token: Option<String> = None;
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut c) = Client::hello(&url, token.as_deref()).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        // A bridge's bot: an account marked as a program's, made once.
        if let (None, Some(name)) = (&token, &bot) {
            let register = json!({"t": "register", "name": name, "password": "a bot's long password", "bot": true});
            if c.send(&register).await.is_err() || c.wait_for("welcome").await.is_err() {
                continue;
            }
        }
        token = c.token.clone();
        let mut games: HashMap<String, Seen> = HashMap::new();
        if c.send(&json!({"t": "games"})).await.is_err() {
            continue;
        }
        loop {
            tokio::select! {
                order = orders.recv() => {
                    let message = match order {
                        Some(Order::Join(t)) => json!({"t": "tournament_join", "tournament": t}),
                        Some(Order::Withdraw(t)) => json!({"t": "tournament_withdraw", "tournament": t}),
                        None => return,
                    };
                    if c.send(&message).await.is_err() {
                        break;
                    }
                }
                message = c.recv() => match message {
                    Ok(m) => {
                        if seen(&mut c, &m, &mut games).await.is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                },
                () = tokio::time::sleep(Duration::from_millis(100)) => {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                }
            }
            if play(&mut c, &mut games, &ends, &style).await.is_err() {
                break;
            }
        }
    }
}

/// Takes in one message about the player's games.
async fn seen(c: &mut Client, m: &Value, games: &mut HashMap<String, Seen>) -> Result<(), String> {
    let game = m["game"].as_str().unwrap_or_default().to_string();
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(String::from))
            .collect()
    };
    match m["t"].as_str().unwrap_or_default() {
        "started" => return c.send(&json!({"t": "join", "game": game})).await,
        "games" => {
            for g in m["games"].as_array().into_iter().flatten() {
                c.send(&json!({"t": "join", "game": g["game"]})).await?;
            }
        }
        "state" => {
            let g = games.entry(game).or_default();
            g.mine = strings(&m["you"]);
            let bots: Vec<bool> = m["bots"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|b| b.as_bool().unwrap_or(false))
                .collect();
            let white_mine = g.mine.iter().any(|s| s == "White");
            g.against_bot = bots.get(usize::from(white_mine)).copied().unwrap_or(false);
            g.ply = m["ply"].as_u64().unwrap_or(0) as u32;
            g.to_move = m["to_move"].as_str().unwrap_or_default().into();
            g.legal = strings(&m["legal"]);
            g.offered = m["draw_offers"].as_array().is_some_and(|o| !o.is_empty());
            g.over = !m["result"].is_null();
        }
        "step" => {
            let g = games.entry(game).or_default();
            g.ply = m["ply"].as_u64().unwrap_or(0) as u32 + 1;
            g.to_move = m["to_move"].as_str().unwrap_or_default().into();
            g.legal = strings(&m["legal"]);
        }
        "draw_offer" => games.entry(game).or_default().offered = true,
        "end" => games.entry(game).or_default().over = true,
        _ => {}
    }
    Ok(())
}

/// Does what the plan says in each game where it is this player's turn to.
async fn play(
    c: &mut Client,
    games: &mut HashMap<String, Seen>,
    ends: &tokio::sync::Semaphore,
    style: &Style,
) -> Result<(), String> {
    for (id, g) in games.iter_mut() {
        if g.over || g.mine.is_empty() {
            continue;
        }
        let white = g.mine.iter().any(|s| s == "White");
        let on_move = g.mine.contains(&g.to_move);
        let before_my_first_move = g.ply <= u32::from(!white);
        if style.berserk && before_my_first_move && !g.berserk {
            c.send(&json!({"t": "berserk", "game": id})).await?;
            g.berserk = true;
        }
        let k = if style.long { 3 } else { plan(id) };
        let act: Option<&'static str> = match (k, g.ply, white, on_move) {
            // Long games: fourteen plies, then the side on move resigns.
            (3, 0..14, _, true) => Some("move"),
            (3, 14.., _, true) => Some("resign"),
            (3, _, _, _) => None,
            (_, 0 | 1, _, true) => Some("move"),
            (0, 2, true, true) => Some("resign"),
            (1, 2, true, true) => Some("move"),
            (1, 3, false, true) => Some("resign"),
            // A draw offered to a person, taken by them; an engine seat takes none:
            // its opponent resigns instead.
            (2, 2, true, true) if !g.against_bot => (!g.offered).then_some("offer"),
            (2, 2, false, false) if g.offered => Some("accept"),
            (2, 2.., _, true) | (_, 4.., _, true) => Some("resign"),
            _ => None,
        };
        let Some(act) = act else { continue };
        if g.sent == Some((g.ply, act)) {
            continue;
        }
        let ending = matches!(act, "resign" | "accept");
        if ending {
            match ends.try_acquire() {
                Ok(permit) => permit.forget(),
                Err(_) => continue,
            }
        }
        let step = json!({"t": "move", "game": id, "ply": g.ply, "step": g.legal[0], "ack": g.ply});
        match act {
            "move" => c.send(&step).await?,
            "resign" => c.send(&json!({"t": "resign", "game": id})).await?,
            _ => c.send(&json!({"t": "draw", "game": id})).await?,
        }
        g.sent = Some((g.ply, act));
    }
    Ok(())
}

/// A signed-in account (the tournament's creator).
async fn account(url: &str, name: &str) -> Client {
    let mut c = Client::hello(url, None).await.unwrap();
    c.send(&json!({"t": "register", "name": name, "password": "a good long password"}))
        .await
        .unwrap();
    c.wait_for("welcome").await.unwrap();
    c
}

/// The tournament's TRF from the server.
async fn trf_now(server: &Server, id: &str) -> trf::Tournament {
    let (status, body) = server.get(&format!("/tournament/{id}.trf")).await;
    assert!(status.contains("200"), "{status}: {body}");
    trf::read(&body).unwrap_or_else(|e| panic!("{e}\n{body}"))
}

/// The tournament's view from the server.
async fn view_now(server: &Server, id: &str) -> Value {
    let (status, body) = server.get(&format!("/tournament/{id}")).await;
    assert!(status.contains("200"), "{status}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// Rounds whose every game has a result, in the TRF (a round in play is left out of
/// it by the server).
fn rounds_done(t: &trf::Tournament) -> usize {
    t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0)
}

async fn wait_until<F, Fut>(what: &str, limit: Duration, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + limit;
    while !check().await {
        assert!(
            Instant::now() < deadline,
            "waited {} s for {what}",
            limit.as_secs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Round `r` of the file: its boards (white, black) and its bye.
fn round_in(t: &trf::Tournament, r: usize) -> (BTreeSet<(u32, u32)>, Option<Number>) {
    let mut boards = BTreeSet::new();
    let mut bye = None;
    for p in &t.players {
        let Some(round) = p.rounds.get(r - 1) else {
            continue;
        };
        match (round.opponent, round.colour) {
            (Some(o), Some(Colour::White)) => {
                boards.insert((p.number.0, o.0));
            }
            _ if round.result == RoundResult::PairingBye => bye = Some(p.number),
            _ => {}
        }
    }
    (boards, bye)
}

/// A Swiss of nine players over five rounds: a bye in the first round, a late entry
/// before the second (ten), a withdrawal after the third (nine again: byes), the
/// server killed in the second round's games and again as the third ends. Each
/// round must be the Dutch system's pairing of the rounds before it, as the
/// server's own TRF file has them, and the standings its results.
async fn swiss_of_nine(database: String) {
    let mut server = Server::start(&database).await;
    let url = server.url();
    let mut director = account(&url, "arbiter").await;
    director
        .send(
            &json!({"t": "tournament_create", "kind": "swiss", "name": "Test Swiss",
                       "variant": "glinski", "minutes": 3, "increment": 0, "rounds": 5,
                       "starts_in": 3, "first_move_seconds": 20}),
        )
        .await
        .unwrap();
    let created = director.wait_for("tournament").await.unwrap();
    let id = created["listing"]["id"].as_str().unwrap().to_string();
    assert_eq!(created["listing"]["status"], "waiting");
    let stop = Arc::new(AtomicBool::new(false));
    let ends = Arc::new(tokio::sync::Semaphore::new(0));
    let mut orders = Vec::new();
    for _ in 0..10 {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(player(
            url.clone(),
            rx,
            Arc::clone(&ends),
            Arc::clone(&stop),
            Style::default(),
        ));
        orders.push(tx);
    }
    for o in &orders[..9] {
        o.send(Order::Join(id.clone())).unwrap();
    }
    let playing = |view: &Value| {
        view["standings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| !l["playing"].is_null())
            .count()
    };
    // Round 1: nine players, four games and a bye, held at ply 2.
    wait_until("round 1's four games", Duration::from_secs(20), || async {
        let v = view_now(&server, &id).await;
        v["listing"]["round"] == 1 && playing(&v) == 8
    })
    .await;
    // The late entry, in time for round 2.
    orders[9].send(Order::Join(id.clone())).unwrap();
    wait_until("the tenth entry", Duration::from_secs(10), || async {
        view_now(&server, &id).await["standings"]
            .as_array()
            .unwrap()
            .len()
            == 10
    })
    .await;
    ends.add_permits(4);
    wait_until("round 2's five games", Duration::from_secs(30), || async {
        let v = view_now(&server, &id).await;
        v["listing"]["round"] == 2 && playing(&v) == 10
    })
    .await;
    // Killed while round 2 is played: two of its games over, three on.
    ends.add_permits(2);
    wait_until(
        "two of round 2's games over",
        Duration::from_secs(30),
        || async { playing(&view_now(&server, &id).await) == 6 },
    )
    .await;
    server = server.restart().await;
    ends.add_permits(3);
    wait_until("round 3's five games", Duration::from_secs(60), || async {
        let v = view_now(&server, &id).await;
        v["listing"]["round"] == 3 && playing(&v) == 10
    })
    .await;
    // A withdrawal during round 3: nine play on from round 4, with a bye each round.
    orders[4].send(Order::Withdraw(id.clone())).unwrap();
    wait_until("the withdrawal", Duration::from_secs(10), || async {
        view_now(&server, &id).await["standings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["withdrawn"] == true)
    })
    .await;
    // Killed as round 3 ends: before, while or after round 4 is paired.
    ends.add_permits(5);
    wait_until("round 3's results", Duration::from_secs(30), || async {
        playing(&view_now(&server, &id).await) < 10
    })
    .await;
    server = server.restart().await;
    ends.add_permits(1000);
    wait_until("the end", Duration::from_secs(120), || async {
        view_now(&server, &id).await["listing"]["status"] == "finished"
    })
    .await;
    stop.store(true, Ordering::Relaxed);

    let done = trf_now(&server, &id).await;
    assert_eq!(rounds_done(&done), 5, "five rounds played");
    assert_eq!(done.players.len(), 10);
    let mut met = BTreeSet::new();
    let mut byes = 0;
    for r in 1..=5 {
        // The server's round r is the Dutch pairing of the rounds before it.
        let before = done.before_round(r);
        let paired = pair_next_round(&before).unwrap_or_else(|e| panic!("round {r}: {e}"));
        let ours: BTreeSet<(u32, u32)> = paired
            .boards
            .iter()
            .map(|b| (b.white.0, b.black.0))
            .collect();
        let (theirs, bye) = round_in(&done, r);
        assert_eq!(theirs, ours, "round {r}: the boards");
        assert_eq!(bye, paired.bye, "round {r}: the bye");
        byes += usize::from(bye.is_some());
        let playing = theirs.len() * 2 + usize::from(bye.is_some());
        let expected = match r {
            1 => 9,
            2 | 3 => 10,
            _ => 9,
        };
        assert_eq!(playing, expected, "round {r}: everyone present paired");
        for (w, b) in theirs {
            assert!(
                met.insert((w.min(b), w.max(b))),
                "round {r}: {w} and {b} met before"
            );
        }
    }
    assert_eq!(byes, 3, "byes in rounds 1, 4 and 5");
    // The late entrant missed round 1; the one withdrawn is in no round after 3.
    let late = done.players.iter().max_by_key(|p| p.number).unwrap();
    assert_eq!(late.rounds[0].result, RoundResult::ZeroBye);
    let view = view_now(&server, &id).await;
    let standings = view["standings"].as_array().unwrap();
    let withdrawn: Vec<&Value> = standings
        .iter()
        .filter(|l| l["withdrawn"] == true)
        .collect();
    assert_eq!(withdrawn.len(), 1);
    let gone = Number(withdrawn[0]["number"].as_u64().unwrap() as u32);
    for r in 4..=5 {
        let (boards, bye) = round_in(&done, r);
        assert!(boards.iter().all(|&(w, b)| w != gone.0 && b != gone.0) && bye != Some(gone));
    }
    // The standings are the file's points, best first.
    for line in standings {
        let n = line["number"].as_u64().unwrap() as u32;
        let p = done.players.iter().find(|p| p.number.0 == n).unwrap();
        assert_eq!(
            (line["points"].as_f64().unwrap() * 10.0).round() as u32,
            p.points_tenths
        );
    }
    let points: Vec<f64> = standings
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_swiss_of_nine_survives_kills_on_sqlite() {
    swiss_of_nine(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_swiss_of_nine_survives_kills_on_postgres() {
    swiss_of_nine(postgres().await).await;
}

/// A round robin of six bots (accounts a program plays for, as a bridge's), the
/// server killed in its third round: fifteen games, everyone meeting everyone once
/// in the Berger tables' rounds, each a bot in the standings.
async fn round_robin_of_six_bots(database: String) {
    let mut server = Server::start(&database).await;
    let url = server.url();
    let mut director = account(&url, "league").await;
    director
        .send(
            &json!({"t": "tournament_create", "kind": "round_robin", "name": "Bot league",
                       "variant": "glinski", "minutes": 3, "rounds": 1, "bots": true,
                       "starts_in": 2, "first_move_seconds": 20}),
        )
        .await
        .unwrap();
    let id = director.wait_for("tournament").await.unwrap()["listing"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let stop = Arc::new(AtomicBool::new(false));
    let ends = Arc::new(tokio::sync::Semaphore::new(0));
    let mut orders = Vec::new();
    for k in 0..6 {
        let (tx, rx) = mpsc::unbounded_channel();
        let name = format!("bot{k}");
        tokio::spawn(player(
            url.clone(),
            rx,
            Arc::clone(&ends),
            Arc::clone(&stop),
            Style {
                bot: Some(name),
                ..Style::default()
            },
        ));
        tx.send(Order::Join(id.clone())).unwrap();
        orders.push(tx);
    }
    wait_until("six entries", Duration::from_secs(20), || async {
        view_now(&server, &id).await["standings"]
            .as_array()
            .unwrap()
            .len()
            == 6
    })
    .await;
    // Rounds 1 and 2, then killed with round 3's games held on.
    ends.add_permits(6);
    wait_until("round 3 in play", Duration::from_secs(30), || async {
        let v = view_now(&server, &id).await;
        v["listing"]["round"] == 3
            && v["standings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|l| !l["playing"].is_null())
                .count()
                == 6
    })
    .await;
    ends.add_permits(1);
    tokio::time::sleep(Duration::from_millis(200)).await;
    server = server.restart().await;
    ends.add_permits(1000);
    wait_until("the end", Duration::from_secs(60), || async {
        view_now(&server, &id).await["listing"]["status"] == "finished"
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    let done = trf_now(&server, &id).await;
    assert_eq!(rounds_done(&done), 5, "six players: five rounds");
    let table = round_robin::rounds(6, round_robin::Cycles::Single).unwrap();
    let mut met = BTreeSet::new();
    for (r, boards) in table.iter().enumerate() {
        let (theirs, bye) = round_in(&done, r + 1);
        let expected: BTreeSet<(u32, u32)> = boards
            .iter()
            .filter_map(|b| match *b {
                round_robin::Board::Game { white, black } => Some((white.0, black.0)),
                round_robin::Board::Bye(_) => None,
            })
            .collect();
        assert_eq!(theirs, expected, "round {}: Berger's table", r + 1);
        assert_eq!(bye, None);
        for (w, b) in theirs {
            assert!(met.insert((w.min(b), w.max(b))));
        }
    }
    assert_eq!(met.len(), 15, "everyone met everyone");
    let view = view_now(&server, &id).await;
    let standings = view["standings"].as_array().unwrap();
    assert!(
        standings
            .iter()
            .all(|l| l["bot"] == true && l["games"] == 5),
        "{standings:?}"
    );
    let total: f64 = standings
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 15.0, "a point a game");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_round_robin_of_six_bots_survives_a_kill_on_sqlite() {
    round_robin_of_six_bots(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_round_robin_of_six_bots_survives_a_kill_on_postgres() {
    round_robin_of_six_bots(postgres().await).await;
}

/// One arena game as the database keeps it.
struct ArenaGame {
    white: String,
    black: String,
    result: String,
    plies: u32,
    berserk: String,
}

/// An arena's games in the order they were paired, and each entrant's name.
async fn arena_rows(database: &str, id: &str) -> (Vec<ArenaGame>, HashMap<String, (String, bool)>) {
    use sqlx::{Connection, Row};
    sqlx::any::install_default_drivers();
    let mut db = sqlx::AnyConnection::connect(database).await.unwrap();
    let games = sqlx::query(
        "SELECT white, black, result, plies, berserk FROM tournament_games \
         WHERE tournament_id = $1 ORDER BY round, board",
    )
    .bind(id)
    .fetch_all(&mut db)
    .await
    .unwrap()
    .iter()
    .map(|r| ArenaGame {
        white: r.get("white"),
        black: r.get("black"),
        result: r.get("result"),
        plies: r.get::<i64, _>("plies") as u32,
        berserk: r.get("berserk"),
    })
    .collect();
    let names = sqlx::query(
        "SELECT entrant, name, engine FROM tournament_entries WHERE tournament_id = $1",
    )
    .bind(id)
    .fetch_all(&mut db)
    .await
    .unwrap()
    .iter()
    .map(|r| {
        let engine: Option<i64> = r.get("engine");
        (
            r.get::<String, _>("entrant"),
            (r.get::<String, _>("name"), engine.is_some()),
        )
    })
    .collect();
    (games, names)
}

/// An arena of twenty players and four engine seats for 25 seconds, berserk
/// allowed (six players go berserk every game), killed a third of the way in. The
/// points are counted again here from the stored games, by lichess's rules: a win
/// 2, a draw 1 (none under 20 plies), doubled on fire (after two wins running, until
/// a game is not won), and a berserk win of 13 plies or more one more.
async fn arena_of_twenty_and_four_engines(database: String) {
    let mut server = Server::start(&database).await;
    let url = server.url();
    let mut director = account(&url, "arenaboss").await;
    director
        .send(
            &json!({"t": "tournament_create", "kind": "arena", "name": "Hourly arena",
                       "variant": "glinski", "minutes": 1, "seconds": 25, "bots": true,
                       "berserk": true, "starts_in": 2, "first_move_seconds": 10}),
        )
        .await
        .unwrap();
    let id = director.wait_for("tournament").await.unwrap()["listing"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    for _ in 0..4 {
        director
            .send(&json!({"t": "tournament_join", "tournament": id, "engine": 1}))
            .await
            .unwrap();
    }
    let stop = Arc::new(AtomicBool::new(false));
    let ends = Arc::new(tokio::sync::Semaphore::new(1_000_000));
    let mut orders = Vec::new();
    for k in 0..20 {
        let (tx, rx) = mpsc::unbounded_channel();
        let style = Style {
            long: true,
            berserk: k < 6,
            ..Style::default()
        };
        tokio::spawn(player(
            url.clone(),
            rx,
            Arc::clone(&ends),
            Arc::clone(&stop),
            style,
        ));
        tx.send(Order::Join(id.clone())).unwrap();
        orders.push(tx);
    }
    wait_until("24 entries", Duration::from_secs(20), || async {
        view_now(&server, &id).await["standings"]
            .as_array()
            .unwrap()
            .len()
            == 24
    })
    .await;
    tokio::time::sleep(Duration::from_secs(10)).await;
    server = server.restart().await;
    wait_until("the end", Duration::from_secs(120), || async {
        view_now(&server, &id).await["listing"]["status"] == "finished"
    })
    .await;
    stop.store(true, Ordering::Relaxed);

    let (games, names) = arena_rows(&database, &id).await;
    assert!(games.len() >= 30, "{} games in 25 seconds", games.len());
    let mut points: HashMap<String, u32> = HashMap::new();
    let mut streak: HashMap<String, u32> = HashMap::new();
    let mut last: HashMap<String, String> = HashMap::new();
    let (mut berserk_bonuses, mut on_fire) = (0, 0);
    for g in &games {
        assert!(
            !(names[&g.white].1 && names[&g.black].1),
            "two engine seats never meet in an arena"
        );
        for (me, them, mark) in [(&g.white, &g.black, 'w'), (&g.black, &g.white, 'b')] {
            assert_ne!(last.get(me), Some(them), "{me} met {them} twice running");
            last.insert(me.clone(), them.clone());
            let won = matches!(
                (mark, g.result.as_str()),
                ('w', "1" | "+") | ('b', "0" | "-")
            );
            let drawn = g.result == "=";
            let fire = streak.get(me).copied().unwrap_or(0) >= 2;
            let base = if won {
                2
            } else if drawn && g.plies >= 20 {
                1
            } else {
                0
            };
            let mut p = if fire { base * 2 } else { base };
            on_fire += usize::from(fire && won);
            if won && g.berserk.contains(mark) && g.plies >= 13 {
                p += 1;
                berserk_bonuses += 1;
            }
            *points.entry(me.clone()).or_default() += p;
            let s = streak.entry(me.clone()).or_default();
            *s = if won { *s + 1 } else { 0 };
        }
    }
    assert!(berserk_bonuses > 0, "a berserk win counted its point");
    assert!(on_fire > 0, "a streak doubled a win");
    let view = view_now(&server, &id).await;
    let standings = view["standings"].as_array().unwrap();
    for (entrant, (name, _)) in &names {
        let line = standings
            .iter()
            .find(|l| l["name"] == name.as_str())
            .unwrap();
        assert_eq!(
            line["points"].as_f64().unwrap() as u32,
            points.get(entrant).copied().unwrap_or(0),
            "{name}'s points"
        );
    }
    let shown: Vec<f64> = standings
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .collect();
    assert!(
        shown.windows(2).all(|w| w[0] >= w[1]),
        "best first: {shown:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_arena_of_twenty_and_four_engines_survives_a_kill_on_sqlite() {
    arena_of_twenty_and_four_engines(sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_arena_of_twenty_and_four_engines_survives_a_kill_on_postgres() {
    arena_of_twenty_and_four_engines(postgres().await).await;
}
