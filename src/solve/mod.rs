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
//! - [`pns_oracle`]: the losing-chess games' oracle (df-pn for a forced win before alpha-beta);
//! - [`wdl`]: the win/draw/loss solver for acyclic games, with its certificates, and
//!   [`wdl_table`] its transposition table and [`wdl_checkpoint`] that table on disk.
//!
//! The search calls solvers through one interface only, [`crate::search::oracle::Oracle`],
//! handed explicitly to a searcher; which oracle and which acyclic solver ([`AcyclicSolve`]) a
//! game comes with, its page says (`games::page::builtin`, `games::page::acyclic`: the game
//! hands them out, this room lists no game). Sits below `games`: every solver here is generic
//! over the game's traits; a game's own exhaustive analysis lives in its folder
//! (`games::pawns::analysis`, `games::crash::analysis`), and the binaries' rooms (protocol, cli,
//! tournament, web) hand the oracles out.

pub mod checkpoint;
pub mod compact;
pub mod error;
pub mod ghi;
pub mod pns;
pub mod pns_oracle;
pub mod proof;
pub mod retro;
pub mod wdl;
pub mod wdl_checkpoint;
pub mod wdl_table;

pub use error::SolveError;

/// A game's acyclic win/draw/loss solver: the root, the options and the stop flag in, the
/// values and certificates out.
pub type AcyclicSolve<G> =
    fn(&G, &wdl::Options, &std::sync::atomic::AtomicBool) -> Result<wdl::Solution, SolveError>;
