//! kiebitz-match end to end: tournaments between engines over UCI and XBoard, PGN that
//! replays under kiebitz's rules to its recorded results, broken engines that lose their games
//! while the run goes on, SPRT stopping, and bad command lines.
//!
//! The engines are `tests/engines/fake_pawns.py` (a tiny pawn-chess player, with a mode that
//! misbehaves) and the kiebitz-pawns binary itself.

mod common;

use std::path::{Path, PathBuf};

use kiebitz::games::pawns::Pawns;
use kiebitz::tournament::pgn::{self, PgnGame};

fn fake(mode: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fake_pawns.py");
    format!("cmd=python3 {} {mode}", script.display())
}

use common::match_run::{Run, args, run};

fn temp(name: &str) -> PathBuf {
    common::match_run::temp("kiebitz-match-tests", name)
}

/// `--game pawns --variant VARIANT` and two fake engines, each given as its mode and its
/// options (`name=…`, `proto=…`).
fn fakes(variant: &str, a: (&str, &[&str]), b: (&str, &[&str])) -> Vec<String> {
    [
        args(&["--game", "pawns", "--variant", variant, "--engine"]),
        vec![fake(a.0)],
        args(a.1),
        args(&["--engine"]),
        vec![fake(b.0)],
        args(b.1),
    ]
    .concat()
}

/// The kiebitz binary `bin` against itself on `game` (`--game …` words): one seat over UCI
/// named `TAG-uci`, the other over XBoard named `TAG-xboard`, 8 MiB of hash each.
fn uci_against_xboard(bin: &str, tag: &str, game: &[&str]) -> Vec<String> {
    let engine = format!("cmd={}", common::binary(bin).display());
    [
        args(game),
        vec!["--engine".into(), engine.clone(), format!("name={tag}-uci")],
        args(&["option.Hash=8"]),
        vec!["--engine".into(), engine, format!("name={tag}-xboard")],
        args(&["proto=xboard", "option.Hash=8"]),
    ]
    .concat()
}

/// Runs a match with the command line `parts` and `--pgn` to a fresh file `name`; checks that
/// it succeeded and wrote `n` games. Returns the run, the games and the PGN's path.
fn run_to_pgn(name: &str, parts: &[Vec<String>], n: usize) -> (Run, Vec<PgnGame>, PathBuf) {
    let path = temp(name);
    let r = run(&[parts, &[args(&["--pgn", path.to_str().unwrap()])]]
        .concat()
        .concat());
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let games = read_pgn(&path);
    assert_eq!(games.len(), n);
    (r, games, path)
}

/// `--check-pgn`: replays the PGN at `path` under the rules of `game`.
fn check_pgn(game: &str, path: &Path) -> Run {
    run(&args(&[
        "--game",
        game,
        "--check-pgn",
        path.to_str().unwrap(),
    ]))
}

/// The last `Score of A vs B: W - L - D` line as (W, L, D).
fn final_score(stdout: &str) -> (u32, u32, u32) {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Score of "))
        .expect("a score line");
    let counts = line.split(": ").nth(1).unwrap();
    let n: Vec<u32> = counts
        .split_whitespace()
        .take(5)
        .filter(|t| *t != "-")
        .map(|t| t.parse().unwrap())
        .collect();
    (n[0], n[1], n[2])
}

fn read_pgn(path: &Path) -> Vec<PgnGame> {
    pgn::parse(&std::fs::read_to_string(path).expect("PGN written")).expect("PGN parses")
}

/// Every game replays under the rules; games the rules ended have the rules' result.
fn check_replays(games: &[PgnGame]) {
    for g in games {
        let result = g.tag("Result").unwrap();
        assert_eq!(result, g.result, "Result tag and movetext agree");
        let (_, verdict) = pgn::replay::<Pawns>(g).expect("the game replays");
        let term = g.tag("Termination").unwrap();
        if term == "normal" {
            let v = verdict.expect("a normal end is an end by the rules");
            assert_eq!(v.result_string(), result);
        } else {
            assert_eq!(verdict, None, "{term}: the rules had not ended the game");
        }
        assert_eq!(
            g.tag("PlyCount").unwrap().parse::<usize>().unwrap(),
            g.moves.len()
        );
    }
}

