//! The value vector of a Chamäleon Schach position: one non-negative entry per seat, 0 for a
//! seat out of the game. Each seat still in play scores
//! - material: 300 a piece plus the value of the role its square gives it now
//!   (knight 30, bishop 33, rook 50, queen 90);
//! - mobility: 4 per move its pieces have under the current colours;
//! - safety: minus a third of the value of each of its pieces another seat attacks;
//!
//! and at least 1 while it has pieces. Depends on `rules` only.

use super::rules::{ROLE_VALUE, reach, role_on};
use super::{Chamaeleon, SEATS, decode};
use crate::ngame::{MAX_SEATS, Values};

const PIECE: i64 = 300;
const MOBILITY: i64 = 4;

/// The value of every seat.
pub fn evaluate(pos: &Chamaeleon) -> Values {
    let all = pos.all();
    let mut attacks = [0u64; SEATS];
    let mut score = [0i64; SEATS];
    for seat in 0..SEATS {
        let mut own = pos.occ[seat];
        while own != 0 {
            let sq = own.trailing_zeros() as usize;
            own &= own - 1;
            let (_, piece) = decode(pos.board[sq]).expect("a piece");
            let role = role_on(piece, sq);
            let t = reach(role, sq, pos.area, all) & !pos.occ[seat];
            attacks[seat] |= t;
            score[seat] +=
                PIECE + ROLE_VALUE[role as usize] as i64 + MOBILITY * t.count_ones() as i64;
        }
    }
    let mut v = [0i64; MAX_SEATS];
    for seat in 0..SEATS {
        if pos.occ[seat] == 0 {
            continue;
        }
        let enemy = (0..SEATS)
            .filter(|&t| t != seat)
            .fold(0u64, |a, t| a | attacks[t]);
        let mut hit = pos.occ[seat] & enemy;
        while hit != 0 {
            let sq = hit.trailing_zeros() as usize;
            hit &= hit - 1;
            let (_, piece) = decode(pos.board[sq]).expect("a piece");
            score[seat] -= (PIECE + ROLE_VALUE[role_on(piece, sq) as usize] as i64) / 3;
        }
        v[seat] = score[seat].max(1);
    }
    v
}
