//! `kiebitz-match --report FILE.html`: a real match (kiebitz-pawns against itself) writes a
//! page whose standings equal the match's own results table, with SVG plots, the SPRT's LLR as
//! the match printed it and every game's moves; `--from-pgn` makes the same numbers from the
//! match's PGN and from a hand-written one; Ctrl-C leaves the report of the games played; bad
//! paths and files fail clearly and write nothing; in headless Chromium the page opens at its
//! top.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use kiebitz::tournament::pgn::{self, PgnGame};
use serde_json::Value;

use common::match_run::{Run, args, run};

fn temp(name: &str) -> PathBuf {
    common::match_run::temp("kiebitz-report-tests", name)
}

/// kiebitz-pawns against itself (`A`, `B`) in pawns6 at `movetime` ms, `games` games.
fn pawns_match(games: u32, movetime: u32) -> Vec<String> {
    let engine = format!("cmd={}", common::binary("kiebitz-pawns").display());
    [
        args(&["--game", "pawns", "--variant", "pawns6", "--engine"]),
        vec![engine.clone()],
        args(&["name=A", "option.Hash=4", "--engine"]),
        vec![engine],
        args(&["name=B", "option.Hash=4", "--random-openings", "plies=2"]),
        args(&["--movetime", &movetime.to_string()]),
        args(&["--games", &games.to_string(), "--seed", "7"]),
    ]
    .concat()
}

/// A standings row of the page: (games, wins, losses, draws, points, score) by engine name.
fn standings(html: &str) -> Vec<(String, [String; 6])> {
    html.lines()
        .filter(|l| l.starts_with("<tr class=\"standing\""))
        .map(|l| {
            let attr = |k: &str| {
                let start = l.find(&format!("data-{k}=\"")).expect(k) + k.len() + 7;
                l[start..start + l[start..].find('"').unwrap()].to_string()
            };
            (
                attr("engine"),
                ["games", "wins", "losses", "draws", "points", "score"].map(attr),
            )
        })
        .collect()
}

/// The rows of the match's final text table, in the same form (score without `%`).
fn table(stdout: &str) -> Vec<(String, [String; 6])> {
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Results of "))
        .expect("a results table");
    lines[at + 2..at + 4]
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (
                w[0].to_string(),
                [
                    w[1].to_string(),
                    w[2].to_string(),
                    w[3].to_string(),
                    w[4].to_string(),
                    w[5].to_string(),
                    w[6].trim_end_matches('%').to_string(),
                ],
            )
        })
        .collect()
}

/// The games the page embeds.
fn data(html: &str) -> Value {
    let key = "id=\"report-data\">";
    let start = html.find(key).expect("report data") + key.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("report data is JSON")
}

fn attr(html: &str, key: &str) -> String {
    let start = html.find(&format!("{key}=\"")).expect(key) + key.len() + 2;
    html[start..start + html[start..].find('"').unwrap()].to_string()
}

/// (wins, losses, draws) of `name` over the games' results, counted here from the PGN.
fn counted(games: &[PgnGame], name: &str) -> (u64, u64, u64) {
    let mut wld = (0, 0, 0);
    for g in games {
        let white = g.tag("White") == Some(name);
        if !white && g.tag("Black") != Some(name) {
            continue;
        }
        match (g.result.as_str(), white) {
            ("1-0", true) | ("0-1", false) => wld.0 += 1,
            ("1-0", false) | ("0-1", true) => wld.1 += 1,
            ("1/2-1/2", _) => wld.2 += 1,
            _ => {}
        }
    }
    wld
}

fn from_pgn(game: &str, pgn: &Path, report: &Path, extra: &[&str]) -> Run {
    run(&[
        args(&["--game", game, "--report", report.to_str().unwrap()]),
        args(&["--from-pgn", pgn.to_str().unwrap()]),
        args(extra),
    ]
    .concat())
}

