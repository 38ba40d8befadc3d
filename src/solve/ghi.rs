//! Results that hold on some lines only: df-pn's disproofs that rest on a draw by repeating a
//! position above them (the graph-history interaction, GHI), kept with the positions they rest
//! on, so that they are used again wherever all those positions are on the line, and nowhere
//! else.
//!
//! A disproof ("the attacker cannot force a win here") found on one line may count a repetition
//! of a position of that line as the defender's draw. Reached by another line, where that
//! position is not above it, the same position may well be won: stored as the position's value
//! it would be wrong (Kishimoto and Müller, "A solution to the GHI problem for depth-first
//! proof-number search", 2004). Kept out of the table altogether — the solver's first remedy —
//! it is searched again each time df-pn comes back to it, along the very same line, and in a
//! position where nearly every disproof rests on a repetition the search then keeps almost
//! nothing and repeats its work without end. Here such a result is stored with [`Deps`], the
//! positions whose repetition it used (as hashes), and a look-up uses it only when each of them
//! is on the current line: then each repetition it counted is a repetition there too, so the
//! result holds. A result that rests on the line's length or the move clock (which depend on the
//! whole line) or on more than [`MAX_DEPS`] positions is not stored.
//!
//! Depends on nothing but `std`; used by [`super::pns`].

/// The most positions a stored line-dependent result may rest on.
pub const MAX_DEPS: usize = 8;

/// The positions of the current line (their indices into the solver's line) that a result
/// rests on; or more of them than [`MAX_DEPS`] (`many`); or the whole line (`whole`: a draw by
/// the line's length or the move clock). Only a result that rests on a few positions is
/// stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deps {
    at: [u32; MAX_DEPS],
    len: u8,
    many: bool,
    whole: bool,
}

impl Deps {
    /// Rests on the whole line: its length or the move clock.
    pub fn whole() -> Deps {
        Deps {
            whole: true,
            ..Deps::default()
        }
    }

    /// Rests on nothing above: holds on every line.
    pub fn is_empty(&self) -> bool {
        self.indices().is_some_and(<[u32]>::is_empty)
    }

    /// Rests on a draw by the line's length or the move clock (not on repetitions alone).
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// The line's indices it rests on; `None` for more than [`MAX_DEPS`] or the whole line.
    pub fn indices(&self) -> Option<&[u32]> {
        (!self.whole && !self.many).then(|| &self.at[..usize::from(self.len)])
    }

    /// How much it rests on, for choosing the least: the positions' count, then too many,
    /// then the whole line.
    pub fn weight(&self) -> usize {
        match self.indices() {
            Some(at) => at.len(),
            None => MAX_DEPS + 1 + usize::from(self.whole),
        }
    }

    /// Adds the position at `index` of the line.
    pub fn add(&mut self, index: usize) {
        let Some(at) = self.indices() else {
            return;
        };
        if at.contains(&(index as u32)) {
            return;
        }
        match u32::try_from(index) {
            Ok(i) if at.len() < MAX_DEPS => {
                self.at[at.len()] = i;
                self.len += 1;
            }
            _ => self.many = true,
        }
    }

    /// Rests on what either rests on.
    pub fn union(mut self, other: Deps) -> Deps {
        self.whole |= other.whole;
        self.many |= other.many;
        for &i in &other.at[..usize::from(other.len)] {
            self.add(i as usize);
        }
        self
    }

    /// What a position at `index` of the line rests on, of what its subtree rests on: the
    /// positions above it (a repetition of the position itself or of one below it holds on
    /// every line through it); too many positions or the whole line stay so.
    pub fn above(self, index: usize) -> Deps {
        let mut kept = Deps {
            many: self.many,
            whole: self.whole,
            ..Deps::default()
        };
        let at = &self.at[..usize::from(self.len)];
        for &i in at.iter().filter(|&&i| (i as usize) < index) {
            kept.add(i as usize);
        }
        kept
    }
}

