//! The quantised network and its inference: `(inputs → H)×2 → 1` with SCReLU.
//!
//! Two accumulators of `H` int16 sums (one per perspective: the side to move's first) are the
//! feature transformer's bias plus the columns of the active inputs. The output is
//! `(Σ screlu(us)·w_us + Σ screlu(them)·w_them) / QA + bias`, scaled to centipawns by
//! `SCALE / (QA · QB)`, where `screlu(x) = clamp(x, 0, QA)²`. The accumulators' sums wrap
//! and the output's are exact `i64`s, so every summation order — the AVX2 path, the baseline
//! path — gives the same number.
//!
//! The file format (little-endian), documented in docs/nnue.md: the magic `KBZNNUE1`, then
//! `u32` inputs, hidden, QA, QB, SCALE; `i16` feature weights (input-major: the column of
//! input `i` is `H` values), `i16` feature biases (`H`), `i16` output weights (`2H`, the
//! side to move's half first), `i32` output bias; last an FNV-1a 64 checksum of all before.

use super::NetError;
use std::fmt;

/// The feature transformer's quantisation: a float 1.0 is 255.
pub const QA: i32 = 255;
/// The output layer's quantisation: a float 1.0 is 256 (weights within ±1.98 stay below
/// 512, so a term `clamp(x, 0, QA)² · w` fits an `i32` and their sum an `i64`).
pub const QB: i32 = 256;
/// Centipawns per unit of the network's float output.
pub const SCALE: i32 = 400;
/// The first format's first bytes: no game recorded (chess's networks before the tag).
pub const MAGIC: &[u8; 8] = b"KBZNNUE1";
/// The tagged format's first bytes: [`GAME_BYTES`] of the game's name follow, then the rest
/// as in the first format.
pub const MAGIC_TAGGED: &[u8; 8] = b"KBZNNUE2";
/// The bytes of the game's name in a tagged file (ASCII, padded with zeros).
pub const GAME_BYTES: usize = 16;
/// The largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 2048;
/// The largest evaluation the network gives, in centipawns, either way: beyond ±200 pawns an
/// evaluation says nothing more, and the scores above it are the search's (table wins and
/// mates, `search::TB_WIN` and up), which no evaluation may reach.
pub const MAX_OUTPUT: i32 = 20_000;
/// The most inputs active in one perspective at once while an accumulator is updated: a
/// record's 32 pieces and two more in the middle of an update.
const MAX_ACTIVE: usize = crate::nnue::data::MAX_PIECES + 2;
/// The largest network file read (64 MiB: a 2048-neuron layer over 768 inputs is 3 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The hidden layer's size must be a multiple of this (whole SIMD registers).
pub const HIDDEN_STEP: usize = 16;

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The game the network was trained for (`Game::GAME`); empty for a file of the first
    /// format, which does not say.
    pub game: String,
    pub inputs: usize,
    pub hidden: usize,
    /// Input-major: the `hidden` weights of input `i` start at `i * hidden`.
    pub ft_weights: Vec<i16>,
    pub ft_bias: Vec<i16>,
    /// The side to move's `hidden` weights, then the other side's.
    pub out_weights: Vec<i16>,
    pub out_bias: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({}→{}×2→1)", self.inputs, self.hidden)
    }
}

/// FNV-1a, 64 bits: the file's checksum.
pub use crate::checksum::fnv1a;

