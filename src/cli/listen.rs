//! The engine server (`--listen`): every TCP connection is its own protocol session on its
//! own thread, with its own searcher. Sessions are bounded in number, in the memory their
//! tables share (`--max-hash`), in how long a client may stay silent (`--idle-timeout`), in
//! how long in all its output may stay unread (`--write-timeout`) and in how long one search
//! or perft may run (`--max-search-time`). A client beyond the bound is told so and closed;
//! a client that misbehaves or vanishes ends only its own session (its search is stopped);
//! each refused or dropped client gets a log line (level warn). A client names files and
//! folders only inside `--data-dir` (none without it) and makes the server write none.

use crate::error::CliError;
use std::io::{self, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::DEFAULT_PORT;
use crate::game::Game;
use crate::protocol::{self, HashBudget, MAX_HASH_MB, SessionConfig};
use crate::search::oracle::AnyOracle;

/// Default `--max-hash`: MiB shared by every session's table.
pub const DEFAULT_MAX_HASH_MB: u64 = 256;
/// Default `--idle-timeout` in seconds.
pub const DEFAULT_IDLE_SECS: u64 = 300;
/// Default `--write-timeout` in seconds (for the whole session).
pub const DEFAULT_WRITE_SECS: u64 = 60;
/// Default `--max-search-time` in seconds.
pub const DEFAULT_MAX_SEARCH_SECS: u64 = 600;

/// What the server allows.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_sessions: usize,
    /// The table size a session starts with (MiB).
    pub hash_mb: usize,
    /// The memory all sessions' tables share (MiB).
    pub max_hash_mb: usize,
    /// Seconds a client may send nothing (0: no limit).
    pub idle_secs: u64,
    /// Seconds a session's writes may block in all.
    pub write_secs: u64,
    /// Seconds one search or perft may run (0: no limit).
    pub max_search_secs: u64,
    /// The folder whose files and folders clients may name (`None`: none).
    pub data_dir: Option<std::path::PathBuf>,
}

/// The server's flags, shared by every engine binary's command line (`#[command(flatten)]`).
#[derive(clap::Args, Debug, Clone)]
pub struct ServerArgs {
    /// Most sessions served at once by --listen; extra clients are told so and closed.
    #[arg(long, value_name = "N", default_value_t = 4, requires = "listen")]
    pub max_sessions: usize,

    /// --listen: the memory in MiB all sessions' tables share (Hash and memory requests
    /// beyond it get what is left, at least 1 MiB).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_MAX_HASH_MB,
          value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64),
          requires = "listen")]
    pub max_hash: u64,

    /// --listen: close a session whose client sends nothing for SECS seconds (0: never).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_IDLE_SECS, requires = "listen")]
    pub idle_timeout: u64,

    /// --listen: close a session whose client leaves its output unread for SECS seconds
    /// in all (the whole session's write deadline).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_WRITE_SECS,
          value_parser = clap::value_parser!(u64).range(1..), requires = "listen")]
    pub write_timeout: u64,

    /// --listen: stop any one search or perft after SECS seconds, `go infinite` too (0: never).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_MAX_SEARCH_SECS,
          requires = "listen")]
    pub max_search_time: u64,

    /// --listen: the folder whose files and folders clients may name in options (EvalFile,
    /// SyzygyPath, BookFile, Endgame Tables Path …), symbolic links followed; without it a
    /// client may name none. Clients never make the server write files.
    #[arg(long, value_name = "DIR", requires = "listen")]
    pub data_dir: Option<std::path::PathBuf>,
}

impl ServerArgs {
    /// The limits these flags give, sessions starting with `hash_mb` MiB.
    pub fn limits(&self, hash_mb: usize) -> Limits {
        Limits {
            max_sessions: self.max_sessions,
            hash_mb,
            max_hash_mb: self.max_hash as usize,
            idle_secs: self.idle_timeout,
            write_secs: self.write_timeout,
            max_search_secs: self.max_search_time,
            data_dir: self.data_dir.clone(),
        }
    }
}

/// The address to bind: empty means 127.0.0.1 on the default port, a bare port means
/// 127.0.0.1 on that port, anything else is resolved as given.
pub fn resolve(addr: &str) -> Result<SocketAddr, CliError> {
    let addr = addr.trim();
    if addr.is_empty() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)));
    }
    if let Ok(port) = addr.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    Ok(addr
        .to_socket_addrs()
        .map_err(|e| format!("cannot use listen address '{addr}': {e}"))?
        .next()
        .ok_or_else(|| format!("listen address '{addr}' resolves to nothing"))?)
}

/// Serves sessions of game `G` on `addr` until the process is stopped.
pub fn serve<G: Game>(
    addr: &str,
    limits: &Limits,
    oracle: Option<AnyOracle>,
) -> Result<(), CliError> {
    serve_with(addr, limits, oracle, |r, w, config| {
        protocol::run_session_config::<G, _, _>(r, w, config)
    })
}

/// What one session runs on a connection: its reader (ending after the idle timeout), its
/// writer (under the session's write deadline), the session's configuration.
pub type SessionFn =
    fn(BufReader<IdleReader>, DeadlineWriter, &SessionConfig) -> std::io::Result<()>;

