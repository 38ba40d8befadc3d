//! Antichess proofs: `kiebitz-antichess solve` proves forced wins of the forced-win suite
//! (tests/data/antichess-wins.txt), `check-proof` and python-chess's AntichessBoard
//! (scripts/oracles/check_antichess_proof_pychess.py, an independent move generator and rules)
//! both accept the proofs, and both refuse one whose winner's move is changed.

mod common;

use std::path::PathBuf;

/// A scratch folder of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiebitz-antichess-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The suite's positions (FEN of each line).
fn suite() -> Vec<String> {
    include_str!("data/antichess-wins.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().to_string())
        .collect()
}

/// Solves `fen` within `nodes` and writes the proof to `path`; whether a win was proven.
fn prove(fen: &str, nodes: &str, path: &std::path::Path) -> bool {
    let out = common::run_binary(
        "kiebitz-antichess",
        &[
            "solve",
            "--fen",
            fen,
            "--nodes",
            nodes,
            "--proof",
            path.to_str().unwrap(),
        ],
    );
    common::stdout(&out).contains("result    win")
}

fn kiebitz_accepts(path: &std::path::Path) -> bool {
    common::run_binary(
        "kiebitz-antichess",
        &["check-proof", path.to_str().unwrap()],
    )
    .status
    .success()
}

fn python_chess_accepts(path: &std::path::Path) -> bool {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scripts/oracles/check_antichess_proof_pychess.py");
    std::process::Command::new("python3")
        .arg(script)
        .arg(path)
        .output()
        .expect("python3 runs")
        .status
        .success()
}

#[test]
fn suite_wins_are_proven_and_both_checkers_accept_the_proofs() {
    let dir = scratch("proofs");
    let mut proven = 0;
    for (i, fen) in suite().iter().take(12).enumerate() {
        let path = dir.join(format!("{i}.proof"));
        if !prove(fen, "300000", &path) {
            continue;
        }
        assert!(
            kiebitz_accepts(&path),
            "check-proof refuses the proof of {fen}"
        );
        assert!(
            python_chess_accepts(&path),
            "python-chess refuses the proof of {fen}"
        );
        proven += 1;
    }
    assert!(
        proven >= 10,
        "only {proven} of the first 12 proven within 300,000 nodes"
    );
}

#[test]
fn a_proof_with_the_winners_first_move_changed_is_refused_by_both_checkers() {
    let dir = scratch("changed");
    let path = dir.join("good.proof");
    let fen = "r1bq4/p1pppk2/8/1p5P/1P2P3/8/P4P2/RNB1K1N1 b - - 0 13";
    assert!(prove(fen, "2000000", &path));
    assert!(kiebitz_accepts(&path) && python_chess_accepts(&path));
    let text = std::fs::read_to_string(&path).unwrap();
    // The root's node: its move replaced by another legal move of the winner.
    let root_line = text
        .lines()
        .find(|l| l.starts_with(&format!("node {fen};")))
        .expect("the root's node");
    let played = root_line.rsplit(';').next().unwrap();
    let other = ["a7a5", "c7c5", "d7d5", "e7e5", "c8b7", "d8h4"]
        .into_iter()
        .find(|m| *m != played)
        .unwrap();
    let changed = text.replace(root_line, &format!("node {fen};{other}"));
    let bad = dir.join("changed.proof");
    std::fs::write(&bad, changed).unwrap();
    assert!(
        !kiebitz_accepts(&bad),
        "check-proof accepts {other} for {played}"
    );
    assert!(
        !python_chess_accepts(&bad),
        "python-chess accepts {other} for {played}"
    );
}
