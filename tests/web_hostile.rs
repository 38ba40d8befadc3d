//! kiebitz-web against a page of another site and hostile requests (hardening round 4):
//! a Host that is not this server's (DNS rebinding) and an Origin of another site are refused,
//! JSON only as `application/json`, an empty seat list is a 400; what a person's browser on
//! the server's own page sends still works. Slow clients: trickled heads and stalled bodies
//! are closed after their timeouts, one address holds at most its share of the connections,
//! and a well-behaved request is answered meanwhile (the load test is
//! `scripts/load-web.py`, docs/hardening.md).

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use kiebitz::web::{Background, Config};

/// One raw request with the given extra header lines; the status code.
fn raw(addr: SocketAddr, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\n{headers}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let code = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, out)
}

const NEW: &str = r#"{"game":"chess"}"#;

#[test]
fn foreign_hosts_and_other_sites_are_refused() {
    let server = Background::start(
        "127.0.0.1:0",
        Config {
            allowed_hosts: vec!["kiebitz.lan".into()],
            ..Config::default()
        },
    )
    .unwrap();
    let a = server.addr;
    let json = "Content-Type: application/json\r\n";
    let own = format!("Host: {a}\r\n{json}");
    // The page's own requests: Host and Origin of this server, or localhost names.
    assert_eq!(
        raw(
            a,
            "POST",
            "/api/new",
            &format!("{own}Origin: http://{a}\r\n"),
            NEW
        )
        .0,
        201
    );
    assert_eq!(
        raw(
            a,
            "POST",
            "/api/new",
            &format!("Host: localhost:{}\r\n{json}", a.port()),
            NEW
        )
        .0,
        201
    );
    assert_eq!(
        raw(a, "GET", "/api/games", "Host: [::1]:8080\r\n", "").0,
        200
    );
    assert_eq!(
        raw(a, "GET", "/api/games", "Host: kiebitz.lan:8080\r\n", "").0,
        200,
        "--allow-host"
    );
    // DNS rebinding: a name that is not this server's.
    let (code, text) = raw(
        a,
        "GET",
        "/api/games",
        "Host: attacker.example:8080\r\n",
        "",
    );
    assert_eq!(code, 403, "{text}");
    assert!(text.contains("--allow-host"), "{text}");
    assert_eq!(raw(a, "GET", "/", "Host: evil.example\r\n", "").0, 403);
    assert_eq!(raw(a, "GET", "/api/games", "", "").0, 400, "no Host at all");
    // A page on another site posting to the local server.
    for origin in [
        "http://evil.example",
        "null",
        "https://kiebitz.lan.evil.example",
    ] {
        let (code, text) = raw(
            a,
            "POST",
            "/api/new",
            &format!("{own}Origin: {origin}\r\n"),
            NEW,
        );
        assert_eq!(code, 403, "{origin}: {text}");
    }
    // JSON only as JSON: a cross-site form can send text/plain without a preflight.
    for kind in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let (code, text) = raw(
            a,
            "POST",
            "/api/new",
            &format!("Host: {a}\r\nContent-Type: {kind}\r\n"),
            NEW,
        );
        assert_eq!(code, 415, "{kind}: {text}");
    }
    assert_eq!(
        raw(a, "POST", "/api/new", &format!("Host: {a}\r\n"), NEW).0,
        415,
        "no Content-Type"
    );
    assert_eq!(
        raw(
            a,
            "POST",
            "/api/new",
            &format!("Host: {a}\r\nContent-Type: application/json; charset=utf-8\r\n"),
            NEW
        )
        .0,
        201
    );
    // Nothing refused made a game: the two made above and the one with a charset.
    let (_, games) = raw(a, "GET", "/api/status", &own, "");
    assert!(games.contains("\"games\":3"), "{games}");
}

#[test]
fn an_empty_seat_list_is_refused() {
    let server = Background::start("127.0.0.1:0", Config::default()).unwrap();
    let (code, body) = common::http::post(
        server.addr,
        "/api/new",
        &serde_json::json!({"game": "chess", "seats": []}),
    );
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("seats"), "{body}");
}

/// A connection to `to` from the local address `from` (any of 127.0.0.0/8 on Linux), so a
/// test can be two peers.
fn connect_from(from: &str, to: SocketAddr) -> TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    rt.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
        let stream = socket.connect(to).await.unwrap().into_std().unwrap();
        stream.set_nonblocking(false).unwrap();
        stream
    })
}

/// A `GET /api/status` from `from`: its status code (0: no answer within `wait`) and how
/// long the answer took.
fn status_from(from: &str, to: SocketAddr, wait: Duration) -> (u16, Duration) {
    let t = Instant::now();
    let mut s = connect_from(from, to);
    s.set_read_timeout(Some(wait)).unwrap();
    let head = format!("GET /api/status HTTP/1.1\r\nHost: {to}\r\nConnection: close\r\n\r\n");
    let _ = s.write_all(head.as_bytes());
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out);
    let code = text.split_whitespace().nth(1).and_then(|c| c.parse().ok());
    (code.unwrap_or(0), t.elapsed())
}

