//! Moves and move lists.

use std::fmt;

use crate::cell::Cell;
use crate::piece::Kind;

/// A move: from a cell to a cell, with an optional promotion and how it is special; or,
/// in a variant's setup phase, a placement of a piece from the hand onto a cell
/// (`N@c3`), whose `from` and `to` are both that cell.
///
/// Packed in one 32-bit word (9 bits per cell, so boards up to 512 cells; 5 bits of
/// promotion; 8 of flags), so move lists and transposition tables stay small and two
/// moves compare in one instruction. Two moves are equal when their whole words are:
/// the same cells, the same promotion and the same flags (a double step, en passant, a
/// castling's number, a placement, a removal or a swap).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

const CELL_BITS: u32 = 9;
const CELL_MASK: u32 = (1 << CELL_BITS) - 1;
const TO_SHIFT: u32 = CELL_BITS;
const PROMOTION_SHIFT: u32 = 2 * CELL_BITS;
const FLAGS_SHIFT: u32 = PROMOTION_SHIFT + 5;

impl Move {
    const DOUBLE_STEP: u8 = 1;
    const EN_PASSANT: u8 = 2;
    /// Castling; bits 4 to 5 hold which of the side's castlings.
    const CASTLE: u8 = 4;
    /// A placement from the hand; bits 0 to 4 then hold the kind (kinds are fewer than
    /// 32), so the other flags are read only when this bit is clear.
    const PLACE: u8 = 0x80;
    /// A piece taken off the board by its own side, or swapped for a weaker kind on its
    /// cell (Peterson's fair exchange); the promotion bits hold the new kind, if any.
    const EDIT: u8 = 0x40;

    #[inline]
    const fn pack(from: Cell, to: Cell, promotion: u8, flags: u8) -> Move {
        Move(
            from.index() as u32
                | (to.index() as u32) << TO_SHIFT
                | (promotion as u32) << PROMOTION_SHIFT
                | (flags as u32) << FLAGS_SHIFT,
        )
    }

    #[inline]
    const fn flags(self) -> u8 {
        (self.0 >> FLAGS_SHIFT) as u8
    }

    #[inline]
    const fn promotion_code(self) -> u8 {
        (self.0 >> PROMOTION_SHIFT & 0x1f) as u8
    }

    /// A plain move or capture from one cell to another: no promotion, double step,
    /// en passant or castling. Whether it is legal is for a [`Position`](crate::Position) to say
    /// ([`crate::Position::legal_moves_into`]).
    #[inline]
    pub const fn new(from: Cell, to: Cell) -> Move {
        Move::pack(from, to, 0, 0)
    }

    #[inline]
    pub(crate) const fn promoting(from: Cell, to: Cell, kind: Kind) -> Move {
        Move::pack(from, to, kind.index() as u8 + 1, 0)
    }

    #[inline]
    pub(crate) const fn double_step(from: Cell, to: Cell) -> Move {
        Move::pack(from, to, 0, Move::DOUBLE_STEP)
    }

    #[inline]
    pub(crate) const fn en_passant(from: Cell, to: Cell) -> Move {
        Move::pack(from, to, 0, Move::EN_PASSANT)
    }

    /// Castling number `i` of the side: the royal piece's cells are `from` and `to`.
    #[inline]
    pub(crate) const fn castle(king: Cell, king_to: Cell, i: usize) -> Move {
        Move::pack(king, king_to, 0, Move::CASTLE | ((i as u8) << 4))
    }

    /// A placement of a piece of `kind` from the hand onto `cell`.
    #[inline]
    pub(crate) const fn placement(kind: Kind, cell: Cell) -> Move {
        Move::pack(cell, cell, 0, Move::PLACE | kind.index() as u8)
    }

    /// The removal of the mover's own piece on `cell` (owed after a fair exchange).
    #[inline]
    pub const fn removal(cell: Cell) -> Move {
        Move::pack(cell, cell, 0, Move::EDIT)
    }

