//! Tables checked by a second method: every sampled position's value must follow from
//! its moves the way minimax says (using the position's own move generator, not the
//! table builder's), short mates must be found by a plain search, and whole tables must
//! say what is known of their endings.

use std::collections::HashMap;
use std::sync::Arc;

use hexchess_core::catalog::compile;
use hexchess_core::variant::parse_variant;
use hexchess_core::{Catalog, Position, Rules};
use hexchess_tablebase::{Material, MaterialError, Table, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn glinski() -> Arc<Rules> {
    Arc::clone(&Catalog::builtin().get("glinski").unwrap().rules)
}

/// A 37-cell variant with kings, rooks and knights: small enough for four-man tables in
/// a test, so that captures into smaller tables are checked too.
fn tiny() -> Arc<Rules> {
    let text = r#"(
        format_version: 1,
        id: "tiny-tb",
        name: "Tiny tablebase board",
        board: (shape: Hexagon(3), layout: FlatTop),
        pieces: [
            (letter: 'K', name: "King", royal: true, moves: [Step(Orthogonal), Step(Diagonal)]),
            (letter: 'R', name: "Rook", moves: [Slide(Orthogonal)]),
            (letter: 'N', name: "Knight", moves: [Leap(Knight)]),
        ],
        setup: Pieces(white: [('K', ["d1"]), ('R', ["c1"]), ('N', ["e1"])]),
    )"#;
    let spec = parse_variant(text, "tiny-tb.ron").unwrap_or_else(|e| panic!("{e}"));
    compile(spec, "tiny-tb.ron").unwrap_or_else(|e| panic!("{e}"))
}

/// A position's value from the table of its own material.
fn value_of(tables: &HashMap<String, Table>, rules: &Rules, pos: &Position) -> Value {
    let mut best = None;
    for table in tables.values() {
        if let Some(v) = table.probe(pos) {
            best = Some(v);
        }
    }
    // Bare kings: no table needed, no mate possible.
    best.unwrap_or_else(|| {
        assert_eq!(
            pos.occupied().count(),
            2,
            "no table for {} ({})",
            pos.to_fen(),
            rules.id()
        );
        Value::NoForcedMate
    })
}

/// What minimax says a position is worth, from its children's values.
fn from_children(tables: &HashMap<String, Table>, rules: &Rules, pos: &Position) -> Value {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.in_check() {
            Value::Loss(0)
        } else {
            Value::NoForcedMate
        };
    }
    let mut fastest_win: Option<u16> = None;
    let mut slowest_loss: Option<u16> = Some(0);
    for m in moves {
        let mut child = pos.clone();
        child.make_move(m);
        match value_of(tables, rules, &child) {
            Value::Loss(d) => fastest_win = Some(fastest_win.map_or(d + 1, |w| w.min(d + 1))),
            Value::Win(d) => slowest_loss = slowest_loss.map(|l| l.max(d + 1)),
            Value::NoForcedMate => slowest_loss = None,
        }
    }
    match (fastest_win, slowest_loss) {
        (Some(w), _) => Value::Win(w),
        (None, Some(l)) => Value::Loss(l),
        (None, None) => Value::NoForcedMate,
    }
}

/// Builds `names`' tables (and keeps each under its name).
fn tables(rules: &Arc<Rules>, names: &[&str]) -> HashMap<String, Table> {
    names
        .iter()
        .map(|n| {
            let m = Material::parse(n, rules).unwrap();
            (n.to_string(), Table::generate(rules, &m).unwrap())
        })
        .collect()
}

/// Samples legal positions of `table` and checks each against its children.
fn check_against_minimax(
    tables: &HashMap<String, Table>,
    rules: &Rules,
    name: &str,
    samples: usize,
) {
    let table = &tables[name];
    let legal: Vec<(usize, Value)> = table.values().collect();
    let mut rng = StdRng::seed_from_u64(27);
    for _ in 0..samples {
        let (i, v) = legal[rng.random_range(0..legal.len())];
        let pos = table.position(i);
        assert_eq!(
            table.probe(&pos),
            Some(v),
            "{name}: index and position agree"
        );
        assert_eq!(
            from_children(tables, rules, &pos),
            v,
            "{name}: {}",
            pos.to_fen()
        );
    }
}

