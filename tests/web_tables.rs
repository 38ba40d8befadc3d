//! The web server with Räuberschach's endgame tables on (`--raeuber-tables N`): a position the
//! tables hold gets its exact value and distance from them, one with more pieces a checked
//! proof that ends in them, and the flag is refused where it does not belong. The tables
//! are the process's own, so this file holds what needs them apart from tests/web_api.rs.

mod common;

use std::net::SocketAddr;
use std::process::Command;
use std::time::{Duration, Instant};

use common::http::{get, post};
use kiebitz::game::{EndgameTables, TableBuilds};
use kiebitz::games::raeuber::Raeuber;
use kiebitz::web::{Background, Config};
use serde_json::{Value, json};

/// A new two-human Räuberschach game from `fen`; its solved value once known.
fn solved(a: SocketAddr, fen: &str) -> Value {
    let seats = json!([{ "kind": "human" }, { "kind": "human" }]);
    let new = json!({ "game": "raeuber", "fen": fen, "seats": seats });
    let (code, st) = post(a, "/api/new", &new);
    assert_eq!(code, 201, "{st}");
    let id = st["id"].as_str().unwrap().to_string();
    let start = Instant::now();
    loop {
        let (code, st) = get(a, &format!("/api/game/{id}"));
        assert_eq!(code, 200, "{st}");
        if st["solved"]["pending"] != true {
            return st["solved"].clone();
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{st}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn solved_values_come_from_the_tables_where_they_hold_the_position() {
    let built = Raeuber::use_tables(3, TableBuilds::Wait).expect("the tables");
    assert!(
        built.starts_with("endgame tables of up to 3 pieces"),
        "{built}"
    );
    let srv = Background::start("127.0.0.1:0", Config::default()).expect("server starts");
    let a = srv.addr;
    // White's king against rook and bishop: lost in 15 plies (the tables' own distance,
    // checked move by move and by the proof checker in src/games/raeuber/tables.rs).
    let s = solved(a, "6/3K2/6/6/1r4/4b1 w - - 0 1");
    assert_eq!(
        s,
        json!({ "value": "loss", "for": "White", "distance": 15,
                "source": "endgame tables (up to 3 pieces)" })
    );
    // Five pieces: beyond the tables, proven by df-pn whose leaves they are.
    let s = solved(a, "6/1k4/2p3/6/1B1N2/r1K3 w - - 0 1");
    assert_eq!(
        (&s["value"], &s["for"]),
        (&json!("loss"), &json!("White")),
        "{s}"
    );
    let source = s["source"].as_str().unwrap();
    assert!(
        source.starts_with("proof-number search, proof checked"),
        "{s}"
    );
    // Off again (solved values are kept per position: another ending), the solver alone
    // answers: a proof and no distance, or no value.
    assert_eq!(
        Raeuber::use_tables(0, TableBuilds::Wait),
        Ok("endgame tables off".to_string())
    );
    let s = solved(a, "6/2K3/6/6/1r4/4b1 w - - 0 1");
    assert!(s["distance"].is_null(), "{s}");
    assert!(!s.to_string().contains("endgame tables"), "{s}");
}

#[test]
fn the_flag_is_refused_where_it_does_not_belong() {
    for (bin, args, says) in [
        (
            env!("CARGO_BIN_EXE_kiebitz-chess"),
            ["web", "--raeuber-tables", "3"],
            "--raeuber-tables is for Räuberschach",
        ),
        (
            env!("CARGO_BIN_EXE_kiebitz-raeuber"),
            ["web", "--raeuber-tables", "6"],
            "endgame tables hold 1 to 5 pieces, not 6",
        ),
    ] {
        let out = Command::new(bin).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(out.stdout.is_empty());
    }
}
