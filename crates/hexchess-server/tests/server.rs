//! The server as players meet it: the real binary started on 127.0.0.1, spoken to
//! through websockets, on SQLite and on PostgreSQL alike (each test runs on both).
//!
//! PostgreSQL: `HEXCHESS_TEST_POSTGRES` names the database, by default
//! `postgres://hexchess:hexchess@127.0.0.1:5432/hexchess_test`, which
//! `scripts/test-postgres.sh` installs, starts and creates (the README's setup and CI
//! run it).

#[macro_use]
mod common;

use std::time::Duration;

use common::{Server, challenge, pair, play, postgres, sqlite, step_event};
use hexchess_server::client::Client;
use serde_json::{Value, json};

on_both_databases!(
    two_people_play_through_a_private_challenge_and_the_record_downloads,
    only_the_seat_on_move_moves_and_a_resent_move_is_played_once,
    a_reconnecting_player_gets_only_what_it_missed,
    a_killed_server_restarts_with_every_acknowledged_move,
    accounts_register_and_sign_in_elsewhere,
    a_player_alone_gets_a_game_against_the_engine,
    a_table_of_three_seats_people_and_the_engine,
    a_rated_game_moves_both_ratings,
    quick_pairing_and_the_lobby_list,
    claims_aborts_and_draws_end_games_as_the_rules_say,
    a_correspondence_move_not_made_in_its_days_loses_on_time,
    a_rematch_starts_when_every_seat_has_asked_with_the_seats_swapped,
    a_rematch_with_the_engine_starts_at_one_ask,
    a_draw_offer_is_declined_and_stands_no_more,
);

