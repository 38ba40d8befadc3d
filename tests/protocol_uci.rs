//! UCI sessions with the real kiebitz-pawns binary: handshake, positions, every kind of `go`,
//! `isready` during a search, `stop`, `ponderhit`, bad input (docs/rules.md §8), and `go perft` for the
//! whole pawn-chess perft reference.

mod common;
mod protocol_io;

use std::time::{Duration, Instant};

use kiebitz::game::Game;
use kiebitz::games::pawns::Pawns;
use protocol_io::Client;

fn engine() -> Client {
    Client::spawn(&common::binary("kiebitz-pawns"), &[])
}

/// A UCI session past the handshake.
fn uci() -> Client {
    let mut e = engine();
    e.send("uci");
    e.expect_prefix("uciok");
    e
}

/// The position `variant` / `fen` after `moves`.
fn position(variant: &str, fen: Option<&str>, moves: &[&str]) -> Pawns {
    let mut pos = match fen {
        Some(f) => Pawns::from_fen(variant, f).unwrap(),
        None => Pawns::startpos(variant).unwrap(),
    };
    for m in moves {
        pos = pos.play(pos.parse_move(m).unwrap());
    }
    pos
}

/// `go perft 1` and the node count it reports: the number of legal moves of the position.
fn perft1(e: &mut Client) -> u64 {
    e.send("go perft 1");
    let line = e.expect_prefix("Nodes searched: ");
    // Stockfish's format ends with a blank line.
    assert_eq!(e.next_line(protocol_io::TIMEOUT).as_deref(), Some(""));
    line["Nodes searched: ".len()..].parse().unwrap()
}

fn legal_count(pos: &Pawns) -> u64 {
    kiebitz::perft::perft(pos, 1)
}

/// Waits for `bestmove` and checks that it is legal in `pos`.
fn expect_legal_bestmove(e: &mut Client, pos: &Pawns) -> String {
    let line = e.expect_prefix("bestmove ");
    let mv = line.split_whitespace().nth(1).unwrap().to_string();
    assert!(
        pos.parse_move(&mv).is_ok(),
        "{line} is not legal in {}",
        pos.fen()
    );
    mv
}

#[test]
fn handshake_names_engine_and_options() {
    let mut e = engine();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert_eq!(
        lines[0],
        format!("id name kiebitz-pawns {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
    assert!(
        lines
            .contains(&"option name Move Overhead type spin default 10 min 0 max 5000".to_string())
    );
    let variant = lines.iter().find(|l| l.contains("UCI_Variant")).unwrap();
    assert!(variant.starts_with("option name UCI_Variant type combo default pawns6 var pawns6 "));
    assert!(variant.contains(" var pawns3ep") && variant.contains(" var pawns8ep "));
    assert!(variant.contains(" var pawngame4 ") && variant.ends_with(" var pawngame8ep"));
    assert_eq!(e.ask("isready"), "readyok");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)));
}

#[test]
fn positions_with_moves_on_every_board_size() {
    let mut e = uci();
    e.send("position startpos moves a1a2 a6a5 b1b2");
    assert_eq!(
        perft1(&mut e),
        legal_count(&position("pawns6", None, &["a1a2", "a6a5", "b1b2"]))
    );
    // A 5×5 FEN: vampirc-uci's grammar cannot read it, our own path does.
    let fen = "ppppp/5/5/5/PPPPP w - - 0 1";
    e.send(&format!("position fen {fen} moves c1c2 c5c4"));
    assert_eq!(
        perft1(&mut e),
        legal_count(&position("pawns6", Some(fen), &["c1c2", "c5c4"]))
    );
    // The variant decides the rules: double steps only with pawns4d.
    e.send("setoption name UCI_Variant value pawns4d");
    e.send("position startpos");
    assert_eq!(perft1(&mut e), 8);
    e.send("position startpos moves a1a3");
    // Black: b4xa3, three single steps, three double steps (the a-pawn is blocked).
    assert_eq!(perft1(&mut e), 7);
    e.send("ucinewgame");
    assert_eq!(e.ask("isready"), "readyok");
    // Still pawns4d rules on a 3×3 board: three single and three double steps.
    e.send("position fen 3/3/PPP w - - 0 1");
    assert_eq!(perft1(&mut e), 6);
}

#[test]
fn go_with_each_limit_answers_a_legal_move() {
    let mut e = uci();
    e.send("setoption name Hash value 8");
    e.send("setoption name Move Overhead value 20");
    let moves = ["a1a2", "f6f5", "c1c2"];
    let pos = position("pawns6", None, &moves);
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    for go in [
        "go depth 3",
        "go nodes 2000",
        "go movetime 100",
        "go wtime 2000 btime 2000 winc 10 binc 10",
        "go wtime 1000 btime 1000 movestogo 20",
        "go btime 50 wtime 50",
        "go depth 300 nodes 5000",
    ] {
        e.send(go);
        let lines = e.read_until(|l| l.starts_with("bestmove "));
        let last = lines.last().unwrap();
        let mv = last.split_whitespace().nth(1).unwrap();
        assert!(pos.parse_move(mv).is_ok(), "{go}: {last}");
        let info = lines
            .iter()
            .find(|l| l.starts_with("info depth "))
            .expect("an info line");
        for field in [
            " seldepth ",
            " score ",
            " nodes ",
            " nps ",
            " time ",
            " hashfull ",
            " pv ",
        ] {
            assert!(info.contains(field), "{go}: {info} lacks{field}");
        }
    }
}

