//! The engine's options, each declared once: name, kind (type, default, range), handler, the
//! dialects that offer it (UCI, XBoard, the N-seat dialect) and the games that do (a condition
//! on what the game has: books, tablebases, a solver, a calibrated Elo scale, variants …). UCI's
//! `option name …` lines, XBoard's `feature option="…"` and the N-seat `uci` answer are all
//! written from [`Settings::declarations`]; `setoption` and `option NAME=VALUE` go through
//! [`Settings::set`], which checks the value against the kind ([`OptionKind::parse`]) and calls
//! the handler; what goes wrong comes back as a typed [`SetOptionError`]. A handler changes
//! the session's [`Settings`] and returns a [`Reply`]: what the dialect says, or what the
//! session must do with its engine or position (Hash, Clear Hash, a variant). A game's own options ([`Game::options`]) are entries of the same table.
//!
//! XBoard sets some options with commands of its own (`variant`, `cores`, `memory`): those are
//! UCI-only entries that XBoard's commands apply through [`Settings::apply`].

use std::time::Duration;

use crate::book::options::{
    BOOK_DEPTH, BOOK_FILE, BOOK_VARIETY, BookOptions, DEFAULT_DEPTH, MAX_DEPTH, NO_FILE, OWN_BOOK,
};
use crate::book::{MAX_VARIETY, supported as has_books};
use crate::engine_option::{
    Access, GameOption, GameSettings, MemoryPool, OptionKind, OptionValue, SetGameOption, TextForm,
};
use crate::game::{Game, Hold};
use crate::nsearch::{Algorithm, Options as NOptions};
use crate::rng::Rng;
use crate::search::strength::{FULL_ELO, MAX_SKILL, MIN_ELO, Strength};
use crate::search::{MAX_SOLVER_SHARE, TbConfig};
use crate::table_error::TableError;

use super::error::SetOptionError;
use super::{DEFAULT_MOVE_OVERHEAD_MS, MAX_HASH_MB, Paths, SessionConfig, shorten, threads_for};

/// Largest `MultiPV`.
pub(crate) const MAX_MULTIPV: i64 = 64;
/// Largest `Threads` value accepted and advertised (as Stockfish does, so that a GUI's
/// `Threads 4` is not refused); above the processor count it is capped to that, and said.
pub(crate) const MAX_THREADS: i64 = 1024;
/// Largest `Move Overhead`, in milliseconds.
pub(crate) const MAX_MOVE_OVERHEAD_MS: i64 = 5000;

/// The share of a move's time, in percent, the game's solver may take before the search.
pub const SOLVER_SHARE: &str = "Solver Share";
/// The game's endgame tables built in memory and probed by the search ([`Game::use_tables`]).
pub const ENDGAME_TABLES: &str = "Endgame Tables";
/// The directory of the endgame tables' files ([`Game::tables_dir`]).
pub const ENDGAME_TABLES_PATH: &str = "Endgame Tables Path";
pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const UCI_ELO: &str = "UCI_Elo";
pub const SKILL_LEVEL: &str = "Skill Level";
/// The variant name that the `UCI_Chess960` switch selects, for a game that offers it.
pub(crate) const CHESS960: &str = "chess960";

/// The protocol dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Uci,
    Xboard,
    Nseat,
}

/// Which dialects offer an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Dialects(u8);

impl Dialects {
    const UCI: Dialects = Dialects(1);
    /// UCI and XBoard: the two-seat games.
    const TWO_SEAT: Dialects = Dialects(1 | 2);
    const NSEAT: Dialects = Dialects(4);
    const ALL: Dialects = Dialects(1 | 2 | 4);

    fn has(self, d: Dialect) -> bool {
        let bit = match d {
            Dialect::Uci => 1,
            Dialect::Xboard => 2,
            Dialect::Nseat => 4,
        };
        self.0 & bit != 0
    }
}

/// What a handler asks of the session besides the settings it changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reply {
    Quiet,
    /// A line to tell the user (`info string …`, XBoard `# …`).
    Note(String),
    /// Resize the transposition table to this many MB (within the server's budget).
    Hash(usize),
    ClearHash,
    /// Play this variant (its start position) from now on.
    Variant(String),
    /// `UCI_Chess960` switched on or off.
    Chess960(bool),
}

type SessionHandler = fn(&mut Settings, &OptionValue) -> Result<Reply, SetOptionError>;

