//! `kiebitz-web [--listen ADDR] [--open]`: serves every game to a browser (docs/web.md).
//! Messages go to stderr; the page and the JSON API are served on ADDR (127.0.0.1:8080).

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use kiebitz::web::{Config, runtime, serve};

/// Play every kiebitz game in the browser.
#[derive(Parser, Debug)]
#[command(name = "kiebitz-web", version)]
struct Args {
    /// Address to listen on (a non-loopback address exposes the server to the network).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: String,
    /// Open the lobby in the default browser (xdg-open / open).
    #[arg(long)]
    open: bool,
    /// Games held at once.
    #[arg(long, default_value_t = Config::default().max_games)]
    max_games: usize,
    /// Minutes after which an untouched game is dropped.
    #[arg(long, default_value_t = 30)]
    idle_minutes: u64,
    /// Longest think time a request may ask for, in milliseconds.
    #[arg(long, default_value_t = Config::default().max_movetime.as_millis() as u64)]
    max_movetime_ms: u64,
    /// Engine searches at once (one thread each).
    #[arg(long, default_value_t = Config::default().engine_threads)]
    engine_threads: usize,
}

fn main() -> ExitCode {
    kiebitz::cli::read_environment();
    let args = Args::parse();
    let checks = [
        (args.max_games, 1, 100_000, "--max-games"),
        (args.idle_minutes as usize, 1, 7 * 24 * 60, "--idle-minutes"),
        (
            args.max_movetime_ms as usize,
            1,
            600_000,
            "--max-movetime-ms",
        ),
        (args.engine_threads, 1, 256, "--engine-threads"),
    ];
    for (value, lo, hi, name) in checks {
        if !(lo..=hi).contains(&value) {
            eprintln!("kiebitz-web: {name} must be from {lo} to {hi}, not {value}");
            return ExitCode::from(2);
        }
    }
    let config = Config {
        max_games: args.max_games,
        idle: Duration::from_secs(args.idle_minutes * 60),
        max_movetime: Duration::from_millis(args.max_movetime_ms),
        engine_threads: args.engine_threads,
        ..Config::default()
    };
    let rt = match runtime(&config) {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("kiebitz-web: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let listener = match rt.block_on(tokio::net::TcpListener::bind(&args.listen)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("kiebitz-web: cannot listen on {}: {e}", args.listen);
            return ExitCode::FAILURE;
        }
    };
    let url = match listener.local_addr() {
        Ok(a) => format!("http://{a}/"),
        Err(_) => format!("http://{}/", args.listen),
    };
    eprintln!("kiebitz-web: serving on {url} (Ctrl-C stops)");
    if args.open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        if let Err(e) = std::process::Command::new(opener).arg(&url).spawn() {
            eprintln!("kiebitz-web: could not open a browser ({opener}: {e}); open {url}");
        }
    }
    match rt.block_on(serve(listener, config, std::future::pending())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kiebitz-web: {e}");
            ExitCode::FAILURE
        }
    }
}
