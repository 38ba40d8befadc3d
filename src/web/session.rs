//! One game as the web server holds it: a [`Session`] hides whether it is a two-player
//! [`Game`] of the registry ([`TwoPlayer`]) or an N-seat [`NGame`] ([`NSeat`]), and answers
//! what the JSON API needs: the state (FEN, seat to move, legal moves with their squares,
//! history, board, result), playing and taking back moves, PGN, and an engine search packed as
//! a job for a blocking thread; so is the solve of a position's value. What differs between
//! games (title, searches, board drawing, move squares, solver, optimal player) comes from the
//! game's page ([`crate::games::page::Page`], found by [`page_of`]): nothing here names a game.
//!
//! Depends on `game`, `games` (the registry and the games' pages), `search`, `nsearch`,
//! `protocol` (the game line and the safe search) and `tournament::pgn` (the date tag).

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

pub use super::error::GameError;
use crate::board::{Move, MoveList};
use crate::game::{Game, Outcome};
use crate::games::page::{grid_board, grid_squares, score_json, white_view};
use crate::games::{ForGame, NAMES, page_of, seats, with_game};
use crate::nsearch::{self, NGame, SeatResult};
use crate::protocol::{GameLine, nps, safe_search};
use crate::search::strength::{FULL_ELO, MAX_SKILL, MIN_ELO, Strength};
use crate::search::{Control, Limits, Score, Searcher};

pub use crate::games::page::{Choice, EngineAnswer, LoadedDb, SolveJob, Solvers};

/// Transposition table of one engine search, in MiB (a table lives only for one move, so
/// memory is bounded by the number of engine threads).
pub const ENGINE_HASH_MB: usize = 16;

/// A live report of the engine's search, sent to the page while it thinks.
pub type InfoSink = Box<dyn FnMut(Value) + Send>;

/// A search to run on a blocking thread: it owns a copy of the position.
pub type EngineJob = Box<dyn FnOnce(InfoSink) -> Option<EngineAnswer> + Send>;

/// The searches a game offers, by the names the API takes (its page's).
fn searches_of(game: &str) -> Vec<&'static str> {
    page_of(game).map_or_else(|| vec!["alphabeta"], |p| p.searches())
}

/// The engine `name` stands for in `game` (`None`: the default), as the game's page reads it.
pub fn choice(game: &str, name: Option<&str>) -> Result<Choice, GameError> {
    let Some(name) = name else {
        return Ok(Choice::Default);
    };
    match page_of(game) {
        Some(page) => page
            .choice(name)
            .map_err(|e| GameError::UnknownSearch(e.to_string())),
        None if name == "alphabeta" => Ok(Choice::Default),
        None => Err(GameError::UnknownSearch(format!(
            "unknown search '{name}' for {game}: one of alphabeta"
        ))),
    }
}

/// Whether `game` has N seats (an [`NGame`]) rather than White and Black.
fn is_nseat(game: &str) -> bool {
    seats(game).is_some_and(|s| !s.is_two())
}

/// The name messages use for `game` (its page's short name), else `game` itself.
fn short_name(game: &str) -> &str {
    page_of(game).map_or(game, |p| p.short())
}

/// A strength level of an engine seat: `UCI_Elo` (games whose Elo scale is calibrated,
/// [`Game::CALIBRATED_ELO`]) or `Skill Level` 0–20 (every two-player game); see
/// [`crate::search::strength`]. The N-player searches (Chamäleon) have no such scale: a seat
/// there is weakened by a depth cap instead (`Depth`, 1 to [`MAX_NSEAT_DEPTH`] turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Elo(u32),
    Skill(u32),
    Depth(u32),
}

/// The deepest cap an N-seat engine seat may ask for (`depth`); its searches rarely finish
/// more than a few turns within the server's think times.
pub const MAX_NSEAT_DEPTH: u32 = 16;

impl Level {
    /// The level as the API shows it in a seat: `("elo", n)`, `("skill", n)` or
    /// `("depth", n)`.
    pub fn field(self) -> (&'static str, u32) {
        match self {
            Level::Elo(n) => ("elo", n),
            Level::Skill(n) => ("skill", n),
            Level::Depth(n) => ("depth", n),
        }
    }

    /// The two-player search's strength (`None` for a depth cap, which two-player seats do
    /// not take).
    fn strength(self) -> Option<Strength> {
        match self {
            Level::Elo(n) => Some(Strength::from_elo(n, crate::rng::Rng::from_time())),
            Level::Skill(n) => Some(Strength::from_skill(n, crate::rng::Rng::from_time())),
            Level::Depth(_) => None,
        }
    }
}

struct Calibrated;

impl ForGame for Calibrated {
    type Output = bool;
    fn run<G: Game>(self) -> bool {
        G::CALIBRATED_ELO
    }
}

/// The strength level an engine seat of `game` asks for (`elo` or `skill` for a two-player
/// game, at most one; `depth` for an N-seat game), checked against the ranges; `None` for full
/// strength.
pub fn level(
    game: &str,
    choice: Choice,
    elo: Option<u32>,
    skill: Option<u32>,
    depth: Option<u32>,
) -> Result<Option<Level>, String> {
    if is_nseat(game) {
        if elo.is_some() || skill.is_some() {
            return Err(format!(
                "{}'s N-player searches have no strength scale (elo, skill); a seat takes \
                 depth 1 to {MAX_NSEAT_DEPTH} (turns) instead",
                short_name(game)
            ));
        }
        return match depth {
            None => Ok(None),
            Some(d) if (1..=MAX_NSEAT_DEPTH).contains(&d) => Ok(Some(Level::Depth(d))),
            Some(d) => Err(format!(
                "depth must be from 1 to {MAX_NSEAT_DEPTH} (turns), not {d}"
            )),
        };
    }
    if depth.is_some() {
        let nseat: Vec<String> = NAMES
            .iter()
            .filter(|g| is_nseat(g))
            .map(|g| format!("{}'s", short_name(g)))
            .collect();
        return Err(format!(
            "depth is {} strength level; {game} takes elo or skill",
            nseat.join(" and ")
        ));
    }
    if elo.is_none() && skill.is_none() {
        return Ok(None);
    }
    if choice == Choice::Optimal {
        return Err("the optimal player has no strength level (elo, skill)".into());
    }
    match (elo, skill) {
        (Some(_), Some(_)) => Err("an engine seat takes elo or skill, not both".into()),
        (Some(elo), None) => {
            if !with_game(game, Calibrated).unwrap_or(false) {
                let calibrated: Vec<&str> = NAMES
                    .iter()
                    .copied()
                    .filter(|g| with_game(g, Calibrated) == Some(true))
                    .collect();
                return Err(format!(
                    "elo is calibrated only for {}; {game} takes skill 0 to {MAX_SKILL}",
                    calibrated.join(" ")
                ));
            }
            if !(MIN_ELO..=FULL_ELO).contains(&elo) {
                return Err(format!(
                    "elo must be from {MIN_ELO} to {FULL_ELO} (full strength), not {elo}"
                ));
            }
            Ok(Some(Level::Elo(elo)))
        }
        (None, Some(skill)) => {
            if skill > MAX_SKILL {
                return Err(format!(
                    "skill must be from 0 to {MAX_SKILL} (full strength), not {skill}"
                ));
            }
            Ok(Some(Level::Skill(skill)))
        }
        (None, None) => Ok(None),
    }
}

