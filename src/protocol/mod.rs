//! Protocol layer: the engine loop speaking UCI ([`uci`]) or XBoard/CECP v2 ([`xboard`]) over
//! any stream — stdin/stdout, an in-memory pipe in tests, a TCP connection.
//!
//! [`run_session`] reads the first command and hands the session to the protocol it names.
//! What both protocols share lives here: the output channel shared with the search thread
//! ([`Output`]), the game record with its rule-based end ([`GameLine`]), and the search thread
//! itself ([`Engine`]), which owns the [`Searcher`] while it runs and gives it back when done.
//! This module depends on the [`Game`] trait and the search API only: it never knows which
//! game it runs.

pub mod engine;
pub mod error;
pub mod nseat;
pub(crate) mod options;
mod session;
pub mod uci;
pub mod xboard;

use std::io::{self, BufRead, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::board::{Color, Move, MoveList};
use crate::game::{Game, Outcome};
use crate::search::oracle::{self, AnyOracle};
use crate::search::{Control, Info, Limits, Score, SearchResult, Searcher};
pub use engine::{Engine, JobBody, Searching};
pub use error::{CommandError, GoError, PositionError, SetOptionError};

/// Default transposition-table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest accepted transposition-table size in MiB.
pub const MAX_HASH_MB: usize = 65536;
/// Default `Move Overhead` in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
/// Longest accepted input line; longer lines are refused without being stored.
pub const MAX_LINE: usize = 1 << 20;

/// The engine's name as the protocols announce it: `kiebitz-<game> <version>`.
pub fn engine_name<G: Game>() -> String {
    format!("kiebitz-{} {}", G::GAME, env!("CARGO_PKG_VERSION"))
}

/// The author line of `id author`.
pub const AUTHOR: &str = "the kiebitz authors";

/// The protocol output, shared by the command loop and the search thread. Every call writes
/// whole lines and flushes; a write error (the client is gone) marks the output broken and
/// the session ends at the next command.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl Output {
    pub fn new<W: Write + Send + 'static>(writer: W) -> Output {
        Output {
            inner: Arc::new(Mutex::new(Box::new(writer))),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one line (a newline is appended) and flushes.
    pub fn line(&self, text: &str) {
        self.lines(&[text]);
    }

    /// Writes several lines at once, without another writer's lines between them.
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut guard = match self.inner.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut ok = true;
        for l in lines {
            log::trace!(">> {}", l.as_ref());
            ok &= writeln!(guard, "{}", l.as_ref()).is_ok();
        }
        ok &= guard.flush().is_ok();
        if !ok {
            self.broken.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a write has failed: the other side has gone.
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Relaxed)
    }
}

/// Reads protocol lines: bounded in length, invalid UTF-8 replaced, `\r` stripped.
pub struct LineReader<R> {
    input: R,
    max: usize,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> Self {
        Self::with_limit(input, MAX_LINE)
    }

    /// A reader whose lines may be at most `max` bytes long (at least 40).
    pub fn with_limit(input: R, max: usize) -> Self {
        LineReader {
            input,
            max: max.max(40),
        }
    }

    /// The next line, trimmed; `None` at end of input or on a read error. A line longer than
    /// the limit ([`MAX_LINE`] by default) is returned as `Err` with its beginning, the rest
    /// discarded.
    pub fn next_line(&mut self) -> Option<Result<String, String>> {
        let max = self.max;
        let mut buf = Vec::new();
        let n = Read::take(self.input.by_ref(), max as u64 + 1).read_until(b'\n', &mut buf);
        match n {
            Ok(0) => None,
            Err(e) => {
                log::debug!("input closed: {e}");
                None
            }
            Ok(_) => {
                if buf.len() > max && buf.last() != Some(&b'\n') {
                    // Skip the rest of the overlong line.
                    let mut sink = Vec::new();
                    loop {
                        sink.clear();
                        match Read::take(self.input.by_ref(), 1 << 16).read_until(b'\n', &mut sink)
                        {
                            Ok(0) | Err(_) => break,
                            Ok(_) if sink.last() == Some(&b'\n') => break,
                            Ok(_) => {}
                        }
                    }
                    let head: String = String::from_utf8_lossy(&buf[..40]).into_owned();
                    return Some(Err(format!(
                        "line longer than {max} bytes ignored: {head}…"
                    )));
                }
                let text = String::from_utf8_lossy(&buf);
                let line = text.trim().to_string();
                log::trace!("<< {line}");
                Some(Ok(line))
            }
        }
    }
}

