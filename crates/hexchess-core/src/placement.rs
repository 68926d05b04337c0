//! The setup phase's moves: placing a piece from the hand onto a cell (`N@c3`).
//!
//! A placement is legal on a free cell of the side's zone (a pawn not on its promotion
//! cells), when pieces of a kind that must stand on different colours still can, and,
//! unless the phase is hidden, when afterwards no royal piece is attacked: a placement
//! neither gives check nor puts its own royal piece in check (docs/rules.md, setup
//! phase). A hidden deployment ignores the other side's pieces, which its player cannot
//! see.

use crate::bitboard::CellSet;
use crate::cell::Cell;
use crate::movegen::piece_targets;
use crate::moves::{Move, MoveList};
use crate::piece::{Kind, Piece};
use crate::position::{Phase, Position};
use crate::rules::PhaseTables;

impl<B: CellSet> Position<B> {
    /// Fills `out` with the side to move's legal placements (none outside the setup).
    pub(crate) fn placements_into(&self, out: &mut MoveList) {
        let Some(ph) = self.rules.phase.as_ref() else {
            return;
        };
        if self.phase != Phase::Setup {
            return;
        }
        let us = self.turn;
        let occupied = self.occupied();
        for k in self.rules.kinds() {
            if self.hand[us.index()][k.index()] == 0 {
                continue;
            }
            let mut targets = if self.rules.pawn_kind() == Some(k) {
                ph.pawn_zone[us.index()]
            } else {
                ph.zone[us.index()]
            } & !occupied;
            if ph.distinct_colours >> k.index() & 1 != 0 {
                targets &= self.colours_without(ph, k);
            }
            for cell in targets {
                if self.leaves_colours_for(ph, k, cell)
                    && (ph.hidden || self.placement_is_quiet(k, cell))
                {
                    out.push(Move::placement(k, cell));
                }
            }
        }
    }

    /// The cells of the colours on which the side to move has no piece of `kind`.
    fn colours_without(&self, ph: &PhaseTables<B>, kind: Kind) -> B {
        let mine = self.kind_cells(self.turn, kind);
        ph.colours
            .iter()
            .filter(|cells| (**cells & mine).is_empty())
            .fold(B::EMPTY, |all, cells| all | *cells)
    }

    /// Whether, after `kind` goes to `cell`, every kind that must stand on different
    /// colours still has a free cell of the zone on enough unused colours for its pieces
    /// in hand.
    fn leaves_colours_for(&self, ph: &PhaseTables<B>, kind: Kind, cell: Cell) -> bool {
        let us = self.turn;
        let free = ph.zone[us.index()] & !self.occupied() & !B::from_cell(cell);
        let mut mask = ph.distinct_colours;
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let mut left = self.hand[us.index()][d];
            let mut mine = self.kind_bb[d] & self.side_bb[us.index()];
            if d == kind.index() {
                left -= 1;
                mine.insert(cell);
            }
            let open = ph
                .colours
                .iter()
                .filter(|cells| (**cells & mine).is_empty() && (**cells & free).any())
                .count();
            if open < usize::from(left) {
                return false;
            }
        }
        true
    }

    /// Whether placing `kind` on `cell` leaves no royal piece attacked: the new piece
    /// attacks no enemy royal piece and, if royal, stands on no attacked cell. (A piece
    /// added to the board cannot uncover an attack.)
    fn placement_is_quiet(&self, kind: Kind, cell: Cell) -> bool {
        let r = &*self.rules;
        let us = self.turn;
        let them = !us;
        let occupied = self.occupied() | B::from_cell(cell);
        if r.is_royal(kind) && self.attacked_with(cell, them, occupied, self.side_bb[them.index()])
        {
            return false;
        }
        if !self.royal_on_board(them) {
            return true;
        }
        let target = self.royal[them.index()];
        let reach = if r.pawn_kind() == Some(kind) {
            r.pawn_captures(us, cell)
        } else {
            let km = r.kind_moves(Piece::new(us, kind));
            piece_targets(
                r,
                km,
                cell,
                self.side_bb[us.index()],
                self.side_bb[them.index()],
                occupied,
            )
        };
        !reach.contains(target)
    }
}
