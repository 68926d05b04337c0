//! Cube coordinates, the direction sets every variant shares, and board drawing layouts.
//!
//! A hexagonal cell is addressed by cube coordinates `(q, r, s)` with `q + r + s = 0`
//! (docs/rules.md §1). Only `q` and `r` are stored; `s` is derived, so a [`Hex`] can
//! never break the invariant. The same type serves as a position and as a vector between
//! positions, the way `glam` uses one type for points and offsets.

use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

/// A cube coordinate (or a cube vector). `s` is always `-q - r`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Hex {
    q: i8,
    r: i8,
}

impl Hex {
    /// The centre of every board.
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// Builds a coordinate from `q` and `r`; `s` follows.
    pub const fn new(q: i8, r: i8) -> Hex {
        Hex { q, r }
    }

    /// Builds a coordinate from all three cube components, or `None` when they do not
    /// sum to zero (such a triple names no cell).
    pub fn cube(q: i32, r: i32, s: i32) -> Option<Hex> {
        if q + r + s != 0 {
            return None;
        }
        let q = i8::try_from(q).ok()?;
        let r = i8::try_from(r).ok()?;
        i8::try_from(s).ok()?;
        Some(Hex { q, r })
    }

    /// The coordinate turned `steps` sixths of a turn about the centre (counter-clockwise
    /// on the flat-top drawing): `(q, r, s)` becomes `(-r, -s, -q)` per step.
    pub const fn rotated(self, steps: u8) -> Hex {
        let (mut q, mut r) = (self.q, self.r);
        let mut i = 0;
        while i < steps % 6 {
            let s = -q - r;
            (q, r) = (-r, -s);
            i += 1;
        }
        Hex { q, r }
    }

    /// The `q` component: a file of a files board is a line of constant `q`.
    pub const fn q(self) -> i8 {
        self.q
    }

    /// The `r` component: a rank of a ranks board is a line of constant `r`.
    pub const fn r(self) -> i8 {
        self.r
    }

    /// The `s` component, `-q - r` (not stored); a slanted rank is a line of constant
    /// `s`.
    pub const fn s(self) -> i8 {
        -self.q - self.r
    }

    /// Distance from the origin in cell steps (the hexagonal "radius" of this cell).
    #[inline]
    pub fn length(self) -> i32 {
        let (q, r, s) = (self.q as i32, self.r as i32, self.s() as i32);
        (q.abs() + r.abs() + s.abs()) / 2
    }

    /// Steps between two cells, counting orthogonal steps only.
    #[inline]
    pub fn distance(self, other: Hex) -> i32 {
        (self - other).length()
    }

    /// Cell colour as docs/rules.md §1.4 defines it: `(q - r) mod 3`, so the centre has colour 0
    /// and a diagonal never leaves its colour.
    pub fn colour(self) -> u8 {
        (self.q as i32 - self.r as i32).rem_euclid(3) as u8
    }

    /// The unit step from this cell toward `to` when both lie on one orthogonal or
    /// diagonal line (`Some(ORIGIN)` for the same cell), else `None`.
    pub fn step_toward(self, to: Hex) -> Option<Hex> {
        let d = to - self;
        if d == Hex::ORIGIN {
            return Some(Hex::ORIGIN);
        }
        let (q, r, s) = (d.q() as i32, d.r() as i32, d.s() as i32);
        let g = gcd(gcd(q.abs(), r.abs()), s.abs());
        let unit = Hex::cube(q / g, r / g, s / g)?;
        (ORTHOGONAL.contains(&unit) || DIAGONAL.contains(&unit)).then_some(unit)
    }

    /// Adds `v`, or `None` when a component would leave the `i8` range (for walking
    /// rays near the limits without overflow).
    pub fn checked_add(self, v: Hex) -> Option<Hex> {
        let q = self.q as i16 + v.q as i16;
        let r = self.r as i16 + v.r as i16;
        let in_range = |x: i16| (-127..=127).contains(&x);
        (in_range(q) && in_range(r) && in_range(-q - r)).then(|| Hex::new(q as i8, r as i8))
    }
}

impl Add for Hex {
    type Output = Hex;
    fn add(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }
}

impl Sub for Hex {
    type Output = Hex;
    fn sub(self, o: Hex) -> Hex {
        Hex::new(self.q - o.q, self.r - o.r)
    }
}

impl Neg for Hex {
    type Output = Hex;
    fn neg(self) -> Hex {
        Hex::new(-self.q, -self.r)
    }
}

impl Mul<i8> for Hex {
    type Output = Hex;
    fn mul(self, k: i8) -> Hex {
        Hex::new(self.q * k, self.r * k)
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{},{})", self.q, self.r, self.s())
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

/// The six rook directions, through cell edges.
pub const ORTHOGONAL: [Hex; 6] = [
    Hex::new(0, 1),
    Hex::new(1, 0),
    Hex::new(1, -1),
    Hex::new(0, -1),
    Hex::new(-1, 0),
    Hex::new(-1, 1),
];

/// The six bishop directions, through cell corners.
pub const DIAGONAL: [Hex; 6] = [
    Hex::new(1, 1),
    Hex::new(-1, 2),
    Hex::new(-2, 1),
    Hex::new(-1, -1),
    Hex::new(1, -2),
    Hex::new(2, -1),
];

/// The twelve knight leaps: every permutation of `(1, 2, -3)` and of its negation.
pub const KNIGHT: [Hex; 12] = [
    Hex::new(1, 2),
    Hex::new(2, 1),
    Hex::new(1, -3),
    Hex::new(2, -3),
    Hex::new(-3, 1),
    Hex::new(-3, 2),
    Hex::new(-1, -2),
    Hex::new(-2, -1),
    Hex::new(-1, 3),
    Hex::new(-2, 3),
    Hex::new(3, -1),
    Hex::new(3, -2),
];

/// How a board is drawn. The rules never depend on it except through Black's mirror,
/// which is "top to bottom in the drawing".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Layout {
    /// Files are vertical columns (Gliński, McCooey).
    FlatTop,
    /// Ranks are horizontal rows (Grand Hexachess).
    PointyTop,
}

