//! Every game's FEN parser on any text: no panic; an accepted FEN survives its round trip
//! and yields distinct, playable legal moves.
#![no_main]

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::protocol::legal_moves;
use libfuzzer_sys::fuzz_target;

fn check<G: Game>(variant: &str, text: &str) {
    let Ok(pos) = G::from_fen(variant, text) else {
        return;
    };
    let again = G::from_fen(variant, &pos.fen()).expect("a FEN we wrote reads back");
    assert_eq!(again.fen(), pos.fen());
    assert_eq!(again.hash(), pos.hash());
    let moves = legal_moves(&pos);
    for (i, m) in moves.iter().enumerate() {
        assert!(!moves[..i].contains(m), "duplicate move");
        let next = pos.play(*m);
        let _ = legal_moves(&next);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check::<Chess>("chess", text);
    check::<Raeuber>("raeuberschach", text);
    for v in Pawns::variants() {
        check::<Pawns>(v, text);
    }
});
