//! Regression tests for "Hardening, round 3" (issue 27): one test per fixed row of its table,
//! each built from the row's reproducer and failing on c90148c. Every binary runs under a
//! 2 GiB address-space limit and a 120 s deadline (`ulimit -v`, `timeout`), so that a
//! regression to an unbounded read or allocation fails fast instead of taking the machine's
//! memory, and a hang fails instead of blocking the suite.

mod common;
mod protocol_io;

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use kiebitz::game::Game;
use kiebitz::games::crash::Crash;
use kiebitz::perft::perft;
use protocol_io::{Client, Server, TIMEOUT};

/// The address-space limit of every binary run here, in KiB (2 GiB).
const MEMORY_KIB: u64 = 2 << 20;
/// The deadline of every binary run here, in seconds.
const DEADLINE_SECS: u64 = 120;

/// Runs binary `name` with `args` and the extra environment `env` under the memory limit and
/// the deadline; stdout goes to `/dev/full` when `full` is set (a disk that is full).
fn run_env(name: &str, args: &[&str], env: &[(&str, &str)], full: bool) -> Output {
    let script =
        format!("ulimit -v {MEMORY_KIB} && exec timeout -s KILL {DEADLINE_SECS} \"$0\" \"$@\"");
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(script)
        .arg(common::binary(name))
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::null());
    if full {
        let dev_full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        cmd.stdout(dev_full);
    }
    cmd.output().expect("sh runs")
}

