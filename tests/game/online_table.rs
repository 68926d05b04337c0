//! The online player's table in the game (headless, against a real server on
//! 127.0.0.1 and a protocol client as the other person): a premove queued, played,
//! dropped and cancelled by the mouse; the chat both ways with a mute; the ratings on
//! the players' bars and their change at a rated game's end; a finished game opened
//! in the analysis board.

use crate::common;
use crate::online_play::{
    Told, challenged, follow, followed_game, note_notices, online_app, run_until, start_server,
    steps_played,
};

use bevy::prelude::*;
use hexchess::board::Premove;
use hexchess::game::CurrentGame;
use hexchess::online::{Online, OnlineRequest};
use hexchess::play::Session;
use hexchess::play::analysis::Analysis;
use hexchess::ui::players::seat_lines;
use hexchess_server::client::Client;
use serde_json::{Value, json};

fn premove(app: &App) -> Option<(String, String)> {
    let w = app.world();
    let board = w.resource::<CurrentGame>().rules().board();
    w.resource::<Premove>()
        .0
        .map(|(from, to)| (board.name(from).to_string(), board.name(to).to_string()))
}

/// A click (press and release) on the cell named `cell`.
fn click(app: &mut App, cell: &str) {
    common::point_at(app, cell);
    common::button(app, true);
    common::button(app, false);
}

/// The other person plays `step` for ply `ply`; the server's acknowledgement.
fn other_plays(
    runtime: &tokio::runtime::Runtime,
    other: &mut Client,
    game: &str,
    ply: u32,
    step: &str,
) -> Value {
    runtime.block_on(async {
        other
            .send(&json!({"t": "move", "game": game, "ply": ply, "step": step, "ack": ply + 1}))
            .await
            .unwrap();
        other
            .wait_until(|m| m["ack"] == ply + 1, "the acknowledgement")
            .await
            .unwrap()
    })
}

#[test]
fn a_premove_is_played_when_the_turn_comes_dropped_when_illegal_and_cancelled_by_a_click() {
    let url = start_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut other, mut app, game) = challenged(&runtime, &url, "glinski");
    follow(&runtime, &mut other, &game);
    app.init_resource::<Told>()
        .add_systems(Update, note_notices);
    // White (the other person) is on move: Black picks its pawn, then its target.
    click(&mut app, "c7");
    assert_eq!(premove(&app), None, "a piece picked is no premove yet");
    click(&mut app, "c6");
    assert_eq!(premove(&app), Some(("c7".into(), "c6".into())));
    // A click cancels it; queued again.
    click(&mut app, "e4");
    assert_eq!(premove(&app), None);
    click(&mut app, "c7");
    click(&mut app, "c6");
    assert_eq!(premove(&app), Some(("c7".into(), "c6".into())));
    // White moves: the premove goes to the server at once.
    assert_eq!(
        other_plays(&runtime, &mut other, &game, 0, "f5f6")["t"],
        "ack"
    );
    run_until(&mut app, "both moves on the board", |a| {
        steps_played(a) == 2
    });
    let sent = runtime.block_on(async {
        other
            .wait_until(|m| m["t"] == "step" && m["ply"] == 1, "Black's premove")
            .await
            .unwrap()
    });
    assert_eq!(sent["step"], "c7c6");
    assert_eq!(premove(&app), None);
    // A premove that is not legal when its turn comes is dropped, with a word.
    click(&mut app, "c6");
    click(&mut app, "c3");
    assert_eq!(premove(&app), Some(("c6".into(), "c3".into())));
    assert_eq!(
        other_plays(&runtime, &mut other, &game, 2, "e4e5")["t"],
        "ack"
    );
    run_until(&mut app, "the premove dropped", |a| {
        a.world()
            .resource::<Told>()
            .0
            .iter()
            .any(|t| t == "premove c6-c3 dropped: not legal now")
    });
    assert_eq!(steps_played(&app), 3, "nothing played for Black");
    assert_eq!(premove(&app), None);
}

/// The chat of the game followed, as the game holds it: (who, what) in order.
fn chat(app: &App) -> Vec<(String, String)> {
    let online = app.world().resource::<Online>();
    online.followed.as_ref().map_or(Vec::new(), |f| {
        f.chat
            .iter()
            .map(|l| (l.from.clone(), l.text.clone()))
            .collect()
    })
}

