//! `hexchess-engine`: the text-protocol engine, plus one-shot commands for scripts.
//!
//! With no arguments it reads protocol commands from stdin (see `protocol`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use hexchess_core::catalog::{Catalog, compile};
use hexchess_core::engine::bench;
use hexchess_core::protocol;
use hexchess_core::variant::load_variant_file;
use hexchess_core::{Position, Rules};

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
        #[arg(long)]
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
        /// For perft: the variant.
        #[arg(long, default_value = "glinski")]
        variant: String,
        /// Search depth (default 7) or perft depth (default 5).
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Check variant files and print every problem found.
    Check { files: Vec<PathBuf> },
    /// List the variants that load, and the files that do not.
    Variants,
}

#[derive(Clone, Copy, ValueEnum)]
enum BenchKind {
    /// Search every bench position to a fixed depth; report nodes and nodes per second.
    Search,
    /// Perft from the variant's start position, counting every leaf.
    Perft,
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
            depth,
        }) => match kind {
            BenchKind::Search => bench_search(depth.unwrap_or(bench::BENCH_DEPTH)),
            BenchKind::Perft => bench_perft(&variant, depth.unwrap_or(5)),
        },
        Some(Command::Check { files }) => check(&files),
        Some(Command::Variants) => list_variants(),
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
    protocol::run_stdio(Catalog::load_default()).map_err(|e| e.to_string())
}

fn bench_search(depth: u32) -> Result<(), String> {
    let lines = bench::run(depth, |l| {
        println!(
            "{:<9} {:>10} nodes {:>6} ms  {:<7} {}",
            l.variant, l.nodes, l.millis, l.best, l.fen
        );
    });
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let millis: u128 = lines.iter().map(|l| l.millis).sum::<u128>().max(1);
    println!("Total time (ms): {millis}");
    println!("Nodes searched: {nodes}");
    println!("Nodes/second: {}", nodes as u128 * 1000 / millis);
    Ok(())
}

/// A variant by id from the catalog, or from a file when given a path.
fn rules_for(variant: &str) -> Result<Arc<Rules>, String> {
    if variant.ends_with(".ron") {
        let path = Path::new(variant);
        let spec = load_variant_file(path).map_err(|e| e.to_string())?;
        return compile(spec, variant).map_err(|e| e.to_string());
    }
    let catalog = Catalog::load_default();
    catalog
        .get(variant)
        .map(|e| Arc::clone(&e.rules))
        .ok_or_else(|| {
            format!(
                "unknown variant '{variant}'; known: {}",
                catalog.ids().join(", ")
            )
        })
}

fn perft(
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    moves: &[String],
    divide: bool,
) -> Result<(), String> {
    let rules = rules_for(variant)?;
    let mut pos = match fen {
        Some(f) => Position::from_fen(rules, f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::start(rules),
    };
    for m in moves {
        let mv = pos.parse_move(m).map_err(|e| e.to_string())?;
        pos.make_move(mv);
    }
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
    println!("variant {variant} depth {depth}: {nodes} leaves in {seconds:.3} s");
    println!("Nodes per second: {:.0}", nodes as f64 / seconds);
    Ok(())
}

fn check(files: &[PathBuf]) -> Result<(), String> {
    if files.is_empty() {
        return Err("give one or more variant files to check".into());
    }
    let mut failed = 0;
    for f in files {
        let name = f.display().to_string();
        match load_variant_file(f).and_then(|spec| compile(spec.clone(), &name).map(|_| spec)) {
            Ok(spec) => println!(
                "{name}: ok ({} \"{}\", {} cells)",
                spec.id,
                spec.name,
                spec.cells.len()
            ),
            Err(e) => {
                failed += 1;
                println!("{e}");
            }
        }
    }
    if failed > 0 {
        Err(format!("{failed} of {} files have problems", files.len()))
    } else {
        Ok(())
    }
}

fn list_variants() -> Result<(), String> {
    let catalog = Catalog::load_default();
    for e in catalog.entries() {
        let from = match &e.source {
            hexchess_core::catalog::VariantSource::Builtin => "built-in".to_string(),
            hexchess_core::catalog::VariantSource::File(p) => p.display().to_string(),
        };
        println!("{:<12} {:<24} {from}", e.id(), e.name());
    }
    for err in catalog.errors() {
        println!("{err}");
    }
    Ok(())
}
