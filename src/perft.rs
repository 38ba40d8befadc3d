//! Perft: the number of legal move sequences of a given length (SPEC §3.4), for any game.
//! Positions whose result is decided have no moves; repetition and move-count draws are
//! ignored, as usual. [`perft`] asks the game for its fastest count ([`Game::perft`]);
//! [`generic`] is the plain recursion every game gets by default, which counts the last ply
//! from the move list without playing it.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::{Move, MoveList};
use crate::game::Game;

/// Subtrees this shallow are counted by [`Game::perft`] without looking at the stop flag:
/// even on a position with a hundred moves a ply they take milliseconds.
const UNSTOPPABLE_DEPTH: u32 = 3;

/// The number of legal move sequences of length `depth` from `pos`, by the game's fastest
/// method.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    pos.perft(depth)
}

/// The number of legal move sequences of length `depth` from `pos`, by plain recursion over
/// [`Game::legal_moves`] and [`Game::play`].
pub fn generic<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(&pos.play(mv), depth - 1))
        .sum()
}

/// Perft split by root move, in move-generation order (Stockfish's `go perft` divide).
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(Move, u64)> {
    // A flag nobody sets: the stoppable divide always finishes.
    divide_until(pos, depth, &AtomicBool::new(false)).unwrap_or_default()
}

/// [`perft`] that gives up (`None`) soon after `stop` is set: the recursion looks at the flag
/// at every node deeper than a few plies from the leaves.
pub fn perft_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= UNSTOPPABLE_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut total = 0;
    for &mv in &moves {
        total += perft_until(&pos.play(mv), depth - 1, stop)?;
    }
    Some(total)
}

/// [`divide`] that gives up (`None`) soon after `stop` is set.
pub fn divide_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if depth == 0 {
        return Some(Vec::new());
    }
    moves
        .iter()
        .map(|&mv| perft_until(&pos.play(mv), depth - 1, stop).map(|n| (mv, n)))
        .collect()
}

/// Perft for an N-player game ([`crate::nsearch::NGame`]): forced passes count as moves.
pub fn nperft<G: crate::nsearch::NGame>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| nperft(&pos.play(mv), depth - 1))
        .sum()
}

/// [`nperft`] split by root move, in move-generation order.
pub fn ndivide<G: crate::nsearch::NGame>(pos: &G, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if depth == 0 {
        return Vec::new();
    }
    moves
        .iter()
        .map(|&mv| (mv, nperft(&pos.play(mv), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pawns::Pawns;

    #[test]
    fn divide_adds_up_to_perft() {
        let pos = Pawns::startpos("pawns4d").unwrap();
        let total: u64 = divide(&pos, 4).iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft(&pos, 4));
        assert_eq!(perft(&pos, 0), 1);
    }

    #[test]
    fn stoppable_divide_agrees_and_stops() {
        let pos = Pawns::startpos("pawns5d").unwrap();
        let run = AtomicBool::new(false);
        assert_eq!(divide_until(&pos, 6, &run), Some(divide(&pos, 6)));
        assert_eq!(perft_until(&pos, 6, &run), Some(perft(&pos, 6)));
        let stopped = AtomicBool::new(true);
        assert_eq!(divide_until(&pos, 30, &stopped), None);
    }
}
