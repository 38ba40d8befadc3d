//! python-chess (`chess.engine`) as a real client of kiebitz-chess: two whole games over UCI
//! (`SimpleEngine.popen_uci`) and two over XBoard (`popen_xboard`), every move checked legal by
//! python-chess, a Chess960 game from each of two start positions over both protocols (a board
//! with `chess960=True`), then `engine.analyse` over both protocols with its `info` / thinking-output
//! parsing (depth, score and a legal pv). The client is scripts/oracles/python_chess_client.py; it
//! needs `python3` with the `chess` package (`pip install -r scripts/requirements.txt`), which
//! CI installs, so the test fails if they are missing.

mod common;

use std::process::Command;

#[test]
fn python_chess_plays_and_analyses_over_uci_and_xboard() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/oracles/python_chess_client.py"
    );
    let out = Command::new("python3")
        .arg(script)
        .arg(common::binary("kiebitz-chess"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}): install Python 3"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{script} failed (is python-chess installed? pip install -r scripts/requirements.txt):\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(' ').collect()).collect();
    let find = |key: &str, proto: &str| -> Vec<&Vec<&str>> {
        lines
            .iter()
            .filter(|w| w[0] == key && w[1] == proto)
            .collect()
    };
    for proto in ["uci", "xboard"] {
        assert_eq!(
            find("NAME", proto)[0][2..].join(" "),
            format!("kiebitz-chess {}", env!("CARGO_PKG_VERSION")),
            "{proto} name:\n{text}"
        );
        let games = find("GAME", proto);
        assert_eq!(games.len(), 2, "{proto} games:\n{text}");
        for g in games {
            // GAME proto n plies P end R: a result or the 40-ply cap
            let plies: u32 = g[4].parse().unwrap();
            let end = g[6];
            assert!(
                (end == "cap" && plies == 40)
                    || (["1-0", "0-1", "1/2-1/2"].contains(&end) && plies <= 40),
                "{g:?}"
            );
        }
        // CHESS960 proto n plies P end R castlings C: whole Chess960 games, every move legal
        // under python-chess's chess960=True rules.
        let games = find("CHESS960", proto);
        assert_eq!(games.len(), 2, "{proto} chess960 games:\n{text}");
        for g in &games {
            let plies: u32 = g[4].parse().unwrap();
            assert!(g[6] != "cap" || plies == 40, "{g:?}");
        }
        // ANALYSE proto depth D score CP pv N moves...
        let a = find("ANALYSE", proto);
        assert_eq!(a.len(), 1, "{text}");
        let depth: u32 = a[0][3].parse().expect("a depth in the analysis");
        assert!(depth >= 1, "{:?}", a[0]);
        let score: i64 = a[0][5].parse().expect("a score in the analysis");
        assert!(
            score.abs() < 1000,
            "{:?}: the position is about level",
            a[0]
        );
        let pv: usize = a[0][7].parse().unwrap();
        assert!(pv >= 1, "{:?}: a principal variation", a[0]);
        assert_eq!(a[0].len(), 8 + pv, "{:?}", a[0]);
    }
    // kiebitz offers Ponder and MultiPV.
    assert_eq!(find("PONDER", "uci")[0][2], "yes");
    assert_eq!(find("MULTIPV", "uci")[0][2], "yes");
    assert_eq!(lines.last().unwrap()[0], "DONE");
}
