//! The Python client written in docs/online.md, run as it is written there against a
//! server on 127.0.0.1: it plays a whole game against the server's engine.

mod common;

use std::process::Command;

use common::{Server, sqlite};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_client_of_the_docs_plays_a_game_to_its_end() {
    let server = Server::start(&sqlite()).await;
    let file = std::env::temp_dir().join(format!("hexchess-client-{}.py", std::process::id()));
    std::fs::write(
        &file,
        common::docs_block(
            include_str!("../../../docs/online.md"),
            "<!-- python-client -->",
            "python",
        ),
    )
    .unwrap();
    let url = server.url();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg(&file)
            .arg(&url)
            .output()
            .expect("python3 runs (Python 3 is on the machine)")
    })
    .await
    .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{out}\n{err}");
    assert!(out.contains("game over:"), "{out}\n{err}");
    // It moved (White or Black) and the engine answered.
    let plies = out
        .lines()
        .filter(|l| l.contains(" White ") || l.contains(" Black "))
        .count();
    assert!(plies >= 2, "{out}");
}
