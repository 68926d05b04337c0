//! The online player's table, as players meet it on the real binary (127.0.0.1, on
//! SQLite and PostgreSQL alike): the game's chat (two rooms, limits, mutes, stored
//! through a `kill -9`), players' profiles and the leaderboard over HTTP, and the
//! lobby pushed as it changes.

#[macro_use]
mod common;

use common::{Server, pair, play, postgres, sqlite};
use hexchess_server::client::Client;
use serde_json::{Value, json};

on_both_databases!(
    the_chat_keeps_players_and_spectators_apart_and_survives_a_kill,
    chat_lines_are_limited_in_length_rate_and_kind,
    a_muted_name_stays_muted_in_every_game_and_after_a_restart,
);

/// A new player with an account of a fresh name; the client and the name.
async fn account(url: &str, prefix: &str) -> (Client, String) {
    let mut c = Client::hello(url, None).await.unwrap();
    let name = format!(
        "{prefix}_{}",
        hexchess_server::secret::new_code(6).to_lowercase()
    );
    c.send(&json!({"t": "register", "name": name, "password": "a long password"}))
        .await
        .unwrap();
    let welcome = c.wait_for("welcome").await.unwrap();
    assert_eq!(welcome["account"], true);
    (c, name)
}

/// Says `text` in `game`'s chat.
async fn say(c: &mut Client, game: &str, text: &str) {
    c.send(&json!({"t": "chat", "game": game, "text": text}))
        .await
        .unwrap();
}

/// The `error` a refused request gets: its message.
async fn refusal(c: &mut Client) -> String {
    c.wait_for("error").await.unwrap()["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The next numbered message (an event, or a hidden event's number alone).
async fn next_numbered(c: &mut Client) -> Value {
    c.wait_until(
        |m| m.get("v").is_some() && m["t"] != "state",
        "a numbered event",
    )
    .await
    .unwrap()
}

/// Follows `game` from its start: its whole state.
async fn join(c: &mut Client, game: &str) -> Value {
    c.send(&json!({"t": "join", "game": game})).await.unwrap();
    c.wait_for("state").await.unwrap()
}

async fn the_chat_keeps_players_and_spectators_apart_and_survives_a_kill(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    let state = join(&mut a, &game).await;
    let a_name = state["names"][0].as_str().unwrap().to_string();
    // An anonymous spectator may read, not speak.
    let mut anon = Client::hello(&server.url(), None).await.unwrap();
    join(&mut anon, &game).await;
    say(&mut anon, &game, "hello").await;
    assert!(refusal(&mut anon).await.contains("with an account"));
    let (mut eve, eve_name) = account(&server.url(), "eve").await;
    join(&mut eve, &game).await;
    // A player speaks: everyone following reads it, numbered like a move.
    say(&mut a, &game, "  good luck  ").await;
    for c in [&mut a, &mut b, &mut eve, &mut anon] {
        let line = next_numbered(c).await;
        assert_eq!(
            (&line["t"], &line["from"], &line["text"], &line["room"]),
            (
                &json!("chat"),
                &json!(a_name),
                &json!("good luck"),
                &json!("players")
            ),
            "{line}"
        );
    }
    // A spectator speaks: the spectators read it; the players get its number alone.
    say(&mut eve, &game, "White is better").await;
    for c in [&mut eve, &mut anon] {
        let line = next_numbered(c).await;
        assert_eq!(
            (&line["from"], &line["room"]),
            (&json!(eve_name), &json!("spectators"))
        );
    }
    for c in [&mut a, &mut b] {
        let hidden = next_numbered(c).await;
        assert!(
            hidden.get("t").is_none() && hidden.get("text").is_none(),
            "a player never reads the spectators: {hidden}"
        );
    }
    play(&mut a, &game, 0, "f5f6", 1).await;
    // Killed at once: every line told was stored first.
    let (ta, te) = (a.token.clone().unwrap(), eve.token.clone().unwrap());
    let server = server.restart().await;
    let mut a = Client::hello(&server.url(), Some(&ta)).await.unwrap();
    let state = join(&mut a, &game).await;
    assert_eq!(
        state["chat"],
        json!([{"from": a_name, "text": "good luck", "room": "players"}]),
        "a player's state holds the players' chat only"
    );
    let mut eve = Client::hello(&server.url(), Some(&te)).await.unwrap();
    let state = join(&mut eve, &game).await;
    assert_eq!(state["chat"].as_array().map(Vec::len), Some(2), "{state}");
    assert_eq!(state["chat"][1]["text"], "White is better");
    // The numbering goes on after the lines: a line after the restart is the next.
    let v = state["v"].as_u64().unwrap();
    say(&mut a, &game, "still here").await;
    let line = next_numbered(&mut eve).await;
    assert_eq!(line["v"].as_u64(), Some(v + 1), "{line}");
}

async fn chat_lines_are_limited_in_length_rate_and_kind(db: &str) {
    let server = Server::start(db).await;
    let (mut a, _b, game) = pair(&server.url(), "glinski", false).await;
    say(&mut a, &game, &"x".repeat(201)).await;
    assert!(
        refusal(&mut a)
            .await
            .contains("at most 200 characters, not 201")
    );
    say(&mut a, &game, "two\nlines").await;
    assert!(refusal(&mut a).await.contains("one line"));
    say(&mut a, &game, "   ").await;
    assert!(refusal(&mut a).await.contains("empty"));
    // Five lines pass (the refused ones above counted none), the sixth waits.
    for i in 0..5 {
        say(&mut a, &game, &format!("line {i}")).await;
        assert_eq!(
            a.wait_for("chat").await.unwrap()["text"],
            format!("line {i}")
        );
    }
    say(&mut a, &game, "one more").await;
    assert!(refusal(&mut a).await.contains("at most 5 lines each 10 s"));
    // No chat in a game that is not there.
    say(&mut a, "NOSUCHGAME00", "hi").await;
    assert!(refusal(&mut a).await.contains("no game"));
}

async fn a_muted_name_stays_muted_in_every_game_and_after_a_restart(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    let state = join(&mut a, &game).await;
    let a_name = state["names"][0].as_str().unwrap().to_string();
    b.send(&json!({"t": "mute", "name": a_name})).await.unwrap();
    assert_eq!(b.wait_for("muted").await.unwrap()["names"], json!([a_name]));
    say(&mut a, &game, "you will lose").await;
    assert_eq!(a.wait_for("chat").await.unwrap()["text"], "you will lose");
    let hidden = next_numbered(&mut b).await;
    assert!(hidden.get("text").is_none(), "muted: {hidden}");
    // Kept through a restart: said in the welcome, and the state leaves the lines out.
    let tb = b.token.clone().unwrap();
    let server = server.restart().await;
    let mut b = Client::connect(&server.url()).await.unwrap();
    b.send(&json!({"t": "hello", "protocol": 1, "token": tb}))
        .await
        .unwrap();
    assert_eq!(
        b.wait_for("welcome").await.unwrap()["muted"],
        json!([a_name])
    );
    assert_eq!(join(&mut b, &game).await["chat"], json!([]));
    // Unmuted: the lines show again.
    b.send(&json!({"t": "unmute", "name": a_name}))
        .await
        .unwrap();
    assert_eq!(b.wait_for("muted").await.unwrap()["names"], json!([]));
    let state = join(&mut b, &game).await;
    assert_eq!(state["chat"][0]["text"], "you will lose");
    // A name no one can have is refused.
    b.send(&json!({"t": "mute", "name": "x".repeat(41)}))
        .await
        .unwrap();
    assert!(refusal(&mut b).await.contains("1 to 40 characters"));
}
