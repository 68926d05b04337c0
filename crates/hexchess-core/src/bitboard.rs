//! A set of cells as one 128-bit word.
//!
//! Every board the core accepts has at most 128 cells, so a `u128` holds a cell set for
//! Gliński's 91 cells and Grand Hexachess's 127 alike. Cells are indexed in (q, r) order,
//! which makes every ray monotonic in index: the first blocker on a ray is the lowest or
//! the highest set bit of `ray & occupied`, found with one bit scan.

use crate::cell::Cell;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells of one board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    #[inline]
    pub const fn from_cell(c: Cell) -> Bitboard {
        Bitboard(1u128 << c.index())
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn contains(self, c: Cell) -> bool {
        self.0 >> c.index() & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, c: Cell) {
        self.0 |= 1u128 << c.index();
    }

    #[inline]
    pub fn remove(&mut self, c: Cell) {
        self.0 &= !(1u128 << c.index());
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when more than one cell is set.
    #[inline]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest-indexed cell. The set must not be empty.
    #[inline]
    pub fn first(self) -> Cell {
        debug_assert!(self.any());
        Cell::from_index(self.0.trailing_zeros() as u16)
    }

    /// The highest-indexed cell. The set must not be empty.
    #[inline]
    pub fn last(self) -> Cell {
        debug_assert!(self.any());
        Cell::from_index(127 - self.0.leading_zeros() as u16)
    }

    /// Whether any cell of the set satisfies `f`.
    #[inline]
    pub fn any_cell(self, f: impl FnMut(Cell) -> bool) -> bool {
        let mut it = self;
        Iterator::any(&mut it, f)
    }

    /// Whether every cell of the set satisfies `f`.
    #[inline]
    pub fn all_cells(self, f: impl FnMut(Cell) -> bool) -> bool {
        let mut it = self;
        Iterator::all(&mut it, f)
    }

    /// The lowest-indexed cell, if any.
    #[inline]
    pub fn lowest(self) -> Option<Cell> {
        self.any().then(|| self.first())
    }
}

impl Iterator for Bitboard {
    type Item = Cell;

    /// Works on the two 64-bit halves (the machine's words): a 128-bit bit scan and
    /// borrow-propagating decrement cost twice as much and branch anyway.
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let low = self.0 as u64;
        if low != 0 {
            self.0 = (self.0 >> 64 << 64) | u128::from(low & (low - 1));
            return Some(Cell::from_index(low.trailing_zeros() as u16));
        }
        let high = (self.0 >> 64) as u64;
        if high == 0 {
            return None;
        }
        self.0 = u128::from(high & (high - 1)) << 64;
        Some(Cell::from_index(64 + high.trailing_zeros() as u16))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for c in iter {
            b.insert(c);
        }
        b
    }
}

macro_rules! binary_op {
    ($trait:ident, $f:ident, $assign:ident, $fa:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $assign for Bitboard {
            #[inline]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}

binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.map(|c| c.index())).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_cells_in_index_order_and_scans_both_ends() {
        let b: Bitboard = [3u8, 0, 127, 64]
            .into_iter()
            .map(Cell::from_index)
            .collect();
        assert_eq!(b.count(), 4);
        assert!(b.has_several());
        assert_eq!(b.first().index(), 0);
        assert_eq!(b.last().index(), 127);
        let v: Vec<usize> = b.map(|c| c.index()).collect();
        assert_eq!(v, vec![0, 3, 64, 127]);
        assert!(!Bitboard::from_cell(Cell::from_index(5)).has_several());
        assert_eq!(Bitboard::EMPTY.lowest(), None);
    }
}
