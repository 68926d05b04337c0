//! Where the last look at a position's moves stopped, so that the next starts there.
//!
//! A look goes through a position's moves in their one order (see
//! [`Builder::moves_from`]) until one leads out of what it asks for (a loss, or the
//! attacker's win in the draws' split); the moves before that one led in, and a
//! position once decided stays so. So the next look can start at the move the last one
//! stopped at. The mate pass also looks at a position again only when the move its
//! last look stopped at comes to lead into a win ([`Builder::stopped_at`]). The split
//! does not: its marks are many times its looks (each position it wins marks every
//! parent of every position that wins for the attacker), and a test per mark cost more
//! than the looks it saved.

use std::sync::atomic::{AtomicU8, Ordering};

use hexchess_core::Cell;

use super::{Arrangement, Builder};

/// Where the last look at each position of a range of slots stopped: half a byte a
/// position (a byte would pass the memory aim at five men on 91 cells). Zero is a
/// position not looked at yet; `n + 1` one whose look stopped at move `n`, and
/// [`Resume::MOST`] at that move or a later one.
pub(super) struct Resume {
    /// The slot of the range's first position.
    start: usize,
    nibbles: Vec<AtomicU8>,
}

impl Resume {
    const MOST: u8 = 15;

    /// Every position of the `len` slots from `start` not looked at yet.
    pub(super) fn new(start: usize, len: usize) -> Resume {
        Resume {
            start,
            nibbles: (0..len.div_ceil(2)).map(|_| AtomicU8::new(0)).collect(),
        }
    }

    /// None at all (between the passes that use one).
    pub(super) fn none() -> Resume {
        Resume::new(0, 0)
    }

    fn mark(&self, i: usize) -> u8 {
        let k = i - self.start;
        self.nibbles[k / 2].load(Ordering::Relaxed) >> (4 * (k % 2)) & 0xf
    }

    /// The move the next look at slot `i` starts at.
    pub(super) fn skip(&self, i: usize) -> usize {
        usize::from(self.mark(i).saturating_sub(1))
    }

    /// The move the last look at slot `i` stopped at, where the mark tells it exactly.
    pub(super) fn stopped(&self, i: usize) -> Option<usize> {
        match self.mark(i) {
            0 | Self::MOST => None,
            m => Some(usize::from(m) - 1),
        }
    }

    /// The look at slot `i` stopped at move `n`.
    pub(super) fn stop(&self, i: usize, n: usize) {
        let k = i - self.start;
        let shift = 4 * (k % 2);
        let mark = (n.saturating_add(1).min(usize::from(Self::MOST)) as u8) << shift;
        // The other half of the byte is another position's, perhaps another thread's.
        let _ = self.nibbles[k / 2].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
            Some(b & !(0xf << shift) | mark)
        });
    }

    /// Whether a look at slot `i` that stopped as marked may have stopped at move `n`.
    fn may_have_stopped_at(&self, i: usize, n: usize) -> bool {
        match self.mark(i) {
            0 => true,
            Self::MOST => n + 1 >= usize::from(Self::MOST),
            m => n + 1 == usize::from(m),
        }
    }
}

impl Builder<'_> {
    /// Whether the last look at position `p` (its men as in `parent`) may have
    /// stopped at its move of man `j` to `to`, as far as `resume` tells: only then may
    /// that move's leading into a decided position call for a look again. True where
    /// the mark cannot tell: where the slot's men may be stored otherwise than as they
    /// stand here (the moves are numbered in the stored order), and with pawns, whose
    /// moves are numbered by their own steps.
    pub(super) fn stopped_at(
        &self,
        parent: &Arrangement,
        p: usize,
        j: usize,
        to: Cell,
        resume: &Resume,
    ) -> bool {
        let k = self.men.len();
        if self.classes > 0 || !self.indexer.stored_as_is(&parent.cells[..k]) {
            return true;
        }
        let (own, other) = (parent.sides[parent.stm], parent.sides[1 - parent.stm]);
        let occupied = own | other;
        // The move's number, as `Builder::moves_from` counts: every target of each man
        // before him, then his targets on lower cells.
        let mut n = 0;
        for &m in &self.slots[parent.stm] {
            let at = self.cells[parent.cells[m] as usize];
            let reach = self.rules.reach(self.men[m], at, own, other, occupied);
            if m == j {
                let below = (1u128 << to.index()) - 1;
                n += (reach.0 & below).count_ones() as usize;
                break;
            }
            n += reach.count() as usize;
        }
        resume.may_have_stopped_at(p, n)
    }
}

#[cfg(test)]
mod tests {
    use super::Resume;

    #[test]
    fn a_look_resumes_where_it_stopped_and_neighbours_keep_their_own() {
        // Slots 100..105: two to a byte, the first pair 100 and 101.
        let resume = Resume::new(100, 5);
        assert_eq!(
            (100..105).map(|i| resume.skip(i)).collect::<Vec<_>>(),
            [0; 5]
        );
        resume.stop(100, 7);
        resume.stop(101, 3);
        resume.stop(104, 40);
        assert_eq!(
            (100..105).map(|i| resume.skip(i)).collect::<Vec<_>>(),
            [7, 3, 0, 0, 14]
        );
        // Setting a slot again changes its own half of the byte only.
        resume.stop(100, 8);
        assert_eq!((resume.skip(100), resume.skip(101)), (8, 3));
        // The move stopped at is known only where the mark is not "that or later".
        assert_eq!(
            (100..105).map(|i| resume.stopped(i)).collect::<Vec<_>>(),
            [Some(8), Some(3), None, None, None]
        );
    }

    #[test]
    fn a_look_is_called_for_only_by_the_move_it_stopped_at() {
        let resume = Resume::new(0, 4);
        // Not looked at yet: any move may call for the first look.
        assert!((0..20).all(|n| resume.may_have_stopped_at(0, n)));
        resume.stop(0, 0);
        resume.stop(1, 5);
        resume.stop(2, 30);
        let called = |i| {
            (0..40)
                .filter(|&n| resume.may_have_stopped_at(i, n))
                .collect::<Vec<_>>()
        };
        assert_eq!(called(0), [0]);
        assert_eq!(called(1), [5]);
        // Stopped at the fourteenth move or later: any of those.
        assert_eq!(called(2), (14..40).collect::<Vec<_>>());
    }
}