/// What the server does with `s` within `wait`: `Some(answer)` when it answered (possibly
/// nothing) and closed, `None` when the connection is still open.
fn closed_within(s: &mut TcpStream, wait: Duration) -> Option<String> {
    s.set_read_timeout(Some(wait)).unwrap();
    let mut out = Vec::new();
    match s.read_to_end(&mut out) {
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            None
        }
        _ => Some(String::from_utf8_lossy(&out).into_owned()),
    }
}

/// Sends one more byte of a never-ending head on each connection every 100 ms until `stop`.
fn trickle(conns: Vec<TcpStream>, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) {
    std::thread::spawn(move || {
        let mut conns = conns;
        for s in &mut conns {
            let _ = s.write_all(b"GET /api/status HTTP/1.1\r\n");
        }
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            for s in &mut conns {
                let _ = s.write_all(b"x");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
}

/// Slowloris: connections that trickle a header byte every 100 ms filled every connection
/// permit for ever (the idle timer moved on with each byte). Now a head has
/// `header_timeout` to arrive: the tricklers are closed and a fresh request is answered.
#[test]
fn trickled_heads_are_closed_and_a_fresh_request_is_answered() {
    let config = Config {
        max_connections: 16,
        max_connections_per_peer: 1000,
        header_timeout: Duration::from_secs(1),
        ..Config::default()
    };
    let server = Background::start("127.0.0.1:0", config).unwrap();
    let a = server.addr;
    let conns: Vec<TcpStream> = (0..20).map(|_| connect_from("127.0.0.1", a)).collect();
    let mut watched = conns[0].try_clone().unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    trickle(conns, std::sync::Arc::clone(&stop));
    std::thread::sleep(Duration::from_millis(300));
    let (code, took) = status_from("127.0.0.1", a, Duration::from_secs(8));
    let closed = closed_within(&mut watched, Duration::from_secs(3));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(
        code, 200,
        "a fresh request behind 20 tricklers: no answer in {took:?}"
    );
    assert!(
        took < Duration::from_secs(4),
        "answered only after {took:?}"
    );
    assert!(closed.is_some(), "a trickling connection is still open");
}

/// 64 POST heads with one body byte each held every in-flight permit (the body was read
/// inside the limit): every other request got 503. Now a body is read before the request
/// takes a permit, and one that stalls gets 408 after `body_timeout` and is closed.
#[test]
fn stalled_bodies_are_closed_and_hold_no_inflight_permit() {
    let config = Config {
        max_inflight: 8,
        max_connections_per_peer: 1000,
        body_timeout: Duration::from_secs(1),
        ..Config::default()
    };
    let server = Background::start("127.0.0.1:0", config).unwrap();
    let a = server.addr;
    let head = format!(
        "POST /api/new HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\n\
         Content-Length: 16\r\n\r\n{{"
    );
    let mut stalled: Vec<TcpStream> = (0..12)
        .map(|_| {
            let mut s = connect_from("127.0.0.1", a);
            s.write_all(head.as_bytes()).unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let (code, text) = common::http::post(a, "/api/new", &serde_json::json!({"game": "chess"}));
    assert_eq!(code, 201, "beside 12 stalled bodies: {text}");
    let answer = closed_within(&mut stalled[0], Duration::from_secs(4));
    let answer = answer.expect("a stalled body's connection is still open");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(4));
}

/// One address held every connection permit (a slow peer starved the others). Now it holds
/// at most `max_connections_per_peer`: a further connection from it is answered 503 and
/// closed, another address is served at once, and a closed connection gives its slot back.
#[test]
fn one_address_holds_at_most_its_share_of_connections() {
    let config = Config {
        max_connections: 16,
        max_connections_per_peer: 4,
        header_timeout: Duration::from_secs(60),
        ..Config::default()
    };
    let server = Background::start("127.0.0.1:0", config).unwrap();
    let a = server.addr;
    let mut held: Vec<TcpStream> = (0..20).map(|_| connect_from("127.0.0.1", a)).collect();
    let refused = closed_within(&mut held[19], Duration::from_secs(3));
    let refused = refused.expect("the 20th connection from one address is still open");
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert!(
        refused.contains("too many connections from this address"),
        "{refused}"
    );
    let (code, took) = status_from("127.0.0.2", a, Duration::from_secs(3));
    assert_eq!(
        code, 200,
        "another address beside 20 held connections: {took:?}"
    );
    assert!(closed_within(&mut held[0], Duration::from_millis(200)).is_none());
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    let (code, _) = status_from("127.0.0.1", a, Duration::from_secs(3));
    assert_eq!(
        code, 200,
        "the address's slots came back when its connections closed"
    );
}
