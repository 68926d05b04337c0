//! `hexchess-engine`: the text-protocol engine, plus one-shot commands for scripts.
//!
//! With no arguments it reads protocol commands from stdin (see `protocol`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand, ValueEnum};
use hexchess_core::AnyRules;
use hexchess_core::bitboard::CellSet;
use hexchess_core::catalog::{Catalog, CatalogEntry, compile};
use hexchess_core::game::{Draws, Game};
use hexchess_core::pgn::read_games;
use hexchess_core::{Position, Rules};
use hexchess_engine::protocol;
use hexchess_engine::{EvalMode, EvalTerms, EvalWeights, bench};
use hexchess_files::variants;
use hexchess_lab::arena::{self, EngineSpec, MatchConfig, TimeControl};
use hexchess_lab::soak::{self, SoakConfig};
use hexchess_lab::tune::{self, SampleSet};
use hexchess_tablebase::{Counts, Material, RuleValue, Ruled, Table, Value};

mod bridge;
mod diagram;
mod disk;
mod multi;
mod review;

/// The most milliseconds per move or per position: a day. Longer is a typo, and a
/// longer time than the clock arithmetic was made for.
const MAX_MOVETIME_MS: u64 = 86_400_000;

/// The most games of a match: a million games at 100 ms a move are months of play, so
/// more is a typo; and the openings for all of them are made before the first game.
const MAX_MATCH_GAMES: u64 = 1_000_000;

/// The most games at once in a match: each runs two engine processes.
const MAX_CONCURRENCY: u64 = 64;

/// The most plies of a random opening: past the opening, the engines should play.
const MAX_OPENING_PLIES: u64 = 100;

/// The most plies (or turns) of a game before it is called a draw: far past any game
/// the move rules leave unfinished.
const MAX_GAME_PLIES: u64 = 100_000;

/// The most games of a round robin: each game's result is kept for the table, and a
/// million games of the searches at their default budget take days.
const MAX_ROUND_ROBIN_GAMES: u64 = 1_000_000;

/// The most games per variant in a soak: ten thousand already take hours.
const MAX_SOAK_GAMES: u64 = 100_000;

/// The most searches stopped at random moments in a soak.
const MAX_SOAK_SEARCHES: u64 = 1_000_000;

/// The most nodes per move for the lab's own games (soak, round robin): a hundred
/// million is minutes per move.
const MAX_LAB_NODES: u64 = 100_000_000;

/// The most threads: the engine's own limit.
const MAX_THREADS: u64 = hexchess_engine::MAX_THREADS as u64;

/// The most probes of `tb bench`: a billion is minutes.
const MAX_PROBES: u64 = 1_000_000_000;

/// The most plies left out at the start of each game by `tune`.
const MAX_SKIP_PLIES: u64 = 1_000;

/// The most sweeps of `tune` over the weights: each is a pass over every sample per
/// weight; it stops earlier once no weight moves.
const MAX_SWEEPS: u64 = 1_000;

/// The deepest perft: the protocol's `go perft` limit (deeper runs for days; a depth in
/// the thousands overflowed the stack).
const MAX_PERFT: i64 = protocol::MAX_PERFT_DEPTH as i64;

/// The deepest bench search: the protocol's `bench` limit (the search itself stops at
/// its 127 plies, which would run for ever).
const MAX_BENCH: i64 = protocol::MAX_BENCH_DEPTH as i64;

/// A `usize` flag's parser, refusing values outside `range` with the range.
fn count(range: std::ops::RangeInclusive<u64>) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(range)
}

