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
    ratings_show_on_the_board_and_move_at_the_end_of_a_rated_game,
    a_players_page_and_the_leaderboard_read_the_stored_games,
    a_bots_account_is_marked_in_the_lists_and_on_the_board,
    the_lobby_and_your_games_are_pushed_as_they_change,
    a_player_who_leaves_is_told_of_and_back,
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

/// Two accounts in a private Gliński game, the first White: each client and name,
/// and the game's id (both following it).
async fn two_accounts(url: &str, rated: bool) -> ((Client, String), (Client, String), String) {
    let (mut a, an) = account(url, "ann").await;
    let (mut b, bn) = account(url, "bob").await;
    a.send(
        &json!({"t": "seek", "variant": "glinski", "side": "white", "private": true,
                   "rated": rated}),
    )
    .await
    .unwrap();
    let code = a.wait_for("seek").await.unwrap()["code"].clone();
    b.send(&json!({"t": "accept", "seek": code})).await.unwrap();
    let game = a.wait_for("started").await.unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    b.wait_for("started").await.unwrap();
    for c in [&mut a, &mut b] {
        join(c, &game).await;
    }
    ((a, an), (b, bn), game)
}

/// White moves, Black resigns: White wins.
async fn black_resigns(a: &mut Client, b: &mut Client, game: &str) {
    play(a, game, 0, "f5f6", 1).await;
    b.send(&json!({"t": "resign", "game": game})).await.unwrap();
    a.wait_for("end").await.unwrap();
}

async fn ratings_show_on_the_board_and_move_at_the_end_of_a_rated_game(db: &str) {
    let server = Server::start(db).await;
    let ((mut a, _), (mut b, _), game) = two_accounts(&server.url(), true).await;
    let state = join(&mut a, &game).await;
    let new = json!({"rating": 1500.0, "provisional": true});
    assert_eq!(state["ratings"], json!([new, new]), "{state}");
    black_resigns(&mut a, &mut b, &game).await;
    // The ratings moved: told once, as an event of the game, right after the end.
    let rated = a.wait_for("rated").await.unwrap();
    let (white, black) = (&rated["changes"][0], &rated["changes"][1]);
    assert_eq!(white["before"], 1500.0);
    assert_eq!(black["before"], 1500.0);
    let (w, l) = (
        white["after"].as_f64().unwrap(),
        black["after"].as_f64().unwrap(),
    );
    assert!(w > 1500.0 && l < 1500.0, "{rated}");
    assert_eq!(white["provisional"], true, "one game: still provisional");
    // Its numbering follows the end's, and the state after holds the new ratings.
    assert_eq!(b.wait_for("rated").await.unwrap()["v"], rated["v"]);
    let state = join(&mut b, &game).await;
    assert_eq!(state["ratings"][0]["rating"].as_f64(), Some(w));
    assert_eq!(state["ratings"][1]["rating"].as_f64(), Some(l));
    // A casual game moves nothing and says nothing of ratings.
    let ((mut c, _), (mut d, _), casual) = two_accounts(&server.url(), false).await;
    black_resigns(&mut c, &mut d, &casual).await;
    let after = join(&mut c, &casual).await;
    assert_eq!(after["ratings"], json!([new, new]));
    assert!(!format!("{after}").contains("\"rated\":{"), "{after}");
    // The winner's next seek (the same variant and speed) is listed with the new
    // rating.
    a.send(&json!({"t": "seek", "variant": "glinski"}))
        .await
        .unwrap();
    a.wait_for("seek").await.unwrap();
    let mut lobby = Client::hello(&server.url(), None).await.unwrap();
    lobby.send(&json!({"t": "lobby"})).await.unwrap();
    let seeks = lobby
        .wait_until(
            |m| m["t"] == "seeks" && m["seeks"][0].is_object(),
            "the seek listed",
        )
        .await
        .unwrap();
    assert_eq!(
        seeks["seeks"][0]["rating"]["rating"].as_f64(),
        Some(w),
        "{seeks}"
    );
    assert_eq!(seeks["seeks"][0]["rating"]["provisional"], true);
}

