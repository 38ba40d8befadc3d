//! What the web page needs of a game, given by the game itself: the [`Page`] trait, which each
//! game implements in its own `page.rs` and the registry ([`super::page`]) hands out boxed, so
//! that the web server (`src/web/`) names no game. A game says there its title and short
//! description, the engine searches it offers and how their names read ([`Choice`]), how its
//! board is drawn and its moves' squares are named, and, where it has them, its solved values
//! ([`Page::solve_job`]) and its optimal player ([`Page::optimal_job`]), and its rules text
//! ([`Page::rules`], the game's `rules.md`). Every method but the names and the rules has a
//! default, so that a plain two-player game implements four short methods.
//!
//! A game's page also hands out the exact solvers its engine comes with
//! ([`Page::engine_solvers`]: the search's oracle, the acyclic win/draw/loss solver), type-erased
//! so that the registry serves them by name; [`builtin`] and [`acyclic`] give them back typed
//! for a game type, through the game's `GAME` name. No list of games, no `TypeId`.
//!
//! Also here: the types a page and the server share ([`Choice`], [`EngineAnswer`],
//! [`SolveJob`], [`Solvers`]: the solvers' settings the server's command line makes, CRASH!'s
//! loaded databases and Räuberschach's budget), the games' own flags of the server's command
//! line ([`ServerArgs`]) and the JSON helpers for solved values and scores.
//!
//! This file and the games' `page.rs` files form the room `page` of docs/architecture.md: above
//! `solve` (a game's page hands out its solver) and below `web`; the games' own rules never
//! import them.

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};

use crate::board::{Color, Move};
use crate::game::Game;
use crate::games::crash::analysis::db::Db;
use crate::nsearch::Algorithm;
use crate::search::Score;
use crate::search::oracle::{AnyOracle, Oracle, for_game};
use crate::solve::AcyclicSolve;

/// Which engine plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The game's usual search: alpha-beta for two players (CRASH!'s "heuristic" player),
    /// Paranoid for the N-player games.
    Default,
    /// One of the N-player searches.
    NPlayer(Algorithm),
    /// A game's optimal player ([`Page::optimal_job`]): CRASH!'s database, falling back to the
    /// usual search where the database is out of reach, saying so.
    Optimal,
}

impl Choice {
    /// The name the API uses, `None` for the default.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Choice::Default => None,
            Choice::NPlayer(a) => Some(a.name()),
            Choice::Optimal => Some("optimal"),
        }
    }
}

/// What an engine search brings back: the move (in the game's coordinate notation) and the
/// last report.
#[derive(Clone, Debug)]
pub struct EngineAnswer {
    pub mv: String,
    pub info: Value,
}

/// A solve of one position, run off the request thread: it gives the `solved` value of the
/// state ([`solved_json`]) or `{"unknown": why}`.
pub type SolveJob = Box<dyn FnOnce(&AtomicBool) -> Value + Send>;

/// An optimal player's move, run off the request thread; an error says why the player cannot
/// answer (the server then searches instead).
pub type OptimalJob = Box<dyn FnOnce() -> Result<EngineAnswer, String> + Send>;

/// Time the Räuberschach solver may take for one position (half for the win of the side to
/// move, the rest for its loss).
pub const RAEUBER_SOLVE_TIME: Duration = Duration::from_secs(3);
/// The Räuberschach solver's transposition table in MiB (one at a time, freed after the solve).
pub const RAEUBER_SOLVE_TABLE_MB: usize = 32;

/// A CRASH! database read from a file at start-up (`--crash-db FILE`, written by
/// `kiebitz-crash analyze --out FILE`).
#[derive(Clone)]
pub struct LoadedDb {
    pub path: String,
    pub db: Arc<Db>,
}

impl LoadedDb {
    /// Reads and checks a database file (header, size, checksum: [`Db::load`]).
    pub fn load(path: &str) -> Result<LoadedDb, String> {
        let db = Db::load(path)?;
        Ok(LoadedDb {
            path: path.to_string(),
            db: Arc::new(db),
        })
    }
}

