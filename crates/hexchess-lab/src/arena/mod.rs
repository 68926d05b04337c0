//! Engine-vs-engine matches: the tool that proves a change makes the engine stronger.
//!
//! Two engines are given as commands that speak the protocol (two builds, two settings
//! of one build, or another program), started without a shell (see [`split_command_line`])
//! and optionally logging their standard error and protocol traffic. Every opening is played twice, once with each
//! engine as White; each engine thinks by its own time control (time odds are allowed);
//! games end by the rules, by a clock, by an illegal move, or by adjudication; each game
//! is written as a record and the summary gives the score and the Elo difference with
//! its 95% error margin, per game and per pair of games, the pairs' pentanomial counts
//! and the likelihood of superiority. With an SPRT the match stops as soon
//! as the games settle it (see [`Sprt`]).

mod command_line;
mod process;
pub mod stats;

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub use command_line::{CommandLineError, split_command_line};
pub use process::{EngineError, EngineLogs, EngineProcess};
pub use stats::{MatchSummary, Sprt, SprtError, SprtVerdict};

use hexchess_core::outcome::{GameOutcome, Termination};
use hexchess_core::pgn::PgnGame;
use hexchess_core::piece::Side;
use hexchess_core::position::Position;
use hexchess_core::rules::Rules;
use hexchess_engine::Score;
use hexchess_files::Files;

/// An engine to play: how to start it and the options to set.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Its name in the match's reports and records.
    pub name: String,
    /// Program and arguments, split as [`split_command_line`] says.
    pub command: String,
    /// The working folder to start it in (its own files, such as variant files or
    /// tables, are often found relative to it); the match's own when `None`.
    pub dir: Option<PathBuf>,
    /// Options to set before the games (`setoption name N value V`).
    pub options: Vec<(String, String)>,
}

/// How long an engine may think. Each engine has its own, so that a match can give one
/// engine time odds (a new build at a tenth of the old one's time, to see how strength
/// grows with time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock with an increment per move.
    Clock {
        /// The time each side starts with.
        base: Duration,
        /// Added after each of its moves.
        increment: Duration,
    },
}

/// Why a time control was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// Not `BASE` or `BASE+INC` in seconds.
    Format(String),
    /// A clock that starts empty, or a time that is negative, not finite or longer than
    /// [`MAX_CLOCK`].
    Range(String),
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::Format(s) => write!(
                f,
                "'{s}' is not a time control: give seconds and an increment, BASE+INC (e.g. 10+0.1)"
            ),
            TimeControlError::Range(s) => write!(
                f,
                "time control '{s}': the clock must start above 0 s, and no time may be negative or endless (a day at most)"
            ),
        }
    }
}

impl std::error::Error for TimeControlError {}

/// The longest clock or increment: a day. Longer is a typo, and the clocks' arithmetic
/// (what is left, plus a second's grace) must not overflow.
pub const MAX_CLOCK: Duration = Duration::from_secs(86_400);

/// A clock from `BASE+INC` or `BASE`, in seconds: `10+0.1`, `60`.
impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let (base, increment) = s.split_once('+').unwrap_or((s, "0"));
        let seconds = |x: &str| {
            let v: f64 = x
                .trim()
                .parse()
                .map_err(|_| TimeControlError::Format(s.to_string()))?;
            Duration::try_from_secs_f64(v).map_err(|_| TimeControlError::Range(s.to_string()))
        };
        let (base, increment) = (seconds(base)?, seconds(increment)?);
        if base.is_zero() || base > MAX_CLOCK || increment > MAX_CLOCK {
            return Err(TimeControlError::Range(s.to_string()));
        }
        Ok(TimeControl::Clock { base, increment })
    }
}

