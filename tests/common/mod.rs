//! Helpers shared by the integration tests: reference files, the engine binaries and running
//! them.
#![allow(dead_code)]

use std::path::PathBuf;

pub mod browser;
pub mod http;
pub mod match_run;
pub mod nnue;
pub mod source;

/// One line of a perft reference file: `variant;fen;depth;nodes`.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub variant: String,
    pub fen: String,
    pub depth: u32,
    pub nodes: u64,
}

/// The path of a file under `tests/data`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Reads a perft reference file from `tests/data`, skipping comments and blank lines.
pub fn perft_cases(name: &str) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(data_path(name)).expect("reference file");
    let cases: Vec<PerftCase> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            assert_eq!(f.len(), 4, "malformed reference line {l}");
            PerftCase {
                variant: f[0].to_string(),
                fen: f[1].to_string(),
                depth: f[2].parse().expect("depth"),
                nodes: f[3].parse().expect("nodes"),
            }
        })
        .collect();
    assert!(!cases.is_empty(), "no cases in {name}");
    cases
}

impl PerftCase {
    /// The case's position in `G`, and its perft count by the library checked against the
    /// reference.
    pub fn check<G: kiebitz::game::Game>(&self) -> G {
        let pos = G::from_fen(&self.variant, &self.fen).expect("reference FEN");
        let nodes = kiebitz::perft::perft(&pos, self.depth);
        assert_eq!(
            nodes, self.nodes,
            "{} {} depth {}",
            self.variant, self.fen, self.depth
        );
        pos
    }
}

/// The path of an engine binary built by cargo for the integration tests: cargo builds every
/// `[[bin]]` into one directory, so any game's binary is found next to `kiebitz-match`.
pub fn binary(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_BIN_EXE_kiebitz-match")).with_file_name(name);
    assert!(path.exists(), "no binary {name} at {}", path.display());
    path
}

/// Every game's engine binary, from the registry (`kiebitz::games::BINARIES`), with whether
/// it is a two-seat game (UCI and XBoard) or an N-seat one (the N-seat dialect): the one list
/// the "every engine" tests loop over.
pub fn engines() -> Vec<(&'static str, bool)> {
    kiebitz::games::NAMES
        .iter()
        .zip(kiebitz::games::BINARIES)
        .map(|(name, binary)| (*binary, kiebitz::games::seats(name).unwrap().is_two()))
        .collect()
}

/// The two-seat games' engine binaries ([`engines`]).
pub fn two_seat_engines() -> Vec<&'static str> {
    engines()
        .into_iter()
        .filter_map(|(binary, two)| two.then_some(binary))
        .collect()
}

/// Runs engine binary `name` with `args` to its end.
pub fn run_binary(name: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(binary(name))
        .args(args)
        .output()
        .expect("binary runs")
}

/// A finished process's stdout as text.
pub fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `python3 scripts/SCRIPT ARGS…` (SCRIPT with its folder, e.g. `oracles/polyglot_check.py`)
/// and returns its stdout; fails the test with the script's output when it fails (python-chess
/// comes from `pip install -r scripts/requirements.txt`, which CI runs).
pub fn python_script<S: AsRef<std::ffi::OsStr>>(script: &str, args: &[S]) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(script);
    let out = std::process::Command::new("python3")
        .arg(&path)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}): install Python 3"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} failed (is python-chess installed? pip install -r scripts/requirements.txt):\n{stdout}\n{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}