#[derive(Clone, Copy)]
enum Handler {
    /// Changes the session's settings.
    Session(SessionHandler),
    /// A game's own option ([`GameOption::set`]): changes the session's [`GameSettings`].
    Game(SetGameOption),
}

/// One entry of the table.
#[derive(Clone)]
struct Spec {
    name: &'static str,
    kind: OptionKind,
    dialects: Dialects,
    handler: Handler,
}

impl Spec {
    fn new(name: &'static str, kind: OptionKind, dialects: Dialects, set: SessionHandler) -> Spec {
        Spec {
            name,
            kind,
            dialects,
            handler: Handler::Session(set),
        }
    }
}

fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

fn check(default: bool) -> OptionKind {
    OptionKind::Check { default }
}

fn text(form: TextForm) -> OptionKind {
    OptionKind::Text {
        default: NO_FILE,
        form,
    }
}

/// What a game has, as far as the options go: which entries of the table it gets.
#[derive(Clone, Debug)]
pub(crate) struct Offer {
    pub variants: &'static [&'static str],
    pub wdl: bool,
    pub books: bool,
    pub calibrated_elo: bool,
    /// The solver's default share, for a session whose searches have an oracle.
    pub solver_share: Option<u32>,
    pub solved_tables: u32,
    pub tablebases: bool,
    pub two_seat: bool,
    pub game_options: Vec<GameOption>,
}

impl Offer {
    /// A two-seat game `G`; `has_oracle`: the session's searches have a solver.
    pub(crate) fn of<G: Game>(has_oracle: bool) -> Offer {
        Offer {
            variants: G::variants(),
            wdl: G::WDL.is_some(),
            books: has_books::<G>(),
            calibrated_elo: G::CALIBRATED_ELO,
            solver_share: has_oracle.then_some(G::SOLVER_SHARE),
            solved_tables: G::SOLVED_TABLES,
            tablebases: G::TABLEBASES,
            two_seat: true,
            game_options: G::options(),
        }
    }

    /// An N-seat game (they offer the same options: `Algorithm`, `Hash`, `Clear Hash`).
    pub(crate) fn nseat() -> Offer {
        Offer {
            variants: &[],
            wdl: false,
            books: false,
            calibrated_elo: false,
            solver_share: None,
            solved_tables: 0,
            tablebases: false,
            two_seat: false,
            game_options: Vec::new(),
        }
    }
}

