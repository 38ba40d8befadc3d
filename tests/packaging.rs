//! Packaging: the LICENSE agrees with Cargo.toml, and `make EXE=…` (what OpenBench runs)
//! builds the chosen engine and copies it to EXE (checked with `make -n`, which runs nothing),
//! and every game of the registry has its binary.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn license_is_mit_as_cargo_toml_says() {
    let license = std::fs::read_to_string(Path::new(ROOT).join("LICENSE")).unwrap();
    assert!(license.starts_with("MIT License"));
    assert!(license.contains("Copyright (c) 2026 the kiebitz authors"));
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT\""));
}

#[test]
fn make_builds_the_chosen_engine_into_exe() {
    let dry = |args: &[&str]| -> Option<String> {
        let o = Command::new("make")
            .arg("-n")
            .args(args)
            .current_dir(ROOT)
            .env_remove("CARGO")
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("MAKEFLAGS")
            .output()
            .ok()?;
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        Some(String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let Some(out) = dry(&["EXE=/tmp/openbench/kiebitz-dev"]) else {
        eprintln!("no make on this machine: Makefile not checked");
        return;
    };
    assert_eq!(
        out,
        "cargo build --release --bin kiebitz-chess\n\
         cp target/release/kiebitz-chess /tmp/openbench/kiebitz-dev\n"
    );
    let out = dry(&["EXE=x", "ENGINE=kiebitz-pawns"]).unwrap();
    assert_eq!(
        out,
        "cargo build --release --bin kiebitz-pawns\ncp target/release/kiebitz-pawns x\n"
    );
}

/// Every game of the registry (`kiebitz::games::BINARIES`) has its `[[bin]]` in Cargo.toml and
/// its entrance `engines/kiebitz-<module>.rs`, and Cargo.toml has no engine beyond them (the
/// match runner and the web server aside).
#[test]
fn every_registered_game_has_its_binary_and_no_other_engine_is_built() {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    for engine in kiebitz::games::BINARIES {
        assert!(
            manifest.contains(&format!(
                "name = \"{engine}\"\npath = \"engines/{engine}.rs\""
            )),
            "{engine}: no [[bin]] in Cargo.toml"
        );
        assert!(
            Path::new(ROOT)
                .join(format!("engines/{engine}.rs"))
                .exists(),
            "{engine}"
        );
    }
    let bins: Vec<&str> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("name = \"kiebitz-")?.strip_suffix('"'))
        .filter(|name| !["match", "web"].contains(name))
        .collect();
    assert_eq!(bins.len(), kiebitz::games::BINARIES.len(), "{bins:?}");
}
