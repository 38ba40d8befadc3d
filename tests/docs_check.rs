//! The docs check's fast part (`scripts/check-docs.sh`): it passes on the repository, and it
//! fails on a copy of the pages with an oversized README, a broken link or anchor, a set-up
//! command that is not the one CI runs, or a reference to a specification outside the
//! repository. The full part (bench and perft figures, run by the binaries) is
//! `scripts/check-docs.sh --full`, outside CI (docs/testing.md).

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs the fast part on `root`; returns success and stdout.
fn check(root: &Path) -> (bool, String) {
    let o = Command::new("bash")
        .arg(Path::new(ROOT).join("scripts/check-docs.sh"))
        .arg("--root")
        .arg(root)
        .output()
        .expect("bash runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    (
        o.status.success(),
        out + &String::from_utf8_lossy(&o.stderr),
    )
}

/// A copy of what the check reads: README, docs/, Cargo.toml, scripts' pages, .ci/run.
fn copy_pages(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiebitz-docs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["docs/img", "scripts", ".ci"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let files = [
        "README.md",
        "Cargo.toml",
        "LICENSE",
        "scripts/test.sh",
        "scripts/requirements.txt",
        "scripts/README.md",
        ".ci/run",
    ];
    for file in files {
        std::fs::copy(Path::new(ROOT).join(file), dir.join(file)).unwrap();
    }
    for sub in ["docs", "docs/img"] {
        for entry in std::fs::read_dir(Path::new(ROOT).join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, dir.join(sub).join(path.file_name().unwrap())).unwrap();
            }
        }
    }
    dir
}

/// Applies `edit` to `file` in a fresh copy and returns the check's verdict and output.
fn check_edited(name: &str, file: &str, edit: impl Fn(String) -> String) -> (bool, String) {
    let dir = copy_pages(name);
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    std::fs::write(dir.join(file), edit(text)).unwrap();
    let verdict = check(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    verdict
}

#[test]
fn the_fast_part_passes_on_the_repository() {
    let (passed, out) = check(Path::new(ROOT));
    assert!(passed, "{out}");
    assert!(out.contains("fast part: 0 failure(s)"), "{out}");
}

#[test]
fn an_untouched_copy_passes() {
    let (passed, out) = check_edited("copy", "README.md", |t| t);
    assert!(passed, "{out}");
}

#[test]
fn an_oversized_readme_fails() {
    let (passed, out) = check_edited("size", "README.md", |t| t + &"x".repeat(12 * 1024));
    assert!(!passed && out.contains("FAIL README.md is"), "{out}");
}

#[test]
fn a_broken_link_or_anchor_fails() {
    let (passed, out) = check_edited("link", "README.md", |t| {
        t.replace("(docs/rules.md)", "(docs/no-such-page.md)")
    });
    assert!(
        !passed && out.contains("docs/no-such-page.md leads nowhere"),
        "{out}"
    );
    let (passed, out) = check_edited("anchor", "README.md", |t| {
        t.replace("docs/results.md#matches", "docs/results.md#no-such-heading")
    });
    assert!(
        !passed && out.contains("no heading '#no-such-heading'"),
        "{out}"
    );
}

#[test]
fn a_changed_setup_command_fails() {
    let (passed, out) = check_edited("setup", "README.md", |t| {
        t.replacen("bash scripts/test.sh", "cargo test", 1)
    });
    assert!(
        !passed && out.contains("README's first two commands"),
        "{out}"
    );
}

#[test]
fn a_reference_to_an_outside_specification_fails() {
    // The word is put together so that this file itself does not trip the check.
    let word = ["SP", "EC"].concat();
    let (passed, out) = check_edited("spec", "docs/rules.md", |t| {
        t + &format!("\nAs {word} §3 says.\n")
    });
    assert!(!passed && out.contains("docs/rules.md:"), "{out}");
}
