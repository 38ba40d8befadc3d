//! The kept abuse suite of the shell (issue 27, item 4): every binary and every subcommand
//! run with hostile command lines — huge, negative, NaN and non-UTF-8 numbers, garbage and
//! edge-case FENs of every game (CRASH! and Chamäleon included), never-ending files
//! (`/dev/zero`) where a file is read, a full (`/dev/full`) or closed stdout, a never-ending
//! stdin, and Ctrl-C or SIGTERM in the middle of a long run.
//!
//! A run fails when it panics, dies of a signal of its own (a stack overflow, an abort on a
//! refused allocation under the 2 GiB address-space limit), or does not end within the
//! deadline after a signal. A run that is still working at the deadline is killed and counts
//! as passed: a valid but long command (`perft 30`) is not a failure, and the memory limit
//! catches an unbounded read. The inputs are a fixed list built from templates × hostile
//! values; the CI run takes every `KIEBITZ_FUZZ_STRIDE`-th of them (default 9) with a 2 s
//! deadline, `scripts/studies/fuzz-cli.sh` takes all of them with a longer one. Both print the
//! inputs tried per binary and the failures, each with its command line.
//! `KIEBITZ_FUZZ_BIN_DIR=DIR` runs the suite on the binaries in DIR (another build).

mod common;

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::ffi::OsStringExt;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The binary `name`: from `KIEBITZ_FUZZ_BIN_DIR` if set, else the one cargo built.
fn binary(name: &str) -> std::path::PathBuf {
    match std::env::var_os("KIEBITZ_FUZZ_BIN_DIR") {
        Some(dir) => std::path::PathBuf::from(dir).join(name),
        None => common::binary(name),
    }
}

/// The address-space limit of every run, in KiB (2 GiB).
const MEMORY_KIB: u64 = 2 << 20;

/// Where a run's stdout goes, and what it gets on stdin or by signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// stdout a pipe that is read, stdin empty.
    Plain,
    /// stdout `/dev/full` (a full disk).
    Full,
    /// stdout a pipe whose reader has gone.
    Closed,
    /// stdin `/dev/zero` (a never-ending input).
    Zero,
    /// Ctrl-C (SIGINT) after a moment; the run must end soon after.
    Interrupt,
    /// SIGTERM after a moment; the run must end soon after.
    Terminate,
}

/// One input: a binary, its arguments, extra environment and the mode.
#[derive(Clone, Debug)]
struct Case {
    binary: &'static str,
    args: Vec<OsString>,
    env: Vec<(&'static str, String)>,
    mode: Mode,
}

impl Case {
    fn text(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                let s = a.to_string_lossy();
                let short: String = s.chars().take(40).collect();
                if short.len() < s.len() {
                    format!("'{short}…'")
                } else {
                    format!("'{short}'")
                }
            })
            .collect();
        let env: Vec<String> = self.env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
        format!(
            "{}{} {} [{:?}]",
            env.join(""),
            self.binary,
            args.join(" "),
            self.mode
        )
    }
}

