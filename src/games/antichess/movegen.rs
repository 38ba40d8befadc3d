//! The bitboard core of an antichess position ([`Bits`]: pieces by kind and by colour) and
//! what is computed from it and the en-passant square alone: attack sets, legal moves in one
//! pass (the captures, en passant among them, if any exist, else the quiet moves), and the
//! number of legal moves without a move list, for the bulk-counting perft. The attacks are
//! chess's 8×8 tables ([`crate::games::chess::attacks`]).

use crate::board::{Move, MoveKind, MoveList, Square};
use crate::games::chess::attacks::{self, KING, KNIGHT};

/// The kinds of piece, as indices into [`Bits::kinds`] (the order of Räuberschach's).
pub const PAWN_K: usize = 0;
pub const KNIGHT_K: usize = 1;
pub const BISHOP_K: usize = 2;
pub const ROOK_K: usize = 3;
pub const QUEEN_K: usize = 4;
pub const KING_K: usize = 5;

/// Ranks 1 and 8, where pawns promote; ranks 2 and 7, where they may step twice.
pub const RANK_1: u64 = 0xff;
pub const RANK_8: u64 = 0xff << 56;
const RANK_2: u64 = 0xff << 8;
const RANK_7: u64 = 0xff << 48;
const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

/// The promotions of a pawn reaching its last rank, in the order they are generated: a pawn
/// may become a king as well.
pub const PROMOTIONS: [MoveKind; 5] = [
    MoveKind::PromoteQueen,
    MoveKind::PromoteRook,
    MoveKind::PromoteBishop,
    MoveKind::PromoteKnight,
    MoveKind::PromoteKing,
];

/// The pieces of a position: by kind (both colours together) and by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Bits {
    pub kinds: [u64; 6],
    pub colors: [u64; 2],
}

/// The targets of a piece of `kind` (not a pawn) on `sq` with blockers `occ`.
#[inline(always)]
pub fn piece_attacks(kind: usize, sq: usize, occ: u64) -> u64 {
    match kind {
        KNIGHT_K => KNIGHT[sq],
        BISHOP_K => attacks::bishop(sq, occ),
        ROOK_K => attacks::rook(sq, occ),
        QUEEN_K => attacks::queen(sq, occ),
        _ => KING[sq],
    }
}

/// The squares the pawns `pawns` of side `us` (0 White, 1 Black) attack to their left and to
/// their right (from White's view), and the square offsets of those captures.
#[inline(always)]
fn pawn_captures(us: usize, pawns: u64) -> ((u64, i8), (u64, i8)) {
    if us == 0 {
        (((pawns & NOT_FILE_A) << 7, 7), ((pawns & NOT_FILE_H) << 9, 9))
    } else {
        (((pawns & NOT_FILE_A) >> 9, -9), ((pawns & NOT_FILE_H) >> 7, -7))
    }
}

/// The single and double pushes of the pawns `pawns` of side `us` onto `empty` squares, and
/// the offset of one step.
#[inline(always)]
fn pawn_pushes(us: usize, pawns: u64, empty: u64) -> (u64, u64, i8) {
    if us == 0 {
        let single = (pawns << 8) & empty;
        (single, ((single & (RANK_2 << 8)) << 8) & empty, 8)
    } else {
        let single = (pawns >> 8) & empty;
        (single, ((single & (RANK_7 >> 8)) >> 8) & empty, -8)
    }
}

/// Pushes a pawn move for every target in `targets`, each from `to - delta`; all five
/// promotions on the last ranks, `kind` elsewhere.
#[inline(always)]
fn push_pawn(moves: &mut MoveList, targets: u64, delta: i8, kind: MoveKind) {
    let mut t = targets;
    while t != 0 {
        let to = t.trailing_zeros() as u8;
        t &= t - 1;
        let from = Square((to as i8 - delta) as u8);
        if (RANK_1 | RANK_8) >> to & 1 != 0 {
            for promotion in PROMOTIONS {
                moves.push(Move::new(from, Square(to), promotion));
            }
        } else {
            moves.push(Move::new(from, Square(to), kind));
        }
    }
}

/// The number of pawn moves onto `targets`: five for each on a last rank.
#[inline(always)]
fn count_pawn(targets: u64) -> u32 {
    targets.count_ones() + 4 * (targets & (RANK_1 | RANK_8)).count_ones()
}

/// Pushes a move for every target, from `from`.
#[inline(always)]
fn push_targets(moves: &mut MoveList, from: u8, targets: u64) {
    let mut t = targets;
    while t != 0 {
        let to = t.trailing_zeros() as u8;
        t &= t - 1;
        moves.push(Move::new(Square(from), Square(to), MoveKind::Normal));
    }
}

impl Bits {
    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    /// Squares attacked by the pieces of side `us` (0 White, 1 Black).
    pub fn attacks_by(&self, us: usize) -> u64 {
        let own = self.colors[us];
        let occ = self.occupied();
        let ((left, _), (right, _)) = pawn_captures(us, self.kinds[PAWN_K] & own);
        let mut att = left | right;
        for kind in KNIGHT_K..=KING_K {
            let mut bb = self.kinds[kind] & own;
            while bb != 0 {
                att |= piece_attacks(kind, bb.trailing_zeros() as usize, occ);
                bb &= bb - 1;
            }
        }
        att
    }

