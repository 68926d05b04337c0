//! The board editor's rules side: a `Setup` edited freely, then validated into a
//! position or refused with every problem named; FEN reads through the same checks.

mod common;

use std::sync::Arc;

use hexchess_core::bitboard::WideBitboard;
use hexchess_core::variant::parse_variant;
use hexchess_core::{
    Catalog, Cell, EditError, EnPassantFault, FenError, Kind, Piece, Position, Rules, Setup,
    SetupError, SetupProblem, Side,
};

fn catalog() -> Catalog {
    common::shipped_catalog()
}

fn rules(id: &str) -> Arc<Rules> {
    catalog()
        .get(id)
        .expect("a variant")
        .two_player_rules()
        .unwrap()
}

fn cell(rules: &Rules, name: &str) -> Cell {
    rules
        .board()
        .parse_cell(name)
        .unwrap_or_else(|| panic!("{name} is not a cell"))
}

fn kind(rules: &Rules, letter: char) -> Kind {
    rules.kind_by_letter(letter).expect("a piece letter")
}

/// A setup of `id` with the listed pieces (FEN letter, cell) and `turn` to move.
fn setup(id: &str, turn: Side, pieces: &[(char, &str)]) -> Setup {
    let rules = rules(id);
    let mut s = Setup::empty(Arc::clone(&rules));
    for (letter, name) in pieces {
        let piece = rules.piece_from_letter(*letter).expect("a piece letter");
        assert_eq!(s.place(cell(&rules, name), piece), Ok(None), "{name} twice");
    }
    s.set_turn(turn).unwrap();
    s
}

fn problems(s: &Setup) -> SetupError {
    s.validate().expect_err("an illegal setup")
}

#[test]
fn every_two_player_start_and_some_later_positions_round_trip_through_a_setup() {
    let catalog = catalog();
    let mut seen = 0;
    for entry in catalog.entries() {
        let Some(rules) = entry.two_player_rules() else {
            continue;
        };
        let mut pos = Position::start(Arc::clone(&rules));
        // Some plies in (pawn moves, en-passant rights, placements, castling lost).
        for ply in 0..6 {
            let fen = pos.to_fen();
            let s = Setup::from_position(&pos);
            assert_eq!(s.to_fen(), fen, "{} ply {ply}", entry.id());
            let back = s.validate().unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(back.to_fen(), fen);
            assert_eq!(back.hash(), pos.hash(), "{fen}");
            let read = Setup::from_fen(Arc::clone(&rules), &fen).unwrap();
            assert_eq!(read, s, "{fen}");
            let moves = pos.legal_moves();
            let Some(mv) = moves.into_iter().max_by_key(|m| m.to().index() ^ ply) else {
                break;
            };
            pos.make_move(mv);
        }
        seen += 1;
    }
    assert!(seen >= 10, "{seen} variants");
}

/// Gliński after 1. f6 c5: an en-passant cell (c6) to keep.
fn after_f6_c5(r: &Arc<Rules>) -> Position {
    let mut pos = Position::start(Arc::clone(r));
    for m in ["f5f6", "c7c5"] {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

#[test]
fn en_passant_cells_and_castling_rights_survive_a_setup() {
    let r = rules("glinski");
    let pos = after_f6_c5(&r);
    let s = Setup::from_position(&pos);
    assert_eq!(s.en_passant(), [cell(&r, "c6")]);
    assert_eq!(s.validate().unwrap().to_fen(), pos.to_fen());

    let shafran = rules("shafran");
    let fen = "RP2pr/NP3pb/BP4pn/Q3P2pb/KP6pk/BP5pq/NP4pb/BP3pn/RP2pr b ABCDabcd d3,d4 0 1";
    let s = Setup::from_fen(Arc::clone(&shafran), fen).unwrap();
    assert_eq!(s.en_passant(), [cell(&shafran, "d3"), cell(&shafran, "d4")]);
    assert_eq!(s.castling_rights(), 0xFF);
    assert_eq!(s.validate().unwrap().to_fen(), fen);
}

#[test]
fn a_side_without_its_king_is_named() {
    let s = setup("glinski", Side::White, &[('K', "f1")]);
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::MissingRoyal { side: Side::Black }]
    );
    assert_eq!(err.to_string(), "Black has no king");
}

