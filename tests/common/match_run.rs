//! Running `kiebitz-match` from a test: a fresh temporary path per test process, and the
//! exit code and both outputs of one run.

use std::path::PathBuf;
use std::process::Command;

/// `name` in a directory of this test process under the system's temporary directory (named
/// with `prefix` and the process id), any old file of that name removed.
pub fn temp(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// What one run of kiebitz-match left.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs kiebitz-match with `args` to its end.
pub fn run(args: &[String]) -> Run {
    let out = Command::new(super::binary("kiebitz-match"))
        .args(args)
        .output()
        .expect("kiebitz-match runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The words as owned arguments.
pub fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| s.to_string()).collect()
}
