//! kiebitz-antichess: antichess (losing chess) on 8×8 as lichess plays it, over UCI
//! (`UCI_Variant antichess`) and XBoard; `book` builds opening books.

use kiebitz::games::antichess::Antichess;

fn main() {
    std::process::exit(kiebitz::cli::main::<Antichess>(&[(
        "book",
        kiebitz::cli::book::main::<Antichess>,
    )]));
}