/// How a session runs: what the shell (stdin/stdout) or the server (`--listen`) sets.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// The transposition-table size a session starts with, in MiB.
    pub hash_mb: usize,
    /// At the end of input, a finite search still running finishes and prints its move
    /// (stdin: `printf 'uci\ngo depth 2\n' | engine`); an infinite search, pondering and perft
    /// are stopped. When false (a TCP client that hung up) every job is stopped and its
    /// answer goes nowhere.
    pub finish_at_eof: bool,
    /// The longest one search or perft may run; it is then stopped and answers as if told
    /// to (`go infinite` too). `None`: no ceiling.
    pub job_ceiling: Option<Duration>,
    /// The memory every session's table is taken from (`--max-hash`); `None`: no limit.
    pub hash_budget: Option<HashBudget>,
    /// The oracle every search of the session is handed (the entrance's choice, usually
    /// `crate::games::page::builtin`); one of another game is ignored. `None`: no oracle.
    pub oracle: Option<AnyOracle>,
    /// The files and folders the session's options may name; an engine server's sessions
    /// ([`Paths::Within`]) also write no files.
    pub paths: Paths,
}

/// Which files and folders a session's options (`EvalFile`, `SyzygyPath`, `BookFile`,
/// `Endgame Tables Path`, every option of a file or folder) may name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Paths {
    /// Any: a lone engine, on its user's own machine.
    #[default]
    Any,
    /// Only those inside this folder (canonical; `--data-dir`), symbolic links followed;
    /// none without one: an engine server's clients.
    Within(Option<std::path::PathBuf>),
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            hash_mb: DEFAULT_HASH_MB,
            finish_at_eof: true,
            job_ceiling: None,
            hash_budget: None,
            oracle: None,
            paths: Paths::Any,
        }
    }
}

/// One memory budget in MiB shared by the transposition tables of several sessions: a table
/// gets what it asks for while the budget lasts, and at least 1 MiB.
#[derive(Clone, Debug)]
pub struct HashBudget {
    free: Arc<Mutex<usize>>,
}

impl HashBudget {
    pub fn new(mb: usize) -> HashBudget {
        HashBudget {
            free: Arc::new(Mutex::new(mb)),
        }
    }

    /// Gives back `held` MiB and takes up to `want` MiB (at least 1): returns the grant.
    pub fn exchange(&self, held: usize, want: usize) -> usize {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        let available = *free + held;
        let grant = want.min(available).max(1);
        *free = available.saturating_sub(grant);
        grant
    }

    /// Gives back `held` MiB.
    pub fn release(&self, held: usize) {
        *self.free.lock().unwrap_or_else(|p| p.into_inner()) += held;
    }

    /// MiB not yet taken.
    pub fn free(&self) -> usize {
        *self.free.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl crate::engine_option::MemoryPool for HashBudget {
    fn take(&self, mb: usize) -> bool {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        let enough = *free >= mb;
        if enough {
            *free -= mb;
        }
        enough
    }

    fn give_back(&self, mb: usize) {
        self.release(mb);
    }
}

/// Why a session's line loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// `quit` (or the protocol's equivalent).
    Quit,
    /// The input ended (or could not be read any more).
    Eof,
    /// The output is gone.
    Broken,
}

/// Runs one protocol session for game `G`: the first command `uci` or `xboard` picks the
/// protocol (a UCI command such as `isready` or `position` also starts UCI). Returns when the
/// input ends or `quit` arrives; a running search is stopped first (at the end of input a
/// finite search finishes and prints its move).
pub fn run_session<G: Game, R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
) -> io::Result<()> {
    run_session_with::<G, R, W>(input, output, DEFAULT_HASH_MB)
}

