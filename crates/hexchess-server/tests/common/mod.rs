//! What the server's tests share: the real binary started on 127.0.0.1 (killed when
//! dropped), and the two databases.
#![allow(dead_code)] // each test file uses its part

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use hexchess_server::client::Client;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub mod redis;

pub const POSTGRES: &str = "postgres://hexchess:hexchess@127.0.0.1:5432/hexchess_test";

/// A server process; killed when dropped (its log printed if the test failed).
pub struct Server {
    child: Child,
    port: u16,
    database: String,
    /// Where its standard error goes.
    pub log: PathBuf,
}

impl Server {
    pub async fn start(database: &str) -> Server {
        Server::start_with(database, &[]).await
    }

    /// With more flags (`--day-seconds 1`).
    pub async fn start_with(database: &str, flags: &[&str]) -> Server {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port on 127.0.0.1")
            .port();
        Server::start_on(database, port, flags).await
    }

    pub async fn start_on(database: &str, port: u16, flags: &[&str]) -> Server {
        let log = std::env::temp_dir().join(format!(
            "hexchess-server-log-{}-{}.txt",
            std::process::id(),
            hexchess_server::secret::new_code(8)
        ));
        let stderr = std::fs::File::create(&log).expect("a log file in the temporary folder");
        let child = Command::new(env!("CARGO_BIN_EXE_hexchess-server"))
            .args([
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--database",
                database,
            ])
            // One machine plays every player here: the limits per address are the
            // tests' own business (tests/hostile.rs sets them).
            .args(["--connections-per-address", "1000"])
            .args(["--open-per-address", "1000"])
            .args(["--new-players-per-address", "100000"])
            .args(["--lookups-per-minute", "100000"])
            .args(flags)
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("the server starts");
        let server = Server {
            child,
            port,
            database: database.to_string(),
            log,
        };
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return server;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the server did not listen on 127.0.0.1:{port}");
    }

