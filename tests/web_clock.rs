//! Timed games, resigning and draw offers in `kiebitz-web`'s API (docs/web.md, "Clocks,
//! resigning, draws"), against a server started in-process on an ephemeral loopback port: a
//! flag falls for the seat that does not move and the game ends on time (moves, take-backs
//! and further endings refused, the PGN closed); the increment is added after a move; an
//! engine seat thinks by its clock, not its fixed think time, and loses on time when its
//! clock is gone; a resignation ends the game; draw offers between two people and to an
//! engine (declined by the stated rule); games of more than two seats refuse resigning and
//! draws. A flag falling where the other side cannot win (a lone king) draws. In a game of
//! three or four seats a fallen flag puts that player out (its pieces off the board) while
//! the others play on, the next clock running from the moment the flag fell; the last player
//! left wins; engine seats there think by their clocks too.

mod common;

use std::time::{Duration, Instant};

use kiebitz::web::{Background, Config};
use serde_json::{Value, json};

use common::http::{get, post, request};

fn server() -> Background {
    Background::start("127.0.0.1:0", Config::default()).expect("server starts")
}

fn new_game(srv: &Background, body: Value) -> Value {
    let (code, st) = post(srv.addr, "/api/new", &body);
    assert_eq!(code, 201, "{st}");
    st
}

fn call(srv: &Background, id: &str, what: &str, body: Value) -> (u16, Value) {
    post(srv.addr, &format!("/api/game/{id}/{what}"), &body)
}

fn people(clock: Value) -> Value {
    json!({ "game": "chess", "seats": [{ "kind": "human" }, { "kind": "human" }], "clock": clock })
}

#[test]
fn a_flag_falls_for_the_seat_that_does_not_move() {
    let srv = server();
    let st = new_game(&srv, people(json!({ "base_ms": 400 })));
    let id = st["id"].as_str().unwrap();
    assert_eq!(st["clock"]["left_ms"].as_array().unwrap().len(), 2, "{st}");
    assert_eq!(
        st["clock"]["running"],
        Value::Null,
        "no clock before the first move"
    );
    assert_eq!(st["clock"]["inc_ms"], 0);
    let (code, st) = call(&srv, id, "move", json!({ "move": "e2e4" }));
    assert_eq!(code, 200, "{st}");
    assert_eq!(st["clock"]["running"], 1);
    std::thread::sleep(Duration::from_millis(600));
    let (_, st) = get(srv.addr, &format!("/api/game/{id}"));
    assert_eq!(st["result"]["score"], "1-0", "{st}");
    assert_eq!(st["result"]["reason"], "Black loses on time");
    assert_eq!(st["to_move"], Value::Null);
    assert_eq!(st["legal"], json!([]));
    assert_eq!(st["clock"]["running"], Value::Null);
    assert_eq!(st["clock"]["left_ms"][1], 0);
    let white_left = st["clock"]["left_ms"][0].as_u64().unwrap();
    assert!(white_left > 300, "White's clock stopped at its move: {st}");
    for (what, body) in [
        ("move", json!({ "move": "e7e5" })),
        ("undo", json!({})),
        ("resign", json!({})),
        ("draw", json!({})),
        ("engine", json!({})),
    ] {
        let (code, answer) = call(&srv, id, what, body);
        assert_eq!(code, 400, "{what} after the flag: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("over"),
            "{answer}"
        );
    }
    let (_, after) = get(srv.addr, &format!("/api/game/{id}"));
    assert_eq!(after["history"].as_array().unwrap().len(), 1);
    let (code, pgn) = request(srv.addr, "GET", &format!("/api/game/{id}/pgn"), None);
    assert_eq!(code, 200);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(
        pgn.contains("[Termination \"Black loses on time\"]"),
        "{pgn}"
    );
    assert!(
        pgn.trim_end().ends_with("1. e4 {[%clk 0:00:00.4]} 1-0"),
        "{pgn}"
    );
}

