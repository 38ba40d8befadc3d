//! Antichess as a member of the losing-chess family ([`crate::games::losing`]): its
//! [`Variant`] record (names, start, bench positions, search switches — Räuberschach's and two
//! of its own —, evaluation, tables) and its protocol options. The
//! [`Game`](crate::game::Game) itself is the family's, on the 8×8 board, and so are the
//! endgame table options over its tables.

use super::position::Antichess;
use super::tables::{self, Tables};
use super::{BENCH_FENS, START_FEN, VARIANTS};
use crate::engine_option::{GameOption, GameSettings};
use crate::game::Dialect;
use crate::games::losing::eval::Weights;
use crate::games::losing::game::{Variant, xboard_setup};
use crate::games::losing::tables::session as family;
use crate::games::losing::{Eight, Six};
use crate::nnue::engine::{self, Cache, Store};
use crate::search::params::SearchParams;
use std::cell::RefCell;
use std::thread::LocalKey;

/// Antichess's network and switch in this process: none built in yet, so the hand-made
/// evaluation answers until an `EvalFile` is loaded (docs/nnue.md).
static NET: Store = Store::new(None);

thread_local! {
    static NET_CACHE: RefCell<Cache> = const { RefCell::new(Cache::new()) };
}

impl Variant for Eight {
    const GAME: &'static str = "antichess";
    const TITLE: &'static str = "antichess";
    const VARIANTS: &'static [&'static str] = &VARIANTS;
    const START_FEN: &'static str = START_FEN;
    const BENCH_FENS: &'static [&'static str] = BENCH_FENS;
    const BENCH_DEPTH: u32 = 10;
    /// Zugzwang decides losing chess: no null moves.
    const FULL_BOARD: i32 = super::eval::FULL_BOARD;
    const NULL_MOVE: bool = false;
    const PAGE_TITLE: &'static str = "Antichess";
    const PAGE_ABOUT: &'static str =
        "Losing chess on 8×8 as lichess plays it: captures are forced, lose everything to win.";
    const PAGE_VARIANT: &'static str = "lichess rules";
    const PAGE_SOLVES: bool = false;
    const PIECE_HISTORY: bool = true;
    const MOVES_LEFT_BASE: u32 = 8;

    /// Räuberschach's switches, measured there against Fairy-Stockfish and by SPRTs
    /// (docs/raeuber.md, docs/search-log.md), plus two of 8×8's own: reverse futility and
    /// internal iterative reductions (the forced-win suites at 100,000 nodes 69 → 96 of 103
    /// and 39 → 48 of 60; against Fairy-Stockfish at 1+0.01 −57.9 → 0.0 over the same 100
    /// opening pairs; a self-play SPRT, docs/search-log.md, 2026-11-29 third session).
    const SEARCH: SearchParams = SearchParams {
        reverse_futility: true,
        iir: true,
        ..<Six as Variant>::SEARCH
    };

    type Tables = Tables;

    fn weights() -> &'static Weights {
        &super::eval::WEIGHTS
    }

    fn net_store() -> &'static Store {
        &NET
    }

    fn net_cache() -> &'static LocalKey<RefCell<Cache>> {
        &NET_CACHE
    }
}

impl Dialect for Antichess {
    /// The network's `EvalFile` and `Use NNUE` ([`crate::nnue::engine::options`]).
    fn options() -> Vec<GameOption> {
        engine::options::<Antichess>()
    }

    /// The process's network and switch (the endgame tables' hold comes with the session's
    /// first table option).
    fn settings() -> GameSettings {
        GameSettings::new(engine::process_settings::<Antichess>())
    }

    /// A session's endgame tables and network, entered by its search threads.
    fn enter(settings: &GameSettings) {
        family::enter(settings.get::<tables::Hold>());
        engine::enter_settings::<Antichess>(settings);
    }

    fn adopt(settings: &GameSettings) {
        engine::adopt_settings::<Antichess>(settings);
    }

    /// XBoard knows losing chess as `giveaway` (with castling); antichess is sent as its
    /// child without castling, as Fairy-Stockfish does.
    fn xboard_setup(&self) -> Vec<String> {
        xboard_setup::<Eight>()
    }
}
