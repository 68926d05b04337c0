//! Several server processes on one database (issue 66, docs/online.md "Beyond one
//! machine"), on SQLite and PostgreSQL alike: what keeps two owners of one game from
//! both writing it.

#[macro_use]
mod common;

use std::time::Duration;

use common::redis::Redis;
use common::{Server, challenge, play, postgres, sqlite};
use hexchess_server::client::Client;
use hexchess_server::cluster::broker::{Broker, Delivery, MAX_PAYLOAD};
use hexchess_server::cluster::lease::Leases;
use hexchess_server::store::{Changes, NewGame, Store, StoreError};
use serde_json::{Value, json};
use tokio::sync::mpsc::Receiver;

on_both_databases!(a_stale_owners_writes_are_refused_and_change_nothing);

/// One move's changes from `ply` (its step a placeholder: the store keeps steps as
/// text), written with the token `fence`.
fn a_move(ply: u32, fence: u64) -> Changes {
    Changes {
        first_ply: ply,
        steps: vec![format!("step{ply}")],
        version: u64::from(ply) + 1,
        clocks: None,
        offers: "[]".into(),
        first_line: 0,
        chat: Vec::new(),
        end: None,
        fence,
    }
}

/// The stored steps and event version of game `id`.
async fn stored(store: &Store, id: &str) -> (Vec<String>, u64) {
    let games = store.games_in_progress().await.unwrap();
    let game = games
        .into_iter()
        .flatten()
        .find(|g| g.game.id == id)
        .expect("the game is in progress");
    (store.steps(id).await.unwrap(), game.version)
}

async fn a_stale_owners_writes_are_refused_and_change_nothing(url: &str) {
    let store = Store::open(url).await.unwrap();
    store
        .add_game(&NewGame {
            id: "G".into(),
            variant: "glinski".into(),
            seats: r#"[{"engine":1},{"engine":1}]"#.into(),
            control: "{}".into(),
            rated: false,
            players: vec![None, None],
        })
        .await
        .unwrap();
    // One process, no owners: token 0 writes as it always did.
    store.save_game("G", a_move(0, 0)).await.unwrap();

    // Node A takes the game over, then node B: each gets a newer token.
    let a = store.take_game("G").await.unwrap();
    assert_eq!(a, 1);
    store.save_game("G", a_move(1, a)).await.unwrap();
    let b = store.take_game("G").await.unwrap();
    assert_eq!(b, 2);

    // A, not knowing, writes ply 2: refused, and nothing of it is kept.
    let stale = store.save_game("G", a_move(2, a)).await;
    assert!(
        matches!(&stale, Err(StoreError::Fenced { game }) if game == "G"),
        "{stale:?}"
    );
    assert_eq!(
        stored(&store, "G").await,
        (vec!["step0".to_string(), "step1".to_string()], 2)
    );

    // So is a process that never took it (token 0, as a single process writes).
    let none = store.save_game("G", a_move(2, 0)).await;
    assert!(matches!(none, Err(StoreError::Fenced { .. })), "{none:?}");

    // B writes the same ply: its own.
    store.save_game("G", a_move(2, b)).await.unwrap();
    assert_eq!(stored(&store, "G").await.1, 3);

    // A write for a game the database does not have says so, as does taking one.
    let missing = store.save_game("nope", a_move(0, 0)).await;
    assert!(
        matches!(&missing, Err(StoreError::Missing { game }) if game == "nope"),
        "{missing:?}"
    );
    let missing = store.take_game("nope").await;
    assert!(
        matches!(missing, Err(StoreError::Missing { .. })),
        "{missing:?}"
    );
    store.close().await;
}

