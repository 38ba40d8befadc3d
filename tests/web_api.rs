//! The JSON API of `kiebitz-web` (docs/web.md), against a server started in-process on an
//! ephemeral loopback port: every game played to its end with random legal moves against the
//! engine; illegal, malformed and oversize requests refused with the state unchanged; the
//! limits (games, idle expiry, engine threads, requests in flight) holding under a bounded
//! flood on loopback; the live search streamed as server-sent events.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use kiebitz::web::{Background, Config};
use serde_json::{Value, json};

use common::http::{get, post, request};

fn server(config: Config) -> Background {
    Background::start("127.0.0.1:0", config).expect("server starts")
}

/// A random index below `n` from a linear congruential generator's high bits.
/// Starts a game on the server at `a` with `body` (`{"game": …}`): its state and its id.
fn new_game(a: SocketAddr, body: &Value) -> (Value, String) {
    let (code, st) = post(a, "/api/new", body);
    assert_eq!(code, 201, "{st}");
    let id = st["id"].as_str().unwrap().to_string();
    (st, id)
}

fn pick(state: &mut u64, n: usize) -> usize {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    ((*state >> 33) % n as u64) as usize
}

#[test]
fn the_five_games_are_listed() {
    let srv = server(Config::default());
    let (code, games) = get(srv.addr, "/api/games");
    assert_eq!(code, 200);
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    for id in ["chess", "raeuber", "pawns", "crash", "chamaeleon"] {
        assert!(ids.contains(&id), "{id} missing: {games}");
    }
    let cham = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == "chamaeleon")
        .unwrap();
    assert_eq!(cham["seats"], json!([2, 3, 4]));
    assert_eq!(
        cham["searches"],
        json!(["maxn", "maxn-is", "paranoid", "hypermax", "brs"])
    );
    let pawns = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == "pawns")
        .unwrap();
    assert!(
        pawns["variants"]
            .as_array()
            .unwrap()
            .contains(&json!("pawns4ep"))
    );
    // The page and its script are served from the binary.
    let (code, page) = request(srv.addr, "GET", "/", None);
    assert_eq!(code, 200);
    assert!(page.contains("/static/app.js"));
    let (code, js) = request(srv.addr, "GET", "/static/app.js", None);
    assert_eq!(code, 200);
    assert!(js.contains("function drawGrid"));
    // The piece set (docs/web.md, "Pieces"): a data: URL of an SVG per FEN letter.
    assert!(page.contains("/static/pieces.js"));
    let (code, pieces) = request(srv.addr, "GET", "/static/pieces.js", None);
    assert_eq!(code, 200);
    assert!(pieces.contains("var PIECE_SVG = {"), "{pieces:.200}");
    assert_eq!(pieces.matches("data:image/svg+xml").count(), 12);
    let (code, _) = request(srv.addr, "GET", "/play/abc", None);
    assert_eq!(code, 200);
}

/// Plays a game to its end: seat 0 random legal moves, the others the engine at `ms`.
fn play_out(addr: SocketAddr, new: Value, seed: u64) -> Value {
    let (code, mut st) = post(addr, "/api/new", &new);
    assert_eq!(code, 201, "{new} -> {st}");
    let id = st["id"].as_str().unwrap().to_string();
    let mut rng = seed;
    for _ in 0..1200 {
        if !st["result"].is_null() {
            break;
        }
        let seat = st["to_move"].as_u64().unwrap() as usize;
        if st["seats"][seat]["kind"] == "human" {
            let legal = st["legal"].as_array().unwrap();
            assert!(!legal.is_empty(), "a running game has moves: {st}");
            let mv = legal[pick(&mut rng, legal.len())]["move"].clone();
            let (code, next) = post(
                addr,
                &format!("/api/game/{id}/move"),
                &json!({ "move": mv }),
            );
            assert_eq!(code, 200, "{mv} refused: {next}");
            st = next;
        } else {
            let (code, r) = post(addr, &format!("/api/game/{id}/engine"), &json!({}));
            assert_eq!(code, 200, "engine: {r}");
            let mv = r["move"].as_str().unwrap();
            let last = r["state"]["history"].as_array().unwrap().last().unwrap();
            assert_eq!(last["move"], mv);
            assert!(r["info"]["depth"].as_u64().is_some(), "search info: {r}");
            st = r["state"].clone();
        }
    }
    let result = &st["result"];
    assert!(result.is_object(), "the game did not end: {st}");
    assert!(!result["reason"].as_str().unwrap().is_empty());
    assert!(st["legal"].as_array().unwrap().is_empty());
    // Over means over: no more moves, no engine move.
    let (code, _) = post(addr, &format!("/api/game/{id}/engine"), &json!({}));
    assert_eq!(code, 400);
    let (code, pgn) = request(addr, "GET", &format!("/api/game/{id}/pgn"), None);
    assert_eq!(code, 200);
    let score = result["score"].as_str().unwrap();
    assert!(pgn.contains(score), "{pgn}");
    st
}

#[test]
fn every_game_to_the_end_against_the_engine() {
    let srv = server(Config::default());
    let engine = |search: Option<&str>| match search {
        Some(s) => json!({ "kind": "engine", "movetime_ms": 5, "search": s }),
        None => json!({ "kind": "engine", "movetime_ms": 5 }),
    };
    let human = json!({ "kind": "human" });
    let games = [
        json!({ "game": "chess", "seats": [human, engine(None)] }),
        json!({ "game": "raeuber", "seats": [human, engine(None)] }),
        json!({ "game": "pawns", "seats": [human, engine(None)] }),
        json!({ "game": "pawns", "variant": "pawns4ep", "seats": [human, engine(Some("alphabeta"))] }),
        json!({ "game": "crash", "seats": [human, engine(None)] }),
        json!({ "game": "crash", "fen": "W2.W1....B1.B2 w", "seats": [engine(None), human] }),
        json!({ "game": "crash", "seats": [human, engine(Some("optimal"))] }),
        json!({ "game": "chamaeleon", "variant": "chamaeleon2",
                "seats": [human, engine(Some("maxn"))] }),
        json!({ "game": "chamaeleon", "variant": "chamaeleon3",
                "seats": [human, engine(Some("paranoid")), engine(Some("brs"))] }),
        json!({ "game": "chamaeleon", "variant": "chamaeleon4",
                "seats": [human, engine(Some("maxn-is")), engine(Some("hypermax")), engine(None)] }),
    ];
    for (i, new) in games.iter().enumerate() {
        let st = play_out(srv.addr, new.clone(), 0x9e37_79b9 + i as u64);
        eprintln!(
            "{} {}: {} plies, {} ({})",
            st["game"], st["variant"], st["plies"], st["result"]["score"], st["result"]["reason"]
        );
    }
}

/// What must not change when a request is refused.
fn snapshot(addr: SocketAddr, id: &str) -> Value {
    let (code, st) = get(addr, &format!("/api/game/{id}"));
    assert_eq!(code, 200);
    json!([st["fen"], st["history"], st["result"], st["plies"]])
}

