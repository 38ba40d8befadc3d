//! MaxN with immediate and shallow pruning (Sturtevant & Korf 2000). The value vectors are
//! normalised: every entry ≥ 0 and the entries sum to `SCALE`.
//!
//! Pruning rules, applied in [`search`] before each child after the first:
//! - immediate: the seat to move already has `SCALE` in its best vector — no child can be
//!   strictly better for it;
//! - shallow: the parent's seat `p` already has `best_p` from an earlier sibling, so it passes
//!   `bound = SCALE - best_p`. Once the seat `q` to move here has `best_q ≥ bound`, this node's
//!   final vector gives `q` at least `best_q`, hence gives `p` at most
//!   `SCALE - best_q ≤ best_p`: `p` (which needs strictly more) will not choose this node, and
//!   the remaining children are skipped. (Immediate pruning is the case `bound = SCALE`.)
//!
//! Both are exact for the root: it gets the same vector and move as plain MaxN with the same
//! move order (tested in `tests.rs`). A node cut by shallow pruning returns a vector that is
//! not its true value, so only uncut nodes are stored in the transposition table.

use super::tt::Bound;
use super::{Ctx, NGame, SCALE, Values};
use crate::board::Move;

/// The vector of `pos` searched `depth` plies, the best move, and whether the node was cut.
pub fn search<G: NGame>(ctx: &mut Ctx<G>, pos: &G, depth: u32, bound: i64) -> (Values, Move, bool) {
    if ctx.is_leaf(pos, depth) {
        return (ctx.leaf(pos), Move::NULL, false);
    }
    let key = pos.hash();
    if let Some((values, mv)) = ctx.tt_exact(key, depth) {
        return (values, mv, false);
    }
    let seat = pos.to_move();
    let mut best: Option<(Values, Move)> = None;
    let mut cut = false;
    for mv in ctx.ordered(pos, key) {
        if let Some((b, _)) = best
            && ctx.options.prune
            && b[seat] >= bound
        {
            // Immediate (bound = SCALE) or shallow pruning: see the module comment.
            ctx.cutoffs += 1;
            cut = bound < SCALE;
            break;
        }
        let child_bound = best.map_or(SCALE, |(b, _)| SCALE - b[seat]);
        let (v, _, _) = search(ctx, &pos.play(mv), depth - 1, child_bound);
        if best.is_none_or(|(b, _)| v[seat] > b[seat]) {
            best = Some((v, mv));
        }
    }
    let (values, mv) = best.expect("a position that is not over has a move");
    if !cut {
        ctx.tt_record(key, depth, Bound::Exact, values, mv);
    }
    (values, mv, cut)
}
