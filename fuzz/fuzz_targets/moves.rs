//! The move parsers of every game on any text, in the start positions and after a few
//! plies: no panic, and a move that parses is legal.
#![no_main]

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::protocol::legal_moves;
use libfuzzer_sys::fuzz_target;

fn check<G: Game>(variant: &str, data: &[u8]) {
    let Some((&plies, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut pos = G::startpos(variant).expect("start position");
    for i in 0..plies % 16 {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[(i as usize * 7 + plies as usize) % moves.len()]);
    }
    for word in text.split_whitespace() {
        if let Ok(mv) = pos.parse_move(word) {
            assert!(legal_moves(&pos).contains(&mv));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check::<Chess>("chess", data);
    check::<Raeuber>("raeuberschach", data);
    check::<Pawns>("pawns6ep", data);
});
