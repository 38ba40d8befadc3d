//! A table's value checked against the move generator, once for the family: the value a
//! position's moves make of their children's values one ply down ([`by_moves`]), what both
//! members compare a table read from a file with (Räuberschach's sample of a signature's file,
//! antichess's every value), so that a checksum anyone can recompute is not what a value is
//! trusted for.

use super::super::{Board, Position};
use crate::board::MoveList;
use crate::solve::retro::{better, parent};

/// The value of `pos` for its side to move (`d + 1` won in d plies, `-(d + 1)` lost, 0
/// drawn) that its moves make, `value_of` giving each child's: won at once without a move;
/// else the best of its moves for the mover (the quickest win one ply after a loss of the
/// other side, a draw, the slowest loss one ply after a win of the other side). `None` where
/// a child's value is not at hand.
pub fn by_moves<B: Board>(
    pos: &Position<B>,
    mut value_of: impl FnMut(&Position<B>) -> Option<i16>,
) -> Option<i16> {
    let mut moves = MoveList::new();
    pos.moves(&mut moves);
    let mut best: Option<i16> = None;
    for &mv in moves.iter() {
        let v = parent(value_of(&pos.after(mv))?);
        if best.is_none_or(|b| better(v, b)) {
            best = Some(v);
        }
    }
    Some(best.unwrap_or(1))
}
