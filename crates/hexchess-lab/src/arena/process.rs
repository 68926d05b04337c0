//! An engine as a child process speaking the protocol.
//!
//! Whatever the program does, the match stays in control: what is kept of its output is
//! bounded (a line is cut at [`MAX_LINE`] bytes, lines that are not protocol replies are
//! dropped as they come, and at most [`QUEUED_LINES`] replies wait to be read, the
//! engine waiting while the queue is full), every wait for a reply ends at its
//! deadline even when the engine keeps talking, and what is sent to it is written by a
//! thread of its own, so an engine that stops reading cannot block the match. A program that floods its output (`yes`)
//! or never answers costs a few seconds and a message naming it, not the memory.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::EngineSpec;
use super::command_line::{CommandLineError, split_command_line};
use hexchess_engine::Score;

/// The longest line of an engine's output kept, in bytes; the rest of a longer line is
/// skipped. A reply the match reads (`bestmove`, `info ... score`) is far shorter: an
/// `info` line with a principal variation of the search's 128 plies is about 1 KiB.
pub const MAX_LINE: usize = 16 * 1024;

/// Protocol replies that may wait to be read; past this the engine's output is not read
/// until the match reads a reply (the engine then waits on its full pipe). At most
/// `QUEUED_LINES * MAX_LINE` bytes (4 MiB) per engine.
pub const QUEUED_LINES: usize = 256;

/// Lines that are not protocol replies written to the protocol log per process, before
/// the log only says that more came: a flood must not fill the disk either.
const LOGGED_OTHER_LINES: usize = 100;

/// The first words of the lines an engine may answer with (the UCI protocol's
/// replies). Anything else is not for the match and is dropped as it comes.
const REPLIES: [&str; 8] = [
    "id",
    "uciok",
    "readyok",
    "bestmove",
    "copyprotection",
    "registration",
    "info",
    "option",
];

/// Why talking to an engine failed.
#[derive(Debug)]
pub enum EngineError {
    /// The engine's command line could not be split into words.
    Command(CommandLineError),
    /// The engine's working folder is missing or not a folder (`reason` says which).
    Dir {
        /// The folder.
        path: PathBuf,
        /// Missing, or what it is instead.
        reason: String,
    },
    /// The operating system could not start the program.
    Spawn {
        /// The program.
        program: String,
        /// The system's reason.
        error: std::io::Error,
    },
    /// A log file could not be opened.
    Log {
        /// The log file.
        path: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// No `what` within `waited`.
    Timeout {
        /// The answer waited for.
        what: String,
        /// How long.
        waited: Duration,
    },
    /// The engine exited or closed its output.
    Gone,
    /// Writing to the engine or reading from it failed (the system's reason).
    Io(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Command(e) => write!(f, "{e}"),
            EngineError::Dir { path, reason } => {
                write!(f, "working folder {}: {reason}", path.display())
            }
            EngineError::Spawn { program, error } => {
                write!(f, "cannot start '{program}': {error}")
            }
            EngineError::Log { path, error } => {
                write!(f, "cannot open the log {}: {error}", path.display())
            }
            EngineError::Timeout { what, waited } => {
                write!(f, "no '{what}' in {:.1} s", waited.as_secs_f64())
            }
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
    /// The engine's input, written by [`write_lines`]'s thread.
    input: Sender<String>,
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

/// The engine's working folder, if it has one, checked before anything starts: a
/// missing folder would otherwise be reported as the program missing.
fn check_dir(dir: Option<&Path>) -> Result<(), EngineError> {
    let Some(dir) = dir else { return Ok(()) };
    let reason = match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => "not a folder".to_string(),
        Err(e) => e.to_string(),
    };
    Err(EngineError::Dir {
        path: dir.to_path_buf(),
        reason,
    })
}

/// The engine's process, not yet spoken to: its program and arguments run directly
/// (no shell), in its working folder, its standard error to its log or nowhere.
fn spawn(spec: &EngineSpec, logs: &EngineLogs) -> Result<Child, EngineError> {
    let words = split_command_line(&spec.command).map_err(EngineError::Command)?;
    check_dir(spec.dir.as_deref())?;
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
        .stderr(stderr);
    // An engine file just written (a build finishing, or a test's stand-in) may still
    // be open for writing in a process forked meanwhile: Linux then refuses to run it
    // ("text file busy") for a moment. A few tries get past it.
    let mut tries = 0;
    loop {
        match cmd.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 20 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(25));
            }
            done => {
                return done.map_err(|error| EngineError::Spawn {
                    program: program.display().to_string(),
                    error,
                });
            }
        }
    }
}

/// One line of an engine's output, as kept.
#[derive(Debug, PartialEq, Eq)]
struct OutputLine {
    /// The line without its end (`\n` or `\r\n`), at most [`MAX_LINE`] bytes of it;
    /// bytes that are not UTF-8 read as U+FFFD.
    text: String,
    /// Whether the line was longer, and cut.
    cut: bool,
}

