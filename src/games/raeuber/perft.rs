//! A Räuberschach perft that counts the last ply with [`Raeuber::count_moves`] (popcounts of
//! attack sets, no move list) and walks the rest with copy-make. It gives the same numbers as
//! the generic [`crate::perft::perft`], only faster.

use super::Raeuber;
use crate::board::{Move, MoveList};
use crate::game::Game;

/// The number of legal move sequences of length `depth` from `pos`.
pub fn perft(pos: &Raeuber, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&mv| perft(&pos.play(mv), depth - 1))
                .sum()
        }
    }
}

/// Perft split by root move, in move-generation order.
pub fn divide(pos: &Raeuber, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| (mv, perft(&pos.play(mv), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bulk_counting_agrees_with_the_generic_perft() {
        for pos in Raeuber::bench_positions() {
            for depth in 0..4 {
                assert_eq!(
                    perft(&pos, depth),
                    crate::perft::perft(&pos, depth),
                    "{} depth {depth}",
                    pos.fen()
                );
            }
        }
        let start = Raeuber::startpos("raeuberschach").unwrap();
        let split = divide(&start, 4);
        assert_eq!(split.len(), 8);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 1551);
    }
}
