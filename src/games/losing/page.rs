//! The family on the web page ([`crate::games::page::Page`]), once for both boards: a grid
//! board, its names from the member's [`Variant`], why a move is refused (a capture is
//! forced), and — where the member says so ([`PageText::solves`](super::members::PageText::solves)) — the solved value of a
//! position: from the endgame tables where they are on and hold the position (the exact
//! distance), else by proof-number search ([`crate::solve::pns::try_solve`], the tables as its
//! leaves) within the budget of the server's [`Solvers`]: a win or a loss only with a proof
//! that [`crate::solve::proof::check`] accepted.
//!
//! Depends on `game`, `solve` (`pns`), `games::page` and the family.

use std::any::Any;
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;

use serde_json::{Value, json};

use super::game::Variant;
use super::position::Position;
use super::tables::session::Member;
use crate::game::Game;
use crate::games::page::{self, SolveJob, Solvers, solved_json};

/// A member of the family as the page shows it (each game's `page::OnPage`), with the
/// member's rules text (its `rules.md`).
pub struct OnPage<V> {
    rules: &'static str,
    variant: PhantomData<V>,
}

impl<V> OnPage<V> {
    pub const fn new(rules: &'static str) -> Self {
        OnPage {
            rules,
            variant: PhantomData,
        }
    }
}

impl<V: Variant> page::Page for OnPage<V>
where
    Position<V>: Game,
{
    fn id(&self) -> &'static str {
        V::PROFILE.game
    }
    fn title(&self) -> &'static str {
        V::PROFILE.page.title
    }
    fn about(&self) -> &'static str {
        V::PROFILE.page.about
    }
    fn rules(&self) -> &'static str {
        self.rules
    }
    fn legal_note(&self, pos: &dyn Any) -> Option<String> {
        let p = pos.downcast_ref::<Position<V>>()?;
        p.has_capture().then(|| "a capture is forced".to_string())
    }
    fn variant_title(&self, _variant: &str) -> String {
        V::PROFILE.page.variant.into()
    }
    /// Both members play a forced win df-pn proves (`solve::pns_oracle`).
    fn engine_solvers(&self) -> page::EngineSolvers {
        let oracle = crate::solve::pns_oracle::oracle::<Position<V>>;
        page::EngineSolvers::of::<Position<V>>(Some(std::sync::Arc::new(oracle)), None)
    }
    fn solve_job(
        &self,
        pos: &dyn Any,
        fen: &str,
        history: &[u64],
        solvers: &Solvers,
    ) -> Option<(String, SolveJob)> {
        if !V::PROFILE.page.solves {
            return None;
        }
        let p = pos.downcast_ref::<Position<V>>()?.clone();
        // Repetitions reach back to the last irreversible move (the FEN's halfmove clock):
        // those positions belong to the key, as they may change the answer.
        let clock: usize = fen
            .split_whitespace()
            .nth(4)
            .map_or(history.len(), |c| c.parse().unwrap_or(history.len()));
        let recent = history[history.len().saturating_sub(clock)..].to_vec();
        let key = format!(" {recent:x?}");
        let solvers = solvers.clone();
        let job = move |stop: &AtomicBool| family_solved(&p, &recent, &solvers, stop);
        Some((key, Box::new(job)))
    }
}

/// A member of the family solved (see the module's text). The distance stays `null` where a proof
/// gives the value (a proof bounds the game's length, `within` plies, but is not the
/// shortest win); `history` holds the earlier positions' hashes since the last irreversible
/// move, so that repetitions count as draws.
pub fn family_solved<V: Variant>(
    pos: &Position<V>,
    history: &[u64],
    solvers: &Solvers,
    stop: &AtomicBool,
) -> Value
where
    Position<V>: Game,
{
    use crate::solve::pns::{self, Budget, Verdict};
    if let Some((end, plies)) = pos.solved() {
        let value = match end {
            crate::game::Terminal::Win => 1,
            crate::game::Terminal::Loss => -1,
            crate::game::Terminal::Draw => 0,
        };
        let limit = <V::Tables as Member>::process().limit();
        let source = format!("endgame tables (up to {limit} pieces)");
        return solved_json(
            value,
            (value != 0).then_some(plies as i32),
            pos.side_to_move(),
            &source,
        );
    }
    let budget = Budget {
        time: Some(solvers.raeuber_time),
        nodes: None,
    };
    let seconds = solvers.raeuber_time.as_secs_f64();
    let solution = match pns::try_solve(pos, history, budget, solvers.raeuber_table_mb, Some(stop))
    {
        Ok(s) => s,
        Err(e) => return json!({ "unknown": format!("the solver cannot start: {e}") }),
    };
    let value = match solution.verdict {
        Verdict::Win => 1,
        Verdict::Loss => -1,
        Verdict::Draw => 0,
        Verdict::Unknown => {
            return json!({ "unknown": format!("not proven within {seconds} s") });
        }
    };
    let holds: usize = solution.holds.iter().map(|(_, c)| c.positions).sum();
    let Some(checked) = solution.checked.or(solution.holds.first().map(|(_, c)| *c)) else {
        return json!({ "unknown": "the solver gave no checked proof" });
    };
    let source = if solution.verdict == Verdict::Draw {
        format!("proof-number search, both sides' holds checked ({holds} positions)")
    } else {
        format!(
            "proof-number search, proof checked ({} positions)",
            checked.positions
        )
    };
    let mut v = solved_json(value, None, pos.side_to_move(), &source);
    if solution.verdict != Verdict::Draw {
        v["within"] = json!(checked.plies);
    }
    v
}