impl std::fmt::Debug for LoadedDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let l = &self.db.layout;
        write!(f, "{} ({} stones a side on {} cells)", self.path, l.n, l.m)
    }
}

/// What the server lends every solve and engine job beside the position: the CRASH!
/// databases loaded at start-up and the Räuberschach solver's budget (set by the server's
/// command line).
#[derive(Clone, Debug)]
pub struct Solvers {
    /// Consulted first, in order, for every CRASH! position they cover.
    pub crash_dbs: Vec<LoadedDb>,
    /// The proof-number search's time for one Räuberschach position.
    pub raeuber_time: Duration,
    /// Its table in MiB.
    pub raeuber_table_mb: usize,
}

impl Default for Solvers {
    fn default() -> Solvers {
        Solvers {
            crash_dbs: Vec::new(),
            raeuber_time: RAEUBER_SOLVE_TIME,
            raeuber_table_mb: RAEUBER_SOLVE_TABLE_MB,
        }
    }
}

impl Solvers {
    /// Reads the CRASH! database file at `path` (written by `kiebitz-crash analyze --out`) into
    /// [`Solvers::crash_dbs`]; returns what it holds in words.
    pub fn load_crash_db(&mut self, path: &str) -> Result<String, String> {
        let db = LoadedDb::load(path)?;
        let what = format!("{db:?}");
        self.crash_dbs.push(db);
        Ok(what)
    }

    /// The solvers' settings as the server's status reports them (keys of its JSON object).
    pub fn status(&self) -> serde_json::Map<String, Value> {
        let mut m = serde_json::Map::new();
        m.insert(
            "raeuber_solve_s".into(),
            json!(self.raeuber_time.as_secs_f64()),
        );
        let dbs: Vec<String> = self.crash_dbs.iter().map(|d| format!("{d:?}")).collect();
        m.insert("crash_dbs".into(), json!(dbs));
        m
    }
}

/// The web server's command-line flags that belong to games, flattened into the server's
/// own (`src/web/cli.rs`), so that the server names no game: CRASH!'s databases to serve and
/// Räuberschach's endgame tables.
#[derive(clap::Args, Debug, Clone)]
pub struct ServerArgs {
    /// A CRASH! database written by `kiebitz-crash analyze --out FILE`: the optimal player and
    /// the solved values use it for every position it covers (repeatable).
    #[arg(long = "crash-db", value_name = "FILE")]
    pub crash_db: Vec<String>,
    /// Räuberschach endgame tables of up to N pieces (0 none, 3 built at start in about 15 s,
    /// 4 also each four-piece ending as it is first met): the solved values, the proofs and
    /// the engine's search use them.
    #[arg(long = "raeuber-tables", value_name = "N", default_value_t = 0)]
    pub raeuber_tables: u32,
    /// MiB the Räuberschach signatures built on demand may keep (a four-piece one takes
    /// 6.4 MiB); beyond it the least recently used are dropped and built again when met.
    #[arg(
        long = "raeuber-table-cache-mb",
        value_name = "MB",
        default_value_t = 128
    )]
    pub raeuber_table_cache_mb: usize,
}

/// Why the server does not start: its exit code (2 for a bad flag, 1 for a file that does
/// not load) and the message after the program's name.
pub type ServerArgsError = (i32, String);

impl ServerArgs {
    /// Carries the flags out for a server of every game (`only` is `None`) or of the game
    /// `only`: turns on the tables and loads the databases into `solvers`. Returns a line for
    /// each thing loaded.
    pub fn apply(
        &self,
        only: Option<&str>,
        solvers: &mut Solvers,
    ) -> Result<Vec<String>, ServerArgsError> {
        let cache = self.raeuber_table_cache_mb;
        if !(1..=1 << 20).contains(&cache) {
            let msg = format!(
                "--raeuber-table-cache-mb must be from 1 to {}, not {cache}",
                1 << 20
            );
            return Err((2, msg));
        }
        use crate::game::Game;
        use crate::games::{crash::Crash, raeuber::Raeuber};
        if only.is_some_and(|g| g != Crash::GAME) && !self.crash_db.is_empty() {
            return Err((
                2,
                "--crash-db is for CRASH! (kiebitz-web or kiebitz-crash web)".into(),
            ));
        }
        if only.is_some_and(|g| g != Raeuber::GAME) && self.raeuber_tables > 0 {
            let msg = "--raeuber-tables is for Räuberschach (kiebitz-web or kiebitz-raeuber web)";
            return Err((2, msg.into()));
        }
        let mut done = Vec::new();
        if self.raeuber_tables > 0 {
            done.push(self.raeuber_tables_on()?);
        }
        for path in &self.crash_db {
            match solvers.load_crash_db(path) {
                Ok(what) => done.push(format!("CRASH! database {what} loaded")),
                Err(e) => return Err((1, format!("--crash-db {path}: {e}"))),
            }
        }
        Ok(done)
    }

