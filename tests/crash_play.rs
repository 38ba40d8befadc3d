//! `kiebitz-crash play` in a real terminal (tmux): the row of towers is drawn, moves are typed
//! as `cell:h`, a bad move is refused with the legal ones listed, and the game ends with a
//! result.

mod common;
mod terminal;

use terminal::{Tmux, result_line};

#[test]
fn a_crash_game_in_a_terminal() {
    let tmux = Tmux {
        socket: format!("kiebitz-crash-play-test-{}", std::process::id()),
    };
    let bin = common::binary("kiebitz-crash");
    let cmd = format!("{} play --start 2:3 --tc 0.05", bin.display());
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "play",
        "-x",
        "120",
        "-y",
        "60",
        &cmd,
    ]);
    tmux.run(&["set-option", "-t", "play", "remain-on-exit", "on"]);
    let first = tmux.wait_for(|s| s.contains("you play White.") && s.contains("W2...B2 w"));
    // Two towers of two stones, cells 1 to 5 numbered below the floor.
    assert!(
        first.lines().any(|l| l.trim_end() == "  ○           ●"),
        "{first}"
    );
    assert!(
        first.lines().any(|l| l.trim_end() == "  1  2  3  4  5"),
        "{first}"
    );
    let mut plies = 0;
    let end = loop {
        let before = tmux.screen().matches("Illegal move: 9:1").count();
        tmux.run(&["send-keys", "-t", "play", "9:1", "Enter"]);
        let s = tmux.wait_for(|s| {
            s.matches("Illegal move: 9:1").count() > before || result_line(s).is_some()
        });
        if result_line(&s).is_some() {
            break s;
        }
        let legal = s
            .lines()
            .rev()
            .find_map(|l| l.split_once("Legal: ").map(|(_, m)| m.to_string()))
            .expect("the legal moves");
        let mv = legal.split_whitespace().next().expect("a move").to_string();
        assert!(mv.contains(':'), "{mv}");
        let engine_moves = s.matches("Engine plays ").count();
        tmux.run(&["send-keys", "-t", "play", &mv, "Enter"]);
        let s = tmux.wait_for(|s| {
            s.matches("Engine plays ").count() > engine_moves || result_line(s).is_some()
        });
        plies += 1;
        assert!(
            plies < 12,
            "a game of 2 stones a side on 5 cells is short:\n{s}"
        );
        if result_line(&s).is_some() {
            break s;
        }
    };
    assert!(plies >= 1, "{end}");
    let result = result_line(&end).unwrap();
    assert!(result.contains("has no stones left}"), "{result}");
    let dead = tmux.wait_for(|_| {
        tmux.run(&["display-message", "-p", "-t", "play", "#{pane_dead}"])
            .trim()
            == "1"
    });
    assert!(!dead.is_empty());
}
