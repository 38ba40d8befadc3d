//! python-chess (`chess.engine`, `play(..., ponder=True)`) as a pondering client of
//! kiebitz-chess: two engine processes play a game over UCI and one over XBoard under a clock,
//! python-chess sending `go ponder` after each `bestmove X ponder Y` and then `ponderhit` (the
//! expected move came) or `stop` (another one); over XBoard `hard`. Every move is checked legal
//! by python-chess. The client is scripts/oracles/python_chess_ponder.py (needs python-chess,
//! which CI installs).

mod common;

#[test]
fn python_chess_ponders_with_kiebitz_over_uci_and_xboard() {
    let text = common::python_script(
        "oracles/python_chess_ponder.py",
        &[
            common::binary("kiebitz-chess").to_str().unwrap(),
            "1",
            "30",
            "10",
            "0.1",
        ],
    );
    let counts = |proto: &str| -> Vec<u64> {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("PONDER {proto} ")))
            .unwrap_or_else(|| panic!("no PONDER {proto} line:\n{text}"));
        line.split(' ')
            .skip(2)
            .collect::<Vec<_>>()
            .chunks(2)
            .map(|kv| kv[1].parse().unwrap())
            .collect()
    };
    // go ponder, ponderhit, stop, hard
    let uci = counts("uci");
    assert!(uci[0] >= 10, "python-chess asked for few ponders:\n{text}");
    assert!(
        uci[1] >= 1,
        "no ponderhit: the engine's ponder moves never came:\n{text}"
    );
    // Every ponder ends in ponderhit or stop, but the two engines' last ones (ended by quit).
    assert!(
        uci[1] + uci[2] + 2 >= uci[0] && uci[1] + uci[2] <= uci[0],
        "ponders not ended by ponderhit or stop:\n{text}"
    );
    let xboard = counts("xboard");
    assert!(xboard[3] >= 10, "no `hard` over XBoard:\n{text}");
    for proto in ["uci", "xboard"] {
        let game = text
            .lines()
            .find(|l| l.starts_with(&format!("GAME {proto} ")))
            .unwrap_or_else(|| panic!("no {proto} game:\n{text}"));
        assert!(game.contains(" plies "), "{game}");
    }
}
