//! `review`: every move of the games of a PGN file judged by the engine, and the games
//! written back annotated (see the engine's `review` module and docs/review.md).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::builder::RangedU64ValueParser;
use hexchess_core::catalog::Catalog;
use hexchess_core::moves::Move;
use hexchess_core::pgn::{PgnGame, ReadError, read_games, write_games};
use hexchess_core::piece::Side;
use hexchess_core::position::Position;
use hexchess_engine::protocol::MAX_BENCH_DEPTH;
use hexchess_engine::review::{self, GameReview};
use hexchess_engine::{SearchLimits, SearchOptions, Searcher};

use crate::disk;

/// Nodes per position when no budget is given: about a tenth of a second in a release
/// build, so a game of 80 plies takes some seconds (docs/review.md).
const DEFAULT_NODES: u64 = 200_000;

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("budget").args(["nodes", "movetime", "depth"])))]
pub struct ReviewArgs {
    /// A PGN file of one or more games.
    file: PathBuf,
    /// Only this game of the file (counted from 1).
    #[arg(long, value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    game: Option<usize>,
    /// Nodes searched per position (200,000 when no budget is given; 1 to
    /// 1,000,000,000,000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    nodes: Option<u64>,
    /// Milliseconds per position (1 to 86,400,000: a day).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=crate::MAX_MOVETIME_MS))]
    movetime: Option<u64>,
    /// Depth per position (1 to 30, the deepest fixed-depth search the engine takes).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_BENCH_DEPTH)))]
    depth: Option<u32>,
    /// Where to write the annotated games; standard output when left out. Never the
    /// input file unless every game of it is reviewed (else the others would be lost).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The most nodes per position: a trillion is hours per position already.
const MAX_NODES: u64 = 1_000_000_000_000;

impl ReviewArgs {
    /// Each position's search limit, and how the `Annotator` tag words it.
    fn budget(&self) -> (SearchLimits, String) {
        match (self.nodes, self.movetime, self.depth) {
            (_, Some(ms), _) => (SearchLimits::movetime(ms), format!("{ms} ms per position")),
            (_, _, Some(d)) => (SearchLimits::depth(d), format!("depth {d}")),
            (nodes, _, _) => {
                let n = nodes.unwrap_or(DEFAULT_NODES).max(1);
                let limits = SearchLimits {
                    nodes: Some(n),
                    ..SearchLimits::default()
                };
                (limits, format!("{n} nodes per position"))
            }
        }
    }
}

/// A game ready for its review: read, its main line replayed.
struct Prepared {
    game: PgnGame,
    start: Position,
    moves: Vec<Move>,
}

/// Reviews the games of the file (or the one asked for) and writes them annotated. A
/// game that cannot be read, replayed or reviewed is reported on stderr with its
/// number and skipped; the others are still written (never over the input file, which
/// would lose the skipped ones), and the command then fails (exit status 1) so that
/// scripts notice.
pub fn run(args: &ReviewArgs) -> Result<(), String> {
    let (games, in_file) = chosen_games(args)?;
    let total = games.len();
    let catalog = hexchess_files::variants::load_default(&crate::disk::DISK);
    let prepared: Vec<Result<Prepared, String>> =
        games.into_iter().map(|g| prepare(g, &catalog)).collect();
    if let Some(out) = &args.out {
        guard_input(&args.file, out, &prepared, in_file)?;
        disk::check_output(out)?;
    }
    let (limits, budget) = args.budget();
    let annotator = format!("hexchess-engine {}, {budget}", env!("CARGO_PKG_VERSION"));
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut done = Vec::new();
    for game in prepared {
        let reviewed = game.and_then(|mut game| {
            review_one(&mut game, &mut searcher, &limits, &annotator).map(|_| game.game)
        });
        match reviewed {
            Ok(game) => done.push(game),
            Err(e) => eprintln!("{e} (skipped)"),
        }
    }
    let skipped = total - done.len();
    write_reviewed(args, &done, skipped)?;
    if skipped > 0 {
        return Err(format!("{skipped} of {total} games not reviewed"));
    }
    Ok(())
}

/// The games of the file (or the one `--game` asks for), and how many the file holds.
fn chosen_games(args: &ReviewArgs) -> Result<(Vec<Result<PgnGame, ReadError>>, usize), String> {
    let text = disk::read_pgn(&args.file)?;
    let mut games = read_games(&text);
    let in_file = games.len();
    if games.is_empty() {
        return Err(format!("{}: no games", args.file.display()));
    }
    if let Some(n) = args.game {
        if n > games.len() {
            return Err(format!(
                "--game {n}: {} holds games 1 to {}",
                args.file.display(),
                games.len()
            ));
        }
        games = vec![games.swap_remove(n - 1)];
    }
    Ok((games, in_file))
}

/// A game read and its main line replayed, or why not (with its number).
fn prepare(game: Result<PgnGame, ReadError>, catalog: &Catalog) -> Result<Prepared, String> {
    let mut game = game.map_err(|e| e.to_string())?;
    let (start, moves) = review::main_line(&mut game, catalog).map_err(|e| e.to_string())?;
    Ok(Prepared { game, start, moves })
}

/// Refuses, before any review, to write over the input file unless every game of it
/// is written back: a game that does not read or replay, or the games `--game` leaves
/// out, would be lost. The file is then left as it was.
fn guard_input(
    input: &Path,
    out: &Path,
    prepared: &[Result<Prepared, String>],
    in_file: usize,
) -> Result<(), String> {
    if !disk::same_file(input, out) {
        return Ok(());
    }
    let broken: Vec<&str> = prepared
        .iter()
        .filter_map(|p| p.as_ref().err().map(String::as_str))
        .collect();
    let lost = if prepared.len() < in_file {
        format!(
            "--game keeps 1 of its {in_file} games, and writing it over the file would lose the others"
        )
    } else if !broken.is_empty() {
        format!(
            "{} of its {in_file} games cannot be reviewed ({}), and writing over the file would lose {}",
            broken.len(),
            broken.join("; "),
            if broken.len() == 1 { "it" } else { "them" }
        )
    } else {
        return Ok(());
    };
    Err(format!(
        "--out is the input file {}: {lost}; the file is left as it was: give another --out, such as {}",
        input.display(),
        other_name(input).display()
    ))
}

/// `games-reviewed.pgn` beside `games.pgn`.
fn other_name(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "games".to_string());
    input.with_file_name(format!("{stem}-reviewed.pgn"))
}

