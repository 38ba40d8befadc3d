//! Engine clients: one engine [`Process`] (spawn, bounded reads under deadlines, kill) and
//! the protocols spoken over it — [`uci`], [`xboard`] (CECP v2) and [`nseat`] (Chamäleon's
//! dialect) — each a [`Client`]: prepare a game, ask for a move under a deadline, hear the
//! result.
//!
//! Every wait has a deadline; an engine that closes its output has crashed ([`Fault::Crashed`]),
//! one that does not answer in time has stalled ([`Fault::Stalled`]). The caller (a referee)
//! decides what that means for the game. [`Engine`] is the two-seat runner's handle: a UCI or
//! XBoard client chosen by the command line. Depends on [`super::clock`] and
//! `protocol::LineReader` (bounded lines).

pub mod error;
pub mod nseat;
pub mod process;
pub mod uci;
pub mod xboard;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::clock::{Clock, TimeControl};
pub use error::EngineError;
pub use process::{MAX_ENGINE_LINE, Process, QUEUED_LINES, read_lines};

/// The protocol a two-seat engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Xboard,
}

/// Everything the command line says about one engine of a two-seat match.
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

impl EngineConfig {
    /// The name for messages: the configured one, else the program.
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            self.program.clone()
        } else {
            self.name.clone()
        }
    }

    /// Starts the engine's process.
    fn spawn(&self) -> Result<Process, EngineError> {
        Process::spawn(
            &self.label(),
            &self.program,
            &self.args,
            self.dir.as_deref(),
        )
    }

    /// The move time `t` as the engine gets it (XBoard's `st` takes whole seconds).
    pub fn movetime(&self, t: Duration) -> Duration {
        match self.proto {
            Proto::Xboard => Duration::from_secs(t.as_secs_f64().ceil().max(1.0) as u64),
            Proto::Uci => t,
        }
    }
}

/// How long the handshake may take.
pub const HANDSHAKE: Duration = Duration::from_secs(15);
/// How long after `stop` a late move is still awaited (it then counts as a time forfeit).
pub const GRACE: Duration = Duration::from_secs(1);

/// Why an engine could not deliver a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The engine's output closed (it exited or crashed).
    Crashed(String),
    /// No answer within the deadline and the grace period after it.
    Stalled(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crashed(why) | Fault::Stalled(why) => f.write_str(why),
        }
    }
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
    /// The nodes of its last iteration (N-seat `info depth … nodes …`).
    pub nodes: Option<u64>,
    /// XBoard `resign`.
    pub resigned: bool,
    /// The move the engine expects in reply (UCI `bestmove X ponder Y`).
    pub ponder: Option<String>,
    /// The engine pondered before this move: `Some(true)` after a `ponderhit`, `Some(false)`
    /// after a `stop` (the opponent played another move).
    pub ponder_hit: Option<bool>,
}

/// What every engine client does, for the view `V` of the game its runner gives it.
pub trait Client<V: ?Sized> {
    /// Prepares a new game (nothing for a client started per game).
    fn new_game(&mut self, _view: &V) -> Result<(), EngineError> {
        Ok(())
    }
    /// Asks for a move in the position `view` describes and waits for it.
    fn go(&mut self, view: &V) -> Result<Reply, Fault>;
    /// Tells the engine the result, if its protocol has a word for it.
    fn game_over(&mut self, _result: &str, _reason: &str) {}
}

/// The game as a two-seat engine is told it.
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

impl GameView<'_> {
    /// 0 when White is to move, 1 for Black.
    pub fn side(&self) -> usize {
        if self.white_to_move { 0 } else { 1 }
    }
}