/// A lease is one node's at a time, renewed while it lives, lapsing by itself when it
/// stops renewing; the node that lost it can neither renew nor release it.
#[tokio::test]
async fn a_lease_is_one_nodes_at_a_time_and_lapses_unrenewed() {
    let redis = Redis::start();
    let ttl = Duration::from_millis(400);
    let a = Leases::connect(&redis.url(), "a", ttl).await.unwrap();
    let b = Leases::connect(&redis.url(), "b", ttl).await.unwrap();

    let held = a.claim("G").await.unwrap().expect("no one holds G");
    assert_eq!(held.game(), "G");
    assert!(b.claim("G").await.unwrap().is_none(), "a holds G");
    assert_eq!(a.owner("G").await.unwrap().as_deref(), Some("a"));

    // Renewed, it outlives its time to live.
    for _ in 0..4 {
        tokio::time::sleep(ttl / 2).await;
        assert_eq!(a.renew(std::slice::from_ref(&held)).await.unwrap(), [true]);
    }
    assert_eq!(b.owner("G").await.unwrap().as_deref(), Some("a"));

    // Unrenewed (a died), it lapses, and b takes the game.
    tokio::time::sleep(ttl * 2).await;
    assert_eq!(b.owner("G").await.unwrap(), None);
    let taken = b.claim("G").await.unwrap().expect("G's lease lapsed");
    assert_eq!(
        a.renew(std::slice::from_ref(&held)).await.unwrap(),
        [false],
        "a's lease is gone"
    );
    assert!(!a.release(&held).await.unwrap(), "not a's to give up");
    assert_eq!(a.owner("G").await.unwrap().as_deref(), Some("b"));

    // Many at once, in one round trip: each answered for itself.
    let h = b.claim("H").await.unwrap().unwrap();
    assert_eq!(
        b.renew(&[taken.clone(), held, h]).await.unwrap(),
        [true, false, true]
    );
    assert!(b.release(&taken).await.unwrap());
    assert_eq!(a.owner("G").await.unwrap(), None);
}

