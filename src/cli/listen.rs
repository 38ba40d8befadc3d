//! The engine server (`--listen`): every TCP connection is its own protocol session on its
//! own thread, with its own searcher. Sessions are bounded; a client beyond the bound is told
//! so and closed, and a client that misbehaves or vanishes ends only its own session.

use std::io::{BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::DEFAULT_PORT;
use crate::game::Game;
use crate::protocol;

/// The address to bind: empty means 127.0.0.1 on the default port, a bare port means
/// 127.0.0.1 on that port, anything else is resolved as given.
pub fn resolve(addr: &str) -> Result<SocketAddr, String> {
    let addr = addr.trim();
    if addr.is_empty() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)));
    }
    if let Ok(port) = addr.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    addr.to_socket_addrs()
        .map_err(|e| format!("cannot use listen address '{addr}': {e}"))?
        .next()
        .ok_or_else(|| format!("listen address '{addr}' resolves to nothing"))
}

/// Serves sessions of game `G` on `addr` until the process is stopped.
pub fn serve<G: Game>(addr: &str, max_sessions: usize, hash_mb: usize) -> Result<(), String> {
    serve_with(addr, max_sessions, hash_mb, |r, w, mb| {
        protocol::run_session_with::<G, _, _>(r, w, mb)
    })
}

/// What one session runs on a connection: its reader, its writer, the hash size.
pub type SessionFn = fn(BufReader<TcpStream>, TcpStream, usize) -> std::io::Result<()>;

/// Serves sessions run by `run` on `addr` until the process is stopped.
pub fn serve_with(
    addr: &str,
    max_sessions: usize,
    hash_mb: usize,
    run: SessionFn,
) -> Result<(), String> {
    if max_sessions == 0 {
        return Err("--max-sessions must be at least 1".into());
    }
    let addr = resolve(addr)?;
    if !addr.ip().is_loopback() {
        log::warn!("listening on {addr}, which is reachable from other machines");
    }
    let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    // Tools (and the tests) read the port from this line.
    eprintln!("listening on {local} (at most {max_sessions} sessions)");
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
            log::info!("refusing {peer}: {max_sessions} sessions already");
            refuse(stream, max_sessions);
            continue;
        }
        log::info!("session from {peer}");
        let counter = Arc::clone(&active);
        let spawned = std::thread::Builder::new()
            .name(format!("session {peer}"))
            .spawn(move || {
                // Decrement even if the session panics.
                struct Release(Arc<AtomicUsize>);
                impl Drop for Release {
                    fn drop(&mut self) {
                        self.0.fetch_sub(1, Ordering::SeqCst);
                    }
                }
                let _release = Release(counter);
                if let Err(e) = session(stream, hash_mb, run) {
                    log::info!("session {peer} ended: {e}");
                } else {
                    log::info!("session {peer} closed");
                }
            });
        if let Err(e) = spawned {
            log::error!("cannot start a session thread: {e}");
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(())
}

fn session(stream: TcpStream, hash_mb: usize, run: SessionFn) -> std::io::Result<()> {
    let _ = stream.set_nodelay(true);
    // A client that stops reading must not block its session forever: a stuck write fails,
    // and the session ends.
    let _ = stream.set_write_timeout(Some(std::time::Duration::from_secs(60)));
    let reader = BufReader::new(stream.try_clone()?);
    let result = run(reader, stream.try_clone()?, hash_mb);
    let _ = stream.shutdown(std::net::Shutdown::Both);
    result
}

fn refuse(mut stream: TcpStream, max: usize) {
    let _ = stream.set_write_timeout(Some(std::time::Duration::from_secs(2)));
    let _ = writeln!(
        stream,
        "error: server busy ({max} sessions at most); try again later"
    );
    let _ = stream.shutdown(std::net::Shutdown::Both);
}
