//! Engine processes: a child process per engine, a reader thread per pipe, and the UCI and
//! XBoard (CECP v2) client sides — handshake, options, new game, one move under a deadline.
//!
//! Every wait has a deadline; an engine that closes its output has crashed, one that does not
//! answer in time has stalled. The caller (the referee) decides what that means for the game.
//! Depends on [`super::clock`] only.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use super::clock::{Clock, TimeControl};
use crate::protocol::LineReader;

/// Engine lines waiting for the runner at most; beyond them the engine's output blocks.
pub const QUEUED_LINES: usize = 256;
/// Longest engine line kept (a longer one is replaced by an empty line and a warning).
pub const MAX_ENGINE_LINE: usize = 64 << 10;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Xboard,
}

/// Everything the command line says about one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The name in the PGN and the score line (empty: ask the engine).
    pub name: String,
    /// The program and its arguments.
    pub program: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: Proto,
    /// `option.NAME=VALUE` pairs in command-line order.
    pub options: Vec<(String, String)>,
    pub tc: TimeControl,
    /// How far past its clock or move time an engine may go before it forfeits.
    pub timemargin: Duration,
    /// The engine's own name for the variant, if it differs from ours.
    pub variant: Option<String>,
    /// Ponder on the opponent's time (`--ponder`): UCI `go ponder`, XBoard `hard`.
    pub ponder: bool,
}

/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(15);
/// How long after `stop` a late move is still awaited (it then counts as a time forfeit).
const GRACE: Duration = Duration::from_secs(1);

/// Why an engine could not deliver a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The engine's output closed (it exited or crashed).
    Crashed(String),
    /// No answer within the deadline and the grace period after it.
    Stalled(String),
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The move text as the engine sent it.
    pub text: String,
    pub elapsed: Duration,
    /// The last score it reported, centipawns for the side to move (mates as ±(30000 − plies)).
    pub score: Option<i32>,
    pub depth: Option<u32>,
    /// XBoard `resign`.
    pub resigned: bool,
    /// The move the engine expects in reply (UCI `bestmove X ponder Y`).
    pub ponder: Option<String>,
    /// The engine pondered before this move: `Some(true)` after a `ponderhit`, `Some(false)`
    /// after a `stop` (the opponent played another move).
    pub ponder_hit: Option<bool>,
}

