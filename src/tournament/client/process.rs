//! One engine process: spawned with piped stdin and stdout, its output read on a thread of
//! its own into a bounded queue of bounded lines, every read under a deadline, and `quit`
//! then a kill at the end. The limits of every engine client (UCI, XBoard, N-seat) are here.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use super::Fault;
use crate::protocol::LineReader;

/// Engine lines waiting for the runner at most; beyond them the engine's output blocks.
pub const QUEUED_LINES: usize = 256;
/// Longest engine line kept (a longer one is replaced by an empty line and a warning).
pub const MAX_ENGINE_LINE: usize = 64 << 10;
/// How long an engine has to exit after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(250);

/// Reads an engine's output on a thread of its own into a bounded queue of bounded lines,
/// each with the time it came: an engine that floods its output waits for the runner to read
/// (its pipe fills) instead of filling the runner's memory, and a line longer than
/// [`MAX_ENGINE_LINE`] comes as an empty line (with a warning). The thread ends with the
/// output or when the receiver is dropped.
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

/// [`super::EngineError::Spawn`] of `program`.
fn spawn_error(program: &str, reason: impl std::fmt::Display) -> super::EngineError {
    super::EngineError::Spawn {
        program: program.to_string(),
        reason: reason.to_string(),
    }
}

/// A running engine process.
pub struct Process {
    /// How the engine is named in messages and the debug log.
    pub label: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Process {
    /// Starts `program` with `args` (in `dir`); its stderr goes to the debug log.
    pub fn spawn(
        label: &str,
        program: &str,
        args: &[String],
        dir: Option<&Path>,
    ) -> Result<Process, super::EngineError> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| spawn_error(program, e))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(program, "no pipes"));
        };
        let name = label.to_string();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                log::debug!("{name} stderr: {line}");
            }
        });
        Ok(Process {
            label: label.to_string(),
            child,
            stdin,
            lines: read_lines(stdout),
        })
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("{} < {line}", self.label);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Fault::Crashed(format!("cannot write to the engine: {e}")))
    }

    /// The next line and the time it came, before `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<(Instant, String), Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((at, line)) => {
                log::debug!("{} > {line}", self.label);
                Ok((at, line))
            }
            Err(RecvTimeoutError::Timeout) => Err(Fault::Stalled("no answer in time".into())),
            Err(RecvTimeoutError::Disconnected) => Err(Fault::Crashed(self.exit_text())),
        }
    }

    /// Reads lines until `done` holds for one (returned) before `deadline`.
    pub fn recv_until(
        &mut self,
        deadline: Instant,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, Fault> {
        loop {
            let (_, line) = self.recv(deadline)?;
            if done(&line) {
                return Ok(line);
            }
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
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let end = Instant::now() + QUIT_WAIT;
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
