//! Exhaustive game-graph analysis and solving (pawn chess, SPEC §6).
//!
//! PLACEHOLDER — the analysis helper fills this in.

/// `kiebitz-pawns analyze …`: returns the exit code.
pub fn cli(args: &[String]) -> i32 {
    let _ = args;
    eprintln!("analyze: not built yet");
    2
}
