//! The game as a client of a real server (started in this process on 127.0.0.1): it
//! connects, seeks, puts the server's game on the board, proposes a person's moves
//! (played only when the server sends them back) and plays the server's moves (the
//! engine's, another person's) through the same path as local moves.

use crate::common;

use std::time::{Duration, Instant};

use bevy::prelude::*;
use hexchess::game::{Authority, CurrentGame, StepRequest, UndoRequest};
use hexchess::look::Settings;
use hexchess::online::link::LinkStatus;
use hexchess::online::{Online, OnlineRequest, SeekForm};
use hexchess::play::{Seats, Session};
use hexchess::sound::Cue;
use hexchess_server::client::Client;
use hexchess_server::local::LocalServer;
use serde_json::json;

/// A server kept for the whole test; its socket URL.
pub(crate) fn start_server() -> String {
    let server = LocalServer::start_fresh().expect("a server on 127.0.0.1");
    let url = server.url.clone();
    // Left running until the test process ends.
    std::mem::forget(server);
    url
}

/// The game, headless, knowing the server at `url` (not yet connected).
pub(crate) fn online_app(url: &str) -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let mut app = common::headless_app("glinski", None, Settings::default(), session, None);
    app.insert_resource(Online::new(url.to_string(), None));
    app.update();
    app
}

/// Runs frames until `done` holds (at most 20 s).
pub(crate) fn run_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    let start = Instant::now();
    while !done(app) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "waited in vain for {what}"
        );
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub(crate) fn steps_played(app: &App) -> usize {
    app.world().resource::<CurrentGame>().played.steps_played()
}

pub(crate) fn followed_game(app: &App) -> Option<String> {
    let online = app.world().resource::<Online>();
    online
        .followed
        .as_ref()
        .filter(|t| !t.variant.is_empty())
        .map(|t| t.game.clone())
}

fn request_move(app: &mut App, text: &str) {
    let step = app
        .world()
        .resource::<CurrentGame>()
        .played
        .parse_step(text)
        .unwrap();
    app.world_mut().write_message(StepRequest(step));
}

/// Connects, seeks a game as White against the server's engine (level 1), and waits
/// until it is on the board.
fn play_white_against_the_servers_engine(app: &mut App) {
    app.world_mut().write_message(OnlineRequest::Connect);
    run_until(app, "the welcome", |a| {
        a.world().resource::<Online>().is_connected()
    });
    app.world_mut()
        .write_message(OnlineRequest::Seek(form(Some("White"), 1)));
    run_until(app, "the game on the board", |a| followed_game(a).is_some());
}

/// A legal move whatever the engine answered (a fixed second move may have been
/// blocked: the engine's ...e7-e5 stops e4-e5).
fn request_any_move(app: &mut App) {
    let steps = app.world().resource::<CurrentGame>().played.steps();
    let step = *steps.first().expect("a legal move");
    app.world_mut().write_message(StepRequest(step));
}

fn form(side: Option<&str>, engines: u32) -> SeekForm {
    SeekForm {
        variant: "glinski".into(),
        clock: None,
        days: None,
        rated: false,
        side: side.map(String::from),
        engines,
        level: 1,
    }
}

/// A person elsewhere (a protocol client) challenges, as White, in `variant`; the
/// game, connected, takes the challenge by its code. The other person, the game and
/// the game's id.
pub(crate) fn challenged(
    runtime: &tokio::runtime::Runtime,
    url: &str,
    variant: &str,
) -> (Client, App, String) {
    let mut other = runtime.block_on(Client::hello(url, None)).unwrap();
    let code = runtime.block_on(async {
        let seek = json!({"t": "seek", "variant": variant, "side": "white", "private": true});
        other.send(&seek).await.unwrap();
        other.wait_for("seek").await.unwrap()["code"]
            .as_str()
            .unwrap()
            .to_string()
    });
    let mut app = online_app(url);
    app.world_mut().write_message(OnlineRequest::Connect);
    run_until(&mut app, "the welcome", |a| {
        a.world().resource::<Online>().is_connected()
    });
    app.world_mut().write_message(OnlineRequest::Accept(code));
    run_until(&mut app, "the game on the board", |a| {
        followed_game(a).is_some()
    });
    let game = followed_game(&app).unwrap();
    (other, app, game)
}