async fn two_people_play_through_a_private_challenge_and_the_record_downloads(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    assert_eq!(play(&mut a, &game, 0, "f5f6", 1).await["t"], "ack");
    let seen = step_event(&mut b).await;
    assert_eq!(
        (seen["ply"].clone(), seen["step"].clone()),
        (json!(0), json!("f5f6"))
    );
    assert_eq!(seen["side"], "White");
    assert_eq!(play(&mut b, &game, 1, "c7c6", 1).await["t"], "ack");
    b.send(&json!({"t": "resign", "game": game})).await.unwrap();
    let end = a.wait_for("end").await.unwrap();
    assert_eq!(end["result"], "1-0");
    assert_eq!(end["why"], "resignation");
    // The record, once stored.
    let mut body = String::new();
    for _ in 0..50 {
        let (status, b) = server.get(&format!("/game/{game}.pgn")).await;
        if status.contains("200") {
            body = b;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(body.contains("[Variant \"glinski\"]"), "{body}");
    assert!(body.contains("[Result \"1-0\"]"), "{body}");
    assert!(body.contains("1. f6 c6"), "{body}");
    let record = hexchess_core::pgn::read_games(&body)
        .remove(0)
        .expect("the record reads back");
    let replayed = record
        .replay_main_line(&hexchess_core::Catalog::builtin())
        .expect("and replays");
    assert_eq!(replayed.turns().len(), 2);
    let (status, _) = server.get("/game/NOSUCHGAME.pgn").await;
    assert!(status.contains("404"), "{status}");
}

async fn only_the_seat_on_move_moves_and_a_resent_move_is_played_once(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    let mut eve = Client::hello(&server.url(), None).await.unwrap();
    eve.send(&json!({"t": "join", "game": game})).await.unwrap();
    let view = eve.wait_for("state").await.unwrap();
    assert_eq!(view["you"], json!([]), "a spectator holds no seat");
    // Out of turn, a spectator, an illegal move: all refused, nothing played.
    assert_eq!(
        play(&mut b, &game, 0, "c7c6", 1).await["why"],
        "it is not your turn"
    );
    assert_eq!(
        play(&mut eve, &game, 0, "f5f6", 1).await["why"],
        "you hold no seat in this game"
    );
    let illegal = play(&mut a, &game, 0, "f5f8", 2).await;
    assert_eq!(illegal["t"], "refused", "{illegal}");
    // Played, then sent again (its ack lost): acknowledged again, played once.
    assert_eq!(play(&mut a, &game, 0, "f5f6", 3).await["t"], "ack");
    assert_eq!(play(&mut a, &game, 0, "f5f6", 4).await["t"], "ack");
    // A move for a ply long past with another step: refused, with the whole game.
    let stale = play(&mut a, &game, 0, "e4e5", 5).await;
    assert_eq!(stale["t"], "refused");
    assert_eq!(stale["state"]["steps"], json!(["f5f6"]));
    // The spectator saw one step, and the game is at ply 1.
    let seen = step_event(&mut eve).await;
    assert_eq!(seen["ply"], 0);
    eve.send(&json!({"t": "join", "game": game})).await.unwrap();
    let view = eve.wait_for("state").await.unwrap();
    assert_eq!(view["ply"], 1);
    assert_eq!(view["steps"], json!(["f5f6"]));
    // Another player's message for Black's seat.
    assert_eq!(
        play(&mut a, &game, 1, "c7c6", 6).await["why"],
        "it is not your turn"
    );
    assert_eq!(play(&mut b, &game, 1, "c7c6", 7).await["t"], "ack");
}

async fn a_reconnecting_player_gets_only_what_it_missed(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    let seen = step_event(&mut b).await["v"].as_u64().unwrap();
    let token = b.token.clone().unwrap();
    b.close().await;
    // While Black is away, White... waits; Black comes back and moves; White leaves
    // and misses one move, then comes back from the version it saw.
    let mut b = Client::hello(&server.url(), Some(&token)).await.unwrap();
    b.send(&json!({"t": "join", "game": game, "seen": seen}))
        .await
        .unwrap();
    let v_white = step_event(&mut a).await; // its own move's event
    let white_token = a.token.clone().unwrap();
    let white_seen = v_white["v"].as_u64().unwrap();
    a.close().await;
    play(&mut b, &game, 1, "c7c6", 1).await;
    let mut a = Client::hello(&server.url(), Some(&white_token))
        .await
        .unwrap();
    a.send(&json!({"t": "join", "game": game, "seen": white_seen}))
        .await
        .unwrap();
    // What it missed, each event once and in order: who left and came back (the
    // seats' presence), and the one move; no full state.
    let mut missed = Vec::new();
    let joined = loop {
        let m = a.recv().await.unwrap();
        if m["t"] == "joined" {
            break m;
        }
        assert_ne!(m["t"], "state", "only the missed events: {m}");
        missed.push(m);
    };
    let versions: Vec<u64> = missed.iter().map(|m| m["v"].as_u64().unwrap()).collect();
    let expected: Vec<u64> = (white_seen + 1..=joined["v"].as_u64().unwrap()).collect();
    assert_eq!(versions, expected, "no gap, nothing twice");
    let kinds: Vec<&str> = missed.iter().map(|m| m["t"].as_str().unwrap()).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "step").count(),
        1,
        "{kinds:?}"
    );
    assert!(
        kinds.iter().all(|k| ["step", "away", "back"].contains(k)),
        "{kinds:?}"
    );
    let step = missed.iter().find(|m| m["t"] == "step").unwrap();
    assert_eq!(step["step"], "c7c6");
    // A version the server never sent: a full resync.
    a.send(&json!({"t": "join", "game": game, "seen": 9999}))
        .await
        .unwrap();
    assert_eq!(a.recv().await.unwrap()["t"], "state");
    // An unknown secret is refused.
    let mut c = Client::connect(&server.url()).await.unwrap();
    c.send(&json!({"t": "hello", "protocol": 1, "token": "0".repeat(48)}))
        .await
        .unwrap();
    assert_eq!(c.recv().await.unwrap()["t"], "error");
}

async fn a_killed_server_restarts_with_every_acknowledged_move(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    play(&mut b, &game, 1, "c7c6", 1).await;
    play(&mut a, &game, 2, "e4e5", 2).await;
    let version = step_event(&mut b).await["v"].as_u64().unwrap();
    let (ta, tb) = (a.token.clone().unwrap(), b.token.clone().unwrap());
    let server = server.restart().await;
    let mut a = Client::hello(&server.url(), Some(&ta)).await.unwrap();
    let mut b = Client::hello(&server.url(), Some(&tb)).await.unwrap();
    a.send(&json!({"t": "join", "game": game})).await.unwrap();
    let view = a.wait_for("state").await.unwrap();
    assert_eq!(view["steps"], json!(["f5f6", "c7c6", "e4e5"]), "{view}");
    assert_eq!(view["to_move"], "Black");
    assert!(view["v"].as_u64().unwrap() >= 3);
    // The client resends its last move (its ack lost in the crash): played once.
    assert_eq!(play(&mut a, &game, 2, "e4e5", 3).await["t"], "ack");
    b.send(&json!({"t": "join", "game": game})).await.unwrap();
    assert_eq!(b.wait_for("state").await.unwrap()["ply"], 3);
    assert_eq!(play(&mut b, &game, 3, "d7d5", 2).await["t"], "ack");
    let moved = step_event(&mut a).await;
    assert_eq!(moved["ply"], 3);
    assert!(moved["v"].as_u64().unwrap() > version, "numbering goes on");
}

