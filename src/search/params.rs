//! Search switches and margins, one record per game ([`crate::game::Game::SEARCH`]).
//!
//! Every pruning, reduction and extension the shared search knows can be switched off here, so a
//! game with a rough evaluation or with zugzwang keeps an exact, conservative search while
//! standard chess turns everything on. A [`super::Searcher`] starts from its game's record and
//! may be given another one ([`super::Searcher::set_params`]) for experiments and matches.
//! Depends on nothing.

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
    /// LMR: reduction = (`lmr_base` + ln(depth)·ln(move number)·100 / `lmr_divisor`) / 100 plies.
    pub lmr_base: i32,
    /// LMR: larger means milder reductions.
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

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::CONSERVATIVE
    }
}
