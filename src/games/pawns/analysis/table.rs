//! An open-addressing hash map from position keys to values, sized up front for a known
//! number of positions (linear probing, power-of-two size, grows at 3/4 load). Key and value
//! share a slot, so a lookup costs one cache miss.
//!
//! Keys are `u64` where every key of the board fits in 64 bits (boards up to 6×6) and
//! [`Wide`] otherwise ([`TableKey`]). Depends on nothing else.

/// A key type: `u64` or `u128`, with one value reserved to mark an empty slot.
pub trait TableKey: Copy + Eq + Default + std::fmt::Debug {
    /// The reserved value (all ones).
    const EMPTY: Self;
    /// The key from a position key, which must fit.
    fn from_u128(k: u128) -> Self;
    fn to_u128(self) -> u128;
    fn hash(self) -> u64;
}

#[inline]
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 29)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 32)
}

impl TableKey for u64 {
    const EMPTY: u64 = u64::MAX;
    #[inline]
    fn from_u128(k: u128) -> u64 {
        debug_assert!(k >> 64 == 0);
        k as u64
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self as u128
    }
    #[inline]
    fn hash(self) -> u64 {
        mix(self)
    }
}

/// A key of up to 128 bits stored as four 32-bit words, so that a slot with a one-byte value
/// takes 20 bytes instead of the 32 a `u128` (aligned to 16) would.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wide([u32; 4]);

impl TableKey for Wide {
    const EMPTY: Wide = Wide([u32::MAX; 4]);
    #[inline]
    fn from_u128(k: u128) -> Wide {
        Wide([
            k as u32,
            (k >> 32) as u32,
            (k >> 64) as u32,
            (k >> 96) as u32,
        ])
    }
    #[inline]
    fn to_u128(self) -> u128 {
        let [a, b, c, d] = self.0;
        a as u128 | (b as u128) << 32 | (c as u128) << 64 | (d as u128) << 96
    }
    #[inline]
    fn hash(self) -> u64 {
        let [a, b, c, d] = self.0;
        let lo = a as u64 | (b as u64) << 32;
        let hi = c as u64 | (d as u64) << 32;
        mix(lo ^ hi.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
}

/// The hash map.
pub struct Table<K, V> {
    slots: Vec<(K, V)>,
    mask: usize,
    len: u64,
}

impl<K: TableKey, V: Copy + Default> Table<K, V> {
    /// A table for about `capacity` entries.
    pub fn new(capacity: usize) -> Table<K, V> {
        let n = (capacity.max(16) * 4 / 3 + 1).next_power_of_two();
        Table {
            slots: vec![(K::EMPTY, V::default()); n],
            mask: n - 1,
            len: 0,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held by the table.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<(K, V)>()
    }

    #[inline]
    fn slot(&self, key: K) -> (usize, bool) {
        let mut i = key.hash() as usize & self.mask;
        loop {
            let k = self.slots[i].0;
            if k == key {
                return (i, true);
            }
            if k == K::EMPTY {
                return (i, false);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Asks the CPU to fetch the slot where `key` would start its probe.
    #[inline]
    pub fn prefetch(&self, key: K) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = key.hash() as usize & self.mask;
            let p = self.slots.as_ptr().wrapping_add(i) as *const i8;
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch is only a hint: it
            // never faults and reads nothing into the program, whatever the address (here
            // always inside `slots`). Measured: the 5×5 census runs about twice as fast.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The value of `key`, if present.
    #[inline]
    pub fn get(&self, key: K) -> Option<V> {
        let (i, found) = self.slot(key);
        found.then(|| self.slots[i].1)
    }

    /// Inserts or replaces the value of `key`.
    #[inline]
    pub fn insert(&mut self, key: K, value: V) {
        if (self.len as usize + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let (i, found) = self.slot(key);
        if !found {
            self.len += 1;
        }
        self.slots[i] = (key, value);
    }

    /// The value of `key`, inserted as `V::default()` if it was missing.
    #[inline]
    pub fn entry(&mut self, key: K) -> &mut V {
        if (self.len as usize + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let (i, found) = self.slot(key);
        if !found {
            self.len += 1;
            self.slots[i] = (key, V::default());
        }
        &mut self.slots[i].1
    }

    /// Stores `key` without growing: within the `WINDOW` slots from its home it takes its own
    /// slot, an empty one, or else evicts the entry with the lowest `rank`. Lookups still find
    /// every entry stored this way; evicted entries are simply forgotten (a cache).
    #[inline]
    pub fn insert_lossy(&mut self, key: K, value: V, rank: impl Fn(V) -> u8) {
        const WINDOW: usize = 8;
        let mut i = key.hash() as usize & self.mask;
        let mut victim = i;
        let mut victim_rank = u8::MAX;
        for _ in 0..WINDOW {
            let k = self.slots[i].0;
            if k == key || k == K::EMPTY {
                if k == K::EMPTY {
                    self.len += 1;
                }
                self.slots[i] = (key, value);
                return;
            }
            let r = rank(self.slots[i].1);
            if r < victim_rank {
                victim_rank = r;
                victim = i;
            }
            i = (i + 1) & self.mask;
        }
        self.slots[victim] = (key, value);
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let n = old.len() * 2;
        log::debug!("hash table grows to {n} slots");
        self.slots = vec![(K::EMPTY, V::default()); n];
        self.mask = n - 1;
        for (k, v) in old {
            if k != K::EMPTY {
                let (i, _) = self.slot(k);
                self.slots[i] = (k, v);
            }
        }
    }

    /// Every entry, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (K, V)> + '_ {
        self.slots.iter().copied().filter(|(k, _)| *k != K::EMPTY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<K: TableKey>() {
        let mut t: Table<K, u32> = Table::new(4);
        for i in 0..1000u128 {
            t.insert(K::from_u128(i * 7919), i as u32);
        }
        assert_eq!(t.len(), 1000);
        assert_eq!(t.get(K::from_u128(7919 * 500)), Some(500));
        assert_eq!(t.get(K::from_u128(3)), None);
        t.insert(K::from_u128(0), 9);
        assert_eq!(t.get(K::from_u128(0)), Some(9));
        assert_eq!(t.len(), 1000);
        assert_eq!(t.iter().count(), 1000);
    }

    #[test]
    fn insert_get_grow() {
        exercise::<u64>();
        exercise::<Wide>();
    }
}
