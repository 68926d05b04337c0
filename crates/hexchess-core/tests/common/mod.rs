//! Helpers shared by the core's integration tests.
#![allow(dead_code)]

pub mod naive;

use std::sync::Arc;

use hexchess_core::variant::{VariantSpec, builtin, parse_variant};
use hexchess_core::{Board, Catalog, Cell, Move, Position, Rules};

/// The project's `variants/` folder: the built-ins' files and the mods that ship.
pub fn variants_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants")
}

/// Every variant that ships: the built-ins and the files of `variants/`, read here with
/// `std::fs` (the rules crate reads no files; the game reads them through
/// `hexchess_files`) and added as the game adds them.
pub fn shipped_catalog() -> Catalog {
    let mut catalog = Catalog::builtin();
    let mut paths: Vec<_> = std::fs::read_dir(variants_dir())
        .expect("the variants folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a shipped file reads");
        let _ = catalog.add_file(&path, &text);
    }
    catalog
}

/// The variant of one shipped file of `variants/`.
pub fn shipped_spec(file: &str) -> VariantSpec {
    let path = variants_dir().join(file);
    let text = std::fs::read_to_string(&path).expect("a shipped file reads");
    parse_variant(&text, file).unwrap_or_else(|e| panic!("{e}"))
}

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
    let mut v: Vec<String> = p
        .legal_moves()
        .into_iter()
        .map(|m| p.move_to_lan(m))
        .collect();
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

/// A position with just the listed pieces: (FEN letter, cell name) pairs.
pub fn place(id: &str, turn: char, pieces: &[(char, &str)]) -> Position {
    place_with(id, turn, "-", 0, pieces)
}

/// Like [`place`], with an en-passant field and a halfmove clock.
pub fn place_with(
    id: &str,
    turn: char,
    ep: &str,
    halfmove: u32,
    pieces: &[(char, &str)],
) -> Position {
    let rules = rules(id);
    let board = rules.board();
    let groups = placement(board, |c| {
        pieces
            .iter()
            .find(|(_, n)| *n == board.name(c))
            .map(|(l, _)| *l)
    });
    for (_, n) in pieces {
        assert!(board.parse_cell(n).is_some(), "{n} is not a cell");
    }
    let fen_text = format!("{groups} {turn} {ep} {halfmove} 1");
    Position::from_fen(rules, &fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

/// The board field of a hex FEN: each group of cells (file or rank) with its pieces'
/// letters and counts of empty cells, groups joined by `/`.
pub fn placement(board: &Board, piece_on: impl Fn(Cell) -> Option<char>) -> String {
    let mut groups = Vec::new();
    for g in board.groups() {
        let mut s = String::new();
        let mut empty = 0;
        for c in g {
            match piece_on(*c) {
                Some(l) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(l);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        groups.push(s);
    }
    groups.join("/")
}

/// Checks the staged generators on one position: captures-and-promotions and the rest
/// split the legal moves exactly, and testing a single move (as a search does with a
/// remembered move) agrees with the full list, for this position's moves and for
/// `foreign` ones taken from other positions.
pub fn check_move_sets(p: &Position, foreign: &[Move]) {
    use hexchess_core::MoveSet;
    let fen = p.to_fen();
    let all = p.legal_moves();
    let legality = p.legality();
    let mut noisy = Vec::new();
    let mut quiet = Vec::new();
    p.moves_into(&legality, MoveSet::Noisy, &mut noisy);
    p.moves_into(&legality, MoveSet::Quiet, &mut quiet);
    for m in &noisy {
        assert!(
            p.is_capture(*m) || m.promotion().is_some(),
            "{fen}: noisy {m:?}"
        );
    }
    for m in &quiet {
        assert!(
            !p.is_capture(*m) && m.promotion().is_none(),
            "{fen}: quiet {m:?}"
        );
    }
    let mut split: Vec<Move> = noisy.iter().chain(&quiet).copied().collect();
    let mut sorted_all = all.clone();
    let key = |m: &Move| {
        (
            m.from().index(),
            m.to().index(),
            m.promotion().map(|k| k.index()),
        )
    };
    split.sort_by_key(key);
    sorted_all.sort_by_key(key);
    assert_eq!(split, sorted_all, "{fen}: noisy + quiet != all");
    assert_eq!(p.in_check_with(&legality), p.in_check(), "{fen}");
    let mut scratch = Vec::new();
    for m in all.iter().chain(foreign) {
        assert_eq!(
            p.is_legal_with(&legality, *m, &mut scratch),
            all.contains(m),
            "{fen}: {m:?}"
        );
    }
}