/// The other person, told the game started, follows it too (its whole state first).
pub(crate) fn follow(runtime: &tokio::runtime::Runtime, other: &mut Client, game: &str) {
    runtime.block_on(async {
        other.wait_for("started").await.unwrap();
        other
            .send(&json!({"t": "join", "game": game}))
            .await
            .unwrap();
        other.wait_for("state").await.unwrap();
    });
}

#[test]
fn a_game_against_the_servers_engine_is_played_on_the_board() {
    let url = start_server();
    let mut app = online_app(&url);
    play_white_against_the_servers_engine(&mut app);
    let seats = app.world().resource::<Session>().seats;
    assert!(seats.is_online());
    assert!(seats.person(hexchess_core::Side::White) && !seats.person(hexchess_core::Side::Black));
    assert_eq!(*app.world().resource::<Authority>(), Authority::Remote);
    // The server's engine is marked as a program on the board.
    let bots = app
        .world()
        .resource::<Online>()
        .followed
        .as_ref()
        .map(|f| f.bots.clone());
    assert_eq!(bots, Some(vec![false, true]));
    // The person's move is proposed, not played: the board moves when the server
    // sends it back, and the engine answers.
    request_move(&mut app, "f5f6");
    app.update();
    assert_eq!(steps_played(&app), 0, "played only once the server has it");
    run_until(&mut app, "the move and the engine's answer", |a| {
        steps_played(a) >= 2
    });
    let game = app.world().resource::<CurrentGame>();
    assert_eq!(game.played.step_lan(game.played.turns()[0].1[0]), "f5f6");
    // No take-backs in a server's game.
    app.world_mut().write_message(UndoRequest(1));
    app.update();
    assert_eq!(steps_played(&app), 2);
    request_any_move(&mut app);
    run_until(&mut app, "the next move and answer", |a| {
        steps_played(a) >= 4
    });
}

#[test]
fn two_people_meet_by_a_challenge_code_and_each_sees_the_others_moves() {
    let url = start_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // The other person: a plain protocol client, White, with a private challenge.
    let (mut other, mut app, game) = challenged(&runtime, &url, "glinski");
    follow(&runtime, &mut other, &game);
    // White moves elsewhere: the board plays it.
    runtime.block_on(async {
        other
            .send(&json!({"t": "move", "game": game, "ply": 0, "step": "f5f6", "ack": 1}))
            .await
            .unwrap();
        other.wait_for("ack").await.unwrap();
    });
    run_until(&mut app, "White's move on the board", |a| {
        steps_played(a) == 1
    });
    // Black (this game) answers: White sees it.
    request_move(&mut app, "c7c6");
    run_until(&mut app, "Black's move played", |a| steps_played(a) == 2);
    let seen = runtime.block_on(async {
        other
            .wait_until(|m| m["t"] == "step" && m["ply"] == 1, "Black's move")
            .await
            .unwrap()
    });
    assert_eq!(seen["step"], "c7c6");
    // A third person watches it from the list of games in play: the same moves, and
    // no seat to move for.
    let mut watcher = online_app(&url);
    watcher.world_mut().write_message(OnlineRequest::Connect);
    run_until(&mut watcher, "the list of games in play", |a| {
        let online = a.world().resource::<Online>();
        online.playing.iter().any(|g| g.game == game)
    });
    watcher
        .world_mut()
        .write_message(OnlineRequest::Open(game.clone()));
    run_until(&mut watcher, "the watched game", |a| steps_played(a) == 2);
    let seats = watcher.world().resource::<Session>().seats;
    assert!(!seats.person(hexchess_core::Side::White) && !seats.person(hexchess_core::Side::Black));
    // Resigning from the game ends it on the server and on the board.
    app.world_mut().write_message(OnlineRequest::Resign);
    run_until(&mut app, "the end on the board", |a| {
        a.world().resource::<CurrentGame>().outcome().is_some()
    });
    let end = runtime.block_on(async { other.wait_for("end").await.unwrap() });
    assert_eq!(end["result"], "1-0");
    let outcome = app.world().resource::<CurrentGame>().outcome().unwrap();
    assert_eq!(outcome.termination, hexchess_core::Termination::Resignation);

    // A rematch: the other person asks, the window is told; it asks too, and the new
    // game is on the board with the seats swapped (this player White now).
    runtime.block_on(async {
        let ask = serde_json::json!({"t": "rematch", "game": game});
        other.send(&ask).await.unwrap();
    });
    run_until(&mut app, "the other's ask", |a| {
        let online = a.world().resource::<Online>();
        online
            .followed
            .as_ref()
            .is_some_and(|f| f.rematch_asked == ["White"])
    });
    app.world_mut().write_message(OnlineRequest::Rematch);
    run_until(&mut app, "the rematch on the board", |a| {
        followed_game(a).is_some_and(|g| g != game) && steps_played(a) == 0
    });
    let seats = app.world().resource::<Session>().seats;
    assert!(seats.person(hexchess_core::Side::White) && !seats.person(hexchess_core::Side::Black));
    assert!(app.world().resource::<CurrentGame>().outcome().is_none());
    let started = runtime.block_on(async { other.wait_for("started").await.unwrap() });
    assert_eq!(started["side"], "Black");
}

