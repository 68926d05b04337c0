//! The engine's UCI-style text protocol, one command per line: each line parses into a
//! [`Command`] ([`command`]), then runs; every option is one row of the table in
//! [`options`], which `uci` prints and `setoption` applies.
//!
//! Input is read as bytes ([`input`]): a line that is not UTF-8, has a NUL byte or is
//! longer than [`MAX_LINE_BYTES`] is refused on its own. Searches, counts (`go perft`)
//! and benches run on their own thread (the `work` module for the last two), so `stop`,
//! `isready` and `quit` are answered at once. Bad input never changes state: a
//! malformed FEN or an illegal move answers `info string error: ...` and the previous
//! position stays.
//!
//! One [`Game`] holds the game `position` sets, of two sides or more; `go` hands it to
//! the engine ([`crate::engine::Engine`]), which picks the search. The commands branch
//! only where the number of sides changes what they show: how `go` answers (the
//! `search` module), what `go perft` counts (moves or whole turns) and what `d` shows.

pub mod command;
pub mod input;
pub mod options;
mod search;
mod show;
mod work;

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub use command::{
    Command, CommandError, Go, MAX_BENCH_DEPTH, MAX_GO_MILLIS, MAX_GO_NODES, MAX_PERFT_DEPTH, Start,
};
pub use options::{EngineOption, MAX_HASH_MB, OptionType};

use crate::engine::{self as facade, Question};
use crate::{Ponder, Progress, ProgressSink, Skill, TablebaseShelf, Tablebases};
use hexchess_core::catalog::{Catalog, CatalogEntry};
use hexchess_core::game::{Draws, Game, StartError, TurnError};
use hexchess_core::position::Position;
use hexchess_files::Files;
use options::Effect;

/// Whether the protocol loop should go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`: stop reading.
    Quit,
}

/// Where replies go; shared with the search thread.
pub type SharedOut = Arc<Mutex<dyn Write + Send>>;

/// The longest line the protocol reads: a `position ... moves` line of a game of
/// hundreds of thousands of plies fits; a longer one is refused (and not kept in memory).
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// How long a search runs before it reports the root move it is on and provisional
/// scores: a GUI has no use for them in a quick search.
const PROGRESS_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// Protocol state: the variants, the current variant and game, the searcher.
pub struct Engine {
    /// The variants the engine was started with; `VariantPath` adds to a copy.
    base_catalog: Catalog,
    catalog: Catalog,
    /// The variant played: its rules on the wide cell sets (the game's) and, for two
    /// sides, on the narrow ones the two-player search, perft and tables run on.
    variant: CatalogEntry,
    /// The game `position` set (or the variant's start), of any number of sides. Its
    /// draws by rule are the GUI's to call ([`Draws::Called`]): a GUI may go on past
    /// a repetition, and the engine takes the moves it sends.
    game: Game,
    out: SharedOut,
    /// The engine (its options, strategy and hash table) while no search has it.
    core: Option<facade::Engine>,
    /// The search `go` started, until it is stopped or waited for.
    thinking: Option<facade::Thinking>,
    /// Endgame tables: whether to read them, from where (`None`: the per-user data
    /// folder), and those read so far.
    use_tables: bool,
    table_dir: Option<PathBuf>,
    shelf: TablebaseShelf,
    /// Where its files are: a disk, or a browser worker's store.
    files: Files,
    /// The strength chosen with `Skill` / `Skill Level`.
    chosen_skill: Skill,
    /// `UCI_LimitStrength`: play at the level of `UCI_Elo` instead.
    limit_strength: bool,
    elo: u32,
    /// `UCI_ShowWDL`: add the chances of a win, draw and loss to each score.
    show_wdl: bool,
    /// A count or bench running on its own thread.
    task: Option<work::Task>,
}

/// Writes one line to the shared output, ignoring a closed pipe (nothing to tell).
fn say(out: &SharedOut, line: impl AsRef<str>) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{}", line.as_ref());
    let _ = w.flush();
}

/// The most characters of an error message sent back: a refused line may be long,
/// and a GUI's log needs the start of it.
const MAX_ERROR_CHARS: usize = 1000;

fn error(out: &SharedOut, message: impl AsRef<str>) {
    say(
        out,
        format!("info string error: {}", printable(message.as_ref())),
    );
}

