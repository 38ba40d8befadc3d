//! Attack tables for standard chess on the 8×8 board: knight, king and pawn attacks, the
//! squares between and the line through two squares (all computed at compile time), and
//! sliding attacks by the board's magic bitboards ([`crate::board::magic`], tables filled
//! once, on first use).
//!
//! The magic multipliers in [`ROOK_MAGICS`] and [`BISHOP_MAGICS`] were found by the board's
//! seeded search ([`Sliders::find_magics`] with [`MAGIC_SEED`]), so they are reproducible;
//! building the tables checks that each maps every blocker set of its square to a slot
//! without a harmful collision. Depends only on `crate::board`.

use std::sync::LazyLock;

use crate::board::attacks::{self as shared, BISHOP_DIRS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRS};
use crate::board::magic::Sliders;

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

/// The multipliers of [`ROOK_MAGICS`] and [`BISHOP_MAGICS`] are the board search's for this
/// seed ([`Sliders::find_magics`]).
pub const MAGIC_SEED: u64 = 0x6b69_6562_6974_7a08;

static SLIDERS: LazyLock<Sliders> =
    LazyLock::new(|| Sliders::with_magics(8, 8, &ROOK_MAGICS, &BISHOP_MAGICS));

/// Builds the sliding-attack tables now rather than on first use.
pub fn init() {
    LazyLock::force(&SLIDERS);
}

/// Rook attacks from `sq` with `occ` occupied.
#[inline]
pub fn rook(sq: usize, occ: u64) -> u64 {
    SLIDERS.rook(sq, occ)
}

/// Bishop attacks from `sq` with `occ` occupied.
#[inline]
pub fn bishop(sq: usize, occ: u64) -> u64 {
    SLIDERS.bishop(sq, occ)
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
        // Every relevant blocker set of every square, as the stored multipliers index it.
        crate::board::magic::check_against_ray_walks(&SLIDERS, 8, 8);
        for sq in 0..64 {
            // Every subset of a few random blocker sets, with blockers at the corners.
            let mut rng = crate::rng::Rng::new(sq as u64);
            for _ in 0..200 {
                let occ = rng.next_u64() & rng.next_u64() | 0x8100_0000_0000_0081;
                assert_eq!(
                    rook(sq, occ),
                    slide(sq, occ, &ROOK_DIRS),
                    "rook {sq} {occ:#x}"
                );
                assert_eq!(
                    bishop(sq, occ),
                    slide(sq, occ, &BISHOP_DIRS),
                    "bishop {sq} {occ:#x}"
                );
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

    /// The stored multipliers are the search's: `cargo test --release chess_magics_are_the_searchs
    /// -- --ignored --nocapture` checks them and prints `magics.rs` anew.
    #[test]
    #[ignore]
    fn chess_magics_are_the_searchs() {
        let (rook, bishop) = Sliders::find_magics(8, 8, MAGIC_SEED);
        for (name, magics) in [("ROOK_MAGICS", rook), ("BISHOP_MAGICS", bishop)] {
            println!("const {name}: [u64; 64] = [");
            for m in magics {
                println!("    {m:#018x},");
            }
            println!("];");
        }
        assert_eq!((rook, bishop), (ROOK_MAGICS, BISHOP_MAGICS));
    }
}