    /// The mover's piece on `cell` exchanged for one of `kind` on the same cell.
    #[inline]
    pub const fn swap(cell: Cell, kind: Kind) -> Move {
        Move::pack(cell, cell, kind.index() as u8 + 1, Move::EDIT)
    }

    /// Whether this removes or swaps one of the mover's pieces instead of moving one.
    #[inline]
    pub const fn is_edit(self) -> bool {
        self.flags() & (Move::EDIT | Move::PLACE) == Move::EDIT
    }

    /// Whether this is a placement or an edit: anything but a move on the board (one
    /// test on the hot path of making a move).
    #[inline]
    pub(crate) const fn is_off_board(self) -> bool {
        self.flags() & (Move::EDIT | Move::PLACE) != 0
    }

    /// The kind placed, if this is a placement from the hand (else a move on the board).
    #[inline]
    pub const fn placed_kind(self) -> Option<Kind> {
        if self.is_placement() {
            Some(Kind::new((self.flags() & 0x1f) as usize))
        } else {
            None
        }
    }

    /// Whether this places a piece from the hand (the setup phase) rather than moving one.
    #[inline]
    pub const fn is_placement(self) -> bool {
        self.flags() & Move::PLACE != 0
    }

    /// Which castling of the side this is, if it castles.
    #[inline]
    pub const fn castling(self) -> Option<usize> {
        if self.flags() & (Move::CASTLE | Move::PLACE | Move::EDIT) == Move::CASTLE {
            Some((self.flags() >> 4) as usize)
        } else {
            None
        }
    }

    /// The cell the piece leaves: the royal piece's when castling, the piece's own cell
    /// for a placement, removal or swap.
    #[inline]
    pub const fn from(self) -> Cell {
        Cell::from_index((self.0 & CELL_MASK) as u16)
    }

    /// The cell the piece lands on: for en passant the empty cell passed over, not the
    /// taken pawn's; for castling the royal piece's; for a placement, removal or swap the
    /// same cell as [`Move::from`].
    #[inline]
    pub const fn to(self) -> Cell {
        Cell::from_index((self.0 >> TO_SHIFT & CELL_MASK) as u16)
    }

    /// The kind a pawn promotes to, if this move promotes.
    #[inline]
    pub const fn promotion(self) -> Option<Kind> {
        match self.promotion_code() {
            0 => None,
            p => Some(Kind::new(p as usize - 1)),
        }
    }

    /// A pawn's two-cell first move.
    #[inline]
    pub const fn is_double_step(self) -> bool {
        self.flags() & (Move::DOUBLE_STEP | Move::PLACE | Move::EDIT) == Move::DOUBLE_STEP
    }

    /// A capture of a pawn that has just double-stepped past the target cell.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.flags() & (Move::EN_PASSANT | Move::PLACE | Move::EDIT) == Move::EN_PASSANT
    }

    /// A 32-bit packing for hash tables; [`Move::from_bits`] restores it.
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// Restores a packed move. The result is only meaningful for the rules it came from;
    /// callers must check it against the legal moves before playing it.
    pub const fn from_bits(bits: u32) -> Move {
        Move(bits)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(k) = self.placed_kind() {
            return write!(f, "Move({}@{})", k.index(), self.to().index());
        }
        if self.is_edit() {
            return match self.promotion() {
                Some(k) => write!(f, "Move(swap {} for {})", self.to().index(), k.index()),
                None => write!(f, "Move(remove {})", self.to().index()),
            };
        }
        write!(f, "Move({}->{}", self.from().index(), self.to().index())?;
        if let Some(k) = self.promotion() {
            write!(f, "={}", k.index())?;
        }
        if self.is_double_step() {
            f.write_str(" double")?;
        }
        if self.is_en_passant() {
            f.write_str(" e.p.")?;
        }
        if let Some(i) = self.castling() {
            write!(f, " castling {i}")?;
        }
        f.write_str(")")
    }
}

/// A reusable list of moves. Generation clears and refills it, so a search keeps one per
/// ply and never allocates after warming up.
pub type MoveList = Vec<Move>;
