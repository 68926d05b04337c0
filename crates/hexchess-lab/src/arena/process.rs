//! An engine as a child process speaking the protocol.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::EngineSpec;
use hexchess_engine::Score;

/// Why talking to an engine failed.
#[derive(Debug)]
pub enum EngineError {
    Start(String),
    /// No expected answer in time.
    Timeout(String),
    /// The engine exited or closed its output.
    Gone,
    Io(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Start(e) => write!(f, "cannot start: {e}"),
            EngineError::Timeout(what) => write!(f, "no '{what}' in time"),
            EngineError::Gone => write!(f, "the engine exited"),
            EngineError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// What an engine answered to `go`.
pub struct Answer {
    pub bestmove: String,
    /// The last score it reported, from its own side's point of view.
    pub score: Option<Score>,
}

impl EngineProcess {
    /// Starts the command (through the shell, so it may carry arguments), says `uci`,
    /// selects the variant and the spec's options, and waits until it is ready.
    pub fn start(spec: &EngineSpec, variant: &str) -> Result<EngineProcess, EngineError> {
        let mut cmd = if cfg!(windows) {
            let mut c = Command::new("cmd");
            c.arg("/C").arg(&spec.command);
            c
        } else {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("exec {}", spec.command));
            c
        };
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Start(format!("{}: {e}", spec.command)))?;
        let stdin = child
            .stdin
            .take()
            .ok_or(EngineError::Start("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or(EngineError::Start("no stdout".into()))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = EngineProcess {
            child,
            stdin,
            lines: rx,
        };
        let startup = Duration::from_secs(10);
        e.send("uci")?;
        e.expect("uciok", startup)?;
        e.send(&format!("setoption name UCI_Variant value {variant}"))?;
        for (name, value) in &spec.options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.ready(startup)?;
        Ok(e)
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}").map_err(|e| EngineError::Io(e.to_string()))?;
        self.stdin
            .flush()
            .map_err(|e| EngineError::Io(e.to_string()))
    }

    /// Waits for a line starting with `prefix`; other lines are skipped, except that an
    /// `info string error` aborts (the engine rejected our last command).
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(line) if line.starts_with("info string error") => {
                    return Err(EngineError::Io(line));
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout(prefix.into())),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Gone),
            }
        }
    }

    pub fn ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        self.expect("readyok", timeout).map(|_| ())
    }

    /// Sends `go ...` and collects the answer, keeping the last reported score.
    pub fn go(&mut self, go: &str, timeout: Duration) -> Result<Answer, EngineError> {
        self.send(go)?;
        let deadline = Instant::now() + timeout;
        let mut score = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout("bestmove".into()));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Gone),
            };
            if let Some(rest) = line.strip_prefix("bestmove ") {
                let bestmove = rest.split_whitespace().next().unwrap_or("").to_string();
                return Ok(Answer { bestmove, score });
            }
            if line.starts_with("info ") {
                let words: Vec<&str> = line.split_whitespace().collect();
                if let Some(i) = words.iter().position(|w| *w == "score") {
                    let value = words.get(i + 2).and_then(|v| v.parse::<i32>().ok());
                    score = match (words.get(i + 1), value) {
                        (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                        (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                        _ => score,
                    };
                }
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
