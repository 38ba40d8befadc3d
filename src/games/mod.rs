//! The games: each implements [`crate::game::Game`] in a few game-specific files under
//! `src/games/<game>/`, and is registered by ONE line in the [`registry!`] below, which declares
//! its module and the names `kiebitz-match --game` accepts. Everything that must pick a game
//! by name at run time (the tournament runner, the tests) goes through [`with_game`] and
//! [`NAMES`]; nothing else in the crate names a game. A game also needs its entrance in
//! `engines/kiebitz-<game>.rs` and a `[[bin]]` in Cargo.toml.
//!
//! - [`pawns`]: pawn chess on W×H boards with optional double step and en passant.
//! - [`raeuber`]: Räuberschach 6×6, losing chess with forced capture.
//! - [`chess`]: standard chess.
//! - [`chamaeleon`]: Chamäleon Schach for 2–4 players (an [`crate::nsearch::NGame`]).
//! - [`crash`]: CRASH!, towers of stones on a row of cells, with exhaustive databases.
//!
//! Depends on the rooms below it only (`board`, `game`, `search` with its `params`, `nsearch`; see
//! docs/architecture.md), never on the protocol, the CLI, the tournament or the books.

use crate::game::Game;

/// Chamäleon Schach is an N-player game ([`crate::nsearch::NGame`]), not a two-player
/// [`Game`], so it stands outside the two-player registry below.
pub mod chamaeleon;

/// A generic job to run on the game a name stands for ([`with_game`]): Rust has no generic
/// closures, so the job is a value whose `run::<G>` is called with the game's type.
pub trait ForGame {
    type Output;
    fn run<G: Game>(self) -> Self::Output;
}

/// Declares every game's module and builds [`NAMES`] and [`with_game`] from one list.
macro_rules! registry {
    ($($module:ident :: $game:ident [$first:literal $(, $alias:literal)*];)*) => {
        $(pub mod $module;)*

        /// The name of every registered game, as `kiebitz-match --game` takes it.
        pub const NAMES: &[&str] = &[$($first),*];

        /// Runs `job` for the game called `name` (its name or an alias); `None` for an
        /// unknown name.
        pub fn with_game<F: ForGame>(name: &str, job: F) -> Option<F::Output> {
            match name {
                $($first $(| $alias)* => Some(job.run::<$module::$game>()),)*
                _ => None,
            }
        }
    };
}

registry! {
    // ADD A GAME HERE: module (the folder) :: type [names for --game].
    pawns::Pawns ["pawns"];
    chess::Chess ["chess"];
    raeuber::Raeuber ["raeuberschach", "raeuber"];
    crash::Crash ["crash"];
}
