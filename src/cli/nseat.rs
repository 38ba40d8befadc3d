//! The shell entrance of an N-seat engine (`kiebitz-chamaeleon`): the N-seat protocol on
//! stdin/stdout by default, `perft`, `bench`, `play` in the terminal (a person on any seats,
//! the engine on the others) and the `--listen` server. Depends on `nsearch`,
//! `protocol::nseat` and the shared shell helpers; names no game.

use crate::error::CliError;
use std::io::{self, BufReader, IsTerminal};
use std::time::Instant;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use super::listen;
use crate::board::MoveList;
use crate::nsearch::{Algorithm, Limits, NGame, Options, Searcher};
use crate::perft;
use crate::protocol::nseat::{run_session, values_text};
use crate::protocol::{DEFAULT_HASH_MB, SessionConfig, nps};

#[derive(Parser, Debug)]
#[command(
    version,
    about = "Without a subcommand: reads the N-seat protocol on stdin (see docs/usage.md)."
)]
struct Cli {
    /// Serve protocol sessions over TCP: ADDR is HOST:PORT or a port (127.0.0.1 then).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
    listen: Option<String>,
    /// The server's limits, as for every engine.
    #[command(flatten)]
    server: listen::ServerArgs,
    /// Transposition-table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB as u64,
          value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the move paths of DEPTH turns (passes count): counts, time and Mnps.
    Perft {
        depth: u32,
        /// Players at the start (ignored with --fen, whose seats decide).
        #[arg(long, default_value_t = 4)]
        players: usize,
        /// Start from this position text.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move first.
        #[arg(long)]
        divide: bool,
    },
    /// Search fixed positions to a fixed depth; the last line is `Bench: N nodes M nps`.
    Bench {
        /// Search depth.
        #[arg(default_value_t = 4)]
        depth: u32,
        /// The algorithm to bench (default: every one in turn).
        #[arg(long)]
        algorithm: Option<String>,
    },
    /// Play in the terminal: you take the seats named by --seats, the engine the others.
    Play {
        #[arg(long, default_value_t = 4)]
        players: usize,
        /// Your seats by letter, e.g. `s` or `s,n` (none: watch the engine play itself).
        #[arg(long, default_value = "s")]
        seats: String,
        /// Engine seconds per move.
        #[arg(long, default_value = "1")]
        tc: f64,
        /// The engine's search.
        #[arg(long, default_value = "paranoid")]
        algorithm: String,
        /// Start from this position text.
        #[arg(long)]
        fen: Option<String>,
        /// No ANSI colours (also when NO_COLOR is set or the output is not a terminal).
        #[arg(long)]
        plain: bool,
    },
}

/// Runs the N-seat engine binary for game `G`; returns the process exit code.
pub fn main<G: NGame>() -> i32 {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_timestamp(None)
        .try_init();
    let args = match super::args() {
        Ok(a) => a,
        Err(code) => return code,
    };
    if args.get(1).map(String::as_str) == Some("web") {
        return crate::web::cli::subcommand_for(G::GAME, &args[2..]);
    }
    let command =
        Cli::command().name(Box::leak(format!("kiebitz-{}", G::GAME).into_boxed_str()) as &str);
    let cli = match command
        .try_get_matches_from(&args)
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let hash = cli.hash as usize;
    let result = match (cli.command, cli.listen) {
        (Some(_), Some(_)) => Err("--listen cannot be combined with a subcommand".into()),
        (None, Some(addr)) => {
            listen::serve_with(&addr, &cli.server.limits(hash), None, |r, w, config| {
                run_session::<G, _, _>(r, w, config)
            })
        }
        (None, None) => run_session::<G, _, _>(
            BufReader::new(io::stdin().lock()),
            io::stdout(),
            &SessionConfig {
                hash_mb: hash,
                ..SessionConfig::default()
            },
        )
        .map_err(|e| CliError::Failed(format!("session failed: {e}"))),
        (
            Some(Command::Perft {
                depth,
                players,
                fen,
                divide,
            }),
            None,
        ) => run_perft::<G>(depth, players, fen.as_deref(), divide),
        (Some(Command::Bench { depth, algorithm }), None) => {
            run_bench::<G>(depth, algorithm.as_deref(), hash)
        }
        (
            Some(Command::Play {
                players,
                seats,
                tc,
                algorithm,
                fen,
                plain,
            }),
            None,
        ) => play::<G>(players, &seats, tc, &algorithm, fen.as_deref(), plain, hash),
    };
    crate::limits::exit_code(result, "error", 1)
}

