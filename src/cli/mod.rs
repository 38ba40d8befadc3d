//! The shell entrance shared by every engine binary (docs/rules.md §1): a protocol session on
//! stdin/stdout by default, the subcommands `perft`, `bench` and `play`, the `--listen` engine
//! server, and extra subcommands an engine adds (such as `analyze`).
//!
//! Arguments are parsed with clap. Results go to stdout, diagnostics and errors to stderr;
//! errors end with a non-zero exit code. Nothing here knows which game it runs.
//! [`nseat`] is the same entrance for N-seat games ([`crate::nsearch::NGame`]).

pub mod book;
pub mod datagen;
pub mod join;
mod listen;
mod play;
pub mod solve;
pub mod suite;
pub mod train;
pub mod units;

use crate::error::CliError;
use std::io::{self, BufReader};
use std::time::Instant;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand as ClapSubcommand};

use crate::game::Game;
use crate::perft;
use crate::progress::{self, Progress};
use crate::protocol::{self, DEFAULT_HASH_MB, MAX_HASH_MB};
use crate::search::oracle::{AnyOracle, Oracle};

/// An extra subcommand a single engine offers (e.g. `analyze` in kiebitz-pawns): its name and
/// its entry point, which gets the arguments after the name and returns the exit code.
pub type Subcommand = (&'static str, fn(&[String]) -> i32);

/// `println!` that returns from the function on a write error.
macro_rules! out {
    ($($arg:tt)*) => {
        crate::limits::out(format_args!($($arg)*))?
    };
}

pub mod nseat;

/// Parses a subcommand's arguments (`clap`'s usage and errors on stderr, exit code 2; `--help`
/// exit code 0) and runs it: 0 (also for a closed stdout), or 1 with the error on stderr.
pub fn run_subcommand<A: clap::Parser, E: Into<CliError>>(
    name: &str,
    args: &[String],
    run: impl FnOnce(&A) -> Result<(), E>,
) -> i32 {
    let parsed = match crate::limits::parse_args::<A>(name, args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    crate::limits::exit_code(run(&parsed), "error", 1)
}

/// Default TCP port of `--listen` without an address.
pub const DEFAULT_PORT: u16 = 7700;

#[derive(Parser, Debug)]
#[command(
    version,
    about = "Without a subcommand: reads UCI or XBoard commands on stdin (first command \
             'uci' or 'xboard')."
)]
struct Cli {
    /// Serve protocol sessions over TCP: ADDR is HOST:PORT or a port (127.0.0.1 then).
    /// Addresses other than loopback must be given explicitly.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
    listen: Option<String>,

    /// Transposition-table size in MiB for each session (the Hash option's start value).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB as u64,
          value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    hash: u64,

    #[command(flatten)]
    server: listen::ServerArgs,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(ClapSubcommand, Debug)]
