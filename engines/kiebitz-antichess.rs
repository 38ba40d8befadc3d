//! kiebitz-antichess: antichess (losing chess) on 8×8 as lichess plays it, over UCI
//! (`UCI_Variant antichess`) and XBoard; `book` builds opening books, `solve` proves forced
//! wins by proof-number search, `check-proof` checks a proof file and `tables` writes (or
//! checks) the endgame tables' file.

use kiebitz::cli::solve::{check_proof, solve};
use kiebitz::games::antichess::Antichess;

fn main() {
    std::process::exit(kiebitz::cli::main::<Antichess>(&[
        ("solve", solve::<Antichess>),
        ("check-proof", check_proof::<Antichess>),
        ("book", kiebitz::cli::book::main::<Antichess>),
        ("datagen", kiebitz::cli::datagen::main::<Antichess>),
        ("train", kiebitz::cli::train::main::<Antichess>),
        ("tables", kiebitz::games::antichess::tables::main),
    ]));
}
