//! Starting on bad data (issue 62): a damaged database is refused at once, named, with
//! the database's own reason and the file untouched; a database from a newer server
//! is refused with both versions; a stored game that cannot be resumed is skipped,
//! named, and the rest served; the bound port is logged; an in-memory SQLite works;
//! the load tool's arguments are ranged. Every server here listens on 127.0.0.1.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Server, pair, play, postgres};
use hexchess_server::client::Client;
use serde_json::json;
use sqlx::Connection;

const BINARY: &str = env!("CARGO_BIN_EXE_hexchess-server");

/// Runs the server's binary with `args` until it exits (killed after `limit`): its
/// success, what it wrote to standard error, and how long it ran.
fn run(args: &[&str], limit: Duration) -> (bool, String, Duration) {
    let started = Instant::now();
    let mut child = Command::new(BINARY)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server's binary runs");
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

/// A server started on `database` that must refuse it: what it said, after checking it
/// stopped by itself within 5 s (plus a process's start).
fn refused(database: &str) -> String {
    let (ok, said, took) = run(
        &["--listen", "127.0.0.1:0", "--database", database],
        Duration::from_secs(20),
    );
    assert!(!ok, "{database} was served: {said}");
    assert!(
        took < Duration::from_secs(7),
        "{database}: {took:?}\n{said}"
    );
    said
}

fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hexchess-startup-{what}-{}-{}",
        std::process::id(),
        hexchess_server::secret::new_code(6)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sqlite_at(path: &Path) -> String {
    format!("sqlite://{}?mode=rwc", path.display())
}

/// A real database with a game in it (one move played), its server killed; the game's
/// id.
async fn database_with_a_game(url: &str) -> String {
    let server = Server::start(url).await;
    let (mut a, _b, game) = pair(&server.url(), "glinski", false).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    drop(server);
    game
}

/// Folds SQLite's write-ahead log into the file, so that the file alone is the whole
/// database.
async fn checkpoint(url: &str) {
    let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_sqlite_file_is_refused_named_and_left_as_it_is() {
    let dir = temp_dir("damaged");
    // Not a database at all.
    let junk = dir.join("junk.sqlite3");
    std::fs::write(&junk, "my notes, not a database\n".repeat(200)).unwrap();
    let said = refused(&sqlite_at(&junk));
    assert!(
        said.contains(&junk.display().to_string())
            && said.contains("is not a SQLite database (it starts with \"my notes, not a \")"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(&junk).unwrap(),
        "my notes, not a database\n".repeat(200).into_bytes(),
        "untouched"
    );

    // A real database cut short (a copy that stopped part way).
    let whole = dir.join("whole.sqlite3");
    database_with_a_game(&sqlite_at(&whole)).await;
    checkpoint(&sqlite_at(&whole)).await;
    let bytes = std::fs::read(&whole).unwrap();
    assert!(bytes.len() >= 4 * 4096, "{} bytes", bytes.len());
    let cut = dir.join("cut.sqlite3");
    let half = &bytes[..bytes.len() / 2];
    std::fs::write(&cut, half).unwrap();
    let said = refused(&sqlite_at(&cut));
    assert!(
        said.contains(&cut.display().to_string()) && said.contains("is cut short"),
        "{said}"
    );
    assert_eq!(std::fs::read(&cut).unwrap(), half, "untouched");

    // A folder where the file should be.
    let folder = dir.join("folder.sqlite3");
    std::fs::create_dir_all(&folder).unwrap();
    let said = refused(&sqlite_at(&folder));
    assert!(said.contains("is not a regular file"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_postgresql_is_named_at_once_without_its_password() {
    // Port 1 on this machine: nothing listens there.
    let said = refused("postgres://hexchess:hunter2secret@127.0.0.1:1/hexchess");
    assert!(
        said.contains("postgres://hexchess:***@127.0.0.1:1/hexchess"),
        "{said}"
    );
    assert!(!said.contains("hunter2secret"), "{said}");
    assert!(
        !said.contains("pool timed out"),
        "the database's own reason: {said}"
    );
}

/// A database a newer server made is refused with both versions, on both databases.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_a_newer_server_is_refused_with_both_versions() {
    let dir = temp_dir("newer");
    let file = sqlite_at(&dir.join("newer.sqlite3"));
    for url in [file, postgres().await] {
        database_with_a_game(&url).await;
        let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
        sqlx::query("INSERT INTO schema_version (version) VALUES (99)")
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
        let said = refused(&url);
        assert!(
            said.contains("its schema is version 99, newer than this server's 6"),
            "{said}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rows no server of ours wrote: a clock past its range, a value of the wrong kind,
/// an engine at a level that is not one, a variant not here. Each is skipped, named
/// with why, and the good game is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_stored_game_is_skipped_with_its_id_and_the_rest_served() {
    sqlx::any::install_default_drivers();
    let dir = temp_dir("badgames");
    for (url, wrong_kind) in [
        // SQLite keeps whatever it is given: text where a number belongs.
        (
            sqlite_at(&dir.join("bad.sqlite3")),
            "'WRONGKIND', 'glinski', '[]', '{}', 'yes', 'playing', 0",
        ),
        // PostgreSQL's columns have types: a version that cannot be.
        (
            postgres().await,
            "'WRONGKIND', 'glinski', '[]', '{}', 0, 'playing', -5",
        ),
    ] {
        let good = database_with_a_game(&url).await;
        let seats = r#"[{"player":"AAAA","name":"a"},{"player":"BBBB","name":"b"}]"#;
        let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
        let rows = [
            format!(
                "'HUGECLOCK', 'glinski', '{seats}', \
                 '{{\"minutes\":5,\"increment\":18446744073709551615}}', 0, 'playing', 0"
            ),
            wrong_kind.to_string(),
            r#"'BADENGINE', 'glinski', '[{"player":"AAAA","name":"a"},{"engine":300}]', '{}', 0, 'playing', 0"#
                .to_string(),
            format!("'NOVARIANT', 'chess-on-a-torus', '{seats}', '{{}}', 0, 'playing', 0"),
        ];
        for values in rows {
            let insert = format!(
                "INSERT INTO games (id, variant, seats, control, rated, status, version, \
                 created_ms, updated_ms) VALUES ({values}, 0, 0)"
            );
            sqlx::query(sqlx::AssertSqlSafe(insert))
                .execute(&mut conn)
                .await
                .unwrap();
        }
        conn.close().await.unwrap();

        let server = Server::start(&url).await;
        let mut c = Client::hello(&server.url(), None).await.unwrap();
        c.send(&json!({"t": "join", "game": good})).await.unwrap();
        let state = c.wait_for("state").await.unwrap();
        assert_eq!(state["steps"], json!(["f5f6"]), "the good game is served");
        let log = server.log_text();
        for (id, why) in [
            (
                "HUGECLOCK",
                "an increment of 18446744073709551615 s (0 to 180)",
            ),
            ("WRONGKIND", "error occurred while decoding"),
            ("BADENGINE", "an engine seat at level 300"),
            ("NOVARIANT", "no variant 'chess-on-a-torus' here"),
        ] {
            let line = log
                .lines()
                .find(|l| l.contains(id))
                .unwrap_or_else(|| panic!("{id} not named: {log}"));
            assert!(
                line.contains("not resumed") && line.contains(why),
                "{id}: {line}"
            );
        }
        assert!(log.contains("resumed=1 skipped=4"), "{log}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--listen 127.0.0.1:0` logs the port it was given; `sqlite::memory:` holds a whole
/// game (nothing kept, and said so).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn port_0_logs_the_bound_port_and_an_in_memory_database_plays() {
    use std::io::BufRead;
    let mut child = Command::new(BINARY)
        .args(["--listen", "127.0.0.1:0", "--database", "sqlite::memory:"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(line);
        }
    });
    let mut said = Vec::new();
    let url = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no 'serving' line: {said:?}"));
        said.push(line.clone());
        if let Some(at) = line.find("ws://127.0.0.1:") {
            let url: String = line[at..]
                .chars()
                .take_while(|c| !c.is_whitespace())
                .collect();
            break url;
        }
    };
    assert!(!url.contains(":0/"), "{url}");
    assert!(
        said.iter()
            .any(|l| l.contains("in memory: nothing is kept")),
        "{said:?}"
    );
    let mut a = Client::hello(&url, None).await.unwrap();
    a.send(&json!({"t": "seek", "variant": "glinski", "side": "white", "engines": 1, "level": 1}))
        .await
        .unwrap();
    let game = a.wait_for("started").await.unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    a.send(&json!({"t": "join", "game": game})).await.unwrap();
    a.wait_for("state").await.unwrap();
    assert_eq!(play(&mut a, &game, 0, "f5f6", 1).await["t"], "ack");
    let reply = a
        .wait_until(|m| m["t"] == "step" && m["ply"] == 1, "the engine's reply")
        .await
        .unwrap();
    assert_eq!(reply["side"], "Black");
    let _ = child.kill();
    let _ = child.wait();
}

/// The load tool refuses what it cannot run, at once, saying why.
#[test]
fn the_load_tool_refuses_counts_out_of_range_and_a_url_without_its_socket() {
    for (args, said) in [
        (
            vec!["--url", "ws://127.0.0.1:7474/socket", "--drop", "NaN"],
            "--drop NaN: a share from 0 to 1",
        ),
        (
            vec![
                "--url",
                "ws://127.0.0.1:7474/socket",
                "--games",
                "1000000000000",
            ],
            "--games 1000000000000: 1 to 5000",
        ),
        (
            vec!["--url", "ws://127.0.0.1:7474"],
            "ws://127.0.0.1:7474 is not a server's socket: its path is /socket",
        ),
    ] {
        let mut all = vec!["load"];
        all.extend(args);
        let (ok, stderr, took) = run(&all, Duration::from_secs(20));
        assert!(!ok, "{all:?}: {stderr}");
        assert!(stderr.contains(said), "{all:?}: {stderr}");
        assert!(took < Duration::from_secs(10), "{took:?}");
    }
}

/// The roles of several processes: each refuses, with its reason and at once, flags
/// that do not go together (no Redis for a node, SQLite for a node, Redis for one
/// process, a node's name it could not use) and a Redis that does not answer.
#[test]
fn a_nodes_flags_that_do_not_go_together_are_refused() {
    let sqlite = sqlite_at(&temp_dir("roles").join("one.sqlite3"));
    let postgres = std::env::var("HEXCHESS_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://hexchess:hexchess@127.0.0.1:5432/hexchess_test".into());
    let postgres = postgres.as_str();
    // A port nothing listens on: Redis is not there.
    let nowhere = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!(
            "redis://127.0.0.1:{}/",
            listener.local_addr().unwrap().port()
        )
    };
    let cases: [(&[&str], &str); 5] = [
        (&["--role", "game", "--database", postgres], "need --redis"),
        (
            &[
                "--role",
                "socket",
                "--redis",
                &nowhere,
                "--database",
                &sqlite,
            ],
            "must be PostgreSQL",
        ),
        (
            &["--redis", &nowhere, "--database", &sqlite],
            "--redis is for the nodes",
        ),
        (
            &[
                "--role",
                "game",
                "--redis",
                &nowhere,
                "--node",
                "a b",
                "--database",
                postgres,
            ],
            "--node \"a b\"",
        ),
        (
            &[
                "--role",
                "game",
                "--redis",
                &nowhere,
                "--database",
                postgres,
            ],
            "redis, connecting",
        ),
    ];
    for (flags, reason) in cases {
        let mut args = vec!["--listen", "127.0.0.1:0"];
        args.extend_from_slice(flags);
        let (ok, said, took) = run(&args, Duration::from_secs(20));
        assert!(!ok, "{flags:?} served: {said}");
        assert!(said.contains(reason), "{flags:?}: {said}");
        assert!(took < Duration::from_secs(10), "{flags:?}: {took:?}");
    }
}