enum Command {
    /// Count the legal move paths of DEPTH plies: counts, time and Mnps.
    Perft {
        depth: u32,
        /// Start from this FEN (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
        /// Rules to follow (default: the engine's first variant).
        #[arg(long)]
        variant: Option<String>,
        /// Print the count below each root move first.
        #[arg(long)]
        divide: bool,
    },
    /// Search fixed positions to a fixed depth; the last line is `Bench: N nodes M nps`.
    Bench {
        /// Search depth (default: the game's own, about a second of search).
        depth: Option<u32>,
        /// Search threads (Lazy SMP); with more than one the node count varies from run to run.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: u32,
        /// Also print what the search's mechanisms did: nodes by kind, table hits and cuts,
        /// reductions and prunings by reason.
        #[arg(long)]
        stats: bool,
        /// Set one of the game's own options first, `NAME=VALUE` (e.g. `EvalFile=net.nnue`,
        /// `Use NNUE=false`); repeatable.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Score a test suite at a fixed node budget per position (one thread, cleared table):
    /// lines `FEN;MOVES;N` (a forced win to find) or EPD `FEN bm MOVE;` (a move to find).
    Suite {
        file: std::path::PathBuf,
        /// Nodes per position.
        #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Rules of the positions (default: the engine's first variant).
        #[arg(long)]
        variant: Option<String>,
        /// Also print the summed search statistics.
        #[arg(long)]
        stats: bool,
    },
    /// Play a game against the engine in the terminal.
    Play {
        /// Your colour.
        #[arg(long, default_value = "white", value_parser = ["white", "black"])]
        color: String,
        /// Engine time: SECONDS per move, or BASE+INC in seconds for a clock game.
        #[arg(long, default_value = "1")]
        tc: String,
        /// Rules to play (default: the engine's first variant).
        #[arg(long)]
        variant: Option<String>,
        /// Start from this FEN.
        #[arg(long)]
        fen: Option<String>,
    },
}

/// Runs the engine binary for game `G`; returns the process exit code.
pub fn main<G: Game>(extra: &[Subcommand]) -> i32 {
    match args() {
        Ok(args) => main_with_args::<G>(&args, extra),
        Err(code) => code,
    }
}

/// The process's arguments as text, or (after a message on stderr) the exit code 2 when one
/// is not UTF-8.
pub fn args() -> Result<Vec<String>, i32> {
    utf8_args(std::env::args_os()).map_err(|e| {
        eprintln!("error: {e}");
        2
    })
}

/// The command-line arguments as text; an argument that is not UTF-8 is an error (showing
/// it with the bad bytes replaced), never a panic.
pub fn utf8_args(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Result<Vec<String>, CliError> {
    args.into_iter()
        .map(|a| {
            a.into_string().map_err(|bad| {
                CliError::Failed(format!(
                    "an argument is not valid UTF-8: '{}'",
                    crate::protocol::shorten(&bad.to_string_lossy())
                ))
            })
        })
        .collect()
}

/// Whether `NO_COLOR` was set at start-up ([`read_environment`]).
static NO_COLOR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the user asked for no ANSI colours (`NO_COLOR`, read by [`read_environment`]).
pub(crate) fn no_color() -> bool {
    NO_COLOR.load(std::sync::atomic::Ordering::Relaxed)
}

/// Reads the environment variables kiebitz obeys and hands each to the part it configures.
/// Every binary calls it once at start-up ([`main_with_args`] does for the engines); nothing
/// else below the binaries reads the environment (tests/no_env_reads.rs), only env_logger
/// its `RUST_LOG` (kiebitz-match's entrance reads `HOSTNAME` itself, its games' PGN `Site`).
///
/// - `KIEBITZ_SEARCH=name=value,…`: search-parameter overrides for every searcher
///   ([`crate::search::params::set_startup_overrides`]); a bad text is reported on stderr and
///   the game's defaults are kept.
/// - `KIEBITZ_PROGRESS=bar|lines|off`: the progress style ([`progress::Style::set_forced`]).
/// - `KIEBITZ_EVAL=hand|tuned|FILE`: the chess evaluation's weights
///   ([`crate::games::chess::eval::choose_weights`]).
/// - `KIEBITZ_RAEUBER_EVAL=name=value,…`: the Räuberschach evaluation's weights
///   ([`crate::games::raeuber::eval::set_startup_overrides`]).
/// - `KIEBITZ_WEB_DIR=DIR`: where kiebitz-web reads its page ([`crate::web::set_page_dir`]).
/// - `NO_COLOR`: no ANSI colours on the `play` board.
pub fn read_environment() {
    use crate::search::params;
    if let Ok(text) = std::env::var(params::ENV_OVERRIDES)
        && let Err(e) = params::set_startup_overrides(&text)
    {
        eprintln!("warning: {} ignored: {e}", params::ENV_OVERRIDES);
    }
    if let Some(style) = std::env::var("KIEBITZ_PROGRESS")
        .ok()
        .and_then(|name| progress::Style::from_name(&name))
    {
        progress::Style::set_forced(style);
    }
    if let Ok(choice) = std::env::var("KIEBITZ_EVAL") {
        crate::games::chess::eval::choose_weights(&choice);
    }
    {
        use crate::games::raeuber::eval;
        if let Ok(text) = std::env::var(eval::ENV_OVERRIDES)
            && let Err(e) = eval::set_startup_overrides(&text)
        {
            eprintln!("warning: {} ignored: {e}", eval::ENV_OVERRIDES);
        }
    }
    if let Some(dir) = std::env::var_os("KIEBITZ_WEB_DIR") {
        crate::web::set_page_dir(dir.into());
    }
    if std::env::var_os("NO_COLOR").is_some() {
        NO_COLOR.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// [`main`] with arguments an entrance has already looked at (the first is the program name).
pub fn main_with_args<G: Game>(args: &[String], extra: &[Subcommand]) -> i32 {
    main_with_oracle::<G>(args, extra, crate::games::page::builtin::<G>())
}

/// [`main_with_args`] with the oracle every search is handed (`None`: none) instead of the
/// game's built-in one ([`crate::games::page::builtin`]); `kiebitz-crash --db` hands its database.
pub fn main_with_oracle<G: Game>(
    args: &[String],
    extra: &[Subcommand],
    oracle: Option<Oracle<G>>,
) -> i32 {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_timestamp(None)
        .try_init();
    read_environment();
    run::<G>(args, extra, oracle)
}

/// [`main`] with explicit arguments (the first is the program name) and the oracle every
/// search is handed.
pub fn run<G: Game>(args: &[String], extra: &[Subcommand], oracle: Option<Oracle<G>>) -> i32 {
    // Every engine also serves its game to a browser (`web`, docs/web.md).
    let extra = &[
        extra,
        &[(
            "web",
            crate::web::cli::subcommand::<G> as fn(&[String]) -> i32,
        )],
    ]
    .concat();
    if let Some(name) = args.get(1)
        && let Some((_, entry)) = extra.iter().find(|(n, _)| n == name)
    {
        return entry(&args[2..]);
    }
    // `help NAME` for an extra subcommand, as clap offers it for the built-in ones.
    if args.get(1).map(String::as_str) == Some("help")
        && let Some(name) = args.get(2)
        && let Some((_, entry)) = extra.iter().find(|(n, _)| n == name)
    {
        return entry(&["--help".to_string()]);
    }
    let mut command =
        Cli::command().name(Box::leak(format!("kiebitz-{}", G::GAME).into_boxed_str()) as &str);
    if !extra.is_empty() {
        let names: Vec<&str> = extra.iter().map(|(n, _)| *n).collect();
        command = command.after_help(format!(
            "More subcommands: {} (see 'help <name>' or '<name> --help').",
            names.join(", ")
        ));
    }
    let matches = match command.try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return 2;
        }
    };
    // A closed stdout (the reader has gone) ends quietly with 0.
    crate::limits::exit_code(execute::<G>(cli, oracle), "error", 1)
}

/// Runs what the parsed command line asks: a protocol session (stdin or `--listen`) or a
/// built-in subcommand.
fn execute<G: Game>(cli: Cli, oracle: Option<Oracle<G>>) -> Result<(), CliError> {
    match (cli.command, cli.listen) {
        (Some(_), Some(_)) => Err("--listen cannot be combined with a subcommand".into()),
        (None, Some(addr)) => listen::serve::<G>(
            &addr,
            &cli.server.limits(cli.hash as usize),
            oracle.map(AnyOracle::new::<G>),
        ),
        (None, None) => {
            let stdin = io::stdin();
            let config = protocol::SessionConfig {
                hash_mb: cli.hash as usize,
                oracle: oracle.map(AnyOracle::new::<G>),
                ..protocol::SessionConfig::default()
            };
            Ok(protocol::run_session_config::<G, _, _>(
                BufReader::new(stdin.lock()),
                io::stdout(),
                &config,
            )
            .map_err(|e| format!("session failed: {e}"))?)
        }
        (
            Some(Command::Perft {
                depth,
                fen,
                variant,
                divide,
            }),
            None,
        ) => run_perft::<G>(depth, fen.as_deref(), variant.as_deref(), divide),
        (
            Some(Command::Bench {
                depth,
                threads,
                stats,
                options,
            }),
            None,
        ) => set_game_options::<G>(&options)
            .map_err(CliError::from)
            .and_then(|()| {
                run_bench::<G>(
                    depth.unwrap_or(G::BENCH_DEPTH),
                    cli.hash as usize,
                    threads as usize,
                    stats,
                )
            }),
        (
            Some(Command::Suite {
                file,
                nodes,
                variant,
                stats,
            }),
            None,
        ) => run_suite::<G>(&file, nodes, variant.as_deref(), cli.hash as usize, stats),
        (
            Some(Command::Play {
                color,
                tc,
                variant,
                fen,
            }),
            None,
        ) => play::play::<G>(
            &color,
            &tc,
            variant.as_deref(),
            fen.as_deref(),
            cli.hash as usize,
            oracle,
        ),
    }
}

pub use crate::game::start_position;

fn run_perft<G: Game>(
    depth: u32,
    fen: Option<&str>,
    variant: Option<&str>,
    divide: bool,
) -> Result<(), CliError> {
    let pos = start_position::<G>(variant, fen)?;
    let start = Instant::now();
    let moves = crate::protocol::legal_moves(&pos);
    let roots: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    let nodes = perft_by_root(depth, &roots, divide, |i| {
        perft::perft(&pos.play(moves[i]), depth - 1)
    })?;
    perft_summary(nodes, start, divide)
}

/// The count of every engine's `perft` (two- and N-seat): root move by root move (`roots`,
/// `count(i)` the paths below root move `i`), so that a long run shows its progress on
/// stderr and Ctrl-C prints the root moves already counted and their partial total (exit
/// status 130). With `divide`, each root move's count goes to stdout.
fn perft_by_root(
    depth: u32,
    roots: &[String],
    divide: bool,
    mut count: impl FnMut(usize) -> u64,
) -> Result<u64, CliError> {
    if depth > perft::MAX_DEPTH {
        return Err(format!("perft depth must be 0 to {}, not {depth}", perft::MAX_DEPTH).into());
    }
    if depth == 0 {
        return Ok(1);
    }
    let mut progress = Progress::new(&format!("perft {depth}"), roots.len() as u64);
    progress::catch_interrupt();
    let mut total = 0;
    let mut counted = Vec::new();
    progress::set_known(format!(
        "perft {depth}: 0 of {} root moves counted",
        roots.len()
    ));
    for (i, root) in roots.iter().enumerate() {
        progress.set(i as u64, root);
        let n = count(i);
        total += n;
        counted.push(format!("{root}: {n}"));
        progress::set_known(format!(
            "perft {depth}: {} of {} root moves counted\n{}\npartial total: {total}",
            i + 1,
            roots.len(),
            counted.join("\n")
        ));
        if divide {
            progress.suspend(|| crate::limits::out(format_args!("{root}: {n}")))?;
        }
    }
    Ok(total)
}

/// The closing lines of every engine's `perft` (a blank line after a divide): the node count,
/// the time since `start` and the speed.
fn perft_summary(nodes: u64, start: Instant, divide: bool) -> Result<(), CliError> {
    if divide {
        out!("");
    }
    let secs = start.elapsed().as_secs_f64();
    out!("Nodes: {nodes}");
    out!("Time: {secs:.3} s");
    out!("Mnps: {:.1}", nodes as f64 / secs.max(1e-9) / 1e6);
    Ok(())
}

/// Applies `NAME=VALUE` settings of the game's own options ([`Game::options`]), telling on
/// stderr what each one says; the first unknown name or bad value is the error.
pub(crate) fn set_game_options<G: Game>(settings: &[String]) -> Result<(), String> {
    let options = G::options();
    let mut game = G::settings();
    for setting in settings {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("--option {setting:?}: expected NAME=VALUE"))?;
        let option = options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                let names: Vec<_> = options.iter().map(|o| o.name).collect();
                format!(
                    "--option: no option {name:?} (this game has: {})",
                    names.join(", ")
                )
            })?;
        let value = option
            .kind
            .parse(option.name, Some(value))
            .map_err(|e| e.to_string())?;
        if let Some(line) = (option.set)(&mut game, &value)? {
            eprintln!("{line}");
        }
    }
    // A lone command: the settings are the process's.
    G::adopt(&game);
    Ok(())
}