    /// Whether a piece of side `by` attacks `sq` when the board's occupancy is `occ`.
    pub fn attacked(&self, sq: usize, by: usize, occ: u64) -> bool {
        let theirs = self.colors[by] & occ;
        let k = &self.kinds;
        (attacks::PAWN[1 - by][sq] & k[PAWN_K] & theirs) != 0
            || (KNIGHT[sq] & k[KNIGHT_K] & theirs) != 0
            || (KING[sq] & k[KING_K] & theirs) != 0
            || (attacks::bishop(sq, occ) & (k[BISHOP_K] | k[QUEEN_K]) & theirs) != 0
            || (attacks::rook(sq, occ) & (k[ROOK_K] | k[QUEEN_K]) & theirs) != 0
    }

    /// The pawns of side `us` that can take en passant on `ep` (64: no such square).
    #[inline(always)]
    pub fn en_passant_takers(&self, us: usize, ep: u8) -> u64 {
        if ep >= 64 {
            return 0;
        }
        attacks::PAWN[1 - us][ep as usize] & self.kinds[PAWN_K] & self.colors[us]
    }

    /// Every legal move of side `us` into `moves` (not cleared), with `ep` the en-passant
    /// square (64: none): the captures, or when there is none, the quiet moves.
    pub fn legal_moves(&self, us: usize, ep: u8, moves: &mut MoveList) {
        let own = self.colors[us];
        let theirs = self.colors[1 - us];
        let occ = own | theirs;
        let pawns = self.kinds[PAWN_K] & own;
        let ((left, dl), (right, dr)) = pawn_captures(us, pawns);
        let takers = self.en_passant_takers(us, ep);
        let mut any = (left | right) & theirs != 0 || takers != 0;
        if !any {
            any = self.pieces_of(us).any(|(kind, sq)| piece_attacks(kind, sq, occ) & theirs != 0);
        }
        if any {
            push_pawn(moves, left & theirs, dl, MoveKind::Normal);
            push_pawn(moves, right & theirs, dr, MoveKind::Normal);
            let mut t = takers;
            while t != 0 {
                let from = Square(t.trailing_zeros() as u8);
                t &= t - 1;
                moves.push(Move::new(from, Square(ep), MoveKind::EnPassant));
            }
            for (kind, sq) in self.pieces_of(us) {
                push_targets(moves, sq as u8, piece_attacks(kind, sq, occ) & theirs);
            }
        } else {
            let (single, double, step) = pawn_pushes(us, pawns, !occ);
            push_pawn(moves, single, step, MoveKind::Normal);
            push_pawn(moves, double, 2 * step, MoveKind::DoubleStep);
            for (kind, sq) in self.pieces_of(us) {
                push_targets(moves, sq as u8, piece_attacks(kind, sq, occ) & !occ);
            }
        }
    }

    /// The number of legal moves of side `us` with en-passant square `ep`, without
    /// generating them.
    pub fn count_moves(&self, us: usize, ep: u8) -> u32 {
        let own = self.colors[us];
        let theirs = self.colors[1 - us];
        let occ = own | theirs;
        let pawns = self.kinds[PAWN_K] & own;
        let ((left, _), (right, _)) = pawn_captures(us, pawns);
        let (single, double, _) = pawn_pushes(us, pawns, !occ);
        let mut captures = count_pawn(left & theirs) + count_pawn(right & theirs);
        captures += self.en_passant_takers(us, ep).count_ones();
        let mut quiet = count_pawn(single) + double.count_ones();
        for (kind, sq) in self.pieces_of(us) {
            let att = piece_attacks(kind, sq, occ);
            captures += (att & theirs).count_ones();
            quiet += (att & !occ).count_ones();
        }
        if captures > 0 { captures } else { quiet }
    }

    /// The pieces of side `us` other than pawns, as (kind, square).
    #[inline(always)]
    pub fn pieces_of(&self, us: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let own = self.colors[us];
        (KNIGHT_K..=KING_K).flat_map(move |kind| {
            let mut bb = self.kinds[kind] & own;
            std::iter::from_fn(move || {
                (bb != 0).then(|| {
                    let sq = bb.trailing_zeros() as usize;
                    bb &= bb - 1;
                    (kind, sq)
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawn_captures_do_not_wrap_around_the_board() {
        // White pawns on a2 and h2 attack b3 and g3 only.
        let pawns = (1u64 << 8) | (1u64 << 15);
        let ((left, _), (right, _)) = pawn_captures(0, pawns);
        assert_eq!(left | right, (1 << 17) | (1 << 22));
        // Black pawns on a7 and h7 attack b6 and g6 only.
        let pawns = (1u64 << 48) | (1u64 << 55);
        let ((left, _), (right, _)) = pawn_captures(1, pawns);
        assert_eq!(left | right, (1 << 41) | (1 << 46));
    }

    #[test]
    fn a_promotion_counts_five_moves() {
        assert_eq!(count_pawn(1 << 60), 5);
        assert_eq!(count_pawn(1 << 20), 1);
    }
}
