//! The N-seat client (`protocol::nseat`, Chamäleon's dialect of UCI): started per game and
//! seat, asked for moves with a time limit, its `info` lines read for depth and nodes, an
//! `info string error …` line taken as a fault.

use std::time::{Duration, Instant};

use super::EngineError;
use super::process::Process;
use super::{Client, Fault, Reply};

/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// How long past its move time (or its clock) an engine may take before it forfeits.
const MOVETIME_SLACK: Duration = Duration::from_secs(2);
const CLOCK_SLACK: Duration = Duration::from_secs(1);

/// How to start one engine and what to tell it first.
#[derive(Clone, Debug)]
pub struct Spec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    /// `setoption name K value V` pairs sent after `uci`.
    pub options: Vec<(String, String)>,
}

/// The game as one seat's engine is told it before a move.
pub struct SeatView<'a> {
    /// The start position (the game's own text).
    pub start: &'a str,
    /// Every move so far.
    pub moves: &'a [String],
    /// A fixed time per move (used when there is no clock).
    pub movetime: Option<Duration>,
    /// The clock of each seat that plays, by its letter, and the increment.
    pub clocks: &'a [(char, Duration)],
    pub inc: Duration,
    /// The clock of the seat to move.
    pub own: Duration,
}

/// An engine speaking the N-seat protocol.
pub struct Nseat {
    process: Process,
}

impl Nseat {
    /// Starts the engine, sends its options and waits for `uciok` and `readyok`.
    pub fn start(spec: &Spec) -> Result<Nseat, EngineError> {
        let process = Process::spawn(&spec.name, &spec.cmd, &spec.args, None).map_err(|e| {
            EngineError::Named {
                name: spec.name.clone(),
                error: Box::new(e),
            }
        })?;
        let mut c = Nseat { process };
        c.process.send("uci").map_err(EngineError::nseat)?;
        c.wait_for("uciok")?;
        for (k, v) in &spec.options {
            c.process
                .send(&format!("setoption name {k} value {v}"))
                .map_err(EngineError::nseat)?;
        }
        c.process.send("isready").map_err(EngineError::nseat)?;
        c.wait_for("readyok")?;
        Ok(c)
    }

    /// Reads lines until `want`; errors on timeout, on an `error` line, or at exit.
    fn wait_for(&mut self, want: &str) -> Result<(), EngineError> {
        let line = self
            .process
            .recv_until(Instant::now() + HANDSHAKE, |l| {
                l == want || l.starts_with("info string error")
            })
            .map_err(EngineError::nseat)?;
        if line == want {
            Ok(())
        } else {
            Err(EngineError::ErrorLine(line))
        }
    }
}

impl Client<SeatView<'_>> for Nseat {
    /// Sends the position and `go …`; the move comes with the last iteration's depth and
    /// nodes.
    fn go(&mut self, view: &SeatView) -> Result<Reply, Fault> {
        let position = format!("position fen {} moves {}", view.start, view.moves.join(" "));
        let (go, limit) = match view.movetime {
            Some(t) => (format!("go movetime {}", t.as_millis()), t + MOVETIME_SLACK),
            None => {
                let mut go = "go".to_string();
                for (l, left) in view.clocks {
                    go.push_str(&format!(
                        " {l}time {} {l}inc {}",
                        left.as_millis(),
                        view.inc.as_millis()
                    ));
                }
                (go, view.own + CLOCK_SLACK)
            }
        };
        self.process.send(&position)?;
        let start = Instant::now();
        self.process.send(&go)?;
        let mut reply = Reply::default();
        let end = start + limit;
        loop {
            let line = match self.process.recv(end) {
                Ok((_, l)) => l,
                Err(Fault::Stalled(_)) => return Err(Fault::Stalled("no move in time".into())),
                Err(Fault::Crashed(_)) => {
                    return Err(Fault::Crashed("the engine exited".into()));
                }
            };
            if let Some(mv) = line.strip_prefix("bestmove ") {
                reply.text = mv.split_whitespace().next().unwrap_or("").to_string();
                reply.elapsed = start.elapsed();
                return Ok(reply);
            }
            if line.starts_with("info string error") {
                return Err(Fault::Crashed(line));
            }
            if line.starts_with("info depth ") {
                let w: Vec<&str> = line.split_whitespace().collect();
                for i in 0..w.len().saturating_sub(1) {
                    match w[i] {
                        "depth" => reply.depth = Some(w[i + 1].parse().unwrap_or(0)),
                        "nodes" => reply.nodes = Some(w[i + 1].parse().unwrap_or(0)),
                        _ => {}
                    }
                }
            }
        }
    }
}
