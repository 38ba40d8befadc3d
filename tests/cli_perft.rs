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

/// Ctrl-C (SIGINT) during a long perft prints the root moves counted so far and their partial
/// total on stderr, nothing on stdout, and exits with 130.
#[cfg(unix)]
#[test]
fn interrupted_perft_prints_what_it_counted() {
    use kiebitz::game::Game;
    use kiebitz::games::pawns::Pawns;
    use std::process::Stdio;
    // About 1.4·10⁹ paths: seconds on any machine, so the signal comes in the middle.
    let child = Command::new(common::binary("kiebitz-pawns"))
        .args(["perft", "9", "--variant", "pawns6d"])
        .env("KIEBITZ_PROGRESS", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(o.stdout.is_empty(), "{}", stdout(&o));
    let mut lines = err.lines();
    assert_eq!(lines.next(), Some("interrupted; known so far:"), "{err}");
    let head = lines.next().unwrap();
    let k: usize = head
        .strip_prefix("perft 9: ")
        .and_then(|r| r.strip_suffix(" of 12 root moves counted"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(k < 12, "{err}");
    let pos = Pawns::startpos("pawns6d").unwrap();
    let mut moves = kiebitz::board::MoveList::new();
    pos.legal_moves(&mut moves);
    let mut sum = 0;
    for (i, line) in lines.by_ref().take(k).enumerate() {
        let (mv, n) = line.split_once(": ").unwrap();
        assert_eq!(mv, pos.move_text(moves[i]), "{err}");
        sum += n.parse::<u64>().unwrap();
    }
    if k > 0 {
        assert_eq!(
            lines.next(),
            Some(format!("partial total: {sum}").as_str()),
            "{err}"
        );
        // The counts are exact: the first one against the library.
        let first = err.lines().nth(2).unwrap().split_once(": ").unwrap().1;
        assert_eq!(
            first.parse::<u64>().unwrap(),
            kiebitz::perft::perft(&pos.play(moves[0]), 8)
        );
    }
}
