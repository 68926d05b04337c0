//! The setup phase (Pre-HexaChess, Screen HexaChess) and the short board: perft
//! checked by hand, placement rules, the reveal, FEN and notation.

use std::sync::Arc;

use hexchess_core::fen::placement_field;
use hexchess_core::hex::Hex;
use hexchess_core::outcome::Termination;
use hexchess_core::variant::Variant;

mod common;
use common::naive::naive_moves;
use hexchess_core::{Catalog, Cell, Phase, Position, Rules, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn rules(id: &str) -> Arc<Rules> {
    Catalog::builtin()
        .get(id)
        .expect("a built-in")
        .two_player_rules()
        .unwrap()
}

fn play(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = pos
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e} in {}", pos.to_fen()));
        pos.make_move(mv);
    }
}

/// Pre-HexaChess: five kinds (K, Q, R, B, N) on the nine cells of the third rank, so
/// 45 placements; Black the same, 45 x 45. At depth 3 White's second placement: 4
/// kinds x 8 cells after the king or the queen (32), 5 x 8 after a rook or a knight
/// (40), and after a bishop 4 x 8 + the 6 cells of the two other colours (38):
/// 9 x (32 + 32 + 40 + 40 + 38) = 1638 first-and-second placements, times Black's 45.
#[test]
fn pre_hexachess_perft_by_hand() {
    let mut pos = Position::start(rules("pre-hexachess"));
    assert_eq!(pos.perft(1), 45);
    assert_eq!(pos.perft(2), 45 * 45);
    assert_eq!(pos.perft(3), 1638 * 45);
}

/// Screen HexaChess: six kinds on the 57 cells of ranks 1-6 (7 + 8 + 9 + 10 + 11 + 12),
/// and White places again: 5 kinds on 56 cells after the king or the queen, 6 after
/// the others.
#[test]
fn screen_hexachess_perft_by_hand() {
    let mut pos = Position::start(rules("screen-hexachess"));
    assert_eq!(pos.perft(1), 6 * 57);
    assert_eq!(pos.perft(2), 57 * (2 * 5 * 56 + 4 * 6 * 56));
}

#[test]
fn standard_short_perft_agrees_with_a_naive_generator() {
    let spec = hexchess_core::variant::builtin("standard-short")
        .unwrap()
        .unwrap();
    let mut pos = Position::start(rules("standard-short"));
    assert_eq!(spec.cells().len(), 97);
    let one = naive_moves(&pos, &spec);
    let mut two = 0;
    for mv in pos.legal_moves() {
        pos.make_move(mv);
        two += naive_moves(&pos, &spec);
        pos.unmake_move();
    }
    assert!(!pos.in_check());
    assert_eq!(pos.perft(1), one as u64);
    assert_eq!(pos.perft(2), two as u64);
    assert_eq!((one, two), (44, 1932));
    // Standard's rank 3 is rank 1 here: the king's backward moves are gone.
    let standard = Position::start(rules("standard"));
    assert!(one < standard.legal_moves().len(), "{one}");
    // Rank 1 has the pieces, rank 9 Black's, and Hex (0, 0, 0) is still the centre.
    assert!(pos.rules().board().cell(Hex::ORIGIN).is_some());
}

#[test]
fn placements_read_and_write_and_take_back() {
    let mut pos = Position::start(rules("pre-hexachess"));
    let start = pos.to_fen();
    assert!(start.contains("[KQRRBBBNNkqrrbbbnn]"), "{start}");
    let hash = pos.hash();
    let mv = pos.parse_move("N@c3").unwrap();
    assert_eq!(mv.placed_kind(), pos.rules().kind_by_letter('N'));
    assert_eq!(pos.move_to_san(mv), "N@c3");
    assert_eq!(pos.move_to_lan(mv), "N@c3");
    pos.make_move(mv);
    assert_eq!(pos.turn(), Side::Black);
    assert_eq!(pos.hash(), pos.compute_hash());
    let fen = pos.to_fen();
    assert!(fen.contains("[KQRRBBBNkqrrbbbnn] b"), "{fen}");
    let again = Position::from_fen(Arc::clone(pos.rules_arc()), &fen).unwrap();
    assert_eq!(again.hash(), pos.hash());
    // Lower case is read too; Black places on its own third rank only.
    assert!(pos.parse_move("n@c3").is_err());
    assert!(pos.parse_move("n@c11").is_ok());
    pos.unmake_move();
    assert_eq!(pos.to_fen(), start);
    assert_eq!(pos.hash(), hash);
    // Not a placement in this phase: a pawn move, or a cell outside the zone.
    assert!(pos.parse_move("a5a6").is_err());
    assert!(pos.parse_move("Q@a4").is_err());
    assert!(pos.parse_move("c3c3").is_err());
}