async fn accounts_register_and_sign_in_elsewhere(db: &str) {
    let server = Server::start(db).await;
    let mut a = Client::hello(&server.url(), None).await.unwrap();
    let name = format!(
        "ann_{}",
        hexchess_server::secret::new_code(6).to_lowercase()
    );
    a.send(&json!({"t": "register", "name": name, "password": "short"}))
        .await
        .unwrap();
    assert!(
        a.recv().await.unwrap()["message"]
            .as_str()
            .unwrap()
            .contains("8 to 256")
    );
    a.send(&json!({"t": "register", "name": name, "password": "a long password"}))
        .await
        .unwrap();
    let welcome = a.wait_for("welcome").await.unwrap();
    assert_eq!(welcome["account"], true);
    assert_eq!(welcome["name"], name.as_str());
    let mut b = Client::hello(&server.url(), None).await.unwrap();
    b.send(&json!({"t": "register", "name": name.to_uppercase(), "password": "another password"}))
        .await
        .unwrap();
    assert!(
        b.recv().await.unwrap()["message"]
            .as_str()
            .unwrap()
            .contains("taken")
    );
    let mut elsewhere = Client::connect(&server.url()).await.unwrap();
    elsewhere
        .send(&json!({"t": "hello", "protocol": 1}))
        .await
        .unwrap();
    elsewhere.wait_for("welcome").await.unwrap();
    elsewhere
        .send(&json!({"t": "login", "name": name, "password": "a wrong password"}))
        .await
        .unwrap();
    assert_eq!(elsewhere.recv().await.unwrap()["t"], "error");
    elsewhere
        .send(&json!({"t": "login", "name": name, "password": "a long password"}))
        .await
        .unwrap();
    let signed_in = elsewhere.wait_for("welcome").await.unwrap();
    assert_eq!(signed_in["player"].as_str(), a.player.as_deref());
    assert_ne!(
        signed_in["token"].as_str(),
        a.token.as_deref(),
        "a new secret"
    );
}

/// A new player seeks Gliński as White against the engine at level 1 and follows the
/// game: the player, the game's id and its first state.
async fn alone_against_the_engine(url: &str) -> (Client, String, Value) {
    let mut a = Client::hello(url, None).await.unwrap();
    a.send(&json!({"t": "seek", "variant": "glinski", "side": "white", "engines": 1, "level": 1}))
        .await
        .unwrap();
    let game = a.wait_for("started").await.unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    a.send(&json!({"t": "join", "game": game})).await.unwrap();
    let view = a.wait_for("state").await.unwrap();
    (a, game, view)
}

async fn a_player_alone_gets_a_game_against_the_engine(db: &str) {
    let server = Server::start(db).await;
    let (mut a, game, view) = alone_against_the_engine(&server.url()).await;
    assert_eq!(view["names"][1], "hexchess engine, level 1");
    play(&mut a, &game, 0, "f5f6", 1).await;
    let mine = step_event(&mut a).await;
    assert_eq!(mine["side"], "White");
    let reply = step_event(&mut a).await;
    assert_eq!(reply["side"], "Black", "the engine answered: {reply}");
    assert_eq!(reply["ply"], 1);
    // A rated game with the engine is refused.
    a.send(&json!({"t": "seek", "variant": "glinski", "engines": 1, "rated": true}))
        .await
        .unwrap();
    assert!(
        a.wait_for("error").await.unwrap()["message"]
            .as_str()
            .unwrap()
            .contains("casual")
    );
}