/// The table: every option, in the order `uci` lists them, with the games that offer it.
fn table(offer: &Offer) -> Vec<Spec> {
    use Dialects as D;
    let (two, books, elo) = (offer.two_seat, offer.books, offer.calibrated_elo);
    let algorithms: Vec<&'static str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    let entries: Vec<(bool, Spec)> = vec![
        (
            !two,
            Spec::new(
                "Algorithm",
                OptionKind::Combo {
                    default: NOptions::default().algorithm.name(),
                    choices: algorithms,
                },
                D::NSEAT,
                |s, v| {
                    s.algorithm = Algorithm::parse(v.text())
                        .map_err(|e| SetOptionError::Refused(e.to_string()))?;
                    Ok(Reply::Quiet)
                },
            ),
        ),
        (
            two,
            Spec::new("Threads", spin(1, 1, MAX_THREADS), D::UCI, |s, v| {
                let (threads, said) = threads_for(v.int() as usize);
                s.threads = threads;
                Ok(said.map_or(Reply::Quiet, Reply::Note))
            }),
        ),
        (
            true,
            Spec::new(
                "Hash",
                spin(super::DEFAULT_HASH_MB as i64, 1, MAX_HASH_MB as i64),
                D::ALL,
                |_, v| Ok(Reply::Hash(v.int() as usize)),
            ),
        ),
        (
            true,
            Spec::new("Clear Hash", OptionKind::Button, D::ALL, |_, _| {
                Ok(Reply::ClearHash)
            }),
        ),
        (
            two,
            Spec::new(
                "Move Overhead",
                spin(DEFAULT_MOVE_OVERHEAD_MS as i64, 0, MAX_MOVE_OVERHEAD_MS),
                D::TWO_SEAT,
                |s, v| {
                    s.move_overhead = Duration::from_millis(v.int() as u64);
                    Ok(Reply::Quiet)
                },
            ),
        ),
        // The GUI decides when to ponder (`go ponder`); the option only says the engine can.
        (
            two,
            Spec::new("Ponder", check(false), D::UCI, |_, _| Ok(Reply::Quiet)),
        ),
        (
            two,
            Spec::new("MultiPV", spin(1, 1, MAX_MULTIPV), D::UCI, |s, v| {
                s.multipv = v.int() as usize;
                Ok(Reply::Quiet)
            }),
        ),
        (
            two,
            Spec::new(
                "UCI_Variant",
                OptionKind::Combo {
                    default: offer.variants.first().copied().unwrap_or(""),
                    choices: offer.variants.to_vec(),
                },
                D::UCI,
                |_, v| Ok(Reply::Variant(v.text().to_string())),
            ),
        ),
        (
            two && offer.variants.contains(&CHESS960),
            Spec::new("UCI_Chess960", check(false), D::UCI, |_, v| {
                Ok(Reply::Chess960(v.on()))
            }),
        ),
        (
            two && offer.wdl,
            Spec::new("UCI_ShowWDL", check(false), D::UCI, |s, v| {
                s.show_wdl = v.on();
                Ok(Reply::Quiet)
            }),
        ),
        (
            books,
            Spec::new(OWN_BOOK, check(false), D::TWO_SEAT, |s, v| {
                s.book.set_own_book(v.on());
                Ok(Reply::Quiet)
            }),
        ),
        (
            books,
            Spec::new(BOOK_FILE, text(TextForm::File), D::TWO_SEAT, |s, v| {
                s.book.set_file(v.text())?;
                Ok(Reply::Quiet)
            }),
        ),
        (
            books,
            Spec::new(
                BOOK_DEPTH,
                spin(DEFAULT_DEPTH.into(), 0, MAX_DEPTH.into()),
                D::TWO_SEAT,
                |s, v| {
                    s.book.set_depth(v.int() as u32);
                    Ok(Reply::Quiet)
                },
            ),
        ),
        (
            books,
            Spec::new(
                BOOK_VARIETY,
                spin(0, 0, MAX_VARIETY.into()),
                D::TWO_SEAT,
                |s, v| {
                    s.book.set_variety(v.int() as u32);
                    Ok(Reply::Quiet)
                },
            ),
        ),
        (
            elo,
            Spec::new(LIMIT_STRENGTH, check(false), D::TWO_SEAT, |s, v| {
                s.strength.limit = v.on();
                Ok(Reply::Quiet)
            }),
        ),
        (
            elo,
            Spec::new(
                UCI_ELO,
                spin(MIN_ELO.into(), MIN_ELO.into(), FULL_ELO.into()),
                D::TWO_SEAT,
                |s, v| {
                    s.strength.elo = v.int() as u32;
                    Ok(Reply::Quiet)
                },
            ),
        ),
        (
            two,
            Spec::new(
                SKILL_LEVEL,
                spin(MAX_SKILL.into(), 0, MAX_SKILL.into()),
                D::TWO_SEAT,
                |s, v| {
                    s.strength.skill = v.int() as u32;
                    Ok(Reply::Quiet)
                },
            ),
        ),
        (
            offer.solver_share.is_some(),
            Spec::new(
                SOLVER_SHARE,
                spin(
                    offer.solver_share.unwrap_or(0).into(),
                    0,
                    MAX_SOLVER_SHARE.into(),
                ),
                D::TWO_SEAT,
                |s, v| {
                    s.solver_share = Some(v.int() as u32);
                    Ok(Reply::Quiet)
                },
            ),
        ),
        (
            offer.solved_tables > 0,
            Spec::new(
                ENDGAME_TABLES,
                spin(0, 0, offer.solved_tables.into()),
                D::TWO_SEAT,
                |s, v| {
                    let use_tables = s.hooks.use_tables;
                    Ok(Reply::Note(use_tables(
                        &mut s.game,
                        v.int() as u32,
                        &s.access,
                    )?))
                },
            ),
        ),
        (
            offer.solved_tables > 0,
            Spec::new(
                ENDGAME_TABLES_PATH,
                text(TextForm::Path),
                D::TWO_SEAT,
                |s, v| {
                    let tables_dir = s.hooks.tables_dir;
                    Ok(Reply::Note(tables_dir(&mut s.game, v.text(), &s.access)?))
                },
            ),
        ),
        (
            offer.tablebases,
            Spec::new("SyzygyPath", text(TextForm::Path), D::TWO_SEAT, |s, v| {
                // This session's tables go first (other sessions' stay).
                s.tb_hold = None;
                s.tablebase.largest = 0;
                let loaded = (s.hooks.tb_load)(v.text())?;
                s.tablebase.largest = loaded.largest;
                s.tb_hold = loaded.hold;
                Ok(Reply::Note(tables_note(loaded.largest, &loaded.left_out)))
            }),
        ),
        (
            offer.tablebases,
            Spec::new("SyzygyProbeDepth", spin(1, 1, 100), D::TWO_SEAT, |s, v| {
                s.tablebase.config.probe_depth = v.int() as u32;
                Ok(Reply::Quiet)
            }),
        ),
        (
            offer.tablebases,
            Spec::new("Syzygy50MoveRule", check(true), D::TWO_SEAT, |s, v| {
                s.tablebase.config.rule50 = v.on();
                Ok(Reply::Quiet)
            }),
        ),
        (
            offer.tablebases,
            Spec::new("SyzygyProbeLimit", spin(7, 0, 7), D::TWO_SEAT, |s, v| {
                s.tablebase.limit = v.int() as u32;
                Ok(Reply::Quiet)
            }),
        ),
    ];
    let game_own = offer.game_options.iter().map(|o| Spec {
        name: o.name,
        kind: o.kind.clone(),
        dialects: Dialects::TWO_SEAT,
        handler: Handler::Game(o.set),
    });
    entries
        .into_iter()
        .filter_map(|(offered, spec)| offered.then_some(spec))
        .chain(game_own)
        .collect()
}

