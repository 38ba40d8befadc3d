//! Connection limits of the web server against slow and hostile clients:
//!
//! - at most [`Config::max_connections`] TCP connections open at once (a further connection
//!   waits in the listen backlog until one closes), and at most
//!   [`Config::max_connections_per_peer`] from one IP address (a further one from it is
//!   answered 503 and closed at once), so one slow peer cannot take the permits others need;
//! - a request head must arrive within [`Config::header_timeout`] of its first wait (also
//!   the time a kept-alive connection may sit idle between requests): a slowloris trickle of
//!   header bytes is closed ([`serve`], hyper's header read timeout);
//! - a request body must arrive within [`Config::body_timeout`] ([`read_body`]: 408 and the
//!   connection closed), and it is read *before* the request takes one of the
//!   [`Config::max_inflight`] permits, so stalled bodies cannot hold them;
//! - a connection on which no byte has moved either way for [`Config::conn_idle`] is closed.
//!
//! [`Limited`] wraps the listener; each accepted [`Conn`] holds a permit of the connection
//! semaphore and its peer's slot until hyper drops it. Depends on axum, hyper, hyper-util
//! and tokio.
//!
//! [`Config::max_connections`]: super::Config::max_connections
//! [`Config::max_connections_per_peer`]: super::Config::max_connections_per_peer
//! [`Config::header_timeout`]: super::Config::header_timeout
//! [`Config::body_timeout`]: super::Config::body_timeout
//! [`Config::max_inflight`]: super::Config::max_inflight
//! [`Config::conn_idle`]: super::Config::conn_idle

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::watch;

use axum::serve::Listener;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// A listener that accepts only while a connection permit is free, and closes at once a
/// connection from a peer that holds its share already.
pub struct Limited {
    inner: TcpListener,
    permits: Arc<Semaphore>,
    peers: Arc<Peers>,
    idle: Duration,
}

impl Limited {
    pub fn new(
        inner: TcpListener,
        permits: Arc<Semaphore>,
        per_peer: usize,
        idle: Duration,
    ) -> Limited {
        Limited {
            inner,
            permits,
            peers: Arc::new(Peers {
                open: Mutex::new(HashMap::new()),
                cap: per_peer,
            }),
            idle,
        }
    }
}

/// The connections open per peer address, and how many one peer may hold.
struct Peers {
    open: Mutex<HashMap<IpAddr, usize>>,
    cap: usize,
}

impl Peers {
    /// One more connection of `ip`, or `None` when it holds its cap.
    fn enter(self: &Arc<Peers>, ip: IpAddr) -> Option<PeerSlot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= self.cap {
            return None;
        }
        *n += 1;
        Some(PeerSlot {
            peers: Arc::clone(self),
            ip,
        })
    }
}

/// A connection's place in its peer's count, given back when the connection drops.
struct PeerSlot {
    peers: Arc<Peers>,
    ip: IpAddr,
}

impl Drop for PeerSlot {
    fn drop(&mut self) {
        let mut open = self.peers.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// What a connection over its peer's cap is told before it is closed.
fn peer_full() -> Vec<u8> {
    let body = r#"{"error":"too many connections from this address; close one first"}"#;
    format!(
        "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl Listener for Limited {
    type Io = Conn;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Conn, SocketAddr) {
        // The semaphore is never closed, so the permit always comes.
        let permit = loop {
            if let Ok(p) = Arc::clone(&self.permits).acquire_owned().await {
                break p;
            }
        };
        loop {
            let (io, addr) = Listener::accept(&mut self.inner).await;
            let Some(slot) = self.peers.enter(addr.ip()) else {
                // Best effort: the answer fits the socket's send buffer, or is lost.
                let _ = io.try_write(&peer_full());
                continue;
            };
            let _ = io.set_nodelay(true);
            return (Conn::new(io, permit, slot, self.idle), addr);
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// An accepted connection: the stream, its permit, its peer's slot and the deadline at which
/// it counts as idle (moved on by every byte read or written).
pub struct Conn {
    io: TcpStream,
    _permit: OwnedSemaphorePermit,
    _slot: PeerSlot,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl Conn {
    fn new(io: TcpStream, permit: OwnedSemaphorePermit, slot: PeerSlot, idle: Duration) -> Conn {
        Conn {
            io,
            _permit: permit,
            _slot: slot,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
        }
    }

    fn touch(&mut self) {
        let at = Instant::now() + self.idle;
        self.deadline.as_mut().reset(at);
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.io).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    self.touch();
                }
                Poll::Ready(r)
            }
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "connection idle too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Serves `routes` on `listener` over HTTP/1 until `shutdown` resolves: a request head must
/// arrive within `header_timeout` (hyper's timer), then every open connection is asked to
/// finish its request and close; returns when all have.
pub async fn serve(
    mut listener: Limited,
    routes: Router,
    header_timeout: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let (signal_tx, signal_rx) = watch::channel(());
    tokio::spawn(async move {
        shutdown.await;
        drop(signal_rx);
    });
    let (close_tx, close_rx) = watch::channel(());
    loop {
        let io = tokio::select! {
            (io, _addr) = listener.accept() => io,
            _ = signal_tx.closed() => break,
        };
        let service = TowerToHyperService::new(routes.clone());
        let (signal_tx, close_rx) = (signal_tx.clone(), close_rx.clone());
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder.serve_connection(TokioIo::new(io), service);
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = signal_tx.closed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(close_rx);
        });
    }
    drop(close_rx);
    drop(listener);
    close_tx.closed().await;
}

/// The body limits of [`read_body`]: the largest body any route takes, and the time it has.
#[derive(Clone, Copy, Debug)]
pub struct BodyLimits {
    pub max: usize,
    pub timeout: Duration,
}

/// Reads a request's whole body within `limits.timeout` before the request goes on (so before
/// it takes an in-flight permit): a body that stalls gets 408, one over `limits.max` 413,
/// and the connection is closed. The routes' own size limits apply after.
pub async fn read_body(State(limits): State<BodyLimits>, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    let read = tokio::time::timeout(limits.timeout, collect(body, limits.max)).await;
    match read {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(refusal)) => refusal,
        Err(_) => closing(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s",
                limits.timeout.as_secs_f64()
            ),
        ),
    }
}

/// The body's bytes, at most `max` of them.
async fn collect(body: Body, max: usize) -> Result<Bytes, Response> {
    let mut stream = body.into_data_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            closing(
                StatusCode::BAD_REQUEST,
                format!("the request body broke off: {e}"),
            )
        })?;
        if bytes.len() + chunk.len() > max {
            return Err(closing(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("a request body may have at most {max} bytes"),
            ));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(bytes))
}

/// An error answer `{"error": msg}` after which the connection closes (its body was not read).
fn closing(status: StatusCode, msg: String) -> Response {
    let mut r = (status, axum::Json(serde_json::json!({ "error": msg }))).into_response();
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}
