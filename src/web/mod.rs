//! `kiebitz-web`: every game in the browser (issue 25). An axum server on tokio serves one
//! page (embedded with `include_str!`: no build step, nothing fetched at run time) and the
//! JSON API the page itself uses (docs/web.md):
//!
//! - `GET /api/games`, `POST /api/new`, `GET /api/game/{id}`, `POST /api/game/{id}/move`,
//!   `POST /api/game/{id}/engine`, `POST /api/game/{id}/undo`, `GET /api/game/{id}/pgn`,
//!   `GET /api/game/{id}/events` (server-sent events: the engine's live search), `GET /api/status`,
//!   `POST /api/game/{id}/resign`, `POST /api/game/{id}/draw`, `POST /api/report` (a PGN's
//!   match report, [`report`]);
//! - clocks of timed games, resigning and draws agreed, kept by the server ([`clock`]);
//! - games of the registry ([`crate::games::with_game`]) and Chamäleon Schach for 2–4 seats
//!   through [`session::Session`]; engine moves run on tokio's blocking threads, at most
//!   [`Config::engine_threads`] at once, each for a bounded think time;
//! - every limit in [`Config`]: live games, idle expiry, body size, think time, engine threads,
//!   requests in flight, event streams, plies per game. A refused request changes nothing.
//!
//! Depends on `session` (the games) and the crates axum, tokio, serde, serde_json.

mod call;
pub mod cli;
pub mod clock;
mod conn;
pub mod error;
mod record;
mod report;
mod review;
pub mod session;

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use call::{Call, GameCall};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{Semaphore, broadcast};

use session::{Choice, EngineAnswer, Level, Session};

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");
/// The rules paragraphs of `game` for the page's *Rules* button: the text its page embeds
/// (`Page::rules`, the game's `rules.md`), split at blank lines, each paragraph on one line;
/// `None` for an unknown game.
fn rules_of(game: &str) -> Option<Vec<String>> {
    let text = crate::games::page_of(game)?.rules();
    let paragraphs = text
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect();
    Some(paragraphs)
}

/// The server's limits (docs/web.md lists each with its default).
#[derive(Clone, Debug)]
pub struct Config {
    /// Games held at once; at the cap a new game replaces the game idle longest if it has
    /// been idle for [`Config::evict_after`], else the request gets 503.
    pub max_games: usize,
    /// A game untouched for this long is dropped.
    pub idle: Duration,
    /// How long a game must have been idle before a new game may replace it at the cap.
    pub evict_after: Duration,
    /// Largest request body in bytes (413 beyond).
    pub max_body: usize,
    /// Longest think time a request may ask for.
    pub max_movetime: Duration,
    /// Engine searches running at once (one thread each).
    pub engine_threads: usize,
    /// How long an engine request waits for a free engine thread before 503.
    pub engine_wait: Duration,
    /// API requests handled at once (503 beyond).
    pub max_inflight: usize,
    /// Open event streams (503 beyond).
    pub max_streams: usize,
    /// Plies one game may have.
    pub max_plies: usize,
    /// Solved values kept (one per position; the oldest goes first).
    pub max_solved: usize,
    /// The one game served (an engine binary's `web`); `None`: every game.
    pub only: Option<&'static str>,
    /// TCP connections open at once; a further one waits in the listen backlog.
    pub max_connections: usize,
    /// TCP connections open at once from one IP address; a further one is answered 503 and
    /// closed ([`conn::Limited`]).
    pub max_connections_per_peer: usize,
    /// A request head must arrive within this, counted from when the server waits for it
    /// (after connecting, or after the previous answer on a kept-alive connection).
    pub header_timeout: Duration,
    /// A request body must arrive within this (408 and the connection closed beyond).
    pub body_timeout: Duration,
    /// A connection on which no byte moved for this long is closed. It must exceed the
    /// longest engine request (think time plus the wait for a thread), which moves no byte.
    pub conn_idle: Duration,
    /// The solvers' databases and budgets (CRASH! databases loaded from files, the
    /// Räuberschach proof search's time).
    pub solvers: session::Solvers,
    /// Largest PGN `POST /api/report` takes, in bytes (413 beyond).
    pub max_report_body: usize,
    /// Host names the server answers to besides localhost names and IP addresses
    /// ([`guard_origin`]).
    pub allowed_hosts: Vec<String>,
}

impl Config {
    /// The idle time after which a connection closes: [`Config::conn_idle`], or longer where
    /// an engine request may take longer.
    pub fn connection_idle(&self) -> Duration {
        self.conn_idle
            .max(self.max_movetime + self.engine_wait + Duration::from_secs(1))
    }
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            max_games: 256,
            idle: Duration::from_secs(30 * 60),
            evict_after: Duration::from_secs(60),
            max_body: 16 * 1024,
            max_movetime: Duration::from_secs(10),
            engine_threads: (cores / 2).clamp(1, 4),
            engine_wait: Duration::from_secs(20),
            max_inflight: 64,
            max_streams: 32,
            max_plies: 1000,
            max_solved: 4096,
            only: None,
            max_connections: 128,
            max_connections_per_peer: 32,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            conn_idle: Duration::from_secs(60),
            solvers: session::Solvers::default(),
            max_report_body: 256 * 1024,
            allowed_hosts: Vec::new(),
        }
    }
}

/// Think time when neither the request nor the seat names one.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// What a seat is: a person at the page or the engine with its think time and search.
#[derive(Clone, Debug)]
enum Seat {
    Human,
    Engine {
        movetime: Duration,
        search: Choice,
        level: Option<Level>,
    },
}

impl Seat {
    fn json(&self, name: &str) -> Value {
        match self {
            Seat::Human => json!({ "kind": "human", "name": name }),
            Seat::Engine {
                movetime,
                search,
                level,
            } => {
                let mut v = json!({
                    "kind": "engine", "name": name,
                    "movetime_ms": movetime.as_millis() as u64,
                    "search": search.name(),
                });
                if let Some((field, n)) = level.map(Level::field) {
                    v[field] = json!(n);
                }
                v
            }
        }
    }

    /// The seat's name in the PGN: `Human`, or the engine with its search, strength and think
    /// time (in a timed game: `by its clock`, as it then thinks).
    fn player_name(&self, timed: bool) -> String {
        match self {
            Seat::Human => "Human".into(),
            Seat::Engine {
                movetime,
                search,
                level,
            } => format!(
                "kiebitz{}{} {}",
                search.name().map_or(String::new(), |a| format!(" {a}")),
                level.map_or(String::new(), |l| {
                    let (field, n) = l.field();
                    format!(" {field} {n}")
                }),
                if timed {
                    "by its clock".to_string()
                } else {
                    format!("{} ms", movetime.as_millis())
                }
            ),
        }
    }
}

/// One live game.
struct Entry {
    session: Box<dyn Session>,
    seats: Vec<Seat>,
    last_used: Instant,
    /// The ticket of the engine request searching for this game, if one is: moves, undo
    /// and other engine requests wait for it (409). Only that request clears it.
    busy: Option<u64>,
    /// The engine's live reports, as JSON lines, for `/events`.
    events: broadcast::Sender<String>,
    /// The stop flag of the analysis running in this game, if one is.
    analysis: Option<Arc<AtomicBool>>,
    /// The clocks of a timed game.
    clock: Option<clock::GameClock>,
    /// The result of a game ended at the server (a flag fallen, a resignation, a draw
    /// agreed); it stands over the session's.
    ended: Option<Value>,
    /// The seat whose draw offer stands (until the next move).
    draw_offer: Option<usize>,
    /// The score of the last engine move for the engine: (its seat, the plies after it,
    /// the score), for a draw offer ([`clock::engine_takes_draw`]).
    last_eval: Option<(usize, usize, Value)>,
    /// Counts the game's changes (moves, take-backs, endings, offers): the state carries it
    /// and each change is announced on the event stream with it ([`Entry::changed`]).
    version: u64,
    /// The id of the game's read-only spectator link.
    watch: String,
    /// What the server noted of each ply (the mover's clock, the engine's think time).
    notes: Vec<record::PlyNote>,
    /// The evaluation of each position of the game (the review of every move).
    evals: review::Evals,
    /// The stop flag of the review running in this game, and how far it got (done, of).
    review: Option<(Arc<AtomicBool>, usize, usize)>,
}

impl Entry {
    /// A new game's entry.
    fn new(
        session: Box<dyn Session>,
        seats: Vec<Seat>,
        clock: Option<clock::GameClock>,
        watch: String,
    ) -> Entry {
        Entry {
            session,
            seats,
            last_used: Instant::now(),
            busy: None,
            events: broadcast::channel(64).0,
            analysis: None,
            clock,
            ended: None,
            draw_offer: None,
            last_eval: None,
            version: 0,
            watch,
            notes: Vec::new(),
            evals: review::Evals::default(),
            review: None,
        }
    }

