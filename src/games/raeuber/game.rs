//! Räuberschach as a member of the losing-chess family ([`crate::games::losing`]): its
//! [`Variant`] record (names, start, bench positions, search switches, evaluation, tables),
//! its protocol options (the session's proof files) and its certificates' moves. The
//! [`Game`](crate::game::Game) itself is the family's, on the 6×6 board, and so are the
//! endgame table options over its tables.

use super::position::{Raeuber, matrix_to_coordinates};
use super::tables::Tables;
use super::tables::session::{self, TableSettings};
use super::{BENCH_FENS, START_FEN, VARIANTS};
use crate::engine_option::{GameOption, GameSettings, OptionKind, TextForm};
use crate::game::{Certified, Dialect};
use crate::games::losing::Six;
use crate::games::losing::eval::Weights;
use crate::games::losing::game::{Variant, xboard_setup};
use crate::games::losing::tables::session as family;
use crate::nnue::engine::{self, Cache, Store};
use crate::search::params::SearchParams;
use std::cell::RefCell;
use std::thread::LocalKey;

/// Räuberschach's network and switch in this process: none built in yet, so the hand-made
/// evaluation answers until an `EvalFile` is loaded (docs/nnue.md).
static NET: Store = Store::new(None);

thread_local! {
    static NET_CACHE: RefCell<Cache> = const { RefCell::new(Cache::new()) };
}

impl Variant for Six {
    const GAME: &'static str = "raeuber";
    const TITLE: &'static str = "Räuberschach";
    const VARIANTS: &'static [&'static str] = &VARIANTS;
    const START_FEN: &'static str = START_FEN;
    const BENCH_FENS: &'static [&'static str] = BENCH_FENS;
    const BENCH_DEPTH: u32 = 13;
    /// Zugzwang rules the endings: a null move only while both sides still have a piece
    /// besides pawns — and the search's switch is off (below).
    const FULL_BOARD: i32 = super::eval::FULL_BOARD;
    const NULL_MOVE: bool = true;
    const PAGE_TITLE: &'static str = "Räuberschach";
    const PAGE_ABOUT: &'static str =
        "Losing chess on 6×6 with forced capture: lose all your pieces to win.";
    const PAGE_VARIANT: &'static str = "6×6, forced capture";
    const PAGE_SOLVES: bool = true;
    const PIECE_HISTORY: bool = false;
    /// A game from the start lasts about 17 moves a side.
    const MOVES_LEFT_BASE: u32 = 4;

    /// Measured against Fairy-Stockfish (docs/raeuber.md) and screened on the forced-win
    /// suite at 2 M nodes (docs/search-log.md): no extension for forced captures (single
    /// replies are extended: without it the suite drops from 60 to 38 of 75), quiescence that
    /// ends a forced-capture position at its evaluation at once (no forced plies, and no
    /// captures past them: two SPRTs, docs/search-log.md), logarithmic LMR as in chess, offers
    /// reduced and pruned late like quiet moves, late captures reduced when the reply is free,
    /// offers ordered first; the soft time limit tripled (self-play SPRTs at 2+0.02: the
    /// engine had used about half of its clock; 200 passed against 100, then 300 against 200);
    /// singular extensions (SPRTs at 100 k nodes and at 2+0.02: often one capture alone does
    /// not lose); captures ordered by their history (an SPRT at 100 k nodes); expected cut
    /// nodes reduced more (SPRTs at 100 k nodes and at 2+0.02); late-move reductions from the
    /// third move on, as Fairy-Stockfish reduces early (an SPRT at 2+0.02). Null moves lose
    /// here (zugzwang: an SPRT at 100 k nodes, H0), and so does a double extension (screened).
    const SEARCH: SearchParams = SearchParams {
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

    type Tables = Tables;

    /// The fitted weights, or those `KIEBITZ_RAEUBER_EVAL` set at start-up.
    fn weights() -> &'static Weights {
        super::eval::active_weights()
    }

    fn net_store() -> &'static Store {
        &NET
    }

    fn net_cache() -> &'static LocalKey<RefCell<Cache>> {
        &NET_CACHE
    }

    /// The matrix notation of the original exercise (`5242` is b2b3).
    fn other_notation(text: &str) -> Option<String> {
        matrix_to_coordinates(text)
    }

    /// The move of a checked proof or hold: the session's own files first, then the shipped
    /// ones once read (docs/solved.md, "Perfect play from the certificates").
    fn certified(pos: &Raeuber) -> Option<Certified> {
        let own = session::proofs();
        super::certificates::certified(pos, own.as_deref())
    }
}

impl Dialect for Raeuber {
    fn xboard_setup(&self) -> Vec<String> {
        xboard_setup::<Six>()
    }

    fn xboard_name(variant: &str) -> &str {
        variant
    }

    /// `ProofFiles`: the session's own proofs and holds, each checked as it is read; the
    /// network's `EvalFile` and `Use NNUE` ([`crate::nnue::engine::options`]).
    fn options() -> Vec<GameOption> {
        let mut options = vec![GameOption {
            name: "ProofFiles",
            kind: OptionKind::Text {
                default: "",
                form: TextForm::File,
            },
            set: |s, v| {
                let (proofs, line) = super::certificates::load_files(v.text())?;
                let settings = TableSettings {
                    extra: proofs,
                    ..family::hold_in::<Tables>(s)
                };
                s.set(settings);
                Ok(Some(line))
            },
        }];
        options.extend(engine::options::<Raeuber>());
        options
    }

    /// The process's endgame tables and their limit, and its network and switch.
    fn settings() -> GameSettings {
        GameSettings::new(session::process_settings()).with(engine::process_settings::<Raeuber>())
    }

    fn enter(settings: &GameSettings) {
        if let Some(s) = settings.get::<TableSettings>() {
            family::enter(Some(s));
        }
        engine::enter_settings::<Raeuber>(settings);
    }

    fn adopt(settings: &GameSettings) {
        engine::adopt_settings::<Raeuber>(settings);
    }
}
