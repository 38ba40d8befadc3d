//! What a UCI and an XBoard session share: the position line, the variant, the option values
//! ([`Settings`], set through the one option table) and the engine with its search thread. A
//! dialect holds a [`Core`] and adds only its own state (UCI's `debug`, XBoard's modes and
//! clocks) and its commands' grammar and answers.

use super::error::SetOptionError;
use super::options::{CHESS960, Dialect, Reply, Settings};
use super::{Engine, GameLine, Output, Searching, SessionConfig, game_engine, session_start};
use crate::game::Game;
use crate::search::Searcher;

/// The state of one two-seat session.
pub(crate) struct Core<G: Game> {
    pub out: Output,
    pub engine: Engine<Searcher<G>>,
    pub variant: &'static str,
    pub game: GameLine<G>,
    pub settings: Settings,
}

impl<G: Game> Core<G> {
    /// A session at the game's first variant's start, the options at their defaults.
    pub(crate) fn new(out: &Output, config: &SessionConfig) -> Result<Core<G>, String> {
        let (variant, start) = session_start::<G>()?;
        let engine = game_engine::<G>(config);
        let mut settings = Settings::of::<G>(engine.has_oracle());
        settings.confine(config);
        Ok(Core {
            out: out.clone(),
            engine,
            variant,
            game: GameLine::new(start),
            settings,
        })
    }

    /// Sets option `name` to `value` as `dialect` sent it: a line to tell the user, or the
    /// error (nothing changed).
    pub(crate) fn set_option(
        &mut self,
        dialect: Dialect,
        name: &str,
        value: Option<&str>,
    ) -> Result<Option<String>, SetOptionError> {
        let reply = self.settings.set(dialect, name, value)?;
        self.carry_out(reply)
    }

    /// Does what an option's handler asked of the engine or the position; a refusal (a variant
    /// the game lacks) changes nothing.
    pub(crate) fn carry_out(&mut self, reply: Reply) -> Result<Option<String>, SetOptionError> {
        match reply {
            Reply::Variant(name) => {
                let variant = G::variants()
                    .iter()
                    .copied()
                    .find(|v| *v == name)
                    .ok_or(SetOptionError::UnknownVariant(name))?;
                self.select_variant(variant).map(|()| None)
            }
            Reply::Chess960(true) => self.select_variant(CHESS960).map(|()| None),
            Reply::Chess960(false) if self.variant == CHESS960 => {
                self.select_variant(G::variants()[0]).map(|()| None)
            }
            Reply::Chess960(false) => Ok(None),
            other => engine_reply(&mut self.engine, other),
        }
    }

    /// Plays `variant` from now on, starting from its start position.
    pub(crate) fn select_variant(&mut self, variant: &'static str) -> Result<(), SetOptionError> {
        let start = G::startpos(variant)?;
        self.variant = variant;
        self.game = GameLine::new(start);
        Ok(())
    }

    /// Back to the current variant's start position.
    pub(crate) fn reset_to_start(&mut self) {
        match G::startpos(self.variant) {
            Ok(start) => self.game = GameLine::new(start),
            Err(e) => log::error!("no start position for {}: {e}", self.variant),
        }
    }
}

/// Does what an option's handler asked of an engine of any dialect (two seats or N): resize or
/// clear its table; a line to tell the user, if any.
pub(crate) fn engine_reply<S: Searching>(
    engine: &mut Engine<S>,
    reply: Reply,
) -> Result<Option<String>, SetOptionError> {
    Ok(match reply {
        Reply::Quiet => None,
        Reply::Note(text) => Some(text),
        Reply::Hash(mb) => {
            let granted = engine.set_hash(mb);
            (granted < mb).then(|| {
                format!("Hash {mb} MB is more than the server's memory budget allows: {granted} MB")
            })
        }
        Reply::ClearHash => {
            engine.clear();
            None
        }
        Reply::Variant(_) | Reply::Chess960(_) => {
            return Err(SetOptionError::NoVariants);
        }
    })
}