async fn a_table_of_three_seats_people_and_the_engine(db: &str) {
    let server = Server::start(db).await;
    let seek =
        json!({"t": "seek", "variant": "hexachess-3", "engines": 1, "level": 1, "private": true});
    let (a, b, game) = challenge(&server.url(), seek).await;
    // Each person plays whole turns (a legal step, then ending the turn when the
    // rules allow) until the engine has played a turn.
    let catalog = hexchess_core::Catalog::builtin();
    let rules = std::sync::Arc::clone(catalog.get("hexachess-3").unwrap().rules());
    let mut players = [a, b];
    let mut sides = Vec::new();
    for p in &mut players {
        p.send(&json!({"t": "join", "game": game})).await.unwrap();
        let view = p.wait_for("state").await.unwrap();
        assert_eq!(view["names"].as_array().unwrap().len(), 3);
        sides.push(view["you"][0].as_str().unwrap().to_string());
    }
    let mut engine_moved = false;
    let mut ack = 0;
    for _ in 0..12 {
        players[0]
            .send(&json!({"t": "join", "game": game}))
            .await
            .unwrap();
        let view = players[0].wait_for("state").await.unwrap();
        if view["result"] != Value::Null {
            break;
        }
        let steps: Vec<String> = serde_json::from_value(view["steps"].clone()).unwrap();
        let local =
            hexchess_core::Game::from_moves(std::sync::Arc::clone(&rules), None, &[] as &[&str]);
        let mut local = local.unwrap();
        for s in &steps {
            let step = local.parse_step(s).unwrap();
            local.play(step).unwrap();
        }
        let to_move = view["to_move"].as_str().unwrap();
        let Some(who) = sides.iter().position(|s| s == to_move) else {
            // The engine's seat: wait for its steps.
            engine_moved = true;
            let e = step_event(&mut players[0]).await;
            assert_eq!(e["side"], to_move);
            break;
        };
        let step = local.steps()[0];
        let text = local.step_lan(step);
        ack += 1;
        let answer = play(&mut players[who], &game, steps.len() as u32, &text, ack).await;
        assert_eq!(answer["t"], "ack", "{answer}");
    }
    assert!(engine_moved, "the engine's seat came on move");
}

async fn a_rated_game_moves_both_ratings(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", true).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    play(&mut b, &game, 1, "c7c6", 1).await;
    b.send(&json!({"t": "resign", "game": game})).await.unwrap();
    a.wait_for("end").await.unwrap();
    let winner = ratings(&mut a).await;
    let loser = ratings(&mut b).await;
    assert_eq!(winner["variant"], "glinski");
    assert_eq!(winner["speed"], "untimed");
    assert_eq!(winner["games"], 1);
    assert!(winner["rating"].as_f64().unwrap() > 1500.0, "{winner}");
    assert!(loser["rating"].as_f64().unwrap() < 1500.0, "{loser}");
}

async fn quick_pairing_and_the_lobby_list(db: &str) {
    let server = Server::start(db).await;
    let mut watcher = Client::hello(&server.url(), None).await.unwrap();
    watcher.send(&json!({"t": "lobby"})).await.unwrap();
    // A variant no other test seeks publicly, so the list is this test's.
    let variant = "mccooey";
    assert_eq!(watcher.wait_for("seeks").await.unwrap()["seeks"], json!([]));
    let mut a = Client::hello(&server.url(), None).await.unwrap();
    a.send(&json!({"t": "seek", "variant": variant, "minutes": 5, "increment": 3}))
        .await
        .unwrap();
    let id = a.wait_for("seek").await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let listed = watcher.wait_for("seeks").await.unwrap();
    assert_eq!(listed["seeks"][0]["id"], id.as_str());
    assert_eq!(listed["seeks"][0]["minutes"], 5);
    a.send(&json!({"t": "cancel", "seek": id})).await.unwrap();
    assert_eq!(watcher.wait_for("seeks").await.unwrap()["seeks"], json!([]));
    // A player's open seeks are limited.
    let mut flood = Client::hello(&server.url(), None).await.unwrap();
    for i in 0..=hexchess_server::hub::MAX_SEEKS_PER_PLAYER {
        flood
            .send(&json!({"t": "seek", "variant": variant, "private": true}))
            .await
            .unwrap();
        let answer = flood
            .wait_until(|m| m["t"] == "seek" || m["t"] == "error", "an answer")
            .await
            .unwrap();
        let over = i == hexchess_server::hub::MAX_SEEKS_PER_PLAYER;
        assert_eq!(answer["t"] == "error", over, "seek {i}: {answer}");
    }
    // Quick pairing: the first seeks, the second plays it.
    let mut b = Client::hello(&server.url(), None).await.unwrap();
    let quick = json!({"t": "quick", "variant": variant, "minutes": 3, "increment": 2});
    a.send(&quick).await.unwrap();
    a.wait_for("seek").await.unwrap();
    b.send(&quick).await.unwrap();
    let ga = a.wait_for("started").await.unwrap();
    let gb = b.wait_for("started").await.unwrap();
    assert_eq!(ga["game"], gb["game"]);
    assert_ne!(ga["side"], gb["side"]);
    // The "your turn" list.
    let white = if ga["side"] == "White" {
        &mut a
    } else {
        &mut b
    };
    white.send(&json!({"t": "games"})).await.unwrap();
    let games = white.wait_for("games").await.unwrap();
    assert_eq!(games["games"][0]["game"], ga["game"]);
    assert_eq!(games["games"][0]["your_turn"], true);
}

