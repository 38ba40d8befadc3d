//! Every line of the pawn-chess perft reference reproduced by the library.

mod common;

use kiebitz::game::Game;
use kiebitz::games::pawns::Pawns;
use kiebitz::perft::perft;

#[test]
fn pawn_perft_reference() {
    for case in common::perft_cases("pawns-perft.txt") {
        let pos = Pawns::from_fen(&case.variant, &case.fen).expect("reference FEN");
        assert_eq!(
            perft(&pos, case.depth),
            case.nodes,
            "{} {} depth {}",
            case.variant,
            case.fen,
            case.depth
        );
    }
}
