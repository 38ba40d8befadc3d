//! What the fuzz targets share: a protocol session of any game on fuzzer input, its output
//! collected in memory, and the per-game checks of the FEN and move parsers.

use std::time::Duration;

use kiebitz::game::Game;
use kiebitz::nsearch::NGame;
use kiebitz::protocol::{SessionConfig, legal_moves, nseat, session_transcript};

/// The session's input: `first`, the fuzzer's bytes without `quit` in any case (which would
/// end the session before the check), then `last`.
fn input(first: &str, data: &[u8], last: &str) -> String {
    let mut body = String::from_utf8_lossy(data).into_owned();
    // ASCII lower-casing keeps every byte where it was, so positions carry over.
    while let Some(at) = body.to_ascii_lowercase().find("quit") {
        body.replace_range(at..at + 4, "");
    }
    format!("{first}\n{body}\n{last}\n")
}

/// A UCI or XBoard session (chosen by `first`, `uci` or `xboard`) of game `G` on `data`, then
/// `last`: no panic, and the output has the line `answer`. Searches and perft are cut at
/// 20 ms so that a `go infinite` cannot stall the fuzzer.
pub fn session<G: Game>(first: &str, data: &[u8], last: &str, answer: &str) {
    let config = SessionConfig {
        hash_mb: 1,
        finish_at_eof: false,
        job_ceiling: Some(Duration::from_millis(20)),
        ..SessionConfig::default()
    };
    let out = session_transcript::<G>(&input(first, data, last), &config).unwrap();
    assert!(out.lines().any(|l| l == answer), "no {answer}");
}

/// An N-seat protocol session of game `G` on `data`, then `isready`: no panic, `readyok`.
/// Every command stops a running search or perft, and so does the end of input.
pub fn nseat_session<G: NGame>(data: &[u8]) {
    let config = SessionConfig {
        hash_mb: 1,
        finish_at_eof: false,
        job_ceiling: Some(Duration::from_millis(20)),
        ..SessionConfig::default()
    };
    let out = nseat::session_transcript::<G>(&input("uci", data, "isready"), &config).unwrap();
    assert!(out.lines().any(|l| l == "readyok"), "no readyok");
}

/// Game `G`'s FEN parser on `text`: an accepted FEN survives its round trip and yields
/// distinct, playable legal moves.
pub fn check_fen<G: Game>(variant: &str, text: &str) {
    let Ok(pos) = G::from_fen(variant, text) else {
        return;
    };
    let again = G::from_fen(variant, &pos.fen()).expect("a FEN we wrote reads back");
    assert_eq!(again.fen(), pos.fen());
    assert_eq!(again.hash(), pos.hash());
    let moves = legal_moves(&pos);
    for (i, m) in moves.iter().enumerate() {
        assert!(!moves[..i].contains(m), "duplicate move");
        let _ = legal_moves(&pos.play(*m));
    }
}

/// N-player game `G`'s position text parser on `text`, the same checks as [`check_fen`].
pub fn check_ntext<G: NGame>(text: &str) {
    let Ok(pos) = G::from_text(text) else {
        return;
    };
    let again = G::from_text(&pos.text()).expect("a text we wrote reads back");
    assert_eq!(again.text(), pos.text());
    assert_eq!(again.hash(), pos.hash());
    let mut moves = kiebitz::board::MoveList::new();
    pos.legal_moves(&mut moves);
    for (i, m) in moves.iter().enumerate() {
        assert!(!moves[..i].contains(m), "duplicate move");
        let mut next = kiebitz::board::MoveList::new();
        pos.play(*m).legal_moves(&mut next);
    }
}

/// A few plies into a game: `plies` chooses how many (up to 15) and which moves.
fn walk<P: Clone>(
    start: P,
    plies: u8,
    moves: impl Fn(&P) -> Vec<kiebitz::board::Move>,
    play: impl Fn(&P, kiebitz::board::Move) -> P,
) -> P {
    let mut pos = start;
    for i in 0..plies % 16 {
        let legal = moves(&pos);
        if legal.is_empty() {
            break;
        }
        pos = play(&pos, legal[(i as usize * 7 + plies as usize) % legal.len()]);
    }
    pos
}

/// Game `G`'s move parser on every word of `text`, a few plies into a game chosen by `plies`:
/// a move that parses is legal.
pub fn check_moves<G: Game>(variant: &str, plies: u8, text: &str) {
    let start = G::startpos(variant).expect("start position");
    let pos = walk(start, plies, |p| legal_moves(p).to_vec(), |p, m| p.play(m));
    for word in text.split_whitespace() {
        if let Ok(mv) = pos.parse_move(word) {
            assert!(legal_moves(&pos).contains(&mv));
        }
    }
}

/// N-player game `G`'s move parser with `players` seats, as [`check_moves`].
pub fn check_nmoves<G: NGame>(players: usize, plies: u8, text: &str) {
    let legal = |p: &G| {
        let mut moves = kiebitz::board::MoveList::new();
        p.legal_moves(&mut moves);
        moves.to_vec()
    };
    let start = G::startpos(players).expect("start position");
    let pos = walk(start, plies, legal, |p, m| p.play(m));
    for word in text.split_whitespace() {
        if let Ok(mv) = pos.parse_move(word) {
            assert!(legal(&pos).contains(&mv));
        }
    }
}
