//! `cargo run --release --example nnue_check -- NET`: the network's and the hand-made
//! evaluation side by side on positions and their colour-mirrors (the side to move's view).

use kiebitz::games::chess::{Chess, nnue};

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
    "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
    "r3k2r/8/8/8/8/8/8/4K3 w - - 0 1",
];

fn main() {
    let path = std::env::args().nth(1).expect("NET");
    println!("{}", nnue::load(&path).unwrap());
    nnue::set_enabled(true);
    for fen in FENS {
        let pos = Chess::parse_fen(fen).unwrap();
        let net = nnue::evaluate_fresh(&pos).unwrap();
        println!("{:6} {:6}  {fen}", pos.evaluate_hce(), net);
    }
}
