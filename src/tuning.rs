//! What a game tells the shared search, in a module that depends on nothing, so that
//! `game.rs` and `games/*` never import from `search/`: the search switches and margins, one
//! record per game ([`crate::game::Game::SEARCH`]); the score scale of forced game ends
//! ([`MATE`]); the clock's default estimate of moves left ([`DEFAULT_MOVES_TO_GO`]).
//!
//! Every pruning, reduction and extension the shared search knows can be switched off here, so a
//! game with a rough evaluation or with zugzwang keeps an exact, conservative search while
//! standard chess turns everything on. A [`crate::search::Searcher`] starts from its game's
//! record and may be given another one ([`crate::search::Searcher::set_params`]) for experiments
//! and matches. The search re-exports all of this (`search::SearchParams`, `search::MATE`,
//! `search::time::DEFAULT_MOVES_TO_GO`).

/// Score of a mate (or any forced game end) in 0 plies; mate in n plies is `MATE - n`.
pub const MATE: i32 = 32000;

/// Moves assumed to remain when the clock has no `movestogo` (sudden death) and the game
/// has no better estimate ([`crate::game::Game::expected_moves_left`]).
pub const DEFAULT_MOVES_TO_GO: u32 = 35;

/// Which pruning, reductions and extensions the search uses, and their margins (centipawns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Aspiration windows around the previous iteration's score from depth 4 on.
    pub aspiration: bool,
    /// Half-width of the first aspiration window.
    pub aspiration_window: i32,
    /// Null-move pruning (also needs `Game::NULL_MOVE`; never in a forcing position).
    pub null_move: bool,
    /// Late-move reductions of quiet moves, re-searched at full depth when they raise alpha.
    pub lmr: bool,
    /// LMR: reduction = (`lmr_base` + ln(depth)·ln(move number)·10000 / `lmr_divisor`) / 100
    /// plies, rounded down: `lmr_base` in hundredths of a ply, and the logarithmic term
    /// ln d · ln m / (`lmr_divisor` / 100) plies (`search::worker::lmr_table`).
    pub lmr_base: i32,
    /// LMR: larger means milder reductions (225: ln d · ln m / 2.25 plies).
    pub lmr_divisor: i32,
    /// Quiet moves tried in a node before LMR starts (PV nodes wait two moves longer).
    pub lmr_min_moves: u32,
    /// Reverse futility (static null move): a non-PV node whose static evaluation beats beta
    /// by `reverse_futility_margin` per ply of depth returns at once, up to depth 6.
    pub reverse_futility: bool,
    pub reverse_futility_margin: i32,
    /// Futility pruning: near the horizon (depth ≤ 3), quiet moves that cannot bring the static
    /// evaluation plus `futility_margin` per ply up to alpha are skipped.
    pub futility: bool,
    pub futility_margin: i32,
    /// Search one ply deeper after a move into a forcing position (check in chess, a forced
    /// capture in Räuberschach), up to twice the iteration depth in plies.
    pub forcing_extension: bool,
    /// Search one ply deeper in a position with a single legal move (same limit).
    pub single_reply_extension: bool,
    /// The countermove heuristic in move ordering.
    pub countermove: bool,
    /// Capture history: noisy moves with equal `Game::noisy_order` ordered by the cutoffs
    /// they caused before.
    pub capture_history: bool,
    /// Quiet moves ordered by history plus the game's `Game::quiet_order` bonus.
    pub quiet_order: bool,
    /// With `lmr`, late-move reductions also for noisy moves (one ply milder than for quiet
    /// ones).
    pub lmr_noisy: bool,
    /// LMR also for quiet moves into a forcing position (a check, an offered capture that
    /// must be taken).
    pub lmr_forcing_replies: bool,
    /// LMR adjusted by the move's history and by whether the evaluation improves.
    pub lmr_history: bool,
    /// Futility and late-move pruning also skip quiet moves into a forcing position (a
    /// check, an offered capture that must be taken), not only the plainly quiet ones.
    pub prune_forcing_replies: bool,
    /// Late-move pruning: at depth ≤ 4, quiet moves after the first 3 + depth² (half as
    /// many when the static evaluation is not improving) are skipped in non-PV nodes.
    pub late_move_pruning: bool,
    /// Internal iterative reduction: a node without a hash move from depth 4 is searched a
    /// ply shallower.
    pub iir: bool,
    /// Continuation history: quiet moves are also ordered by how often a move of this piece
    /// to this square refuted, or failed after, the opponent's last move and our own move
    /// before it (a table by (piece, target) pairs, `Game::moved_piece`).
    pub continuation_history: bool,
    /// SEE pruning in non-PV nodes up to depth 6: after the first move, noisy moves that lose
    /// more than `see_noisy_margin` per ply of depth and quiet moves that lose more than
    /// `see_quiet_margin` per ply squared by static exchange (`Game::see_ge`) are skipped
    /// (neither from nor into a forcing position).
    pub see_pruning: bool,
    pub see_noisy_margin: i32,
    pub see_quiet_margin: i32,
    /// Correction history: the static evaluation is corrected by how far searches of
    /// positions with the same structure (`Game::structure_key`) found it off lately.
    pub correction_history: bool,
    /// Quiescence plies in which a forcing position is searched with every legal move and no
    /// stand pat; deeper, quiescence stands pat anyway (guards against long forced chains).
    pub qsearch_forcing_plies: u32,
    /// Whether quiescence probes and fills the transposition table. Off, pawn chess runs a
    /// quarter faster for the same tree (the probes miss the cache); chess engines usually
    /// gain from it.
    pub qsearch_tt: bool,
}

