//! Boards of more than 128 cells: the wide cell sets play them, the narrow ones refuse
//! them with a clear message, and moves agree with a second generator.

mod common;

use std::sync::Arc;

use common::naive::naive_moves;
use hexchess_core::bitboard::WideBitboard;
use hexchess_core::variant::{Variant, parse_variant};
use hexchess_core::{Position, Rules};

/// Standard Hexachess's pieces on a hexagon of radius `radius`, its array on the
/// third rank and pawns on the fifth as on the 127-cell board.
fn standard_on(radius: u8) -> hexchess_core::VariantSpec {
    let text = include_str!("../../../variants/standard.ron")
        .replace("shape: Hexagon(6),", &format!("shape: Hexagon({radius}),"))
        .replace(r#"id: "standard""#, r#"id: "standard-big""#)
        .replace("optional_zone: Ranks([11, 12]),", "");
    parse_variant(&text, "standard-big.ron").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_217_cell_board_is_played_with_wide_cell_sets() {
    let spec = standard_on(8);
    assert_eq!(spec.cells().len(), 217);
    let narrow = Rules::new(&spec).unwrap_err();
    assert!(
        narrow.to_string().contains("boards of up to 128 cells"),
        "{narrow}"
    );
    let rules = Arc::new(Rules::<WideBitboard>::compile(&spec).unwrap());
    let mut pos = Position::start(Arc::clone(&rules));
    let one = naive_moves(&pos, &spec);
    let mut two = 0;
    for mv in pos.legal_moves() {
        pos.make_move(mv);
        two += naive_moves(&pos, &spec);
        assert_eq!(pos.hash(), pos.compute_hash());
        pos.unmake_move();
    }
    assert!(one > 50, "{one}");
    assert_eq!(pos.perft(1), one as u64);
    assert_eq!(pos.perft(2), two as u64);
    // FEN round trip on the big board, cells past index 128 included.
    let fen = pos.to_fen();
    let again = Position::from_fen(Arc::clone(&rules), &fen).unwrap();
    assert_eq!(again.to_fen(), fen);
    assert_eq!(again.hash(), pos.hash());
}

#[test]
fn the_271_cell_board_compiles_and_a_bigger_one_is_refused() {
    let spec = standard_on(9);
    assert_eq!(spec.cells().len(), 271);
    let rules = Arc::new(Rules::<WideBitboard>::compile(&spec).unwrap());
    let mut pos = Position::start(rules);
    assert_eq!(pos.perft(1), naive_moves(&pos, &spec) as u64);
    let text = include_str!("../../../variants/standard.ron").replace("Hexagon(6)", "Hexagon(10)");
    let err = parse_variant(&text, "huge.ron").unwrap_err();
    assert!(
        err.to_string().contains("radius 10 is not supported"),
        "{err}"
    );
}
