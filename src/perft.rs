//! Perft: the number of legal move sequences of a given length (docs/rules.md §3.4), for any game.
//! Positions whose result is decided have no moves; repetition and move-count draws are
//! ignored, as usual. [`perft`] asks the game for its fastest count ([`Game::perft`]);
//! [`generic`] is the plain recursion every game gets by default, which counts the last ply
//! from the move list without playing it.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::{Move, MoveList};
use crate::game::Game;
use crate::ngame::NGame;

/// Subtrees this shallow are counted by [`Game::perft`] without looking at the stop flag:
/// even on a position with a hundred moves a ply they take milliseconds.
const UNSTOPPABLE_DEPTH: u32 = 3;

/// The deepest perft the shell and the protocols accept: far beyond what finishes, and
/// shallow enough that the recursion cannot overflow a thread's stack (`perft 4000000000`
/// used to).
pub const MAX_DEPTH: u32 = 30;

/// The number of legal move sequences of length `depth` from `pos`, by the game's fastest
/// method.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    pos.perft(depth)
}

/// The number of legal move sequences of length `depth` from `pos`, by plain recursion over
/// [`Game::legal_moves`] and [`Game::play`] (defined beside the trait, whose default
/// [`Game::perft`] it is).
pub use crate::game::generic_perft as generic;

/// Perft split by root move, in move-generation order (Stockfish's `go perft` divide).
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(Move, u64)> {
    // A flag nobody sets: the stoppable divide always finishes.
    divide_until(pos, depth, &AtomicBool::new(false)).unwrap_or_default()
}

/// What a stoppable perft walk needs of a position: its moves, the position after one, and a
/// fast count of a shallow subtree. Two-player games ([`Game`]) and N-player games
/// ([`NGame`]) each come in through a wrapper, so that one walk serves both.
trait Node: Sized {
    fn moves(&self, moves: &mut MoveList);
    fn after(&self, mv: Move) -> Self;
    fn count(&self, depth: u32) -> u64;
}

struct TwoPlayer<G>(G);

impl<G: Game> Node for TwoPlayer<G> {
    fn moves(&self, moves: &mut MoveList) {
        self.0.legal_moves(moves);
    }
    fn after(&self, mv: Move) -> Self {
        TwoPlayer(self.0.play(mv))
    }
    fn count(&self, depth: u32) -> u64 {
        perft(&self.0, depth)
    }
}

struct NPlayer<G>(G);

impl<G: NGame> Node for NPlayer<G> {
    fn moves(&self, moves: &mut MoveList) {
        self.0.legal_moves(moves);
    }
    fn after(&self, mv: Move) -> Self {
        NPlayer(self.0.play(mv))
    }
    fn count(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = MoveList::new();
        self.moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&mv| self.after(mv).count(depth - 1))
            .sum()
    }
}

/// The count that gives up (`None`) soon after `stop` is set: the recursion looks at the flag
/// at every node deeper than a few plies from the leaves.
fn count_until<P: Node>(pos: &P, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= UNSTOPPABLE_DEPTH {
        return Some(pos.count(depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    pos.moves(&mut moves);
    let mut total = 0;
    for &mv in &moves {
        total += count_until(&pos.after(mv), depth - 1, stop)?;
    }
    Some(total)
}

/// The count split by root move, in move-generation order; `None` once `stop` is set.
fn divide_walk<P: Node>(pos: &P, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    let mut moves = MoveList::new();
    pos.moves(&mut moves);
    if depth == 0 {
        return Some(Vec::new());
    }
    moves
        .iter()
        .map(|&mv| count_until(&pos.after(mv), depth - 1, stop).map(|n| (mv, n)))
        .collect()
}

/// [`perft`] that gives up (`None`) soon after `stop` is set.
pub fn perft_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    count_until(&TwoPlayer(pos.clone()), depth, stop)
}

/// [`divide`] that gives up (`None`) soon after `stop` is set.
pub fn divide_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    divide_walk(&TwoPlayer(pos.clone()), depth, stop)
}

/// Perft for an N-player game ([`NGame`]): forced passes count as moves.
pub fn nperft<G: NGame>(pos: &G, depth: u32) -> u64 {
    NPlayer(pos.clone()).count(depth)
}

/// [`nperft`] split by root move, in move-generation order.
pub fn ndivide<G: NGame>(pos: &G, depth: u32) -> Vec<(Move, u64)> {
    ndivide_until(pos, depth, &AtomicBool::new(false)).unwrap_or_default()
}

/// [`ndivide`] that gives up (`None`) soon after `stop` is set.
pub fn ndivide_until<G: NGame>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    divide_walk(&NPlayer(pos.clone()), depth, stop)
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
