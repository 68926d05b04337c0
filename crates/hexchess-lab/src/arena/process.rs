//! An engine as a child process speaking the protocol.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::EngineSpec;
use super::command_line::{CommandLineError, split_command_line};
use hexchess_engine::Score;

/// Why talking to an engine failed.
#[derive(Debug)]
pub enum EngineError {
    /// The engine's command line could not be split into words.
    Command(CommandLineError),
    /// The operating system could not start the program.
    Spawn {
        program: String,
        error: std::io::Error,
    },
    /// A log file could not be opened.
    Log {
        path: PathBuf,
        error: std::io::Error,
    },
    /// No expected answer in time.
    Timeout(String),
    /// The engine exited or closed its output.
    Gone,
    Io(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Command(e) => write!(f, "{e}"),
            EngineError::Spawn { program, error } => {
                write!(f, "cannot start '{program}': {error}")
            }
            EngineError::Log { path, error } => {
                write!(f, "cannot open the log {}: {error}", path.display())
            }
            EngineError::Timeout(what) => write!(f, "no '{what}' in time"),
            EngineError::Gone => write!(f, "the engine exited"),
            EngineError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Where an engine process writes, besides the protocol. Both files are appended to, so
/// that an engine restarted in the middle of a match (after it crashed or lost on time)
/// continues the same log, after a line saying it started again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineLogs {
    /// Its standard error (otherwise thrown away).
    pub stderr: Option<PathBuf>,
    /// Every protocol line, sent (`>`) and received (`<`), with the seconds since the
    /// process started: what an engine was told and answered when it lost on time or
    /// played an illegal move.
    pub io: Option<PathBuf>,
}

/// The protocol log of one process, shared by the thread that reads its output.
#[derive(Clone)]
struct IoLog {
    file: Arc<Mutex<File>>,
    started: Instant,
}

impl IoLog {
    /// Writes one line (`>` sent, `<` received). A failure to write (a full disk) does
    /// not stop the game: the log is a help, the game is the measurement.
    fn line(&self, direction: char, text: &str) {
        let line = format!(
            "{:9.3} {direction} {text}\n",
            self.started.elapsed().as_secs_f64()
        );
        if let Ok(mut file) = self.file.lock() {
            let _ = file.write_all(line.as_bytes());
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    io_log: Option<IoLog>,
}

/// What an engine answered to `go`.
pub struct Answer {
    pub bestmove: String,
    /// The last score it reported, from its own side's point of view.
    pub score: Option<Score>,
}

/// Opens a log to append to, after a line saying which command starts.
fn open_log(path: &Path, command: &str) -> Result<File, EngineError> {
    let log_error = |error| EngineError::Log {
        path: path.to_path_buf(),
        error,
    };
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(log_error)?;
    writeln!(file, "--- starting: {command}").map_err(log_error)?;
    Ok(file)
}

/// The program to run. A relative path with a folder in it (`./engine`) is taken from
/// the engine's working folder when it has one, as cutechess does, and made absolute:
/// how the operating system reads a relative program together with a new working
/// folder differs between systems. A bare name is looked up in `PATH`.
fn program_path(program: &str, dir: Option<&Path>) -> PathBuf {
    let path = Path::new(program);
    match dir {
        Some(dir) if path.is_relative() && path.components().count() > 1 => {
            let joined = dir.join(path);
            std::path::absolute(&joined).unwrap_or(joined)
        }
        _ => path.to_path_buf(),
    }
}

/// The engine's process, not yet spoken to: its program and arguments run directly
/// (no shell), in its working folder, its standard error to its log or nowhere.
fn spawn(spec: &EngineSpec, logs: &EngineLogs) -> Result<Child, EngineError> {
    let words = split_command_line(&spec.command).map_err(EngineError::Command)?;
    let program = program_path(&words[0], spec.dir.as_deref());
    let mut cmd = Command::new(&program);
    cmd.args(&words[1..]);
    if let Some(dir) = &spec.dir {
        cmd.current_dir(dir);
    }
    let stderr = match &logs.stderr {
        Some(path) => Stdio::from(open_log(path, &spec.command)?),
        None => Stdio::null(),
    };
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .map_err(|error| EngineError::Spawn {
            program: program.display().to_string(),
            error,
        })
}

/// A thread passing the engine's output on line by line (and to its log).
fn read_lines(stdout: std::process::ChildStdout, io_log: Option<IoLog>) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(log) = &io_log {
                log.line('<', &line);
            }
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl EngineProcess {
    /// Starts the engine (its command split into program and arguments, run without a
    /// shell), says `uci`, selects the variant and the spec's options, and waits until
    /// it is ready.
    pub fn start(
        spec: &EngineSpec,
        variant: &str,
        logs: &EngineLogs,
    ) -> Result<EngineProcess, EngineError> {
        let io_log = match &logs.io {
            Some(path) => Some(IoLog {
                file: Arc::new(Mutex::new(open_log(path, &spec.command)?)),
                started: Instant::now(),
            }),
            None => None,
        };
        let mut child = spawn(spec, logs)?;
        let stdin = child.stdin.take().ok_or(EngineError::Gone)?;
        let stdout = child.stdout.take().ok_or(EngineError::Gone)?;
        let mut e = EngineProcess {
            child,
            stdin,
            lines: read_lines(stdout, io_log.clone()),
            io_log,
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
        if let Some(log) = &self.io_log {
            log.line('>', line);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(command: &str, dir: Option<PathBuf>) -> EngineSpec {
        EngineSpec {
            name: "fake".into(),
            command: command.into(),
            dir,
            options: Vec::new(),
        }
    }

    /// An empty folder of its own for a test.
    fn scratch(test: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hexchess-arena-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_program_that_cannot_start_is_named_with_the_os_error() {
        let program = "/nonexistent/hexchess-no-such-engine";
        let err = EngineProcess::start(
            &spec(&format!("{program} --x"), None),
            "glinski",
            &EngineLogs::default(),
        )
        .err()
        .expect("no such program");
        match &err {
            EngineError::Spawn { program: p, error } => {
                assert_eq!(p, program);
                assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
            }
            other => panic!("{other}"),
        }
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("cannot start '{program}': ")),
            "{text}"
        );
        // A command line that does not split is refused before anything runs.
        let err = EngineProcess::start(
            &spec("engine 'open", None),
            "glinski",
            &EngineLogs::default(),
        )
        .err()
        .expect("unclosed quote");
        assert!(
            matches!(
                err,
                EngineError::Command(CommandLineError::UnclosedQuote { .. })
            ),
            "{err}"
        );
    }

    #[test]
    fn a_relative_program_is_found_in_the_engines_folder() {
        let p = program_path("./bin/e", Some(Path::new("/opt/engines")));
        assert!(p.is_absolute(), "{}", p.display());
        assert!(
            p.starts_with("/opt/engines") && p.ends_with("bin/e"),
            "{}",
            p.display()
        );
        // A relative folder is made absolute from the match's own folder.
        let p = program_path("./e", Some(Path::new("rel")));
        let here = std::env::current_dir().unwrap();
        assert!(p.starts_with(here.join("rel")), "{}", p.display());
        // A bare name is left for PATH; without a folder nothing changes.
        assert_eq!(
            program_path("engine", Some(Path::new("/x"))),
            Path::new("engine")
        );
        assert_eq!(program_path("./e", None), Path::new("./e"));
    }

    /// A stand-in engine: reports its folder and arguments on stderr, then answers
    /// `uci` and `isready` until told to quit.
    #[cfg(unix)]
    fn fake_engine(dir: &Path) {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("fake.sh");
        std::fs::write(
            &path,
            "#!/bin/sh\n\
             echo \"cwd $(pwd -P)\" >&2\n\
             echo \"args $#: $1|$2\" >&2\n\
             while read -r line; do\n\
               case \"$line\" in\n\
                 uci) echo 'id name fake'; echo uciok ;;\n\
                 isready) echo readyok ;;\n\
                 quit) exit 0 ;;\n\
               esac\n\
             done\n",
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn an_engine_runs_without_a_shell_in_its_folder_and_its_stderr_is_logged() {
        let root = scratch("logs");
        let home = root.join("engine home");
        std::fs::create_dir_all(&home).unwrap();
        fake_engine(&home);
        let logs = EngineLogs {
            stderr: Some(root.join("fake.stderr.log")),
            io: Some(root.join("fake.io.log")),
        };
        // A shell would expand $HOME and end the command at the `;`.
        let spec = spec("./fake.sh '$HOME;x' \"two words\"", Some(home.clone()));
        drop(EngineProcess::start(&spec, "glinski", &logs).expect("starts"));
        let stderr = std::fs::read_to_string(root.join("fake.stderr.log")).unwrap();
        let home = home.canonicalize().unwrap();
        assert!(
            stderr.contains(&format!("cwd {}\n", home.display())),
            "{stderr}"
        );
        assert!(stderr.contains("args 2: $HOME;x|two words\n"), "{stderr}");
        let io = std::fs::read_to_string(root.join("fake.io.log")).unwrap();
        let traffic: Vec<&str> = io
            .lines()
            // Each line is the seconds since the start, then the traffic.
            .filter_map(|l| l.trim_start().split_once(' ').map(|(_, rest)| rest))
            .filter(|l| l.starts_with('>') || l.starts_with('<'))
            .collect();
        assert_eq!(
            traffic,
            [
                "> uci",
                "< id name fake",
                "< uciok",
                "> setoption name UCI_Variant value glinski",
                "> isready",
                "< readyok",
                "> quit",
            ],
            "{io}"
        );
        // A restarted engine appends to its logs.
        drop(EngineProcess::start(&spec, "glinski", &logs).expect("starts again"));
        let stderr = std::fs::read_to_string(root.join("fake.stderr.log")).unwrap();
        assert_eq!(
            stderr.matches("--- starting: ./fake.sh").count(),
            2,
            "{stderr}"
        );
        assert_eq!(stderr.matches("args 2:").count(), 2, "{stderr}");
        std::fs::remove_dir_all(&root).ok();
    }
}