    /// Keeps an evaluation of the position after `ply` plies; a new or deeper one is
    /// announced on the event stream (`{"type": "eval", "ply", "eval"}`).
    fn record_eval(&mut self, ply: usize, eval: Value) {
        if ply <= self.session.plies() && self.evals.record(ply, eval) {
            let ev = json!({ "type": "eval", "ply": ply, "eval": self.evals.get(ply) });
            let _ = self.events.send(ev.to_string());
        }
    }

    /// Stops the game's review, if one runs.
    fn stop_review(&mut self) {
        if let Some((flag, _, _)) = self.review.take() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The game changed: its version counts up and the event stream hears of it (`what`: the
    /// event, to which the version and the plies are added).
    fn changed(&mut self, mut what: Value) {
        self.version += 1;
        what["version"] = json!(self.version);
        what["plies"] = json!(self.session.plies());
        let _ = self.events.send(what.to_string());
    }

    /// A move was played (`played`: its coordinates): announced with its SAN.
    fn announce_move(&mut self, played: &str) -> Value {
        let san = self.session.state()["history"]
            .as_array()
            .and_then(|h| h.last())
            .map_or(Value::Null, |m| m["san"].clone());
        self.changed(json!({ "type": "move", "move": played, "san": san }));
        san
    }

    /// Stops the game's analysis, if one runs (a move, a take-back, an engine move or a new
    /// analysis; the game dropped).
    fn stop_analysis(&mut self) {
        if let Some(flag) = self.analysis.take() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Ends the game at the server with `winner` (`None`: a draw) and why; the clocks stop.
    fn end(&mut self, winner: Option<usize>, reason: &str, now: Instant) {
        let names = self.session.seat_names();
        self.ended = Some(clock::ending(&names, winner, reason));
        self.draw_offer = None;
        if let Some(c) = self.clock.as_mut() {
            c.stop(now);
        }
    }

    /// After `seat` moved at `now`: its clock charged (none before the first move), the next
    /// one started; an offer lapses; the ply's note kept (`emt`: an engine's think time).
    fn moved(&mut self, seat: Option<usize>, now: Instant, emt: Option<u64>) {
        self.draw_offer = None;
        let next = self.session.to_move();
        let mut clk = None;
        if let (Some(c), Some(seat)) = (self.clock.as_mut(), seat) {
            // The flag was checked at `now` before the move: this cannot fail.
            let _ = c.moved(seat, next, now);
            clk = Some(c.left(seat, now).as_millis() as u64);
        }
        self.notes.truncate(self.session.plies().saturating_sub(1));
        self.notes.push(record::PlyNote { clk, emt });
    }

    /// Fallen flags, up to `now`: in a game of more than two seats the seat is out and the
    /// others play on, the next seat's clock running from the moment the flag fell (where the
    /// game lets a player drop out: [`Session::retire`]); else the game ends: the seat loses
    /// on time, or draws where the other seat could not win ([`Session::can_win`]).
    fn settle(&mut self, now: Instant) {
        while self.ended.is_none() {
            let Some((seat, fell)) = self.clock.as_ref().and_then(|c| c.flag_fall(now)) else {
                return;
            };
            if self.seats.len() > 2 && self.session.retire(seat) {
                self.draw_offer = None;
                self.stop_analysis();
                let next = self.session.to_move();
                if let Some(c) = self.clock.as_mut() {
                    c.restart(next, fell);
                }
                self.changed(json!({ "type": "state" }));
                continue;
            }
            self.flag_falls(seat, now);
            self.changed(json!({ "type": "state" }));
        }
    }

    /// `seat`'s flag has fallen in a game of two seats: the other wins, unless it could not
    /// win by any series of moves (lichess's rule: a draw).
    fn flag_falls(&mut self, seat: usize, now: Instant) {
        let names = self.session.seat_names();
        let (name, other) = (names[seat], 1 - seat);
        if self.session.can_win(other) {
            self.end(Some(other), &format!("{name} loses on time"), now);
        } else {
            let reason = format!(
                "{name} ran out of time, but {} cannot win: a draw",
                names[other]
            );
            self.end(None, &reason, now);
        }
    }

    /// 400 once the game is over, at the server or on the board.
    fn refuse_over(&self) -> Result<(), ApiError> {
        if let Some(r) = &self.ended {
            return Err(ApiError::bad(format!(
                "the game is over ({}: {})",
                r["score"].as_str().unwrap_or("?"),
                r["reason"].as_str().unwrap_or("?")
            )));
        }
        Ok(())
    }

    /// The seat a resignation or draw offer comes from ([`Self::acting_seat`]), once a fallen
    /// flag has ended the game ([`Self::settle`]); 400 when the game is over.
    fn seat_acting_now(&mut self, named: Option<usize>, now: Instant) -> Result<usize, ApiError> {
        self.settle(now);
        self.refuse_over()?;
        let seat = self.acting_seat(named)?;
        if self.session.to_move().is_none() {
            return Err(ApiError::bad("the game is over"));
        }
        Ok(seat)
    }

    /// The seat a resignation or draw offer comes from: the one named, else the one person's
    /// seat, else the seat to move. Two-seat games only.
    fn acting_seat(&self, named: Option<usize>) -> Result<usize, ApiError> {
        if self.seats.len() != 2 {
            return Err(ApiError::bad(TWO_SEATS_ONLY));
        }
        if let Some(s) = named {
            return if s < 2 {
                Ok(s)
            } else {
                Err(ApiError::bad(format!(
                    "no seat {s}: the game has seats 0 and 1"
                )))
            };
        }
        let people: Vec<usize> = (0..2)
            .filter(|&i| matches!(self.seats[i], Seat::Human))
            .collect();
        match people[..] {
            [one] => Ok(one),
            _ => self
                .session
                .to_move()
                .ok_or_else(|| ApiError::bad("the game is over")),
        }
    }
}

/// Why a resignation or a draw offer is refused in a game of more seats.
const TWO_SEATS_ONLY: &str =
    "resigning and draw offers are for games of two seats; this game has more";

impl Drop for Entry {
    fn drop(&mut self) {
        self.stop_analysis();
        self.stop_review();
    }
}

/// The shared state of the server.
struct App {
    config: Config,
    games: Mutex<HashMap<String, Arc<Mutex<Entry>>>>,
    /// The spectator links: a read-only id and the game's id.
    watchers: Mutex<HashMap<String, String>>,
    engines: Arc<Semaphore>,
    inflight: Arc<Semaphore>,
    streams: Arc<Semaphore>,
    /// One permit per open TCP connection ([`conn::Limited`]).
    connections: Arc<Semaphore>,
    next_id: AtomicU64,
    /// Set when the server shuts down: running searches stop.
    stop: Arc<AtomicBool>,
    /// Solved values of positions, by the session's key, and the solves under way.
    solved: Mutex<SolvedCache>,
    /// One solve at a time, on a blocking thread.
    solver: Arc<Semaphore>,
    /// Analyses running at once (as many as engine threads, apart from them, so that an
    /// analysis left running never keeps an engine from moving).
    analyses: Arc<Semaphore>,
}

/// Solves waiting or running at most; a position beyond it is queued when asked again.
const MAX_SOLVES_QUEUED: usize = 16;
/// A queued solve whose position nobody asked for in this long is dropped when its turn
/// comes (the game moved on; the page asks every second while it waits).
const SOLVE_STALE: Duration = Duration::from_secs(10);

#[derive(Default)]
struct SolvedCache {
    known: HashMap<String, Value>,
    order: std::collections::VecDeque<String>,
    /// The solves queued or running, with the last time their position was asked for.
    pending: HashMap<String, Instant>,
}

type Shared = Arc<App>;

/// An API error: a status and a message, sent as `{"error": message}`.
#[derive(Debug)]
struct ApiError(StatusCode, String);

impl ApiError {
    fn bad(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, msg.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut msg = self.1;
        if msg.len() > 400 {
            let mut cut = 400;
            while !msg.is_char_boundary(cut) {
                cut -= 1;
            }
            msg.truncate(cut);
            msg.push('…');
        }
        (self.0, axum::Json(json!({ "error": msg }))).into_response()
    }
}

type ApiResult = Result<Response, ApiError>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The request body as JSON of type `T`: 413 beyond the size limit, 400 if malformed.
fn parse_body<T: for<'de> Deserialize<'de>>(
    body: Result<Bytes, BytesRejection>,
    empty_ok: bool,
) -> Result<Option<T>, ApiError> {
    let bytes = body.map_err(|r| ApiError(r.status(), r.body_text()))?;
    let blank = bytes.iter().all(u8::is_ascii_whitespace) || bytes.trim_ascii() == b"null";
    if blank {
        return if empty_ok {
            Ok(None)
        } else {
            Err(ApiError::bad("the request needs a JSON body"))
        };
    }
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| ApiError::bad(format!("malformed JSON: {e}")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    kind: String,
    movetime_ms: Option<u64>,
    search: Option<String>,
    elo: Option<u32>,
    skill: Option<u32>,
    depth: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewRequest {
    game: String,
    variant: Option<String>,
    fen: Option<String>,
    /// Start position number where the variant has several (Chess960: 0 to 959).
    start: Option<u32>,
    seats: Option<Vec<SeatRequest>>,
    /// A time control: the game is timed (a clock per seat).
    clock: Option<ClockRequest>,
    /// A game's PGN: its start position (`FEN` tag) and main line are played on the new board.
    pgn: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    base_ms: u64,
    inc_ms: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatChoice {
    seat: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineRequest {
    movetime_ms: Option<u64>,
    search: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisRequest {
    ply: Option<usize>,
    multipv: Option<usize>,
    /// A line of the page's move tree played from the game's position after `ply` plies.
    #[serde(default)]
    moves: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineRequest {
    ply: usize,
    #[serde(default)]
    moves: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PgnRequest {
    /// The page's variations, written into the PGN.
    #[serde(default)]
    lines: Vec<session::Line>,
}

/// Most moves the variations of a PGN request may hold, and their deepest nesting.
const MAX_LINE_MOVES: usize = 2000;
const MAX_LINE_DEPTH: usize = 32;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlyQuery {
    ply: usize,
}

/// Most lines an analysis shows (MultiPV).
pub const MAX_MULTIPV: usize = 5;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    plies: Option<usize>,
    /// The plies the page saw: a take-back of a game that has changed since is refused (a
    /// double click takes back no more than a click).
    at: Option<usize>,
}

impl App {
    /// One of the engine threads, waiting at most `engine_wait` for it; 503 when every one
    /// stays busy.
    async fn engine_permit(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        tokio::time::timeout(
            self.config.engine_wait,
            Arc::clone(&self.engines).acquire_owned(),
        )
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or_else(|| {
            ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "every engine thread is busy; try again later".into(),
            )
        })
    }

    fn new(config: Config) -> App {
        App {
            engines: Arc::new(Semaphore::new(config.engine_threads.max(1))),
            analyses: Arc::new(Semaphore::new(config.engine_threads.max(1))),
            inflight: Arc::new(Semaphore::new(config.max_inflight.max(1))),
            streams: Arc::new(Semaphore::new(config.max_streams)),
            connections: Arc::new(Semaphore::new(config.max_connections.max(1))),
            config,
            games: Mutex::new(HashMap::new()),
            watchers: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            stop: Arc::new(AtomicBool::new(false)),
            solved: Mutex::new(SolvedCache::default()),
            solver: Arc::new(Semaphore::new(1)),
        }
    }

    /// The solved value of the session's position: `null` where the game has none,
    /// `{"pending": true}` while it is being solved (on a blocking thread, one solve at a
    /// time, started by this call), then the value, kept for later requests.
    fn solved(self: &Arc<App>, session: &dyn Session) -> Value {
        let Some((key, job)) = session.solve_job(&self.config.solvers) else {
            return Value::Null;
        };
        let mut cache = lock(&self.solved);
        if let Some(v) = cache.known.get(&key) {
            return v.clone();
        }
        if let Some(asked) = cache.pending.get_mut(&key) {
            *asked = Instant::now();
            return json!({ "pending": true });
        }
        if cache.pending.len() >= MAX_SOLVES_QUEUED {
            return json!({ "pending": true });
        }
        cache.pending.insert(key.clone(), Instant::now());
        drop(cache);
        let app = Arc::clone(self);
        tokio::spawn(async move {
            let Ok(permit) = Arc::clone(&app.solver).acquire_owned().await else {
                return;
            };
            {
                let mut cache = lock(&app.solved);
                let asked = cache.pending.get(&key).copied();
                if asked.is_none_or(|t| t.elapsed() >= SOLVE_STALE) {
                    cache.pending.remove(&key);
                    return;
                }
            }
            let stop = Arc::clone(&app.stop);
            let value = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                job(&stop)
            })
            .await
            .unwrap_or_else(|_| json!({ "unknown": "the solver failed" }));
            let mut cache = lock(&app.solved);
            cache.pending.remove(&key);
            while cache.order.len() >= app.config.max_solved.max(1) {
                if let Some(old) = cache.order.pop_front() {
                    cache.known.remove(&old);
                }
            }
            cache.order.push_back(key.clone());
            cache.known.insert(key, value);
        });
        json!({ "pending": true })
    }

    /// A think time from a request, within the limit.
    fn movetime(&self, ms: u64) -> Result<Duration, ApiError> {
        let max = self.config.max_movetime.as_millis() as u64;
        if ms == 0 || ms > max {
            return Err(ApiError::bad(format!(
                "movetime_ms must be from 1 to {max}, not {ms}"
            )));
        }
        Ok(Duration::from_millis(ms))
    }

    /// The engine a search name stands for in `game` (docs/web.md: `searches`).
    fn search(&self, game: &str, name: Option<&str>) -> Result<Choice, ApiError> {
        session::choice(game, name).map_err(ApiError::bad)
    }

    /// A fresh, hard-to-guess game id.
    fn new_id(&self) -> String {
        use std::hash::{BuildHasher, Hasher};
        let n = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(n);
        format!("{n:x}{:012x}", h.finish() & 0xffff_ffff_ffff)
    }

    /// The game `id`, marked as used now, for a request that may change it; 404 if there is
    /// none, 403 for a spectator link's id (read-only).
    fn entry(&self, id: &str) -> Result<Arc<Mutex<Entry>>, ApiError> {
        let (e, spectator) = self.view_entry(id)?;
        if spectator {
            return Err(ApiError(
                StatusCode::FORBIDDEN,
                "this is a spectator link: it shows the game but cannot change it".into(),
            ));
        }
        Ok(e)
    }

    /// The game `id` or the game whose spectator link `id` is (then `true`), marked as used
    /// now, for a request that only reads it; 404 if there is none.
    fn view_entry(&self, id: &str) -> Result<(Arc<Mutex<Entry>>, bool), ApiError> {
        let games = lock(&self.games);
        let watched = lock(&self.watchers).get(id).cloned();
        let found = match &watched {
            Some(game) => games.get(game).cloned().map(|e| (e, true)),
            None => games.get(id).cloned().map(|e| (e, false)),
        };
        drop(games);
        let (e, spectator) =
            found.ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no game '{id}'")))?;
        lock(&e).last_used = Instant::now();
        Ok((e, spectator))
    }

    /// Forgets the spectator links of games no longer held.
    fn forget_watchers(&self, games: &HashMap<String, Arc<Mutex<Entry>>>) {
        lock(&self.watchers).retain(|_, game| games.contains_key(game));
    }

    /// Drops the games idle longer than the limit; returns how many.
    fn expire(&self) -> usize {
        let now = Instant::now();
        let mut games = lock(&self.games);
        let before = games.len();
        games.retain(|_, e| {
            let e = lock(e);
            e.busy.is_some() || now.duration_since(e.last_used) < self.config.idle
        });
        self.forget_watchers(&games);
        before - games.len()
    }

    /// Room for one more game: at the cap, the game idle longest goes if it has been idle
    /// long enough.
    fn make_room(&self, games: &mut HashMap<String, Arc<Mutex<Entry>>>) -> Result<(), ApiError> {
        if games.len() < self.config.max_games {
            return Ok(());
        }
        let now = Instant::now();
        let oldest = games
            .iter()
            .filter_map(|(id, e)| {
                let e = lock(e);
                e.busy.is_none().then(|| (e.last_used, id.clone()))
            })
            .min();
        match oldest {
            Some((used, id)) if now.duration_since(used) >= self.config.evict_after => {
                games.remove(&id);
                self.forget_watchers(games);
                Ok(())
            }
            _ => Err(ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server holds its limit of {} games; try again later",
                    self.config.max_games
                ),
            )),
        }
    }
}

/// The state of a game for the API: the session's state plus id, seats, flags and the
/// solved value of the position where the game has one ([`App::solved`]).
fn state_json(app: &Shared, id: &str, e: &Entry) -> Value {
    let mut v = e.session.state();
    v["solved"] = app.solved(e.session.as_ref());
    let names = e.session.seat_names();
    v["id"] = json!(id);
    v["spectator"] = json!(id == e.watch);
    v["watch"] = json!(e.watch);
    v["version"] = json!(e.version);
    v["seats"] = json!(
        e.seats
            .iter()
            .zip(&names)
            .map(|(s, n)| s.json(n))
            .collect::<Vec<_>>()
    );
    v["busy"] = json!(e.busy.is_some());
    v["analysing"] = json!(e.analysis.is_some());
    v["plies"] = json!(e.session.plies());
    v["clock"] = e
        .clock
        .as_ref()
        .map_or(Value::Null, |c| c.json(Instant::now()));
    v["draw_offer"] = json!(e.draw_offer);
    if let Some(r) = &e.ended {
        v["result"] = r.clone();
        v["to_move"] = Value::Null;
        v["legal"] = json!([]);
        v["solved"] = Value::Null;
    }
    v
}

async fn list_games(State(app): State<Shared>) -> Response {
    let games: Vec<Value> = session::games()
        .into_iter()
        .filter(|g| app.config.only.is_none_or(|only| only == g.game))
        .map(|g| {
            let rules = rules_of(g.game).unwrap_or_default();
            json!({ "game": g.game, "title": g.title, "about": g.about,
                    "variants": g.variants, "variant_titles": g.variant_titles,
                    "starts": g.starts, "seats": g.seats,
                    "seat_names": g.seat_names, "searches": g.searches, "elo": g.elo,
                    "skill": g.skill, "depth": g.depth, "rules": rules })
        })
        .collect();
    axum::Json(games).into_response()
}

/// The server's load against its limits.
async fn status(State(app): State<Shared>) -> Response {
    let games = lock(&app.games).len();
    let c = &app.config;
    let mut status = json!({
        "games": games,
        "max_games": c.max_games,
        "idle_s": c.idle.as_secs_f64(),
        "max_body": c.max_body,
        "max_movetime_ms": c.max_movetime.as_millis() as u64,
        "engine_threads": c.engine_threads,
        "engines_free": app.engines.available_permits(),
        "max_inflight": c.max_inflight,
        "max_streams": c.max_streams,
        "max_plies": c.max_plies,
        "only": c.only,
        "max_connections": c.max_connections,
        "connections": c.max_connections - app.connections.available_permits(),
        "conn_idle_s": c.connection_idle().as_secs_f64(),
        "max_report_body": c.max_report_body,
    });
    if let Some(o) = status.as_object_mut() {
        o.extend(c.solvers.status());
    }
    axum::Json(status).into_response()
}

/// The start position a PGN names (its `FEN` tag) and its main line's moves, for a new game
/// from a PGN; 400 for a text that is not PGN.
fn pgn_start(text: &str) -> Result<(Option<String>, Vec<String>), ApiError> {
    let games = crate::pgn::parse(text).map_err(|e| ApiError::bad(format!("not a PGN: {e}")))?;
    let game = games
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::bad("the PGN holds no game"))?;
    Ok((game.tag("FEN").map(str::to_string), game.moves))
}

/// Plays a PGN's main line on a new game's board (started from its `FEN` tag); 400 naming the
/// move that does not replay.
fn import_pgn(e: &mut Entry, text: &str, max_plies: usize) -> Result<(), ApiError> {
    let (_, moves) = pgn_start(text)?;
    if moves.len() > max_plies {
        return Err(ApiError::bad(format!(
            "the PGN has {} plies, beyond the server's limit of {max_plies}",
            moves.len()
        )));
    }
    for (i, mv) in moves.iter().enumerate() {
        e.session.play(mv).map_err(|err| {
            ApiError::bad(format!(
                "the PGN's move {} ({mv}) does not replay: {err}",
                i + 1
            ))
        })?;
        e.notes.push(record::PlyNote::default());
    }
    Ok(())
}

async fn new_game(State(app): State<Shared>, body: Result<Bytes, BytesRejection>) -> ApiResult {
    let mut req: NewRequest = parse_body(body, false)?.expect("a body");
    if let Some(text) = &req.pgn {
        if req.fen.is_some() || req.start.is_some() {
            return Err(ApiError::bad(
                "a new game takes a PGN or a FEN or a start number, one of them",
            ));
        }
        req.fen = pgn_start(text)?.0;
    }
    if req.fen.as_ref().is_some_and(|f| f.len() > 300) {
        return Err(ApiError::bad("the FEN is longer than 300 characters"));
    }
    let game = crate::games::page_of(&req.game).map_or(req.game.as_str(), |p| p.id());
    if let Some(only) = app.config.only
        && game != only
    {
        return Err(ApiError::bad(format!(
            "this server plays only {only}, not '{}' (kiebitz-web serves every game)",
            req.game
        )));
    }
    if req.seats.as_ref().is_some_and(Vec::is_empty) {
        return Err(ApiError::bad(
            "\"seats\" is empty: name every seat, or leave the field out for the defaults",
        ));
    }
    let mut seats = Vec::new();
    for s in req.seats.iter().flatten() {
        seats.push(match s.kind.as_str() {
            "human" => {
                if s.movetime_ms.is_some()
                    || s.search.is_some()
                    || s.elo.is_some()
                    || s.skill.is_some()
                    || s.depth.is_some()
                {
                    return Err(ApiError::bad(
                        "a human seat has no movetime_ms, search, elo, skill or depth",
                    ));
                }
                Seat::Human
            }
            "engine" => {
                let search = app.search(game, s.search.as_deref())?;
                Seat::Engine {
                    movetime: app.movetime(s.movetime_ms.unwrap_or(DEFAULT_MOVETIME_MS))?,
                    search,
                    level: session::level(game, search, s.elo, s.skill, s.depth)
                        .map_err(ApiError::bad)?,
                }
            }
            other => {
                return Err(ApiError::bad(format!(
                    "unknown seat kind '{other}': human or engine"
                )));
            }
        });
    }
    let players = (!seats.is_empty()).then_some(seats.len());
    let session = session::create(
        game,
        req.variant.as_deref(),
        req.fen.as_deref(),
        req.start,
        players,
    )
    .map_err(ApiError::bad)?;
    let n = session.seat_names().len();
    if seats.is_empty() {
        seats.push(Seat::Human);
        while seats.len() < n {
            seats.push(Seat::Engine {
                movetime: Duration::from_millis(DEFAULT_MOVETIME_MS),
                search: Choice::Default,
                level: None,
            });
        }
    }
    if seats.len() != n {
        return Err(ApiError::bad(format!(
            "this {} game has {n} seats, the request names {}",
            session.game(),
            seats.len()
        )));
    }
    let clock = match req.clock {
        None => None,
        Some(c) => {
            let control = clock::TimeControl::from_ms(c.base_ms, c.inc_ms.unwrap_or(0))
                .map_err(ApiError::bad)?;
            // No clock runs before the first move.
            Some(clock::GameClock::new(control, n, None, Instant::now()))
        }
    };
    let (id, watch) = (app.new_id(), format!("w{}", app.new_id()));
    let mut entry = Entry::new(session, seats, clock, watch.clone());
    if let Some(text) = &req.pgn {
        import_pgn(&mut entry, text, app.config.max_plies)?;
    }
    let state = state_json(&app, &id, &entry);
    let mut games = lock(&app.games);
    app.make_room(&mut games)?;
    games.insert(id.clone(), Arc::new(Mutex::new(entry)));
    lock(&app.watchers).insert(watch, id);
    Ok((StatusCode::CREATED, axum::Json(state)).into_response())
}

async fn get_game(State(app): State<Shared>, Path(id): Path<String>) -> ApiResult {
    let (e, _) = app.view_entry(&id)?;
    let mut e = lock(&e);
    e.settle(Instant::now());
    Ok(axum::Json(state_json(&app, &id, &e)).into_response())
}

fn refuse_busy(e: &Entry) -> Result<(), ApiError> {
    if e.busy.is_some() {
        return Err(ApiError(
            StatusCode::CONFLICT,
            "the engine is thinking in this game; wait for its move".into(),
        ));
    }
    Ok(())
}

async fn play_move(call: GameCall) -> ApiResult {
    let mut call = call.changes::<MoveRequest>()?;
    let req = call.required()?;
    let Call {
        app, id, entry: e, ..
    } = call;
    let mut e = lock(&e);
    let now = Instant::now();
    e.settle(now);
    e.refuse_over()?;
    refuse_busy(&e)?;
    if e.session.plies() >= app.config.max_plies {
        return Err(ApiError::bad(format!(
            "this game has reached the server's limit of {} plies",
            app.config.max_plies
        )));
    }
    if req.mv.len() > 20 {
        return Err(ApiError::bad("a move is at most 20 characters"));
    }
    let seat = e.session.to_move();
    let played = e.session.play(&req.mv).map_err(ApiError::bad)?;
    e.moved(seat, now, None);
    e.stop_analysis();
    e.announce_move(&played);
    Ok(axum::Json(state_json(&app, &id, &e)).into_response())
}

async fn undo(call: GameCall) -> ApiResult {
    let Call {
        app,
        id,
        entry: e,
        req,
    } = call.changes::<UndoRequest>()?;
    let plies = req.as_ref().and_then(|r| r.plies).unwrap_or(1);
    let mut e = lock(&e);
    let now = Instant::now();
    e.settle(now);
    e.refuse_over()?;
    refuse_busy(&e)?;
    if let Some(at) = req.and_then(|r| r.at)
        && at != e.session.plies()
    {
        return Err(ApiError(
            StatusCode::CONFLICT,
            format!(
                "the game has changed ({} plies, not {at}): nothing was taken back",
                e.session.plies()
            ),
        ));
    }
    if plies == 0 || plies > e.session.plies() {
        return Err(ApiError::bad(format!(
            "cannot take back {plies} plies: the game has {}",
            e.session.plies()
        )));
    }
    for _ in 0..plies {
        e.session.undo();
    }
    let left = e.session.plies();
    e.notes.truncate(left);
    e.evals.truncate(left);
    // Back at the start no clock runs (none runs before the first move).
    let next = e.session.to_move().filter(|_| left > 0);
    if let Some(c) = e.clock.as_mut() {
        c.restart(next, now);
    }
    e.draw_offer = None;
    e.stop_analysis();
    e.changed(json!({ "type": "state" }));
    Ok(axum::Json(state_json(&app, &id, &e)).into_response())
}

/// Clears an entry's busy ticket however the engine request ends (also when its future is
/// dropped because the client went away) — only if it is still this request's: a later
/// request's ticket stays.
struct BusyGuard(Arc<Mutex<Entry>>, u64);

impl Drop for BusyGuard {
    fn drop(&mut self) {
        let mut e = lock(&self.0);
        if e.busy == Some(self.1) {
            e.busy = None;
        }
    }
}

/// Tickets of engine requests, unique in the process.
static TICKETS: AtomicU64 = AtomicU64::new(1);

/// What an engine request takes from its game before the search (besides the job): the
/// game's event sender, the plies at the start, the request's busy ticket and the seat to move.
struct EngineStart {
    events: broadcast::Sender<String>,
    plies: usize,
    ticket: u64,
    seat: usize,
    /// When the search was asked for (its real think time, waiting for a thread included).
    began: Instant,
}

/// The engine's think time for `seat`: from its clock in a timed game (where asking for a
/// think time is refused), else the request's, else the seat's own.
fn engine_movetime(
    app: &App,
    e: &Entry,
    seat: usize,
    asked: Option<u64>,
    now: Instant,
) -> Result<Duration, ApiError> {
    let seat_time = match &e.seats[seat] {
        Seat::Engine { movetime, .. } => Some(*movetime),
        Seat::Human => None,
    };
    match (&e.clock, asked) {
        (Some(_), Some(_)) => Err(ApiError::bad(
            "this game is timed: the engine's think time comes from its clock",
        )),
        (Some(c), None) => Ok(c.think_time(seat, now, app.config.max_movetime)),
        (None, Some(ms)) => app.movetime(ms),
        (None, None) => Ok(seat_time.unwrap_or(Duration::from_millis(DEFAULT_MOVETIME_MS))),
    }
}

/// Checks that the engine may move in the game now, packs its search as a job and marks the
/// game busy with a fresh ticket.
fn start_engine(
    app: &App,
    e: &mut Entry,
    req: Option<&EngineRequest>,
) -> Result<(session::EngineJob, EngineStart), ApiError> {
    let now = Instant::now();
    e.settle(now);
    e.refuse_over()?;
    refuse_busy(e)?;
    let seat = e
        .session
        .to_move()
        .ok_or_else(|| ApiError::bad("the game is over"))?;
    if e.session.plies() >= app.config.max_plies {
        return Err(ApiError::bad(format!(
            "this game has reached the server's limit of {} plies",
            app.config.max_plies
        )));
    }
    let (seat_search, level) = match &e.seats[seat] {
        Seat::Engine { search, level, .. } => (*search, *level),
        Seat::Human => (Choice::Default, None),
    };
    let movetime = engine_movetime(app, e, seat, req.and_then(|r| r.movetime_ms), now)?;
    let search = match req.and_then(|r| r.search.as_deref()) {
        Some(name) => app.search(e.session.game(), Some(name))?,
        None => seat_search,
    };
    let job = e
        .session
        .engine_job(
            movetime,
            search,
            level,
            &app.config.solvers,
            Arc::clone(&app.stop),
        )
        .ok_or_else(|| ApiError::bad("the game is over"))?;
    let ticket = TICKETS.fetch_add(1, Ordering::Relaxed);
    e.busy = Some(ticket);
    e.stop_analysis();
    let start = EngineStart {
        events: e.events.clone(),
        plies: e.session.plies(),
        ticket,
        seat,
        began: now,
    };
    Ok((job, start))
}

/// Runs the search on a blocking thread once an engine thread is free, its reports streamed
/// to the game's events.
async fn run_engine(
    app: &App,
    job: session::EngineJob,
    events: broadcast::Sender<String>,
) -> Result<EngineAnswer, ApiError> {
    let permit = app.engine_permit().await?;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        job(Box::new(move |info| {
            let _ = events.send(json!({ "type": "info", "info": info }).to_string());
        }))
    })
    .await
    .map_err(|_| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the engine failed".into(),
        )
    })?
    .ok_or_else(|| ApiError::bad("the engine has no move here"))
}

