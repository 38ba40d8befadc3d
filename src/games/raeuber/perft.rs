//! A Räuberschach perft that counts the last ply from popcounts of attack sets (no move list)
//! and walks the rest with a lean copy-make of the bitboards alone (no hash, no mailbox). It
//! gives the same numbers as the generic [`crate::perft::generic`], only faster; the split by
//! root move is the shared [`crate::perft::divide`].

use super::Raeuber;

/// The number of legal move sequences of length `depth` from `pos`.
pub fn perft(pos: &Raeuber, depth: u32) -> u64 {
    pos.perft(depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MoveList;
    use crate::game::Game;
    use crate::game::Tuning;

    #[test]
    fn bulk_counting_agrees_with_the_generic_perft() {
        for pos in Raeuber::bench_positions() {
            for depth in 0..4 {
                assert_eq!(
                    perft(&pos, depth),
                    crate::perft::generic(&pos, depth),
                    "{} depth {depth}",
                    pos.fen()
                );
            }
        }
        // Along random games, the counted depth 2 equals the played one.
        let mut rng = crate::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let mut pos = Raeuber::startpos("raeuberschach").unwrap();
            for _ in 0..100 {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                let played: u64 = moves
                    .iter()
                    .map(|&m| pos.play(m).count_moves() as u64)
                    .sum();
                assert_eq!(perft(&pos, 2), played, "{}", pos.fen());
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
        }
        let start = Raeuber::startpos("raeuberschach").unwrap();
        let split = crate::perft::divide(&start, 4);
        assert_eq!(split.len(), 8);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 1551);
    }
}
