//! Exhaustive game-graph analysis and solving of pawn chess (docs/rules.md §6).
//!
//! - [`board`]: a compact position (two bitboards, side, en-passant square), its successors
//!   and its memo key; a specialised copy of the rules of `games::pawns`.
//! - [`table`]: the open-addressing hash table every walk memoises in.
//! - [`count`]: exact counts of the unfolded game tree by a layered sweep of unique positions.
//! - [`solve`]: the game-theoretic value by alpha-beta with a proof table, and exact distances.
//! - [`dot`]: the position graph in Graphviz DOT.
//! - [`cli`]: `kiebitz-pawns analyze`.
//!
//! [`engine_solve`] is the oracle pawn chess's searches are handed (by its page,
//! `games::pawns::page`, served by `crate::games::page::builtin`): a solved-optimal move when
//! the position is small enough for the budget. Depends on `board`,
//! `game`, `games::pawns`, `search::MATE`.

pub mod acyclic;
pub mod board;
pub mod cli;
pub mod count;
pub mod dot;
pub mod solve;
pub mod table;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::Move;
use crate::games::pawns::Pawns;
use crate::search::MATE;

pub use cli::cli;

/// Most positions the engine's exact-distance walk may store (about 100 MB).
pub const ENGINE_MAX_POSITIONS: u64 = 4 << 20;

/// A best move of `pos` with its exact score for the side to move (`MATE - n` for a win in n
/// plies, `-(MATE - n)` for a loss in n plies, 0 for a draw), if it can be proven within
/// `budget`: first by walking the whole game graph from `pos` (exact distances; among equal
/// scores the first move generated is taken); if that is too big, by the win/draw/loss solver,
/// which settles drawn positions (score 0, a move that keeps the draw). Gives up soon after
/// `stop` is set.
pub fn engine_solve(pos: &Pawns, budget: Duration, stop: &AtomicBool) -> Option<(Move, i32)> {
    engine_solve_limited(pos, budget, ENGINE_MAX_POSITIONS, stop)
}

/// [`engine_solve`] with the exact-distance walk limited to `max_walk` positions.
pub fn engine_solve_limited(
    pos: &Pawns,
    budget: Duration,
    max_walk: u64,
    stop: &AtomicBool,
) -> Option<(Move, i32)> {
    // The walks look at the flag every few thousand positions: a small graph would be solved
    // before the first look, so a solve that is stopped before it starts answers nothing.
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let start = Instant::now();
    let shape = board::Shape::of(pos);
    let root = board::Pos::of(pos);
    let moves = shape.moves(&root);
    if moves.is_empty() {
        return None;
    }
    // Half the budget for the exact distances, the rest for the value.
    let limits = solve::Budget {
        deadline: Some(start + budget / 2),
        stop: Some(stop),
        max_positions: Some(max_walk),
        forget_when_full: false,
    };
    let Ok((best, scores)) = solve::distances(shape, &root, limits) else {
        let limits = solve::Budget {
            deadline: Some(start + budget),
            stop: Some(stop),
            max_positions: Some(ENGINE_MAX_POSITIONS),
            forget_when_full: true,
        };
        return drawing_move(shape, &root, &moves, limits);
    };
    let i = scores.iter().position(|&s| s == best)?;
    let score = match best.signum() {
        1 => MATE - (solve::WIN - best),
        -1 => -(MATE - (solve::WIN + best)),
        _ => 0,
    };
    Some((moves[i].0, score))
}

/// A move that keeps a drawn position drawn, if the solver proves the draw within `limits`.
fn drawing_move(
    shape: board::Shape,
    root: &board::Pos,
    moves: &[(Move, board::Pos)],
    limits: solve::Budget<'_>,
) -> Option<(Move, i32)> {
    let mut solver = solve::Solver::<table::Wide>::new(shape, 1 << 16, limits);
    if solver.value(root).ok()? != 0 {
        return None;
    }
    for (mv, child) in moves {
        // The child's value for its side to move is 0 exactly when the move keeps the draw.
        if solver.value(child).ok()? == 0 {
            return Some((*mv, 0));
        }
    }
    None
}
