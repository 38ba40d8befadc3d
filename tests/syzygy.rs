//! Syzygy tablebases in kiebitz-chess: the probes of `games::chess::syzygy` against
//! python-chess's `chess.syzygy` on the same files (tests/data/syzygy, made by
//! scripts/build/build-syzygy-tables.sh), the root filter, and the UCI options in the real engine.
//! Without the tables every test says why and passes.

mod common;
mod protocol_io;

use std::path::PathBuf;
use std::sync::OnceLock;

use kiebitz::board::MoveList;
use kiebitz::game::Game;
use kiebitz::games::chess::{Chess, syzygy};
use protocol_io::Client;

fn table_dir() -> PathBuf {
    common::data_path("syzygy")
}

/// Loads the tables once for this test binary; false (with the reason printed) when absent.
fn tables() -> bool {
    static LOADED: OnceLock<Result<u32, kiebitz::TableError>> = OnceLock::new();
    match LOADED.get_or_init(|| syzygy::set_path(table_dir().to_str().expect("UTF-8 path"))) {
        Ok(n) => {
            assert_eq!(*n, 4, "the test tables have 3 and 4 pieces");
            true
        }
        Err(e) => {
            eprintln!("skipped: {e}; run scripts/build/build-syzygy-tables.sh");
            false
        }
    }
}

fn chess(fen: &str) -> Chess {
    Chess::from_fen("chess", fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// python-chess's verdicts on random positions (FEN, WDL, DTZ).
fn python_cases(seed: &str, count: usize) -> Vec<(Chess, i32, i32)> {
    let dir = table_dir();
    let text = common::python_script(
        "oracles/syzygy_random.py",
        &[seed, &count.to_string(), dir.to_str().unwrap()],
    );
    let cases: Vec<_> = text
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split(';').collect();
            assert_eq!(f.len(), 3, "malformed line {line}");
            (chess(f[0]), f[1].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect();
    assert_eq!(cases.len(), count);
    cases
}

#[test]
fn wdl_and_dtz_agree_with_python_chess() {
    if !tables() {
        return;
    }
    let cases = python_cases("20261125", 500);
    let mut decided = 0;
    for (pos, wdl, dtz) in &cases {
        let fen = pos.fen();
        assert_eq!(syzygy::probe_wdl(pos, 7), Some(*wdl), "WDL of {fen}");
        assert_eq!(syzygy::probe_dtz(pos, 7), Some(*dtz), "DTZ of {fen}");
        decided += (*wdl != 0) as usize;
    }
    // Both wins and draws among them, and long DTZs (KQvKR, KRvKP).
    assert!(decided > 200, "only {decided} decided positions");
    assert!(cases.iter().any(|c| c.2.abs() > 20));
}

#[test]
fn probes_answer_none_where_the_tables_cannot() {
    if !tables() {
        return;
    }
    // Five pieces, castling rights, a piece limit below the position's.
    assert_eq!(
        syzygy::probe_wdl(&chess("8/8/8/3k4/8/8/2PP4/R3K3 w - - 0 1"), 7),
        None
    );
    assert_eq!(
        syzygy::probe_wdl(&chess("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), 7),
        None
    );
    let krk = chess("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(syzygy::probe_wdl(&krk, 2), None);
    assert_eq!(syzygy::probe_wdl(&krk, 3), Some(2));
}

/// In won positions the root filter keeps only moves that still win (python-chess says so of
/// the position after each), and only the quickest to a zeroing move; in lost ones the moves
/// that hold out longest.
#[test]
fn root_moves_keep_the_verdict() {
    if !tables() {
        return;
    }
    for (pos, wdl, dtz) in python_cases("7", 60) {
        let (kept, verdict) = syzygy::root_moves(&pos, 7, true).expect("in the tables");
        assert_eq!(verdict.signum(), wdl.signum(), "{}", pos.fen());
        let (_, all) = syzygy::probe_root(&pos, 7).unwrap();
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        assert_eq!(all.len(), legal.len());
        for mv in &kept {
            let after = pos.play(*mv);
            let child = syzygy::probe_wdl(&after, 7);
            // A move that mates leaves no position to probe.
            if let Some(child) = child {
                assert_eq!((-child).signum(), wdl.signum(), "{} {mv}", pos.fen());
            }
            let m = all.iter().find(|m| m.mv == *mv).unwrap();
            // DTZ tables may round a distance up by one ply.
            if wdl > 0 {
                assert!(m.dtz <= dtz + 1, "{}: {mv} does not progress", pos.fen());
            }
        }
        assert!(!kept.is_empty());
    }
}

fn engine() -> Client {
    let mut e = Client::spawn(&common::binary("kiebitz-chess"), &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for option in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == option), "uci lacks {option}");
    }
    e
}

/// The last `info depth` line of a search's output.
fn last_info(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info depth line")
}

/// With `SyzygyPath` set, `go depth 1` in won 4-men positions plays a move that keeps the win
/// (a one-ply search alone often does not) and reports `tbhits`.
#[test]
fn uci_engine_plays_tablebase_moves() {
    if !tables() {
        return;
    }
    let mut e = engine();
    e.send("setoption name SyzygyPath value /nonexistent/dir");
    assert!(
        e.read_until(|l| l.starts_with("info string"))
            .last()
            .unwrap()
            .contains("error")
    );
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        table_dir().display()
    ));
    let said = e.read_until(|l| l.starts_with("info string"));
    assert_eq!(
        said.last().unwrap(),
        "info string Syzygy tables for up to 4 pieces"
    );
    let wins: Vec<_> = python_cases("99", 100)
        .into_iter()
        .filter(|(pos, wdl, _)| *wdl == 2 && pos.fen().contains('p') != pos.fen().contains('P'))
        .take(20)
        .collect();
    assert!(wins.len() >= 10);
    for (pos, _, _) in wins {
        e.send(&format!("position fen {}", pos.fen()));
        e.send("go depth 1");
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        let info = last_info(&lines);
        let hits: u64 = info
            .split(" tbhits ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(hits >= 1, "{info}");
        // The root is in the tables: the score says the win (a tablebase win, or a mate).
        let score = info.split(" score ").nth(1).unwrap();
        let won = match score.split_whitespace().collect::<Vec<_>>()[..] {
            ["cp", cp, ..] => cp.parse::<i32>().unwrap() >= kiebitz::search::TB_WIN - 128,
            ["mate", n, ..] => n.parse::<i32>().unwrap() > 0,
            _ => false,
        };
        assert!(won, "{}: a won root reported as {info}", pos.fen());
        let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        let after = pos.play(pos.parse_move(mv).unwrap());
        if let Some(child) = syzygy::probe_wdl(&after, 7) {
            assert_eq!(child, -2, "{}: {mv} gives the win away", pos.fen());
        }
    }
    // A drawn root reports 0 whatever its material says.
    let draws: Vec<_> = python_cases("98", 100)
        .into_iter()
        .filter(|(_, wdl, _)| *wdl == 0)
        .take(5)
        .collect();
    assert!(!draws.is_empty());
    for (pos, _, _) in draws {
        e.send(&format!("position fen {}", pos.fen()));
        e.send("go depth 3");
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        let info = last_info(&lines);
        assert!(
            info.contains(" score cp 0 "),
            "{}: a drawn root reported as {info}",
            pos.fen()
        );
    }
    e.send("quit");
}