/// Prints a line to stdout like `println!`, but a closed pipe (`... | head`) ends the
/// program quietly instead of panicking.
macro_rules! out {
    () => {
        out!("")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        if writeln!(stdout, $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

#[derive(Parser)]
#[command(
    name = "hexchess-engine",
    version,
    about = "Hexagonal chess engine: text protocol, perft, bench"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree; the total is printed alone on the last line.
    Perft {
        /// Variant id, or a path to a variant file.
        #[arg(long, default_value = "glinski")]
        variant: String,
        /// Plies to count (0 to 12).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT))]
        depth: u32,
        /// Start from this hex FEN instead of the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first (long algebraic or SAN).
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Also print the count under each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Measure speed: the search over a fixed set of positions, or perft.
    Bench {
        #[arg(value_enum, default_value_t = BenchKind::Search)]
        kind: BenchKind,
        /// For perft: the variant (default glinski); for turns: only its positions
        /// (hexachess-3 or hexachess-4).
        #[arg(long)]
        variant: Option<String>,
        /// For turns: the search (paranoid, brs, maxn; `paranoid:plain` without the
        /// table, quiescence and refined judgement).
        #[arg(long, default_value = "paranoid")]
        search: String,
        /// Search depth (default 7; 1 to 30) or perft depth (default 5; 1 to 12).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_BENCH))]
        depth: Option<u32>,
        /// For the search: the evaluation used. Anything but `full` searches other trees,
        /// so its counts are not the signature; it shows what the evaluation costs.
        #[arg(long, value_enum, default_value_t = BenchEval::Full)]
        eval: BenchEval,
    },
    /// Play a match between two engines (commands that speak the protocol).
    Match(Box<MatchArgs>),
    /// Check variant files and print every problem found.
    Check { files: Vec<PathBuf> },
    /// Play on an online server as a bot account: this engine (or another that speaks
    /// the protocol) takes its turns there (docs/online.md).
    Bridge(bridge::BridgeArgs),
    /// Review games: every move judged by the engine (inaccuracies, mistakes,
    /// blunders, accuracy), the games written back annotated in PGN.
    Review(review::ReviewArgs),
    /// List the variants that load, and the files that do not.
    Variants,
    /// Fit the evaluation's weights to the results of recorded games (Texel's method).
    Tune(TuneArgs),
    /// Endgame tablebases: build one in memory and show what it says.
    #[command(subcommand)]
    Tb(TbCommand),
    /// Draw a position as SVG (for the rules reference): from the start, a FEN, or
    /// moves (turns in a game of more sides) played first.
    Diagram {
        #[arg(long, default_value = "glinski")]
        variant: String,
        #[arg(long)]
        fen: Option<String>,
        /// Moves, or whole turns in a game of more sides (`Nc3&Qd4`), played first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Cells to ring.
        #[arg(long = "mark", num_args = 1..)]
        marks: Vec<String>,
        /// Arrows, from cell to cell (`e1e5`).
        #[arg(long = "arrow", num_args = 1..)]
        arrows: Vec<String>,
        #[arg(long)]
        caption: Option<String>,
        /// Where to write the SVG; standard output when left out.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Play the engine's searches for games of more sides against each other (and a
    /// random mover) in every seating, and print each one's points.
    RoundRobin {
        #[arg(long, default_value = "hexachess-3")]
        variant: String,
        /// The searches (brs, paranoid, maxn, random; a search's plain version as
        /// `paranoid:plain`, some features only as `paranoid:table+quiescence`); all
        /// four when left out.
        #[arg(long = "search")]
        searches: Vec<String>,
        /// Games at least (whole cycles of every seating are played; 1 to 1,000,000).
        #[arg(long, default_value_t = 300, value_parser = count(1..=MAX_ROUND_ROBIN_GAMES))]
        games: usize,
        /// Nodes (whole turns) per search per turn (1 to 100,000,000).
        #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(1..=MAX_LAB_NODES))]
        nodes: u64,
        /// Turns after which a game is called drawn among the sides still in (1 to
        /// 100,000).
        #[arg(long, default_value_t = 400, value_parser = count(1..=MAX_GAME_PLIES))]
        max_turns: usize,
        /// Games played at once (1 to 64).
        #[arg(long, default_value_t = 2, value_parser = count(1..=MAX_THREADS))]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random turns from the start before the searches play, one opening for every
        /// seating of a cycle, a new one each cycle (0 to 100; 0: every game from the
        /// start, and the searches replay the same games each cycle).
        #[arg(long, default_value_t = 3, value_parser = count(0..=100))]
        opening_turns: usize,
    },
    /// Play fast engine games in every variant, checking each move and how each game
    /// ends, then run searches stopped at random moments, watching memory.
    Soak {
        /// A variant id (repeat for several); every loaded variant when left out.
        #[arg(long)]
        variant: Vec<String>,
        /// Games per variant (0 to 100,000).
        #[arg(long, default_value_t = 10, value_parser = count(0..=MAX_SOAK_GAMES))]
        games: usize,
        /// Nodes the engine searches per move (1 to 100,000,000).
        #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..=MAX_LAB_NODES))]
        nodes: u64,
        /// Searches to run after the games, each stopped at a random moment (0 to
        /// 1,000,000).
        #[arg(long, default_value_t = 0, value_parser = count(0..=MAX_SOAK_SEARCHES))]
        searches: usize,
        /// Threads per search (1 to 64).
        #[arg(long, default_value_t = 1, value_parser = count(1..=MAX_THREADS))]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Subcommand)]
enum TbCommand {
    /// Build a table and write it to a file (by default in the per-user data folder).
    Generate {
        #[arg(long, default_value = "glinski")]
        variant: String,
        /// The men, White's first: KRvK, KQvKR.
        material: String,
        /// Where to write it; by default `<data>/hexchess/tables/<variant>/<material>.htb`.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Threads to build on (default: every core); the table is the same on any
        /// number.
        #[arg(long, value_parser = count(1..=MAX_THREADS))]
        threads: Option<usize>,
    },
    /// Time probes of a table in memory: the table alone, and the engine's way (finding
    /// the table among those loaded first).
    Bench {
        #[arg(long, default_value = "glinski")]
        variant: String,
        /// The men, White's first: KRvK, KQvKR.
        material: String,
        /// How many probes of random legal positions (1 to 1,000,000,000).
        #[arg(long, default_value_t = 1_000_000, value_parser = count(1..=MAX_PROBES))]
        probes: usize,
    },
    /// Count a table's positions by value, with the longest mate (the table is read
    /// from the per-user data folder when there, else built).
    Stats {
        /// Variant id, or a path to a variant file.
        #[arg(long, default_value = "glinski")]
        variant: String,
        /// The men, White's first: KRvK, KQvKR.
        material: String,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Give a position's value and each move's, from the tables of its men (read from
    /// the per-user data folder when there, else built).
    Probe {
        #[arg(long, default_value = "glinski")]
        variant: String,
        /// The position, as hex FEN.
        fen: String,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Args)]
struct TuneArgs {
    /// Game records, or folders of them (every `.txt` and `.pgn` file inside).
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Plies at the start of each game left out (the openings' random moves; 0 to
    /// 1,000).
    #[arg(long, default_value_t = 8, value_parser = count(0..=MAX_SKIP_PLIES))]
    skip_plies: usize,
    /// Most sweeps over the weights (1 to 1,000).
    #[arg(long, default_value_t = 40, value_parser = count(1..=MAX_SWEEPS))]
    sweeps: usize,
    /// Threads computing the error (1 to 64).
    #[arg(long, default_value_t = 2, value_parser = count(1..=MAX_THREADS))]
    threads: usize,
    /// Weights to start from (RON, as the `EvalWeights` option takes them; omitted
    /// weights keep their defaults).
    #[arg(long)]
    start: Option<String>,
    /// Weights to leave as they start, by the names the report prints (e.g.
    /// `king_forward,pawn_advance.mg`).
    #[arg(long, value_delimiter = ',')]
    freeze: Vec<String>,
}

#[derive(clap::Args)]
struct MatchArgs {
    /// First engine command (the one the score is given for): a program and its
    /// arguments, run without a shell; quote words with spaces ('...' or "...").
    #[arg(long)]
    engine1: String,
    /// Second engine command.
    #[arg(long)]
    engine2: String,
    /// Working folder of the first engine (a relative program path such as `./engine`
    /// is then read from it too).
    #[arg(long)]
    dir1: Option<PathBuf>,
    /// Working folder of the second engine.
    #[arg(long)]
    dir2: Option<PathBuf>,
    #[arg(long, default_value = "engine1")]
    name1: String,
    #[arg(long, default_value = "engine2")]
    name2: String,
    /// Option for the first engine, `Name=Value` (repeatable).
    #[arg(long = "option1", value_parser = parse_option)]
    options1: Vec<(String, String)>,
    /// Option for the second engine, `Name=Value` (repeatable).
    #[arg(long = "option2", value_parser = parse_option)]
    options2: Vec<(String, String)>,
    #[arg(long, default_value = "glinski")]
    variant: String,
    /// Number of games (each opening is played twice, colours swapped; 1 to 1,000,000).
    #[arg(long, default_value_t = 100, value_parser = count(1..=MAX_MATCH_GAMES))]
    games: usize,
    /// Milliseconds per move, for both engines (100 when no time control is given; 1 to
    /// 86,400,000).
    #[arg(long, conflicts_with = "tc", value_parser = movetime())]
    movetime: Option<u64>,
    /// Clock per player: seconds+increment, e.g. `10+0.1`.
    #[arg(long, value_name = "BASE+INC")]
    tc: Option<TimeControl>,
    /// The first engine's own milliseconds per move, over --movetime/--tc (time odds; 1
    /// to 86,400,000).
    #[arg(long, conflicts_with = "tc1", value_parser = movetime())]
    movetime1: Option<u64>,
    /// The second engine's own milliseconds per move (1 to 86,400,000).
    #[arg(long, conflicts_with = "tc2", value_parser = movetime())]
    movetime2: Option<u64>,
    /// The first engine's own clock, over --movetime/--tc (time odds).
    #[arg(long, value_name = "BASE+INC")]
    tc1: Option<TimeControl>,
    /// The second engine's own clock.
    #[arg(long, value_name = "BASE+INC")]
    tc2: Option<TimeControl>,
    /// A file of openings (one per line: a hex FEN, or moves from the start).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Without an openings file: random openings of this many plies (0 to 100).
    #[arg(long, default_value_t = 4, value_parser = count(0..=MAX_OPENING_PLIES))]
    opening_plies: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time (1 to 64).
    #[arg(long, default_value_t = 1, value_parser = count(1..=MAX_CONCURRENCY))]
    concurrency: usize,
    /// Plies after which a game is adjudicated a draw (1 to 100,000).
    #[arg(long, default_value_t = 400, value_parser = count(1..=MAX_GAME_PLIES))]
    max_plies: usize,
    /// Adjudicate a win when both engines report at least this many centipawns (1 to
    /// 100,000)...
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(i32).range(1..=100_000))]
    resign_score: i32,
    /// ...for this many moves each (0 to 1,000; 0: never adjudicate).
    #[arg(long, default_value_t = 4, value_parser = count(0..=1_000))]
    resign_moves: usize,
    /// Folder for the game records.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Folder for the engines' standard-error logs (`<name>-<worker>.stderr.log`);
    /// `<out>/logs` when left out and `--out` is given, else no logs.
    #[arg(long)]
    logs: Option<PathBuf>,
    /// Also log every protocol line sent and received (`<name>-<worker>.io.log`).
    #[arg(long)]
    log_io: bool,
    /// Stop as soon as a sequential probability ratio test decides between the first
    /// engine leading by ELO0 (H0) or by ELO1 (H1); error rates 0.05 unless given.
    /// `--games` is then the most played.
    #[arg(
        long,
        value_name = "ELO0,ELO1[,ALPHA,BETA]",
        allow_hyphen_values = true
    )]
    sprt: Option<arena::Sprt>,
}

/// The parser of a time per move in milliseconds.
fn movetime() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS)
}

fn parse_option(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .ok_or_else(|| format!("expected Name=Value, not '{s}'"))
}

#[derive(Clone, Copy, ValueEnum)]
enum BenchKind {
    /// Search every bench position to a fixed depth; report nodes and nodes per second.
    Search,
    /// Perft from the variant's start position, counting every leaf.
    Perft,
    /// Search the tables of games of more sides (3- and 4-player Hexachess) a number
    /// of whole turns deep (default 3; `--depth`); report turns and turns per second.
    Turns,
}

/// The evaluation a search bench uses.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BenchEval {
    /// The engine's own: material, placement and every positional term.
    Full,
    /// Material and placement only (the sums kept move by move).
    Placement,
    /// Material only.
    Material,
}

impl From<BenchEval> for EvalMode {
    fn from(e: BenchEval) -> EvalMode {
        match e {
            BenchEval::Full => EvalMode::FULL,
            BenchEval::Placement => EvalMode::Terms(EvalTerms::NONE),
            BenchEval::Material => EvalMode::Material,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => protocol_loop(),
        Some(Command::Perft {
            variant,
            depth,
            fen,
            moves,
            divide,
        }) => perft(&variant, depth, fen.as_deref(), &moves, divide),
        Some(Command::Bench {
            kind,
            variant,
            search,
            depth,
            eval,
        }) => match kind {
            BenchKind::Search => bench_search(depth.unwrap_or(bench::BENCH_DEPTH), eval.into()),
            BenchKind::Turns => bench_turns(variant.as_deref(), &search, depth),
            BenchKind::Perft if eval != BenchEval::Full => {
                Err("--eval is for the search bench; perft does not evaluate".to_string())
            }
            BenchKind::Perft => match depth.unwrap_or(5) {
                d if i64::from(d) > MAX_PERFT => Err(format!(
                    "--depth {d}: perft depth must be 1 to {MAX_PERFT} (1 to {MAX_BENCH} is for the search)"
                )),
                d => bench_perft(variant.as_deref().unwrap_or("glinski"), d),
            },
        },
        Some(Command::Match(args)) => play_match(*args),
        Some(Command::Check { files }) => check(&files),
        Some(Command::Review(args)) => review::run(&args),
        Some(Command::Bridge(args)) => bridge::run(&args),
        Some(Command::Variants) => list_variants(),
        Some(Command::Tune(args)) => tune(&args),
        Some(Command::Tb(TbCommand::Generate {
            variant,
            material,
            out,
            threads,
        })) => tb_generate(&variant, &material, out, threads.unwrap_or_else(all_cores)),
        Some(Command::Tb(TbCommand::Stats {
            variant,
            material,
            json,
        })) => tb_stats(&variant, &material, json),
        Some(Command::Tb(TbCommand::Bench {
            variant,
            material,
            probes,
        })) => tb_bench(&variant, &material, probes),
        Some(Command::Tb(TbCommand::Probe { variant, fen, json })) => {
            tb_probe(&variant, &fen, json)
        }
        Some(Command::Diagram {
            variant,
            fen,
            moves,
            marks,
            arrows,
            caption,
            out,
        }) => diagram::run(
            &variant,
            fen.as_deref(),
            &moves,
            &diagram::Extras {
                marks,
                arrows,
                caption,
            },
        )
        .and_then(|svg| match out {
            Some(path) => disk::write_file(&path, svg.as_bytes()),
            None => {
                print!("{svg}");
                Ok(())
            }
        }),
        Some(Command::RoundRobin {
            variant,
            searches,
            games,
            nodes,
            max_turns,
            threads,
            seed,
            opening_turns,
        }) => multi::round_robin(
            &variant,
            &searches,
            hexchess_lab::round_robin::RoundRobinConfig {
                strategies: Vec::new(),
                games,
                nodes,
                max_turns,
                seed,
                threads,
                opening_turns,
            },
        ),
        Some(Command::Soak {
            variant,
            games,
            nodes,
            searches,
            threads,
            seed,
        }) => soak(SoakConfig {
            variants: variant,
            games,
            nodes,
            searches,
            threads,
            seed,
            ..SoakConfig::default()
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn protocol_loop() -> Result<(), String> {
    protocol::run_stdio(variants::load_default(&disk::DISK), disk::DISK).map_err(|e| e.to_string())
}

fn bench_search(depth: u32, eval: EvalMode) -> Result<(), String> {
    let lines = bench::run(depth, eval, |l| {
        out!(
            "{:<9} {:>10} nodes {:>6} ms  {:<7} {}",
            l.variant,
            l.nodes,
            l.millis,
            l.best,
            l.fen
        );
    });
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let millis: u128 = lines.iter().map(|l| l.millis).sum::<u128>().max(1);
    out!("Total time (ms): {millis}");
    out!("Nodes searched: {nodes}");
    out!("Nodes/second: {}", nodes as u128 * 1000 / millis);
    Ok(())
}

/// The bench of the searches of games of more sides: each table of `variant` (every
/// one when `None`) searched `depth` whole turns deep by `search`.
fn bench_turns(variant: Option<&str>, search: &str, depth: Option<u32>) -> Result<(), String> {
    use hexchess_engine::multi::bench::{self as multi_bench, MULTI_BENCH_POSITIONS};
    if let Some(v) = variant
        && !MULTI_BENCH_POSITIONS.iter().any(|(id, _)| *id == v)
    {
        return Err(format!(
            "--variant {v}: the turns bench has hexachess-3 and hexachess-4"
        ));
    }
    let player: hexchess_engine::multi::Player = search.parse()?;
    let depth = depth.unwrap_or(multi_bench::MULTI_BENCH_DEPTH);
    let lines = multi_bench::run(variant, player, depth, |l| {
        out!(
            "{:<11} {:>10} turns {:>6} ms  {}",
            l.variant,
            l.turns,
            l.millis,
            l.best
        );
    });
    let turns: u64 = lines.iter().map(|l| l.turns).sum();
    let millis: u128 = lines.iter().map(|l| l.millis).sum::<u128>().max(1);
    out!("Total time (ms): {millis}");
    out!("Turns searched: {turns}");
    out!("Turns/second: {}", turns as u128 * 1000 / millis);
    Ok(())
}

/// A variant by id from the catalog, or from a file when given a path (a variant of
/// any number of sides).
fn entry_for(variant: &str) -> Result<CatalogEntry, String> {
    if variant.ends_with(".ron") {
        return variants::load_file(&disk::DISK, &mut Catalog::default(), Path::new(variant))
            .cloned()
            .map_err(|e| e.to_string());
    }
    let catalog = variants::load_default(&disk::DISK);
    catalog.get(variant).cloned().ok_or_else(|| {
        format!(
            "unknown variant '{variant}'; known: {}",
            catalog.ids().join(", ")
        )
    })
}

/// A two-player variant's rules on the narrow cell sets, by id or file, for the
/// commands only two-player games have (the search bench, endgame tables).
fn rules_for(variant: &str) -> Result<Arc<Rules>, String> {
    let entry = entry_for(variant)?;
    entry.two_player_rules().ok_or_else(|| {
        format!(
            "{} is a game of {} sides: this command is for two-player variants",
            entry.id(),
            entry.side_count()
        )
    })
}

/// Perft of a variant: a file is compiled with the cell sets its board needs (so
/// boards past 128 cells and games of more sides count too); an id is a loaded variant.
fn perft(
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    moves: &[String],
    divide: bool,
) -> Result<(), String> {
    if variant.ends_with(".ron") {
        // A file's board may be past the catalog's 128 cells: compiled as wide as needed.
        let spec =
            variants::read_spec(&disk::DISK, Path::new(variant)).map_err(|e| e.to_string())?;
        if spec.sides.len() <= 2 {
            return match AnyRules::compile(&spec).map_err(|e| e.to_string())? {
                AnyRules::Narrow(rules) => perft_in(rules, depth, fen, moves, divide),
                AnyRules::Wide(rules) => perft_in(rules, depth, fen, moves, divide),
            };
        }
    }
    let entry = entry_for(variant)?;
    match entry.two_player_rules() {
        Some(rules) => perft_in(rules, depth, fen, moves, divide),
        None => {
            let total = multi::perft(Arc::clone(entry.rules()), depth, fen, moves, divide)?;
            out!("{total}");
            Ok(())
        }
    }
}

fn perft_in<B: CellSet>(
    rules: Arc<Rules<B>>,
    depth: u32,
    fen: Option<&str>,
    moves: &[String],
    divide: bool,
) -> Result<(), String> {
    // A perft counts every legal move, draws or not: the moves go on past one too.
    let mut pos = Game::from_moves_with(rules, fen, moves, Draws::Called)
        .map_err(|e| e.to_string())?
        .position()
        .clone();
    let mut out = io::stdout().lock();
    let total = if divide {
        let mut lines: Vec<(String, u64)> = pos
            .perft_divide(depth)
            .into_iter()
            .map(|(mv, n)| (pos.move_to_lan(mv), n))
            .collect();
        lines.sort();
        for (mv, n) in &lines {
            writeln!(out, "{mv}: {n}").map_err(|e| e.to_string())?;
        }
        lines.iter().map(|l| l.1).sum()
    } else {
        pos.perft(depth)
    };
    writeln!(out, "{total}").map_err(|e| e.to_string())
}

fn bench_perft(variant: &str, depth: u32) -> Result<(), String> {
    let rules = rules_for(variant)?;
    let mut pos = Position::start(rules);
    let start = Instant::now();
    let nodes = pos.perft(depth);
    let seconds = start.elapsed().as_secs_f64();
    out!("variant {variant} depth {depth}: {nodes} leaves in {seconds:.3} s");
    out!("Nodes per second: {:.0}", nodes as f64 / seconds);
    Ok(())
}

fn play_match(a: MatchArgs) -> Result<(), String> {
    let rules = rules_for(&a.variant)?;
    let time = [
        engine_time(a.movetime1, a.tc1, a.movetime, a.tc),
        engine_time(a.movetime2, a.tc2, a.movetime, a.tc),
    ];
    let openings = match &a.openings {
        Some(path) => {
            let text = disk::read_text(path, disk::MAX_OPENINGS_BYTES)?;
            arena::parse_openings(&text)
        }
        None => arena::random_openings(&rules, a.games.div_ceil(2), a.opening_plies, a.seed),
    };
    let logs = match_logs(a.logs, a.out.as_deref(), a.log_io)?;
    let config = MatchConfig {
        variant: rules,
        engines: [
            EngineSpec {
                name: a.name1,
                command: a.engine1,
                dir: a.dir1,
                options: a.options1,
            },
            EngineSpec {
                name: a.name2,
                command: a.engine2,
                dir: a.dir2,
                options: a.options2,
            },
        ],
        games: a.games,
        time,
        openings,
        concurrency: a.concurrency,
        max_plies: a.max_plies,
        resign_score: a.resign_score,
        resign_moves: a.resign_moves,
        logs,
        out_dir: a.out,
        sprt: a.sprt,
    };
    let summary = arena::run_match(&config, |game, summary| {
        let white = &config.engines[game.white].name;
        let black = &config.engines[1 - game.white].name;
        out!(
            "game {:>4}: {white} - {black} {} ({}) | {summary}",
            game.index + 1,
            game.outcome.result_text(),
            game.outcome.termination
        );
    })?;
    for why in summary.failures() {
        out!("failed: {why}");
    }
    out!("Final: {summary}");
    out!("{}", summary.pair_report());
    if let Some(sprt) = summary.sprt() {
        match summary.verdict() {
            Some((verdict, games)) => out!("{sprt}: {verdict} after {games} games"),
            None => out!("{sprt}: no decision after {} games", summary.games()),
        }
    }
    Ok(())
}

/// An engine's time control: its own if given, else the match's, else 100 ms a move.
fn engine_time(
    own_movetime: Option<u64>,
    own_tc: Option<TimeControl>,
    movetime: Option<u64>,
    tc: Option<TimeControl>,
) -> TimeControl {
    let per_move = |ms| TimeControl::MoveTime(Duration::from_millis(ms));
    own_movetime
        .map(per_move)
        .or(own_tc)
        .or(movetime.map(per_move))
        .or(tc)
        .unwrap_or(per_move(100))
}

/// Where the engines' logs go: the folder given, else `logs/` in the records' folder,
/// else nowhere (a protocol log then has nowhere to go, which is an error).
fn match_logs(
    logs: Option<PathBuf>,
    out: Option<&Path>,
    io: bool,
) -> Result<Option<arena::LogConfig>, String> {
    match logs.or_else(|| out.map(|o| o.join("logs"))) {
        Some(dir) => Ok(Some(arena::LogConfig { dir, io })),
        None if io => {
            Err("--log-io needs a folder for the logs: give --logs DIR or --out DIR".into())
        }
        None => Ok(None),
    }
}

fn check(files: &[PathBuf]) -> Result<(), String> {
    if files.is_empty() {
        return Err("give one or more variant files to check".into());
    }
    let mut failed = 0;
    for f in files {
        let name = f.display().to_string();
        match variants::read_spec(&disk::DISK, f)
            .and_then(|spec| compile(&spec, &name).map(|_| spec))
        {
            Ok(spec) => out!(
                "{name}: ok ({} \"{}\", {} cells, {} sides)",
                spec.id,
                spec.name,
                spec.cells.len(),
                spec.sides.len()
            ),
            Err(e) => {
                failed += 1;
                out!("{e}");
            }
        }
    }
    if failed > 0 {
        Err(format!("{failed} of {} files have problems", files.len()))
    } else {
        Ok(())
    }
}

/// Every core the system gives this process (one when it cannot tell).
fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn tb_generate(
    variant: &str,
    material: &str,
    out: Option<PathBuf>,
    threads: usize,
) -> Result<(), String> {
    let rules = rules_for(variant)?;
    let material = Material::parse(material, &rules).map_err(|e| e.to_string())?;
    let name = material.name(&rules);
    let path = match out {
        Some(p) => p,
        None => hexchess_tablebase::table_path(
            &hexchess_tablebase::default_dir(&disk::DISK)
                .ok_or("no per-user data folder here (HOME is not set); give --out")?,
            &rules,
            &material,
        ),
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    // Before the build, which may take long: the write at its end would be refused.
    disk::check_output(&path)?;
    let started = Instant::now();
    eprintln!("{name} for {}, on {threads} thread(s):", rules.name());
    let stop = std::sync::atomic::AtomicBool::new(false);
    // Each step's time since the start, so a long build shows where it went.
    let progress = &mut |l: &str| eprintln!("{:>7.1} s  {l}", started.elapsed().as_secs_f64());
    let slots = Table::generate_into(
        &disk::DISK,
        &rules,
        &material,
        &path,
        progress,
        &stop,
        threads,
    )
    .map_err(|e| e.to_string())?;
    out!(
        "{name}: {slots} positions in {:.1} s on {threads} thread(s), written to {}",
        started.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(())
}

/// The table of `material`: read from the per-user data folder when a good file is
/// there (a bad one is reported on stderr), else built.
fn load_or_build(rules: &Arc<Rules>, material: &Material) -> Result<Table, String> {
    if let Some(dir) = hexchess_tablebase::default_dir(&disk::DISK) {
        let path = hexchess_tablebase::table_path(&dir, rules, material);
        if path.exists() {
            match Table::read(&disk::DISK, &path, rules) {
                Ok(t) if t.material() == material => return Ok(t),
                Ok(_) => eprintln!("{}: another material; building", path.display()),
                Err(e) => eprintln!("{e}; building the table instead"),
            }
        }
    }
    Table::generate(rules, material).map_err(|e| e.to_string())
}

fn tb_bench(variant: &str, material: &str, probes: usize) -> Result<(), String> {
    use rand::{Rng, SeedableRng};
    let rules = rules_for(variant)?;
    let material = Material::parse(material, &rules).map_err(|e| e.to_string())?;
    let table = Arc::new(load_or_build(&rules, &material)?);
    let legal: Vec<usize> = table.values().map(|(i, _)| i).collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let positions: Vec<Position> = (0..4096)
        .map(|_| table.position(legal[rng.random_range(0..legal.len())]))
        .collect();
    let engine_view = hexchess_engine::Tablebases::new(vec![Arc::clone(&table)]);
    let time = |probe: &dyn Fn(&Position) -> bool| {
        let started = Instant::now();
        let mut found = 0usize;
        for k in 0..probes {
            found += usize::from(probe(&positions[k % positions.len()]));
        }
        (
            started.elapsed().as_nanos() as f64 / probes.max(1) as f64,
            found,
        )
    };
    let (alone, a) = time(&|p| table.probe(p).is_some());
    let (engine, b) = time(&|p| engine_view.probe(p).is_some());
    if a != probes || b != probes {
        return Err("a probe missed a position of its own table".into());
    }
    out!(
        "{}: {probes} probes of random legal positions; table alone {alone:.0} ns per probe, the engine's way {engine:.0} ns",
        material.name(&rules)
    );
    Ok(())
}

/// [`Counts::CLASSES`] as `tb stats` words them for the side to move.
const TEXT_CLASSES: [&str; 6] = [
    "mates",
    "stalemates",
    "perpetual-check draw",
    "fortress draw",
    "is stalemated",
    "is mated",
];

fn tb_stats(variant: &str, material: &str, json: bool) -> Result<(), String> {
    let rules = rules_for(variant)?;
    let material = Material::parse(material, &rules).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let table = load_or_build(&rules, &material)?;
    let c = table.counts();
    let fen = c.longest_at.map(|i| table.position(i).to_fen());
    if json {
        let side = |s: usize| {
            let legal = c.legal(s).max(1) as f64;
            let fields: Vec<String> = Counts::CLASSES
                .iter()
                .zip(c.classes(s))
                .map(|(name, n)| format!("\"{name}\": {}", n as f64 / legal))
                .collect();
            let rule = c.rule.map_or("null".to_string(), |r| {
                let shares: Vec<String> = RuleValue::ALL
                    .iter()
                    .zip(r[s])
                    .map(|(v, n)| format!("\"{}\": {}", v.name(), n as f64 / legal))
                    .collect();
                format!("{{{}}}", shares.join(", "))
            });
            format!("{{{}, \"rule\": {rule}}}", fields.join(", "))
        };
        let dtz_fen = c.longest_dtz_at.map(|i| table.position(i).to_fen());
        let text = |f: Option<String>| f.map_or("null".to_string(), |f| format!("\"{f}\""));
        out!(
            "{{\"material\": \"{}\", \"variant\": \"{}\", \"white\": {}, \"black\": {}, \"longest_mate_plies\": {}, \"longest_mate_fen\": {}, \"rule_plies\": {}, \"longest_dtz_plies\": {}, \"longest_dtz_fen\": {}}}",
            material.name(&rules),
            rules.id(),
            side(0),
            side(1),
            c.longest,
            text(fen),
            table
                .rule_plies()
                .map_or("null".to_string(), |p| p.to_string()),
            c.longest_dtz,
            text(dtz_fen)
        );
        return Ok(());
    }
    out!(
        "{} in {}: {} slots, ready (read or built) in {:.1} s",
        material.name(&rules),
        rules.name(),
        table.len(),
        started.elapsed().as_secs_f64()
    );
    for (side, name) in [(0, "White"), (1, "Black")] {
        let legal = c.legal(side).max(1) as f64;
        let shares: Vec<String> = TEXT_CLASSES
            .iter()
            .zip(c.classes(side))
            .map(|(label, n)| format!("{label} {:.4}%", 100.0 * n as f64 / legal))
            .collect();
        out!(
            "{name} to move: {} legal; {}",
            c.legal(side),
            shares.join(", ")
        );
        if let (Some(r), Some(plies)) = (c.rule, table.rule_plies()) {
            let shares: Vec<String> = RuleValue::ALL
                .iter()
                .zip(r[side])
                .map(|(v, n)| format!("{v} {:.4}%", 100.0 * n as f64 / legal))
                .collect();
            out!("  under the {plies}-ply rule: {}", shares.join(", "));
        }
    }
    if let Some(fen) = fen {
        out!("longest mate: {} plies, {fen}", c.longest);
    }
    if let Some(i) = c.longest_dtz_at {
        out!(
            "longest distance to zeroing within the rule: {} plies, {}",
            c.longest_dtz,
            table.position(i).to_fen()
        );
    }
    Ok(())
}

fn tb_probe(variant: &str, fen: &str, json: bool) -> Result<(), String> {
    let rules = rules_for(variant)?;
    let pos = Position::from_fen(Arc::clone(&rules), fen).map_err(|e| format!("bad FEN: {e}"))?;
    let mut tables: std::collections::HashMap<String, Table> = Default::default();
    let mut value_of = |p: &Position| -> Result<(Value, Option<Ruled>), String> {
        let m = Material::of(p).map_err(|e| e.to_string())?;
        let name = m.name(&rules);
        if !tables.contains_key(&name) {
            let t = load_or_build(&rules, &m)?;
            tables.insert(name.clone(), t);
        }
        let table = &tables[&name];
        let value = table
            .probe(p)
            .ok_or_else(|| "the position is not in its own table".to_string())?;
        Ok((value, table.probe_rule(p)))
    };
    let mut moves = Vec::new();
    for mv in pos.legal_moves() {
        let mut child = pos.clone();
        child.make_move(mv);
        let (v, r) = value_of(&child)?;
        let zeroing = child.halfmove_clock() == 0;
        moves.push((mv, v.for_mover(), r.map(|r| r.for_mover(zeroing))));
    }
    // With an en-passant capture on, the tables keep the position without it: its
    // worth is its best move's.
    let (value, ruled) = if pos.can_capture_en_passant() {
        let best = moves.iter().max_by_key(|(_, value, rule)| {
            hexchess_engine::endgame::TableValue {
                value: *value,
                rule: *rule,
            }
            .rank()
        });
        best.map(|(_, v, r)| (*v, *r))
            .ok_or("an en-passant capture on, and no move")?
    } else {
        value_of(&pos)?
    };
    if json {
        let entries: Vec<String> = moves
            .iter()
            .map(|(mv, v, r)| {
                format!(
                    "{{\"move\": \"{}\", \"value\": \"{}\", \"dtm_plies\": {}, {}}}",
                    pos.move_to_lan(*mv),
                    class(*v),
                    plies(*v),
                    rule_fields(*r)
                )
            })
            .collect();
        out!(
            "{{\"value\": \"{}\", \"dtm_plies\": {}, {}, \"halfmove_clock\": {}, \"moves\": [{}]}}",
            class(value),
            plies(value),
            rule_fields(ruled),
            pos.halfmove_clock(),
            entries.join(", ")
        );
        return Ok(());
    }
    let name = Material::of(&pos).map_err(|e| e.to_string())?.name(&rules);
    out!("{name}: {}{}", describe(value), describe_rule(ruled));
    for (mv, v, r) in moves {
        out!(
            "  {:<8} {}{}",
            pos.move_to_san(mv),
            describe(v),
            describe_rule(r)
        );
    }
    Ok(())
}

/// `"rule_value": ..., "dtz_plies": ...` of a result under the move rule (`null`s where
/// the table keeps no rule).
fn rule_fields(r: Option<Ruled>) -> String {
    let name = r.map_or("null".to_string(), |r| format!("\"{}\"", r.value.name()));
    let dtz = r
        .and_then(|r| r.dtz)
        .map_or("null".to_string(), |d| d.to_string());
    format!("\"rule_value\": {name}, \"dtz_plies\": {dtz}")
}

/// `; under the move rule: ...` for the text output.
fn describe_rule(r: Option<Ruled>) -> String {
    match r {
        None => String::new(),
        Some(Ruled {
            value,
            dtz: Some(d),
        }) => format!("; by the move rule a {value}, zeroing in {d}"),
        Some(Ruled { value, dtz: None }) => format!("; by the move rule a {value}"),
    }
}

/// A value's class as the JSON output names it.
fn class(v: Value) -> &'static str {
    match v {
        Value::Win(_) => "win",
        Value::StalemateWin(_) => "stalemate_win",
        Value::DrawPerpetual => "draw_perpetual",
        Value::Draw => "draw_fortress",
        Value::StalemateLoss(_) => "stalemate_loss",
        Value::Loss(_) => "loss",
    }
}

/// Plies to the mate (or to the stalemate, for the stalemate classes); `null` for draws.
fn plies(v: Value) -> String {
    match v {
        Value::Win(d) | Value::Loss(d) | Value::StalemateWin(d) | Value::StalemateLoss(d) => {
            d.to_string()
        }
        Value::Draw | Value::DrawPerpetual => "null".to_string(),
    }
}

fn describe(v: Value) -> String {
    match v {
        Value::Win(d) => format!("mates in {d} plies"),
        Value::Loss(0) => "is checkmated".to_string(),
        Value::Loss(d) => format!("is mated in {d} plies"),
        Value::StalemateWin(d) => format!("stalemates in {d} plies"),
        Value::StalemateLoss(0) => "is stalemated".to_string(),
        Value::StalemateLoss(d) => format!("is stalemated in {d} plies"),
        Value::Draw => "draw (a fortress)".to_string(),
        Value::DrawPerpetual => "draw (by perpetual check)".to_string(),
    }
}

fn soak(config: SoakConfig) -> Result<(), String> {
    let catalog = variants::load_default(&disk::DISK);
    if let Some(unknown) = config.variants.iter().find(|v| catalog.get(v).is_none()) {
        return Err(format!(
            "unknown variant '{unknown}'; known: {}",
            catalog.ids().join(", ")
        ));
    }
    let report = soak::run(&catalog, &config, |line| out!("{line}"));
    out!("{report}");
    if report.passed() {
        Ok(())
    } else {
        Err(format!("{} failures", report.failures.len()))
    }
}

fn list_variants() -> Result<(), String> {
    let catalog = variants::load_default(&disk::DISK);
    for e in catalog.entries() {
        let from = match &e.source {
            hexchess_core::catalog::VariantSource::Builtin => "built-in".to_string(),
            hexchess_core::catalog::VariantSource::File(p) => p.display().to_string(),
        };
        out!(
            "{:<16} {:<34} {} sides  {from}",
            e.id(),
            e.name(),
            e.side_count()
        );
    }
    for err in catalog.errors() {
        out!("{err}");
    }
    Ok(())
}

fn tune(args: &TuneArgs) -> Result<(), String> {
    let catalog = variants::load_default(&disk::DISK);
    let start = match &args.start {
        Some(text) => {
            let start = ron::from_str::<EvalWeights>(text).map_err(|e| format!("--start: {e}"))?;
            start.check().map_err(|e| format!("--start: {e}"))?;
            start
        }
        None => EvalWeights::default(),
    };
    let mut frozen = [false; EvalWeights::LEN];
    for name in &args.freeze {
        let i = EvalWeights::NAMES
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| {
                format!(
                    "--freeze: no weight '{name}'; the weights are {}",
                    EvalWeights::NAMES.join(", ")
                )
            })?;
        frozen[i] = true;
    }
    let mut files = Vec::new();
    for path in &args.records {
        record_files(path, &mut files).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    files.sort();
    let mut set = SampleSet::default();
    let mut skipped = 0;
    for file in &files {
        skipped += add_records(file, &catalog, args.skip_plies, &mut set)?;
    }
    out!(
        "{} games ({skipped} unreadable), {} training positions, {} held out",
        set.games,
        set.training_len(),
        set.held_out_len()
    );
    if set.training_len() == 0 {
        return Err("no quiet positions with a result to tune on".into());
    }
    let threads = args.threads.max(1);
    let clock = Instant::now();
    let k = tune::fit_scale(&set.training, &start, threads);
    let errors = |w: &EvalWeights, k: f64| {
        (
            tune::mean_error(&set.training, w, k, threads),
            tune::mean_error(&set.held_out, w, k, threads),
        )
    };
    let (train0, held0) = errors(&start, k);
    out!("scale k = {k:.3}; start: training error {train0:.6}, held-out {held0:.6}");
    let mut tuned_k = k;
    let tuned = tune::tune(&set, &start, &frozen, k, args.sweeps, threads, |p| {
        tuned_k = p.k;
        out!(
            "sweep {:>2}: training error {:.6}, k = {:.3} ({:.0} s) {}",
            p.sweep,
            p.error,
            p.k,
            clock.elapsed().as_secs_f64(),
            p.weights
        );
    });
    let (train1, held1) = errors(&tuned, tuned_k);
    out!("tuned: training error {train1:.6}, held-out {held1:.6} (start {held0:.6})");
    for ((name, old), new) in EvalWeights::NAMES
        .iter()
        .zip(start.to_vec())
        .zip(tuned.to_vec())
    {
        out!("  {name:<16} {old:>5} -> {new:>5}");
    }
    out!("{tuned}");
    Ok(())
}

/// Adds every game of the records file `file` to the samples. A game that does not
/// read or replay is reported on stderr with the file, its number and line, and left
/// out; the games after it are still read. Returns how many were left out.
fn add_records(
    file: &Path,
    catalog: &Catalog,
    skip_plies: usize,
    set: &mut SampleSet,
) -> Result<usize, String> {
    let text = disk::read_pgn(file)?;
    let mut left_out = 0;
    for game in read_games(&text) {
        let added = game.map_err(|e| e.to_string()).and_then(|game| {
            set.add_game(&game, catalog, skip_plies)
                .map_err(|e| format!("game {}, line {}: {e}", game.number, game.line))
        });
        if let Err(e) = added {
            eprintln!("{}: {e} (left out)", file.display());
            left_out += 1;
        }
    }
    Ok(left_out)
}

/// `path` if it is a file, else the `.txt` and `.pgn` files under it. A file found in a
/// folder that is not a regular file (a FIFO would block the reading) is passed over
/// with a message; one named on the command line is refused when read.
fn record_files(path: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    for entry in std::fs::read_dir(path)? {
        let p = entry?.path();
        if p.is_dir() {
            record_files(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "txt" || e == "pgn") {
            match disk::DISK.check_regular(&p) {
                Ok(()) => out.push(p),
                Err(e) => eprintln!("{e} (passed over)"),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engines_own_time_control_comes_before_the_matchs() {
        let ms = |m| TimeControl::MoveTime(Duration::from_millis(m));
        let tc: TimeControl = "10+0.1".parse().unwrap();
        let own: TimeControl = "1+0".parse().unwrap();
        assert_eq!(engine_time(None, None, None, None), ms(100));
        assert_eq!(engine_time(None, None, Some(20), None), ms(20));
        assert_eq!(engine_time(None, None, None, Some(tc)), tc);
        assert_eq!(engine_time(Some(5), None, Some(20), None), ms(5));
        assert_eq!(engine_time(None, Some(own), Some(20), None), own);
        assert_eq!(engine_time(Some(5), None, None, Some(tc)), ms(5));
    }

    #[test]
    fn each_ranged_flags_help_gives_its_range() {
        use clap::CommandFactory;
        let cases: &[(&[&str], &str, u64, u64)] = &[
            (&["perft"], "depth", 0, MAX_PERFT as u64),
            (&["bench"], "depth", 1, MAX_BENCH as u64),
            (&["match"], "games", 1, MAX_MATCH_GAMES),
            (&["match"], "movetime", 1, MAX_MOVETIME_MS),
            (&["match"], "movetime1", 1, MAX_MOVETIME_MS),
            (&["match"], "movetime2", 1, MAX_MOVETIME_MS),
            (&["match"], "opening_plies", 0, MAX_OPENING_PLIES),
            (&["match"], "concurrency", 1, MAX_CONCURRENCY),
            (&["match"], "max_plies", 1, MAX_GAME_PLIES),
            (&["match"], "resign_score", 1, 100_000),
            (&["match"], "resign_moves", 0, 1_000),
            (&["review"], "nodes", 1, 1_000_000_000_000),
            (&["review"], "movetime", 1, MAX_MOVETIME_MS),
            (&["review"], "depth", 1, MAX_BENCH as u64),
            (&["tune"], "skip_plies", 0, MAX_SKIP_PLIES),
            (&["tune"], "sweeps", 1, MAX_SWEEPS),
            (&["tune"], "threads", 1, MAX_THREADS),
            (&["tb", "bench"], "probes", 1, MAX_PROBES),
            (&["round-robin"], "games", 1, MAX_ROUND_ROBIN_GAMES),
            (&["round-robin"], "nodes", 1, MAX_LAB_NODES),
            (&["round-robin"], "max_turns", 1, MAX_GAME_PLIES),
            (&["round-robin"], "threads", 1, MAX_THREADS),
            (&["round-robin"], "opening_turns", 0, 100),
            (&["soak"], "games", 0, MAX_SOAK_GAMES),
            (&["soak"], "nodes", 1, MAX_LAB_NODES),
            (&["soak"], "searches", 0, MAX_SOAK_SEARCHES),
            (&["soak"], "threads", 1, MAX_THREADS),
        ];
        let mut cli = Cli::command();
        for (path, id, lo, hi) in cases {
            let mut command = &mut cli;
            for name in *path {
                command = command.find_subcommand_mut(name).expect("a subcommand");
            }
            let arg = command
                .get_arguments()
                .find(|a| a.get_id() == *id)
                .unwrap_or_else(|| panic!("{path:?} has --{id}"));
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            assert!(
                help.replace(',', "").contains(&format!("{lo} to {hi}")),
                "{path:?} --{id}: {help}"
            );
        }
    }

    #[test]
    fn logs_go_where_asked_else_beside_the_records_else_nowhere() {
        let dir = |d: &str| Some(PathBuf::from(d));
        let logs = match_logs(dir("L"), Some(Path::new("out")), true).unwrap();
        assert_eq!(
            logs.map(|l| (l.dir, l.io)),
            Some((PathBuf::from("L"), true))
        );
        let logs = match_logs(None, Some(Path::new("out")), false).unwrap();
        assert_eq!(logs.map(|l| l.dir), Some(Path::new("out").join("logs")));
        assert_eq!(match_logs(None, None, false), Ok(None));
        assert!(match_logs(None, None, true).is_err());
    }
}
