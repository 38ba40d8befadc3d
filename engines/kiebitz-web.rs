//! `kiebitz-web [--listen ADDR] [--open]`: serves every game to a browser (docs/web.md).
//! Messages go to stderr; the page and the JSON API are served on ADDR (127.0.0.1:8080). The
//! command line lives in `kiebitz::web::cli`, shared with each engine binary's `web`.

fn main() {
    kiebitz::cli::read_environment();
    let args = match kiebitz::cli::args() {
        Ok(a) => a,
        Err(code) => std::process::exit(code),
    };
    std::process::exit(kiebitz::web::cli::main(&args));
}
