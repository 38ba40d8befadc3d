//! The shell entrance shared by every engine binary: protocol session on stdin/stdout by
//! default, subcommands `perft`, `bench`, `play`, and the `--listen` server.
//!
//! PLACEHOLDER — the protocol helper fills this in.

use crate::game::Game;

/// An extra subcommand a single engine offers (e.g. `analyze` in kiebitz-pawns): its name and
/// its entry point, which gets the arguments after the name and returns the exit code.
pub type Subcommand = (&'static str, fn(&[String]) -> i32);

/// Runs the engine binary for game `G`; returns the process exit code.
pub fn main<G: Game>(extra: &[Subcommand]) -> i32 {
    let _ = extra;
    0
}