#[test]
fn refused_requests_leave_the_game_unchanged() {
    let srv = server(Config::default());
    let a = srv.addr;
    let (code, st) = post(
        a,
        "/api/new",
        &json!({ "game": "chess", "seats": [{ "kind": "human" }, { "kind": "human" }] }),
    );
    assert_eq!(code, 201);
    let id = st["id"].as_str().unwrap().to_string();
    let mv = format!("/api/game/{id}/move");
    let (code, _) = post(a, &mv, &json!({ "move": "e2e4" }));
    assert_eq!(code, 200);
    let before = snapshot(a, &id);
    let raw = |body: &[u8]| request(a, "POST", &mv, Some(body));
    let cases: Vec<(&str, (u16, String))> = vec![
        ("illegal", raw(br#"{"move":"e7e4"}"#)),
        ("illegal SAN", raw(br#"{"move":"Ke2"}"#)),
        ("nonsense", raw(br#"{"move":"hello"}"#)),
        ("wrong type", raw(br#"{"move":5}"#)),
        ("unknown field", raw(br#"{"move":"e7e5","x":1}"#)),
        ("not JSON", raw(b"{\"move\": \"e7e5\"")),
        ("empty", raw(b"")),
        ("binary", raw(&[0xff, 0xfe, 0x00, 0x7b])),
        (
            "too long",
            raw(format!("{{\"move\":\"{}\"}}", "e".repeat(1000)).as_bytes()),
        ),
    ];
    for (what, (code, body)) in cases {
        assert_eq!(code, 400, "{what}: {body}");
        let err: Value = serde_json::from_str(&body).unwrap();
        assert!(
            err["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{what}: {body}"
        );
        assert_eq!(snapshot(a, &id), before, "{what} changed the game");
    }
    // Oversize: 413, state unchanged.
    let huge = format!("{{\"move\":\"{}\"}}", "x".repeat(200_000));
    let (code, _) = raw(huge.as_bytes());
    assert_eq!(code, 413);
    assert_eq!(snapshot(a, &id), before);
    let (code, _) = request(a, "POST", "/api/new", Some(huge.as_bytes()));
    assert_eq!(code, 413);
    // Bad undo and bad engine requests.
    for (path, body) in [
        ("undo", json!({ "plies": 5 })),
        ("undo", json!({ "plies": 0 })),
        ("undo", json!({ "plies": "one" })),
        ("engine", json!({ "movetime_ms": 0 })),
        ("engine", json!({ "movetime_ms": 100_000_000u64 })),
        ("engine", json!({ "search": "maxn" })),
        ("engine", json!({ "depth": 3 })),
    ] {
        let (code, r) = post(a, &format!("/api/game/{id}/{path}"), &body);
        assert_eq!(code, 400, "{path} {body}: {r}");
        assert_eq!(snapshot(a, &id), before, "{path} {body} changed the game");
    }
    // Bad new games create nothing.
    let (_, status0) = get(a, "/api/status");
    for body in [
        json!({ "game": "go" }),
        json!({ "game": "chess", "variant": "chess9" }),
        json!({ "game": "chess", "fen": "not a fen" }),
        json!({ "game": "chess", "fen": "x".repeat(400) }),
        json!({ "game": "chess", "seats": [{ "kind": "human" }] }),
        json!({ "game": "chess", "seats": [{ "kind": "robot" }, { "kind": "human" }] }),
        json!({ "game": "chess", "seats": [{ "kind": "engine", "movetime_ms": 0 }, { "kind": "human" }] }),
        json!({ "game": "chess", "seats": [{ "kind": "engine", "movetime_ms": 99_999_999 }, { "kind": "human" }] }),
        json!({ "game": "chess", "seats": [{ "kind": "engine", "search": "brs" }, { "kind": "human" }] }),
        json!({ "game": "chamaeleon", "variant": "chamaeleon3", "seats": [{ "kind": "human" }, { "kind": "human" }] }),
        json!({ "game": "chamaeleon", "seats": [{ "kind": "engine", "search": "minimax" }, { "kind": "human" }] }),
        json!({ "game": "chamaeleon", "variant": "chamaeleon5" }),
        json!({ "game": "crash", "fen": "W1W2147483647.B1 w" }),
        json!({ "variant": "chess" }),
    ] {
        let (code, r) = post(a, "/api/new", &body);
        assert_eq!(code, 400, "{body}: {r}");
        assert!(r["error"].as_str().is_some(), "{r}");
    }
    let (_, status1) = get(a, "/api/status");
    assert_eq!(status0["games"], status1["games"]);
    // Unknown games and paths: 404.
    assert_eq!(get(a, "/api/game/nosuchgame").0, 404);
    assert_eq!(
        post(a, "/api/game/nosuchgame/move", &json!({ "move": "e2e4" })).0,
        404
    );
    assert_eq!(get(a, "/api/nothing").0, 404);
    // A finished game refuses moves.
    let (_, st) = post(
        a,
        "/api/new",
        &json!({ "game": "pawns", "variant": "pawns3", "fen": "1P1/p2/3 b - - 0 1",
                 "seats": [{ "kind": "human" }, { "kind": "human" }] }),
    );
    assert_eq!(st["result"]["score"], "1-0", "{st}");
    let over = st["id"].as_str().unwrap();
    assert_eq!(
        post(
            a,
            &format!("/api/game/{over}/move"),
            &json!({ "move": "a1a2" })
        )
        .0,
        400
    );
}

#[test]
fn undo_takes_back_and_the_page_state_follows() {
    let srv = server(Config::default());
    let a = srv.addr;
    let (st, id) = new_game(
        a,
        &json!({ "game": "raeuber", "seats": [{ "kind": "human" }, { "kind": "engine", "movetime_ms": 10 }] }),
    );
    let start = st["fen"].clone();
    let first = st["legal"][0]["move"].clone();
    assert_eq!(
        post(
            a,
            &format!("/api/game/{id}/move"),
            &json!({ "move": first })
        )
        .0,
        200
    );
    let (code, r) = post(a, &format!("/api/game/{id}/engine"), &Value::Null);
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["state"]["plies"], 2);
    let (code, st) = post(a, &format!("/api/game/{id}/undo"), &json!({ "plies": 2 }));
    assert_eq!(code, 200);
    assert_eq!(st["fen"], start);
    assert_eq!(st["history"], json!([]));
}

#[test]
fn limits_hold_under_a_bounded_flood() {
    let config = Config {
        max_games: 20,
        engine_threads: 1,
        engine_wait: Duration::from_millis(300),
        max_inflight: 8,
        ..Config::default()
    };
    let srv = server(config);
    let a = srv.addr;
    let began = Instant::now();
    // 16 clients × 40 requests: new games, reads, moves, engine moves.
    let handles: Vec<_> = (0..16)
        .map(|t| {
            std::thread::spawn(move || {
                let mut codes = Vec::new();
                let mut ids = Vec::new();
                for i in 0..40 {
                    let code = match i % 4 {
                        0 => {
                            let (code, st) = post(a, "/api/new", &json!({ "game": "pawns", "variant": "pawns5",
                                "seats": [{ "kind": "human" }, { "kind": "engine", "movetime_ms": 50 }] }));
                            if let Some(id) = st["id"].as_str() {
                                ids.push(id.to_string());
                            }
                            code
                        }
                        1 => get(a, "/api/games").0,
                        2 => match ids.last() {
                            Some(id) => get(a, &format!("/api/game/{id}")).0,
                            None => get(a, "/api/status").0,
                        },
                        _ => match ids.last() {
                            Some(id) => post(a, &format!("/api/game/{id}/engine"), &json!({})).0,
                            None => get(a, "/api/status").0,
                        },
                    };
                    codes.push((t, i, code));
                }
                codes
            })
        })
        .collect();
    let mut counts = std::collections::BTreeMap::new();
    for h in handles {
        for (_, _, code) in h.join().unwrap() {
            *counts.entry(code).or_insert(0) += 1;
        }
    }
    eprintln!(
        "flood: {counts:?} in {:.1} s",
        began.elapsed().as_secs_f64()
    );
    for code in counts.keys() {
        // Served, refused for load (503), or the game was replaced meanwhile (404),
        // or the engine was busy in that game (409); never anything else.
        assert!([200, 201, 404, 409, 503].contains(code), "{counts:?}");
    }
    assert!(
        counts.get(&503).copied().unwrap_or(0) > 0,
        "the limits never bit: {counts:?}"
    );
    let (code, status) = get(a, "/api/status");
    assert_eq!(code, 200);
    assert!(status["games"].as_u64().unwrap() <= 20, "{status}");
    assert_eq!(
        status["engines_free"], 1,
        "an engine thread was not given back"
    );
    // Still serving.
    let (code, _) = post(a, "/api/new", &json!({ "game": "crash" }));
    assert!(code == 201 || code == 503);
    assert_eq!(get(a, "/api/games").0, 200);
}

#[test]
fn idle_games_expire_and_full_servers_refuse() {
    let srv = server(Config {
        idle: Duration::from_millis(300),
        ..Config::default()
    });
    let (_, id) = new_game(srv.addr, &json!({ "game": "chess" }));
    assert_eq!(get(srv.addr, &format!("/api/game/{id}")).0, 200);
    std::thread::sleep(Duration::from_millis(1200));
    assert_eq!(get(srv.addr, &format!("/api/game/{id}")).0, 404);
    assert_eq!(get(srv.addr, "/api/status").1["games"], 0);

    // At the cap: refused while the games are in use, the idle one replaced after a while.
    let srv = server(Config {
        max_games: 2,
        evict_after: Duration::from_millis(400),
        ..Config::default()
    });
    let new = || post(srv.addr, "/api/new", &json!({ "game": "crash" }));
    let first = new().1["id"].as_str().unwrap().to_string();
    std::thread::sleep(Duration::from_millis(600));
    let second = new().1["id"].as_str().unwrap().to_string();
    let (code, r) = new();
    assert_eq!(code, 201, "{r}");
    assert_eq!(get(srv.addr, &format!("/api/game/{first}")).0, 404);
    assert_eq!(get(srv.addr, &format!("/api/game/{second}")).0, 200);
    let (code, r) = new();
    assert_eq!(code, 503, "{r}");
    assert!(r["error"].as_str().unwrap().contains("limit of 2 games"));
}

#[test]
fn the_live_search_is_streamed() {
    let srv = server(Config::default());
    let a = srv.addr;
    let (_, id) = new_game(a, &json!({ "game": "chess" }));
    let mut s = TcpStream::connect(a).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET /api/game/{id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let path = format!("/api/game/{id}/engine");
    let engine = std::thread::spawn(move || post(a, &path, &json!({ "movetime_ms": 300 })));
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline && !seen.contains("\"type\":\"move\"") {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
        }
    }
    let (code, r) = engine.join().unwrap();
    assert_eq!(code, 200, "{r}");
    assert!(seen.contains("text/event-stream"), "{seen}");
    assert!(
        seen.contains("\"type\":\"info\"") && seen.contains("\"depth\""),
        "{seen}"
    );
    assert!(seen.contains("\"nps\""), "{seen}");
    assert!(
        seen.contains(&format!("\"move\":\"{}\"", r["move"].as_str().unwrap())),
        "{seen}"
    );
}

/// Starts a server binary with `args` (listening on port 0) and reads its address from the
/// line it prints on stderr (after the lines about the databases it loaded).
fn spawn_server(exe: &str, args: &[&str]) -> (std::process::Child, SocketAddr) {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new(exe)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("http://") {
        line.clear();
        if err.read_line(&mut line).unwrap() == 0 {
            break;
        }
    }
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in '{line}'"));
    (child, addr)
}

#[test]
fn the_binary_serves_and_checks_its_arguments() {
    use std::process::Command;
    let exe = env!("CARGO_BIN_EXE_kiebitz-web");
    let out = Command::new(exe)
        .args(["--max-games", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-games must be from 1"));
    let out = Command::new(exe)
        .args(["--listen", "not an address"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot listen on"));
    let (mut child, addr) = spawn_server(exe, &["--listen", "127.0.0.1:0"]);
    let (code, games) = get(addr, "/api/games");
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(code, 200);
    assert_eq!(
        games.as_array().unwrap().len(),
        6,
        "chess, Räuberschach, antichess, pawns, CRASH!, Chamäleon"
    );
}

#[test]
fn crash_optimal_player_says_what_it_knows() {
    let srv = server(Config::default());
    let a = srv.addr;
    let (_, games) = get(a, "/api/games");
    let crash = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == "crash")
        .unwrap();
    assert_eq!(crash["searches"], json!(["heuristic", "optimal"]));
    let optimal = json!({ "kind": "engine", "movetime_ms": 50, "search": "optimal" });
    // 1 vs 1 with an even gap: the side to move wins (docs: CRASH! theorems).
    let (code, st) = post(
        a,
        "/api/new",
        &json!({ "game": "crash", "fen": "W1..B1 w",
        "seats": [optimal, { "kind": "human" }] }),
    );
    assert_eq!(code, 201, "{st}");
    assert_eq!(st["seats"][0]["search"], "optimal");
    let id = st["id"].as_str().unwrap();
    let (code, r) = post(a, &format!("/api/game/{id}/engine"), &json!({}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["info"]["optimal"], true, "{r}");
    assert_eq!(r["info"]["solved"]["value"], "win", "{r}");
    assert!(r["info"]["score"]["mate"].as_i64().unwrap() > 0, "{r}");
    // Too large a board for a database on demand: the search plays and says so.
    let (_, id) = new_game(
        a,
        &json!({ "game": "crash", "fen": format!("W4{}B4 w", ".".repeat(18)),
        "seats": [{ "kind": "engine", "movetime_ms": 30, "search": "optimal" }, { "kind": "human" }] }),
    );
    let (code, r) = post(a, &format!("/api/game/{id}/engine"), &json!({}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["info"]["optimal"], false, "{r}");
    assert!(
        r["info"]["note"]
            .as_str()
            .unwrap()
            .contains("heuristic search"),
        "{r}"
    );
    // Other games have no optimal player.
    let (code, _) = post(
        a,
        "/api/new",
        &json!({ "game": "pawns",
        "seats": [{ "kind": "engine", "search": "optimal" }, { "kind": "human" }] }),
    );
    assert_eq!(code, 400);
}

#[test]
fn each_engine_binary_serves_its_own_game() {
    use std::process::Command;
    let binaries = [
        (env!("CARGO_BIN_EXE_kiebitz-pawns"), "pawns", "chess"),
        (
            env!("CARGO_BIN_EXE_kiebitz-chamaeleon"),
            "chamaeleon",
            "crash",
        ),
    ];
    for (exe, game, other) in binaries {
        let out = Command::new(exe)
            .args(["web", "--max-games", "0"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{game}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--max-games must be from 1"));
        let (mut child, addr) = spawn_server(exe, &["web", "--listen", "127.0.0.1:0"]);
        let (code, games) = get(addr, "/api/games");
        let (refused, why) = post(addr, "/api/new", &json!({ "game": other }));
        let (_, status) = get(addr, "/api/status");
        let (created, st) = post(addr, "/api/new", &json!({ "game": game }));
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(code, 200);
        let ids: Vec<&str> = games
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["game"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [game]);
        assert_eq!(refused, 400, "{why}");
        let msg = why["error"].as_str().unwrap();
        assert!(msg.contains(&format!("only {game}")), "{msg}");
        assert_eq!(status["games"], 0, "the refused game was not created");
        assert_eq!(created, 201, "{st}");
        assert_eq!(st["game"], game);
    }
}

#[test]
fn engine_seats_play_at_a_strength_level() {
    let srv = server(Config::default());
    let a = srv.addr;
    let (_, games) = get(a, "/api/games");
    let by_id = |id: &str| {
        games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["game"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(by_id("chess")["elo"], json!([1350, 2400]));
    assert_eq!(by_id("chess")["skill"], json!([0, 20]));
    assert_eq!(by_id("pawns")["elo"], Value::Null);
    assert_eq!(by_id("chamaeleon")["skill"], Value::Null);
    // Refused seats create nothing and name the allowed range.
    let refused = [
        (
            "chess",
            json!({ "kind": "engine", "elo": 1000 }),
            "from 1350 to 2400",
        ),
        (
            "chess",
            json!({ "kind": "engine", "elo": 2500 }),
            "from 1350 to 2400",
        ),
        (
            "chess",
            json!({ "kind": "engine", "skill": 21 }),
            "from 0 to 20",
        ),
        (
            "chess",
            json!({ "kind": "engine", "elo": 1500, "skill": 3 }),
            "not both",
        ),
        (
            "chess",
            json!({ "kind": "human", "elo": 1500 }),
            "human seat",
        ),
        (
            "chess",
            json!({ "kind": "engine", "elo": "strong" }),
            "malformed",
        ),
        (
            "pawns",
            json!({ "kind": "engine", "elo": 1500 }),
            "skill 0 to 20",
        ),
        (
            "chamaeleon",
            json!({ "kind": "engine", "skill": 5 }),
            "no strength",
        ),
        (
            "chamaeleon",
            json!({ "kind": "engine", "depth": 0 }),
            "from 1 to 16",
        ),
        (
            "chamaeleon",
            json!({ "kind": "engine", "depth": 17 }),
            "from 1 to 16",
        ),
        (
            "chamaeleon",
            json!({ "kind": "human", "depth": 2 }),
            "human seat",
        ),
        (
            "chess",
            json!({ "kind": "engine", "depth": 3 }),
            "Chamäleon",
        ),
        (
            "crash",
            json!({ "kind": "engine", "search": "optimal", "skill": 5 }),
            "optimal",
        ),
    ];
    for (game, seat, says) in refused {
        let seats = if game == "chamaeleon" {
            json!([{ "kind": "human" }, seat])
        } else {
            json!([seat, { "kind": "human" }])
        };
        let (code, r) = post(
            a,
            "/api/new",
            &json!({ "game": game, "variant": if game == "chamaeleon" { json!("chamaeleon2") } else { Value::Null }, "seats": seats }),
        );
        assert_eq!(code, 400, "{game} {r}");
        let msg = r["error"].as_str().unwrap();
        assert!(msg.contains(says), "{game}: {msg}");
    }
    assert_eq!(get(a, "/api/status").1["games"], 0);
    // An engine seat at Elo 1400 (and one at skill 3 in pawn chess) moves.
    for (game, seat) in [
        (
            "chess",
            json!({ "kind": "engine", "movetime_ms": 200, "elo": 1400 }),
        ),
        (
            "pawns",
            json!({ "kind": "engine", "movetime_ms": 200, "skill": 3 }),
        ),
    ] {
        let (code, st) = post(
            a,
            "/api/new",
            &json!({ "game": game, "seats": [seat, { "kind": "human" }] }),
        );
        assert_eq!(code, 201, "{st}");
        let field = if game == "chess" { "elo" } else { "skill" };
        assert_eq!(st["seats"][0][field], seat[field], "{st}");
        let id = st["id"].as_str().unwrap();
        let (code, r) = post(a, &format!("/api/game/{id}/engine"), &json!({}));
        assert_eq!(code, 200, "{r}");
        let legal: Vec<&str> = st["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        assert!(legal.contains(&r["move"].as_str().unwrap()), "{r}");
        assert_eq!(r["state"]["plies"], 1);
        // The panel's line is that of the move played, not the best line.
        assert_eq!(r["info"]["limited"], true, "{r}");
        assert_eq!(r["info"]["pv"][0], r["move"], "{r}");
    }
    // A Chamäleon seat capped at depth 2 searches two turns deep however long it may think.
    assert_eq!(by_id("chamaeleon")["depth"], json!([1, 16]));
    let (code, st) = post(
        a,
        "/api/new",
        &json!({ "game": "chamaeleon", "variant": "chamaeleon3", "seats": [
            { "kind": "engine", "movetime_ms": 5000, "search": "maxn", "depth": 2 },
            { "kind": "human" }, { "kind": "human" }] }),
    );
    assert_eq!(code, 201, "{st}");
    assert_eq!(st["seats"][0]["depth"], 2, "{st}");
    let id = st["id"].as_str().unwrap();
    let started = Instant::now();
    let (code, r) = post(a, &format!("/api/game/{id}/engine"), &json!({}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(r["info"]["depth"], 2, "{r}");
    assert!(started.elapsed() < Duration::from_millis(4500), "{r}");
}

#[test]
fn idle_connections_are_capped_and_closed() {
    let srv = server(Config {
        max_connections: 4,
        conn_idle: Duration::from_millis(500),
        max_movetime: Duration::from_millis(200),
        engine_wait: Duration::from_millis(300),
        ..Config::default()
    });
    let a = srv.addr;
    let (_, status) = get(a, "/api/status");
    assert_eq!(status["max_connections"], 4);
    let idle_s = status["conn_idle_s"].as_f64().unwrap();
    assert!((1.4..1.6).contains(&idle_s), "{status}");
    // Four connections that send nothing, or half a request, take every slot.
    let mut idle: Vec<TcpStream> = (0..4)
        .map(|i| {
            let mut s = TcpStream::connect(a).unwrap();
            if i % 2 == 1 {
                s.write_all(b"GET /api/status HTTP/1.1\r\nHost: 12")
                    .unwrap();
            }
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    // A fresh request waits for a slot: it is answered once the idle ones are closed.
    let start = Instant::now();
    let (code, status) = get(a, "/api/status");
    let waited = start.elapsed();
    assert_eq!(code, 200);
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(10),
        "answered after {waited:?}"
    );
    assert!(status["connections"].as_u64().unwrap() <= 4, "{status}");
    // The server has closed every idle connection: each reads the end (or a reset).
    for s in &mut idle {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = Vec::new();
        match s.read_to_end(&mut buf) {
            Ok(_) => {}
            Err(e) => assert!(
                !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ),
                "an idle connection stayed open: {e}"
            ),
        }
    }
    // A connection that is used is not cut: a request, a pause shorter than the idle time,
    // and another request on the same connection.
    let mut s = TcpStream::connect(a).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    for _ in 0..2 {
        s.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .unwrap();
        let mut raw = Vec::new();
        let mut byte = [0u8; 1];
        while !raw.ends_with(b"\r\n\r\n") {
            s.read_exact(&mut byte).unwrap();
            raw.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&raw).to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{head}");
        let length: usize = head
            .split("content-length:")
            .nth(1)
            .and_then(|t| t.split("\r\n").next())
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no length in {head}"));
        let mut body = vec![0u8; length];
        s.read_exact(&mut body).unwrap();
        std::thread::sleep(Duration::from_millis(600));
    }
}

/// The state of game `id` once its solved value is known (the server solves it off the
/// request thread and says `pending` meanwhile).
fn solved_state(a: SocketAddr, id: &str) -> Value {
    let start = Instant::now();
    loop {
        let (code, st) = get(a, &format!("/api/game/{id}"));
        assert_eq!(code, 200, "{st}");
        if st["solved"]["pending"] != true {
            return st;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "still solving: {st}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `kiebitz-pawns analyze --fen FEN --value-only --json`: the value for White (1, 0, -1).
fn pawns_cli_value(fen: &str, rules: &[&str]) -> i64 {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kiebitz-pawns"))
        .args(["analyze", "--fen", fen, "--value-only", "--json"])
        .args(rules)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["value"].as_i64().unwrap()
}

#[test]
fn solved_values_of_pawn_chess_match_the_analyser() {
    let srv = server(Config::default());
    let a = srv.addr;
    let mut seed = 7u64;
    for (variant, rules) in [
        ("pawns4", &[][..]),
        ("pawns5d", &["--doublestep"][..]),
        ("pawns4ep", &["--enpassant"][..]),
    ] {
        let (code, st) = post(
            a,
            "/api/new",
            &json!({ "game": "pawns", "variant": variant,
                     "seats": [{ "kind": "human" }, { "kind": "human" }] }),
        );
        assert_eq!(code, 201, "{st}");
        let id = st["id"].as_str().unwrap().to_string();
        // The start and a few positions after random moves.
        for step in 0..3 {
            let st = solved_state(a, &id);
            if !st["result"].is_null() {
                break;
            }
            let solved = &st["solved"];
            let fen = st["fen"].as_str().unwrap();
            let white = pawns_cli_value(fen, rules);
            let mover_is_white = st["to_move"] == 0;
            assert_eq!(
                solved["for"],
                if mover_is_white { "White" } else { "Black" }
            );
            let for_mover = if mover_is_white { white } else { -white };
            let word = ["loss", "draw", "win"][(for_mover + 1) as usize];
            assert_eq!(
                solved["value"], word,
                "{variant} step {step} {fen}: {solved}"
            );
            // Small boards are walked whole: the distance is exact, and the side that makes
            // the last move (a pawn arriving) wins.
            match word {
                "draw" => assert!(solved["distance"].is_null(), "{solved}"),
                _ => {
                    let d = solved["distance"].as_i64().unwrap();
                    assert_eq!(d % 2 == 1, word == "win", "{solved}");
                }
            }
            let legal = st["legal"].as_array().unwrap();
            let mv = legal[pick(&mut seed, legal.len())]["move"].clone();
            let (code, r) = post(a, &format!("/api/game/{id}/move"), &json!({ "move": mv }));
            assert_eq!(code, 200, "{r}");
        }
    }
    // Boards beyond 6×6 say why they have no solved value; other games have none.
    let (_, st) = post(
        a,
        "/api/new",
        &json!({ "game": "pawns", "variant": "pawns7" }),
    );
    let st = solved_state(a, st["id"].as_str().unwrap());
    assert!(
        st["solved"]["unknown"].as_str().unwrap().contains("6×6"),
        "{st}"
    );
    let (_, st) = post(a, "/api/new", &json!({ "game": "chess" }));
    assert!(st["solved"].is_null(), "{st}");
}

#[test]
fn solved_values_of_crash_match_the_analyser() {
    let srv = server(Config::default());
    let a = srv.addr;
    for (fen, n, cells) in [("W2.W1....B1.B2 w", 3, 10), ("W1..B1 b", 1, 4)] {
        let (code, st) = post(
            a,
            "/api/new",
            &json!({ "game": "crash", "fen": fen,
                     "seats": [{ "kind": "human" }, { "kind": "human" }] }),
        );
        assert_eq!(code, 201, "{st}");
        let st = solved_state(a, st["id"].as_str().unwrap());
        let solved = &st["solved"];
        let (n, cells) = (n.to_string(), cells.to_string());
        let (word, plies, line) =
            crash_analyze(&["analyze", "--n", &n, "--cells", &cells, "--fen", fen]);
        assert_eq!(solved["value"], word, "{fen}: {solved} vs {line}");
        assert_eq!(solved["distance"], plies, "{fen}: {solved} vs {line}");
        let mover = if fen.ends_with('w') { "White" } else { "Black" };
        assert_eq!(solved["for"], mover);
    }
    // A board too large for a database on demand says so.
    let (_, st) = post(
        a,
        "/api/new",
        &json!({ "game": "crash", "fen": format!("W4{}B4 w", ".".repeat(18)) }),
    );
    let st = solved_state(a, st["id"].as_str().unwrap());
    assert!(
        st["solved"]["unknown"]
            .as_str()
            .unwrap()
            .contains("positions"),
        "{st}"
    );
}

/// A position of the Räuberschach forced-win suite (`FEN;MOVES;N`, the side to move wins after
/// the moves): line `n` (1-based), as the FEN and the moves.
fn raeuber_suite_line(n: usize) -> (String, Vec<String>) {
    let text = include_str!("data/raeuber-early-wins.txt");
    let line = text.lines().nth(n - 1).unwrap();
    let mut fields = line.split(';');
    let fen = fields.next().unwrap().to_string();
    let moves = fields
        .next()
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    (fen, moves)
}

#[test]
fn raeuber_positions_get_proven_values() {
    // A short budget keeps the unproven start position quick.
    let srv = server(Config {
        solvers: kiebitz::web::session::Solvers {
            raeuber_time: Duration::from_millis(1000),
            ..Default::default()
        },
        ..Config::default()
    });
    let a = srv.addr;
    let humans = json!([{ "kind": "human" }, { "kind": "human" }]);
    for n in [11, 1] {
        let (fen, moves) = raeuber_suite_line(n);
        let (code, st) = post(
            a,
            "/api/new",
            &json!({ "game": "raeuber", "fen": fen, "seats": humans }),
        );
        assert_eq!(code, 201, "{st}");
        let id = st["id"].as_str().unwrap().to_string();
        for mv in &moves {
            let (code, r) = post(a, &format!("/api/game/{id}/move"), &json!({ "move": mv }));
            assert_eq!(code, 200, "{mv}: {r}");
        }
        let st = solved_state(a, &id);
        let solved = &st["solved"];
        let mover = if st["to_move"] == 0 { "White" } else { "Black" };
        assert_eq!(solved["value"], "win", "line {n}: {st}");
        assert_eq!(solved["for"], mover, "{solved}");
        assert!(solved["distance"].is_null(), "{solved}");
        assert!(solved["within"].as_u64().unwrap() >= 1, "{solved}");
        let source = solved["source"].as_str().unwrap();
        assert!(
            source.starts_with("proof-number search, proof checked (")
                && source.contains("positions"),
            "{source}"
        );
    }
    let (_, st) = post(
        a,
        "/api/new",
        &json!({ "game": "raeuber", "seats": humans }),
    );
    let st = solved_state(a, st["id"].as_str().unwrap());
    assert_eq!(
        st["solved"],
        json!({ "unknown": "not proven within 1 s" }),
        "{st}"
    );
}

#[test]
fn crash_databases_load_from_files() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("kiebitz-web-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 2 stones a side on 45 cells: 419,430 positions, more than the server solves on demand.
    let db = dir.join("n2m45.db");
    let fen = format!("W2{}B2 w", ".".repeat(43));
    let path = db.to_str().unwrap();
    let args = [
        "analyze", "--n", "2", "--cells", "45", "--out", path, "--fen", &fen,
    ];
    let (word, plies, line) = crash_analyze(&args);
    for exe in [
        env!("CARGO_BIN_EXE_kiebitz-web"),
        env!("CARGO_BIN_EXE_kiebitz-crash"),
    ] {
        let args: &[&str] = if exe.ends_with("kiebitz-web") {
            &["--listen", "127.0.0.1:0", "--crash-db", path]
        } else {
            &["web", "--listen", "127.0.0.1:0", "--crash-db", path]
        };
        let (mut child, a) = spawn_server(exe, args);
        let (code, st) = post(
            a,
            "/api/new",
            &json!({ "game": "crash", "fen": fen,
                     "seats": [{ "kind": "engine", "search": "optimal", "movetime_ms": 50 },
                               { "kind": "human" }] }),
        );
        assert_eq!(code, 201, "{st}");
        let id = st["id"].as_str().unwrap().to_string();
        let st = solved_state(a, &id);
        let solved = st["solved"].clone();
        let (_, r) = post(a, &format!("/api/game/{id}/engine"), &json!({}));
        child.kill().unwrap();
        let _ = child.wait();
        assert_eq!(solved["value"], word, "{solved} vs {line}");
        assert_eq!(solved["distance"], plies, "{solved} vs {line}");
        assert!(
            solved["source"].as_str().unwrap().contains(path),
            "{solved}"
        );
        assert_eq!(r["info"]["optimal"], true, "{r}");
        assert!(r["info"]["source"].as_str().unwrap().contains(path), "{r}");
    }
    // Without the file the same board is beyond the cap (tests above); a file that is no
    // database, or none at all, stops the server at start-up with a message.
    let garbage = dir.join("garbage.db");
    std::fs::write(&garbage, b"this is not a database").unwrap();
    for (file, says) in [
        (garbage.to_str().unwrap(), "not a kiebitz CRASH! database"),
        ("/nonexistent/n2m45.db", "cannot read"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_kiebitz-web"))
            .args(["--listen", "127.0.0.1:0", "--crash-db", file])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("--crash-db") && err.contains(says), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Another game's server has no use for it.
    let out = Command::new(env!("CARGO_BIN_EXE_kiebitz-pawns"))
        .args(["web", "--listen", "127.0.0.1:0", "--crash-db", path])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--crash-db is for CRASH!"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_reports_from_a_pgn() {
    let srv = server(Config {
        max_report_body: 8 * 1024,
        ..Config::default()
    });
    let a = srv.addr;
    let (code, page) = request(a, "GET", "/report", None);
    assert_eq!(code, 200);
    assert!(page.contains("/static/app.js"));
    // Sixteen chess games of three engines: their standings, and each game to replay.
    let pgn = include_str!("data/book-games.pgn");
    let (code, html) = request(a, "POST", "/api/report", Some(pgn.as_bytes()));
    assert_eq!(code, 200, "{html}");
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    for engine in ["A", "B", "C"] {
        assert!(
            html.contains(&format!("class=\"standing\" data-engine=\"{engine}\"")),
            "no standing of {engine}"
        );
    }
    assert!(html.contains("id=\"report-data\""));
    // With an SPRT, its section; the game named in the query.
    let (code, html) = request(
        a,
        "POST",
        "/api/report?game=chess&elo0=0&elo1=50",
        Some(pgn.as_bytes()),
    );
    assert_eq!(code, 200, "{html}");
    assert!(html.contains("data-llr"), "no SPRT section");
    // Refused: the wrong game's rules, half an SPRT, an unknown parameter, garbage, binary,
    // nothing; a PGN beyond the limit gets 413.
    let refused: [(&str, &[u8], &str); 7] = [
        ("/api/report?game=pawns", pgn.as_bytes(), "game=pawns"),
        ("/api/report?elo0=0", pgn.as_bytes(), "elo1"),
        ("/api/report?colour=blue", pgn.as_bytes(), "bad query"),
        ("/api/report?game=chamaeleon", pgn.as_bytes(), "two-player"),
        ("/api/report", b"this is not a game at all", "posted PGN"),
        ("/api/report", &[0xff, 0xfe, 0x00, 0x81], "UTF-8"),
        ("/api/report", b"  ", "PGN body"),
    ];
    for (path, body, says) in refused {
        let (code, text) = request(a, "POST", path, Some(body));
        assert_eq!(code, 400, "{path}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        assert!(v["error"].as_str().unwrap().contains(says), "{path}: {v}");
    }
    let big = pgn.repeat(8 * 1024 / pgn.len() + 1);
    let (code, _) = request(a, "POST", "/api/report", Some(big.as_bytes()));
    assert_eq!(code, 413);
}

/// Runs `kiebitz-crash ARGS` (an `analyze … --fen F`) and reads its last line: `win` or
/// `loss` for the side to move, the distance in plies, and the line itself.
fn crash_analyze(args: &[&str]) -> (&'static str, i64, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kiebitz-crash"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap().to_string();
    let plies: i64 = line
        .split(" in ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no distance in '{line}'"));
    let word = if line.contains(": won for") {
        "win"
    } else {
        "loss"
    };
    (word, plies, line)
}

/// Chess960 starts from one of the 960 positions: the number asked for (as python-chess's
/// `chess.Board.from_chess960_pos` numbers them), else a random one; a number out of range,
/// for a variant with one start, or beside a FEN is refused.
#[test]
fn chess960_starts_from_a_numbered_or_random_position() {
    let srv = server(Config::default());
    let a = srv.addr;
    let new = |body: Value| post(a, "/api/new", &body);
    let (code, st) = new(json!({ "game": "chess", "variant": "chess960", "start": 0 }));
    assert_eq!(code, 201, "{st}");
    assert_eq!(
        st["fen"],
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    let (_, st) = new(json!({ "game": "chess", "variant": "chess960", "start": 959 }));
    assert!(st["fen"].as_str().unwrap().starts_with("rkrnnqbb/"), "{st}");
    let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let random: Vec<String> = (0..4)
        .map(|_| {
            let (code, st) = new(json!({ "game": "chess", "variant": "chess960" }));
            assert_eq!(code, 201, "{st}");
            assert_eq!(st["variant"], "chess960");
            st["fen"].as_str().unwrap().to_string()
        })
        .collect();
    assert!(random.iter().any(|f| f != standard), "{random:?}");
    let (_, games) = get(a, "/api/games");
    let chess = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == "chess")
        .unwrap();
    assert_eq!(chess["starts"], json!([1, 960]));
    for (body, why) in [
        (
            json!({ "game": "chess", "variant": "chess960", "start": 960 }),
            "0 to 959",
        ),
        (json!({ "game": "chess", "start": 1 }), "one start position"),
        (
            json!({ "game": "chess", "variant": "chess960", "start": 1, "fen": standard }),
            "not both",
        ),
    ] {
        let (code, r) = new(body);
        assert_eq!(code, 400, "{r}");
        assert!(r["error"].as_str().unwrap().contains(why), "{r}");
    }
}

/// Reads server-sent events from `s` until `until` appears in them (or 20 s pass).
fn read_events(s: &mut TcpStream, seen: &mut String, until: &str) {
    let mut buf = [0u8; 8192];
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline && !seen.contains(until) {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
        }
    }
}

/// The analysis of a position: MultiPV lines streamed with scores from White's view and the
/// PV in SAN, of the ply asked for; stopped by DELETE and by a move; positions of earlier
/// plies for stepping through the game; bad requests refused.
#[test]
fn analysis_runs_until_stopped() {
    let srv = server(Config::default());
    let a = srv.addr;
    let two = json!([{ "kind": "human" }, { "kind": "human" }]);
    let (_, id) = new_game(a, &json!({ "game": "chess", "seats": two }));
    assert_eq!(
        post(a, &format!("/api/game/{id}/move"), &json!({ "move": "e4" })).0,
        200
    );
    let mut s = TcpStream::connect(a).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET /api/game/{id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let path = format!("/api/game/{id}/analysis");
    let (code, r) = post(a, &path, &json!({ "multipv": 2 }));
    assert_eq!(code, 202, "{r}");
    assert_eq!(r["ply"], 1);
    let mut seen = String::new();
    read_events(&mut s, &mut seen, "\"multipv\":2");
    read_events(&mut s, &mut seen, "\"depth\":6,");
    let lines: Vec<Value> = seen
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|l| serde_json::from_str(l).ok())
        .filter(|v: &Value| v["type"] == "analysis")
        .collect();
    assert!(lines.iter().any(|l| l["info"]["multipv"] == 2), "{seen}");
    for l in &lines {
        let info = &l["info"];
        assert_eq!(l["ply"], 1);
        // Black is to move: White's view is the mover's score negated.
        if let Some(cp) = info["score"]["cp"].as_i64() {
            assert_eq!(info["white"]["cp"].as_i64(), Some(-cp), "{info}");
        }
        let san = info["pv_san"].as_array().unwrap();
        assert_eq!(san.len(), info["pv"].as_array().unwrap().len());
    }
    let first = &lines[0]["info"];
    assert!(
        ["e5", "c5", "e6", "Nf6", "d5", "c6", "d6", "Nc6", "g6"]
            .contains(&first["pv_san"][0].as_str().unwrap()),
        "{first}"
    );
    assert_eq!(get(a, &format!("/api/game/{id}")).1["analysing"], true);
    let (code, r) = request(a, "DELETE", &path, None);
    assert_eq!(code, 200, "{r}");
    read_events(&mut s, &mut seen, "analysis-stopped");
    assert!(seen.contains("\"type\":\"analysis-stopped\""), "{seen}");
    assert_eq!(get(a, &format!("/api/game/{id}")).1["analysing"], false);
    // An analysis of ply 0, stopped by a move.
    assert_eq!(post(a, &path, &json!({ "ply": 0, "multipv": 1 })).0, 202);
    assert_eq!(
        post(a, &format!("/api/game/{id}/move"), &json!({ "move": "e5" })).0,
        200
    );
    assert_eq!(get(a, &format!("/api/game/{id}")).1["analysing"], false);
    let (code, p) = get(a, &format!("/api/game/{id}/position?ply=1"));
    assert_eq!(code, 200, "{p}");
    assert_eq!(
        p["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(p["last"], json!({ "from": "e2", "to": "e4" }));
    assert_eq!(p["board"]["rows"][4][4], "P");
    for (method, url, body, why) in [
        (
            "POST",
            path.clone(),
            Some(json!({ "multipv": 9 })),
            "multipv",
        ),
        ("POST", path.clone(), Some(json!({ "ply": 3 })), "no ply 3"),
        (
            "GET",
            format!("/api/game/{id}/position?ply=3"),
            None,
            "no ply 3",
        ),
        ("GET", format!("/api/game/{id}/position"), None, "ply=N"),
    ] {
        let body = body.map(|b| b.to_string());
        let (code, r) = request(a, method, &url, body.as_deref().map(str::as_bytes));
        assert_eq!(code, 400, "{url}: {r}");
        assert!(r.contains(why), "{r}");
    }
}

/// Opens the game's event stream on a raw connection (read with [`read_events`]).
fn open_events(a: SocketAddr, id: &str) -> TcpStream {
    let mut s = TcpStream::connect(a).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET /api/game/{id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    s
}

/// The events of a stream read so far, parsed.
fn events_of(seen: &str) -> Vec<Value> {
    seen.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// A page follows the game: every change (a person's move, a take-back, an engine move, a
/// resignation) is announced on the event stream with the game's new `version`, which the
/// state carries too; a take-back sent for a game that changed since (a double click) is
/// refused with 409 and takes back nothing.
#[test]
fn every_change_is_announced_and_a_stale_takeback_is_refused() {
    let srv = server(Config::default());
    let a = srv.addr;
    let seats = json!([{ "kind": "human" }, { "kind": "engine", "movetime_ms": 20 }]);
    let (st, id) = new_game(a, &json!({ "game": "chess", "seats": seats }));
    assert_eq!(st["version"], 0, "{st}");
    let mut s = open_events(a, &id);
    let mut seen = String::new();
    let (_, st) = post(a, &format!("/api/game/{id}/move"), &json!({ "move": "e4" }));
    assert_eq!(st["version"], 1, "{st}");
    read_events(&mut s, &mut seen, "\"version\":1");
    let (_, r) = post(a, &format!("/api/game/{id}/engine"), &json!({}));
    assert_eq!(r["state"]["version"], 2, "{r}");
    read_events(&mut s, &mut seen, "\"version\":2");
    let path = format!("/api/game/{id}/undo");
    let (code, st) = post(a, &path, &json!({ "plies": 2, "at": 2 }));
    assert_eq!(code, 200, "{st}");
    assert_eq!(st["plies"], 0);
    read_events(&mut s, &mut seen, "\"version\":3");
    // The second click of a double click: the page saw 2 plies, the game has none now.
    let (code, e) = post(a, &path, &json!({ "plies": 2, "at": 2 }));
    assert_eq!(code, 409, "{e}");
    assert!(e["error"].as_str().unwrap().contains("changed"), "{e}");
    post(a, &format!("/api/game/{id}/move"), &json!({ "move": "d4" }));
    let (_, r) = post(a, &format!("/api/game/{id}/resign"), &json!({}));
    assert_eq!(r["version"], 5, "{r}");
    read_events(&mut s, &mut seen, "\"version\":5");
    let evs = events_of(&seen);
    let kinds: Vec<(&str, u64)> = evs
        .iter()
        .filter(|e| e["version"].is_u64())
        .map(|e| (e["type"].as_str().unwrap(), e["version"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("move", 1),
            ("move", 2),
            ("state", 3),
            ("move", 4),
            ("state", 5)
        ],
        "{seen}"
    );
    let first = evs.iter().find(|e| e["version"] == 1).unwrap();
    assert_eq!(
        (first["move"].as_str(), first["san"].as_str()),
        (Some("e2e4"), Some("e4"))
    );
    assert_eq!(first["plies"], 1);
}

/// Hardening (issue 74, item 16): an analysis started with no event stream open stops at
/// once (nobody watches it), and the state then says so (`"analysing": false`), not `true`
/// for good.
#[test]
fn an_analysis_nobody_watches_stops_and_the_state_says_so() {
    let srv = server(Config::default());
    let a = srv.addr;
    let two = json!([{ "kind": "human" }, { "kind": "human" }]);
    let (_, id) = new_game(a, &json!({ "game": "chess", "seats": two }));
    let (code, r) = post(a, &format!("/api/game/{id}/analysis"), &json!({}));
    assert_eq!(code, 202, "{r}");
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut analysing = true;
    while analysing && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        analysing = get(a, &format!("/api/game/{id}")).1["analysing"] == true;
    }
    assert!(
        !analysing,
        "the analysis stopped but the state still says it runs"
    );
    // A slot is free again: a watched analysis starts and runs.
    let _s = open_events(a, &id);
    assert_eq!(
        post(a, &format!("/api/game/{id}/analysis"), &json!({})).0,
        202
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(get(a, &format!("/api/game/{id}")).1["analysing"], true);
}

/// The spectator link: its id reads the state (without the player's id), the positions, the
/// PGN and the event stream, and every request that would change the game is refused with
/// 403, the game unchanged.
#[test]
fn a_spectator_link_shows_the_game_but_cannot_change_it() {
    let srv = server(Config::default());
    let a = srv.addr;
    let two = json!([{ "kind": "human" }, { "kind": "human" }]);
    let (st, id) = new_game(a, &json!({ "game": "chess", "seats": two }));
    let watch = st["watch"].as_str().unwrap().to_string();
    assert_ne!(id, watch);
    assert_eq!(st["spectator"], false);
    post(a, &format!("/api/game/{id}/move"), &json!({ "move": "e4" }));
    let (code, view) = get(a, &format!("/api/game/{watch}"));
    assert_eq!(code, 200, "{view}");
    assert_eq!(view["spectator"], true);
    assert_eq!(view["id"], watch.as_str());
    assert!(
        !view.to_string().contains(&id),
        "the spectator's state names the game's id"
    );
    assert_eq!(view["history"][0]["san"], "e4");
    assert_eq!(get(a, &format!("/api/game/{watch}/position?ply=1")).0, 200);
    assert_eq!(
        request(a, "GET", &format!("/api/game/{watch}/pgn"), None).0,
        200
    );
    let mut s = open_events(a, &watch);
    post(a, &format!("/api/game/{id}/move"), &json!({ "move": "e5" }));
    let mut seen = String::new();
    read_events(&mut s, &mut seen, "\"version\":2");
    assert!(seen.contains("\"san\":\"e5\""), "{seen}");
    for what in ["move", "undo", "engine", "resign", "draw", "analysis"] {
        let (code, e) = post(
            a,
            &format!("/api/game/{watch}/{what}"),
            &json!({ "move": "d4" }),
        );
        assert_eq!(code, 403, "{what}: {e}");
        assert!(e["error"].as_str().unwrap().contains("spectator"), "{e}");
    }
    assert_eq!(get(a, &format!("/api/game/{id}")).1["plies"], 2);
}

/// The state and the positions name the king in check (chess; Räuberschach's king is an
/// ordinary piece: none) and why moves are restricted where a capture is forced.
#[test]
fn a_king_in_check_and_a_forced_capture_are_named() {
    let srv = server(Config::default());
    let a = srv.addr;
    let two = json!([{ "kind": "human" }, { "kind": "human" }]);
    let (st, id) = new_game(a, &json!({ "game": "chess", "seats": two }));
    assert_eq!(st["check"], Value::Null);
    for mv in ["e4", "f5", "Qh5"] {
        post(a, &format!("/api/game/{id}/move"), &json!({ "move": mv }));
    }
    let (_, st) = get(a, &format!("/api/game/{id}"));
    assert_eq!(st["check"], "e8", "{st}");
    let (_, p) = get(a, &format!("/api/game/{id}/position?ply=3"));
    assert_eq!(p["check"], "e8", "{p}");
    let (_, p) = get(a, &format!("/api/game/{id}/position?ply=2"));
    assert_eq!(p["check"], Value::Null);
    let fen = "6/6/6/2p3/3P2/6 w - - 0 1";
    let (code, st) = post(
        a,
        "/api/new",
        &json!({ "game": "raeuber", "fen": fen, "seats": two }),
    );
    assert_eq!(code, 201, "{st}");
    assert_eq!(st["note"], "a capture is forced", "{st}");
    assert_eq!(st["check"], Value::Null);
}

/// The move tree's server side: the position of a line played from an earlier ply (its SAN,
/// its legal moves, the king in check), a line that does not replay refused naming its move,
/// an analysis of a line streamed with its moves, the PGN with the variations nested where
/// they leave the game and each other (also after the game's last move), a bad variation
/// refused; the game's record unchanged by all of it. A new game from a PGN replays its main
/// line from its FEN.
#[test]
fn lines_of_the_move_tree_replay_analyse_and_go_into_the_pgn() {
    let srv = server(Config::default());
    let a = srv.addr;
    let two = json!([{ "kind": "human" }, { "kind": "human" }]);
    let (_, id) = new_game(a, &json!({ "game": "chess", "seats": two }));
    for mv in ["e4", "e5", "Nf3"] {
        post(a, &format!("/api/game/{id}/move"), &json!({ "move": mv }));
    }
    let path = format!("/api/game/{id}/line");
    let (code, p) = post(
        a,
        &path,
        &json!({ "ply": 2, "moves": ["f1c4", "Nc6", "Qh5", "Nf6", "Qxf7#"] }),
    );
    assert_eq!(code, 200, "{p}");
    assert_eq!(p["sans"], json!(["Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]));
    assert_eq!(p["moves"][1], "b8c6");
    assert_eq!(p["check"], "e8");
    assert_eq!(p["result"]["score"], "1-0", "{p}");
    assert_eq!(p["legal"], json!([]));
    let (code, e) = post(
        a,
        &path,
        &json!({ "ply": 2, "moves": ["Bc4", "Ke7", "Ke3"] }),
    );
    assert_eq!(code, 400, "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("move 3 of the line, Ke3"),
        "{e}"
    );
    let (code, e) = post(a, &path, &json!({ "ply": 9, "moves": [] }));
    assert_eq!(code, 400, "{e}");
    let mut s = open_events(a, &id);
    let (code, r) = post(
        a,
        &format!("/api/game/{id}/analysis"),
        &json!({ "ply": 1, "moves": ["c7c5"], "multipv": 1 }),
    );
    assert_eq!(code, 202, "{r}");
    let mut seen = String::new();
    read_events(&mut s, &mut seen, "\"type\":\"analysis\"");
    let ev = events_of(&seen)
        .into_iter()
        .find(|e| e["type"] == "analysis")
        .unwrap();
    assert_eq!(
        (ev["ply"].clone(), ev["moves"].clone()),
        (json!(1), json!(["c7c5"]))
    );
    assert!(ev["info"]["white"].is_object(), "{ev}");
    request(a, "DELETE", &format!("/api/game/{id}/analysis"), None);
    let lines = json!({ "lines": [
        { "at": 1, "moves": ["c7c5", "g1f3"], "lines": [{ "at": 1, "moves": ["c2c3"] }] },
        { "at": 3, "moves": ["b8c6"] },
    ] });
    let body = lines.to_string();
    let (code, pgn) = request(
        a,
        "POST",
        &format!("/api/game/{id}/pgn"),
        Some(body.as_bytes()),
    );
    assert_eq!(code, 200, "{pgn}");
    assert!(
        pgn.contains("1. e4 e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 (2. Nf3 Nc6) *"),
        "{pgn}"
    );
    let bad = json!({ "lines": [{ "at": 1, "moves": ["e2e4"] }] }).to_string();
    let (code, e) = request(
        a,
        "POST",
        &format!("/api/game/{id}/pgn"),
        Some(bad.as_bytes()),
    );
    assert_eq!(code, 400, "{e}");
    assert!(e.contains("e2e4"), "{e}");
    assert_eq!(
        get(a, &format!("/api/game/{id}")).1["plies"],
        3,
        "the record changed"
    );
    let text = "[Event \"x\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 2. e5 *";
    let (code, st) = post(
        a,
        "/api/new",
        &json!({ "game": "chess", "pgn": text, "seats": two }),
    );
    assert_eq!(code, 201, "{st}");
    assert_eq!(st["start_fen"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(st["plies"], 3);
    let (code, e) = post(
        a,
        "/api/new",
        &json!({ "game": "chess", "pgn": "1. e4 e5 2. Ke3 *" }),
    );
    assert_eq!(code, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("move 3 (Ke3)"), "{e}");
}

/// Polls the game's review until it has finished (at most 30 s); returns it.
fn review_done(a: SocketAddr, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, r) = get(a, &format!("/api/game/{id}/review"));
        if r["running"] == false || Instant::now() > deadline {
            return r;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The review of every move: "analyse the whole game" gives every position an evaluation
/// kept at the server (a second viewer reads the same; the PGN carries it as `[%eval]`), the
/// final mate none; a move into a mate in one is marked a blunder with a saving move named;
/// where the game has solved values each position has its solved value too; a take-back
/// forgets the positions taken back; the engine's own moves leave their evaluations.
#[test]
fn the_whole_game_is_reviewed_and_a_blunder_is_marked() {
    let srv = server(Config::default());
    let a = srv.addr;
    let two = json!([{ "kind": "human" }, { "kind": "human" }]);
    let (_, id) = new_game(a, &json!({ "game": "chess", "seats": two }));
    for mv in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
        post(a, &format!("/api/game/{id}/move"), &json!({ "move": mv }));
    }
    let (code, r) = post(
        a,
        &format!("/api/game/{id}/review"),
        &json!({ "movetime_ms": 100 }),
    );
    assert_eq!(code, 202, "{r}");
    assert_eq!(r["running"], true);
    assert_eq!(r["of"], 7, "seven positions before the mate: {r}");
    let r = review_done(a, &id);
    let evals = r["evals"].as_array().unwrap();
    assert_eq!(evals.len(), 8, "{r}");
    assert!(evals[..7].iter().all(|e| e["white"].is_object()), "{r}");
    assert_eq!(evals[7], Value::Null, "the mate has no search");
    assert_eq!(evals[6]["white"]["mate"], 1, "{r}");
    let blunder = r["marks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["ply"] == 6)
        .unwrap_or_else(|| panic!("Nf6 is not marked: {r}"));
    assert_eq!(blunder["judgement"], "blunder");
    // The replies after which White has no mate in one (python-chess lists them); which of
    // them a 100 ms search prefers (g6, Qe7, ...) depends on the machine's speed.
    let saving = ["Nh6", "Ke7", "Qe7", "Qf6", "Qg5", "Qh4", "g6", "d5"];
    let best = blunder["best_san"].as_str().unwrap_or_default();
    assert!(
        saving.contains(&best),
        "the best move must stop the mate: {r}"
    );
    let (_, pgn) = request(a, "GET", &format!("/api/game/{id}/pgn"), None);
    assert!(pgn.contains("Nf6 {[%eval #1]}"), "{pgn}");
    let (_, st) = get(a, &format!("/api/game/{id}"));
    let (_, again) = get(
        a,
        &format!("/api/game/{}/review", st["watch"].as_str().unwrap()),
    );
    assert_eq!(
        again["evals"], r["evals"],
        "a spectator sees the same review"
    );
    post(a, &format!("/api/game/{id}/undo"), &json!({ "plies": 3 }));
    let (_, r) = get(a, &format!("/api/game/{id}/review"));
    assert_eq!(r["evals"].as_array().unwrap().len(), 5);
    // Pawn chess on 4x4 has solved values: the review gives each position its own.
    let (_, st) = post(
        a,
        "/api/new",
        &json!({ "game": "pawns", "variant": "pawns4", "seats": two }),
    );
    let pid = st["id"].as_str().unwrap().to_string();
    let mv = st["legal"][0]["move"].as_str().unwrap().to_string();
    post(a, &format!("/api/game/{pid}/move"), &json!({ "move": mv }));
    post(
        a,
        &format!("/api/game/{pid}/review"),
        &json!({ "movetime_ms": 20 }),
    );
    let r = review_done(a, &pid);
    for e in r["evals"].as_array().unwrap() {
        assert!(e["solved"]["value"].is_string(), "{r}");
    }
    // An engine's move leaves its evaluation of the position it moved from.
    let seats = json!([{ "kind": "human" }, { "kind": "engine", "movetime_ms": 50 }]);
    let (_, st) = post(a, "/api/new", &json!({ "game": "chess", "seats": seats }));
    let gid = st["id"].as_str().unwrap().to_string();
    post(
        a,
        &format!("/api/game/{gid}/move"),
        &json!({ "move": "e4" }),
    );
    post(a, &format!("/api/game/{gid}/engine"), &json!({}));
    let (_, r) = get(a, &format!("/api/game/{gid}/review"));
    assert!(r["evals"][1]["white"].is_object(), "{r}");
    assert_eq!(r["evals"][0], Value::Null);
}
