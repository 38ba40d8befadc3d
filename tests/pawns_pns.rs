//! Proof-number search on pawn chess, checked against the exhaustive win/draw/loss solver of
//! the analyser (`analysis::solve`, alpha-beta over the three values with exact keys), a
//! different algorithm over a different board representation.
//!
//! On every position after one move of 4×4 and 5×5 (plain and with en passant), and on the
//! start positions: df-pn's win or loss must be the analyser's value, each with a proof that
//! the checker accepts, and where the analyser finds a draw both df-pn attempts must end
//! disproven (pawn chess has no repetitions, so a disproof is sound). 6×6 with en passant —
//! a White win where only c1c3 and d1d3 win — must be proven a win with one of those moves,
//! with a table small enough (256 MiB) that the extraction must prove again what it replaced.
//! Weak disproof numbers (`try_solve_with(…, weak)`) must give the same values.

use kiebitz::board::MoveList;
use kiebitz::game::Game;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::pawns::analysis::{board, solve, table};
use kiebitz::solve::pns::{self, Budget, Verdict};
use kiebitz::solve::proof;

/// The analyser's value of `pos` for its side to move.
fn exhaustive(pos: &Pawns) -> i8 {
    let budget = solve::Budget::default();
    solve::Solver::<table::Wide>::new(board::Shape::of(pos), 1 << 16, budget)
        .value(&board::Pos::of(pos))
        .expect("small boards solve without limits")
}

/// df-pn's value of `pos` for its side to move: 1, −1, or 0 when both attempts are
/// disproven; the proof of a win or loss is checked again here. `weak`: weak disproof numbers.
fn dfpn(pos: &Pawns, nodes: u64, weak: bool) -> i8 {
    let s = pns::try_solve_with(
        pos,
        &[],
        Budget {
            time: None,
            nodes: Some(nodes),
        },
        16,
        None,
        None,
        pns::Options {
            weak,
            ..pns::Options::default()
        },
    )
    .expect("a table of 16 MiB");
    match s.verdict {
        Verdict::Win | Verdict::Loss => {
            let p = s
                .proof
                .as_ref()
                .expect("a win or loss comes with its proof");
            proof::check::<Pawns>(p).expect("the proof holds");
            if s.verdict == Verdict::Win { 1 } else { -1 }
        }
        Verdict::Draw => {
            for (hold, _) in &s.holds {
                proof::check::<Pawns>(hold).expect("the hold holds");
            }
            0
        }
        Verdict::Unknown => {
            assert_eq!(s.attempts.len(), 2, "{}", pos.fen());
            for a in &s.attempts {
                assert_eq!(
                    a.delta,
                    0,
                    "{}: not disproven within {nodes} nodes: {a:?}",
                    pos.fen()
                );
            }
            0
        }
    }
}

fn compare(variant: &str, weak: bool) -> usize {
    let start = Pawns::startpos(variant).unwrap();
    assert_eq!(
        dfpn(&start, 20_000_000, weak),
        exhaustive(&start),
        "{variant} start"
    );
    let mut moves = MoveList::new();
    start.legal_moves(&mut moves);
    for &mv in &moves {
        let pos = start.play(mv);
        assert_eq!(
            dfpn(&pos, 20_000_000, weak),
            exhaustive(&pos),
            "{variant} after {} (weak: {weak})",
            start.move_text(mv)
        );
    }
    moves.len()
}

#[test]
fn dfpn_agrees_with_the_analyser_on_4x4_and_5x5() {
    let mut checked = 0;
    for variant in ["pawns4", "pawns4ep", "pawns5", "pawns5ep"] {
        checked += compare(variant, false);
    }
    assert_eq!(checked, 4 + 8 + 5 + 10);
}

/// Weak disproof numbers change the order of the search, never a value.
#[test]
fn weak_dfpn_agrees_with_the_analyser_on_4x4_and_5x5() {
    let mut checked = 0;
    for variant in ["pawns4ep", "pawns5", "pawns5ep"] {
        checked += compare(variant, true);
    }
    assert_eq!(checked, 8 + 5 + 10);
}

#[test]
fn dfpn_proves_the_6x6_en_passant_win() {
    let start = Pawns::startpos("pawns6ep").unwrap();
    let s = pns::solve(
        &start,
        &[],
        Budget {
            time: None,
            nodes: Some(80_000_000),
        },
        256,
    );
    assert_eq!(s.verdict, Verdict::Win, "{:?}", s.attempts);
    let best = start.move_text(s.best.expect("the winning move"));
    assert!(best == "c1c3" || best == "d1d3", "{best}");
    proof::check::<Pawns>(s.proof.as_ref().unwrap()).expect("the proof holds");
}
