//! Every line of the chess perft reference (tests/data/chess-perft.txt, counts by Stockfish)
//! reproduced by the library. All of them together take a few seconds in a release build
//! (`cargo test --release --test perft_chess`), so none needs to be set aside.

mod common;

use kiebitz::games::chess::Chess;

#[test]
fn chess_perft_reference() {
    let cases = common::perft_cases("chess-perft.txt");
    assert!(cases.len() >= 30, "the reference file lost lines");
    for case in cases {
        case.check::<Chess>();
    }
}
