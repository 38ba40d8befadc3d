//! kiebitz: a family of chess-variant engines sharing one core.
//!
//! - [`board`]: squares, bitboards, colours and moves for boards up to 8×8, and FEN fields.
//! - [`book`]: opening books in the Polyglot `.bin` format (read, built from PGN, played).
//! - [`engine_option`]: an engine option's type and value, shared by the protocol dialects,
//!   and the options a game declares of its own.
//! - [`error`]: [`Error`], the typed error of the library's edges (positions, moves, PGN,
//!   proofs, settings, files).
//! - [`game`]: the [`game::Game`] trait, all the core knows of a game.
//! - [`ngame`]: the [`ngame::NGame`] trait, the same for games of two or more seats.
//! - [`games`]: the games — standard chess, Räuberschach 6×6, pawn chess W×H.
//! - [`files`]: every file read (regular files only, size bounded, no blocking open) and
//!   written (whole or not at all, through links, never over a device or FIFO).
//! - [`limits`]: bounded durations and numbers from the command line, a stdout that may fail.
//! - [`perft`]: move-path counting and divide, for every game.
//! - [`pgn`]: PGN games read in (tags, moves as written, result), for every game.
//! - [`rng`]: SplitMix64, the one random generator of openings, books and strength levels.
//! - [`progress`]: progress bars on stderr and what Ctrl-C prints in long shell commands.
//! - [`san`]: standard algebraic notation (PGN moves), written and read for every game.
//! - [`search`]: iterative-deepening alpha-beta with a transposition table and time control;
//!   its parameters ([`search_params`], also `search::params`: switches, margins, score scale)
//!   depend on nothing, so the `Game` trait and the games name them.
//! - [`nsearch`]: N-player search (MaxN, MaxN-IS, Paranoid, Hypermax, Best-Reply) over the
//!   [`nsearch::NGame`] trait, for games of two or more seats.
//! - [`protocol`]: the engine loop speaking UCI or XBoard/CECP v2, over any stream.
//! - [`cli`]: the shell entrance shared by every engine binary (perft, bench, play, listen).
//! - [`solve`]: the solvers in one room: proof-number search and its checked proofs, pawn
//!   chess's graph analysis, CRASH!'s databases, and the oracle each game's search is handed.
//! - [`text`]: client text quoted in messages (cut, control characters hidden).
//! - [`texel`]: Texel tuning shared by the games (labelled positions, logistic fit, Adam).
//! - [`tournament`]: kiebitz-match, engine-vs-engine tournaments.
//! - [`web`]: `kiebitz-web`, every game in the browser over a JSON API.

pub mod board;
pub mod book;
pub mod checksum;
pub mod cli;
pub mod engine_option;
pub mod error;
pub mod files;
pub mod game;
pub mod games;
pub mod limits;
pub mod memory;
pub mod ngame;
pub mod nnue;
pub mod nsearch;
pub mod perft;
pub mod pgn;
pub mod progress;
pub mod protocol;
pub mod rng;
pub mod san;
pub mod search;
pub mod search_params;
pub mod solve;
pub mod table_error;
pub mod texel;
pub mod text;
pub mod tournament;
pub mod web;

pub use error::{CliError, Error, FileError};
pub use table_error::{SyzygyFileError, TableError};
