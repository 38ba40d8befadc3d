//! The move parsers of every game on any text, in the start positions and after a few
//! plies: no panic, and a move that parses is legal.
#![no_main]

use kiebitz::games::chamaeleon::Chamaeleon;
use kiebitz::games::chess::Chess;
use kiebitz::games::crash::Crash;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz_fuzz::{check_moves, check_nmoves};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&plies, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    check_moves::<Chess>("chess", plies, text);
    check_moves::<Raeuber>("raeuberschach", plies, text);
    check_moves::<Pawns>("pawns6ep", plies, text);
    check_moves::<Crash>("crash", plies, text);
    for players in 2..=4 {
        check_nmoves::<Chamaeleon>(players, plies, text);
    }
});