#[test]
fn two_kings_of_one_side_are_refused_on_the_board_and_in_hand() {
    let s = setup(
        "glinski",
        Side::White,
        &[('K', "f1"), ('K', "a1"), ('k', "f11")],
    );
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::TooManyRoyals {
            side: Side::White,
            count: 2
        }]
    );
    assert_eq!(err.to_string(), "White has 2 kings; a side has exactly one");

    // Pre-HexaChess: a king on the board and one still in hand.
    let r = rules("pre-hexachess");
    let mut s = Setup::from_position(&Position::start(Arc::clone(&r)));
    s.place(cell(&r, "f3"), Piece::new(Side::White, kind(&r, 'K')))
        .unwrap();
    assert_eq!(s.in_hand(Side::White, kind(&r, 'K')), 1);
    assert_eq!(
        problems(&s).problems(),
        [SetupProblem::TooManyRoyals {
            side: Side::White,
            count: 2
        }]
    );
}

#[test]
fn a_pawn_where_it_must_promote_is_refused_one_step_short_is_not() {
    let r = rules("glinski");
    // f11 is the last cell of file f, where White's pawns promote (docs/rules.md §3.5).
    assert_eq!(r.board().groups()[5].last(), Some(&cell(&r, "f11")));
    let base = [('K', "a1"), ('k', "l6")];
    let mut s = setup("glinski", Side::White, &base);
    s.place(cell(&r, "f10"), Piece::new(Side::White, kind(&r, 'P')))
        .unwrap();
    assert!(s.validate().is_ok());
    s.move_piece(cell(&r, "f10"), cell(&r, "f11")).unwrap();
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::PawnOnPromotionCell {
            side: Side::White,
            cell: cell(&r, "f11")
        }]
    );
    assert_eq!(
        err.to_string(),
        "White's pawn on f11 stands where it must promote"
    );
    // Black's pawn on f11 is behind its start, not on its promotion cells.
    s.place(cell(&r, "f11"), Piece::new(Side::Black, kind(&r, 'P')))
        .unwrap();
    assert!(s.validate().is_ok());
}

#[test]
fn en_passant_cells_no_pawn_passed_over_are_named_with_the_reason() {
    let r = rules("glinski");
    let pieces = [('K', "a1"), ('k', "l6"), ('p', "c5")];
    // Black's pawn on c5 passed over c6 from c7: good.
    let mut s = setup("glinski", Side::White, &pieces);
    s.set_en_passant(&[cell(&r, "c6")]).unwrap();
    assert!(s.validate().is_ok());
    // c5 is not one step beyond c4.
    s.set_en_passant(&[cell(&r, "c4")]).unwrap();
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::BadEnPassant {
            cells: vec![cell(&r, "c4")],
            fault: EnPassantFault::NoPawn
        }]
    );
    assert_eq!(
        err.to_string(),
        "en passant on c4, but no pawn can just have passed over it"
    );
    // A piece on the skipped cell.
    s.set_en_passant(&[cell(&r, "c6")]).unwrap();
    s.place(cell(&r, "c6"), Piece::new(Side::White, kind(&r, 'N')))
        .unwrap();
    assert_eq!(
        problems(&s).problems(),
        [SetupProblem::BadEnPassant {
            cells: vec![cell(&r, "c6")],
            fault: EnPassantFault::Occupied(cell(&r, "c6"))
        }]
    );
    // Grand Hexachess has no en passant at all.
    let g = rules("grand");
    let mut s = Setup::from_position(&Position::start(Arc::clone(&g)));
    let some_cell = cell(&g, "f6");
    s.set_en_passant(&[some_cell]).unwrap();
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::BadEnPassant {
            cells: vec![some_cell],
            fault: EnPassantFault::NotInVariant
        }]
    );
    assert_eq!(
        err.to_string(),
        "en passant on f6, but Grand Hexachess has none"
    );
}

