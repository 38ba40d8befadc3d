//! An XBoard session of every two-player game on any input (commands parsed with nom,
//! positions set, thinking and analysis started and stopped): no panic, and a final `ping` is
//! answered; the command parser alone must never panic either.
#![no_main]

use kiebitz::games::chess::Chess;
use kiebitz::games::crash::Crash;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz_fuzz::session;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines() {
            let _ = kiebitz::protocol::xboard::parse(line);
        }
    }
    session::<Chess>("xboard", data, "ping 7", "pong 7");
    session::<Raeuber>("xboard", data, "ping 7", "pong 7");
    session::<Pawns>("xboard", data, "ping 7", "pong 7");
    session::<Crash>("xboard", data, "ping 7", "pong 7");
});
