//! The PGN reader of `kiebitz-match --check-pgn` on any text, and the replay of what it
//! reads under every game's rules: no panic.
#![no_main]

use kiebitz::games::chess::Chess;
use kiebitz::games::crash::Crash;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::tournament::pgn;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(games) = pgn::parse(text) {
        for g in &games {
            let _ = pgn::replay::<Chess>(g);
            let _ = pgn::replay::<Raeuber>(g);
            let _ = pgn::replay::<Pawns>(g);
            let _ = pgn::replay::<Crash>(g);
        }
    }
});
