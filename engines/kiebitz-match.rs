//! kiebitz-match: engine-vs-engine tournaments for every kiebitz game.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(kiebitz::tournament::main(&args));
}
