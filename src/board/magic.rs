//! Sliding-piece attacks by "fancy" magic bitboards, for any W×H board embedded in the 8×8
//! grid (chess 8×8, Räuberschach 6×6): for each square the blockers that matter (the rays
//! short of the board's edge) are multiplied by a magic number whose top bits index the
//! square's slice of one shared table. When the crate is built for a CPU with BMI2 (e.g.
//! `-C target-cpu=native`) the slot is found by PEXT instead, which packs the relevant
//! blockers directly; the table is filled through the same function, so both layouts agree.
//!
//! [`Sliders::with_magics`] builds the tables from known multipliers (chess keeps its own in
//! `games/chess/magics.rs`); [`Sliders::search`] finds them first by a seeded random search
//! ([`crate::rng::Rng`]), which also makes the chess multipliers.

use super::attacks::{BISHOP_DIRS, ROOK_DIRS, offset, slide};
use crate::rng::Rng;

/// One square's magic: relevant-blocker mask, multiplier, shift and where its slots start.
#[derive(Clone, Copy, Debug, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl Magic {
    /// The table slot of blocker set `occ`.
    #[inline(always)]
    fn index(&self, occ: u64) -> usize {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            let _ = (self.magic, self.shift);
            // SAFETY: compiled only when the target has BMI2 (the cfg above), so the
            // instruction exists on every CPU this code can run on.
            #[allow(unused_unsafe)]
            let packed = unsafe { std::arch::x86_64::_pext_u64(occ, self.mask) };
            packed as usize + self.offset as usize
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
                + self.offset as usize
        }
    }
}

/// A board size: width and height (each 1 to 8).
#[derive(Clone, Copy, Debug)]
struct Size(i8, i8);

impl Size {
    fn on_board(self, sq: usize) -> bool {
        ((sq & 7) as i8) < self.0 && ((sq >> 3) as i8) < self.1
    }
}

/// The blockers that matter for a slider on `sq`: its empty-board rays without the edges.
fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4], size: Size) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, df, dr, size.0, size.1) {
            // Only squares with a further square beyond them can block.
            if offset(next, df, dr, size.0, size.1).is_none() {
                break;
            }
            mask |= 1 << next;
            cur = next;
        }
    }
    mask
}

/// Every subset of `mask` with its attack set (Carry-Rippler enumeration).
fn subsets(sq: usize, mask: u64, dirs: &[(i8, i8); 4], size: Size) -> Vec<(u64, u64)> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push((sub, slide(sq, sub, dirs, size.0, size.1)));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

/// Whether `magic` maps every case to a slot of 2^`bits` without two different attack sets
/// meeting.
fn fits(magic: u64, bits: u32, cases: &[(u64, u64)], slots: &mut [u64]) -> bool {
    slots.iter_mut().for_each(|s| *s = u64::MAX);
    cases.iter().all(|&(occ, att)| {
        let slot = &mut slots[(occ.wrapping_mul(magic) >> (64 - bits)) as usize];
        let free = *slot == u64::MAX || *slot == att;
        *slot = att;
        free
    })
}

/// A magic multiplier for a slider on `sq` moving along `dirs`: random sparse candidates from
/// `rng` until one fits.
fn find_magic(sq: usize, dirs: &[(i8, i8); 4], size: Size, rng: &mut Rng) -> u64 {
    let mask = relevant_mask(sq, dirs, size);
    let bits = mask.count_ones();
    let cases = subsets(sq, mask, dirs, size);
    let mut slots = vec![0u64; 1 << bits];
    loop {
        let magic = rng.sparse();
        // Too few bits reach the index: hopeless, skip the check.
        if (mask.wrapping_mul(magic) >> 56).count_ones() < bits.min(6) {
            continue;
        }
        if fits(magic, bits, &cases, &mut slots) {
            return magic;
        }
    }
}

/// Sliding-piece attack tables for rooks and bishops on one board size.
pub struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Box<[u64]>,
}