#[test]
fn a_move_adds_the_increment_and_bad_clocks_are_refused() {
    let srv = server();
    let st = new_game(&srv, people(json!({ "base_ms": 1000, "inc_ms": 5000 })));
    let id = st["id"].as_str().unwrap();
    let (_, st) = call(&srv, id, "move", json!({ "move": "d4" }));
    let white = st["clock"]["left_ms"][0].as_u64().unwrap();
    assert!(
        (5500..=6000).contains(&white),
        "1 s less the move plus 5 s: {st}"
    );
    let (_, st) = call(&srv, id, "undo", json!({}));
    assert_eq!(
        st["clock"]["running"],
        Value::Null,
        "taken back to the start: no clock runs before the first move"
    );
    call(&srv, id, "move", json!({ "move": "d4" }));
    call(&srv, id, "move", json!({ "move": "d5" }));
    let (_, st) = call(&srv, id, "undo", json!({}));
    assert_eq!(
        st["clock"]["running"], 1,
        "after a take-back Black's clock runs"
    );
    for clock in [
        json!({ "base_ms": 0 }),
        json!({ "base_ms": 1000, "inc_ms": 60_001 }),
        json!({ "inc_ms": 10 }),
        json!({ "base_ms": 1000, "extra": 1 }),
    ] {
        let (code, e) = post(srv.addr, "/api/new", &people(clock.clone()));
        assert_eq!(code, 400, "{clock}: {e}");
    }
    let (_, status) = get(srv.addr, "/api/status");
    assert_eq!(status["games"], 1, "a refused game is not created");
}

#[test]
fn an_engine_seat_thinks_by_its_clock_and_can_lose_on_time() {
    let srv = server();
    // A fixed think time of 5 s, but 2 s on the clock: a twentieth of it, about 0.1 s.
    let st = new_game(
        &srv,
        json!({ "game": "chess", "clock": { "base_ms": 2000 },
                "seats": [{ "kind": "human" }, { "kind": "engine", "movetime_ms": 5000 }] }),
    );
    let id = st["id"].as_str().unwrap();
    call(&srv, id, "move", json!({ "move": "e4" }));
    let (code, e) = call(&srv, id, "engine", json!({ "movetime_ms": 50 }));
    assert_eq!(code, 400, "a timed game takes no think time: {e}");
    let began = Instant::now();
    let (code, answer) = call(&srv, id, "engine", json!({}));
    let took = began.elapsed();
    assert_eq!(code, 200, "{answer}");
    assert!(
        took < Duration::from_millis(1500),
        "the engine took {took:?}"
    );
    let black = answer["state"]["clock"]["left_ms"][1].as_u64().unwrap();
    assert!((1500..2000).contains(&black), "{answer}");
    assert_eq!(answer["state"]["clock"]["running"], 0);
    // An engine whose clock is gone before it moves loses on time.
    let st = new_game(
        &srv,
        json!({ "game": "chess", "clock": { "base_ms": 1 },
                "seats": [{ "kind": "human" }, { "kind": "engine" }] }),
    );
    let id = st["id"].as_str().unwrap();
    call(&srv, id, "move", json!({ "move": "e4" }));
    std::thread::sleep(Duration::from_millis(20));
    let (code, e) = call(&srv, id, "engine", json!({}));
    assert_eq!(code, 400, "{e}");
    let (_, st) = get(srv.addr, &format!("/api/game/{id}"));
    assert_eq!(st["result"]["score"], "1-0", "{st}");
    assert_eq!(st["result"]["reason"], "Black loses on time");
}