/// Points of engine `name` in the PGN games.
fn points(games: &[PgnGame], name: &str) -> (u32, u32, u32) {
    let (mut w, mut l, mut d) = (0, 0, 0);
    for g in games {
        let white = g.tag("White").unwrap() == name;
        match (g.result.as_str(), white) {
            ("1/2-1/2", _) => d += 1,
            ("1-0", true) | ("0-1", false) => w += 1,
            _ => l += 1,
        }
    }
    (w, l, d)
}

#[test]
fn uci_engine_against_xboard_engine_with_random_openings() {
    let (r, games, _) = run_to_pgn(
        "fake.pgn",
        &[
            fakes(
                "pawns5",
                ("normal", &["name=U"]),
                ("normal", &["name=X", "proto=xboard"]),
            ),
            args(&[
                "--tc",
                "5+0.1",
                "--games",
                "6",
                "--concurrency",
                "2",
                "--random-openings",
                "plies=2",
                "depth=1",
                "--seed",
                "3",
            ]),
        ],
        6,
    );
    check_replays(&games);
    assert_eq!(final_score(&r.stdout), points(&games, "U"));
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("pawns5"));
        assert_eq!(g.tag("TimeControl"), Some("5+0.1"));
        // Random openings start from the start position, which a pawn-chess PGN must name.
        assert_eq!(g.tag("FEN"), Some("ppppp/5/5/5/PPPPP w - - 0 1"));
        assert_eq!(g.tag("SetUp"), Some("1"));
    }
    // Both games of a pair open with the same two book moves, colours swapped.
    let mut rounds: Vec<(usize, &PgnGame)> = games
        .iter()
        .map(|g| (g.tag("Round").unwrap().parse().unwrap(), g))
        .collect();
    rounds.sort_by_key(|x| x.0);
    for pair in rounds.chunks(2) {
        let (a, b) = (pair[0].1, pair[1].1);
        assert_eq!(a.moves[..2], b.moves[..2]);
        assert_eq!(a.tag("White"), b.tag("Black"));
    }
    assert!(r.stdout.contains("Ptnml(0-2): ["), "{}", r.stdout);
    assert!(r.stdout.contains(", pairs 3,"), "{}", r.stdout);
    assert!(r.stdout.ends_with("Finished match\n"));
}

#[test]
fn openings_from_an_epd_file() {
    let book = common::data_path("pawns5-openings.epd");
    let (_, mut games, _) = run_to_pgn(
        "epd.pgn",
        &[
            fakes("pawns5", ("normal", &["name=A"]), ("normal", &["name=B"])),
            args(&["--depth", "1", "--games", "4", "--openings"]),
            vec![book.to_str().unwrap().to_string()],
        ],
        4,
    );
    games.sort_by_key(|g| g.tag("Round").unwrap().parse::<u32>().unwrap());
    check_replays(&games);
    let fens: Vec<&str> = games.iter().map(|g| g.tag("FEN").unwrap()).collect();
    assert_eq!(
        fens,
        vec![
            "ppppp/5/5/2P2/PP1PP b - - 0 1",
            "ppppp/5/5/2P2/PP1PP b - - 0 1",
            "p1ppp/1p3/5/2P2/PP1PP w - - 0 2",
            "p1ppp/1p3/5/2P2/PP1PP w - - 0 2",
        ]
    );
    assert!(games.iter().all(|g| g.tag("SetUp") == Some("1")));
    assert_eq!(games[0].tag("TimeControl"), Some("-"));
}

/// An engine that defines its variants in a file (Fairy-Stockfish's `VariantPath`) and resets
/// its variant at every `uci`: the variant given as an option must still be the one it plays,
/// both when the option names it and when `--variant` alone does.
#[test]
fn a_variant_path_engine_keeps_its_variant() {
    for options in [
        &[
            "name=F",
            "option.VariantPath=/x/variants.ini",
            "option.UCI_Variant=pawns5",
        ][..],
        &["name=F", "option.VariantPath=/x/variants.ini"][..],
    ] {
        let (r, games, _) = run_to_pgn(
            "variant-path.pgn",
            &[
                fakes("pawns5", ("fairy", options), ("normal", &["name=N"])),
                args(&["--depth", "1", "--games", "2"]),
            ],
            2,
        );
        check_replays(&games);
        assert!(
            games.iter().all(|g| g.tag("Termination") == Some("normal")),
            "{options:?}: {}\n{}",
            r.stdout,
            r.stderr
        );
    }
}