/// Plays the engine's answer in the game, unless the game ended (a flag, a resignation:
/// the move does not count) or changed during the search (409).
fn finish_engine(
    app: &Shared,
    id: &str,
    e: &mut Entry,
    start: &EngineStart,
    answer: EngineAnswer,
) -> ApiResult {
    let now = Instant::now();
    e.settle(now);
    // Ended, or the engine's seat put out on time during the search: its move does not count.
    if e.ended.is_some() || e.session.to_move() != Some(start.seat) {
        e.busy = None;
        return Ok(axum::Json(json!({
            "move": null, "san": null, "info": answer.info,
            "state": state_json(app, id, e),
        }))
        .into_response());
    }
    if e.session.plies() != start.plies {
        return Err(ApiError(
            StatusCode::CONFLICT,
            "the game changed while the engine was thinking".into(),
        ));
    }
    let played = e.session.play(&answer.mv).map_err(|err| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the engine's move {} was refused: {err}", answer.mv),
        )
    })?;
    e.busy = None;
    let spent = start.began.elapsed().as_millis() as u64;
    e.moved(Some(start.seat), now, Some(spent));
    e.last_eval = Some((start.seat, start.plies + 1, answer.info["score"].clone()));
    e.stop_analysis();
    let san = e.announce_move(&played);
    if answer.info["limited"] != true {
        let eval = json!({ "white": answer.info["white"], "depth": answer.info["depth"],
                           "best": played, "best_san": san });
        e.record_eval(start.plies, eval);
    }
    Ok(axum::Json(json!({
        "move": played,
        "san": san,
        "info": answer.info,
        "state": state_json(app, id, e),
    }))
    .into_response())
}