/// One game in progress, whatever its kind.
pub trait Session: Send {
    /// The API's game id (the registry's first name for the game).
    fn game(&self) -> &'static str;
    fn variant(&self) -> String;
    /// The names of the seats, in the order of the API's `seats` list.
    fn seat_names(&self) -> Vec<&'static str>;
    /// The index (into the seats) of the seat to move; `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// Plies played.
    fn plies(&self) -> usize;
    /// The state for the API (without id and seats, which the server adds).
    fn state(&self) -> Value;
    /// Plays a move given in coordinate notation or SAN; an error leaves the game unchanged.
    fn play(&mut self, text: &str) -> Result<String, GameError>;
    /// Takes back the last move; false if there is none.
    fn undo(&mut self) -> bool;
    /// The game as PGN (a PGN-like record for an N-seat game), with these seat names in the
    /// tags and what `notes` adds (tags, a comment per ply, variations); an error says which
    /// variation does not replay.
    fn pgn(&self, players: &[String], notes: &Notes) -> Result<String, GameError>;
    /// Where the game has solved values ([`crate::games::page::Page::solve_job`]) and is
    /// not over: a key naming the position and the job that solves it with `solvers`.
    fn solve_job(&self, _solvers: &Solvers) -> Option<(String, SolveJob)> {
        None
    }
    /// The solve of the game's position after `ply` plies (as [`Session::solve_job`] of the
    /// position now), for the review of every move; `None` where the game has no solved
    /// values or the game ends there.
    fn solve_job_at(&self, _ply: usize, _solvers: &Solvers) -> Option<(String, SolveJob)> {
        None
    }
    /// A short search of the game's position after `ply` plies for the review of every move:
    /// `{"white": {"cp"} | {"mate"}, "depth", "best", "best_san"}` within `budget`; `None`
    /// where the game ends there or its searches give no score from White's view.
    fn eval_job(&self, _ply: usize, _budget: Duration) -> Option<EvalJob> {
        None
    }
    /// Whose move it is after `ply` plies (0: White), for judging the move made there.
    fn mover_at(&self, _ply: usize) -> Option<usize> {
        None
    }
    /// The engine's search for the seat to move, `None` if the game is over.
    fn engine_job(
        &self,
        movetime: Duration,
        choice: Choice,
        level: Option<Level>,
        solvers: &Solvers,
        stop: Arc<AtomicBool>,
    ) -> Option<EngineJob>;
    /// The position after `ply` moves, for stepping through the game: `{"ply", "fen",
    /// "board", "last", "to_move", "legal", "check", "note", "result"}` (`last`: the squares
    /// of the move that led there); `None` past the end.
    fn position_at(&self, ply: usize) -> Option<Value> {
        let mut v = self.line(ply, &[]).ok()?;
        v["ply"] = json!(ply);
        Some(v)
    }
    /// The position after the game's first `ply` moves and then `moves` (a variation of the
    /// page's move tree, in coordinates or the game's notation), as [`Session::position_at`]
    /// gives it, plus the moves as `moves` (coordinates) and `sans`; an error names the move
    /// that does not replay.
    fn line(&self, ply: usize, moves: &[String]) -> Result<Value, GameError>;
    /// An analysis of the position after `ply` moves and then `moves`: a search without end
    /// reporting every line (`multipv` of them where the game's search has MultiPV) until
    /// `stop` is set; an error past the end, for a move that does not replay, in a finished
    /// position, or where the game has no analysis there.
    fn analysis_job(
        &self,
        ply: usize,
        moves: &[String],
        multipv: usize,
        stop: Arc<AtomicBool>,
    ) -> Result<AnalysisJob, GameError>;
    /// Whether `seat` could still win the game as it stands (asked when the other seat's
    /// flag falls: [`crate::games::page::Page::can_win`]); true where the game does not say.
    fn can_win(&self, _seat: usize) -> bool {
        true
    }
    /// Puts `seat` out of the game (its flag fell) while the others play on, where the game's
    /// rules allow it ([`crate::games::page::Page::without_seat`]); false where they do not
    /// (the server then ends the game).
    fn retire(&mut self, _seat: usize) -> bool {
        false
    }
}

/// An analysis to run on a blocking thread ([`Session::analysis_job`]): it owns a copy of the
/// position and reports every line to the sink until stopped.
pub type AnalysisJob = Box<dyn FnOnce(InfoSink) + Send>;

/// A review's search of one position ([`Session::eval_job`]), run off the request thread.
pub type EvalJob = Box<dyn FnOnce(&AtomicBool) -> Option<Value> + Send>;

/// The longest an analysis runs without a stop (it holds one of the engine threads).
pub const MAX_ANALYSIS: Duration = Duration::from_secs(600);

/// A game of the registry and the searches it offers (see [`games`]).
#[derive(Clone, Debug)]
pub struct GameInfo {
    pub game: &'static str,
    /// The title the page shows and the game in one sentence (the game's page).
    pub title: &'static str,
    pub about: &'static str,
    pub variants: Vec<String>,
    /// Each variant's name in words (the game's page: `6×6, double step`).
    pub variant_titles: Vec<String>,
    /// How many numbered start positions each variant has (Chess960: 960; else 1).
    pub starts: Vec<u32>,
    pub seats: Vec<usize>,
    /// The seats' names in each variant (White and Black; South, West, North, East).
    pub seat_names: Vec<Vec<&'static str>>,
    pub searches: Vec<&'static str>,
    /// The `elo` range an engine seat takes (games whose Elo scale is calibrated).
    pub elo: Option<(u32, u32)>,
    /// The `skill` range an engine seat takes (every two-player game).
    pub skill: Option<(u32, u32)>,
    /// The `depth` range an engine seat takes (N-seat games).
    pub depth: Option<(u32, u32)>,
}

struct Describe;

impl ForGame for Describe {
    type Output = GameInfo;
    fn run<G: Game>(self) -> GameInfo {
        GameInfo {
            game: G::GAME,
            title: page_of(G::GAME).map_or(G::GAME, |p| p.title()),
            about: page_of(G::GAME).map_or("", |p| p.about()),
            variants: G::variants().iter().map(|v| v.to_string()).collect(),
            variant_titles: G::variants()
                .iter()
                .map(|v| variant_title(G::GAME, v))
                .collect(),
            starts: G::variants()
                .iter()
                .map(|v| G::start_positions(v))
                .collect(),
            seats: vec![2],
            seat_names: vec![vec!["White", "Black"]; G::variants().len()],
            searches: searches_of(G::GAME),
            elo: G::CALIBRATED_ELO.then_some((MIN_ELO, FULL_ELO)),
            skill: Some((0, MAX_SKILL)),
            depth: None,
        }
    }
    fn run_seats<G: NGame>(self) -> Option<GameInfo> {
        let (lo, hi) = G::PLAYERS;
        Some(GameInfo {
            game: G::GAME,
            title: page_of(G::GAME).map_or(G::GAME, |p| p.title()),
            about: page_of(G::GAME).map_or("", |p| p.about()),
            variants: (lo..=hi).rev().map(|n| format!("{}{n}", G::GAME)).collect(),
            variant_titles: (lo..=hi)
                .rev()
                .map(|n| variant_title(G::GAME, &format!("{}{n}", G::GAME)))
                .collect(),
            starts: vec![1; hi + 1 - lo],
            seats: (lo..=hi).collect(),
            seat_names: (lo..=hi).rev().map(nseat_names::<G>).collect(),
            searches: searches_of(G::GAME),
            elo: None,
            skill: None,
            depth: Some((1, MAX_NSEAT_DEPTH)),
        })
    }
}

/// A variant's name in words, as the game's page says it.
fn variant_title(game: &str, variant: &str) -> String {
    page_of(game).map_or_else(|| variant.to_string(), |p| p.variant_title(variant))
}

/// The names of the seats that play in an N-seat game of `players` players (its start
/// position's; none where the game has no start for that many).
fn nseat_names<G: NGame>(players: usize) -> Vec<&'static str> {
    G::startpos(players).map_or_else(
        |_| Vec::new(),
        |p| {
            (0..p.seats())
                .filter(|&s| p.plays(s))
                .map(G::seat_name)
                .collect()
        },
    )
}