/// The game as the engine is told it.
pub struct GameView<'a> {
    /// The engine's name for the variant (`None` for standard chess).
    pub variant: Option<&'a str>,
    /// The start FEN, or `None` when the game started from the variant's start position.
    pub fen: Option<&'a str>,
    /// White to move in the start position.
    pub white_starts: bool,
    /// Every move so far.
    pub moves: &'a [String],
    /// The clocks of White and Black.
    pub clocks: [&'a Clock; 2],
    /// The time controls of White's and Black's engine.
    pub tcs: [&'a TimeControl; 2],
    /// The side to move is White.
    pub white_to_move: bool,
    /// How long to wait when no clock or move time bounds the search.
    pub timeout: Duration,
}

#[derive(Default, Debug)]
struct XbFeatures {
    usermove: bool,
    ping: bool,
    setboard: bool,
    myname: Option<String>,
    variants: Option<Vec<String>>,
}

/// A running engine.
pub struct Engine {
    pub config: EngineConfig,
    /// The name the engine gave itself (`id name`, `feature myname`).
    pub id_name: Option<String>,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    uci_options: Vec<String>,
    /// The values of the engine's `UCI_Variant` combo, if it has one.
    uci_variants: Option<Vec<String>>,
    xb: XbFeatures,
    /// XBoard: how many of the game's moves the engine knows.
    xb_known: usize,
    ping: u32,
    /// UCI: the engine is pondering, expecting this move of its opponent.
    pondering: Option<String>,
}

fn mate_score(plies: i32) -> i32 {
    if plies >= 0 {
        30000 - plies
    } else {
        -30000 - plies
    }
}

/// The score in a UCI `info` line.
fn parse_uci_info(line: &str, score: &mut Option<i32>, depth: &mut Option<u32>) {
    let mut it = line.split_whitespace().peekable();
    while let Some(tok) = it.next() {
        match tok {
            "depth" => {
                if let Some(d) = it.peek().and_then(|t| t.parse().ok()) {
                    *depth = Some(d);
                }
            }
            "score" => {
                let kind = it.next();
                let value: Option<i32> = it.next().and_then(|t| t.parse().ok());
                let bound = matches!(it.peek(), Some(&"lowerbound") | Some(&"upperbound"));
                if bound {
                    continue;
                }
                match (kind, value) {
                    (Some("cp"), Some(v)) => *score = Some(v),
                    // `mate N` counts moves; turn it into plies.
                    (Some("mate"), Some(v)) => {
                        *score = Some(mate_score(if v > 0 { 2 * v - 1 } else { 2 * v }))
                    }
                    _ => {}
                }
            }
            "pv" | "string" => break,
            _ => {}
        }
    }
}

/// XBoard thinking output: `ply score time nodes pv…`.
fn parse_xb_thinking(line: &str, score: &mut Option<i32>, depth: &mut Option<u32>) {
    let mut it = line.split_whitespace();
    let (Some(d), Some(s)) = (it.next(), it.next()) else {
        return;
    };
    let (Ok(d), Ok(s)) = (
        d.trim_end_matches(['.', '&']).parse::<u32>(),
        s.parse::<i32>(),
    ) else {
        return;
    };
    *depth = Some(d);
    *score = Some(if s >= 100000 {
        mate_score(s - 100000)
    } else if s <= -100000 {
        mate_score(-(s + 100000))
    } else {
        s
    });
}

/// `feature a=1 b="x y"` → pairs.
fn parse_features(rest: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut s = rest.trim_start();
    while let Some(eq) = s.find('=') {
        let key = s[..eq].trim().to_string();
        let after = &s[eq + 1..];
        let (value, next) = if let Some(stripped) = after.strip_prefix('"') {
            match stripped.find('"') {
                Some(end) => (&stripped[..end], &stripped[end + 1..]),
                None => (stripped, ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        out.push((key, value.to_string()));
        s = next.trim_start();
    }
    out
}

/// Reads an engine's output on a thread of its own into a bounded queue of bounded lines,
/// each with the time it came: an engine that floods its output waits for the runner to read
/// (its pipe fills) instead of filling the runner's memory, and a line longer than
/// [`MAX_ENGINE_LINE`] comes as an empty line (with a warning). Every engine client (UCI,
/// XBoard, the N-seat runner's) reads through it. The thread ends with the output or when
/// the receiver is dropped.
pub fn read_lines<R: Read + Send + 'static>(stdout: R) -> Receiver<(Instant, String)> {
    let (tx, rx) = sync_channel(QUEUED_LINES);
    std::thread::spawn(move || {
        let mut reader = LineReader::with_limit(BufReader::new(stdout), MAX_ENGINE_LINE);
        while let Some(line) = reader.next_line() {
            let text = line.unwrap_or_else(|too_long| {
                log::warn!("engine line cut: {too_long}");
                String::new()
            });
            if tx.send((Instant::now(), text)).is_err() {
                break;
            }
        }
    });
    rx
}

/// `position startpos|fen FEN [moves …]`.
fn uci_position(fen: Option<&str>, moves: &[String]) -> String {
    let mut pos = match fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    if !moves.is_empty() {
        pos.push_str(" moves ");
        pos.push_str(&moves.join(" "));
    }
    pos
}

/// The limits of a UCI `go` for the engine of `side` (0 White, 1 Black): both clocks when
/// its clock runs, and its move time, depth and nodes.
fn uci_limits(view: &GameView, side: usize) -> String {
    let tc = view.tcs[side];
    let mut go = String::new();
    if view.clocks[side].running() {
        let [w, b] = view.clocks;
        go.push_str(&format!(
            " wtime {} btime {} winc {} binc {}",
            w.remaining.as_millis(),
            b.remaining.as_millis(),
            w.inc().as_millis(),
            b.inc().as_millis()
        ));
        if let Some(m) = view.clocks[side].moves_to_go() {
            go.push_str(&format!(" movestogo {m}"));
        }
    }
    if let Some(t) = tc.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis()));
    }
    if let Some(d) = tc.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = tc.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

fn centis(d: Duration) -> u128 {
    d.as_millis() / 10
}

impl Engine {
    /// Starts the engine and completes the protocol handshake.
    pub fn start(config: &EngineConfig) -> Result<Engine, String> {
        let mut cmd = Command::new(&config.program);
        cmd.args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start engine '{}': {e}", config.program))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let rx = read_lines(stdout);
        let label = config.program.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                log::debug!("{label} stderr: {line}");
            }
        });
        let mut engine = Engine {
            config: config.clone(),
            id_name: None,
            child,
            stdin,
            lines: rx,
            uci_options: Vec::new(),
            uci_variants: None,
            xb: XbFeatures::default(),
            xb_known: 0,
            ping: 0,
            pondering: None,
        };
        match config.proto {
            Proto::Uci => engine.uci_handshake()?,
            Proto::Xboard => engine.xboard_handshake()?,
        }
        Ok(engine)
    }

    /// The name to show: the configured one, else the engine's own, else the program's.
    pub fn display_name(&self) -> String {
        if !self.config.name.is_empty() {
            return self.config.name.clone();
        }
        self.id_name.clone().unwrap_or_else(|| {
            std::path::Path::new(&self.config.program)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| self.config.program.clone())
        })
    }

    fn label(&self) -> String {
        if self.config.name.is_empty() {
            self.config.program.clone()
        } else {
            self.config.name.clone()
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("{} < {line}", self.label());
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Fault::Crashed(format!("cannot write to the engine: {e}")))
    }

    /// The next line before `deadline`.
    fn recv(&mut self, deadline: Instant) -> Result<(Instant, String), Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((at, line)) => {
                log::debug!("{} > {line}", self.label());
                Ok((at, line))
            }
            Err(RecvTimeoutError::Timeout) => Err(Fault::Stalled("no answer in time".into())),
            Err(RecvTimeoutError::Disconnected) => Err(Fault::Crashed(self.exit_text())),
        }
    }

    fn exit_text(&mut self) -> String {
        // Give the process a moment to be reaped so we can report its status.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!("the engine exited ({status})");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        "the engine closed its output".into()
    }

    /// Reads lines until `done` says stop; errors on deadline or end of output.
    fn wait_for(
        &mut self,
        timeout: Duration,
        what: &str,
        mut done: impl FnMut(&mut Self, &str) -> bool,
    ) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv(deadline) {
                Ok((_, line)) => {
                    if done(self, &line) {
                        return Ok(());
                    }
                }
                Err(Fault::Stalled(_)) => {
                    return Err(format!(
                        "engine '{}' did not send {what} within {} s",
                        self.label(),
                        timeout.as_secs_f64()
                    ));
                }
                Err(Fault::Crashed(why)) => {
                    return Err(format!(
                        "engine '{}' stopped before sending {what}: {why}",
                        self.label()
                    ));
                }
            }
        }
    }

    fn uci_handshake(&mut self) -> Result<(), String> {
        self.send("uci").map_err(|f| format!("{f:?}"))?;
        self.wait_for(HANDSHAKE, "uciok", Engine::uci_id_line)?;
        // VariantPath first (Fairy-Stockfish loads variants from it), then `uci` again: only
        // its answer lists those variants, and Fairy-Stockfish resets `UCI_Variant` at every
        // `uci`, so the other options follow it.
        let (paths, others): (Vec<_>, Vec<_>) = self
            .config
            .options
            .clone()
            .into_iter()
            .partition(|(k, _)| k.eq_ignore_ascii_case("VariantPath"));
        self.send_uci_options(&paths)?;
        if !paths.is_empty() {
            self.uci_options.clear();
            self.send("uci").map_err(|f| format!("{f:?}"))?;
            self.wait_for(HANDSHAKE, "uciok", Engine::uci_id_line)?;
        }
        self.send_uci_options(&others)?;
        if self.config.ponder {
            let set = others.iter().any(|(k, _)| k.eq_ignore_ascii_case("Ponder"));
            if !self.has_option("Ponder") {
                log::warn!(
                    "engine '{}' has no option Ponder: it will not ponder",
                    self.label()
                );
            } else if !set {
                self.send("setoption name Ponder value true")
                    .map_err(|f| format!("{f:?}"))?;
            }
        }
        self.sync_uci(HANDSHAKE)
    }

    /// Whether the engine ponders: `--ponder`, UCI, and the engine offers `Ponder`.
    pub fn can_ponder(&self) -> bool {
        self.config.ponder && self.config.proto == Proto::Uci && self.has_option("Ponder")
    }

    /// Starts pondering: the position of `view` (the opponent to move) with the opponent's
    /// expected move `guess` played, and `go ponder` with the clocks, as cutechess does.
    pub fn start_ponder(&mut self, view: &GameView, guess: &str) -> Result<(), Fault> {
        let own = if view.white_to_move { 1 } else { 0 };
        let mut moves = view.moves.to_vec();
        moves.push(guess.to_string());
        self.send(&uci_position(view.fen, &moves))?;
        self.send(&format!("go ponder{}", uci_limits(view, own)))?;
        self.pondering = Some(guess.to_string());
        Ok(())
    }

    /// Ends a ponder search that is no longer wanted: `stop`, and its `bestmove` read and
    /// dropped before `deadline`. False when the engine was not pondering.
    pub fn stop_ponder(&mut self, deadline: Instant) -> Result<bool, Fault> {
        if self.pondering.take().is_none() {
            return Ok(false);
        }
        self.send("stop")?;
        loop {
            match self.recv(deadline) {
                Ok((_, line)) if line.trim_start().starts_with("bestmove") => return Ok(true),
                Ok(_) => {}
                Err(Fault::Stalled(_)) => {
                    return Err(Fault::Stalled(
                        "no bestmove after stopping its ponder search".into(),
                    ));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Ends pondering at the game's end (`stop`, its `bestmove` awaited a grace period past
    /// the engine's time margin). False when the engine was not pondering.
    pub fn end_ponder(&mut self) -> Result<bool, Fault> {
        let deadline = Instant::now() + GRACE + self.config.timemargin;
        self.stop_ponder(deadline)
    }

    /// Sends `setoption` for each of `options`, warning about names the engine did not list.
    fn send_uci_options(&mut self, options: &[(String, String)]) -> Result<(), String> {
        for (name, value) in options {
            if !self
                .uci_options
                .iter()
                .any(|o| o.eq_ignore_ascii_case(name))
            {
                log::warn!(
                    "engine '{}' does not list option '{name}'; sending it anyway",
                    self.label()
                );
            }
            self.send(&format!("setoption name {name} value {value}"))
                .map_err(|f| format!("{f:?}"))?;
        }
        Ok(())
    }

    /// Reads one line of the answer to `uci`; true at `uciok`.
    fn uci_id_line(&mut self, line: &str) -> bool {
        if let Some(name) = line.strip_prefix("id name ") {
            self.id_name = Some(name.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("option name ") {
            let name = rest.split(" type ").next().unwrap_or(rest).trim();
            if name == "UCI_Variant" {
                self.uci_variants = Some(
                    rest.split(" var ")
                        .skip(1)
                        .map(|v| v.trim().to_string())
                        .collect(),
                );
            }
            self.uci_options.push(name.to_string());
        }
        line.trim() == "uciok"
    }

    fn variant_path_set(&self) -> bool {
        self.config
            .options
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("VariantPath"))
    }

    /// Whether the engine offers option `name` (UCI `option name`).
    pub fn has_option(&self, name: &str) -> bool {
        self.uci_options
            .iter()
            .any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Whether the engine announced `variant` (its own name for it): in its `UCI_Variant`
    /// combo, or in the XBoard `variants` feature (`normal` only when it sent none). `None`
    /// when it cannot be known at the start (an XBoard engine given a VariantPath).
    pub fn announces_variant(&self, variant: &str) -> Option<bool> {
        match self.config.proto {
            Proto::Uci => Some(
                self.uci_variants
                    .as_ref()
                    .is_some_and(|l| l.iter().any(|v| v.eq_ignore_ascii_case(variant))),
            ),
            Proto::Xboard if self.variant_path_set() => None,
            Proto::Xboard => Some(match &self.xb.variants {
                Some(list) => list.iter().any(|v| v.eq_ignore_ascii_case(variant)),
                None => variant == "normal",
            }),
        }
    }

    /// The variants the engine announced, for messages.
    pub fn announced_variants(&self) -> String {
        let list = match self.config.proto {
            Proto::Uci => self.uci_variants.as_ref(),
            Proto::Xboard => self.xb.variants.as_ref(),
        };
        match list {
            Some(l) if !l.is_empty() => l.join(", "),
            _ => "none".into(),
        }
    }

    fn sync_uci(&mut self, timeout: Duration) -> Result<(), String> {
        self.send("isready").map_err(|f| format!("{f:?}"))?;
        self.wait_for(timeout, "readyok", |_, line| line.trim() == "readyok")
    }

    fn xboard_handshake(&mut self) -> Result<(), String> {
        self.send("xboard").map_err(|f| format!("{f:?}"))?;
        self.send("protover 2").map_err(|f| format!("{f:?}"))?;
        let mut waited_long = false;
        let start = Instant::now();
        let mut deadline = start + Duration::from_secs(5);
        loop {
            let (_, line) = match self.recv(deadline) {
                Ok(x) => x,
                // No `done=1`: a protocol 1 engine. Go on with the defaults.
                Err(Fault::Stalled(_)) => {
                    log::warn!(
                        "engine '{}' sent no 'feature done=1'; assuming protocol version 1",
                        self.label()
                    );
                    break;
                }
                Err(Fault::Crashed(why)) => {
                    return Err(format!(
                        "engine '{}' stopped during the handshake: {why}",
                        self.label()
                    ));
                }
            };
            let Some(rest) = line.trim().strip_prefix("feature ") else {
                continue;
            };
            let mut finished = false;
            for (key, value) in parse_features(rest) {
                let on = value == "1";
                let accepted = match key.as_str() {
                    "usermove" => {
                        self.xb.usermove = on;
                        true
                    }
                    "ping" => {
                        self.xb.ping = on;
                        true
                    }
                    "setboard" => {
                        self.xb.setboard = on;
                        true
                    }
                    "myname" => {
                        self.xb.myname = Some(value.clone());
                        true
                    }
                    "variants" => {
                        self.xb.variants =
                            Some(value.split(',').map(|v| v.trim().to_string()).collect());
                        true
                    }
                    "done" => {
                        if on {
                            finished = true;
                        } else if !waited_long {
                            waited_long = true;
                            deadline = start + HANDSHAKE.max(Duration::from_secs(60));
                        }
                        true
                    }
                    "san" => !on,
                    "sigint" | "sigterm" | "reuse" | "analyze" | "colors" | "time" | "draw"
                    | "name" | "pause" | "nps" | "debug" | "memory" | "smp" | "egt" | "option"
                    | "exclude" | "setscore" | "highlight" | "playother" | "ics" => true,
                    _ => false,
                };
                let verb = if accepted { "accepted" } else { "rejected" };
                self.send(&format!("{verb} {key}"))
                    .map_err(|f| format!("{f:?}"))?;
            }
            if finished {
                break;
            }
        }
        self.id_name = self.xb.myname.clone();
        // Options once, before any `variant` (Fairy-Stockfish's VariantPath defines variants).
        let mut options = self.config.options.clone();
        options.sort_by_key(|(k, _)| !k.eq_ignore_ascii_case("VariantPath"));
        for (name, value) in options {
            let line = match name.as_str() {
                "Hash" => format!("memory {value}"),
                "Threads" => format!("cores {value}"),
                _ => format!("option {name}={value}"),
            };
            self.send(&line).map_err(|f| format!("{f:?}"))?;
        }
        Ok(())
    }

    /// Prepares a new game: the variant, the start position and the time control.
    pub fn new_game(&mut self, view: &GameView) -> Result<(), String> {
        match self.config.proto {
            Proto::Uci => {
                let wants_variant = self.uci_options.iter().any(|o| o == "UCI_Variant")
                    && !self
                        .config
                        .options
                        .iter()
                        .any(|(k, _)| k.eq_ignore_ascii_case("UCI_Variant"));
                if let (true, Some(v)) = (wants_variant, view.variant) {
                    self.send(&format!("setoption name UCI_Variant value {v}"))
                        .map_err(|f| format!("{f:?}"))?;
                }
                self.send("ucinewgame").map_err(|f| format!("{f:?}"))?;
                self.sync_uci(HANDSHAKE)
            }
            Proto::Xboard => {
                self.send("new").map_err(|f| format!("{f:?}"))?;
                if let Some(v) = view.variant {
                    if let Some(list) = &self.xb.variants
                        && !list.iter().any(|x| x == v)
                    {
                        // Fairy-Stockfish lists the variants of its VariantPath only later.
                        log::info!(
                            "engine '{}' does not list variant '{v}' in its features",
                            self.label()
                        );
                    }
                    self.send(&format!("variant {v}"))
                        .map_err(|f| format!("{f:?}"))?;
                }
                self.send("force").map_err(|f| format!("{f:?}"))?;
                if let Some(fen) = view.fen {
                    if !self.xb.setboard {
                        return Err(format!(
                            "engine '{}' does not support setboard, needed for the opening {fen}",
                            self.label()
                        ));
                    }
                    self.send(&format!("setboard {fen}"))
                        .map_err(|f| format!("{f:?}"))?;
                }
                let tc = self.config.tc.clone();
                if let Some(p) = tc.clock {
                    // Whole seconds, at least one: `time` tells the real clock before each move.
                    let base = (p.base.as_secs_f64().ceil() as u64).max(1);
                    let inc = p.inc.as_secs_f64();
                    let base = if base.is_multiple_of(60) {
                        format!("{}", base / 60)
                    } else {
                        format!("{}:{:02}", base / 60, base % 60)
                    };
                    let line = format!("level {} {base} {inc}", p.moves.unwrap_or(0));
                    self.send(&line).map_err(|f| format!("{f:?}"))?;
                } else if let Some(t) = tc.movetime {
                    let secs = t.as_secs_f64().ceil().max(1.0) as u64;
                    self.send(&format!("st {secs}"))
                        .map_err(|f| format!("{f:?}"))?;
                }
                if let Some(d) = tc.depth {
                    self.send(&format!("sd {d}"))
                        .map_err(|f| format!("{f:?}"))?;
                }
                self.send("post").map_err(|f| format!("{f:?}"))?;
                // `hard`: the engine may ponder by itself (it is kept in force mode between
                // its moves, so one that stops pondering in force mode will not).
                let ponder = if self.config.ponder { "hard" } else { "easy" };
                self.send(ponder).map_err(|f| format!("{f:?}"))?;
                self.xb_known = 0;
                self.xb_sync()
            }
        }
    }

    fn xb_sync(&mut self) -> Result<(), String> {
        if !self.xb.ping {
            return Ok(());
        }
        self.ping += 1;
        let n = self.ping;
        self.send(&format!("ping {n}"))
            .map_err(|f| format!("{f:?}"))?;
        let want = format!("pong {n}");
        self.wait_for(HANDSHAKE, &want, |_, line| line.trim() == want)
    }

    /// How long to wait for a move before stopping the engine.
    fn budget(&self, view: &GameView) -> Duration {
        let side = if view.white_to_move { 0 } else { 1 };
        let tc = view.tcs[side];
        let clock = view.clocks[side];
        let margin = self.config.timemargin;
        if clock.running() {
            clock.remaining + margin
        } else if let Some(t) = tc.movetime {
            let t = match self.config.proto {
                // `st` takes whole seconds.
                Proto::Xboard => Duration::from_secs(t.as_secs_f64().ceil().max(1.0) as u64),
                Proto::Uci => t,
            };
            t + margin
        } else {
            view.timeout
        }
    }

    /// Asks for a move in the position `view` describes and waits for it.
    pub fn go(&mut self, view: &GameView) -> Result<Reply, Fault> {
        let side = if view.white_to_move { 0 } else { 1 };
        let budget = self.budget(view);
        let started;
        let mut ponder_hit = None;
        match self.config.proto {
            Proto::Uci => {
                if let Some(guess) = self.pondering.clone() {
                    if view.moves.last() == Some(&guess) {
                        // The expected move came: the ponder search goes on as the real one.
                        self.pondering = None;
                        self.send("ponderhit")?;
                        ponder_hit = Some(true);
                    } else {
                        self.stop_ponder(Instant::now() + budget)?;
                        ponder_hit = Some(false);
                    }
                }
                if ponder_hit != Some(true) {
                    self.send(&uci_position(view.fen, view.moves))?;
                    self.send(&format!("go{}", uci_limits(view, side)))?;
                }
                started = Instant::now();
            }
            Proto::Xboard => {
                self.send("force")?;
                let missing: Vec<String> =
                    view.moves[self.xb_known.min(view.moves.len())..].to_vec();
                for mv in missing {
                    let line = if self.xb.usermove {
                        format!("usermove {mv}")
                    } else {
                        mv
                    };
                    self.send(&line)?;
                }
                self.xb_known = view.moves.len();
                if view.clocks[side].running() {
                    let own = view.clocks[side].remaining;
                    let other = view.clocks[1 - side].remaining;
                    self.send(&format!("time {}", centis(own)))?;
                    self.send(&format!("otim {}", centis(other)))?;
                }
                self.send("go")?;
                started = Instant::now();
            }
        }
        let mut reply = Reply {
            ponder_hit,
            ..Reply::default()
        };
        let mut deadline = started + budget;
        let mut stopped = false;
        loop {
            let (at, line) = match self.recv(deadline) {
                Ok(x) => x,
                Err(Fault::Stalled(_)) if !stopped => {
                    // Out of time: ask for the move; a late one still counts as a forfeit.
                    stopped = true;
                    let stop = match self.config.proto {
                        Proto::Uci => "stop",
                        Proto::Xboard => "?",
                    };
                    self.send(stop)?;
                    deadline = Instant::now() + GRACE;
                    continue;
                }
                Err(Fault::Stalled(_)) => {
                    return Err(Fault::Stalled(format!(
                        "no move within {:.3} s",
                        (budget + GRACE).as_secs_f64()
                    )));
                }
                Err(e) => return Err(e),
            };
            let line = line.trim();
            match self.config.proto {
                Proto::Uci => {
                    if line.starts_with("info") {
                        parse_uci_info(line, &mut reply.score, &mut reply.depth);
                    } else if let Some(rest) = line.strip_prefix("bestmove") {
                        let mut words = rest.split_whitespace();
                        reply.text = words.next().unwrap_or("").to_string();
                        if words.next() == Some("ponder") {
                            reply.ponder = words.next().map(str::to_string);
                        }
                        reply.elapsed = at.saturating_duration_since(started);
                        return Ok(reply);
                    }
                }
                Proto::Xboard => {
                    let mv = line
                        .strip_prefix("move ")
                        .or_else(|| line.strip_prefix("My move is:"))
                        .or_else(|| line.strip_prefix("My move is :"));
                    if let Some(mv) = mv {
                        reply.text = mv.trim().to_string();
                        reply.elapsed = at.saturating_duration_since(started);
                        self.xb_known += 1;
                        return Ok(reply);
                    } else if line == "resign" {
                        reply.resigned = true;
                        reply.elapsed = at.saturating_duration_since(started);
                        return Ok(reply);
                    } else if line.starts_with(|c: char| c.is_ascii_digit()) {
                        parse_xb_thinking(line, &mut reply.score, &mut reply.depth);
                    } else if line.starts_with("Illegal move") || line.starts_with("Error") {
                        log::warn!("engine '{}' complains: {line}", self.label());
                    }
                }
            }
        }
    }

    /// Tells an XBoard engine the result (UCI engines need nothing).
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if self.config.proto == Proto::Xboard {
            let _ = self.send(&format!("result {result} {{{reason}}}"));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        for _ in 0..25 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_scores() {
        let (mut s, mut d) = (None, None);
        parse_uci_info(
            "info depth 7 seldepth 9 score cp -35 nodes 100 pv a2a3",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(-35), Some(7)));
        parse_uci_info("info depth 9 score mate 3 pv a2a3", &mut s, &mut d);
        assert_eq!((s, d), (Some(30000 - 5), Some(9)));
        parse_uci_info("info depth 9 score mate -2", &mut s, &mut d);
        assert_eq!(s, Some(-30000 + 4));
        parse_uci_info("info depth 10 score cp 50 lowerbound", &mut s, &mut d);
        assert_eq!((s, d), (Some(-30000 + 4), Some(10)));
        parse_uci_info("info string score cp 99", &mut s, &mut d);
        assert_eq!(s, Some(-30000 + 4));
    }

    #[test]
    fn xboard_thinking_and_features() {
        let (mut s, mut d) = (None, None);
        parse_xb_thinking("12 -47 150 123456 e2e4 e7e5", &mut s, &mut d);
        assert_eq!((s, d), (Some(-47), Some(12)));
        parse_xb_thinking("Illegal move", &mut s, &mut d);
        assert_eq!((s, d), (Some(-47), Some(12)));
        let f = parse_features(
            r#"myname="kiebitz pawns 0.1" usermove=1 variants="pawns6,pawns5" done=1"#,
        );
        assert_eq!(
            f,
            vec![
                ("myname".to_string(), "kiebitz pawns 0.1".to_string()),
                ("usermove".to_string(), "1".to_string()),
                ("variants".to_string(), "pawns6,pawns5".to_string()),
                ("done".to_string(), "1".to_string()),
            ]
        );
    }
}
