//! kiebitz-raeuber: Räuberschach 6×6, losing chess with forced capture.

use kiebitz::games::raeuber::Raeuber;

fn main() {
    std::process::exit(kiebitz::cli::main::<Raeuber>(&[]));
}
