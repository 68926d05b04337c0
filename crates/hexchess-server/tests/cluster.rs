//! Several server processes on one database (issue 66, docs/online.md "Beyond one
//! machine"), on SQLite and PostgreSQL alike: what keeps two owners of one game from
//! both writing it.

#[macro_use]
mod common;

use std::time::Duration;

use common::redis::Redis;
use common::{postgres, sqlite};
use hexchess_server::cluster::broker::{Broker, Delivery, MAX_PAYLOAD};
use hexchess_server::cluster::lease::Leases;
use hexchess_server::store::{Changes, NewGame, Store, StoreError};
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
    assert!(a.claim("G").await.unwrap().is_some());

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

    // Back, empty (it keeps nothing): the node's next commands reach it.
    redis.start_again();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let lease = loop {
        match a.claim("G").await {
            Ok(lease) => break lease,
            Err(e) => {
                assert!(std::time::Instant::now() < deadline, "still failing: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    assert!(lease.is_some(), "the restarted Redis holds no lease");
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