/// Every game the server offers, in the registry's order.
pub fn games() -> Vec<GameInfo> {
    NAMES
        .iter()
        .filter_map(|name| with_game(name, Describe))
        .collect()
}

struct Create<'a> {
    variant: Option<&'a str>,
    fen: Option<&'a str>,
    number: Option<u32>,
}

impl ForGame for Create<'_> {
    type Output = Result<Box<dyn Session>, String>;
    fn run<G: Game>(self) -> Self::Output {
        let mut start = crate::game::start_position::<G>(self.variant, self.fen)?;
        if self.fen.is_some() {
            if self.number.is_some() {
                return Err("a new game takes a FEN or a start number, not both".into());
            }
        } else {
            let variant = start.variant();
            let count = G::start_positions(variant);
            let number = match self.number {
                Some(n) => Some(n),
                None if count > 1 => {
                    Some(crate::rng::Rng::from_time().below(count as usize) as u32)
                }
                None => None,
            };
            if let Some(n) = number {
                start = G::numbered_start(variant, n)?;
            }
        }
        Ok(Box::new(TwoPlayer::<G> {
            line: GameLine::new(start),
        }))
    }
}

/// A new N-seat game ([`NSeat`]): the variant `<game>N` (or `players`, default the most)
/// fixes the number of players; a FEN says it itself.
struct CreateSeats<'a> {
    variant: Option<&'a str>,
    fen: Option<&'a str>,
    number: Option<u32>,
    players: Option<usize>,
}

impl ForGame for CreateSeats<'_> {
    type Output = Result<Box<dyn Session>, String>;
    fn run<G: Game>(self) -> Self::Output {
        Err(format!("{} is a two-player game", G::GAME))
    }
    fn run_seats<G: NGame>(self) -> Option<Self::Output> {
        Some(self.create::<G>())
    }
}

impl CreateSeats<'_> {
    fn create<G: NGame>(self) -> Result<Box<dyn Session>, String> {
        if self.number.is_some_and(|n| n != 0) {
            return Err(format!(
                "{} has one start position (number 0)",
                short_name(G::GAME)
            ));
        }
        let (lo, hi) = G::PLAYERS;
        let from_variant = match self.variant {
            None => None,
            Some(v) => {
                let n = v
                    .strip_prefix(G::GAME)
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| (lo..=hi).contains(n))
                    .ok_or_else(|| {
                        let all: Vec<String> =
                            (lo..=hi).rev().map(|n| format!("{}{n}", G::GAME)).collect();
                        format!("unknown variant '{v}': one of {}", all.join(" "))
                    })?;
                Some(n)
            }
        };
        let pos = match self.fen {
            Some(text) => G::from_text(text).map_err(|e| format!("bad position: {e}"))?,
            None => G::startpos(from_variant.or(self.players).unwrap_or(hi))?,
        };
        Ok(Box::new(NSeat::new(pos)))
    }
}

/// A new game of `game` (an API id or a registry alias): `variant` (default: the game's
/// first), from `fen` or the start position: start position `number` where the variant has
/// several (Chess960: 0 to 959; a random one without a number). For an N-seat game the
/// variant `<game>N` (or `players`) fixes the number of players ([`CreateSeats`]).
pub fn create(
    game: &str,
    variant: Option<&str>,
    fen: Option<&str>,
    number: Option<u32>,
    players: Option<usize>,
) -> Result<Box<dyn Session>, String> {
    if is_nseat(game) {
        let job = CreateSeats {
            variant,
            fen,
            number,
            players,
        };
        return with_game(game, job).expect("an N-seat game of the registry");
    }
    let known = with_game(game, Describe).is_some();
    if !known {
        let ids: Vec<&str> = games().iter().map(|g| g.game).collect();
        return Err(format!("unknown game '{game}': one of {}", ids.join(" ")));
    }
    with_game(
        game,
        Create {
            variant,
            fen,
            number,
        },
    )
    .expect("a known game")
}

/// The squares of a move for the page: origin, target and promotion piece, as the game's
/// page names them ([`crate::games::page::Page::squares`]: grid games write them in the
/// move's text).
fn squares_of(game: &str, mv: Move, text: &str) -> (String, String, Option<String>) {
    match page_of(game) {
        Some(page) => page.squares(mv, text),
        None => grid_squares(mv, text),
    }
}

/// The board of a FEN for the page, as the game's page draws it
/// ([`crate::games::page::Page::board`]: by default the rows of a grid, top rank first, each
/// square a piece letter or "").
fn board_of(game: &str, fen: &str) -> Value {
    match page_of(game) {
        Some(page) => page.board(fen),
        None => grid_board(fen),
    }
}

/// One line of a two-player search for the page: depth, the score for the side to move
/// (`score`) and from White's view (`white`), the PV in coordinates (`pv`) and in the game's
/// notation (`pv_san`, [`Game::san`]), and `exact` where the search proved the value (a game
/// end found on every line, so that its depth means nothing).
fn info_json<G: Game>(pos: &G, info: &crate::search::Info) -> Value {
    let pv = crate::protocol::pv_text(pos, &info.pv);
    let mut p = pos.clone();
    let mut san = Vec::new();
    for &mv in info.pv.iter().take(pv.len()) {
        san.push(p.san(mv));
        p = p.play(mv);
    }
    let exact =
        matches!(info.score, Score::Mate(_)) && info.depth as usize >= crate::search::MAX_PLY - 1;
    json!({
        "depth": info.depth,
        "seldepth": info.seldepth,
        "multipv": info.multipv,
        "score": score_json(info.score),
        "white": score_json(white_view(info.score, pos.side_to_move())),
        "nodes": info.nodes,
        "nps": nps(info.nodes, info.time),
        "time_ms": info.time.as_millis() as u64,
        "pv": pv,
        "pv_san": san,
        "exact": exact,
    })
}

/// The line among a search's last reports (one per MultiPV line) that starts with the move
/// played: a limited engine may play another move than its best line's.
fn played_line(lines: &[Value], played: &str) -> Option<Value> {
    lines
        .iter()
        .find(|l| l["pv"].get(0).and_then(Value::as_str) == Some(played))
        .cloned()
}

/// A PGN tag value with `"` and `\` escaped.
fn tag(name: &str, value: &str) -> String {
    let v = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{v}\"]\n")
}

/// Movetext wrapped at 80 columns.
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut col = 0;
    for t in tokens {
        if col > 0 && col + 1 + t.len() > 80 {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(t);
        col += t.len();
    }
    out.push('\n');
    out
}

/// What the server adds to a game's record in its PGN: tags (`TimeControl`), a comment per
/// ply (`[%eval …] [%clk …]`, empty for none) and variations (the page's move tree).
#[derive(Clone, Debug, Default)]
pub struct Notes {
    pub tags: Vec<(String, String)>,
    pub comments: Vec<String>,
    pub lines: Vec<Line>,
}

/// A variation: `moves` played instead of its parent's move number `at` (0-based: from the
/// position before that move; the game's moves for a variation of the game, where `at` equal
/// to the game's length continues after its last move), with its own variations in `lines`.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Line {
    pub at: usize,
    pub moves: Vec<String>,
    #[serde(default)]
    pub lines: Vec<Line>,
}

impl Line {
    /// The moves in all these variations and the deepest nesting, for the server's limits.
    pub fn size(lines: &[Line]) -> (usize, usize) {
        lines.iter().fold((0, 0), |(moves, depth), l| {
            let (m, d) = Line::size(&l.lines);
            (moves + l.moves.len() + m, depth.max(d + 1))
        })
    }
}

