//! The antichess rules, position by position: forced capture (en passant included), the king
//! as an ordinary piece, promotion to a king, the winner without moves, the draws, FEN and
//! SAN; and the incremental hash and the move count along random games.

use super::*;
use crate::board::{MoveKind, MoveList};
use crate::game::{Dialect, Game, Outcome, Terminal, Tuning};

fn pos(fen: &str) -> Antichess {
    Antichess::from_fen("antichess", fen).unwrap()
}

fn moves_of(p: &Antichess) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| p.move_text(m)).collect();
    v.sort();
    v
}

#[test]
fn the_start_has_twenty_moves_and_lichess_counts() {
    let p = Antichess::startpos("antichess").unwrap();
    assert_eq!(p.fen(), START_FEN);
    assert_eq!(p.count_moves(), 20);
    assert!(!p.forcing());
    // python-chess's AntichessBoard gives these counts (tests/data/antichess-perft.txt).
    assert_eq!(p.perft(3), 8067);
    assert_eq!(crate::perft::generic(&p, 3), 8067);
}

#[test]
fn capture_is_compulsory_with_free_choice() {
    // After 1. e3 b5 White must take on b5 with the bishop.
    let p = pos("rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2");
    assert_eq!(moves_of(&p), ["f1b5"]);
    assert!(p.forcing());
    let err = p.parse_move("a2a3").unwrap_err().to_string();
    assert!(err.contains("compulsory"), "{err}");
    // Two captures: either may be chosen.
    let p = pos("8/8/8/3p4/2P1P3/8/8/8 w - - 0 1");
    assert_eq!(moves_of(&p), ["c4d5", "e4d5"]);
}