/// Hostile numbers for any numeric argument.
fn numbers() -> Vec<OsString> {
    let mut v: Vec<OsString> = [
        "0",
        "-1",
        "1",
        "4000000000",
        "2147483648",
        "4294967296",
        "18446744073709551616",
        "99999999999999999999999999",
        "1e20",
        "-1e20",
        "NaN",
        "inf",
        "-inf",
        "0x10",
        "",
        " 3",
        "3.5",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    v.push(OsString::from_vec(b"4\xff\xfe".to_vec()));
    v.push(OsString::from("9".repeat(5000)));
    v
}

/// Garbage for any text argument (FENs, names, addresses, seats).
fn garbage() -> Vec<OsString> {
    let mut v: Vec<OsString> = ["", " ", "-", "x", "w", "8/8/8/8/8/8/8/8 w - - 0 1"]
        .iter()
        .map(OsString::from)
        .collect();
    v.push(OsString::from_vec(b"\xc3\x28 \xff".to_vec()));
    v.push(OsString::from("K".repeat(100_000)));
    v.push(OsString::from("é/ü/ß/€ w - - 0 1"));
    v
}

/// FENs (and position texts) of every game: valid edge cases and broken ones.
fn fens(binary: &str) -> Vec<OsString> {
    let own: &[&str] = match binary {
        "kiebitz-chess" => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967296",
            "k7/8/8/8/8/8/8/K7 w - - 99999 1",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "KKKKKKKK/8/8/8/8/8/8/kkkkkkkk w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w KQkqAHah - 0 1",
        ],
        "kiebitz-antichess" => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "k7/8/8/8/8/8/8/K7 w - - 0 4294967296",
            "KKKKKKKK/KKKKKKKK/8/8/8/8/kkkkkkkk/kkkkkkkk w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/P7/8/8/8/8/8/k7 w - a9 0 1",
        ],
        "kiebitz-raeuber" => &[
            "rnbqkb/pppppp/6/6/PPPPPP/RNBQKB w - - 0 1",
            "k5/6/6/6/6/R5 w - - 0 1",
            "6/6/6/6/6/6 w - - 0 1",
            "kkkkkk/kkkkkk/kkkkkk/KKKKKK/KKKKKK/KKKKKK w - - 0 1",
            "rnbqkb/pppppp/6/6/PPPPPP/RNBQKB w - - -1 1",
        ],
        "kiebitz-pawns" => &[
            "pppppp/6/6/6/6/PPPPPP w - - 0 1",
            "ppp/3/PPP w - - 0 1",
            "p/P w - - 0 1",
            "pppppppppppppppppppppppppppppppp/32/PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP w - - 0 1",
            "ppp/3/PPP w - a9 0 1",
        ],
        "kiebitz-crash" => &[
            "W1..B1 w",
            "W1W2147483647.B1 w",
            "W99999999999.B1 w",
            "W0.B1 w",
            "B1..W1 b",
            "W1 w",
            "W1.................................................................B1 w",
            "W-5..B1 w",
        ],
        "kiebitz-chamaeleon" => &[
            "wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h8 swne s 98",
            "wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h8 swne s 4294967296",
            "wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-z9 swne s 0",
            "wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h8 ssss s 0",
            "8/8/8/8/8/8/8/8 a1-h8 swne s 0",
            "sR7/8/8/8/8/8/8/7nR a1-h8 sn n 0",
            "wB3nBnGnYnR/wG7 a1-h8 swne s 0",
        ],
        _ => &[],
    };
    let mut v: Vec<OsString> = own.iter().map(OsString::from).collect();
    v.extend(garbage());
    v
}

/// Files a command reads: never-ending, empty, missing, a directory, binary garbage, a FIFO
/// no writer holds, a sparse file of 2 GiB.
fn files(dir: &str) -> Vec<OsString> {
    vec![
        "/dev/zero".into(),
        "/dev/null".into(),
        "/no/such/file".into(),
        "/".into(),
        format!("{dir}/garbage.bin").into(),
        format!("{dir}/huge-line.txt").into(),
        format!("{dir}/fifo").into(),
        format!("{dir}/sparse.bin").into(),
    ]
}

/// Paths a command writes to: a full device, a folder, a path that cannot be made (below a
/// device: the suite runs as root in CI, and a missing folder would be created), a FIFO.
fn sinks(dir: &str) -> Vec<OsString> {
    vec![
        "/dev/full".into(),
        "/".into(),
        "/dev/null/out".into(),
        format!("{dir}/fifo").into(),
    ]
}

fn os(v: &[&str]) -> Vec<OsString> {
    v.iter().map(OsString::from).collect()
}