#[test]
fn resigning_ends_the_game() {
    let srv = server();
    let st = new_game(
        &srv,
        json!({ "game": "chess", "seats": [{ "kind": "human" }, { "kind": "engine", "movetime_ms": 5 }] }),
    );
    let id = st["id"].as_str().unwrap();
    let (code, e) = call(&srv, id, "resign", json!({ "seat": 2 }));
    assert_eq!(code, 400, "{e}");
    let (code, st) = call(&srv, id, "resign", json!({}));
    assert_eq!(code, 200, "{st}");
    assert_eq!(
        st["result"]["score"], "0-1",
        "the person (White) resigned: {st}"
    );
    assert_eq!(st["result"]["reason"], "White resigns");
    assert_eq!(st["result"]["winners"], json!([1]));
    let (code, _) = call(&srv, id, "move", json!({ "move": "e4" }));
    assert_eq!(code, 400);
    let st = new_game(
        &srv,
        json!({ "game": "chamaeleon", "variant": "chamaeleon3" }),
    );
    let id = st["id"].as_str().unwrap();
    for what in ["resign", "draw"] {
        let (code, e) = call(&srv, id, what, json!({}));
        assert_eq!(code, 400, "{e}");
        assert!(e["error"].as_str().unwrap().contains("two seats"), "{e}");
    }
}

#[test]
fn draws_are_agreed_between_people_and_declined_by_the_engine_by_its_rule() {
    let srv = server();
    let st = new_game(&srv, people(Value::Null));
    let id = st["id"].as_str().unwrap();
    let (_, a) = call(&srv, id, "draw", json!({ "seat": 0 }));
    assert_eq!(a["draw"], "offered", "{a}");
    assert_eq!(a["state"]["draw_offer"], 0);
    call(&srv, id, "move", json!({ "move": "e4" }));
    let (_, a) = call(&srv, id, "draw", json!({ "seat": 1 }));
    assert_eq!(
        a["draw"], "offered",
        "the move let White's offer lapse: {a}"
    );
    let (_, a) = call(&srv, id, "draw", json!({ "seat": 0 }));
    assert_eq!(a["draw"], "accepted", "{a}");
    assert_eq!(a["state"]["result"]["score"], "1/2-1/2");
    assert_eq!(a["state"]["result"]["reason"], "draw agreed");
    let st = new_game(
        &srv,
        json!({ "game": "chess", "seats": [{ "kind": "human" }, { "kind": "engine", "movetime_ms": 5 }] }),
    );
    let id = st["id"].as_str().unwrap();
    call(&srv, id, "move", json!({ "move": "e4" }));
    call(&srv, id, "engine", json!({}));
    let (code, a) = call(&srv, id, "draw", json!({}));
    assert_eq!(code, 200);
    assert_eq!(a["draw"], "declined", "{a}");
    assert!(a["why"].as_str().unwrap().contains("move 31"), "{a}");
    assert_eq!(a["state"]["result"], Value::Null);
}

/// A Chamäleon game of `n` people on a clock of `base_ms`.
fn chamaeleon_people(n: usize, base_ms: u64) -> Value {
    let seats: Vec<Value> = (0..n).map(|_| json!({ "kind": "human" })).collect();
    json!({ "game": "chamaeleon", "variant": format!("chamaeleon{n}"), "seats": seats,
            "clock": { "base_ms": base_ms } })
}

#[test]
fn a_flag_where_the_other_side_cannot_win_is_a_draw() {
    let srv = server();
    // White has a rook, Black the king alone; Black's first move starts White's clock.
    let fen = "4k3/8/8/8/8/8/8/R3K3";
    let mut body = people(json!({ "base_ms": 300 }));
    body["fen"] = json!(format!("{fen} b - - 0 1"));
    let id = new_game(&srv, body)["id"].as_str().unwrap().to_string();
    call(&srv, &id, "move", json!({ "move": "Kd8" }));
    std::thread::sleep(Duration::from_millis(500));
    let (_, st) = get(srv.addr, &format!("/api/game/{id}"));
    assert_eq!(st["result"]["score"], "1/2-1/2", "{st}");
    assert_eq!(
        st["result"]["reason"],
        "White ran out of time, but Black cannot win: a draw"
    );
    // The other way round the rook wins on time.
    let mut body = people(json!({ "base_ms": 300 }));
    body["fen"] = json!(format!("{fen} w - - 0 1"));
    let id = new_game(&srv, body)["id"].as_str().unwrap().to_string();
    call(&srv, &id, "move", json!({ "move": "Ra2" }));
    std::thread::sleep(Duration::from_millis(500));
    let (_, st) = get(srv.addr, &format!("/api/game/{id}"));
    assert_eq!(st["result"]["score"], "1-0", "{st}");
    assert_eq!(st["result"]["reason"], "Black loses on time");
}

