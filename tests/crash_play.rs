//! `kiebitz-crash play` in a real terminal (tmux): the row of towers is drawn, moves are typed
//! as `cell:h`, a bad move is refused with the legal ones listed, and the game ends with a
//! result.

mod common;
mod terminal;

use terminal::{Tmux, result_line};

#[test]
fn a_crash_game_in_a_terminal() {
    let bin = common::binary("kiebitz-crash");
    let cmd = format!("{} play --start 2:3 --tc 0.05", bin.display());
    let tmux = Tmux::start("crash-play", &cmd, 120, 60);
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
    // A game of 2 stones a side on 5 cells is short.
    let (moves, end) = tmux.play_first_legal_moves("9:1", 12);
    assert!(!moves.is_empty(), "{end}");
    assert!(moves.iter().all(|m| m.contains(':')), "{moves:?}");
    let result = result_line(&end).unwrap();
    assert!(result.contains("has no stones left}"), "{result}");
    tmux.wait_exit();
}
