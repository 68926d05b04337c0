//! Robust input (issue 38) through the `hexchess-engine` binary: every bad count or
//! depth refused with the flag and its range, no output written over an input that was
//! not read whole, no file that is not a regular file opened (a FIFO would block), and
//! an engine that floods its output or never answers ended with a message naming it.
//!
//! Each process is killed if it has not ended after a generous bound, so a hang fails
//! the test instead of blocking it; nothing here talks to a network.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_hexchess-engine");

/// How a process ended, what it wrote, and the most memory it held (where seen).
struct Run {
    /// `None` when it was killed at the bound.
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
    took: Duration,
    peak_rss_kib: u64,
}

impl Run {
    fn failed(&self) -> bool {
        self.status.is_some_and(|s| !s.success())
    }

    fn succeeded(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }
}

/// Reads a pipe to its end on a thread of its own.
fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// This process's resident memory in KiB (Linux), 0 where not known.
fn rss_kib(child: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()));
    status
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}

/// Runs `cmd`, killing it after `bound`.
fn run_within(cmd: &mut Command, bound: Duration) -> Run {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let mut peak = 0;
    let status = loop {
        peak = peak.max(rss_kib(&child));
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        took: started.elapsed(),
        peak_rss_kib: peak,
    }
}

fn engine(args: &[&str]) -> Command {
    let mut cmd = Command::new(EXE);
    cmd.args(args);
    cmd
}

/// A fresh empty folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hexchess-robust-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

