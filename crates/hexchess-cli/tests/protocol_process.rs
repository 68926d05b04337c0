//! The protocol through the `hexchess-engine` process itself: what only a real process
//! shows, such as raw bytes on its stdin, how soon it exits after `quit`, and what
//! happens when the system refuses it memory.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

fn engine_path() -> &'static str {
    env!("CARGO_BIN_EXE_hexchess-engine")
}

/// The engine, started by `command`, with its stdin to write to and its stdout lines
/// arriving on a channel (so that a test can wait for a line with a time limit).
struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Running {
    fn start(mut command: Command) -> Running {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("piped");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Running {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn plain() -> Running {
        Running::start(Command::new(engine_path()))
    }

    /// Writes raw bytes to the engine (a closed pipe is the test's to notice later).
    fn send(&mut self, bytes: &[u8]) {
        if let Some(stdin) = &mut self.stdin {
            let _ = stdin.write_all(bytes);
            let _ = stdin.flush();
        }
    }

    /// The lines written up to and including the first that `done` accepts, or `None`
    /// if none came within `limit`.
    fn until(&mut self, limit: Duration, done: impl Fn(&str) -> bool) -> Option<Vec<String>> {
        let deadline = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).ok()?;
            let finished = done(&line);
            seen.push(line);
            if finished {
                return Some(seen);
            }
        }
    }

    /// Whether the process ended within `limit` (it is killed if not).
    fn exits_within(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    fn stderr(&mut self) -> String {
        let mut text = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut text);
        }
        text
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_session_goes_on() {
    let mut e = Running::plain();
    e.send(b"uci\nisready\n\xff\nposition startpos moves f5f6\nisready\n");
    let seen = e
        .until(Duration::from_secs(10), |l| l == "readyok")
        .expect("the first readyok");
    assert!(seen.contains(&"uciok".to_string()), "{seen:?}");
    let seen = e
        .until(Duration::from_secs(10), |l| l == "readyok")
        .expect("a readyok after the bad line");
    assert!(
        seen.iter()
            .any(|l| l.starts_with("info string error: ") && l.contains("byte 0")),
        "{seen:?}"
    );
    e.send(b"d\nquit\n");
    let seen = e
        .until(Duration::from_secs(10), |l| l.starts_with("Fen: "))
        .expect("the position is shown");
    // The move after the bad line was played: the engine kept reading.
    assert!(
        seen.iter().any(|l| l.ends_with(" b - 0 1")),
        "Black to move: {seen:?}"
    );
    let status = e.exits_within(Duration::from_secs(10)).expect("it exits");
    assert!(status.success(), "{status:?}: {}", e.stderr());
}

#[test]
fn quit_during_a_long_perft_ends_the_process_at_once() {
    let mut e = Running::plain();
    e.send(b"go perft 7\n");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send(b"isready\n");
    assert!(
        e.until(Duration::from_secs(5), |l| l == "readyok")
            .is_some(),
        "isready is answered while perft 7 runs"
    );
    e.send(b"quit\n");
    let status = e.exits_within(Duration::from_secs(5));
    assert!(
        status.is_some_and(|s| s.success()),
        "still running {:?} after quit",
        asked.elapsed()
    );
}

#[test]
fn quit_during_a_long_bench_ends_the_process_at_once() {
    let mut e = Running::plain();
    e.send(b"bench 30\n");
    std::thread::sleep(Duration::from_millis(300));
    e.send(b"isready\n");
    assert!(
        e.until(Duration::from_secs(5), |l| l == "readyok")
            .is_some(),
        "isready is answered while the bench runs"
    );
    e.send(b"quit\n");
    let status = e.exits_within(Duration::from_secs(5));
    assert!(
        status.is_some_and(|s| s.success()),
        "still running after quit"
    );
}

/// The engine with at most `kb` kilobytes of address space (`ulimit -v`).
fn with_memory_limit(kb: u64) -> Running {
    let mut command = Command::new("sh");
    command.args([
        "-c",
        &format!("ulimit -v {kb} && exec \"$0\""),
        engine_path(),
    ]);
    Running::start(command)
}

#[test]
fn a_hash_table_the_system_refuses_is_an_error_and_the_old_one_stays() {
    // Four gigabytes of address space: a 16 GB table cannot be had, a 2 GB one can.
    let mut e = with_memory_limit(4_000_000);
    e.send(b"setoption name Hash value 16384\nisready\n");
    let seen = e
        .until(Duration::from_secs(20), |l| l == "readyok")
        .unwrap_or_else(|| panic!("no readyok: the engine died? {}", e.stderr()));
    let error = seen
        .iter()
        .find(|l| l.starts_with("info string error: "))
        .unwrap_or_else(|| panic!("refused with an error: {seen:?}"));
    assert!(error.contains("Hash") && error.contains("16384"), "{error}");
    // The engine still searches, with the table it had.
    e.send(b"go depth 3\n");
    let seen = e
        .until(Duration::from_secs(20), |l| l.starts_with("bestmove"))
        .expect("a search after the refusal");
    assert!(
        seen.iter().any(|l| l.starts_with("info depth 3 ")),
        "{seen:?}"
    );
    // A big table that fits is taken, and neither making it nor clearing it before any
    // search writes its memory (a GUI sends `ucinewgame` right after setting the size):
    // both are instant.
    let asked = Instant::now();
    e.send(b"setoption name Hash value 2048\nucinewgame\nisready\n");
    let seen = e
        .until(Duration::from_secs(60), |l| l == "readyok")
        .expect("readyok");
    assert!(
        !seen.iter().any(|l| l.starts_with("info string error")),
        "{seen:?}"
    );
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "a fresh 2 GB table took {:?} to make and clear",
        asked.elapsed()
    );
    e.send(b"go depth 2\n");
    assert!(
        e.until(Duration::from_secs(20), |l| l.starts_with("bestmove"))
            .is_some()
    );
    e.send(b"quit\n");
    let status = e.exits_within(Duration::from_secs(10)).expect("it exits");
    assert!(status.success(), "{status:?}: {}", e.stderr());
}

#[cfg(unix)]
#[test]
fn a_fifo_among_the_variant_files_is_refused_not_waited_on() {
    let dir = std::env::temp_dir().join(format!("hexchess-fifo-variants-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("x.ron");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let mut e = Running::plain();
    e.send(
        format!(
            "setoption name VariantPath value {}\nisready\n",
            dir.display()
        )
        .as_bytes(),
    );
    let seen = e
        .until(Duration::from_secs(10), |l| l == "readyok")
        .expect("the FIFO does not block the engine");
    assert!(
        seen.iter().any(
            |l| l.starts_with("info string error: variant file left out: ") && l.contains("FIFO")
        ),
        "{seen:?}"
    );
    e.send(b"quit\n");
    assert!(e.exits_within(Duration::from_secs(10)).is_some());
    let _ = std::fs::remove_dir_all(&dir);
}
