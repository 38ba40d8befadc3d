//! Every game's position parser on any text: no panic; an accepted FEN (or Chamäleon position
//! text) survives its round trip and yields distinct, playable legal moves.
#![no_main]

use kiebitz::game::Game;
use kiebitz::games::chamaeleon::Chamaeleon;
use kiebitz::games::chess::Chess;
use kiebitz::games::crash::Crash;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz_fuzz::{check_fen, check_ntext};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_fen::<Chess>("chess", text);
    check_fen::<Raeuber>("raeuberschach", text);
    for v in Pawns::variants() {
        check_fen::<Pawns>(v, text);
    }
    check_fen::<Crash>("crash", text);
    check_ntext::<Chamaeleon>(text);
});
