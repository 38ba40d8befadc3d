//! The boards of the losing-chess family as compile-time records ([`Board`]), the way
//! Fairy-Stockfish makes a variant a record of switches rather than a fork: the squares of the
//! board inside the 8×8 grid (square = rank·8 + file), the ranks pawns promote on and may step
//! twice from, whether en passant exists, what a pawn may become, and the attack tables.
//!
//! - [`Six`]: Räuberschach, 6×6 in the grid's lower left corner; pawns step once and promote to
//!   a queen; the sliders by magic bitboards searched for this board at first use.
//! - [`Eight`]: antichess, the whole grid; pawns step twice from their first rank and take en
//!   passant, and promote to a queen, rook, bishop, knight or king; chess's attack tables.
//!
//! Everything generic over a board is monomorphised: a search of Räuberschach runs the same
//! code it ran before the family was one. Depends on `crate::board` and chess's attack tables.

use std::sync::LazyLock;

use crate::board::MoveKind;
use crate::board::attacks::{self as shared, KING_STEPS, KNIGHT_STEPS};
use crate::board::magic::Sliders;
use crate::games::chess::attacks as chess;

/// One board of the family, with its pawn rules and attack tables.
pub trait Board:
    Copy + Clone + std::fmt::Debug + Default + PartialEq + Eq + Send + Sync + 'static
{
    const WIDTH: u8;
    const HEIGHT: u8;
    /// The squares of the board within the 8×8 grid.
    const SQUARES: u64;
    /// The board without its first file and without its last (for pawn captures).
    const NOT_FIRST_FILE: u64;
    const NOT_LAST_FILE: u64;
    /// The rank each side's pawns promote on (White's last, Black's first).
    const PROMOTION_RANK: [u64; 2];
    /// Where each side's pawns land on a first step from which they may step again: the rank
    /// after their start rank, or nothing where pawns step once.
    const SECOND_STEP_FROM: [u64; 2];
    /// Where no pawn may stand, by side: its promotion rank (it would have promoted), and
    /// where pawns step twice from their first rank, that rank too (the FEN rules lichess
    /// and python-chess apply; Räuberschach's positions may keep a pawn on its base line).
    const NO_PAWN: [u64; 2];
    /// Whether a pawn that stepped twice may be taken en passant.
    const EN_PASSANT: bool;
    /// What a pawn may become, in the order the moves are generated.
    const PROMOTIONS: &'static [MoveKind];
    /// The light squares (a1 is dark, as in chess).
    const LIGHT: u64;

    /// Knight, king and pawn targets of a square.
    fn knight(sq: usize) -> u64;
    fn king(sq: usize) -> u64;
    /// The squares a pawn of `side` (0 White, 1 Black) on `sq` attacks.
    fn pawn(side: usize, sq: usize) -> u64;
    /// Slider targets of `sq` with blockers `occ`.
    fn bishop(sq: usize, occ: u64) -> u64;
    fn rook(sq: usize, occ: u64) -> u64;
    #[inline(always)]
    fn queen(sq: usize, occ: u64) -> u64 {
        Self::bishop(sq, occ) | Self::rook(sq, occ)
    }
}

/// The light squares of a `w`×`h` board in the grid.
const fn light_squares(w: usize, h: usize) -> u64 {
    let mut bb = 0u64;
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        if f < w && r < h && (f + r) % 2 == 1 {
            bb |= 1 << sq;
        }
        sq += 1;
    }
    bb
}

/// Räuberschach's 6×6 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Six;

/// The squares of the 6×6 board.
const SIX: u64 = 0x3f3f_3f3f_3f3f;
/// File a of the 6×6 board, and file f.
const SIX_FILE_A: u64 = 0x0101_0101_0101;
const SIX_FILE_F: u64 = SIX_FILE_A << 5;

static KNIGHT6: [u64; 64] = shared::leaper_table(&KNIGHT_STEPS, 6, 6);
static KING6: [u64; 64] = shared::leaper_table(&KING_STEPS, 6, 6);
static PAWN6: [[u64; 64]; 2] = [shared::pawn_table(1, 6, 6), shared::pawn_table(-1, 6, 6)];

/// The seed of the magic search for the 6×6 board ([`Sliders::search`]).
const MAGIC_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

static SLIDERS6: LazyLock<Sliders> = LazyLock::new(|| Sliders::search(6, 6, MAGIC_SEED));

/// The 6×6 slider tables, built on first use (a few milliseconds: the masks have at most 8
/// bits, and the whole table stays in the first-level cache).
#[inline(always)]
pub fn sliders6() -> &'static Sliders {
    &SLIDERS6
}