#[test]
fn every_count_and_depth_out_of_range_is_refused_with_the_flag_and_its_range() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["perft", "--depth", "100000"], "--depth", "0..=12"),
        (&["bench", "--depth", "1000"], "--depth", "1..=30"),
        (&["bench", "perft", "--depth", "100"], "--depth", "1..=30"),
        (&["bench", "perft", "--depth", "20"], "--depth", "1 to 12"),
        (
            &[
                "match",
                "--engine1",
                EXE,
                "--engine2",
                EXE,
                "--games",
                "100000000",
            ],
            "--games",
            "1..=1000000",
        ),
        (
            &[
                "match",
                "--engine1",
                EXE,
                "--engine2",
                EXE,
                "--concurrency",
                "0",
            ],
            "--concurrency",
            "1..=64",
        ),
        (
            &["soak", "--games", "10000000000000000000"],
            "--games",
            "0..=100000",
        ),
        (
            &["round-robin", "--games", "1000000000000"],
            "--games",
            "1..=1000000",
        ),
        (
            &[
                "match",
                "--engine1",
                EXE,
                "--engine2",
                EXE,
                "--movetime",
                "18446744073709551615",
            ],
            "--movetime",
            "1..=86400000",
        ),
        (
            &["tune", "x.pgn", "--threads", "1000000000"],
            "--threads",
            "1..=64",
        ),
        (&["review", "x.pgn", "--depth", "1000"], "--depth", "1..=30"),
        (
            &["tb", "bench", "KRvK", "--probes", "0"],
            "--probes",
            "1..=",
        ),
    ];
    for (args, flag, range) in cases {
        let run = run_within(&mut engine(args), Duration::from_secs(60));
        assert!(run.failed(), "{args:?} must fail at once: {}", run.stderr);
        assert!(
            run.stderr.contains(flag) && run.stderr.contains(range),
            "{args:?}: the message names {flag} and {range}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_round_robin_needs_a_search_for_every_seat() {
    let run = run_within(
        &mut engine(&["round-robin", "--search", "paranoid", "--games", "1"]),
        Duration::from_secs(60),
    );
    assert!(run.failed(), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("3 seats") && run.stderr.contains("--search"),
        "{}",
        run.stderr
    );
    let run = run_within(
        &mut engine(&[
            "round-robin",
            "--search",
            "brs",
            "--search",
            "brs",
            "--search",
            "maxn",
            "--games",
            "1",
        ]),
        Duration::from_secs(60),
    );
    assert!(run.failed(), "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("'brs' twice"), "{}", run.stderr);
}

#[test]
fn a_missing_working_folder_is_named_not_the_engine() {
    let run = run_within(
        &mut engine(&[
            "match",
            "--engine1",
            EXE,
            "--engine2",
            EXE,
            "--dir1",
            "/nonexistent/hexchess-folder",
            "--games",
            "2",
        ]),
        Duration::from_secs(60),
    );
    assert!(run.failed(), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("engine1: working folder /nonexistent/hexchess-folder: "),
        "{}",
        run.stderr
    );
}

/// Three games; the second does not read (its variation is never closed).
const THREE_GAMES: &str = "[Event \"one\"]\n[Result \"1-0\"]\n\n1. e6 Ndf8 2. exf7 gxf7 1-0\n\n\
[Event \"two\"]\n[Result \"0-1\"]\n\n1. e6 (1. f6 Ndf8 0-1\n\n\
[Event \"three\"]\n[Result \"1/2-1/2\"]\n\n1. e6 Ndf8 2. exf7 gxf7 1/2-1/2\n";

#[test]
fn review_never_writes_over_an_input_it_did_not_read_whole() {
    let dir = scratch("review");
    let file = dir.join("games.pgn");
    std::fs::write(&file, THREE_GAMES).unwrap();
    let path = file.to_str().unwrap();
    let run = run_within(
        &mut engine(&["review", path, "--depth", "1", "--out", path]),
        Duration::from_secs(120),
    );
    assert!(run.failed(), "{}", run.stderr);
    assert!(run.stderr.contains("game 2"), "{}", run.stderr);
    assert!(run.stderr.contains("another --out"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), THREE_GAMES);
    // One game of several written over the file would lose the others.
    let run = run_within(
        &mut engine(&["review", path, "--game", "1", "--depth", "1", "--out", path]),
        Duration::from_secs(120),
    );
    assert!(run.failed(), "{}", run.stderr);
    assert!(run.stderr.contains("another --out"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), THREE_GAMES);
    // Elsewhere the games reviewed are written, and nothing but the file is left.
    let out = dir.join("reviewed.pgn");
    let run = run_within(
        &mut engine(&[
            "review",
            path,
            "--depth",
            "1",
            "--out",
            out.to_str().unwrap(),
        ]),
        Duration::from_secs(120),
    );
    assert!(run.failed(), "one game not reviewed: {}", run.stderr);
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["games.pgn", "reviewed.pgn"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn outputs_never_open_a_fifo() {
    // Writing into a FIFO nobody reads blocks forever; an atomic write refuses it.
    let dir = scratch("fifo-out");
    let svg = dir.join("board.svg");
    mkfifo(&svg);
    let run = run_within(
        &mut engine(&["diagram", "--out", svg.to_str().unwrap()]),
        Duration::from_secs(60),
    );
    assert!(run.failed(), "{}", run.stderr);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    let table = dir.join("KvK.htb");
    mkfifo(&table);
    let run = run_within(
        &mut engine(&["tb", "generate", "KvK", "--out", table.to_str().unwrap()]),
        Duration::from_secs(60),
    );
    assert!(run.failed(), "{}", run.stderr);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_table_is_passed_over_with_the_reason() {
    let dir = scratch("fifo-table");
    let tables = dir.join("hexchess/tables/glinski");
    std::fs::create_dir_all(&tables).unwrap();
    mkfifo(&tables.join("KRvK.htb"));
    let run = run_within(
        engine(&["tb", "probe", "K1k1R1/7/8/9/10/11/10/9/8/7/6 b - 0 1"])
            .env("XDG_DATA_HOME", &dir)
            .env_remove("HEXCHESS_DATA_DIR"),
        Duration::from_secs(120),
    );
    assert!(run.succeeded(), "{}", run.stderr);
    assert!(run.stderr.contains("KRvK.htb: a FIFO"), "{}", run.stderr);
    assert!(
        run.stdout.starts_with("KRvK: is mated in 40 plies"),
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tune_reads_every_game_of_a_file_and_names_the_broken_ones() {
    let dir = scratch("tune");
    let file = dir.join("games.pgn");
    // A fourth game, from line 16, whose first move is not legal.
    let four = format!("{THREE_GAMES}\n[Event \"four\"]\n[Result \"1-0\"]\n\n1. e6e9 1-0\n");
    std::fs::write(&file, four).unwrap();
    let run = run_within(
        &mut engine(&[
            "tune",
            file.to_str().unwrap(),
            "--skip-plies",
            "0",
            "--sweeps",
            "1",
            "--threads",
            "1",
        ]),
        Duration::from_secs(120),
    );
    assert!(run.succeeded(), "{}{}", run.stdout, run.stderr);
    // Each broken game by file, number and line (the reader's own words follow).
    let reported: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.ends_with("(left out)"))
        .collect();
    assert_eq!(reported.len(), 2, "{}", run.stderr);
    assert!(
        reported[0].contains("games.pgn: game 2, line 9"),
        "{}",
        run.stderr
    );
    assert!(
        reported[1].contains("games.pgn: game 4, line 16: ") && reported[1].contains("e6e9"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.starts_with("2 games (2 unreadable)"),
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A script that is an engine in name only: it answers nothing the protocol asks and
/// floods its output instead.
#[cfg(target_os = "linux")]
#[test]
fn an_engine_that_floods_its_output_is_stopped_with_its_name_in_bounded_memory() {
    let run = run_within(
        &mut engine(&[
            "match",
            "--engine1",
            "yes",
            "--name1",
            "flood",
            "--engine2",
            EXE,
            "--games",
            "2",
        ]),
        Duration::from_secs(90),
    );
    assert!(run.failed(), "ends with an error: {}", run.stderr);
    assert!(
        run.stderr.contains("flood: no 'uciok' in"),
        "{}",
        run.stderr
    );
    assert!(run.took < Duration::from_secs(60), "{:?}", run.took);
    assert!(
        run.peak_rss_kib < 200_000,
        "{} KiB held for an engine's output",
        run.peak_rss_kib
    );
}