/// The engine moves for the seat to move: [`start_engine`], [`run_engine`] off the game's
/// lock, [`finish_engine`].
async fn engine_move(call: GameCall) -> ApiResult {
    let Call {
        app,
        id,
        entry,
        req,
    } = call.changes::<EngineRequest>()?;
    let (job, start) = start_engine(&app, &mut lock(&entry), req.as_ref())?;
    let _guard = BusyGuard(Arc::clone(&entry), start.ticket);
    let answer = run_engine(&app, job, start.events.clone()).await?;
    finish_engine(&app, &id, &mut lock(&entry), &start, answer)
}

/// The seat named (else the one person's seat, else the seat to move) resigns: the other
/// seat wins. Also during an engine search (its move then does not count).
async fn resign(call: GameCall) -> ApiResult {
    let Call {
        app,
        id,
        entry: e,
        req,
    } = call.changes::<SeatChoice>()?;
    let mut e = lock(&e);
    let now = Instant::now();
    let seat = e.seat_acting_now(req.and_then(|r| r.seat), now)?;
    let name = e.session.seat_names()[seat];
    e.end(Some(1 - seat), &format!("{name} resigns"), now);
    e.stop_analysis();
    e.changed(json!({ "type": "state" }));
    Ok(axum::Json(state_json(&app, &id, &e)).into_response())
}

