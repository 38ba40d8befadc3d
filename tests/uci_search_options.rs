//! The search options of UCI with the real kiebitz-chess binary: `MultiPV`, `go searchmoves`,
//! `go mate` on a mate-in-3 suite checked by python-chess (tests/data/chess-mate3.epd,
//! scripts/oracles/mate-suite.py), `Threads` (advertised up to 1024, capped at the processors and said),
//! `UCI_ShowWDL` (chess has a WDL model, pawn chess none), a position of another game (named
//! once, answered with `bestmove (none)`), and the true value of a CRASH! position with one
//! legal move under `go movetime`.

mod common;
mod protocol_io;

use std::time::{Duration, Instant};

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use protocol_io::Client;

fn uci(binary: &str) -> Client {
    let mut e = Client::spawn(&common::binary(binary), &[]);
    e.send("uci");
    e.expect_prefix("uciok");
    e
}

/// One `info … pv …` line, taken apart.
#[derive(Debug)]
struct Line {
    depth: u32,
    multipv: u32,
    /// `cp N` or `mate N`.
    score: (String, i32),
    wdl: Option<[u32; 3]>,
    pv: Vec<String>,
}

fn parse_info(line: &str) -> Option<Line> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || !words.contains(&"pv") {
        return None;
    }
    let after = |key: &str| words.iter().position(|w| *w == key).map(|i| i + 1);
    let number = |key: &str| after(key).map(|i| words[i].parse::<i64>().unwrap());
    let score_at = after("score").unwrap();
    let pv_at = after("pv").unwrap();
    Some(Line {
        depth: number("depth").unwrap() as u32,
        multipv: number("multipv").unwrap_or(1) as u32,
        score: (
            words[score_at].to_string(),
            words[score_at + 1].parse().unwrap(),
        ),
        wdl: after("wdl").map(|i| [0, 1, 2].map(|k| words[i + k].parse::<u32>().unwrap())),
        pv: words[pv_at..].iter().map(|w| w.to_string()).collect(),
    })
}

/// Runs `go` to its `bestmove`; returns the info lines and the move.
fn go(e: &mut Client, command: &str) -> (Vec<Line>, String) {
    let (lines, best) = e.go(command);
    (lines.iter().filter_map(|l| parse_info(l)).collect(), best)
}