impl Network {
    /// The network's file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + 2 * (self.ft_weights.len() + 3 * self.hidden));
        if self.game.is_empty() {
            b.extend_from_slice(MAGIC);
        } else {
            b.extend_from_slice(MAGIC_TAGGED);
            debug_assert!(
                self.game.len() <= GAME_BYTES,
                "a game name of 16 bytes at most"
            );
            let mut name = [0u8; GAME_BYTES];
            let len = self.game.len().min(GAME_BYTES);
            name[..len].copy_from_slice(&self.game.as_bytes()[..len]);
            b.extend_from_slice(&name);
        }
        for v in [
            self.inputs,
            self.hidden,
            QA as usize,
            QB as usize,
            SCALE as usize,
        ] {
            b.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.out_bias.to_le_bytes());
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// A network from file bytes, for `inputs` inputs; the error says what is wrong (size,
    /// magic, shape, quantisation, checksum) and nothing is half-read.
    pub fn from_bytes(bytes: &[u8], inputs: usize) -> Result<Network, NetError> {
        let (game, start) = Self::game_tag(bytes)?;
        let head = start + 5 * 4;
        if bytes.len() < head + 12 {
            return Err(NetError::NotANetwork);
        }
        let word = |i: usize| {
            let at = start + 4 * i;
            u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
        };
        let (file_inputs, hidden) = (word(0) as usize, word(1) as usize);
        if file_inputs != inputs {
            return Err(NetError::Inputs {
                found: file_inputs,
                needed: inputs,
            });
        }
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
            return Err(NetError::Hidden(hidden));
        }
        if (word(2), word(3), word(4)) != (QA as u32, QB as u32, SCALE as u32) {
            return Err(NetError::Quantisation {
                found: [word(2), word(3), word(4)],
                build: [QA as u32, QB as u32, SCALE as u32],
            });
        }
        let values = inputs * hidden + 3 * hidden;
        let expected = head + 2 * values + 4 + 8;
        if bytes.len() != expected {
            return Err(NetError::Size {
                found: bytes.len(),
                expected,
            });
        }
        let body = &bytes[..expected - 8];
        let stored = u64::from_le_bytes(bytes[expected - 8..].try_into().unwrap());
        if fnv1a(body) != stored {
            return Err(NetError::Checksum);
        }
        let mut shorts = body[head..head + 2 * values]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| shorts.by_ref().take(n).collect::<Vec<i16>>();
        let ft_weights = take(inputs * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(2 * hidden);
        let out_bias = i32::from_le_bytes(body[head + 2 * values..].try_into().unwrap());
        let net = Network {
            game,
            inputs,
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        };
        net.check_accumulators()?;
        Ok(net)
    }

    /// The game a file names and where its shape begins: a tagged file's name (ASCII, then
    /// zeros), or none for the first format.
    fn game_tag(bytes: &[u8]) -> Result<(String, usize), NetError> {
        match bytes.get(..8) {
            Some(m) if m == MAGIC => Ok((String::new(), 8)),
            Some(m) if m == MAGIC_TAGGED => {
                let name = bytes.get(8..8 + GAME_BYTES).ok_or(NetError::NotANetwork)?;
                let len = name.iter().position(|&c| c == 0).unwrap_or(GAME_BYTES);
                let text = &name[..len];
                let padded = name[len..].iter().all(|&c| c == 0);
                if len == 0 || !padded || !text.iter().all(|c| c.is_ascii_alphanumeric()) {
                    return Err(NetError::GameTag);
                }
                Ok((String::from_utf8_lossy(text).into_owned(), 8 + GAME_BYTES))
            }
            _ => Err(NetError::NotANetwork),
        }
    }

    /// Refuses weights that can carry an accumulator beyond `i16` (it would wrap, and the
    /// evaluation with it): for every neuron, its bias and its [`MAX_ACTIVE`] largest feature
    /// weights by size must add up to at most 32767.
    fn check_accumulators(&self) -> Result<(), NetError> {
        let mut sizes = vec![0i32; self.inputs];
        for j in 0..self.hidden {
            for (i, size) in sizes.iter_mut().enumerate() {
                *size = i32::from(self.ft_weights[i * self.hidden + j]).abs();
            }
            let k = MAX_ACTIVE.min(sizes.len());
            if k < sizes.len() {
                sizes.select_nth_unstable_by(k, |a, b| b.cmp(a));
            }
            let worst = i32::from(self.ft_bias[j]).abs() + sizes[..k].iter().sum::<i32>();
            if worst > i32::from(i16::MAX) {
                return Err(NetError::Overflow {
                    neuron: j,
                    worst,
                    active: MAX_ACTIVE,
                });
            }
        }
        Ok(())
    }

