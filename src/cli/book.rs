//! The `book` subcommand of engines whose game has opening books ([`crate::book`]):
//! `book build --pgn FILE --out FILE.bin [--max-ply N] [--min-games N]` counts the moves of
//! PGN games into a Polyglot book; `book show FILE.bin [--variant V] [--fen FEN]` lists a
//! position's book moves with their weights and shares.

use crate::error::CliError;
use clap::{Parser, Subcommand};

use crate::book::build::{BuildOptions, build};
use crate::book::{Book, move_text};
use crate::game::Game;

/// The largest PGN file `book build` reads.
pub const MAX_PGN_BYTES: u64 = 256 << 20;

#[derive(Parser, Debug)]
#[command(about = "Polyglot opening books (.bin): build one from PGN games, show its moves")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the moves of PGN games into a book: 2 points a win, 1 a draw for the side that
    /// played the move; moves of fewer than --min-games games or without a point are left
    /// out.
    Build {
        /// The games (SAN or coordinate moves; FEN and Variant tags are followed).
        #[arg(long, value_name = "FILE")]
        pgn: String,
        /// The book file to write.
        #[arg(long, value_name = "FILE.bin")]
        out: String,
        /// Moves counted from each game's start.
        #[arg(long, value_name = "N", default_value_t = 30,
              value_parser = clap::value_parser!(u32).range(1..=1000))]
        max_ply: u32,
        /// The fewest games a move must have been played in.
        #[arg(long, value_name = "N", default_value_t = 3,
              value_parser = clap::value_parser!(u32).range(1..))]
        min_games: u32,
    },
    /// List the book moves of a position: move, weight, share.
    Show {
        /// The book file.
        book: String,
        /// Rules of the position (default: the engine's first variant).
        #[arg(long)]
        variant: Option<String>,
        /// The position (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
    },
}

/// `kiebitz-GAME book …` with the arguments after `book`; the exit code.
pub fn main<G: Game>(args: &[String]) -> i32 {
    let name = format!("kiebitz-{} book", G::GAME);
    let args: Args = match crate::limits::parse_args(&name, args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if !crate::book::supported::<G>() {
        eprintln!("error: kiebitz-{} has no opening books", G::GAME);
        return 2;
    }
    let result = match args.command {
        Command::Build {
            pgn,
            out,
            max_ply,
            min_games,
        } => run_build::<G>(&pgn, &out, BuildOptions { max_ply, min_games }),
        Command::Show { book, variant, fen } => {
            run_show::<G>(&book, variant.as_deref(), fen.as_deref())
        }
    };
    crate::limits::exit_code(result, "error", 1)
}

fn run_build<G: Game>(pgn: &str, out: &str, options: BuildOptions) -> Result<(), CliError> {
    let text = crate::files::read_input_text(pgn, MAX_PGN_BYTES)?;
    let games = crate::tournament::pgn::parse(&text).map_err(|e| format!("{pgn}: {e}"))?;
    if games.is_empty() {
        return Err(format!("{pgn} holds no games").into());
    }
    let built = build::<G>(&games, options).map_err(|e| format!("{pgn}: {e}"))?;
    for w in &built.warnings {
        eprintln!("warning: {pgn}: {w}");
    }
    built.book.save(out)?;
    let positions = {
        let mut keys: Vec<u64> = built.book.entries().iter().map(|e| e.key).collect();
        keys.dedup();
        keys.len()
    };
    crate::limits::out(format_args!(
        "{out}: {} entries, {positions} positions, from {} of {} games ({} moves counted, \
         {} different; max ply {}, min games {})",
        built.book.entries().len(),
        built.games,
        games.len(),
        built.plies,
        built.pairs,
        options.max_ply,
        options.min_games
    ))
}

fn run_show<G: Game>(path: &str, variant: Option<&str>, fen: Option<&str>) -> Result<(), CliError> {
    let book = Book::open(path)?;
    let pos = super::start_position::<G>(variant, fen)?;
    let key = pos.book_key().unwrap_or_default();
    let moves = book.moves(&pos);
    let total: u64 = moves.iter().map(|&(_, w)| w as u64).sum();
    crate::limits::out(format_args!("key {key:016x}: {} book moves", moves.len()))?;
    for (mv, weight) in &moves {
        crate::limits::out(format_args!(
            "{} {weight} {:.1}%",
            pos.move_text(*mv),
            100.0 * *weight as f64 / total.max(1) as f64
        ))?;
    }
    // Entries that are no legal move here are named, so that a wrong book is seen.
    for e in book.lookup(key) {
        if !moves.iter().any(|&(mv, _)| pos.book_move(mv) == e.mv) && e.weight > 0 {
            crate::limits::out(format_args!(
                "{} {} (not a legal move here: ignored)",
                move_text(e.mv),
                e.weight
            ))?;
        }
    }
    Ok(())
}