/// A start for a pair of games: moves from the variant's start position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// Start position (hex FEN), or the variant's start.
    pub fen: Option<String>,
    /// Moves (long algebraic or SAN) from there.
    pub moves: Vec<String>,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The variant played.
    pub variant: Arc<Rules>,
    /// The two engines.
    pub engines: [EngineSpec; 2],
    /// Games to play (pairs of one opening, colours swapped).
    pub games: usize,
    /// Each engine's time control, in the order of `engines`.
    pub time: [TimeControl; 2],
    /// The openings, each played once with each colour.
    pub openings: Vec<Opening>,
    /// Games played at once (each by its own pair of engine processes).
    pub concurrency: usize,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Adjudicate a win when both engines agree the score is beyond this (centipawns)...
    pub resign_score: i32,
    /// ...for this many moves in a row (each).
    pub resign_moves: usize,
    /// Where to write one record per game.
    pub out_dir: Option<PathBuf>,
    /// Where to keep the engines' logs, if anywhere.
    pub logs: Option<LogConfig>,
    /// Stop once this test is decided (`games` is then the most that are played).
    pub sprt: Option<Sprt>,
}

/// The engines' logs: one standard-error log per engine and worker
/// (`<dir>/<name>-<worker>.stderr.log`), and with `io` a protocol log beside it
/// (`<name>-<worker>.io.log`). Each worker runs its own process of each engine, one after
/// the other, so a log holds one process at a time; a restarted engine appends to it.
/// The files are emptied when a match starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogConfig {
    /// The folder of the logs.
    pub dir: PathBuf,
    /// Whether the protocol's lines are logged too.
    pub io: bool,
}

impl LogConfig {
    /// The log files of engine `engine` (0 or 1) in worker `worker` (from 0).
    pub fn files(&self, names: [&str; 2], engine: usize, worker: usize) -> EngineLogs {
        let stem = format!("{}-{}", log_stems(names)[engine], worker + 1);
        EngineLogs {
            stderr: Some(self.dir.join(format!("{stem}.stderr.log"))),
            io: self.io.then(|| self.dir.join(format!("{stem}.io.log"))),
        }
    }
}

/// The engines' names as file names: characters other than letters, digits, `-`, `_`
/// and `.` become `_`, and two engines of the same name get their number appended.
fn log_stems(names: [&str; 2]) -> [String; 2] {
    let clean = |name: &str| -> String {
        let s: String = name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if s.is_empty() { "engine".into() } else { s }
    };
    let stems = names.map(clean);
    if stems[0] == stems[1] {
        [format!("{}.1", stems[0]), format!("{}.2", stems[1])]
    } else {
        stems
    }
}

/// The logs of engine `engine` in worker `worker`, if the match keeps logs.
fn engine_logs(config: &MatchConfig, engine: usize, worker: usize) -> EngineLogs {
    let names = [
        config.engines[0].name.as_str(),
        config.engines[1].name.as_str(),
    ];
    config
        .logs
        .as_ref()
        .map(|logs| logs.files(names, engine, worker))
        .unwrap_or_default()
}

/// Creates the logs' folder and empties the files this match will write.
fn prepare_logs(config: &MatchConfig, workers: usize) -> Result<(), String> {
    let Some(logs) = &config.logs else {
        return Ok(());
    };
    create_dir(&logs.dir)?;
    for worker in 0..workers {
        for engine in 0..2 {
            let files = engine_logs(config, engine, worker);
            for path in [files.stderr, files.io].into_iter().flatten() {
                // A new empty file in its place: never a FIFO or a device opened for
                // writing (which could block), and an old log kept whole if this fails.
                write_file(&path, b"")?;
            }
        }
    }
    Ok(())
}

/// [`Files::write_atomic`] on the disk (a match runs engines as processes: it has no
/// other files), its error naming the file.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    Files::disk()
        .write_atomic(path, bytes)
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn create_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Its number in the match, from 0.
    pub index: usize,
    /// Which engine (0 or 1) had White.
    pub white: usize,
    /// How it ended.
    pub outcome: GameOutcome,
    /// The game, as written to the match's records.
    pub record: PgnGame,
}

impl GameResult {
    /// Points of engine `e`.
    pub fn points(&self, e: usize) -> f64 {
        let side = if e == self.white {
            Side::White
        } else {
            Side::Black
        };
        self.outcome.points(side).millis() as f64 / 1000.0
    }
}

/// Attempts in a row that found no new opening after which [`random_openings`] stops
/// early: the variant has no more openings of that length to give (with one ply there
/// are some fifty). Any opening a coupon collector still lacks by then has a chance of
/// about one in 2,500 or less per attempt, and is missed with a chance below e^-39.
const STALE_ATTEMPTS: usize = 100_000;