/// Plays two games of a good engine against a broken one; the broken one loses both.
fn broken(mode: &str, proto: &str, tc: &str, termination: &str, reason: &str) {
    let (r, games, pgn_path) = run_to_pgn(
        &format!("broken-{mode}-{proto}.pgn"),
        &[
            fakes(
                "pawns5",
                ("normal", &["name=Good"]),
                (mode, &["name=Broken", &format!("proto={proto}")]),
            ),
            args(&["--tc", tc, "--games", "2"]),
        ],
        2,
    );
    assert_eq!(final_score(&r.stdout), (2, 0, 0), "{}", r.stdout);
    check_replays(&games);
    for g in &games {
        assert_eq!(g.tag("Termination"), Some(termination));
    }
    // The report: every game announced, a clean +inf for a 100 % score (never NaN), the
    // results table by engine and colour, the terminations by kind.
    assert!(
        r.stdout.starts_with(&format!(
            "Good vs Broken: 2 games of pawns5, {tc}, concurrency 1\n"
        )),
        "{}",
        r.stdout
    );
    for n in 1..=2 {
        assert!(
            r.stdout.contains(&format!("Started game {n} of 2 (")),
            "{}",
            r.stdout
        );
    }
    assert!(!r.stdout.contains("NaN"), "{}", r.stdout);
    assert!(
        r.stdout.contains("Elo difference: +inf +/- n/a,"),
        "{}",
        r.stdout
    );
    let row = |name: &str| -> Vec<String> {
        let line = r.stdout.lines().find(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some(name) && words.next().is_some_and(|w| w.parse::<u32>().is_ok())
        });
        let line = line.unwrap_or_else(|| panic!("a {name} row in\n{}", r.stdout));
        line.split_whitespace().map(str::to_string).collect()
    };
    let good = row("Good");
    assert_eq!(
        &good[..10],
        [
            "Good", "2", "2", "0", "0", "2", "100.0%", "+inf", "+/-", "n/a"
        ]
    );
    assert_eq!(&good[10..], ["1-0-0", "(1)", "1-0-0", "(1)"]);
    let bad = row("Broken");
    assert_eq!(
        &bad[..8],
        ["Broken", "2", "0", "2", "0", "0", "0.0%", "-inf"]
    );
    assert!(
        r.stdout
            .contains(&format!("Terminations: {termination} 2\n")),
        "{}",
        r.stdout
    );
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    assert!(text.contains(reason), "{reason} in\n{text}");
    assert!(
        r.stderr.contains(reason),
        "the log names it too:\n{}",
        r.stderr
    );
}

#[test]
fn an_illegal_move_loses() {
    broken(
        "illegal",
        "uci",
        "1+0.1",
        "illegal move",
        "makes an illegal move: a1a1",
    );
    broken(
        "illegal",
        "xboard",
        "1+0.1",
        "illegal move",
        "makes an illegal move: a1a1",
    );
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    // The crashing engine plays one move per process: it must be restarted for game 2.
    broken(
        "crash",
        "uci",
        "1+0.1",
        "abandoned",
        "disconnects: the engine exited",
    );
    broken(
        "crash",
        "xboard",
        "1+0.1",
        "abandoned",
        "disconnects: the engine exited",
    );
}

#[test]
fn a_hang_loses_uci() {
    broken(
        "hang",
        "uci",
        "0.3+0.05",
        "stalled connection",
        "connection stalls",
    );
}

#[test]
fn a_hang_loses_xboard() {
    broken(
        "hang",
        "xboard",
        "0.3+0.05",
        "stalled connection",
        "connection stalls",
    );
}

#[test]
fn a_late_move_loses_on_time() {
    broken("slow", "uci", "0.4", "time forfeit", "loses on time");
}

#[test]
fn sprt_stops_the_run() {
    let (r, _, _) = run_to_pgn(
        "sprt.pgn",
        &[
            fakes(
                "pawns4",
                ("normal", &["name=Good"]),
                ("illegal", &["name=Bad"]),
            ),
            args(&[
                "--tc",
                "1+0.1",
                "--games",
                "200",
                "--sprt",
                "elo0=0",
                "elo1=200",
                "--ratinginterval",
                "50",
            ]),
        ],
        16,
    );
    // Pairs won twice: the regularized GSPRT against elo1 = 200 gives LLR 2.929 after seven
    // pairs and 3.348 > 2.944 after eight (see the stats unit tests). A game that was already
    // under way when the test decided is not counted.
    assert!(r.stdout.contains("SPRT: H1 accepted"), "{}", r.stdout);
    assert_eq!(final_score(&r.stdout), (16, 0, 0));
}