impl SearchParams {
    /// Exact-minded search for games whose evaluation is rough: no static pruning, mild LMR.
    pub const CONSERVATIVE: SearchParams = SearchParams {
        aspiration: true,
        aspiration_window: 30,
        null_move: true,
        lmr: true,
        lmr_base: 0,
        lmr_divisor: 350,
        lmr_min_moves: 4,
        reverse_futility: false,
        reverse_futility_margin: 90,
        futility: false,
        futility_margin: 120,
        forcing_extension: true,
        single_reply_extension: true,
        countermove: true,
        capture_history: false,
        quiet_order: false,
        lmr_noisy: false,
        lmr_forcing_replies: false,
        lmr_history: false,
        prune_forcing_replies: false,
        late_move_pruning: false,
        iir: false,
        continuation_history: false,
        see_pruning: false,
        see_noisy_margin: 90,
        see_quiet_margin: 25,
        correction_history: false,
        qsearch_forcing_plies: 8,
        qsearch_tt: false,
    };

    /// Everything on, with margins fit for a tuned chess evaluation.
    pub const FULL: SearchParams = SearchParams {
        aspiration: true,
        aspiration_window: 25,
        null_move: true,
        lmr: true,
        lmr_base: 75,
        lmr_divisor: 225,
        lmr_min_moves: 3,
        reverse_futility: true,
        reverse_futility_margin: 80,
        futility: true,
        futility_margin: 110,
        forcing_extension: true,
        single_reply_extension: false,
        countermove: true,
        capture_history: false,
        quiet_order: false,
        lmr_noisy: false,
        lmr_forcing_replies: false,
        lmr_history: false,
        prune_forcing_replies: false,
        late_move_pruning: true,
        iir: true,
        continuation_history: false,
        see_pruning: false,
        see_noisy_margin: 90,
        see_quiet_margin: 25,
        correction_history: false,
        qsearch_forcing_plies: 8,
        qsearch_tt: true,
    };

    /// Plain alpha-beta (PVS, quiescence, ordering): no pruning, reduction or extension.
    pub const PLAIN: SearchParams = SearchParams {
        aspiration: false,
        null_move: false,
        lmr: false,
        reverse_futility: false,
        futility: false,
        forcing_extension: false,
        single_reply_extension: false,
        ..SearchParams::CONSERVATIVE
    };
}