/// A game's `SyzygyPath` loader ([`Game::tb_load`]): the pieces its tables cover, the
/// session's hold on them and the files left out.
type TbLoad = fn(&str) -> Result<crate::game::TbLoaded, TableError>;

/// The line `SyzygyPath` answers with: the pieces covered, and each file left out as damaged.
fn tables_note(largest: u32, left_out: &[String]) -> String {
    let mut note = format!("Syzygy tables for up to {largest} pieces");
    if !left_out.is_empty() {
        note += &format!("; left out as damaged: {}", left_out.join(", "));
    }
    note
}

/// A game's session hook of its endgame tables ([`Game::session_tables`],
/// [`Game::session_tables_dir`]): changes the session's settings.
type TablesHook<T> = fn(&mut GameSettings, T, &Access) -> Result<String, TableError>;

/// The game hooks that option handlers call.
#[derive(Clone, Copy)]
struct Hooks {
    tb_load: TbLoad,
    use_tables: TablesHook<u32>,
    tables_dir: for<'a> fn(&mut GameSettings, &'a str, &Access) -> Result<String, TableError>,
}

impl Hooks {
    fn of<G: Game>() -> Hooks {
        Hooks {
            tb_load: G::tb_load,
            use_tables: G::session_tables,
            tables_dir: G::session_tables_dir,
        }
    }

    fn none() -> Hooks {
        Hooks {
            tb_load: |_| Err(TableError::NoTablebases),
            use_tables: |_, _, _| Err(TableError::NoTables),
            tables_dir: |_, _, _| Err(TableError::NoTables),
        }
    }
}

/// The option values of one session (any dialect), and the table they are set through.
pub(crate) struct Settings {
    table: Vec<Spec>,
    hooks: Hooks,
    pub move_overhead: Duration,
    /// Search threads (`Threads`, XBoard `cores`).
    pub threads: usize,
    pub multipv: usize,
    pub show_wdl: bool,
    /// `SyzygyPath` and its companions (games with tablebases).
    pub tablebase: Tablebase,
    /// This session's hold on the tablebases of its `SyzygyPath` (freed with the session).
    tb_hold: Option<Hold>,
    /// `Solver Share` (games with a solver); `None`: the game's default.
    pub solver_share: Option<u32>,
    /// `OwnBook`, `BookFile`, `BookDepth`, `BookVariety` and the book read.
    pub book: BookOptions,
    /// `UCI_LimitStrength`, `UCI_Elo`, `Skill Level`.
    pub strength: StrengthOptions,
    /// The N-seat search's `Algorithm`.
    pub algorithm: Algorithm,
    /// The game's own settings of this session (its options' values: a network, a switch,
    /// its endgame tables' limit), handed to every search (`Limits::game`).
    pub game: GameSettings,
    /// The files and folders the options may name.
    paths: Paths,
    /// Whether the game's tables may write files, and the memory they take from.
    access: Access,
}

