//! What games of more than two sides need of a position beyond moves: a side handing
//! the turn back to itself for a second move, pieces taken off or swapped by their own
//! side, and armies that attack nothing or cannot be captured.
//!
//! The position keeps these as plain facts; the rules that decide when they apply
//! (Peterson's two-attacker turns, fair exchange, frozen armies) live in
//! [`crate::multi`], above it.

use crate::bitboard::CellSet;
use crate::cell::Cell;
use crate::moves::Move;
use crate::piece::{Piece, Side};
use crate::position::Position;

impl<B: CellSet> Position<B> {
    /// Hands the turn to `to` without moving: the same side for a second move in its
    /// turn, or the next side when one loses its turn. Keeps the move clock (a pass is
    /// not a move). Undo with [`Position::unmake_pass`].
    pub fn make_pass(&mut self, to: Side) {
        self.remember(
            Move::new(Cell::from_index(0), Cell::from_index(0)),
            self.turn,
            0,
        );
        if let Some(e) = self.ep.take()
            && self.ep_hashed
        {
            self.hash ^= self.rules.zobrist.ep[e.victim.index()];
        }
        self.ep_hashed = false;
        let z = &self.rules.zobrist;
        self.hash ^= z.turn(self.turn) ^ z.turn(to);
        self.turn = to;
    }

    /// Takes back [`Position::make_pass`].
    pub fn unmake_pass(&mut self) {
        let u = self.undo.pop().expect("a pass to undo");
        self.restore(&u);
    }

    /// How many steps (moves, passes, edits) the position can take back.
    pub fn history_len(&self) -> usize {
        self.undo.len()
    }

    /// Takes back steps of every kind, last first, until `len` are left: a game of
    /// more sides taking back a turn of a removal, moves and passes at once.
    pub fn unmake_to(&mut self, len: usize) {
        while let Some(last) = self.undo.last().map(|u| u.mv) {
            if self.undo.len() <= len {
                break;
            }
            // A pass is remembered as a move from a cell to itself, which no move is.
            if !last.is_off_board() && last.from() == last.to() {
                self.unmake_pass();
            } else {
                self.unmake_move();
            }
        }
    }

    /// Plays an edit ([`Move::removal`] or [`Move::swap`]) of the side to move's own
    /// piece; the turn stays with it (the edit comes before its move). The caller checks
    /// that the edit is allowed.
    pub(crate) fn make_edit(&mut self, mv: Move) {
        let cell = mv.to();
        let piece = self
            .piece_at(cell)
            .expect("an edit takes a piece on the board");
        self.remember(mv, self.turn, piece.code());
        self.take(piece, cell);
        if let Some(kind) = mv.promotion() {
            self.put(Piece::new(piece.side, kind), cell);
        }
    }

    /// Takes back an edit: the piece returns to its cell.
    pub(crate) fn unmake_edit(&mut self, u: crate::position::Undo<B>) {
        let cell = u.mv.to();
        if let Some(swapped) = self.piece_at(cell) {
            self.take(swapped, cell);
        }
        let piece = Piece::from_code(u.captured).expect("the edited piece");
        self.put(piece, cell);
        self.restore(&u);
    }

    /// Makes `side`'s pieces attack nothing (or attack again): a side out of a game of
    /// more than two leaves its army as obstacles. Not part of the hash: the game above
    /// keys the sides' standing itself.
    pub fn set_inert(&mut self, side: Side, inert: bool) {
        let bit = 1u8 << side.index();
        if inert {
            self.inert |= bit;
        } else {
            self.inert &= !bit;
        }
    }

    /// Whether `side`'s pieces attack nothing.
    pub fn is_inert(&self, side: Side) -> bool {
        self.inert & 1 << side.index() != 0
    }

    /// Sets the pieces nobody may capture (they still block, and still attack unless
    /// their side is inert). Not part of the hash, as [`Position::set_inert`].
    pub fn set_immune(&mut self, cells: B) {
        self.immune = cells;
    }

    /// The pieces nobody may capture.
    pub fn immune(&self) -> B {
        self.immune
    }
}
