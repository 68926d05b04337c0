//! Small variants for the tables' tests: boards small enough that whole tables, and
//! their checks by a second method, take seconds.

use std::sync::Arc;

use hexchess_core::Rules;
use hexchess_core::catalog::compile_two_player as compile;
use hexchess_core::variant::parse_variant;

/// `draws: (...)` for a variant file: the move rule of `plies`, or the default (100).
fn draws(plies: Option<u16>) -> String {
    plies.map_or(String::new(), |p| format!("draws: (move_rule_plies: {p}),"))
}

fn compiled(text: &str, file: &str) -> Arc<Rules> {
    let spec = parse_variant(text, file).unwrap_or_else(|e| panic!("{e}"));
    compile(spec, file).unwrap_or_else(|e| panic!("{e}"))
}

/// A 37-cell variant with kings, rooks and knights: small enough for four-man tables in
/// a test, so that captures into smaller tables are checked too.
#[allow(dead_code)]
pub fn tiny(move_rule: Option<u16>) -> Arc<Rules> {
    tiny_with(&draws(move_rule))
}

/// [`tiny`] scoring stalemates as Gliński does (3/4 to the side that stalemates), so
/// that its tables take the stalemate pass.
#[allow(dead_code)]
pub fn tiny_scoring_stalemates() -> Arc<Rules> {
    tiny_with("stalemate: (stalemating: 0.75, stalemated: 0.25),")
}

fn tiny_with(extra: &str) -> Arc<Rules> {
    let text = format!(
        r#"(
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
        {extra}
    )"#
    );
    compiled(&text, "tiny-tb.ron")
}

/// A 19-cell variant with pawns that step twice from their first cells and take en
/// passant, promoting to knights (`tests/data/tiny-pawns.ron`), with a move rule of
/// `move_rule` plies (100 by default).
#[allow(dead_code)]
pub fn pawns_both_sides(move_rule: Option<u16>) -> Arc<Rules> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiny-pawns.ron");
    let text = std::fs::read_to_string(path).expect("tests/data/tiny-pawns.ron");
    let text = text.replace(
        "    setup:",
        &format!("    {}\n    setup:", draws(move_rule)),
    );
    compiled(&text, "tiny-pawns.ron")
}

/// The 19-cell board with the pawns of the built-in variant `id` (its file's own `pawn`
/// section, so the tests follow any change to it), promoting to knights: K+P v K+P
/// under each pawn rule, small enough for a test. McCooey's centre pawn, the one that
/// may not step twice, stands on the small board's c2.
#[allow(dead_code)]
pub fn pawn_rule_on_small_board(id: &str) -> Arc<Rules> {
    let path = format!("{}/../../variants/{id}.ron", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = text.find("\n    pawn: (").expect("a pawn section");
    let end = start + text[start..].find("\n    ),").expect("its end") + "\n    ),".len();
    let pawn = text[start..end].replace(r#"["f4"]"#, r#"["c2"]"#);
    let (layout, men) = if text.contains("PointyTop") {
        (
            "layout: PointyTop, naming: Ranks",
            r#"('K', ["b1"]), ('N', ["c1"]), ('P', ["a2", "b2", "c2", "d2"])"#,
        )
    } else {
        (
            "layout: FlatTop",
            r#"('K', ["a1"]), ('N', ["e1"]), ('P', ["b1", "c2", "d1"])"#,
        )
    };
    let text = format!(
        r#"(
        format_version: 1,
        id: "small-{id}",
        name: "Small board with {id}'s pawns",
        board: (shape: Hexagon(2), {layout}),
        pieces: [
            (letter: 'K', name: "King", royal: true, moves: [Step(Orthogonal), Step(Diagonal)]),
            (letter: 'N', name: "Knight", moves: [Leap(Knight)]),
            (letter: 'P', name: "Pawn"),
        ],
        {pawn}
        promotion: (choices: ['N'], zone: FarEdge),
        setup: Pieces(white: [{men}], black: Mirror),
    )"#
    );
    compiled(&text, &format!("small-{id}.ron"))
}