impl Board for Six {
    const WIDTH: u8 = 6;
    const HEIGHT: u8 = 6;
    const SQUARES: u64 = SIX;
    const NOT_FIRST_FILE: u64 = SIX & !SIX_FILE_A;
    const NOT_LAST_FILE: u64 = SIX & !SIX_FILE_F;
    const PROMOTION_RANK: [u64; 2] = [0x3f << 40, 0x3f];
    const SECOND_STEP_FROM: [u64; 2] = [0, 0];
    const NO_PAWN: [u64; 2] = [0x3f << 40, 0x3f];
    const EN_PASSANT: bool = false;
    const PROMOTIONS: &'static [MoveKind] = &[MoveKind::PromoteQueen];
    const LIGHT: u64 = light_squares(6, 6);

    #[inline(always)]
    fn knight(sq: usize) -> u64 {
        KNIGHT6[sq]
    }
    #[inline(always)]
    fn king(sq: usize) -> u64 {
        KING6[sq]
    }
    #[inline(always)]
    fn pawn(side: usize, sq: usize) -> u64 {
        PAWN6[side][sq]
    }
    #[inline(always)]
    fn bishop(sq: usize, occ: u64) -> u64 {
        sliders6().bishop(sq, occ)
    }
    #[inline(always)]
    fn rook(sq: usize, occ: u64) -> u64 {
        sliders6().rook(sq, occ)
    }
    #[inline(always)]
    fn queen(sq: usize, occ: u64) -> u64 {
        sliders6().queen(sq, occ)
    }
}

/// Antichess's 8×8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Eight;

impl Board for Eight {
    const WIDTH: u8 = 8;
    const HEIGHT: u8 = 8;
    const SQUARES: u64 = !0;
    const NOT_FIRST_FILE: u64 = !0x0101_0101_0101_0101;
    const NOT_LAST_FILE: u64 = !0x8080_8080_8080_8080;
    const PROMOTION_RANK: [u64; 2] = [0xff << 56, 0xff];
    const SECOND_STEP_FROM: [u64; 2] = [0xff << 16, 0xff << 40];
    const NO_PAWN: [u64; 2] = [0xff | 0xff << 56, 0xff | 0xff << 56];
    const EN_PASSANT: bool = true;
    const PROMOTIONS: &'static [MoveKind] = &[
        MoveKind::PromoteQueen,
        MoveKind::PromoteRook,
        MoveKind::PromoteBishop,
        MoveKind::PromoteKnight,
        MoveKind::PromoteKing,
    ];
    const LIGHT: u64 = light_squares(8, 8);

    #[inline(always)]
    fn knight(sq: usize) -> u64 {
        chess::KNIGHT[sq]
    }
    #[inline(always)]
    fn king(sq: usize) -> u64 {
        chess::KING[sq]
    }
    #[inline(always)]
    fn pawn(side: usize, sq: usize) -> u64 {
        chess::PAWN[side][sq]
    }
    #[inline(always)]
    fn bishop(sq: usize, occ: u64) -> u64 {
        chess::bishop(sq, occ)
    }
    #[inline(always)]
    fn rook(sq: usize, occ: u64) -> u64 {
        chess::rook(sq, occ)
    }
    #[inline(always)]
    fn queen(sq: usize, occ: u64) -> u64 {
        chess::queen(sq, occ)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::attacks::{BISHOP_DIRS, ROOK_DIRS};

    #[test]
    fn six_tables_stay_on_the_board() {
        // a1 knight: b3, c2. f6 king: e6, e5, f5.
        assert_eq!(Six::knight(0), 1 << 17 | 1 << 10);
        assert_eq!(Six::king(45), 1 << 44 | 1 << 36 | 1 << 37);
        for sq in 0..64 {
            assert_eq!(Six::knight(sq) & !SIX, 0);
            assert_eq!(Six::king(sq) & !SIX, 0);
        }
        // A white pawn on a5 attacks b6 only; a black one on f2 attacks e1 only.
        assert_eq!(Six::pawn(0, 32), 1 << 41);
        assert_eq!(Six::pawn(1, 13), 1 << 4);
        assert_eq!(Six::LIGHT.count_ones(), 18);
        assert_eq!(Six::LIGHT & 1, 0);
        assert_eq!(Eight::LIGHT, 0x55AA_55AA_55AA_55AA);
    }

    #[test]
    fn six_magic_lookups_match_ray_walks() {
        let mut rng = crate::rng::Rng::new(12345);
        for sq in (0..48).filter(|&sq| SIX >> sq & 1 != 0) {
            for _ in 0..200 {
                let occ = rng.next_u64() & rng.next_u64() & SIX;
                assert_eq!(Six::rook(sq, occ), shared::slide(sq, occ, &ROOK_DIRS, 6, 6));
                assert_eq!(
                    Six::bishop(sq, occ),
                    shared::slide(sq, occ, &BISHOP_DIRS, 6, 6)
                );
            }
        }
        // An empty board: a rook on a1 sees 10 squares, a bishop on c3 sees 9.
        assert_eq!(Six::rook(0, 0).count_ones(), 10);
        assert_eq!(Six::bishop(18, 0).count_ones(), 9);
    }
}
