//! Oracles: perfect answers (a solved game, a database) the search is handed instead of
//! reaching into a game's solver itself. A game's entrance (`engines/kiebitz-<game>.rs`)
//! installs its oracle once with [`install`]; every [`super::Searcher`] created afterwards for
//! that game asks it first (see [`super::Searcher::set_use_solver`]). Depends on `game` only.

use std::any::{Any, TypeId};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use crate::board::Move;
use crate::game::Game;

/// A perfect answer for a position, if one can be had within the time budget: the best move
/// and its exact score for the side to move (`MATE - n` for a win in n plies, `-(MATE - n)`
/// for a loss in n plies, 0 for a draw; [`crate::search::params::MATE`]). It must give up soon after
/// the flag it is handed (the search's `stop`) is set.
pub type Oracle<G> = Arc<dyn Fn(&G, Duration, &AtomicBool) -> Option<(Move, i32)> + Send + Sync>;

type Entry = (TypeId, Box<dyn Any + Send + Sync>);

static ORACLES: RwLock<Vec<Entry>> = RwLock::new(Vec::new());

/// Installs `oracle` for game `G`, replacing any earlier one.
pub fn install<G: Game>(oracle: Oracle<G>) {
    let mut all = ORACLES.write().unwrap_or_else(|e| e.into_inner());
    all.retain(|(t, _)| *t != TypeId::of::<G>());
    all.push((TypeId::of::<G>(), Box::new(oracle)));
}

/// The oracle installed for game `G`, if any.
pub fn installed<G: Game>() -> Option<Oracle<G>> {
    let all = ORACLES.read().unwrap_or_else(|e| e.into_inner());
    all.iter()
        .find(|(t, _)| *t == TypeId::of::<G>())
        .and_then(|(_, o)| o.downcast_ref::<Oracle<G>>().cloned())
}
