//! Boards of more than 128 cells: the wide cell sets play them, the narrow ones refuse
//! them with a clear message, and moves agree with a second generator.

mod common;

use std::sync::Arc;

use common::naive::naive_moves;
use hexchess_core::bitboard::WideBitboard;
use hexchess_core::variant::{Variant, parse_variant};
use hexchess_core::{Hex, Position, Rules};

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
        narrow
            .to_string()
            .contains("the board has 217 cells; at most 128 are played here"),
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

/// The issue's test: a variant file with three sides on the 217-cell board loads,
/// validates and generates legal moves for each side in turn, each side's moves its
/// own pieces' and as many as the second generator finds; perft counts the turns of all
/// three.
#[test]
fn three_sides_on_the_217_cell_board_move_in_turn() {
    let text = include_str!("data/three-sides.ron");
    let spec = parse_variant(text, "three-sides.ron").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(spec.cells().len(), 217);
    assert_eq!(spec.sides().len(), 3);
    let rules = Arc::new(Rules::<WideBitboard>::compile(&spec).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(rules.side_count(), 3);
    assert_eq!(rules.side_name(hexchess_core::Side::Third), "Black");
    let mut pos = Position::start(Arc::clone(&rules));
    assert_eq!(pos.occupied().into_iter().count(), 3 * 20);
    let order = [
        hexchess_core::Side::White,
        hexchess_core::Side::Black,
        hexchess_core::Side::Third,
        hexchess_core::Side::White,
    ];
    let mut counts = Vec::new();
    for (i, side) in order.iter().enumerate() {
        assert_eq!(pos.turn(), *side, "turn {i}");
        let moves = pos.legal_moves();
        assert!(!moves.is_empty(), "{side:?} has moves");
        assert_eq!(moves.len(), naive_moves(&pos, &spec), "{side:?}");
        for mv in &moves {
            assert_eq!(pos.piece_at(mv.from()).map(|p| p.side), Some(*side));
        }
        counts.push(moves.len());
        // Hex FEN of three sides: a side letter before each piece, `c` to move third.
        let fen = pos.to_fen();
        let again =
            Position::from_fen(Arc::clone(&rules), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(again.to_fen(), fen);
        assert_eq!(again.hash(), pos.hash());
        assert_eq!(
            fen.split_whitespace().nth(1),
            Some(&side.letter().to_string()[..])
        );
        // A pawn move forward, to open lines for the next side's test.
        let pawn = pos.rules().pawn_kind();
        let mv = moves
            .iter()
            .copied()
            .find(|m| pos.piece_at(m.from()).map(|p| p.kind) == pawn)
            .unwrap_or(moves[0]);
        pos.make_move(mv);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
    // The three armies are the same turned, so each starts with as many moves.
    assert_eq!(counts[0], counts[1]);
    assert_eq!(counts[0], counts[2]);
    assert_eq!(pos.fullmove_number(), 2);
    for _ in 0..4 {
        pos.unmake_move();
    }
    assert_eq!(pos.turn(), hexchess_core::Side::White);
    assert_eq!(pos.hash(), Position::start(Arc::clone(&rules)).hash());
    // Perft 2 sums the second side's moves after each of the first side's.
    let first = pos.legal_moves();
    let mut total = 0;
    for mv in first {
        pos.make_move(mv);
        total += naive_moves(&pos, &spec) as u64;
        pos.unmake_move();
    }
    assert_eq!(pos.perft(2), total);
    // The narrow compiler refuses the board, the two-player compiler the three sides
    // (the catalog's compiler of more sides takes them); a FEN must give every piece
    // its side.
    assert!(Rules::new(&spec).is_err());
    let listed =
        hexchess_core::catalog::compile_two_player(spec.clone(), "three-sides.ron").unwrap_err();
    assert!(
        listed.to_string().contains("a game of more than two sides"),
        "{listed}"
    );
    let compiled = hexchess_core::catalog::compile(&spec, "three-sides.ron").unwrap();
    assert!(compiled.two_player.is_none());
    let start = Position::start(Arc::clone(&rules)).to_fen();
    assert!(start.starts_with("wBwNwRwQwBwKwRwNwB/"), "{start}");
    let bare = start.replacen("wB", "B", 1);
    assert!(Position::from_fen(Arc::clone(&rules), &bare).is_err());
    assert!(Position::from_fen(Arc::clone(&rules), &start.replace(" w ", " d ")).is_err());
}

/// Mistakes in a file of more sides are named: a rotation off the 60-degree grid, a
/// two-player feature, an array not turned.
#[test]
fn a_broken_sides_list_names_each_problem() {
    let text = include_str!("data/three-sides.ron")
        .replace("rotation: 120", "rotation: 100")
        .replace("black: Rotated", "black: Mirror")
        .replace(
            "capture: [(-2, 1, 1), (1, 1, -2)],",
            "capture: [(-2, 1, 1), (1, 1, -2)], en_passant: true,",
        );
    let err = parse_variant(&text, "broken.ron").unwrap_err().to_string();
    assert!(err.contains("rotation 100 is not one of"), "{err}");
    assert!(err.contains("write `black: Rotated`"), "{err}");
    assert!(err.contains("en passant need two sides"), "{err}");
}

/// Each variant gets the narrowest cell sets its board fits in.
#[test]
fn the_cell_sets_are_chosen_per_variant() {
    use hexchess_core::AnyRules;
    let standard = hexchess_core::variant::builtin("standard")
        .unwrap()
        .unwrap();
    assert!(matches!(
        AnyRules::compile(&standard).unwrap(),
        AnyRules::Narrow(_)
    ));
    let three = parse_variant(include_str!("data/three-sides.ron"), "three-sides.ron").unwrap();
    let rules = AnyRules::compile(&three).unwrap();
    assert_eq!((rules.cell_count(), rules.side_count()), (217, 3));
    let AnyRules::Wide(wide) = rules else {
        panic!("217 cells need the wide sets")
    };
    let mut pos = Position::start(wide);
    assert_eq!(pos.perft(1), naive_moves(&pos, &three) as u64);
}

/// Peterson's 3-player pawns promote on any enemy back rank: written as White's
/// promotion cells (the other two sides' edges), each side gets its own enemies' edges.
#[test]
fn promotion_on_any_enemy_back_rank_is_each_sides_own() {
    use hexchess_core::Side;
    let text = include_str!("data/three-sides.ron");
    let plain = parse_variant(text, "three-sides.ron").unwrap();
    let board = hexchess_core::Board::new(plain.layout(), plain.naming(), plain.cells()).unwrap();
    let rotations = [0u8, 2, 4];
    // Each side's back rank: White's rank 1 turned by the side's rotation.
    let back: Vec<Vec<Hex>> = rotations
        .iter()
        .map(|r| {
            board
                .cells()
                .filter(|c| board.rank(*c) == 1)
                .map(|c| board.hex(c).rotated(*r))
                .collect()
        })
        .collect();
    let names: Vec<String> = back[1]
        .iter()
        .chain(&back[2])
        .map(|h| format!("\"{}\"", board.name(board.cell(*h).unwrap())))
        .collect();
    let text = text.replace(
        "zone: FarEdge)",
        &format!("zone: Cells([{}]))", names.join(", ")),
    );
    let spec = parse_variant(&text, "three-sides.ron").unwrap_or_else(|e| panic!("{e}"));
    let rules = Rules::<WideBitboard>::compile(&spec).unwrap();
    for (i, side) in [Side::White, Side::Black, Side::Third]
        .into_iter()
        .enumerate()
    {
        for (j, edge) in back.iter().enumerate() {
            for h in edge {
                let c = board.cell(*h).unwrap();
                assert_eq!(
                    rules.is_promotion_cell(side, c),
                    i != j,
                    "side {i}, edge {j}"
                );
            }
        }
    }
}
