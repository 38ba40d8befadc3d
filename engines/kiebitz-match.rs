//! kiebitz-match: engine-vs-engine tournaments for every kiebitz game.

fn main() {
    kiebitz::cli::read_environment();
    // The PGN `Site` of every game.
    if let Ok(host) = std::env::var("HOSTNAME") {
        kiebitz::tournament::set_site(&host);
    }
    match kiebitz::cli::utf8_args(std::env::args_os().skip(1)) {
        Ok(args) => std::process::exit(kiebitz::tournament::main(&args)),
        Err(e) => {
            eprintln!("kiebitz-match: {e}");
            std::process::exit(2);
        }
    }
}
