//! The proof-number oracle of the losing-chess games (Räuberschach, antichess): proof-number
//! search ([`crate::solve::pns`]) for a forced win, handed to the search by the family's page
//! (`games::losing::page`, served by `crate::games::page::builtin`) so that it runs before
//! alpha-beta on every move where the game's `Solver Share` is not 0 (docs/raeuber.md,
//! "Proof-number search").

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::board::Move;
use crate::game::Game;
use crate::solve::pns::{self, Budget};

/// The solver's table inside the engine, in MiB (kept from move to move, touched as used).
const SOLVER_HASH_MB: usize = 32;

/// The search offers its oracle a tenth of the move's planned time; proof-number search is
/// what finds these games' long forced wins, so the oracle takes this many times that (30 %);
/// alpha-beta gets what is left when nothing is proven.
const BUDGET_FACTOR: u32 = 3;

/// A forced win for the side to move, proven by df-pn and its proof checked: the winning move,
/// scored `MATE - plies` with `plies` the proof's longest line (an upper bound on the mate
/// distance). Losses and unproven positions are left to alpha-beta (`None`), which resists as
/// long as it sees. The game's history is not known here: repetitions are judged within the
/// proof's lines only.
pub fn oracle<G: Game>(pos: &G, budget: Duration, stop: &AtomicBool) -> Option<(Move, i32)> {
    let budget = Budget {
        time: Some(budget * BUDGET_FACTOR),
        nodes: None,
    };
    let (mv, plies) = pns::find_win(pos, &[], budget, SOLVER_HASH_MB, Some(stop))?;
    Some((mv, crate::search::MATE - plies as i32))
}