/// `text` as one line of plain text: control characters (an echoed word of a refused
/// line may hold any) written as `\u{..}` escapes, cut at [`MAX_ERROR_CHARS`].
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_ERROR_CHARS));
    for (i, c) in text.chars().enumerate() {
        if i == MAX_ERROR_CHARS {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

impl Engine {
    /// Where the engine reads its files (variant folders, endgame tables).
    pub fn files(&self) -> &Files {
        &self.files
    }

    /// An engine over a catalog, playing its first variant (Gliński for the built-ins);
    /// `VariantPath`'s folders and the endgame tables are read from `files`.
    pub fn new(catalog: Catalog, files: Files, out: SharedOut) -> Engine {
        let variant = catalog
            .entries()
            .iter()
            .find(|e| e.two_player_rules().is_some())
            .cloned()
            .expect("the built-in variants always load");
        Engine {
            base_catalog: catalog.clone(),
            catalog,
            game: start_of(&variant),
            variant,
            out,
            core: Some(facade::Engine::default()),
            thinking: None,
            use_tables: true,
            table_dir: None,
            shelf: TablebaseShelf::new(files.clone()),
            files,
            chosen_skill: Skill::FULL,
            limit_strength: false,
            elo: options::DEFAULT_ELO,
            show_wdl: false,
            task: None,
        }
    }

    /// The game as `position` set it (or the variant's start).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game's position on the narrow cell sets, as the two-player search is given
    /// it (with the game's history, for repetitions); `None` in a game of more sides.
    pub fn position(&self) -> Option<Position> {
        let rules = self.variant.two_player_rules()?;
        Some(self.game.position_on(rules))
    }

    /// The variants it knows (those it started with, and `VariantPath`'s).
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The level the next search plays at (`Skill`, or `UCI_Elo`'s while strength is
    /// limited).
    pub fn skill(&mut self) -> Skill {
        self.core().options().skill
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.thinking.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Stops a running search (and waits for its `bestmove`), count or bench.
    pub fn stop(&mut self) {
        if let Some(task) = self.task.take() {
            task.stop();
        }
        if let Some(thinking) = self.thinking.take() {
            thinking.stop();
            self.core = Some(thinking.join().0);
        }
    }

    /// Waits for a running search (until its `bestmove`), count or bench to finish on
    /// its own.
    pub fn wait(&mut self) {
        if let Some(task) = self.task.take() {
            task.wait();
        }
        if let Some(thinking) = self.thinking.take() {
            self.core = Some(thinking.join().0);
        }
    }

    /// The end of the input: a count or bench finishes (a script that pipes
    /// `go perft 5` in gets its count), then a search stops as at `quit`.
    pub fn finish(&mut self) {
        if let Some(task) = self.task.take() {
            task.wait();
        }
        self.stop();
    }

    /// The engine, waiting for a search that has it first (setting an option stops the
    /// search before it gets here).
    fn core(&mut self) -> &mut facade::Engine {
        if self.core.is_none() {
            self.stop();
        }
        self.core.get_or_insert_with(facade::Engine::default)
    }

    /// Handles one line of input: parses it, then runs it. A line that does not parse
    /// is answered with `info string error: ...` and changes nothing.
    pub fn handle(&mut self, line: &str) -> Flow {
        match Command::parse(line) {
            Ok(Some(command)) => self.run(command),
            Ok(None) => Flow::Continue,
            Err(e) => {
                error(&self.out, e.to_string());
                Flow::Continue
            }
        }
    }

    /// Runs one command.
    pub fn run(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.uci(),
            Command::IsReady => say(&self.out, "readyok"),
            Command::NewGame => {
                self.stop();
                self.core().clear();
                self.game = start_of(&self.variant);
            }
            Command::SetOption { name, value } => self.setoption(&name, &value),
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(go) => self.go(go),
            Command::PonderHit => {
                // A hit after the search ended (or for no search) changes nothing.
                if let Some(t) = &self.thinking {
                    t.ponder_hit();
                }
            }
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => self.stop(),
            Command::Bench(depth) => self.bench(depth),
            Command::Display => self.display(),
            Command::Quit => {
                self.stop();
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// The option table for the current variant.
    fn options(&self) -> Vec<EngineOption> {
        options::table(self.variant.rules().id(), &self.variant_ids())
    }

    fn uci(&self) {
        let o = &self.out;
        say(
            o,
            format!("id name hexchess-engine {}", env!("CARGO_PKG_VERSION")),
        );
        say(o, "id author the hexchess developers");
        for option in self.options() {
            say(o, option.uci_line());
        }
        say(o, "uciok");
    }

    fn setoption(&mut self, name: &str, value: &str) {
        self.stop();
        let table = self.options();
        let Some(option) = options::find(&table, name) else {
            return error(&self.out, format!("unknown option '{name}'"));
        };
        match option.effect {
            Effect::Variant => return self.set_variant(value),
            Effect::Hash => return self.set_hash(name, value),
            Effect::ClearHash => {
                self.core().clear();
                return;
            }
            Effect::MultiSearch => {
                return match value.parse() {
                    Ok(s) => self.core().set_strategy(s),
                    Err(e) => error(&self.out, format!("{name}: {e}")),
                };
            }
            Effect::UseTablebases => {
                return match value.to_ascii_lowercase().as_str() {
                    "true" => self.use_tables = true,
                    "false" => self.use_tables = false,
                    _ => error(&self.out, format!("{name}: expected true or false")),
                };
            }
            Effect::TablebasePath => {
                self.table_dir = Some(value.trim())
                    .filter(|v| !v.is_empty() && *v != "<empty>")
                    .map(PathBuf::from);
                return;
            }
            Effect::VariantPath => return self.set_variant_path(value),
            Effect::Ponder => {
                // Pondering is the GUI's to start (`go ponder`); the option only says
                // the engine can.
                if let Err(e) = options::parse_check(value) {
                    error(&self.out, e.message(name, value));
                }
                return;
            }
            Effect::ShowWdl => {
                return match options::parse_check(value) {
                    Ok(on) => self.show_wdl = on,
                    Err(e) => error(&self.out, e.message(name, value)),
                };
            }
            Effect::Skill | Effect::LimitStrength | Effect::Elo => {
                return match self.set_strength(option.effect, value) {
                    Ok(()) => {}
                    Err(e) => error(&self.out, e.message(name, value)),
                };
            }
            _ => {}
        }
        let mut search_options = *self.core().options();
        match options::apply(option.effect, value, &mut search_options) {
            Ok(()) => self.core().set_options(search_options),
            Err(e) => error(&self.out, e.message(name, value)),
        }
    }

    /// `Hash`: a table of the size asked for, or, when the system refuses that much
    /// memory, an error and the table there was.
    fn set_hash(&mut self, name: &str, value: &str) {
        let mut wanted = *self.core().options();
        if let Err(e) = options::apply(Effect::Hash, value, &mut wanted) {
            return error(&self.out, e.message(name, value));
        }
        let kept = self.core().hash_mb();
        if let Err(e) = self.core().set_hash(wanted.hash_mb) {
            error(
                &self.out,
                format!("{name}: {e}; the table stays at {kept} MB"),
            );
        }
    }

    /// `Skill`, `UCI_LimitStrength` or `UCI_Elo`: the level searched is the one chosen,
    /// or while strength is limited the strongest whose Elo is at most `UCI_Elo`
    /// ([`Skill::for_elo`]), as other engines let a limited strength win over a level.
    fn set_strength(&mut self, effect: Effect, value: &str) -> Result<(), options::OptionError> {
        match effect {
            Effect::Skill => {
                self.chosen_skill = value
                    .parse()
                    .map_err(|e: crate::SkillError| options::OptionError::Refused(e.to_string()))?
            }
            Effect::LimitStrength => self.limit_strength = options::parse_check(value)?,
            _ => self.elo = options::parse_elo(value)?,
        }
        let skill = if self.limit_strength {
            Skill::for_elo(self.elo)
        } else {
            self.chosen_skill
        };
        let mut search_options = *self.core().options();
        search_options.skill = skill;
        self.core().set_options(search_options);
        Ok(())
    }

    /// `VariantPath`: the engine's variants are those it started with plus every file
    /// of these folders (separated as the platform separates paths: `:` or `;`). A file
    /// that cannot be played is reported with its line and column; the others load.
    fn set_variant_path(&mut self, value: &str) {
        let value = value.trim();
        let mut catalog = self.base_catalog.clone();
        let known = catalog.errors().len();
        if !value.is_empty() && value != "<empty>" {
            for dir in folders_of(value, &self.files) {
                if self.files.list_dir(&dir).is_err() {
                    error(
                        &self.out,
                        format!("VariantPath: no folder '{}'", dir.display()),
                    );
                    continue;
                }
                hexchess_files::variants::load_dir(&self.files, &mut catalog, &dir);
            }
        }
        for e in &catalog.errors()[known.min(catalog.errors().len())..] {
            error(&self.out, format!("variant file left out: {e}"));
        }
        self.catalog = catalog;
    }

    /// Plays another variant, of any number of sides, from its start.
    fn set_variant(&mut self, id: &str) {
        let Some(entry) = self.catalog.get(id).cloned() else {
            return error(
                &self.out,
                format!(
                    "unknown variant '{id}'; known: {}",
                    self.variant_ids().join(", ")
                ),
            );
        };
        self.stop();
        self.game = start_of(&entry);
        self.variant = entry;
    }

    /// Every variant the engine plays.
    fn variant_ids(&self) -> Vec<&str> {
        self.catalog.ids()
    }

    /// `position`: the game from the start or a FEN after the moves (whole turns in a
    /// game of more sides), or, when the game refuses one, an error and the game there
    /// was.
    fn set_position(&mut self, start: &Start, moves: &[String]) {
        let fen = match start {
            Start::StartPos => None,
            Start::Fen(fen) => Some(fen.as_str()),
        };
        let rules = Arc::clone(self.variant.rules());
        match Game::from_moves_with(rules, fen, moves, Draws::Called) {
            Ok(game) => {
                self.stop();
                self.game = game;
            }
            Err(e) => error(&self.out, refusal(&e, self.variant.side_count() > 2)),
        }
    }

    /// `go`: the engine's search of the game within the limits, among the moves (or
    /// turns) of `searchmoves` if it names any (one the game does not allow here is an
    /// error, and nothing is searched).
    fn go(&mut self, go: Go) {
        self.stop();
        if crate::job::RUNS_IN_PLACE && (go.ponder || !go.limits.ends_by_itself()) {
            return error(
                &self.out,
                "this build searches in place (no threads), so no stop can reach a search: \
                 give go a depth, nodes, movetime or clock, without infinite or ponder",
            );
        }
        let only = match facade::read_turns(&self.game, &go.searchmoves) {
            Ok(only) => only,
            Err(e) => return error(&self.out, format!("searchmoves {e}; no search")),
        };
        let mut limits = go.limits;
        if go.ponder {
            limits.ponder = Some(Ponder::new());
        }
        let question =
            Question::new(self.game.clone(), self.variant.two_player_rules(), limits).only(only);
        if let Some(pos) = question.position() {
            let tables = self.tables_for_position(pos);
            let sink = self.progress_sink(pos);
            let core = self.core();
            core.set_tablebases(tables);
            core.set_progress(Some(sink));
        }
        let core = self.core.take().unwrap_or_default();
        let (options, strategy) = (*core.options(), core.strategy());
        let show_wdl = self.show_wdl;
        let info_out = Arc::clone(&self.out);
        let done_out = Arc::clone(&self.out);
        let started = core.go(
            question,
            move |pos, info| say(&info_out, info.to_uci_with(pos, show_wdl)),
            move |question, answer| {
                for line in search::answer_lines(question.game(), answer, strategy) {
                    say(&done_out, line);
                }
            },
        );
        match started {
            Ok(thinking) => self.thinking = Some(thinking),
            Err(e) => {
                // The engine went with the thread that did not start: a new one with
                // the same options.
                let mut fresh = facade::Engine::new(options);
                fresh.set_strategy(strategy);
                self.core = Some(fresh);
                error(
                    &self.out,
                    format!("cannot start a thread for the search: {e}"),
                );
            }
        }
    }

    /// A copy of the game whose draws by rule end it again: a search or a count judges
    /// the lines ahead as the rules do (as the two-player search does on its position),
    /// whatever the GUI called before.
    fn game_by_rule(&self) -> Game {
        let mut game = self.game.clone();
        game.set_draws(Draws::ByRule);
        game
    }

    /// Where a search on the protocol reports its root moves and provisional scores.
    fn progress_sink(&self, root: &Position) -> ProgressSink {
        let out = Arc::clone(&self.out);
        let root = root.clone();
        let show_wdl = self.show_wdl;
        ProgressSink {
            after: PROGRESS_AFTER,
            report: Box::new(move |progress| match progress {
                Progress::CurrMove { depth, mv, number } => say(
                    &out,
                    format!(
                        "info depth {depth} currmove {} currmovenumber {number}",
                        root.move_to_lan(*mv)
                    ),
                ),
                Progress::Bound(info) => say(&out, info.to_uci_with(&root, show_wdl)),
            }),
        }
    }

    /// The endgame tables `pos` can reach, read from the table folder (each file once);
    /// files that cannot be used are reported and left out.
    fn tables_for_position(&mut self, pos: &Position) -> Arc<Tablebases> {
        if !self.use_tables {
            return Arc::new(Tablebases::none());
        }
        let Some(dir) = self
            .table_dir
            .clone()
            .or_else(|| hexchess_tablebase::default_dir(&self.files))
        else {
            return Arc::new(Tablebases::none());
        };
        let (tables, errors) = self.shelf.for_position(&dir, pos);
        for e in errors {
            error(&self.out, format!("endgame table left out: {e}"));
        }
        Arc::new(tables)
    }

    /// `go perft`: the moves of the game's narrow position, or the whole turns of a
    /// game of more sides, counted on their own thread (see [`work`]).
    fn perft(&mut self, depth: u32) {
        self.stop();
        let out = Arc::clone(&self.out);
        let started = match self.position() {
            Some(pos) => work::Task::start("hexchess-perft", move |stop| {
                say(&out, work::perft(pos, depth, stop))
            }),
            None => {
                let game = self.game_by_rule();
                work::Task::start("hexchess-perft", move |stop| {
                    say(&out, work::count_turns(&game, depth, stop))
                })
            }
        };
        self.start_task(started);
    }

    /// `bench`: run on its own thread (see [`work`]).
    fn bench(&mut self, depth: u32) {
        self.stop();
        let out = Arc::clone(&self.out);
        let started =
            work::Task::start("hexchess-bench", move |stop| work::bench(&out, depth, stop));
        self.start_task(started);
    }

    fn start_task(&mut self, started: io::Result<work::Task>) {
        match started {
            Ok(task) => self.task = Some(task),
            Err(e) => error(&self.out, format!("cannot start a thread for it: {e}")),
        }
    }

    /// `d`: the board, the FEN, and what the number of sides makes worth showing.
    fn display(&self) {
        let text = match self.position() {
            Some(pos) => show::two_sides(&pos),
            None => show::more_sides(&self.game),
        };
        say(&self.out, text);
    }
}

/// The variant's start as the protocol keeps a game: its draws the GUI's to call.
/// The folders of a `VariantPath` value: separated as the platform separates paths,
/// or by `:` where files are a page store's (a browser's worker, whose platform has
/// no paths to split).
fn folders_of(value: &str, files: &Files) -> Vec<std::path::PathBuf> {
    if files.store().is_some() {
        return value.split(':').map(std::path::PathBuf::from).collect();
    }
    std::env::split_paths(value).collect()
}

fn start_of(variant: &CatalogEntry) -> Game {
    let rules = Arc::clone(variant.rules());
    let no_moves: &[&str] = &[];
    match Game::from_moves_with(Arc::clone(&rules), None, no_moves, Draws::Called) {
        Ok(game) => game,
        // Without a FEN or a move there is nothing to refuse.
        Err(_) => Game::new(rules),
    }
}

/// What `position` answers when the game refuses it: the FEN's fault, or the move
/// refused and how many before it were good. A two-player move's own error names it
/// (`'e7e5' is not a legal move here`); a turn of more sides, whose error may name one
/// step of it, and an error that names no move (the game is over) are named first.
fn refusal(e: &StartError, more_sides: bool) -> String {
    let StartError::Turn {
        number,
        text,
        error,
    } = e
    else {
        return e.to_string();
    };
    let good = number - 1;
    let unit = if more_sides { "turns" } else { "moves" };
    let named = match error {
        TurnError::Step(e) if !more_sides => e.to_string(),
        _ => format!("{text}: {error}"),
    };
    format!("{named} (after {good} {unit}); position unchanged")
}

/// Reads stdin line by line until `quit` or end of input, writing to stdout.
pub fn run_stdio(catalog: Catalog, files: Files) -> io::Result<()> {
    let out: SharedOut = Arc::new(Mutex::new(io::stdout()));
    let mut engine = Engine::new(catalog, files, out);
    run(&mut engine, io::stdin().lock())
}

/// Reads commands from `input` line by line until `quit` or its end (see [`input`] for
/// what a line is and which are refused). An error only when reading itself fails.
pub fn run(engine: &mut Engine, input: impl io::BufRead) -> io::Result<()> {
    let mut lines = input::Lines::new(input, MAX_LINE_BYTES);
    loop {
        match lines.next_line()? {
            input::Input::Line(line) => {
                if engine.handle(&line) == Flow::Quit {
                    return Ok(());
                }
            }
            input::Input::Refused(why) => error(&engine.out, why),
            input::Input::End => {
                engine.finish();
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{EvalMode, EvalTerms, EvalWeights};

    struct Session {
        engine: Engine,
        buffer: Arc<Mutex<Vec<u8>>>,
    }

    impl Session {
        fn new() -> Session {
            let buffer = Arc::new(Mutex::new(Vec::new()));
            let out: SharedOut = buffer.clone();
            Session {
                engine: Engine::new(Catalog::builtin(), Files::disk(), out),
                buffer,
            }
        }

        /// Sends a line; returns what was written since the last call.
        fn send(&mut self, line: &str) -> String {
            self.engine.handle(line);
            self.take()
        }

        /// Sends a line and waits for the work it starts (a count, a search) to end.
        fn send_and_wait(&mut self, line: &str) -> String {
            self.engine.handle(line);
            self.engine.wait();
            self.take()
        }

        fn take(&mut self) -> String {
            let mut b = self.buffer.lock().unwrap();
            String::from_utf8(std::mem::take(&mut *b)).unwrap()
        }

        /// Runs `go` to the end; returns everything it printed, after checking that
        /// the last line names a legal move.
        fn go_to_the_end(&mut self, go: &str) -> String {
            self.engine.handle(go);
            self.engine.wait();
            let reply = self.take();
            let best = reply
                .lines()
                .last()
                .and_then(|l| l.strip_prefix("bestmove "))
                .and_then(|l| l.split_whitespace().next())
                .unwrap_or_else(|| panic!("no bestmove last: {reply}"));
            assert!(
                self.engine.position().unwrap().parse_move(best).is_ok(),
                "{best}"
            );
            reply
        }
    }

    #[test]
    fn bad_input_reports_an_error_and_keeps_the_position() {
        let mut s = Session::new();
        s.send("position startpos moves f5f6");
        let before = s.engine.position().unwrap().to_fen();
        for bad in [
            "position fen 6/P5p/RP4pr w - 0 1",
            "position fen",
            "position startpos moves f6f8",
            "position startpos moves f5f6 zz99",
            "position banana",
            "go perft 0",
            "go perft x",
            "go depth",
            "go wtime soon",
            "setoption name UCI_Variant value nosuch",
            "setoption name Hash value 0",
            "setoption name Threads value 0",
            "setoption name Threads value 65",
            "setoption name Threads value two",
            "setoption name MultiPV value 0",
            "setoption name MultiPV value 65",
            "setoption name Skill value 21",
            "setoption name Skill value 0",
            "setoption name Colour value red",
            "frobnicate",
        ] {
            let reply = s.send(bad);
            assert!(reply.starts_with("info string error: "), "{bad}: {reply}");
            assert_eq!(
                s.engine.position().unwrap().to_fen(),
                before,
                "{bad} changed the position"
            );
        }
        assert_eq!(s.send("isready"), "readyok\n");
        // Words of `go` it does not know are passed over: the search runs.
        let reply = s.go_to_the_end("go sideways 3 depth 2");
        assert!(reply.contains("info depth 2 "), "{reply}");
    }

    #[test]
    fn techniques_and_evaluation_terms_switch_one_by_one() {
        let mut s = Session::new();
        let uci = s.send("uci");
        for name in [
            "Pruning",
            "NullMove",
            "Reductions",
            "Futility",
            "CheckExtension",
            "Aspiration",
            "Mobility",
            "KingAttack",
            "PawnShield",
            "PassedPawns",
        ] {
            assert!(
                uci.contains(&format!("option name {name} type check default true")),
                "{name}: {uci}"
            );
        }
        let options = |s: &mut Session| *s.engine.core().options();
        assert_eq!(s.send("setoption name NullMove value false"), "");
        assert_eq!(s.send("setoption name aspiration value false"), "");
        let t = options(&mut s).techniques;
        assert!(!t.null_move && !t.aspiration);
        assert!(t.reductions && t.futility && t.check_extension);
        s.send("setoption name Pruning value true");
        assert!(options(&mut s).techniques.null_move);
        s.send("setoption name Pruning value false");
        let t = options(&mut s).techniques;
        assert!(!t.null_move && !t.reductions && !t.futility && t.check_extension);

        assert_eq!(s.send("setoption name Mobility value false"), "");
        s.send("setoption name PassedPawns value false");
        let expected = EvalTerms::ALL
            .without(EvalTerms::MOBILITY)
            .without(EvalTerms::PASSED_PAWNS);
        assert_eq!(options(&mut s).eval, EvalMode::Terms(expected));
        s.send("setoption name Mobility value true");
        assert_eq!(
            options(&mut s).eval,
            EvalMode::Terms(expected.with(EvalTerms::MOBILITY))
        );

        // Bad values and a term of an evaluation that has none change nothing.
        let before = options(&mut s);
        for bad in [
            "setoption name NullMove value maybe",
            "setoption name KingAttack value 1",
        ] {
            let reply = s.send(bad);
            assert!(reply.starts_with("info string error: bad value"), "{reply}");
        }
        assert_eq!(options(&mut s), before);
        s.send("setoption name Eval value Material");
        let reply = s.send("setoption name PawnShield value false");
        assert!(reply.contains("set Eval to Full first"), "{reply}");
        assert_eq!(options(&mut s).eval, EvalMode::Material);
        s.send("setoption name Eval value Full");
        assert_eq!(options(&mut s).eval, EvalMode::FULL);
    }

    #[test]
    fn evaluation_weights_are_set_in_ron_and_bad_ones_change_nothing() {
        let mut s = Session::new();
        let uci = s.send("uci");
        let defaults = EvalWeights::default();
        assert!(uci.contains(&format!(
            "option name EvalWeights type string default {defaults}"
        )));
        // Weights left out keep their defaults.
        assert_eq!(
            s.send("setoption name EvalWeights value (shield: 20, passed: (5, 150))"),
            ""
        );
        let set = s.engine.core().options().weights;
        assert_eq!(
            set,
            EvalWeights {
                shield: 20,
                passed: [5, 150],
                ..defaults
            }
        );
        for bad in [
            "setoption name EvalWeights value (shield: many)",
            "setoption name EvalWeights value (colour: 3)",
            "setoption name EvalWeights value shield: 3",
        ] {
            let reply = s.send(bad);
            assert!(
                reply.starts_with("info string error: bad value"),
                "{bad}: {reply}"
            );
            assert_eq!(s.engine.core().options().weights, set, "{bad}");
        }
        // The printed defaults read back as the defaults.
        s.send(&format!("setoption name EvalWeights value {defaults}"));
        assert_eq!(s.engine.core().options().weights, defaults);
    }

    #[test]
    fn perft_lists_each_root_move_and_the_total() {
        let mut s = Session::new();
        s.send("setoption name UCI_Variant value mccooey");
        s.send("position startpos");
        let reply = s.send_and_wait("go perft 2");
        let lines: Vec<&str> = reply.lines().collect();
        assert_eq!(lines.last(), Some(&"Nodes searched: 947"));
        let moves: Vec<&&str> = lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .collect();
        assert_eq!(moves.len(), 31);
        let sum: u64 = moves
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, 947);
    }

    #[test]
    fn uci_lists_every_variant_and_option() {
        let mut s = Session::new();
        let reply = s.send("uci");
        assert!(
            reply.contains("var glinski var mccooey var grand var standard"),
            "{reply}"
        );
        assert!(reply.contains("option name Hash type spin"), "{reply}");
        assert!(
            reply.contains("option name Threads type spin default 1 min 1 max 64"),
            "{reply}"
        );
        assert!(
            reply.contains("option name MultiPV type spin default 1 min 1 max 64"),
            "{reply}"
        );
        assert!(reply.ends_with("uciok\n"));
        assert_eq!(s.engine.handle("quit"), Flow::Quit);
    }

    #[test]
    fn uci_prints_the_option_table_and_setoption_knows_every_row() {
        let mut s = Session::new();
        let reply = s.send("uci");
        let table = s.engine.options();
        let printed: Vec<&str> = reply
            .lines()
            .filter(|l| l.starts_with("option name "))
            .collect();
        assert_eq!(printed.len(), table.len());
        for (line, option) in printed.iter().zip(&table) {
            assert_eq!(*line, option.uci_line());
            assert!(
                !option.doc.is_empty(),
                "{} says what it changes",
                option.name
            );
        }
        // Every row but the variant takes its own default back without complaint.
        for option in &table {
            let default = match &option.kind {
                OptionType::Spin { default, .. } => default.to_string(),
                OptionType::Check { default } => default.to_string(),
                OptionType::Combo { default, .. } => default.clone(),
                OptionType::String { default } => default.clone(),
                OptionType::Button => String::new(),
            };
            let line = match option.kind {
                OptionType::Button => {
                    format!("setoption name {}", option.name.to_ascii_uppercase())
                }
                _ => format!(
                    "setoption name {} value {default}",
                    option.name.to_ascii_uppercase()
                ),
            };
            let reply = s.send(&line);
            assert_eq!(reply, "", "{}: {reply}", option.name);
        }
        assert_eq!(*s.engine.core().options(), crate::SearchOptions::default());
    }

    #[test]
    fn go_depth_reports_info_and_a_legal_bestmove() {
        let mut s = Session::new();
        s.send("position startpos moves f5f6");
        let reply = s.go_to_the_end("go depth 3");
        assert!(reply.contains("info depth 3 "), "{reply}");
    }

    #[test]
    fn hash_size_changes_take_effect() {
        let mut s = Session::new();
        s.send("setoption name Hash value 2");
        assert_eq!(s.engine.core().hash_mb(), 2);
        s.send("setoption name Hash value 32");
        assert_eq!(s.engine.core().hash_mb(), 32);
        // Not `send`: a search this short may finish (and print its bestmove) before
        // `send` would collect the output, which would then be lost to this check.
        s.engine.handle("go depth 2");
        s.engine.stop();
        assert!(s.take().contains("bestmove"));
    }

    #[test]
    fn threads_option_sets_the_search_threads() {
        let mut s = Session::new();
        assert_eq!(s.engine.core().options().threads, 1);
        s.send("setoption name Threads value 2");
        assert_eq!(s.engine.core().options().threads, 2);
        let reply = s.go_to_the_end("go depth 6");
        assert!(reply.contains("info depth 6 "), "{reply}");
    }

    #[test]
    fn multipv_reports_that_many_lines_best_first() {
        let mut s = Session::new();
        s.send("setoption name MultiPV value 3");
        let reply = s.go_to_the_end("go depth 5");
        let last: Vec<&str> = reply
            .lines()
            .filter(|l| l.starts_with("info depth 5 "))
            .collect();
        assert_eq!(last.len(), 3, "{reply}");
        let field = |line: &str, name: &str| -> String {
            let mut words = line.split_whitespace();
            words.find(|w| *w == name);
            words.next().unwrap_or_default().to_string()
        };
        let ranks: Vec<String> = last.iter().map(|l| field(l, "multipv")).collect();
        assert_eq!(ranks, ["1", "2", "3"], "{reply}");
        let scores: Vec<i32> = last
            .iter()
            .map(|l| field(l, "cp").parse().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{reply}");
        let firsts: Vec<String> = last.iter().map(|l| field(l, "pv")).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        let best = reply
            .lines()
            .last()
            .unwrap()
            .strip_prefix("bestmove ")
            .and_then(|l| l.split_whitespace().next())
            .unwrap();
        assert_eq!(best, firsts[0], "{reply}");
        // One line again: no multipv field.
        s.send("setoption name MultiPV value 1");
        let reply = s.go_to_the_end("go depth 3");
        assert!(!reply.contains("multipv"), "{reply}");
    }

    #[test]
    fn a_game_of_three_plays_whole_turns_through_the_protocol() {
        let mut s = Session::new();
        assert!(s.send("uci").contains("var hexachess-3 var hexachess-4"));
        assert_eq!(s.send("setoption name UCI_Variant value hexachess-3"), "");
        let perft = s.send_and_wait("go perft 1");
        assert!(perft.ends_with("Nodes searched: 44\n"), "{perft}");
        assert_eq!(s.send("position startpos moves e3e4 a15b15"), "");
        let shown = s.send("d");
        assert!(shown.contains("To move: Red"), "{shown}");
        // A bad turn changes nothing.
        let bad = s.send("position startpos moves e3e4 zz");
        assert!(bad.starts_with("info string error: zz:"), "{bad}");
        assert_eq!(s.send("d"), shown);
        // Each search answers with a whole turn the game accepts.
        for search in ["brs", "paranoid", "maxn", "random"] {
            assert_eq!(
                s.send(&format!("setoption name MultiSearch value {search}")),
                ""
            );
            assert_eq!(s.send("position startpos moves e3e4 a15b15"), "");
            s.engine.handle("go nodes 300");
            s.engine.wait();
            let reply = s.take();
            let turn = reply
                .lines()
                .last()
                .and_then(|l| l.strip_prefix("bestmove "))
                .unwrap_or_else(|| panic!("{reply}"));
            let moved = s.send(&format!("position startpos moves e3e4 a15b15 {turn}"));
            assert_eq!(moved, "", "{search}: {turn}");
            assert!(s.send("d").contains("To move: White"));
        }
        let refused = s.send("setoption name MultiSearch value deep");
        assert!(refused.contains("is not a search"), "{refused}");
        // Back to a two-player variant.
        assert_eq!(s.send("setoption name UCI_Variant value glinski"), "");
        assert!(
            s.send_and_wait("go perft 1")
                .ends_with("Nodes searched: 51\n")
        );
    }

    #[test]
    fn clear_hash_empties_the_table_and_keeps_the_position() {
        let mut s = Session::new();
        s.send("position startpos moves f5f6");
        let nodes = |reply: &str| -> u64 {
            let line = reply
                .lines()
                .rfind(|l| l.starts_with("info depth 6 "))
                .unwrap();
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "nodes").unwrap();
            words[at + 1].parse().unwrap()
        };
        let fresh = nodes(&s.go_to_the_end("go depth 6"));
        let warm = nodes(&s.go_to_the_end("go depth 6"));
        assert_ne!(warm, fresh, "a second search uses what the first stored");
        let before = s.engine.position().unwrap().to_fen();
        assert_eq!(s.send("setoption name Clear Hash"), "");
        assert_eq!(s.engine.position().unwrap().to_fen(), before);
        assert_eq!(nodes(&s.go_to_the_end("go depth 6")), fresh, "as if fresh");
    }
}
