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

/// The variant names ([`crate::games::losing::members::RAEUBER`]).
pub const VARIANTS: &[&str] = crate::games::losing::members::RAEUBER.variants;

/// The start position.
pub const START_FEN: &str = crate::games::losing::members::RAEUBER.start_fen;