/// `count` different openings of `plies` random legal moves (deterministic for a seed),
/// or as many as were found in `50 * count` attempts. Each attempt costs the same
/// whatever was found before (a set, not a scan of the openings found: with a scan a
/// million games took hours before the first one started).
pub fn random_openings(rules: &Arc<Rules>, count: usize, plies: usize, seed: u64) -> Vec<Opening> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out: Vec<Opening> = Vec::new();
    let mut seen: HashSet<Opening> = HashSet::new();
    let mut attempts = 0;
    let mut stale = 0;
    while out.len() < count && attempts < count.saturating_mul(50) && stale < STALE_ATTEMPTS {
        attempts += 1;
        stale += 1;
        let Some(o) = random_opening(rules, plies, &mut rng) else {
            continue;
        };
        if seen.insert(o.clone()) {
            out.push(o);
            stale = 0;
        }
    }
    out
}

/// `plies` random legal moves from the start (fewer if the game ends), or `None` if
/// they end the game.
fn random_opening(rules: &Arc<Rules>, plies: usize, rng: &mut StdRng) -> Option<Opening> {
    let mut p = Position::start(Arc::clone(rules));
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.random_range(0..legal.len())];
        moves.push(p.move_to_lan(m));
        p.make_move(m);
    }
    p.outcome()
        .is_none()
        .then_some(Opening { fen: None, moves })
}

/// Reads openings, one per line: a hex FEN (optionally followed by `moves ...`), or
/// moves from the start. Blank lines and `#` comments are skipped.
pub fn parse_openings(text: &str) -> Vec<Opening> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t.contains('/') {
            let (fen, moves) = match t.split_once(" moves ") {
                Some((f, m)) => (f, m.split_whitespace().map(str::to_string).collect()),
                None => (t, Vec::new()),
            };
            out.push(Opening {
                fen: Some(fen.trim().to_string()),
                moves,
            });
        } else {
            out.push(Opening {
                fen: None,
                moves: t.split_whitespace().map(str::to_string).collect(),
            });
        }
    }
    out
}

/// Runs a match; `progress` sees every game as it finishes (from the calling thread).
pub fn run_match(
    config: &MatchConfig,
    mut progress: impl FnMut(&GameResult, &MatchSummary),
) -> Result<MatchSummary, String> {
    if config.openings.is_empty() {
        return Err("no openings".into());
    }
    if let Some(dir) = &config.out_dir {
        create_dir(dir)?;
    }
    let workers = config.concurrency.clamp(1, 64).min(config.games.max(1));
    prepare_logs(config, workers)?;
    // Both engines must start before workers are committed to them; the first worker
    // plays with these.
    let mut first = [None, None];
    for (e, slot) in first.iter_mut().enumerate() {
        *slot = Some(start_engine(config, e, 0)?);
    }
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = channel::<Result<GameResult, String>>();
    let config = Arc::new(config.clone());
    let mut handles = Vec::new();
    for worker in 0..workers {
        let engines = std::mem::take(&mut first);
        let next = Arc::clone(&next);
        let tx = tx.clone();
        let config = Arc::clone(&config);
        handles.push(std::thread::spawn(move || {
            play_games(&config, worker, engines, &next, &tx);
        }));
    }
    drop(tx);
    let summary = collect_results(&config, rx, &next, &mut progress)?;
    for h in handles {
        let _ = h.join();
    }
    if summary.games() == 0 && !summary.failures().is_empty() {
        return Err(summary.failures().join("; "));
    }
    Ok(summary)
}

/// Starts engine `e` for worker `worker`, its error naming the engine.
fn start_engine(config: &MatchConfig, e: usize, worker: usize) -> Result<EngineProcess, String> {
    let spec = &config.engines[e];
    EngineProcess::start(spec, config.variant.id(), &engine_logs(config, e, worker))
        .map_err(|err| format!("{}: {err}", spec.name))
}

/// One worker: plays the next game not yet taken until none are left, sending each
/// result (or why it failed) back.
fn play_games(
    config: &MatchConfig,
    worker: usize,
    mut engines: [Option<EngineProcess>; 2],
    next: &AtomicUsize,
    tx: &std::sync::mpsc::Sender<Result<GameResult, String>>,
) {
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= config.games {
            break;
        }
        let result = play_game(config, index, worker, &mut engines)
            .map_err(|e| format!("game {}: {e}", index + 1));
        if tx.send(result).is_err() {
            break;
        }
    }
}