/// The result of a game ended by its rules, for the page.
fn outcome_json(o: Outcome, why: &str) -> Value {
    let winners: Vec<usize> = match o {
        Outcome::Win(c) => vec![c.index()],
        Outcome::Draw => Vec::new(),
    };
    json!({ "score": o.result_string(), "reason": why, "winners": winners })
}

/// The legal moves of `pos` for the page: text, SAN and squares.
fn legal_json<G: Game>(pos: &G) -> Vec<Value> {
    crate::protocol::legal_moves(pos)
        .iter()
        .map(|&mv| {
            let text = pos.move_text(mv);
            let (from, to, promotion) = squares_of(G::GAME, mv, &text);
            json!({ "move": text, "san": pos.san(mv), "from": from, "to": to,
                    "promotion": promotion })
        })
        .collect()
}

/// The king in check in `pos` (its square) and why fewer moves are legal there, as the game's
/// page says ([`crate::games::page::Page::check_square`], `legal_note`).
fn marks<G: Game>(pos: &G) -> (Option<String>, Option<String>) {
    let page = page_of(G::GAME);
    (
        page.and_then(|p| p.check_square(pos as &dyn Any)),
        page.and_then(|p| p.legal_note(pos as &dyn Any)),
    )
}

/// A position for the page (see [`Session::position_at`]); `history` holds the hashes of
/// the positions before it, `last` the position before it and the move that led there.
fn node_json<G: Game>(pos: &G, history: &[u64], last: Option<(&G, Move)>) -> Value {
    let verdict = pos.verdict(history);
    let last = last.map(|(before, mv)| {
        let (from, to, _) = squares_of(G::GAME, mv, &before.move_text(mv));
        json!({ "from": from, "to": to })
    });
    let (check, note) = marks(pos);
    let legal = if verdict.is_none() {
        legal_json(pos)
    } else {
        Vec::new()
    };
    json!({ "fen": pos.fen(), "board": board_of(G::GAME, &pos.fen()), "last": last,
            "to_move": pos.side_to_move().index(), "legal": legal, "check": check,
            "note": note, "result": verdict.map(|(o, why)| outcome_json(o, &why)) })
}

/// The moves of a variation read in `pos` (coordinates or the game's notation), each legal
/// where it is played and none after the end of the game (`history`: the hashes before
/// `pos`); an error names the move.
fn read_line<G: Game>(pos: &G, history: &[u64], moves: &[String]) -> Result<Vec<Move>, GameError> {
    let mut p = pos.clone();
    let mut seen = history.to_vec();
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        if let Some((_, why)) = p.verdict(&seen) {
            return Err(GameError::LineOver {
                number: i + 1,
                text: text.clone(),
                why: Some(why),
            });
        }
        let mv = crate::san::read(&p, text).map_err(|error| GameError::LineMove {
            number: i + 1,
            text: text.clone(),
            error,
        })?;
        seen.push(p.hash());
        out.push(mv);
        p = p.play(mv);
    }
    Ok(out)
}

