//! The win/draw/loss solver's transposition table ([`super::wdl`]): lock-free, exact keys,
//! lower and upper bounds with the size of the search that proved them (what a full bucket
//! forgets first), huge pages at any size. Its entries go to disk and back through
//! [`super::wdl_checkpoint`]. Depends on [`crate::memory`] only.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bounds on a value: lower, upper, and the log₂ of the nodes that proved them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lo: i8,
    pub hi: i8,
    pub work: u8,
}

impl Bounds {
    /// The 18 bits an entry keeps of them.
    pub fn pack(self) -> u64 {
        (self.lo + 1) as u64 | ((self.hi + 1) as u64) << 2 | (self.work.min(63) as u64) << 4
    }

    pub fn unpack(d: u64) -> Bounds {
        Bounds {
            lo: (d & 3) as i8 - 1,
            hi: (d >> 2 & 3) as i8 - 1,
            work: (d >> 4) as u8,
        }
    }

    /// Whether these are bounds a search can have proved: values −1…1, lower ≤ upper.
    pub fn valid(self) -> bool {
        (-1..=1).contains(&self.lo) && (-1..=1).contains(&self.hi) && self.lo <= self.hi
    }
}

const KEY_HIGH_BITS: u32 = 46;
const WAYS: usize = 4;

/// One cache line: four entries of two words, `key_low ^ word1` and `word1` = the key's high
/// bits with the bounds above them (Hyatt's lock-free hashing: a torn entry does not match).
#[repr(align(64))]
struct Bucket([AtomicU64; 2 * WAYS]);

// SAFETY: all-zero atomics are valid values (an empty entry), and they need no drop.
unsafe impl crate::memory::Zeroable for Bucket {}

/// The lock-free transposition table.
pub struct Table {
    buckets: crate::memory::ZeroedTable<Bucket>,
    mask: u64,
    /// Entries written into an empty slot.
    pub filled: AtomicU64,
}

#[inline]
pub(crate) fn index_of(key: u128) -> u64 {
    let x = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let x = (x ^ (x >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

impl Table {
    /// A table of about `mb` MiB (a power of two of 64-byte buckets, four entries each).
    pub fn new(mb: u64) -> Table {
        let bytes = (mb.max(1) << 20) as usize;
        let n = (bytes / 64).next_power_of_two() >> usize::from(!(bytes / 64).is_power_of_two());
        // The solver fills its table: huge pages at any size (src/memory.rs).
        let buckets =
            crate::memory::ZeroedTable::new_filled(n.max(1)).expect("memory for the table");
        Table {
            buckets,
            mask: n.max(1) as u64 - 1,
            filled: AtomicU64::new(0),
        }
    }

    /// Entries the table can hold.
    pub fn capacity(&self) -> u64 {
        self.buckets.len() as u64 * WAYS as u64
    }

    #[inline]
    fn bucket(&self, key: u128) -> &Bucket {
        &self.buckets[(index_of(key) & self.mask) as usize]
    }

    /// Asks the memory for `key`'s bucket ahead of its use.
    #[inline]
    pub fn prefetch(&self, key: u128) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(self.bucket(key) as *const Bucket as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bounds stored for `key`.
    #[inline]
    pub fn get(&self, key: u128) -> Option<Bounds> {
        let b = self.bucket(key);
        let (low, high) = (key as u64, (key >> 64) as u64);
        for w in 0..WAYS {
            let w1 = b.0[2 * w + 1].load(Ordering::Relaxed);
            let w0 = b.0[2 * w].load(Ordering::Relaxed);
            if w0 ^ w1 == low && w1 & ((1 << KEY_HIGH_BITS) - 1) == high {
                return Some(Bounds::unpack(w1 >> KEY_HIGH_BITS));
            }
        }
        None
    }

    /// Calls `f` with every entry's key and bounds (an entry being written meanwhile by
    /// another thread is skipped: its two words do not match, as in [`Table::get`]).
    pub fn for_each_entry(&self, mut f: impl FnMut(u128, Bounds)) {
        for b in self.buckets.iter() {
            for w in 0..WAYS {
                let w1 = b.0[2 * w + 1].load(Ordering::Relaxed);
                let w0 = b.0[2 * w].load(Ordering::Relaxed);
                if w1 == 0 && w0 == 0 {
                    continue;
                }
                let high = w1 & ((1 << KEY_HIGH_BITS) - 1);
                let key = (high as u128) << 64 | (w0 ^ w1) as u128;
                if key >> 109 == 1 {
                    f(key, Bounds::unpack(w1 >> KEY_HIGH_BITS));
                }
            }
        }
    }

    /// Stores `bounds` for `key`: over its entry, else over the entry of least work.
    #[inline]
    pub fn put(&self, key: u128, bounds: Bounds) {
        let b = self.bucket(key);
        let (low, high) = (key as u64, (key >> 64) as u64);
        let w1 = high | bounds.pack() << KEY_HIGH_BITS;
        let mut victim = 0;
        let mut least = u64::MAX;
        for w in 0..WAYS {
            let o1 = b.0[2 * w + 1].load(Ordering::Relaxed);
            let o0 = b.0[2 * w].load(Ordering::Relaxed);
            if o0 ^ o1 == low && o1 & ((1 << KEY_HIGH_BITS) - 1) == high {
                victim = w;
                least = 0;
                break;
            }
            let work = if o0 == 0 && o1 == 0 {
                0
            } else {
                1 + (o1 >> (KEY_HIGH_BITS + 4))
            };
            if work < least {
                least = work;
                victim = w;
            }
        }
        if least == 0 && b.0[2 * victim + 1].load(Ordering::Relaxed) == 0 {
            self.filled.fetch_add(1, Ordering::Relaxed);
        }
        b.0[2 * victim].store(low ^ w1, Ordering::Relaxed);
        b.0[2 * victim + 1].store(w1, Ordering::Relaxed);
    }
}