/// A two-seat client (UCI or XBoard): a [`Client`] of [`GameView`]s that also says what the
/// engine announced and may ponder.
pub trait TwoSeat: for<'a> Client<GameView<'a>> + Send {
    /// The name the engine gave itself (`id name`, `feature myname`).
    fn id_name(&self) -> Option<String>;
    /// Whether the engine offers option `name` (UCI `option name`).
    fn has_option(&self, _name: &str) -> bool {
        false
    }
    /// Whether the engine announced `variant`; `None` when that cannot be known yet.
    fn announces_variant(&self, variant: &str) -> Option<bool>;
    /// The variants the engine announced, for messages.
    fn announced_variants(&self) -> String;
    /// Whether the engine ponders on its opponent's time through the runner.
    fn can_ponder(&self) -> bool {
        false
    }
    /// Starts pondering on `view` (the opponent to move) with the opponent's move `guess`.
    fn start_ponder(&mut self, _view: &GameView, _guess: &str) -> Result<(), Fault> {
        Ok(())
    }
    /// Ends a ponder search at the game's end; false when there was none.
    fn end_ponder(&mut self) -> Result<bool, Fault> {
        Ok(false)
    }
}

/// A running engine of a two-seat match: its configuration and its client.
pub struct Engine {
    pub config: EngineConfig,
    client: Box<dyn TwoSeat>,
}

impl Engine {
    /// Starts the engine and completes the protocol handshake.
    pub fn start(config: &EngineConfig) -> Result<Engine, EngineError> {
        let client: Box<dyn TwoSeat> = match config.proto {
            Proto::Uci => Box::new(uci::Uci::start(config)?),
            Proto::Xboard => Box::new(xboard::Xboard::start(config)?),
        };
        Ok(Engine {
            config: config.clone(),
            client,
        })
    }

    /// The name to show: the configured one, else the engine's own, else the program's.
    pub fn display_name(&self) -> String {
        if !self.config.name.is_empty() {
            return self.config.name.clone();
        }
        self.client.id_name().unwrap_or_else(|| {
            std::path::Path::new(&self.config.program)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| self.config.program.clone())
        })
    }
}

/// The engine's client: [`TwoSeat`] and [`Client`] methods on an [`Engine`].
impl std::ops::Deref for Engine {
    type Target = dyn TwoSeat;
    fn deref(&self) -> &Self::Target {
        &*self.client
    }
}

impl std::ops::DerefMut for Engine {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut *self.client
    }
}

/// How long a two-seat engine may take for the move `view` asks for before it is stopped.
fn budget(config: &EngineConfig, view: &GameView) -> Duration {
    let side = view.side();
    let clock = view.clocks[side];
    if clock.running() {
        clock.remaining + config.timemargin
    } else if let Some(t) = view.tcs[side].movetime {
        config.movetime(t) + config.timemargin
    } else {
        view.timeout
    }
}

/// Waits for the move of a search started at `started`: `read` takes each line into the
/// reply and says when it held the move. Past `budget` the engine is sent `stop` and its move
/// awaited [`GRACE`] longer (a late move still counts against its clock); then it has
/// stalled.
fn await_move(
    process: &mut Process,
    started: Instant,
    budget: Duration,
    stop: &str,
    mut reply: Reply,
    mut read: impl FnMut(&str, &mut Reply) -> bool,
) -> Result<Reply, Fault> {
    let mut deadline = started + budget;
    let mut stopped = false;
    loop {
        let (at, line) = match process.recv(deadline) {
            Ok(x) => x,
            Err(Fault::Stalled(_)) if !stopped => {
                stopped = true;
                process.send(stop)?;
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
        if read(line.trim(), &mut reply) {
            reply.elapsed = at.saturating_duration_since(started);
            return Ok(reply);
        }
    }
}

/// Reads lines until `done` holds for one; errors on deadline or end of output, naming
/// `what` was awaited.
fn wait_for(
    process: &mut Process,
    timeout: Duration,
    what: &str,
    mut done: impl FnMut(&str) -> bool,
) -> Result<(), EngineError> {
    let (label, what) = (process.label.clone(), what.to_string());
    match process.recv_until(Instant::now() + timeout, |l| done(l)) {
        Ok(_) => Ok(()),
        Err(Fault::Stalled(_)) => Err(EngineError::Timeout {
            label,
            what,
            timeout,
        }),
        Err(Fault::Crashed(why)) => Err(EngineError::Stopped { label, what, why }),
    }
}

fn mate_score(plies: i32) -> i32 {
    if plies >= 0 {
        30000 - plies
    } else {
        -30000 - plies
    }
}
