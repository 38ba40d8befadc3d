//! kiebitz-antichess's rules against two independent implementations:
//!
//! - the stored counts of tests/data/antichess-perft.txt (python-chess's
//!   `chess.variant.AntichessBoard`) and tests/data/antichess-perft-fairy.txt (Fairy-Stockfish's
//!   `antichess` through pyffish), on positions from seeded random play
//!   (scripts/oracles/antichess_oracle.py), reproduced by the bulk-counting `Game::perft` and
//!   the generic perft;
//! - python-chess run now (it is in scripts/requirements.txt, which CI installs): perft on
//!   fresh random positions, and the SAN of every legal move as lichess and python-chess write
//!   it;
//! - ignored: the stored files recounted by the oracles themselves (`-- --ignored`; the pyffish
//!   one needs `pip install pyffish`).

mod common;

use kiebitz::board::MoveList;
use kiebitz::game::Game;
use kiebitz::games::antichess::Antichess;
use kiebitz::perft::generic;

/// Checks every line of a reference file; returns (lines, distinct positions, deepest depth).
fn check(file: &str) -> (usize, usize, u32) {
    let cases = common::perft_cases(file);
    let mut fens = std::collections::BTreeSet::new();
    for case in &cases {
        let pos = Antichess::from_fen(&case.variant, &case.fen).expect("reference FEN");
        assert_eq!(
            pos.perft(case.depth),
            case.nodes,
            "{} depth {}",
            case.fen,
            case.depth
        );
        if case.nodes <= 200_000 {
            assert_eq!(
                generic(&pos, case.depth),
                case.nodes,
                "generic {}",
                case.fen
            );
        }
        fens.insert(case.fen.clone());
    }
    let deepest = cases.iter().map(|c| c.depth).max().unwrap_or(0);
    (cases.len(), fens.len(), deepest)
}

#[test]
fn perft_equals_python_chess_stored() {
    let (lines, positions, deepest) = check("antichess-perft.txt");
    assert!(positions >= 40, "{positions} positions");
    assert!(deepest >= 5, "deepest {deepest}");
    assert_eq!(lines, positions);
    let min_depth = common::perft_cases("antichess-perft.txt")
        .iter()
        .map(|c| c.depth)
        .min()
        .unwrap();
    assert!(min_depth >= 4);
}

#[test]
fn perft_equals_fairy_stockfish_stored() {
    let (_, positions, _) = check("antichess-perft-fairy.txt");
    assert!(positions >= 20, "{positions} positions");
}

#[test]
fn perft_equals_python_chess_on_fresh_positions() {
    let fens = common::python_script("oracles/antichess_oracle.py", &["positions", "2027", "12"]);
    let dir = std::env::temp_dir().join(format!("kiebitz-anti-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("fresh.txt");
    let lines: Vec<String> = fens.lines().map(|f| format!("antichess;{f};3;0")).collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let counted = common::python_script(
        "oracles/antichess_oracle.py",
        &["count", "python-chess", file.to_str().unwrap()],
    );
    let _ = std::fs::remove_dir_all(&dir);
    let mut n = 0;
    for line in counted.lines() {
        let f: Vec<&str> = line.split(';').collect();
        let pos = Antichess::from_fen("antichess", f[0]).unwrap();
        assert_eq!(
            pos.perft(f[1].parse().unwrap()),
            f[2].parse::<u64>().unwrap(),
            "{line}"
        );
        n += 1;
    }
    assert_eq!(n, 12);
}

#[test]
fn san_equals_python_chess() {
    let text = common::python_script("oracles/antichess_oracle.py", &["san", "52", "150"]);
    let (mut moves, mut captures, mut promotions, mut endings) = (0, 0, 0, 0);
    for line in text.lines() {
        let mut fields = line.split(';');
        let fen = fields.next().unwrap();
        let pos = Antichess::from_fen("antichess", fen).unwrap();
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        let pairs: Vec<&str> = fields.filter(|f| !f.is_empty()).collect();
        assert_eq!(pairs.len(), legal.len(), "{fen}");
        for pair in pairs {
            let (uci, san) = pair.split_once(' ').unwrap();
            let mv = pos
                .parse_move(uci)
                .unwrap_or_else(|e| panic!("{fen}: {uci}: {e}"));
            // python-chess adds `#` to a move after which the opponent has no move (a win
            // for it); lichess writes a suffix only for check, which antichess has not.
            let ends = pos.play(mv).count_moves() == 0;
            let python = if ends {
                san.strip_suffix('#').unwrap_or(san)
            } else {
                san
            };
            assert_eq!(pos.san(mv), python, "{fen}: {uci}");
            endings += usize::from(ends);
            assert_eq!(kiebitz::san::read(&pos, san), Ok(mv), "{fen}: {san}");
            moves += 1;
            captures += usize::from(san.contains('x'));
            promotions += usize::from(san.contains('='));
        }
    }
    assert!(
        moves > 1000 && captures > 100,
        "{moves} moves, {captures} captures"
    );
    assert!(
        promotions > 0 && endings > 0,
        "{promotions} promotions, {endings} endings"
    );
}

/// The stored counts recounted by the oracles: every python-chess line by python-chess (a few
/// minutes), and the Fairy-Stockfish lines of at most 250 000 nodes by pyffish (which replays
/// every line from the FEN: minutes as well; `pip install pyffish`). Run with `cargo test
/// --release --test perft_antichess -- --ignored`.
#[test]
#[ignore]
fn stored_counts_recounted_by_the_oracles() {
    for (oracle, file, max_nodes) in [
        ("python-chess", "antichess-perft.txt", u64::MAX),
        ("pyffish", "antichess-perft-fairy.txt", 250_000),
    ] {
        let stored: Vec<_> = common::perft_cases(file)
            .into_iter()
            .filter(|c| c.nodes <= max_nodes)
            .collect();
        let dir = std::env::temp_dir().join(format!("kiebitz-anti-o-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(file);
        let lines: Vec<String> = stored
            .iter()
            .map(|c| format!("antichess;{};{};{}", c.fen, c.depth, c.nodes))
            .collect();
        std::fs::write(&path, lines.join("\n")).unwrap();
        let text = common::python_script(
            "oracles/antichess_oracle.py",
            &["count", oracle, path.to_str().unwrap()],
        );
        let _ = std::fs::remove_dir_all(&dir);
        let counted: Vec<&str> = text.lines().collect();
        assert_eq!(counted.len(), stored.len(), "{oracle}");
        for (line, case) in counted.iter().zip(&stored) {
            assert_eq!(
                *line,
                format!("{};{};{}", case.fen, case.depth, case.nodes),
                "{oracle}"
            );
        }
    }
}
