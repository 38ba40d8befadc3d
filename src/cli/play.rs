//! `play`: a game against the engine in the terminal.

use crate::game::Game;

pub fn play<G: Game>(
    color: &str,
    tc: &str,
    variant: Option<&str>,
    fen: Option<&str>,
    hash_mb: usize,
) -> Result<(), String> {
    let _ = (color, tc, variant, fen, hash_mb);
    Err("play: not built yet".into())
}
