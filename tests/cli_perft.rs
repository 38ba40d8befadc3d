//! The shell subcommands of kiebitz-pawns: `perft` against the reference, `--divide`, `bench`,
//! `--version`, and errors (stderr and a non-zero exit); search switches from `KIEBITZ_SEARCH`.

mod common;

use std::process::{Command, Output};

use common::stdout;

fn run(args: &[&str]) -> Output {
    common::run_binary("kiebitz-pawns", args)
}

#[test]
fn perft_matches_reference_lines() {
    // A few lines of every rule set, each under a million nodes.
    let cases: Vec<_> = common::perft_cases("pawns-perft.txt")
        .into_iter()
        .filter(|c| c.nodes < 1_000_000)
        .step_by(5)
        .collect();
    assert!(cases.len() >= 5);
    for c in cases {
        let depth = c.depth.to_string();
        let o = run(&["perft", &depth, "--variant", &c.variant, "--fen", &c.fen]);
        assert!(o.status.success(), "{c:?}");
        let out = stdout(&o);
        let nodes = out
            .lines()
            .find(|l| l.starts_with("Nodes: "))
            .expect("a Nodes line");
        assert_eq!(nodes, format!("Nodes: {}", c.nodes), "{c:?}");
        assert!(out.lines().any(|l| l.starts_with("Time: ")));
        assert!(out.lines().any(|l| l.starts_with("Mnps: ")));
    }
}

#[test]
fn perft_divide_lists_root_moves() {
    let o = run(&["perft", "3", "--variant", "pawns3d", "--divide"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    // On 3×3 a double step would land on Black's pawns: only single steps at the root.
    assert_eq!(&lines[..4], ["a1a2: 9", "b1b2: 14", "c1c2: 9", ""]);
    assert_eq!(lines[4], "Nodes: 32");
}

#[test]
fn bench_ends_with_the_openbench_line() {
    let o = run(&["bench", "2"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let last = out.lines().last().unwrap();
    let f: Vec<&str> = last.split_whitespace().collect();
    assert_eq!((f[0], f[2], f[4]), ("Bench:", "nodes", "nps"), "{last}");
    assert!(
        f[1].parse::<u64>().is_ok() && f[3].parse::<u64>().is_ok(),
        "{last}"
    );
}

#[test]
fn version_and_errors() {
    let o = run(&["--version"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o).trim(),
        format!("kiebitz-pawns {}", env!("CARGO_PKG_VERSION"))
    );
    for bad in [
        &["perft", "x"][..],
        &["perft", "2", "--variant", "pawns9"],
        &["perft", "2", "--fen", "ppp/3/PPK w - - 0 1"],
        &["frobnicate"],
        &["--listen", "not an address"],
    ] {
        let o = run(bad);
        assert!(!o.status.success(), "{bad:?} succeeded");
        assert!(o.stdout.is_empty(), "{bad:?} wrote to stdout");
        assert!(!o.stderr.is_empty(), "{bad:?} gave no message");
    }
}

/// The node count of `kiebitz-chess bench 6` with `KIEBITZ_SEARCH` set to `overrides`, and
/// its stderr.
fn chess_bench(overrides: Option<&str>) -> (u64, String) {
    let mut cmd = Command::new(common::binary("kiebitz-chess"));
    cmd.args(["bench", "6"]);
    match overrides {
        Some(o) => cmd.env("KIEBITZ_SEARCH", o),
        None => cmd.env_remove("KIEBITZ_SEARCH"),
    };
    let o = cmd.output().expect("binary runs");
    assert!(o.status.success());
    let out = stdout(&o);
    let last = out.lines().last().unwrap().to_string();
    let nodes = last.split_whitespace().nth(1).unwrap().parse().unwrap();
    (nodes, String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn search_switches_from_the_environment() {
    let (base, _) = chess_bench(None);
    // Switching null-move pruning off changes the search, so its signature.
    let (no_null, _) = chess_bench(Some("null_move=0"));
    assert_ne!(base, no_null);
    // A bad override is reported and ignored as a whole.
    let (bad, err) = chess_bench(Some("null_move=0,bogus=1"));
    assert_eq!(bad, base);
    assert!(err.contains("unknown search parameter 'bogus'"), "{err}");
}

/// Ctrl-C (SIGINT) during a long perft prints the root moves counted so far and their partial
/// total on stderr and exits with 130.
#[cfg(unix)]
#[test]
fn interrupted_perft_prints_what_it_counted() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    // Chess perft 7 takes seconds; --divide shows on stdout when the first root move is done.
    let mut child = Command::new(common::binary("kiebitz-chess"))
        .args(["perft", "7", "--divide"])
        .env("KIEBITZ_PROGRESS", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(130), "{err}");
    let mut lines = err.lines();
    assert_eq!(lines.next(), Some("interrupted; known so far:"), "{err}");
    let k: usize = lines
        .next()
        .and_then(|l| l.strip_prefix("perft 7: "))
        .and_then(|r| r.strip_suffix(" of 20 root moves counted"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!((1..20).contains(&k), "{err}");
    // The root moves counted are those --divide printed, in move order, with their sum.
    let counted: Vec<&str> = lines.by_ref().take(k).collect();
    let printed: Vec<&str> = std::iter::once(first.trim_end())
        .chain(rest.lines())
        .collect();
    // (The signal may come between a move's count and its divide line.)
    let m = printed.len().min(k);
    assert_eq!(counted[..m], printed[..m], "{err}");
    assert!(printed.len() <= k, "{err}");
    let sum: u64 = counted
        .iter()
        .map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(lines.next(), Some(format!("partial total: {sum}").as_str()));
    // The first count is exact (the divide of chess perft 7 from the start).
    assert_eq!(counted[0], "a2a3: 106743106");
}

#[test]
fn suite_scores_a_file_at_fixed_nodes_and_refuses_bad_files() {
    // Räuberschach's forced-win suite, five lines at a small budget: one line per position
    // and the total; the same count twice (one thread: deterministic).
    let dir = std::env::temp_dir().join(format!("kiebitz-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("five.txt");
    let text = include_str!("data/raeuber-early-wins.txt");
    let five: Vec<&str> = text.lines().take(5).collect();
    std::fs::write(&file, five.join("\n")).unwrap();
    let path = file.to_str().unwrap();
    let suite = |extra: &[&str]| {
        let mut args = vec!["suite", path, "--nodes", "30000"];
        args.extend_from_slice(extra);
        common::run_binary("kiebitz-raeuber", &args)
    };
    let first = suite(&["--stats"]);
    assert!(first.status.success());
    let out = stdout(&first);
    assert_eq!(out.lines().filter(|l| l.starts_with("line ")).count(), 5);
    assert!(out.contains("lmr reduced"), "{out}");
    let total = out.lines().last().unwrap().to_string();
    assert!(total.starts_with("Solved: ") && total.contains("/5 at 30000 nodes"));
    let again = stdout(&suite(&[]));
    let solved = |t: &str| t.split(" at ").next().unwrap().to_string();
    assert_eq!(solved(again.lines().last().unwrap()), solved(&total));
    // A missing file, a line that is no position: a message and a non-zero exit.
    let missing = common::run_binary("kiebitz-raeuber", &["suite", "/nonexistent/suite.txt"]);
    assert!(!missing.status.success());
    std::fs::write(&file, "not a fen;;1\n").unwrap();
    let bad = suite(&[]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 1:"));
    std::fs::remove_dir_all(&dir).ok();
}
