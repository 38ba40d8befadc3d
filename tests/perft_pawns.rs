//! Every line of the pawn-chess perft reference reproduced by the library.

mod common;

use kiebitz::game::Game;
use kiebitz::games::pawns::Pawns;
use kiebitz::perft::perft;

#[test]
fn pawn_perft_reference() {
    for case in common::perft_cases("pawns-perft.txt") {
        case.check::<Pawns>();
    }
}

/// The pawn game (`pawngame4` … `pawngame8`, with and without en passant): perft to depth 3
/// from the start and from 11 positions of seeded random play per board and rule set (24 per
/// board; none decided: Fairy-Stockfish's arrival is a promotion the FEN cannot show), against
/// Fairy-Stockfish's move generator (scripts/oracles/pawns_perft_pyffish.py with
/// tests/data/fairy-variants.ini). Skipped, with a note, where `pyffish` is not installed.
#[test]
fn pawn_game_perft_equals_fairy_stockfish() {
    use kiebitz::board::MoveList;
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut cases = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for n in 4..=8u64 {
        for suffix in ["", "ep"] {
            let variant = format!("pawngame{n}{suffix}");
            let mut fens = vec![Pawns::startpos(&variant).unwrap().fen()];
            while fens.len() < 12 {
                let mut pos = Pawns::startpos(&variant).unwrap();
                let plies = next() % (3 * n);
                let mut moves = MoveList::new();
                for _ in 0..plies {
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    // Double steps more often, for en-passant squares.
                    let doubles: Vec<_> = moves
                        .iter()
                        .filter(|m| m.from().0.abs_diff(m.to().0) == 16)
                        .collect();
                    let mv = if !doubles.is_empty() && next() % 3 == 0 {
                        *doubles[(next() % doubles.len() as u64) as usize]
                    } else {
                        moves[(next() % moves.len() as u64) as usize]
                    };
                    let next_pos = pos.play(mv);
                    if next_pos.decided().is_some() {
                        break;
                    }
                    pos = next_pos;
                }
                let fen = pos.fen();
                if !fens.contains(&fen) {
                    fens.push(fen);
                }
            }
            for fen in fens {
                cases.push((variant.clone(), fen));
            }
        }
    }
    let script = common::data_path("../../scripts/oracles/pawns_perft_pyffish.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut input = String::new();
    for (variant, fen) in &cases {
        input.push_str(&format!("{variant};{fen};3\n"));
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.code() == Some(3) {
        eprintln!(
            "pyffish is not installed: the pawn game's perft against Fairy-Stockfish is skipped"
        );
        return;
    }
    assert!(out.status.success(), "the oracle failed");
    let answers: Vec<u64> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(answers.len(), cases.len());
    let mut with_ep = 0;
    for ((variant, fen), expected) in cases.iter().zip(answers) {
        let pos = Pawns::from_fen(variant, fen).unwrap();
        with_ep += usize::from(fen.split(' ').nth(3) != Some("-"));
        assert_eq!(perft(&pos, 3), expected, "{variant} {fen} depth 3");
    }
    assert_eq!(cases.len(), 120);
    assert!(
        with_ep >= 5,
        "only {with_ep} positions with an en-passant square"
    );
}