    pub fn url(&self) -> String {
        format!("ws://127.0.0.1:{}/socket", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its resident memory now, in MiB (Linux's /proc).
    pub fn rss_mib(&self) -> f64 {
        rss_mib(self.child.id())
    }

    /// What it has logged so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends SIGTERM and waits (at most `within`) for it to end; its exit status.
    pub fn terminate(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = std::time::Instant::now() + within;
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Kills the process at once (SIGKILL: no chance to write anything more).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub async fn restart(mut self) -> Server {
        self.kill();
        Server::start_on(&self.database, self.port, &[]).await
    }

    /// An HTTP GET on the server: the status line and the body.
    pub async fn get(&self, path: &str) -> (String, String) {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", self.port))
            .await
            .unwrap();
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).await.unwrap();
        let status = response.lines().next().unwrap_or_default().to_string();
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }
}

impl Server {
    /// An HTTP GET with `Accept-Encoding: accept` (none when empty): the whole
    /// response, headers (names in lower case, as the server writes them) and body.
    pub async fn raw(&self, path: &str, accept: &str) -> String {
        let encoding = if accept.is_empty() {
            String::new()
        } else {
            format!("Accept-Encoding: {accept}\r\n")
        };
        self.raw_with(path, &encoding).await
    }

    /// `GET path` with `fields` (header lines, each ending in CRLF) and the whole answer.
    pub async fn raw_with(&self, path: &str, fields: &str) -> String {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", self.port))
            .await
            .unwrap();
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{fields}Connection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.unwrap();
        String::from_utf8_lossy(&response).into_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            eprintln!("--- the server's log ---\n{}", self.log_text());
        }
        let _ = std::fs::remove_file(&self.log);
    }
}

/// The code block of language `lang` after `marker` in a doc's text (the docs' own
/// examples are what the tests run).
pub fn docs_block(doc: &str, marker: &str, lang: &str) -> String {
    let (_, after) = doc
        .split_once(marker)
        .unwrap_or_else(|| panic!("the doc has no {marker}"));
    let (_, code) = after
        .split_once(&format!("```{lang}\n"))
        .unwrap_or_else(|| panic!("no {lang} block after {marker}"));
    let (code, _) = code.split_once("```").expect("the block ends");
    code.to_string()
}

/// A process's resident memory in MiB (`VmRSS` in /proc/PID/status).
pub fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

pub fn sqlite() -> String {
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "hexchess-server-test-{}-{}",
        std::process::id(),
        hexchess_server::secret::new_code(8)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    hexchess_server::store::sqlite_url(&dir)
}

/// A new, empty PostgreSQL database for one test (`hexchess_t_...`, made on the server
/// `HEXCHESS_TEST_POSTGRES` names), so that no test sees another's games; its URL.
pub async fn postgres() -> String {
    let base = std::env::var("HEXCHESS_TEST_POSTGRES").unwrap_or_else(|_| POSTGRES.to_string());
    let name = format!(
        "hexchess_t_{}",
        hexchess_server::secret::new_code(10).to_lowercase()
    );
    let pool = sqlx::postgres::PgPool::connect(&base)
        .await
        .unwrap_or_else(|e| {
            panic!("PostgreSQL at {base}: {e} (scripts/test-postgres.sh starts one)")
        });
    // The name is made here of letters and digits only; identifiers cannot be bound.
    let create = format!("CREATE DATABASE {name}");
    sqlx::query(sqlx::AssertSqlSafe(create))
        .execute(&pool)
        .await
        .expect("the test role may create databases (scripts/test-postgres.sh)");
    pool.close().await;
    match base.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{name}"),
        None => panic!("a PostgreSQL URL ends with its database: {base}"),
    }
}

/// Two new players in a private Gliński game (`minutes`: none for untimed): the
/// first (White) and the second, and the game's id.
pub async fn pair(url: &str, variant: &str, rated: bool) -> (Client, Client, String) {
    let seek =
        json!({"t": "seek", "variant": variant, "side": "white", "private": true, "rated": rated});
    let (mut a, mut b, game) = challenge(url, seek).await;
    for c in [&mut a, &mut b] {
        c.send(&json!({"t": "join", "game": game})).await.unwrap();
        let state = c.wait_for("state").await.unwrap();
        assert_eq!(state["variant"], variant);
        assert_eq!(state["ply"], 0);
    }
    (a, b, game)
}

/// Two new players: the first sends `seek` (a private one), the second takes it by
/// its code; both told the game started. The two, and the game's id.
pub async fn challenge(url: &str, seek: Value) -> (Client, Client, String) {
    let mut a = Client::hello(url, None).await.unwrap();
    let mut b = Client::hello(url, None).await.unwrap();
    a.send(&seek).await.unwrap();
    let code = a.wait_for("seek").await.unwrap()["code"]
        .as_str()
        .expect("a private challenge has a code")
        .to_string();
    assert_eq!(code.len(), 8);
    b.send(&json!({"t": "accept", "seek": code.to_lowercase()}))
        .await
        .unwrap();
    let started_a = a.wait_for("started").await.unwrap();
    let started_b = b.wait_for("started").await.unwrap();
    assert_eq!(started_a["game"], started_b["game"]);
    if seek["side"] == "white" {
        assert_eq!(started_a["side"], "White");
        assert_eq!(started_b["side"], "Black");
    }
    let game = started_a["game"].as_str().unwrap().to_string();
    (a, b, game)
}

pub async fn play(c: &mut Client, game: &str, ply: u32, step: &str, ack: u64) -> Value {
    c.send(&json!({"t": "move", "game": game, "ply": ply, "step": step, "ack": ack}))
        .await
        .unwrap();
    c.wait_until(|m| m["ack"] == ack, "an answer to the move")
        .await
        .unwrap()
}

/// The next step event (from either side).
pub async fn step_event(c: &mut Client) -> Value {
    c.wait_for("step").await.unwrap()
}

/// Each test on both databases (a test file that uses it: `#[macro_use] mod common;`).
#[allow(unused_macros)]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(&super::sqlite()).await })*
        }
        mod on_postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(&super::postgres().await).await })*
        }
    };
}
