//! kiebitz-match as cutechess-cli and fastchess users run it: no `--game` (chess), PGN
//! openings (`format=pgn plies=N policy=round|default`), tournaments of three engines (round
//! robin, gauntlet) with their standings and head-to-head table, `-pgnout FILE min` and
//! `-epdout FILE`. The engines are kiebitz-chess at depth 1 and 2 (fractions of a second a
//! game).

mod common;

use std::path::PathBuf;

use common::match_run::{args, run};
use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::tournament::pgn;

fn temp(name: &str) -> PathBuf {
    common::match_run::temp("kiebitz-league-tests", name)
}

/// Two openings: the Ruy Lopez's first moves and the Queen's Gambit's.
const OPENINGS: &str = "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n\
    [Event \"b\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 *\n";

/// The words naming three kiebitz-chess engines: `A` (depth 1), `B` (depth 2), `C` (depth 1).
fn three_chess_engines() -> Vec<String> {
    let chess = format!("cmd={}", common::binary("kiebitz-chess").display());
    let mut words = Vec::new();
    for (name, depth) in [("A", "1"), ("B", "2"), ("C", "1")] {
        words.extend([
            "-engine".to_string(),
            chess.clone(),
            format!("name={name}"),
            format!("depth={depth}"),
            "option.Hash=4".into(),
        ]);
    }
    words
}

/// Three kiebitz-chess engines `A` (depth 1), `B` (depth 2) and `C` (depth 1), 2 games a
/// pairing of at most 30 moves, openings from a PGN file with `policy`; the run's PGN (min)
/// and EPD files.
fn three_engines(tag: &str, tournament: &str, policy: &str) -> (String, Vec<pgn::PgnGame>, String) {
    let openings = temp(&format!("{tag}-openings.pgn"));
    std::fs::write(&openings, OPENINGS).unwrap();
    let (games, epd) = (temp(&format!("{tag}.pgn")), temp(&format!("{tag}.epd")));
    let mut words = three_chess_engines();
    words.extend(args(&[
        "-tournament",
        tournament,
        "-games",
        "2",
        "-maxmoves",
        "30",
    ]));
    words.extend(args(&[
        "-openings",
        &format!("file={}", openings.display()),
    ]));
    words.extend(args(&["format=pgn", "plies=2", policy]));
    words.extend(args(&["-pgnout", games.to_str().unwrap(), "min"]));
    words.extend(args(&["-epdout", epd.to_str().unwrap(), "-recover"]));
    let r = run(&words);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let text = std::fs::read_to_string(&games).unwrap();
    assert!(
        !text.contains('{') && !text.contains("[Termination"),
        "min PGN: {text}"
    );
    let parsed = pgn::parse(&text).unwrap();
    (r.stdout, parsed, std::fs::read_to_string(&epd).unwrap())
}

/// The `Games` column of the standings, per engine name.
fn games_played(stdout: &str, name: &str) -> u32 {
    let standings = stdout.split("Standings (").nth(1).expect("standings");
    let line = standings
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("{name} in {standings}"));
    line.split_whitespace().nth(4).unwrap().parse().unwrap()
}

#[test]
fn a_round_robin_of_three_from_pgn_openings() {
    let (stdout, games, epd) = three_engines("rr", "round-robin", "policy=round");
    // Three pairings of two games each, every game from the first opening's two plies.
    assert_eq!(games.len(), 6);
    for g in &games {
        assert_eq!(&g.moves[..2], ["e4", "e5"], "{g:?}");
        let (end, _) = pgn::replay::<Chess>(g).expect("replays under the rules");
        assert!(g.tag("FEN").is_none(), "starts from the standard position");
        assert!(
            epd.lines().any(|l| l == end.fen()),
            "{} not in {epd}",
            end.fen()
        );
    }
    assert_eq!(epd.lines().count(), 6);
    for name in ["A", "B", "C"] {
        assert_eq!(games_played(&stdout, name), 4, "{stdout}");
    }
    assert!(stdout.contains("Tournament (round robin) of 3 engines: 3 pairings of 2 games"));
    for pair in ["A vs B: ", "A vs C: ", "B vs C: "] {
        assert!(
            stdout.split("Head to head:").nth(1).unwrap().contains(pair),
            "{stdout}"
        );
    }
    assert!(stdout.trim_end().ends_with("Finished tournament"));
}