    /// Turns on Räuberschach's tables of `--raeuber-tables` pieces, built before serving.
    fn raeuber_tables_on(&self) -> Result<String, ServerArgsError> {
        use crate::game::EndgameTables;
        use crate::games::raeuber::{Raeuber, tables};
        tables::set_on_demand_budget(self.raeuber_table_cache_mb << 20);
        Raeuber::use_tables(self.raeuber_tables, crate::game::TableBuilds::Wait)
            .map_err(|e| (2, format!("--raeuber-tables {}: {e}", self.raeuber_tables)))
    }
}

/// The exact solvers a game's engine comes with ([`Page::engine_solvers`]), their types erased
/// so that the registry hands them out by the game's name; [`builtin`] and [`acyclic`] give
/// them back typed.
#[derive(Clone, Default)]
pub struct EngineSolvers {
    /// The search's oracle (asked before alpha-beta: a solved position played perfectly).
    oracle: Option<AnyOracle>,
    /// The win/draw/loss solver of an acyclic game, an [`AcyclicSolve`] of the game's type.
    acyclic: Option<Arc<dyn Any + Send + Sync>>,
}

impl EngineSolvers {
    /// The solvers of game `G`: its oracle and its acyclic solver, where it has them.
    pub fn of<G: Game>(oracle: Option<Oracle<G>>, acyclic: Option<AcyclicSolve<G>>) -> Self {
        EngineSolvers {
            oracle: oracle.map(AnyOracle::new::<G>),
            acyclic: acyclic.map(|solve| Arc::new(solve) as Arc<dyn Any + Send + Sync>),
        }
    }
}

/// The oracle game `G` comes with, if any, as its page hands it out
/// ([`Page::engine_solvers`], found by `G::GAME` in the registry): pawn chess plays solved
/// positions perfectly, Räuberschach and antichess play a forced win df-pn proves. CRASH!'s
/// databases are files the user names (`kiebitz-crash --db`), so CRASH! has none built in; the
/// other games have no solver.
pub fn builtin<G: Game>() -> Option<Oracle<G>> {
    let solvers = super::page_of(G::GAME)?.engine_solvers();
    for_game::<G>(solvers.oracle.as_ref())
}

/// The win/draw/loss solver of an acyclic game ([`Game::ACYCLIC`]), if its page hands one out
/// (pawn chess: `games::pawns::analysis::acyclic::solve`).
pub fn acyclic<G: Game>() -> Option<AcyclicSolve<G>> {
    if !G::ACYCLIC {
        return None;
    }
    let solvers = super::page_of(G::GAME)?.engine_solvers();
    solvers.acyclic?.downcast_ref::<AcyclicSolve<G>>().copied()
}

