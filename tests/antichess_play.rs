//! kiebitz-antichess in play: against itself in kiebitz-match over UCI and XBoard (the PGN
//! replays under the rules, python-chess reads every SAN as its own, `--check-pgn` agrees), and
//! driven by python-chess's engine API as lichess-bot drives it: whole games from
//! `chess.variant.AntichessBoard` under a clock with `Move Overhead`, ponder on and off
//! (scripts/oracles/antichess_python_engine.py; python-chess is in scripts/requirements.txt,
//! which CI installs).

mod common;

use common::match_run::{args, run};
use kiebitz::games::antichess::{Antichess, START_FEN};
use kiebitz::tournament::pgn;

#[test]
fn kiebitz_antichess_against_itself_over_uci_and_xboard() {
    let path = common::match_run::temp("kiebitz-antichess-tests", "anti.pgn");
    let engine = format!("cmd={}", common::binary("kiebitz-antichess").display());
    let r = run(&[
        args(&["--game", "antichess", "--engine"]),
        vec![engine.clone()],
        args(&["name=A-uci", "option.Hash=8", "--engine"]),
        vec![engine],
        args(&["name=A-xboard", "proto=xboard", "option.Hash=8"]),
        args(&[
            "--depth",
            "3",
            "--games",
            "4",
            "--seed",
            "3",
            "--maxmoves",
            "150",
        ]),
        args(&["--random-openings", "plies=4", "depth=2", "margin=300"]),
        args(&["--pgn", path.to_str().unwrap()]),
    ]
    .concat());
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let games = pgn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("antichess"));
        assert!(g.tag("FEN").is_none_or(|f| f == START_FEN), "{g:?}");
        assert!(g.moves.iter().all(|m| !m.contains(['+', '#'])), "{g:?}");
        let (_, verdict) = pgn::replay::<Antichess>(g).expect("replays");
        if g.tag("Termination") == Some("normal") {
            assert_eq!(verdict.unwrap().result_string(), g.result);
        }
    }
    let check = run(&args(&[
        "--game",
        "antichess",
        "--check-pgn",
        path.to_str().unwrap(),
    ]));
    assert_eq!(check.code, 0, "{}", check.stdout);
    let text = common::python_script("oracles/check_pgn_python.py", &[&path]);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("GAME ")).count(),
        4,
        "{text}"
    );
}

#[test]
fn python_chess_plays_antichess_games_with_clocks_and_ponder() {
    let binary = common::binary("kiebitz-antichess");
    let text = common::python_script(
        "oracles/antichess_python_engine.py",
        &[binary.to_str().unwrap(), "4", "1", "0.02", "50"],
    );
    assert!(text.lines().any(|l| l == "VARIANT antichess"), "{text}");
    let games: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with("GAME "))
        .map(|l| l.split(' ').collect())
        .collect();
    assert_eq!(games.len(), 4, "{text}");
    for g in &games {
        // GAME n ponder P plies N end R reason W: a result by the rules or the ply cap, never
        // a loss on time.
        assert_ne!(g[9], "time", "{text}");
        assert!(["1-0", "0-1", "1/2-1/2", "*"].contains(&g[7]), "{g:?}");
    }
    assert!(games.iter().any(|g| g[3] == "1") && games.iter().any(|g| g[3] == "0"));
    let ponder: Vec<u64> = text
        .lines()
        .find(|l| l.starts_with("PONDER "))
        .expect("ponder counts")
        .split(' ')
        .skip(1)
        .collect::<Vec<_>>()
        .chunks(2)
        .map(|kv| kv[1].parse().unwrap())
        .collect();
    assert!(ponder[0] >= 10 && ponder[1] >= 1, "{text}");
    assert_eq!(text.lines().last(), Some("DONE"));
}
