//! Each rule of docs/rules.md on positions built for it.

mod common;

use common::{after, fen, place, rules, targets};
use hexchess_core::{Position, Termination};

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn glinski_pawn_advances_one_and_captures_orthogonally_forward() {
    // f5 moves to f6 (blocked here) and captures on e5 and g5, never straight ahead.
    let p = place(
        "glinski",
        'w',
        &[
            ('K', "a1"),
            ('P', "f5"),
            ('k', "l6"),
            ('p', "e5"),
            ('p', "g5"),
            ('r', "f6"),
        ],
    );
    assert_eq!(targets(&p, "f5"), strs(&["e5", "g5"]));
    let p = place("glinski", 'w', &[('K', "a1"), ('P', "f5"), ('k', "l6")]);
    assert_eq!(
        targets(&p, "f5"),
        strs(&["f6", "f7"]),
        "f5 is a start cell: double step"
    );
}

#[test]
fn glinski_double_step_from_any_own_start_cell() {
    // A pawn standing on another file's start cell (as after a capture) may double-step.
    let p = place(
        "glinski",
        'w',
        &[('K', "a1"), ('P', "g4"), ('P', "h5"), ('k', "l6")],
    );
    assert_eq!(targets(&p, "g4"), strs(&["g5", "g6"]));
    assert_eq!(targets(&p, "h5"), strs(&["h6"]), "h5 is no start cell");
    // Both cells must be empty.
    let p = place(
        "glinski",
        'w',
        &[('K', "a1"), ('P', "e4"), ('k', "l6"), ('n', "e6")],
    );
    assert_eq!(targets(&p, "e4"), strs(&["e5"]));
    let p = place(
        "glinski",
        'w',
        &[('K', "a1"), ('P', "e4"), ('k', "l6"), ('n', "e5")],
    );
    assert_eq!(targets(&p, "e4"), Vec::<String>::new());
}

#[test]
fn glinski_en_passant_only_on_the_next_move() {
    let mut p = place(
        "glinski",
        'w',
        &[('K', "a1"), ('P', "g4"), ('k', "l6"), ('p', "h5")],
    );
    let double = p.parse_move("g4g6").unwrap();
    assert!(double.is_double_step());
    p.make_move(double);
    assert_eq!(p.to_fen().split(' ').nth(2), Some("g5"));
    let ep = p.parse_move("h5g5").unwrap();
    assert!(ep.is_en_passant());
    assert_eq!(p.move_to_san(ep), "hxg5");
    let mut taken = p.clone();
    taken.make_move(ep);
    let b = taken.rules().board();
    assert!(
        taken.piece_at(b.parse_cell("g6").unwrap()).is_none(),
        "the double-stepped pawn is removed"
    );
    assert!(taken.piece_at(b.parse_cell("g5").unwrap()).is_some());
    taken.unmake_move();
    assert_eq!(taken, p);
    // One move later the right is gone.
    p.make_move(p.parse_move("l6l5").unwrap());
    p.make_move(p.parse_move("a1a2").unwrap());
    assert!(p.parse_move("h5g5").is_err());
}

#[test]
fn en_passant_that_exposes_the_king_is_illegal_and_does_not_count_for_repetition() {
    // Rook f7, pawns g6 (after the double step) and h5, king i4 on one line: taking en
    // passant would clear the line.
    let mut p = place(
        "glinski",
        'w',
        &[
            ('K', "a1"),
            ('R', "f7"),
            ('P', "g4"),
            ('k', "i4"),
            ('p', "h5"),
        ],
    );
    p.make_move(p.parse_move("g4g6").unwrap());
    assert!(p.parse_move("h5g5").is_err());
    assert_eq!(
        p.to_fen().split(' ').nth(2),
        Some("g5"),
        "FEN still names the skipped cell"
    );
    let same_without_right =
        Position::from_fen(p.rules_arc().clone(), &p.to_fen().replace(" g5 ", " - ")).unwrap();
    assert_eq!(
        p.hash(),
        same_without_right.hash(),
        "an unusable right does not change the position"
    );
}

#[test]
fn glinski_promotion_on_the_last_cell_of_each_file() {
    // (The king stays off the rook's rank: k6 would be pinned on a1's line.)
    let p = place(
        "glinski",
        'w',
        &[('K', "b1"), ('P', "k6"), ('k', "f11"), ('r', "l6")],
    );
    assert_eq!(
        targets(&p, "k6"),
        strs(&["k7b", "k7n", "k7q", "k7r", "l6b", "l6n", "l6q", "l6r"])
    );
    let q = p.parse_move("k7=Q").unwrap();
    assert_eq!(p.move_to_lan(q), "k6k7q");
}

