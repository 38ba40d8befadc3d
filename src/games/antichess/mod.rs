//! Antichess (losing chess) as lichess plays it, on the 8×8 board: the chess start, no
//! castling, a capture compulsory whenever one exists (en passant included; any capture may
//! be chosen), the king an ordinary piece that can be captured, a pawn promoting to a king as
//! well as to a queen, rook, bishop or knight. The side to move with no legal move — no pieces
//! left, or every piece blocked — wins. Threefold repetition and the 50-move rule draw, and so
//! do bishops alone on squares of different colours. The 8×8 member of the Räuberschach
//! family: its evaluation terms and search switches are Räuberschach's, the attack tables
//! chess's.
//!
//! - [`position`]: the position: the family's ([`crate::games::losing`]) on the 8×8 board,
//!   whose move generation and play it shares with Räuberschach.
//! - `game`: the [`Game`](crate::game::Game) impl that ties them together.
//! - [`eval`]: the evaluation.
//! - [`tables`]: endgame tables of up to three pieces, and of four-piece signatures from files.

pub mod eval;
mod game;
pub mod page;
pub use crate::games::losing::movegen;
pub mod position;
pub mod tables;

pub use position::Antichess;

/// The variant names ([`crate::games::losing::members::ANTICHESS`]).
pub const VARIANTS: &[&str] = crate::games::losing::members::ANTICHESS.variants;

/// The start position.
pub const START_FEN: &str = crate::games::losing::members::ANTICHESS.start_fen;