/// Redis stopped: a node's lease commands fail with a reason (no hang past the
/// response timeout); started again, they work without a new connection being made
/// by hand.
#[tokio::test]
async fn leases_fail_while_redis_is_down_and_work_again_when_it_is_back() {
    let mut redis = Redis::start();
    let a = Leases::connect(&redis.url(), "a", Duration::from_secs(5))
        .await
        .unwrap();
    let held = a.claim("G").await.unwrap().expect("no one holds G");

    redis.stop();
    let started = std::time::Instant::now();
    let down = a.claim("H").await;
    let error = down.expect_err("Redis is down").to_string();
    assert!(error.starts_with("redis, taking a lease:"), "{error}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );

    // Back, empty (it keeps nothing): the node's next renewal reaches it and takes
    // its lease again, since no other node holds it.
    redis.start_again();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let kept = loop {
        match a.renew(std::slice::from_ref(&held)).await {
            Ok(kept) => break kept,
            Err(e) => {
                assert!(std::time::Instant::now() < deadline, "still failing: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    assert_eq!(kept, [true]);
    assert_eq!(a.owner("G").await.unwrap().as_deref(), Some("a"));
    let b = Leases::connect(&redis.url(), "b", Duration::from_secs(5))
        .await
        .unwrap();
    assert!(b.claim("G").await.unwrap().is_none(), "a holds G again");
}

/// The next delivery, within a few seconds.
async fn next(rx: &mut Receiver<Delivery>) -> Delivery {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("a delivery within 10 s")
        .expect("the broker's task runs")
}

/// A message to a node reaches that node alone; one to all reaches every node; one
/// over the limit is dropped; Redis stopped and started, each node is told of the gap
/// and messages flow again.
#[tokio::test]
async fn the_broker_carries_messages_to_a_node_or_all_and_tells_of_a_gap() {
    let mut redis = Redis::start();
    let (a, mut a_rx) = Broker::connect(&redis.url(), "a").await.unwrap();
    let (b, mut b_rx) = Broker::connect(&redis.url(), "b").await.unwrap();
    assert_eq!(
        next(&mut a_rx).await,
        Delivery::Gap,
        "a first delivery is a gap"
    );
    assert_eq!(next(&mut b_rx).await, Delivery::Gap);

    assert_eq!(a.to_node("b", "for b").await.unwrap(), 1);
    assert_eq!(next(&mut b_rx).await, Delivery::ToNode("for b".into()));
    assert_eq!(b.to_all("for all").await.unwrap(), 2);
    assert_eq!(next(&mut a_rx).await, Delivery::ToAll("for all".into()));
    assert_eq!(next(&mut b_rx).await, Delivery::ToAll("for all".into()));
    assert_eq!(a.to_node("c", "no one").await.unwrap(), 0, "no node c");

    let big = "x".repeat(MAX_PAYLOAD + 1);
    a.to_node("b", &big).await.unwrap();
    a.to_node("b", "after").await.unwrap();
    assert_eq!(
        next(&mut b_rx).await,
        Delivery::ToNode("after".into()),
        "the long one was dropped"
    );

    redis.stop();
    assert!(a.to_node("b", "lost").await.is_err(), "Redis is down");
    redis.start_again();
    assert_eq!(next(&mut a_rx).await, Delivery::Gap);
    assert_eq!(next(&mut b_rx).await, Delivery::Gap);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while a.to_node("b", "back").await.is_err() {
        assert!(std::time::Instant::now() < deadline, "publishing again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(next(&mut b_rx).await, Delivery::ToNode("back".into()));
}

/// A node of `role` named `name` on database `db` and Redis `redis`.
async fn node(db: &str, redis: &Redis, role: &str, name: &str) -> Server {
    let url = redis.url();
    Server::start_with(db, &["--role", role, "--redis", &url, "--node", name]).await
}

/// Which of game nodes g1 and g2 holds `game` (its index), and the other's name.
async fn holder(redis: &Redis, game: &str) -> (Leases, usize, &'static str) {
    let leases = Leases::connect(&redis.url(), "test", Duration::from_secs(1))
        .await
        .unwrap();
    let owner = leases
        .owner(game)
        .await
        .unwrap()
        .expect("a game node holds it");
    let (index, other) = if owner == "g1" { (0, "g2") } else { (1, "g1") };
    (leases, index, other)
}

/// Messages until one `wanted` accepts, each kept in `seen`, within `within`.
async fn until(
    c: &mut Client,
    seen: &mut Vec<Value>,
    within: Duration,
    wanted: impl Fn(&Value) -> bool,
) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + within;
    while let Ok(Ok(m)) = tokio::time::timeout_at(deadline, c.recv()).await {
        seen.push(m.clone());
        if wanted(&m) {
            return Some(m);
        }
    }
    None
}

/// Sends a move again (the same ply, the same ack) until it is answered: a client's
/// way through a game node's failure. The answer.
async fn play_through(c: &mut Client, game: &str, ply: u32, step: &str, ack: u64) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let mut seen = Vec::new();
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "no answer to {step}: {seen:?}"
        );
        let message = json!({"t": "move", "game": game, "ply": ply, "step": step, "ack": ack});
        c.send(&message).await.unwrap();
        if let Some(answer) = until(c, &mut seen, Duration::from_secs(2), |m| m["ack"] == ack).await
        {
            return answer;
        }
    }
}

/// The steps a client has seen of the game: the last full state's, then each step
/// event after it.
fn steps_seen(messages: &[Value]) -> Vec<String> {
    let mut steps = Vec::new();
    for m in messages {
        if m["t"] == "state" {
            steps = m["steps"]
                .as_array()
                .map(|s| {
                    s.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
        } else if m["t"] == "step" && m["ply"].as_u64() == Some(steps.len() as u64) {
            steps.push(m["step"].as_str().unwrap_or_default().to_string());
        }
    }
    steps
}

/// Two game nodes and three socket nodes on one PostgreSQL and one Redis: a game made
/// on one socket node, its players then on two different ones and a spectator on the
/// third;
/// its game node killed mid-game; the other takes it over, every acknowledged move is
/// there, no version is told twice for different events, and play goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_goes_on_across_socket_nodes_and_through_its_game_node_killed() {
    let redis = Redis::start();
    let db = postgres().await;
    let mut game_nodes = [
        node(&db, &redis, "game", "g1").await,
        node(&db, &redis, "game", "g2").await,
    ];
    let s1 = node(&db, &redis, "socket", "s1").await;
    let s2 = node(&db, &redis, "socket", "s2").await;
    let s3 = node(&db, &redis, "socket", "s3").await;

    let seek = json!({"t": "seek", "variant": "glinski", "side": "white", "private": true});
    let (mut a, b, game) = challenge(&s1.url(), seek).await;
    let black = b.token.clone().unwrap();
    b.close().await;
    let mut b = Client::hello(&s2.url(), Some(&black)).await.unwrap();
    let mut eve = Client::hello(&s3.url(), None).await.unwrap();
    let mut eve_saw = Vec::new();
    for c in [&mut a, &mut b] {
        c.send(&json!({"t": "join", "game": game})).await.unwrap();
        assert_eq!(c.wait_for("state").await.unwrap()["ply"], 0);
    }
    eve.send(&json!({"t": "join", "game": game})).await.unwrap();
    until(&mut eve, &mut eve_saw, Duration::from_secs(10), |m| {
        m["t"] == "state"
    })
    .await
    .expect("the spectator's view");

    assert_eq!(play(&mut a, &game, 0, "f5f6", 1).await["t"], "ack");
    assert_eq!(b.wait_for("step").await.unwrap()["step"], "f5f6");
    assert_eq!(play(&mut b, &game, 1, "c7c6", 1).await["t"], "ack");
    let black_moved = a.wait_until(|m| m["t"] == "step" && m["ply"] == 1, "Black's step");
    assert_eq!(black_moved.await.unwrap()["step"], "c7c6");

    let (leases, dead, alive) = holder(&redis, &game).await;
    game_nodes[dead].kill();

    // White's move reaches the new owner once it has taken the game over.
    let answer = play_through(&mut a, &game, 2, "e4e5", 2).await;
    assert_eq!(answer["t"], "ack", "{answer}");
    assert_eq!(leases.owner(&game).await.unwrap().as_deref(), Some(alive));
    assert_eq!(play_through(&mut b, &game, 3, "d7d5", 2).await["t"], "ack");
    // The node that took the game over counts it.
    let (_, metrics) = game_nodes[1 - dead].get("/metrics").await;
    let taken = metrics
        .lines()
        .find_map(|l| l.strip_prefix("hexchess_games_taken_total "))
        .and_then(|n| n.trim().parse::<u64>().ok());
    assert!(taken.is_some_and(|n| n >= 1), "{metrics}");

    // The spectator, joined again by its socket node, has the whole game.
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while steps_seen(&eve_saw).len() < 4 && std::time::Instant::now() < deadline {
        until(&mut eve, &mut eve_saw, Duration::from_secs(1), |_| true).await;
    }
    let steps = steps_seen(&eve_saw);
    assert_eq!(steps, ["f5f6", "c7c6", "e4e5", "d7d5"], "{eve_saw:?}");
    // A version is never told for two different events.
    let mut by_version: std::collections::HashMap<u64, &Value> = std::collections::HashMap::new();
    for m in &eve_saw {
        if m["t"] == "state" || m["t"] == "joined" {
            continue;
        }
        if let Some(v) = m["v"].as_u64()
            && let Some(before) = by_version.insert(v, m)
        {
            assert_eq!(before, m, "version {v} told for two events");
        }
    }
}

/// The lobby across socket nodes: a seek made through one is pushed to a lobby
/// follower on the other; its last seat, taken by two players on two nodes at the
/// same moment, goes to one of them (the other is told it is gone), many times over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_seen_through_every_socket_node_and_taken_once() {
    let redis = Redis::start();
    let db = postgres().await;
    let _g1 = node(&db, &redis, "game", "g1").await;
    let s1 = node(&db, &redis, "socket", "s1").await;
    let s2 = node(&db, &redis, "socket", "s2").await;

    let mut watcher = Client::hello(&s2.url(), None).await.unwrap();
    watcher.send(&json!({"t": "lobby"})).await.unwrap();
    let mut seeker = Client::hello(&s1.url(), None).await.unwrap();
    seeker
        .send(&json!({"t": "seek", "variant": "mccooey", "minutes": 5, "increment": 3}))
        .await
        .unwrap();
    let id = seeker.wait_for("seek").await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let listed = watcher
        .wait_until(
            |m| m["t"] == "seeks" && m["seeks"][0]["id"] == id.as_str(),
            "the seek, pushed",
        )
        .await
        .unwrap();
    assert_eq!(listed["seeks"][0]["variant"], "mccooey");
    seeker
        .send(&json!({"t": "cancel", "seek": id}))
        .await
        .unwrap();
    watcher
        .wait_until(
            |m| m["t"] == "seeks" && m["seeks"] == json!([]),
            "the seek withdrawn",
        )
        .await
        .unwrap();

    for round in 0..12 {
        let mut owner = Client::hello(&s1.url(), None).await.unwrap();
        owner
            .send(&json!({"t": "seek", "variant": "glinski", "private": true}))
            .await
            .unwrap();
        let code = owner.wait_for("seek").await.unwrap()["code"]
            .as_str()
            .unwrap()
            .to_string();
        let mut one = Client::hello(&s1.url(), None).await.unwrap();
        let mut two = Client::hello(&s2.url(), None).await.unwrap();
        let take = json!({"t": "accept", "seek": code});
        let (a, b) = tokio::join!(one.send(&take), two.send(&take));
        a.unwrap();
        b.unwrap();
        let answer = |m: &Value| m["t"] == "started" || m["t"] == "error";
        let (a, b) = tokio::join!(
            one.wait_until(answer, "started or refused"),
            two.wait_until(answer, "started or refused")
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        let (won, lost) = if a["t"] == "started" { (a, b) } else { (b, a) };
        assert_eq!(won["t"], "started", "round {round}: {won} / {lost}");
        assert_eq!(
            lost["t"], "error",
            "round {round}: both started: {won} / {lost}"
        );
        assert_eq!(
            lost["message"],
            "no open seek or challenge by that id or code"
        );
        let started = owner.wait_for("started").await.unwrap();
        assert_eq!(started["game"], won["game"]);
    }
}

/// The lists across nodes: a game whose rooms is on a game node is in the watch list
/// of a lobby follower on either socket node, its players' "your turn" lists follow
/// the moves made through the other node, and the end takes it off them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lists_follow_games_held_on_game_nodes() {
    let redis = Redis::start();
    let db = postgres().await;
    let _g1 = node(&db, &redis, "game", "g1").await;
    let s1 = node(&db, &redis, "socket", "s1").await;
    let s2 = node(&db, &redis, "socket", "s2").await;
    let mut lobby = Client::hello(&s2.url(), None).await.unwrap();
    lobby.send(&json!({"t": "lobby"})).await.unwrap();

    let seek = json!({"t": "seek", "variant": "glinski", "side": "white", "private": true});
    let (mut a, b, game) = challenge(&s1.url(), seek).await;
    let black = b.token.clone().unwrap();
    b.close().await;
    let mut b = Client::hello(&s2.url(), Some(&black)).await.unwrap();
    let listed = lobby
        .wait_until(
            |m| m["t"] == "playing" && m["games"][0]["game"] == game.as_str(),
            "the game in the watch list",
        )
        .await
        .unwrap();
    assert_eq!(listed["games"].as_array().unwrap().len(), 1);

    b.send(&json!({"t": "games"})).await.unwrap();
    b.wait_until(
        |m| m["t"] == "games" && m["games"][0]["your_turn"] == false,
        "White to move",
    )
    .await
    .unwrap();
    a.send(&json!({"t": "join", "game": game})).await.unwrap();
    a.wait_for("state").await.unwrap();
    assert_eq!(play(&mut a, &game, 0, "f5f6", 1).await["t"], "ack");
    b.wait_until(
        |m| m["t"] == "games" && m["games"][0]["your_turn"] == true,
        "Black's turn, pushed through the other node",
    )
    .await
    .unwrap();

    a.send(&json!({"t": "resign", "game": game})).await.unwrap();
    lobby
        .wait_until(
            |m| m["t"] == "playing" && m["games"] == json!([]),
            "the game off the watch list",
        )
        .await
        .unwrap();
    b.wait_until(
        |m| m["t"] == "games" && m["games"] == json!([]),
        "no game left",
    )
    .await
    .unwrap();
}

/// Two players on two socket nodes, one move made; returns the nodes and clients.
async fn a_game_on_two_socket_nodes(s1: &Server, s2: &Server) -> (Client, Client, String) {
    let seek = json!({"t": "seek", "variant": "glinski", "side": "white", "private": true});
    let (mut a, b, game) = challenge(&s1.url(), seek).await;
    let black = b.token.clone().unwrap();
    b.close().await;
    let mut b = Client::hello(&s2.url(), Some(&black)).await.unwrap();
    for c in [&mut a, &mut b] {
        c.send(&json!({"t": "join", "game": game})).await.unwrap();
        assert_eq!(c.wait_for("state").await.unwrap()["ply"], 0);
    }
    assert_eq!(play(&mut a, &game, 0, "f5f6", 1).await["t"], "ack");
    let moved = b.wait_until(|m| m["t"] == "step" && m["ply"] == 0, "White's step");
    assert_eq!(moved.await.unwrap()["step"], "f5f6");
    (a, b, game)
}

/// A socket node killed: its client comes back through the other one (as a load
/// balancer would send it), finds the game as it was and plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_nodes_clients_go_on_through_another() {
    let redis = Redis::start();
    let db = postgres().await;
    let _g1 = node(&db, &redis, "game", "g1").await;
    let s1 = node(&db, &redis, "socket", "s1").await;
    let mut s2 = node(&db, &redis, "socket", "s2").await;
    let (mut a, b, game) = a_game_on_two_socket_nodes(&s1, &s2).await;
    let black = b.token.clone().unwrap();

    s2.kill();
    let mut b = Client::hello(&s1.url(), Some(&black)).await.unwrap();
    b.send(&json!({"t": "join", "game": game})).await.unwrap();
    let state = b.wait_for("state").await.unwrap();
    assert_eq!(state["steps"], json!(["f5f6"]), "{state}");
    assert_eq!(play(&mut b, &game, 1, "c7c6", 1).await["t"], "ack");
    let moved = a.wait_until(|m| m["t"] == "step" && m["ply"] == 1, "Black's step");
    assert_eq!(moved.await.unwrap()["step"], "c7c6");
}

/// Redis stopped for a while mid-game (play waits: the nodes cannot reach each
/// other), then started again empty: the nodes find each other again by themselves,
/// the game node holds its game again, the clients are brought up to date, and play
/// goes on with every acknowledged move kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_goes_on_after_redis_is_stopped_and_started() {
    let mut redis = Redis::start();
    let db = postgres().await;
    let _g1 = node(&db, &redis, "game", "g1").await;
    let s1 = node(&db, &redis, "socket", "s1").await;
    let s2 = node(&db, &redis, "socket", "s2").await;
    let (mut a, mut b, game) = a_game_on_two_socket_nodes(&s1, &s2).await;

    redis.stop();
    b.send(&json!({"t": "move", "game": game, "ply": 1, "step": "c7c6", "ack": 1}))
        .await
        .unwrap();
    let told = b.wait_until(|m| m["ack"] == 1, "an answer").await;
    assert!(
        told.as_ref()
            .is_err_and(|e| e.contains("cannot reach this game now")),
        "{told:?}"
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    redis.start_again();

    assert_eq!(play_through(&mut b, &game, 1, "c7c6", 1).await["t"], "ack");
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while steps_seen(&seen).len() < 2 && std::time::Instant::now() < deadline {
        until(&mut a, &mut seen, Duration::from_secs(1), |_| true).await;
    }
    assert_eq!(
        steps_seen(&seen).last().map(String::as_str),
        Some("c7c6"),
        "{seen:?}"
    );
    assert_eq!(play_through(&mut a, &game, 2, "e4e5", 2).await["t"], "ack");
    let view = Client::hello(&s2.url(), None).await;
    let mut eve = view.unwrap();
    eve.send(&json!({"t": "join", "game": game})).await.unwrap();
    let state = eve.wait_for("state").await.unwrap();
    assert_eq!(state["steps"], json!(["f5f6", "c7c6", "e4e5"]), "{state}");
}

/// A game node stopped (SIGTERM, as systemd stops it) hands its games over at once:
/// another node holds the game well before the lease could have lapsed, and play goes
/// on there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_node_stopped_hands_its_games_over_at_once() {
    let redis = Redis::start();
    let db = postgres().await;
    let mut game_nodes = [
        node(&db, &redis, "game", "g1").await,
        node(&db, &redis, "game", "g2").await,
    ];
    let s1 = node(&db, &redis, "socket", "s1").await;
    let s2 = node(&db, &redis, "socket", "s2").await;
    let (_a, mut b, game) = a_game_on_two_socket_nodes(&s1, &s2).await;
    let (leases, stopped, other) = holder(&redis, &game).await;
    let status = game_nodes[stopped].terminate(Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    // A lease lapses 2 to 3 s after its node's last renewal, and lapsed games are
    // looked for every 1.5 s: held by the other node within 1.5 s is a hand-over.
    let deadline = std::time::Instant::now() + Duration::from_millis(1500);
    loop {
        if leases.owner(&game).await.unwrap().as_deref() == Some(other) {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "not handed over");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(play_through(&mut b, &game, 1, "c7c6", 1).await["t"], "ack");
}

/// A rematch asked by the two players through two socket nodes starts once, the
/// seats swapped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_agreed_across_socket_nodes() {
    let redis = Redis::start();
    let db = postgres().await;
    let _g1 = node(&db, &redis, "game", "g1").await;
    let s1 = node(&db, &redis, "socket", "s1").await;
    let s2 = node(&db, &redis, "socket", "s2").await;
    let (mut a, mut b, game) = a_game_on_two_socket_nodes(&s1, &s2).await;
    b.send(&json!({"t": "resign", "game": game})).await.unwrap();
    for c in [&mut a, &mut b] {
        assert_eq!(c.wait_for("end").await.unwrap()["why"], "resignation");
    }
    let rematch = json!({"t": "rematch", "game": game});
    a.send(&rematch).await.unwrap();
    for c in [&mut a, &mut b] {
        let told = c.wait_for("rematch").await.unwrap();
        assert_eq!(told["asked"], json!(["White"]), "{told}");
    }
    b.send(&rematch).await.unwrap();
    let started_a = a.wait_for("started").await.unwrap();
    let started_b = b.wait_for("started").await.unwrap();
    assert_eq!(started_a["game"], started_b["game"]);
    assert_ne!(started_a["game"], json!(game));
    assert_eq!(
        (started_a["side"].clone(), started_b["side"].clone()),
        (json!("Black"), json!("White"))
    );
    // Asked once more, through either node: it has started.
    a.send(&rematch).await.unwrap();
    let refused = a
        .wait_until(|m| m["t"] == "error", "a refusal")
        .await
        .unwrap();
    assert_eq!(refused["message"], "the rematch has started");
}

/// Every node answers `/healthz` and `/metrics` (an operator scrapes them all); a game
/// node serves nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_has_its_health_and_metrics() {
    let redis = Redis::start();
    let db = postgres().await;
    let g1 = node(&db, &redis, "game", "g1").await;
    let s1 = node(&db, &redis, "socket", "s1").await;
    for server in [&g1, &s1] {
        let (status, body) = server.get("/healthz").await;
        assert!(status.contains("200"), "{status} {body}");
        let (status, body) = server.get("/metrics").await;
        assert!(status.contains("200"), "{status}");
        assert!(body.contains("hexchess_games_in_play"), "{body}");
    }
    let (status, _) = g1.get("/games").await;
    assert!(
        status.contains("404"),
        "a game node has no lists to serve: {status}"
    );
}
