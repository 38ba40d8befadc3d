//! The transposition table: buckets of four 16-byte entries, one 64-byte cache line each.
//!
//! Each entry is two `AtomicU64` words — the packed data and the hash XOR the data — so that
//! several search threads may share one table without locks (a torn write fails the key check
//! and reads as a miss; Hyatt's lockless hashing). Scores are stored relative to the node
//! (mate distances counted from it, not from the root) and converted back on probing.
//! Replacement: an entry of the same position is overwritten unless it is of this search,
//! not exact, and more than [`KEEP_DEEPER`] plies deeper than the new result (so quiescence,
//! stored at depth 0, never evicts a deep entry of its own position); otherwise the entry with
//! the least `depth - 8 · age` in the bucket goes. Depends on `board::Move` only.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::board::Move;
use crate::memory::{Zeroable, ZeroedTable};

use super::MATE_IN_MAX;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    Exact = 3,
}

/// A probed entry, its score already relative to the probing node's ply.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; 4]);

// SAFETY: a bucket is eight `AtomicU64`s; all zero is a valid (empty) bucket, and it has no
// drop glue.
unsafe impl Zeroable for Bucket {}

/// Entries of the packed word: move 0..16, score 16..32, eval 32..48, depth 48..56,
/// generation (6 bits) and bound (2 bits) 56..64.
fn pack(mv: Move, score: i32, eval: i32, depth: i32, generation: u8, bound: Bound) -> u64 {
    mv.0 as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | (depth.clamp(0, 255) as u64) << 48
        | ((generation as u64) << 2 | bound as u64) << 56
}

fn bound_of(data: u64) -> Option<Bound> {
    match data >> 56 & 3 {
        1 => Some(Bound::Upper),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Exact),
        _ => None,
    }
}

fn depth_of(data: u64) -> i32 {
    (data >> 48 & 0xff) as i32
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// A mate score seen from the node at `ply` (distance from the node) as stored.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_IN_MAX {
        score + ply as i32
    } else if score <= -MATE_IN_MAX {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score seen again from the root (distance from the root).
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_IN_MAX {
        score - ply as i32
    } else if score <= -MATE_IN_MAX {
        score + ply as i32
    } else {
        score
    }
}

const GENERATIONS: u8 = 64;

/// An entry of the same position this many plies deeper than a new result survives it
/// (unless the new result is exact or the entry is from an earlier search).
pub const KEEP_DEEPER: i32 = 3;

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

/// The table. Shared by reference between threads (every method takes `&self` but
/// [`Table::resize`] and [`Table::clear`]).
pub struct Table {
    buckets: ZeroedTable<Bucket>,
    generation: u8,
}

impl Table {
    /// A table of at most `mb` MiB (at least one bucket). If the memory cannot be had, the
    /// size is halved until it can, and a warning is logged.
    pub fn new(mb: usize) -> Table {
        let mut t = Table {
            buckets: ZeroedTable::empty(),
            generation: 0,
        };
        t.resize(mb);
        t
    }

