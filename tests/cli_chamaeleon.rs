//! kiebitz-chamaeleon from the outside: the N-seat protocol (searches with every algorithm,
//! `go perft`, bad input answered with an error and the state kept), the shell `perft`, and a
//! whole four-player game of `play` in a real terminal (tmux) with a person on South.

mod common;
mod protocol_io;
mod terminal;

use std::time::Duration;

use protocol_io::Client;
use terminal::Tmux;

fn engine() -> Client {
    Client::spawn(&common::binary("kiebitz-chamaeleon"), &[])
}

/// The position text the engine holds, through `d`.
fn held(e: &mut Client) -> String {
    e.send("d");
    let lines = e.read_until(|l| {
        l.contains(" a1-")
            || l.contains("-h8 ")
            || l.split(' ').count() == 7 && l.ends_with(|c: char| c.is_ascii_digit())
    });
    lines
        .last()
        .unwrap()
        .trim_start_matches("info string ")
        .to_string()
}

#[test]
fn every_algorithm_answers_with_info_and_a_legal_bestmove() {
    let mut e = engine();
    e.send("uci");
    let id = e.read_until(|l| l == "uciok");
    assert!(
        id.iter()
            .any(|l| l.contains("option name Algorithm type combo"))
    );
    for a in ["maxn", "maxn-is", "paranoid", "hypermax", "brs"] {
        e.send(&format!("setoption name Algorithm value {a}"));
        e.send("position startpos players 3 moves b1c3");
        e.send("go wtime 2000 stime 2000 ntime 2000 winc 10");
        let lines = e.read_until(|l| l.starts_with("bestmove "));
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth "))
            .unwrap_or_else(|| panic!("{a}: no info in {lines:?}"));
        assert!(
            info.contains(" values s=") && info.contains(" w=") && info.contains(" n="),
            "{info}"
        );
        assert!(!info.contains(" e="), "East does not play: {info}");
        let mv = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
        // West (a5–a8) is to move.
        assert!(mv.starts_with('a'), "{a}: {mv}");
    }
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)));
}

#[test]
fn go_perft_divides() {
    let mut e = engine();
    e.send("position startpos players 4");
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 169");
    assert_eq!(lines.iter().filter(|l| l.ends_with(": 13")).count(), 13);
}

#[test]
fn bad_input_gets_an_error_and_keeps_the_state() {
    let mut e = engine();
    let shrunk = "8/8/3sY4/2nBsB1nG2/3nYsR3/sG7/8/8 a3-f6 sn n 39";
    e.send(&format!("position fen {shrunk}"));
    assert_eq!(held(&mut e), shrunk);
    let cases = [
        ("position fen 8/8/8 a1-h8 sn s 0", "bad position"),
        (
            "position fen 8/8/3sY4/2nBsB1nG2/3nYsR3/sG7/8/8 a3-f6 sn w 39",
            "West is to move but has no pieces",
        ),
        (
            "position fen 8/8/3sY4/2nBsB1nG2/3nYsR3/sG7/8/8 a1-f6 sn n 39",
            "would have shrunk",
        ),
        (
            "position fen 8/8/3sY4/2nBsB1nG2/3nYsR3/sG7/8/8 a3-f6 sn x 39",
            "seat to move",
        ),
        (
            "setoption name Algorithm value alphabeta",
            "unknown Algorithm 'alphabeta'",
        ),
        ("go movetime x", "needs a number"),
        ("frobnicate", "unknown command"),
    ];
    for (cmd, expect) in cases {
        let answer = e.ask(cmd);
        assert!(
            answer.starts_with("info string error: ") && answer.contains(expect),
            "{cmd}: {answer}"
        );
        assert_eq!(held(&mut e), shrunk, "after {cmd}");
    }
    // A move of another seat's piece and a move outside the area: the legal prefix stays.
    let answer = e.ask(&format!("position fen {shrunk} moves d6d5"));
    assert!(
        answer.contains("belongs to South, and North is to move"),
        "{answer}"
    );
    assert_eq!(held(&mut e), shrunk);
    let answer = e.ask(&format!("position fen {shrunk} moves f5g5"));
    assert!(
        answer.contains("outside the playing area a3-f6"),
        "{answer}"
    );
    assert_eq!(held(&mut e), shrunk);
    // A seat that is out of the game cannot be to move, and a finished game has no search.
    let over = "8/8/8/8/1sR6/8/8/8 a3-c5 sn s 41";
    e.send(&format!("position fen {over}"));
    let answer = e.ask("go movetime 100");
    assert!(answer.contains("the game is over"), "{answer}");
    let answer = e.ask("position fen 8/8/8/8/1sR6/1nB6/8/8 a3-c5 sn w 41");
    assert!(
        answer.contains("West is to move but has no pieces"),
        "{answer}"
    );
    // The engine still works.
    e.send(&format!("position fen {shrunk}"));
    e.send("go depth 3");
    let best = e.expect_prefix("bestmove ");
    assert_ne!(best, "bestmove 0000");
}