/// The fullmove number a FEN starts with (its sixth field; 1 where it has none).
fn fullmove(fen: &str) -> u64 {
    fen.split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

/// The movetext of `moves` from `start` in SAN with move numbers, a comment after each move
/// where `comments` has one, and each variation of `lines` in parentheses after the move it
/// replaces (a variation at `moves.len()` is written as the last move and its continuation).
fn movetext<G: Game>(
    start: &G,
    history: &[u64],
    moves: &[Move],
    comments: &[String],
    lines: &[Line],
    out: &mut Vec<String>,
) -> Result<(), GameError> {
    let mut pos = start.clone();
    let mut seen = history.to_vec();
    let mut number = fullmove(&start.fen());
    let mut numbered = false;
    for (i, &mv) in moves.iter().enumerate() {
        let white = pos.side_to_move() == crate::board::Color::White;
        if white {
            out.push(format!("{number}."));
        } else if !numbered {
            out.push(format!("{number}..."));
        }
        out.push(pos.san(mv));
        numbered = true;
        if let Some(c) = comments.get(i).filter(|c| !c.is_empty()) {
            out.push(format!("{{{c}}}"));
            numbered = false;
        }
        for alt in lines.iter().filter(|l| l.at == i) {
            variation(&pos, &seen, &alt.moves, &alt.lines, out)?;
            numbered = false;
        }
        if !white {
            number += 1;
        }
        seen.push(pos.hash());
        pos = pos.play(mv);
    }
    let end = lines.iter().filter(|l| l.at == moves.len() && l.at > 0);
    for alt in end {
        // After the last move: that move again, then the continuation.
        let before = moves.len() - 1;
        let (p, h) = replay(start, history, &moves[..before]);
        let mut again = vec![p.move_text(moves[before])];
        again.extend(alt.moves.iter().cloned());
        let shifted: Vec<Line> = alt
            .lines
            .iter()
            .map(|l| Line {
                at: l.at + 1,
                ..l.clone()
            })
            .collect();
        variation(&p, &h, &again, &shifted, out)?;
    }
    if let Some(bad) = lines
        .iter()
        .find(|l| l.at > moves.len() || (l.at == 0 && moves.is_empty()))
    {
        return Err(GameError::Variation {
            at: bad.at,
            moves: moves.len(),
        });
    }
    Ok(())
}

/// `pos` and the hashes before it after `moves` from `start`.
fn replay<G: Game>(start: &G, history: &[u64], moves: &[Move]) -> (G, Vec<u64>) {
    let mut pos = start.clone();
    let mut seen = history.to_vec();
    for &mv in moves {
        seen.push(pos.hash());
        pos = pos.play(mv);
    }
    (pos, seen)
}

/// One variation in parentheses (see [`movetext`]).
fn variation<G: Game>(
    pos: &G,
    history: &[u64],
    moves: &[String],
    lines: &[Line],
    out: &mut Vec<String>,
) -> Result<(), GameError> {
    let read = read_line(pos, history, moves)?;
    let first = out.len();
    movetext(pos, history, &read, &[], lines, out)?;
    if out.len() == first {
        return Ok(());
    }
    out[first].insert(0, '(');
    if let Some(last) = out.last_mut() {
        last.push(')');
    }
    Ok(())
}

/// A two-player game of the registry.
pub struct TwoPlayer<G: Game> {
    line: GameLine<G>,
}

impl<G: Game> TwoPlayer<G> {
    /// The position after `ply` moves and the hashes of the positions before it.
    fn at(&self, ply: usize) -> Option<(G, Vec<u64>)> {
        let moves = self.line.moves().get(..ply)?;
        let mut pos = self.line.start().clone();
        let mut history = Vec::with_capacity(ply);
        for &mv in moves {
            history.push(pos.hash());
            pos = pos.play(mv);
        }
        Some((pos, history))
    }
}

impl<G: Game> TwoPlayer<G> {
    /// The position after the game's first `ply` moves and then `moves`, the hashes before
    /// it, and the moves read.
    fn walk(&self, ply: usize, moves: &[String]) -> Result<(G, Vec<u64>, Vec<Move>), GameError> {
        let (pos, history) = self.at(ply).ok_or(GameError::NoPly {
            ply,
            plies: self.line.moves().len(),
        })?;
        let read = read_line(&pos, &history, moves)?;
        let (end, seen) = replay(&pos, &history, &read);
        Ok((end, seen, read))
    }
}

impl<G: Game> Session for TwoPlayer<G> {
    fn line(&self, ply: usize, moves: &[String]) -> Result<Value, GameError> {
        let (pos, history, read) = self.walk(ply, moves)?;
        let all: Vec<Move> = self.line.moves()[..ply]
            .iter()
            .chain(&read)
            .copied()
            .collect();
        let (before, _) = replay(self.line.start(), &[], &all[..all.len().saturating_sub(1)]);
        let last = all.last().map(|&mv| (&before, mv));
        let mut v = node_json(&pos, &history, last);
        let (start, _) = replay(self.line.start(), &[], &all[..ply]);
        let mut p = start;
        let (mut sans, mut coords) = (Vec::new(), Vec::new());
        for &mv in &read {
            sans.push(p.san(mv));
            coords.push(p.move_text(mv));
            p = p.play(mv);
        }
        v["sans"] = json!(sans);
        v["moves"] = json!(coords);
        Ok(v)
    }

    fn analysis_job(
        &self,
        ply: usize,
        moves: &[String],
        multipv: usize,
        stop: Arc<AtomicBool>,
    ) -> Result<AnalysisJob, GameError> {
        let (pos, history, _) = self.walk(ply, moves)?;
        if let Some((_, why)) = pos.verdict(&history) {
            return Err(GameError::NothingToAnalyse { why: Some(why) });
        }
        Ok(Box::new(move |mut sink: InfoSink| {
            let mut searcher = Searcher::<G>::new(ENGINE_HASH_MB);
            searcher.set_oracle(crate::games::page::builtin::<G>());
            searcher.set_multipv(multipv);
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let control = Control {
                stop,
                ..Control::default()
            };
            let mut on_info = |info: &crate::search::Info| sink(info_json(&pos, info));
            safe_search(
                &mut searcher,
                &pos,
                &history,
                &limits,
                &control,
                &mut on_info,
            );
        }))
    }

    fn game(&self) -> &'static str {
        G::GAME
    }

    fn variant(&self) -> String {
        self.line.current().variant().to_string()
    }

    fn seat_names(&self) -> Vec<&'static str> {
        vec!["White", "Black"]
    }

    fn to_move(&self) -> Option<usize> {
        if self.line.outcome().is_some() {
            None
        } else {
            Some(self.line.current().side_to_move().index())
        }
    }

    fn plies(&self) -> usize {
        self.line.moves().len()
    }

    fn state(&self) -> Value {
        let pos = self.line.current();
        let outcome = self.line.outcome();
        let legal: Vec<Value> = if outcome.is_some() {
            Vec::new()
        } else {
            legal_json(pos)
        };
        let (check, note) = marks(pos);
        let mut p = self.line.start().clone();
        let mut history = Vec::new();
        for &mv in self.line.moves() {
            let text = p.move_text(mv);
            let (from, to, _) = squares_of(G::GAME, mv, &text);
            history.push(
                json!({ "move": text, "san": p.san(mv), "from": from, "to": to,
                                 "seat": p.side_to_move().index() }),
            );
            p = p.play(mv);
        }
        let over = outcome.is_some();
        let result = outcome.map(|(o, why)| outcome_json(o, &why));
        let (w, h) = pos.size();
        json!({
            "game": G::GAME,
            "variant": pos.variant(),
            "fen": pos.fen(),
            "start_fen": self.line.start().fen(),
            "to_move": (!over).then(|| pos.side_to_move().index()),
            "size": [w, h],
            "board": board_of(G::GAME, &pos.fen()),
            "legal": legal,
            "check": check,
            "note": note,
            "history": history,
            "result": result,
        })
    }

    fn play(&mut self, text: &str) -> Result<String, GameError> {
        if let Some((o, why)) = self.line.outcome() {
            return Err(GameError::Over {
                result: format!("{}: {why}", o.result_string()),
            });
        }
        let pos = self.line.current().clone();
        let mv = crate::san::read(&pos, text)?;
        self.line.push(mv);
        Ok(pos.move_text(mv))
    }

    fn undo(&mut self) -> bool {
        self.line.pop()
    }

    fn pgn(&self, players: &[String], notes: &Notes) -> Result<String, GameError> {
        let start = self.line.start();
        let result = self.line.outcome().map_or("*", |(o, _)| o.result_string());
        let mut out = String::new();
        out += &tag("Event", &format!("kiebitz-web {}", G::GAME));
        out += &tag("Site", "kiebitz-web");
        out += &tag("Date", &crate::tournament::pgn::today());
        out += &tag("Round", "-");
        out += &tag("White", players.first().map_or("?", String::as_str));
        out += &tag("Black", players.get(1).map_or("?", String::as_str));
        out += &tag("Result", result);
        if page_of(G::GAME).is_none_or(|p| p.variant_tag(start.variant())) {
            out += &tag("Variant", start.variant());
        }
        let standard = G::startpos(start.variant()).is_ok_and(|s| s.fen() == start.fen());
        if !standard {
            out += &tag("SetUp", "1");
            out += &tag("FEN", &start.fen());
        }
        if let Some((_, why)) = self.line.outcome() {
            out += &tag("Termination", &why);
        }
        for (name, value) in &notes.tags {
            out += &tag(name, value);
        }
        out.push('\n');
        let mut tokens = Vec::new();
        movetext(
            start,
            &[],
            self.line.moves(),
            &notes.comments,
            &notes.lines,
            &mut tokens,
        )?;
        tokens.push(result.to_string());
        Ok(out + &wrap(&tokens))
    }

    fn can_win(&self, seat: usize) -> bool {
        page_of(G::GAME).is_none_or(|p| p.can_win(self.line.current() as &dyn Any, seat))
    }

    fn solve_job(&self, solvers: &Solvers) -> Option<(String, SolveJob)> {
        self.to_move()?;
        self.solve_job_at(self.line.moves().len(), solvers)
    }

    fn solve_job_at(&self, ply: usize, solvers: &Solvers) -> Option<(String, SolveJob)> {
        let (pos, history) = self.at(ply)?;
        if pos.verdict(&history).is_some() {
            return None;
        }
        let key = format!("{} {} {}", G::GAME, pos.variant(), pos.fen());
        let (more, job) =
            page_of(G::GAME)?.solve_job(&pos as &dyn Any, &pos.fen(), &history, solvers)?;
        Some((key + &more, job))
    }

    fn eval_job(&self, ply: usize, budget: Duration) -> Option<EvalJob> {
        let (pos, history) = self.at(ply)?;
        if pos.verdict(&history).is_some() {
            return None;
        }
        Some(Box::new(move |stop: &AtomicBool| {
            let mut searcher = Searcher::<G>::new(ENGINE_HASH_MB);
            searcher.set_oracle(crate::games::page::builtin::<G>());
            let limits = Limits {
                movetime: Some(budget),
                ..Limits::default()
            };
            let control = Control::default();
            let mut last = None;
            let result = {
                let mut on_info = |info: &crate::search::Info| {
                    if stop.load(Ordering::Relaxed) {
                        control.stop.store(true, Ordering::Relaxed);
                    }
                    last = Some(info_json(&pos, info));
                };
                safe_search(
                    &mut searcher,
                    &pos,
                    &history,
                    &limits,
                    &control,
                    &mut on_info,
                )
            };
            let mut v = last?;
            if !result.best.is_null() {
                v["best"] = json!(pos.move_text(result.best));
                v["best_san"] = json!(pos.san(result.best));
            }
            Some(
                json!({ "white": v["white"], "depth": v["depth"], "best": v["best"],
                         "best_san": v["best_san"], "exact": v["exact"] }),
            )
        }))
    }

    fn mover_at(&self, ply: usize) -> Option<usize> {
        self.at(ply).map(|(p, _)| p.side_to_move().index())
    }

    fn engine_job(
        &self,
        movetime: Duration,
        choice: Choice,
        level: Option<Level>,
        solvers: &Solvers,
        stop: Arc<AtomicBool>,
    ) -> Option<EngineJob> {
        self.to_move()?;
        let pos = self.line.current().clone();
        let history = self.line.history();
        let search: EngineJob = Box::new(move |mut sink: InfoSink| {
            let mut searcher = Searcher::<G>::new(ENGINE_HASH_MB);
            searcher.set_oracle(crate::games::page::builtin::<G>());
            searcher.set_strength(level.and_then(Level::strength));
            let limits = Limits {
                movetime: Some(movetime),
                ..Limits::default()
            };
            let control = Control::default();
            let limited = level.is_some();
            let mut lines: Vec<Value> = Vec::new();
            let result = {
                let mut on_info = |info: &crate::search::Info| {
                    if stop.load(Ordering::Relaxed) {
                        control.stop.store(true, Ordering::Relaxed);
                    }
                    let v = info_json(&pos, info);
                    let k = info.multipv.max(1) as usize - 1;
                    lines.resize(lines.len().max(k + 1), Value::Null);
                    lines[k] = v.clone();
                    // A limited search weighs several lines: the stream follows the first,
                    // the answer the line of the move played.
                    if k == 0 {
                        sink(v);
                    }
                };
                safe_search(
                    &mut searcher,
                    &pos,
                    &history,
                    &limits,
                    &control,
                    &mut on_info,
                )
            };
            if result.best.is_null() {
                return None;
            }
            let played = pos.move_text(result.best);
            let mut last = played_line(&lines, &played).unwrap_or_else(|| {
                let info = crate::search::Info {
                    depth: result.depth,
                    seldepth: result.depth,
                    multipv: 1,
                    score: result.score,
                    nodes: result.nodes,
                    time: Duration::ZERO,
                    hashfull: 0,
                    tbhits: 0,
                    pv: vec![result.best],
                    note: None,
                };
                info_json(&pos, &info)
            });
            if limited {
                last["limited"] = json!(true);
            }
            Some(EngineAnswer {
                mv: played,
                info: last,
            })
        });
        let optimal = match choice {
            Choice::Optimal => page_of(G::GAME)
                .and_then(|p| p.optimal_job(self.line.current() as &dyn Any, solvers)),
            _ => None,
        };
        match optimal {
            Some(optimal) => Some(Box::new(move |sink: InfoSink| match optimal() {
                Ok(answer) => Some(answer),
                Err(why) => {
                    let mut answer = search(sink)?;
                    answer.info["optimal"] = json!(false);
                    answer.info["note"] = json!(format!("heuristic search: {why}"));
                    Some(answer)
                }
            })),
            _ => Some(search),
        }
    }
}