/// The position of `--fen`, else the start for `players`: a typed [`crate::Error`].
fn start<G: NGame>(players: usize, fen: Option<&str>) -> Result<G, crate::Error> {
    match fen {
        Some(f) => {
            G::from_text(f).map_err(|e| crate::Error::Position(format!("bad position '{f}': {e}")))
        }
        None => G::startpos(players),
    }
}

fn run_perft<G: NGame>(
    depth: u32,
    players: usize,
    fen: Option<&str>,
    divide: bool,
) -> Result<(), CliError> {
    let pos = start::<G>(players, fen)?;
    let t = Instant::now();
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let roots: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    // Root move by root move, as every engine's perft: progress, and Ctrl-C's partial count.
    let nodes = super::perft_by_root(depth, &roots, divide, |i| {
        perft::nperft(&pos.play(moves[i]), depth - 1)
    })?;
    super::perft_summary(nodes, t, divide)
}

fn run_bench<G: NGame>(depth: u32, algorithm: Option<&str>, hash: usize) -> Result<(), CliError> {
    if depth == 0 {
        return Err("bench depth must be at least 1".into());
    }
    let algorithms = match algorithm {
        Some(a) => vec![Algorithm::parse(a)?],
        None => Algorithm::ALL.to_vec(),
    };
    let t = Instant::now();
    let mut total = 0;
    for a in algorithms {
        let mut nodes = 0;
        let ta = Instant::now();
        for pos in G::bench_positions() {
            let mut s = Searcher::<G>::new(
                Options {
                    algorithm: a,
                    ..Options::default()
                },
                hash,
            );
            let r = s.search(
                &pos,
                Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
                |_| {},
            );
            nodes += r.nodes;
        }
        out!(
            "{:<9} {nodes:>10} nodes {:>9} nps",
            a.name(),
            nps(nodes, ta.elapsed())
        );
        total += nodes;
    }
    let elapsed = t.elapsed();
    out!("Total time (ms) : {}", elapsed.as_millis());
    out!("Nodes searched  : {total}");
    out!("Bench: {total} nodes {} nps", nps(total, elapsed));
    Ok(())
}

/// The seats a person takes: letters separated by commas (`s,n`), or `none`.
fn parse_seats<G: NGame>(pos: &G, text: &str) -> Result<Vec<usize>, CliError> {
    if text == "none" || text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|t| {
            let t = t.trim();
            (0..pos.seats())
                .find(|&s| {
                    t.len() == 1 && t.starts_with(G::seat_letter(s))
                        || G::seat_name(s).eq_ignore_ascii_case(t)
                })
                .filter(|&s| pos.plays(s))
                .ok_or_else(|| CliError::from(format!("'{t}' is not a seat of this game")))
        })
        .collect()
}

/// The result line: `Result: South win, North loss {reason}`.
fn result_line<G: NGame>(pos: &G) -> Option<String> {
    let r = pos.outcome()?;
    let seats: Vec<String> = (0..pos.seats())
        .filter(|&s| pos.plays(s))
        .map(|s| format!("{} {}", G::seat_name(s), r[s].word()))
        .collect();
    let alive = (0..pos.seats()).filter(|&s| pos.in_game(s)).count();
    let reason = if alive <= 1 {
        "the last player with pieces wins"
    } else {
        "turn limit reached"
    };
    Some(format!("Result: {} {{{reason}}}", seats.join(", ")))
}

