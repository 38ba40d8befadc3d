//! Polyglot books against python-chess (`chess.polyglot`, an independent implementation):
//! kiebitz's chess book keys equal `zobrist_hash` on positions from seeded random games, and a
//! book built by `kiebitz-chess book build` reads back through `chess.polyglot.open_reader`
//! with the moves and weights that python-chess counts from the same PGN. Needs `python3`
//! with the `chess` package (`pip install -r scripts/requirements.txt`), as CI installs.

mod common;

use kiebitz::game::{Game, OpeningBook};
use kiebitz::games::chess::Chess;

#[test]
fn chess_book_keys_equal_python_chess_zobrist_hash() {
    let text = common::python_script("oracles/polyglot_check.py", &["keys", "20261125", "3000"]);
    let (mut positions, mut ep, mut castling) = (0, 0, 0);
    for line in text.lines() {
        let (fen, key) = line.split_once(';').expect("FEN;KEY");
        let pos = Chess::from_fen("chess", fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let expected = u64::from_str_radix(key, 16).expect("a hex key");
        assert_eq!(pos.book_key(), Some(expected), "{fen}");
        positions += 1;
        let fields: Vec<&str> = fen.split(' ').collect();
        ep += usize::from(fields[3] != "-");
        castling += usize::from(fields[2] != "-");
    }
    assert_eq!(positions, 3000);
    // The positions must exercise the rules of the key, not only piece placement.
    assert!(ep > 100 && castling > 500, "ep {ep}, castling {castling}");
}

#[test]
fn a_built_book_reads_back_in_python_chess() {
    let dir = std::env::temp_dir().join(format!("kiebitz-book-python-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = common::data_path("book-games.pgn");
    for (max_ply, min_games) in [("12", "1"), ("6", "2"), ("30", "1")] {
        let out = dir.join(format!("book-{max_ply}-{min_games}.bin"));
        let o = common::run_binary(
            "kiebitz-chess",
            &[
                "book",
                "build",
                "--pgn",
                pgn.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--max-ply",
                max_ply,
                "--min-games",
                min_games,
            ],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{stderr}");
        // The unfinished game and the illegal move are reported.
        assert!(
            stderr.contains("no result") && stderr.contains("Ke3"),
            "{stderr}"
        );
        let summary = common::stdout(&o);
        let checked = common::python_script(
            "oracles/polyglot_check.py",
            &[
                "book",
                pgn.to_str().unwrap(),
                out.to_str().unwrap(),
                max_ply,
                min_games,
            ],
        );
        let fields: Vec<&str> = checked.split_whitespace().collect();
        assert_eq!(fields[0], "ok", "{checked}");
        assert!(
            summary.contains(&format!("{} entries", fields[1])),
            "{summary} vs {checked}"
        );
        let entries: usize = fields[1].parse().unwrap();
        assert!(entries >= 10, "{checked}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