#[test]
fn a_gauntlet_takes_the_next_openings_per_pairing() {
    let (stdout, games, _) = three_engines("g", "gauntlet", "policy=default");
    // A against B, then A against C: the second pairing starts from the second opening.
    assert_eq!(games.len(), 4);
    let first: Vec<&str> = games.iter().map(|g| g.moves[0].as_str()).collect();
    assert_eq!(first, ["e4", "e4", "d4", "d4"]);
    assert_eq!(games_played(&stdout, "A"), 4);
    assert_eq!(games_played(&stdout, "B"), 2);
    assert_eq!(games_played(&stdout, "C"), 2);
    assert!(!stdout.contains("B vs C"), "{stdout}");
}

/// Three engines at depth 1 (`A`, `C`) and 2 (`B`), 2 games a pairing of at most 20 moves,
/// with `more` words; the run's stdout.
fn league_with(tournament: &str, more: &[&str]) -> String {
    let mut words = three_chess_engines();
    words.extend(args(&["-tournament", tournament, "-games", "2"]));
    words.extend(args(&["-maxmoves", "20", "-srand", "7"]));
    words.extend(args(&["-random-openings", "plies=4"]));
    words.extend(args(more));
    let r = run(&words);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    r.stdout
}

/// The head-to-head line `A vs B: W - L - D` of the text output, as the first's half points.
fn text_half_points(stdout: &str, a: &str, b: &str) -> u64 {
    let h2h = stdout.split("Head to head:").nth(1).expect("head to head");
    let line = h2h
        .lines()
        .find(|l| l.starts_with(&format!("{a} vs {b}: ")))
        .unwrap_or_else(|| panic!("{a} vs {b} in {h2h}"));
    let n: Vec<u64> = line
        .split(':')
        .nth(1)
        .unwrap()
        .split('[')
        .next()
        .unwrap()
        .split('-')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    2 * n[0] + n[2]
}

/// The cross table cell of `row` against `col`: (points as half points, games).
fn cell(html: &str, row: &str, col: &str) -> (u64, u64) {
    let key = format!("data-row=\"{row}\" data-col=\"{col}\" data-points=\"");
    let rest = html.split(&key).nth(1).unwrap_or_else(|| panic!("{key}"));
    let points = rest.split('"').next().unwrap();
    let games = rest.split("data-games=\"").nth(1).unwrap();
    let half = match points.split_once('.') {
        Some((p, _)) => 2 * p.parse::<u64>().unwrap() + 1,
        None => 2 * points.parse::<u64>().unwrap(),
    };
    (half, games.split('"').next().unwrap().parse().unwrap())
}

#[test]
fn a_round_robin_writes_its_report_with_the_cross_table() {
    let report = temp("rr-report.html");
    let stdout = league_with("round-robin", &["-report", report.to_str().unwrap()]);
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("data-status=\"finished\""), "{html}");
    assert!(html.contains("finished: 6 of 6 games played"));
    for name in ["A", "B", "C"] {
        assert!(
            html.contains(&format!("data-engine=\"{name}\" data-games=\"4\"")),
            "{name}: {html}"
        );
    }
    // The page's cross table holds the text's head to head, both ways.
    for (a, b) in [("A", "B"), ("A", "C"), ("B", "C")] {
        let half = text_half_points(&stdout, a, b);
        assert_eq!(cell(&html, a, b), (half, 2), "{a} vs {b}\n{stdout}");
        assert_eq!(cell(&html, b, a), (4 - half, 2), "{b} vs {a}");
    }
    // Without --pgn the games went through a hidden file beside the report, now removed.
    assert!(!report.with_file_name(".rr-report.html.games.pgn").exists());
}

#[test]
fn a_tournament_report_counts_only_its_own_games_of_a_pgn_file() {
    let (report, games) = (temp("g-report.html"), temp("g-report.pgn"));
    let old = "[White \"A\"]\n[Black \"Z\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n";
    std::fs::write(&games, old).unwrap();
    let stdout = league_with(
        "gauntlet",
        &[
            "-report",
            report.to_str().unwrap(),
            "-pgnout",
            games.to_str().unwrap(),
        ],
    );
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        html.contains("data-engine=\"A\" data-games=\"4\""),
        "{html}"
    );
    assert!(
        !html.contains("data-engine=\"Z\""),
        "an earlier run's game: {html}"
    );
    assert!(
        !html.contains("data-row=\"B\" data-col=\"C\""),
        "B never met C"
    );
    assert_eq!(cell(&html, "A", "B").1, 2, "{stdout}");
    // The PGN file keeps the earlier game and the four new ones.
    let text = std::fs::read_to_string(&games).unwrap();
    assert_eq!(pgn::parse(&text).unwrap().len(), 5);
}
