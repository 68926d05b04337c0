//! The share of each value over several sets of positions, to find the set McCooey's
//! published percentages were counted over (docs/endgames.md).
//!
//! `cargo run --release -p hexchess-tablebase --example position_sets -- glinski KQvKR`

use hexchess_core::Catalog;
use hexchess_tablebase::{Material, Table, Value};

/// Which positions a share is counted over.
const SETS: [&str; 6] = [
    "white to move",
    "white to move, not in check",
    "black to move",
    "black to move, not in check",
    "white to move, stored once",
    "white to move, no capture",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (variant, material) = match args.as_slice() {
        [v, m] => (v.as_str(), m.as_str()),
        _ => {
            eprintln!("usage: position_sets VARIANT MATERIAL");
            std::process::exit(2);
        }
    };
    let catalog = Catalog::builtin();
    let Some(entry) = catalog.get(variant) else {
        eprintln!("no variant '{variant}'");
        std::process::exit(2);
    };
    let rules = entry.two_player_rules().unwrap();
    let material = Material::parse(material, &rules).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let table = Table::generate(&rules, &material).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    // [set][win, stalemate win, perpetual, fortress, stalemate loss, loss]
    let mut counts = [[0u64; 6]; 6];
    for (i, v) in table.values() {
        let pos = table.position(i);
        let n = table.family(i) as u64;
        let class = match v {
            Value::Win(_) => 0,
            Value::StalemateWin(_) => 1,
            Value::DrawPerpetual => 2,
            Value::Draw => 3,
            Value::StalemateLoss(_) => 4,
            Value::Loss(_) => 5,
        };
        let black = pos.turn().index();
        counts[2 * black][class] += n;
        if !pos.in_check() {
            counts[2 * black + 1][class] += n;
        }
        if black == 0 {
            counts[4][class] += 1;
            if !pos.legal_moves().iter().any(|m| pos.is_capture(*m)) {
                counts[5][class] += n;
            }
        }
    }
    println!(
        "{variant} {}: win, stalemate win, perpetual, fortress, stalemate loss, loss (side to move's view)",
        material.name(&rules)
    );
    for (name, c) in SETS.iter().zip(counts) {
        let total: u64 = c.iter().sum();
        let pct: Vec<String> = c
            .iter()
            .map(|x| format!("{:.4}%", 100.0 * *x as f64 / total.max(1) as f64))
            .collect();
        println!("{name:>28} ({total}): {}", pct.join("  "));
    }
}