/// A draw offered by a seat (as for [`resign`]): an engine opponent answers at once by
/// [`clock::engine_takes_draw`]; a person answers by offering too before the next move.
/// `{"draw": "accepted" | "declined" | "offered", "why"?, "state"}`.
async fn offer_draw(call: GameCall) -> ApiResult {
    let Call {
        app,
        id,
        entry: e,
        req,
    } = call.changes::<SeatChoice>()?;
    let mut e = lock(&e);
    let now = Instant::now();
    let seat = e.seat_acting_now(req.and_then(|r| r.seat), now)?;
    let other = 1 - seat;
    let (answer, why) = if matches!(e.seats[other], Seat::Engine { .. }) {
        let last = e
            .last_eval
            .as_ref()
            .filter(|(s, _, _)| *s == other)
            .map(|(_, at, score)| (*at, score));
        match clock::engine_takes_draw(e.session.plies(), last) {
            Ok(()) => ("accepted", Value::Null),
            Err(why) => ("declined", json!(why)),
        }
    } else if e.draw_offer == Some(other) {
        ("accepted", Value::Null)
    } else {
        e.draw_offer = Some(seat);
        ("offered", Value::Null)
    };
    if answer == "accepted" {
        e.end(None, "draw agreed", now);
        e.stop_analysis();
    }
    if answer != "declined" {
        e.changed(json!({ "type": "state" }));
    }
    Ok(axum::Json(json!({
        "draw": answer, "why": why, "state": state_json(&app, &id, &e),
    }))
    .into_response())
}

