//! `cargo run --release --example nnue_loss -- NET RECORDS SKIP COUNT`: how well the network
//! and the hand-made evaluation predict datagen's targets (search score, game result) on
//! records they were not trained on: the trainer's loss for λ = 0, 0.3 and 1, side by side.

use kiebitz::board::Geometry;
use kiebitz::board::fen::placement;
use kiebitz::games::chess::{Chess, nnue};
use kiebitz::nnue::data::{Record, read_all};
use kiebitz::nnue::train::target;

fn fen(r: &Record) -> String {
    let mut board = [None; 64];
    for (sq, code) in r.squares() {
        board[sq as usize] = Some(b"PNBRQKpnbrqk"[code as usize] as char);
    }
    let geometry = Geometry::new(8, 8).expect("8×8");
    let side = if r.side == 0 { "w" } else { "b" };
    format!(
        "{} {side} - - 0 1",
        placement(&geometry, |sq| board[sq.index()])
    )
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, net, data, skip, count] = &args[..] else {
        return eprintln!("usage: nnue_loss NET RECORDS SKIP COUNT");
    };
    nnue::load(net).unwrap();
    nnue::set_enabled(true);
    let file = std::io::BufReader::new(std::fs::File::open(data).unwrap());
    let records = read_all(file, &kiebitz::nnue::Layout::CHESS).unwrap();
    let (skip, count): (usize, usize) = (skip.parse().unwrap(), count.parse().unwrap());
    let lambdas = [0.0f32, 0.3, 1.0];
    let mut sums = [[0.0f64; 3]; 2];
    let mut n = 0;
    for r in records.iter().skip(skip).take(count) {
        let pos = Chess::parse_fen(&fen(r)).unwrap();
        let evals = [pos.evaluate_hce(), nnue::evaluate_fresh(&pos).unwrap()];
        for (e, sum) in evals.iter().zip(sums.iter_mut()) {
            let p = sigmoid(*e as f64 / 400.0);
            for (l, s) in lambdas.iter().zip(sum.iter_mut()) {
                *s += (p - target(r, *l) as f64).powi(2);
            }
        }
        n += 1;
    }
    println!("{n} records; loss for λ = 0, 0.3, 1");
    for (name, sum) in ["hand-made", "network"].iter().zip(sums) {
        let l: Vec<String> = sum.iter().map(|s| format!("{:.6}", s / n as f64)).collect();
        println!("{name:10} {}", l.join("  "));
    }
}