#[test]
fn a_castling_right_whose_king_or_rook_moved_is_refused_by_validate_and_dropped_by_fen() {
    let r = rules("shafran");
    let start = Position::start(Arc::clone(&r));
    assert_eq!(start.castling_rights(), 0xFF);
    let mut s = Setup::from_position(&start);
    // White's rook a1 steps aside: its two castlings (A and B) cannot stand.
    s.move_piece(cell(&r, "a1"), cell(&r, "a3")).unwrap();
    let err = problems(&s);
    let bad = |castling| SetupProblem::BadCastling {
        side: Side::White,
        castling,
    };
    assert_eq!(err.problems(), [bad(0), bad(1)]);
    assert_eq!(
        err.descriptions()[0],
        "White may not castle O-O-Q: that needs its king on e1 and its rook on a1"
    );
    // A knight on the rook's cell does not keep the right either.
    s.place(cell(&r, "a1"), Piece::new(Side::White, kind(&r, 'N')))
        .unwrap();
    assert_eq!(problems(&s).problems(), [bad(0), bad(1)]);
    // FEN reading drops such rights, as docs/rules.md §8.2 says.
    let pos = Position::from_fen(Arc::clone(&r), &s.to_fen()).unwrap();
    assert_eq!(pos.castling_rights(), 0xFC);
    // Gliński has no castling to set.
    let mut g = setup("glinski", Side::White, &[('K', "f1"), ('k', "f11")]);
    assert_eq!(
        g.set_castling(Side::White, 0, true),
        Err(EditError::NoSuchCastling {
            side: Side::White,
            index: 0
        })
    );
}

#[test]
fn hands_are_refused_without_a_setup_phase_and_the_placer_must_hold_something() {
    let r = rules("glinski");
    let mut s = setup("glinski", Side::White, &[('K', "f1"), ('k', "f11")]);
    s.set_in_hand(Side::White, kind(&r, 'Q'), 1).unwrap();
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::HandNotAllowed { side: Side::White }]
    );
    assert_eq!(
        err.to_string(),
        "White holds pieces in hand, but Gliński has no setup phase"
    );

    // Pre-HexaChess: Black has placed everything, yet it would be Black's turn.
    let p = rules("pre-hexachess");
    let mut s = Setup::from_position(&Position::start(Arc::clone(&p)));
    for k in p.kinds() {
        s.set_in_hand(Side::Black, k, 0).unwrap();
    }
    s.place(cell(&p, "f11"), Piece::new(Side::Black, kind(&p, 'K')))
        .unwrap();
    s.set_turn(Side::Black).unwrap();
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::NothingToPlace { side: Side::Black }]
    );
    assert_eq!(
        err.to_string(),
        "it is Black's turn to place a piece, but its hand is empty"
    );
    s.set_turn(Side::White).unwrap();
    assert!(s.validate().is_ok());

    // More of a kind in hand than a position counts.
    s.set_in_hand(Side::White, kind(&p, 'N'), 64).unwrap();
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::TooManyInHand {
            side: Side::White,
            kind: kind(&p, 'N'),
            count: 64,
            max: 63
        }]
    );
    assert_eq!(
        err.to_string(),
        "White holds 64 knights in hand; a hand holds at most 63 of a kind"
    );
}

#[test]
fn no_check_during_an_open_setup_phase() {
    let p = rules("pre-hexachess");
    let mut s = Setup::from_position(&Position::start(Arc::clone(&p)));
    // White's king on f3, Black's queen placed on a3, rank 3 between them empty.
    s.place(cell(&p, "f3"), Piece::new(Side::White, kind(&p, 'K')))
        .unwrap();
    s.set_in_hand(Side::White, kind(&p, 'K'), 0).unwrap();
    s.place(cell(&p, "a3"), Piece::new(Side::Black, kind(&p, 'Q')))
        .unwrap();
    s.set_in_hand(Side::Black, kind(&p, 'Q'), 0).unwrap();
    let rank = &p.board().groups()[2];
    assert!(rank.iter().all(|c| p.board().name(*c).ends_with('3')));
    let at = |n: &str| rank.iter().position(|c| *c == cell(&p, n)).unwrap();
    assert!(
        rank[at("a3") + 1..at("f3")]
            .iter()
            .all(|c| s.piece_at(*c).is_none())
    );
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::CheckDuringSetup { side: Side::White }]
    );
    assert_eq!(
        err.to_string(),
        "White is in check during the setup, where placements give no check"
    );
}