/// [`run_session`] with a chosen initial transposition-table size.
pub fn run_session_with<G: Game, R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    hash_mb: usize,
) -> io::Result<()> {
    let config = SessionConfig {
        hash_mb,
        ..SessionConfig::default()
    };
    run_session_config::<G, R, W>(input, output, &config)
}

/// An in-memory output that stays readable after the session that wrote it.
#[derive(Clone, Default)]
pub(crate) struct Transcript(Arc<Mutex<Vec<u8>>>);

impl Write for Transcript {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Transcript {
    /// Everything written so far, as text.
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

/// One session of game `G` on the text `input`, in memory: returns everything the engine
/// wrote (for tests, fuzzing and programs that embed an engine).
pub fn session_transcript<G: Game>(input: &str, config: &SessionConfig) -> io::Result<String> {
    let out = Transcript::default();
    run_session_config::<G, _, _>(input.as_bytes(), out.clone(), config)?;
    Ok(out.text())
}

/// [`run_session`] under a [`SessionConfig`].
pub fn run_session_config<G: Game, R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    config: &SessionConfig,
) -> io::Result<()> {
    let out = Output::new(output);
    let mut reader = LineReader::new(input);
    while let Some(line) = reader.next_line() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                out.line(&format!("error: {e}"));
                continue;
            }
        };
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "" => continue,
            "quit" => return Ok(()),
            "xboard" | "protover" => {
                xboard::run::<G, R>(&mut reader, &out, config, &line);
                return Ok(());
            }
            w if uci::is_uci_command(w) => {
                uci::run::<G, R>(&mut reader, &out, config, &line);
                return Ok(());
            }
            _ => {
                log::warn!("unknown first command '{line}'");
                out.line(&format!(
                    "error: unknown command '{}': start with 'uci' or 'xboard'",
                    shorten(&line)
                ));
            }
        }
        if out.is_broken() {
            break;
        }
    }
    Ok(())
}

/// One protocol's handling of input lines ([`drive`]).
pub(crate) trait LineHandler {
    /// Handles one line; false when the session ends.
    fn command(&mut self, line: &str) -> bool;
    /// Answers a line that could not be read whole (`error` holds its beginning).
    fn read_error(&mut self, error: &str);
}

/// The variant a session starts in (the game's first) and its start position.
pub(crate) fn session_start<G: Game>() -> Result<(&'static str, G), crate::Error> {
    let variant = G::variants()[0];
    G::startpos(variant).map(|p| (variant, p))
}

/// Feeds `first`, then every line of `reader`, to `handler` until it ends the session, the
/// input ends or stdout is gone; says which.
pub(crate) fn drive<R: BufRead>(
    reader: &mut LineReader<R>,
    out: &Output,
    first: &str,
    handler: &mut impl LineHandler,
) -> End {
    if !handler.command(first) {
        return End::Quit;
    }
    drive_on(reader, out, handler)
}

/// [`drive`] without a first line: every line of `reader` to `handler`.
pub(crate) fn drive_on<R: BufRead>(
    reader: &mut LineReader<R>,
    out: &Output,
    handler: &mut impl LineHandler,
) -> End {
    if out.is_broken() {
        return End::Broken;
    }
    while let Some(line) = reader.next_line() {
        let keep_going = match line {
            Ok(line) => handler.command(&line),
            Err(e) => {
                handler.read_error(&e);
                true
            }
        };
        if !keep_going {
            return End::Quit;
        }
        if out.is_broken() {
            return End::Broken;
        }
    }
    End::Eof
}

pub(crate) use crate::text::{shorten, shorten_to};

/// Longest error message sent to a client (a message may quote its input).
pub(crate) const MAX_MESSAGE: usize = 300;