    /// The column of input `i`.
    #[inline]
    pub fn column(&self, i: usize) -> &[i16] {
        &self.ft_weights[i * self.hidden..(i + 1) * self.hidden]
    }

    /// An accumulator set to the bias plus the columns of `active`.
    pub fn refresh(&self, active: impl IntoIterator<Item = usize>, acc: &mut [i16]) {
        acc.copy_from_slice(&self.ft_bias);
        for i in active {
            add(acc, self.column(i));
        }
    }

    /// The evaluation in centipawns from the accumulators of the side to move and the other,
    /// within ±[`MAX_OUTPUT`].
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let h = self.hidden;
        let sum = screlu_dot(us, &self.out_weights[..h]) + screlu_dot(them, &self.out_weights[h..]);
        let cp = (sum / QA as i64 + self.out_bias as i64) * SCALE as i64 / (QA * QB) as i64;
        cp.clamp(-i64::from(MAX_OUTPUT), i64::from(MAX_OUTPUT)) as i32
    }
}

/// Whether the AVX2 paths may be taken (detected once).
#[inline]
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::OnceLock;
        static AVX2: OnceLock<bool> = OnceLock::new();
        *AVX2.get_or_init(|| std::is_x86_feature_detected!("avx2") && !baseline_forced())
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Tests force the baseline path to compare it with AVX2 ([`force_baseline`]).
static BASELINE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn baseline_forced() -> bool {
    BASELINE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether the AVX2 path is taken in this process.
pub fn uses_avx2() -> bool {
    avx2()
}

/// `acc += column`, wrapping.
#[inline]
pub fn add(acc: &mut [i16], column: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: AVX2 is present (detected above).
        return unsafe { simd::add(acc, column) };
    }
    add_base(acc, column)
}

/// `acc -= column`, wrapping.
#[inline]
pub fn sub(acc: &mut [i16], column: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: AVX2 is present (detected above).
        return unsafe { simd::sub(acc, column) };
    }
    sub_base(acc, column)
}

/// `Σ clamp(acc, 0, QA)² · w`.
#[inline]
pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: AVX2 is present (detected above).
        return unsafe { simd::screlu_dot(acc, w) };
    }
    screlu_dot_base(acc, w)
}

#[inline(always)]
fn add_base(acc: &mut [i16], column: &[i16]) {
    for (a, &c) in acc.iter_mut().zip(column) {
        *a = a.wrapping_add(c);
    }
}

#[inline(always)]
fn sub_base(acc: &mut [i16], column: &[i16]) {
    for (a, &c) in acc.iter_mut().zip(column) {
        *a = a.wrapping_sub(c);
    }
}

#[inline(always)]
fn screlu_dot_base(acc: &[i16], w: &[i16]) -> i64 {
    acc.iter().zip(w).fold(0i64, |s, (&a, &w)| {
        let v = (a as i32).clamp(0, QA);
        s + (v * v * w as i32) as i64
    })
}