#[test]
fn bad_hands_are_named() {
    let rules = rules("pre-hexachess");
    let board = "7/8/9/10/PPPPPPPPPPP/12/13/12/ppppppppppp/10/9/8/7";
    for bad in [
        format!("{board}[KQRRBBBNNkqrrbbbnn w - 0 1"),
        format!("{board}[KQXkq] w - 0 1"),
        format!("{board}[QRRBBBNNkqrrbbbnn] w - 0 1"),
    ] {
        let err = Position::from_fen(Arc::clone(&rules), &bad).unwrap_err();
        assert!(!err.to_string().is_empty(), "{bad}");
    }
    // A hand in a variant without a setup phase.
    let standard = super_rules("standard");
    let fen = "7/8/BNRQBKRNB/10/PPPPPPPPPPP/12/13/12/ppppppppppp/10/bnrqbkrnb/8/7[Q] w - 0 1";
    assert!(Position::from_fen(standard, fen).is_err());
}

fn super_rules(id: &str) -> Arc<Rules> {
    rules(id)
}

/// The three bishops stand on three colours: a second bishop may not go on the first
/// one's colour, and no other piece may take the last free cell of a colour a bishop
/// in hand still needs.
#[test]
fn bishops_go_on_three_colours() {
    let rules = rules("pre-hexachess");
    let b = rules.board();
    let colour = |name: &str| b.hex(b.parse_cell(name).unwrap()).colour();
    let mut pos = Position::start(Arc::clone(&rules));
    assert_eq!(colour("a3"), colour("d3"));
    assert_eq!(colour("a3"), colour("g3"));
    play(&mut pos, &["B@a3", "k@f11"]);
    assert!(pos.parse_move("B@d3").is_err());
    assert!(pos.parse_move("B@b3").is_ok());
    // White fills b3 and e3 with other pieces: h3 is the last cell of that colour.
    play(&mut pos, &["N@b3", "q@d11", "R@e3", "r@c11"]);
    assert_eq!(colour("b3"), colour("h3"));
    assert!(pos.parse_move("Q@h3").is_err(), "h3 is kept for a bishop");
    assert!(pos.parse_move("B@h3").is_ok());
}

/// A random Pre-HexaChess setup ends with White to move, every piece on the board,
/// and the incremental hash right all along.
#[test]
fn a_random_setup_ends_in_play() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..20 {
        let mut pos = Position::start(rules("pre-hexachess"));
        while pos.phase() == Phase::Setup {
            let moves = pos.legal_moves();
            assert!(!moves.is_empty(), "{}", pos.to_fen());
            assert!(!pos.in_check());
            pos.make_move(moves[rng.random_range(0..moves.len())]);
            assert_eq!(pos.hash(), pos.compute_hash());
        }
        assert_eq!(pos.turn(), Side::White);
        assert_eq!(pos.fullmove_number(), 10);
        assert_eq!(pos.occupied().count(), 40);
        assert!(!pos.to_fen().contains('['));
        let kinds: Vec<u8> = pos
            .rules()
            .kinds()
            .map(|k| pos.in_hand(Side::Black, k))
            .collect();
        assert!(kinds.iter().all(|n| *n == 0));
        assert!(pos.legal_moves().iter().all(|m| !m.is_placement()));
        let bishops = pos.kind_cells(Side::White, pos.rules().kind_by_letter('B').unwrap());
        let b = pos.rules().board();
        let mut colours: Vec<u8> = bishops.map(|c| b.hex(c).colour()).collect();
        colours.sort();
        assert_eq!(colours, vec![0, 1, 2]);
    }
}

