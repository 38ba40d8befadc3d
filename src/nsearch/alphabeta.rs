//! Alpha-beta on the root seat's share of the value vector: the part [`super::paranoid`] and
//! [`super::brs`] share. Here live the transposition-table probe under bounds, the loop over one
//! level's children with its cut-off rule, and the store with the bound the window gives; what
//! the children are (the replies of the seat to move in Paranoid; the root seat's moves, or
//! every opponent's replies, in BRS) is the caller's. Depends on the rest of `nsearch` only.
//!
//! Pruning rule (fail-hard window, first strictly better child kept): at a maximising level,
//! once a child reaches `≥ beta` the minimising ancestor will not let the game come here —
//! cut; at a minimising level, once a child is `≤ alpha` — cut. Without pruning
//! (`Options::prune` off) every child is searched: the plain minimax value and move.
//!
//! Table entries record whether the value is exact, a lower or an upper bound on the root
//! seat's share; the keys must include the root seat (the scalar is its share).

use super::tt::Bound;
use super::{Ctx, NGame, Values};
use crate::board::Move;

/// The table's vector and move for `key`, if it was searched at least `depth` plies deep and
/// its value decides the window `(alpha, beta)`: exact, or a bound beyond the window.
pub fn probe<G: NGame>(
    ctx: &Ctx<G>,
    key: u64,
    depth: u32,
    alpha: i64,
    beta: i64,
) -> Option<(Values, Move)> {
    let e = ctx.tt_probe(key).filter(|e| e.depth >= depth)?;
    let x = e.values[ctx.root_seat];
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => x >= beta,
        Bound::Upper => x <= alpha,
        Bound::MoveOnly => false,
    };
    usable.then_some((e.values, e.best))
}

/// One level of the search under `key`, `depth` plies left, in the window `(alpha, beta)`:
/// searches `children` (each a position and the move that leads there) in order with
/// `child(ctx, position, alpha, beta)`, maximising the root seat's share if `maximising`, else
/// minimising it; stores the result in the table (unless the search was stopped) and returns
/// the best child's vector and move. `children` must not be empty.
pub fn level<G: NGame>(
    ctx: &mut Ctx<G>,
    key: u64,
    depth: u32,
    (mut alpha, mut beta): (i64, i64),
    maximising: bool,
    children: impl IntoIterator<Item = (G, Move)>,
    mut child: impl FnMut(&mut Ctx<G>, &G, i64, i64) -> Values,
) -> (Values, Move) {
    let me = ctx.root_seat;
    let (alpha0, beta0) = (alpha, beta);
    let mut best: Option<(Values, Move)> = None;
    for (pos, mv) in children {
        let v = child(ctx, &pos, alpha, beta);
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
    let (values, mv) = best.expect("a level with children");
    let x = values[me];
    let bound = if x <= alpha0 {
        Bound::Upper
    } else if x >= beta0 {
        Bound::Lower
    } else {
        Bound::Exact
    };
    ctx.tt_record(key, depth, bound, values, mv);
    (values, mv)
}
