//! The commands for games of more than two sides: perft counted in whole turns, and
//! the round robin of the engine's searches.

use std::sync::Arc;

use hexchess_core::Rules;
use hexchess_core::bitboard::WideBitboard;
use hexchess_core::game::Game;
use hexchess_engine::multi::{Player, Strategy};
use hexchess_lab::round_robin::{self, RoundRobinConfig};

/// Perft in whole turns (a removal, one or two moves), from the start or a FEN, after
/// turns written as the game writes them (`e3e4`, `Nc3&Qd4`).
pub fn perft(
    rules: Arc<Rules<WideBitboard>>,
    depth: u32,
    fen: Option<&str>,
    turns: &[String],
    divide: bool,
) -> Result<u64, String> {
    let game = Game::from_moves(rules, fen, turns).map_err(|e| e.to_string())?;
    if !divide || depth == 0 {
        return Ok(game.perft(depth));
    }
    let before = game.turns().len();
    let mut lines = Vec::new();
    game.for_each_turn(&mut |g| {
        let text = g.turn_texts().get(before).cloned().unwrap_or_default();
        lines.push((text, g.perft(depth - 1)));
        true
    });
    lines.sort();
    for (text, n) in &lines {
        println!("{text}: {n}");
    }
    Ok(lines.iter().map(|l| l.1).sum())
}

/// Plays the round robin and prints each game as it ends, then the table.
pub fn round_robin(
    variant: &str,
    strategies: &[String],
    config: RoundRobinConfig,
) -> Result<(), String> {
    let entry = crate::entry_for(variant)?;
    if entry.side_count() <= 2 {
        return Err(format!("'{variant}' is not a game of more sides"));
    }
    let rules = entry.rules();
    let strategies: Vec<Player> = if strategies.is_empty() {
        Strategy::ALL.map(Player::new).to_vec()
    } else {
        strategies
            .iter()
            .map(|s| s.parse())
            .collect::<Result<_, _>>()?
    };
    let config = RoundRobinConfig {
        strategies,
        ..config
    };
    let report = round_robin::run(rules, &config, &|i, r| {
        let seats: Vec<String> = r
            .seats
            .iter()
            .zip(&r.points)
            .map(|(s, p)| format!("{s} {p:.2}"))
            .collect();
        println!(
            "game {:>4}: {} ({} turns, {})",
            i + 1,
            seats.join(", "),
            r.turns,
            r.reason
                .map_or("turn limit".to_string(), |x| format!("{x:?}"))
        );
        if r.reason.is_none() {
            println!("      left at: {}", r.final_fen);
        }
    })
    .map_err(|e| e.to_string())?;
    println!("{report}");
    Ok(())
}
