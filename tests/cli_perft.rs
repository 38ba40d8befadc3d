//! The shell subcommands of kiebitz-pawns: `perft` against the reference, `--divide`, `bench`,
//! `--version`, and errors (stderr and a non-zero exit); search switches from `KIEBITZ_SEARCH`.

mod common;

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(common::binary("kiebitz-pawns"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
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