/// The position after `ply` moves, for stepping through the game.
async fn position(
    State(app): State<Shared>,
    Path(id): Path<String>,
    query: Result<axum::extract::Query<PlyQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult {
    let (e, _) = app.view_entry(&id)?;
    let ply = query
        .map_err(|_| ApiError::bad("position takes ?ply=N (0 = the start)"))?
        .ply;
    let e = lock(&e);
    e.session.position_at(ply).map_or_else(
        || {
            Err(ApiError::bad(format!(
                "no ply {ply}: the game has {}",
                e.session.plies()
            )))
        },
        |v| Ok(axum::Json(v).into_response()),
    )
}

/// The position after the game's first `ply` moves and then `moves` (a line of the page's
/// move tree): [`Session::line`]; 400 naming the move that does not replay.
async fn line(call: GameCall) -> ApiResult {
    let mut call = call.reads::<LineRequest>()?;
    let req = call.required()?;
    let Call { app, entry: e, .. } = call;
    refuse_long_line(&app, &req.moves)?;
    let e = lock(&e);
    let v = e.session.line(req.ply, &req.moves).map_err(ApiError::bad)?;
    Ok(axum::Json(v).into_response())
}

/// 400 for a line longer than a game may be.
fn refuse_long_line(app: &App, moves: &[String]) -> Result<(), ApiError> {
    if moves.len() > app.config.max_plies {
        return Err(ApiError::bad(format!(
            "a line of {} moves is beyond the server's limit of {} plies",
            moves.len(),
            app.config.max_plies
        )));
    }
    Ok(())
}

/// How long a new analysis waits for a slot that a stopped one is giving back.
const ANALYSIS_SLOT_WAIT: Duration = Duration::from_secs(2);

/// Starts the engine's analysis of the position after `ply` moves (default: now) and then
/// `moves` (a line of the page's move tree) with `multipv` lines (default 3): a search
/// without end on a blocking thread ([`run_analysis`]), its lines sent to `/events` as
/// `{"type": "analysis", "ply", "moves", "info"}`, until it is stopped (DELETE, a move,
/// take-back or engine move in the game, a new analysis, the game's last event stream closed,
/// [`session::MAX_ANALYSIS`]), then `{"type": "analysis-stopped", "ply", "moves"}`.
async fn start_analysis(call: GameCall) -> ApiResult {
    let Call {
        app, entry, req, ..
    } = call.changes::<AnalysisRequest>()?;
    let multipv = req.as_ref().and_then(|r| r.multipv).unwrap_or(3);
    if !(1..=MAX_MULTIPV).contains(&multipv) {
        return Err(ApiError::bad(format!(
            "multipv must be from 1 to {MAX_MULTIPV}, not {multipv}"
        )));
    }
    let moves = req.as_ref().map(|r| r.moves.clone()).unwrap_or_default();
    refuse_long_line(&app, &moves)?;
    let ply = {
        let mut e = lock(&entry);
        let ply = req.and_then(|r| r.ply).unwrap_or(e.session.plies());
        e.session.line(ply, &moves).map_err(ApiError::bad)?;
        e.stop_analysis();
        ply
    };
    // A stopped analysis gives its slot back as soon as its search sees the flag: wait that
    // long, not for ever.
    let slot = Arc::clone(&app.analyses).acquire_owned();
    let permit = match tokio::time::timeout(ANALYSIS_SLOT_WAIT, slot).await {
        Ok(Ok(permit)) => permit,
        _ => {
            return Err(ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "every analysis slot is busy; try again later".into(),
            ));
        }
    };
    let mut e = lock(&entry);
    e.stop_analysis();
    let flag = Arc::new(AtomicBool::new(false));
    let job = e
        .session
        .analysis_job(ply, &moves, multipv, Arc::clone(&flag))
        .map_err(ApiError::bad)?;
    e.analysis = Some(Arc::clone(&flag));
    drop(e);
    let target = json!({ "ply": ply, "moves": moves });
    run_analysis(&app, &entry, job, flag, permit, target.clone());
    let mut answer = json!({ "analysing": true, "multipv": multipv });
    answer["ply"] = target["ply"].clone();
    answer["moves"] = target["moves"].clone();
    Ok((StatusCode::ACCEPTED, axum::Json(answer)).into_response())
}

/// Runs an analysis job on a blocking thread until `flag` is set (by a stop, by its timer, by
/// nobody watching, by the server stopping); then the game no longer says it analyses (unless
/// a newer analysis runs) and `/events` hears `analysis-stopped`. `target` names the position
/// (`ply`, `moves`) in every event.
fn run_analysis(
    app: &Shared,
    entry: &Arc<Mutex<Entry>>,
    job: session::AnalysisJob,
    flag: Arc<AtomicBool>,
    permit: tokio::sync::OwnedSemaphorePermit,
    target: Value,
) {
    let events = lock(entry).events.clone();
    let server_stop = Arc::clone(&app.stop);
    let timer = Arc::clone(&flag);
    tokio::spawn(async move {
        tokio::time::sleep(session::MAX_ANALYSIS).await;
        timer.store(true, Ordering::Relaxed);
    });
    let entry = Arc::clone(entry);
    tokio::task::spawn_blocking(move || {
        let sink_events = events.clone();
        let watch = Arc::clone(&flag);
        let at = target.clone();
        let keeper = Arc::clone(&entry);
        job(Box::new(move |info| {
            // Nobody watching (the page closed) or the server stopping: stop.
            if sink_events.receiver_count() == 0 || server_stop.load(Ordering::Relaxed) {
                watch.store(true, Ordering::Relaxed);
            }
            keep_analysis_eval(&keeper, &at, &info);
            let mut ev = json!({ "type": "analysis", "info": info });
            ev["ply"] = at["ply"].clone();
            ev["moves"] = at["moves"].clone();
            let _ = sink_events.send(ev.to_string());
        }));
        // The slot is free before anyone hears of the stop.
        drop(permit);
        let mut e = lock(&entry);
        if e.analysis.as_ref().is_some_and(|f| Arc::ptr_eq(f, &flag)) {
            e.analysis = None;
        }
        drop(e);
        let mut ev = json!({ "type": "analysis-stopped" });
        ev["ply"] = target["ply"].clone();
        ev["moves"] = target["moves"].clone();
        let _ = events.send(ev.to_string());
    });
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
    movetime_ms: Option<u64>,
}

/// Think time per position of a review without `movetime_ms`.
const REVIEW_MOVETIME_MS: u64 = 300;

/// The review of every move: each position's evaluation, the moves judged
/// ([`review::json`]), and whether a review runs (`running`, `done`, `of`).
async fn review_state(State(app): State<Shared>, Path(id): Path<String>) -> ApiResult {
    let (e, _) = app.view_entry(&id)?;
    let e = lock(&e);
    Ok(axum::Json(review_answer(&e)).into_response())
}

fn review_answer(e: &Entry) -> Value {
    let plies = e.session.plies();
    let movers: Vec<Option<usize>> = (0..plies).map(|p| e.session.mover_at(p)).collect();
    let mut v = review::json(&e.evals, &movers, plies);
    let (done, of) = e.review.as_ref().map_or((0, 0), |&(_, d, o)| (d, o));
    v["running"] = json!(e.review.is_some());
    v["done"] = json!(done);
    v["of"] = json!(of);
    v
}

