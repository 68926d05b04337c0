//! A second move generator for perft checks: every piece's moves from the variant's
//! piece definitions with nothing but cell arithmetic on a map of the pieces, each move
//! kept when, played on that map, it leaves no enemy piece reaching its royal piece.
//! (Promotions, castling and en passant are not modelled: the positions it checks have
//! none. The full reference generator for two sides is `reference_movegen.rs`.)

use std::collections::HashMap;

use hexchess_core::bitboard::CellSet;
use hexchess_core::variant::{PieceType, Reach, Variant};
use hexchess_core::{Cell, Hex, Piece, Position, Side};

/// The pieces by cell.
type Map = HashMap<Cell, Piece>;

/// How many legal moves the side to move has, counted the slow way.
pub fn naive_moves<B: CellSet>(pos: &Position<B>, spec: &dyn Variant) -> usize {
    let us = pos.turn();
    let map: Map = pos.pieces().collect();
    naive_reach(pos, spec, &map, us, false)
        .into_iter()
        .filter(|&(from, to)| {
            let mut after = map.clone();
            let moving = after.remove(&from).expect("a piece moves");
            after.insert(to, moving);
            let king = after
                .iter()
                .find(|(_, p)| p.side == us && pos.rules().is_royal(p.kind))
                .map(|(c, _)| *c)
                .expect("a royal piece");
            !pos.rules().sides().filter(|s| *s != us).any(|them| {
                naive_reach(pos, spec, &after, them, true)
                    .iter()
                    .any(|(_, c)| *c == king)
            })
        })
        .count()
}

/// `(from, to)` for every move of `side` on `map`; with `attacks`, every cell its
/// pieces attack instead (own pieces' cells included, pawns' capture cells whatever
/// stands there).
fn naive_reach<B: CellSet>(
    pos: &Position<B>,
    spec: &dyn Variant,
    map: &Map,
    side: Side,
    attacks: bool,
) -> Vec<(Cell, Cell)> {
    let rules = pos.rules();
    let board = rules.board();
    let turn = |v: Hex| v.rotated(spec.sides()[side.index()].rotation);
    let pawn = spec.pawn().expect("pawns");
    let at = |c: Cell| map.get(&c).copied();
    let mut out = Vec::new();
    for (&cell, piece) in map.iter().filter(|(_, p)| p.side == side) {
        let letter = rules.kind_info(piece.kind).letter;
        let lands = |c: Cell| attacks || at(c).is_none_or(|p| p.side != side);
        if letter == pawn.piece {
            for v in pawn.advance.iter().filter(|_| !attacks) {
                if let Some(c) = board.offset(cell, turn(*v)).filter(|c| at(*c).is_none()) {
                    out.push((cell, c));
                }
            }
            for v in &pawn.capture {
                let target = board.offset(cell, turn(*v));
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
                while let Some(next) = board.offset(from, turn(*v)) {
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