#[test]
fn in_a_four_seat_game_a_fallen_flag_puts_that_player_out_and_the_others_play_on() {
    let srv = server();
    let st = new_game(&srv, chamaeleon_people(4, 1000));
    let id = st["id"].as_str().unwrap().to_string();
    assert_eq!(st["clock"]["left_ms"].as_array().unwrap().len(), 4, "{st}");
    assert_eq!(st["clock"]["left_ms"][3], 1000, "{st}");
    let south = st["legal"][0]["move"].as_str().unwrap().to_string();
    let (code, st) = call(&srv, &id, "move", json!({ "move": south }));
    assert_eq!(code, 200, "{st}");
    assert_eq!(st["clock"]["running"], 1, "West's clock runs");
    let moved = Instant::now();
    std::thread::sleep(Duration::from_millis(1300));
    let (_, st) = get(srv.addr, &format!("/api/game/{id}"));
    let since_fall = moved.elapsed().as_millis() as u64 - 1000;
    assert_eq!(st["result"], Value::Null, "three play on: {st}");
    assert_eq!(st["in_game"], json!([true, false, true, true]), "{st}");
    let rows = st["board"]["rows"].to_string();
    assert!(!rows.contains("\"w"), "West's pieces are off: {rows}");
    assert_eq!(st["to_move"], 2, "North moves");
    assert_eq!(st["clock"]["running"], 2);
    assert_eq!(st["clock"]["left_ms"][1], 0);
    let north = st["clock"]["left_ms"][2].as_u64().unwrap();
    assert!(
        north <= 1000 - since_fall + 200 && north + 300 >= 1000 - since_fall,
        "North's clock runs from West's flag, {since_fall} ms ago: {st}"
    );
    // A take-back does not bring West back; West's turn is skipped.
    let north_move = st["legal"][0]["move"].as_str().unwrap().to_string();
    let (code, st) = call(&srv, &id, "move", json!({ "move": north_move }));
    assert_eq!(code, 200, "{st}");
    assert_eq!(st["to_move"], 3, "East after North");
    let (_, st) = call(&srv, &id, "undo", json!({}));
    assert_eq!(st["in_game"], json!([true, false, true, true]), "{st}");
    assert_eq!(st["to_move"], 2, "{st}");
    let (_, st) = call(&srv, &id, "undo", json!({}));
    assert_eq!(
        st["in_game"][1], false,
        "back at the start, still out: {st}"
    );
    assert_eq!(st["to_move"], 0, "{st}");
    let south = st["legal"][0]["move"].as_str().unwrap().to_string();
    let (_, st) = call(&srv, &id, "move", json!({ "move": south }));
    assert_eq!(st["to_move"], 2, "West, out, is passed over: {st}");
}

#[test]
fn the_last_player_left_on_the_clock_wins() {
    let srv = server();
    let st = new_game(&srv, chamaeleon_people(3, 500));
    let id = st["id"].as_str().unwrap().to_string();
    let south = st["legal"][0]["move"].as_str().unwrap().to_string();
    call(&srv, &id, "move", json!({ "move": south }));
    // West's flag falls after 0.5 s, North's 0.5 s later: South is the last one left.
    std::thread::sleep(Duration::from_millis(1400));
    let (_, st) = get(srv.addr, &format!("/api/game/{id}"));
    assert_eq!(st["result"]["score"], "South wins", "{st}");
    assert_eq!(
        st["result"]["reason"],
        "every other player is out (West, North out of time)"
    );
    assert_eq!(st["to_move"], Value::Null);
    assert_eq!(st["clock"]["running"], Value::Null);
    assert_eq!(st["clock"]["left_ms"][1], 0);
    assert_eq!(st["clock"]["left_ms"][2], 0);
    let (code, e) = call(&srv, &id, "move", json!({ "move": "a1b3" }));
    assert_eq!(code, 400, "{e}");
    let (_, pgn) = request(srv.addr, "GET", &format!("/api/game/{id}/pgn"), None);
    assert!(pgn.contains("{West is out on time}"), "{pgn}");
    assert!(pgn.contains("{North is out on time}"), "{pgn}");
    assert!(pgn.contains("[Result \"South wins\"]"), "{pgn}");
}