/// Analyses the whole game ("analyse the whole game"): a short search (`movetime_ms`,
/// default [`REVIEW_MOVETIME_MS`]) of every position without an evaluation and, where the
/// game has solved values, its solve, one after the other on an analysis slot; each
/// evaluation goes to `/events` as `{"type": "eval", "ply", "eval"}`, progress as
/// `{"type": "review", "done", "of"}`, the end as `{"type": "review-done"}`. A move or a
/// take-back does not stop it (positions taken back are skipped); DELETE does.
async fn start_review(call: GameCall) -> ApiResult {
    let Call {
        app, entry, req, ..
    } = call.changes::<ReviewRequest>()?;
    let budget = app.movetime(
        req.and_then(|r| r.movetime_ms)
            .unwrap_or(REVIEW_MOVETIME_MS),
    )?;
    if lock(&entry).review.is_some() {
        return Ok((
            StatusCode::ACCEPTED,
            axum::Json(review_answer(&lock(&entry))),
        )
            .into_response());
    }
    let slot = Arc::clone(&app.analyses).acquire_owned();
    let Ok(Ok(permit)) = tokio::time::timeout(ANALYSIS_SLOT_WAIT, slot).await else {
        return Err(ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "every analysis slot is busy (stop the analysis first); try again later".into(),
        ));
    };
    let mut e = lock(&entry);
    let jobs = review_jobs(&app, &e, budget);
    let flag = Arc::new(AtomicBool::new(false));
    e.review = Some((Arc::clone(&flag), 0, jobs.len()));
    let answer = review_answer(&e);
    drop(e);
    let (entry2, stop) = (Arc::clone(&entry), Arc::clone(&app.stop));
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        run_review(&entry2, jobs, &flag, &stop);
    });
    Ok((StatusCode::ACCEPTED, axum::Json(answer)).into_response())
}

/// One position of a review: its ply, its search and its solve.
type ReviewJob = (usize, Option<session::EvalJob>, Option<session::SolveJob>);

/// The searches and solves of the positions that have no evaluation (or no solved value
/// where the game has them).
fn review_jobs(app: &App, e: &Entry, budget: Duration) -> Vec<ReviewJob> {
    (0..=e.session.plies())
        .filter_map(|ply| {
            let known = e.evals.get(ply);
            let search = known
                .is_none_or(|v| v["white"].is_null())
                .then(|| e.session.eval_job(ply, budget))
                .flatten();
            let solve = known
                .is_none_or(|v| v["solved"].is_null())
                .then(|| e.session.solve_job_at(ply, &app.config.solvers))
                .flatten()
                .map(|(_, job)| job);
            (search.is_some() || solve.is_some()).then_some((ply, search, solve))
        })
        .collect()
}

/// Runs a review's jobs in order until `flag` or the server's `stop` is set.
fn run_review(entry: &Mutex<Entry>, jobs: Vec<ReviewJob>, flag: &AtomicBool, stop: &AtomicBool) {
    for (k, (ply, search, solve)) in jobs.into_iter().enumerate() {
        if flag.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
            break;
        }
        let mut eval = search
            .and_then(|job| job(flag))
            .unwrap_or_else(|| json!({}));
        if let Some(job) = solve {
            let solved = job(stop);
            if solved["value"].is_string() {
                eval["solved"] = solved;
            }
        }
        let mut e = lock(entry);
        e.record_eval(ply, eval);
        if let Some(r) = e.review.as_mut().filter(|r| std::ptr::eq(&*r.0, flag)) {
            r.1 = k + 1;
            let ev = json!({ "type": "review", "done": r.1, "of": r.2 });
            let _ = e.events.send(ev.to_string());
        }
    }
    let mut e = lock(entry);
    if e.review.as_ref().is_some_and(|r| std::ptr::eq(&*r.0, flag)) {
        e.review = None;
    }
    let _ = e.events.send(json!({ "type": "review-done" }).to_string());
}

/// Stops the game's review (nothing happens when none runs).
async fn stop_review(State(app): State<Shared>, Path(id): Path<String>) -> ApiResult {
    let e = app.entry(&id)?;
    let mut e = lock(&e);
    let was = e.review.is_some();
    e.stop_review();
    Ok(axum::Json(json!({ "running": false, "stopped": was })).into_response())
}

/// An analysis line of one of the game's own positions (no tree moves; the first line) is an
/// evaluation of that position for the review.
fn keep_analysis_eval(entry: &Mutex<Entry>, target: &Value, info: &Value) {
    let own = target["moves"].as_array().is_some_and(Vec::is_empty);
    if !own || info["multipv"].as_u64().unwrap_or(1) > 1 || info["white"].is_null() {
        return;
    }
    let Some(ply) = target["ply"].as_u64() else {
        return;
    };
    let eval = json!({ "white": info["white"], "depth": info["depth"],
                       "best": info["pv"][0], "best_san": info["pv_san"][0] });
    lock(entry).record_eval(ply as usize, eval);
}

/// Stops the game's analysis (nothing happens when none runs).
async fn stop_analysis(State(app): State<Shared>, Path(id): Path<String>) -> ApiResult {
    let e = app.entry(&id)?;
    let mut e = lock(&e);
    let was = e.analysis.is_some();
    e.stop_analysis();
    Ok(axum::Json(json!({ "analysing": false, "stopped": was })).into_response())
}

/// The game as PGN (a download): its tags, `TimeControl`, a comment per move with the
/// evaluation, the clock and the engine's think time ([`record::notes`]).
async fn pgn(State(app): State<Shared>, Path(id): Path<String>) -> ApiResult {
    pgn_with(&app, &id, Vec::new())
}

/// The game as PGN with the page's variations (`{"lines": [...]}`, [`session::Line`]).
async fn pgn_with_lines(
    State(app): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let req: Option<PgnRequest> = parse_body(body, true)?;
    let lines = req.map(|r| r.lines).unwrap_or_default();
    let (moves, depth) = session::Line::size(&lines);
    if moves > MAX_LINE_MOVES || depth > MAX_LINE_DEPTH {
        return Err(ApiError::bad(format!(
            "the variations hold {moves} moves nested {depth} deep; the server takes at most \
             {MAX_LINE_MOVES} moves nested {MAX_LINE_DEPTH} deep"
        )));
    }
    pgn_with(&app, &id, lines)
}

fn pgn_with(app: &Shared, id: &str, lines: Vec<session::Line>) -> ApiResult {
    let (e, _) = app.view_entry(id)?;
    let mut e = lock(&e);
    e.settle(Instant::now());
    let timed = e.clock.as_ref().map(clock::GameClock::control_ms);
    let players: Vec<String> = e
        .seats
        .iter()
        .map(|s| s.player_name(timed.is_some()))
        .collect();
    let notes = record::notes(timed, &e.notes, e.evals.all(), lines);
    let mut text = e
        .session
        .pgn(&players, &notes)
        .map_err(|why| ApiError::bad(format!("a variation does not replay: {why}")))?;
    if let Some(r) = &e.ended {
        let field = |k: &str| r[k].as_str().unwrap_or("?").to_string();
        text = clock::pgn_ended(&text, &field("score"), &field("reason"));
    }
    let file = format!(
        "attachment; filename=\"kiebitz-{}-{id}.pgn\"",
        e.session.game()
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, file),
        ],
        text,
    )
        .into_response())
}

