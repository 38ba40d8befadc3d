//! kiebitz-chess: standard chess (FIDE rules).

use kiebitz::games::chess::Chess;

fn main() {
    std::process::exit(kiebitz::cli::main::<Chess>(&[]));
}