    /// Resizes to at most `mb` MiB and clears. The memory comes zeroed from the allocator,
    /// so the system hands out pages as the search first touches them: a large table costs
    /// nothing until it is used (`Hash 4096` answers at once).
    pub fn resize(&mut self, mb: usize) {
        let mut count = (mb.saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        std::mem::replace(&mut self.buckets, ZeroedTable::empty()).release();
        let buckets = loop {
            if let Some(b) = ZeroedTable::new(count) {
                break b;
            }
            if count == 1 {
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>());
            }
            count /= 2;
        };
        if count * BUCKET_BYTES < mb.saturating_mul(1 << 20) {
            log::warn!(
                "hash: could not allocate {mb} MiB, using {} KiB",
                count * BUCKET_BYTES / 1024
            );
        }
        self.buckets = buckets;
        self.generation = 0;
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Empties every entry: a fresh zeroed table of the same size, the old memory released in
    /// the background (as cheap as [`resize`], whatever the size).
    ///
    /// [`resize`]: Table::resize
    pub fn clear(&mut self) {
        if !self.buckets.clear() {
            // No second block to be had while the first is held: zero this one in place.
            for b in self.buckets.iter() {
                for e in &b.0 {
                    e.key.store(0, Relaxed);
                    e.data.store(0, Relaxed);
                }
            }
        }
        self.generation = 0;
    }

    /// Starts a new search: older entries become easier to replace.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &Bucket {
        let index = ((hash as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the processor to fetch the bucket of `hash` into the cache.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(hash) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint to the cache: it never faults, reads no value and
            // writes nothing, whatever the address (here a valid one inside the table). It pays:
            // with quiescence probing the table, pawn-chess bench ran 1.36–1.40 s against
            // 1.43–2.08 s without it, side by side (`BENCH_DEPTHS=9`, tests::bench_report).
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr) };
        }
    }

    /// The entry of `hash`, if stored, its score seen from `ply`.
    #[inline]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        for e in &self.bucket(hash).0 {
            let data = e.data.load(Relaxed);
            if e.key.load(Relaxed) ^ data != hash {
                continue;
            }
            let bound = bound_of(data)?;
            return Some(Hit {
                mv: Move(data as u16),
                score: from_tt((data >> 16) as u16 as i16 as i32, ply),
                eval: (data >> 32) as u16 as i16 as i32,
                depth: depth_of(data),
                bound,
            });
        }
        None
    }

    /// Stores a result for `hash` found at `ply`. A null `mv` keeps the move stored before.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        hash: u64,
        ply: usize,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let bucket = self.bucket(hash);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.0 {
            let data = e.data.load(Relaxed);
            let key = e.key.load(Relaxed) ^ data;
            if bound_of(data).is_none() || key == hash {
                victim = e;
                break;
            }
            let age = (GENERATIONS + self.generation - generation_of(data)) % GENERATIONS;
            let worth = depth_of(data) - 8 * age as i32;
            if worth < victim_worth {
                victim = e;
                victim_worth = worth;
            }
        }
        let old = victim.data.load(Relaxed);
        let old_key = victim.key.load(Relaxed) ^ old;
        if old_key == hash
            && bound != Bound::Exact
            && generation_of(old) == self.generation
            && bound_of(old).is_some()
            && depth_of(old) > depth.max(0) + KEEP_DEEPER
        {
            return;
        }
        let mv = if mv.is_null() && old_key == hash {
            Move(old as u16)
        } else {
            mv
        };
        let data = pack(mv, to_tt(score, ply), eval, depth, self.generation, bound);
        victim.key.store(hash ^ data, Relaxed);
        victim.data.store(data, Relaxed);
    }

    /// Permille of the first thousand entries filled in the current search.
    pub fn hashfull(&self) -> u32 {
        let mut used = 0u32;
        let mut seen = 0u32;
        'outer: for bucket in self.buckets.iter() {
            for e in &bucket.0 {
                if seen == 1000 {
                    break 'outer;
                }
                seen += 1;
                let data = e.data.load(Relaxed);
                if bound_of(data).is_some() && generation_of(data) == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveKind, Square};
    use crate::search::MATE;

    #[test]
    fn stores_and_probes_with_mate_distance_per_ply() {
        let t = Table::new(1);
        assert_eq!(t.bytes(), 1 << 20);
        let mv = Move::new(Square(8), Square(16), MoveKind::Normal);
        // A mate in 5 plies from the root, found at ply 3: 2 plies from the node.
        t.store(0xdead_beef, 3, mv, MATE - 5, -7, 4, Bound::Exact);
        let hit = t.probe(0xdead_beef, 3).unwrap();
        assert_eq!((hit.mv, hit.score, hit.eval), (mv, MATE - 5, -7));
        assert_eq!((hit.depth, hit.bound), (4, Bound::Exact));
        // Reached again at ply 1 it is a mate in 3 plies from the root.
        assert_eq!(t.probe(0xdead_beef, 1).unwrap().score, MATE - 3);
        t.store(0xbeef, 2, Move::NULL, -(MATE - 4), 0, 1, Bound::Upper);
        assert_eq!(t.probe(0xbeef, 0).unwrap().score, -(MATE - 2));
        assert!(t.probe(0xdead_beee, 3).is_none());
        // A null move keeps the stored one.
        t.store(0xdead_beef, 0, Move::NULL, 12, 0, 6, Bound::Lower);
        let hit = t.probe(0xdead_beef, 0).unwrap();
        assert_eq!((hit.mv, hit.score, hit.bound), (mv, 12, Bound::Lower));
        // A shallow bound (a quiescence store) does not evict it; a shallow exact score does.
        t.store(0xdead_beef, 0, Move::NULL, -40, 0, 0, Bound::Upper);
        assert_eq!(t.probe(0xdead_beef, 0).unwrap().depth, 6);
        t.store(0xdead_beef, 0, Move::NULL, -40, 0, 2, Bound::Exact);
        assert_eq!(t.probe(0xdead_beef, 0).unwrap().depth, 2);
        // Both keys fall into the first bucket: 2 of the first 1000 entries are used.
        assert_eq!(t.hashfull(), 2);
    }

    #[test]
    fn clear_empties_and_tiny_tables_work() {
        let mut t = Table::new(0);
        assert_eq!(t.bytes(), 64);
        for h in 1..100u64 {
            t.store(
                h.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                0,
                Move::NULL,
                1,
                1,
                1,
                Bound::Exact,
            );
        }
        assert_eq!(t.hashfull(), 1000);
        t.clear();
        assert_eq!(t.hashfull(), 0);
    }

    #[test]
    fn concurrent_writers_never_yield_a_torn_entry() {
        // Four threads store and probe 64 keys in a one-bucket table (the worst contention).
        // Every field stored is a function of the key, so a hit whose fields do not fit its key
        // would be a torn entry (one thread's key with another's data) that passed the check.
        fn key(i: u64) -> u64 {
            let mut z = i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z ^ (z >> 31)
        }
        fn fields(k: u64) -> (Move, i32, i32, i32) {
            let mv = Move((k as u16) | 1);
            let score = (k >> 16 & 0x3fff) as i32 - 0x2000;
            let eval = (k >> 32 & 0x3fff) as i32 - 0x2000;
            let depth = (k >> 48 & 0x7f) as i32;
            (mv, score, eval, depth)
        }
        let t = Table::new(0);
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for id in 0..4u64 {
                let (t, hits) = (&t, &hits);
                scope.spawn(move || {
                    for i in 0..100_000u64 {
                        let k = key((i * 7 + id * 13) % 64);
                        let (mv, score, eval, depth) = fields(k);
                        t.store(k, 0, mv, score, eval, depth, Bound::Exact);
                        let probed = key((i * 11 + id) % 64);
                        if let Some(hit) = t.probe(probed, 0) {
                            let (mv, score, eval, depth) = fields(probed);
                            assert_eq!(
                                (hit.mv, hit.score, hit.eval, hit.depth),
                                (mv, score, eval, depth)
                            );
                            hits.fetch_add(1, Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.load(Relaxed) > 0);
    }
}