/// The same loops compiled for AVX2 (the compiler vectorises them 16 lanes wide).
#[cfg(target_arch = "x86_64")]
mod simd {
    #[target_feature(enable = "avx2")]
    pub unsafe fn add(acc: &mut [i16], column: &[i16]) {
        super::add_base(acc, column)
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn sub(acc: &mut [i16], column: &[i16]) {
        super::sub_base(acc, column)
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
        super::screlu_dot_base(acc, w)
    }
}

/// Makes this process take the baseline (non-AVX2) path from now on, where it has not yet
/// decided; for tests comparing the two, which run in processes of their own.
pub fn force_baseline() {
    BASELINE.store(true, std::sync::atomic::Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    pub(crate) fn random_net(inputs: usize, hidden: usize, seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut small = |n: usize, r: i32| -> Vec<i16> {
            (0..n)
                .map(|_| (rng.below(2 * r as usize + 1) as i32 - r) as i16)
                .collect()
        };
        Network {
            game: String::new(),
            inputs,
            hidden,
            ft_weights: small(inputs * hidden, 200),
            ft_bias: small(hidden, 100),
            out_weights: small(2 * hidden, 500),
            out_bias: 1234,
        }
    }

    #[test]
    fn a_tagged_file_keeps_its_game_and_a_damaged_tag_is_refused() {
        let mut net = random_net(768, 32, 5);
        net.game = "antichess".into();
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], MAGIC_TAGGED);
        let back = Network::from_bytes(&bytes, 768).unwrap();
        assert_eq!(back, net, "the tag and the weights come back");
        let mut bad = bytes.clone();
        bad[8 + 3] = b'/';
        let e = Network::from_bytes(&bad, 768).unwrap_err();
        assert!(matches!(e, NetError::GameTag), "{e}");
        net.game.clear();
        assert_eq!(
            &net.to_bytes()[..8],
            MAGIC,
            "untagged: the first format, unchanged"
        );
    }

    #[test]
    fn a_network_file_round_trips_and_damage_is_refused() {
        let net = random_net(768, 32, 5);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes, 768).unwrap(), net);
        let mut flipped = bytes.clone();
        flipped[1000] ^= 4;
        assert!(
            Network::from_bytes(&flipped, 768)
                .unwrap_err()
                .to_string()
                .contains("checksum")
        );
        let cut = &bytes[..bytes.len() - 9];
        assert!(
            Network::from_bytes(cut, 768)
                .unwrap_err()
                .to_string()
                .contains("bytes")
        );
        assert!(
            Network::from_bytes(&bytes, 640)
                .unwrap_err()
                .to_string()
                .contains("inputs")
        );
        assert!(
            Network::from_bytes(b"garbage", 768)
                .unwrap_err()
                .to_string()
                .contains("magic")
        );
    }

    /// Weights that can carry an accumulator past `i16` are refused (they wrapped, and gave
    /// evaluations of millions of centipawns); an output bias far beyond any evaluation is
    /// kept within ±[`MAX_OUTPUT`], below the search's table wins and mates.
    #[test]
    fn overflowing_weights_are_refused_and_the_output_is_bounded() {
        let mut net = random_net(768, 32, 5);
        for i in 0..768 {
            net.ft_weights[i * 32 + 7] = 1000;
        }
        let e = Network::from_bytes(&net.to_bytes(), 768)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("overflow the accumulator") && e.contains("neuron 7"),
            "{e}"
        );
        let mut loud = random_net(768, 32, 5);
        loud.out_bias = i32::MAX;
        let loud = Network::from_bytes(&loud.to_bytes(), 768).expect("accumulators fit");
        let mut acc = vec![0i16; 32];
        loud.refresh([1usize, 100, 700], &mut acc);
        assert_eq!(loud.output(&acc, &acc), MAX_OUTPUT);
    }

    #[test]
    fn the_simd_and_baseline_loops_agree_exactly() {
        let net = random_net(768, 64, 9);
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let mut acc = net.ft_bias.clone();
            let mut base = net.ft_bias.clone();
            for _ in 0..40 {
                let i = rng.below(768);
                add(&mut acc, net.column(i));
                add_base(&mut base, net.column(i));
                if rng.below(3) == 0 {
                    sub(&mut acc, net.column(i));
                    sub_base(&mut base, net.column(i));
                }
            }
            assert_eq!(acc, base);
            let w = &net.out_weights[..64];
            assert_eq!(screlu_dot(&acc, w), screlu_dot_base(&base, w));
        }
    }
}