/// An N-seat game (Chamäleon Schach for 2–4 seats), through the N-player API.
pub struct NSeat<G: NGame> {
    positions: Vec<G>,
    moves: Vec<Move>,
    /// The seats that play, in the order S, W, N, E (the API's seat indices).
    playing: Vec<usize>,
    /// The seats put out of the game on time ([`Session::retire`]) and the plies played then.
    retired: Vec<(usize, usize)>,
}

impl<G: NGame> NSeat<G> {
    fn new(start: G) -> NSeat<G> {
        let playing = (0..start.seats()).filter(|&s| start.plays(s)).collect();
        NSeat {
            positions: vec![start],
            moves: Vec::new(),
            playing,
            retired: Vec::new(),
        }
    }

    /// The current position with every retired seat's pieces off the board
    /// ([`crate::games::page::Page::without_seat`]); false where the game cannot do it.
    fn apply_retired(&mut self) -> bool {
        let Some(page) = page_of(G::GAME) else {
            return false;
        };
        for &(seat, _) in &self.retired {
            let last = self.positions.last_mut().expect("a start position");
            if !last.in_game(seat) {
                continue;
            }
            match page
                .without_seat(&*last as &dyn Any, seat)
                .and_then(|p| p.downcast::<G>().ok())
            {
                Some(p) => *last = *p,
                None => return false,
            }
        }
        true
    }

    /// Why the game ended with a winner: every other player out, some of them on time.
    fn win_reason(&self) -> String {
        let timed: Vec<&str> = self.retired.iter().map(|&(s, _)| G::seat_name(s)).collect();
        match timed[..] {
            [] => "every other player has lost all pieces".to_string(),
            _ => format!(
                "every other player is out ({} out of time)",
                timed.join(", ")
            ),
        }
    }

    fn current(&self) -> &G {
        self.positions.last().expect("a start position")
    }

    fn index_of(&self, seat: usize) -> usize {
        self.playing.iter().position(|&s| s == seat).unwrap_or(0)
    }

    /// The result and why, once the game is over.
    fn result(&self) -> Option<Value> {
        let pos = self.current();
        let results = pos.outcome()?;
        let winners: Vec<usize> = self
            .playing
            .iter()
            .enumerate()
            .filter(|&(_, &s)| results[s] == SeatResult::Win)
            .map(|(i, _)| i)
            .collect();
        let each: Vec<&str> = self.playing.iter().map(|&s| results[s].word()).collect();
        let (score, reason) = match winners.first() {
            Some(&i) => (
                format!("{} wins", G::seat_name(self.playing[i])),
                self.win_reason(),
            ),
            None => (
                "draw".to_string(),
                page_of(G::GAME).map_or_else(|| "a draw".into(), |p| p.draw_reason()),
            ),
        };
        Some(json!({ "score": score, "reason": reason, "winners": winners, "seats": each }))
    }

    /// The board for the page, as the game's page draws it (Chamäleon: rows top first, `sR`
    /// = South's red piece, the square colours and the playing area).
    fn board(&self) -> Value {
        nseat_board(self.current())
    }
}

impl<G: NGame> NSeat<G> {
    /// The record's comments for the seats put out on time after `ply` plies.
    fn retired_at(&self, ply: usize) -> Vec<String> {
        self.retired
            .iter()
            .filter(|&&(_, at)| at == ply)
            .map(|&(s, _)| format!("{{{} is out on time}}", G::seat_name(s)))
            .collect()
    }
}

/// An N-seat position's board for the page ([`crate::games::page::Page::board_of_position`]).
fn nseat_board<G: NGame>(pos: &G) -> Value {
    let text = pos.text();
    match page_of(G::GAME) {
        Some(page) => page.board_of_position(pos as &dyn Any, &text),
        None => grid_board(&text),
    }
}

impl<G: NGame> NSeat<G> {
    /// The positions after the game's first `ply` moves and then each of `moves`, and the
    /// moves read; an error names the move that does not replay.
    fn walk(&self, ply: usize, moves: &[String]) -> Result<(Vec<G>, Vec<Move>), GameError> {
        let start = self.positions.get(ply).ok_or(GameError::NoPly {
            ply,
            plies: self.moves.len(),
        })?;
        let mut seen = vec![start.clone()];
        let mut read = Vec::new();
        for (i, text) in moves.iter().enumerate() {
            let p = seen.last().expect("a position");
            if p.outcome().is_some() {
                return Err(GameError::LineOver {
                    number: i + 1,
                    text: text.clone(),
                    why: None,
                });
            }
            let mv = p
                .parse_move(text.trim())
                .map_err(|error| GameError::LineMove {
                    number: i + 1,
                    text: text.clone(),
                    error,
                })?;
            seen.push(p.play(mv));
            read.push(mv);
        }
        Ok((seen, read))
    }

    /// A position of a line for the page (see [`Session::position_at`]).
    fn node_json(&self, pos: &G, last: Option<(&G, Move)>) -> Value {
        let last = last.filter(|(_, mv)| !mv.is_null()).map(|(before, mv)| {
            let (from, to, _) = squares_of(G::GAME, mv, &before.move_text(mv));
            json!({ "from": from, "to": to })
        });
        let legal = if pos.outcome().is_some() {
            Vec::new()
        } else {
            nseat_legal(pos)
        };
        let result = pos
            .outcome()
            .map(|_| json!({ "score": "game over", "reason": "the game ends here" }));
        json!({ "fen": pos.text(), "board": nseat_board(pos), "last": last,
                "to_move": self.index_of(pos.to_move()), "legal": legal, "check": null,
                "note": null, "result": result })
    }
}

