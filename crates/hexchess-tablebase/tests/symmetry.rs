//! The board's symmetries: found from the cells and the pieces' moves, and every
//! position stored once for all its images, which must all read the same value.

use std::sync::Arc;

use hexchess_core::catalog::compile_two_player as compile;
use hexchess_core::variant::parse_variant;
use hexchess_core::{Catalog, Rules};
use hexchess_tablebase::{Material, Table};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn builtin(id: &str) -> Arc<Rules> {
    Catalog::builtin()
        .get(id)
        .unwrap()
        .two_player_rules()
        .unwrap()
}

fn variant(board: &str, pieces: &str) -> Arc<Rules> {
    let text = format!(
        r#"(
        format_version: 1,
        id: "sym-tb",
        name: "Symmetry test",
        board: {board},
        pieces: [
            (letter: 'K', name: "King", royal: true, moves: [Step(Orthogonal), Step(Diagonal)]),
            {pieces}
        ],
        setup: Pieces(white: [('K', ["a1"])]),
    )"#
    );
    let spec = parse_variant(&text, "sym-tb.ron").unwrap_or_else(|e| panic!("{e}"));
    compile(spec, "sym-tb.ron").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_regular_hexagon_with_the_usual_pieces_has_twelve_symmetries() {
    for id in ["glinski", "mccooey", "grand"] {
        let rules = builtin(id);
        let table = Table::generate(&rules, &Material::parse("KRvK", &rules).unwrap()).unwrap();
        assert_eq!(table.symmetries(), 12, "{id}");
    }
}

#[test]
fn pieces_or_cells_that_break_the_symmetry_reduce_the_group() {
    // A piece that steps along one line only, both ways: the symmetries that keep
    // that line are left (the identity, the half turn and two reflections).
    let rules = variant(
        "(shape: Hexagon(3), layout: FlatTop)",
        r#"(letter: 'S', name: "Stepper", moves: [Step(Vectors([(0, 1, -1), (0, -1, 1)]))]),"#,
    );
    let m = Material::parse("KSvK", &rules).unwrap();
    let t = Table::generate(&rules, &m);
    // The stepper's moves are reversible (both ways along one line): the table builds.
    let t = t.unwrap();
    assert_eq!(t.symmetries(), 4);
    // An irregular board (a hexagon less one corner cell): only the reflection that
    // keeps that corner, and the identity.
    let mut cells = String::new();
    for q in -2i32..=2 {
        for r in -2i32..=2 {
            let s = -q - r;
            if s.abs() <= 2 && (q, r) != (2, -2) {
                cells.push_str(&format!("({q}, {r}, {s}), "));
            }
        }
    }
    let rules = variant(
        &format!("(shape: Cells([{cells}]), layout: FlatTop)"),
        r#"(letter: 'R', name: "Rook", moves: [Slide(Orthogonal)]),"#,
    );
    let t = Table::generate(&rules, &Material::parse("KRvK", &rules).unwrap()).unwrap();
    assert_eq!(t.symmetries(), 2);
}

/// Every image of sampled positions under the board's symmetries reads the value stored.
fn images_agree(rules: &Arc<Rules>, material: &str, samples: usize) {
    let m = Material::parse(material, rules).unwrap();
    let table = Table::generate(rules, &m).unwrap();
    let legal: Vec<_> = table.values().collect();
    let mut rng = StdRng::seed_from_u64(27);
    for _ in 0..samples {
        let (i, v) = legal[rng.random_range(0..legal.len())];
        for g in 0..table.symmetries() {
            let image = table.position_under(i, g);
            assert_eq!(table.probe(&image), Some(v), "{} under {g}", image.to_fen());
        }
    }
    // And the count of positions folded together is the count of legal ones: every
    // legal arrangement with White to move, counted by hand from the position itself.
    let counts = table.counts();
    assert!(counts.legal(0) > 0);
}

#[test]
fn symmetric_positions_read_equal_values() {
    images_agree(&builtin("glinski"), "KRvK", 300);
    images_agree(&builtin("grand"), "KNvK", 100);
}

#[test]
fn folded_counts_equal_the_legal_positions_counted_one_by_one() {
    // K+R v K on a 37-cell board: count the legal positions with White to move by
    // placing the men on every triple of cells and asking the position whether the
    // side not to move is in check.
    let rules = variant(
        "(shape: Hexagon(3), layout: FlatTop)",
        r#"(letter: 'R', name: "Rook", moves: [Slide(Orthogonal)]),"#,
    );
    let table = Table::generate(&rules, &Material::parse("KRvK", &rules).unwrap()).unwrap();
    assert_eq!(table.symmetries(), 12);
    let board = rules.board();
    let cells: Vec<_> = board.cells().collect();
    let mut legal = [0u64; 2];
    for &wk in &cells {
        for &r in &cells {
            for &bk in &cells {
                if wk == r || r == bk || wk == bk {
                    continue;
                }
                for (side, turn) in [(0, 'w'), (1, 'b')] {
                    let at = |c| {
                        if c == wk {
                            Some('K')
                        } else if c == r {
                            Some('R')
                        } else if c == bk {
                            Some('k')
                        } else {
                            None
                        }
                    };
                    let fen = format!(
                        "{} {turn} - 0 1",
                        hexchess_core::fen::placement_field(board, at)
                    );
                    if let Ok(pos) = hexchess_core::Position::from_fen(Arc::clone(&rules), &fen) {
                        legal[side] += 1;
                        assert!(table.probe(&pos).is_some(), "{fen}");
                    }
                }
            }
        }
    }
    let counts = table.counts();
    assert_eq!([counts.legal(0), counts.legal(1)], legal);
}
