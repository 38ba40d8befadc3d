//! kiebitz-raeuber: Räuberschach 6×6, losing chess with forced capture; `solve` proves forced
//! wins and losses by proof-number search, `check-proof` checks a proof file, `book` builds
//! opening books.

use kiebitz::cli::solve::{check_proof, solve};
use kiebitz::games::raeuber::{Raeuber, solver};

fn main() {
    // Proof-number search is the search's oracle: a proven win is played at once.
    solver::install_oracle();
    std::process::exit(kiebitz::cli::main::<Raeuber>(&[
        ("solve", solve::<Raeuber>),
        ("check-proof", check_proof::<Raeuber>),
        ("book", kiebitz::cli::book::main::<Raeuber>),
    ]));
}