/// Writes the reviewed games where asked (whole or not at all), or to standard output.
/// Over the input file only when every game was reviewed: a search that failed late
/// must not cost its game either.
fn write_reviewed(args: &ReviewArgs, done: &[PgnGame], skipped: usize) -> Result<(), String> {
    let pgn = write_games(done);
    match &args.out {
        Some(path) if skipped > 0 && disk::same_file(&args.file, path) => Err(format!(
            "--out is the input file {}: {skipped} games were not reviewed, so it is left as it was: give another --out",
            path.display()
        )),
        Some(path) => disk::write_file(path, pgn.as_bytes()),
        None => {
            // A closed pipe (`... | head`) is not an error worth reporting.
            let _ = std::io::stdout().lock().write_all(pgn.as_bytes());
            Ok(())
        }
    }
}

/// Reviews one game, annotates it and prints its summary on stderr.
fn review_one(
    prepared: &mut Prepared,
    searcher: &mut Searcher,
    limits: &SearchLimits,
    annotator: &str,
) -> Result<(), String> {
    let Prepared { game, start, moves } = prepared;
    let number = game.number;
    let on_terminal = std::io::stderr().is_terminal();
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let result = review::review_game(searcher, start, moves, limits, &stop, |done, total| {
        if on_terminal {
            eprint!("\rgame {number}: position {done} of {total}");
        }
    });
    if on_terminal {
        eprint!("\r{:60}\r", "");
    }
    let r = result.map_err(|e| format!("game {number}: {e}"))?;
    review::annotate(game, &r, annotator).map_err(|e| format!("game {number}: {e}"))?;
    eprintln!("{}", summary(game, &r, started.elapsed()));
    Ok(())
}

/// `game 1 (Alice - Bob): 80 plies reviewed in 3.1 s` and a line per side.
fn summary(game: &PgnGame, review: &GameReview, took: Duration) -> String {
    let player = |key| game.tag(key).unwrap_or("?");
    let mut text = format!(
        "game {} ({} - {}): {} plies reviewed in {:.1} s",
        game.number,
        player("White"),
        player("Black"),
        review.moves.len(),
        took.as_secs_f64()
    );
    for side in [Side::White, Side::Black] {
        text.push_str(&format!("\n  {}", review.summary(side)));
    }
    text
}
