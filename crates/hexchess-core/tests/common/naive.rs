//! A second move generator for perft checks: every piece's moves from the variant's
//! piece definitions with nothing but cell arithmetic (the full reference generator,
//! with legality, is `reference_movegen.rs`).

use hexchess_core::bitboard::CellSet;
use hexchess_core::variant::{PieceType, Reach, Variant};
use hexchess_core::{Cell, Position, Side};

/// A second move generator, written from the variant's piece
/// definitions with nothing but cell arithmetic: every piece's moves, a king's only to
/// cells no enemy piece reaches once the king has left its cell. From the start and
/// after one move no piece can check or pin (pawns shield both armies), so these are
/// the legal moves.
pub fn naive_moves<B: CellSet>(pos: &Position<B>, spec: &dyn Variant) -> usize {
    let us = pos.turn();
    let king = pos.royal_cell(us);
    let attacked = naive_reach(pos, spec, !us, Some(king), true);
    naive_reach(pos, spec, us, None, false)
        .into_iter()
        .filter(|(from, to)| *from != king || !attacked.iter().any(|(_, c)| c == to))
        .count()
}

/// `(from, to)` for every move of `side`; with `attacks`, every cell its pieces attack
/// instead (own pieces' cells included, pawns' capture cells whatever stands there),
/// with `gone` treated as empty.
fn naive_reach<B: CellSet>(
    pos: &Position<B>,
    spec: &dyn Variant,
    side: Side,
    gone: Option<Cell>,
    attacks: bool,
) -> Vec<(Cell, Cell)> {
    let rules = pos.rules();
    let board = rules.board();
    let sign = if side == Side::White { 1 } else { -1 };
    let pawn = spec.pawn().expect("pawns");
    let at = |c: Cell| pos.piece_at(c).filter(|_| Some(c) != gone);
    let mut out = Vec::new();
    for (cell, piece) in pos.pieces().filter(|(_, p)| p.side == side) {
        let letter = rules.kind_info(piece.kind).letter;
        let lands = |c: Cell| attacks || at(c).is_none_or(|p| p.side != side);
        if letter == pawn.piece {
            for v in pawn.advance.iter().filter(|_| !attacks) {
                if let Some(c) = board.offset(cell, *v * sign).filter(|c| at(*c).is_none()) {
                    out.push((cell, c));
                }
            }
            for v in &pawn.capture {
                let target = board.offset(cell, *v * sign);
                if let Some(c) =
                    target.filter(|c| attacks || at(*c).is_some_and(|p| p.side != side))
                {
                    out.push((cell, c));
                }
            }
            continue;
        }
        let kind: &PieceType = spec.pieces().iter().find(|p| p.letter == letter).unwrap();
        for atom in &kind.atoms {
            for v in &atom.vectors {
                let mut from = cell;
                while let Some(next) = board.offset(from, *v * sign) {
                    if lands(next) {
                        out.push((cell, next));
                    }
                    if at(next).is_some() || atom.reach == Reach::Leap {
                        break;
                    }
                    from = next;
                }
            }
        }
    }
    out
}