/// Gliński: White's rook on f5 and Black's king on f10, file f between them empty
/// (walked cell by cell), White's king on a1 out of every line of Black's (a lone king
/// attacks only its neighbours).
fn rook_faces_king() -> Setup {
    let s = setup(
        "glinski",
        Side::White,
        &[('K', "a1"), ('R', "f5"), ('k', "f10")],
    );
    let r = s.rules();
    let file_f = &r.board().groups()[5];
    assert!(file_f.iter().all(|c| r.board().name(*c).starts_with('f')));
    let at = |n: &str| file_f.iter().position(|c| *c == cell(r, n)).unwrap();
    let between = &file_f[at("f5") + 1..at("f10")];
    assert_eq!(between.len(), 4);
    assert!(between.iter().all(|c| s.piece_at(*c).is_none()));
    let (a1, f10) = (r.board().hex(cell(r, "a1")), r.board().hex(cell(r, "f10")));
    assert!(a1.distance(f10) > 1);
    s
}

#[test]
fn the_side_not_to_move_in_check_is_refused() {
    let s = rook_faces_king();
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [SetupProblem::OpponentInCheck {
            side: Side::Black,
            turn: Side::White
        }]
    );
    assert_eq!(err.to_string(), "Black is in check but it is White's move");
}

#[test]
fn the_side_to_move_in_check_is_a_legal_position() {
    let mut s = rook_faces_king();
    s.set_turn(Side::Black).unwrap();
    let pos = s.validate().expect("Black to move out of check");
    assert!(pos.in_check());
    let moves = pos.legal_moves();
    assert!(!moves.is_empty());
    // No reply leaves the king on file f.
    let f10 = cell(s.rules(), "f10");
    assert!(
        moves
            .into_iter()
            .all(|m| m.from() != f10 || !pos.rules().board().name(m.to()).starts_with('f'))
    );
}

#[test]
fn two_problems_are_both_listed_and_checks_are_looked_for_beside_others() {
    // No Black king, and a White pawn on f11: both, in one answer.
    let s = setup("glinski", Side::White, &[('K', "a1"), ('P', "f11")]);
    let err = problems(&s);
    assert_eq!(
        err.problems(),
        [
            SetupProblem::MissingRoyal { side: Side::Black },
            SetupProblem::PawnOnPromotionCell {
                side: Side::White,
                cell: cell(s.rules(), "f11")
            }
        ]
    );
    assert_eq!(
        err.to_string(),
        "Black has no king; White's pawn on f11 stands where it must promote"
    );
    // The king in check found beside a pawn problem.
    let mut s = rook_faces_king();
    let r = Arc::clone(s.rules_arc());
    s.place(cell(&r, "b7"), Piece::new(Side::White, kind(&r, 'P')))
        .unwrap();
    assert!(r.is_promotion_cell(Side::White, cell(&r, "b7")));
    let err = problems(&s);
    assert_eq!(err.problems().len(), 2, "{err}");
    assert!(err.contains(&SetupProblem::OpponentInCheck {
        side: Side::Black,
        turn: Side::White
    }));
}

#[test]
fn a_side_out_of_a_game_of_three_may_not_be_the_one_to_move() {
    let entry = Catalog::builtin();
    let rules = Arc::clone(entry.get("hexachess-3").expect("built in").rules());
    let start = Position::start(Arc::clone(&rules));
    let mut s = Setup::from_position(&start);
    let third_king = s
        .pieces()
        .find(|(_, p)| p.side == Side::Third && rules.is_royal(p.kind))
        .map(|(c, _)| c)
        .expect("the third side's king");
    s.remove(third_king);
    // Out, but not to move: allowed.
    assert!(s.validate().is_ok());
    s.set_turn(Side::Third).unwrap();
    let err = s.validate().unwrap_err();
    assert_eq!(
        err.problems(),
        [SetupProblem::SideToMoveIsOut { side: Side::Third }]
    );
    assert_eq!(
        err.to_string(),
        "it is Red's move, but Red is out of the game (it has no king)"
    );
}