#[test]
fn bad_command_lines_fail_clearly() {
    let r = run(&args(&[
        "--game", "pawns", "--engine", "cmd=a", "--tc", "1",
    ]));
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "kiebitz-match: kiebitz-match plays engines against each other: give --engine at least twice, got 1\n"
    );
    let r = run(&args(&[
        "--game", "chezz", "--engine", "cmd=a", "--engine", "cmd=b", "--tc", "1",
    ]));
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("unknown game 'chezz' (known: pawns"),
        "{}",
        r.stderr
    );
    let r = run(&args(&[
        "--game",
        "pawns",
        "--engine",
        "cmd=/nonexistent/engine",
        "--engine",
        "cmd=b",
        "--tc",
        "1",
    ]));
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("cannot start engine '/nonexistent/engine'"),
        "{}",
        r.stderr
    );
    let r = run(&args(&[
        "--game",
        "pawns",
        "--variant",
        "pawns9",
        "--engine",
        "cmd=a",
        "--engine",
        "cmd=b",
        "--tc",
        "1",
    ]));
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("unknown variant 'pawns9'"),
        "{}",
        r.stderr
    );
    let r = run(&args(&["--help"]));
    assert_eq!(r.code, 0);
    assert!(r.stdout.starts_with("usage: kiebitz-match"));
}

#[test]
fn adjudication_by_scores_and_move_count() {
    // Both engines report 0.00: a draw once both have said so for 2 moves each.
    let (r, games, _) = run_to_pgn(
        "draw.pgn",
        &[
            fakes(
                "pawns5",
                ("normal", &["name=A"]),
                ("normal", &["name=B", "proto=xboard"]),
            ),
            args(&["--depth", "1", "--games", "2"]),
            args(&["--draw", "movenumber=1", "movecount=2", "score=0"]),
        ],
        2,
    );
    assert_eq!(final_score(&r.stdout), (0, 0, 2));
    check_replays(&games);
    for g in &games {
        assert_eq!(g.tag("Termination"), Some("adjudication"));
        assert_eq!(g.moves.len(), 4);
    }
    // The gloomy engine reports −5.00 after each move: it loses on its second move.
    let (r, games, _) = run_to_pgn(
        "resign.pgn",
        &[
            fakes("pawns5", ("normal", &["name=A"]), ("gloomy", &["name=G"])),
            args(&["--depth", "1", "--games", "2"]),
            args(&["--resign", "movecount=2", "score=400"]),
        ],
        2,
    );
    assert_eq!(final_score(&r.stdout), (2, 0, 0));
    check_replays(&games);
    let mut plies: Vec<usize> = games.iter().map(|g| g.moves.len()).collect();
    plies.sort();
    // Gloomy as White resigns after its 2nd move (ply 3), as Black after its 2nd (ply 4).
    assert_eq!(plies, vec![3, 4]);
    assert!(
        games
            .iter()
            .all(|g| g.tag("Termination") == Some("adjudication"))
    );
    // A move limit: a draw after 2 full moves.
    let r = run(&[
        fakes("pawns5", ("normal", &["name=A"]), ("normal", &["name=B"])),
        args(&["--depth", "1", "--games", "2", "--maxmoves", "2"]),
    ]
    .concat());
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(final_score(&r.stdout), (0, 0, 2));
    assert!(r.stdout.contains("{Draw by adjudication: 2 moves played}"));
}

#[test]
fn kiebitz_pawns_against_itself_over_uci_and_xboard() {
    let (r, games, pgn_path) = run_to_pgn(
        "kiebitz.pgn",
        &[
            uci_against_xboard(
                "kiebitz-pawns",
                "K",
                &["--game", "pawns", "--variant", "pawns6d"],
            ),
            args(&["--tc", "2+0.05", "--timemargin", "500", "--games", "6"]),
            args(&["--concurrency", "2", "--seed", "5"]),
            args(&["--random-openings", "plies=3", "depth=4", "margin=150"]),
        ],
        6,
    );
    check_replays(&games);
    for g in &games {
        // Every game ends by the rules: no forfeit, no illegal move, no stall.
        assert_eq!(g.tag("Termination"), Some("normal"), "{g:?}");
        assert_eq!(g.tag("Variant"), Some("pawns6d"));
    }
    assert_eq!(final_score(&r.stdout), points(&games, "K-uci"));
    assert!(r.stdout.contains(", pairs 3,"), "{}", r.stdout);
    let r = check_pgn("pawns", &pgn_path);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.ends_with("6 games, 0 wrong\n"), "{}", r.stdout);
}

