//! kiebitz-match: engine-vs-engine tournaments for every kiebitz game.

fn main() {
    // Openings filtered by a search see solved pawn-chess positions as the engines do.
    kiebitz::analysis::install_oracle();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(kiebitz::tournament::main(&args));
}
