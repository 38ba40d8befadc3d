//! Times chess perft: `cargo run --release --example chess-perft -- DEPTH [FEN]`.
//! Prints `nodes seconds` on one line (used by scripts/oracles/perft-vs-stockfish.sh).

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(6);
    let fen = args.get(1).map_or(Chess::START_FEN, |s| s.as_str());
    let pos = match Chess::from_fen("chess", fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            std::process::exit(2);
        }
    };
    kiebitz::games::chess::attacks::init();
    let start = Instant::now();
    let nodes = kiebitz::perft::perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!("{nodes} {secs:.3} {:.1} Mnps", nodes as f64 / secs / 1e6);
}