/// The mating step and the end after it reach the board in one read from the server:
/// the step is played first, then the game ends by the rules (before, the end came first
/// and the board refused the mate: "the game is over"). The mate is the shortest there
/// is from Gliński's start, both sides helping (found by a search of every line of five
/// plies).
#[test]
fn the_mating_step_is_on_the_board_before_the_end_the_server_sends_with_it() {
    let url = start_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut other, mut app, game) = challenged(&runtime, &url, "glinski");
    follow(&runtime, &mut other, &game);
    let white = ["e1b4", "f3h2", "b4k4"];
    let black = ["g10h8", "h8i6"];
    for (i, step) in white.iter().enumerate() {
        let ply = 2 * i;
        runtime.block_on(async {
            let message =
                json!({"t": "move", "game": game, "ply": ply, "step": step, "ack": ply + 1});
            other.send(&message).await.unwrap();
            other.wait_for("ack").await.unwrap();
        });
        run_until(&mut app, "White's step on the board", |a| {
            steps_played(a) == ply + 1
        });
        if let Some(reply) = black.get(i) {
            request_move(&mut app, reply);
            run_until(&mut app, "Black's step played", |a| {
                steps_played(a) == ply + 2
            });
            runtime.block_on(async {
                other
                    .wait_until(|m| m["t"] == "step" && m["ply"] == ply + 1, "Black's step")
                    .await
                    .unwrap()
            });
        }
    }
    run_until(&mut app, "the end on the board", |a| {
        a.world().resource::<CurrentGame>().outcome().is_some()
    });
    let board = app.world().resource::<CurrentGame>();
    assert_eq!(board.played.steps_played(), 5, "the mate is on the board");
    assert_eq!(
        board.outcome().unwrap().termination,
        hexchess_core::Termination::Checkmate
    );
}

#[test]
fn a_table_of_three_with_two_engine_seats_is_played_through_the_window() {
    let url = start_server();
    let mut app = online_app(&url);
    app.world_mut().write_message(OnlineRequest::Connect);
    run_until(&mut app, "the welcome", |a| {
        a.world().resource::<Online>().is_connected()
    });
    let mut table = form(Some("White"), 2);
    table.variant = "hexachess-3".into();
    app.world_mut().write_message(OnlineRequest::Seek(table));
    run_until(&mut app, "the table on the board", |a| {
        followed_game(a).is_some()
    });
    assert_eq!(app.world().resource::<CurrentGame>().side_count(), 3);
    // White's turns are the person's: the first step the rules offer each time (a
    // move, a second move or the end of the turn), proposed and played when the
    // server sends it back; the engines play the other two seats.
    let start = Instant::now();
    while app.world().resource::<CurrentGame>().turn_count() < 4 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the table did not go round"
        );
        let game = app.world().resource::<CurrentGame>();
        let mine = game.side_to_move() == hexchess_core::Side::White;
        let waiting = app
            .world()
            .resource::<Online>()
            .followed
            .as_ref()
            .is_some_and(|t| t.waiting());
        if mine && !waiting && game.outcome().is_none() {
            let step = game.played.steps()[0];
            app.world_mut().write_message(StepRequest(step));
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    let game = &app.world().resource::<CurrentGame>().played;
    let movers: Vec<hexchess_core::Side> = game.turns().iter().map(|(s, _)| *s).collect();
    assert_eq!(
        movers[..3],
        [
            hexchess_core::Side::White,
            hexchess_core::Side::Black,
            hexchess_core::Side::Third
        ]
    );
}

