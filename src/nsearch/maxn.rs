//! MaxN (Luckhardt & Irani 1986): every seat maximises its own entry of the value vector;
//! the vector of the chosen child is passed up whole. Ties keep the first child in move
//! order (a later child must be strictly better for the seat to move).
//!
//! Pruning: none. The transposition table is sound here (a node's vector depends only on the
//! position and the remaining depth) and stores exact vectors and best moves.

use super::tt::Bound;
use super::{Ctx, NGame, Values};
use crate::board::Move;

/// The MaxN vector of `pos` searched `depth` plies deep, and the best move there.
pub fn search<G: NGame>(ctx: &mut Ctx<G>, pos: &G, depth: u32) -> (Values, Move) {
    if ctx.is_leaf(pos, depth) {
        return (ctx.leaf(pos), Move::NULL);
    }
    let key = pos.hash();
    if let Some(hit) = ctx.tt_exact(key, depth) {
        return hit;
    }
    let seat = pos.to_move();
    let mut best: Option<(Values, Move)> = None;
    for mv in ctx.ordered(pos, key) {
        let (v, _) = search(ctx, &pos.play(mv), depth - 1);
        if best.is_none_or(|(b, _)| v[seat] > b[seat]) {
            best = Some((v, mv));
        }
    }
    let (values, mv) = best.expect("a position that is not over has a move");
    ctx.tt_record(key, depth, Bound::Exact, values, mv);
    (values, mv)
}
