//! The Räuberschach position: the family's position on the 6×6 board
//! ([`crate::games::losing::Position`]), and the matrix notation of the original exercise.
//! The [`Game`](crate::game::Game) implementation (FEN, play, verdict) is in `game.rs`.

use crate::games::losing::{Position, Six};

pub use crate::games::losing::movegen::{BISHOP_K, KING_K, KNIGHT_K, PAWN_K, QUEEN_K, ROOK_K};
pub use crate::games::losing::position::{EMPTY, LETTERS};

/// A Räuberschach position. Squares are those of the 8×8 grid (`rank * 8 + file`); only
/// files a–f and ranks 1–6 are used.
pub type Raeuber = Position<Six>;

/// The matrix notation of the original exercise (docs/rules.md §1): rows 1–6 from Black's base line,
/// columns 1–6 from the left, a move written `z1s1z2s2` (`5242` is b2b3), optionally with a
/// promotion letter. Returns the move in coordinate notation, or `None` if `text` is not
/// four digits from 1 to 6.
pub fn matrix_to_coordinates(text: &str) -> Option<String> {
    let b = text.as_bytes();
    if !(b.len() == 4 || b.len() == 5) || !b[..4].iter().all(|c| (b'1'..=b'6').contains(c)) {
        return None;
    }
    let square = |row: u8, col: u8| {
        let file = (b'a' + (col - b'1')) as char;
        let rank = (b'6' - (row - b'1')) as char;
        format!("{file}{rank}")
    };
    let mut out = square(b[0], b[1]) + &square(b[2], b[3]);
    if let Some(&p) = b.get(4) {
        out.push(p as char);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::START_FEN;
    use super::*;
    use crate::board::{MoveKind, MoveList};
    use crate::game::{Dialect, Game, Terminal, Tuning};
    use crate::perft::generic as perft;

    fn pos(fen: &str) -> Raeuber {
        Raeuber::from_fen("raeuberschach", fen).unwrap()
    }

    fn moves_of(p: &Raeuber) -> Vec<String> {
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let mut v: Vec<String> = list.iter().map(|&m| p.move_text(m)).collect();
        v.sort();
        v
    }

    #[test]
    fn start_position_moves() {
        let p = Raeuber::startpos("raeuberschach").unwrap();
        assert_eq!(p.fen(), START_FEN);
        assert_eq!(
            moves_of(&p),
            [
                "a2a3", "b2b3", "c2c3", "d2d3", "e1d3", "e1f3", "e2e3", "f2f3"
            ]
        );
        assert_eq!(p.count_moves(), 8);
        assert!(!p.forcing());
        assert_eq!(perft(&p, 3), 340);
    }

    #[test]
    fn a_null_move_passes_the_turn_and_only_with_pieces_on_both_sides() {
        let p = pos("rqkbnr/pp1ppp/6/2p3/PPPPP1/RQKBNR b - - 0 2");
        let n = p.play_null();
        assert_eq!(n.fen(), "rqkbnr/pp1ppp/6/2p3/PPPPP1/RQKBNR w - - 1 3");
        assert_eq!(n.hash(), n.compute_hash());
        assert_eq!(n.play_null().hash(), p.hash());
        assert!(p.null_move_allowed());
        // Pawns alone on one side (the king counts as a piece): zugzwang, no null move.
        assert!(!pos("6/pp4/6/6/3K2/6 w - - 0 1").null_move_allowed());
        assert!(!pos("6/pk4/6/6/3P2/6 w - - 0 1").null_move_allowed());
        assert!(pos("6/pk4/6/6/3P2/4N1 b - - 0 1").null_move_allowed());
    }

    #[test]
    fn capture_is_forced_with_free_choice() {
        // White's rook on a1 can take on a6, its pawn on c2 can take d3; the king's quiet
        // moves are not allowed.
        let p = pos("r5/6/6/3p2/2P3/R1K3 w - - 0 1");
        assert_eq!(moves_of(&p), ["a1a6", "c2d3"]);
        assert!(p.forcing());
        assert!(p.is_noisy(p.parse_move("a1a6").unwrap()));
        assert_eq!(p.count_moves(), 2);
        let err = p.parse_move("c1d2").unwrap_err().to_string();
        assert!(err.contains("compulsory"), "{err}");
        // Black to move in the same position has its own capture: the pawn takes c2.
        let b = pos("r5/6/6/3p2/2P3/R1K3 b - - 0 1");
        assert_eq!(moves_of(&b), ["a6a1", "d3c2"]);
    }

    #[test]
    fn king_is_an_ordinary_piece() {
        // The black king may step onto b5, which White's queen attacks.
        let p = pos("k5/6/2Q3/6/6/6 b - - 0 1");
        assert_eq!(moves_of(&p), ["a6a5", "a6b5", "a6b6"]);
        // A king next to the queen must take it; White is then left without pieces: no
        // legal move, and so White has won.
        let p = pos("2k3/2Q3/6/6/6/6 b - - 0 1");
        assert_eq!(moves_of(&p), ["c6c5"]);
        let q = p.play(p.parse_move("c6c5").unwrap());
        assert!(moves_of(&q).is_empty());
        assert_eq!(q.terminal(), Terminal::Win);
        assert_eq!(q.fen(), "6/2k3/6/6/6/6 w - - 0 2");
        // The king can be captured, and play goes on until Black is out of moves.
        let r = pos("2k3/2Q3/6/6/6/6 w - - 0 1");
        assert_eq!(moves_of(&r), ["c5c6"]);
        let s = r.play(r.parse_move("c5c6").unwrap());
        assert!(moves_of(&s).is_empty());
        assert_eq!(s.terminal(), Terminal::Win);
        assert_eq!(s.fen(), "2Q3/6/6/6/6/6 b - - 0 1");
    }

    #[test]
    fn blocked_side_to_move_wins() {
        // White's only piece, a pawn on a3, is blocked by the black pawn on a4.
        let p = pos("6/6/p5/P5/6/6 w - - 0 1");
        assert!(moves_of(&p).is_empty());
        assert_eq!(p.count_moves(), 0);
        assert_eq!(p.terminal(), Terminal::Win);
        assert_eq!(perft(&p, 3), 0);
    }

    #[test]
    fn promotion_text_in_and_out() {
        let p = pos("6/P5/6/6/6/5k w - - 0 1");
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
        let p = pos("6/6/6/6/1p4/R5 b - - 0 1");
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
        let p = pos("6/P5/6/6/6/5k w - - 0 1");
        assert_eq!(
            p.parse_move("2111").unwrap(),
            p.parse_move("a5a6q").unwrap()
        );
    }

    #[test]
    fn fen_round_trip() {
        for fen in [
            START_FEN,
            "1k4/1R3p/p2P2/P5/5P/K5 b - - 0 16",
            "1qkbn1/2pp1r/1p3p/6/RP1PPP/1QKB1R b - - 2 7",
            "6/6/6/6/6/6 w - - 0 1",
            "4n1/2p1b1/6/5K/2k3/6 b - - 1 17",
        ] {
            let p = pos(fen);
            assert_eq!(p.fen(), fen);
            assert_eq!(pos(&p.fen()), p);
        }
        // Missing clocks default to 0 1.
        assert_eq!(pos("6/6/6/6/6/K5 b").fen(), "6/6/6/6/6/K5 b - - 0 1");
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
        assert!(Raeuber::from_fen("chess", START_FEN).is_err());
    }

    #[test]
    fn incremental_hash_and_counts_along_random_games() {
        let mut rng = crate::rng::Rng::new(0x1234_5678_9abc_def1);
        let mut seen_promotion = false;
        for _ in 0..300 {
            let mut p = Raeuber::startpos("raeuberschach").unwrap();
            for _ in 0..120 {
                assert_eq!(p.hash(), p.compute_hash(), "{}", p.fen());
                assert_eq!(pos(&p.fen()), p);
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                assert_eq!(list.len() as u32, p.count_moves(), "{}", p.fen());
                assert_eq!(
                    p.forcing(),
                    list.iter().any(|&m| p.board[m.to().index()] != EMPTY)
                );
                if list.is_empty() {
                    break;
                }
                let mv = list[rng.below(list.len())];
                seen_promotion |= mv.kind() == MoveKind::PromoteQueen;
                p = p.play(mv);
            }
        }
        assert!(seen_promotion);
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
            [format!("setup (PNBRQKpnbrqk) 6x6+0_giveaway {START_FEN}")]
        );
        assert_eq!(Raeuber::xboard_name("raeuberschach"), "raeuberschach");
        assert!(positions[0].pretty().starts_with("6 ♜ ♛ ♚ ♝ ♞ ♜"));
    }

    #[test]
    fn short_games_share_the_clock_over_fewer_moves() {
        let start = Raeuber::startpos("raeuberschach").unwrap();
        assert_eq!(start.expected_moves_left(), 16);
        assert_eq!(
            pos("6/1p4/p5/3q2/2P3/R5 w - - 0 1").expected_moves_left(),
            6
        );
    }

    #[test]
    fn opposite_bishops_never_meet() {
        // c5 is dark, c2 light, d2 dark.
        assert!(pos("6/2b3/6/6/2B3/6 w - - 0 1").insufficient_material());
        assert!(!pos("6/2b3/6/6/3B2/6 w - - 0 1").insufficient_material());
        assert!(!pos("6/2b3/6/6/2B3/5P w - - 0 1").insufficient_material());
        assert_eq!(pos("6/2b3/6/6/2B3/6 w - - 0 1").evaluate(), 0);
    }
}
