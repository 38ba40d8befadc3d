//! No environment reads below the binaries: every `std::env::var…` of the library is in the
//! one start-up function `kiebitz::cli::read_environment` (src/cli/mod.rs), which each binary
//! calls and which hands the values on. Walks src/ and fails on any other file that reads the
//! environment.

use std::path::{Path, PathBuf};

/// The files allowed to read the environment, and why.
const ALLOWED: &[(&str, &str)] = &[
    (
        "src/cli/mod.rs",
        "read_environment, called by every binary at start-up",
    ),
    (
        "src/search/tests.rs",
        "unit tests only: BENCH_DEPTHS for the #[ignore]d bench study",
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_startup_module_reads_the_environment() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(files.len() > 50, "found only {} files", files.len());
    let mut offenders = Vec::new();
    for file in &files {
        let name = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if ALLOWED.iter().any(|(allowed, _)| *allowed == name) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.contains("env::var") {
                offenders.push(format!("{name}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "environment read below the binaries (move it to cli::read_environment):\n{}",
        offenders.join("\n")
    );
    // The allowed start-up module does read it (the list is not stale).
    let startup = std::fs::read_to_string(root.join(ALLOWED[0].0)).unwrap();
    assert!(startup.contains("pub fn read_environment()"));
}
