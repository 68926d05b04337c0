//! The server's readers under bad input (docs/hardening.md): a client's message in any
//! bytes is read or refused with a reason, never a panic; a game given any step text
//! at any ply refuses it and stays as it was; and a live connection fed garbage keeps
//! answering. Seeded: `HEXCHESS_GARBAGE=N` tries N inputs instead of 300.

mod common;

use std::sync::Arc;

use hexchess_core::{Catalog, Game};
use hexchess_server::client::Client;
use hexchess_server::hosted::{HostedGame, PlayerId};
use hexchess_server::message::{ClientMessage, MAX_MESSAGE_BYTES, MessageError};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

fn count() -> usize {
    std::env::var("HEXCHESS_GARBAGE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

/// Good messages of every type, to mutate.
const GOOD: &[&str] = &[
    r#"{"t":"hello","protocol":1,"token":"9f0c2d"}"#,
    r#"{"t":"register","name":"ann","password":"a long password"}"#,
    r#"{"t":"seek","variant":"glinski","minutes":5,"increment":3,"rated":true,"side":"white"}"#,
    r#"{"t":"seek","variant":"hexachess-3","engines":1,"level":8,"private":true}"#,
    r#"{"t":"accept","seek":"Q7KD3MPA"}"#,
    r#"{"t":"join","game":"ABCDEFGHJKMN","seen":41}"#,
    r#"{"t":"move","game":"ABCDEFGHJKMN","ply":4,"step":"f5f6","ack":7,"lag_ms":40}"#,
    r#"{"t":"resign","game":"ABCDEFGHJKMN"}"#,
    r#"{"t":"ping"}"#,
];

/// The characters JSON is made of, and some it is not.
const ALPHABET: &[char] = &[
    '{', '}', '[', ']', '"', ':', ',', '\\', '-', '1', '0', 'e', 't', 'n', ' ', '\n', 'é', '\u{0}',
];

fn mutate(rng: &mut StdRng, good: &str) -> String {
    let mut chars: Vec<char> = good.chars().collect();
    for _ in 0..rng.random_range(1..=3) {
        let i = rng.random_range(0..chars.len().max(1));
        match rng.random_range(0..4) {
            0 if !chars.is_empty() => {
                chars.remove(i);
            }
            1 if !chars.is_empty() => chars.insert(i, chars[i]),
            2 if !chars.is_empty() => chars[i] = ALPHABET[rng.random_range(0..ALPHABET.len())],
            _ => chars.insert(
                i.min(chars.len()),
                ALPHABET[rng.random_range(0..ALPHABET.len())],
            ),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_messages_are_read_or_refused_with_a_reason() {
    let mut rng = StdRng::seed_from_u64(40);
    let (mut read, mut refused) = (0, 0);
    for _ in 0..count() {
        let good = GOOD[rng.random_range(0..GOOD.len())];
        let bad = mutate(&mut rng, good);
        match ClientMessage::read(bad.as_bytes()) {
            Ok(_) => read += 1,
            Err(e) => {
                refused += 1;
                let said = e.to_string();
                assert!(!said.is_empty());
                if let MessageError::NotJson { line, column, .. } = e {
                    assert!(line >= 1 && column <= bad.len() + 1, "{bad}: {said}");
                }
            }
        }
    }
    assert!(refused > 0 && read > 0, "read {read}, refused {refused}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_are_read_or_refused(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Err(e) = ClientMessage::read(&bytes) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn a_message_over_the_limit_is_refused_by_its_length(extra in 1usize..5000) {
        let long = format!(r#"{{"t":"ping","pad":"{}"}}"#, "x".repeat(MAX_MESSAGE_BYTES + extra));
        prop_assert_eq!(
            ClientMessage::read(long.as_bytes()),
            Err(MessageError::TooLong { bytes: long.len() })
        );
    }
}

/// Any step text at any ply, from a seat's owner or not: refused, or played by the
/// rules; a refusal leaves the game as it was.
#[test]
fn a_game_given_garbage_steps_refuses_them_and_stays_as_it_was() {
    let catalog = Catalog::builtin();
    let mut rng = StdRng::seed_from_u64(41);
    let players = [
        PlayerId("ann".into()),
        PlayerId("ben".into()),
        PlayerId("cy".into()),
    ];
    for variant in ["glinski", "mccooey", "grand", "hexachess-3"] {
        let game = Game::new(Arc::clone(catalog.get(variant).unwrap().rules()));
        let sides = game.sides().count();
        let seats = players.iter().take(sides).cloned().map(Some).collect();
        let mut hosted = HostedGame::new(game, seats, None);
        for i in 0..count() {
            let legal: Vec<String> = {
                let g = hosted.game();
                g.steps().into_iter().map(|s| g.step_lan(s)).collect()
            };
            let text = if legal.is_empty() || rng.random_bool(0.7) {
                let base = legal.first().cloned().unwrap_or_else(|| "f5f6".into());
                mutate(&mut rng, &base)
            } else {
                legal[rng.random_range(0..legal.len())].clone()
            };
            let ply = match rng.random_range(0..4) {
                0 => rng.random_range(0..(hosted.ply() + 3)),
                _ => hosted.ply(),
            };
            let who = &players[rng.random_range(0..players.len())];
            let before = (
                hosted.ply(),
                hosted.version(),
                hosted.game().position().to_fen(),
            );
            let now = std::time::Duration::from_millis(i as u64);
            match hosted.play(who, ply, &text, now, std::time::Duration::ZERO) {
                Ok(p) if p.resent => assert_eq!(
                    before,
                    (
                        hosted.ply(),
                        hosted.version(),
                        hosted.game().position().to_fen()
                    )
                ),
                Ok(_) => assert_eq!(hosted.ply(), before.0 + 1, "{variant}: '{text}'"),
                Err(_) => assert_eq!(
                    before,
                    (
                        hosted.ply(),
                        hosted.version(),
                        hosted.game().position().to_fen()
                    ),
                    "{variant}: '{text}' refused but changed the game"
                ),
            }
            if hosted.game().end().is_some() {
                break;
            }
        }
    }
}

/// A live connection fed mutated messages (under its rate limit) answers each one
/// that is not read with an error, and still plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_connection_fed_garbage_keeps_answering() {
    let server = common::Server::start(&common::sqlite()).await;
    let mut rng = StdRng::seed_from_u64(42);
    for round in 0..3 {
        let mut c = Client::hello(&server.url(), None).await.unwrap();
        for _ in 0..60 {
            let good = GOOD[rng.random_range(0..GOOD.len())];
            c.send_text(mutate(&mut rng, good)).await.unwrap();
        }
        c.send(&json!({"t": "ping"})).await.unwrap();
        // Every message before the pong is an answer to the garbage (an error, or
        // what a message that still read asks for); none closes the connection.
        let mut answered = false;
        for _ in 0..200 {
            let m = tokio::time::timeout(std::time::Duration::from_secs(10), c.recv())
                .await
                .expect("an answer")
                .expect("the connection stays open");
            if m["t"] == "pong" {
                answered = true;
                break;
            }
        }
        assert!(answered, "round {round}: no pong after the garbage");
    }
}
