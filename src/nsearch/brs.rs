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

use super::{Ctx, NGame, SCALE, Values, alphabeta, salt};
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
    alpha: i64,
    beta: i64,
    max_level: bool,
) -> (Values, Move) {
    let me = ctx.root_seat;
    if ctx.is_leaf(pos, depth) || !pos.in_game(me) {
        return (ctx.leaf(pos), Move::NULL);
    }
    let key = salt(salt(pos.hash(), me as u64), 7 + max_level as u64);
    if let Some(hit) = alphabeta::probe(ctx, key, depth, alpha, beta) {
        return hit;
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
    // The cut-off rule is Paranoid's: see `alphabeta`.
    alphabeta::level(
        ctx,
        key,
        depth,
        (alpha, beta),
        max_level,
        children,
        |ctx, child, alpha, beta| search(ctx, child, depth - 1, alpha, beta, !max_level).0,
    )
}