async fn a_players_page_and_the_leaderboard_read_the_stored_games(db: &str) {
    let server = Server::start(db).await;
    let ((mut a, an), (mut b, bn), game) = two_accounts(&server.url(), true).await;
    black_resigns(&mut a, &mut b, &game).await;
    a.wait_for("rated").await.unwrap();
    let (status, body) = server.get(&format!("/player/{}", an.to_uppercase())).await;
    assert!(status.contains("200"), "{status}: {body}");
    let page: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(page["name"], an.as_str(), "names are found in any case");
    assert_eq!(page["bot"], false);
    let rating = &page["ratings"][0];
    assert_eq!(
        (
            &rating["variant"],
            &rating["speed"],
            &rating["games"],
            &rating["provisional"]
        ),
        (
            &json!("glinski"),
            &json!("untimed"),
            &json!(1),
            &json!(true)
        )
    );
    assert!(rating["rating"].as_f64().unwrap() > 1500.0);
    let played = &page["games"][0];
    assert_eq!(played["game"], game.as_str());
    assert_eq!(played["seat"], "White");
    assert_eq!(played["names"], json!([an, bn]));
    assert_eq!(
        (&played["result"], &played["why"], &played["rated"]),
        (&json!("1-0"), &json!("resignation"), &json!(true))
    );
    // The same page over the socket.
    b.send(&json!({"t": "player", "name": an})).await.unwrap();
    let over_socket = b.wait_for("player").await.unwrap();
    assert_eq!(over_socket["games"], page["games"]);
    // The leaderboard: the winner above the loser, both marked provisional.
    let (status, body) = server.get("/leaderboard/glinski").await;
    assert!(status.contains("200"), "{status}: {body}");
    let board: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(board["speeds"][0]["speed"], "untimed");
    let names: Vec<&str> = board["speeds"][0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, [an.as_str(), bn.as_str()]);
    // Not found, said plainly.
    let (status, body) = server.get("/player/no_such_player").await;
    assert!(
        status.contains("404") && body.contains("no player named"),
        "{status}: {body}"
    );
    let (status, body) = server.get("/leaderboard/chess").await;
    assert!(
        status.contains("404") && body.contains("no variant 'chess'"),
        "{status}: {body}"
    );
    // An anonymous player has no public page: their name is not theirs alone.
    let (mut c, mut d, anon_game) = pair(&server.url(), "glinski", false).await;
    let (status, _) = server.get("/player/Anonymous%20ABCD").await;
    assert!(status.contains("404"), "{status}");
    // But over the socket, `player` with no name is your own page, account or not:
    // the finished game listed, to open in the analysis board.
    black_resigns(&mut c, &mut d, &anon_game).await;
    d.send(&json!({"t": "player"})).await.unwrap();
    let own = d.wait_for("player").await.unwrap();
    assert_eq!(own["games"][0]["game"], anon_game.as_str(), "{own}");
    assert_eq!(own["games"][0]["seat"], "Black");
    assert_eq!(own["games"][0]["result"], "1-0");
    assert_eq!(own["ratings"], json!([]), "a casual game rates no one");
    a.send(&json!({"t": "player"})).await.unwrap();
    assert_eq!(a.wait_for("player").await.unwrap()["name"], an.as_str());
}