#[test]
fn screen_hexachess_online_hides_the_other_army_until_the_reveal() {
    let url = start_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let catalog = hexchess_core::Catalog::builtin();
    let rules = std::sync::Arc::clone(catalog.get("screen-hexachess").unwrap().rules());
    let (mut white, mut app, game) = challenged(&runtime, &url, "screen-hexachess");
    // White deploys its whole army (its own rules pick the cells), unseen by Black.
    runtime.block_on(async {
        white.wait_for("started").await.unwrap();
        let mut own = hexchess_core::Game::new(std::sync::Arc::clone(&rules));
        let mut ply = 0;
        while own.side_to_move() == hexchess_core::Side::White {
            let step = own.steps()[ply % 3];
            let text = own.step_lan(step);
            own.play(step).unwrap();
            let m = json!({"t": "move", "game": game, "ply": ply, "step": text, "ack": ply});
            white.send(&m).await.unwrap();
            white
                .wait_until(|m| m["t"] == "ack", "its ack")
                .await
                .unwrap();
            ply += 1;
        }
        assert_eq!(ply, 20);
    });
    let white_on_board = |a: &App| {
        let game = a.world().resource::<CurrentGame>();
        let pos = game.position();
        let rules = pos.rules();
        rules
            .board()
            .cells()
            .filter(|c| {
                pos.piece_at(*c)
                    .is_some_and(|p| p.side == hexchess_core::Side::White)
            })
            .count()
    };
    // Black's board: Black on move, and not one White piece on it.
    run_until(&mut app, "Black's turn to deploy", |a| {
        a.world().resource::<CurrentGame>().side_to_move() == hexchess_core::Side::Black
    });
    assert_eq!(white_on_board(&app), 0, "White's deployment reached Black");
    // Black deploys through the window, a step at a time.
    let start = Instant::now();
    while app.world().resource::<CurrentGame>().position().phase() == hexchess_core::Phase::Setup {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "Black's deployment did not end"
        );
        assert_eq!(white_on_board(&app), 0, "White's deployment reached Black");
        let game = app.world().resource::<CurrentGame>();
        let waiting = app
            .world()
            .resource::<Online>()
            .followed
            .as_ref()
            .is_some_and(|t| t.waiting());
        if game.side_to_move() == hexchess_core::Side::Black && !waiting {
            let step = game.played.steps()[0];
            app.world_mut().write_message(StepRequest(step));
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    // Revealed: both armies, White to move, the whole game on the board.
    run_until(&mut app, "the reveal", |a| white_on_board(a) == 20);
    let game = app.world().resource::<CurrentGame>();
    assert_eq!(game.played.steps_played(), 40);
    assert_eq!(game.side_to_move(), hexchess_core::Side::White);
}

#[test]
fn a_lost_connection_comes_back_by_itself_and_the_game_goes_on() {
    let server = LocalServer::start_fresh().expect("a server on 127.0.0.1");
    let mut app = online_app(&server.url);
    play_white_against_the_servers_engine(&mut app);
    request_move(&mut app, "f5f6");
    run_until(&mut app, "the move and its answer", |a| {
        steps_played(a) >= 2
    });
    // The server goes down: the window says so, and tries again by itself.
    let mut server = server;
    server.stop();
    run_until(&mut app, "the lost connection noticed", |a| {
        matches!(a.world().resource::<Online>().status, LinkStatus::Lost(_))
    });
    // The board says so.
    let word = |a: &App| {
        let w = a.world();
        hexchess::ui::players::server_word(w.resource::<Session>(), w.resource::<Online>())
    };
    assert!(
        word(&app).is_some_and(|w| w.contains("reconnecting")),
        "{:?}",
        word(&app)
    );
    // A move made meanwhile is told as waiting for the connection, not dropped.
    app.init_resource::<Told>()
        .add_systems(Update, note_notices);
    request_any_move(&mut app);
    run_until(&mut app, "the move told as waiting", |a| {
        let told = &a.world().resource::<Told>().0;
        told.iter().any(|n| n.starts_with("not connected"))
    });
    assert_eq!(
        steps_played(&app),
        2,
        "not on the board before the server takes it"
    );
    let server = server.restart().expect("the server again");
    run_until(&mut app, "the connection back", |a| {
        a.world().resource::<Online>().is_connected()
    });
    // Back in the game (resumed from the database): the waiting move is played, and
    // the engine answers it; the board says nothing more.
    run_until(&mut app, "the waiting move and its answer", |a| {
        steps_played(a) >= 4
    });
    run_until(&mut app, "all well again", |a| word(a).is_none());
    drop(server);
}

/// Every notice written, in order.
#[derive(Resource, Default)]
pub(crate) struct Told(pub(crate) Vec<String>);

pub(crate) fn note_notices(
    mut notices: MessageReader<hexchess::game::GameNotice>,
    mut told: ResMut<Told>,
) {
    told.0.extend(notices.read().map(|n| n.0.clone()));
}

/// Every cue written, in order.
#[derive(Resource, Default)]
pub(crate) struct Heard(pub(crate) Vec<Cue>);

pub(crate) fn listen(mut cues: MessageReader<Cue>, mut heard: ResMut<Heard>) {
    heard.0.extend(cues.read().copied());
}

/// A draw offered by the other person is answered on the board: declined, it stands no
/// more on either side, and the game goes on.
#[test]
fn a_draw_offered_is_declined_from_the_board() {
    let url = start_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut other, mut app, game) = challenged(&runtime, &url, "glinski");
    follow(&runtime, &mut other, &game);
    app.init_resource::<Heard>().add_systems(Update, listen);
    runtime.block_on(async {
        other
            .send(&json!({"t": "draw", "game": game}))
            .await
            .unwrap();
    });
    let offers = |a: &App| {
        let online = a.world().resource::<Online>();
        online
            .followed
            .as_ref()
            .map(|f| f.draw_offers.clone())
            .unwrap_or_default()
    };
    // The offers this player may answer.
    let to_me = |a: &App| {
        let w = a.world();
        let followed = w.resource::<Online>().followed.clone().unwrap();
        followed.offers_to_me(w.resource::<CurrentGame>().rules())
    };
    run_until(&mut app, "the offer on the board", |a| {
        offers(a) == ["White"]
    });
    assert_eq!(to_me(&app), ["White"]);
    // Heard as an offer to answer.
    app.update();
    assert!(app.world().resource::<Heard>().0.contains(&Cue::Offer));
    app.world_mut().write_message(OnlineRequest::Decline);
    run_until(&mut app, "the offer gone", |a| offers(a).is_empty());
    let declined = runtime.block_on(async { other.wait_for("draw_declined").await.unwrap() });
    assert_eq!(declined["side"], "Black");
    assert!(app.world().resource::<CurrentGame>().outcome().is_none());
    // This player's own offer stands on the table, but is none to answer.
    app.world_mut().write_message(OnlineRequest::Draw);
    run_until(&mut app, "the own offer listed", |a| offers(a) == ["Black"]);
    assert!(to_me(&app).is_empty(), "{:?}", to_me(&app));
}