#[test]
fn check_pgn_replays_games_and_their_results() {
    let game = |result: &str| {
        format!(
            "[Variant \"pawns3\"]\n[FEN \"ppp/3/PPP b - - 0 1\"]\n[SetUp \"1\"]\n\
             [Result \"{result}\"]\n[Termination \"normal\"]\n\n\
             1... a3a2 2. b1a2 c3c2 3. a2a3 {{White wins}} {result}\n\n"
        )
    };
    let path = temp("check.pgn");
    std::fs::write(&path, game("1-0")).unwrap();
    let r = check_pgn("pawns", &path);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout, "game 1: ok (4 plies, 1-0)\n1 games, 0 wrong\n");
    std::fs::write(&path, format!("{}{}", game("1-0"), game("0-1"))).unwrap();
    let r = check_pgn("pawns", &path);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("game 2: the rules say 1-0, the PGN says 0-1\n2 games, 1 wrong\n"),
        "{}",
        r.stdout
    );
    assert!(r.stderr.contains("1 of 2 games"), "{}", r.stderr);
}

#[test]
fn kiebitz_chess_against_itself_over_uci_and_xboard() {
    let (r, games, pgn_path) = run_to_pgn(
        "chess.pgn",
        &[
            uci_against_xboard("kiebitz-chess", "C", &["--game", "chess"]),
            args(&["--depth", "3", "--games", "4", "--maxmoves", "80"]),
            args(&["--random-openings", "plies=4", "depth=3", "margin=80"]),
        ],
        4,
    );
    for g in &games {
        // Standard chess: no Variant tag, no FEN (random plies from the start position).
        assert_eq!(g.tag("Variant"), None);
        assert_eq!(g.tag("FEN"), None);
        let term = g.tag("Termination").unwrap();
        assert!(term == "normal" || term == "adjudication", "{g:?}");
        let (_, verdict) = pgn::replay::<kiebitz::games::chess::Chess>(g).expect("replays");
        match term {
            "normal" => assert_eq!(verdict.unwrap().result_string(), g.result),
            _ => assert_eq!((verdict, g.result.as_str()), (None, "1/2-1/2")),
        }
    }
    assert_eq!(final_score(&r.stdout), points(&games, "C-uci"));
    assert!(
        r.stdout.contains("Started game 1 of 4 (C-uci vs C-xboard)")
            && r.stdout.contains("Started game 2 of 4 (C-xboard vs C-uci)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("\nResults of C-uci vs C-xboard (4 of 4 games of chess):\n")
    );
    let r = check_pgn("chess", &pgn_path);
    assert_eq!(r.code, 0, "{}", r.stdout);
    python_chess_reads(&pgn_path, 4);
}

/// python-chess reads every game of a chess PGN move by move, each SAN exactly its own.
fn python_chess_reads(pgn: &PathBuf, games: usize) {
    let text = common::python_script("oracles/check_pgn_python.py", &[pgn]);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("GAME ")).count(),
        games,
        "{text}"
    );
}

/// A Chess960 match: the engines are switched to Chess960 (UCI_Chess960, XBoard
/// `variant fischerandom`), the PGN carries `Variant` and the start FEN, python-chess reads it
/// with chess960 rules, and --check-pgn replays it.
#[test]
fn kiebitz_chess960_against_itself() {
    let epd = temp("chess960.epd");
    std::fs::write(
        &epd,
        "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w KQkq -\n\
         nqbbrkrn/pppppppp/8/8/8/8/PPPPPPPP/NQBBRKRN w GEge -\n",
    )
    .unwrap();
    let (_, games, pgn_path) = run_to_pgn(
        "chess960.pgn",
        &[
            uci_against_xboard(
                "kiebitz-chess",
                "C",
                &["--game", "chess", "--variant", "chess960"],
            ),
            args(&["--depth", "2", "--games", "4", "--maxmoves", "30"]),
            args(&["--openings", epd.to_str().unwrap()]),
        ],
        4,
    );
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("chess960"));
        assert_eq!(g.tag("SetUp"), Some("1"));
        let term = g.tag("Termination").unwrap();
        assert!(term == "normal" || term == "adjudication", "{g:?}");
    }
    python_chess_reads(&pgn_path, 4);
    let r = check_pgn("chess", &pgn_path);
    assert_eq!(r.code, 0, "{}", r.stdout);
}

