//! Antichess as a member of the losing-chess family ([`crate::games::losing`]): its
//! [`Variant`] record (names, start, bench positions, search switches — Räuberschach's and two
//! of its own —, evaluation, tables) and its protocol options. The
//! [`Game`](crate::game::Game) itself is the family's, on the 8×8 board, and so are the
//! endgame table options over its tables.

use super::position::Antichess;
use super::tables::{self, Tables};
use crate::engine_option::{GameOption, GameSettings};
use crate::game::Dialect;
use crate::games::losing::Eight;
use crate::games::losing::eval::Weights;
use crate::games::losing::game::{Variant, xboard_setup};
use crate::games::losing::members::{ANTICHESS, Profile};
use crate::games::losing::nnue::member_network;
use crate::games::losing::tables::session as family;
use crate::nnue::engine;

impl Variant for Eight {
    const PROFILE: Profile = ANTICHESS;

    type Tables = Tables;

    fn weights() -> &'static Weights {
        &super::eval::WEIGHTS
    }

    member_network!();
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
