//! Attack tables for standard chess on the 8×8 board: knight, king and pawn attacks, the
//! squares between and the line through two squares (all computed at compile time), and
//! sliding attacks by "fancy" magic bitboards (tables filled once, on first use).
//!
//! The magic multipliers in [`ROOK_MAGICS`] and [`BISHOP_MAGICS`] were found by the search in
//! [`find_magic`] (seeded, so it is reproducible); a test checks that each one maps every
//! blocker set of its square to a slot without a harmful collision. Depends on nothing else in
//! the crate.

use std::sync::LazyLock;

use crate::board::attacks::{self as shared, BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS};

/// The square `(df, dr)` away from `sq`, if it is on the board.
const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    shared::offset(sq, df, dr, 8, 8)
}

/// The squares a slider on `sq` attacks along `dirs` when `occ` is occupied (the first
/// blocker in each direction included).
pub const fn slide(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    shared::slide(sq, occ, dirs, 8, 8)
}

const fn empty_board_table(dirs: &[(i8, i8); 4]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = slide(sq, 0, dirs);
        sq += 1;
    }
    t
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` if they share a line, else none.
/// `LINE[a][b]`: the whole line through `a` and `b` if they share one, else none.
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let all_dirs = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = all_dirs[d];
            // The full line through `a` in this direction and its opposite.
            let mut full = 1u64 << a;
            let mut cur = a;
            while let Some(n) = offset(cur, df, dr) {
                full |= 1 << n;
                cur = n;
            }
            cur = a;
            while let Some(n) = offset(cur, -df, -dr) {
                full |= 1 << n;
                cur = n;
            }
            let mut ray = 0u64;
            cur = a;
            while let Some(b) = offset(cur, df, dr) {
                between[a][b] = ray;
                line[a][b] = full;
                ray |= 1 << b;
                cur = b;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

pub static KNIGHT: [u64; 64] = shared::leaper_table(&KNIGHT_STEPS, 8, 8);
pub static KING: [u64; 64] = shared::leaper_table(&KING_STEPS, 8, 8);
/// `PAWN[color][sq]`: the squares a pawn of `color` on `sq` attacks.
pub static PAWN: [[u64; 64]; 2] = [shared::pawn_table(1, 8, 8), shared::pawn_table(-1, 8, 8)];
/// Rook moves on an empty board.
pub static ROOK_RAYS: [u64; 64] = empty_board_table(&ROOK_DIRS);
/// Bishop moves on an empty board.
pub static BISHOP_RAYS: [u64; 64] = empty_board_table(&BISHOP_DIRS);
static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

/// The squares strictly between `a` and `b` on a rank, file or diagonal (empty otherwise).
#[inline]
pub fn between(a: usize, b: usize) -> u64 {
    LINES.0[a][b]
}

/// The whole line through `a` and `b` (empty if they share none).
#[inline]
pub fn line(a: usize, b: usize) -> u64 {
    LINES.1[a][b]
}

/// One square's magic: relevant-blocker mask, multiplier, shift and where its slots start.
#[derive(Clone, Copy, Debug, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl Magic {
    /// The table slot of blocker set `occ`: by the magic multiplication, or — when the crate
    /// is built for a CPU with BMI2 (`-C target-cpu=native` on most x86-64 since 2013) — by
    /// PEXT, which packs the relevant blockers directly. The table is filled through this same
    /// function, so both layouts are consistent.
    #[inline]
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

/// Sliding-piece attack tables for rooks and bishops, shared by every position.
struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Box<[u64]>,
}

/// The blockers that matter for a slider on `sq`: its empty-board rays without the edges.
fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, df, dr) {
            // Only squares with a further square beyond them can block.
            if offset(next, df, dr).is_none() {
                break;
            }
            mask |= 1 << next;
            cur = next;
        }
    }
    mask
}

/// Every subset of `mask` with its attack set (Carry-Rippler enumeration).
fn subsets(sq: usize, mask: u64, dirs: &[(i8, i8); 4]) -> Vec<(u64, u64)> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push((sub, slide(sq, sub, dirs)));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

/// Fills `slots` (length 2^bits) for `magic`; false on a collision of different attack sets.
fn try_magic(magic: u64, bits: u32, cases: &[(u64, u64)], slots: &mut [u64]) -> bool {
    slots.iter_mut().for_each(|s| *s = u64::MAX);
    for &(occ, att) in cases {
        let i = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
        if slots[i] == u64::MAX {
            slots[i] = att;
        } else if slots[i] != att {
            return false;
        }
    }
    true
}

/// Searches a magic multiplier for `sq` with random sparse candidates (xorshift, seeded per
/// square). Used to make [`ROOK_MAGICS`] and [`BISHOP_MAGICS`]; kept for regenerating them.
pub fn find_magic(sq: usize, rook: bool) -> u64 {
    let dirs = if rook { &ROOK_DIRS } else { &BISHOP_DIRS };
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let cases = subsets(sq, mask, dirs);
    let mut slots = vec![0u64; 1 << bits];
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ (sq as u64 * 0x1234_5678_9ABC_DEF1) ^ rook as u64;
    let mut rand = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    loop {
        let magic = rand() & rand() & rand();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        if try_magic(magic, bits, &cases, &mut slots) {
            return magic;
        }
    }
}

fn build_sliders() -> Sliders {
    let mut table = Vec::with_capacity(107_648);
    let mut build = |magics: &[u64; 64], dirs: &[(i8, i8); 4]| {
        let mut out = [Magic::default(); 64];
        for sq in 0..64 {
            let mask = relevant_mask(sq, dirs);
            let bits = mask.count_ones();
            let m = Magic {
                mask,
                magic: magics[sq],
                shift: 64 - bits,
                offset: table.len() as u32,
            };
            table.resize(table.len() + (1 << bits), 0);
            for (occ, att) in subsets(sq, mask, dirs) {
                let i = m.index(occ);
                table[i] = att;
            }
            out[sq] = m;
        }
        out
    };
    let rook = build(&ROOK_MAGICS, &ROOK_DIRS);
    let bishop = build(&BISHOP_MAGICS, &BISHOP_DIRS);
    Sliders {
        rook,
        bishop,
        table: table.into_boxed_slice(),
    }
}

static SLIDERS: LazyLock<Sliders> = LazyLock::new(build_sliders);

/// Builds the sliding-attack tables now rather than on first use.
pub fn init() {
    LazyLock::force(&SLIDERS);
}

/// Rook attacks from `sq` with `occ` occupied.
#[inline]
pub fn rook(sq: usize, occ: u64) -> u64 {
    let s = &*SLIDERS;
    s.table[s.rook[sq].index(occ)]
}

/// Bishop attacks from `sq` with `occ` occupied.
#[inline]
pub fn bishop(sq: usize, occ: u64) -> u64 {
    let s = &*SLIDERS;
    s.table[s.bishop[sq].index(occ)]
}

/// Queen attacks from `sq` with `occ` occupied.
#[inline]
pub fn queen(sq: usize, occ: u64) -> u64 {
    rook(sq, occ) | bishop(sq, occ)
}

include!("magics.rs");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_reproduce_every_attack_set() {
        for sq in 0..64 {
            for (rook_like, dirs) in [(true, &ROOK_DIRS), (false, &BISHOP_DIRS)] {
                for (occ, att) in subsets(sq, relevant_mask(sq, dirs), dirs) {
                    // Extra blockers outside the mask must not change anything.
                    let noisy = occ | 0x8100_0000_0000_0081;
                    let got = if rook_like {
                        rook(sq, noisy)
                    } else {
                        bishop(sq, noisy)
                    };
                    assert_eq!(got, att, "square {sq}, rook {rook_like}, occ {occ:#x}");
                }
            }
        }
    }

    #[test]
    fn leaper_tables() {
        assert_eq!(KNIGHT[0], 1 << 10 | 1 << 17);
        assert_eq!(KING[0], 1 << 1 | 1 << 8 | 1 << 9);
        assert_eq!(PAWN[0][12], 1 << 19 | 1 << 21);
        assert_eq!(PAWN[1][8], 1 << 1);
        // a1–h8 diagonal: between a1 and d4 lie b2 and c3.
        assert_eq!(between(0, 27), 1 << 9 | 1 << 18);
        assert_eq!(between(0, 10), 0);
        assert_eq!(line(0, 9), 0x8040_2010_0804_0201);
        assert_eq!(line(0, 17), 0);
    }

    /// Regenerates `magics.rs`: `cargo test --release print_magics -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn print_magics() {
        for (name, rook) in [("ROOK_MAGICS", true), ("BISHOP_MAGICS", false)] {
            println!("const {name}: [u64; 64] = [");
            for sq in 0..64 {
                println!("    {:#018x},", find_magic(sq, rook));
            }
            println!("];");
        }
    }
}