async fn events(State(app): State<Shared>, Path(id): Path<String>) -> ApiResult {
    let (e, _) = app.view_entry(&id)?;
    let permit = Arc::clone(&app.streams).try_acquire_owned().map_err(|_| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server holds its limit of {} event streams",
                app.config.max_streams
            ),
        )
    })?;
    let rx = lock(&e).events.subscribe();
    drop(e);
    let stream = futures_util::stream::unfold((rx, permit), |(mut rx, permit)| async move {
        loop {
            match rx.recv().await {
                Ok(line) => {
                    let ev: Result<Event, Infallible> = Ok(Event::default().data(line));
                    return Some((ev, (rx, permit)));
                }
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response())
}

/// The folder set at start-up ([`set_page_dir`]), if any.
static PAGE_DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Serves the page's files from `dir` instead of the copies compiled in, for working on the
/// page without rebuilding (kiebitz-web passes `KIEBITZ_WEB_DIR`). Set once, at start-up.
pub fn set_page_dir(dir: std::path::PathBuf) {
    let _ = PAGE_DIR.set(dir);
}

/// One of the page's files: the copy compiled in, or, when [`set_page_dir`] named a folder,
/// the file of that name there.
fn asset(name: &str, built_in: &'static str, kind: &'static str) -> Response {
    let text = PAGE_DIR
        .get()
        .and_then(|dir| std::fs::read_to_string(dir.join(name)).ok())
        .map_or(
            std::borrow::Cow::Borrowed(built_in),
            std::borrow::Cow::Owned,
        );
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

async fn page() -> Response {
    asset("page.html", PAGE, "text/html; charset=utf-8")
}

async fn script() -> Response {
    asset("page.js", SCRIPT, "text/javascript; charset=utf-8")
}

/// The chess piece set the page draws ([`crate::tournament::html::pieces`]).
async fn pieces() -> Response {
    asset(
        "pieces.js",
        crate::tournament::html::pieces::script(),
        "text/javascript; charset=utf-8",
    )
}

async fn style() -> Response {
    asset("page.css", STYLE, "text/css; charset=utf-8")
}

/// At most [`Config::max_inflight`] requests at once; beyond that 503 at once.
async fn limit_inflight(State(app): State<Shared>, req: Request, next: Next) -> Response {
    match Arc::clone(&app.inflight).try_acquire_owned() {
        Ok(_permit) => next.run(req).await,
        Err(_) => ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many requests at once; try again".into(),
        )
        .into_response(),
    }
}

/// The host part of a `Host` header or an origin's authority (`[::1]:8080` → `::1`).
fn host_name(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match authority.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => authority,
    }
}

/// Whether a host names this server: a localhost name, an IP address (a DNS rebinding
/// attack needs a name), or a name the configuration allows.
fn host_allowed(authority: &str, allowed: &[String]) -> bool {
    let name = host_name(authority).trim_end_matches('.');
    name.eq_ignore_ascii_case("localhost")
        || name.to_ascii_lowercase().ends_with(".localhost")
        || name.parse::<std::net::IpAddr>().is_ok()
        || allowed.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// Refuses what a page on another site could send: a `Host` that does not name this server
/// (DNS rebinding), an `Origin` of another site (cross-site requests), and an API body that
/// is not `application/json` (the page's requests are; a cross-site form's cannot be).
async fn guard_origin(State(app): State<Shared>, req: Request, next: Next) -> Response {
    match origin_error(&app.config.allowed_hosts, &req) {
        Some(e) => e.into_response(),
        None => next.run(req).await,
    }
}

fn origin_error(allowed: &[String], req: &Request) -> Option<ApiError> {
    let headers = req.headers();
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let forbidden = |msg: String| Some(ApiError(StatusCode::FORBIDDEN, msg));
    let host = req
        .uri()
        .authority()
        .map(|a| a.as_str())
        .or(text(header::HOST));
    match host {
        None => return Some(ApiError::bad("the request has no Host header")),
        Some(h) if !host_allowed(h, allowed) => {
            return forbidden(format!(
                "Host '{h}' is not this server's name (start kiebitz-web with --allow-host {} to allow it)",
                host_name(h)
            ));
        }
        _ => {}
    }
    if let Some(origin) = text(header::ORIGIN) {
        let authority = origin.split_once("://").map_or("", |(_, a)| a);
        if !host_allowed(authority, allowed) {
            return forbidden(format!(
                "a request from the page of another site ({origin}) is refused"
            ));
        }
    }
    let has_body = text(header::CONTENT_LENGTH).is_some_and(|n| n.trim() != "0")
        || headers.contains_key(header::TRANSFER_ENCODING);
    let json_api = req.uri().path().starts_with("/api/") && req.uri().path() != "/api/report";
    let media = text(header::CONTENT_TYPE).map(|t| {
        t.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    });
    if req.method() == axum::http::Method::POST
        && json_api
        && has_body
        && media.as_deref() != Some("application/json")
    {
        return Some(ApiError(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the API takes JSON bodies as Content-Type: application/json".into(),
        ));
    }
    None
}

async fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such page or API call".into())
}

/// The server's routes and limits.
fn router(app: Shared) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/play/{id}", get(page))
        .route("/watch/{id}", get(page))
        .route("/report", get(page))
        .route("/static/app.js", get(script))
        .route("/static/pieces.js", get(pieces))
        .route("/static/style.css", get(style))
        .route("/api/games", get(list_games))
        .route("/api/status", get(status))
        .route("/api/new", post(new_game))
        .route("/api/game/{id}", get(get_game))
        .route("/api/game/{id}/move", post(play_move))
        .route("/api/game/{id}/undo", post(undo))
        .route("/api/game/{id}/engine", post(engine_move))
        .route("/api/game/{id}/resign", post(resign))
        .route("/api/game/{id}/draw", post(offer_draw))
        .route("/api/game/{id}/pgn", get(pgn).post(pgn_with_lines))
        .route("/api/game/{id}/line", post(line))
        .route(
            "/api/game/{id}/review",
            get(review_state).post(start_review).delete(stop_review),
        )
        .route("/api/game/{id}/events", get(events))
        .route("/api/game/{id}/position", get(position))
        .route(
            "/api/game/{id}/analysis",
            post(start_analysis).delete(stop_analysis),
        )
        .route(
            "/api/report",
            post(report::report).layer(DefaultBodyLimit::max(app.config.max_report_body)),
        )
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            limit_inflight,
        ))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            guard_origin,
        ))
        .layer(DefaultBodyLimit::max(app.config.max_body))
        .with_state(app)
}

/// Serves on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = Arc::new(App::new(config));
    let sweeper = {
        let app = Arc::clone(&app);
        tokio::spawn(async move {
            let every =
                (app.config.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
            loop {
                tokio::time::sleep(every).await;
                app.expire();
            }
        })
    };
    let stop = Arc::clone(&app.stop);
    let (down_tx, down_rx) = tokio::sync::oneshot::channel::<()>();
    let c = &app.config;
    let listener = conn::Limited::new(
        listener,
        Arc::clone(&app.connections),
        c.max_connections_per_peer,
        c.connection_idle(),
    );
    let (header_timeout, bodies) = (
        c.header_timeout,
        conn::BodyLimits {
            max: c.max_body.max(c.max_report_body),
            timeout: c.body_timeout,
        },
    );
    // Bodies are read first, so that a stalled one holds no in-flight permit.
    let routes = router(app).layer(middleware::from_fn_with_state(bodies, conn::read_body));
    let server = conn::serve(listener, routes, header_timeout, async move {
        shutdown.await;
        stop.store(true, Ordering::Relaxed);
        let _ = down_tx.send(());
    });
    // Open event streams would hold a graceful shutdown forever: two seconds, then go.
    let result = tokio::select! {
        () = server => Ok(()),
        _ = async {
            if down_rx.await.is_ok() {
                tokio::time::sleep(Duration::from_secs(2)).await;
            } else {
                std::future::pending::<()>().await;
            }
        } => Ok(()),
    };
    sweeper.abort();
    result
}

/// The runtime the server runs on: a few workers for the requests, blocking threads for the
/// engines (bounded by the engine semaphore, plus a few spare).
pub fn runtime(config: &Config) -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(config.engine_threads.max(1) + 2)
        .enable_all()
        .build()
}

/// A server running on its own thread (for tests and tools): it stops when dropped.
pub struct Background {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Background {
    /// Starts a server on `addr` (port 0: any free port) with `config`.
    pub fn start(addr: &str, config: Config) -> std::io::Result<Background> {
        let rt = runtime(&config)?;
        let listener = rt.block_on(tokio::net::TcpListener::bind(addr))?;
        let addr = listener.local_addr()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let shutdown = async move {
                let _ = rx.await;
            };
            if let Err(e) = rt.block_on(serve(listener, config, shutdown)) {
                eprintln!("kiebitz-web: {e}");
            }
            rt.shutdown_timeout(Duration::from_secs(1));
        });
        Ok(Background {
            addr,
            stop: Some(tx),
            thread: Some(thread),
        })
    }

    /// The server's base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine request's guard clears only its own ticket: a later request that set its
    /// own (between the first's last lock and its guard's drop) keeps the game busy, so no
    /// move or undo slips in during its search.
    #[test]
    fn a_finished_engine_request_leaves_a_later_requests_busy_ticket() {
        let mut e = Entry::new(
            session::create("chess", None, None, None, None).unwrap(),
            vec![Seat::Human, Seat::Human],
            None,
            "w1".into(),
        );
        e.busy = Some(1);
        let entry = Arc::new(Mutex::new(e));
        let first = BusyGuard(Arc::clone(&entry), 1);
        lock(&entry).busy = Some(2);
        drop(first);
        assert_eq!(lock(&entry).busy, Some(2));
        assert!(refuse_busy(&lock(&entry)).is_err());
        drop(BusyGuard(Arc::clone(&entry), 2));
        assert_eq!(lock(&entry).busy, None);
    }

    /// Every game served has its rules text (its `rules.md`), read whole.
    #[test]
    fn every_game_has_its_rules_text() {
        for g in session::games() {
            let rules = rules_of(g.game).unwrap_or_else(|| panic!("no rules of {}", g.game));
            assert!(!rules.is_empty(), "{}: {rules:?}", g.game);
            assert!(
                rules
                    .iter()
                    .all(|p| !p.contains('\n') && !p.starts_with('#'))
            );
        }
        let crash = rules_of("crash").unwrap();
        assert!(
            crash
                .iter()
                .any(|p| p.contains("`1:1`") && p.contains("`6:1`"))
        );
        assert_eq!(rules_of("go"), None);
    }

    #[test]
    fn host_names_are_read_with_and_without_ports() {
        assert_eq!(host_name("[::1]:8080"), "::1");
        assert_eq!(host_name("localhost:80"), "localhost");
        assert_eq!(host_name("example.org"), "example.org");
        assert!(host_allowed("127.0.0.1:1", &[]));
        assert!(host_allowed("app.localhost", &[]));
        assert!(!host_allowed("localhost.evil.example", &[]));
        assert!(!host_allowed("", &[]));
    }
}