/// Tallies the games as they finish, writing their records, and stops handing out
/// games once an SPRT is decided.
fn collect_results(
    config: &MatchConfig,
    results: std::sync::mpsc::Receiver<Result<GameResult, String>>,
    next: &AtomicUsize,
    progress: &mut impl FnMut(&GameResult, &MatchSummary),
) -> Result<MatchSummary, String> {
    let mut summary = MatchSummary::new(
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    );
    if let Some(sprt) = config.sprt {
        summary = summary.with_sprt(sprt);
    }
    for result in results {
        let result = match result {
            Ok(result) => result,
            Err(why) => {
                summary.add_failure(why);
                continue;
            }
        };
        if let Some(dir) = &config.out_dir {
            let path = dir.join(format!("game-{:04}.txt", result.index + 1));
            write_file(&path, result.record.to_string().as_bytes())?;
        }
        summary.add(result.index, result.points(0));
        if summary.verdict().is_some() {
            // Decided: no new games. Those under way still finish and are counted.
            next.store(config.games, Ordering::Relaxed);
        }
        progress(&result, &summary);
    }
    Ok(summary)
}

/// Plays game `index`: opening `index / 2`, colours alternating.
fn play_game(
    config: &MatchConfig,
    index: usize,
    worker: usize,
    engines: &mut [Option<EngineProcess>; 2],
) -> Result<GameResult, String> {
    let opening = &config.openings[(index / 2) % config.openings.len()];
    let white = index % 2;
    let names = [&config.engines[0].name, &config.engines[1].name];
    ready_engines(config, worker, engines)?;
    let mut pos = opening_position(config, opening)?;
    let start_fen = opening.fen.clone();
    let engine_of = |side: Side| {
        if side == Side::White {
            white
        } else {
            1 - white
        }
    };
    // Each engine's own clock, by engine (not by side).
    let mut clocks = config.time.map(Clock::new);
    let mut claims = [ResignClaim::default(); 2];
    let mut lan: Vec<String> = opening.moves.clone();
    let outcome = loop {
        if let Some(o) = pos.outcome() {
            break o;
        }
        if pos.ply_count() >= config.max_plies {
            break GameOutcome::draw(Termination::Adjudication);
        }
        let side = pos.turn();
        let e = engine_of(side);
        let engine = engines[e].as_mut().expect("started above");
        let (go, allowed) = go_command(
            &clocks[engine_of(Side::White)],
            &clocks[engine_of(Side::Black)],
            side,
        );
        engine
            .send(&position_command(start_fen.as_deref(), &lan))
            .map_err(|err| format!("{}: {err}", names[e]))?;
        let asked = Instant::now();
        let answer = match engine.go(&go, allowed) {
            Ok(a) => a,
            Err(EngineError::Timeout { .. }) => {
                // Forget this process: it may still be thinking.
                engines[e] = None;
                break GameOutcome::win(!side, Termination::Time);
            }
            Err(err) => {
                engines[e] = None;
                return Err(format!("{}: {err}", names[e]));
            }
        };
        if !clocks[e].charge(asked.elapsed()) {
            break GameOutcome::win(!side, Termination::Time);
        }
        let Ok(mv) = pos.parse_move(&answer.bestmove) else {
            break GameOutcome::win(!side, Termination::IllegalMove);
        };
        claims[e].update(answer.score, side, config.resign_score);
        lan.push(pos.move_to_lan(mv));
        pos.make_move(mv);
        if let Some(winner) = agreed_winner(&claims, config.resign_moves) {
            break GameOutcome::win(winner, Termination::Adjudication);
        }
    };
    let record = match_record(
        &pos,
        start_fen.as_deref(),
        index,
        [names[white], names[1 - white]],
        outcome,
    );
    Ok(GameResult {
        index,
        white,
        outcome,
        record,
    })
}

