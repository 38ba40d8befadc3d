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
//! - [`perft`]: the fast perft behind `Game::perft`: the last two plies counted, not played.
//! - [`solver`]: the engine's oracle, proof-number search for forced wins.
//!
//! [`Game`]: crate::game::Game

pub mod certificates;
pub mod eval;
pub mod page;
mod game;
pub use crate::games::losing::movegen;
pub mod perft;
pub mod position;
pub mod tables;
pub mod tune;

pub use position::{Raeuber, matrix_to_coordinates};

/// The variant names: just one.
pub const VARIANTS: [&str; 1] = ["raeuberschach"];

/// The start position.
pub const START_FEN: &str = "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w - - 0 1";