impl Settings {
    /// The defaults for two-seat game `G`; `has_oracle`: its searches have a solver.
    pub(crate) fn of<G: Game>(has_oracle: bool) -> Settings {
        Settings {
            game: G::settings(),
            ..Settings::new(&Offer::of::<G>(has_oracle), Hooks::of::<G>())
        }
    }

    /// The defaults for an N-seat game.
    pub(crate) fn nseat() -> Settings {
        Settings::new(&Offer::nseat(), Hooks::none())
    }

    fn new(offer: &Offer, hooks: Hooks) -> Settings {
        Settings {
            table: table(offer),
            hooks,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            threads: 1,
            multipv: 1,
            show_wdl: false,
            tablebase: Tablebase::default(),
            tb_hold: None,
            solver_share: None,
            book: BookOptions::default(),
            strength: StrengthOptions::default(),
            algorithm: NOptions::default().algorithm,
            game: GameSettings::default(),
            paths: Paths::Any,
            access: Access::default(),
        }
    }

    /// Confines the options to what `config` allows: the paths they may name; an engine
    /// server's session writes no files and takes its tables' memory from the server's.
    pub(crate) fn confine(&mut self, config: &SessionConfig) {
        self.paths = config.paths.clone();
        self.access = Access {
            writes: config.paths == Paths::Any,
            memory: config
                .hash_budget
                .clone()
                .map(|b| std::sync::Arc::new(b) as std::sync::Arc<dyn MemoryPool>),
        };
    }

    /// `value` of option `name` (a file or a folder) where [`Settings::paths`] allows it: as
    /// sent, or (confined) its canonical path inside the data folder; else why not.
    fn allowed(&self, name: &str, value: OptionValue) -> Result<OptionValue, SetOptionError> {
        let text = value.text().trim();
        match &self.paths {
            _ if text.is_empty() || text == NO_FILE => Ok(value),
            Paths::Any => Ok(value),
            Paths::Within(dir) => confine_path(name, text, dir.as_deref())
                .map(|p| OptionValue::Text(p.display().to_string())),
        }
    }

    /// The options `dialect` advertises, in order, with their kinds; `hash_mb` is the `Hash`
    /// default shown (the session's current size).
    pub(crate) fn declarations(
        &self,
        dialect: Dialect,
        hash_mb: usize,
    ) -> Vec<(&'static str, OptionKind)> {
        self.table
            .iter()
            .filter(|s| s.dialects.has(dialect))
            .map(|s| {
                let kind = match (&s.kind, s.name) {
                    (OptionKind::Spin { min, max, .. }, "Hash") => OptionKind::Spin {
                        default: hash_mb as i64,
                        min: *min,
                        max: *max,
                    },
                    (kind, _) => kind.clone(),
                };
                (s.name, kind)
            })
            .collect()
    }

    /// `setoption`/`option` of `dialect`: the option `name` (any case) set to `value` (as
    /// sent). An unknown name, a bad value or a failing handler is an error and changes
    /// nothing (but a `BookFile` that cannot be read leaves no book).
    pub(crate) fn set(
        &mut self,
        dialect: Dialect,
        name: &str,
        value: Option<&str>,
    ) -> Result<Reply, SetOptionError> {
        let spec = self
            .table
            .iter()
            .find(|s| s.dialects.has(dialect) && s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| SetOptionError::Unknown(name.trim().to_string()))?;
        let value = spec.kind.parse(spec.name, value)?;
        let (handler, name) = (spec.handler, spec.name);
        let value = self.checked_path(name, value)?;
        self.run(handler, &value)
    }

    /// Sets option `name` (exactly as the table spells it) to a checked `value`, whichever
    /// dialect offers it: XBoard's `memory` (`Hash`) and `cores` (`Threads`).
    pub(crate) fn apply(
        &mut self,
        name: &str,
        value: OptionValue,
    ) -> Result<Reply, SetOptionError> {
        let spec = self
            .table
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| SetOptionError::Unknown(name.to_string()))?;
        let (handler, name) = (spec.handler, spec.name);
        let value = self.checked_path(name, value)?;
        self.run(handler, &value)
    }

    /// `value` of option `name`, checked against [`Settings::paths`] if the option names a
    /// file or a folder.
    fn checked_path(&self, name: &str, value: OptionValue) -> Result<OptionValue, SetOptionError> {
        let names_path = self.table.iter().any(|s| {
            s.name == name
                && matches!(
                    s.kind,
                    OptionKind::Text {
                        form: TextForm::File | TextForm::Path,
                        ..
                    }
                )
        });
        if !names_path {
            return Ok(value);
        }
        self.allowed(name, value)
    }

    fn run(&mut self, handler: Handler, value: &OptionValue) -> Result<Reply, SetOptionError> {
        match handler {
            Handler::Session(set) => set(self, value),
            Handler::Game(set) => {
                let said = set(&mut self.game, value)?;
                Ok(said.map_or(Reply::Quiet, Reply::Note))
            }
        }
    }

    /// The tablebase configuration a search gets.
    pub(crate) fn tablebase_config(&self) -> TbConfig {
        self.tablebase.search_config()
    }
}