/// The hash and the `--listen` server's flags, which every engine binary takes.
fn listen_cases(add: &mut impl FnMut(&[&str], &[OsString]), n: &[OsString]) {
    add(&["--hash", "@"], n);
    let addresses = os(&["999999", "not an address", "1.2.3.4.5:6"]);
    add(&["--listen", "@"], &addresses);
    let sessions = os(&["0", "-1", "NaN"]);
    add(
        &["--listen", "127.0.0.1:0", "--max-sessions", "@"],
        &sessions,
    );
    let hash = os(&["0", "-1", "1e20"]);
    add(&["--listen", "127.0.0.1:0", "--max-hash", "@"], &hash);
}

/// `template` with each `values` in turn in place of the `@`.
fn each(template: &[&str], values: &[OsString]) -> Vec<Vec<OsString>> {
    values
        .iter()
        .map(|x| {
            template
                .iter()
                .map(|t| {
                    if *t == "@" {
                        x.clone()
                    } else {
                        OsString::from(t)
                    }
                })
                .collect()
        })
        .collect()
}

/// Every command line tried for `binary` (`dir`: the scratch directory, `engine`: a
/// Chamäleon engine and `pawns`: a two-player engine for the match runner).
fn command_lines(
    binary: &'static str,
    dir: &str,
    pawns: &str,
    chamaeleon: &str,
) -> Vec<Vec<OsString>> {
    let n = numbers();
    let g = garbage();
    let f = files(dir);
    let fen = fens(binary);
    let out = sinks(dir);
    let mut lines = Vec::new();
    let mut add = |t: &[&str], v: &[OsString]| lines.extend(each(t, v));
    match binary {
        "kiebitz-match" => {
            let p = format!("cmd={pawns}");
            let c = format!("cmd={chamaeleon}");
            let two = [
                "--game", "pawns", "--engine", &p, "--engine", &p, "--games", "1",
            ];
            let n_seat = [
                "--game",
                "chamaeleon",
                "--players",
                "2",
                "--engine",
                &c,
                "--engine",
                &c,
                "--games",
                "1",
            ];
            let with = |base: &[&str], tail: &[&str]| -> Vec<String> {
                base.iter().chain(tail).map(|s| s.to_string()).collect()
            };
            let t = |v: Vec<String>| v;
            for tail in [
                &["--tc", "@"][..],
                &["--st", "@"],
                &["--movetime", "@"],
                &["--depth", "@"],
                &["--nodes", "@"],
                &["--rounds", "@"],
                &["--games", "@"],
                &["--concurrency", "@"],
                &["--timemargin", "@"],
                &["--timeout", "@"],
                &["--maxmoves", "@"],
                &["--seed", "@"],
                &["--random-openings", "plies=@"],
                &["--draw", "movenumber=@", "movecount=@", "score=@"],
                &["--sprt", "elo0=@", "elo1=5", "alpha=@", "beta=0.05"],
            ] {
                let v = t(with(&two, tail));
                add(&v.iter().map(String::as_str).collect::<Vec<_>>(), &n);
            }
            for tail in [
                &["--tc", "@"][..],
                &["--clock", "@"],
                &["--players", "@"],
                &["--rounds", "@"],
                &["--games", "@"],
                &["--concurrency", "@"],
                &["--random-turns", "@"],
                &["--seed", "@"],
            ] {
                let v = t(with(&n_seat, tail));
                add(&v.iter().map(String::as_str).collect::<Vec<_>>(), &n);
            }
            let v = with(&two, &["--tc", "0.01", "--openings", "@"]);
            add(&v.iter().map(String::as_str).collect::<Vec<_>>(), &f);
            let v = with(&two, &["--tc", "0.01", "--pgn", "@"]);
            add(&v.iter().map(String::as_str).collect::<Vec<_>>(), &out);
            for flag in ["--epdout", "--report"] {
                let v = with(&two, &["--tc", "0.01", flag, "@"]);
                add(&v.iter().map(String::as_str).collect::<Vec<_>>(), &out);
            }
            let v = with(&n_seat, &["--tc", "0.001", "--pgn", "@"]);
            add(
                &v.iter().map(String::as_str).collect::<Vec<_>>(),
                &os(&["/dev/full", "/", "/dev/null/x.pgn"]),
            );
            add(&["--game", "pawns", "--check-pgn", "@"], &f);
            add(&["--game", "chess", "--check-pgn", "@"], &f);
            add(&["--game", "@"], &g);
            add(
                &[
                    "--game",
                    "pawns",
                    "--engine",
                    "@",
                    "--engine",
                    "cmd=/bin/true",
                ],
                &g,
            );
            add(
                &[
                    "--game",
                    "chamaeleon",
                    "--engine",
                    "@",
                    "--engine",
                    "cmd=/bin/true",
                ],
                &g,
            );
            add(&["--game", "pawns", "--variant", "@"], &g);
            add(&["@"], &g);
        }
        "kiebitz-chamaeleon" => {
            add(&["perft", "@"], &n);
            add(&["perft", "2", "--players", "@"], &n);
            add(&["perft", "2", "--fen", "@"], &fen);
            add(&["perft", "2", "--divide", "--fen", "@"], &fen);
            add(&["bench", "@"], &n);
            add(&["bench", "1", "--algorithm", "@"], &g);
            add(
                &["play", "--players", "@", "--seats", "none", "--tc", "0.01"],
                &n,
            );
            add(&["play", "--seats", "@", "--tc", "0.01"], &g);
            add(&["play", "--seats", "none", "--tc", "@"], &n);
            add(&["play", "--seats", "none", "--algorithm", "@"], &g);
            add(
                &["play", "--seats", "none", "--tc", "0.01", "--fen", "@"],
                &fen,
            );
            listen_cases(&mut add, &n);
            add(
                &["--listen", "127.0.0.1:0", "--write-timeout", "@"],
                &os(&["0", "-1"]),
            );
            add(&["@"], &g);
        }
        _ => {
            add(&["perft", "@"], &n);
            add(&["perft", "2", "--fen", "@"], &fen);
            add(&["perft", "2", "--variant", "@"], &g);
            add(&["perft", "1", "--divide", "--fen", "@"], &fen);
            add(&["bench", "@"], &n);
            add(&["bench", "1", "--threads", "@"], &n);
            add(&["bench", "1", "--hash", "@"], &n);
            add(&["suite", "@"], &f);
            add(
                &["suite", "@", "--nodes", "10"],
                &os(&[&format!("{dir}/suite.txt")]),
            );
            add(&["suite", &format!("{dir}/suite.txt"), "--nodes", "@"], &n);
            add(&["play", "--color", "@"], &g);
            add(&["play", "--fen", "@"], &fen);
            add(&["play", "--tc", "@"], &n);
            listen_cases(&mut add, &n);
            add(
                &["--listen", "127.0.0.1:0", "--idle-timeout", "@"],
                &os(&["-1", "NaN"]),
            );
            add(&["@"], &g);
            match binary {
                "kiebitz-raeuber" => {
                    add(&["solve", "--fen", "@", "--nodes", "1000"], &fen);
                    add(&["solve", "--budget", "@", "--nodes", "1000"], &n);
                    add(&["solve", "--nodes", "@", "--budget", "1"], &n);
                    add(&["solve", "--hash", "@", "--nodes", "1000"], &n);
                    add(
                        &["solve", "--fen", "k5/6/6/6/6/R5 w - - 0 1", "--proof", "@"],
                        &os(&["/dev/full", "/", "/dev/null/p.txt"]),
                    );
                    add(&["check-proof", "@"], &f);
                    add(&["units", "merge", "--dir", "@"], &f);
                    add(&["units", "merge", "--dir", &format!("{dir}/units")], &g);
                    add(
                        &["tables", "--pieces", "@", "--dir", &format!("{dir}/t")],
                        &n,
                    );
                    add(&["tables", "--pieces", "1", "--dir", "@"], &out);
                    add(&["join", "--out", "/dev/null", "@"], &f);
                    add(
                        &["join", "--out", "/dev/null", "--line", "@", "/dev/null"],
                        &g,
                    );
                }
                "kiebitz-pawns" => {
                    add(&["analyze", "--size", "@"], &n);
                    add(
                        &["analyze", "--size", "3", "--dot", "@"],
                        &os(&["/dev/full", "/"]),
                    );
                    add(
                        &["analyze", "--size", "3", "--json", "--enpassant", "@"],
                        &g,
                    );
                    add(&["check-proof", "@"], &f);
                    add(
                        &[
                            "solve",
                            "--variant",
                            "pawngame4",
                            "--compact",
                            "--lemmas",
                            "--proof",
                            "@",
                        ],
                        &out,
                    );
                    add(
                        &[
                            "solve",
                            "--variant",
                            "pawngame7",
                            "--fen",
                            "@",
                            "--budget",
                            "1",
                        ],
                        &fen,
                    );
                    add(
                        &[
                            "units",
                            "split",
                            "--variant",
                            "pawns4",
                            "--plies",
                            "@",
                            "--dir",
                            &format!("{dir}/u"),
                        ],
                        &n,
                    );
                    add(&["units", "merge", "--dir", "@"], &f);
                    add(&["units", "merge", "--dir", &format!("{dir}/units")], &g);
                }
                "kiebitz-crash" => {
                    add(&["analyze", "--n", "@", "--cells", "4"], &n);
                    add(&["analyze", "--n", "1", "--cells", "@"], &n);
                    add(&["theorems", "--max-cells", "@"], &n);
                    add(&["--db", "@", "perft", "1"], &f);
                    add(&["--start", "@", "perft", "1"], &g);
                    add(&["--start", "@", "perft", "1"], &n);
                }
                "kiebitz-chess" => {
                    add(&["perft", "1", "--variant", "chess960", "--fen", "@"], &fen);
                    let records = format!("{dir}/records.bin");
                    let data = [
                        "train", "--epochs", "1", "--hidden", "16", "--data", &records,
                    ];
                    for flag in [
                        "--lr",
                        "--lr-drop",
                        "--wdl",
                        "--validation",
                        "--batch",
                        "--hidden",
                    ] {
                        let mut t = data.to_vec();
                        t.extend(["--out", "/dev/null", flag, "@"]);
                        add(&t, &n);
                    }
                    add(&["train", "--out", "/dev/null", "--data", "@"], &f);
                    add(&[&data[..], &["--out", "@"]].concat(), &out);
                    add(
                        &[&data[..], &["--out", "/dev/null", "--init", "@"]].concat(),
                        &f,
                    );
                    let datagen = ["datagen", "--positions", "5", "--nodes", "20", "--out"];
                    add(&[&datagen[..], &["@"]].concat(), &out);
                    let fresh = format!("{dir}/gen.bin");
                    for flag in [
                        "--nodes",
                        "--hard-nodes",
                        "--random-plies",
                        "--win-score",
                        "--max-plies",
                        "--score-cap",
                        "--threads",
                        "--hash",
                    ] {
                        add(&[&datagen[..], &[&fresh, flag, "@"]].concat(), &n);
                    }
                    add(&[&datagen[..], &[&fresh, "--openings", "@"]].concat(), &f);
                    add(
                        &[
                            &datagen[..],
                            &[&fresh, "--openings", &format!("{dir}/finished.epd")],
                        ]
                        .concat(),
                        &g,
                    );
                }
                "kiebitz-antichess" => {
                    add(&["tables", "--dir", "@", "--check"], &f);
                    add(&["tables", "--dir", "@", "--check"], &out);
                    add(&["solve", "--fen", "@", "--nodes", "1000"], &fen);
                    add(&["check-proof", "@"], &f);
                }
                _ => {}
            }
        }
    }
    lines
}