#[test]
fn sliders_and_leapers_follow_hex_geometry() {
    // A diagonal passes between two occupied cells; a knight jumps over a ring of pieces.
    let p = place(
        "glinski",
        'w',
        &[
            ('K', "a1"),
            ('B', "f6"),
            ('k', "l6"),
            ('p', "g6"),
            ('p', "f7"),
        ],
    );
    assert!(targets(&p, "f6").contains(&"g7".to_string()));
    let ring = ["e5", "e6", "f5", "f7", "g5", "g6"];
    let mut pieces = vec![('K', "a1"), ('N', "f6"), ('k', "l6")];
    pieces.extend(ring.iter().map(|c| ('P', *c)));
    let p = place("glinski", 'w', &pieces);
    assert_eq!(targets(&p, "f6").len(), 12);
    // Bishops stay on their colour; the three Gliński bishops stand on three colours.
    let p = Position::start(rules("glinski"));
    let b = p.rules().board();
    let colours: Vec<u8> = ["f1", "f2", "f3"]
        .iter()
        .map(|n| b.hex(b.parse_cell(n).unwrap()).colour())
        .collect();
    assert_eq!(
        {
            let mut c = colours.clone();
            c.sort();
            c
        },
        vec![0, 1, 2]
    );
}

#[test]
fn pinned_pieces_stay_on_the_pin_line_and_double_check_leaves_only_king_moves() {
    let p = place(
        "glinski",
        'w',
        &[
            ('K', "f1"),
            ('R', "f3"),
            ('N', "c1"),
            ('k', "l6"),
            ('r', "f9"),
        ],
    );
    assert_eq!(
        targets(&p, "f3"),
        strs(&["f2", "f4", "f5", "f6", "f7", "f8", "f9"])
    );
    // A rook check along file f and a knight check together.
    let p = place(
        "glinski",
        'w',
        &[
            ('K', "f1"),
            ('R', "a2"),
            ('k', "l6"),
            ('r', "f9"),
            ('n', "d2"),
        ],
    );
    assert!(p.in_check());
    let b = p.rules().board();
    let checkers = p.attackers(p.royal_cell(p.turn()), !p.turn()).count();
    assert_eq!(checkers, 2);
    for m in p.legal_moves() {
        assert_eq!(
            b.name(m.from()),
            "f1",
            "only the king may move in double check"
        );
    }
}

#[test]
fn the_king_may_not_step_into_attack_or_stay_on_the_checking_line() {
    // Rook f9 checks f1 along the file: f2 is still attacked once the king steps back.
    let p = place("glinski", 'w', &[('K', "f2"), ('k', "l6"), ('r', "f9")]);
    let t = targets(&p, "f2");
    assert!(!t.contains(&"f1".to_string()), "{t:?}");
    assert!(!t.contains(&"f3".to_string()));
    assert!(t.contains(&"e2".to_string()));
}

#[test]
fn mccooey_pawns_capture_diagonally_and_the_centre_pawn_never_double_steps() {
    let p = place(
        "mccooey",
        'w',
        &[
            ('K', "a1"),
            ('P', "f5"),
            ('k', "l6"),
            ('n', "e6"),
            ('n', "g6"),
            ('n', "f6"),
        ],
    );
    assert_eq!(targets(&p, "f5"), strs(&["e6", "g6"]));
    let p = Position::start(rules("mccooey"));
    assert_eq!(targets(&p, "f4"), strs(&["f5"]));
    assert_eq!(targets(&p, "e3"), strs(&["e4", "e5"]));
    assert_eq!(targets(&p, "c1"), strs(&["c2", "c3"]));
}

#[test]
fn mccooey_knight_takes_the_unprotected_centre_pawn_with_mate() {
    // The start position with Black's g9 knight on g6 and Black to move.
    let mut p = fen(
        "mccooey",
        "6/7/P6p/RP5pr/QNP4pnq/BBBP3pbbb/KNP2n1p1k/RP5pr/P6p/7/6 b - 0 1",
    );
    let mv = p.parse_move("Nxf4").unwrap();
    assert_eq!(p.move_to_san(mv), "Nxf4#");
    p.make_move(mv);
    let outcome = p.outcome().expect("mate");
    assert_eq!(outcome.termination, Termination::Checkmate);
    assert_eq!(outcome.result_text(), "0-1");
}

#[test]
fn grand_pawns_move_to_two_cells_and_capture_on_the_side_diagonals() {
    let p = place(
        "grand",
        'w',
        &[
            ('K', "d1"),
            ('P', "f5"),
            ('k', "d13"),
            ('n', "e6"),
            ('n', "h6"),
            ('n', "g7"),
        ],
    );
    assert_eq!(targets(&p, "f5"), strs(&["e6", "f6", "g6", "h6"]));
    let p = place(
        "grand",
        'w',
        &[('K', "d1"), ('P', "f5"), ('k', "d13"), ('n', "f6")],
    );
    assert_eq!(
        targets(&p, "f5"),
        strs(&["g6"]),
        "no double step, no straight capture"
    );
}

