//! The family's rules on both boards, position by position: forced capture (en passant
//! included on 8×8), the king as an ordinary piece, promotion (to a king on 8×8, a queen alone
//! on 6×6), the winner without moves, the draws, FEN, SAN and Räuberschach's matrix notation;
//! and the incremental hash and the move count along random games.

use crate::board::{MoveKind, MoveList};
use crate::game::{Dialect, Game, Outcome, Terminal, Tuning};
use crate::games::antichess::{Antichess, START_FEN};
use crate::games::raeuber::{Raeuber, START_FEN as RAEUBER_START, matrix_to_coordinates};

fn pos(fen: &str) -> Antichess {
    Antichess::from_fen("antichess", fen).unwrap()
}

fn six(fen: &str) -> Raeuber {
    Raeuber::from_fen("raeuberschach", fen).unwrap()
}

fn moves_of<G: Game>(p: &G) -> Vec<String> {
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
    assert_eq!(
        p.verdict(&[]).unwrap().0,
        Outcome::Win(crate::board::Color::White)
    );
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
    assert_eq!(
        crate::san::read(&p, "Qd7").unwrap(),
        p.parse_move("d1d7").unwrap()
    );
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

/// Along random games of `V`'s member: the incremental hash equals the one computed afresh,
/// the FEN reads back to the position, the move count equals the move list's length, a
/// position is forcing exactly when it has a capture, and the counted perft 2 equals the
/// played one. Returns the promotions and en-passant captures played.
fn consistent_along_random_games<V: crate::games::losing::Variant>(
    seed: u64,
    games: usize,
    plies: usize,
) -> (usize, usize)
where
    crate::games::losing::Position<V>: Game,
{
    let mut rng = crate::rng::Rng::new(seed);
    let (mut promotions, mut en_passant) = (0, 0);
    for _ in 0..games {
        let mut p = crate::games::losing::Position::<V>::startpos(V::PROFILE.variants[0]).unwrap();
        for _ in 0..plies {
            assert_eq!(p.hash(), p.compute_hash(), "{}", p.fen());
            assert_eq!(
                Game::from_fen(V::PROFILE.variants[0], &p.fen()).as_ref(),
                Ok(&p)
            );
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            assert_eq!(list.len() as u32, p.count_moves(), "{}", p.fen());
            assert_eq!(
                p.forcing(),
                list.iter().any(|&m| p.is_capture(m)),
                "{}",
                p.fen()
            );
            if list.is_empty() {
                break;
            }
            assert_eq!(p.forcing_with(&list), p.forcing(), "{}", p.fen());
            let mv = list[rng.below(list.len())];
            promotions += usize::from(mv.kind().is_promotion());
            en_passant += usize::from(mv.kind() == MoveKind::EnPassant);
            p = p.play(mv);
        }
        assert_eq!(p.perft(2), crate::perft::generic(&p, 2), "{}", p.fen());
    }
    (promotions, en_passant)
}

#[test]
fn hash_counts_and_perft_agree_along_random_games() {
    let (promotions, en_passant) = consistent_along_random_games::<crate::games::losing::Eight>(
        0x2545_f491_4f6c_dd1d,
        200,
        200,
    );
    assert!(
        promotions > 0 && en_passant > 0,
        "{promotions} {en_passant}"
    );
    let (promotions, en_passant) =
        consistent_along_random_games::<crate::games::losing::Six>(0x1234_5678_9abc_def1, 300, 120);
    assert!(
        promotions > 0 && en_passant == 0,
        "{promotions} {en_passant}"
    );
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

// Räuberschach (6×6).

#[test]
fn start_position_moves() {
    let p = Raeuber::startpos("raeuberschach").unwrap();
    assert_eq!(p.fen(), RAEUBER_START);
    assert_eq!(
        moves_of(&p),
        [
            "a2a3", "b2b3", "c2c3", "d2d3", "e1d3", "e1f3", "e2e3", "f2f3"
        ]
    );
    assert_eq!(p.count_moves(), 8);
    assert!(!p.forcing());
    assert_eq!(crate::perft::generic(&p, 3), 340);
}

#[test]
fn a_null_move_passes_the_turn_and_only_with_pieces_on_both_sides() {
    let p = six("rqkbnr/pp1ppp/6/2p3/PPPPP1/RQKBNR b - - 0 2");
    let n = p.play_null();
    assert_eq!(n.fen(), "rqkbnr/pp1ppp/6/2p3/PPPPP1/RQKBNR w - - 1 3");
    assert_eq!(n.hash(), n.compute_hash());
    assert_eq!(n.play_null().hash(), p.hash());
    assert!(p.null_move_allowed());
    // Pawns alone on one side (the king counts as a piece): zugzwang, no null move.
    assert!(!six("6/pp4/6/6/3K2/6 w - - 0 1").null_move_allowed());
    assert!(!six("6/pk4/6/6/3P2/6 w - - 0 1").null_move_allowed());
    assert!(six("6/pk4/6/6/3P2/4N1 b - - 0 1").null_move_allowed());
}

#[test]
fn capture_is_forced_with_free_choice() {
    // White's rook on a1 can take on a6, its pawn on c2 can take d3; the king's quiet
    // moves are not allowed.
    let p = six("r5/6/6/3p2/2P3/R1K3 w - - 0 1");
    assert_eq!(moves_of(&p), ["a1a6", "c2d3"]);
    assert!(p.forcing());
    assert!(p.is_noisy(p.parse_move("a1a6").unwrap()));
    assert_eq!(p.count_moves(), 2);
    let err = p.parse_move("c1d2").unwrap_err().to_string();
    assert!(err.contains("compulsory"), "{err}");
    // Black to move in the same position has its own capture: the pawn takes c2.
    let b = six("r5/6/6/3p2/2P3/R1K3 b - - 0 1");
    assert_eq!(moves_of(&b), ["a6a1", "d3c2"]);
}

#[test]
fn king_is_an_ordinary_piece() {
    // The black king may step onto b5, which White's queen attacks.
    let p = six("k5/6/2Q3/6/6/6 b - - 0 1");
    assert_eq!(moves_of(&p), ["a6a5", "a6b5", "a6b6"]);
    // A king next to the queen must take it; White is then left without pieces: no
    // legal move, and so White has won.
    let p = six("2k3/2Q3/6/6/6/6 b - - 0 1");
    assert_eq!(moves_of(&p), ["c6c5"]);
    let q = p.play(p.parse_move("c6c5").unwrap());
    assert!(moves_of(&q).is_empty());
    assert_eq!(q.terminal(), Terminal::Win);
    assert_eq!(q.fen(), "6/2k3/6/6/6/6 w - - 0 2");
    // The king can be captured, and play goes on until Black is out of moves.
    let r = six("2k3/2Q3/6/6/6/6 w - - 0 1");
    assert_eq!(moves_of(&r), ["c5c6"]);
    let s = r.play(r.parse_move("c5c6").unwrap());
    assert!(moves_of(&s).is_empty());
    assert_eq!(s.terminal(), Terminal::Win);
    assert_eq!(s.fen(), "2Q3/6/6/6/6/6 b - - 0 1");
}

#[test]
fn blocked_side_to_move_wins() {
    // White's only piece, a pawn on a3, is blocked by the black pawn on a4.
    let p = six("6/6/p5/P5/6/6 w - - 0 1");
    assert!(moves_of(&p).is_empty());
    assert_eq!(p.count_moves(), 0);
    assert_eq!(p.terminal(), Terminal::Win);
    assert_eq!(crate::perft::generic(&p, 3), 0);
}

#[test]
fn promotion_text_in_and_out() {
    let p = six("6/P5/6/6/6/5k w - - 0 1");
    assert_eq!(moves_of(&p), ["a5a6q"]);
    let a = p.parse_move("a5a6").unwrap();
    let b = p.parse_move("a5a6q").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.kind(), MoveKind::PromoteQueen);
    assert_eq!(p.move_text(a), "a5a6q");
    assert!(p.is_noisy(a));
    assert!(p.parse_move("a5a6n").is_err());
    let q = p.play(a);
    assert_eq!(q.fen(), "Q5/6/6/6/6/5k b - - 0 1");
    // A black pawn promotes on rank 1, capturing as well.
    let p = six("6/6/6/6/1p4/R5 b - - 0 1");
    assert_eq!(moves_of(&p), ["b2a1q"]);
    let q = p.play(p.parse_move("b2a1").unwrap());
    assert_eq!(q.fen(), "6/6/6/6/6/q5 w - - 0 2");
    assert_eq!(q.hash(), q.compute_hash());
    // A non-promotion refuses a promotion letter.
    let s = Raeuber::startpos("raeuberschach").unwrap();
    assert!(s.parse_move("a2a3q").is_err());
    assert!(s.parse_move("a2a3").is_ok());
    assert!(s.parse_move("a2a4").is_err());
    assert!(s.parse_move("g2g3").is_err());
    assert!(s.parse_move("").is_err());
    assert!(s.parse_move("é2e3").is_err());
    // Matrix notation: row 5 column 2 is b2, row 4 column 2 is b3.
    assert_eq!(matrix_to_coordinates("62").as_deref(), None);
    assert_eq!(matrix_to_coordinates("5242").as_deref(), Some("b2b3"));
    assert_eq!(s.parse_move("5242"), s.parse_move("b2b3"));
    assert!(s.parse_move("5272").is_err());
    let p = six("6/P5/6/6/6/5k w - - 0 1");
    assert_eq!(
        p.parse_move("2111").unwrap(),
        p.parse_move("a5a6q").unwrap()
    );
}

#[test]
fn fen_round_trip() {
    for fen in [
        RAEUBER_START,
        "1k4/1R3p/p2P2/P5/5P/K5 b - - 0 16",
        "1qkbn1/2pp1r/1p3p/6/RP1PPP/1QKB1R b - - 2 7",
        "6/6/6/6/6/6 w - - 0 1",
        "4n1/2p1b1/6/5K/2k3/6 b - - 1 17",
    ] {
        let p = six(fen);
        assert_eq!(p.fen(), fen);
        assert_eq!(six(&p.fen()), p);
    }
    // Missing clocks default to 0 1.
    assert_eq!(six("6/6/6/6/6/K5 b").fen(), "6/6/6/6/6/K5 b - - 0 1");
}

#[test]
fn bad_fens_are_refused() {
    for bad in [
        "",
        "rqkbnr/pppppp/6/6/PPPPPP w - - 0 1",
        "rqkbnrr/ppppppp/7/7/PPPPPPP/RQKBNRR w - - 0 1",
        "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w KQkq - 0 1",
        "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w - c3 0 1",
        "rqkbnr/pppppp/6/6/PPPPPP/RQKBNA w - - 0 1",
        "P5/6/6/6/6/6 w - - 0 1",
        "6/6/6/6/6/p5 w - - 0 1",
        "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR x - - 0 1",
    ] {
        assert!(Raeuber::from_fen("raeuberschach", bad).is_err(), "{bad}");
    }
    assert!(Raeuber::from_fen("chess", RAEUBER_START).is_err());
}

#[test]
fn bench_positions_are_all_there_and_in_play() {
    let positions = Raeuber::bench_positions();
    assert_eq!(positions.len(), 8);
    for p in &positions {
        assert!(p.count_moves() > 0, "{}", p.fen());
    }
    let xb = positions[0].xboard_setup();
    assert_eq!(
        xb,
        [format!(
            "setup (PNBRQKpnbrqk) 6x6+0_giveaway {RAEUBER_START}"
        )]
    );
    assert_eq!(Raeuber::xboard_name("raeuberschach"), "raeuberschach");
    assert!(positions[0].pretty().starts_with("6 ♜ ♛ ♚ ♝ ♞ ♜"));
}

#[test]
fn short_games_share_the_clock_over_fewer_moves() {
    let start = Raeuber::startpos("raeuberschach").unwrap();
    assert_eq!(start.expected_moves_left(), 16);
    assert_eq!(
        six("6/1p4/p5/3q2/2P3/R5 w - - 0 1").expected_moves_left(),
        6
    );
}

#[test]
fn opposite_bishops_never_meet() {
    // c5 is dark, c2 light, d2 dark.
    assert!(six("6/2b3/6/6/2B3/6 w - - 0 1").insufficient_material());
    assert!(!six("6/2b3/6/6/3B2/6 w - - 0 1").insufficient_material());
    assert!(!six("6/2b3/6/6/2B3/5P w - - 0 1").insufficient_material());
    assert_eq!(six("6/2b3/6/6/2B3/6 w - - 0 1").evaluate(), 0);
}

/// The phase count derived from each start FEN: the pieces the hand-made weights were fitted
/// with (24 on 6×6, 32 on 8×8).
#[test]
fn the_phase_counts_the_start_positions_pieces() {
    use crate::games::losing::{Eight, Six, Variant};
    assert_eq!(Six::FULL_BOARD, 24);
    assert_eq!(Eight::FULL_BOARD, 32);
}
