//! The antichess perft behind `Game::perft`: the last ply counted from attack sets without a
//! move list ([`Antichess::count_moves`]), the others played. It gives the same numbers as the
//! generic [`crate::perft::generic`], only faster.

use super::Antichess;
use crate::board::MoveList;

/// The number of legal move sequences of length `depth` from `pos`.
pub fn perft(pos: &Antichess, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(pos.count_moves()),
        _ => {
            let mut moves = MoveList::new();
            pos.moves(&mut moves);
            moves.iter().map(|&m| perft(&pos.after(m), depth - 1)).sum()
        }
    }
}
