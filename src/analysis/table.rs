//! An open-addressing hash map from position keys to values, sized up front for a known
//! number of positions (linear probing, power-of-two size, grows at 3/4 load).
//!
//! Keys are stored as 64 bits when every key of the board fits ([`Table::new`] is told), else
//! as 128 bits: the 5×5 census and the 6×6 solver use the small form. Depends on nothing else.

/// The hash map. `V: Copy + Default` values; a key of all ones is reserved.
pub struct Table<V> {
    keys64: Vec<u64>,
    keys128: Vec<u128>,
    values: Vec<V>,
    wide: bool,
    mask: usize,
    len: u64,
}

const EMPTY64: u64 = u64::MAX;
const EMPTY128: u128 = u128::MAX;

#[inline]
fn hash(k: u128) -> u64 {
    let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let x = (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 32)
}

impl<V: Copy + Default> Table<V> {
    /// A table for about `capacity` entries; `wide` when keys may need more than 64 bits.
    pub fn new(capacity: usize, wide: bool) -> Table<V> {
        let slots = (capacity.max(16) * 4 / 3 + 1).next_power_of_two();
        let mut t = Table {
            keys64: Vec::new(),
            keys128: Vec::new(),
            values: Vec::new(),
            wide,
            mask: slots - 1,
            len: 0,
        };
        t.alloc(slots);
        t
    }

    /// A table for 128-bit keys.
    pub fn with_capacity(capacity: usize) -> Table<V> {
        Table::new(capacity, true)
    }

    fn alloc(&mut self, slots: usize) {
        if self.wide {
            self.keys128 = vec![EMPTY128; slots];
        } else {
            self.keys64 = vec![EMPTY64; slots];
        }
        self.values = vec![V::default(); slots];
        self.mask = slots - 1;
        self.len = 0;
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
        let slots = self.mask + 1;
        slots * (std::mem::size_of::<V>() + if self.wide { 16 } else { 8 })
    }

    #[inline]
    fn slot(&self, key: u128) -> (usize, bool) {
        let mut i = hash(key) as usize & self.mask;
        if self.wide {
            loop {
                let k = self.keys128[i];
                if k == key {
                    return (i, true);
                }
                if k == EMPTY128 {
                    return (i, false);
                }
                i = (i + 1) & self.mask;
            }
        } else {
            let key = key as u64;
            loop {
                let k = self.keys64[i];
                if k == key {
                    return (i, true);
                }
                if k == EMPTY64 {
                    return (i, false);
                }
                i = (i + 1) & self.mask;
            }
        }
    }

    /// The value of `key`, if present.
    #[inline]
    pub fn get(&self, key: u128) -> Option<V> {
        let (i, found) = self.slot(key);
        found.then(|| self.values[i])
    }

    /// Inserts or replaces the value of `key`.
    #[inline]
    pub fn insert(&mut self, key: u128, value: V) {
        debug_assert!(self.wide || key >> 64 == 0);
        if (self.len as usize + 1) * 4 > (self.mask + 1) * 3 {
            self.grow();
        }
        let (i, found) = self.slot(key);
        if !found {
            if self.wide {
                self.keys128[i] = key;
            } else {
                self.keys64[i] = key as u64;
            }
            self.len += 1;
        }
        self.values[i] = value;
    }

    fn grow(&mut self) {
        let keys64 = std::mem::take(&mut self.keys64);
        let keys128 = std::mem::take(&mut self.keys128);
        let values = std::mem::take(&mut self.values);
        self.alloc((self.mask + 1) * 2);
        if self.wide {
            for (k, v) in keys128.into_iter().zip(values) {
                if k != EMPTY128 {
                    self.insert(k, v);
                }
            }
        } else {
            for (k, v) in keys64.into_iter().zip(values) {
                if k != EMPTY64 {
                    self.insert(k as u128, v);
                }
            }
        }
    }

    /// Every entry, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (u128, V)> + '_ {
        let wide = self.wide;
        (0..=self.mask).filter_map(move |i| {
            let k = if wide {
                self.keys128[i]
            } else if self.keys64[i] == EMPTY64 {
                EMPTY128
            } else {
                self.keys64[i] as u128
            };
            (k != EMPTY128).then(|| (k, self.values[i]))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_grow() {
        for wide in [false, true] {
            let mut t: Table<u32> = Table::new(4, wide);
            for i in 0..1000u128 {
                t.insert(i * 7919, i as u32);
            }
            assert_eq!(t.len(), 1000);
            assert_eq!(t.get(7919 * 500), Some(500));
            assert_eq!(t.get(3), None);
            t.insert(0, 9);
            assert_eq!(t.get(0), Some(9));
            assert_eq!(t.len(), 1000);
            assert_eq!(t.iter().count(), 1000);
        }
    }
}