fn run(name: &str, args: &[&str]) -> Output {
    run_env(name, args, &[], false)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A clean refusal: an exit code other than 0 (and not a panic's 101, a signal or the
/// deadline), no panic message, and `says` on stderr.
fn assert_refused(o: &Output, says: &str, what: &str) {
    let err = stderr(o);
    let code = o.status.code();
    assert!(
        matches!(code, Some(c) if c != 0 && c != 101 && c != 137),
        "{what}: exit {:?} (a clean error was expected)\n{err}",
        o.status
    );
    assert!(!err.contains("panicked"), "{what}: panicked\n{err}");
    assert!(err.contains(says), "{what}: stderr lacks '{says}'\n{err}");
}

fn temp(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("kiebitz-round3-{}-{name}", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

/// Perft of a CRASH! row by plain recursion on `i64` heights, independent of the engine's
/// `i32` towers: (cell, h) moves, enemy towers replaced by one stone.
fn perft_i64(row: &[i64], white: bool, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let sign = if white { 1 } else { -1 };
    let (own, theirs): (i64, i64) = row.iter().fold((0, 0), |(o, t), &h| {
        if h * sign > 0 {
            (o + h.abs(), t)
        } else {
            (o, t + h.abs())
        }
    });
    if own == 0 || theirs == 0 {
        return 0;
    }
    let m = row.len() as i64;
    let mut total = 0;
    for cell in 0..m {
        let h = row[cell as usize];
        if h * sign <= 0 {
            continue;
        }
        let room = if white { m - 1 - cell } else { cell };
        for k in 1..=h.abs().min(room) {
            let mut next = row.to_vec();
            next[cell as usize] -= sign * k;
            for s in 1..=k {
                let c = (cell + sign * s) as usize;
                next[c] = if next[c] * sign < 0 {
                    sign
                } else {
                    next[c] + sign
                };
            }
            total += perft_i64(&next, !white, depth - 1);
        }
    }
    total
}

// F1: CRASH! tower heights overflowed `i32` silently.

#[test]
fn f1_crash_tower_heights_cannot_overflow() {
    // 1 + 2147483647 stones would make one tower of 2^31: refused, by the library and the CLI.
    let e = Crash::parse("W1W2147483647.B1 w")
        .expect_err("a tower could overflow")
        .to_string();
    assert!(e.contains("2147483647"), "{e}");
    assert!(Crash::from_fen("crash", "W1W2147483647.B1 w").is_err());
    let o = run(
        "kiebitz-crash",
        &["perft", "3", "--fen", "W1W2147483647.B1 w"],
    );
    assert_refused(&o, "at most 2147483647 a side", "crash perft");
    // The largest total a side may have plays by the rules: perft agrees with i64 towers.
    let pos = Crash::parse("W1W2147483646.B1 w").expect("2^31 - 1 stones fit");
    let row: Vec<i64> = pos.row().iter().map(|&h| i64::from(h)).collect();
    for depth in 1..=4 {
        assert_eq!(
            perft(&pos, depth),
            perft_i64(&row, true, depth),
            "depth {depth}"
        );
    }
    // The referee never sees the position: an openings file holding it is refused.
    let book = temp("overflow.epd");
    std::fs::write(&book, "W1W2147483647.B1 w\n").unwrap();
    let engine = common::binary("kiebitz-crash").display().to_string();
    let cmd = format!("cmd={engine}");
    let o = run(
        "kiebitz-match",
        &[
            "--game",
            "crash",
            "--engine",
            &cmd,
            "--engine",
            &cmd,
            "--depth",
            "1",
            "--openings",
            &book,
            "--games",
            "1",
        ],
    );
    let _ = std::fs::remove_file(&book);
    assert_refused(&o, "2147483647", "kiebitz-match --openings");
}

// F2: `solve --budget 1e19` panicked in `Duration::from_secs_f64`.

#[test]
fn f2_solve_refuses_budgets_a_duration_cannot_hold() {
    for budget in ["1e19", "1e300", "inf", "NaN"] {
        let o = run("kiebitz-raeuber", &["solve", "--budget", budget]);
        assert_refused(&o, "31536000", &format!("solve --budget {budget}"));
    }
    let o = run("kiebitz-raeuber", &["solve", "--budget=-1"]);
    assert_refused(&o, "positive", "solve --budget -1");
}

// F3: `solve --hash 65536` aborted on a 40 GB allocation.

#[test]
fn f3_solve_refuses_a_table_it_cannot_allocate() {
    let o = run(
        "kiebitz-raeuber",
        &["solve", "--hash", "65536", "--nodes", "10"],
    );
    assert_refused(
        &o,
        "cannot allocate the solver's table",
        "solve --hash 65536",
    );
    assert!(stderr(&o).contains("--hash"), "{}", stderr(&o));
    // A table that fits still solves.
    let o = run(
        "kiebitz-raeuber",
        &[
            "solve",
            "--hash",
            "64",
            "--fen",
            "k5/6/6/6/6/R5 w - - 0 1",
            "--nodes",
            "1000",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(common::stdout(&o).contains("result    loss"));
}

// F9: a failing stdout panicked or exited 0.

#[test]
fn f9_a_full_stdout_is_an_error() {
    let proof = temp("proof.txt");
    std::fs::write(
        &proof,
        "kiebitz-proof 1\nvariant raeuberschach\nroot k5/6/6/6/6/R5 w - - 0 1\nwinner black\n",
    )
    .unwrap();
    let engine = common::binary("kiebitz-chamaeleon").display().to_string();
    let cmd = format!("cmd={engine}");
    let cases: [(&str, Vec<&str>); 6] = [
        ("kiebitz-crash", vec!["theorems", "--max-cells", "6"]),
        ("kiebitz-crash", vec!["analyze", "--n", "1", "--cells", "4"]),
        ("kiebitz-raeuber", vec!["solve", "--nodes", "100"]),
        ("kiebitz-raeuber", vec!["check-proof", &proof]),
        ("kiebitz-pawns", vec!["analyze", "--size", "3"]),
        (
            "kiebitz-match",
            vec![
                "--game",
                "chamaeleon",
                "--players",
                "2",
                "--engine",
                &cmd,
                "--engine",
                &cmd,
                "--tc",
                "0.001",
                "--games",
                "1",
            ],
        ),
    ];
    for (binary, args) in &cases {
        // The command works with a writable stdout …
        let o = run(binary, args);
        assert!(o.status.success(), "{binary} {args:?}: {}", stderr(&o));
        assert!(!o.stdout.is_empty(), "{binary} {args:?}: no output");
        // … and reports the full disk instead of panicking or claiming success.
        let o = run_env(binary, args, &[], true);
        assert_refused(
            &o,
            "No space left on device",
            &format!("{binary} {args:?} > /dev/full"),
        );
    }
    let _ = std::fs::remove_file(&proof);
}

// F10: time arguments like 1e20 made `Duration` panic.

#[test]
fn f10_huge_time_arguments_are_refused() {
    let pawns = format!("cmd={}", common::binary("kiebitz-pawns").display());
    let two = [
        "--game", "pawns", "--engine", &pawns, "--engine", &pawns, "--games", "1",
    ];
    for extra in [
        &["--st", "1e20"][..],
        &["--tc", "1e20"],
        &["--tc", "1+1e20"],
        &["--tc", "40/1e20"],
        &["--timeout", "1e20"],
        &["--movetime", "18446744073709551615"],
        &["--timemargin", "18446744073709551615", "--depth", "1"],
    ] {
        let args: Vec<&str> = two.iter().chain(extra).copied().collect();
        let o = run("kiebitz-match", &args);
        assert_refused(&o, "31536000", &format!("kiebitz-match {extra:?}"));
    }
    let cham = format!("cmd={}", common::binary("kiebitz-chamaeleon").display());
    for extra in [
        &["--tc", "1e20"][..],
        &["--clock", "1e20+0"],
        &["--clock", "1+1e20"],
    ] {
        let mut args = vec!["--game", "chamaeleon", "--engine", &cham, "--engine", &cham];
        args.extend(extra);
        let o = run("kiebitz-match", &args);
        assert_refused(&o, "31536000", &format!("N-seat kiebitz-match {extra:?}"));
    }
    // `play`: the N-seat engine moved with `Duration::from_secs_f64(1e20)`.
    let o = run("kiebitz-chamaeleon", &["play", "--tc", "1e20", "--plain"]);
    assert_refused(&o, "31536000", "kiebitz-chamaeleon play --tc 1e20");
    let o = run("kiebitz-chess", &["play", "--tc", "1e20"]);
    assert_refused(&o, "31536000", "kiebitz-chess play --tc 1e20");
}

// F15: never-ending inputs were read without bound.

#[test]
fn f15_never_ending_inputs_are_refused_with_the_limit() {
    let o = run("kiebitz-crash", &["--db", "/dev/zero", "perft", "1"]);
    assert_refused(&o, "not a regular file", "crash --db /dev/zero");
    let o = run("kiebitz-raeuber", &["check-proof", "/dev/zero"]);
    assert_refused(&o, "268435456 bytes (256 MiB)", "check-proof /dev/zero");
    let o = run(
        "kiebitz-match",
        &["--game", "pawns", "--check-pgn", "/dev/zero"],
    );
    assert_refused(&o, "268435456 bytes (256 MiB)", "--check-pgn /dev/zero");
    let pawns = format!("cmd={}", common::binary("kiebitz-pawns").display());
    let o = run(
        "kiebitz-match",
        &[
            "--game",
            "pawns",
            "--engine",
            &pawns,
            "--engine",
            &pawns,
            "--depth",
            "1",
            "--openings",
            "/dev/zero",
        ],
    );
    assert_refused(&o, "67108864 bytes (64 MiB)", "--openings /dev/zero");
    // A bad KIEBITZ_EVAL is reported and the hand-made weights are kept (the bench with the
    // hand-made evaluation, which reads them when it first evaluates).
    let o = run_env(
        "kiebitz-chess",
        &["bench", "1", "--option", "Use NNUE=false"],
        &[("KIEBITZ_EVAL", "/dev/zero")],
        false,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Since round 5 a device is refused before a byte is read (files::read_text).
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    // A database whose header is right but whose data never ends: no more is read than the
    // header announces.
    let db = temp("grown.db");
    let o = run(
        "kiebitz-crash",
        &["analyze", "--n", "1", "--cells", "4", "--out", &db],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut bytes = std::fs::read(&db).unwrap();
    bytes.extend(std::iter::repeat_n(0u8, 1000));
    std::fs::write(&db, &bytes).unwrap();
    let o = run("kiebitz-crash", &["--db", &db, "perft", "1"]);
    let _ = std::fs::remove_file(&db);
    assert_refused(
        &o,
        "the 12 entries its header announces",
        "crash --db grown file",
    );
}

// F14: Ctrl-C gave no partial result.

/// Runs binary `name` with `args`, sends it SIGINT (Ctrl-C) after `after`, and returns what
/// it wrote and how it ended (killed after 60 s more, failing the test, if it does not end).
fn interrupt(name: &str, args: &[&str], after: Duration) -> Output {
    let child = Command::new(common::binary(name))
        .args(args)
        .env("KIEBITZ_PROGRESS", "off")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let pid = child.id();
    std::thread::sleep(after);
    let sent = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "cannot send SIGINT to {name}");
    let watchdog = std::thread::spawn(move || {
        let end = Instant::now() + Duration::from_secs(60);
        while Instant::now() < end {
            std::thread::sleep(Duration::from_millis(100));
            // The process is gone once its pid is no longer ours to signal.
            let alive = Command::new("kill")
                .args(["-0", &pid.to_string()])
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !alive {
                return false;
            }
        }
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
        true
    });
    let out = child.wait_with_output().expect("output");
    assert!(!watchdog.join().unwrap(), "{name} did not end after Ctrl-C");
    out
}

#[test]
fn f14_ctrl_c_prints_the_partial_result() {
    // `solve` stops its search and prints its report: the attempts' figures so far.
    let o = interrupt(
        "kiebitz-raeuber",
        &["solve", "--budget", "600"],
        Duration::from_secs(2),
    );
    let (out, err) = (common::stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(130), "{out}\n{err}");
    assert!(out.contains("result    unknown"), "{out}\n{err}");
    assert!(
        out.contains("attempt   win for the side to move"),
        "{out}\n{err}"
    );
    assert!(err.contains("interrupted"), "{err}");
    // `crash analyze` says how far its scan got and that nothing was written.
    let o = interrupt(
        "kiebitz-crash",
        &["analyze", "--n", "7", "--cells", "12"],
        Duration::from_secs(2),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("the scan had reached entry"), "{err}");
    assert!(err.contains("no database written"), "{err}");
}

#[test]
fn f14_ctrl_c_prints_the_partial_result_of_theorems_perft_and_the_nseat_match() {
    // `crash theorems` prints the report of the boards already done.
    let o = interrupt(
        "kiebitz-crash",
        &["theorems", "--max-cells", "40"],
        Duration::from_secs(3),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("theorems: boards m = 2.."), "{err}");
    assert!(err.contains("1-vs-1: the side to move wins"), "{err}");
    // Chamäleon's perft prints the root moves counted and their partial total. Perft 8 takes
    // 46 s on a fast idle machine (perft 7, used before, took 1.9 s there and finished before
    // the interrupt): after 6 s it has counted a few root moves or, on a slow machine, none,
    // and it says which.
    let o = interrupt(
        "kiebitz-chamaeleon",
        &["perft", "8"],
        Duration::from_secs(6),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("root moves counted"), "{err}");
    assert!(
        err.contains("perft 8: 0 of ") || err.contains("partial total: "),
        "{err}"
    );
    // The N-seat match prints the table of the games finished.
    let engine = common::binary("kiebitz-chamaeleon").display().to_string();
    let cmd = format!("cmd={engine}");
    let o = interrupt(
        "kiebitz-match",
        &[
            "--game",
            "chamaeleon",
            "--players",
            "2",
            "--engine",
            &cmd,
            "--engine",
            &cmd,
            "--tc",
            "0.001",
            "--rounds",
            "100000",
        ],
        Duration::from_secs(6),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted; known so far:"), "{err}");
    assert!(err.contains("games played"), "{err}");
}

// What the abuse suite (tests/fuzz_cli.rs) found: a perft depth that overflowed the stack,
// and a game in the terminal that lost its output on a full stdout and exited 0.

#[test]
fn fuzz_findings_perft_depth_and_play_on_a_full_stdout() {
    for (binary, _) in common::engines() {
        let o = run(binary, &["perft", "4000000000"]);
        assert_refused(&o, "perft depth must be 0 to 30", binary);
    }
    for binary in ["kiebitz-pawns", "kiebitz-crash"] {
        let o = run_env(binary, &["play"], &[], true);
        assert_refused(
            &o,
            "No space left on device",
            &format!("{binary} play > /dev/full"),
        );
    }
}

// The N-seat server, protocol and match runner (F5–F8, F11, F13).

/// An N-seat session on `addr`, once the server has a slot.
fn nseat_session(addr: &str) -> Client {
    let mut c = Client::connect(addr);
    c.send("uci");
    c.expect_prefix("uciok");
    c
}

#[test]
fn f5_the_nseat_server_has_the_two_player_limits() {
    let chamaeleon = common::binary("kiebitz-chamaeleon");
    // Memory: every session's table comes from --max-hash.
    let s = Server::start(&chamaeleon, &["--hash", "4", "--max-hash", "8"]);
    let mut a = nseat_session(&s.addr);
    a.send("setoption name Hash value 4096");
    let msg = a.expect_prefix("info string Hash");
    assert!(msg.ends_with("8 MB"), "{msg}");
    let mut b = nseat_session(&s.addr);
    b.send("setoption name Hash value 16");
    let msg = b.expect_prefix("info string Hash");
    assert!(msg.ends_with("1 MB"), "{msg}");
    // Line length: an overlong line is refused, the session goes on.
    let long = "x".repeat(2 << 20);
    b.send(&long);
    let msg = b.expect_prefix("info string error");
    assert!(msg.contains("line longer than"), "{msg}");
    assert_eq!(b.ask("isready"), "readyok");
    drop((a, b, s));
    // Time: the ceiling ends `go infinite` and `go perft`.
    let s = Server::start(&chamaeleon, &["--max-search-time", "1"]);
    let mut c = nseat_session(&s.addr);
    let start = Instant::now();
    c.send("go infinite");
    c.expect_prefix("bestmove");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    c.send("go perft 30");
    c.expect_prefix("info string perft 30 stopped");
    drop((c, s));
    // Sessions and silence: a silent client loses its only slot.
    let s = Server::start(&chamaeleon, &["--max-sessions", "1", "--idle-timeout", "1"]);
    let mut silent = Client::connect(&s.addr);
    assert!(
        silent.closed_within(TIMEOUT),
        "the silent client keeps its slot"
    );
    let mut c = nseat_session(&s.addr);
    assert_eq!(c.ask("isready"), "readyok");
}

/// Writes an executable shell script named `name` with `body`; returns its path.
fn script(name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = temp(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `kiebitz-match --game chamaeleon --players 2` between `a` and `b` (engine commands),
/// with `extra` arguments.
fn nseat_match(a: &str, b: &str, extra: &[&str], full: bool) -> Output {
    let (a, b) = (format!("cmd={a}"), format!("cmd={b}"));
    let mut args = vec![
        "--game",
        "chamaeleon",
        "--players",
        "2",
        "--engine",
        &a,
        "--engine",
        &b,
    ];
    args.extend_from_slice(extra);
    run_env("kiebitz-match", &args, &[], full)
}

#[test]
fn f6_a_flooding_engine_cannot_fill_the_runners_memory() {
    // Answers the handshake, then sends one endless line instead of a move.
    let flood = script(
        "flood.sh",
        "while read -r line; do case \"$line\" in\n\
         uci) echo uciok;;\n isready) echo readyok;;\n go*) exec cat /dev/zero;;\n\
         esac; done\n",
    );
    let engine = common::binary("kiebitz-chamaeleon").display().to_string();
    let o = nseat_match(&flood, &engine, &["--tc", "0.2", "--games", "2"], false);
    let err = stderr(&o);
    assert!(o.status.success(), "{:?}\n{err}", o.status);
    assert!(err.contains("forfeit"), "{err}");
    assert!(common::stdout(&o).contains("2 games"), "{err}");
    let _ = std::fs::remove_file(&flood);
}

#[test]
fn f7_a_pgn_that_cannot_be_written_is_an_error() {
    let engine = common::binary("kiebitz-chamaeleon").display().to_string();
    let o = nseat_match(
        &engine,
        &engine,
        &["--tc", "0.001", "--games", "3", "--pgn", "/dev/full"],
        false,
    );
    // Since round 5 a device is refused before the first game (files::append), where the
    // match used to stop at its first lost game.
    assert_refused(&o, "not a regular file", "--pgn /dev/full");
    assert!(!stderr(&o).contains("stopped after"), "{}", stderr(&o));
}

#[test]
fn f8_rounds_cost_nothing_before_play() {
    let engine = common::binary("kiebitz-chamaeleon").display().to_string();
    // 2 × 10^8 games announced, one played: no list of games is built first.
    let o = nseat_match(
        &engine,
        &engine,
        &["--tc", "0.001", "--rounds", "100000000", "--games", "1"],
        false,
    );
    assert!(o.status.success(), "{:?}\n{}", o.status, stderr(&o));
    assert!(common::stdout(&o).starts_with("1 games"), "{}", stderr(&o));
    // Beyond the most games one tournament plays: refused at once.
    for rounds in ["1000000000000", "18446744073709551615"] {
        let o = nseat_match(&engine, &engine, &["--rounds", rounds], false);
        assert_refused(&o, "at most 1000000000", &format!("--rounds {rounds}"));
    }
    let o = nseat_match(&engine, &engine, &["--concurrency", "100000"], false);
    assert_refused(&o, "--concurrency must be 1 to 256", "--concurrency 100000");
}

/// A Chamäleon position two turns before the end: the search has nothing left to do at once.
const LATE: &str = "wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h8 swne s 98";

#[test]
fn f11_nseat_go_infinite_waits_for_stop() {
    let mut c = Client::spawn(&common::binary("kiebitz-chamaeleon"), &[]);
    c.send("uci");
    c.expect_prefix("uciok");
    c.send(&format!("position fen {LATE}"));
    c.send("go infinite");
    c.expect_prefix("info depth");
    // The search is over at once, but the answer waits for `stop`.
    let end = Instant::now() + Duration::from_secs(1);
    let mut early = Vec::new();
    while let Some(l) = c.next_line(end.saturating_duration_since(Instant::now())) {
        early.push(l);
    }
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop: {early:?}"
    );
    c.send("stop");
    c.expect_prefix("bestmove");
    c.send("quit");
    assert!(c.wait_exit(TIMEOUT));
}

#[test]
fn f13_nseat_go_depth_finishes_when_stdin_ends() {
    let mut child = Command::new(common::binary("kiebitz-chamaeleon"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nposition startpos players 2\ngo depth 5\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let out = common::stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("info depth 5 "), "{out}");
    assert!(
        out.lines().last().unwrap_or("").starts_with("bestmove"),
        "{out}"
    );
    // An infinite search and a perft are stopped at the end of input.
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf 'uci\\ngo infinite\\n' | timeout 20 {}",
            common::binary("kiebitz-chamaeleon").display()
        ))
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", o.status);
    assert!(
        common::stdout(&o).contains("bestmove"),
        "{}",
        common::stdout(&o)
    );
}