impl Layout {
    /// Centre of a cell in drawing units (cell circumradius 1), y growing toward Black.
    pub fn to_pixel(self, h: Hex) -> (f32, f32) {
        let (q, r) = (h.q as f32, h.r as f32);
        let root3 = 3f32.sqrt();
        match self {
            Layout::FlatTop => (1.5 * q, root3 * (r + q / 2.0)),
            Layout::PointyTop => (root3 * (q + r / 2.0), 1.5 * r),
        }
    }

    /// The cell whose centre is nearest a drawing point: the inverse of
    /// [`Layout::to_pixel`], rounded to the nearest cube coordinate.
    pub fn from_pixel(self, x: f32, y: f32) -> Hex {
        let root3 = 3f32.sqrt();
        let (q, r) = match self {
            Layout::FlatTop => {
                let q = x / 1.5;
                (q, y / root3 - q / 2.0)
            }
            Layout::PointyTop => {
                let r = y / 1.5;
                (x / root3 - r / 2.0, r)
            }
        };
        // Cube rounding: round all three, then fix the one that moved most.
        let s = -q - r;
        let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
        let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
        if dq > dr && dq > ds {
            rq = -rr - rs;
        } else if dr > ds {
            rr = -rq - rs;
        }
        Hex::new(rq.clamp(-127.0, 127.0) as i8, rr.clamp(-127.0, 127.0) as i8)
    }

    /// Reflects a cell top-to-bottom in the drawing: how Black's setup is derived from
    /// White's, so kings face kings.
    pub fn mirror(self, h: Hex) -> Hex {
        match self {
            // (q, r, s) -> (q, s, r)
            Layout::FlatTop => Hex::new(h.q, h.s()),
            // (q, r, s) -> (-s, -r, -q)
            Layout::PointyTop => Hex::new(-h.s(), -h.r),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_sets_are_cube_vectors_of_the_right_length() {
        for v in ORTHOGONAL {
            assert_eq!(v.length(), 1, "{v}");
        }
        for v in DIAGONAL {
            assert_eq!(v.length(), 2, "{v}");
            assert_eq!(v.colour(), 0, "a diagonal keeps the colour: {v}");
        }
        for v in KNIGHT {
            assert_eq!(v.length(), 3, "{v}");
            let mut parts = [v.q().abs(), v.r().abs(), v.s().abs()];
            parts.sort();
            assert_eq!(parts, [1, 2, 3]);
        }
        let mut all: Vec<Hex> = ORTHOGONAL
            .iter()
            .chain(&DIAGONAL)
            .chain(&KNIGHT)
            .copied()
            .collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 24);
    }

    #[test]
    fn radius_five_board_has_91_cells_in_three_colours() {
        let mut counts = [0; 3];
        for q in -5i8..=5 {
            for r in -5i8..=5 {
                let h = Hex::new(q, r);
                if h.length() <= 5 {
                    counts[h.colour() as usize] += 1;
                }
            }
        }
        assert_eq!(counts, [31, 30, 30]);
    }

    #[test]
    fn mirrors_are_involutions_that_flip_the_drawing() {
        for layout in [Layout::FlatTop, Layout::PointyTop] {
            for v in ORTHOGONAL.iter().chain(&DIAGONAL).chain(&KNIGHT) {
                let m = layout.mirror(*v);
                assert_eq!(layout.mirror(m), *v);
                let (x, y) = layout.to_pixel(*v);
                let (mx, my) = layout.to_pixel(m);
                assert!(
                    (x - mx).abs() < 1e-5 && (y + my).abs() < 1e-5,
                    "{layout:?} {v}"
                );
            }
        }
    }

    #[test]
    fn pixels_round_to_the_nearest_cell() {
        for layout in [Layout::FlatTop, Layout::PointyTop] {
            for q in -6i8..=6 {
                for r in -6i8..=6 {
                    let h = Hex::new(q, r);
                    let (x, y) = layout.to_pixel(h);
                    assert_eq!(layout.from_pixel(x, y), h);
                    // Anywhere within 0.8 of the centre is still that cell.
                    for (dx, dy) in [(0.7, 0.1), (-0.3, 0.6), (0.0, -0.8)] {
                        assert_eq!(layout.from_pixel(x + dx, y + dy), h, "{layout:?} {h}");
                    }
                }
            }
        }
    }

    #[test]
    fn steps_toward_cells_on_a_line() {
        let o = Hex::ORIGIN;
        assert_eq!(o.step_toward(Hex::new(0, 3)), Some(Hex::new(0, 1)));
        assert_eq!(o.step_toward(Hex::new(-4, 2)), Some(Hex::new(-2, 1)));
        assert_eq!(
            o.step_toward(Hex::new(1, 2)),
            None,
            "a knight's leap is no line"
        );
        assert_eq!(o.step_toward(o), Some(o));
    }

    #[test]
    fn cube_rejects_triples_off_the_plane() {
        assert_eq!(Hex::cube(1, 2, -3), Some(Hex::new(1, 2)));
        assert_eq!(Hex::cube(1, 2, 3), None);
    }
}
