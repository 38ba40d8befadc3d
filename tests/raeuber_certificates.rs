//! Perfect play from checked certificates with the real kiebitz-raeuber binary over UCI
//! (docs/solved.md, "Perfect play from the certificates"): from the start, as White and as
//! Black, against replies chosen by a seeded random choice among the legal moves, every move of
//! a fresh engine — a new process for each game, its first `go` included — is the shipped
//! hold's (or, after a losing first move of White, the shipped
//! proof's), announced by `info string` with a draw score; a proof's position gives the proof's
//! move and a mate score; a damaged file given by `ProofFiles` is refused and the engine
//! searches on.

mod common;
mod protocol_io;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use kiebitz::board::MoveList;
use kiebitz::game::Game;
use kiebitz::games::raeuber::{Raeuber, START_FEN, VARIANTS};
use kiebitz::rng::Rng;
use kiebitz::solve::proof::{Proof, identity};
use protocol_io::Client;

/// The info string and the last score before `bestmove`, and the move.
fn go(e: &mut Client, position: &str) -> (Option<String>, String, String) {
    e.send(position);
    let (lines, best) = e.go("go wtime 3000 btime 3000");
    let note = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string ").map(str::to_string));
    let score = lines
        .iter()
        .rev()
        .find_map(|l| {
            l.split_once(" score ")
                .map(|(_, s)| s.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_default();
    (note, score, best)
}

/// A fresh engine: a new process, nothing asked of it but `uci`.
fn fresh_engine() -> Client {
    Client::uci_offering(
        &common::binary("kiebitz-raeuber"),
        &["option name ProofFiles type string"],
    )
}

/// The holder's moves of a shipped hold, by position.
fn hold_moves(name: &str) -> HashMap<String, String> {
    let path = format!(
        "{}/src/games/raeuber/data/proofs/{name}.proof",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let proof = Proof::parse_any::<Raeuber>(&text).unwrap();
    proof
        .nodes
        .into_iter()
        .map(|(fen, mv)| (identity(&fen), mv))
        .collect()
}

/// One game from the start: the engine plays `engine_white`'s side, the other side a random
/// legal move; every engine move must be certified and be the certificate's.
fn game(e: &mut Client, engine_white: bool, seed: u64, hold: &HashMap<String, String>) -> usize {
    let mut rng = Rng::new(seed);
    let mut pos = Raeuber::from_fen(VARIANTS[0], START_FEN).unwrap();
    let mut played: Vec<String> = Vec::new();
    let mut checked = 0;
    for _ in 0..60 {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let engine_to_move = played.len().is_multiple_of(2) == engine_white;
        let mv = if engine_to_move {
            let (note, score, best) =
                go(e, &format!("position startpos moves {}", played.join(" ")));
            let note = note.unwrap_or_else(|| panic!("no certificate after {played:?}"));
            if note.contains("-holds:") {
                assert_eq!(score, "cp 0", "{note}");
                let expected = hold
                    .get(&identity(&pos.fen()))
                    .expect("the hold covers the position");
                assert_eq!(&best, expected, "after {played:?}: {note}");
            } else {
                assert!(note.contains("-black-wins:") && !engine_white, "{note}");
                assert!(score.starts_with("mate "), "{score}");
            }
            checked += 1;
            pos.parse_move(&best).unwrap()
        } else {
            moves[rng.below(moves.len())]
        };
        played.push(pos.move_text(mv));
        pos = pos.play(mv);
    }
    checked
}

#[test]
fn from_the_start_the_engine_follows_the_holds_against_random_replies() {
    for (white, name) in [
        (true, "raeuber-start-white-holds"),
        (false, "raeuber-start-black-holds"),
    ] {
        let hold = hold_moves(name);
        let mut moves = 0;
        for seed in 1..=4 {
            let mut e = fresh_engine();
            let start = Instant::now();
            moves += game(&mut e, white, seed * 7919 + u64::from(white), &hold);
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{name}: {:?}",
                start.elapsed()
            );
        }
        assert!(moves >= 40, "{name}: only {moves} certified moves");
    }
    // A proof's position: its move and a mate score.
    let mut e = fresh_engine();
    let (note, score, best) = go(
        &mut e,
        "position fen rqkbnr/pppppp/6/5P/PPPPP1/RQKBNR b - - 0 1",
    );
    assert!(
        note.unwrap()
            .contains("raeuber-1f3-black-wins: proof, black wins")
    );
    assert!(score.starts_with("mate "), "{score}");
    assert_eq!(best, "e5e4");
}

#[test]
fn proof_files_are_checked_and_a_damaged_one_is_refused() {
    let mut e = fresh_engine();
    let good = common::data_path("proofs/raeuber-fsf-error-r72-after-lost.proof");
    let text = std::fs::read_to_string(&good).unwrap();
    let root = text
        .lines()
        .find_map(|l| l.strip_prefix("root "))
        .unwrap()
        .to_string();
    let first = text
        .lines()
        .find_map(|l| l.strip_prefix("moves "))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    // The file cut short (its last line lost): the walk of the proof runs out of moves.
    let cut: Vec<&str> = text.lines().collect();
    let damaged =
        std::env::temp_dir().join(format!("kiebitz-damaged-{}.proof", std::process::id()));
    std::fs::write(&damaged, cut[..cut.len() - 1].join("\n")).unwrap();
    let said = e.ask(&format!(
        "setoption name ProofFiles value {}",
        damaged.display()
    ));
    assert!(
        said.starts_with("info string error") && said.contains("refused"),
        "{said}"
    );
    let (note, _, _) = go(&mut e, &format!("position fen {root}"));
    assert!(
        note.is_none_or(|n| !n.contains("certified")),
        "a refused file gives no move"
    );
    let said = e.ask(&format!(
        "setoption name ProofFiles value {}:{}",
        damaged.display(),
        good.display()
    ));
    assert!(
        said.starts_with("info string proof files checked") && said.contains("refused"),
        "{said}"
    );
    let (note, score, best) = go(&mut e, &format!("position fen {root}"));
    assert!(
        note.unwrap()
            .contains("after-lost.proof: proof, black wins")
    );
    assert!(score.starts_with("mate "), "{score}");
    assert_eq!(best, first);
    let _ = std::fs::remove_file(damaged);
}