/// The next line of `reader`, keeping at most `cap` bytes of it and reading past the
/// rest, so that no line, however long, is held whole; `None` at the end.
fn read_capped_line(reader: &mut impl BufRead, cap: usize) -> std::io::Result<Option<OutputLine>> {
    let mut kept = Vec::new();
    let mut cut = false;
    let mut read_any = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        read_any = true;
        let end = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..end.unwrap_or(buf.len())];
        let room = cap.saturating_sub(kept.len());
        cut |= chunk.len() > room;
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = end.map_or(buf.len(), |i| i + 1);
        reader.consume(used);
        if end.is_some() {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(OutputLine {
        text: String::from_utf8_lossy(&kept).into_owned(),
        cut,
    }))
}

/// Whether a line is a protocol reply (its first word is one of [`REPLIES`]).
fn is_reply(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|word| REPLIES.contains(&word))
}

/// Writes a received line to the protocol log: every reply, and the first
/// [`LOGGED_OTHER_LINES`] other lines (`others` counts them), then one line saying the
/// rest are not logged.
fn log_received(log: &IoLog, line: &OutputLine, reply: bool, others: &mut usize) {
    let cut = if line.cut { " [cut]" } else { "" };
    if reply {
        log.line('<', &format!("{}{cut}", line.text));
        return;
    }
    *others += 1;
    if *others <= LOGGED_OTHER_LINES {
        log.line('<', &format!("{}{cut} [not a reply: dropped]", line.text));
    } else if *others == LOGGED_OTHER_LINES + 1 {
        log.line(
            '<',
            "[more lines that are not replies: dropped, not logged]",
        );
    }
}

/// A thread writing the lines sent to the engine's input, so that an engine that stops
/// reading it cannot block the match on a full pipe: the wait for its reply then ends at
/// its deadline. The thread ends when the engine's input closes (the engine is gone; the
/// next [`EngineProcess::send`] then fails) or nothing more is sent.
fn write_lines(mut stdin: ChildStdin) -> Sender<String> {
    let (tx, rx) = channel::<String>();
    std::thread::spawn(move || {
        for line in rx {
            if writeln!(stdin, "{line}")
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
        }
    });
    tx
}

/// A thread passing the engine's protocol replies on line by line (and every line, within
/// bounds, to its log). It ends when the engine's output ends, or once nobody reads the
/// replies any more.
fn read_lines(stdout: std::process::ChildStdout, io_log: Option<IoLog>) -> Receiver<String> {
    let (tx, rx) = sync_channel(QUEUED_LINES);
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut others = 0;
        while let Ok(Some(line)) = read_capped_line(&mut reader, MAX_LINE) {
            let reply = is_reply(&line.text);
            if let Some(log) = &io_log {
                log_received(log, &line, reply, &mut others);
            }
            if reply && tx.send(line.text).is_err() {
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
            input: write_lines(stdin),
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

    /// Writes one line to the engine (and to the protocol log, if kept).
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.io_log {
            log.line('>', line);
        }
        self.input
            .send(line.to_string())
            .map_err(|_| EngineError::Gone)
    }

    /// The next reply, if one comes before `deadline`. The deadline is checked before
    /// every line, so an engine that keeps talking cannot keep the match waiting.
    fn next_line(
        &mut self,
        deadline: Instant,
        what: &str,
        timeout: Duration,
    ) -> Result<String, EngineError> {
        let timed_out = || EngineError::Timeout {
            what: what.to_string(),
            waited: timeout,
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(timed_out());
        }
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(timed_out()),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Gone),
        }
    }

    /// Waits for a line starting with `prefix`; other lines are skipped, except that an
    /// `info string error` aborts (the engine rejected our last command).
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline, prefix, timeout)?;
            if line.starts_with(prefix) {
                return Ok(line);
            }
            if line.starts_with("info string error") {
                return Err(EngineError::Io(line));
            }
        }
    }

    /// `isready`, then waits up to `timeout` for `readyok`.
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
            let line = self.next_line(deadline, "bestmove", timeout)?;
            if let Some(rest) = line.strip_prefix("bestmove ") {
                let bestmove = rest.split_whitespace().next().unwrap_or("").to_string();
                return Ok(Answer { bestmove, score });
            }
            if line.starts_with("info ") {
                score = reported_score(&line).or(score);
            }
        }
    }
}