/// The record of an N-seat game's `moves` from `start`, numbered from `base` plies on
/// (`1.S e2e4`), the tokens `after` gives after each move, and the variations of `lines` in
/// parentheses after the move they replace (see [`movetext`]).
fn nseat_movetext<G: NGame>(
    start: &G,
    base: usize,
    moves: &[Move],
    after: &dyn Fn(usize) -> Vec<String>,
    lines: &[Line],
    out: &mut Vec<String>,
) -> Result<(), GameError> {
    let mut pos = start.clone();
    for (i, &mv) in moves.iter().enumerate() {
        out.push(format!(
            "{}.{}",
            base + i + 1,
            G::seat_letter(pos.to_move())
        ));
        out.push(pos.move_text(mv));
        out.extend(after(i));
        for alt in lines.iter().filter(|l| l.at == i) {
            let (seen, read) = NSeat::new(pos.clone()).walk(0, &alt.moves)?;
            let first = out.len();
            nseat_movetext(&seen[0], base + i, &read, &|_| Vec::new(), &alt.lines, out)?;
            if out.len() > first {
                out[first].insert(0, '(');
                out.last_mut().expect("a token").push(')');
            }
        }
        pos = pos.play(mv);
    }
    if let Some(bad) = lines.iter().find(|l| l.at >= moves.len()) {
        return Err(GameError::Variation {
            at: bad.at,
            moves: moves.len(),
        });
    }
    Ok(())
}

/// The legal moves of an N-seat position for the page (`0000`: a pass, without squares).
fn nseat_legal<G: NGame>(pos: &G) -> Vec<Value> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let text = pos.move_text(mv);
            let (from, to) = if mv.is_null() {
                (String::new(), String::new())
            } else {
                (mv.from().to_string(), mv.to().to_string())
            };
            json!({ "move": text, "san": text, "from": from, "to": to, "promotion": null })
        })
        .collect()
}

impl<G: NGame> Session for NSeat<G> {
    fn line(&self, ply: usize, moves: &[String]) -> Result<Value, GameError> {
        let (seen, read) = self.walk(ply, moves)?;
        let pos = seen.last().expect("a position");
        let last = match read.last() {
            Some(&mv) => Some((&seen[seen.len() - 2], mv)),
            None => ply
                .checked_sub(1)
                .map(|i| (&self.positions[i], self.moves[i])),
        };
        let mut v = self.node_json(pos, last);
        let texts: Vec<String> = seen
            .iter()
            .zip(&read)
            .map(|(p, &mv)| p.move_text(mv))
            .collect();
        v["sans"] = json!(texts);
        v["moves"] = json!(texts);
        Ok(v)
    }

    fn analysis_job(
        &self,
        ply: usize,
        moves: &[String],
        _multipv: usize,
        stop: Arc<AtomicBool>,
    ) -> Result<AnalysisJob, GameError> {
        let (seen, _) = self.walk(ply, moves)?;
        let at = NSeat::new(seen.last().expect("a position").clone());
        let job = at
            .engine_job(
                MAX_ANALYSIS,
                Choice::Default,
                None,
                &Solvers::default(),
                stop,
            )
            .ok_or(GameError::NothingToAnalyse { why: None })?;
        Ok(Box::new(move |sink: InfoSink| {
            job(sink);
        }))
    }