/// A stored line-dependent result: the position's key, its φ and δ, the work below it, and
/// the hashes of the positions it rests on (0 = none; a position hashed 0 is not stored).
#[derive(Clone, Copy, Default)]
struct LineEntry {
    key: u64,
    phi: u64,
    delta: u64,
    work: u64,
    on: [u64; MAX_DEPS],
}

/// The table of line-dependent results: buckets of four, the least-worked entry replaced, one
/// entry per position (the latest).
pub struct LineTable {
    entries: Vec<LineEntry>,
    mask: usize,
}

const BUCKET: usize = 4;

impl LineTable {
    /// A table of about `mb` MiB (the largest power of two of entries that fits, at least two
    /// buckets), or `None` where the system refuses the memory.
    pub fn try_new(mb: usize) -> Option<LineTable> {
        let bytes = mb.clamp(1, usize::MAX >> 21) << 20;
        let want = (bytes / std::mem::size_of::<LineEntry>()).max(2 * BUCKET);
        let size = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        let mut entries = Vec::new();
        entries.try_reserve_exact(size).ok()?;
        entries.resize(size, LineEntry::default());
        Some(LineTable {
            entries,
            mask: (size - 1) & !(BUCKET - 1),
        })
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let b = (key as usize) & self.mask;
        b..b + BUCKET
    }

    /// The stored (φ, δ) of `key` and the hashes of the positions it rests on.
    pub fn get(&self, key: u64) -> Option<(u64, u64, &[u64])> {
        let e = self.entries[self.bucket(key)]
            .iter()
            .find(|e| e.key == key && e.on[0] != 0)?;
        let n = e.on.iter().take_while(|&&h| h != 0).count();
        Some((e.phi, e.delta, &e.on[..n]))
    }

    /// Stores `key`'s (φ, δ), resting on the positions hashed `on` (1 to [`MAX_DEPS`] of them,
    /// none 0; otherwise nothing is stored).
    pub fn put(&mut self, key: u64, phi: u64, delta: u64, work: u64, on: &[u64]) {
        if on.is_empty() || on.len() > MAX_DEPS || on.contains(&0) {
            return;
        }
        let range = self.bucket(key);
        let bucket = &mut self.entries[range];
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => (0..BUCKET).min_by_key(|&i| bucket[i].work).unwrap_or(0),
        };
        let mut hashes = [0; MAX_DEPS];
        hashes[..on.len()].copy_from_slice(on);
        bucket[slot] = LineEntry {
            key,
            phi,
            delta,
            work,
            on: hashes,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deps_keep_the_positions_above_and_overflow_to_the_whole_line() {
        let mut d = Deps::default();
        assert!(d.is_empty());
        d.add(3);
        d.add(7);
        d.add(3);
        assert_eq!(d.indices(), Some(&[3, 7][..]));
        assert_eq!(d.above(7).indices(), Some(&[3][..]));
        assert!(d.above(3).is_empty());
        let mut e = Deps::default();
        for i in 10..10 + MAX_DEPS {
            e.add(i);
        }
        let many = d.union(e);
        assert_eq!(many.indices(), None, "ten positions are more than eight");
        assert!(!many.is_whole() && !many.above(0).is_empty());
        assert_eq!(d.union(Deps::whole()).indices(), None);
        assert!(d.union(Deps::whole()).is_whole());
        assert_eq!(Deps::whole().above(100).indices(), None);
        assert!(many.weight() < Deps::whole().weight() && d.weight() == 2);
    }

    #[test]
    fn a_line_entry_comes_back_with_the_positions_it_rests_on() {
        let mut t = LineTable::try_new(1).unwrap();
        t.put(42, 0, u64::MAX, 5, &[7, 9]);
        assert_eq!(t.get(42), Some((0, u64::MAX, &[7u64, 9][..])));
        t.put(42, 1, 0, 6, &[8]);
        assert_eq!(
            t.get(42),
            Some((1, 0, &[8u64][..])),
            "the latest replaces it"
        );
        t.put(43, 0, 1, 1, &[]);
        t.put(44, 0, 1, 1, &[0]);
        assert_eq!(
            (t.get(43), t.get(44)),
            (None, None),
            "nothing to rest on: not stored"
        );
    }
}