#[test]
fn multipv_three_on_the_start_position() {
    let mut e = uci("kiebitz-chess");
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let (infos, best) = go(&mut e, "go depth 7");
    let last = infos.iter().map(|l| l.depth).max().unwrap();
    assert_eq!(last, 7);
    let lines: Vec<&Line> = infos.iter().filter(|l| l.depth == last).collect();
    assert_eq!(
        lines.iter().map(|l| l.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    // Three different first moves, scores best first and near equality at the start.
    let firsts: Vec<&str> = lines.iter().map(|l| l.pv[0].as_str()).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    for l in &lines {
        assert_eq!(l.score.0, "cp");
        assert!(l.score.1.abs() < 150, "{l:?}");
    }
    assert!(
        lines.windows(2).all(|w| w[0].score.1 >= w[1].score.1),
        "{lines:?}"
    );
    assert_eq!(best, firsts[0]);
    // Back to one line: no `multipv` field.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 3");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    assert!(lines.iter().all(|l| !l.contains(" multipv ")), "{lines:?}");
    e.send("setoption name MultiPV value 65");
    assert!(
        e.next_line(protocol_io::TIMEOUT)
            .unwrap()
            .starts_with("info string error")
    );
}

#[test]
fn searchmoves_restrict_the_pv_and_the_bestmove() {
    let mut e = uci("kiebitz-chess");
    e.send("position startpos");
    let allowed = ["h2h3", "a2a3"];
    let (infos, best) = go(&mut e, "go depth 6 searchmoves h2h3 a2a3");
    assert!(allowed.contains(&best.as_str()), "bestmove {best}");
    assert!(infos.iter().any(|l| l.depth == 6));
    for l in &infos {
        assert!(allowed.contains(&l.pv[0].as_str()), "{l:?}");
    }
    // With MultiPV: both allowed moves, nothing else.
    e.send("setoption name MultiPV value 3");
    let (infos, _) = go(&mut e, "go depth 4 searchmoves h2h3 a2a3");
    let mut firsts: Vec<&str> = infos
        .iter()
        .filter(|l| l.depth == 4)
        .map(|l| l.pv[0].as_str())
        .collect();
    firsts.sort();
    assert_eq!(firsts, ["a2a3", "h2h3"]);
    // An illegal move is reported and left out; the search goes on.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 3 searchmoves e2e5 g1f3");
    let lines = e.read_until(|l| l.starts_with("bestmove "));
    assert!(lines[0].starts_with("info string error") && lines[0].contains("e2e5"));
    assert!(
        lines.last().unwrap().starts_with("bestmove g1f3"),
        "{lines:?}"
    );
}

#[test]
fn go_mate_solves_the_mate_in_3_suite() {
    let text = std::fs::read_to_string(common::data_path("chess-mate3.epd")).unwrap();
    let mut e = uci("kiebitz-chess");
    let mut count = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        let (fen, n) = (parts[0], parts[1].strip_prefix("mate ").unwrap());
        let solutions: Vec<&str> = parts[2].split_whitespace().skip(1).collect();
        e.send(&format!("position fen {fen}"));
        let (infos, best) = go(&mut e, &format!("go mate {n}"));
        let last = infos.last().unwrap();
        assert_eq!(
            last.score,
            ("mate".to_string(), n.parse().unwrap()),
            "{fen}"
        );
        assert!(
            solutions.contains(&best.as_str()),
            "{fen}: {best} not in {solutions:?}"
        );
        // The PV is a mate: legal moves ending in checkmate after 2n - 1 plies.
        let mut pos = Chess::from_fen("chess", fen).unwrap();
        for mv in &last.pv {
            pos = pos.play(pos.parse_move(mv).unwrap());
        }
        assert_eq!(last.pv.len(), 5, "{fen}: {:?}", last.pv);
        assert_eq!(
            kiebitz::perft::perft(&pos, 1),
            0,
            "{fen}: not mate at the end"
        );
        count += 1;
    }
    assert!(count >= 5);
}

#[test]
fn two_threads_answer_legally_and_obey_stop() {
    let mut e = uci("kiebitz-chess");
    e.send("setoption name Threads value 2");
    e.send("position startpos moves e2e4 e7e5");
    let pos = Chess::from_fen(
        "chess",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    )
    .unwrap();
    let (infos, best) = go(&mut e, "go depth 8");
    assert!(pos.parse_move(&best).is_ok(), "{best}");
    assert_eq!(infos.iter().map(|l| l.depth).max(), Some(8));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    let (_, best) = go(&mut e, "stop");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(pos.parse_move(&best).is_ok(), "{best}");
    let start = Instant::now();
    let (_, best) = go(&mut e, "go movetime 300");
    assert!(pos.parse_move(&best).is_ok());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    e.send("setoption name Threads value 0");
    assert!(
        e.next_line(protocol_io::TIMEOUT)
            .unwrap()
            .starts_with("info string error")
    );
}

#[test]
fn show_wdl_where_the_game_has_a_model() {
    let mut e = uci("kiebitz-chess");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos");
    let (infos, _) = go(&mut e, "go depth 4");
    for l in &infos {
        let wdl = l.wdl.unwrap_or_else(|| panic!("no wdl in {l:?}"));
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{l:?}");
    }
    // Pawn chess has no model: no such option.
    let mut e = Client::spawn(&common::binary("kiebitz-pawns"), &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(lines.iter().all(|l| !l.contains("UCI_ShowWDL")));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Threads type spin default 1 min 1"))
    );
    assert!(lines.contains(&"option name MultiPV type spin default 1 min 1 max 64".to_string()));
    e.send("setoption name UCI_ShowWDL value true");
    assert!(
        e.next_line(protocol_io::TIMEOUT)
            .unwrap()
            .starts_with("info string error")
    );
}

#[test]
fn threads_are_offered_up_to_1024_and_capped_at_the_processors() {
    // Before: `max` was the processor count, so a GUI's `Threads 4` was refused on 2 cores.
    let mut e = Client::spawn(&common::binary("kiebitz-chess"), &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name Threads type spin default 1 min 1 max 1024".to_string()),
        "{lines:?}"
    );
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    e.send("setoption name Threads value 1024");
    if cpus < 1024 {
        assert_eq!(
            e.next_line(protocol_io::TIMEOUT).unwrap(),
            format!("info string Threads 1024 is more than the {cpus} processors: using {cpus}")
        );
    }
    e.send("position startpos");
    let (infos, best) = go(&mut e, "go depth 5");
    assert_eq!(infos.iter().map(|l| l.depth).max(), Some(5));
    assert!(Chess::startpos("chess").unwrap().parse_move(&best).is_ok());
}

#[test]
fn a_position_of_another_game_is_named_once_and_not_played() {
    // Cute Chess plays `standard` with any UCI engine: kiebitz-raeuber (6×6) gets 8×8 moves.
    let mut e = uci("kiebitz-raeuber");
    e.send("ucinewgame");
    e.send("position startpos moves d7d5");
    let said = e.next_line(protocol_io::TIMEOUT).unwrap();
    assert!(
        said.starts_with("info string the move 'd7d5' names the square d7 off this engine's 6×6")
            && said.contains("another game"),
        "{said}"
    );
    e.send("go movetime 50");
    assert_eq!(
        e.next_line(protocol_io::TIMEOUT).unwrap(),
        "bestmove (none)"
    );
    // The same game's next turn: not said again.
    e.send("position startpos moves d7d5 e2e4 g8f6");
    e.send("go movetime 50");
    assert_eq!(
        e.next_line(protocol_io::TIMEOUT).unwrap(),
        "bestmove (none)"
    );
    // A new game of the same kind is told again; a position of this game is played.
    e.send("ucinewgame");
    e.send("position startpos moves d7d5");
    assert!(e.next_line(protocol_io::TIMEOUT).unwrap().contains("d7d5"));
    e.send("position startpos");
    let (_, best) = go(&mut e, "go depth 2");
    assert_ne!(best, "(none)");
    // An ordinary illegal move keeps its own message (and the legal prefix).
    e.send("position startpos moves a1a6");
    assert!(
        e.next_line(protocol_io::TIMEOUT)
            .unwrap()
            .starts_with("info string error: illegal move 'a1a6'")
    );
}

#[test]
fn crash_with_one_legal_move_reports_its_true_value_under_movetime() {
    // Before: depth 1, `score cp -200`, at once. White's only move 1:1 loses in 3.
    let mut e = uci("kiebitz-crash");
    e.send("position fen W1......B3 w");
    let (infos, best) = go(&mut e, "go movetime 300");
    assert_eq!(best, "1:1");
    let last = infos.last().unwrap();
    assert_eq!(last.score, ("mate".to_string(), -3), "{last:?}");
    assert!(last.depth > 1);
}

/// `debug on`: once a search is a second old, each root move it starts is told
/// (`info depth D currmove M currmovenumber N`), numbered from 1 in the iteration's order, each
/// a legal move; without `debug on`, never.
#[test]
fn currmove_and_currmovenumber_at_debug_on() {
    let mut e = uci("kiebitz-chess");
    let run = |e: &mut Client| -> Vec<String> {
        e.send("position startpos moves e2e4 e7e5 g1f3");
        // 4 s: after the first second each new root move is told; a search of 1.6 s sometimes
        // spent its last 0.6 s inside one root move and told none.
        e.send("go movetime 4000");
        e.read_until(|l| l.starts_with("bestmove "))
            .into_iter()
            .filter(|l| l.contains("currmove"))
            .collect()
    };
    assert!(run(&mut e).is_empty());
    e.send("debug on");
    let lines = run(&mut e);
    assert!(!lines.is_empty(), "no currmove line");
    let pos = {
        use kiebitz::game::Game;
        let mut p = kiebitz::games::chess::Chess::startpos("chess").unwrap();
        for m in ["e2e4", "e7e5", "g1f3"] {
            p = p.play(p.parse_move(m).unwrap());
        }
        p
    };
    let legal = {
        use kiebitz::game::Game;
        let mut moves = kiebitz::board::MoveList::new();
        pos.legal_moves(&mut moves);
        moves.iter().map(|&m| pos.move_text(m)).collect::<Vec<_>>()
    };
    for l in &lines {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            (w[0], w[1], w[3], w[5]),
            ("info", "depth", "currmove", "currmovenumber")
        );
        assert!(legal.contains(&w[4].to_string()), "{l}");
        let n: usize = w[6].parse().unwrap();
        assert!((1..=legal.len()).contains(&n), "{l}");
    }
    assert!(
        lines.iter().any(|l| l.ends_with("currmovenumber 1")),
        "{lines:?}"
    );
}

