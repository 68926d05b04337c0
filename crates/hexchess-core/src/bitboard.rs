//! Sets of cells: [`Bitboard`], one 128-bit word, for every board of up to 128 cells
//! (Gliński's 91, Grand Hexachess's 127), and [`WideBitboard`], five 64-bit words, for
//! the bigger boards of Peterson's 3- and 4-player games (217 and 271 cells). The rules
//! core is generic over [`CellSet`], so a variant's positions use the narrow set when
//! they can and the narrow code is what it was.
//!
//! Cells are indexed in (q, r) order, which makes every ray monotonic in index: the first
//! blocker on a ray is the lowest or the highest set bit of `ray & occupied`, found with
//! one bit scan.

use std::fmt::Debug;
use std::hash::Hash;

use crate::cell::Cell;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// What the rules need of a set of cells. Implemented by [`Bitboard`] (up to 128 cells)
/// and [`WideBitboard`] (up to [`WideBitboard::CAPACITY`]).
pub trait CellSet:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + IntoIterator<Item = Cell>
    + FromIterator<Cell>
{
    /// The set of no cells.
    const EMPTY: Self;
    /// The most cells a set holds: tables indexed by cell are this long.
    const CAPACITY: usize;
    /// A piece code per cell, for a position's mailbox.
    type Mailbox: Copy + Eq + Debug + Send + Sync + AsRef<[u8]> + AsMut<[u8]>;
    /// A mailbox of empty cells: every code `0`.
    const EMPTY_MAILBOX: Self::Mailbox;

    /// The set of the one cell `c`.
    fn from_cell(c: Cell) -> Self;
    /// True when no cell is set.
    fn is_empty(self) -> bool;
    /// Whether `c` is in the set.
    fn contains(self, c: Cell) -> bool;
    /// Adds `c` (nothing changes if it is already in).
    fn insert(&mut self, c: Cell);
    /// Takes `c` out (nothing changes if it is not in).
    fn remove(&mut self, c: Cell);
    /// How many cells are set.
    fn count(self) -> u32;
    /// True when more than one cell is set.
    fn has_several(self) -> bool;
    /// The lowest-indexed cell. The set must not be empty.
    fn first(self) -> Cell;
    /// The highest-indexed cell. The set must not be empty.
    fn last(self) -> Cell;
    /// The cells of an ascending ray up to and including its first cell in `occupied`
    /// (the whole ray when nothing blocks it).
    fn slide_up(ray: Self, occupied: Self) -> Self;
    /// [`CellSet::slide_up`] for a ray along which cell indices fall.
    fn slide_down(ray: Self, occupied: Self) -> Self;
    /// The first cell of an ascending ray in `occupied`, as a set (empty if none).
    fn first_up(ray: Self, occupied: Self) -> Self;
    /// [`CellSet::first_up`] for a ray along which cell indices fall.
    fn first_down(ray: Self, occupied: Self) -> Self;

    /// True when at least one cell is set.
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// The lowest-indexed cell, if any.
    #[inline]
    fn lowest(self) -> Option<Cell> {
        self.any().then(|| self.first())
    }

    /// Whether any cell of the set satisfies `f`.
    #[inline]
    fn any_cell(self, f: impl FnMut(Cell) -> bool) -> bool {
        self.into_iter().any(f)
    }

    /// Whether every cell of the set satisfies `f`.
    #[inline]
    fn all_cells(self, f: impl FnMut(Cell) -> bool) -> bool {
        self.into_iter().all(f)
    }
}

/// A set of cells of one board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The set of no cells.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set of the one cell `c`.
    #[inline]
    pub const fn from_cell(c: Cell) -> Bitboard {
        Bitboard(1u128 << c.index())
    }

    /// True when no cell is set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when at least one cell is set.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `c` is in the set.
    #[inline]
    pub const fn contains(self, c: Cell) -> bool {
        self.0 >> c.index() & 1 != 0
    }

    /// Adds `c` (nothing changes if it is already in).
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        self.0 |= 1u128 << c.index();
    }

    /// Takes `c` out (nothing changes if it is not in).
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        self.0 &= !(1u128 << c.index());
    }

    /// How many cells are set.
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

impl CellSet for Bitboard {
    const EMPTY: Bitboard = Bitboard(0);
    const CAPACITY: usize = 128;
    type Mailbox = [u8; 128];
    const EMPTY_MAILBOX: [u8; 128] = [0; 128];

