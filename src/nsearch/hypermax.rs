//! Hypermax (Fridenfalk 2014, "N-Person Minimax and Alpha-Beta Pruning"): MaxN on zero-sum
//! vectors with an α-vector carried down the tree.
//!
//! Zero-sum transform: with `k` seats playing and a normalised vector `v` (sum `SCALE`),
//! `z_i = k·v_i − SCALE` for every playing seat (absent seats stay 0), so `Σ z_i = 0`;
//! maximising `z_i` is maximising `v_i`.
//!
//! α-vector: entry `i` is the best `z_i` seat `i` has been offered so far on the path from the
//! root (−∞ at the start; 0 for absent seats). At a node of seat `p` each child is searched
//! with a copy of the current α; a child whose `z_p` exceeds `α_p` becomes the best and raises
//! `α_p`. Pruning rule: as soon as `Σ_i α_i ≥ 0` the remaining children are cut — a zero-sum
//! vector cannot beat every entry of such an α, so some seat on the path already has a better
//! alternative. The first child is always searched (and is the fallback best).
//!
//! A cut node's vector depends on the α it was searched with, so the transposition table keeps
//! only best moves (for ordering) here.

use super::tt::Bound;
use super::{Ctx, MAX_SEATS, NGame, SCALE, Values};
use crate::board::Move;

/// "Minus infinity" for α entries; small enough, and summable without overflow.
pub const NEG_INF: i64 = i64::MIN / 16;

/// The α-vector at the root: −∞ for the playing seats, 0 for the absent ones.
pub fn initial_alpha(plays: &[bool; MAX_SEATS]) -> Values {
    std::array::from_fn(|i| if plays[i] { NEG_INF } else { 0 })
}

fn transform<G: NGame>(ctx: &Ctx<G>, v: &Values) -> Values {
    let k = ctx.players as i64;
    std::array::from_fn(|i| if ctx.plays[i] { k * v[i] - SCALE } else { 0 })
}

/// Back from the zero-sum form to shares (for reports).
pub fn untransform<G: NGame>(ctx: &Ctx<G>, z: &Values) -> Values {
    let k = ctx.players as i64;
    std::array::from_fn(|i| if ctx.plays[i] { (z[i] + SCALE) / k } else { 0 })
}

/// The zero-sum vector of `pos` searched `depth` plies under `alpha`, and the best move.
pub fn search<G: NGame>(ctx: &mut Ctx<G>, pos: &G, depth: u32, alpha: Values) -> (Values, Move) {
    if ctx.is_leaf(pos, depth) {
        let v = ctx.leaf(pos);
        return (transform(ctx, &v), Move::NULL);
    }
    let key = pos.hash();
    let seat = pos.to_move();
    let mut a = alpha;
    let mut best: Option<(Values, Move)> = None;
    for mv in ctx.ordered(pos, key) {
        let (z, _) = search(ctx, &pos.play(mv), depth - 1, a);
        if best.is_none() {
            best = Some((z, mv));
        }
        if z[seat] > a[seat] {
            a[seat] = z[seat];
            best = Some((z, mv));
        }
        if ctx.options.prune && a.iter().sum::<i64>() >= 0 {
            // The α-vector sums to ≥ 0: cut (see the module comment).
            ctx.cutoffs += 1;
            break;
        }
    }
    let (z, mv) = best.expect("a position that is not over has a move");
    ctx.tt_record(key, depth, Bound::MoveOnly, z, mv);
    (z, mv)
}
