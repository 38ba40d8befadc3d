//! The engine server: `--listen` serves UCI/XBoard sessions over TCP, each connection its own
//! engine; sessions beyond `--max-sessions` are refused; a client that sends garbage or
//! vanishes mid-search harms no one.

mod common;
mod protocol_io;

use std::time::Duration;

use protocol_io::{Client, Server};

/// Starts the server on a free loopback port with `--max-sessions MAX_SESSIONS`.
fn server(max_sessions: usize) -> Server {
    Server::start(
        &common::binary("kiebitz-pawns"),
        &["--max-sessions", &max_sessions.to_string()],
    )
}

fn uci(addr: &str) -> Client {
    let mut c = Client::connect(addr);
    c.send("uci");
    c.expect_prefix("uciok");
    c
}

#[test]
fn two_clients_at_once_and_a_third_refused() {
    let s = server(2);
    let mut a = uci(&s.addr);
    let mut b = uci(&s.addr);
    // Different games in the two sessions at the same time.
    a.send("setoption name UCI_Variant value pawns4d");
    a.send("position startpos");
    b.send("position startpos moves a1a2");
    a.send("go infinite");
    b.send("go perft 1");
    assert_eq!(b.expect_prefix("Nodes searched"), "Nodes searched: 6");
    a.send("isready");
    a.expect_prefix("readyok");
    // A third client is told why and closed.
    let mut c = Client::connect(&s.addr);
    let line = c.next_line(protocol_io::TIMEOUT).expect("a refusal");
    assert!(
        line.starts_with("error: server busy (2 sessions at most)"),
        "{line}"
    );
    assert!(c.closed_within(protocol_io::TIMEOUT));
    a.send("stop");
    let best = a.expect_prefix("bestmove ");
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(
        [
            "a1a2", "b1b2", "c1c2", "d1d2", "a1a3", "b1b3", "c1c3", "d1d3"
        ]
        .contains(&mv),
        "{best}"
    );
    b.send("go depth 2");
    b.expect_prefix("bestmove ");
}

#[test]
fn misbehaving_clients_harm_no_one() {
    let s = server(2);
    let mut good = uci(&s.addr);
    {
        // Garbage, then a search abandoned by disconnecting.
        let mut bad = Client::connect(&s.addr);
        bad.send("\u{1}\u{2} garbage");
        let line = bad.next_line(protocol_io::TIMEOUT).expect("an error line");
        assert!(line.starts_with("error: unknown command"), "{line}");
        bad.send("uci");
        bad.expect_prefix("uciok");
        bad.send("go infinite");
    }
    assert_eq!(good.ask("isready"), "readyok");
    good.send("position startpos");
    good.send("go depth 2");
    good.expect_prefix("bestmove ");
    // The abandoned session's slot is freed: new clients get sessions, UCI or XBoard.
    let mut u = connect_when_free(&s.addr, "isready", "readyok");
    drop(good);
    let mut x = connect_when_free(&s.addr, "xboard\nprotover 2", "feature done=0");
    x.send("ping 9");
    x.expect_prefix("pong 9");
    u.send("quit");
}

/// Connects, retrying while the server is still full, until `hello` is answered by `answer`.
fn connect_when_free(addr: &str, hello: &str, answer: &str) -> Client {
    for _ in 0..100 {
        let mut c = Client::connect(addr);
        c.send(hello);
        match c.next_line(protocol_io::TIMEOUT) {
            Some(l) if l == answer => return c,
            Some(l) if l.starts_with("error: server busy") => {
                std::thread::sleep(Duration::from_millis(100))
            }
            other => panic!("unexpected answer {other:?}"),
        }
    }
    panic!("the server stayed full");
}