    #[inline]
    fn from_cell(c: Cell) -> Bitboard {
        Bitboard::from_cell(c)
    }
    #[inline]
    fn is_empty(self) -> bool {
        Bitboard::is_empty(self)
    }
    #[inline]
    fn contains(self, c: Cell) -> bool {
        Bitboard::contains(self, c)
    }
    #[inline]
    fn insert(&mut self, c: Cell) {
        Bitboard::insert(self, c)
    }
    #[inline]
    fn remove(&mut self, c: Cell) {
        Bitboard::remove(self, c)
    }
    #[inline]
    fn count(self) -> u32 {
        Bitboard::count(self)
    }
    #[inline]
    fn has_several(self) -> bool {
        Bitboard::has_several(self)
    }
    #[inline]
    fn first(self) -> Cell {
        Bitboard::first(self)
    }
    #[inline]
    fn last(self) -> Cell {
        Bitboard::last(self)
    }
    /// `b ^ (b - 1)` sets every bit up to the lowest set bit of `b`, and every bit when
    /// `b` is empty: no branch, no bit scan.
    #[inline]
    fn slide_up(ray: Bitboard, occupied: Bitboard) -> Bitboard {
        let b = (ray & occupied).0;
        Bitboard(ray.0 & (b ^ b.wrapping_sub(1)))
    }
    /// Keeps the bits from the highest occupied one upwards.
    #[inline]
    fn slide_down(ray: Bitboard, occupied: Bitboard) -> Bitboard {
        let b = (ray & occupied).0;
        let below = u128::MAX.checked_shr(b.leading_zeros()).unwrap_or(0) >> 1;
        Bitboard(ray.0 & !below)
    }
    #[inline]
    fn first_up(ray: Bitboard, occupied: Bitboard) -> Bitboard {
        let b = (ray & occupied).0;
        Bitboard(b & b.wrapping_neg())
    }
    #[inline]
    fn first_down(ray: Bitboard, occupied: Bitboard) -> Bitboard {
        let b = (ray & occupied).0;
        Bitboard((1u128 << 127).checked_shr(b.leading_zeros()).unwrap_or(0))
    }
    #[inline]
    fn any(self) -> bool {
        Bitboard::any(self)
    }
}

/// Words in a [`WideBitboard`].
const WORDS: usize = 5;

/// A set of cells of a board of up to 320 cells (the 271-cell base-10 hexagon and every
/// board inside it), as five 64-bit words, lowest cells first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WideBitboard([u64; WORDS]);

impl WideBitboard {
    /// The most cells a wide set holds.
    pub const CAPACITY: usize = 64 * WORDS;

    /// The set of cells with index `i` and below.
    #[inline]
    fn up_to(i: usize) -> WideBitboard {
        let mut w = [0u64; WORDS];
        for (k, word) in w.iter_mut().enumerate() {
            let lo = 64 * k;
            *word = if i >= lo + 63 {
                u64::MAX
            } else if i >= lo {
                (1u64 << (i - lo + 1)) - 1
            } else {
                0
            };
        }
        WideBitboard(w)
    }
}

impl CellSet for WideBitboard {
    const EMPTY: WideBitboard = WideBitboard([0; WORDS]);
    const CAPACITY: usize = 64 * WORDS;
    type Mailbox = [u8; 64 * WORDS];
    const EMPTY_MAILBOX: [u8; 64 * WORDS] = [0; 64 * WORDS];

    #[inline]
    fn from_cell(c: Cell) -> WideBitboard {
        let mut w = [0u64; WORDS];
        w[c.index() / 64] = 1 << (c.index() % 64);
        WideBitboard(w)
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
    #[inline]
    fn contains(self, c: Cell) -> bool {
        self.0[c.index() / 64] >> (c.index() % 64) & 1 != 0
    }
    #[inline]
    fn insert(&mut self, c: Cell) {
        self.0[c.index() / 64] |= 1 << (c.index() % 64);
    }
    #[inline]
    fn remove(&mut self, c: Cell) {
        self.0[c.index() / 64] &= !(1 << (c.index() % 64));
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn has_several(self) -> bool {
        CellSet::count(self) > 1
    }
    #[inline]
    fn first(self) -> Cell {
        let k = self
            .0
            .iter()
            .position(|w| *w != 0)
            .expect("a non-empty set");
        Cell::from_index((64 * k) as u16 + self.0[k].trailing_zeros() as u16)
    }
    #[inline]
    fn last(self) -> Cell {
        let k = self
            .0
            .iter()
            .rposition(|w| *w != 0)
            .expect("a non-empty set");
        Cell::from_index((64 * k) as u16 + 63 - self.0[k].leading_zeros() as u16)
    }
    #[inline]
    fn slide_up(ray: WideBitboard, occupied: WideBitboard) -> WideBitboard {
        match CellSet::lowest(ray & occupied) {
            Some(b) => ray & WideBitboard::up_to(b.index()),
            None => ray,
        }
    }
    #[inline]
    fn slide_down(ray: WideBitboard, occupied: WideBitboard) -> WideBitboard {
        let blockers = ray & occupied;
        if CellSet::is_empty(blockers) {
            return ray;
        }
        let b = CellSet::last(blockers).index();
        match b {
            0 => ray,
            _ => ray & !WideBitboard::up_to(b - 1),
        }
    }
    #[inline]
    fn first_up(ray: WideBitboard, occupied: WideBitboard) -> WideBitboard {
        CellSet::lowest(ray & occupied).map_or(WideBitboard::EMPTY, WideBitboard::from_cell)
    }
    #[inline]
    fn first_down(ray: WideBitboard, occupied: WideBitboard) -> WideBitboard {
        let blockers = ray & occupied;
        if CellSet::is_empty(blockers) {
            WideBitboard::EMPTY
        } else {
            WideBitboard::from_cell(CellSet::last(blockers))
        }
    }
}

impl Iterator for WideBitboard {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        for (k, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let i = w.trailing_zeros();
                *w &= *w - 1;
                return Some(Cell::from_index((64 * k) as u16 + i as u16));
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = CellSet::count(*self) as usize;
        (n, Some(n))
    }
}

impl FromIterator<Cell> for WideBitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> WideBitboard {
        let mut b = WideBitboard::EMPTY;
        for c in iter {
            b.insert(c);
        }
        b
    }
}

impl Not for WideBitboard {
    type Output = WideBitboard;
    #[inline]
    fn not(self) -> WideBitboard {
        WideBitboard(self.0.map(|w| !w))
    }
}

impl std::fmt::Debug for WideBitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.into_iter().map(|c| c.index()))
            .finish()
    }
}