/// The binaries: every game's engine of the registry (`kiebitz::games::BINARIES`) and the
/// match runner.
fn binaries() -> Vec<&'static str> {
    let mut all = kiebitz::games::BINARIES.to_vec();
    all.push("kiebitz-match");
    all
}

/// A long-running command of `binary` for the signal cases: a game's own long command where
/// it has one, else a deep perft (every engine has `perft`).
fn long_command(binary: &str) -> &'static [&'static str] {
    match binary {
        "kiebitz-raeuber" => &["solve", "--budget", "600"],
        "kiebitz-pawns" => &["analyze", "--size", "6", "--enpassant"],
        "kiebitz-crash" => &["theorems", "--max-cells", "40"],
        "kiebitz-match" => &[],
        _ => &["perft", "12"],
    }
}

/// Every case: each command line in the plain mode, every few also with a full and a closed
/// stdout and a never-ending stdin; each binary's long command under SIGINT and SIGTERM; the
/// protocol (no arguments) on a never-ending stdin and a closed stdout. `stride` > 1 keeps
/// every `stride`-th command line (the CI run).
fn cases(dir: &str, stride: usize) -> Vec<Case> {
    let pawns = binary("kiebitz-pawns").display().to_string();
    let chamaeleon = binary("kiebitz-chamaeleon").display().to_string();
    let match_long: Vec<OsString> = os(&[
        "--game",
        "chamaeleon",
        "--players",
        "2",
        "--engine",
        &format!("cmd={chamaeleon}"),
        "--engine",
        &format!("cmd={chamaeleon}"),
        "--tc",
        "0.01",
        "--rounds",
        "1000",
    ]);
    let mut out = Vec::new();
    for binary in binaries() {
        let long = long_command(binary);
        let case = |args: Vec<OsString>, mode| Case {
            binary,
            args,
            env: Vec::new(),
            mode,
        };
        for (i, args) in command_lines(binary, dir, &pawns, &chamaeleon)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % stride == 0)
        {
            out.push(case(args.clone(), Mode::Plain));
            let k = i / stride;
            if k % 4 == 1 {
                out.push(case(args.clone(), Mode::Full));
            }
            if k % 4 == 2 {
                out.push(case(args.clone(), Mode::Closed));
            }
            if k % 4 == 3 {
                out.push(case(args, Mode::Zero));
            }
        }
        let long = if binary == "kiebitz-match" {
            match_long.clone()
        } else {
            os(long)
        };
        out.push(case(long.clone(), Mode::Interrupt));
        out.push(case(long, Mode::Terminate));
        if binary != "kiebitz-match" {
            // The protocol itself: a never-ending stdin, a closed stdout.
            out.push(case(Vec::new(), Mode::Zero));
            out.push(case(Vec::new(), Mode::Closed));
        }
    }
    // A never-ending evaluation file.
    out.push(Case {
        binary: "kiebitz-chess",
        args: os(&["bench", "1"]),
        env: vec![("KIEBITZ_EVAL", "/dev/zero".into())],
        mode: Mode::Plain,
    });
    out
}

