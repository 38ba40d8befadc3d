//! kiebitz's chess perft against python-chess, an independent implementation, on a few hundred
//! positions from seeded random play (scripts/oracles/chess_random_perft.py). Needs `python3` with the
//! `chess` package (`pip install -r scripts/requirements.txt`); the test fails if they are
//! missing, as CI installs them.

mod common;

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::perft::perft;
use std::process::Command;

#[test]
fn perft_agrees_with_python_chess() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/oracles/chess_random_perft.py"
    );
    let out = Command::new("python3")
        .args([script, "20260101", "300"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}): install Python 3"));
    assert!(
        out.status.success(),
        "{script} failed (is python-chess installed? pip install -r scripts/requirements.txt):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let mut positions = 0;
    let mut counts = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(fields.len(), 4, "malformed line {line}");
        let pos = Chess::from_fen("chess", fields[0]).unwrap_or_else(|e| panic!("{line}: {e}"));
        for (depth, expected) in fields[1..].iter().enumerate() {
            if *expected == "-" {
                continue;
            }
            let expected: u64 = expected.parse().expect("a count");
            assert_eq!(
                perft(&pos, depth as u32 + 1),
                expected,
                "{} depth {}",
                fields[0],
                depth + 1
            );
            counts += 1;
        }
        positions += 1;
    }
    assert_eq!(positions, 300, "the script made {positions} positions");
    assert!(counts >= 675, "only {counts} counts compared");
}

/// SAN of every legal move in positions from seeded random play, standard chess and Chess960,
/// equals python-chess's `board.san` (disambiguation, captures, `+`/`#`, `=Q`, `O-O`), and
/// reads back to the same move.
#[test]
fn san_agrees_with_python_chess() {
    for (variant, extra) in [("chess", None), ("chess960", Some("chess960"))] {
        let mut args = vec!["--san", "20261122", "150"];
        args.extend(extra);
        let text = common::python_script("oracles/chess_random_perft.py", &args);
        let (mut moves, mut checks, mut castles) = (0, 0, 0);
        for line in text.lines() {
            let mut fields = line.split(';');
            let fen = fields.next().expect("a FEN");
            let pos = Chess::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for pair in fields.filter(|f| !f.is_empty()) {
                let (uci, san) = pair.split_once(' ').expect("uci and san");
                let mv = pos
                    .parse_move(uci)
                    .unwrap_or_else(|e| panic!("{fen}: {uci}: {e}"));
                assert_eq!(pos.san(mv), san, "{fen}: {uci}");
                assert_eq!(kiebitz::san::read(&pos, san), Ok(mv), "{fen}: {san}");
                moves += 1;
                checks += usize::from(san.ends_with(['+', '#']));
                castles += usize::from(san.starts_with("O-O"));
            }
        }
        assert!(
            moves > 2500 && checks > 50 && castles >= 2,
            "{variant}: {moves} {checks} {castles}"
        );
    }
}
