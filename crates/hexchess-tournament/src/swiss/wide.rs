//! A wide unsigned integer for the pairing's edge weights.
//!
//! The Dutch rules rank candidate pairings by a long list of criteria, each one
//! counting only when every criterion before it ties. A weight is therefore built
//! as fields laid side by side, the most important highest, each wide enough that
//! the sum over a whole matching cannot carry into the next one: comparing two sums
//! compares the criteria in order. With a few hundred players those fields need
//! several hundred bits, more than any machine integer.

use std::cmp::Ordering;
use std::ops::{Add, Sub};

/// An unsigned integer of `64 * N` bits, limbs least significant first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> Wide<N> {
    /// Zero.
    pub const ZERO: Self = Self([0; N]);

    /// A small value.
    pub fn from_u64(value: u64) -> Self {
        let mut limbs = [0; N];
        limbs[0] = value;
        Self(limbs)
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// Shifted left by `bits` (bits pushed past the top are lost; callers size the
    /// type so that none are).
    pub fn shl(self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [0; N];
        for i in (limbs..N).rev() {
            let from = i - limbs;
            out[i] = self.0[from] << rest;
            if rest > 0 && from > 0 {
                out[i] |= self.0[from - 1] >> (64 - rest);
            }
        }
        Self(out)
    }

    /// Halved (rounded down).
    pub fn half(self) -> Self {
        let mut out = [0; N];
        for (i, limb) in out.iter_mut().enumerate() {
            *limb = self.0[i] >> 1;
            if i + 1 < N {
                *limb |= self.0[i + 1] << 63;
            }
        }
        Self(out)
    }

    /// `self + value << at`: a field's value put in at its bit.
    pub fn with_field(self, at: u32, value: u64) -> Self {
        self + Self::from_u64(value).shl(at)
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;

    fn add(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *limb = sum;
            carry = c1 || c2;
        }
        debug_assert!(!carry, "a pairing weight overflowed its width");
        Self(out)
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;

    fn sub(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *limb = diff;
            borrow = b1 || b2;
        }
        debug_assert!(!borrow, "a pairing weight went below zero");
        Self(out)
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same arithmetic done on u128 for values that fit in two limbs.
    #[test]
    fn agrees_with_u128() {
        let values: [u128; 6] = [
            0,
            1,
            u64::MAX as u128,
            (u64::MAX as u128) + 7,
            1 << 100,
            12345 << 70,
        ];
        let wide = |v: u128| Wide::<2>([v as u64, (v >> 64) as u64]);
        for &a in &values {
            for &b in &values {
                assert_eq!(wide(a).cmp(&wide(b)), a.cmp(&b));
                if let Some(s) = a.checked_add(b) {
                    assert_eq!(wide(a) + wide(b), wide(s));
                }
                if a >= b {
                    assert_eq!(wide(a) - wide(b), wide(a - b));
                }
            }
            assert_eq!(wide(a).half(), wide(a >> 1));
            for bits in [0u32, 1, 5, 63, 64, 65, 100] {
                let shifted = if bits < 128 {
                    a.checked_shl(bits).unwrap_or(0)
                } else {
                    0
                };
                // Only compare where nothing was pushed out of the top.
                if bits == 0 || a.leading_zeros() >= bits {
                    assert_eq!(wide(a).shl(bits), wide(shifted), "{a} << {bits}");
                }
            }
        }
    }
}