impl SearchParams {
    /// These parameters with `overrides` applied: comma-separated `name=value` pairs, e.g.
    /// `lmr=0,lmr_divisor=300` (switches take `0`/`1`/`false`/`true`). An unknown name or a
    /// bad value is an error and nothing is changed.
    pub fn with_overrides(self, overrides: &str) -> Result<SearchParams, String> {
        let mut p = self;
        for item in overrides
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("'{item}': expected name=value"))?;
            let (name, value) = (name.trim(), value.trim());
            let flag = || match value {
                "1" | "true" | "on" => Ok(true),
                "0" | "false" | "off" => Ok(false),
                _ => Err(format!("'{name}': expected 0 or 1, got '{value}'")),
            };
            let number = || {
                value
                    .parse::<i32>()
                    .map_err(|_| format!("'{name}': expected a number, got '{value}'"))
            };
            let count = || {
                value
                    .parse::<u32>()
                    .map_err(|_| format!("'{name}': expected a count, got '{value}'"))
            };
            match name {
                "aspiration" => p.aspiration = flag()?,
                "aspiration_window" => p.aspiration_window = number()?,
                "null_move" => p.null_move = flag()?,
                "lmr" => p.lmr = flag()?,
                "lmr_base" => p.lmr_base = number()?,
                "lmr_divisor" => p.lmr_divisor = number()?.max(1),
                "lmr_min_moves" => p.lmr_min_moves = count()?,
                "reverse_futility" => p.reverse_futility = flag()?,
                "reverse_futility_margin" => p.reverse_futility_margin = number()?,
                "futility" => p.futility = flag()?,
                "futility_margin" => p.futility_margin = number()?,
                "forcing_extension" => p.forcing_extension = flag()?,
                "single_reply_extension" => p.single_reply_extension = flag()?,
                "countermove" => p.countermove = flag()?,
                "capture_history" => p.capture_history = flag()?,
                "lmr_noisy" => p.lmr_noisy = flag()?,
                "quiet_order" => p.quiet_order = flag()?,
                "lmr_history" => p.lmr_history = flag()?,
                "lmr_forcing_replies" => p.lmr_forcing_replies = flag()?,
                "prune_forcing_replies" => p.prune_forcing_replies = flag()?,
                "late_move_pruning" => p.late_move_pruning = flag()?,
                "iir" => p.iir = flag()?,
                "qsearch_forcing_plies" => p.qsearch_forcing_plies = count()?,
                "qsearch_tt" => p.qsearch_tt = flag()?,
                "continuation_history" => p.continuation_history = flag()?,
                "see_pruning" => p.see_pruning = flag()?,
                "see_noisy_margin" => p.see_noisy_margin = number()?,
                "see_quiet_margin" => p.see_quiet_margin = number()?,
                "correction_history" => p.correction_history = flag()?,
                _ => return Err(format!("unknown search parameter '{name}'")),
            }
        }
        Ok(p)
    }

    /// `defaults` with the overrides of the environment variable [`ENV_OVERRIDES`] applied, for
    /// experiments (one binary, several settings in a match). A bad value is reported on
    /// stderr and the defaults are kept.
    pub fn from_env(defaults: SearchParams) -> SearchParams {
        match std::env::var(ENV_OVERRIDES) {
            Ok(text) => defaults.with_overrides(&text).unwrap_or_else(|e| {
                log::warn!("{ENV_OVERRIDES} ignored: {e}");
                defaults
            }),
            Err(_) => defaults,
        }
    }
}

/// The environment variable with search-parameter overrides ([`SearchParams::from_env`]).
pub const ENV_OVERRIDES: &str = "KIEBITZ_SEARCH";

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::CONSERVATIVE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_apply_or_fail_whole() {
        let p = SearchParams::FULL
            .with_overrides("lmr=0, lmr_divisor=300,qsearch_forcing_plies=12,futility=true")
            .unwrap();
        assert!(!p.lmr && p.futility);
        assert_eq!((p.lmr_divisor, p.qsearch_forcing_plies), (300, 12));
        assert_eq!(
            SearchParams::FULL.with_overrides("").unwrap(),
            SearchParams::FULL
        );
        for bad in ["lmr", "lmr=2", "nope=1", "lmr_base=x", "lmr_min_moves=-1"] {
            assert!(SearchParams::FULL.with_overrides(bad).is_err(), "{bad}");
        }
    }
}
