//! Work units (`units split|work|merge`): a solve split into units that separate processes
//! work, merged into one certificate that `check-proof` accepts.
//!
//! Pawn chess 5×5 with en passant after 1. b2 (the analyser's table: b1b2 loses for White) is
//! split two plies deep; two df-pn worker processes share the units at once (`--worker 0/1
//! --of 2`); the merge must prove Black's win with a proof the independent checker accepts. A
//! unit proof that is tampered with makes the merge fail (each unit proof is checked), a
//! merge before the work says how many units are missing, and bad worker indices are refused.
//! The win/draw/loss solver works the units of an acyclic game by default: their values give
//! the root's (a draw after 1. a2, as the analyser says), their certificates join into two
//! checked holds. Workers share endgame tables through one directory. A unit's certificate
//! counts only as a checked certificate of the unit's own position.

mod common;

use std::path::Path;
use std::process::Command;

use common::{binary, run_binary, stdout};

fn units(dir: &Path, args: &[&str]) -> std::process::Output {
    units_of("kiebitz-pawns", dir, args)
}

/// `ENGINE units ARGS[0] --dir DIR ARGS[1..]`.
fn units_of(engine: &str, dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["units", args[0], "--dir", dir.to_str().unwrap()];
    all.extend_from_slice(&args[1..]);
    run_binary(engine, &all)
}

/// Pawn chess 5×5 with en passant after 1. b2, split two plies deep (87 units).
const SPLIT_AFTER_B2: [&str; 7] = [
    "split",
    "--variant",
    "pawns5ep",
    "--moves",
    "b1b2",
    "--plies",
    "2",
];

fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kiebitz-units-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn two_workers_prove_pawn_chess_5x5_after_b2_lost_and_the_merge_checks() {
    let dir = fresh_dir("b2");
    let split = units(&dir, &SPLIT_AFTER_B2);
    assert!(split.status.success(), "{split:?}");
    assert!(
        stdout(&split).starts_with("87 units 2 plies below"),
        "{}",
        stdout(&split)
    );
    // Before any work the root is not proven, and the merge says why.
    let early = units(&dir, &["merge", "--out", "/dev/null"]);
    assert!(!early.status.success());
    let err = String::from_utf8_lossy(&early.stderr);
    assert!(
        err.contains("0 of 87 units have a value, 87 without a result"),
        "{err}"
    );
    // Two workers at once, each on its share.
    let workers: Vec<_> = (0..2)
        .map(|k| {
            Command::new(binary("kiebitz-pawns"))
                .args([
                    "units",
                    "work",
                    "--dir",
                    dir.to_str().unwrap(),
                    "--nodes",
                    "200000",
                    "--dfpn",
                ])
                .args(["--worker", &k.to_string(), "--of", "2"])
                .output()
                .expect("worker runs")
        })
        .collect();
    for w in &workers {
        assert!(w.status.success(), "{w:?}");
    }
    let results = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(results, 1 + 87, "the manifest and one result per unit");
    let merged = dir.join("merged.proof");
    let merge = units(&dir, &["merge", "--out", merged.to_str().unwrap()]);
    assert!(merge.status.success(), "{merge:?}");
    assert!(
        stdout(&merge).starts_with("value     win for the side to move at ppppp/5/5/1P3/P1PPP b"),
        "{merge:?}"
    );
    assert!(
        stdout(&merge).contains("Black wins from ppppp/5/5/1P3/P1PPP b"),
        "{merge:?}"
    );
    let check = run_binary("kiebitz-pawns", &["check-proof", merged.to_str().unwrap()]);
    assert!(check.status.success(), "{check:?}");
    assert!(
        stdout(&check).starts_with("proof holds: black wins"),
        "{check:?}"
    );

    // A used unit's proof with its winner's choices removed: the merge must not pass it.
    let used: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "proof") && p != &merged)
        .collect();
    for p in &used {
        let text = std::fs::read_to_string(p).unwrap();
        let kept: String = text
            .lines()
            .filter(|l| !l.starts_with("node "))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(p, kept).unwrap();
    }
    // Each unit's proof is checked when it is read (since round 5): the damaged one is named.
    let broken = units(&dir, &["merge", "--out", "/dev/null"]);
    assert!(!broken.status.success(), "{broken:?}");
    let err = String::from_utf8_lossy(&broken.stderr);
    assert!(err.contains("unit-") && err.contains(".proof: "), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_shares_and_missing_manifests_are_refused() {
    let dir = fresh_dir("bad");
    let none = units(&dir, &["work"]);
    assert!(!none.status.success());
    assert!(
        String::from_utf8_lossy(&none.stderr).contains("cannot read"),
        "{none:?}"
    );
    assert!(
        units(&dir, &["split", "--variant", "pawns4ep", "--plies", "1"])
            .status
            .success()
    );
    for (args, says) in [
        (
            vec!["work", "--worker", "2", "--of", "2"],
            "--worker must be 0 to 1",
        ),
        (vec!["work", "--unit", "99"], "no unit 99"),
    ] {
        let o = units(&dir, &args);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A unit that stays open keeps its solver's tables (`--checkpoint-every`), and `--retry-open`
/// resumes from them: unit 82 of the 5×5 split (Black to move after 1. b2 e3 2. e2) needs
/// more than one run of 4,000 positions, and a second run proves it only from the first run's
/// tables — without them the same second run stays open.
#[test]
fn an_open_unit_resumes_from_its_checkpoint_when_retried() {
    let work = ["work", "--unit", "82", "--nodes", "4000", "--dfpn"];
    let retry = [&work[..], &["--retry-open"]].concat();

    // Without checkpoints: open, and open again when retried.
    let plain = fresh_dir("retry-plain");
    assert!(units(&plain, &SPLIT_AFTER_B2).status.success());
    for args in [&work[..], &retry[..]] {
        let o = units(&plain, args);
        assert!(o.status.success(), "{o:?}");
        assert!(stdout(&o).contains("0 units proven, 1 open"), "{o:?}");
    }
    let _ = std::fs::remove_dir_all(&plain);

    // With checkpoints: open after the first run, its tables kept; proven by the retry.
    let dir = fresh_dir("retry-ck");
    assert!(units(&dir, &SPLIT_AFTER_B2).status.success());
    let ck = [&work[..], &["--checkpoint-every", "600"]].concat();
    let first = units(&dir, &ck);
    assert!(
        stdout(&first).contains("0 units proven, 1 open"),
        "{first:?}"
    );
    assert!(dir.join("unit-82.open").exists());
    for side in ["white", "black"] {
        assert!(
            dir.join(format!("unit-82.ck/{side}.dfpn")).exists(),
            "{side}"
        );
    }
    // Without --retry-open the open unit is left alone.
    let skipped = units(&dir, &ck);
    assert!(
        stdout(&skipped).contains("0 units proven, 0 open"),
        "{skipped:?}"
    );
    let second = units(&dir, &[&ck[..], &["--retry-open"]].concat());
    assert!(second.status.success(), "{second:?}");
    assert!(
        stdout(&second).contains("1 units proven, 0 open"),
        "{second:?}"
    );
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("resumed black's attempt"),
        "{second:?}"
    );
    assert!(!dir.join("unit-82.open").exists(), "the open mark goes");
    assert!(
        !dir.join("unit-82.ck").exists(),
        "a proven unit's tables go"
    );
    let proof = dir.join("unit-82.proof");
    let check = run_binary("kiebitz-pawns", &["check-proof", proof.to_str().unwrap()]);
    assert!(
        stdout(&check).starts_with("proof holds: black wins"),
        "{check:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Workers share endgame tables through `--tables-dir`: the first writes each signature it
/// builds there, the next reads them instead of building (Räuberschach, K+R+B against k split
/// one ply, tables of up to two pieces).
#[test]
fn workers_share_the_endgame_tables_through_a_directory() {
    let tables = fresh_dir("tables");
    let work = |dir: &Path| {
        let args = [
            "work",
            "--tables",
            "2",
            "--tables-dir",
            tables.to_str().unwrap(),
        ];
        let o = units_of("kiebitz-raeuber", dir, &args);
        assert!(o.status.success(), "{o:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let mut said = Vec::new();
    for name in ["tables-a", "tables-b"] {
        let dir = fresh_dir(name);
        let split = units_of(
            "kiebitz-raeuber",
            &dir,
            &["split", "--fen", "k5/6/6/6/6/RB4 w - - 0 1", "--plies", "1"],
        );
        assert!(split.status.success(), "{split:?}");
        said.push(work(&dir));
        let _ = std::fs::remove_dir_all(&dir);
    }
    let files = std::fs::read_dir(&tables).unwrap().count();
    assert!(files > 0, "the first worker writes the tables it builds");
    assert!(said[0].contains("(0 signatures read from"), "{}", said[0]);
    assert!(
        said[1].contains(&format!("({files} signatures read from")),
        "{}",
        said[1]
    );
    let _ = std::fs::remove_dir_all(&tables);
}

/// The values of the units a worker leaves: `worker done: S units solved, O open` → (S, O).
fn solved_and_open(o: &std::process::Output) -> (usize, usize) {
    let out = stdout(o);
    let words: Vec<&str> = out.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == "done:")
        .expect("worker done");
    (
        words[at + 1].parse().unwrap(),
        words[at + 4].parse().unwrap(),
    )
}

/// The win/draw/loss solver works the units of pawn chess by default: two workers value the
/// 86 units two plies below the first move a2 (5×5, en passant), the merge gives the
/// analyser's value of that move (a draw) and joins the units' holds into White's and Black's holds from the root,
/// which `check-proof` accepts; a damaged unit hold makes the merge fail, and df-pn's node
/// budget is refused.
#[test]
fn the_win_draw_loss_solver_values_the_units_and_the_merge_joins_their_holds() {
    let analysed = run_binary(
        "kiebitz-pawns",
        &["analyze", "--size", "5", "--enpassant", "--json"],
    );
    let json = stdout(&analysed);
    assert!(json.contains(r#"{"move":"a1a2","value":0}"#), "{json}");

    let dir = fresh_dir("wdl");
    let split = [
        "split",
        "--variant",
        "pawns5ep",
        "--moves",
        "a1a2",
        "--plies",
        "2",
    ];
    assert!(units(&dir, &split).status.success());
    let nodes = units(&dir, &["work", "--nodes", "1000"]);
    assert!(!nodes.status.success());
    assert!(String::from_utf8_lossy(&nodes.stderr).contains("not --nodes"));
    for k in ["0", "1"] {
        let args = [
            "work",
            "--certificates",
            "--hash",
            "16",
            "--worker",
            k,
            "--of",
            "2",
        ];
        let o = units(&dir, &args);
        assert!(o.status.success(), "{o:?}");
        assert_eq!(solved_and_open(&o), (43, 0), "{o:?}");
    }
    let value = units(&dir, &["merge"]);
    assert!(
        stdout(&value).starts_with("value     draw for the side to move at ppppp/5/5/P4/1PPPP b"),
        "{value:?}"
    );
    let out = dir.join("start");
    let merge = units(&dir, &["merge", "--out", out.to_str().unwrap()]);
    assert!(merge.status.success(), "{merge:?}");
    for (side, says) in [
        (
            "white",
            "proof holds: white keeps black from forcing a win from ppppp/5/5/P4/1PPPP b",
        ),
        (
            "black",
            "proof holds: black keeps white from forcing a win from ppppp/5/5/P4/1PPPP b",
        ),
    ] {
        let file = dir.join(format!("start.{side}"));
        let check = run_binary("kiebitz-pawns", &["check-proof", file.to_str().unwrap()]);
        assert!(stdout(&check).starts_with(says), "{check:?}");
    }

    // Every unit's White hold one move short: the merge refuses them.
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "white-hold") {
            let text = std::fs::read_to_string(&p).unwrap();
            let (head, _last) = text.trim_end().rsplit_once(' ').unwrap();
            std::fs::write(&p, format!("{head}\n")).unwrap();
        }
    }
    let broken = units(&dir, &["merge", "--out", out.to_str().unwrap()]);
    assert!(!broken.status.success(), "{broken:?}");
    assert!(
        String::from_utf8_lossy(&broken.stderr).contains("white-hold"),
        "{broken:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A unit's time budget ends that unit only: with 0.1 s a unit, every one of 6×6's twelve
/// first-move units is either valued or left open (a budget that stopped the worker would
/// leave the rest without a result); the open ones keep their tables and resume from them,
/// and the merge gives the start's value, a White win.
#[test]
fn a_units_budget_ends_that_unit_only_and_open_units_resume() {
    let dir = fresh_dir("wdl-budget");
    let split = ["split", "--variant", "pawns6ep", "--plies", "1"];
    assert!(units(&dir, &split).status.success());
    let args = [
        "work",
        "--hash",
        "16",
        "--time",
        "0.1",
        "--checkpoint-every",
        "600",
    ];
    let first = units(&dir, &args);
    assert!(first.status.success(), "{first:?}");
    let (solved, open) = solved_and_open(&first);
    assert_eq!(solved + open, 12, "{first:?}");
    assert!(open > 0, "{first:?}");
    let undecided = units(&dir, &["merge"]);
    assert!(!undecided.status.success(), "{undecided:?}");
    let retry = units(
        &dir,
        &[
            "work",
            "--hash",
            "64",
            "--retry-open",
            "--checkpoint-every",
            "600",
        ],
    );
    assert_eq!(solved_and_open(&retry), (open, 0), "{retry:?}");
    assert!(
        String::from_utf8_lossy(&retry.stderr).contains("resumed"),
        "{retry:?}"
    );
    assert!(!dir.join("unit-0.ck").exists() && !dir.join("unit-0.open").exists());
    let merge = units(&dir, &["merge"]);
    assert!(
        stdout(&merge).starts_with("value     win for the side to move at pppppp/6/6/6/6/PPPPPP w"),
        "{merge:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `merge` takes a unit's certificate as that unit's value only where it is a checked
/// certificate of the unit's own position, and refuses a value file its certificates
/// contradict: a real proof of another unit's position copied in, and a value file saying the
/// opposite of the unit's proof, each end the merge with the reason.
#[test]
fn a_certificate_of_another_position_or_a_contradicting_value_is_refused() {
    let dir = fresh_dir("foreign");
    assert!(
        units(&dir, &["split", "--variant", "pawns4ep", "--plies", "1"])
            .status
            .success()
    );
    let work = units(&dir, &["work", "--dfpn", "--nodes", "100000"]);
    assert!(work.status.success(), "{work:?}");
    let proofs: Vec<_> = (0..4)
        .map(|i| dir.join(format!("unit-{i}.proof")))
        .filter(|p| p.exists())
        .collect();
    assert!(proofs.len() >= 2, "{proofs:?}");
    let own = std::fs::read(&proofs[0]).unwrap();
    std::fs::copy(&proofs[1], &proofs[0]).unwrap();
    let foreign = units(&dir, &["merge"]);
    assert!(!foreign.status.success(), "{foreign:?}");
    let err = String::from_utf8_lossy(&foreign.stderr);
    assert!(err.contains("not of this unit's position"), "{err}");
    std::fs::write(&proofs[0], own).unwrap();
    let value = proofs[0].with_extension("value");
    let text = std::fs::read_to_string(&proofs[0]).unwrap();
    let stm_wins = {
        let root = text.lines().find_map(|l| l.strip_prefix("root ")).unwrap();
        let winner = text
            .lines()
            .find_map(|l| l.strip_prefix("winner "))
            .unwrap();
        root.split_whitespace().nth(1) == Some(&winner[..1])
    };
    std::fs::write(
        &value,
        if stm_wins {
            "value loss\n"
        } else {
            "value win\n"
        },
    )
    .unwrap();
    let contradicted = units(&dir, &["merge"]);
    assert!(!contradicted.status.success(), "{contradicted:?}");
    let err = String::from_utf8_lossy(&contradicted.stderr);
    assert!(err.contains("certificates say otherwise"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