fn play<G: NGame>(
    players: usize,
    seats: &str,
    tc: f64,
    algorithm: &str,
    fen: Option<&str>,
    plain: bool,
    hash: usize,
) -> Result<(), CliError> {
    let mut pos = start::<G>(players, fen)?;
    let human = parse_seats(&pos, seats)?;
    let algorithm = Algorithm::parse(algorithm)?;
    if tc <= 0.0 {
        return Err(format!("--tc must be a positive number of seconds, got {tc}").into());
    }
    // Also refuses NaN and times a `Duration` cannot hold (`--tc 1e20`).
    let per_move = crate::limits::seconds("--tc", tc)?;
    let ansi = !plain && !super::no_color() && io::stdout().is_terminal();
    let mut searcher = Searcher::<G>::new(
        Options {
            algorithm,
            ..Options::default()
        },
        hash,
    );
    let names = |v: &[usize]| {
        v.iter()
            .map(|&s| G::seat_name(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let engine: Vec<usize> = (0..pos.seats())
        .filter(|&s| pos.plays(s) && !human.contains(&s))
        .collect();
    out!(
        "kiebitz-{}: you play {}; the engine ({}, {tc} s a move) plays {}.",
        G::GAME,
        if human.is_empty() {
            "no seat".to_string()
        } else {
            names(&human)
        },
        algorithm.name(),
        names(&engine)
    );
    out!("Type a move like a1b3, 'moves' for the list, 'quit' to leave.");
    // Lines are bounded ([`crate::protocol::MAX_LINE`]): a never-ending input costs no memory.
    let mut lines = crate::protocol::LineReader::new(io::stdin().lock());
    let mut shown = true;
    loop {
        let seat = pos.to_move();
        // The board is drawn when a person is to move, and at the end.
        if shown && (human.contains(&seat) || pos.outcome().is_some()) {
            out!("{}", pos.pretty(ansi));
            shown = false;
        }
        if let Some(r) = result_line(&pos) {
            out!("{r}");
            return Ok(());
        }
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        let legal_text = || {
            legal
                .iter()
                .map(|&m| pos.move_text(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if human.contains(&seat) {
            if legal.len() == 1 && legal[0].is_null() {
                out!("{} has no move and passes.", G::seat_name(seat));
                pos = pos.play(legal[0]);
                shown = true;
                continue;
            }
            crate::limits::prompt(format_args!("{} to move> ", G::seat_name(seat)))?;
            let line = match lines.next_line() {
                None => {
                    out!("");
                    return Ok(());
                }
                Some(Err(long)) => {
                    out!("The {long}");
                    continue;
                }
                Some(Ok(line)) => line,
            };
            let text = line.trim();
            match text {
                "" => continue,
                "quit" | "exit" => return Ok(()),
                "moves" => out!("Legal: {}", legal_text()),
                _ => match pos.parse_move(text) {
                    Ok(m) => {
                        pos = pos.play(m);
                        shown = true;
                    }
                    Err(e) => out!("Illegal move: {text}: {e}. Legal: {}", legal_text()),
                },
            }
        } else {
            pos = pos.play(engine_move(&mut searcher, &pos, per_move, &legal)?);
            shown = true;
        }
    }
}

/// The engine's move for the seat to move in `pos` (a legal one even if the search found
/// none), with a line saying it.
fn engine_move<G: NGame>(
    searcher: &mut Searcher<G>,
    pos: &G,
    per_move: std::time::Duration,
    legal: &MoveList,
) -> Result<crate::board::Move, CliError> {
    let r = searcher.search(
        pos,
        Limits {
            time: Some(per_move),
            ..Limits::default()
        },
        |_| {},
    );
    let m = if legal.contains(&r.best) {
        r.best
    } else {
        legal[0]
    };
    out!(
        "Engine plays {} for {} (depth {}, {})",
        pos.move_text(m),
        G::seat_name(pos.to_move()),
        r.depth,
        values_text(pos, &r.values)
    );
    Ok(m)
}
