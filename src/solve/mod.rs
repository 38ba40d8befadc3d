//! The solvers, in one room: everything that computes a game-theoretic value exactly rather
//! than estimating it.
//!
//! - [`pns`]: depth-first proof-number search (df-pn) for any [`Game`], with its proofs;
//! - [`checkpoint`]: df-pn tables written to disk and read back, for runs of hours;
//! - [`ghi`]: df-pn's results that hold on some lines only (resting on repetitions);
//! - [`proof`]: proof trees written to text and checked by the move generator alone;
//!   [`compact`] their compact format, walked and checked without a FEN per position;
//! - [`retro`]: retrograde analysis of a slice of positions given by forward moves (endgame
//!   tables built from a move generator alone);
//! - [`pawns`]: pawn chess's exhaustive game-graph analysis (counts, values, distances);
//! - [`crash`]: CRASH!'s databases of perfect play and the column's theorems;
//! - [`pns_oracle`]: the losing-chess games' oracle (df-pn for a forced win before alpha-beta);
//! - [`wdl`]: the win/draw/loss solver for acyclic games, with its certificates, and
//!   [`wdl_table`] its transposition table and [`wdl_checkpoint`] that table on disk.
//!
//! The search calls solvers through one interface only, [`crate::search::oracle::Oracle`],
//! handed explicitly to a searcher; [`builtin`] says which oracle a game comes with. Sits above
//! `games` (it knows the games' positions) and below the binaries' rooms (protocol, cli,
//! tournament, web), which hand the oracles out.

pub mod checkpoint;
pub mod compact;
pub mod crash;
pub mod ghi;
pub mod pawns;
pub mod pns;
pub mod pns_oracle;
pub mod proof;
pub mod retro;
pub mod wdl;
pub mod wdl_checkpoint;
pub mod wdl_table;

use std::any::TypeId;
use std::sync::Arc;

use crate::game::Game;
use crate::games::antichess::Antichess;
use crate::games::pawns::Pawns;
use crate::games::raeuber::Raeuber;
use crate::search::oracle::{AnyOracle, Oracle, for_game};

/// The oracle game `G` comes with, if any: pawn chess plays solved positions perfectly
/// ([`pawns::engine_solve`]), Räuberschach and antichess play a forced win df-pn proves
/// ([`pns_oracle::oracle`]; each game's `Solver Share` says whether it is asked by default).
/// CRASH!'s databases are files the user names (`kiebitz-crash --db`), so CRASH! has none built
/// in; the other games have no solver.
pub fn builtin<G: Game>() -> Option<Oracle<G>> {
    let any = if TypeId::of::<G>() == TypeId::of::<Pawns>() {
        AnyOracle::new::<Pawns>(Arc::new(pawns::engine_solve))
    } else if TypeId::of::<G>() == TypeId::of::<Raeuber>() {
        AnyOracle::new::<Raeuber>(Arc::new(pns_oracle::oracle::<Raeuber>))
    } else if TypeId::of::<G>() == TypeId::of::<Antichess>() {
        AnyOracle::new::<Antichess>(Arc::new(pns_oracle::oracle::<Antichess>))
    } else {
        return None;
    };
    for_game::<G>(Some(&any))
}

/// A game's acyclic win/draw/loss solver: the root, the options and the stop flag in, the
/// values and certificates out.
pub type AcyclicSolve<G> =
    fn(&G, &wdl::Options, &std::sync::atomic::AtomicBool) -> Result<wdl::Solution, String>;

/// The win/draw/loss solver of an acyclic game ([`Game::ACYCLIC`]), if it registered one here:
/// pawn chess's ([`pawns::acyclic::solve`]).
pub fn acyclic<G: Game>() -> Option<AcyclicSolve<G>> {
    if !G::ACYCLIC {
        return None;
    }
    let pawns: AcyclicSolve<Pawns> = pawns::acyclic::solve;
    (&pawns as &dyn std::any::Any)
        .downcast_ref::<AcyclicSolve<G>>()
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Chess;
    use crate::games::crash::Crash;

    #[test]
    fn pawn_chess_and_raeuberschach_come_with_their_solvers_and_the_others_without() {
        assert!(builtin::<Pawns>().is_some());
        assert!(builtin::<Raeuber>().is_some());
        assert!(builtin::<Antichess>().is_some());
        assert!(builtin::<Chess>().is_none());
        assert!(builtin::<Crash>().is_none());
        assert!(acyclic::<Pawns>().is_some());
        assert!(acyclic::<Raeuber>().is_none());
    }
}
