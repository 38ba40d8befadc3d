//! Attack tables for the 6×6 board embedded in the 8×8 grid (square = rank·8 + file).
//!
//! Knight, king and pawn attacks are plain per-square tables. Sliders use magic bitboards:
//! for each square the blockers that matter (the ray squares short of the board's edge) are
//! multiplied by a magic number whose top bits index a per-square slice of one shared table.
//! The magics are found once, at first use, by a deterministic random search; on a 6×6 board
//! the masks have at most 8 bits, so the search takes a few milliseconds and the whole
//! table is a few thousand entries, small enough to stay in the first-level cache.
//! Depends only on `crate::board`.

use std::sync::LazyLock;

/// Every square of the 6×6 board.
pub const BOARD: u64 = 0x3f3f_3f3f_3f3f;
/// Rank 1 and rank 6 of the board.
pub const RANK_1: u64 = 0x3f;
pub const RANK_6: u64 = 0x3f << 40;
/// The board without file a, without file f.
pub const NOT_FILE_A: u64 = BOARD & !0x0101_0101_0101;
pub const NOT_FILE_F: u64 = BOARD & !(0x0101_0101_0101 << 5);
/// The light squares of the board (b1, a2, …); a1 is dark as in chess.
pub const LIGHT: u64 = {
    let mut bb = 0u64;
    let mut sq = 0;
    while sq < 48 {
        let (f, r) = (sq % 8, sq / 8);
        if f < 6 && (f + r) % 2 == 1 {
            bb |= 1 << sq;
        }
        sq += 1;
    }
    bb
};
pub const DARK: u64 = BOARD & !LIGHT;

use crate::board::attacks::{self as shared, BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS};

/// Knight and king targets of each square.
pub static KNIGHT: [u64; 64] = shared::leaper_table(&KNIGHT_STEPS, 6, 6);
pub static KING: [u64; 64] = shared::leaper_table(&KING_STEPS, 6, 6);
/// Squares a pawn of each colour on a square attacks (diagonally forward).
pub static PAWN: [[u64; 64]; 2] = [shared::pawn_table(1, 6, 6), shared::pawn_table(-1, 6, 6)];

/// The squares a slider on `sq` reaches along `dirs` with blockers `occ` (slow; for tables).
fn slide(sq: usize, dirs: &[(i8, i8); 4], occ: u64) -> u64 {
    shared::slide(sq, occ, dirs, 6, 6)
}

/// The blockers that matter to a slider on `sq`: its rays without the last square of each.
fn relevant(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut out = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = shared::offset(cur, df, dr, 6, 6) {
            if shared::offset(next, df, dr, 6, 6).is_none() {
                break;
            }
            out |= 1u64 << next;
            cur = next;
        }
    }
    out
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    offset: u32,
    shift: u32,
}

/// The slider tables: a magic entry per square for rooks and for bishops, one shared table.
pub struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<u64>,
}

/// A small deterministic generator for the magic search (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn build_magic(sq: usize, dirs: &[(i8, i8); 4], rng: &mut Rng, table: &mut Vec<u64>) -> Magic {
    let mask = relevant(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    // Every subset of the mask (Carry-Rippler) with its attack set.
    let mut occs = Vec::with_capacity(size);
    let mut sub = 0u64;
    loop {
        occs.push((sub, slide(sq, dirs, sub)));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let shift = 64 - bits;
    let mut slots = vec![0u64; size];
    let mut used = vec![false; size];
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 4 && bits > 4 {
            continue;
        }
        used.iter_mut().for_each(|u| *u = false);
        let ok = occs.iter().all(|&(occ, att)| {
            let i = (occ.wrapping_mul(magic) >> shift) as usize;
            if used[i] && slots[i] != att {
                false
            } else {
                used[i] = true;
                slots[i] = att;
                true
            }
        });
        if ok {
            let offset = table.len() as u32;
            table.extend_from_slice(&slots);
            return Magic {
                mask,
                magic,
                offset,
                shift,
            };
        }
    }
}

impl Sliders {
    fn new() -> Sliders {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut table = Vec::new();
        let mut rook = [Magic::default(); 64];
        let mut bishop = [Magic::default(); 64];
        for sq in 0..48 {
            if BOARD >> sq & 1 == 0 {
                continue;
            }
            rook[sq] = build_magic(sq, &ROOK_DIRS, &mut rng, &mut table);
            bishop[sq] = build_magic(sq, &BISHOP_DIRS, &mut rng, &mut table);
        }
        Sliders {
            rook,
            bishop,
            table,
        }
    }

    #[inline(always)]
    fn lookup(&self, m: &Magic, occ: u64) -> u64 {
        let i = ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize + m.offset as usize;
        // The index is below the square's slice end by construction of the shift.
        self.table[i]
    }

    /// Rook targets from `sq` with blockers `occ` (blockers included).
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.rook[sq], occ)
    }

    /// Bishop targets from `sq` with blockers `occ` (blockers included).
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.bishop[sq], occ)
    }

    /// Queen targets from `sq` with blockers `occ`.
    #[inline(always)]
    pub fn queen(&self, sq: usize, occ: u64) -> u64 {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

static SLIDERS: LazyLock<Sliders> = LazyLock::new(Sliders::new);

/// The slider tables, built on first use.
#[inline(always)]
pub fn sliders() -> &'static Sliders {
    &SLIDERS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaper_tables_stay_on_the_board() {
        // a1 knight: b3, c2. f6 king: e6, e5, f5.
        assert_eq!(KNIGHT[0], 1 << 17 | 1 << 10);
        assert_eq!(KING[45], 1 << 44 | 1 << 36 | 1 << 37);
        for sq in 0..64 {
            assert_eq!(KNIGHT[sq] & !BOARD, 0);
            assert_eq!(KING[sq] & !BOARD, 0);
        }
        // A white pawn on a5 attacks b6 only; a black one on f2 attacks e1 only.
        assert_eq!(PAWN[0][32], 1 << 41);
        assert_eq!(PAWN[1][13], 1 << 4);
        assert_eq!(LIGHT.count_ones(), 18);
        assert_eq!(LIGHT & 1, 0);
    }

    #[test]
    fn magic_lookups_match_ray_walks() {
        let s = sliders();
        let mut rng = Rng(12345);
        for sq in 0..48 {
            if BOARD >> sq & 1 == 0 {
                continue;
            }
            for _ in 0..200 {
                let occ = rng.next() & rng.next() & BOARD;
                assert_eq!(s.rook(sq, occ), slide(sq, &ROOK_DIRS, occ));
                assert_eq!(s.bishop(sq, occ), slide(sq, &BISHOP_DIRS, occ));
            }
        }
        // An empty board: a rook on a1 sees 10 squares, a bishop on c3 sees 9.
        assert_eq!(s.rook(0, 0).count_ones(), 10);
        assert_eq!(s.bishop(18, 0).count_ones(), 9);
    }
}