#[test]
fn a_real_match_writes_its_report_and_its_pgn_gives_the_same() {
    let report = temp("match.html");
    let pgn_path = temp("match.pgn");
    let r = run(&[
        pawns_match(6, 20),
        args(&[
            "--sprt",
            "elo0=0",
            "elo1=50",
            "--report",
            report.to_str().unwrap(),
        ]),
        args(&["--pgn", pgn_path.to_str().unwrap()]),
    ]
    .concat());
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        !r.stdout.contains("report"),
        "stdout is for results: {}",
        r.stdout
    );
    assert!(
        r.stderr.contains("report of 6 games written to"),
        "{}",
        r.stderr
    );
    let html = std::fs::read_to_string(&report).expect("report written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(attr(&html, "data-status"), "finished");
    assert!(html.matches("<svg").count() >= 2, "an Elo and an LLR plot");
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));

    // The standings are the match's own table.
    let rows = standings(&html);
    assert_eq!(rows, table(&r.stdout), "{}", r.stdout);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].1[0], "6");

    // The SPRT's LLR as the match printed it last.
    let llr = r
        .stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("SPRT: llr "))
        .expect("an SPRT line");
    assert_eq!(
        attr(&html, "data-llr"),
        llr.split_whitespace().next().unwrap()
    );

    // Every game with its moves, and a position for the start and after each move.
    let games = pgn::parse(&std::fs::read_to_string(&pgn_path).unwrap()).unwrap();
    let embedded = data(&html);
    let list = embedded["games"].as_array().unwrap();
    assert_eq!(list.len(), games.len());
    for (g, e) in games.iter().zip(list) {
        let moves: Vec<&str> = e["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(moves, g.moves);
        assert_eq!(e["fens"].as_array().unwrap().len(), g.moves.len() + 1);
        assert_eq!(e["fens"][0].as_str(), g.tag("FEN"));
        assert_eq!(e["result"].as_str(), Some(g.result.as_str()));
        let again = pgn::parse(e["pgn"].as_str().unwrap()).unwrap();
        assert_eq!(again[0].moves, g.moves);
    }
    // The standings count the PGN's results.
    for (name, row) in &rows {
        let (w, l, d) = counted(&games, name);
        assert_eq!(row[1..4], [w.to_string(), l.to_string(), d.to_string()]);
    }

    // The report of the PGN holds the same numbers.
    let again = temp("again.html");
    let r2 = from_pgn("pawns", &pgn_path, &again, &["--sprt", "elo0=0", "elo1=50"]);
    assert_eq!(r2.code, 0, "{}", r2.stderr);
    assert_eq!(r2.stdout, "");
    let html2 = std::fs::read_to_string(&again).unwrap();
    assert_eq!(standings(&html2), rows);
    assert_eq!(attr(&html2, "data-llr"), attr(&html, "data-llr"));
    assert_eq!(attr(&html2, "data-ptnml"), attr(&html, "data-ptnml"));
    assert_eq!(attr(&html2, "data-status"), "pgn");
    assert_eq!(data(&html2)["games"].as_array().unwrap().len(), 6);
}

#[test]
fn a_report_from_a_pgn_counts_its_results() {
    // Hand-written pawns3 games: X wins twice, loses once, draws once; one game unfinished;
    // the third engine Z plays once.
    let game = |round: u32, white: &str, black: &str, result: &str, moves: &str| {
        format!(
            "[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [Variant \"pawns3\"]\n[FEN \"ppp/3/PPP w - - 0 1\"]\n\n{moves} {result}\n\n"
        )
    };
    let text = [
        game(1, "X", "Y", "1-0", "1. b2 a2 2. bxc3"),
        game(2, "Y", "X", "0-1", "1. a2"),
        game(3, "X", "Y", "0-1", "1. a2 b2"),
        game(4, "Y", "X", "1/2-1/2", ""),
        game(5, "X", "Y", "*", "1. c2"),
        game(6, "Z", "X", "1-0", "1. b2"),
    ]
    .concat();
    let pgn_path = temp("hand.pgn");
    std::fs::write(&pgn_path, &text).unwrap();
    let report = temp("hand.html");
    let r = from_pgn("pawns", &pgn_path, &report, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let html = std::fs::read_to_string(&report).unwrap();
    let games = pgn::parse(&text).unwrap();
    let rows = standings(&html);
    let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["X", "Y", "Z"]);
    for (name, row) in &rows {
        let (w, l, d) = counted(&games, name);
        assert_eq!(row[0], (w + l + d).to_string(), "{name}");
        assert_eq!(
            row[1..4],
            [w.to_string(), l.to_string(), d.to_string()],
            "{name}"
        );
    }
    assert_eq!(rows[0].1[4], "2.5");
    assert!(html.contains("1 unfinished game (result *) not counted"));
    // Three engines: no pair Elo, no SPRT section.
    assert!(html.contains("No pair Elo"));
    assert!(!html.contains("id=\"sprt\""));
    let embedded = data(&html);
    assert_eq!(
        embedded["games"][0]["moves"],
        serde_json::json!(["b2", "a2", "bxc3"])
    );
    assert_eq!(embedded["games"][0]["fens"].as_array().unwrap().len(), 4);
}

