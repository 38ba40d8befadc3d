//! kiebitz-web against a page of another site and hostile requests (hardening round 4):
//! a Host that is not this server's (DNS rebinding) and an Origin of another site are refused,
//! JSON only as `application/json`, an empty seat list is a 400; what a person's browser on
//! the server's own page sends still works.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

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
