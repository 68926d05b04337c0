//! A cell: one place on one board, the unit every other type counts in.
//!
//! Kept apart from [`crate::board`] so that cell sets ([`crate::Bitboard`]) and boards
//! both build on it without importing each other.

use std::fmt;

/// The most cells of a board played with the narrow cell sets ([`crate::Bitboard`], one
/// 128-bit word): every two-player board, and the tables of the engine.
pub const MAX_CELLS: usize = 128;

/// The most cells any board may have: the wide cell sets
/// ([`crate::bitboard::WideBitboard`]) hold 320, room for the 271-cell base-10 hexagon.
pub const MAX_BOARD_CELLS: usize = 320;

/// A cell of one board: an index into that board's cell list, in (q, r) order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

impl Cell {
    /// The cell's index on its board: 0 up to the board's length, in (q, r) order.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell with this index on its board. Crate-private: only a [`crate::Board`]
    /// knows which indices exist, so outside code gets cells from a board.
    #[inline]
    pub(crate) const fn from_index(i: u16) -> Cell {
        Cell(i)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cell({})", self.0)
    }
}
