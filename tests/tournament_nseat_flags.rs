//! `kiebitz-match --game chamaeleon` with the flags of the two-seat runner: `--movetime`,
//! `--tc BASE+INC`, `--games`/`--rounds`, `--concurrency`, `--pgn`, `--openings` and
//! `--check-pgn`. Short games on two seats (two searches of one binary), their table and
//! records read back: the seats rotate, every move replays, `--check-pgn` accepts the records
//! and finds a result changed by hand.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use kiebitz::games::chamaeleon::Chamaeleon;
use kiebitz::nsearch::NGame;

/// A file in the temporary directory, unique to this test process and `name`.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("kiebitz-nseat-flags-{}-{name}", std::process::id()))
}

/// `kiebitz-match --game chamaeleon --players 2` with two engines and `extra`.
fn run_match(extra: &[&str]) -> Output {
    let engine = common::binary("kiebitz-chamaeleon");
    let mut args: Vec<String> = ["--game", "chamaeleon", "--players", "2"]
        .map(String::from)
        .to_vec();
    for (name, algorithm) in [("MaxN", "maxn"), ("BRS", "brs")] {
        args.extend([
            "--engine".into(),
            format!("cmd={}", engine.display()),
            format!("name={name}"),
            format!("option.Algorithm={algorithm}"),
        ]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    Command::new(common::binary("kiebitz-match"))
        .args(&args)
        .output()
        .unwrap()
}

fn check_pgn(path: &Path) -> Output {
    Command::new(common::binary("kiebitz-match"))
        .args(["--game", "chamaeleon", "--check-pgn"])
        .arg(path)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The games per engine in the table on stdout.
fn games_of(stdout: &str, name: &str) -> u32 {
    stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or_else(|| panic!("no row for {name}: {stdout}"))
}

/// Each record's value of tag `name`, in order.
fn tags(pgn: &str, name: &str) -> Vec<String> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .filter_map(|l| l.strip_prefix(&prefix)?.strip_suffix("\"]"))
        .map(str::to_string)
        .collect()
}

#[test]
fn movetime_games_concurrency_pgn_and_check_pgn() {
    let pgn = temp("movetime.pgn");
    let out = run_match(&[
        "--movetime",
        "20",
        "--rounds",
        "2",
        "--games",
        "3",
        "--concurrency",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        stdout.starts_with("3 games, 2 seats, 0.02 s a move\n"),
        "{stdout}"
    );
    // Two seats, two engines: both play every game.
    assert_eq!(games_of(&stdout, "MaxN"), 3);
    assert_eq!(games_of(&stdout, "BRS"), 3);
    let records = std::fs::read_to_string(&pgn).unwrap();
    // Two games at once: the records come in the order the games end.
    let numbers = tags(&records, "Game");
    let mut sorted = numbers.clone();
    sorted.sort();
    assert_eq!(sorted, ["1", "2", "3"], "{records}");
    // The seats rotate: the first seat's engine differs in the two seatings of a round.
    let first_seat = tags(&records, "South");
    assert_eq!(first_seat.len(), 3, "{records}");
    let south_of = |game: &str| &first_seat[numbers.iter().position(|n| n == game).unwrap()];
    assert_ne!(south_of("1"), south_of("2"), "{records}");

    let checked = check_pgn(&pgn);
    let report = String::from_utf8_lossy(&checked.stdout).to_string();
    assert!(checked.status.success(), "{}", text(&checked));
    assert!(report.ends_with("3 games, 0 wrong\n"), "{report}");
    assert_eq!(report.matches(": ok (").count(), 3, "{report}");

    // A result changed by hand is found.
    let result_tag = records
        .lines()
        .find(|l| l.contains("Result \"") && !l.contains("\"draw\""))
        .map(str::to_string);
    if let Some(line) = result_tag {
        let swapped = if line.contains("\"win\"") {
            line.replace("\"win\"", "\"loss\"")
        } else {
            line.replace("\"loss\"", "\"win\"")
        };
        let bad = temp("movetime-bad.pgn");
        std::fs::write(&bad, records.replacen(&line, &swapped, 1)).unwrap();
        let checked = check_pgn(&bad);
        let _ = std::fs::remove_file(&bad);
        assert_eq!(checked.status.code(), Some(1), "{}", text(&checked));
        assert!(
            String::from_utf8_lossy(&checked.stdout).contains("1 wrong"),
            "{}",
            text(&checked)
        );
    }
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn a_clock_per_seat_with_tc_base_plus_increment() {
    let out = run_match(&["--tc", "0.5+0.02", "--games", "2"]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        stdout.starts_with("2 games, 2 seats, clock 0.5+0.02 s a seat\n"),
        "{stdout}"
    );
    assert_eq!(games_of(&stdout, "MaxN"), 2);
    // A time control with move periods has no meaning for N seats.
    let out = run_match(&["--tc", "40/60"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn openings_give_each_round_its_start() {
    // Two positions a few turns into the two-player game, one a round.
    let mut pos = Chamaeleon::startpos(2).unwrap();
    let mut moves = kiebitz::board::MoveList::new();
    let mut starts = Vec::new();
    for turn in 0..4 {
        pos.legal_moves(&mut moves);
        pos = pos.play(moves[turn % moves.len()]);
        if turn % 2 == 1 {
            starts.push(pos.text());
        }
    }
    let file = temp("openings.txt");
    std::fs::write(
        &file,
        format!("# two starts\n{}\n\n{}\n", starts[0], starts[1]),
    )
    .unwrap();
    let pgn = temp("openings.pgn");
    let out = run_match(&[
        "--movetime",
        "20",
        "--rounds",
        "2",
        "--openings",
        file.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let records = std::fs::read_to_string(&pgn).unwrap();
    // Two seatings a round: games 1–2 from the first position, 3–4 from the second.
    assert_eq!(
        tags(&records, "Start"),
        [0, 0, 1, 1].map(|k| starts[k].clone())
    );
    assert!(check_pgn(&pgn).status.success());
    // A line that is not a position is refused with its line number.
    std::fs::write(&file, "not a position\n").unwrap();
    let out = run_match(&["--movetime", "20", "--openings", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains(":1:"), "{}", text(&out));
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&pgn);
}
