//! HTTP/1.1 against the web server under test: one request a connection, chunked bodies
//! joined, JSON answers parsed.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use serde_json::{Value, json};

/// One HTTP/1.1 request with `Connection: close`; returns the status and the body.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.unwrap_or(b"");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    // The server may answer (413) before it has read a large body and close: write errors
    // are expected then.
    let _ = s.write_all(head.as_bytes()).and_then(|_| s.write_all(body));
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

pub fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

pub fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (code, body) = request(addr, "GET", path, None);
    (code, serde_json::from_str(&body).unwrap_or(Value::Null))
}

pub fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let text = body.to_string();
    let (code, body) = request(addr, "POST", path, Some(text.as_bytes()));
    (
        code,
        serde_json::from_str(&body).unwrap_or_else(|_| json!({ "raw": body })),
    )
}