/// Before every side has moved, the game is called off from the board: asked first,
/// then aborted on the server, and the board shows it over.
#[test]
fn a_game_not_yet_begun_is_aborted_from_the_board_after_a_yes() {
    use hexchess::confirm::{Question, Reply, Weighty};
    let url = start_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut other, mut app, game) = challenged(&runtime, &url, "glinski");
    follow(&runtime, &mut other, &game);
    app.world_mut().write_message(Weighty::Abort);
    run_until(&mut app, "the question", |a| {
        a.world().resource::<Question>().0.is_some()
    });
    assert!(app.world().resource::<CurrentGame>().outcome().is_none());
    app.world_mut().write_message(Reply::Yes);
    // An abort has no result on the board; the game followed says it is over.
    run_until(&mut app, "the game called off", |a| {
        let online = a.world().resource::<Online>();
        online.followed.as_ref().and_then(|f| f.result.clone())
            == Some(("*".to_string(), "aborted".to_string()))
    });
    let end = runtime.block_on(async { other.wait_for("end").await.unwrap() });
    assert_eq!(
        (end["result"].clone(), end["why"].clone()),
        (json!("*"), json!("aborted"))
    );
}

/// A game that ends leaves the watch list without a Refresh.
#[test]
fn a_finished_game_leaves_the_watch_list_by_itself() {
    let url = start_server();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut other, mut app, game) = challenged(&runtime, &url, "glinski");
    follow(&runtime, &mut other, &game);
    let listed = |a: &App| {
        let online = a.world().resource::<Online>();
        online.playing.iter().any(|g| g.game == game)
    };
    app.world_mut().write_message(OnlineRequest::Refresh);
    run_until(&mut app, "the game to watch", listed);
    runtime.block_on(async {
        other
            .send(&json!({"t": "resign", "game": game}))
            .await
            .unwrap();
    });
    run_until(&mut app, "the game gone from the list", |a| !listed(a));
}
