//! `play` in the terminal, driven through pipes: a whole game on 3×3 where the player always
//! picks the first legal move the engine lists, ending with a result line.

mod common;
mod protocol_io;
mod terminal;

use std::time::Duration;

use protocol_io::Client;
use terminal::{Tmux, result_line};

#[test]
fn a_whole_game_through_play() {
    let mut e = Client::spawn(
        &common::binary("kiebitz-pawns"),
        &["play", "--variant", "pawns3", "--tc", "0.05"],
    );
    let first = e.next_line(protocol_io::TIMEOUT).expect("a greeting");
    assert!(
        first.starts_with("kiebitz-pawns (pawns3): you play White."),
        "{first}"
    );
    let mut moves = 0;
    let result = loop {
        e.send("zz");
        let line = e.read_until(|l| {
            l.contains("Legal: ")
                || l.starts_with("1-0 ")
                || l.starts_with("0-1 ")
                || l.starts_with("1/2-1/2 ")
        });
        let last = line.last().unwrap().clone();
        if let Some((_, legal)) = last.split_once("Legal: ") {
            assert!(last.contains("Illegal move: zz"), "{last}");
            let mv = legal.split_whitespace().next().expect("a legal move");
            e.send(mv);
            moves += 1;
            assert!(moves < 10, "a 3×3 game lasts at most 7 plies");
        } else {
            break last;
        }
    };
    assert!(moves >= 1);
    assert!(result.contains('{') && result.ends_with('}'), "{result}");
    assert!(e.wait_exit(Duration::from_secs(10)));
}

#[test]
fn quit_and_end_of_input_leave_cleanly() {
    let mut e = Client::spawn(
        &common::binary("kiebitz-pawns"),
        &["play", "--color", "black"],
    );
    e.expect_prefix("kiebitz-pawns (pawns6): you play Black.");
    e.expect_prefix("Engine plays ");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)));
}

/// A whole game of `play` in a real pseudo-terminal (tmux): the board is drawn, the player's
/// moves are typed as keys, the game ends with a result and the program exits.
#[test]
fn a_whole_game_in_a_terminal() {
    let bin = common::binary("kiebitz-pawns");
    let cmd = format!("{} play --variant pawns4 --tc 0.05", bin.display());
    let tmux = Tmux::start("play", &cmd, 120, 50);
    let first = tmux.wait_for(|s| s.contains("you play White.") && s.contains("a b c d"));
    assert!(
        first.contains("kiebitz-pawns (pawns4): you play White."),
        "{first}"
    );
    // Ask for the legal moves by typing a wrong one, then type the first legal move; a 4×4
    // game lasts at most 12 moves of White.
    let (moves, end) = tmux.play_first_legal_moves("zz", 12);
    assert!(!moves.is_empty(), "{end}");
    // The board is drawn: ranks 4 to 1 (the start position shows four white pawns on rank 1),
    // files a to d.
    assert!(
        first.lines().any(|l| l.trim_end() == "1 ♙ ♙ ♙ ♙"),
        "{first}"
    );
    assert!(end.lines().any(|l| l.starts_with("4 ")), "{end}");
    assert!(end.lines().any(|l| l.trim() == "a b c d"), "{end}");
    let result = result_line(&end).unwrap();
    assert!(result.ends_with('}'), "{result}");
    // The program has left: the pane is dead.
    tmux.wait_exit();
}
