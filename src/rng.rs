//! A small deterministic random generator (SplitMix64) for every random choice of the engines:
//! openings, book moves, the weakened play of a strength level, the search for magic
//! multipliers. The same seed gives the same sequence. Its step, [`splitmix64`], is a `const fn`
//! so that tables made at compile time (the Zobrist keys of [`crate::board::zobrist`]) use it
//! too; [`mix64`] is its finaliser alone, a good 64-bit hash of one word.

/// SplitMix64's finaliser: a bijective mix of the bits of `z` (S. Vigna's constants).
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The SplitMix64 output for state `x`: the value [`Rng::next_u64`] returns from a generator
/// whose state is `x`.
pub const fn splitmix64(x: u64) -> u64 {
    mix64(x.wrapping_add(0x9e37_79b9_7f4a_7c15))
}

/// SplitMix64 (S. Vigna's reference constants).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// Seeded from the clock: a different sequence per process and session.
    pub fn from_time() -> Rng {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng::new(seed ^ u64::from(std::process::id()).rotate_left(32))
    }

    pub fn next_u64(&mut self) -> u64 {
        let out = splitmix64(self.0);
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        out
    }

    /// A random word with few bits set (the AND of three): the candidates of a magic search.
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic() {
        let mut a = Rng::new(1);
        let mut b = Rng::new(1);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        // SplitMix64's first output for seed 1 (reference implementation by S. Vigna).
        assert_eq!(xs[0], 0x910a_2dec_8902_5cc1);
        assert_eq!(splitmix64(1), xs[0]);
        let u = Rng::new(2).unit();
        assert!((0.0..1.0).contains(&u));
    }
}