async fn a_bots_account_is_marked_in_the_lists_and_on_the_board(db: &str) {
    let server = Server::start(db).await;
    let mut bot = Client::hello(&server.url(), None).await.unwrap();
    let name = format!(
        "bot_{}",
        hexchess_server::secret::new_code(6).to_lowercase()
    );
    bot.send(
        &json!({"t": "register", "name": name, "password": "a long password",
                     "bot": true}),
    )
    .await
    .unwrap();
    bot.wait_for("welcome").await.unwrap();
    let mut watcher = Client::hello(&server.url(), None).await.unwrap();
    watcher.send(&json!({"t": "lobby"})).await.unwrap();
    watcher.wait_for("seeks").await.unwrap();
    bot.send(&json!({"t": "seek", "variant": "glinski", "side": "white"}))
        .await
        .unwrap();
    let listed = watcher
        .wait_until(
            |m| m["t"] == "seeks" && m["seeks"][0].is_object(),
            "the bot's seek",
        )
        .await
        .unwrap();
    assert_eq!(listed["seeks"][0]["bot"], true, "{listed}");
    let seek = listed["seeks"][0]["id"].clone();
    watcher
        .send(&json!({"t": "accept", "seek": seek}))
        .await
        .unwrap();
    let game = watcher.wait_for("started").await.unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    let state = join(&mut watcher, &game).await;
    assert_eq!(state["bots"], json!([true, false]));
    watcher.send(&json!({"t": "playing"})).await.unwrap();
    let playing = watcher.wait_for("playing").await.unwrap();
    let listed = playing["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == game.as_str())
        .cloned()
        .unwrap();
    assert_eq!(listed["bots"], json!([true, false]));
    let (_, body) = server.get(&format!("/player/{name}")).await;
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["bot"], true);
}

/// The ids of the games a `playing` or `games` list holds.
fn ids(list: &Value) -> Vec<String> {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap().to_string())
        .collect()
}

async fn the_lobby_and_your_games_are_pushed_as_they_change(db: &str) {
    let server = Server::start(db).await;
    let mut lobby = Client::hello(&server.url(), None).await.unwrap();
    lobby.send(&json!({"t": "lobby"})).await.unwrap();
    assert_eq!(
        ids(&lobby.wait_for("playing").await.unwrap()),
        Vec::<String>::new()
    );
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    // The new game reaches the watch list by itself.
    let listed = lobby
        .wait_until(
            |m| m["t"] == "playing" && m["games"][0].is_object(),
            "the game listed",
        )
        .await
        .unwrap();
    assert_eq!(ids(&listed), [game.as_str()]);
    // White follows its games once; the turn passing is pushed.
    a.send(&json!({"t": "games"})).await.unwrap();
    let mine = a.wait_for("games").await.unwrap();
    assert_eq!(mine["games"][0]["your_turn"], true, "{mine}");
    play(&mut a, &game, 0, "f5f6", 1).await;
    let mine = a
        .wait_until(
            |m| m["t"] == "games" && m["games"][0]["your_turn"] == false,
            "the turn passed",
        )
        .await
        .unwrap();
    assert_eq!(ids(&mine), [game.as_str()]);
    // The end: the game leaves the watch list and White's list, unasked.
    b.send(&json!({"t": "resign", "game": game})).await.unwrap();
    lobby
        .wait_until(
            |m| m["t"] == "playing" && m["games"] == json!([]),
            "the game gone",
        )
        .await
        .unwrap();
    a.wait_until(
        |m| m["t"] == "games" && m["games"] == json!([]),
        "no game left",
    )
    .await
    .unwrap();
}

async fn a_player_who_leaves_is_told_of_and_back(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    play(&mut b, &game, 1, "c7c6", 1).await;
    play(&mut a, &game, 2, "e4e5", 2).await;
    let tb = b.token.clone().unwrap();
    b.close().await;
    // A lost connection in an untimed game: three times lichess's 40 s.
    let away = a.wait_for("away").await.unwrap();
    assert_eq!(away["side"], "Black");
    assert_eq!(away["claim_in_ms"], 120_000);
    let state = join(&mut a, &game).await;
    assert_eq!(state["away"][0]["side"], "Black", "{state}");
    assert!(state["away"][0]["claim_in_ms"].as_u64().unwrap() <= 120_000);
    // Too early to claim: the server says how long is left.
    a.send(&json!({"t": "claim", "game": game})).await.unwrap();
    let refused = a.wait_for("refused").await.unwrap();
    assert!(
        refused["why"]
            .as_str()
            .unwrap()
            .contains("they may still come back")
    );
    let mut b = Client::hello(&server.url(), Some(&tb)).await.unwrap();
    join(&mut b, &game).await;
    assert_eq!(a.wait_for("back").await.unwrap()["side"], "Black");
    assert!(join(&mut a, &game).await.get("away").is_none());
}
