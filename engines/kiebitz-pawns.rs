//! kiebitz-pawns: pawn chess on W×H boards, with the exhaustive analyser as `analyze`.

use kiebitz::games::pawns::Pawns;

fn main() {
    std::process::exit(kiebitz::cli::main::<Pawns>(&[(
        "analyze",
        kiebitz::analysis::cli,
    )]));
}