macro_rules! wide_op {
    ($trait:ident, $f:ident, $assign:ident, $fa:ident, $op:tt) => {
        impl $trait for WideBitboard {
            type Output = WideBitboard;
            #[inline]
            fn $f(self, o: WideBitboard) -> WideBitboard {
                WideBitboard(std::array::from_fn(|k| self.0[k] $op o.0[k]))
            }
        }
        impl $assign for WideBitboard {
            #[inline]
            fn $fa(&mut self, o: WideBitboard) {
                *self = $trait::$f(*self, o);
            }
        }
    };
}

wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

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
        let b: Bitboard = [3u16, 0, 127, 64]
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

    /// The wide set against a plain list of indices: the same answers as the narrow set
    /// on cells below 128, and the ray helpers agree with a step-by-step walk.
    #[test]
    fn the_wide_set_agrees_with_a_list() {
        let cells = [0u16, 5, 63, 64, 127, 128, 200, 255, 256, 319];
        let wide: WideBitboard = cells.iter().map(|i| Cell::from_index(*i)).collect();
        assert_eq!(CellSet::count(wide), cells.len() as u32);
        let back: Vec<u16> = wide.into_iter().map(|c| c.index() as u16).collect();
        assert_eq!(back, cells);
        assert_eq!(CellSet::first(wide).index(), 0);
        assert_eq!(CellSet::last(wide).index(), 319);
        assert!(CellSet::has_several(wide));
        assert!(!CellSet::has_several(WideBitboard::from_cell(
            Cell::from_index(300)
        )));
        let mut w = wide;
        w.remove(Cell::from_index(200));
        assert!(!w.contains(Cell::from_index(200)) && w.contains(Cell::from_index(256)));
        // A ray over indices 60..=70 and 250..=260, blockers at 66 and 255.
        let ray: WideBitboard = (60..=70).chain(250..=260).map(Cell::from_index).collect();
        let blockers: WideBitboard = [66u16, 255].iter().map(|i| Cell::from_index(*i)).collect();
        let up: Vec<usize> = WideBitboard::slide_up(ray, blockers)
            .into_iter()
            .map(|c| c.index())
            .collect();
        assert_eq!(up, (60..=66).collect::<Vec<_>>());
        let down: Vec<usize> = WideBitboard::slide_down(ray, blockers)
            .into_iter()
            .map(|c| c.index())
            .collect();
        assert_eq!(down, (255..=260).collect::<Vec<_>>());
        assert_eq!(
            CellSet::first(WideBitboard::first_up(ray, blockers)).index(),
            66
        );
        assert_eq!(
            CellSet::first(WideBitboard::first_down(ray, blockers)).index(),
            255
        );
        assert_eq!(WideBitboard::slide_up(ray, WideBitboard::EMPTY), ray);
        assert!(CellSet::is_empty(WideBitboard::first_down(
            ray,
            WideBitboard::EMPTY
        )));
        // Narrow and wide give the same slides on a 128-cell ray.
        let narrow: Bitboard = (3..=120).step_by(7).map(Cell::from_index).collect();
        let nb: Bitboard = [45u16, 87].iter().map(|i| Cell::from_index(*i)).collect();
        let wn: WideBitboard = narrow.collect();
        let wb: WideBitboard = nb.collect();
        let a: Vec<Cell> = Bitboard::slide_down(narrow, nb).collect();
        let b: Vec<Cell> = WideBitboard::slide_down(wn, wb).into_iter().collect();
        assert_eq!(a, b);
    }
}
