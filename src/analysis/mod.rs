//! Exhaustive game-graph analysis and solving (pawn chess, SPEC §6).

pub mod board;
pub mod count;
pub mod solve;
pub mod table;

/// `kiebitz-pawns analyze …`: returns the exit code.
pub fn cli(args: &[String]) -> i32 {
    let _ = args;
    eprintln!("analyze: not built yet");
    2
}
