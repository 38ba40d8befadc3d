//! Pawn chess on the web page ([`crate::games::page::Page`]): a grid board, and the solved
//! value of a position up to [`MAX_SOLVED_PAWNS`]×[`MAX_SOLVED_PAWNS`]: the exact distance by
//! a walk of the whole game graph if it fits the budget, else the value by the win/draw/loss
//! solver (as `kiebitz-pawns analyze`).
//!
//! Depends on `game`, `games::pawns::analysis` and `games::page`. Hands out the game's solvers
//! ([`page::Page::engine_solvers`]): the analysis as the search's oracle, and the acyclic
//! win/draw/loss solver.

use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};

use super::Pawns;
use crate::game::Game;
use crate::games::page::{self, EngineSolvers, SolveJob, Solvers, solved_json};

/// Pawn chess is solved on demand up to this board size.
pub const MAX_SOLVED_PAWNS: u8 = 6;
/// Longest a pawn-chess solve may take (the exact distances get half of it).
pub const PAWNS_SOLVE_TIME: Duration = Duration::from_secs(6);
/// Most positions a pawn-chess solve may hold (16 to 48 bytes each).
pub const PAWNS_SOLVE_POSITIONS: u64 = 1 << 20;

/// Pawn chess as the page shows it.
pub struct OnPage;

impl page::Page for OnPage {
    fn id(&self) -> &'static str {
        Pawns::GAME
    }
    fn title(&self) -> &'static str {
        "Pawn chess"
    }
    fn about(&self) -> &'static str {
        "Only pawns on W×H boards: the first to reach the far side wins."
    }
    fn rules(&self) -> &'static str {
        include_str!("rules.md")
    }
    fn variant_title(&self, variant: &str) -> String {
        variant_title(variant)
    }
    fn solve_job(
        &self,
        pos: &dyn Any,
        _fen: &str,
        _history: &[u64],
        _solvers: &Solvers,
    ) -> Option<(String, SolveJob)> {
        let p = pos.downcast_ref::<Pawns>()?.clone();
        Some((String::new(), Box::new(move |stop| pawns_solved(&p, stop))))
    }
    /// The analysis plays solved positions perfectly (the search's oracle), and `solve` uses
    /// the win/draw/loss solver of acyclic games.
    fn engine_solvers(&self) -> EngineSolvers {
        use crate::games::pawns::analysis::{acyclic, engine_solve};
        EngineSolvers::of::<Pawns>(
            Some(std::sync::Arc::new(engine_solve)),
            Some(acyclic::solve),
        )
    }
}

/// Pawn chess solved from `pos`: the exact distance by a walk of the whole game graph if it
/// fits the budget, else the value by the win/draw/loss solver (as `kiebitz-pawns analyze`).
pub fn pawns_solved(pos: &Pawns, stop: &AtomicBool) -> Value {
    use crate::games::pawns::analysis::{board, solve, table};
    let (w, h) = pos.size();
    if w.max(h) > MAX_SOLVED_PAWNS {
        return json!({ "unknown": format!(
            "pawn chess is solved here up to {MAX_SOLVED_PAWNS}×{MAX_SOLVED_PAWNS}") });
    }
    let start = std::time::Instant::now();
    let shape = board::Shape::of(pos);
    let root = board::Pos::of(pos);
    let side = pos.side_to_move();
    let walk = solve::Budget {
        deadline: Some(start + PAWNS_SOLVE_TIME / 2),
        stop: Some(stop),
        max_positions: Some(PAWNS_SOLVE_POSITIONS),
        forget_when_full: false,
    };
    if let Ok((best, _)) = solve::distances(shape, &root, walk) {
        let distance = (best != 0).then(|| solve::WIN - best.abs());
        return solved_json(best, distance, side, "exact walk of the game graph");
    }
    let budget = solve::Budget {
        deadline: Some(start + PAWNS_SOLVE_TIME),
        stop: Some(stop),
        max_positions: Some(PAWNS_SOLVE_POSITIONS),
        forget_when_full: true,
    };
    match solve::Solver::<table::Wide>::new(shape, 1 << 16, budget).value(&root) {
        Ok(v) => solved_json(i32::from(v), None, side, "win/draw/loss solver"),
        Err(_) => json!({ "unknown": format!(
            "not solved within {} s", PAWNS_SOLVE_TIME.as_secs()) }),
    }
}
/// A pawn-chess variant's name in words: `pawns6d` is `6×6, double step`, `pawngame5ep` is
/// `pawn game 5×5, en passant`.
pub fn variant_title(variant: &str) -> String {
    let Ok((_, size, rules)) = super::parse_variant(variant) else {
        return variant.to_string();
    };
    let game = if rules.pawn_game { "pawn game " } else { "" };
    let extra = match (rules.pawn_game, rules.double_step, rules.en_passant) {
        (_, _, true) if !rules.pawn_game => ", double step and en passant",
        (true, _, true) => ", en passant",
        (false, true, false) => ", double step",
        _ => "",
    };
    format!("{game}{size}×{size}{extra}")
}

#[cfg(test)]
mod tests {
    use super::variant_title;

    #[test]
    fn variants_are_named_in_words() {
        assert_eq!(variant_title("pawns6"), "6×6");
        assert_eq!(variant_title("pawns5d"), "5×5, double step");
        assert_eq!(variant_title("pawns4ep"), "4×4, double step and en passant");
        assert_eq!(variant_title("pawngame5ep"), "pawn game 5×5, en passant");
        assert_eq!(variant_title("pawngame6"), "pawn game 6×6");
        assert_eq!(variant_title("nonsense"), "nonsense");
    }
}
