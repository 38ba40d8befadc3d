//! kiebitz-pawns: pawn chess on W×H boards, with the exhaustive analyser as `analyze`,
//! proof-number search as `solve` (the value of one position, for boards too large to
//! analyse whole) with `check-proof`, and opening books (`book`).

use kiebitz::cli::solve::{check_proof, solve};
use kiebitz::games::pawns::Pawns;

fn main() {
    // The solver is the search's oracle (kiebitz::games::page::builtin): it plays solved positions
    // perfectly.
    std::process::exit(kiebitz::cli::main::<Pawns>(&[
        ("analyze", kiebitz::games::pawns::analysis::cli),
        ("solve", solve::<Pawns>),
        ("check-proof", check_proof::<Pawns>),
        ("join", kiebitz::cli::join::join::<Pawns>),
        ("units", kiebitz::cli::units::units::<Pawns>),
        ("book", kiebitz::cli::book::main::<Pawns>),
    ]));
}
