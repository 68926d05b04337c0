//! Helpers shared by the core's integration tests.
#![allow(dead_code)]

use std::sync::Arc;

use hexchess_core::variant::builtin;
use hexchess_core::{Position, Rules};

/// Compiled rules of a built-in variant.
pub fn rules(id: &str) -> Arc<Rules> {
    let spec = builtin(id).expect("a built-in id").expect("built-ins load");
    Arc::new(Rules::new(&spec).expect("built-ins compile"))
}

/// A position from a FEN of a built-in variant.
pub fn fen(id: &str, fen: &str) -> Position {
    Position::from_fen(rules(id), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The start position with moves (long algebraic or SAN) played.
pub fn after(id: &str, moves: &[&str]) -> Position {
    let mut p = Position::start(rules(id));
    for m in moves {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.make_move(mv);
    }
    p
}

/// Legal moves in long algebraic, sorted.
pub fn lan_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().into_iter().map(|m| p.move_to_lan(m)).collect();
    v.sort();
    v
}

/// Legal moves of the piece on `cell`, as target names (with promotion letters), sorted.
pub fn targets(p: &Position, cell: &str) -> Vec<String> {
    let b = p.rules().board();
    let from = b.parse_cell(cell).expect("cell");
    let mut v: Vec<String> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == from)
        .map(|m| p.move_to_lan(m)[cell.len()..].to_string())
        .collect();
    v.sort();
    v
}
