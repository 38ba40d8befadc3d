//! The family's members as two parameter sets of one game: each member's [`Profile`] — its
//! names, start, bench positions, search switches and page text — side by side, Räuberschach
//! on 6×6 ([`RAEUBER`]) and antichess on 8×8 ([`ANTICHESS`]). What a member has beyond plain
//! values (its evaluation weights, endgame tables, certificates, network) its folder adds in
//! its [`Variant`](super::game::Variant) impl, which names its profile here.

use crate::search::params::SearchParams;

/// What one member is, as values: read by the family's [`Game`](crate::game::Game), its
/// search settings ([`Tuning`](crate::game::Tuning)) and its web page ([`super::page`]).
#[derive(Clone, Copy, Debug)]
pub struct Profile {
    /// The game's registry name ([`Game::GAME`](crate::game::Game::GAME)).
    pub game: &'static str,
    /// Its name in messages.
    pub title: &'static str,
    /// The variant names it answers to (the first is its own).
    pub variants: &'static [&'static str],
    pub start_fen: &'static str,
    /// The positions `bench` searches, one FEN a line (`losing/bench/<game>.fen`).
    pub bench_fens: &'static str,
    pub bench_depth: u32,
    /// The search's switches, each measured for this member (docs/search-log.md).
    pub search: SearchParams,
    /// Whether the search may try null moves at all ([`Game::NULL_MOVE`](crate::game::Game)).
    pub null_move: bool,
    /// Whether the history tables tell moves apart by the piece moved
    /// ([`Tuning::moved_piece`](crate::game::Tuning::moved_piece)).
    pub piece_history: bool,
    /// Moves expected to come from a position with no pieces, half a move more for each piece
    /// ([`Tuning::expected_moves_left`](crate::game::Tuning::expected_moves_left)).
    pub moves_left_base: u32,
    /// What the web page says of it.
    pub page: PageText,
}

/// The web page's names for a member ([`super::page`]).
#[derive(Clone, Copy, Debug)]
pub struct PageText {
    /// The game's title.
    pub title: &'static str,
    /// A sentence about the game.
    pub about: &'static str,
    /// The variant's title.
    pub variant: &'static str,
    /// Whether the page shows solved values (the tables, else proof-number search).
    pub solves: bool,
}

impl Profile {
    /// The pieces of the start position: the evaluation's phase terms count how many of them
    /// are gone.
    pub const fn full_board(&self) -> i32 {
        let fen = self.start_fen.as_bytes();
        let (mut i, mut pieces) = (0, 0);
        while i < fen.len() && fen[i] != b' ' {
            pieces += fen[i].is_ascii_alphabetic() as i32;
            i += 1;
        }
        pieces
    }
}

/// Räuberschach 6×6 (docs/rules.md §3.2).
pub const RAEUBER: Profile = Profile {
    game: "raeuber",
    title: "Räuberschach",
    variants: &["raeuberschach"],
    start_fen: "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w - - 0 1",
    // The start and positions of play from the opening to the ending.
    bench_fens: include_str!("bench/raeuber.fen"),
    bench_depth: 13,
    search: RAEUBER_SEARCH,
    // Zugzwang rules the endings: a null move only while both sides still have a piece
    // besides pawns — and the search's switch is off (below).
    null_move: true,
    piece_history: false,
    // A game from the start lasts about 17 moves a side.
    moves_left_base: 4,
    page: PageText {
        title: "Räuberschach",
        about: "Losing chess on 6×6 with forced capture: lose all your pieces to win.",
        variant: "6×6, forced capture",
        solves: true,
    },
};

/// Räuberschach's search, measured against Fairy-Stockfish (docs/raeuber.md) and screened on
/// the forced-win suite at 2 M nodes (docs/search-log.md): no extension for forced captures
/// (single replies are extended: without it the suite drops from 60 to 38 of 75), quiescence
/// that ends a forced-capture position at its evaluation at once (no forced plies, and no
/// captures past them: two SPRTs, docs/search-log.md), logarithmic LMR as in chess, offers
/// reduced and pruned late like quiet moves, late captures reduced when the reply is free,
/// offers ordered first; the soft time limit tripled (self-play SPRTs at 2+0.02: the engine
/// had used about half of its clock; 200 passed against 100, then 300 against 200); singular
/// extensions (SPRTs at 100 k nodes and at 2+0.02: often one capture alone does not lose);
/// captures ordered by their history (an SPRT at 100 k nodes); expected cut nodes reduced more
/// (SPRTs at 100 k nodes and at 2+0.02); late-move reductions from the third move on, as
/// Fairy-Stockfish reduces early (an SPRT at 2+0.02). Null moves lose here (zugzwang: an SPRT
/// at 100 k nodes, H0), and so does a double extension (screened).
const RAEUBER_SEARCH: SearchParams = SearchParams {
    forcing_extension: false,
    qsearch_forcing_plies: 0,
    late_move_pruning: true,
    quiet_order: true,
    lmr_base: 75,
    lmr_divisor: 225,
    lmr_forcing_replies: true,
    prune_forcing_replies: true,
    lmr_noisy: true,
    qsearch_forced_captures: false,
    time_soft_percent: 300,
    singular: true,
    capture_history: true,
    lmr_cut_node: true,
    lmr_min_moves: 2,
    null_move: false,
    ..SearchParams::CONSERVATIVE
};

/// Antichess as lichess plays it (docs/rules.md §3.5).
pub const ANTICHESS: Profile = Profile {
    game: "antichess",
    title: "antichess",
    // lichess's name; python-chess and Fairy-Stockfish say the same.
    variants: &["antichess"],
    // Chess's start, without castling rights.
    start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    // The start, the opening 1. e3, and positions from seeded random play
    // (scripts/oracles/antichess_oracle.py) from the opening to the ending.
    bench_fens: include_str!("bench/antichess.fen"),
    bench_depth: 10,
    // Räuberschach's switches, measured there against Fairy-Stockfish and by SPRTs
    // (docs/raeuber.md, docs/search-log.md), plus two of 8×8's own: reverse futility and
    // internal iterative reductions (the forced-win suites at 100,000 nodes 69 → 96 of 103 and
    // 39 → 48 of 60; against Fairy-Stockfish at 1+0.01 −57.9 → 0.0 over the same 100 opening
    // pairs; a self-play SPRT, docs/search-log.md, 2026-11-29 third session).
    search: SearchParams {
        reverse_futility: true,
        iir: true,
        ..RAEUBER_SEARCH
    },
    // Zugzwang decides losing chess: no null moves.
    null_move: false,
    piece_history: true,
    moves_left_base: 8,
    page: PageText {
        title: "Antichess",
        about: "Losing chess on 8×8 as lichess plays it: captures are forced, lose everything to win.",
        variant: "lichess rules",
        solves: false,
    },
};
