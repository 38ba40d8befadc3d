//! Attack tables for the 6×6 board embedded in the 8×8 grid (square = rank·8 + file).
//!
//! Knight, king and pawn attacks are plain per-square tables. Sliders use the board's magic
//! bitboards ([`crate::board::magic`]), whose multipliers are found once, at first use, by
//! the seeded search; on a 6×6 board the masks have at most 8 bits, so the search takes a few
//! milliseconds and the whole table is a few thousand entries, small enough to stay in the
//! first-level cache.
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

use crate::board::attacks::{self as shared, KING_STEPS, KNIGHT_STEPS};
pub use crate::board::magic::Sliders;

/// Knight and king targets of each square.
pub static KNIGHT: [u64; 64] = shared::leaper_table(&KNIGHT_STEPS, 6, 6);
pub static KING: [u64; 64] = shared::leaper_table(&KING_STEPS, 6, 6);
/// Squares a pawn of each colour on a square attacks (diagonally forward).
pub static PAWN: [[u64; 64]; 2] = [shared::pawn_table(1, 6, 6), shared::pawn_table(-1, 6, 6)];

/// The seed of the magic search for this board ([`Sliders::search`]).
const MAGIC_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

static SLIDERS: LazyLock<Sliders> = LazyLock::new(|| Sliders::search(6, 6, MAGIC_SEED));

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
        use crate::board::attacks::{BISHOP_DIRS, ROOK_DIRS};
        let s = sliders();
        let mut rng = crate::rng::Rng::new(12345);
        for sq in 0..48 {
            if BOARD >> sq & 1 == 0 {
                continue;
            }
            for _ in 0..200 {
                let occ = rng.next_u64() & rng.next_u64() & BOARD;
                assert_eq!(s.rook(sq, occ), shared::slide(sq, occ, &ROOK_DIRS, 6, 6));
                assert_eq!(s.bishop(sq, occ), shared::slide(sq, occ, &BISHOP_DIRS, 6, 6));
            }
        }
        // An empty board: a rook on a1 sees 10 squares, a bishop on c3 sees 9.
        assert_eq!(s.rook(0, 0).count_ones(), 10);
        assert_eq!(s.bishop(18, 0).count_ones(), 9);
    }
}
