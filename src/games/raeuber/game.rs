//! Räuberschach as a member of the losing-chess family ([`crate::games::losing`]): its
//! [`Variant`] record (names, start, bench positions, search switches, evaluation, tables),
//! its protocol options (the session's proof files) and its certificates' moves. The
//! [`Game`](crate::game::Game) itself is the family's, on the 6×6 board, and so are the
//! endgame table options over its tables.

use super::position::{Raeuber, matrix_to_coordinates};
use super::tables::Tables;
use super::tables::session::{self, TableSettings};
use crate::engine_option::{GameOption, GameSettings, OptionKind, TextForm};
use crate::game::{Certified, Dialect};
use crate::games::losing::Six;
use crate::games::losing::eval::Weights;
use crate::games::losing::game::{Variant, xboard_setup};
use crate::games::losing::members::{Profile, RAEUBER};
use crate::games::losing::nnue::member_network;
use crate::games::losing::tables::session as family;
use crate::nnue::engine;

impl Variant for Six {
    const PROFILE: Profile = RAEUBER;

    type Tables = Tables;

    /// The fitted weights, or those `KIEBITZ_RAEUBER_EVAL` set at start-up.
    fn weights() -> &'static Weights {
        super::eval::active_weights()
    }

    member_network!();

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
