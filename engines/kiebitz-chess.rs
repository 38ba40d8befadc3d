//! kiebitz-chess: standard chess (FIDE rules); `book` builds and shows Polyglot opening books.

use kiebitz::games::chess::Chess;

fn main() {
    std::process::exit(kiebitz::cli::main::<Chess>(&[(
        "book",
        kiebitz::cli::book::main::<Chess>,
    )]));
}
