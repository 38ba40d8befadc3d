//! The transposition table of the N-player searches: one entry per slot (always replaced),
//! holding the value vector found for a position at a remaining depth, what kind of bound it
//! is, and the best move (for ordering). Keys are the game's hash mixed with whatever else the
//! value depends on (the root seat for Paranoid and BRS, the node kind for BRS).

use super::Values;
use crate::board::Move;
use crate::memory::{Zeroable, ZeroedTable};

/// What an entry's value vector means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value of the search to `depth`.
    Exact,
    /// At least this for the scalar being maximised (a cut-off above beta).
    Lower,
    /// At most this (no move reached alpha).
    Upper,
    /// Only the move is worth keeping (the value depends on the window it was found in).
    MoveOnly,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub depth: u32,
    pub bound: Bound,
    pub values: Values,
    pub best: Move,
}

/// A slot: an entry when `used`. All zero is an empty slot, so a table costs resident
/// memory only as it fills.
#[derive(Clone, Copy)]
struct Slot {
    used: bool,
    entry: std::mem::MaybeUninit<Entry>,
}

// SAFETY: a zero `bool` is `false`, and any bytes are a valid `MaybeUninit`; `Slot` is `Copy`,
// so it has no drop glue.
unsafe impl Zeroable for Slot {}

impl Slot {
    fn get(&self) -> Option<Entry> {
        // SAFETY: `entry` is written whenever `used` is set (see `Tt::store`).
        self.used.then(|| unsafe { self.entry.assume_init() })
    }
}

/// A table of `2^k` entries.
pub struct Tt {
    slots: ZeroedTable<Slot>,
}

impl Tt {
    /// A table of at most `mb` MiB (at least 1024 entries).
    pub fn new(mb: usize) -> Tt {
        let per = std::mem::size_of::<Slot>();
        let mut n = 1024usize;
        while n * 2 * per <= mb.clamp(1, 1 << 40) << 20 {
            n *= 2;
        }
        loop {
            if let Some(slots) = ZeroedTable::new(n) {
                return Tt { slots };
            }
            if n == 1024 {
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<Slot>());
            }
            n /= 2;
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// Empties the table: fresh zeroed memory, the old released in the background.
    pub fn clear(&mut self) {
        if !self.slots.clear() {
            self.slots.iter_mut().for_each(|s| s.used = false);
        }
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.index(key)].get().filter(|e| e.key == key)
    }

    /// The best move stored for `key`, if any.
    pub fn best_move(&self, key: u64) -> Option<Move> {
        self.probe(key).map(|e| e.best)
    }

    /// Stores `entry`, replacing what was in its slot unless that is the same position
    /// searched deeper.
    pub fn store(&mut self, entry: Entry) {
        let i = self.index(entry.key);
        if let Some(old) = self.slots[i].get()
            && old.key == entry.key
            && old.depth > entry.depth
        {
            return;
        }
        self.slots[i] = Slot {
            used: true,
            entry: std::mem::MaybeUninit::new(entry),
        };
    }
}