/// What the web page needs of one game (see the module's text). `pos` arguments are the
/// game's own position type behind [`Any`]: the game's implementation downcasts to it.
pub trait Page: Send + Sync {
    /// The API's game id (the registry's first name, the game's `GAME`).
    fn id(&self) -> &'static str;
    /// The title the page shows (`Räuberschach`).
    fn title(&self) -> &'static str;
    /// The game in one sentence, for the page's game list.
    fn about(&self) -> &'static str;
    /// The rules text of the page's *Rules* button: the game's `rules.md` beside its
    /// `page.rs` (`include_str!`), paragraphs separated by blank lines, text in backquotes
    /// shown as code.
    fn rules(&self) -> &'static str;
    /// The name messages use for the game (`Chamäleon`); the title by default.
    fn short(&self) -> &'static str {
        self.title()
    }
    /// The engine searches the game offers, by the names the API takes.
    fn searches(&self) -> Vec<&'static str> {
        vec!["alphabeta"]
    }
    /// The engine a search name stands for; an error names the searches the game offers.
    fn choice(&self, name: &str) -> Result<Choice, crate::Error> {
        match name {
            "alphabeta" => Ok(Choice::Default),
            _ => Err(crate::Error::Setting(unknown_search(self, name))),
        }
    }
    /// The board of a FEN for the page; by default the rows of a grid ([`grid_board`]).
    fn board(&self, fen: &str) -> Value {
        grid_board(fen)
    }
    /// The board of a position for the page (for games whose text does not say everything
    /// the page draws, e.g. Chamäleon's square colours); by default [`Page::board`] of `text`.
    fn board_of_position(&self, _pos: &dyn Any, text: &str) -> Value {
        self.board(text)
    }
    /// The squares of a move for the page: origin, target and promotion piece; by default as
    /// grid games write them ([`grid_squares`]).
    fn squares(&self, mv: Move, text: &str) -> (String, String, Option<String>) {
        grid_squares(mv, text)
    }
    /// Whether a PGN of `variant` carries a `Variant` tag (standard chess has none).
    fn variant_tag(&self, _variant: &str) -> bool {
        true
    }
    /// Why an N-player game ended in a draw (the page's `reason`).
    fn draw_reason(&self) -> String {
        "a draw".into()
    }
    /// Where the game has solved values: the job that solves `pos` (the side to move's value)
    /// and what to add to the position's cache key (e.g. the positions a repetition may
    /// reach). `history` holds the hashes of the positions before `pos`, `fen` its text.
    fn solve_job(
        &self,
        _pos: &dyn Any,
        _fen: &str,
        _history: &[u64],
        _solvers: &Solvers,
    ) -> Option<(String, SolveJob)> {
        None
    }
    /// The optimal player's move in `pos`, where the game has one ([`Choice::Optimal`]).
    fn optimal_job(&self, _pos: &dyn Any, _solvers: &Solvers) -> Option<OptimalJob> {
        None
    }
    /// Whether `seat` (0: White) could still win `pos` by some series of legal moves, asked
    /// when the other seat's flag falls: a seat that cannot (chess: a lone king, or a lone
    /// knight or bishops against too little to block) draws instead of winning on time, as
    /// lichess scores it. True by default.
    fn can_win(&self, _pos: &dyn Any, _seat: usize) -> bool {
        true
    }
    /// `pos` with `seat` (the game's own seat number) out of the game while the others play
    /// on, where the game's rules know players dropping out (Chamäleon: a player without
    /// pieces is out); asked when the seat's flag falls in a game of more than two seats.
    /// `None` by default: the server then ends the game on time.
    fn without_seat(&self, _pos: &dyn Any, _seat: usize) -> Option<Box<dyn Any>> {
        None
    }
    /// The square of the king in check in `pos` (the side to move's), for the page's check
    /// mark; `None` where no king is in check or the game has no check. `None` by default.
    fn check_square(&self, _pos: &dyn Any) -> Option<String> {
        None
    }
    /// Why fewer moves than usual are legal in `pos`, for the page's message when a move is
    /// refused (`"a capture is forced"`); `None` by default.
    fn legal_note(&self, _pos: &dyn Any) -> Option<String> {
        None
    }
    /// The lobby's name of `variant` (`"5×5, double step"`); the variant itself by default.
    fn variant_title(&self, variant: &str) -> String {
        variant.to_string()
    }
    /// The exact solvers the game's engine comes with (the search's oracle, the acyclic
    /// win/draw/loss solver); none by default.
    fn engine_solvers(&self) -> EngineSolvers {
        EngineSolvers::default()
    }
}

/// The message for a search `name` that `game` does not offer.
pub fn unknown_search<P: Page + ?Sized>(game: &P, name: &str) -> String {
    format!(
        "unknown search '{name}' for {}: one of {}",
        game.id(),
        game.searches().join(" ")
    )
}