/// What went wrong in a run, if anything.
fn judge(
    case: &Case,
    status: std::process::ExitStatus,
    stderr: &str,
    took: Duration,
    deadline: Duration,
) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    if stderr.contains("panicked") {
        return Some(format!("panicked: {}", tail(stderr)));
    }
    for fatal in [
        "overflowed its stack",
        "memory allocation of",
        "fatal runtime error",
    ] {
        if stderr.contains(fatal) {
            return Some(format!("{fatal}: {}", tail(stderr)));
        }
    }
    let signalled = matches!(case.mode, Mode::Interrupt | Mode::Terminate);
    match (status.code(), status.signal()) {
        (Some(101), _) => Some(format!("exit 101 (a panic): {}", tail(stderr))),
        // The deadline's kill: a long run, fine unless it was told to stop.
        (_, Some(9)) if signalled => Some(format!("did not end within {took:?} after the signal")),
        (_, Some(9)) if took < deadline => Some("killed".into()),
        (_, Some(9)) => None,
        (_, Some(2)) if case.mode == Mode::Interrupt => None,
        (_, Some(15)) if case.mode == Mode::Terminate => None,
        (_, Some(s)) => Some(format!("died of signal {s}: {}", tail(stderr))),
        (Some(_), None) => None,
        (None, None) => Some("no exit status".into()),
    }
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().rev().take(3).collect();
    lines.into_iter().rev().collect::<Vec<_>>().join(" | ")
}