/// An engine that does not announce the variant is refused before any game, over UCI
/// (`UCI_Variant` combo) and XBoard (`feature variants`), as cutechess does.
#[test]
fn an_engine_without_the_variant_is_refused() {
    let engine = format!("cmd={}", common::binary("kiebitz-chess").display());
    for proto in ["uci", "xboard"] {
        let r = run(&[
            args(&["--game", "raeuberschach", "--engine"]),
            vec![engine.clone(), format!("proto={proto}"), "--engine".into()],
            vec![engine.clone(), format!("proto={proto}")],
            args(&["--depth", "1", "--games", "2"]),
        ]
        .concat());
        assert_eq!(r.code, 1, "{proto}: {}\n{}", r.stdout, r.stderr);
        assert!(
            r.stderr
                .contains("does not announce variant 'raeuberschach' (it offers: ")
                && r.stderr.contains("not starting"),
            "{proto}: {}",
            r.stderr
        );
        assert!(!r.stdout.contains("Started game"), "{}", r.stdout);
    }
}

/// Self-play from one start position without openings warns that the games will repeat.
#[test]
fn self_play_without_openings_warns() {
    let r = run(&[
        fakes("pawns4", ("normal", &[]), ("normal", &[])),
        args(&["--depth", "1", "--games", "2"]),
    ]
    .concat());
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("warning: both seats run the same engine with the same options")
            && r.stderr.contains("--openings"),
        "{}",
        r.stderr
    );
    let r = run(&[
        fakes("pawns4", ("normal", &[]), ("normal", &[])),
        args(&[
            "--depth",
            "1",
            "--games",
            "2",
            "--random-openings",
            "plies=1",
            "depth=1",
        ]),
    ]
    .concat());
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(!r.stderr.contains("warning: both seats"), "{}", r.stderr);
}

#[test]
fn kiebitz_raeuber_against_itself_over_uci_and_xboard() {
    let (r, games, pgn_path) = run_to_pgn(
        "raeuber.pgn",
        &[
            uci_against_xboard("kiebitz-raeuber", "R", &["--game", "raeuberschach"]),
            args(&["--depth", "3", "--games", "4", "--seed", "2"]),
            args(&["--random-openings", "plies=4", "depth=3", "margin=150"]),
        ],
        4,
    );
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("raeuberschach"));
        // The 6×6 start, which no PGN reader could guess.
        assert_eq!(g.tag("FEN"), Some(kiebitz::games::raeuber::START_FEN));
        assert_eq!(g.tag("SetUp"), Some("1"));
        // SAN as Fairy-Stockfish writes it: piece letters, no check marks (no royal king).
        assert!(g.moves.iter().all(|m| !m.contains(['+', '#'])), "{g:?}");
        assert!(
            g.moves
                .iter()
                .any(|m| m.starts_with(['N', 'B', 'R', 'Q', 'K'])),
            "{g:?}"
        );
        assert_eq!(g.tag("Termination"), Some("normal"), "{g:?}");
        let (_, verdict) = pgn::replay::<kiebitz::games::raeuber::Raeuber>(g).expect("replays");
        assert_eq!(verdict.unwrap().result_string(), g.result);
    }
    assert_eq!(final_score(&r.stdout), points(&games, "R-uci"));
    let r = check_pgn("raeuberschach", &pgn_path);
    assert_eq!(r.code, 0, "{}", r.stdout);
}

/// Issue "walking skeleton": kiebitz-pawns self-play, 20 games at 50 ms a move on pawns6 from
/// the start, every game ending by the rules with a legal result.
#[test]
fn pawns_self_play_twenty_games_at_50ms() {
    let pgn = temp("selfplay.pgn");
    let engine = format!("cmd={}", common::binary("kiebitz-pawns").display());
    let run = run(&args(&[
        "--game",
        "pawns",
        "--variant",
        "pawns6",
        "--engine",
        &engine,
        "name=a",
        "--engine",
        &engine,
        "name=b",
        "--movetime",
        "50",
        // Tests run side by side on two cores: the margin keeps a busy machine from turning a
        // slow reply into a time forfeit (this test checks the games, not the speed).
        "--timemargin",
        "1000",
        "--games",
        "20",
        "--seed",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
    ]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (w, l, d) = final_score(&run.stdout);
    assert_eq!(w + l + d, 20);
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 20);
    for g in &games {
        assert_eq!(g.tag("Termination"), Some("normal"), "{:?}", g.tag("Round"));
    }
    check_replays(&games);
}
