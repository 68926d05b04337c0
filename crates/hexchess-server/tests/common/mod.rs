//! What the server's tests share: the real binary started on 127.0.0.1 (killed when
//! dropped), and the two databases.
#![allow(dead_code)] // each test file uses its part

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub const POSTGRES: &str = "postgres://hexchess:hexchess@127.0.0.1:5432/hexchess_test";

/// A server process; killed when dropped.
pub struct Server {
    child: Child,
    port: u16,
    database: String,
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
        let child = Command::new(env!("CARGO_BIN_EXE_hexchess-server"))
            .args([
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--database",
                database,
            ])
            .args(["--connections-per-address", "1000"])
            .args(flags)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let server = Server {
            child,
            port,
            database: database.to_string(),
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
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", self.port))
            .await
            .unwrap();
        let encoding = if accept.is_empty() {
            String::new()
        } else {
            format!("Accept-Encoding: {accept}\r\n")
        };
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{encoding}Connection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await.unwrap();
        String::from_utf8_lossy(&response).into_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
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