    fn game(&self) -> &'static str {
        G::GAME
    }

    fn variant(&self) -> String {
        format!("{}{}", G::GAME, self.playing.len())
    }

    fn seat_names(&self) -> Vec<&'static str> {
        self.playing.iter().map(|&s| G::seat_name(s)).collect()
    }

    fn to_move(&self) -> Option<usize> {
        let pos = self.current();
        (pos.outcome().is_none()).then(|| self.index_of(pos.to_move()))
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    fn state(&self) -> Value {
        let pos = self.current();
        let legal = nseat_legal(pos);
        let history: Vec<Value> = self
            .moves
            .iter()
            .zip(&self.positions)
            .map(|(&mv, p)| {
                let text = p.move_text(mv);
                let (from, to) = if mv.is_null() {
                    (String::new(), String::new())
                } else {
                    (mv.from().to_string(), mv.to().to_string())
                };
                json!({ "move": text, "san": text, "from": from, "to": to,
                        "seat": self.index_of(p.to_move()) })
            })
            .collect();
        let in_game: Vec<bool> = self.playing.iter().map(|&s| pos.in_game(s)).collect();
        let board = self.board();
        json!({
            "game": G::GAME,
            "variant": self.variant(),
            "fen": pos.text(),
            "start_fen": self.positions[0].text(),
            "to_move": self.to_move(),
            "size": [board["width"], board["height"]],
            "board": board,
            "legal": legal,
            "history": history,
            "result": self.result(),
            "turn": pos.turn(),
            "in_game": in_game,
        })
    }

    fn play(&mut self, text: &str) -> Result<String, GameError> {
        if let Some(r) = self.result() {
            return Err(GameError::Over {
                result: r["score"].to_string(),
            });
        }
        let pos = self.current().clone();
        let mv = pos.parse_move(text.trim())?;
        let next = pos.play(mv);
        self.positions.push(next);
        self.moves.push(mv);
        Ok(pos.move_text(mv))
    }

    fn undo(&mut self) -> bool {
        if self.moves.pop().is_some() {
            self.positions.pop();
            // Being out on time is final: a take-back does not bring a player back.
            self.apply_retired();
            true
        } else {
            false
        }
    }

    fn retire(&mut self, seat: usize) -> bool {
        let Some(&s) = self.playing.get(seat) else {
            return false;
        };
        if self.result().is_some() || !self.current().in_game(s) {
            return false;
        }
        self.retired.push((s, self.moves.len()));
        if self.apply_retired() {
            return true;
        }
        self.retired.pop();
        false
    }

    fn pgn(&self, players: &[String], notes: &Notes) -> Result<String, GameError> {
        let mut out = String::new();
        out += &tag("Event", &format!("kiebitz-web {}", G::GAME));
        out += &tag("Site", "kiebitz-web");
        out += &tag("Date", &crate::tournament::pgn::today());
        out += &tag("Variant", &self.variant());
        for (i, &s) in self.playing.iter().enumerate() {
            out += &tag(G::seat_name(s), players.get(i).map_or("?", String::as_str));
        }
        out += &tag("FEN", &self.positions[0].text());
        let result = self.result();
        let score = result.as_ref().map_or("*".to_string(), |r| {
            r["score"].as_str().unwrap_or("*").to_string()
        });
        out += &tag("Result", &score);
        for (name, value) in &notes.tags {
            out += &tag(name, value);
        }
        out.push('\n');
        let mut tokens = self.retired_at(0);
        let after = |i: usize| {
            let mut t: Vec<String> = notes
                .comments
                .get(i)
                .filter(|c| !c.is_empty())
                .map(|c| format!("{{{c}}}"))
                .into_iter()
                .collect();
            t.extend(self.retired_at(i + 1));
            t
        };
        nseat_movetext(
            &self.positions[0],
            0,
            &self.moves,
            &after,
            &notes.lines,
            &mut tokens,
        )?;
        tokens.push(if result.is_some() {
            format!("{{{score}}}")
        } else {
            "*".into()
        });
        Ok(out + &wrap(&tokens))
    }

    fn engine_job(
        &self,
        movetime: Duration,
        choice: Choice,
        level: Option<Level>,
        _solvers: &Solvers,
        stop: Arc<AtomicBool>,
    ) -> Option<EngineJob> {
        self.to_move()?;
        let pos = self.current().clone();
        let playing = self.playing.clone();
        let algorithm = match choice {
            Choice::NPlayer(a) => a,
            _ => nsearch::Options::default().algorithm,
        };
        Some(Box::new(move |mut sink: InfoSink| {
            let options = nsearch::Options {
                algorithm,
                ..nsearch::Options::default()
            };
            let mut searcher = nsearch::Searcher::<G>::new(options, ENGINE_HASH_MB);
            let flag = searcher.stop_flag();
            let limits = nsearch::Limits {
                time: Some(movetime),
                depth: match level {
                    Some(Level::Depth(d)) => Some(d),
                    _ => None,
                },
                ..nsearch::Limits::default()
            };
            let me = pos.to_move();
            let report_json = |r: &nsearch::Report| {
                let shares: Vec<f64> = playing
                    .iter()
                    .map(|&s| r.values[s] as f64 / nsearch::SCALE as f64)
                    .collect();
                let pv: Vec<String> = {
                    let mut p = pos.clone();
                    let mut out = Vec::new();
                    for &mv in &r.pv {
                        if p.parse_move(&p.move_text(mv)) != Ok(mv) {
                            break;
                        }
                        out.push(p.move_text(mv));
                        p = p.play(mv);
                    }
                    out
                };
                json!({
                    "depth": r.depth,
                    "score": { "share": r.values[me] as f64 / nsearch::SCALE as f64 },
                    "shares": shares,
                    "nodes": r.nodes,
                    "nps": r.nps(),
                    "time_ms": r.time.as_millis() as u64,
                    "pv": pv,
                    "search": algorithm.name(),
                })
            };
            let report = searcher.search(&pos, limits, |r| {
                if stop.load(Ordering::Relaxed) {
                    flag.store(true, Ordering::Relaxed);
                }
                sink(report_json(r));
            });
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let best = if moves.contains(&report.best) {
                report.best
            } else {
                *moves.first()?
            };
            Some(EngineAnswer {
                mv: pos.move_text(best),
                info: report_json(&report),
            })
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crash::Crash;
    use crate::games::crash::analysis::db::Db;
    use crate::games::crash::page::{crash_optimal, crash_solved};

    const CHAMAELEON: &str = "chamaeleon";

    #[test]
    fn every_game_is_offered_and_starts() {
        let ids: Vec<&str> = games().iter().map(|g| g.game).collect();
        for id in ["chess", "raeuber", "pawns", "crash", "chamaeleon"] {
            assert!(ids.contains(&id), "{id} missing from {ids:?}");
            let s = create(id, None, None, None, None).unwrap();
            assert_eq!(s.game(), id);
            assert!(!s.state()["legal"].as_array().unwrap().is_empty());
        }
        assert!(create("go", None, None, None, None).is_err());
    }

    #[test]
    fn boards_for_the_page() {
        let b = board_of("crash", "W2.W1..B3 w");
        assert_eq!(b["cells"], json!([2, 0, 1, 0, 0, -3]));
        let b = board_of("pawns", "ppp/3/PPP w - - 0 1");
        assert_eq!(b["rows"][1], json!(["", "", ""]));
        assert_eq!(b["rows"][2][0], "P");
        let s = create("chamaeleon", Some("chamaeleon2"), None, None, None).unwrap();
        assert_eq!(s.seat_names(), vec!["South", "North"]);
        assert_eq!(s.state()["board"]["rows"][7][0], "sR");
    }

    #[test]
    fn crash_optimal_player_plays_from_its_database() {
        assert_eq!(choice("crash", Some("optimal")), Ok(Choice::Optimal));
        assert_eq!(choice("crash", Some("heuristic")), Ok(Choice::Default));
        assert!(choice("chess", Some("optimal")).is_err());
        assert!(choice("chess", Some("heuristic")).is_err());
        // 1-vs-1: the side to move wins exactly when the gap is even (docs: theorems).
        let none = Solvers::default();
        let pos = Crash::parse("W1..B1 w").unwrap();
        let answer = crash_optimal(&pos, &none).unwrap();
        assert_eq!(answer.info["solved"]["value"], "win", "{}", answer.info);
        let pos = Crash::parse("W1...B1 w").unwrap();
        assert_eq!(
            crash_optimal(&pos, &none).unwrap().info["solved"]["value"],
            "loss"
        );
        // Too large a board: refused, and the engine job falls back to the search.
        let big = Crash::parse(&format!("W4{}B4 w", ".".repeat(18))).unwrap();
        assert!(
            crash_optimal(&big, &none)
                .unwrap_err()
                .contains("more than")
        );
        let s = create("crash", None, Some(&big.fen()), None, None).unwrap();
        let job = s
            .engine_job(
                Duration::from_millis(20),
                Choice::Optimal,
                None,
                &none,
                Arc::default(),
            )
            .unwrap();
        let answer = job(Box::new(|_| {})).unwrap();
        assert_eq!(answer.info["optimal"], false);
        // A database from a file covers its positions, whatever its size, and names its file.
        let loaded = Solvers {
            crash_dbs: vec![LoadedDb {
                path: "two.db".into(),
                db: Arc::new(Db::solve(2, 6, &mut |_, _| {}).unwrap()),
            }],
            ..Solvers::default()
        };
        let pos = Crash::parse("W2...B1. w").unwrap();
        let answer = crash_optimal(&pos, &loaded).unwrap();
        assert!(answer.info["source"].as_str().unwrap().contains("two.db"));
        let solved = crash_solved(&pos, &loaded);
        assert_eq!(solved, {
            let mut v = crash_solved(&pos, &none);
            v["source"] = solved["source"].clone();
            v
        });
        assert!(
            crash_solved(&pos, &none)["source"]
                .as_str()
                .unwrap()
                .contains("solved here")
        );
    }

    #[test]
    fn chamaeleon_seats_take_a_depth_cap_and_others_refuse_it() {
        let level = |game, elo, skill, depth| level(game, Choice::Default, elo, skill, depth);
        assert_eq!(
            level(CHAMAELEON, None, None, Some(3)),
            Ok(Some(Level::Depth(3)))
        );
        assert_eq!(level(CHAMAELEON, None, None, None), Ok(None));
        for bad in [0, MAX_NSEAT_DEPTH + 1] {
            let e = level(CHAMAELEON, None, None, Some(bad)).unwrap_err();
            assert!(e.contains("from 1 to"), "{e}");
        }
        assert!(level(CHAMAELEON, None, Some(3), None).is_err());
        assert!(
            level("chess", None, None, Some(3))
                .unwrap_err()
                .contains("Chamäleon")
        );
        assert_eq!(Level::Depth(2).field(), ("depth", 2));
        // A capped seat's search stops at its depth.
        let s = create(CHAMAELEON, Some("chamaeleon3"), None, None, None).unwrap();
        let job = s
            .engine_job(
                Duration::from_millis(5000),
                Choice::Default,
                Some(Level::Depth(1)),
                &Solvers::default(),
                Arc::default(),
            )
            .unwrap();
        let started = std::time::Instant::now();
        let answer = job(Box::new(|_| {})).unwrap();
        assert_eq!(answer.info["depth"], 1, "{}", answer.info);
        assert!(started.elapsed() < Duration::from_millis(4000));
    }

    #[test]
    fn chess_promotion_squares_and_pgn() {
        let mut s = create(
            "chess",
            None,
            Some("k7/4P3/8/8/8/8/8/K7 w - - 0 1"),
            None,
            None,
        )
        .unwrap();
        let st = s.state();
        let promos: Vec<&Value> = st["legal"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["to"] == "e8")
            .collect();
        assert_eq!(promos.len(), 4);
        assert!(promos.iter().any(|m| m["promotion"] == "q"));
        s.play("e8=Q").unwrap();
        let pgn = s
            .pgn(&["me".into(), "kiebitz".into()], &Notes::default())
            .unwrap();
        assert!(
            pgn.contains("[FEN \"k7/4P3/8/8/8/8/8/K7 w - - 0 1\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("1. e8=Q+ *"), "{pgn}");
    }
}
