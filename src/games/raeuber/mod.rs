//! Räuberschach 6×6 (docs/rules.md §3.2): losing chess with forced capture on a 6×6 board.
//!
//! Pieces move as in chess; pawns never double-step, there is no en passant and no castling,
//! and a pawn always promotes to a queen. A capture, when one exists, is compulsory (any
//! capture may be chosen). The king is an ordinary piece. The side to move without a legal
//! move — no pieces left, or every piece blocked — wins.
//!
//! - [`position`]: the position: the family's ([`crate::games::losing`]) on its 6×6 board,
//!   whose move generation, attack tables and bulk perft it shares with antichess.
//! - `game`: the [`Game`] impl (FEN, moves, copy-make play, verdict) that ties the others together.
//! - [`eval`]: the evaluation.
//! - [`certificates`]: perfect play from checked proofs and holds (shipped and the user's).
//! - [`tables`]: endgame tables of every position with few pieces, built in memory.
//! - [`solver`]: the engine's oracle, proof-number search for forced wins.
//!
//! [`Game`]: crate::game::Game

pub mod certificates;
pub mod eval;
mod game;
pub mod page;
pub use crate::games::losing::movegen;
pub mod position;
pub mod tables;
pub mod tune;

pub use position::{Raeuber, matrix_to_coordinates};

/// The variant names: just one.
pub const VARIANTS: [&str; 1] = ["raeuberschach"];

/// The start position.
pub const START_FEN: &str = "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w - - 0 1";

/// The positions `bench` searches: the start and positions of play from the opening to the
/// ending.
pub(crate) const BENCH_FENS: &[&str] = &[
    START_FEN,
    "rqkbnr/pp1ppp/6/2p3/PPPPP1/RQKBNR b - - 0 2",
    "1qkbnr/2pp1p/rp3p/6/RP1PPP/1QKB1R w - - 2 7",
    "2kr2/2pp2/p4p/5P/PRPPB1/5R b - - 1 11",
    "2k3/r1p1Nr/6/2Pn2/6/2K2R b - - 2 13",
    "1qk2r/1pn2p/3p2/1p3P/1K1PP1/4NR w - - 0 10",
    "6/1R1p1r/2p3/2P3/Pq4/6 w - - 0 12",
    "4n1/2p1b1/6/5K/2k3/6 b - - 1 17",
];
