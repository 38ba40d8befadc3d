//! kiebitz-crash (docs/rules.md §9): every line of the perft reference by the library, the CLI and UCI
//! `go perft`; a second, independent move generator agreeing on random positions; a raw UCI
//! session (python-chess cannot parse `cell:h` moves); XBoard moves; bad input; `--db` files,
//! perfect play and `score mate`; `analyze --json`; `theorems`.

mod common;
mod protocol_io;

use std::process::{Command, Output};

use common::stdout;
use kiebitz::game::Game;
use kiebitz::games::crash::Crash;
use kiebitz::perft::perft;
use protocol_io::Client;

fn bin() -> std::path::PathBuf {
    common::binary("kiebitz-crash")
}

fn run(args: &[&str]) -> Output {
    common::run_binary("kiebitz-crash", args)
}

#[test]
fn perft_reference_by_the_library() {
    for c in common::perft_cases("crash-perft.txt") {
        let pos = Crash::from_fen(&c.variant, &c.fen).expect("reference position");
        assert_eq!(perft(&pos, c.depth), c.nodes, "{c:?}");
    }
}

#[test]
fn perft_reference_by_the_cli() {
    for c in common::perft_cases("crash-perft.txt") {
        let depth = c.depth.to_string();
        let o = run(&["perft", &depth, "--fen", &c.fen]);
        assert!(o.status.success(), "{c:?}");
        let out = stdout(&o);
        assert!(
            out.lines().any(|l| l == format!("Nodes: {}", c.nodes)),
            "{c:?}: {out}"
        );
    }
    // --start H:L is the start position's shorthand; divide lists cell:h moves.
    let o = run(&["perft", "3", "--start", "3:4", "--divide"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(&lines[..5], ["1:1: 9", "1:2: 8", "1:3: 6", "", "Nodes: 23"]);
}

fn uci() -> Client {
    let mut e = Client::spawn(&bin(), &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name kiebitz-crash")));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("UCI_Variant") && l.contains("crash"))
    );
    e
}

#[test]
fn perft_reference_by_go_perft() {
    let mut e = uci();
    for c in common::perft_cases("crash-perft.txt") {
        e.send(&format!("position fen {}", c.fen));
        e.send(&format!("go perft {}", c.depth));
        let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
        assert_eq!(
            lines.last().unwrap(),
            &format!("Nodes searched: {}", c.nodes),
            "{c:?}"
        );
        let sum: u64 = lines[..lines.len() - 1]
            .iter()
            .filter_map(|l| l.split_once(": ")?.1.parse::<u64>().ok())
            .sum();
        assert_eq!(sum, c.nodes, "divide lines add up: {c:?}");
    }
}

/// A second move generator written apart from the library: the row as a vector of signed
/// heights, moves applied by walking the cells, perft by plain recursion.
mod independent {
    pub fn moves(row: &[i64], white: bool) -> Vec<Vec<i64>> {
        let n = row.len() as i64;
        let dir: i64 = if white { 1 } else { -1 };
        let mine = |h: i64| if white { h > 0 } else { h < 0 };
        if !row.iter().any(|&h| h > 0) || !row.iter().any(|&h| h < 0) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for i in 0..n {
            let h = row[i as usize];
            if !mine(h) {
                continue;
            }
            for k in 1..=h.abs() {
                if i + dir * k < 0 || i + dir * k >= n {
                    break;
                }
                let mut next = row.to_vec();
                next[i as usize] -= dir * k;
                for j in 1..=k {
                    let c = (i + dir * j) as usize;
                    next[c] = if mine(next[c]) || next[c] == 0 {
                        next[c] + dir
                    } else {
                        dir
                    };
                }
                out.push(next);
            }
        }
        out
    }

    pub fn perft(row: &[i64], white: bool, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        moves(row, white)
            .iter()
            .map(|r| perft(r, !white, depth - 1))
            .sum()
    }
}

#[test]
fn an_independent_generator_agrees_on_random_positions() {
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut rnd = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut checked = 0;
    for _ in 0..300 {
        let m = 2 + rnd(20) as usize;
        let split = 1 + rnd(m as u64 - 1) as usize;
        let mut row = vec![0i64; m];
        for (c, h) in row.iter_mut().enumerate() {
            if rnd(3) == 0 {
                let n = 1 + rnd(4) as i64;
                *h = if c < split { n } else { -n };
            }
        }
        if !row.iter().any(|&h| h != 0) {
            continue;
        }
        let white = rnd(2) == 0;
        let text: String = row
            .iter()
            .map(|&h| match h {
                0 => ".".to_string(),
                h if h > 0 => format!("W{h}"),
                h => format!("B{}", -h),
            })
            .collect::<String>()
            + if white { " w" } else { " b" };
        let pos = Crash::from_fen("crash", &text).expect("random position");
        assert_eq!(pos.fen(), text);
        for depth in 1..=4 {
            assert_eq!(
                perft(&pos, depth),
                independent::perft(&row, white, depth),
                "{text} depth {depth}"
            );
        }
        checked += 1;
    }
    assert!(checked > 200);
}

#[test]
fn a_raw_uci_session() {
    let mut e = uci();
    e.send("isready");
    e.expect_prefix("readyok");
    e.send("ucinewgame");
    e.send("position startpos moves 1:1 6:2");
    e.send("go depth 5");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    assert!(lines.iter().any(|l| l.starts_with("info depth 5 ")));
    let best = lines.last().unwrap()["bestmove ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let pos = Crash::from_fen("crash", "W2W1.B1B1B1 w").unwrap();
    assert!(pos.parse_move(&best).is_ok(), "{best} in {}", pos.fen());
    // Bad input: clear errors, the position stays as it was.
    for bad in [
        "position fen W2.B1.W1 w",
        "position fen W0 w",
        "position fen X3 w",
        "position fen",
        &format!("position fen W1{}B1 w", ".".repeat(63)),
    ] {
        e.send(bad);
        let l = e.expect_prefix("info string error:");
        assert!(!l.contains("panic"), "{l}");
    }
    e.send("position fen W2.W1..B3 w moves 7:3");
    let l = e.expect_prefix("info string error:");
    assert!(l.contains("7:3") && l.contains("off the board"), "{l}");
    e.send("position fen W2.W1..B3 w moves 1:1 2:1");
    let l = e.expect_prefix("info string error:");
    assert!(l.contains("2:1") && l.contains("no tower of Black"), "{l}");
    // The legal prefix (1:1) was kept: Black to move with 3 moves.
    e.send("go perft 1");
    let l = e.expect_prefix("Nodes searched: ");
    assert_eq!(l, "Nodes searched: 3");
    // A decided position: bestmove (none) with a mate score.
    e.send("position fen W1.B1 w moves 1:1");
    e.send("go depth 3");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove 3:1");
    e.send("quit");
    assert!(e.wait_exit(protocol_io::TIMEOUT));
}

#[test]
fn xboard_plays_cell_moves() {
    let mut e = Client::spawn(&bin(), &[]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.read_until(|l| l.contains("done=1"));
    assert!(
        lines.iter().any(|l| l.contains("variants=\"crash\"")),
        "{lines:?}"
    );
    e.send("new");
    e.send("variant crash");
    e.send("force");
    e.send("setboard W1..B1 w");
    e.send("usermove 1:1");
    e.send("usermove 9:9");
    let l = e.expect_prefix("Illegal move");
    assert!(l.contains("9:9"), "{l}");
    e.send("go");
    // Black captures the last white stone: 4:2 wins (or 4:1 first).
    let mv = e.expect_prefix("move ");
    assert!(mv == "move 4:1", "{mv}");
    e.send("quit");
}

fn temp(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("kiebitz-crash-test-{}-{name}", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn databases_play_perfectly_and_report_mate() {
    let db = temp("n3m6.db");
    let o = run(&[
        "analyze", "--n", "3", "--cells", "6", "--json", "--out", &db,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["positions"], 1514);
    assert_eq!(v["n"], 3);
    assert!(v["wins_for_mover"].as_u64().unwrap() > 0);
    // W2.W1..B3 w is lost for White in 8 plies: mate -4 with the database.
    let mut e = Client::spawn(&bin(), &["--db", &db]);
    e.send("uci");
    e.expect_prefix("uciok");
    e.send("position fen W2.W1..B3 w");
    e.send("go depth 20");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    assert!(
        lines.iter().any(|l| l.contains("score mate -4")),
        "{lines:?}"
    );
    e.send("position fen W2.W1..B3 w moves 3:1");
    e.send("go depth 20");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    assert!(
        lines.iter().any(|l| l.contains("score mate 4")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap().split_whitespace().nth(1), Some("6:2"));
    e.send("quit");
    // Truncated and foreign files: a clear error, no panic.
    let bytes = std::fs::read(&db).unwrap();
    let cut = temp("cut.db");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let foreign = temp("foreign.db");
    std::fs::write(&foreign, b"not a database at all, just some text\n").unwrap();
    for (file, says) in [
        (&cut, "truncated"),
        (&foreign, "not a kiebitz CRASH! database"),
    ] {
        let o = run(&["--db", file, "perft", "1"]);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says) && !err.contains("panic"), "{err}");
    }
    let o = run(&["--db", "/nonexistent/x.db", "perft", "1"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
    for f in [db, cut, foreign] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn shell_errors() {
    for (args, says) in [
        (&["perft", "2", "--fen", "W2.B1.W1 w"][..], "right of Black"),
        (&["perft", "2", "--fen", "W0 w"], "1 to"),
        (&["perft", "2", "--fen", "X3 w"], "neither"),
        (&["perft", "2", "--fen", ""], "empty"),
        (&["perft", "2", "--start", "3"], "--start"),
        (&["analyze", "--n", "9", "--cells", "64"], "byte"),
        (&["analyze", "--cells", "65"], "2 to 64"),
    ] {
        let o = run(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(says) && !err.contains("panic"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn theorems_subcommand() {
    let o = run(&["theorems", "--max-cells", "8"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("1-vs-1"), "{out}");
    assert!(
        out.contains("Example W2.W1..B3 w: lost for White in 8 plies"),
        "{out}"
    );
}

#[test]
fn a_match_from_start_positions_and_check_pgn() {
    let openings = temp("openings.txt");
    std::fs::write(
        &openings,
        "# start positions and a position text\n3:2\nW2W1....B1B2 b\n",
    )
    .unwrap();
    let pgn = temp("match.pgn");
    let engine = format!("cmd={}", bin().display());
    let o = Command::new(common::binary("kiebitz-match"))
        .args([
            "--game",
            "crash",
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--depth",
            "4",
            "--games",
            "4",
            "--openings",
        ])
        .arg(format!("file={openings}"))
        .args(["--pgn", &pgn])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"crash\"]").count(), 4, "{text}");
    assert!(text.contains("[FEN \"W2W1....B1B2 b\"]"), "{text}");
    assert!(text.contains("has no stones left}"), "{text}");
    let o = Command::new(common::binary("kiebitz-match"))
        .args(["--game", "crash", "--check-pgn", &pgn])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("4 games, 0 wrong"));
    for f in [openings, pgn] {
        let _ = std::fs::remove_file(f);
    }
}
