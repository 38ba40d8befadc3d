//! A UCI session of every game on any input (commands parsed, positions set, searches and
//! perft started and stopped): no panic, and `isready` at the end is answered. The N-seat
//! protocol of kiebitz-chamaeleon, UCI-like, gets the same input.
#![no_main]

use kiebitz::games::chamaeleon::Chamaeleon;
use kiebitz::games::chess::Chess;
use kiebitz::games::crash::Crash;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz_fuzz::{nseat_session, session};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    session::<Chess>("uci", data, "isready", "readyok");
    session::<Raeuber>("uci", data, "isready", "readyok");
    session::<Pawns>("uci", data, "isready", "readyok");
    session::<Crash>("uci", data, "isready", "readyok");
    nseat_session::<Chamaeleon>(data);
});