#[test]
fn bad_paths_and_files_fail_clearly_and_write_nothing() {
    // An unwritable report stops the match before its first game.
    let r = run(&[
        pawns_match(2, 20),
        args(&["--report", "/nonexistent-kiebitz-dir/r.html"]),
    ]
    .concat());
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("cannot write the report /nonexistent-kiebitz-dir/r.html"),
        "{}",
        r.stderr
    );
    assert!(!r.stdout.contains("Started game"), "{}", r.stdout);

    let report = temp("never.html");
    let r = from_pgn("pawns", &temp("missing.pgn"), &report, &[]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with("kiebitz-match: PGN file:"),
        "{}",
        r.stderr
    );
    assert!(!report.exists());

    let bad = temp("bad.pgn");
    std::fs::write(&bad, "[Event \"x\"]\n\n1. a2 b2\n").unwrap();
    let r = from_pgn("pawns", &bad, &report, &[]);
    assert_eq!(r.code, 1);
    assert!(!report.exists(), "{}", r.stderr);

    // Chess games read as pawn chess: a chess variant is no pawn-chess variant, and without a
    // Variant tag no move replays.
    let chess = temp("chess.pgn");
    for text in [
        "[Variant \"chess960\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
        "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
    ] {
        std::fs::write(&chess, text).unwrap();
        let r = from_pgn("pawns", &chess, &report, &[]);
        assert_eq!(r.code, 1);
        assert!(
            r.stderr.contains("game 1:") && r.stderr.contains("is --game pawns right?"),
            "{}",
            r.stderr
        );
        assert!(!report.exists());
    }

    let good = temp("good.pgn");
    std::fs::write(
        &good,
        "[Variant \"pawns3\"]\n[FEN \"ppp/3/PPP w - - 0 1\"]\n\n1. a2 1-0\n",
    )
    .unwrap();
    let dir = temp("a-directory.html");
    std::fs::create_dir_all(&dir).unwrap();
    let r = from_pgn("pawns", &good, &dir, &[]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("it is a directory"), "{}", r.stderr);
    assert!(from_pgn("pawns", &good, &report, &[]).code == 0 && report.exists());

    let r = run(&args(&["--game", "pawns", "--from-pgn", "x.pgn"]));
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "kiebitz-match: --from-pgn makes a report: give --report FILE.html\n"
    );
}

#[test]
fn ctrl_c_leaves_the_report_of_the_games_played() {
    let report = temp("interrupted.html");
    let mut child = Command::new(common::binary("kiebitz-match"))
        .args(pawns_match(40, 20))
        .args(["--report", report.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kiebitz-match runs");
    // The reader stays open until the match has exited: a closed stdout would stop the match
    // cleanly on its own (exit 0), racing with the Ctrl-C under test.
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut finished = 0;
    for line in lines.by_ref() {
        let line = line.unwrap();
        if line.starts_with("Finished game") {
            finished += 1;
            if finished == 2 {
                break;
            }
        }
    }
    assert_eq!(finished, 2);
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    drop(lines);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("games played written to"), "{stderr}");
    let html = std::fs::read_to_string(&report).unwrap();
    assert_eq!(attr(&html, "data-status"), "interrupted");
    let n = data(&html)["games"].as_array().unwrap().len();
    assert!((2..40).contains(&n), "{n} games");
    assert_eq!(standings(&html)[0].1[0], n.to_string());
}

/// The report opens at its title, not scrolled to the first game's moves, and stepping to a
/// long game's end scrolls only the move list (scripts/gui/report-top.py in headless
/// Chromium; skipped with the reason when the browser is missing).
#[test]
fn a_report_opens_at_its_top() {
    if let Some(why) = common::browser::missing() {
        eprintln!("SKIPPED report in a browser: {why}");
        return;
    }
    let report = temp("top.html");
    let games = common::data_path("chess-tune-games.pgn");
    let r = from_pgn("chess", &games, &report, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gui/report-top.py"))
        .arg(&report)
        .output()
        .expect("python3 runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
}