#[test]
fn the_chat_goes_both_ways_and_a_muted_name_is_not_shown() {
    let url = start_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut other, mut app, game) = challenged(&runtime, &url, "glinski");
    follow(&runtime, &mut other, &game);
    let me = app.world().resource::<Online>().me.clone().unwrap().name;
    let them = app
        .world()
        .resource::<Online>()
        .followed
        .clone()
        .unwrap()
        .names[0]
        .clone();
    // A canned phrase from the board reaches the other player.
    app.world_mut()
        .write_message(OnlineRequest::Chat(hexchess::ui::chat::CANNED[1].into()));
    run_until(&mut app, "the line back", |a| !chat(a).is_empty());
    let heard = runtime.block_on(async { other.wait_for("chat").await.unwrap() });
    assert_eq!(
        (&heard["from"], &heard["text"]),
        (&json!(me), &json!("Good luck"))
    );
    // Their line reaches the board.
    let say = |other: &mut Client, text: &str| {
        runtime.block_on(async {
            other
                .send(&json!({"t": "chat", "game": game, "text": text}))
                .await
                .unwrap();
            other.wait_for("chat").await.unwrap();
        });
    };
    say(&mut other, "you too");
    run_until(&mut app, "their line", |a| chat(a).len() == 2);
    assert_eq!(chat(&app)[1], (them.clone(), "you too".to_string()));
    // Muted: their lines leave the chat, and new ones never come.
    app.world_mut().write_message(OnlineRequest::Mute {
        name: them.clone(),
        muted: true,
    });
    run_until(&mut app, "the mute kept", |a| {
        a.world().resource::<Online>().muted == [them.clone()]
    });
    assert_eq!(chat(&app), [(me.clone(), "Good luck".to_string())]);
    say(&mut other, "are you there?");
    for _ in 0..30 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(chat(&app).len(), 1, "{:?}", chat(&app));
}

#[test]
fn ratings_show_on_the_bars_and_their_change_at_the_end_then_the_game_opens_for_analysis() {
    let url = start_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut other = runtime.block_on(Client::hello(&url, None)).unwrap();
    let code = runtime.block_on(async {
        other
            .send(&json!({"t": "seek", "variant": "glinski", "side": "white",
                          "private": true, "rated": true}))
            .await
            .unwrap();
        other.wait_for("seek").await.unwrap()["code"].clone()
    });
    let mut app = online_app(&url);
    app.world_mut().write_message(OnlineRequest::Connect);
    run_until(&mut app, "the welcome", |a| {
        a.world().resource::<Online>().is_connected()
    });
    app.world_mut()
        .write_message(OnlineRequest::Accept(code.as_str().unwrap().into()));
    run_until(&mut app, "the game on the board", |a| {
        followed_game(a).is_some()
    });
    let game = followed_game(&app).unwrap();
    follow(&runtime, &mut other, &game);
    let bars = |a: &App| {
        let w = a.world();
        seat_lines(
            w.resource::<CurrentGame>(),
            w.resource::<Session>(),
            w.resource::<hexchess::play::Clocks>(),
            w.resource::<Online>(),
            true,
        )
    };
    let (across, facing) = bars(&app);
    assert_eq!(across[0].rating.as_deref(), Some("1500?"));
    assert_eq!(facing.rating.as_deref(), Some("1500?"));
    assert_eq!(facing.change, None);
    other_plays(&runtime, &mut other, &game, 0, "f5f6");
    run_until(&mut app, "White's move", |a| steps_played(a) == 1);
    runtime.block_on(async {
        other
            .send(&json!({"t": "resign", "game": game}))
            .await
            .unwrap();
    });
    run_until(&mut app, "the ratings moved", |a| {
        bars(a).1.change.is_some()
    });
    let (across, facing) = bars(&app);
    let gain = facing.change.unwrap();
    assert!(gain.starts_with('+') && gain != "+0", "{gain}");
    assert!(across[0].change.as_deref().unwrap().starts_with('-'));
    let after: f64 = facing
        .rating
        .unwrap()
        .trim_end_matches('?')
        .parse()
        .unwrap();
    assert!(after > 1500.0);
    // The finished game, from the server's record, on the analysis board.
    app.world_mut()
        .write_message(OnlineRequest::Analyse(game.clone()));
    run_until(&mut app, "the record loaded", |a| {
        !a.world().resource::<Session>().seats.is_online() && steps_played(a) == 1
    });
    run_until(&mut app, "the analysis on", |a| {
        a.world().resource::<Analysis>().on
    });
    assert!(app.world().resource::<Online>().followed.is_none());
}