#[test]
fn more_pieces_of_a_kind_than_a_position_counts_are_refused_on_a_271_cell_board() {
    let text = include_str!("../../../variants/standard.ron")
        .replace("shape: Hexagon(6),", "shape: Hexagon(9),")
        .replace(r#"id: "standard""#, r#"id: "standard-271""#)
        .replace("optional_zone: Ranks([11, 12]),", "");
    let spec = parse_variant(&text, "standard-271.ron").unwrap_or_else(|e| panic!("{e}"));
    let rules = Arc::new(Rules::<WideBitboard>::compile(&spec).unwrap());
    let board = rules.board();
    assert_eq!(board.len(), 271);
    let king = rules.kind_by_letter('K').unwrap();
    let knight = rules.kind_by_letter('N').unwrap();
    let mut s = Setup::empty(Arc::clone(&rules));
    let mut cells = board.cells();
    for side in Side::BOTH {
        s.place(cells.next().unwrap(), Piece::new(side, king))
            .unwrap();
    }
    for c in cells.take(256) {
        s.place(c, Piece::new(Side::White, knight)).unwrap();
    }
    let err = s.validate().unwrap_err();
    assert!(
        err.contains(&SetupProblem::TooManyPieces {
            side: Side::White,
            kind: knight,
            count: 256,
            max: 255
        }),
        "{err}"
    );
    // One fewer is counted (whatever else is wrong with so many knights).
    let last = s.pieces().last().unwrap().0;
    s.remove(last);
    if let Err(e) = s.validate() {
        assert!(
            !e.problems()
                .iter()
                .any(|p| matches!(p, SetupProblem::TooManyPieces { .. })),
            "{e}"
        );
    }
}

#[test]
fn place_remove_and_move_round_trip() {
    let r = rules("glinski");
    let start = Setup::from_position(&Position::start(Arc::clone(&r)));
    let mut s = start.clone();
    let (f6, f7, f5) = (cell(&r, "f6"), cell(&r, "f7"), cell(&r, "f5"));
    let queen = Piece::new(Side::White, kind(&r, 'Q'));
    // Place on an empty cell, take it back.
    assert_eq!(s.place(f6, queen), Ok(None));
    assert_eq!(s.piece_at(f6), Some(queen));
    assert_eq!(s.remove(f6), Some(queen));
    assert_eq!(s.remove(f6), None);
    assert_eq!(s, start);
    // Placing on an occupied cell replaces (and returns) what stood there.
    let black_pawn = s.piece_at(f7).unwrap();
    assert_eq!(s.place(f7, queen), Ok(Some(black_pawn)));
    assert_eq!(s.place(f7, black_pawn), Ok(Some(queen)));
    assert_eq!(s, start);
    // Moving there and back is no change; moving onto a piece replaces it.
    let white_pawn = s.piece_at(f5).unwrap();
    assert_eq!(s.move_piece(f5, f6), Ok(None));
    assert_eq!((s.piece_at(f5), s.piece_at(f6)), (None, Some(white_pawn)));
    assert_eq!(s.move_piece(f6, f5), Ok(None));
    assert_eq!(s, start);
    assert_eq!(s.move_piece(f5, f7), Ok(Some(black_pawn)));
    assert_eq!((s.piece_at(f5), s.piece_at(f7)), (None, Some(white_pawn)));
    assert_eq!(s.pieces().count(), start.pieces().count() - 1);
    // Nothing to move, and a piece onto its own cell.
    assert_eq!(s.move_piece(f5, f6), Err(EditError::NothingToMove));
    assert_eq!(s.move_piece(f7, f7), Ok(None));
    assert_eq!(s.piece_at(f7), Some(white_pawn));
    // Clearing empties the board and keeps the side to move.
    s.set_turn(Side::Black).unwrap();
    s.clear();
    assert_eq!(s.pieces().count(), 0);
    assert_eq!(s.turn(), Side::Black);
    assert_eq!(s.to_fen(), "6/7/8/9/10/11/10/9/8/7/6 b - 0 1");
}

#[test]
fn edits_naming_what_the_variant_lacks_are_refused() {
    let r = rules("glinski");
    let mut s = Setup::empty(Arc::clone(&r));
    // A cell of a larger board.
    let grand = rules("grand");
    let far = grand.board().cells().last().unwrap();
    assert!(far.index() >= r.board().len());
    let king = Piece::new(Side::White, kind(&r, 'K'));
    let refused = Err(EditError::CellNotOnBoard { index: far.index() });
    assert_eq!(s.place(far, king), refused);
    assert_eq!(s.move_piece(far, cell(&r, "f1")), refused);
    assert_eq!(
        s.set_en_passant(&[far]),
        Err(EditError::CellNotOnBoard { index: far.index() })
    );
    // A kind of a variant with more kinds.
    let fairy = rules("fairy");
    let last = fairy.kinds().last().unwrap();
    assert!(last.index() >= r.kinds().len());
    assert_eq!(
        s.place(cell(&r, "f1"), Piece::new(Side::White, last)),
        Err(EditError::KindNotInVariant {
            index: last.index()
        })
    );
    // A side that does not play.
    assert_eq!(
        s.place(cell(&r, "f1"), Piece::new(Side::Third, kind(&r, 'K'))),
        Err(EditError::SideNotInVariant { side: Side::Third })
    );
    assert_eq!(
        s.set_turn(Side::Fourth),
        Err(EditError::SideNotInVariant { side: Side::Fourth })
    );
    assert_eq!(s.set_fullmove_number(0), Err(EditError::ZeroMoveNumber));
    // Nothing changed.
    assert_eq!(s, Setup::empty(Arc::clone(&r)));
}

#[test]
fn a_colour_flip_twice_is_the_same_setup_and_agrees_with_the_position() {
    let r = rules("glinski");
    let pos = after_f6_c5(&r);
    let s = Setup::from_position(&pos);
    let flipped = s.colour_flipped().unwrap();
    assert_eq!(flipped.turn(), Side::Black);
    assert_eq!(flipped.colour_flipped().unwrap(), s);
    assert_eq!(
        flipped.validate().unwrap().to_fen(),
        pos.colour_flipped().unwrap().to_fen()
    );
}

#[test]
fn an_illegal_fen_names_the_same_problems() {
    let r = rules("glinski");
    let s = rook_faces_king();
    let fen = s.to_fen();
    assert_eq!(fen, "K5/7/8/9/10/4R4k1/10/9/8/7/6 w - 0 1");
    // The setup reads, and writes back the same text, illegal as it is.
    let read = Setup::from_fen(Arc::clone(&r), &fen).unwrap();
    assert_eq!(read, s);
    assert_eq!(read.to_fen(), fen);
    let Err(FenError::Position(err)) = Position::from_fen(Arc::clone(&r), &fen) else {
        panic!("{fen} should be refused as a position");
    };
    assert_eq!(err, problems(&s));
    assert_eq!(
        FenError::Position(err).to_string(),
        "impossible position: Black is in check but it is White's move"
    );
    // Two problems at once.
    let fen = "K5/7/8/9/10/10P/10/9/8/7/6 w - 0 1";
    let Err(FenError::Position(err)) = Position::from_fen(Arc::clone(&r), fen) else {
        panic!("{fen} should be refused as a position");
    };
    assert_eq!(
        err.problems(),
        [
            SetupProblem::MissingRoyal { side: Side::Black },
            SetupProblem::PawnOnPromotionCell {
                side: Side::White,
                cell: cell(&r, "f11")
            }
        ]
    );
    // Malformed text is still a FEN error of its own kind.
    assert_eq!(
        Setup::from_fen(Arc::clone(&r), "K5/7 w - 0 1"),
        Err(FenError::GroupCount {
            expected: 11,
            found: 2
        })
    );
}
