//! The draws of an ending sorted by what holds them, over several sets of positions: to
//! find which definitions give McCooey's published shares (docs/endgames.md). Black is
//! taken as the defender.
//!
//! `cargo run --release -p hexchess-tablebase --example draw_kinds -- mccooey KQvKR`

use hexchess_core::{Catalog, Side};
use hexchess_tablebase::{Material, Restriction, Table, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, material] = args.as_slice() else {
        eprintln!("usage: draw_kinds VARIANT MATERIAL");
        std::process::exit(2);
    };
    let catalog = Catalog::builtin();
    let rules = catalog
        .get(variant)
        .expect("a built-in variant")
        .two_player_rules()
        .unwrap();
    let material = Material::parse(material, &rules).expect("a material");
    let main = Table::generate(&rules, &material).expect("built");
    let limited = |r| Table::generate_restricted(&rules, &material, r).expect("built");
    let checks_only = limited(Restriction::ChecksOnly(Side::Black));
    let no_captures = limited(Restriction::NoCaptures(Side::Black));
    let no_checks = limited(Restriction::NoChecks(Side::Black));
    // The smaller tables, to value each move of a drawn position.
    let smaller: Vec<Table> = material
        .endings_reached(&rules)
        .into_iter()
        .skip(1)
        .map(|m| Table::generate(&rules, &m).expect("built"))
        .collect();
    let value_of = |p: &hexchess_core::Position| -> Option<Value> {
        main.probe(p)
            .or_else(|| smaller.iter().find_map(|t| t.probe(p)))
    };
    // Black to move in a draw, every move that keeps the draw gives check.
    let must_check = |pos: &hexchess_core::Position| -> bool {
        let mut holding = pos.legal_moves().into_iter().filter(|m| {
            let mut after = pos.clone();
            after.make_move(*m);
            !matches!(value_of(&after), Some(Value::Win(_)))
        });
        holding.all(|m| {
            let mut after = pos.clone();
            after.make_move(m);
            after.in_check()
        })
    };
    // Columns: White mates, Black mates, draw, and among draws: held by checking
    // forever (P), needs a capture (C), needs a check (N), C and not P, neither C nor P.
    let names = [
        "white mates",
        "black mates",
        "draw",
        "P",
        "C",
        "N",
        "C not P",
        "not C not P",
        "not N not C",
    ];
    let sets = [
        "white to move",
        "white to move, not in check",
        "black to move",
        "black to move, not in check",
        "both",
    ];
    let mut counts = vec![[0u64; 10]; sets.len()];
    let mut totals = vec![0u64; sets.len()];
    for (i, v) in main.values() {
        let pos = main.position(i);
        let n = main.family(i) as u64;
        let white = pos.turn() == Side::White;
        let in_check = pos.in_check();
        let mut row = [0u64; 10];
        match (v, white) {
            (Value::Win(_), true) | (Value::Loss(_), false) => row[0] = n,
            (Value::Win(_), false) | (Value::Loss(_), true) => row[1] = n,
            _ => {
                row[2] = n;
                let p = checks_only.mate_winner_at(i) != Some(Side::White);
                let c = no_captures.mate_winner_at(i) == Some(Side::White);
                let k = no_checks.mate_winner_at(i) == Some(Side::White);
                row[3] = n * u64::from(p);
                row[4] = n * u64::from(c);
                row[5] = n * u64::from(k);
                row[6] = n * u64::from(c && !p);
                row[7] = n * u64::from(!c && !p);
                row[8] = n * u64::from(!k && !c);
                // Black to move must check now to hold; White to move is in check.
                let now = if white { in_check } else { must_check(&pos) };
                row[9] = n * u64::from(now);
            }
        }
        let mut add = |s: usize| {
            totals[s] += n;
            for (a, b) in counts[s].iter_mut().zip(row) {
                *a += b;
            }
        };
        add(if white { 0 } else { 2 });
        if !in_check {
            add(if white { 1 } else { 3 });
        }
        add(4);
    }
    println!("{variant} {}", material.name(&rules));
    println!("{:>30} {}", "", names.map(|n| format!("{n:>11}")).join(" "));
    for (s, name) in sets.iter().enumerate() {
        let cells: Vec<String> = counts[s]
            .iter()
            .map(|c| format!("{:>10.4}%", 100.0 * *c as f64 / totals[s].max(1) as f64))
            .collect();
        println!("{name:>30} {}", cells.join(" "));
    }
}
