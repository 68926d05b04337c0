//! Sides, piece kinds and pieces.

use std::fmt;
use std::ops::Not;

/// The most piece kinds one variant may declare.
pub const MAX_KINDS: usize = 20;

/// The most sides (players) a variant may have.
pub const MAX_SIDES: usize = 4;

/// Piece codes ([`Piece::code`]) run from 1 below this.
pub(crate) const PIECE_CODES: usize = MAX_SIDES * MAX_KINDS + 1;

/// A player's seat, in turn order: White moves first, then Black, then the third and
/// fourth players of a game for more (whose names a variant gives).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Moves first; the variant's vectors and cells are written for White.
    White = 0,
    /// Moves second, with White's vectors negated and, unless the variant gives its
    /// cells, White's setup mirrored (docs/rules.md §1.7).
    Black = 1,
    /// The third seat of a game of more sides (`c` in FEN).
    Third = 2,
    /// The fourth seat of a game of more sides (`d` in FEN).
    Fourth = 3,
}

impl Side {
    /// The two sides of a two-player game.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];
    /// Every seat, in turn order.
    pub const ALL: [Side; MAX_SIDES] = [Side::White, Side::Black, Side::Third, Side::Fourth];

    /// The seat's place in turn order, 0 (White) to 3, for tables indexed by side.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with this index (0 to 3).
    #[inline]
    pub const fn from_index(i: usize) -> Side {
        match i & 3 {
            0 => Side::White,
            1 => Side::Black,
            2 => Side::Third,
            _ => Side::Fourth,
        }
    }

    /// The FEN letter: `w`, `b`, then `c` and `d` for the third and fourth seats.
    pub const fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
            Side::Third => 'c',
            Side::Fourth => 'd',
        }
    }

    /// The seat's default name (a variant with more sides names its own).
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
            Side::Third => "Third",
            Side::Fourth => "Fourth",
        }
    }
}

impl Not for Side {
    type Output = Side;
    /// The opponent in a two-player game (the third and fourth seats pair up likewise).
    #[inline]
    fn not(self) -> Side {
        Side::from_index(self as usize ^ 1)
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece type of the variant being played: an index into its piece list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(u8);

impl Kind {
    /// The kind at `index` in the variant's piece list. Callers get kinds from
    /// [`Rules`](crate::Rules); this is for the crate's own tables.
    pub(crate) const fn new(index: usize) -> Kind {
        debug_assert!(index < MAX_KINDS);
        Kind(index as u8)
    }

    /// Its place in the variant's piece list, below [`MAX_KINDS`], for tables indexed
    /// by kind.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece on the board: a side and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// What it is, in the variant's piece list.
    pub kind: Kind,
}

impl Piece {
    /// The piece of `kind` belonging to `side`.
    pub const fn new(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }

    /// A compact non-zero code for the mailbox and Zobrist tables: `1 + 4 kind + side`.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + MAX_SIDES as u8 * self.kind.0 + self.side as u8
    }

    /// Inverse of [`Piece::code`]; `0` is an empty cell.
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        Some(Piece {
            side: Side::from_index((code - 1) as usize % MAX_SIDES),
            kind: Kind((code - 1) / MAX_SIDES as u8),
        })
    }
}

/// A score in thousandths of a point, so `3/4` and `1/2` are exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Points(u16);

impl Points {
    /// A loss.
    pub const ZERO: Points = Points(0);
    /// A draw in a two-player game.
    pub const HALF: Points = Points(500);
    /// A win: the whole point.
    pub const ONE: Points = Points(1000);

    /// From thousandths of a point; at most one point.
    pub const fn from_millis(m: u16) -> Option<Points> {
        if m <= 1000 { Some(Points(m)) } else { None }
    }

    /// The score in thousandths of a point, 0 to 1000.
    pub const fn millis(self) -> u16 {
        self.0
    }

    /// The complement: what the other player gets when the game is worth one point.
    pub const fn rest(self) -> Points {
        Points(1000 - self.0)
    }

    /// One point shared among `n` (at least one): `1`, `1/2`, `1/3` (333 thousandths),
    /// `1/4`.
    pub const fn share(n: usize) -> Points {
        let n = if n == 0 { 1 } else { n };
        Points((1000 / n) as u16)
    }
}

impl fmt::Display for Points {
    /// `1`, `0`, `1/2`, `3/4`, `1/4`, `1/3`, `2/3`, or a decimal for anything else.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("0"),
            1000 => f.write_str("1"),
            500 => f.write_str("1/2"),
            250 => f.write_str("1/4"),
            750 => f.write_str("3/4"),
            333 => f.write_str("1/3"),
            667 => f.write_str("2/3"),
            m => {
                let s = format!("{:.3}", m as f64 / 1000.0);
                f.write_str(s.trim_end_matches('0'))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip_and_are_never_zero() {
        for k in 0..MAX_KINDS {
            for side in Side::ALL {
                let p = Piece::new(side, Kind::new(k));
                assert_ne!(p.code(), 0);
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
    }

    #[test]
    fn points_print_as_players_write_them() {
        assert_eq!(Points::from_millis(750).unwrap().to_string(), "3/4");
        assert_eq!(Points::from_millis(750).unwrap().rest().to_string(), "1/4");
        assert_eq!(Points::HALF.to_string(), "1/2");
        assert_eq!(Points::from_millis(600).unwrap().to_string(), "0.6");
        assert_eq!(Points::from_millis(1001), None);
    }
}
