//! Moves and move lists.

use std::fmt;

use crate::cell::Cell;
use crate::piece::Kind;

/// A move: from a cell to a cell, with an optional promotion and how it is special; or,
/// in a variant's setup phase, a placement of a piece from the hand onto a cell
/// (`N@c3`), whose `from` and `to` are both that cell.
///
/// Four bytes, so move lists and transposition tables stay small. Two moves are equal
/// when they move the same piece between the same cells with the same promotion.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Cell,
    to: Cell,
    /// 0 for no promotion, else the promoted kind's index plus one.
    promotion: u8,
    flags: u8,
}

impl Move {
    const DOUBLE_STEP: u8 = 1;
    const EN_PASSANT: u8 = 2;
    /// Castling; bits 4 to 5 hold which of the side's castlings.
    const CASTLE: u8 = 4;
    /// A placement from the hand; bits 0 to 4 then hold the kind (kinds are fewer than
    /// 32), so the other flags are read only when this bit is clear.
    const PLACE: u8 = 0x80;

    /// A plain move or capture from one cell to another: no promotion, double step,
    /// en passant or castling. Whether it is legal is for a [`Position`](crate::Position) to say
    /// ([`crate::Position::legal_moves_into`]).
    #[inline]
    pub const fn new(from: Cell, to: Cell) -> Move {
        Move {
            from,
            to,
            promotion: 0,
            flags: 0,
        }
    }

    #[inline]
    pub(crate) const fn promoting(from: Cell, to: Cell, kind: Kind) -> Move {
        Move {
            from,
            to,
            promotion: kind.index() as u8 + 1,
            flags: 0,
        }
    }

    #[inline]
    pub(crate) const fn double_step(from: Cell, to: Cell) -> Move {
        Move {
            from,
            to,
            promotion: 0,
            flags: Move::DOUBLE_STEP,
        }
    }

    #[inline]
    pub(crate) const fn en_passant(from: Cell, to: Cell) -> Move {
        Move {
            from,
            to,
            promotion: 0,
            flags: Move::EN_PASSANT,
        }
    }

    /// Castling number `i` of the side: the royal piece's cells are `from` and `to`.
    #[inline]
    pub(crate) const fn castle(king: Cell, king_to: Cell, i: usize) -> Move {
        Move {
            from: king,
            to: king_to,
            promotion: 0,
            flags: Move::CASTLE | ((i as u8) << 4),
        }
    }

    /// A placement of a piece of `kind` from the hand onto `cell`.
    #[inline]
    pub(crate) const fn placement(kind: Kind, cell: Cell) -> Move {
        Move {
            from: cell,
            to: cell,
            promotion: 0,
            flags: Move::PLACE | kind.index() as u8,
        }
    }

    /// The kind placed, if this is a placement from the hand (else a move on the board).
    #[inline]
    pub const fn placed_kind(self) -> Option<Kind> {
        if self.is_placement() {
            Some(Kind::new((self.flags & 0x1f) as usize))
        } else {
            None
        }
    }

    /// Whether this places a piece from the hand (the setup phase) rather than moving one.
    #[inline]
    pub const fn is_placement(self) -> bool {
        self.flags & Move::PLACE != 0
    }

    /// Which castling of the side this is, if it castles.
    #[inline]
    pub const fn castling(self) -> Option<usize> {
        if self.flags & (Move::CASTLE | Move::PLACE) == Move::CASTLE {
            Some((self.flags >> 4) as usize)
        } else {
            None
        }
    }

    #[inline]
    pub const fn from(self) -> Cell {
        self.from
    }

    #[inline]
    pub const fn to(self) -> Cell {
        self.to
    }

    /// The kind a pawn promotes to, if this move promotes.
    #[inline]
    pub const fn promotion(self) -> Option<Kind> {
        if self.promotion == 0 {
            None
        } else {
            Some(Kind::new(self.promotion as usize - 1))
        }
    }

    /// A pawn's two-cell first move.
    #[inline]
    pub const fn is_double_step(self) -> bool {
        self.flags & (Move::DOUBLE_STEP | Move::PLACE) == Move::DOUBLE_STEP
    }

    /// A capture of a pawn that has just double-stepped past the target cell.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.flags & (Move::EN_PASSANT | Move::PLACE) == Move::EN_PASSANT
    }

    /// A 32-bit packing for hash tables; [`Move::from_bits`] restores it.
    pub const fn to_bits(self) -> u32 {
        self.from.index() as u32
            | (self.to.index() as u32) << 8
            | (self.promotion as u32) << 16
            | (self.flags as u32) << 24
    }

    /// Restores a packed move. The result is only meaningful for the rules it came from;
    /// callers must check it against the legal moves before playing it.
    pub const fn from_bits(bits: u32) -> Move {
        Move {
            from: Cell::from_index((bits & 0x7f) as u8),
            to: Cell::from_index((bits >> 8 & 0x7f) as u8),
            promotion: (bits >> 16) as u8,
            flags: (bits >> 24) as u8,
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(k) = self.placed_kind() {
            return write!(f, "Move({}@{})", k.index(), self.to.index());
        }
        write!(f, "Move({}->{}", self.from.index(), self.to.index())?;
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
