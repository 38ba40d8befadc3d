//! Paranoid search (Sturtevant & Korf 2000): the root seat assumes that all other seats play
//! together against it. The game becomes two-player: the scalar is the root seat's share of
//! the normalised value vector, maximised at the root seat's nodes and minimised at every
//! other seat's, searched by alpha-beta.
//!
//! Pruning rule (alpha-beta, fail-hard window, first strictly better move kept, applied in
//! [`alphabeta::level`]): at a maximising node, once a child reaches `≥ beta` the minimising
//! ancestor will not let the game come here — cut; at a minimising node, once a child is
//! `≤ alpha` — cut. The root's value and move equal those of the same search without pruning
//! (tested in `tests.rs`).
//!
//! The transposition table is sound with bounds: keys include the root seat (the scalar is
//! its share), entries record whether the value is exact, a lower or an upper bound.

use super::{Ctx, NGame, SCALE, Values, alphabeta, salt};
use crate::board::Move;

/// The root: the best move for the seat to move and the vector at the end of its line.
pub fn root<G: NGame>(ctx: &mut Ctx<G>, pos: &G, depth: u32) -> (Values, Move) {
    let (v, m) = search(ctx, pos, depth, -1, SCALE + 1);
    (v, m)
}

/// Alpha-beta on the root seat's share: returns the vector of the line found (its root-seat
/// entry is the value, within `(alpha, beta)` when exact) and the best move.
pub fn search<G: NGame>(
    ctx: &mut Ctx<G>,
    pos: &G,
    depth: u32,
    alpha: i64,
    beta: i64,
) -> (Values, Move) {
    if ctx.is_leaf(pos, depth) {
        return (ctx.leaf(pos), Move::NULL);
    }
    let me = ctx.root_seat;
    let key = salt(pos.hash(), me as u64);
    if let Some(hit) = alphabeta::probe(ctx, key, depth, alpha, beta) {
        return hit;
    }
    let maximising = pos.to_move() == me;
    let children = ctx
        .ordered(pos, key)
        .into_iter()
        .map(|mv| (pos.play(mv), mv));
    alphabeta::level(
        ctx,
        key,
        depth,
        (alpha, beta),
        maximising,
        children,
        |ctx, child, alpha, beta| search(ctx, child, depth - 1, alpha, beta).0,
    )
}
