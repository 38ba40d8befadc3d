//! Best-Reply Search (Schadd & Winands 2011): the root seat's moves alternate with one level
//! at which only the single strongest reply among *all* opponents is considered — every
//! opponent's moves are generated from the same position and the one worst for the root seat
//! is taken; the other opponents are assumed to pass. Turns of the root seat are thus reached
//! deeper than in Paranoid, at the price of illegal (pass-filled) lines.
//!
//! The scalar is the root seat's share of the normalised vector, searched by alpha-beta with
//! the same cut-off rule as Paranoid (≥ beta at a max level, ≤ alpha at the reply level).
//! An opponent without a move contributes no reply; if none has one, the reply level is a
//! pass. Keys of the transposition table include the root seat and the level kind.

use super::tt::{Bound, Entry};
use super::{Ctx, NGame, SCALE, Values, salt};
use crate::board::{Move, MoveList};

/// The root: the best move for the seat to move and the vector at the end of its line.
pub fn root<G: NGame>(ctx: &mut Ctx<G>, pos: &G, depth: u32) -> (Values, Move) {
    search(ctx, pos, depth, -1, SCALE + 1, true)
}

/// The replies of every opponent still in the game, each played from `pos` and handed back
/// to the root seat; the move kept with each is the opponent's.
fn replies<G: NGame>(ctx: &Ctx<G>, pos: &G) -> Vec<(G, Move)> {
    let me = ctx.root_seat;
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    for s in (0..pos.seats()).filter(|&s| s != me && pos.in_game(s)) {
        let p = pos.with_to_move(s);
        p.legal_moves(&mut moves);
        moves.sort_by_key(|&m| -p.order(m));
        for &m in moves.iter().filter(|m| !m.is_null()) {
            let next = p.play(m);
            let next = if next.in_game(me) && next.outcome().is_none() {
                next.with_to_move(me)
            } else {
                next
            };
            out.push((next, m));
        }
    }
    out
}

/// Alpha-beta over max levels (`max_level`: the root seat moves) and reply levels.
pub fn search<G: NGame>(
    ctx: &mut Ctx<G>,
    pos: &G,
    depth: u32,
    mut alpha: i64,
    mut beta: i64,
    max_level: bool,
) -> (Values, Move) {
    let me = ctx.root_seat;
    if ctx.tick() || depth == 0 || pos.outcome().is_some() || !pos.in_game(me) {
        return (ctx.leaf(pos), Move::NULL);
    }
    let key = salt(salt(pos.hash(), me as u64), 7 + max_level as u64);
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
    let children: Vec<(G, Move)> = if max_level {
        let p = if pos.to_move() == me {
            pos.clone()
        } else {
            pos.with_to_move(me)
        };
        ctx.ordered(&p, key)
            .into_iter()
            .map(|m| (p.play(m), m))
            .collect()
    } else {
        let r = replies(ctx, pos);
        if r.is_empty() {
            // No opponent can move: the reply level passes.
            return search(ctx, &pos.with_to_move(me), depth - 1, alpha, beta, true);
        }
        r
    };
    let (alpha0, beta0) = (alpha, beta);
    let mut best: Option<(Values, Move)> = None;
    for (child, mv) in children {
        let (v, _) = search(ctx, &child, depth - 1, alpha, beta, !max_level);
        let x = v[me];
        let better = best.is_none_or(|(b, _)| if max_level { x > b[me] } else { x < b[me] });
        if better {
            best = Some((v, mv));
        }
        if ctx.options.prune {
            if max_level {
                alpha = alpha.max(x);
            } else {
                beta = beta.min(x);
            }
            if alpha >= beta {
                // Alpha-beta cut-off, as in Paranoid.
                ctx.cutoffs += 1;
                break;
            }
        }
    }
    let (values, mv) = best.expect("a level with children");
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