/// The canonical path of `text` (relative: to `dir`), option `name`'s value, if it lies
/// inside `dir` (canonical) once symbolic links are followed; else why it may not be named.
fn confine_path(
    name: &str,
    text: &str,
    dir: Option<&std::path::Path>,
) -> Result<std::path::PathBuf, SetOptionError> {
    let refused = |why: String| SetOptionError::Confined {
        option: name.to_string(),
        shown: shorten(text),
        why,
    };
    let Some(dir) = dir else {
        return Err(refused(
            "this server lets its clients name no file or folder (its operator may allow \
             those inside one folder with --data-dir)"
                .into(),
        ));
    };
    let real = dir
        .join(text)
        .canonicalize()
        .map_err(|e| refused(e.to_string()))?;
    if !real.starts_with(dir) {
        return Err(refused("it lies outside the server's data folder".into()));
    }
    Ok(real)
}

/// The tablebase options' state: the pieces the loaded tables cover and the `Syzygy…` values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tablebase {
    largest: u32,
    limit: u32,
    config: TbConfig,
}

impl Default for Tablebase {
    fn default() -> Self {
        Tablebase {
            largest: 0,
            limit: 7,
            config: TbConfig {
                max_pieces: 0,
                probe_depth: 1,
                rule50: true,
            },
        }
    }
}

impl Tablebase {
    /// What the search gets: probing up to the smaller of the limit and the tables.
    pub(crate) fn search_config(&self) -> TbConfig {
        TbConfig {
            max_pieces: self.largest.min(self.limit),
            ..self.config
        }
    }
}

/// The strength options of one session and the random choices of its levels.
#[derive(Clone, Debug)]
pub(crate) struct StrengthOptions {
    limit: bool,
    elo: u32,
    skill: u32,
    rng: Rng,
}

impl Default for StrengthOptions {
    fn default() -> Self {
        StrengthOptions::with_rng(Rng::from_time())
    }
}

impl StrengthOptions {
    /// Full strength (the options' defaults), the choices of later levels drawn from `rng`.
    pub(crate) fn with_rng(rng: Rng) -> StrengthOptions {
        StrengthOptions {
            limit: false,
            elo: MIN_ELO,
            skill: MAX_SKILL,
            rng,
        }
    }