/// A game as played: the start position, the moves, and every position reached.
#[derive(Clone, Debug)]
pub struct GameLine<G: Game> {
    positions: Vec<G>,
    moves: Vec<Move>,
}

impl<G: Game> GameLine<G> {
    pub fn new(start: G) -> Self {
        GameLine {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The position now.
    pub fn current(&self) -> &G {
        self.positions.last().expect("a game has a start position")
    }

    /// The start position.
    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    /// The moves played since the start.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Hashes of the positions before the current one, oldest first (the search's history).
    pub fn history(&self) -> Vec<u64> {
        let n = self.positions.len() - 1;
        self.positions[..n].iter().map(G::hash).collect()
    }

    /// Plays a move that is legal in the current position.
    pub fn push(&mut self, mv: Move) {
        let next = self.current().play(mv);
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Plays a move given as text; an illegal or malformed move changes nothing (and is an
    /// [`crate::Error::Move`]).
    pub fn push_text(&mut self, text: &str) -> Result<Move, crate::Error> {
        let mv = self.current().parse_move(text)?;
        self.push(mv);
        Ok(mv)
    }

    /// Takes back the last move; false if there is none.
    pub fn pop(&mut self) -> bool {
        if self.moves.pop().is_some() {
            self.positions.pop();
            true
        } else {
            false
        }
    }

    /// Whether `mv` is legal now.
    pub fn is_legal(&self, mv: Move) -> bool {
        legal_moves(self.current()).contains(&mv)
    }

    /// The result if the game has ended by the rules ([`Game::verdict`]): no legal move,
    /// threefold repetition, the move-count rule, or insufficient material. The text says why.
    pub fn outcome(&self) -> Option<(Outcome, String)> {
        let n = self.positions.len() - 1;
        let history: Vec<u64> = self.positions[..n].iter().map(G::hash).collect();
        self.current().verdict(&history)
    }
}

/// "White" or "Black".
pub fn color_name(c: Color) -> &'static str {
    c.name()
}

/// The legal moves of `pos`.
pub fn legal_moves<G: Game>(pos: &G) -> MoveList {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
}

/// The moves of a principal variation as text, stopping at the first move that is not legal
/// in its position (a defensive check: the protocol never prints an illegal line).
pub fn pv_text<G: Game>(root: &G, pv: &[Move]) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::new();
    for &mv in pv {
        if !legal_moves(&pos).contains(&mv) {
            break;
        }
        out.push(pos.move_text(mv));
        pos = pos.play(mv);
    }
    out
}

/// The most search threads used (`Threads`, XBoard `cores`): the number of logical
/// processors. More would only share the processors, each thread slowing the others.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The search threads for a GUI's `Threads` (XBoard `cores`) value `asked`: capped at
/// [`max_threads`], with the sentence that says so when it is (`None` when not).
pub fn threads_for(asked: usize) -> (usize, Option<String>) {
    let cpus = max_threads();
    if asked > cpus {
        let said = format!("Threads {asked} is more than the {cpus} processors: using {cpus}");
        (cpus, Some(said))
    } else {
        (asked.max(1), None)
    }
}

/// Why `text`, a move that is not legal in `pos`, cannot be a move of `pos`'s game at all: it
/// names a square off the board (`d7d5` sent to a 6×6 game), so the GUI plays another game.
/// `None` when every square it names is on the board (an ordinary illegal move).
pub fn foreign_move<G: Game>(pos: &G, text: &str) -> Option<String> {
    let (width, height) = pos.size();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let file = bytes[i];
        let digits = bytes[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if file.is_ascii_lowercase() && digits > 0 {
            let rank: usize = text[i + 1..i + 1 + digits].parse().unwrap_or(usize::MAX);
            if usize::from(file - b'a') >= usize::from(width)
                || !(1..=usize::from(height)).contains(&rank)
            {
                return Some(format!(
                    "the move '{}' names the square {}{} off this engine's \
                     {width}×{height} board: the GUI plays another game than kiebitz-{} \
                     (variants: {})",
                    shorten(text),
                    file as char,
                    shorten(&text[i + 1..i + 1 + digits]),
                    G::GAME,
                    G::variants().join(" ")
                ));
            }
            i += 1 + digits;
        } else {
            i += 1;
        }
    }
    None
}

/// Nodes per second from a node count and a time.
pub fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / micros) as u64
}

