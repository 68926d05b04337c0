//! The transposition table: what earlier searches learned about positions, by hash.
//!
//! One table is shared by every thread of a search. Each slot is two atomic words, the
//! data and the key mixed with it (`key ^ data`): a probe accepts a slot only when
//! unmixing gives back its own key, so a slot that another thread was halfway through
//! writing (one word new, one old) reads as a miss rather than as wrong data. Relaxed
//! loads and stores compile to plain moves, so one thread pays nothing for this.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use hexchess_core::moves::Move;

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

/// One slot, sixteen bytes: the key mixed with the data, and the packed data:
/// move (32) | score (16) | depth (8) | bound (2) + generation (6).
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The key and data, if the two words belong together.
    #[inline]
    fn read(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check ^ data, data)
    }

    #[inline]
    fn write(&self, key: u64, data: u64) {
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// A fixed-size, always-replace-when-useful hash table, shared between threads.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    mask: usize,
    generation: AtomicU8,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

impl TranspositionTable {
    /// A table of at most `mb` megabytes (rounded down to a power of two of slots).
    pub fn new(mb: usize) -> TranspositionTable {
        let wanted = (mb.max(1) * 1024 * 1024 / SLOT_BYTES).max(1024);
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        TranspositionTable {
            slots: (0..count).map(|_| Slot::default()).collect(),
            mask: count - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        self.slots.len() * SLOT_BYTES / (1024 * 1024)
    }

    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.write(0, 0);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries give way first.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let (slot_key, d) = self.slots[key as usize & self.mask].read();
        if slot_key != key || d == 0 {
            return None;
        }
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

    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let slot = &self.slots[key as usize & self.mask];
        let (old_key, old_data) = slot.read();
        let old_depth = (old_data >> 48) as u8 as i32;
        let old_generation = (old_data >> 58) as u8;
        let generation = self.generation.load(Ordering::Relaxed);
        // Keep a deeper entry of this search for another position.
        if old_key != key && old_generation == generation && old_depth > depth + 2 {
            return;
        }
        // Keep the old move when the new result has none for the same position.
        let bits = match mv {
            Some(m) => m.to_bits(),
            None if old_key == key => old_data as u32,
            None => 0,
        };
        let bound_bits = match bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        let depth = depth.clamp(0, 255) as u64;
        let flags = bound_bits | (generation as u64) << 2;
        slot.write(key, bits as u64 | score << 32 | depth << 48 | flags << 56);
    }

    /// Permille of a sample of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let generation = self.generation.load(Ordering::Relaxed);
        let used = self.slots[..sample]
            .iter()
            .map(|s| s.data.load(Ordering::Relaxed))
            .filter(|&d| d != 0 && (d >> 58) as u8 == generation)
            .count();
        (used * 1000 / sample) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_cell as cell;

    #[test]
    fn stores_and_finds_entries_with_negative_scores() {
        let tt = TranspositionTable::new(1);
        assert!(tt.size_mb() <= 1);
        let mv = Move::new(cell(3), cell(90));
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

    #[test]
    fn threads_writing_one_slot_never_make_a_probe_read_mixed_data() {
        // Two threads store different keys (each with data derived from its key) into
        // the same slot as fast as they can while this one probes both keys: a hit must
        // always carry its own key's data, never the other's half.
        let tt = TranspositionTable::new(1);
        let slots = tt.mask as u64 + 1;
        let keys = [0x1234_5678_0000_0005u64, 0x1234_5678_0000_0005 + 7 * slots];
        assert_eq!(keys[0] as usize & tt.mask, keys[1] as usize & tt.mask);
        let mv = |k: u64| Move::new(cell((k >> 40) as u8 & 63), cell(90));
        // Depths within two of each other, so that each store replaces the other's.
        let depth_of = |k: u64| 10 + (k % 3) as i32;
        let score_of = |k: u64| (k % 1009) as i32 - 500;
        let done = std::sync::atomic::AtomicBool::new(false);
        let mut hits = [0u32; 2];
        let mut wrong = Vec::new();
        std::thread::scope(|s| {
            for &k in &keys {
                let (tt, done) = (&tt, &done);
                s.spawn(move || {
                    while !done.load(Ordering::Relaxed) {
                        tt.store(k, Some(mv(k)), score_of(k), depth_of(k), Bound::Exact);
                    }
                });
            }
            // Probe until both keys were seen many times (or two seconds pass).
            let started = std::time::Instant::now();
            let mut round = 0u32;
            while hits.iter().any(|&h| h < 100_000) && started.elapsed().as_secs() < 2 {
                let i = (round & 1) as usize;
                round = round.wrapping_add(1);
                let k = keys[i];
                if let Some(hit) = tt.probe(k) {
                    hits[i] += 1;
                    let found = (hit.mv, hit.depth, hit.score);
                    if found != (Some(mv(k)), depth_of(k), score_of(k)) {
                        wrong.push(found);
                    }
                }
            }
            // Stop the writers before any assertion can end this thread.
            done.store(true, Ordering::Relaxed);
        });
        assert!(
            wrong.is_empty(),
            "mixed reads: {:?}",
            &wrong[..wrong.len().min(5)]
        );
        assert!(
            hits.iter().all(|&h| h > 0),
            "the probes saw both stores: {hits:?}"
        );
    }
}
