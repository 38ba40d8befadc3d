//! CRASH!'s solvers (docs/rules.md §9): the exhaustive databases of perfect play and the column's
//! theorems checked against them, with their commands.
//!
//! - [`db`]: the databases (value and distance of every position with at most n stones a side
//!   on m cells), their file format and the oracle that plays from them;
//! - [`theorems`]: the column's parity statements checked against a database;
//! - [`cli`]: `kiebitz-crash analyze`, `theorems`, and the `--db`/`--start` options.
//!
//! Depends on the game ([`crate::games::crash`]), `board`, `game` and `search::params`.

pub mod cli;
pub mod db;
pub mod theorems;
