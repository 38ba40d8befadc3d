//! An engine process speaking the N-seat protocol (`protocol::nseat`): started per game and
//! seat, asked for moves with a time limit, its `info` lines read for depth and nodes. Its
//! output is read like a two-player engine's ([`read_lines`]): bounded lines in a bounded
//! queue, so a flooding engine cannot fill the runner's memory.
//! Depends on the two-player engine client's reader.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::tournament::engine::read_lines;

/// How to start one engine and what to tell it first.
#[derive(Clone, Debug)]
pub struct Spec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    /// `setoption name K value V` pairs sent after `uci`.
    pub options: Vec<(String, String)>,
}

/// The engine's answer to one `go`.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    pub mv: String,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Process {
    /// Starts the engine and waits for `uciok` (10 s at most).
    pub fn start(spec: &Spec) -> Result<Process, String> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {} ({}): {e}", spec.name, spec.cmd))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut p = Process {
            child,
            stdin,
            lines: read_lines(stdout),
        };
        p.send("uci")?;
        p.wait_for(|l| l == "uciok", Duration::from_secs(10))?;
        for (k, v) in &spec.options {
            p.send(&format!("setoption name {k} value {v}"))?;
        }
        p.send("isready")?;
        p.wait_for(|l| l == "readyok", Duration::from_secs(10))?;
        Ok(p)
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("the engine is gone: {e}"))
    }

    /// Reads lines until `done` holds; errors on timeout, on an `error` line, or at exit.
    fn wait_for(&mut self, done: impl Fn(&str) -> bool, limit: Duration) -> Result<String, String> {
        let end = Instant::now() + limit;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((_, l)) if done(&l) => return Ok(l),
                Ok((_, l)) if l.starts_with("info string error") => return Err(l),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err("no answer in time".into()),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine exited".into()),
            }
        }
    }

    /// Sends the position and `go …`, returns the move with the last iteration's depth and
    /// nodes; `limit` bounds the wait.
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> Result<Answer, String> {
        self.send(position)?;
        let start = Instant::now();
        self.send(go)?;
        let mut answer = Answer::default();
        let end = start + limit;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok((_, l)) => l,
                Err(RecvTimeoutError::Timeout) => return Err("no move in time".into()),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine exited".into()),
            };
            if let Some(mv) = line.strip_prefix("bestmove ") {
                answer.mv = mv.split_whitespace().next().unwrap_or("").to_string();
                answer.elapsed = start.elapsed();
                return Ok(answer);
            }
            if line.starts_with("info string error") {
                return Err(line);
            }
            if line.starts_with("info depth ") {
                let w: Vec<&str> = line.split_whitespace().collect();
                for i in 0..w.len().saturating_sub(1) {
                    match w[i] {
                        "depth" => answer.depth = w[i + 1].parse().unwrap_or(0),
                        "nodes" => answer.nodes = w[i + 1].parse().unwrap_or(0),
                        _ => {}
                    }
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let end = Instant::now() + Duration::from_millis(500);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