#[test]
fn en_passant_is_a_capture_and_so_compulsory() {
    // Black's d7-d5 passes d6 beside White's e5 pawn: exd6 is the only move.
    let p = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    let q = p.play(p.parse_move("d7d5").unwrap());
    assert_eq!(q.fen(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(moves_of(&q), ["e5d6"]);
    let mv = q.parse_move("e5d6").unwrap();
    assert_eq!(mv.kind(), MoveKind::EnPassant);
    assert!(q.is_noisy(mv));
    assert_eq!(q.san(mv), "exd6");
    let r = q.play(mv);
    assert_eq!(r.fen(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
    assert_eq!(r.hash(), r.compute_hash());
    // A double step that no pawn can take leaves no en-passant square, in the FEN or the hash.
    let s = p.play(p.parse_move("e8e7").unwrap());
    let t = s.play(s.parse_move("e1e2").unwrap());
    let u = t.play(t.parse_move("d7d5").unwrap());
    assert_eq!(u.fen(), "8/4k3/8/3pP3/8/8/4K3/8 w - d6 0 3");
    let far = pos("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1");
    let far = far.play(far.parse_move("d7d5").unwrap());
    assert_eq!(far.fen(), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 2");
    assert_eq!(far.hash(), pos("4k3/8/8/3p4/8/8/8/4K3 w - - 0 2").hash());
}

#[test]
fn the_king_is_an_ordinary_piece_and_a_pawn_may_become_one() {
    // The king may step next to the queen and must take it when it can.
    assert_eq!(moves_of(&pos("8/8/8/8/8/8/3Q4/3k4 b - - 0 1")), ["d1d2"]);
    let p = pos("8/8/8/8/8/8/8/K6q w - - 0 1");
    assert_eq!(moves_of(&p), ["a1a2", "a1b1", "a1b2"]);
    // Promotion: five pieces, the king among them, written =K.
    let p = pos("8/P7/8/8/8/8/8/7k w - - 0 1");
    assert_eq!(moves_of(&p), ["a7a8b", "a7a8k", "a7a8n", "a7a8q", "a7a8r"]);
    let k = p.parse_move("a7a8k").unwrap();
    assert_eq!(k.kind(), MoveKind::PromoteKing);
    assert_eq!(p.san(k), "a8=K");
    let q = p.play(k);
    assert_eq!(q.fen(), "K7/8/8/8/8/8/8/7k b - - 0 1");
    assert_eq!(q.hash(), q.compute_hash());
    assert!(p.parse_move("a7a8").is_err());
}

#[test]
fn a_side_without_moves_wins() {
    // White has no pieces left: White to move has won.
    let p = pos("8/8/8/8/8/8/8/7k w - - 0 1");
    assert_eq!(p.count_moves(), 0);
    assert_eq!(p.terminal(), Terminal::Win);
    let (outcome, _) = p.verdict(&[]).unwrap();
    assert_eq!(outcome, Outcome::Win(crate::board::Color::White));
    // White's only pawn is blocked: White to move wins.
    let p = pos("8/8/8/8/p7/P7/8/8 w - - 0 1");
    assert!(moves_of(&p).is_empty());
    assert_eq!(p.verdict(&[]).unwrap().0, Outcome::Win(crate::board::Color::White));
    assert_eq!(p.perft(3), 0);
}

#[test]
fn opposite_colour_bishops_alone_draw() {
    // c8 is light, c1 dark.
    assert!(pos("2b5/8/8/8/8/8/8/2B5 w - - 0 1").insufficient_material());
    assert_eq!(
        pos("2b5/8/8/8/8/8/8/2B5 w - - 0 1").verdict(&[]).unwrap().0,
        Outcome::Draw
    );
    // Same colour, a white bishop on each colour, or anything else besides: play on.
    assert!(!pos("3b4/8/8/8/8/8/8/2B5 w - - 0 1").insufficient_material());
    assert!(!pos("2b5/8/8/8/8/8/8/2BB4 w - - 0 1").insufficient_material());
    assert!(!pos("2b5/8/8/8/8/8/7P/2B5 w - - 0 1").insufficient_material());
    assert!(!pos("2n5/8/8/8/8/8/8/2N5 w - - 0 1").insufficient_material());
}

#[test]
fn san_names_the_file_of_pawn_captures_and_tells_twins_apart() {
    let p = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    assert_eq!(p.san(p.parse_move("a1d1").unwrap()), "Rad1");
    assert_eq!(p.san(p.parse_move("e2e3").unwrap()), "Ke3");
    // No check mark: a queen move "attacking" the king is just a move.
    let p = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert_eq!(p.san(p.parse_move("d1d7").unwrap()), "Qd7");
    assert_eq!(crate::san::read(&p, "Qd7").unwrap(), p.parse_move("d1d7").unwrap());
}

#[test]
fn fen_round_trip_and_bad_fens() {
    for fen in [
        START_FEN,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2",
        "8/8/8/8/8/8/8/8 b - - 12 40",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
    // An en-passant square no pawn can take is dropped, as python-chess and lichess write it.
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - e3 0 1").fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1"
    );
    for bad in [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNA w - - 0 1",
        "P7/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d5 0 2",
        "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 2",
    ] {
        assert!(Antichess::from_fen("antichess", bad).is_err(), "{bad}");
    }
    assert!(Antichess::from_fen("giveaway", START_FEN).is_err());
    assert!(Antichess::startpos("chess").is_err());
}

#[test]
fn hash_counts_and_perft_agree_along_random_games() {
    let mut rng = crate::rng::Rng::new(0x2545_f491_4f6c_dd1d);
    let (mut promotions, mut en_passant) = (0, 0);
    for _ in 0..200 {
        let mut p = Antichess::startpos("antichess").unwrap();
        for _ in 0..200 {
            assert_eq!(p.hash(), p.compute_hash(), "{}", p.fen());
            assert_eq!(pos(&p.fen()), p);
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            assert_eq!(list.len() as u32, p.count_moves(), "{}", p.fen());
            assert_eq!(p.forcing(), list.iter().any(|&m| p.is_capture(m)), "{}", p.fen());
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            promotions += usize::from(mv.kind().is_promotion());
            en_passant += usize::from(mv.kind() == MoveKind::EnPassant);
            p = p.play(mv);
        }
        assert_eq!(p.perft(2), crate::perft::generic(&p, 2), "{}", p.fen());
    }
    assert!(promotions > 0 && en_passant > 0, "{promotions} {en_passant}");
}

#[test]
fn bench_positions_are_in_play_and_xboard_learns_the_board() {
    for p in Antichess::bench_positions() {
        assert!(p.count_moves() > 0, "{}", p.fen());
    }
    assert_eq!(
        Antichess::startpos("antichess").unwrap().xboard_setup(),
        [format!("setup (PNBRQKpnbrqk) 8x8+0_giveaway {START_FEN}")]
    );
}
