//! kiebitz-raeuber: Räuberschach 6×6, losing chess with forced capture; `solve` proves forced
//! wins and losses by proof-number search, `check-proof` checks a proof file.

use kiebitz::cli::solve::{check_proof, solve};
use kiebitz::games::raeuber::Raeuber;

fn main() {
    std::process::exit(kiebitz::cli::main::<Raeuber>(&[
        ("solve", solve::<Raeuber>),
        ("check-proof", check_proof::<Raeuber>),
    ]));
}