fn run_bench<G: Game>(
    depth: u32,
    hash_mb: usize,
    threads: usize,
    stats: bool,
) -> Result<(), CliError> {
    if depth == 0 {
        return Err("bench depth must be at least 1".into());
    }
    let (nodes, elapsed, counts) = crate::search::bench_threads::<G>(depth, hash_mb, threads);
    if stats {
        for line in counts.to_string().lines() {
            out!("{line}");
        }
    }
    out!("Total time (ms) : {}", elapsed.as_millis());
    out!("Nodes searched  : {nodes}");
    out!("Bench: {nodes} nodes {} nps", protocol::nps(nodes, elapsed));
    Ok(())
}

/// The largest suite file `suite` reads.
const MAX_SUITE_BYTES: u64 = 64 << 20;

fn run_suite<G: Game>(
    file: &std::path::Path,
    nodes: u64,
    variant: Option<&str>,
    hash_mb: usize,
    stats: bool,
) -> Result<(), CliError> {
    let variant = variant.unwrap_or(G::variants()[0]);
    let text = crate::files::read_input_text(&file.display().to_string(), MAX_SUITE_BYTES)?;
    let start = Instant::now();
    let result = suite::run::<G>(variant, &text, nodes, hash_mb, &mut |line| {
        crate::limits::out(format_args!("{line}"))
    })?;
    if stats {
        for line in result.stats.to_string().lines() {
            out!("{line}");
        }
    }
    out!(
        "Solved: {}/{} at {nodes} nodes ({} nodes, {:.1} s)",
        result.solved,
        result.total,
        result.nodes,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
