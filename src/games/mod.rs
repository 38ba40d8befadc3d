//! The games: each implements [`crate::game::Game`] (two seats, White and Black) or
//! [`crate::nsearch::NGame`] (a range of seats, e.g. 2–4) in a few game-specific files under
//! `src/games/<game>/`, and is registered by ONE line in the [`registry!`] below, which declares
//! its seating, its module and the names `kiebitz-match --game` accepts. Everything that must pick a game
//! by name at run time (the tournament runner, the web server, the tests) goes through
//! [`with_game`], [`seats`], [`page_of`], [`NAMES`] and [`BINARIES`]; nothing else in the crate
//! names a game. A game also needs its entrance in `engines/kiebitz-<module>.rs` and a `[[bin]]`
//! in Cargo.toml, and its `page.rs`: what the web page and the engines need of it beyond its
//! rules ([`page::Page`]: title, searches, board, the page's solver, and the solvers its engine
//! comes with, [`page::builtin`] and [`page::acyclic`]), which the registry line hands out
//! through [`page_of`].
//!
//! - [`pawns`]: pawn chess on W×H boards with optional double step and en passant.
//! - [`losing`]: the losing-chess family's one engine, generic over its board.
//! - [`raeuber`]: Räuberschach 6×6, losing chess with forced capture (the family on 6×6).
//! - [`antichess`]: antichess (losing chess) on 8×8 as lichess plays it (the family on 8×8).
//! - [`chess`]: standard chess.
//! - [`chamaeleon`]: Chamäleon Schach for 2–4 players (an [`crate::nsearch::NGame`]).
//! - [`crash`]: CRASH!, towers of stones on a row of cells, with exhaustive databases.
//!
//! Depends on the rooms below it only (`board`, `game`, `search` with its `params`, `nsearch`; see
//! docs/architecture.md), never on the protocol, the CLI, the tournament or the books.

use crate::game::Game;
use crate::nsearch::NGame;

pub mod losing;
pub mod page;

/// How many seats a game has ([`seats`]): two (a [`Game`]: White and Black) or a range of
/// player counts (an [`NGame`], e.g. Chamäleon Schach for 2–4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seats {
    pub min: usize,
    pub max: usize,
}

impl Seats {
    /// The two seats of a [`Game`].
    pub const TWO: Seats = Seats { min: 2, max: 2 };

    /// Whether this is a two-player game with colours ([`Game`]), not an [`NGame`].
    pub fn is_two(self) -> bool {
        self == Seats::TWO
    }
}

/// A generic job to run on the game a name stands for ([`with_game`]): Rust has no generic
/// closures, so the job is a value whose `run::<G>` (two seats, a [`Game`]) or
/// `run_seats::<G>` (2–N seats, an [`NGame`]) is called with the game's type.
pub trait ForGame: Sized {
    type Output;
    fn run<G: Game>(self) -> Self::Output;
    /// The job for an N-seat game; `None` (the default) where the job has no N-seat form,
    /// which [`with_game`] reports as `None` like an unknown name.
    fn run_seats<G: NGame>(self) -> Option<Self::Output> {
        None
    }
}

/// Calls the job's entry for the game's seating (`two` or `seats`, from the registry line).
macro_rules! call_job {
    (two, $job:expr, $ty:ty) => {
        Some($job.run::<$ty>())
    };
    (seats, $job:expr, $ty:ty) => {
        $job.run_seats::<$ty>()
    };
}

/// The [`Seats`] of a registry line's seating.
macro_rules! seats_of {
    (two, $ty:ty) => {
        Seats::TWO
    };
    (seats, $ty:ty) => {
        Seats {
            min: <$ty as NGame>::PLAYERS.0,
            max: <$ty as NGame>::PLAYERS.1,
        }
    };
}

/// Declares every game's module and builds [`NAMES`], [`BINARIES`], [`seats`], [`page_of`] and
/// [`with_game`] from one list.
macro_rules! registry {
    ($($seating:ident $module:ident :: $game:ident [$first:literal $(, $alias:literal)*];)*) => {
        $(pub mod $module;)*

        /// The name of every registered game, as `kiebitz-match --game` takes it.
        pub const NAMES: &[&str] = &[$($first),*];

        /// The engine binary of every registered game, in the order of [`NAMES`]:
        /// `kiebitz-<module>` (`engines/kiebitz-<module>.rs` and its `[[bin]]` in Cargo.toml).
        pub const BINARIES: &[&str] = &[$(concat!("kiebitz-", stringify!($module))),*];

        /// The name a game is registered under, for its name or an alias; `None` for an
        /// unknown name.
        pub fn canonical(name: &str) -> Option<&'static str> {
            match name {
                $($first $(| $alias)* => Some($first),)*
                _ => None,
            }
        }

        /// How many seats the game called `name` has; `None` for an unknown name.
        pub fn seats(name: &str) -> Option<Seats> {
            match name {
                $($first $(| $alias)* => Some(seats_of!($seating, $module::$game)),)*
                _ => None,
            }
        }

        /// What the web page needs of the game called `name` (its `page.rs`, see [`page`]);
        /// `None` for an unknown name.
        pub fn page_of(name: &str) -> Option<&'static dyn page::Page> {
            match name {
                $($first $(| $alias)* => Some(&$module::page::OnPage),)*
                _ => None,
            }
        }

        /// Runs `job` for the game called `name` (its name or an alias); `None` for an
        /// unknown name, or an N-seat game where the job has no N-seat form.
        pub fn with_game<F: ForGame>(name: &str, job: F) -> Option<F::Output> {
            match name {
                $($first $(| $alias)* => call_job!($seating, job, $module::$game),)*
                _ => None,
            }
        }
    };
}

registry! {
    // ADD A GAME HERE: seating (`two` for a Game, `seats` for an NGame),
    // module (the folder; its binary is `kiebitz-<module>`) :: type [names for --game].
    two pawns::Pawns ["pawns"];
    two chess::Chess ["chess"];
    two raeuber::Raeuber ["raeuberschach", "raeuber"];
    two antichess::Antichess ["antichess"];
    two crash::Crash ["crash"];
    seats chamaeleon::Chamaeleon ["chamaeleon", "chamäleon"];
}
