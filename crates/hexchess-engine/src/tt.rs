//! The transposition table: what earlier searches learned about positions, by hash.
//!
//! One table is shared by every thread of a search. Each slot is two atomic words, the
//! data and the key mixed with it (`key ^ data`): a probe accepts a slot only when
//! unmixing gives back its own key, so a slot that another thread was halfway through
//! writing (one word new, one old) reads as a miss rather than as wrong data. Relaxed
//! loads and stores compile to plain moves, so one thread pays nothing for this.
//!
//! A table of gigabytes costs nothing until it is used: its memory comes zeroed from
//! the system, page by page as the search first writes there. Asking for more than the
//! system grants is an error ([`HashError`]), never an abort. Clearing a table no search
//! has written to does nothing, and clearing one that was written to is shared among
//! the machine's cores, as Stockfish does.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

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
    /// The best move found there, if any.
    pub mv: Option<Move>,
    /// Its score, from the side to move's view.
    pub score: i32,
    /// The depth it was searched to.
    pub depth: i32,
    /// Whether the score is exact or a bound.
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

/// Why a table of the size asked for cannot be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HashError {
    /// The system refused the memory (`ulimit -v`, or more than it will ever grant).
    OutOfMemory {
        /// The size asked for, in megabytes.
        mb: usize,
    },
}

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HashError::OutOfMemory { mb } => {
                write!(f, "{mb} MB cannot be had: the system refused the memory")
            }
        }
    }
}

impl std::error::Error for HashError {}

/// A fixed-size, always-replace-when-useful hash table, shared between threads.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    mask: usize,
    generation: AtomicU8,
    /// Whether anything was stored since the table was made or cleared: clearing an
    /// unused table (a GUI's `ucinewgame` right after `setoption name Hash`) then
    /// costs nothing, instead of writing every page of it.
    used: AtomicBool,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// The fewest slots a table has.
const MIN_SLOTS: usize = 1024;

/// Slots a clearing thread takes at least (4 MB): fewer are cleared faster than a
/// thread starts.
const CLEAR_CHUNK: usize = 1 << 18;

/// The most threads that clear a table together.
const MAX_CLEAR_THREADS: usize = 16;

impl TranspositionTable {
    /// A table of at most `mb` megabytes (rounded down to a power of two of slots), or
    /// when the system refuses that much, of the largest power of two below it that it
    /// grants.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut mb = mb.max(1);
        loop {
            match TranspositionTable::try_new(mb) {
                Ok(table) => return table,
                Err(_) if mb > 1 => mb /= 2,
                Err(_) => return TranspositionTable::with_slots(MIN_SLOTS),
            }
        }
    }

    /// A table of at most `mb` megabytes (rounded down to a power of two of slots), or
    /// the reason it cannot be had.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashError> {
        let refused = HashError::OutOfMemory { mb };
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or(refused.clone())?;
        let wanted = (bytes / SLOT_BYTES).max(MIN_SLOTS);
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        // Ask for the memory in a way that can fail, give it back, and only then take
        // it for the table: building the table itself cannot fail gracefully (it aborts
        // the process), but it gets its memory zeroed from the system without touching
        // a page, where the fallible way would have to write all of it (9 s for 4 GB
        // here). Nothing else allocates in between: the protocol thread does this with
        // no search running.
        Vec::<Slot>::new()
            .try_reserve_exact(count)
            .map_err(|_| refused)?;
        Ok(TranspositionTable::with_slots(count))
    }

    /// A table of `count` (a power of two) empty slots.
    fn with_slots(count: usize) -> TranspositionTable {
        TranspositionTable {
            slots: (0..count).map(|_| Slot::default()).collect(),
            mask: count - 1,
            generation: AtomicU8::new(0),
            used: AtomicBool::new(false),
        }
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        self.slots.len() * SLOT_BYTES / (1024 * 1024)
    }

    /// Empties every slot: at once when nothing was stored since the table was made or
    /// last cleared, otherwise on several threads (the machine's cores, at most
    /// `MAX_CLEAR_THREADS`), each clearing one part.
    pub fn clear(&self) {
        if self.used.swap(false, Ordering::Relaxed) {
            self.clear_slots();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Empties every slot whether or not anything was stored, so that every page of
    /// the table is in memory before a search that is timed (`bench`) starts: a fresh
    /// table's pages come from the system on first use, each at a cost.
    pub fn touch_all(&self) {
        self.used.store(false, Ordering::Relaxed);
        self.clear_slots();
    }

    fn clear_slots(&self) {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = cores.clamp(1, MAX_CLEAR_THREADS);
        let chunk = self.slots.len().div_ceil(threads).max(CLEAR_CHUNK);
        let empty = |part: &[Slot]| part.iter().for_each(|slot| slot.write(0, 0));
        std::thread::scope(|scope| {
            let mut parts = self.slots.chunks(chunk);
            // This thread clears the first part itself, and any part no thread can be
            // started for.
            let first = parts.next().unwrap_or_default();
            for part in parts {
                let spawned = std::thread::Builder::new()
                    .name("hexchess-clear-hash".into())
                    .spawn_scoped(scope, move || empty(part));
                if spawned.is_err() {
                    empty(part);
                }
            }
            empty(first);
        });
    }

    /// Whether every slot is empty (for tests: it reads the whole table).
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(|s| s.read() == (0, 0))
    }

    /// Marks the start of a new search, so older entries give way first.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    /// What was stored for the position of hash `key`, if its slot still holds it.
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

    /// Stores a search's result for the position of hash `key`, unless its slot holds
    /// another position searched much deeper since the last new search began.
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        // Read, and written once per clear: no thread fights over the line.
        if !self.used.load(Ordering::Relaxed) {
            self.used.store(true, Ordering::Relaxed);
        }
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
    fn clearing_empties_every_slot_and_an_unused_table_needs_none() {
        // Large enough to be cleared by several threads.
        let tt = TranspositionTable::new(64);
        assert!(tt.slots.len() > 2 * CLEAR_CHUNK);
        assert!(tt.is_empty());
        let mut key = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..200_000 {
            key = key
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1442695040888963407);
            tt.store(
                key,
                Some(Move::new(cell(1), cell(2))),
                i % 500,
                3,
                Bound::Exact,
            );
        }
        // The last slot is written too: the clear must reach the end of the table.
        let last = tt.mask as u64;
        tt.store(last | (7 << 40), None, 5, 9, Bound::Lower);
        assert!(tt.probe(last | (7 << 40)).is_some());
        assert!(!tt.is_empty());
        tt.new_search();
        tt.clear();
        assert!(tt.is_empty(), "every slot empty");
        assert!(tt.probe(key).is_none() && tt.probe(last | (7 << 40)).is_none());
        assert_eq!(tt.hashfull(), 0);
        // Cleared again with nothing stored: nothing to do, still empty.
        tt.clear();
        assert!(tt.is_empty());
        tt.store(key, None, 1, 1, Bound::Upper);
        tt.clear();
        assert!(tt.is_empty());
    }

    #[test]
    fn a_size_the_system_cannot_grant_is_an_error_not_an_abort() {
        // More than any address space: refused however the system counts memory.
        let e = TranspositionTable::try_new(usize::MAX / 2)
            .err()
            .expect("refused");
        assert_eq!(e, HashError::OutOfMemory { mb: usize::MAX / 2 });
        assert!(e.to_string().contains("cannot be had"), "{e}");
        // Four exabytes: more than any machine maps, whatever it promises.
        assert!(TranspositionTable::try_new(1 << 42).is_err());
        assert!(TranspositionTable::try_new(2).is_ok_and(|t| t.size_mb() == 2));
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
