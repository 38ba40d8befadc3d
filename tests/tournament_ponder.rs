//! kiebitz-match `--ponder`: engines think on their opponent's time. A fake UCI engine that
//! logs what it reads shows the exact command sequence (`setoption name Ponder value true`,
//! the position with the guessed move and `go ponder`, then `ponderhit` or `stop` and the
//! real position); one that never answers the `stop` loses by a stalled connection instead of
//! hanging the match; kiebitz-chess against itself plays its games to their end with both
//! ponderhits and stops counted in the final report.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use kiebitz::tournament::pgn;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiebitz-ponder-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn fake(mode: &str, log: &Path) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fake_pawns.py");
    format!("cmd=python3 {} {mode} {}", script.display(), log.display())
}

fn run(args: &[String]) -> (i32, String, String) {
    let out = Command::new(common::binary("kiebitz-match"))
        .args(args)
        .output()
        .expect("kiebitz-match runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// The counts of the `Pondering: …` line: go ponder, ponderhit, stop (miss), stop (end).
fn ponder_counts(stdout: &str) -> Option<[u32; 4]> {
    let line = stdout.lines().find(|l| l.starts_with("Pondering: "))?;
    let n: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .collect();
    Some([n[0], n[1], n[2], n[3]])
}

/// A pawn-chess match of the logging fake `mode` (first engine) against a normal fake.
fn fake_match(mode: &str, tag: &str, extra: &str) -> (i32, String, String, Vec<String>) {
    let log = temp(&format!("{tag}.log"));
    let other = temp(&format!("{tag}-other.log"));
    let args = [
        words("--game pawns --variant pawns5 --engine"),
        vec![fake(mode, &log), "name=P".into()],
        words("--engine"),
        vec![
            fake("ponder", &other),
            "name=N".into(),
            "ponder=false".into(),
        ],
        words(&format!("--tc 5+0.1 --games 2 {extra}")),
    ]
    .concat();
    let (code, stdout, stderr) = run(&args);
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    (
        code,
        stdout,
        stderr,
        log.lines().map(str::to_string).collect(),
    )
}

#[test]
fn the_exact_ponder_command_sequence() {
    let (code, stdout, stderr, log) = fake_match("ponder", "seq", "--ponder");
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        log.iter()
            .any(|l| l == "< setoption name Ponder value true"),
        "{log:#?}"
    );
    let (mut starts, mut hits, mut misses, mut ended) = (0, 0, 0, 0);
    let mut last_best: Option<(String, String)> = None;
    for (k, line) in log.iter().enumerate() {
        if let Some(rest) = line.strip_prefix("> bestmove ") {
            let w: Vec<&str> = rest.split_whitespace().collect();
            last_best = (w.len() == 3).then(|| (w[0].to_string(), w[2].to_string()));
            continue;
        }
        if !line.starts_with("< go ponder") {
            continue;
        }
        starts += 1;
        // The position before it ends with our move and the guessed reply.
        let (mv, guess) = last_best
            .clone()
            .expect("go ponder follows a bestmove X ponder Y");
        assert!(
            log[k - 1].ends_with(&format!(" {mv} {guess}")) && log[k - 1].starts_with("< position"),
            "{}",
            log[k - 1]
        );
        assert!(
            line.contains(" wtime ") && line.contains(" btime "),
            "{line}"
        );
        match log[k + 1].as_str() {
            "< ponderhit" => {
                hits += 1;
                assert!(
                    log[k + 2].starts_with("> bestmove "),
                    "{:?}",
                    &log[k..k + 3]
                );
            }
            "< stop" => {
                // The discarded answer, then the real position and a real search; or the
                // game's end (a new game or quit follows).
                assert!(
                    log[k + 2].starts_with("> bestmove "),
                    "{:?}",
                    &log[k..k + 3]
                );
                let next = log.get(k + 3).map(String::as_str).unwrap_or("");
                if next.starts_with("< position") {
                    misses += 1;
                    assert!(!next.ends_with(&format!(" {guess}")), "{next}");
                    let go = &log[k + 4];
                    assert!(go.starts_with("< go wtime "), "{go}");
                } else {
                    ended += 1;
                }
            }
            other => panic!("after go ponder came {other:?}"),
        }
    }
    assert!(
        hits > 0 && misses > 0,
        "hits {hits} misses {misses}\n{log:#?}"
    );
    assert_eq!(
        ponder_counts(&stdout),
        Some([starts, hits, misses, ended]),
        "{stdout}"
    );
    assert_eq!(starts, hits + misses + ended);

    // Without --ponder: no Ponder option, no go ponder, no count.
    let (code, stdout, _, log) = fake_match("ponder", "off", "");
    assert_eq!(code, 0);
    assert!(
        !log.iter()
            .any(|l| l.starts_with("< setoption name Ponder") || l.starts_with("< go ponder")),
        "{log:#?}"
    );
    assert!(log.iter().any(|l| l.starts_with("< go wtime")));
    assert_eq!(ponder_counts(&stdout), None, "{stdout}");
}

/// An engine that never answers the `stop` of its ponder search loses by a stalled
/// connection, bounded by its clock, and the match goes on to its end.
#[test]
fn a_ponder_search_that_never_stops_is_a_fault() {
    let (code, stdout, stderr, log) = fake_match("deafponder", "deaf", "--ponder");
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(log.iter().any(|l| l == "< stop"), "{log:#?}");
    assert!(
        stdout.contains("'s connection stalls: no bestmove after stopping its ponder search"),
        "{stdout}"
    );
    assert!(stdout.contains("Finished match"), "{stdout}");
}

/// kiebitz-chess against itself with pondering: every game ends by the rules or the move
/// limit, nobody forfeits, and both ponderhits and stops happened.
#[test]
fn kiebitz_chess_ponders_against_itself() {
    let pgn_path = temp("chess.pgn");
    let engine = format!("cmd={}", common::binary("kiebitz-chess").display());
    let args = [
        words("--game chess --engine"),
        vec![engine.clone(), "name=A".into()],
        words("--engine"),
        vec![engine, "name=B".into()],
        words("--each option.Hash=8 --tc 3+0.05 --timemargin 500 --games 2 --maxmoves 30"),
        words("--random-openings plies=4 depth=2 margin=80 --ponder --pgn"),
        vec![pgn_path.display().to_string()],
    ]
    .concat();
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let games = pgn::parse(&std::fs::read_to_string(&pgn_path).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        let term = g.tag("Termination").unwrap();
        assert!(
            term == "normal" || term == "adjudication",
            "{g:?}\n{stdout}"
        );
    }
    let [starts, hits, misses, ended] = ponder_counts(&stdout).expect(&stdout);
    eprintln!(
        "{}",
        stdout.lines().find(|l| l.starts_with("Pondering")).unwrap()
    );
    assert!(hits > 0 && misses > 0, "{stdout}");
    assert_eq!(starts, hits + misses + ended, "{stdout}");
}
