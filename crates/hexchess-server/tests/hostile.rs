//! The server facing a hostile public (issue 62): clients that flood it with sign-ins,
//! clients that never read, downloads that crawl, a restart between an offer and the
//! next move, and messages written loosely. Every test talks only to a server it
//! started on 127.0.0.1 and stops by itself (bounded counts and times).

mod common;

use std::time::{Duration, Instant};

use common::{Server, pair, play, postgres, sqlite, step_event};
use futures_util::StreamExt;
use hexchess_server::client::Client;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Each test on both databases.
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

on_both_databases!(a_draw_offer_survives_kill_9_and_the_next_move_reaches_the_other_side);

/// An offer takes a version; before, that version was never stored, so after a
/// `kill -9` the next move took it again and the other side, having seen it, never
/// showed the move.
async fn a_draw_offer_survives_kill_9_and_the_next_move_reaches_the_other_side(db: &str) {
    let server = Server::start(db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    play(&mut b, &game, 1, "c7c6", 1).await;
    a.send(&json!({"t": "draw", "game": game})).await.unwrap();
    let offer = b.wait_for("draw_offer").await.unwrap();
    assert_eq!(offer["side"], "White");
    let offered_at = offer["v"].as_u64().unwrap();
    let (ta, tb) = (a.token.clone().unwrap(), b.token.clone().unwrap());
    drop((a, b));
    let server = server.restart().await;

    // Black comes back having seen the offer: it is up to date, not ahead.
    let mut b = Client::hello(&server.url(), Some(&tb)).await.unwrap();
    b.send(&json!({"t": "join", "game": game, "seen": offered_at}))
        .await
        .unwrap();
    let joined = b.recv().await.unwrap();
    assert_eq!(
        (joined["t"].clone(), joined["v"].clone()),
        (json!("joined"), json!(offered_at)),
        "the offer's version was stored: {joined}"
    );
    // The offer still stands.
    let mut watcher = Client::hello(&server.url(), None).await.unwrap();
    watcher
        .send(&json!({"t": "join", "game": game}))
        .await
        .unwrap();
    let state = watcher.wait_for("state").await.unwrap();
    assert_eq!(state["draw_offers"], json!(["White"]), "{state}");
    assert_eq!(state["v"], json!(offered_at));

    // White moves: Black hears of it with a version it has not seen.
    let mut a = Client::hello(&server.url(), Some(&ta)).await.unwrap();
    a.send(&json!({"t": "join", "game": game})).await.unwrap();
    a.wait_for("state").await.unwrap();
    assert_eq!(play(&mut a, &game, 2, "e4e5", 2).await["t"], "ack");
    let moved = step_event(&mut b).await;
    assert_eq!(moved["step"], "e4e5");
    assert_eq!(moved["v"].as_u64(), Some(offered_at + 1), "{moved}");
    // The move took the offer back, for good: after another restart none stands.
    drop((a, b, watcher));
    let server = server.restart().await;
    let mut c = Client::hello(&server.url(), None).await.unwrap();
    c.send(&json!({"t": "join", "game": game})).await.unwrap();
    let state = c.wait_for("state").await.unwrap();
    assert_eq!(state["draw_offers"], json!([]), "{state}");
    assert_eq!(state["steps"], json!(["f5f6", "c7c6", "e4e5"]));
}

/// Plays `moves` moves of a game between two players, each sent `think` after the last
/// was seen by the other: the relay times (sent to received), in milliseconds.
async fn relay_times(
    a: &mut Client,
    b: &mut Client,
    game: &str,
    moves: u32,
    think: Duration,
) -> Vec<f64> {
    let catalog = hexchess_core::Catalog::builtin();
    let rules = std::sync::Arc::clone(catalog.get("glinski").unwrap().rules());
    let mut local = hexchess_core::Game::new(rules);
    let mut times = Vec::new();
    for ply in 0..moves {
        // A spread of moves (the first legal one each time soon ends the game).
        let steps = local.steps();
        let Some(step) = steps.get(ply as usize * 7 % steps.len().max(1)).copied() else {
            break;
        };
        let text = local.step_lan(step);
        local.play(step).unwrap();
        tokio::time::sleep(think).await;
        let (mover, other) = if ply % 2 == 0 {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        let sent = Instant::now();
        mover
            .send(&json!({"t": "move", "game": game, "ply": ply, "step": text, "ack": ply + 1}))
            .await
            .unwrap();
        other
            .wait_until(|m| m["t"] == "step" && m["ply"] == ply, "the move")
            .await
            .unwrap();
        times.push(sent.elapsed().as_secs_f64() * 1000.0);
        if local.end().is_some() {
            break;
        }
    }
    times
}

fn percentile(times: &[f64], p: f64) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Ten connections send wrong passwords in bursts (40 at once, under their 100
/// messages in 20 s) while a game next to them plays `moves` moves; every answer they
/// got, and the game's relay times.
async fn flood_beside_a_game(server: &Server, moves: u32) -> (Vec<String>, Vec<f64>) {
    let url = server.url();
    let (mut a, mut b, game) = pair(&url, "glinski", false).await;
    let mut flooders = Vec::new();
    for i in 0..10 {
        let url = url.clone();
        flooders.push(tokio::spawn(async move {
            let mut c = Client::hello(&url, None).await.unwrap();
            let name = if i % 2 == 0 {
                "victim".to_string()
            } else {
                format!("nobody{i}")
            };
            let login = json!({"t": "login", "name": name, "password": "not the password"});
            for _ in 0..40 {
                c.send(&login).await.unwrap();
            }
            let mut answers = Vec::new();
            for _ in 0..40 {
                let answer = c.wait_for("error").await.unwrap();
                answers.push(answer["message"].as_str().unwrap_or_default().to_string());
            }
            answers
        }));
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let times = relay_times(&mut a, &mut b, &game, moves, Duration::from_millis(150)).await;
    let mut answers = Vec::new();
    for f in flooders {
        answers.extend(f.await.unwrap());
    }
    (answers, times)
}

/// A flood of wrong passwords from one address: past the address's limit (and the
/// name's) it is refused at once with when to try again, and a game beside it goes on.
/// With the limits lifted, every attempt is hashed, on the hashing pool alone, and the
/// game still goes on: the figures for docs/online.md come from
/// `scripts/online-hostile.sh`, in a release build.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_wrong_passwords_is_limited_and_hashed_apart_from_the_games() {
    let server = Server::start(&sqlite()).await;
    let mut owner = Client::hello(&server.url(), None).await.unwrap();
    owner
        .send(&json!({"t": "register", "name": "victim", "password": "the real password"}))
        .await
        .unwrap();
    owner.wait_for("welcome").await.unwrap();
    let (answers, times) = flood_beside_a_game(&server, 40).await;
    let wrong = answers
        .iter()
        .filter(|a| a.contains("no account with that name"))
        .count();
    let by_name = answers
        .iter()
        .filter(|a| a.contains("too many sign-ins to this account"))
        .count();
    let by_address = answers
        .iter()
        .filter(|a| a.contains("too many sign-ins from your address: try again in"))
        .count();
    println!(
        "limited flood: {} answers ({wrong} checked, {by_name} by name, {by_address} by address); \
         relay p50 {:.1} ms, p99 {:.1} ms",
        answers.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
    assert_eq!(answers.len(), 400, "every attempt was answered");
    // The registration counted too: 30 sign-ins from the address in all.
    assert!(wrong <= 29, "{wrong} passwords checked past the limit");
    assert!(by_address > 0 && by_name > 0, "{by_address} {by_name}");
    assert_eq!(wrong + by_name + by_address, answers.len(), "{answers:?}");
    assert!(times.len() >= 20, "{} moves relayed", times.len());

    // Lifted limits: every attempt is hashed.
    let server = Server::start_with(
        &sqlite(),
        &[
            "--sign-ins-per-address",
            "100000",
            "--sign-ins-per-name",
            "100000",
        ],
    )
    .await;
    let (answers, times) = flood_beside_a_game(&server, 40).await;
    let (p50, p99) = (percentile(&times, 0.5), percentile(&times, 0.99));
    println!(
        "unlimited flood: {} passwords hashed or refused as busy ({} busy); relay p50 {p50:.1} ms, p99 {p99:.1} ms",
        answers.len(),
        answers.iter().filter(|a| a.contains("busy")).count()
    );
    assert!(
        answers
            .iter()
            .all(|a| a.contains("no account with that name") || a.contains("busy")),
        "{answers:?}"
    );
    // (A connection waits for one sign-in's answer before it reads its next message, so
    // ten connections never fill the pool's queue; a wider flood is refused as busy:
    // passwords.rs's test.)
    assert!(times.len() >= 20, "{} moves relayed", times.len());
    // Before the pool, the flood moved this game's relay to a p99 of 456-1,100 ms in
    // a release build. A debug build on a shared machine is slower: the bound is loose.
    assert!(p99 < 300.0, "relay p99 {p99:.1} ms during the flood");
    let metrics = server.get("/metrics").await.1;
    assert!(
        metrics.contains("hexchess_sign_ins_refused_total{why=\"Wrong\"}"),
        "{metrics}"
    );
}

/// Clients that follow the lobby and never read, beside seekers that change it all the
/// time: the server's memory stays bounded (before: 24 MB to 805 MB in 90 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_never_read_do_not_grow_the_server() {
    let server = Server::start(&sqlite()).await;
    let url = server.url();
    let mut sleepers = Vec::new();
    for _ in 0..40 {
        let mut c = Client::hello(&url, None).await.unwrap();
        c.send(&json!({"t": "lobby"})).await.unwrap();
        sleepers.push(c); // never read again
    }
    let mut reader = Client::hello(&url, None).await.unwrap();
    reader.send(&json!({"t": "lobby"})).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut seekers = Vec::new();
    for _ in 0..30 {
        let url = url.clone();
        seekers.push(tokio::spawn(async move {
            let mut c = Client::hello(&url, None).await.unwrap();
            let mut mine = std::collections::VecDeque::new();
            while Instant::now() < deadline {
                if mine.len() == 10 {
                    let id: String = mine.pop_front().unwrap();
                    c.send(&json!({"t": "cancel", "seek": id})).await.unwrap();
                }
                c.send(&json!({"t": "seek", "variant": "mccooey", "minutes": 5, "increment": 3}))
                    .await
                    .unwrap();
                let answer = c.wait_for("seek").await.unwrap();
                mine.push_back(answer["id"].as_str().unwrap().to_string());
                // Two messages a round, under 100 in 20 s.
                tokio::time::sleep(Duration::from_millis(420)).await;
            }
        }));
    }
    let mut peak: f64 = 0.0;
    let mut lists = 0;
    while Instant::now() < deadline {
        peak = peak.max(server.rss_mib());
        // The reading client keeps up with the newest list.
        while let Ok(Ok(m)) = tokio::time::timeout(Duration::from_millis(1), reader.recv()).await {
            if m["t"] == "seeks" {
                lists += 1;
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    for s in seekers {
        s.await.unwrap();
    }
    peak = peak.max(server.rss_mib());
    println!(
        "40 clients that never read, 30 seekers, 20 s: peak {peak:.1} MiB, {lists} lists read"
    );
    assert!(lists > 10, "the lobby lived: {lists}");
    assert!(peak < 150.0, "the server grew to {peak:.1} MiB");
    drop(sleepers);
}

/// A client that neither reads nor answers the server's pings is closed after the
/// idle time (4 s here; 60 s by default).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_closed() {
    let server = Server::start_with(&sqlite(), &["--idle-seconds", "4"]).await;
    let mut sleepers = Vec::new();
    for _ in 0..5 {
        let mut c = Client::hello(&server.url(), None).await.unwrap();
        c.send(&json!({"t": "lobby"})).await.unwrap();
        sleepers.push(c);
    }
    let mut open = String::new();
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let metrics = server.get("/metrics").await.1;
        open = metrics
            .lines()
            .find(|l| l.starts_with("hexchess_sockets "))
            .unwrap_or_default()
            .to_string();
        if open == "hexchess_sockets 0" {
            break;
        }
    }
    assert_eq!(open, "hexchess_sockets 0", "the sleepers were closed");
    let metrics = server.get("/metrics").await.1;
    assert!(
        metrics.contains("hexchess_socket_closes_total{reason=\"Idle\"} 5"),
        "{metrics}"
    );
    drop(sleepers);
}

/// The browser game's folder: files sent in chunks (100 slow downloads of a 20 MB file
/// do not hold 20 MB each), only regular files (a pipe is not waited on),
/// `Accept-Encoding` read with its weights, and a missing folder refused at start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_folder_is_streamed_and_only_its_regular_files_served() {
    let dir = std::env::temp_dir().join(format!(
        "hexchess-web-hostile-{}-{}",
        std::process::id(),
        hexchess_server::secret::new_code(6)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<canvas id=hexchess>").unwrap();
    let big: Vec<u8> = (0..20 * 1024 * 1024).map(|i| (i % 251) as u8).collect();
    std::fs::write(dir.join("big.wasm"), &big).unwrap();
    std::fs::write(dir.join("game.js"), "plain").unwrap();
    std::fs::write(dir.join("game.js.br"), "brotli").unwrap();
    std::fs::write(dir.join("game.js.gz"), "gzip").unwrap();
    std::fs::write(dir.join("game.0123456789abcdef.js"), "hashed").unwrap();
    std::fs::write(dir.join("app.0123456789abcdef.webmanifest"), "{}").unwrap();
    let fifo = dir.join("pipe.js");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let server = Server::start_with(&sqlite(), &["--web", dir.to_str().unwrap()]).await;

    for (accept, body) in [
        ("br;q=0, gzip", "gzip"),
        ("br;q=0", "plain"),
        ("gzip;q=0.9, br;q=0.5", "gzip"),
        ("gzip, br", "brotli"),
        ("*", "brotli"),
        ("identity", "plain"),
    ] {
        let answer = server.raw("/game.js", accept).await;
        assert!(answer.ends_with(body), "{accept}: {answer}");
    }
    // Kept by browsers: for good under a name with the content's hash, otherwise
    // asked again and answered by a bodiless 304 while unchanged.
    let page = server.raw("/", "").await;
    assert!(page.contains("cache-control: no-cache"), "{page}");
    let tag = header_value(&page, "etag").expect("a validator");
    let again = server
        .raw_with("/", &format!("If-None-Match: {tag}\r\n"))
        .await;
    assert!(again.starts_with("HTTP/1.1 304"), "{again}");
    assert!(again.ends_with("\r\n\r\n"), "no body: {again}");
    let brotli_tag = header_value(&server.raw("/game.js", "br").await, "etag").unwrap();
    assert_ne!(
        brotli_tag,
        header_value(&server.raw("/game.js", "").await, "etag").unwrap()
    );
    let stale = server
        .raw_with("/game.js", &format!("If-None-Match: {tag}\r\n"))
        .await;
    assert!(
        stale.starts_with("HTTP/1.1 200") && stale.ends_with("plain"),
        "{stale}"
    );
    let hashed = server.raw("/game.0123456789abcdef.js", "").await;
    assert!(
        hashed.contains("cache-control: public, max-age=31536000, immutable"),
        "{hashed}"
    );
    let manifest = server.raw("/app.0123456789abcdef.webmanifest", "").await;
    assert!(
        manifest.contains("content-type: application/manifest+json"),
        "{manifest}"
    );

    let piped = tokio::time::timeout(Duration::from_secs(5), server.raw("/pipe.js", ""))
        .await
        .expect("a pipe is not waited on");
    assert!(piped.starts_with("HTTP/1.1 404"), "{piped}");

    // A whole download is the whole file, with its length said first.
    let whole = download(server.port(), "/big.wasm", usize::MAX).await;
    assert_eq!(whole.len(), big.len());
    assert!(whole == big, "the bytes arrive as they are");

    // A hundred clients that take 64 KiB and then wait.
    let mut slow = Vec::new();
    for _ in 0..100 {
        let port = server.port();
        slow.push(tokio::spawn(async move {
            let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .unwrap();
            stream
                .write_all(b"GET /big.wasm HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .await
                .unwrap();
            let mut first = vec![0; 64 * 1024];
            stream.read_exact(&mut first).await.unwrap();
            tokio::time::sleep(Duration::from_secs(5)).await;
            drop(stream);
        }));
    }
    let mut peak: f64 = 0.0;
    for _ in 0..20 {
        peak = peak.max(server.rss_mib());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for s in slow {
        s.await.unwrap();
    }
    println!("100 slow downloads of 20 MiB: peak {peak:.1} MiB");
    assert!(peak < 150.0, "the server grew to {peak:.1} MiB");

    // A folder that is not there is refused at start.
    let missing = dir.join("not-there");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexchess-server"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--database",
            "sqlite::memory:",
            "--web",
        ])
        .arg(&missing)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("not-there") && said.contains("--web"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// GET `path` and read at most `limit` bytes of the body (after the headers).
async fn download(port: u16, path: &str, limit: usize) -> Vec<u8> {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut all = Vec::new();
    stream.read_to_end(&mut all).await.unwrap();
    let head_end = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("headers")
        + 4;
    let head = String::from_utf8_lossy(&all[..head_end]).to_lowercase();
    let body = all[head_end..].to_vec();
    assert!(
        head.contains(&format!("content-length: {}", body.len())),
        "{head}"
    );
    body.into_iter().take(limit).collect()
}

/// A step in SAN (for people, where a typo may name another move) is refused with
/// its long form; a binary frame is refused and the connection goes on; the record's
/// date is the game's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_are_read_only_in_long_notation_and_binary_frames_are_refused() {
    let server = Server::start(&sqlite()).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    let loose = play(&mut a, &game, 0, "f6", 1).await;
    assert_eq!(loose["t"], "refused", "{loose}");
    let why = loose["why"].as_str().unwrap();
    assert!(
        why.contains("'f6' is not in the protocol's long notation") && why.contains("'f5f6'"),
        "{why}"
    );
    assert_eq!(play(&mut a, &game, 0, "f5f6", 2).await["t"], "ack");
    play(&mut b, &game, 1, "c7c6", 1).await;

    let (mut socket, _) = tokio_tungstenite::connect_async(server.url())
        .await
        .unwrap();
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    socket
        .send(Message::Binary(b"{\"t\":\"ping\"}".to_vec().into()))
        .await
        .unwrap();
    socket
        .send(Message::Text("{\"t\":\"ping\"}".into()))
        .await
        .unwrap();
    let mut said = Vec::new();
    while said.len() < 2 {
        match tokio::time::timeout(Duration::from_secs(5), socket.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => said.push(serde_json::from_str::<Value>(&t).unwrap()),
            Ok(Some(Ok(_))) => continue,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(said[0]["t"], "error");
    assert!(
        said[0]["message"]
            .as_str()
            .unwrap()
            .contains("binary frame"),
        "{}",
        said[0]
    );
    assert_eq!(said[1]["t"], "pong", "the connection goes on");

    // The record's date is the day the game started (UTC).
    b.send(&json!({"t": "resign", "game": game})).await.unwrap();
    a.wait_for("end").await.unwrap();
    let today = hexchess_server::room::utc_date_time(hexchess_server::store::now_ms()).0;
    let (_, pgn) = server.get(&format!("/game/{game}.pgn")).await;
    assert!(pgn.contains(&format!("[Date \"{today}\"]")), "{pgn}");
    assert!(pgn.contains("[UTCTime \""), "{pgn}");
}

/// `/metrics` counts what happened, `/healthz` says the server serves; SIGTERM closes
/// every socket with 1012 (clients come back by themselves), lets the last writes end,
/// and exits 0; the game goes on after the restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_health_and_a_stop_that_closes_with_1012() {
    let db = sqlite();
    let mut server = Server::start(&db).await;
    let (mut a, mut b, game) = pair(&server.url(), "glinski", false).await;
    play(&mut a, &game, 0, "f5f6", 1).await;
    play(&mut b, &game, 1, "c7c6", 1).await;
    let (status, body) = server.get("/healthz").await;
    assert!(status.contains("200") && body == "ok\n", "{status} {body}");
    let metrics = server.get("/metrics").await.1;
    for line in [
        "hexchess_moves_total 2",
        "hexchess_games_in_play 1",
        "hexchess_sockets 2",
        "hexchess_relay_seconds_count 2",
    ] {
        assert!(metrics.contains(line), "{line}: {metrics}");
    }
    assert!(
        metrics.contains("hexchess_db_commit_seconds_bucket"),
        "{metrics}"
    );

    let status = tokio::task::spawn_blocking(move || {
        let status = server.terminate(Duration::from_secs(15));
        (server, status)
    });
    for c in [&mut a, &mut b] {
        let closed = loop {
            match tokio::time::timeout(Duration::from_secs(10), c.recv()).await {
                Ok(Ok(_)) => continue,
                Ok(Err(e)) => break e,
                Err(_) => panic!("no close within 10 s"),
            }
        };
        assert!(closed.contains("closed 1012"), "{closed}");
    }
    let (server, status) = status.await.unwrap();
    let status = status.expect("the server stopped within 15 s");
    assert!(status.success(), "{status:?}: {}", server.log_text());
    assert!(
        server.log_text().contains("stopped"),
        "{}",
        server.log_text()
    );

    let server = server.restart().await;
    let mut a = Client::hello(&server.url(), a.token.as_deref())
        .await
        .unwrap();
    a.send(&json!({"t": "join", "game": game})).await.unwrap();
    assert_eq!(a.wait_for("state").await.unwrap()["ply"], 2);
    assert_eq!(play(&mut a, &game, 2, "e4e5", 2).await["t"], "ack");
}

/// What one address and one player may hold: connections open at once, new anonymous
/// players, games against the engine, games followed by one connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_and_a_player_hold_only_so_much() {
    let server = Server::start_with(
        &sqlite(),
        &["--open-per-address", "4", "--new-players-per-address", "3"],
    )
    .await;
    let url = server.url();
    // Three new players from this address; the fourth hello must bring its secret.
    let mut a = Client::hello(&url, None).await.unwrap();
    let mut b = Client::hello(&url, None).await.unwrap();
    let c = Client::hello(&url, None).await.unwrap();
    let mut d = Client::connect(&url).await.unwrap();
    d.send(&json!({"t": "hello", "protocol": 1})).await.unwrap();
    let refused = d.recv().await.unwrap();
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("too many new players from your address"),
        "{refused}"
    );
    d.send(&json!({"t": "hello", "protocol": 1, "token": a.token}))
        .await
        .unwrap();
    assert_eq!(
        d.wait_for("welcome").await.unwrap()["player"],
        json!(a.player)
    );
    // Four connections are open: a fifth is closed at once, saying why.
    let mut e = Client::connect(&url).await.unwrap();
    let closed = e.recv().await.unwrap_err();
    assert!(
        closed.contains("1008") && closed.contains("4 connections open from your address"),
        "{closed}"
    );
    drop((c, e));

    // Three games against the engine at once, not a fourth.
    for i in 0..4 {
        a.send(&json!({"t": "seek", "variant": "glinski", "engines": 1, "level": 1}))
            .await
            .unwrap();
        let answer = a
            .wait_until(|m| m["t"] == "started" || m["t"] == "error", "an answer")
            .await
            .unwrap();
        assert_eq!(answer["t"] == "error", i == 3, "game {i}: {answer}");
        if i == 3 {
            assert!(
                answer["message"]
                    .as_str()
                    .unwrap()
                    .contains("3 games against the engine already"),
                "{answer}"
            );
        }
    }
    // Fifty games followed by one connection, not fifty-one: b and a make 51 games by
    // private challenges (10 open at a time), d (a's second connection) follows them.
    // (Each connection sends under its 100 messages in 20 s.)
    let mut games = Vec::new();
    while games.len() < 51 {
        for _ in 0..10.min(51 - games.len()) {
            a.send(&json!({"t": "seek", "variant": "mccooey", "private": true}))
                .await
                .unwrap();
            let code = a.wait_for("seek").await.unwrap()["code"]
                .as_str()
                .unwrap()
                .to_string();
            b.send(&json!({"t": "accept", "seek": code})).await.unwrap();
            let started = b.wait_for("started").await.unwrap();
            games.push(started["game"].as_str().unwrap().to_string());
        }
    }
    for (i, game) in games.iter().enumerate() {
        d.send(&json!({"t": "join", "game": game})).await.unwrap();
        let answer = d
            .wait_until(|m| m["t"] == "state" || m["t"] == "error", "an answer")
            .await
            .unwrap();
        assert_eq!(answer["t"] == "error", i == 50, "join {i}: {answer}");
        if i == 50 {
            assert!(
                answer["message"]
                    .as_str()
                    .unwrap()
                    .contains("you follow 50 games already"),
                "{answer}"
            );
        }
    }
}

/// A header's value in a raw HTTP answer (names compared in any case).
fn header_value(answer: &str, name: &str) -> Option<String> {
    answer
        .split("\r\n\r\n")
        .next()?
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim().to_string())
}