/// The score an `info` line reports (`score cp N` or `score mate N`), if any.
fn reported_score(line: &str) -> Option<Score> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score")?;
    let value = words.get(i + 2)?.parse::<i32>().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(Score::Cp(value)),
        "mate" => Some(Score::Mate(value)),
        _ => None,
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

    #[test]
    fn a_line_longer_than_the_cap_is_cut_and_the_next_one_read_whole() {
        let mut long = vec![b'y'; 100_000];
        long.extend_from_slice(b"\r\nuciok\r\nlast");
        let mut reader = std::io::BufReader::with_capacity(64, long.as_slice());
        let first = read_capped_line(&mut reader, 10).unwrap().unwrap();
        assert_eq!(
            first,
            OutputLine {
                text: "yyyyyyyyyy".into(),
                cut: true
            }
        );
        let next = read_capped_line(&mut reader, 10).unwrap().unwrap();
        assert_eq!(next.text, "uciok");
        assert!(!next.cut);
        // A last line without its end still counts; then the output is over.
        assert_eq!(
            read_capped_line(&mut reader, 10).unwrap().unwrap().text,
            "last"
        );
        assert_eq!(read_capped_line(&mut reader, 10).unwrap(), None);
        // Bytes that are not UTF-8 do not end the reading.
        let mut odd = std::io::BufReader::new(&b"bestmove \xff\nreadyok\n"[..]);
        assert_eq!(
            read_capped_line(&mut odd, 100).unwrap().unwrap().text,
            "bestmove \u{fffd}"
        );
        assert_eq!(
            read_capped_line(&mut odd, 100).unwrap().unwrap().text,
            "readyok"
        );
    }

    #[test]
    fn only_protocol_replies_are_passed_on() {
        for reply in [
            "uciok",
            "readyok",
            "bestmove f5f6",
            "info depth 3 score cp 20",
            "id name x",
            "option name Hash type spin",
        ] {
            assert!(is_reply(reply), "{reply}");
        }
        for other in ["y", "", "   ", "uciokay", "debug: hello", "bestmoves"] {
            assert!(!is_reply(other), "{other}");
        }
        assert_eq!(
            reported_score("info depth 2 score cp -35 pv a b"),
            Some(Score::Cp(-35))
        );
        assert_eq!(reported_score("info score mate 3"), Some(Score::Mate(3)));
        assert_eq!(reported_score("info score cp"), None);
        assert_eq!(reported_score("info depth 1"), None);
    }

    #[test]
    fn a_missing_working_folder_is_named_before_anything_starts() {
        let err = EngineProcess::start(
            &spec("engine", Some(PathBuf::from("/nonexistent/hexchess-dir"))),
            "glinski",
            &EngineLogs::default(),
        )
        .err()
        .expect("no such folder");
        assert!(matches!(err, EngineError::Dir { .. }), "{err}");
        let text = err.to_string();
        assert!(
            text.starts_with("working folder /nonexistent/hexchess-dir: "),
            "{text}"
        );
    }

    /// Runs `f` on a thread of its own and returns its result, or `None` if it has not
    /// returned within `bound` (a hang then fails the test instead of blocking it).
    fn within<T: Send + 'static>(
        bound: Duration,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(bound).ok()
    }

    #[cfg(unix)]
    #[test]
    fn an_engine_that_floods_its_output_times_out_instead_of_filling_the_memory() {
        // `yes` writes "y" lines as fast as it can and never says `uciok`.
        let started = Instant::now();
        let result = within(Duration::from_secs(60), || {
            EngineProcess::start(&spec("yes", None), "glinski", &EngineLogs::default())
                .err()
                .map(|e| e.to_string())
        })
        .expect("the start gives up in time");
        assert_eq!(result.as_deref(), Some("no 'uciok' in 10.0 s"));
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    #[cfg(unix)]
    #[test]
    fn an_engine_that_talks_without_answering_loses_on_time() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("chatter");
        let path = dir.join("chatter.sh");
        std::fs::write(
            &path,
            "#!/bin/sh\n\
             while read -r line; do\n\
               case \"$line\" in\n\
                 uci) echo uciok ;;\n\
                 isready) echo readyok ;;\n\
                 go*) while :; do echo 'info depth 1 score cp 5'; done ;;\n\
                 quit) exit 0 ;;\n\
               esac\n\
             done\n",
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let command = path.display().to_string();
        let result = within(Duration::from_secs(60), move || {
            let mut engine =
                EngineProcess::start(&spec(&command, None), "glinski", &EngineLogs::default())
                    .expect("starts");
            engine
                .go("go movetime 10", Duration::from_millis(500))
                .err()
                .map(|e| e.to_string())
        })
        .expect("the wait for bestmove ends at its deadline");
        assert_eq!(result.as_deref(), Some("no 'bestmove' in 0.5 s"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn an_engine_that_stops_reading_its_input_does_not_block_the_match() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("deaf");
        let path = dir.join("deaf.sh");
        // Answers the start without reading a line, then never reads its input.
        std::fs::write(
            &path,
            "#!/bin/sh\necho uciok\necho readyok\nexec sleep 30\n",
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let command = path.display().to_string();
        let sent = within(Duration::from_secs(30), move || {
            let mut engine =
                EngineProcess::start(&spec(&command, None), "glinski", &EngineLogs::default())
                    .expect("starts");
            // A megabyte, far more than a pipe holds.
            let line = format!("position startpos moves {}", "f5f6 ".repeat(200));
            let sent = (0..1000).all(|_| engine.send(&line).is_ok());
            let waited = engine.go("go movetime 10", Duration::from_millis(200));
            (sent, waited.err().map(|e| e.to_string()))
        })
        .expect("sending to an engine that does not read returns");
        assert_eq!(sent, (true, Some("no 'bestmove' in 0.2 s".to_string())));
        std::fs::remove_dir_all(&dir).ok();
    }
}