#[test]
fn infinite_search_waits_for_stop_and_answers_isready() {
    let mut e = uci();
    e.send("position startpos moves a1a2");
    let pos = position("pawns6", None, &["a1a2"]);
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    e.send("isready");
    e.read_until(|l| {
        assert!(!l.starts_with("bestmove"), "bestmove before stop: {l}");
        l == "readyok"
    });
    assert!(asked.elapsed() < Duration::from_secs(5));
    // No bestmove while nobody says stop (UCI: not even when the search is done).
    let deadline = Instant::now() + Duration::from_millis(300);
    while let Some(l) = e.next_line(deadline.saturating_duration_since(Instant::now())) {
        assert!(!l.starts_with("bestmove"), "bestmove before stop: {l}");
    }
    e.send("stop");
    expect_legal_bestmove(&mut e, &pos);
    // Still working afterwards.
    e.send("go depth 2");
    expect_legal_bestmove(&mut e, &pos);
}

#[test]
fn ponder_ends_with_ponderhit_or_stop() {
    let mut e = uci();
    let pos = position("pawns6", None, &[]);
    e.send("position startpos");
    e.send("go ponder wtime 500 btime 500");
    std::thread::sleep(Duration::from_millis(200));
    e.send("ponderhit");
    expect_legal_bestmove(&mut e, &pos);
    e.send("go ponder depth 2");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    expect_legal_bestmove(&mut e, &pos);
}

#[test]
fn stop_at_once_still_gives_a_legal_move() {
    let mut e = uci();
    let pos = position("pawns6", None, &[]);
    e.send("position startpos");
    e.send("go infinite");
    e.send("stop");
    expect_legal_bestmove(&mut e, &pos);
    e.send("go wtime 0 btime 0");
    expect_legal_bestmove(&mut e, &pos);
}

#[test]
fn a_decided_position_answers_bestmove_none() {
    let mut e = uci();
    e.send("setoption name UCI_Variant value pawns3");
    e.send("position fen 1P1/3/p2 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.expect_prefix("bestmove"), "bestmove (none)");
}

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let mut e = uci();
    let base = ["a1a2", "a6a5"];
    e.send(&format!("position startpos moves {}", base.join(" ")));
    let expected = legal_count(&position("pawns6", None, &base));
    let cases = [
        (
            "xyzzy plugh",
            "info string error: unknown command 'xyzzy plugh'",
        ),
        (
            "position fen pppp/4/4 w - - 0 1 x",
            "info string error: bad FEN",
        ),
        (
            "position fen ppp/3/PPQ w - - 0 1",
            "info string error: bad FEN",
        ),
        ("position sideways", "info string error: position needs"),
        (
            "setoption name Contempt value 10",
            "info string error: unknown option 'Contempt'",
        ),
        (
            "setoption name Hash value lots",
            "info string error: option Hash",
        ),
        (
            "setoption name UCI_Variant value pawns9",
            "info string error: unknown UCI_Variant",
        ),
        ("go depth deep", "info string error: go depth"),
        ("go perft -1", "info string error: go perft"),
    ];
    for (bad, answer) in cases {
        let line = e.ask(bad);
        assert!(line.starts_with(answer), "{bad} → {line}");
        assert_eq!(perft1(&mut e), expected, "state changed by '{bad}'");
    }
    // Invalid UTF-8 and an empty line harm nobody.
    let line = e.ask("\u{fffd}\u{0}");
    assert_eq!(line, "info string error: unknown command '\u{fffd}?'");
    e.send("");
    assert_eq!(e.ask("isready"), "readyok");
}

#[test]
fn illegal_move_keeps_the_legal_prefix() {
    let mut e = uci();
    let line = e.ask("position startpos moves a1a2 a6a5 a2a3 a5a4 a3a4 b1b2");
    assert_eq!(
        line,
        "info string error: illegal move 'a3a4' after 4 legal moves (a3a4 is not a legal move here); position set before it"
    );
    let pos = position("pawns6", None, &["a1a2", "a6a5", "a2a3", "a5a4"]);
    assert_eq!(perft1(&mut e), legal_count(&pos));
    let line = e.ask("position startpos moves a2a5");
    assert!(line.contains("'a2a5' after 0 legal moves"), "{line}");
    assert_eq!(perft1(&mut e), 6);
    e.send("go depth 2");
    expect_legal_bestmove(&mut e, &position("pawns6", None, &[]));
    // A square off the board is another game's move: said, and no move is made up for it.
    let line = e.ask("position startpos moves e2e9");
    assert!(line.contains("'e2e9' names the square e9 off"), "{line}");
    e.send("go depth 2");
    assert_eq!(
        e.read_until(|l| l.starts_with("bestmove")).last().unwrap(),
        "bestmove (none)"
    );
}