/// Runs the search, and if it panics or returns an illegal move, falls back to the first
/// legal move: the protocols always have a legal answer when one exists.
pub fn safe_search<G: Game>(
    searcher: &mut Searcher<G>,
    root: &G,
    history: &[u64],
    limits: &Limits,
    control: &Control,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let legal = legal_moves(root);
    let result = catch_unwind(AssertUnwindSafe(|| {
        searcher.search(root, history, limits, control, on_info)
    }));
    let fallback = || SearchResult {
        best: legal.first().copied().unwrap_or(Move::NULL),
        ponder: None,
        score: Score::Cp(0),
        depth: 0,
        nodes: 0,
    };
    match result {
        Ok(r) if legal.contains(&r.best) || (legal.is_empty() && r.best.is_null()) => r,
        Ok(r) => {
            log::error!("search returned {} which is not legal here", r.best);
            fallback()
        }
        Err(_) => {
            log::error!("the search panicked; answering with the first legal move");
            fallback()
        }
    }
}

/// The session's ceiling on one job (`--max-search-time`), shared by every protocol: a thread
/// that raises the job's stop flag when the ceiling is up. Dropping it wakes and joins the
/// thread, so that none outlives the job.
pub(crate) struct Watchdog {
    wake: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Watches the stop flag `flag(&job)` of a job for `ceiling`; when no thread can be
    /// started the job is stopped at once (a ceiling that cannot be kept is not waived).
    pub(crate) fn start<T: Send + Sync + 'static>(
        ceiling: Duration,
        job: Arc<T>,
        flag: fn(&T) -> &AtomicBool,
    ) -> Watchdog {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let watched = Arc::clone(&job);
        let spawned = std::thread::Builder::new()
            .name("ceiling".into())
            .spawn(move || {
                if rx.recv_timeout(ceiling) == Err(RecvTimeoutError::Timeout) {
                    log::warn!(
                        "stopping a job at the session ceiling of {:.1} s",
                        ceiling.as_secs_f64()
                    );
                    flag(&watched).store(true, Ordering::SeqCst);
                }
            });
        let thread = match spawned {
            Ok(h) => Some(h),
            Err(e) => {
                log::error!("cannot start the ceiling watchdog: {e}");
                flag(&job).store(true, Ordering::SeqCst);
                None
            }
        };
        Watchdog {
            wake: Some(tx),
            thread,
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.wake.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The job thread of a two-seat session (UCI, XBoard): searchers of game `G`, each handed the
/// session's oracle (if it is one of `G`'s).
pub fn game_engine<G: Game>(config: &SessionConfig) -> Engine<Searcher<G>> {
    let oracle = oracle::for_game::<G>(config.oracle.as_ref());
    Engine::with_config(config, oracle.is_some(), move |mb| {
        let mut searcher = Searcher::new(mb);
        searcher.set_oracle(oracle.clone());
        searcher
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pawns::Pawns;

    #[test]
    fn game_line_plays_and_takes_back() {
        let mut g = GameLine::new(Pawns::startpos("pawns3").unwrap());
        assert!(g.push_text("a1a2").is_ok());
        assert!(g.push_text("a1a2").is_err());
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.history().len(), 1);
        assert!(g.pop());
        assert!(!g.pop());
        assert_eq!(g.current().fen(), "ppp/3/PPP w - - 0 1");
    }

    #[test]
    fn outcome_of_an_arrival() {
        let mut g = GameLine::new(Pawns::from_fen("pawns3", "1p1/P2/3 w - - 0 1").unwrap());
        assert_eq!(g.outcome(), None);
        g.push_text("a2b3").unwrap();
        assert_eq!(
            g.outcome(),
            Some((
                Outcome::Win(Color::White),
                "White wins: a pawn has reached the last rank".to_string()
            ))
        );
    }

    /// A writer whose every write fails, like a closed socket.
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_marks_the_output_broken() {
        let out = Output::new(Closed);
        assert!(!out.is_broken());
        out.line("readyok");
        assert!(out.is_broken());
        // A session on a closed output ends at once instead of searching for nobody.
        let input = b"uci\ngo infinite\nisready\n".repeat(3);
        assert!(run_session::<Pawns, _, _>(&input[..], Closed).is_ok());
    }

    #[test]
    fn a_move_off_the_board_is_of_another_game() {
        use crate::games::{chess::Chess, crash::Crash, raeuber::Raeuber};
        let raeuber = Raeuber::startpos("raeuberschach").unwrap();
        let chess = Chess::startpos("chess").unwrap();
        let crash = Crash::startpos("crash").unwrap();
        let why = foreign_move(&raeuber, "d7d5").unwrap();
        assert!(
            why.contains("square d7 off this engine's 6×6 board"),
            "{why}"
        );
        assert!(foreign_move(&raeuber, "e2e4").is_none());
        assert!(foreign_move(&raeuber, "g1f3").is_some());
        assert!(foreign_move(&raeuber, "a0a1").is_some());
        assert!(foreign_move(&chess, "d7d5").is_none());
        assert!(foreign_move(&chess, "e7e8q").is_none());
        assert!(foreign_move(&chess, "i2i4").is_some());
        assert!(foreign_move(&crash, "1:1").is_none());
    }

    #[test]
    fn a_shared_hash_budget() {
        let b = HashBudget::new(8);
        assert_eq!(b.exchange(0, 6), 6);
        assert_eq!(b.exchange(0, 6), 2);
        assert_eq!(b.exchange(0, 6), 1, "at least 1 MiB");
        assert_eq!(b.free(), 0);
        b.release(6);
        assert_eq!(b.exchange(2, 100), 8);
        let engine = game_engine::<Pawns>(&SessionConfig {
            hash_mb: 4,
            hash_budget: Some(HashBudget::new(3)),
            ..SessionConfig::default()
        });
        assert_eq!(engine.hash_mb(), 3);
    }

    /// A session's searches have exactly the oracle its configuration hands them: `Solver
    /// Share` is offered with pawn chess's solver, not without one, nor with another game's.
    #[test]
    fn a_session_has_the_oracle_its_configuration_hands_it() {
        let offered = |oracle: Option<AnyOracle>| {
            let config = SessionConfig {
                oracle,
                ..SessionConfig::default()
            };
            session_transcript::<Pawns>("uci\n", &config)
                .unwrap()
                .contains("option name Solver Share")
        };
        let pawns = crate::games::page::builtin::<Pawns>().unwrap();
        let raeuber = crate::games::page::builtin::<crate::games::raeuber::Raeuber>().unwrap();
        assert!(offered(Some(AnyOracle::new::<Pawns>(pawns))));
        assert!(!offered(None));
        assert!(!offered(Some(AnyOracle::new(raeuber))));
    }

    #[test]
    fn line_limits() {
        let text = b"0123456789012345678901234567890123456789012345\nok\n";
        let mut r = LineReader::with_limit(&text[..], 40);
        assert!(r.next_line().unwrap().is_err());
        assert_eq!(r.next_line().unwrap().unwrap(), "ok");
        assert_eq!(shorten_to("abcdef", 3), "abc…");
        assert_eq!(shorten_to("abc", 3), "abc");
    }

    #[test]
    fn overlong_lines_are_refused() {
        let mut text = vec![b'x'; MAX_LINE + 10];
        text.extend_from_slice(b"\nuci\n");
        let mut r = LineReader::new(&text[..]);
        assert!(r.next_line().unwrap().is_err());
        assert_eq!(r.next_line().unwrap().unwrap(), "uci");
        assert!(r.next_line().is_none());
    }
}