/// Whether the side to move mates within `plies` (odd) plies, by plain search.
fn mates_within(pos: &Position, plies: u16) -> bool {
    if plies == 0 {
        return false;
    }
    pos.legal_moves().into_iter().any(|m| {
        let mut child = pos.clone();
        child.make_move(m);
        let replies = child.legal_moves();
        if replies.is_empty() {
            return child.in_check();
        }
        plies >= 3
            && replies.into_iter().all(|r| {
                let mut next = child.clone();
                next.make_move(r);
                mates_within(&next, plies - 2)
            })
    })
}

#[test]
fn king_and_rook_mate_a_lone_king_and_every_value_follows_from_the_moves() {
    let rules = glinski();
    let tables = tables(&rules, &["KRvK", "KvKR"]);
    check_against_minimax(&tables, &rules, "KRvK", 400);
    check_against_minimax(&tables, &rules, "KvKR", 200);
    let counts = tables["KRvK"].counts();
    // McCooey: K+R mates a lone king. With White to move, every position is a win but
    // those where Black's king can take the rook or is stalemated first.
    let white = counts.wins[0] as f64 / (counts.wins[0] + counts.neither[0]) as f64;
    assert!(white > 0.97, "{counts:?}");
    assert_eq!(counts.losses[0], 0, "the side with the rook is never mated");
    assert!(counts.longest > 20 && counts.longest < 80, "{counts:?}");
}

#[test]
fn short_mates_in_the_table_are_found_by_a_plain_search_and_no_shorter() {
    let rules = glinski();
    let tables = tables(&rules, &["KQvK"]);
    let table = &tables["KQvK"];
    let mut rng = StdRng::seed_from_u64(5);
    let wins: Vec<(usize, u16)> = table
        .values()
        .filter_map(|(i, v)| match v {
            Value::Win(d) if d <= 5 => Some((i, d)),
            _ => None,
        })
        .collect();
    assert!(wins.iter().any(|(_, d)| *d == 5));
    for _ in 0..60 {
        let (i, d) = wins[rng.random_range(0..wins.len())];
        let pos = table.position(i);
        assert!(
            mates_within(&pos, d),
            "no mate in {d} plies: {}",
            pos.to_fen()
        );
        assert!(
            d < 3 || !mates_within(&pos, d - 2),
            "a mate faster than {d}: {}",
            pos.to_fen()
        );
    }
}

#[test]
fn four_man_tables_read_their_captures_from_smaller_tables() {
    let rules = tiny();
    let names = ["KRvKN", "KRvK", "KvKN", "KNvK", "KvKR", "KNvKR"];
    let tables = tables(&rules, &names);
    check_against_minimax(&tables, &rules, "KRvKN", 400);
    check_against_minimax(&tables, &rules, "KNvKR", 200);
    // On so small a board king and knight mate a lone king in a corner, but only where
    // it is already next to mate: every such win is a mate a plain search finds.
    let knight = &tables["KNvK"];
    for (i, v) in knight.values() {
        if let Value::Win(d) = v {
            assert!(
                mates_within(&knight.position(i), d),
                "{}",
                knight.position(i).to_fen()
            );
        }
    }
    assert!(tables["KRvKN"].counts().wins[0] > 0);
}

#[test]
fn materials_are_read_with_clear_errors() {
    let rules = glinski();
    let m = Material::parse("kqvkr", &rules).unwrap();
    assert_eq!(m.name(&rules), "KQvKR");
    assert_eq!(m.men(), 4);
    for (text, error) in [
        ("KQ", MaterialError::Syntax("KQ".into())),
        ("KZvK", MaterialError::UnknownPiece('Z')),
        (
            "QvK",
            MaterialError::Royals {
                side: "White",
                count: 0,
            },
        ),
        ("KPvK", MaterialError::Pawn('P')),
        ("KQRvKR", MaterialError::TooManyMen(5)),
    ] {
        assert_eq!(Material::parse(text, &rules), Err(error.clone()), "{text}");
        assert!(!error.to_string().is_empty());
    }
}
