//! kiebitz-chamaeleon: Chamäleon Schach for 2–4 players, with N-player searches.

use kiebitz::games::chamaeleon::Chamaeleon;

fn main() {
    kiebitz::cli::read_environment();
    std::process::exit(kiebitz::cli::nseat::main::<Chamaeleon>());
}