/// Tells both engines a new game starts, (re)starting any that is missing or no
/// longer answers.
fn ready_engines(
    config: &MatchConfig,
    worker: usize,
    engines: &mut [Option<EngineProcess>; 2],
) -> Result<(), String> {
    for (e, slot) in engines.iter_mut().enumerate() {
        let alive = match slot {
            Some(p) => p.send("ucinewgame").is_ok() && p.ready(Duration::from_secs(10)).is_ok(),
            None => false,
        };
        if !alive {
            // The old process goes first, so that its log ends before the new one's.
            *slot = None;
            *slot = Some(start_engine(config, e, worker)?);
        }
    }
    Ok(())
}

/// The position after the opening's moves.
fn opening_position(config: &MatchConfig, opening: &Opening) -> Result<Position, String> {
    let mut pos = match &opening.fen {
        Some(f) => Position::from_fen(Arc::clone(&config.variant), f)
            .map_err(|e| format!("opening FEN: {e}"))?,
        None => Position::start(Arc::clone(&config.variant)),
    };
    for m in &opening.moves {
        let mv = pos.parse_move(m).map_err(|e| format!("opening: {e}"))?;
        pos.make_move(mv);
    }
    Ok(pos)
}

/// `position startpos|fen ... [moves ...]` for the game so far.
fn position_command(start_fen: Option<&str>, lan: &[String]) -> String {
    let setup = match start_fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".to_string(),
    };
    if lan.is_empty() {
        setup
    } else {
        format!("{setup} moves {}", lan.join(" "))
    }
}

/// One engine's clock through a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Clock {
    control: TimeControl,
    /// The time left on it; under a fixed time per move, that time.
    left: Duration,
}

impl Clock {
    /// The clock at the start of a game.
    fn new(control: TimeControl) -> Clock {
        let left = match control {
            TimeControl::MoveTime(t) => t,
            TimeControl::Clock { base, .. } => base,
        };
        Clock { control, left }
    }

    /// What each move adds (nothing under a fixed time per move).
    fn increment(&self) -> Duration {
        match self.control {
            TimeControl::Clock { increment, .. } => increment,
            TimeControl::MoveTime(_) => Duration::ZERO,
        }
    }

    /// Takes the time a move took off the clock and adds the increment; false when the
    /// clock ran out (under a fixed time per move, never).
    fn charge(&mut self, spent: Duration) -> bool {
        if let TimeControl::Clock { increment, .. } = self.control {
            if spent > self.left {
                return false;
            }
            self.left = self.left - spent + increment;
        }
        true
    }
}

/// The `go` line for the side to move, given the clocks of the engines playing White
/// and Black, and how long to wait for its answer before it loses on time. An engine on
/// a clock is told both clocks, each with its own increment; an opponent with a fixed
/// time per move shows that time as its clock, as cutechess does.
fn go_command(white: &Clock, black: &Clock, side: Side) -> (String, Duration) {
    let mover = if side == Side::White { white } else { black };
    match mover.control {
        TimeControl::MoveTime(t) => (
            format!("go movetime {}", t.as_millis()),
            t * 3 + Duration::from_secs(2),
        ),
        TimeControl::Clock { .. } => (
            format!(
                "go wtime {} btime {} winc {} binc {}",
                white.left.as_millis(),
                black.left.as_millis(),
                white.increment().as_millis(),
                black.increment().as_millis()
            ),
            mover.left + Duration::from_secs(1),
        ),
    }
}

/// The winner an engine's scores claim, and for how many of its moves in a row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ResignClaim {
    /// +1 White, -1 Black, 0 none.
    winner: i32,
    moves: usize,
}

impl ResignClaim {
    /// Counts one more move's score (from the mover's view, the mover being `side`).
    fn update(&mut self, score: Option<Score>, side: Side, resign_score: i32) {
        let decisive = match score {
            Some(Score::Mate(m)) => Some(m.signum()),
            Some(Score::Cp(c)) if c.abs() >= resign_score => Some(c.signum()),
            _ => None,
        };
        *self = match decisive.map(|s| if side == Side::White { s } else { -s }) {
            Some(v) if self.winner == v => ResignClaim {
                winner: v,
                moves: self.moves + 1,
            },
            Some(v) => ResignClaim {
                winner: v,
                moves: 1,
            },
            None => ResignClaim::default(),
        };
    }
}

