//! The command line of the web server, shared by `kiebitz-web` (every game) and each engine
//! binary's `web` subcommand (`kiebitz-chess web`: that game only): `[--listen ADDR] [--open]`,
//! the limits of [`Config`], and the games' own flags, which their pages define
//! (`games::page::ServerArgs`). Messages go to stderr; the exit code is 2 for bad arguments, 1
//! for a database that does not load.
//!
//! Depends on [`super`] (the server) and clap.

use std::time::Duration;

use clap::Parser;

use super::{Config, runtime, serve};

/// Play kiebitz games in the browser.
#[derive(Parser, Debug)]
#[command(version)]
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
    /// The games' own flags (`games::page::ServerArgs`).
    #[command(flatten)]
    games: crate::games::page::ServerArgs,
    /// TCP connections open at once (a further one waits until one closes).
    #[arg(long, default_value_t = Config::default().max_connections)]
    max_connections: usize,
    /// TCP connections open at once from one IP address (a further one is answered 503).
    #[arg(long, default_value_t = Config::default().max_connections_per_peer)]
    max_connections_per_peer: usize,
    /// Seconds a request head may take to arrive (also the most a kept-alive connection
    /// waits for its next request).
    #[arg(long, value_name = "S", default_value_t = Config::default().header_timeout.as_secs())]
    header_timeout_s: u64,
    /// Seconds a request body may take to arrive (408 beyond).
    #[arg(long, value_name = "S", default_value_t = Config::default().body_timeout.as_secs())]
    body_timeout_s: u64,
    /// Seconds without a byte either way after which a connection is closed (at least the
    /// longest think time plus 21 s, which an engine request may take).
    #[arg(long, value_name = "S", default_value_t = Config::default().conn_idle.as_secs())]
    conn_idle_s: u64,
    /// A host name the page may be reached by besides localhost names and IP addresses
    /// (requests naming any other Host, and cross-site requests, are refused; repeatable).
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
}

/// `kiebitz-web`: serves every game. `args` are the process's arguments (the program name
/// first); returns the exit code.
pub fn main(args: &[String]) -> i32 {
    run("kiebitz-web", args.get(1..).unwrap_or(&[]), None)
}

/// `kiebitz-<game> web …` (the arguments after `web`): serves `game` only.
pub fn subcommand_for(game: &'static str, args: &[String]) -> i32 {
    let name = format!("kiebitz-{game} web");
    run(&name, args, Some(game))
}

/// [`subcommand_for`] the game `G`, as an engine binary's extra subcommand.
pub fn subcommand<G: crate::game::Game>(args: &[String]) -> i32 {
    subcommand_for(G::GAME, args)
}

fn run(name: &str, args: &[String], only: Option<&'static str>) -> i32 {
    let argv = std::iter::once(name.to_string()).chain(args.iter().cloned());
    let command = <Args as clap::CommandFactory>::command()
        .name(Box::leak(name.to_string().into_boxed_str()) as &str)
        .about(match only {
            Some(game) => format!("Play {game} in the browser (kiebitz-web serves every game)."),
            None => "Play every kiebitz game in the browser.".to_string(),
        });
    let args = match command
        .try_get_matches_from(argv)
        .and_then(|m| <Args as clap::FromArgMatches>::from_arg_matches(&m))
    {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    if !in_range(name, &args) {
        return 2;
    }
    let mut config = Config {
        max_games: args.max_games,
        idle: Duration::from_secs(args.idle_minutes * 60),
        max_movetime: Duration::from_millis(args.max_movetime_ms),
        engine_threads: args.engine_threads,
        max_connections: args.max_connections,
        max_connections_per_peer: args.max_connections_per_peer,
        header_timeout: Duration::from_secs(args.header_timeout_s),
        body_timeout: Duration::from_secs(args.body_timeout_s),
        conn_idle: Duration::from_secs(args.conn_idle_s),
        only,
        allowed_hosts: args.allow_host.clone(),
        ..Config::default()
    };
    match args.games.apply(only, &mut config.solvers) {
        Ok(done) => done.iter().for_each(|line| eprintln!("{name}: {line}")),
        Err((code, e)) => {
            eprintln!("{name}: {e}");
            return code;
        }
    }
    let rt = match runtime(&config) {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{name}: cannot start the runtime: {e}");
            return 1;
        }
    };
    let listener = match rt.block_on(tokio::net::TcpListener::bind(&args.listen)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{name}: cannot listen on {}: {e}", args.listen);
            return 1;
        }
    };
    let url = match listener.local_addr() {
        Ok(a) => format!("http://{a}/"),
        Err(_) => format!("http://{}/", args.listen),
    };
    eprintln!("{name}: serving on {url} (Ctrl-C stops)");
    if args.open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        if let Err(e) = std::process::Command::new(opener).arg(&url).spawn() {
            eprintln!("{name}: could not open a browser ({opener}: {e}); open {url}");
        }
    }
    match rt.block_on(serve(listener, config, std::future::pending())) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{name}: {e}");
            1
        }
    }
}

/// Whether every numeric limit is within its range; a message on stderr for the first not.
fn in_range(name: &str, args: &Args) -> bool {
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
        (args.max_connections, 1, 100_000, "--max-connections"),
        (
            args.max_connections_per_peer,
            1,
            100_000,
            "--max-connections-per-peer",
        ),
        (
            args.header_timeout_s as usize,
            1,
            3600,
            "--header-timeout-s",
        ),
        (args.body_timeout_s as usize, 1, 3600, "--body-timeout-s"),
        (args.conn_idle_s as usize, 1, 24 * 3600, "--conn-idle-s"),
    ];
    for (value, lo, hi, flag) in checks {
        if !(lo..=hi).contains(&value) {
            eprintln!("{name}: {flag} must be from {lo} to {hi}, not {value}");
            return false;
        }
    }
    true
}
