//! Räuberschach perft from the shell, for timing and cross-checks:
//! `raeuber_perft DEPTH [FEN|startpos] [--generic] [--divide] [--moves M1 M2 …]`.
//! Prints `Nodes searched: N` (with `--divide` first the position's FEN as `Fen: …` and one
//! `move: count` line per legal move), and the time and speed on stderr. `--generic` uses
//! `kiebitz::perft::perft` instead of the game's bulk-counting perft; `--moves` plays the
//! given moves from the position first.

use kiebitz::game::Game;
use kiebitz::games::raeuber::{Raeuber, START_FEN};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (args, moves) = match args.iter().position(|a| a == "--moves") {
        Some(i) => (args[..i].to_vec(), args[i + 1..].to_vec()),
        None => (args.clone(), Vec::new()),
    };
    let generic = args.iter().any(|a| a == "--generic");
    let split = args.iter().any(|a| a == "--divide");
    let rest: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let Some(depth) = rest.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("usage: raeuber_perft DEPTH [FEN] [--generic] [--divide]");
        std::process::exit(2);
    };
    let fen = rest
        .get(1)
        .map_or(START_FEN, |s| s.as_str())
        .replace("startpos", START_FEN);
    let mut pos = match Raeuber::from_fen("raeuberschach", &fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            std::process::exit(2);
        }
    };
    for text in &moves {
        match pos.parse_move(text) {
            Ok(mv) => pos = pos.play(mv),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    }
    let start = Instant::now();
    let nodes = if split {
        println!("Fen: {}", pos.fen());
        let mut total = 0;
        for (mv, n) in kiebitz::perft::divide(&pos, depth) {
            println!("{}: {n}", pos.move_text(mv));
            total += n;
        }
        println!();
        total
    } else if generic {
        kiebitz::perft::generic(&pos, depth)
    } else {
        pos.perft(depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    eprintln!(
        "time {:.3} s, {:.1} Mnps",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
}