/// Runs one case under the memory limit; returns a failure, if any.
fn run(case: &Case, deadline: Duration) -> Option<String> {
    let (failure, status, written) = execute(case, deadline);
    if failure.is_some() || case.mode != Mode::Full {
        return failure;
    }
    // A full stdout loses the output: the command must not claim success when the same
    // command with a working stdout succeeds and writes something.
    let plain = Case {
        mode: Mode::Plain,
        ..case.clone()
    };
    let (_, plain_status, plain_written) = execute(&plain, deadline);
    (status.success() && plain_status.success() && plain_written > 0 && written == 0)
        .then(|| "exit 0 although its output was lost (stdout /dev/full)".to_string())
}

/// Runs one case under the memory limit: a failure, if any, the exit status and the bytes
/// written to stdout.
fn execute(case: &Case, deadline: Duration) -> (Option<String>, std::process::ExitStatus, u64) {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\""))
        .arg(binary(case.binary))
        .args(&case.args)
        .env("KIEBITZ_PROGRESS", "off")
        .stderr(Stdio::piped());
    for (k, v) in &case.env {
        cmd.env(k, v);
    }
    cmd.stdin(match case.mode {
        Mode::Zero => Stdio::from(std::fs::File::open("/dev/zero").unwrap()),
        _ => Stdio::null(),
    });
    cmd.stdout(match case.mode {
        Mode::Full => Stdio::from(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        ),
        _ => Stdio::piped(),
    });
    let start = Instant::now();
    let mut child = cmd.spawn().expect("sh runs");
    // Count stdout's bytes (or close it at once: the reader goes away before the first
    // line), and keep stderr's beginning, on their own threads.
    let stdout = child.stdout.take().filter(|_| case.mode != Mode::Closed);
    let drain = std::thread::spawn(move || match stdout {
        Some(mut s) => std::io::copy(&mut s, &mut std::io::sink()).unwrap_or(0),
        None => 0,
    });
    let mut err = child.stderr.take().unwrap();
    let err_thread = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = (&mut err).take(1 << 20).read_to_end(&mut buf);
        let _ = std::io::copy(&mut err, &mut std::io::sink());
        String::from_utf8_lossy(&buf).into_owned()
    });
    let signal = match case.mode {
        Mode::Interrupt => Some("-INT"),
        Mode::Terminate => Some("-TERM"),
        _ => None,
    };
    let mut signalled_at = None;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        let now = start.elapsed();
        if let Some(sig) = signal
            && signalled_at.is_none()
            && now > Duration::from_millis(700)
        {
            let _ = Command::new("kill")
                .args([sig, &child.id().to_string()])
                .status();
            signalled_at = Some(now);
        }
        let limit = match signalled_at {
            Some(at) => at + Duration::from_secs(20),
            None => deadline,
        };
        if now > limit {
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = start.elapsed();
    let written = drain.join().unwrap_or(0);
    let stderr = err_thread.join().unwrap_or_default();
    let deadline = if signalled_at.is_some() {
        took + Duration::from_secs(1)
    } else {
        deadline
    };
    (
        judge(case, status, &stderr, took, deadline),
        status,
        written,
    )
}

