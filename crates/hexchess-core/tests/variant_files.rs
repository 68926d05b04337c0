//! Variant files: the built-ins load, and broken files give errors a modder can act on.

use hexchess_core::Rules;
use hexchess_core::variant::{BUILTIN_VARIANTS, Variant, VariantError, parse_variant};

const GLINSKI: &str = include_str!("../../../variants/glinski.ron");

/// 1-based line and column of the first occurrence of `needle` in `text` after `after`.
fn position_of(text: &str, after: &str, needle: &str) -> (usize, usize) {
    let start = text.find(after).expect("anchor");
    let at = start + text[start..].find(needle).expect("needle");
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

#[test]
fn every_builtin_loads_and_compiles() {
    let expected = [
        ("glinski", 91, 6),
        ("mccooey", 91, 6),
        ("grand", 127, 9),
        ("standard", 127, 6),
        ("standard-short", 97, 6),
        ("pre-hexachess", 127, 6),
        ("screen-hexachess", 127, 6),
        ("hexachess-3", 217, 6),
        ("hexachess-4", 269, 6),
    ];
    assert_eq!(BUILTIN_VARIANTS.len(), expected.len());
    for (b, (id, cells, kinds)) in BUILTIN_VARIANTS.iter().zip(expected) {
        let spec = b.load().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(spec.id(), id);
        assert_eq!(spec.cells().len(), cells);
        let kinds_compiled = if spec.sides.len() > 2 {
            Rules::<hexchess_core::bitboard::WideBitboard>::compile(&spec)
                .unwrap()
                .kinds()
                .len()
        } else {
            Rules::new(&spec).unwrap().kinds().len()
        };
        assert_eq!(kinds_compiled, kinds);
    }
}

#[test]
fn syntax_error_names_file_line_and_column() {
    let broken = GLINSKI.replace("layout: FlatTop,", "layout: FlatTop");
    let err = parse_variant(&broken, "variants/broken.ron").unwrap_err();
    let VariantError::Syntax {
        file, line, column, ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(file, "variants/broken.ron");
    // The parser notices at the next field name.
    assert_eq!(
        (*line, *column),
        position_of(&broken, "layout: FlatTop", "naming")
    );
    assert!(
        err.to_string()
            .starts_with(&format!("variants/broken.ron:{line}:{column}: ")),
        "{err}"
    );
}

#[test]
fn unknown_field_and_wrong_type_are_located() {
    let broken = GLINSKI.replace("en_passant: true", "en_pasant: true");
    let err = parse_variant(&broken, "x.ron").unwrap_err();
    let VariantError::Syntax { line, message, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(*line, position_of(&broken, "", "en_pasant").0);
    assert!(message.contains("en_pasant"), "{message}");
    assert!(
        err.to_string().contains("did you mean `en_passant`?"),
        "{err}"
    );
    let broken = GLINSKI.replace("Hexagon(5)", "Hexagon(\"five\")");
    let err = parse_variant(&broken, "x.ron").unwrap_err();
    let VariantError::Syntax { line, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(*line, position_of(&broken, "", "Hexagon").0);
}

#[test]
fn unplayable_variant_lists_every_problem_with_its_position() {
    let broken = GLINSKI
        // A setup cell off the board, and a second piece on f1.
        .replace(
            "('Q', [\"e1\"]),",
            "('Q', [\"e1\", \"z9\"]),\n            ('N', [\"f1\"]),",
        )
        // An unknown piece in the setup.
        .replace(
            "('R', [\"c1\", \"i1\"]),",
            "('R', [\"c1\", \"i1\"]),\n            ('X', [\"a1\"]),",
        )
        // A vector that is not a cube vector.
        .replace("Leap(Knight)", "Leap(Vectors([(1, 2, 3)]))")
        // An unknown promotion piece and a promotion cell off the board.
        .replace(
            "choices: ['Q', 'R', 'B', 'N'],",
            "choices: ['Q', 'R', 'B', 'N', 'Z'],\n        optional_zone: Cells([\"f12\"]),",
        )
        // Pawn moves belong in the pawn section.
        .replace(
            "(letter: 'P', name: \"Pawn\")",
            "(letter: 'P', name: \"Pawn\", moves: [Step(Orthogonal)])",
        )
        // No royal piece at all.
        .replace("royal: true", "royal: false");
    let err = parse_variant(&broken, "variants/broken.ron").unwrap_err();
    let VariantError::Invalid { problems, .. } = &err else {
        panic!("{err}")
    };
    let text = err.to_string();
    let expect = |anchor: &str, needle: &str, words: &str| {
        let (line, col) = position_of(&broken, anchor, needle);
        let p = problems
            .iter()
            .find(|p| p.message.contains(words))
            .unwrap_or_else(|| panic!("no problem mentioning {words:?} in\n{text}"));
        assert_eq!((p.line, p.column), (Some(line), Some(col)), "{p}");
    };
    expect("('Q'", "\"z9\"", "\"z9\" is not on the board");
    expect("('B'", "\"f1\"", "two pieces on f1");
    let (l, c) = position_of(&broken, "('N', [\"f1\"]", "\"f1\"");
    assert!(
        text.contains(&format!("(the other is placed at line {l}, column {c})")),
        "{text}"
    );
    expect("('X'", "'X'", "unknown piece 'X'");
    expect("Leap(Vectors", "(1, 2, 3)", "not a cube vector");
    expect("choices", "'Z'", "unknown piece 'Z'");
    expect("optional_zone", "\"f12\"", "\"f12\" is not on the board");
    expect("letter: 'P'", "[Step", "leave its `moves` out");
    assert!(text.contains("White has no royal pieces"), "{text}");
    assert!(text.contains("Black has no royal pieces"), "{text}");
    assert!(problems.len() >= 9, "{text}");
    assert!(
        text.starts_with(&format!(
            "variants/broken.ron: {} problems:",
            problems.len()
        )),
        "{text}"
    );
}

#[test]
fn unknown_field_inside_the_setup_is_a_located_syntax_error() {
    let broken = GLINSKI.replace("black: Mirror,", "black: Mirror,\n        colour: Mirror,");
    let err = parse_variant(&broken, "x.ron").unwrap_err();
    let VariantError::Syntax { line, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(*line, position_of(&broken, "", "colour").0);
    assert!(err.to_string().contains("colour"), "{err}");
}

#[test]
fn black_mirror_off_an_irregular_board_is_reported() {
    // Five cells in files a (q = -1), b (q = 0) and c (q = 1), named within this board:
    // the king on b1 mirrors onto b3, but the pawn on c1 = (1, -5, 4) mirrors off it.
    let broken = GLINSKI
        .replace(
            "shape: Hexagon(5),",
            "shape: Cells([(0, -5, 5), (1, -5, 4), (0, 5, -5), (-1, 0, 1), (0, 0, 0)]),",
        )
        .replace("double_step: FromStartCells,", "");
    let start = broken.find("white: [").unwrap();
    let end = broken[start..].find("],\n        black").unwrap() + start;
    let broken = format!(
        "{}white: [('K', [\"b1\"]), ('P', [\"c1\"]){}",
        &broken[..start],
        &broken[end..]
    );
    let err = parse_variant(&broken, "x.ron").unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("the mirror image of c1 for Black is not on the board"),
        "{text}"
    );
    assert!(!text.contains("of b1"), "{text}");
    assert!(text.contains("1 problem:"), "{text}");
}

#[test]
fn a_broken_setup_phase_names_each_problem_where_it_is() {
    const PRE: &str = include_str!("../../../variants/pre-hexachess.ron");
    let broken = PRE
        // An unknown piece in hand, a kind listed twice, a zone too small for the hand.
        .replace("('N', 2)]", "('N', 2), ('X', 1), ('Q', 1)]")
        .replace("zone: Ranks([3]),", "zone: Cells([\"a3\", \"b3\"]),")
        .replace("distinct_colours: ['B'],", "distinct_colours: ['N', 'W'],");
    let err = parse_variant(&broken, "pre.ron").unwrap_err();
    let VariantError::Invalid { problems, .. } = &err else {
        panic!("{err}")
    };
    let text = err.to_string();
    let at = |words: &str| {
        problems
            .iter()
            .find(|p| p.message.contains(words))
            .unwrap_or_else(|| panic!("no problem mentioning {words:?} in\n{text}"))
    };
    let x = at("unknown piece 'X'");
    assert_eq!(
        (x.line, x.column),
        (
            Some(position_of(&broken, "('X'", "('X'").0),
            Some(position_of(&broken, "('X'", "('X'").1)
        )
    );
    at("'Q' is listed twice in the hand");
    at("White's zone has 2 free cells for 9 pieces in hand");
    at("'W' is not in the hand");
    // `FarEdge` is a promotion zone: a setup zone names cells or ranks.
    let far = PRE.replace("zone: Ranks([3]),", "zone: FarEdge,");
    let err = parse_variant(&far, "pre.ron").unwrap_err();
    assert!(
        err.to_string().contains("name cells or ranks here"),
        "{err}"
    );
}

/// A file opening with RON's extension attribute keeps its problems' positions (they
/// were all lost: the attribute was taken for the document).
#[test]
fn a_file_with_an_enable_header_keeps_its_positions() {
    let broken = format!(
        "#![enable(implicit_some)]\n{}",
        GLINSKI.replace("('Q', [\"e1\"]),", "('Q', [\"e1\", \"z9\"]),")
    );
    let err = parse_variant(&broken, "variants/header.ron").unwrap_err();
    let VariantError::Invalid { problems, .. } = &err else {
        panic!("{err}")
    };
    let (line, col) = position_of(&broken, "('Q'", "\"z9\"");
    let p = problems
        .iter()
        .find(|p| p.message.contains("\"z9\" is not on the board"))
        .unwrap_or_else(|| panic!("{err}"));
    assert_eq!((p.line, p.column), (Some(line), Some(col)), "{p}");
    assert!(line > 1, "the header is a line of its own");
}

/// A piece value the engine could confuse with a mate, or that overflows its sums, is
/// refused where it is written; every value the shipped files give passes.
#[test]
fn piece_values_out_of_range_are_refused_where_they_stand() {
    for value in [
        "2147483647",
        "30000",
        "100000",
        "10001",
        "-1",
        "-2147483648",
    ] {
        let broken = GLINSKI.replace(
            "(letter: 'R', name: \"Rook\"",
            &format!("(letter: 'R', name: \"Rook\", value: {value}"),
        );
        assert_ne!(broken, GLINSKI, "the rook line is as expected");
        let err = parse_variant(&broken, "variants/rich.ron").unwrap_err();
        let VariantError::Invalid { problems, .. } = &err else {
            panic!("{value}: {err}")
        };
        let p = problems
            .iter()
            .find(|p| p.message.contains("value"))
            .unwrap_or_else(|| panic!("{value}: {err}"));
        assert_eq!(
            (p.line, p.column),
            {
                let (l, c) = position_of(&broken, "letter: 'R'", value);
                (Some(l), Some(c))
            },
            "{value}: {err}"
        );
        assert!(p.message.contains("0 to 10000"), "{value}: {p}");
    }
    for value in ["0", "1", "950", "10000"] {
        let fine = GLINSKI.replace(
            "(letter: 'R', name: \"Rook\"",
            &format!("(letter: 'R', name: \"Rook\", value: {value}"),
        );
        parse_variant(&fine, "variants/fine.ron").unwrap_or_else(|e| panic!("{value}: {e}"));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "ron") {
            let text = std::fs::read_to_string(&path).unwrap();
            parse_variant(&text, &path.display().to_string())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

/// Issue 62: Windows Notepad starts a file saved as UTF-8 with a byte order mark. Such a
/// file failed at 1:1 with "Expected opening `(` for struct `VariantDef`"; now the mark
/// is skipped and every built-in reads exactly as it does without one.
#[test]
fn a_byte_order_mark_is_skipped_and_the_variant_reads_as_without_it() {
    for b in BUILTIN_VARIANTS {
        let with_mark = format!("\u{feff}{}", b.source);
        let plain = parse_variant(b.source, b.file).unwrap_or_else(|e| panic!("{e}"));
        let marked = parse_variant(&with_mark, b.file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format!("{marked:?}"), format!("{plain:?}"), "{}", b.file);
    }
}

/// With a byte order mark, errors name the lines and columns an editor shows (which
/// hides the mark): those of the same text without it.
#[test]
fn a_file_with_a_byte_order_mark_names_the_lines_and_columns_shown() {
    let located = |text: &str| match parse_variant(text, "x.ron").unwrap_err() {
        VariantError::Syntax { line, column, .. } => vec![(Some(line), Some(column))],
        VariantError::Invalid { problems, .. } => {
            problems.iter().map(|p| (p.line, p.column)).collect()
        }
        e => panic!("{e}"),
    };
    // A syntax error deep in the file, where the parser notices it.
    let broken = GLINSKI.replace("layout: FlatTop,", "layout: FlatTop");
    let at = position_of(&broken, "layout: FlatTop", "naming");
    assert_eq!(located(&broken), [(Some(at.0), Some(at.1))]);
    assert_eq!(
        located(&format!("\u{feff}{broken}")),
        [(Some(at.0), Some(at.1))]
    );
    // A problem of a file that parsed, located by the checker.
    let broken = GLINSKI.replace("('Q', [\"e1\"]),", "('Q', [\"e1\", \"z9\"]),");
    let at = position_of(&broken, "('Q'", "\"z9\"");
    assert_eq!(located(&broken), [(Some(at.0), Some(at.1))]);
    assert_eq!(
        located(&format!("\u{feff}{broken}")),
        [(Some(at.0), Some(at.1))]
    );
    // On the first line too: the columns do not count the mark.
    let one_line = "(format_version: 1, id: 7)";
    let plain = located(one_line);
    assert_eq!(plain.len(), 1);
    assert!(plain[0].1 > Some(20), "at the id's value: {plain:?}");
    assert_eq!(located(&format!("\u{feff}{one_line}")), plain);
}
