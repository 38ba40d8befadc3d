//! A protocol client for the integration tests: talks to an engine process or a TCP session
//! and reads its lines with timeouts, so a broken engine fails a test instead of hanging it;
//! and an engine serving `--listen` for the sessions to connect to.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long any single expected answer may take.
pub const TIMEOUT: Duration = Duration::from_secs(15);

pub struct Client {
    child: Option<Child>,
    socket: Option<TcpStream>,
    input: Box<dyn Write + Send>,
    lines: Receiver<String>,
    /// Every line received so far, for failure messages.
    pub seen: Vec<String>,
}

fn reader_thread<R: Read + Send + 'static>(r: R) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// An engine serving `--listen` on a free loopback port; killed when dropped.
pub struct Server {
    child: Child,
    /// The address from its first stderr line, `listening on ADDR …`.
    pub addr: String,
    /// Its stderr lines after that one.
    pub log: Receiver<String>,
}

impl Server {
    /// Starts `binary --listen 127.0.0.1:0 EXTRA…` and reads the address it listens on.
    pub fn start(binary: &std::path::Path, extra: &[&str]) -> Server {
        let mut child = Command::new(binary)
            .args(["--listen", "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("server starts");
        let log = reader_thread(child.stderr.take().unwrap());
        let first = log.recv_timeout(TIMEOUT).expect("server address");
        let addr = first
            .strip_prefix("listening on ")
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("{first}"))
            .to_string();
        Server { child, addr, log }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Client {
    /// Starts `binary` with `args`, stdin/stdout piped, stderr discarded.
    pub fn spawn(binary: &std::path::Path, args: &[&str]) -> Client {
        let mut child = Command::new(binary)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let input = Box::new(child.stdin.take().unwrap());
        let lines = reader_thread(child.stdout.take().unwrap());
        Client {
            child: Some(child),
            socket: None,
            input,
            lines,
            seen: Vec::new(),
        }
    }

    /// Connects to a TCP session.
    pub fn connect(addr: &str) -> Client {
        let stream = TcpStream::connect(addr).expect("server accepts");
        let input = Box::new(stream.try_clone().unwrap());
        Client {
            child: None,
            socket: stream.try_clone().ok(),
            input,
            lines: reader_thread(stream),
            seen: Vec::new(),
        }
    }

    /// The engine process's id (`None` for a TCP session).
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(|c| c.id())
    }

    pub fn send(&mut self, line: &str) {
        // A write may fail once the engine has quit; the reads then tell what happened.
        let _ = writeln!(self.input, "{line}");
        let _ = self.input.flush();
    }

    /// Closes the engine's input (the end of input, as after `printf … | engine`).
    pub fn close_input(&mut self) {
        self.input = Box::new(std::io::sink());
        if let Some(s) = self.socket.as_ref() {
            let _ = s.shutdown(std::net::Shutdown::Write);
        }
    }

    /// The next line, or `None` if nothing comes within `timeout` (or the stream ended).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.seen.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them, the last one matching.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                None => panic!(
                    "no expected line within {TIMEOUT:?}; received so far:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Starts `binary` as a UCI engine (`uci` to `uciok`) and checks that it offers an option
    /// line starting with each of `options` (`option name Endgame Tables type spin …`).
    pub fn uci_offering(binary: &std::path::Path, options: &[&str]) -> Client {
        let mut e = Client::spawn(binary, &[]);
        e.send("uci");
        let lines = e.read_until(|l| l.starts_with("uciok"));
        for option in options {
            assert!(lines.iter().any(|l| l.starts_with(option)), "{lines:?}");
        }
        e
    }

    /// Sends `go` and reads to its `bestmove`: the lines read and the move.
    pub fn go(&mut self, go: &str) -> (Vec<String>, String) {
        self.send(go);
        let lines = self.read_until(|l| l.starts_with("bestmove "));
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1));
        let best = best.expect("bestmove names a move").to_string();
        (lines, best)
    }

    /// Sends `go` and returns the score of the last `info … score …` line before `bestmove`
    /// (`cp 31`, `mate -9`).
    pub fn score(&mut self, go: &str) -> String {
        self.send(go);
        let lines = self.read_until(|l| l.starts_with("bestmove "));
        let last = lines
            .iter()
            .rev()
            .find(|l| l.contains(" score "))
            .expect("an info line with a score");
        let words: Vec<&str> = last.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "score").expect("score");
        format!("{} {}", words[at + 1], words[at + 2])
    }

    /// Reads until a line starting with `prefix`; returns that line.
    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        self.read_until(|l| l.starts_with(prefix)).pop().unwrap()
    }

    /// Sets a UCI option and returns the `info string` lines it answers with (joined by
    /// newlines; empty when it says nothing).
    pub fn set(&mut self, name: &str, value: &str) -> String {
        self.send(&format!("setoption name {name} value {value}"));
        self.send("isready");
        let lines = self.read_until(|l| l == "readyok");
        lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Sends `line` and returns the next line, which must come within the timeout.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        match self.next_line(TIMEOUT) {
            Some(l) => l,
            None => panic!("no answer to '{line}'; received:\n{}", self.seen.join("\n")),
        }
    }

    /// Asserts that nothing arrives within `d`.
    pub fn silent_for(&mut self, d: Duration) {
        if let Some(l) = self.next_line(d) {
            panic!("unexpected line '{l}'");
        }
    }

    /// Waits for the engine process to exit; its exit status's success.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let child = self.child.as_mut().expect("a process");
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status.success();
            }
            if Instant::now() > deadline {
                panic!("engine did not exit within {timeout:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Whether the stream has ended (the other side closed it) within `timeout`.
    pub fn closed_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => self.seen.push(l),
                Err(RecvTimeoutError::Disconnected) => return true,
                Err(RecvTimeoutError::Timeout) => return false,
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(s) = self.socket.as_ref() {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