/// White's full Grand Hexachess army on its start cells, without the listed cells.
fn grand_army_without(missing: &[&str]) -> Vec<(char, &'static str)> {
    let all: [(char, &'static str); 12] = [
        ('D', "c1"),
        ('K', "d1"),
        ('V', "e1"),
        ('B', "a3"),
        ('N', "b3"),
        ('R', "c3"),
        ('Q', "d3"),
        ('B', "e3"),
        ('W', "f3"),
        ('R', "g3"),
        ('N', "h3"),
        ('B', "i3"),
    ];
    all.into_iter()
        .filter(|(_, c)| !missing.contains(c))
        .collect()
}

#[test]
fn grand_promotion_only_to_lost_pieces() {
    // Nothing lost: the rank-12 pawn cannot enter rank 13 at all...
    let mut pieces = grand_army_without(&[]);
    pieces.extend([('P', "c12"), ('k', "f13")]);
    let p = place("grand", 'w', &pieces);
    assert_eq!(targets(&p, "c12"), Vec::<String>::new());
    // ...but still gives check to a king on a13 or d13.
    let mut pieces = grand_army_without(&[]);
    pieces.extend([('P', "c12"), ('k', "d13")]);
    let p = place("grand", 'b', &pieces);
    assert!(p.in_check());
    // One knight lost: the pawn must promote on rank 13, and only to a knight.
    let mut pieces = grand_army_without(&["h3"]);
    pieces.extend([('P', "c12"), ('k', "f13")]);
    let p = place("grand", 'w', &pieces);
    assert_eq!(targets(&p, "c12"), strs(&["b13n", "c13n"]));
    // On rank 11 promotion is optional.
    let mut pieces = grand_army_without(&["h3"]);
    pieces.extend([('P', "c10"), ('k', "f13")]);
    let p = place("grand", 'w', &pieces);
    assert_eq!(targets(&p, "c10"), strs(&["b11", "b11n", "c11", "c11n"]));
}

#[test]
fn grand_duke_is_not_royal() {
    // The duke may stay attacked, and can be captured.
    // g9 is on an orthogonal line from f6 (files are not straight lines on this board).
    let p = place(
        "grand",
        'w',
        &[('K', "d1"), ('D', "f6"), ('k', "d13"), ('r', "g9")],
    );
    assert!(!p.in_check());
    let b = p.rules().board();
    let duke = b.parse_cell("f6").unwrap();
    assert!(p.is_attacked(duke, !p.turn()));
    assert!(
        p.legal_moves().iter().any(|m| m.from() != duke),
        "other moves leave the duke attacked"
    );
    let mut p2 = place(
        "grand",
        'b',
        &[('K', "d1"), ('D', "f6"), ('k', "d13"), ('r', "g9")],
    );
    let take = p2.parse_move("Rxf6").unwrap();
    p2.make_move(take);
    assert!(p2.outcome().is_none());
}

#[test]
fn standard_king_starts_on_f3_and_promotes_among_the_usual_pieces() {
    let p = Position::start(rules("standard"));
    let b = p.rules().board();
    assert_eq!(b.name(p.royal_cell(hexchess_core::Side::White)), "f3");
    assert_eq!(b.name(p.royal_cell(hexchess_core::Side::Black)), "f11");
    let letters: Vec<char> = p
        .rules()
        .promotion_choices()
        .iter()
        .map(|k| p.rules().kind_info(*k).letter)
        .collect();
    assert_eq!(letters, vec!['Q', 'R', 'B', 'N']);
}

#[test]
fn fen_after_moves_tracks_side_en_passant_and_clocks() {
    let p = after("glinski", &["f5f6", "c7c5"]);
    let fen_text = p.to_fen();
    let f: Vec<&str> = fen_text.split(' ').collect();
    assert_eq!(&f[1..], ["w", "c6", "0", "2"]);
    let p = after("glinski", &["f5f6", "c7c5", "Ni3"]);
    let fen_text = p.to_fen();
    let f: Vec<&str> = fen_text.split(' ').collect();
    assert_eq!(&f[1..], ["b", "-", "1", "2"]);
}

/// Found while writing the rules reference: a FEN with an en-passant field made en
/// passant legal in Grand Hexachess, which has none (docs/rules.md §3.4). Refused now.
#[test]
fn a_fen_cannot_give_en_passant_to_a_variant_without_it() {
    let rules = common::rules("grand");
    let fen = "K6/8/9/10/11/12/4P1p6/12/11/10/9/8/3k3 w f8 0 1";
    let e = hexchess_core::Position::from_fen(std::sync::Arc::clone(&rules), fen).unwrap_err();
    assert!(e.to_string().contains("f8"), "{e}");
    let without = "K6/8/9/10/11/12/4P1p6/12/11/10/9/8/3k3 w - 0 1";
    let pos = hexchess_core::Position::from_fen(rules, without).unwrap();
    assert!(pos.parse_move("e7f8").is_err(), "no en passant");
}

/// The message for a FEN of too many fields names the variant's own count: it said "at
/// most 5" also for a variant with a castling field, whose FEN has 6.
#[test]
fn too_many_fen_fields_name_the_variant_s_own_count() {
    let catalog = common::shipped_catalog();
    for (id, most) in [("glinski", 5), ("shafran", 6)] {
        let rules = catalog.get(id).unwrap().two_player_rules().unwrap();
        let start = Position::start(rules.clone()).to_fen();
        assert_eq!(start.split_whitespace().count(), most, "{id}: {start}");
        let e = Position::from_fen(rules, &format!("{start} x")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} fields; a hex FEN of this variant has at most {most}",
                most + 1
            ),
            "{id}"
        );
    }
}
