//! kiebitz-match: engine-vs-engine tournaments for every game (SPEC §7).
//!
//! PLACEHOLDER — the tournament helper fills this in.

/// `kiebitz-match …`: returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let _ = args;
    eprintln!("kiebitz-match: not built yet");
    2
}