#[test]
fn engine_seats_of_a_three_seat_game_think_by_their_clocks() {
    let srv = server();
    let mut body = chamaeleon_people(3, 2000);
    body["seats"][0] = json!({ "kind": "engine", "movetime_ms": 5000 });
    let id = new_game(&srv, body)["id"].as_str().unwrap().to_string();
    let t = Instant::now();
    let (code, answer) = call(&srv, &id, "engine", json!({}));
    assert_eq!(code, 200, "{answer}");
    assert!(answer["move"].is_string(), "{answer}");
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "the clock's share of 2 s, not the seat's 5 s: {:?}",
        t.elapsed()
    );
    assert_eq!(answer["state"]["clock"]["running"], 1, "{answer}");
    let (code, e) = call(&srv, &id, "engine", json!({ "movetime_ms": 100 }));
    assert_eq!(code, 400, "{e}");
}

/// No clock runs before the first move (lichess starts the clocks with the moves): a game
/// left alone keeps its full time and never flags; the first move is not charged and starts
/// the other clock. The PGN of a timed game carries its `TimeControl` and each move's
/// `[%clk]` (the mover's time after it), and an engine's real think time (`[%emt]`); the
/// engine seat's name says it thinks by its clock.
#[test]
fn no_clock_runs_before_the_first_move_and_the_pgn_has_the_clocks() {
    let srv = server();
    let st = new_game(
        &srv,
        json!({ "game": "chess", "clock": { "base_ms": 300, "inc_ms": 1000 },
                "seats": [{ "kind": "human" }, { "kind": "engine", "movetime_ms": 5000 }] }),
    );
    let id = st["id"].as_str().unwrap();
    assert_eq!(st["clock"]["running"], Value::Null, "{st}");
    std::thread::sleep(Duration::from_millis(500));
    let (_, st) = get(srv.addr, &format!("/api/game/{id}"));
    assert_eq!(
        st["result"],
        Value::Null,
        "no flag before the first move: {st}"
    );
    assert_eq!(st["clock"]["left_ms"], json!([300, 300]), "{st}");
    let (_, st) = call(&srv, id, "move", json!({ "move": "e4" }));
    assert_eq!(
        st["clock"]["left_ms"][0], 1300,
        "the first move is free: {st}"
    );
    assert_eq!(st["clock"]["running"], 1);
    let (code, r) = call(&srv, id, "engine", json!({}));
    assert_eq!(code, 200, "{r}");
    let (_, pgn) = request(srv.addr, "GET", &format!("/api/game/{id}/pgn"), None);
    assert!(pgn.contains("[TimeControl \"0.3+1\"]"), "{pgn}");
    assert!(pgn.contains("[Black \"kiebitz by its clock\"]"), "{pgn}");
    // The engine's evaluation of the position after e4 comes first: `{[%eval …] [%clk …]}`.
    assert!(
        pgn.contains("1. e4 {[%eval ") && pgn.contains(" [%clk 0:00:01.3]} 1... "),
        "{pgn}"
    );
    let black = pgn
        .split("1... ")
        .nth(1)
        .expect("Black's move with its comment");
    assert!(
        black.contains("[%clk 0:00:01.") && black.contains("[%emt 0:00:00."),
        "{pgn}"
    );
    let st = new_game(&srv, people(Value::Null));
    let (_, pgn) = request(
        srv.addr,
        "GET",
        &format!("/api/game/{}/pgn", st["id"].as_str().unwrap()),
        None,
    );
    assert!(pgn.contains("[TimeControl \"-\"]"), "{pgn}");
}
