//! Legal move generation: pins and check evasions are handled while generating, so every move
//! produced is legal and perft can count the last ply without playing it.
//!
//! - In double check only the king moves.
//! - In single check the other pieces may only capture the checker or block its line.
//! - A pinned piece moves only along the line through its king and its pinner.
//! - King steps and castling squares are tested against attacks with the king lifted off the
//!   board (so it cannot hide behind itself from a slider).
//! - En passant, which removes two pieces from one rank, is tested by looking for a slider
//!   that would then see the king (the horizontal-pin case) — it is rare, so the test is exact
//!   rather than clever.

use super::attacks::{self, between, line};
use super::position::*;
use crate::board::{Color, Move, MoveKind, MoveList, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_3: u64 = 0xFF << 16;
const RANK_6: u64 = 0xFF << 40;
const LAST_RANKS: u64 = 0xFF00_0000_0000_00FF;

#[inline(always)]
fn push(list: &mut MoveList, from: usize, to: usize, kind: MoveKind) {
    list.push(Move::new(Square(from as u8), Square(to as u8), kind));
}

/// Pushes a move to every square of `targets` from `from`.
#[inline(always)]
fn push_all(list: &mut MoveList, from: usize, mut targets: u64) {
    while targets != 0 {
        let to = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        push(list, from, to, MoveKind::Normal);
    }
}

/// Pushes pawn moves to `targets`, each from `to - delta`, checking pins when there are any.
#[inline(always)]
fn push_pawn_moves(
    list: &mut MoveList,
    mut targets: u64,
    delta: i32,
    kind: MoveKind,
    pinned: u64,
    ksq: usize,
) {
    while targets != 0 {
        let to = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        let from = (to as i32 - delta) as usize;
        if pinned >> from & 1 != 0 && line(ksq, from) >> to & 1 == 0 {
            continue;
        }
        if kind.is_promotion() {
            for k in [
                MoveKind::PromoteQueen,
                MoveKind::PromoteRook,
                MoveKind::PromoteBishop,
                MoveKind::PromoteKnight,
            ] {
                push(list, from, to, k);
            }
        } else {
            push(list, from, to, kind);
        }
    }
}

impl Chess {
    /// Every legal move into `list` (cleared first).
    pub fn generate(&self, list: &mut MoveList) {
        list.clear();
        match self.side {
            Color::White => self.generate_for::<true>(list),
            Color::Black => self.generate_for::<false>(list),
        }
    }

    #[inline(always)]
    fn generate_for<const WHITE: bool>(&self, list: &mut MoveList) {
        let (us, them) = if WHITE {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let own = self.colors[us.index()];
        let enemy = self.colors[them.index()];
        let occ = own | enemy;
        let ksq = self.king(us);
        let checkers = self.attackers_to(ksq, occ) & enemy;

        // King steps, with the king lifted off the board.
        let lifted = occ ^ (1u64 << ksq);
        let mut steps = attacks::KING[ksq] & !own;
        while steps != 0 {
            let to = steps.trailing_zeros() as usize;
            steps &= steps - 1;
            if !self.attacked(to, them, lifted) {
                push(list, ksq, to, MoveKind::Normal);
            }
        }
        if checkers & checkers.wrapping_sub(1) != 0 {
            return;
        }
        let target = if checkers == 0 {
            !own
        } else {
            between(ksq, checkers.trailing_zeros() as usize) | checkers
        };

        let p = &self.pieces;
        let pinned = self.pinned(ksq, own, enemy, occ);

        // Pawns.
        let pawns = p[PAWN] & own;
        let empty = !occ;
        let (up, left, right) = if WHITE { (8, 7, 9) } else { (-8, -9, -7) };
        let shift = |bb: u64, d: i32| if d > 0 { bb << d } else { bb >> -d };
        let single = shift(pawns, up) & empty;
        let double_rank = if WHITE { RANK_3 } else { RANK_6 };
        let double = shift(single & double_rank, up) & empty & target;
        let single = single & target;
        let cap_left = shift(pawns & !FILE_A, left) & enemy & target;
        let cap_right = shift(pawns & !FILE_H, right) & enemy & target;
        let pins = pinned & pawns;
        for (set, delta) in [(single, up), (cap_left, left), (cap_right, right)] {
            push_pawn_moves(list, set & !LAST_RANKS, delta, MoveKind::Normal, pins, ksq);
            let promo = set & LAST_RANKS;
            if promo != 0 {
                push_pawn_moves(list, promo, delta, MoveKind::PromoteQueen, pins, ksq);
            }
        }
        push_pawn_moves(list, double, 2 * up, MoveKind::DoubleStep, pins, ksq);
        if self.ep != NO_EP {
            self.en_passant(list, us, pawns, checkers, ksq);
        }

        // Knights (a pinned knight never moves).
        let mut knights = p[KNIGHT] & own & !pinned;
        while knights != 0 {
            let from = knights.trailing_zeros() as usize;
            knights &= knights - 1;
            push_all(list, from, attacks::KNIGHT[from] & target);
        }
        // Sliders.
        let mut diag = (p[BISHOP] | p[QUEEN]) & own;
        while diag != 0 {
            let from = diag.trailing_zeros() as usize;
            diag &= diag - 1;
            let mut t = attacks::bishop(from, occ) & target;
            if pinned >> from & 1 != 0 {
                t &= line(ksq, from);
            }
            push_all(list, from, t);
        }
        let mut straight = (p[ROOK] | p[QUEEN]) & own;
        while straight != 0 {
            let from = straight.trailing_zeros() as usize;
            straight &= straight - 1;
            let mut t = attacks::rook(from, occ) & target;
            if pinned >> from & 1 != 0 {
                t &= line(ksq, from);
            }
            push_all(list, from, t);
        }

        // Castling: the king's path empty and unattacked, the rook's path empty.
        if checkers == 0 && self.castling != 0 && self.chess960 {
            self.castling_960(list, us, occ, ksq);
        } else if checkers == 0 && self.castling != 0 {
            self.castling_standard::<WHITE>(list, occ);
        }
    }

    /// Our pieces (`own`) pinned to the king on `ksq`: the only piece between it and an enemy
    /// slider.
    #[inline(always)]
    fn pinned(&self, ksq: usize, own: u64, enemy: u64, occ: u64) -> u64 {
        let p = &self.pieces;
        let snipers = ((attacks::ROOK_RAYS[ksq] & (p[ROOK] | p[QUEEN]))
            | (attacks::BISHOP_RAYS[ksq] & (p[BISHOP] | p[QUEEN])))
            & enemy;
        let mut pinned = 0u64;
        let mut s = snipers;
        while s != 0 {
            let sq = s.trailing_zeros() as usize;
            s &= s - 1;
            let b = between(ksq, sq) & occ;
            if b != 0 && b & (b - 1) == 0 {
                pinned |= b & own;
            }
        }
        pinned
    }

    /// Standard castling, not in check: the squares between king and rook empty, those the
    /// king passes over and lands on unattacked.
    #[inline(always)]
    fn castling_standard<const WHITE: bool>(&self, list: &mut MoveList, occ: u64) {
        let them = if WHITE { Color::Black } else { Color::White };
        let (oo, ooo, base) = if WHITE {
            (WHITE_OO, WHITE_OOO, 0)
        } else {
            (BLACK_OO, BLACK_OOO, 56)
        };
        if self.castling & oo != 0
            && occ & (0x60 << base) == 0
            && !self.attacked(base + 5, them, occ)
            && !self.attacked(base + 6, them, occ)
        {
            push(list, base + 4, base + 6, MoveKind::Castling);
        }
        if self.castling & ooo != 0
            && occ & (0x0E << base) == 0
            && !self.attacked(base + 3, them, occ)
            && !self.attacked(base + 2, them, occ)
        {
            push(list, base + 4, base + 2, MoveKind::Castling);
        }
    }

    /// Chess960 castling (docs/rules.md §3.1): the king goes to the g- or c-file and its rook next to
    /// it on the inside; every square either passes over or lands on must be empty but for
    /// the two of them, no square the king passes over or lands on may be attacked, and the
    /// king's target is tested with both of them already moved (a rook may have shielded it).
    #[cold]
    fn castling_960(&self, list: &mut MoveList, us: Color, occ: u64, ksq: usize) {
        let them = us.flip();
        let base = us.index() * 56;
        for kingside in [true, false] {
            let index = us.index() * 2 + usize::from(!kingside);
            if self.castling >> index & 1 == 0 {
                continue;
            }
            let rook = self.castle_rook(index);
            let (king_to, rook_to) = if kingside {
                (base + 6, base + 5)
            } else {
                (base + 2, base + 3)
            };
            let movers = 1u64 << ksq | 1u64 << rook;
            if (span(ksq, king_to) | span(rook, rook_to)) & occ & !movers != 0 {
                continue;
            }
            let mut path = span(ksq, king_to) & !(1u64 << ksq) & !(1u64 << king_to);
            let mut safe = true;
            while path != 0 {
                let sq = path.trailing_zeros() as usize;
                path &= path - 1;
                if self.attacked(sq, them, occ) {
                    safe = false;
                    break;
                }
            }
            let after = (occ & !movers) | 1u64 << king_to | 1u64 << rook_to;
            if safe && !self.attacked(king_to, them, after) {
                push(list, ksq, king_to, MoveKind::Castling);
            }
        }
    }

    /// En-passant captures, each tested exactly: after it no enemy piece may attack the king.
    #[cold]
    fn en_passant(&self, list: &mut MoveList, us: Color, pawns: u64, checkers: u64, ksq: usize) {
        let ep = self.ep as usize;
        let captured = ep ^ 8;
        let them = us.flip();
        let mut from_set = attacks::PAWN[them.index()][ep] & pawns;
        while from_set != 0 {
            let from = from_set.trailing_zeros() as usize;
            from_set &= from_set - 1;
            let occ = (self.occupied() ^ (1u64 << from) ^ (1u64 << captured)) | (1u64 << ep);
            let enemy = self.colors[them.index()] & !(1u64 << captured);
            let p = &self.pieces;
            // A checking knight or pawn other than the captured one stays.
            let leaper_check = checkers & !(1u64 << captured) & (p[KNIGHT] | p[PAWN]) != 0;
            let slider_check = (attacks::rook(ksq, occ) & (p[ROOK] | p[QUEEN]) & enemy) != 0
                || (attacks::bishop(ksq, occ) & (p[BISHOP] | p[QUEEN]) & enemy) != 0;
            if !leaper_check && !slider_check {
                push(list, from, ep, MoveKind::EnPassant);
            }
        }
    }
}