/// Scratch files the cases read.
fn scratch() -> String {
    let dir = std::env::temp_dir().join(format!("kiebitz-fuzz-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes = Vec::new();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..100_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.push(x as u8);
    }
    std::fs::write(dir.join("garbage.bin"), &bytes).unwrap();
    std::fs::write(dir.join("huge-line.txt"), vec![b'x'; 4 << 20]).unwrap();
    std::fs::write(
        dir.join("suite.txt"),
        "k5/6/6/6/6/R5 w - - 0 1;a1a6;1\nnot a fen;zz;1\n;;;\n",
    )
    .unwrap();
    let fifo = std::ffi::CString::new(dir.join("fifo").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0, "mkfifo");
    let sparse = std::fs::File::create(dir.join("sparse.bin")).unwrap();
    sparse.set_len(2 << 30).unwrap();
    // 200 records a chess network can read (rooks on the first and last rank), then one
    // with the piece code 12, which chess has not.
    let mut records = Vec::new();
    for i in 0..200u16 {
        let pieces: Vec<(u8, u8)> = (0..8)
            .map(|s| (s, 3))
            .chain((56..64).map(|s| (s, 9)))
            .collect();
        records.extend(kiebitz::nnue::data::Record::new(pieces, i as i16, 1, 0, i).to_bytes());
    }
    records.extend(kiebitz::nnue::data::Record::new(vec![(0, 12)], 0, 1, 0, 0).to_bytes());
    std::fs::write(dir.join("records.bin"), records).unwrap();
    std::fs::write(dir.join("finished.epd"), "7k/6Q1/6K1/8/8/8/8/8 b - -\n").unwrap();
    // A units folder whose manifest's root line is far longer than split writes.
    std::fs::create_dir_all(dir.join("units")).unwrap();
    let moves = "a2a3 a7a6 a3a4 a6a5 ".repeat(40_000);
    std::fs::write(
        dir.join("units/manifest"),
        format!(
            "kiebitz-units 1\nvariant pawns4\nstart startpos\nmoves {moves}\nplies 1\nunit 0 a1a2\n"
        ),
    )
    .unwrap();
    dir.to_string_lossy().into_owned()
}

/// Runs the suite: every `stride`-th command line, `deadline` a run, `jobs` runs at once.
/// Prints the inputs tried per binary and the failures; returns the failures.
fn suite(stride: usize, deadline: Duration, jobs: usize) -> Vec<String> {
    let dir = scratch();
    let all = cases(&dir, stride);
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let tried = Mutex::new(std::collections::BTreeMap::<&str, usize>::new());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(case) = all.get(i) else { break };
                    let failure = run(case, deadline);
                    *tried.lock().unwrap().entry(case.binary).or_default() += 1;
                    if let Some(f) = failure {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: {f}", case.text()));
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let failures = failures.into_inner().unwrap();
    let tried = tried.into_inner().unwrap();
    eprintln!("fuzz-cli: inputs tried per binary (stride {stride}, deadline {deadline:?}):");
    for (b, n) in &tried {
        let f = failures
            .iter()
            .filter(|l| l.contains(&format!("{b} ")))
            .count();
        eprintln!("  {b:<20} {n:>5} inputs, {f} failures");
    }
    eprintln!(
        "  {:<20} {:>5} inputs, {} failures",
        "all",
        tried.values().sum::<usize>(),
        failures.len()
    );
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    failures
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn every_binary_survives_hostile_command_lines() {
    let stride = env_number("KIEBITZ_FUZZ_STRIDE", 9).max(1) as usize;
    let deadline = Duration::from_millis(env_number("KIEBITZ_FUZZ_DEADLINE_MS", 2000));
    let jobs = env_number("KIEBITZ_FUZZ_JOBS", 4).max(1) as usize;
    let failures = suite(stride, deadline, jobs);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
