//! kiebitz-raeuber: Räuberschach 6×6, losing chess with forced capture; `solve` proves forced
//! wins and losses by proof-number search, `check-proof` checks a proof file, `join` joins
//! proofs and holds solved apart, `book` builds opening books, `tables` writes the endgame
//! tables to files.

use kiebitz::cli::solve::{check_proof, solve};
use kiebitz::games::raeuber::Raeuber;

fn main() {
    // Proof-number search is the search's oracle (kiebitz::games::page::builtin): a proven win is
    // played at once.
    std::process::exit(kiebitz::cli::main::<Raeuber>(&[
        ("solve", solve::<Raeuber>),
        ("check-proof", check_proof::<Raeuber>),
        ("join", kiebitz::cli::join::join::<Raeuber>),
        ("units", kiebitz::cli::units::units::<Raeuber>),
        ("book", kiebitz::cli::book::main::<Raeuber>),
        ("datagen", kiebitz::cli::datagen::main::<Raeuber>),
        ("train", kiebitz::cli::train::main::<Raeuber>),
        ("tables", kiebitz::games::raeuber::tables::files::main),
    ]));
}