async fn claims_aborts_and_draws_end_games_as_the_rules_say(db: &str) {
    let server = Server::start(db).await;
    // Abort before both have moved.
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    b.send(&json!({"t": "abort", "game": game})).await.unwrap();
    let end = a.wait_for("end").await.unwrap();
    assert_eq!(
        (end["result"].clone(), end["why"].clone()),
        (json!("*"), json!("aborted"))
    );
    // A draw offered and accepted.
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    play(&mut b, &game, 1, "c7c6", 1).await;
    a.send(&json!({"t": "draw", "game": game})).await.unwrap();
    assert_eq!(b.wait_for("draw_offer").await.unwrap()["side"], "White");
    b.send(&json!({"t": "draw", "game": game})).await.unwrap();
    let end = a.wait_for("end").await.unwrap();
    assert_eq!(end["result"], "1/2-1/2");
    // Too late to abort, too early to claim.
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    play(&mut b, &game, 1, "c7c6", 1).await;
    b.send(&json!({"t": "abort", "game": game})).await.unwrap();
    assert!(
        b.wait_for("refused").await.unwrap()["why"]
            .as_str()
            .unwrap()
            .contains("resign")
    );
    // White (on move) leaves on purpose: Black may claim after 10 s, not before. The
    // leave and the claim come on two connections, so the claim may be read first
    // (refused: White is still here); it is sent again, a bounded number of times,
    // until the server has read the leave.
    a.send(&json!({"t": "leave", "game": game})).await.unwrap();
    let mut early = Value::Null;
    for _ in 0..20 {
        b.send(&json!({"t": "claim", "game": game})).await.unwrap();
        early = b.wait_for("refused").await.unwrap();
        if !early["why"].as_str().unwrap().contains("is here") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(
        early["why"].as_str().unwrap().contains("come back"),
        "{early}"
    );
}

async fn ratings(c: &mut Client) -> Value {
    for _ in 0..50 {
        c.send(&json!({"t": "ratings"})).await.unwrap();
        let r = c.wait_for("ratings").await.unwrap();
        if let Some(first) = r["ratings"].as_array().and_then(|l| l.first()) {
            return first.clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no rating stored");
}

/// The limits, once (they do not depend on the database).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_too_long_is_refused_and_a_flood_is_closed_with_1008() {
    let server = Server::start(&sqlite()).await;
    let mut a = Client::hello(&server.url(), None).await.unwrap();
    a.send_text(format!(
        "{{\"t\":\"ping\",\"pad\":\"{}\"}}",
        "x".repeat(9000)
    ))
    .await
    .unwrap();
    let e = a.recv().await.unwrap();
    assert!(
        e["message"].as_str().unwrap().contains("at most 8192"),
        "{e}"
    );
    a.send_text("{\"t\":\"move\",".into()).await.unwrap();
    let e = a.recv().await.unwrap();
    assert!(e["message"].as_str().unwrap().contains("line 1"), "{e}");
    a.send(&json!({"t": "ping"})).await.unwrap();
    assert_eq!(
        a.recv().await.unwrap()["t"],
        "pong",
        "the connection goes on"
    );
    // A flood: the limit is 100 messages in 20 s.
    let mut closed = None;
    for _ in 0..150 {
        if a.send(&json!({"t": "ping"})).await.is_err() {
            break;
        }
    }
    for _ in 0..200 {
        match a.recv().await {
            Ok(_) => continue,
            Err(e) => {
                closed = Some(e);
                break;
            }
        }
    }
    let closed = closed.expect("the connection was closed");
    assert!(closed.contains("1008"), "{closed}");
}

async fn a_correspondence_move_not_made_in_its_days_loses_on_time(db: &str) {
    // A day of one second.
    let server = Server::start_with(db, &["--day-seconds", "1"]).await;
    let seek =
        json!({"t": "seek", "variant": "glinski", "side": "white", "days": 2, "private": true});
    let (mut a, mut b, game) = challenge(&server.url(), seek).await;
    a.send(&json!({"t": "join", "game": game})).await.unwrap();
    let view = a.wait_for("state").await.unwrap();
    assert_eq!(view["speed"], "correspondence");
    assert!(view["deadline_ms"].as_u64().is_some(), "{view}");
    play(&mut a, &game, 0, "f5f6", 1).await;
    b.send(&json!({"t": "join", "game": game})).await.unwrap();
    play(&mut b, &game, 1, "c7c6", 1).await;
    // Two "days" later White has not moved: Black wins on time.
    let started = std::time::Instant::now();
    let end = a.wait_for("end").await.unwrap();
    assert_eq!(
        (end["result"].clone(), end["why"].clone()),
        (json!("0-1"), json!("time"))
    );
    assert!(
        started.elapsed() >= Duration::from_millis(1500),
        "not before its days"
    );
}

/// `--web DIR`: the browser game's folder at `/`, with the right types, its brotli
/// copy to a client that takes brotli, and nothing outside the game's kinds of file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_game_is_served_from_its_folder() {
    let dir = std::env::temp_dir().join(format!("hexchess-web-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<canvas id=hexchess>").unwrap();
    std::fs::write(dir.join("hexchess_bg.wasm"), b"\0asm plain").unwrap();
    std::fs::write(dir.join("hexchess_bg.wasm.br"), b"brotli bytes").unwrap();
    std::fs::write(dir.join("notes.txt"), "not the game's").unwrap();
    std::fs::write(dir.join(".hidden.js"), "hidden").unwrap();
    let server = Server::start_with(&sqlite(), &["--web", dir.to_str().unwrap()]).await;

    let home = server.raw("/", "").await;
    assert!(home.starts_with("HTTP/1.1 200"), "{home}");
    assert!(home.contains("content-type: text/html"), "{home}");
    assert!(home.ends_with("<canvas id=hexchess>"), "{home}");
    let wasm = server.raw("/hexchess_bg.wasm", "").await;
    assert!(wasm.contains("content-type: application/wasm"), "{wasm}");
    assert!(wasm.ends_with("\0asm plain"), "{wasm}");
    let brotli = server.raw("/hexchess_bg.wasm", "gzip, deflate, br").await;
    assert!(brotli.contains("content-encoding: br"), "{brotli}");
    assert!(brotli.ends_with("brotli bytes"), "{brotli}");
    for refused in [
        "/notes.txt",
        "/.hidden.js",
        "/..%2Fserver.rs",
        "/nothing.js",
    ] {
        let answer = server.raw(refused, "").await;
        assert!(answer.starts_with("HTTP/1.1 404"), "{refused}: {answer}");
    }
    // The server's own routes are still there.
    let (status, body) = server.get("/games").await;
    assert!(
        status.contains("200") && body.contains("\"games\""),
        "{status} {body}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `error` a refused request gets: its message.
async fn refusal(c: &mut Client) -> String {
    c.wait_for("error").await.unwrap()["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

async fn a_rematch_starts_when_every_seat_has_asked_with_the_seats_swapped(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    let rematch = json!({"t": "rematch", "game": game});
    // Not while the game is on.
    a.send(&rematch).await.unwrap();
    assert_eq!(refusal(&mut a).await, "the game is still on");
    assert_eq!(play(&mut a, &game, 0, "f5f6", 1).await["t"], "ack");
    b.send(&json!({"t": "resign", "game": game})).await.unwrap();
    for c in [&mut a, &mut b] {
        assert_eq!(c.wait_for("end").await.unwrap()["why"], "resignation");
    }
    // A spectator holds no seat to ask with.
    let mut eve = Client::hello(&server.url(), None).await.unwrap();
    eve.send(&rematch).await.unwrap();
    assert_eq!(refusal(&mut eve).await, "you hold no seat in this game");
    // White (a) asks: both are told; nothing starts yet.
    a.send(&rematch).await.unwrap();
    for c in [&mut a, &mut b] {
        let told = c.wait_for("rematch").await.unwrap();
        assert_eq!(
            (told["game"].clone(), told["asked"].clone()),
            (json!(game), json!(["White"]))
        );
    }
    // Black (b) asks too: the new game starts, the seats swapped.
    b.send(&rematch).await.unwrap();
    let told = b.wait_for("rematch").await.unwrap();
    assert_eq!(told["asked"], json!(["White", "Black"]));
    let started_a = a.wait_for("started").await.unwrap();
    let started_b = b.wait_for("started").await.unwrap();
    assert_eq!(started_a["game"], started_b["game"]);
    assert_ne!(started_a["game"], json!(game), "a new game");
    assert_eq!(started_a["side"], "Black");
    assert_eq!(started_b["side"], "White");
    let again = started_a["game"].as_str().unwrap().to_string();
    // It plays: White is b now.
    b.send(&json!({"t": "join", "game": again})).await.unwrap();
    b.wait_for("state").await.unwrap();
    assert_eq!(play(&mut b, &again, 0, "f5f6", 1).await["t"], "ack");
    // One rematch per game: a later ask is refused.
    a.send(&rematch).await.unwrap();
    assert_eq!(refusal(&mut a).await, "the rematch has started");
}

async fn a_rematch_with_the_engine_starts_at_one_ask(db: &str) {
    let server = Server::start(db).await;
    let (mut a, game, _) = alone_against_the_engine(&server.url()).await;
    a.send(&json!({"t": "resign", "game": game})).await.unwrap();
    a.wait_for("end").await.unwrap();
    a.send(&json!({"t": "rematch", "game": game}))
        .await
        .unwrap();
    let told = a.wait_for("rematch").await.unwrap();
    assert_eq!(
        told["asked"],
        json!(["White", "Black"]),
        "the engine's seat agrees"
    );
    let started = a.wait_for("started").await.unwrap();
    assert_eq!(started["side"], "Black");
    let again = started["game"].as_str().unwrap().to_string();
    // The engine is White now, and moves first.
    a.send(&json!({"t": "join", "game": again})).await.unwrap();
    let view = a.wait_for("state").await.unwrap();
    assert_eq!(view["names"][0], "hexchess engine, level 1");
    // Its first move, in the state already or as the next step.
    if view["ply"] == 0 {
        let first = step_event(&mut a).await;
        assert_eq!(
            (first["side"].clone(), first["ply"].clone()),
            (json!("White"), json!(0))
        );
    } else {
        assert_eq!(view["steps"].as_array().map(Vec::len), Some(1), "{view}");
    }
}

async fn a_draw_offer_is_declined_and_stands_no_more(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    let decline = json!({"t": "decline", "game": game});
    // Nothing offered: nothing to decline.
    b.send(&decline).await.unwrap();
    assert_eq!(
        b.wait_for("refused").await.unwrap()["why"],
        "no draw is offered to you"
    );
    a.send(&json!({"t": "draw", "game": game})).await.unwrap();
    for c in [&mut a, &mut b] {
        assert_eq!(c.wait_for("draw_offer").await.unwrap()["side"], "White");
    }
    // One's own offer is not one's to decline.
    a.send(&decline).await.unwrap();
    assert_eq!(
        a.wait_for("refused").await.unwrap()["why"],
        "no draw is offered to you"
    );
    b.send(&decline).await.unwrap();
    for c in [&mut a, &mut b] {
        let declined = c.wait_for("draw_declined").await.unwrap();
        assert_eq!(
            (declined["game"].clone(), declined["side"].clone()),
            (json!(game), json!("Black"))
        );
    }
    // The offer is gone: Black's own offer now only offers.
    b.send(&json!({"t": "draw", "game": game})).await.unwrap();
    assert_eq!(a.wait_for("draw_offer").await.unwrap()["side"], "Black");
    // And a rejoin sees the one offer standing, not the declined one.
    a.send(&json!({"t": "join", "game": game})).await.unwrap();
    let state = a.wait_for("state").await.unwrap();
    assert_eq!(state["draw_offers"], json!(["Black"]), "{state}");
    assert!(state["result"].is_null(), "the game goes on");
}