    /// The level of the next search: `UCI_Elo` when `UCI_LimitStrength` is on, else `Skill
    /// Level` below its top; `None` at full strength. Each level draws its own seed.
    pub(crate) fn strength(&mut self) -> Option<Strength> {
        let rng = Rng::new(self.rng.next_u64());
        let level = if self.limit {
            Strength::from_elo(self.elo, rng)
        } else {
            Strength::from_skill(self.skill, rng)
        };
        level.limits().then_some(level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Chess;
    use crate::games::raeuber::Raeuber;
    use std::sync::atomic::{AtomicI64, Ordering};

    fn names(s: &Settings, d: Dialect) -> Vec<&'static str> {
        s.declarations(d, 16).into_iter().map(|(n, _)| n).collect()
    }

    #[test]
    fn uci_elo_only_where_calibrated_skill_everywhere() {
        let chess = names(&Settings::of::<Chess>(false), Dialect::Uci);
        for o in [
            LIMIT_STRENGTH,
            UCI_ELO,
            SKILL_LEVEL,
            "SyzygyPath",
            "UCI_Chess960",
        ] {
            assert!(chess.contains(&o), "{o} {chess:?}");
        }
        let raeuber = names(&Settings::of::<Raeuber>(true), Dialect::Uci);
        assert!(!raeuber.contains(&UCI_ELO) && raeuber.contains(&SKILL_LEVEL));
        assert!(raeuber.contains(&SOLVER_SHARE), "Räuberschach has a solver");
        let mut s = Settings::of::<Raeuber>(true);
        assert_eq!(
            s.set(Dialect::Uci, "UCI_Elo", Some("1500")),
            Err(SetOptionError::Unknown("UCI_Elo".into()))
        );
        let mut s = Settings::of::<Chess>(false);
        assert!(s.set(Dialect::Uci, "uci_elo", Some("1000")).is_err());
        assert!(s.strength.strength().is_none(), "full strength by default");
        s.set(Dialect::Uci, "UCI_Elo", Some("1500")).unwrap();
        assert!(
            s.strength.strength().is_none(),
            "UCI_Elo counts only with the limit"
        );
        s.set(Dialect::Xboard, "UCI_LimitStrength", Some("1"))
            .unwrap();
        assert_eq!(s.strength.strength().unwrap().elo(), 1500);
        s.set(Dialect::Uci, "UCI_LimitStrength", Some("false"))
            .unwrap();
        s.set(Dialect::Uci, "Skill Level", Some("0")).unwrap();
        assert_eq!(s.strength.strength().unwrap().elo(), MIN_ELO);
        assert!(s.set(Dialect::Uci, "Skill Level", Some("21")).is_err());
        assert_eq!(
            s.strength.strength().unwrap().elo(),
            MIN_ELO,
            "an error leaves it"
        );
    }

    #[test]
    fn hash_has_one_range_in_every_dialect() {
        let two = Settings::of::<Chess>(false);
        let n = Settings::nseat();
        let hash = |s: &Settings, d| {
            s.declarations(d, 16)
                .into_iter()
                .find(|(name, _)| *name == "Hash")
                .map(|(_, kind)| kind)
        };
        let expected = Some(spin(16, 1, MAX_HASH_MB as i64));
        assert_eq!(hash(&two, Dialect::Uci), expected);
        assert_eq!(hash(&two, Dialect::Xboard), expected);
        assert_eq!(hash(&n, Dialect::Nseat), expected);
        let mut n = n;
        assert_eq!(
            n.set(Dialect::Nseat, "hash", Some("65536")),
            Ok(Reply::Hash(65536))
        );
        assert!(n.set(Dialect::Nseat, "Hash", Some("65537")).is_err());
        assert_eq!(
            names(&n, Dialect::Nseat),
            ["Algorithm", "Hash", "Clear Hash"]
        );
        assert!(n.set(Dialect::Nseat, "Threads", Some("2")).is_err());
    }

    #[test]
    fn dialects_offer_their_entries_only() {
        let s = Settings::of::<Chess>(false);
        let uci = names(&s, Dialect::Uci);
        let xboard = names(&s, Dialect::Xboard);
        for own in [
            "UCI_Variant",
            "Threads",
            "MultiPV",
            "Ponder",
            "UCI_Chess960",
        ] {
            assert!(uci.contains(&own) && !xboard.contains(&own), "{own}");
        }
        assert!(
            xboard.iter().all(|o| uci.contains(o)),
            "XBoard's are UCI's too"
        );
        assert!(!uci.contains(&"Algorithm"));
    }

    static SEEN: AtomicI64 = AtomicI64::new(-1);

    #[test]
    fn a_game_declares_an_option_in_one_entry() {
        let offer = Offer {
            game_options: vec![GameOption {
                name: "Use Net",
                kind: OptionKind::Spin {
                    default: 1,
                    min: 0,
                    max: 3,
                },
                set: |_, v| {
                    SEEN.store(v.int(), Ordering::SeqCst);
                    Ok(Some(format!("net {}", v.int())))
                },
            }],
            ..Offer::of::<Chess>(false)
        };
        let mut s = Settings::new(&offer, Hooks::none());
        assert_eq!(names(&s, Dialect::Uci).last(), Some(&"Use Net"));
        assert_eq!(names(&s, Dialect::Xboard).last(), Some(&"Use Net"));
        assert_eq!(
            s.set(Dialect::Uci, "use net", Some("2")),
            Ok(Reply::Note("net 2".into()))
        );
        assert_eq!(SEEN.load(Ordering::SeqCst), 2);
        assert!(s.set(Dialect::Xboard, "Use Net", Some("4")).is_err());
        assert_eq!(
            SEEN.load(Ordering::SeqCst),
            2,
            "a bad value reaches no handler"
        );
    }
}