#[test]
fn shell_perft_matches_the_reference() {
    let out = std::process::Command::new(common::binary("kiebitz-chamaeleon"))
        .args(["perft", "3", "--players", "2", "--divide"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l == "Nodes: 4467"), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(": ")
                && l.len() < 16
                && !l.starts_with("Nodes")
                && !l.starts_with("Time")
                && !l.starts_with("Mnps"))
            .count(),
        13
    );
    let bad = std::process::Command::new(common::binary("kiebitz-chamaeleon"))
        .args(["perft", "2", "--fen", "nonsense"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bad position"));
}

/// A four-player game in a real terminal: the person on South types the first legal move each
/// turn (asking for the list with `moves`), the engine plays West, North and East, the board is
/// drawn in colour, and the game ends with a result line for every seat.
#[test]
fn a_four_player_game_in_a_terminal() {
    let bin = common::binary("kiebitz-chamaeleon");
    let cmd = format!(
        "{} play --players 4 --seats s --tc 0.02 --algorithm maxn-is",
        bin.display()
    );
    let tmux = Tmux::start("chamaeleon", &cmd, 160, 50);
    let first = tmux.wait_for(|s| s.contains("South to move>"));
    assert!(
        first.contains("you play South; the engine (maxn-is"),
        "{first}"
    );
    // Colour: the pane's escape codes show coloured backgrounds.
    let coloured = tmux.run(&["capture-pane", "-p", "-e", "-t", "play"]);
    assert!(
        coloured.contains("\x1b[") && coloured.contains("41"),
        "{coloured}"
    );
    let mut turns = 0;
    let end = loop {
        let asked = tmux.screen().matches("Legal: ").count();
        tmux.type_line("moves");
        let s = tmux.wait_for(|s| s.matches("Legal: ").count() > asked || s.contains("Result: "));
        if s.contains("Result: ") {
            break s;
        }
        let legal = s
            .lines()
            .rev()
            .find_map(|l| l.split_once("Legal: ").map(|(_, m)| m.to_string()))
            .unwrap();
        let mv = legal.split_whitespace().next().unwrap().to_string();
        let prompts = s.matches("South to move>").count();
        tmux.type_line(&mv);
        let s = tmux
            .wait_for(|s| s.matches("South to move>").count() > prompts || s.contains("Result: "));
        turns += 1;
        assert!(
            turns <= 30,
            "South moves at most 25 times in 100 turns:\n{s}"
        );
        if s.contains("Result: ") {
            break s;
        }
    };
    assert!(turns >= 1);
    let result = end
        .lines()
        .rev()
        .find(|l| l.starts_with("Result: "))
        .unwrap();
    for seat in ["South", "West", "North", "East"] {
        assert!(result.contains(seat), "{result}");
    }
    assert!(result.ends_with('}'), "{result}");
    assert!(
        end.contains("Engine plays ") && end.contains(" for West"),
        "{end}"
    );
    tmux.wait_exit();
}
