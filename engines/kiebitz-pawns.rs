//! kiebitz-pawns: pawn chess on W×H boards, with the exhaustive analyser as `analyze` and
//! opening books (`book`).

use kiebitz::games::pawns::Pawns;

fn main() {
    // The solver is the search's oracle: it plays solved positions perfectly.
    kiebitz::analysis::install_oracle();
    std::process::exit(kiebitz::cli::main::<Pawns>(&[
        ("analyze", kiebitz::analysis::cli),
        ("book", kiebitz::cli::book::main::<Pawns>),
    ]));
}
