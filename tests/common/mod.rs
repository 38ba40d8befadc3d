//! Helpers shared by the integration tests: reference files and the engine binaries.
#![allow(dead_code)]

use std::path::PathBuf;

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

/// The path of an engine binary built by cargo for the integration tests: cargo builds every
/// `[[bin]]` into one directory, so any game's binary is found next to `kiebitz-match`.
pub fn binary(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_BIN_EXE_kiebitz-match")).with_file_name(name);
    assert!(path.exists(), "no binary {name} at {}", path.display());
    path
}
