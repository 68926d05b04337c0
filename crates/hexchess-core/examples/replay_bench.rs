//! Replay speed, for comparing two builds side by side (a cost that grows with the
//! square of a game's length shows as four times the time for twice the plies):
//!
//! ```sh
//! cargo run --release -p hexchess-core --example replay_bench -- make glinski 3000 a.pgn
//! cargo run --release -p hexchess-core --example replay_bench -- make hexachess-3 600 b.pgn
//! cargo run --release -p hexchess-core --example replay_bench -- replay 5 a.pgn b.pgn
//! ```
//!
//! `make` writes a legal game the rules never end (quiet moves to positions not seen
//! since the last capture or pawn move, one of those before the 100th quiet ply);
//! `replay` reads each file and replays its games `runs` times, and prints the fastest.
//! Only what every build since PGN files were read has (`read_games`, `replay`), so
//! that an older build can run the same file.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hexchess_core::game::{Game, Step};
use hexchess_core::pgn::{PgnGame, read_games, write_games};
use hexchess_core::{Catalog, Move, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("make") if args.len() == 4 => make(&args[1], &args[2], &args[3]),
        Some("replay") if args.len() >= 3 => replay(&args[1], &args[2..]),
        _ => Err("usage: replay_bench make VARIANT PLIES FILE | replay RUNS FILE...".into()),
    };
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// A small deterministic generator (xorshift), so that every build makes the same
/// game without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

fn make(variant: &str, plies: &str, file: &str) -> Result<(), String> {
    let plies: usize = plies.parse().map_err(|e| format!("{plies}: {e}"))?;
    let catalog = Catalog::builtin();
    let mut game = PgnGame::new();
    game.set_tag("Variant", variant);
    let mut at = game.tree.root();
    let entry = catalog.get(variant).ok_or("no such variant")?;
    // The catalog holds games of every number of sides: only two-player ones have
    // narrow rules.
    let moves = match entry.two_player_rules() {
        Some(rules) => long_game(Position::start(rules), plies),
        None => long_game_of_more(Game::new(Arc::clone(entry.rules())), plies),
    };
    for m in &moves {
        at = game.tree.add_move(at, m);
    }
    eprintln!("{file}: {} plies", moves.len());
    std::fs::write(file, write_games(&[game])).map_err(|e| format!("{file}: {e}"))
}

fn resets(pos: &Position<impl hexchess_core::bitboard::CellSet>, mv: Move) -> bool {
    let pawn = pos.rules().pawn_kind();
    pos.is_capture(mv) || pos.piece_at(mv.from()).map(|p| p.kind) == pawn
}

fn long_game(mut pos: Position, plies: usize) -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut seen = HashSet::from([pos.hash()]);
    let mut out = Vec::new();
    while out.len() < plies {
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        rng.shuffle(&mut moves);
        let quiet = moves.iter().filter(|m| !resets(&pos, **m));
        let pawn = moves
            .iter()
            .filter(|m| resets(&pos, **m) && !pos.is_capture(**m));
        let capture = moves.iter().filter(|m| pos.is_capture(**m));
        let near = pos.halfmove_clock() >= 96;
        let choice = quiet
            .filter(|_| !near)
            .map(|m| (*m, true))
            .chain(pawn.chain(capture).map(|m| (*m, false)))
            .find(|&(m, must_be_new)| {
                let mut after = pos.clone();
                after.make_move(m);
                after.clear_history();
                (!must_be_new || !seen.contains(&after.hash())) && after.outcome().is_none()
            });
        let Some((mv, _)) = choice else { break };
        out.push(pos.move_to_san(mv));
        pos.make_move(mv);
        if pos.halfmove_clock() == 0 {
            seen.clear();
        }
        seen.insert(pos.hash());
    }
    out
}

fn long_game_of_more(mut game: Game, turns: usize) -> Vec<String> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < turns && game.end().is_none() {
        let before = game.turns().len();
        let mut texts = Vec::new();
        while game.turns().len() == before {
            let pos = game.position();
            let live = game.sides_in().len() as u16;
            let near = pos.halfmove_clock() + 10 >= 50 * live;
            let mut steps = game.steps();
            rng.shuffle(&mut steps);
            let loud = |s: &Step| match s {
                Step::Play(mv) => mv.is_edit() || resets(pos, *mv),
                Step::Stop => false,
            };
            let (quiet, loud): (Vec<Step>, Vec<Step>) = steps.into_iter().partition(|s| !loud(s));
            let choice = quiet
                .into_iter()
                .filter(|_| !near)
                .map(|s| (s, true))
                .chain(loud.into_iter().map(|s| (s, false)))
                .find(|&(s, must_be_new)| {
                    let mut after = game.lean();
                    after.play_unchecked(s);
                    let new = !seen.contains(&after.position().hash());
                    after.end().is_none() && (new || !must_be_new)
                });
            let Some((step, _)) = choice else { return out };
            if step != Step::Stop {
                texts.push(game.step_text(step));
            }
            game.play_unchecked(step);
        }
        out.push(texts.join("&"));
        if game.position().halfmove_clock() == 0 {
            seen.clear();
        }
        seen.insert(game.position().hash());
    }
    out
}

fn replay(runs: &str, files: &[String]) -> Result<(), String> {
    let runs: usize = runs.parse().map_err(|e| format!("{runs}: {e}"))?;
    let catalog = Catalog::builtin();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let games: Vec<PgnGame> = read_games(&text)
            .into_iter()
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{file}: {e}"))?;
        let plies: usize = games.iter().map(|g| g.tree.main_line().len()).sum();
        let mut best = Duration::MAX;
        let mut outcome = String::new();
        for _ in 0..runs.max(1) {
            let mut copies = games.clone();
            let started = Instant::now();
            let results: Vec<String> = copies
                .iter_mut()
                .map(|g| match g.replay(&catalog) {
                    Ok(end) => format!("replayed to {}", end.to_fen()),
                    Err(e) => format!("refused: {e}"),
                })
                .collect();
            best = best.min(started.elapsed());
            outcome = results.join("; ");
        }
        println!(
            "{file}: {plies} plies, fastest of {runs}: {:.1} ms ({})",
            best.as_secs_f64() * 1000.0,
            outcome.chars().take(160).collect::<String>()
        );
    }
    Ok(())
}
