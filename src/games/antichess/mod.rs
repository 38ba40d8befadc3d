//! Antichess (losing chess) as lichess plays it, on the 8×8 board: the chess start, no
//! castling, a capture compulsory whenever one exists (en passant included; any capture may
//! be chosen), the king an ordinary piece that can be captured, a pawn promoting to a king as
//! well as to a queen, rook, bishop or knight. The side to move with no legal move — no pieces
//! left, or every piece blocked — wins. Threefold repetition and the 50-move rule draw, and so
//! do bishops alone on squares of different colours. The 8×8 member of the Räuberschach
//! family: its evaluation terms and search switches are Räuberschach's, the attack tables
//! chess's.
//!
//! - [`movegen`]: the pieces' bitboards, legal moves in one pass, move counting.
//! - [`position`]: the position, FEN, copy-make play with the incremental hash.
//! - `game`: the [`Game`](crate::game::Game) impl that ties them together.
//! - [`eval`]: the evaluation.
//! - [`perft`]: perft with the last ply counted, not played.

pub mod eval;
mod game;
pub mod movegen;
pub mod perft;
pub mod position;

pub use position::Antichess;

/// The variant names: lichess's `antichess` (python-chess and Fairy-Stockfish say the same).
pub const VARIANTS: [&str; 1] = ["antichess"];

/// The start position: chess's, without castling rights.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

/// The positions `bench` searches: the start and positions from games.
pub(crate) const BENCH_FENS: &[&str] = &[START_FEN];

#[cfg(test)]
mod tests;
