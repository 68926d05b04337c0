//! `hexchess-engine bridge`: the engine, as a bot account, plays a whole game on a real
//! server (in this test's process, on 127.0.0.1) against a person there.

use std::process::Command;
use std::time::Duration;

use hexchess_server::client::Client;
use hexchess_server::local::LocalServer;
use serde_json::json;

/// The bot seeks by quick pairing; the person pairs with it (trying until the bot's
/// seek is there). The `started` the person gets.
async fn pair_with_the_bot(person: &mut Client) -> serde_json::Value {
    loop {
        person
            .send(&json!({"t": "quick", "variant": "glinski", "increment": 0}))
            .await
            .unwrap();
        match tokio::time::timeout(Duration::from_secs(2), person.wait_for("started")).await {
            Ok(Ok(started)) => return started,
            _ => {
                // Our own seek was made instead: withdraw it and try again.
                person.send(&json!({"t": "lobby"})).await.unwrap();
                let seeks = person.wait_for("seeks").await.unwrap();
                for s in seeks["seeks"].as_array().into_iter().flatten() {
                    let cancel = json!({"t": "cancel", "seek": s["id"]});
                    person.send(&cancel).await.unwrap();
                }
            }
        }
    }
}

#[test]
fn the_engine_plays_a_game_on_a_server_as_a_bot_account() {
    let server = LocalServer::start_fresh().expect("a server on 127.0.0.1");
    let url = server.url.clone();
    let bridge_url = url.clone();
    let bridge = std::thread::spawn(move || {
        Command::new(env!("CARGO_BIN_EXE_hexchess-engine"))
            .args(["bridge", "--url", &bridge_url, "--name", "bridgebot"])
            .args([
                "--password",
                "a bot's password",
                "--games",
                "1",
                "--movetime-ms",
                "30",
            ])
            .output()
            .expect("the bridge runs")
    });
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (names, moves) = runtime.block_on(async {
        let mut person = Client::hello(&url, None).await.unwrap();
        let started = pair_with_the_bot(&mut person).await;
        let game = started["game"].as_str().unwrap().to_string();
        let me = started["side"].as_str().unwrap().to_string();
        person
            .send(&json!({"t": "join", "game": game}))
            .await
            .unwrap();
        let state = person.wait_for("state").await.unwrap();
        let names = state["names"].clone();
        let (mut legal, mut to_move, mut ply) = (
            state["legal"].clone(),
            state["to_move"].clone(),
            state["ply"].as_u64().unwrap(),
        );
        let mut moves = 0;
        // The person plays the first legal move each turn; after 12 plies, resigns.
        loop {
            if to_move == me.as_str() {
                if ply >= 12 {
                    person
                        .send(&json!({"t": "resign", "game": game}))
                        .await
                        .unwrap();
                    person.wait_for("end").await.unwrap();
                    break;
                }
                let step = legal[0].clone();
                let m = json!({"t": "move", "game": game, "ply": ply, "step": step, "ack": ply});
                person.send(&m).await.unwrap();
            }
            let m = person.recv().await.unwrap();
            match m["t"].as_str() {
                Some("step") => {
                    moves += 1;
                    legal = m["legal"].clone();
                    to_move = m["to_move"].clone();
                    ply = m["ply"].as_u64().unwrap() + 1;
                }
                Some("end") => break,
                _ => {}
            }
        }
        (names, moves)
    });
    let output = bridge.join().unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{out}\n{err}");
    assert!(names.to_string().contains("bridgebot"), "{names}");
    assert!(moves >= 6, "{moves} moves");
    // One game played to its end (the person resigns after 12 plies, unless mated
    // first), as the bridge reports it.
    let line = out.lines().next().unwrap_or_default().to_string();
    let result = line.split_whitespace().nth(1).unwrap_or_default();
    assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{out}\n{err}");
    assert!(
        line.contains("resignation") || line.contains("checkmate"),
        "{line}"
    );
}

#[test]
fn the_bot_agrees_to_a_rematch_by_its_rule() {
    let server = LocalServer::start_fresh().expect("a server on 127.0.0.1");
    let url = server.url.clone();
    let bridge_url = url.clone();
    let bridge = std::thread::spawn(move || {
        Command::new(env!("CARGO_BIN_EXE_hexchess-engine"))
            .args(["bridge", "--url", &bridge_url, "--name", "rematchbot"])
            .args(["--password", "a bot's password", "--games", "2"])
            .args(["--rematches", "1", "--movetime-ms", "30"])
            .output()
            .expect("the bridge runs")
    });
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let sides = runtime.block_on(async {
        let mut person = Client::hello(&url, None).await.unwrap();
        let first = pair_with_the_bot(&mut person).await;
        let game = first["game"].as_str().unwrap().to_string();
        // Resigned at once; then the person asks for a rematch and the bot agrees.
        person
            .send(&json!({"t": "resign", "game": game}))
            .await
            .unwrap();
        person
            .send(&json!({"t": "rematch", "game": game}))
            .await
            .unwrap();
        let again = tokio::time::timeout(Duration::from_secs(20), person.wait_for("started"))
            .await
            .expect("the bot agreed in time")
            .unwrap();
        let second = again["game"].as_str().unwrap().to_string();
        assert_ne!(second, game);
        person
            .send(&json!({"t": "resign", "game": second}))
            .await
            .unwrap();
        (first["side"].clone(), again["side"].clone())
    });
    assert_ne!(sides.0, sides.1, "the seats swapped");
    let output = bridge.join().unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{out}\n{err}");
    // Two games, the second the rematch, each won by the bot on resignation.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}\n{err}");
    assert!(lines.iter().all(|l| l.contains("resignation")), "{out}");
}