#[test]
fn quit_during_a_search_ends_the_process() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)));
}

#[test]
fn perft_divide_in_stockfish_format() {
    let mut e = uci();
    e.send("setoption name UCI_Variant value pawns4d");
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    let pos = Pawns::startpos("pawns4d").unwrap();
    let divide = kiebitz::perft::divide(&pos, 3);
    assert_eq!(lines.len(), divide.len() + 2);
    for ((mv, n), line) in divide.iter().zip(&lines) {
        assert_eq!(line, &format!("{mv}: {n}"));
    }
    assert_eq!(lines[divide.len()], "");
    let total: u64 = divide.iter().map(|(_, n)| n).sum();
    assert_eq!(lines[divide.len() + 1], format!("Nodes searched: {total}"));
}

/// Reference lines with more nodes than this run in `uci_perft_reference_deep` only.
const QUICK_NODES: u64 = 100_000_000;

fn perft_reference(keep: impl Fn(u64) -> bool) {
    let mut e = uci();
    let mut checked = 0;
    for case in common::perft_cases("pawns-perft.txt") {
        if !keep(case.nodes) {
            continue;
        }
        e.send(&format!(
            "setoption name UCI_Variant value {}",
            case.variant
        ));
        e.send(&format!("position fen {}", case.fen));
        e.send(&format!("go perft {}", case.depth));
        let deadline = Instant::now() + Duration::from_secs(600);
        let line = loop {
            let l = e
                .next_line(deadline.saturating_duration_since(Instant::now()))
                .expect("perft answer");
            if l.starts_with("Nodes searched: ") {
                break l;
            }
        };
        assert_eq!(
            line,
            format!("Nodes searched: {}", case.nodes),
            "{} {} depth {}",
            case.variant,
            case.fen,
            case.depth
        );
        checked += 1;
    }
    assert!(checked > 0);
}

/// Every line of the reference up to 100M nodes (in debug builds up to 2M, to stay quick).
#[test]
fn uci_perft_reference() {
    let limit = if cfg!(debug_assertions) {
        2_000_000
    } else {
        QUICK_NODES
    };
    perft_reference(|n| n <= limit);
}

/// The reference lines above 100M nodes (about 1G nodes in all, seconds in release):
/// `cargo test --release --test protocol_uci -- --ignored`.
#[test]
#[ignore]
fn uci_perft_reference_deep() {
    perft_reference(|n| n > QUICK_NODES);
}

/// Chess960 over UCI with kiebitz-chess: the `UCI_Chess960` option, a Shredder-FEN position,
/// castling written and read as the king taking its own rook, X-FEN back in `d`.
#[test]
fn chess960_over_uci() {
    use kiebitz::games::chess::Chess;
    let mut e = Client::spawn(&common::binary("kiebitz-chess"), &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name UCI_Chess960 type check default false".to_string()),
        "{lines:?}"
    );
    let fen = "r1k4r/8/8/8/8/8/8/RK4R1 w GAha - 0 1";
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let divide = e.read_until(|l| l.starts_with("Nodes searched"));
    let pos = Chess::from_fen("chess960", fen).unwrap();
    assert_eq!(divide.len(), kiebitz::perft::perft(&pos, 1) as usize + 2);
    // Both castlings, as king takes rook; no two-square king step.
    assert!(divide.contains(&"b1a1: 1".to_string()), "{divide:?}");
    assert!(divide.contains(&"b1g1: 1".to_string()), "{divide:?}");
    // Queenside castling: the king to c1, the rook to d1; Black keeps both rights.
    e.send(&format!("position fen {fen} moves b1a1"));
    e.send("d");
    let board = e.read_until(|l| l.contains("FEN: "));
    assert!(
        board
            .last()
            .unwrap()
            .ends_with("FEN: r1k4r/8/8/8/8/8/8/2KR2R1 b kq - 1 1"),
        "{board:?}"
    );
    e.send("go depth 3");
    let best = e.expect_prefix("bestmove ");
    let after = pos.play(pos.parse_move("b1a1").unwrap());
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(after.parse_move(mv).is_ok(), "{best}");
    // Off again: standard chess, where a Chess960 castling letter is refused clearly.
    e.send("setoption name UCI_Chess960 value false");
    e.send(&format!("position fen {fen}"));
    let err = e.expect_prefix("info string error");
    assert!(err.contains("Chess960"), "{err}");
    assert_eq!(e.ask("isready"), "readyok");
}
