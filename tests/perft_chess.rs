//! Every line of the chess perft reference (tests/data/chess-perft.txt, counts by Stockfish)
//! reproduced by the library. Lines above [`HEAVY_NODES`] nodes run only with
//! `cargo test --release --test perft_chess -- --ignored`.

mod common;

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::perft::perft;

/// Cases with more nodes than this take over ~10 s in a release build on a busy machine.
const HEAVY_NODES: u64 = 60_000_000;

fn check(heavy: bool) {
    let mut ran = 0;
    for case in common::perft_cases("chess-perft.txt") {
        if (case.nodes > HEAVY_NODES) != heavy {
            continue;
        }
        let pos = Chess::from_fen(&case.variant, &case.fen).expect("reference FEN");
        assert_eq!(
            perft(&pos, case.depth),
            case.nodes,
            "{} depth {}",
            case.fen,
            case.depth
        );
        ran += 1;
    }
    assert!(ran > 0, "no cases ran");
}

#[test]
fn chess_perft_reference() {
    check(false);
}

/// The largest reference counts: `cargo test --release --test perft_chess -- --ignored`.
#[test]
#[ignore]
fn chess_perft_reference_heavy() {
    check(true);
}
