//! The transposition table: what earlier searches learned about positions, by hash.

use crate::moves::Move;

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value (a PV node).
    Exact,
    /// At least this much (a fail-high).
    Lower,
    /// At most this much (a fail-low).
    Upper,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// One slot: the full key and the packed data, sixteen bytes.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    /// move (32) | score (16) | depth (8) | bound (2) + generation (6)
    data: u64,
}

/// A fixed-size, always-replace-when-useful hash table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    mask: usize,
    generation: u8,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

impl TranspositionTable {
    /// A table of at most `mb` megabytes (rounded down to a power of two of slots).
    pub fn new(mb: usize) -> TranspositionTable {
        let wanted = (mb.max(1) * 1024 * 1024 / SLOT_BYTES).max(1024);
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        TranspositionTable {
            slots: vec![Slot::default(); count],
            mask: count - 1,
            generation: 0,
        }
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        self.slots.len() * SLOT_BYTES / (1024 * 1024)
    }

    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries give way first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let slot = self.slots[key as usize & self.mask];
        if slot.key != key || slot.data == 0 {
            return None;
        }
        let d = slot.data;
        let bits = d as u32;
        let flags = (d >> 56) as u8;
        Some(TtHit {
            mv: (bits != 0).then(|| Move::from_bits(bits)),
            score: (d >> 32) as u16 as i16 as i32,
            depth: (d >> 48) as u8 as i32,
            bound: match flags & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
        })
    }

    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let i = key as usize & self.mask;
        let old = self.slots[i];
        let old_depth = (old.data >> 48) as u8 as i32;
        let old_generation = (old.data >> 58) as u8;
        // Keep a deeper entry of this search for another position.
        if old.key != key && old_generation == self.generation && old_depth > depth + 2 {
            return;
        }
        // Keep the old move when the new result has none for the same position.
        let bits = match mv {
            Some(m) => m.to_bits(),
            None if old.key == key => old.data as u32,
            None => 0,
        };
        let bound_bits = match bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        let depth = depth.clamp(0, 255) as u64;
        let flags = bound_bits | (self.generation as u64) << 2;
        self.slots[i] = Slot {
            key,
            data: bits as u64 | score << 32 | depth << 48 | flags << 56,
        };
    }

    /// Permille of a sample of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| s.data != 0 && (s.data >> 58) as u8 == self.generation)
            .count();
        (used * 1000 / sample) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Cell;

    #[test]
    fn stores_and_finds_entries_with_negative_scores() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.size_mb() <= 1);
        let mv = Move::new(Cell::from_index(3), Cell::from_index(90));
        tt.store(0xDEAD_BEEF_1234, Some(mv), -29_950, 7, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF_1234).unwrap();
        assert_eq!(hit.mv, Some(mv));
        assert_eq!(hit.score, -29_950);
        assert_eq!(hit.depth, 7);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(tt.probe(0xDEAD_BEEF_1235).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234).is_none());
    }
}