/// Serves sessions run by `run` on `addr` until the process is stopped.
pub fn serve_with(
    addr: &str,
    limits: &Limits,
    oracle: Option<AnyOracle>,
    run: SessionFn,
) -> Result<(), CliError> {
    let max_sessions = limits.max_sessions;
    if max_sessions == 0 {
        return Err("--max-sessions must be at least 1".into());
    }
    let data_dir = match &limits.data_dir {
        None => None,
        Some(dir) => Some(
            dir.canonicalize()
                .ok()
                .filter(|d| d.is_dir())
                .ok_or_else(|| format!("--data-dir {}: not a readable folder", dir.display()))?,
        ),
    };
    let addr = resolve(addr)?;
    let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    if !local.ip().is_loopback() {
        log::warn!("listening on {local}, which is reachable from other machines");
    }
    // Tools (and the tests) read the port from this line.
    eprintln!("listening on {local} (at most {max_sessions} sessions)");
    let secs = |s: u64| (s > 0).then(|| Duration::from_secs(s));
    let config = SessionConfig {
        hash_mb: limits.hash_mb,
        finish_at_eof: false,
        job_ceiling: secs(limits.max_search_secs),
        hash_budget: Some(HashBudget::new(limits.max_hash_mb)),
        oracle,
        paths: protocol::Paths::Within(data_dir),
    };
    let idle = secs(limits.idle_secs);
    let write = Duration::from_secs(limits.write_secs.max(1));
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            Err(e) => {
                log::warn!("accept failed: {e}");
                continue;
            }
        };
        let peer = stream
            .peer_addr()
            .map_or_else(|_| "?".to_string(), |a| a.to_string());
        if active.fetch_add(1, Ordering::SeqCst) >= max_sessions {
            active.fetch_sub(1, Ordering::SeqCst);
            log::warn!("refusing {peer}: {max_sessions} sessions already");
            refuse(stream, max_sessions);
            continue;
        }
        log::info!("session from {peer}");
        let counter = Arc::clone(&active);
        let config = config.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("session {peer}"))
            .spawn(move || {
                let release = Release(counter);
                match session(stream, &config, idle, write, &peer, run, release) {
                    Err(e) => log::warn!("session {peer} dropped: {e}"),
                    Ok(()) => log::info!("session {peer} closed"),
                }
            });
        if let Err(e) = spawned {
            log::error!("cannot start a session thread: {e}");
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(())
}

/// A session's slot among `--max-sessions`, given back when dropped (also if the session
/// panics).
struct Release(Arc<AtomicUsize>);

impl Drop for Release {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn session(
    stream: TcpStream,
    config: &SessionConfig,
    idle: Option<Duration>,
    write: Duration,
    peer: &str,
    run: SessionFn,
    slot: Release,
) -> io::Result<()> {
    let _ = stream.set_nodelay(true);
    stream.set_read_timeout(idle)?;
    let reader = BufReader::new(IdleReader {
        stream: stream.try_clone()?,
        peer: peer.to_string(),
    });
    let writer = DeadlineWriter {
        stream: stream.try_clone()?,
        left: write,
        peer: peer.to_string(),
    };
    let result = run(reader, writer, config);
    // The slot is free before the client sees the connection close, so that it can connect
    // again at once.
    drop(slot);
    let _ = stream.shutdown(std::net::Shutdown::Both);
    result
}

/// The client's input; a read that times out (the client has been silent for the idle
/// timeout) is logged and ends the session like the end of input.
pub struct IdleReader {
    stream: TcpStream,
    peer: String,
}

impl Read for IdleReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let result = self.stream.read(buf);
        if let Err(e) = &result
            && matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            )
        {
            log::warn!("session {} dropped: idle too long", self.peer);
        }
        result
    }
}

/// The client's output under one deadline for the whole session: every write may block only
/// as long as the time left, and what it blocked is taken off. A client that does not read
/// its output thus loses its session after `--write-timeout` seconds in all.
pub struct DeadlineWriter {
    stream: TcpStream,
    left: Duration,
    peer: String,
}

impl DeadlineWriter {
    fn timed<T>(&mut self, f: impl FnOnce(&mut TcpStream) -> io::Result<T>) -> io::Result<T> {
        if self.left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_write_timeout(Some(self.left))?;
        let start = Instant::now();
        let result = f(&mut self.stream);
        self.left = self.left.saturating_sub(start.elapsed());
        if self.left.is_zero() || result.is_err() {
            if self.left.is_zero() {
                log::warn!("session {} dropped: its output is not read", self.peer);
                self.left = Duration::ZERO;
            }
            let _ = self.stream.shutdown(std::net::Shutdown::Both);
        }
        result
    }
}

impl Write for DeadlineWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.timed(|s| s.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.timed(|s| s.flush())
    }
}

fn refuse(mut stream: TcpStream, max: usize) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
    let _ = writeln!(
        stream,
        "error: server busy ({max} sessions at most); try again later"
    );
    let _ = stream.shutdown(std::net::Shutdown::Both);
}
