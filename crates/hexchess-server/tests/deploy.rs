//! docs/deploy.md as it is written: its systemd unit verifies with `systemd-analyze`,
//! and its nginx site, started by the test on 127.0.0.1 with a self-signed certificate
//! the test makes, carries a whole game over `wss://` (the Python client of
//! docs/online.md, trusting that certificate) to a server started with
//! `--behind-proxy`. Debian's nginx, systemd and openssl are installed by `.ci/run`.

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{Server, docs_block, sqlite};

const DEPLOY: &str = include_str!("../../../docs/deploy.md");

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port on 127.0.0.1")
        .port()
}

/// `text` with `from` replaced by `to`, which must be there.
fn replaced(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "docs/deploy.md no longer has '{from}'");
    text.replace(from, to)
}

#[test]
fn the_systemd_unit_of_the_docs_verifies() {
    let unit = docs_block(DEPLOY, "<!-- systemd-unit -->", "ini");
    let unit = replaced(
        &unit,
        "ExecStart=/usr/local/bin/hexchess-server",
        &format!("ExecStart={}", env!("CARGO_BIN_EXE_hexchess-server")),
    );
    let dir = std::env::temp_dir().join(format!("hexchess-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hexchess-server.service");
    std::fs::write(&file, unit).unwrap();
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&file)
        .output()
        .expect("systemd-analyze runs (Debian's systemd; .ci/run installs it)");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.trim().is_empty(), "warnings: {said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// nginx in the foreground, killed when dropped.
struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A self-signed certificate for 127.0.0.1, made with openssl: (certificate, key).
fn certificate(dir: &Path) -> (String, String) {
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    let made = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args([
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("openssl runs");
    assert!(made.success());
    (cert.display().to_string(), key.display().to_string())
}

/// The docs' site, moved to 127.0.0.1's ports and this test's files, in a whole
/// configuration of its own.
fn nginx_conf(dir: &Path, http: u16, https: u16, server: u16) -> String {
    let (cert, key) = certificate(dir);
    let site = docs_block(DEPLOY, "<!-- nginx-site -->", "nginx");
    let site = replaced(&site, "listen 80;", &format!("listen 127.0.0.1:{http};"));
    let site = replaced(
        &site,
        "listen 443 ssl;",
        &format!("listen 127.0.0.1:{https} ssl;"),
    );
    let site = replaced(
        &site,
        "/etc/letsencrypt/live/hexchess.example.org/fullchain.pem",
        &cert,
    );
    let site = replaced(
        &site,
        "/etc/letsencrypt/live/hexchess.example.org/privkey.pem",
        &key,
    );
    let site = replaced(&site, "127.0.0.1:7474", &format!("127.0.0.1:{server}"));
    let d = dir.display();
    format!(
        "worker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n  access_log {d}/access.log;\n  client_body_temp_path {d}/body;\n  \
         proxy_temp_path {d}/proxy;\n  fastcgi_temp_path {d}/fastcgi;\n  \
         uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n{site}\n}}\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_through_nginx_with_tls() {
    let server = Server::start_with(&sqlite(), &["--behind-proxy"]).await;
    let dir = std::env::temp_dir().join(format!(
        "hexchess-nginx-{}-{}",
        std::process::id(),
        hexchess_server::secret::new_code(6)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let (http, https) = (free_port(), free_port());
    let conf = dir.join("nginx.conf");
    std::fs::write(&conf, nginx_conf(&dir, http, https, server.port())).unwrap();
    let nginx = Nginx(
        Command::new("nginx")
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(&conf)
            .args(["-g", "daemon off;"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx runs (Debian's nginx; .ci/run installs it)"),
    );
    let mut up = false;
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", https))
            .await
            .is_ok()
        {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let log = || std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
    assert!(up, "nginx did not listen: {}", log());

    // Plain HTTP is sent to HTTPS.
    let mut plain = tokio::net::TcpStream::connect(("127.0.0.1", http))
        .await
        .unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    plain
        .write_all(b"GET /games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    plain.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 301"), "{answer}");
    assert!(
        answer.contains("Location: https://127.0.0.1/games"),
        "{answer}"
    );

    // A whole game over wss://, by the Python client of docs/online.md.
    let client = dir.join("client.py");
    std::fs::write(
        &client,
        docs_block(
            include_str!("../../../docs/online.md"),
            "<!-- python-client -->",
            "python",
        ),
    )
    .unwrap();
    let url = format!("wss://127.0.0.1:{https}/socket");
    let cert = dir.join("cert.pem");
    let output = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg(&client)
            .arg(&url)
            .arg("--cafile")
            .arg(&cert)
            .output()
            .expect("python3 runs")
    })
    .await
    .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{out}\n{err}\n{}", log());
    assert!(out.contains("game over:"), "{out}\n{err}");

    // The game is the server's: its record is there, through nginx too.
    let game = out
        .lines()
        .find_map(|l| l.strip_prefix("game "))
        .and_then(|l| l.split_whitespace().next())
        .expect("the client said its game")
        .to_string();
    let (status, pgn) = server.get(&format!("/game/{game}.pgn")).await;
    assert!(status.contains("200"), "{status} {pgn}");
    drop(nginx);
    let _ = std::fs::remove_dir_all(&dir);
}