/// The rows of a grid game's FEN for the page (top rank first, each square a piece letter or
/// "").
pub fn grid_board(fen: &str) -> Value {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let rows: Vec<Vec<String>> = placement
        .split('/')
        .map(|rank| {
            let mut row = Vec::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(d) => row.extend((0..d).map(|_| String::new())),
                    None => row.push(c.to_string()),
                }
            }
            row
        })
        .collect();
    json!({ "kind": "grid", "width": rows.first().map_or(0, Vec::len), "height": rows.len(), "rows": rows })
}

/// The squares of a grid game's move, as its text writes them (`e7e8q`, `b1a1` for Chess960
/// castling), else the move's own squares.
pub fn grid_squares(mv: Move, text: &str) -> (String, String, Option<String>) {
    let b = text.as_bytes();
    if b.len() >= 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit() {
        let promo = (b.len() > 4).then(|| text[4..].to_string());
        (text[0..2].to_string(), text[2..4].to_string(), promo)
    } else {
        (mv.from().to_string(), mv.to().to_string(), None)
    }
}

/// The solved value of a position for the side to move: `win`, `loss` or `draw`, in
/// `distance` plies with best play (`null` where only the value is proven), and how.
pub fn solved_json(value: i32, distance: Option<i32>, side: Color, source: &str) -> Value {
    let word = match value.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    };
    let side = if side == Color::White {
        "White"
    } else {
        "Black"
    };
    json!({ "value": word, "distance": distance, "for": side, "source": source })
}

/// The score of a two-player search for the page: centipawns or mate, for the side to move.
pub fn score_json(score: Score) -> Value {
    match score {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// A score from White's view (`score` is the side to move's).
pub fn white_view(score: Score, side: Color) -> Score {
    match (side, score) {
        (Color::White, s) => s,
        (_, Score::Cp(cp)) => Score::Cp(-cp),
        (_, Score::Mate(n)) => Score::Mate(-n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game that implements only the names.
    struct Plain;

    impl Page for Plain {
        fn id(&self) -> &'static str {
            "plain"
        }
        fn title(&self) -> &'static str {
            "Plain"
        }
        fn about(&self) -> &'static str {
            "A game with the defaults."
        }
        fn rules(&self) -> &'static str {
            "No rules."
        }
    }

    #[test]
    fn a_plain_game_gets_the_defaults() {
        let p: &dyn Page = &Plain;
        assert_eq!(p.short(), "Plain");
        assert_eq!(p.searches(), vec!["alphabeta"]);
        assert_eq!(p.choice("alphabeta"), Ok(Choice::Default));
        assert_eq!(
            p.choice("optimal"),
            Err(crate::Error::Setting(
                "unknown search 'optimal' for plain: one of alphabeta".to_string()
            ))
        );
        assert_eq!(p.board("2/p1 w")["rows"], json!([["", ""], ["p", ""]]));
        assert!(p.optimal_job(&(), &Solvers::default()).is_none());
        assert!(p.solve_job(&(), "", &[], &Solvers::default()).is_none());
        assert!(p.can_win(&(), 0) && p.can_win(&(), 1));
        assert!(p.without_seat(&(), 0).is_none());
        assert!(p.check_square(&()).is_none() && p.legal_note(&()).is_none());
        assert_eq!(p.variant_title("plain"), "plain");
        let solvers = p.engine_solvers();
        assert!(solvers.oracle.is_none() && solvers.acyclic.is_none());
    }

    #[test]
    fn pawn_chess_and_the_losing_games_come_with_their_solvers_and_the_others_without() {
        use crate::games::{antichess::Antichess, chess::Chess, crash::Crash};
        use crate::games::{pawns::Pawns, raeuber::Raeuber};
        assert!(builtin::<Pawns>().is_some());
        assert!(builtin::<Raeuber>().is_some());
        assert!(builtin::<Antichess>().is_some());
        assert!(builtin::<Chess>().is_none());
        assert!(builtin::<Crash>().is_none());
        assert!(acyclic::<Pawns>().is_some());
        assert!(acyclic::<Raeuber>().is_none());
        assert!(acyclic::<Chess>().is_none());
    }
}
