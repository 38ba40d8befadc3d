//! Paranoid search (Sturtevant & Korf 2000): the root seat assumes that all other seats play
//! together against it. The game becomes two-player: the scalar is the root seat's share of
//! the normalised value vector, maximised at the root seat's nodes and minimised at every
//! other seat's, searched by alpha-beta.
//!
//! Pruning rule (alpha-beta, fail-hard window, first strictly better move kept):
//! at a maximising node, once a child reaches `≥ beta` the minimising ancestor will not let
//! the game come here — cut; at a minimising node, once a child is `≤ alpha` — cut. The root's
//! value and move equal those of the same search without pruning (tested in `tests.rs`).
//!
//! The transposition table is sound with bounds: keys include the root seat (the scalar is
//! its share), entries record whether the value is exact, a lower or an upper bound.

use super::tt::{Bound, Entry};
use super::{Ctx, NGame, SCALE, Values, salt};
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
    mut alpha: i64,
    mut beta: i64,
) -> (Values, Move) {
    if ctx.tick() || depth == 0 || pos.outcome().is_some() {
        return (ctx.leaf(pos), Move::NULL);
    }
    let me = ctx.root_seat;
    let key = salt(pos.hash(), me as u64);
    if let Some(e) = ctx.tt_probe(key)
        && e.depth >= depth
    {
        let x = e.values[me];
        let usable = match e.bound {
            Bound::Exact => true,
            Bound::Lower => x >= beta,
            Bound::Upper => x <= alpha,
            Bound::MoveOnly => false,
        };
        if usable {
            return (e.values, e.best);
        }
    }
    let (alpha0, beta0) = (alpha, beta);
    let maximising = pos.to_move() == me;
    let mut best: Option<(Values, Move)> = None;
    for mv in ctx.ordered(pos, key) {
        let (v, _) = search(ctx, &pos.play(mv), depth - 1, alpha, beta);
        let x = v[me];
        let better = best.is_none_or(|(b, _)| if maximising { x > b[me] } else { x < b[me] });
        if better {
            best = Some((v, mv));
        }
        if ctx.options.prune {
            if maximising {
                alpha = alpha.max(x);
            } else {
                beta = beta.min(x);
            }
            if alpha >= beta {
                // Alpha-beta cut-off: see the module comment.
                ctx.cutoffs += 1;
                break;
            }
        }
    }
    let (values, mv) = best.expect("a position that is not over has a move");
    if !ctx.aborted {
        let x = values[me];
        let bound = if x <= alpha0 {
            Bound::Upper
        } else if x >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        ctx.tt_store(Entry {
            key,
            depth,
            bound,
            values,
            best: mv,
        });
    }
    (values, mv)
}
