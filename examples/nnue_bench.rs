//! `cargo run --release --example nnue_bench -- [NET]`: the chess bench (depth 10, Hash 16)
//! with the hand-made evaluation and, given a network file, with the network: nodes and nps
//! side by side in one run.

use kiebitz::games::chess::{Chess, nnue};

fn main() {
    let net = std::env::args().nth(1);
    nnue::set_enabled(false);
    let (nodes, time) = kiebitz::search::bench::<Chess>(10, 16);
    println!(
        "hand-made: {nodes} nodes {:.0} nps",
        nodes as f64 / time.as_secs_f64()
    );
    if let Some(path) = net {
        match nnue::load(&path) {
            Ok(line) => println!("{line}"),
            Err(e) => return eprintln!("error: {e}"),
        }
        nnue::set_enabled(true);
        let (nodes, time) = kiebitz::search::bench::<Chess>(10, 16);
        println!(
            "network:   {nodes} nodes {:.0} nps (AVX2 {})",
            nodes as f64 / time.as_secs_f64(),
            kiebitz::nnue::net::uses_avx2()
        );
    }
}
