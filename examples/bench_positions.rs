//! Prints every game's bench positions, one `engine<TAB>variant<TAB>FEN` line each, for
//! `scripts/studies/movetime-overrun.py`. The N-seat game has no variants: its lines name each search
//! algorithm instead (`algorithm=NAME`) and carry the position text.

use kiebitz::game::Game;
use kiebitz::games::chamaeleon::Chamaeleon;
use kiebitz::games::chess::Chess;
use kiebitz::games::crash::Crash;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::nsearch::{Algorithm, NGame};

fn list<G: Game>(engine: &str) {
    for p in G::bench_positions() {
        println!("{engine}\t{}\t{}", p.variant(), p.fen());
    }
}

fn list_nseat<G: NGame>(engine: &str) {
    for algorithm in Algorithm::ALL {
        for p in G::bench_positions() {
            println!("{engine}\talgorithm={}\t{}", algorithm.name(), p.text());
        }
    }
}

fn main() {
    list::<Chess>("kiebitz-chess");
    list::<Raeuber>("kiebitz-raeuber");
    list::<Pawns>("kiebitz-pawns");
    list::<Crash>("kiebitz-crash");
    list_nseat::<Chamaeleon>("kiebitz-chamaeleon");
}
