//! kiebitz-chess: standard chess (FIDE rules); `book` builds and shows Polyglot opening books,
//! `datagen` plays self-play games into training records for the learned evaluation, `train`
//! fits a network to them.

use kiebitz::games::chess::Chess;

fn main() {
    std::process::exit(kiebitz::cli::main::<Chess>(&[
        ("book", kiebitz::cli::book::main::<Chess>),
        ("datagen", kiebitz::cli::datagen::main::<Chess>),
        ("train", kiebitz::cli::train::main::<Chess>),
    ]));
}
