//! Chess960 move generation: the public Chess960 perft table (tests/data/chess960-perft.txt,
//! 32 positions to depth 5) reproduced exactly, and python-chess with `chess960=True` as an
//! independent oracle — on the table's positions (depths 1–3) and on positions from seeded
//! random play out of random Chess960 start positions, written with X-FEN and Shredder-FEN
//! castling fields (scripts/oracles/chess_random_perft.py). Needs `python3` with the `chess` package
//! (`pip install -r scripts/requirements.txt`), which CI installs.

mod common;

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::perft::perft;

#[test]
fn chess960_perft_reference() {
    let cases = common::perft_cases("chess960-perft.txt");
    let deep: std::collections::HashSet<&str> = cases
        .iter()
        .filter(|c| c.depth >= 5)
        .map(|c| c.fen.as_str())
        .collect();
    assert!(deep.len() >= 20, "the reference file lost positions");
    for case in &cases {
        let pos = case.check::<Chess>();
        assert_eq!(pos.variant(), "chess960");
    }
}

/// Runs scripts/oracles/chess_random_perft.py with `args`: lines `FEN;count;count;…` (`-`: not
/// counted).
fn python_counts(args: &[&str]) -> Vec<(String, Vec<Option<u64>>)> {
    common::python_script("oracles/chess_random_perft.py", args)
        .lines()
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().expect("a FEN").to_string();
            let counts = fields.map(|c| c.parse().ok()).collect();
            (fen, counts)
        })
        .collect()
}

fn agree(lines: &[(String, Vec<Option<u64>>)]) -> usize {
    let mut compared = 0;
    for (fen, counts) in lines {
        let pos = Chess::from_fen("chess960", fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (depth, expected) in counts.iter().enumerate() {
            if let Some(expected) = expected {
                assert_eq!(
                    perft(&pos, depth as u32 + 1),
                    *expected,
                    "{fen} depth {}",
                    depth + 1
                );
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn chess960_table_agrees_with_python_chess() {
    let table = common::data_path("chess960-perft.txt");
    let lines = python_counts(&["--table", table.to_str().expect("a UTF-8 path"), "3"]);
    assert!(
        lines.len() >= 20,
        "python-chess counted {} positions",
        lines.len()
    );
    // The table's own numbers, where they reach, are python-chess's too.
    for case in common::perft_cases("chess960-perft.txt") {
        if case.depth <= 3 {
            let (_, counts) = lines
                .iter()
                .find(|(fen, _)| *fen == case.fen)
                .expect("python-chess counted every position");
            assert_eq!(
                counts[case.depth as usize - 1],
                Some(case.nodes),
                "{}",
                case.fen
            );
        }
    }
    assert_eq!(agree(&lines), lines.len() * 3);
}

#[test]
fn chess960_random_play_agrees_with_python_chess() {
    let lines = python_counts(&["960", "120", "chess960"]);
    assert_eq!(lines.len(), 120);
    let compared = agree(&lines);
    assert!(compared >= 270, "only {compared} counts compared");
}
