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

/// The variant names: lichess's `antichess` (python-chess and Fairy-Stockfish say the same).
pub const VARIANTS: [&str; 1] = ["antichess"];

/// The start position: chess's, without castling rights.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

/// The positions `bench` searches: the start, the opening 1. e3, and positions from seeded
/// random play (scripts/oracles/antichess_oracle.py) from the opening to the ending.
pub(crate) const BENCH_FENS: &[&str] = &[
    START_FEN,
    "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b - - 0 1",
    "r1bqkbnr/pppppppp/8/8/1n5P/5N2/PPPPPPP1/RNBQKB1R w - - 3 3",
    "r1bqk1nr/2pp1ppp/1pn5/p7/5P2/N5PP/PPPP4/R1BQKBNR w - - 0 7",
    "rnbq1b1r/ppp1pp1p/3p1kpn/8/P4P2/R1P5/1P1PP1PP/1NBQKBNR b - - 2 7",
    "1n2kb2/2p1p1p1/rp5n/4P3/P7/1p3N2/4P1P1/1N2KB2 w - - 0 19",
    "1n3b1r/2p1pN1p/8/8/8/2P1P3/1P5P/7b b - - 0 17",
    "r5n1/p1p3p1/1pQ5/8/P7/1R5b/8/4K3 w - - 1 21",
    "1r6/p7/1kp5/5p1p/P6P/4P3/p7/2K1R3 w - - 0 29",
];
