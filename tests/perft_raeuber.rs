//! Every line of the Räuberschach perft reference (tests/data/raeuber-perft.txt, computed by
//! Fairy-Stockfish with an independent rule definition) reproduced by the library: by the
//! generic `kiebitz::perft::generic` and by the game's own bulk-counting perft (`Game::perft`).

mod common;

use kiebitz::game::Game;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::perft::generic as perft;

/// Lines with more nodes than this run only in the ignored test below (the start position at
/// depth 9, two million nodes, is still quick in release; this keeps debug builds fast).
const QUICK_NODES: u64 = 3_000_000;

fn check(max_nodes: u64, min_nodes: u64) -> usize {
    let mut checked = 0;
    for case in common::perft_cases("raeuber-perft.txt") {
        if case.nodes > max_nodes || case.nodes < min_nodes {
            continue;
        }
        let pos = Raeuber::from_fen(&case.variant, &case.fen).expect("reference FEN");
        assert_eq!(
            Game::perft(&pos, case.depth),
            case.nodes,
            "bulk perft {} depth {}",
            case.fen,
            case.depth
        );
        if case.nodes <= 300_000 {
            assert_eq!(
                perft(&pos, case.depth),
                case.nodes,
                "generic perft {} depth {}",
                case.fen,
                case.depth
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn raeuber_perft_reference() {
    // All 19 reference lines are at most 2 066 112 nodes.
    assert_eq!(check(QUICK_NODES, 0), 19);
}

/// Deeper counts from the start, checked against Fairy-Stockfish 11.1 (`go perft 10` gives
/// 9161250). Run with `cargo test --release --test perft_raeuber -- --ignored`.
#[test]
#[ignore]
fn raeuber_perft_start_depth_10() {
    let pos = Raeuber::startpos("raeuberschach").unwrap();
    assert_eq!(Game::perft(&pos, 10), 9_161_250);
}