impl Sliders {
    /// The tables of a `width`×`height` board with the given multipliers, one per square
    /// (those of squares off the board are ignored). Panics if a multiplier does not fit its
    /// square: they are constants of the program.
    pub fn with_magics(width: i8, height: i8, rook: &[u64; 64], bishop: &[u64; 64]) -> Sliders {
        let size = Size(width, height);
        let mut table = Vec::new();
        let mut build = |magics: &[u64; 64], dirs: &[(i8, i8); 4]| {
            let mut out = [Magic::default(); 64];
            for sq in (0..64).filter(|&sq| size.on_board(sq)) {
                let mask = relevant_mask(sq, dirs, size);
                let bits = mask.count_ones();
                let m = Magic {
                    mask,
                    magic: magics[sq],
                    shift: 64 - bits,
                    offset: table.len() as u32,
                };
                table.resize(table.len() + (1 << bits), u64::MAX);
                for (occ, att) in subsets(sq, mask, dirs, size) {
                    let i = m.index(occ);
                    assert!(
                        table[i] == u64::MAX || table[i] == att,
                        "magic {:#x} does not fit square {sq}",
                        magics[sq]
                    );
                    table[i] = att;
                }
                out[sq] = m;
            }
            out
        };
        let rook = build(rook, &ROOK_DIRS);
        let bishop = build(bishop, &BISHOP_DIRS);
        Sliders {
            rook,
            bishop,
            table: table.into_boxed_slice(),
        }
    }

    /// The multipliers of a `width`×`height` board found by the seeded search, rook then
    /// bishop for each square in turn (0 off the board): the same seed, the same numbers.
    pub fn find_magics(width: i8, height: i8, seed: u64) -> ([u64; 64], [u64; 64]) {
        let size = Size(width, height);
        let mut rng = Rng::new(seed);
        let (mut rook, mut bishop) = ([0u64; 64], [0u64; 64]);
        for sq in (0..64).filter(|&sq| size.on_board(sq)) {
            rook[sq] = find_magic(sq, &ROOK_DIRS, size, &mut rng);
            bishop[sq] = find_magic(sq, &BISHOP_DIRS, size, &mut rng);
        }
        (rook, bishop)
    }

    /// The tables of a `width`×`height` board with multipliers found now by the seeded
    /// search ([`Sliders::find_magics`]).
    pub fn search(width: i8, height: i8, seed: u64) -> Sliders {
        let (rook, bishop) = Sliders::find_magics(width, height, seed);
        Sliders::with_magics(width, height, &rook, &bishop)
    }

    /// Rook targets from `sq` with blockers `occ` (blockers included).
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u64) -> u64 {
        self.table[self.rook[sq].index(occ)]
    }

    /// Bishop targets from `sq` with blockers `occ` (blockers included).
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u64) -> u64 {
        self.table[self.bishop[sq].index(occ)]
    }

    /// Queen targets from `sq` with blockers `occ`.
    #[inline(always)]
    pub fn queen(&self, sq: usize, occ: u64) -> u64 {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

/// Every blocker set of every square, plus blockers the mask leaves out, against the slow
/// ray walk (for the tests of the tables a game keeps).
#[cfg(test)]
pub(crate) fn check_against_ray_walks(s: &Sliders, w: i8, h: i8) {
    let size = Size(w, h);
    let board: u64 = (0..64)
        .filter(|&sq| size.on_board(sq))
        .map(|sq| 1u64 << sq)
        .sum();
    for sq in (0..64).filter(|&sq| size.on_board(sq)) {
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            for (occ, att) in subsets(sq, relevant_mask(sq, dirs, size), dirs, size) {
                let noisy = occ | (0x8100_0000_0000_0081 & board);
                let got = if dirs == &ROOK_DIRS {
                    s.rook(sq, noisy)
                } else {
                    s.bishop(sq, noisy)
                };
                assert_eq!(got, att, "{w}×{h}, square {sq}, occ {occ:#x}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searched_tables_match_ray_walks() {
        check_against_ray_walks(&Sliders::search(6, 6, 1), 6, 6);
        check_against_ray_walks(&Sliders::search(5, 4, 2), 5, 4);
        // A rook on a1 of an empty 6×6 board sees 10 squares, a bishop on c3 sees 9.
        let s = Sliders::search(6, 6, 3);
        assert_eq!(s.rook(0, 0).count_ones(), 10);
        assert_eq!(s.bishop(18, 0).count_ones(), 9);
    }

    #[test]
    fn the_search_is_reproducible_and_bad_magics_are_refused() {
        let (r, b) = Sliders::find_magics(6, 6, 7);
        assert_eq!(Sliders::find_magics(6, 6, 7), (r, b));
        check_against_ray_walks(&Sliders::with_magics(6, 6, &r, &b), 6, 6);
        let mut wrong = r;
        wrong[0] = 1;
        let refused = std::panic::catch_unwind(|| Sliders::with_magics(6, 6, &wrong, &b));
        assert!(refused.is_err());
    }
}
