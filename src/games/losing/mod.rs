//! The losing-chess family: Räuberschach (6×6) and antichess (8×8) as two boards of one game
//! (docs/rules.md §3.2, §3.5). A capture, when one exists, is compulsory (any capture may be
//! chosen); the king is an ordinary piece; the side to move without a legal move — no pieces
//! left, or every piece blocked — wins. What differs is a record of switches ([`board::Board`]):
//! the board's squares, whether pawns step twice and take en passant, what a pawn becomes.
//!
//! - [`board`]: the two boards (`Six`, `Eight`) with their pawn rules and attack tables.
//! - [`movegen`]: the pieces' bitboards, legal moves in one pass, move counting, the bulk
//!   perft.
//! - [`position`]: the position, FEN, copy-make play with the incremental hash.
//! - [`eval`]: the evaluation (burdens, offers, threats to be forced to capture, mobility)
//!   and the move-ordering hints, weighed by each member's weights.
//! - [`nnue`]: the learned evaluation's glue ([`crate::nnue::engine::Evaluated`] for both
//!   boards): a network per member, loaded by `EvalFile`, none built in yet.
//! - [`page`]: what the web page needs of a member (names, why a move is refused, its
//!   solved values).
//! - [`game`]: the [`crate::game::Game`] of every member, and the [`game::Variant`] each
//!   member implements in its own folder.
//! - [`members`]: the members as two parameter sets ([`members::Profile`]): names, start,
//!   bench positions (`bench/<game>.fen`), search switches, page text.
//! - [`tables`]: what the members' endgame tables share (the process's and the sessions'
//!   holds, the probe through them, the tables' folder), generic over the member's tables.
//!
//! Each game's folder (`games/raeuber`, `games/antichess`) keeps its options and what only it
//! has (Räuberschach's certificates, the evaluation weights each was tuned to, its tables).

pub mod board;
pub mod eval;
pub mod game;
pub mod members;
pub mod movegen;
pub mod nnue;
pub mod page;
pub mod position;
pub mod tables;

#[cfg(test)]
mod tests;

pub use board::{Board, Eight, Six};
pub use game::Variant;
pub use position::Position;