/// In Screen HexaChess nobody sees the other deployment, so a check can only show at
/// the reveal: Black in check moves first; both kings attacked draws.
#[test]
fn the_reveal_decides_who_moves_first() {
    let rules = rules("screen-hexachess");
    let b = rules.board();
    let zone = |side| rules.setup_zone(side);
    let fen = |pieces: &[(Cell, char)], hand: &str| {
        let field = placement_field(b, |c| pieces.iter().find(|(p, _)| *p == c).map(|(_, l)| *l));
        format!("{field}[{hand}] b - 0 1")
    };
    // White's king and queen deployed, the queen facing the cell where Black's king
    // stands (found by trying the cells); Black's last piece is a pawn.
    let white_king = zone(Side::White).first();
    let (queen, black_king) = zone(Side::White)
        .filter(|q| *q != white_king)
        .flat_map(|q| zone(Side::Black).map(move |k| (q, k)))
        .find(|&(q, k)| {
            let text = fen(&[(white_king, 'K'), (q, 'Q'), (k, 'k')], "p");
            let pos = Position::from_fen(Arc::clone(&rules), &text).unwrap();
            pos.is_attacked(k, Side::White) && !pos.is_attacked(white_king, Side::Black)
        })
        .expect("a queen reaches across the empty middle");
    let pieces = [(white_king, 'K'), (queen, 'Q'), (black_king, 'k')];
    let mut pos = Position::from_fen(Arc::clone(&rules), &fen(&pieces, "p")).unwrap();
    assert_eq!(pos.phase(), Phase::Setup);
    // The pawn goes where it blocks nothing: Black is in check and moves first.
    let quiet = pos
        .legal_moves()
        .into_iter()
        .find(|m| {
            let mut after = pos.clone();
            after.make_move(*m);
            after.turn() == Side::Black
        })
        .expect("a pawn placement off the line");
    pos.make_move(quiet);
    assert_eq!(pos.phase(), Phase::Play);
    assert!(pos.in_check());
    assert!(pos.outcome().is_none());
    // Black's last piece a queen that attacks White's king too: both exposed, drawn.
    let mut pos = Position::from_fen(Arc::clone(&rules), &fen(&pieces, "q")).unwrap();
    let clash = pos
        .legal_moves()
        .into_iter()
        .find(|m| {
            let mut after = pos.clone();
            after.make_move(*m);
            after.phase() == Phase::KingsExposed
        })
        .expect("a queen cell facing White's king");
    pos.make_move(clash);
    assert_eq!(
        pos.outcome().unwrap().termination,
        Termination::KingsExposed
    );
    assert!(pos.legal_moves().is_empty());
    // Taking the placement back returns to the setup.
    pos.unmake_move();
    assert_eq!(pos.phase(), Phase::Setup);
    assert_eq!(pos.hash(), pos.compute_hash());
}

/// Outside a hidden phase no placement gives check or stands the king in one: on a
/// board with no pawn wall, the cells facing the enemy king are refused.
#[test]
fn placements_give_no_check_unless_hidden() {
    let text = include_str!("../../../variants/pre-hexachess.ron")
        .replace(r#"id: "pre-hexachess""#, r#"id: "open-pre""#)
        .replace(
            r#"('P', ["a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5", "k5", "l5"]),"#,
            "",
        )
        .replace("zone: Ranks([3]),", "zone: Ranks([3, 4, 5, 6]),");
    let spec = hexchess_core::variant::parse_variant(&text, "open-pre.ron").unwrap();
    let rules = Arc::new(Rules::new(&spec).unwrap());
    let mut pos = Position::start(Arc::clone(&rules));
    play(&mut pos, &["K@f3", "k@f11"]);
    let checks = |pos: &Position| {
        pos.legal_moves().into_iter().any(|m| {
            let mut after = pos.clone();
            after.make_move(m);
            let them = !pos.turn();
            after.is_attacked(after.royal_cell(them), pos.turn())
        })
    };
    assert!(!checks(&pos));
    // The queen has cells of its zone facing f11 on an empty board, all refused.
    let q = rules.kind_by_letter('Q').unwrap();
    let facing = rules
        .setup_zone(Side::White)
        .filter(|c| pos.piece_at(*c).is_none())
        .filter(|c| {
            let reach = rules.slide_lines(hexchess_core::Piece::new(Side::White, q), *c);
            reach
                .into_iter()
                .any(|line| line.contains(pos.royal_cell(Side::Black)))
        })
        .count();
    assert!(facing > 0);
    let allowed = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.placed_kind() == Some(q))
        .count();
    let free = (rules.setup_zone(Side::White) & !pos.occupied()).count() as usize;
    assert!(allowed < free, "{allowed} of {free}");
}
