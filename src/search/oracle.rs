//! Oracles: the interface through which the search is handed perfect answers (a solved game,
//! a database) instead of reaching into a solver itself. The search only calls an [`Oracle`];
//! which oracle a searcher has is decided by whoever builds it ([`super::Searcher::set_oracle`]):
//! the engine's entrance and the protocol session, the web and the match runner's opening
//! filter take the game's built-in one from `crate::games::page::builtin`, `kiebitz-crash --db` hands
//! its database. There is no global registry. Depends on `game` only.

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::board::Move;
use crate::game::Game;

/// A perfect answer for a position, if one can be had within the time budget: the best move
/// and its exact score for the side to move (`MATE - n` for a win in n plies, `-(MATE - n)`
/// for a loss in n plies, 0 for a draw; [`crate::search::params::MATE`]). It must give up soon after
/// the flag it is handed (the search's `stop`) is set.
pub type Oracle<G> = Arc<dyn Fn(&G, Duration, &AtomicBool) -> Option<(Move, i32)> + Send + Sync>;

/// An [`Oracle`] of some game, its type erased, for settings shared by every game (a
/// protocol session's configuration); [`for_game`] gives it back typed.
#[derive(Clone)]
pub struct AnyOracle(Arc<dyn Any + Send + Sync>);

impl AnyOracle {
    /// Wraps the oracle of game `G`.
    pub fn new<G: Game>(oracle: Oracle<G>) -> Self {
        AnyOracle(Arc::new(oracle))
    }
}

impl std::fmt::Debug for AnyOracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AnyOracle")
    }
}

/// The oracle in `any` if it is one of game `G`.
pub fn for_game<G: Game>(any: Option<&AnyOracle>) -> Option<Oracle<G>> {
    any?.0.downcast_ref::<Oracle<G>>().cloned()
}