/// `Solver Share` is offered where the search has an oracle (pawn chess, Räuberschach), not
/// in chess or CRASH! (whose optimal play is a player of its own), with the game's own default (Räuberschach 0, kept by an SPRT); the default
/// lets pawn chess 4×4 be answered by the solver (one `info` line of depth 1 and one node),
/// `Solver Share 0` makes it search, and a bad value is refused with the share left as it
/// was.
#[test]
fn solver_share_option_turns_the_solver_off_and_on() {
    let advertised = |binary: &str| {
        let mut e = Client::spawn(&common::binary(binary), &[]);
        e.send("uci");
        let lines = e.read_until(|l| l == "uciok");
        lines
            .iter()
            .find(|l| l.starts_with("option name Solver Share "))
            .cloned()
    };
    let spin = |default: u32| {
        Some(format!(
            "option name Solver Share type spin default {default} min 0 max 50"
        ))
    };
    assert_eq!(advertised("kiebitz-pawns"), spin(10));
    assert_eq!(advertised("kiebitz-crash"), None);
    assert_eq!(advertised("kiebitz-raeuber"), spin(0));
    assert_eq!(advertised("kiebitz-chess"), None);

    let mut e = uci("kiebitz-pawns");
    e.send("setoption name UCI_Variant value pawns4");
    let solved = |e: &mut Client| {
        e.send("position startpos");
        e.send("go movetime 300");
        let lines = e.read_until(|l| l.starts_with("bestmove "));
        let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
        infos.len() == 1 && infos[0].contains(" depth 1 ") && infos[0].contains(" nodes 1 ")
    };
    assert!(solved(&mut e), "the default share asks the solver");
    e.send("setoption name Solver Share value 0");
    assert!(!solved(&mut e), "share 0 searches");
    e.send("setoption name Solver Share value 51");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("Solver Share")),
        "{lines:?}"
    );
    assert!(!solved(&mut e), "a refused value leaves the share at 0");
    e.send("setoption name Solver Share value 20");
    assert!(solved(&mut e));
    e.send("quit");
}