/// Resign adjudication: both engines claim the same winner, each for `resign_moves`
/// moves running (never when `resign_moves` is 0).
fn agreed_winner(claims: &[ResignClaim; 2], resign_moves: usize) -> Option<Side> {
    let agreed = claims[0].winner != 0 && claims[0].winner == claims[1].winner;
    if resign_moves > 0 && agreed && claims.iter().all(|c| c.moves >= resign_moves) {
        Some(if claims[0].winner > 0 {
            Side::White
        } else {
            Side::Black
        })
    } else {
        None
    }
}

/// The game's record with the match's tags: White's and Black's names in `names`.
fn match_record(
    pos: &Position,
    start_fen: Option<&str>,
    index: usize,
    names: [&String; 2],
    outcome: GameOutcome,
) -> PgnGame {
    let mut r = PgnGame::from_position(
        pos,
        start_fen,
        &[
            ("Event", "hexchess-engine match".to_string()),
            ("Round", (index + 1).to_string()),
            ("White", names[0].clone()),
            ("Black", names[1].clone()),
        ],
    );
    r.set_outcome(&outcome);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_engines_must_claim_the_same_winner_long_enough_to_adjudicate() {
        let mut claims = [ResignClaim::default(); 2];
        // White's engine (index 0) sees White winning by 900; Black's engine, to move
        // as Black, sees itself losing by 900: both claim White.
        for _ in 0..2 {
            claims[0].update(Some(Score::Cp(900)), Side::White, 600);
            claims[1].update(Some(Score::Cp(-900)), Side::Black, 600);
        }
        assert_eq!(agreed_winner(&claims, 3), None, "two moves are not three");
        assert_eq!(agreed_winner(&claims, 2), Some(Side::White));
        assert_eq!(agreed_winner(&claims, 0), None, "0 switches it off");
        // A quiet score breaks the run.
        claims[1].update(Some(Score::Cp(-100)), Side::Black, 600);
        assert_eq!(claims[1], ResignClaim::default());
        assert_eq!(agreed_winner(&claims, 1), None);
        // A mate claims at once, for the side it favours.
        claims[0].update(Some(Score::Mate(-3)), Side::White, 600);
        claims[1].update(Some(Score::Mate(2)), Side::Black, 600);
        assert_eq!(agreed_winner(&claims, 1), Some(Side::Black));
    }

    #[test]
    fn each_engine_and_worker_has_its_own_log_files() {
        let logs = LogConfig {
            dir: PathBuf::from("L"),
            io: true,
        };
        let files = logs.files(["new build", "old/v1"], 0, 1);
        assert_eq!(
            files.stderr,
            Some(Path::new("L").join("new_build-2.stderr.log"))
        );
        assert_eq!(files.io, Some(Path::new("L").join("new_build-2.io.log")));
        let files = logs.files(["new build", "old/v1"], 1, 0);
        assert_eq!(
            files.stderr,
            Some(Path::new("L").join("old_v1-1.stderr.log"))
        );
        // Two engines of one name do not share a file.
        let files = logs.files(["e", "e"], 1, 0);
        assert_eq!(files.stderr, Some(Path::new("L").join("e.2-1.stderr.log")));
        let logs = LogConfig { io: false, ..logs };
        assert_eq!(logs.files(["a", "b"], 0, 0).io, None);
    }

    fn clock(base_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl::Clock {
            base: Duration::from_millis(base_ms),
            increment: Duration::from_millis(increment_ms),
        }
    }

    #[test]
    fn each_engines_clock_loses_its_time_spent_and_gains_its_own_increment() {
        // Time odds: 10+1 against 5+0.
        let mut clocks = [clock(10_000, 1_000), clock(5_000, 0)].map(Clock::new);
        assert_eq!(clocks[0].left, Duration::from_secs(10));
        assert_eq!(clocks[1].left, Duration::from_secs(5));
        assert!(clocks[0].charge(Duration::from_secs(4)));
        assert!(clocks[1].charge(Duration::from_secs(4)));
        // 10 - 4 + 1 and 5 - 4 + 0.
        assert_eq!(clocks[0].left, Duration::from_secs(7));
        assert_eq!(clocks[1].left, Duration::from_secs(1));
        // Two seconds more than the one left: lost, and the clock is left as it was.
        assert!(!clocks[1].charge(Duration::from_secs(2)));
        assert_eq!(clocks[1].left, Duration::from_secs(1));
        // A fixed time per move is never charged.
        let mut per_move = Clock::new(TimeControl::MoveTime(Duration::from_millis(100)));
        assert!(per_move.charge(Duration::from_secs(99)));
        assert_eq!(per_move.left, Duration::from_millis(100));
    }

    #[test]
    fn each_engine_is_told_its_own_clock_and_the_opponents() {
        let mut white = Clock::new(clock(60_000, 500));
        let mut black = Clock::new(clock(30_000, 100));
        white.left = Duration::from_secs(30);
        black.left = Duration::from_secs(20);
        let (go, allowed) = go_command(&white, &black, Side::Black);
        assert_eq!(go, "go wtime 30000 btime 20000 winc 500 binc 100");
        assert_eq!(
            allowed,
            Duration::from_secs(21),
            "Black's 20 s and a second"
        );
        let (_, allowed) = go_command(&white, &black, Side::White);
        assert_eq!(allowed, Duration::from_secs(31));
        // A fixed time per move against a clock: each is told its own kind.
        let per_move = Clock::new(TimeControl::MoveTime(Duration::from_millis(100)));
        let (go, allowed) = go_command(&per_move, &black, Side::White);
        assert_eq!(go, "go movetime 100");
        assert_eq!(allowed, Duration::from_millis(2300));
        let (go, _) = go_command(&per_move, &black, Side::Black);
        assert_eq!(go, "go wtime 100 btime 20000 winc 0 binc 100");
    }

    #[test]
    fn time_controls_are_read_and_checked() {
        assert_eq!("10+0.1".parse(), Ok(clock(10_000, 100)));
        assert_eq!(" 60 ".parse(), Ok(clock(60_000, 0)));
        assert_eq!("0.5+0".parse(), Ok(clock(500, 0)));
        for bad in ["ten", "10+", "10+0.1+1", ""] {
            assert_eq!(
                bad.parse::<TimeControl>(),
                Err(TimeControlError::Format(bad.into())),
                "{bad}"
            );
        }
        // Parsed as numbers, but no clock: an empty one, a negative or endless time.
        for bad in [
            "0+1", "-5+0", "10+-1", "nan", "inf+0", "1e300", "86401", "60+86401",
        ] {
            assert_eq!(
                bad.parse::<TimeControl>(),
                Err(TimeControlError::Range(bad.into())),
                "{bad}"
            );
        }
        let err = "ten".parse::<TimeControl>().unwrap_err().to_string();
        assert!(err.contains("BASE+INC"), "{err}");
    }

    /// The openings as the first version found them: each new one compared with every
    /// one found before (quadratic in the count).
    fn openings_by_scan(rules: &Arc<Rules>, count: usize, plies: usize, seed: u64) -> Vec<Opening> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out: Vec<Opening> = Vec::new();
        let mut attempts = 0;
        while out.len() < count && attempts < count * 50 {
            attempts += 1;
            if let Some(o) = random_opening(rules, plies, &mut rng)
                && !out.contains(&o)
            {
                out.push(o);
            }
        }
        out
    }

    #[test]
    fn openings_found_through_a_set_are_those_a_scan_finds() {
        let catalog = hexchess_core::Catalog::builtin();
        let rules = catalog.get("glinski").unwrap().two_player_rules().unwrap();
        // Many, few of one ply (the variant has some fifty), and the start alone.
        for (count, plies, seed) in [(300, 4, 1), (60, 1, 7), (3, 0, 2)] {
            let found = random_openings(&rules, count, plies, seed);
            assert_eq!(
                found,
                openings_by_scan(&rules, count, plies, seed),
                "{count} of {plies}"
            );
            let distinct: HashSet<&Opening> = found.iter().collect();
            assert_eq!(distinct.len(), found.len());
        }
        assert_eq!(random_openings(&rules, 300, 4, 1).len(), 300);
        assert_eq!(random_openings(&rules, 3, 0, 2).len(), 1);
    }

    #[test]
    fn the_engines_are_told_the_whole_game() {
        assert_eq!(position_command(None, &[]), "position startpos");
        let moves = vec!["f5f6".to_string(), "c7c5".to_string()];
        assert_eq!(
            position_command(Some("K/8 w - 0 1"), &moves),
            "position fen K/8 w - 0 1 moves f5f6 c7c5"
        );
    }
}
