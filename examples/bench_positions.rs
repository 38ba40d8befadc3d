//! Prints every game's bench positions, one `engine<TAB>variant<TAB>FEN` line each, for
//! `scripts/movetime-overrun.py`.

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;

fn list<G: Game>(engine: &str) {
    for p in G::bench_positions() {
        println!("{engine}\t{}\t{}", p.variant(), p.fen());
    }
}

fn main() {
    list::<Chess>("kiebitz-chess");
    list::<Raeuber>("kiebitz-raeuber");
    list::<Pawns>("kiebitz-pawns");
}
