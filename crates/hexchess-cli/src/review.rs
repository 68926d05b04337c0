//! `review`: every move of the games of a PGN file judged by the engine, and the games
//! written back annotated (see the engine's `review` module and docs/review.md).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use hexchess_core::catalog::Catalog;
use hexchess_core::pgn::{PgnGame, read_games, write_games};
use hexchess_core::piece::Side;
use hexchess_engine::review::{self, GameReview};
use hexchess_engine::{SearchLimits, SearchOptions, Searcher};

/// Nodes per position when no budget is given: about a tenth of a second in a release
/// build, so a game of 80 plies takes some seconds (docs/review.md).
const DEFAULT_NODES: u64 = 200_000;

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("budget").args(["nodes", "movetime", "depth"])))]
pub struct ReviewArgs {
    /// A PGN file of one or more games.
    file: PathBuf,
    /// Only this game of the file (counted from 1).
    #[arg(long)]
    game: Option<usize>,
    /// Nodes searched per position (200,000 when no budget is given).
    #[arg(long)]
    nodes: Option<u64>,
    /// Milliseconds per position.
    #[arg(long)]
    movetime: Option<u64>,
    /// Depth per position.
    #[arg(long)]
    depth: Option<u32>,
    /// Where to write the annotated games; standard output when left out.
    #[arg(long)]
    out: Option<PathBuf>,
}

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

/// Reviews the games of the file (or the one asked for) and writes them annotated. A
/// game that cannot be read, replayed or reviewed is reported on stderr with its
/// number and skipped; the others are still written, and the command then fails
/// (exit status 1) so that scripts notice.
pub fn run(args: &ReviewArgs) -> Result<(), String> {
    let text =
        std::fs::read_to_string(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let mut games = read_games(&text);
    if games.is_empty() {
        return Err(format!("{}: no games", args.file.display()));
    }
    if let Some(n) = args.game {
        if n == 0 || n > games.len() {
            return Err(format!(
                "--game {n}: {} holds games 1 to {}",
                args.file.display(),
                games.len()
            ));
        }
        games = vec![games.swap_remove(n - 1)];
    }
    let total = games.len();
    let catalog = Catalog::load_default();
    let (limits, budget) = args.budget();
    let annotator = format!("hexchess-engine {}, {budget}", env!("CARGO_PKG_VERSION"));
    let mut searcher = Searcher::new(SearchOptions::default());
    let mut done = Vec::new();
    for game in games {
        let reviewed = game.map_err(|e| e.to_string()).and_then(|mut game| {
            review_one(&mut game, &catalog, &mut searcher, &limits, &annotator).map(|_| game)
        });
        match reviewed {
            Ok(game) => done.push(game),
            Err(e) => eprintln!("{e} (skipped)"),
        }
    }
    let skipped = total - done.len();
    let pgn = write_games(&done);
    match &args.out {
        Some(path) => std::fs::write(path, pgn).map_err(|e| format!("{}: {e}", path.display()))?,
        None => {
            // A closed pipe (`... | head`) is not an error worth reporting.
            let _ = std::io::stdout().lock().write_all(pgn.as_bytes());
        }
    }
    if skipped > 0 {
        return Err(format!("{skipped} of {total} games not reviewed"));
    }
    Ok(())
}

/// Reviews one game, annotates it and prints its summary on stderr.
fn review_one(
    game: &mut PgnGame,
    catalog: &Catalog,
    searcher: &mut Searcher,
    limits: &SearchLimits,
    annotator: &str,
) -> Result<(), String> {
    let (start, moves) = review::main_line(game, catalog).map_err(|e| e.to_string())?;
    let number = game.number;
    let on_terminal = std::io::stderr().is_terminal();
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let result = review::review_game(searcher, &start, &moves, limits, &stop, |done, total| {
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
