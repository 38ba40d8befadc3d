//! Unit tests of the chess rules: FEN, hashing, draws by material, SEE, move generation.

use super::*;
use crate::perft::perft;

fn pos(fen: &str) -> Chess {
    Chess::from_fen("chess", fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(p: &Chess, text: &str) -> Move {
    p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn fen_round_trip() {
    for fen in BENCH_FENS.iter().chain(&[
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
        "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 12 40",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ]) {
        assert_eq!(pos(fen).fen(), *fen);
    }
    // An en-passant square no pawn can use is dropped, as are castling rights without rooks.
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1").fen(),
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    );
    // Missing clocks default to 0 1.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 b -").fen(),
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
}

#[test]
fn bad_fens_are_refused_with_a_reason() {
    for (fen, needle) in [
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "kings"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "kings"),
        ("4k3/8/8/8/8/8/8/4K2X w - - 0 1", "piece letter"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "rank 1 or 8"),
        ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", "8×8"),
        ("4k3/8/8/8/8/8/8/4K3 w KX - 0 1", "castling letter"),
        ("4k3/8/8/8/8/8/8/4K3 w - e4 0 1", "en-passant"),
        // The phantom en passant of issue 16: e6 holds White's own knight (`d5e6` took it).
        ("8/3q4/4N3/3Pp3/7b/K7/8/7k w - e6 0 1", "double step"),
        // No pawn beyond the square, or the pawn's origin occupied.
        ("4k3/8/8/3P4/8/8/8/4K3 w - e6 0 1", "double step"),
        ("4k3/4r3/8/3Pp3/8/8/8/4K3 w - e6 0 1", "double step"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 4294967295 1", "too large"),
        ("QQQQQQQQ/QQQQQQQQ/1k6/8/8/8/8/K7 w - - 0 1", "at most 16"),
        ("4k3/8/8/8/8/8/PPPPPPPP/1P2K3 w - - 0 1", "rank 1"),
        ("k7/8/8/8/8/8/1PPPPPPP/PP2K3 w - - 0 1", "rank 1"),
        ("k7/P7/P7/8/8/8/1PPPPPPP/4K3 w - - 0 1", "at most 16 and 8"),
        ("3rk3/8/8/8/1b6/8/8/r3K2q w - - 0 1", "give check"),
    ] {
        let err = Chess::from_fen("chess", fen).unwrap_err().to_string();
        assert!(err.contains(needle), "{fen}: {err}");
    }
    assert!(Chess::from_fen("atomic", Chess::START_FEN).is_err());
}

#[test]
fn incremental_hash_equals_recomputed_along_random_games() {
    let mut rng = crate::rng::Rng::new(0x1234_5678_9abc_def1);
    let mut moves = MoveList::new();
    let mut seen_ep = 0;
    let mut seen_castle = 0;
    let mut seen_promo = 0;
    for game in 0..200 {
        let mut p = if game % 2 == 0 {
            Chess::startpos("chess").unwrap()
        } else {
            pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        };
        for _ in 0..200 {
            assert_eq!(p.hash(), p.compute_hash(), "{}", p.fen());
            // The FEN round trip gives back the same position, hash included.
            assert_eq!(pos(&p.fen()), p);
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            match m.kind() {
                MoveKind::EnPassant => seen_ep += 1,
                MoveKind::Castling => seen_castle += 1,
                k if k.is_promotion() => seen_promo += 1,
                _ => {}
            }
            p = if rng.next_u64().is_multiple_of(16) && !p.in_check() {
                p.play_null()
            } else {
                p.play(m)
            };
        }
    }
    assert!(seen_ep > 0 && seen_castle > 0 && seen_promo > 0);
}

#[test]
fn transpositions_share_a_hash() {
    let a = Chess::startpos("chess").unwrap();
    let play = |p: &Chess, ms: &[&str]| {
        ms.iter().fold(p.clone(), |p, m| {
            let m = mv(&p, m);
            p.play(m)
        })
    };
    let x = play(&a, &["g1f3", "g8f6", "b1c3", "b8c6"]);
    let y = play(&a, &["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(x.hash(), y.hash());
    // A double step that no pawn can take en passant leaves no trace in the hash.
    let x = play(&a, &["e2e4"]);
    let y = play(&a, &["g1f3", "g8f6", "f3g1", "f6g8", "e2e4"]);
    assert_eq!(x.hash(), y.hash());
    assert_ne!(x.hash(), play(&a, &["e2e3"]).hash());
}

/// Only a side with a piece besides king and pawns may pass in the null-move search: the
/// mate in 3 of `8/8/8/8/p1Q5/8/8/k6K w` hides behind Black's null move otherwise.
#[test]
fn null_moves_only_for_a_side_with_pieces() {
    for (fen, allowed) in [
        ("8/8/8/8/p1Q5/8/8/k6K w - - 0 1", true),
        ("8/8/8/8/p1Q5/8/8/k6K b - - 0 1", false),
        ("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", false),
        ("4k3/4p3/8/8/8/8/4P3/4KN2 w - - 0 1", true),
        ("4k3/4p3/8/8/8/8/4P3/4KN2 b - - 0 1", false),
        (Chess::START_FEN, true),
    ] {
        assert_eq!(pos(fen).null_move_allowed(), allowed, "{fen}");
    }
}

#[test]
fn insufficient_material() {
    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
        ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false),
    ] {
        assert_eq!(pos(fen).insufficient_material(), dead, "{fen}");
    }
}

#[test]
fn mate_and_stalemate() {
    let mated = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    let mut moves = MoveList::new();
    mated.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(mated.terminal(), Terminal::Loss);
    assert!(mated.forcing());
    let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    stalemate.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(stalemate.terminal(), Terminal::Draw);
    assert!(!stalemate.forcing());
}

#[test]
fn en_passant_horizontal_pin_and_evasion() {
    // The e5 pawn may not take d6 en passant: the rook on a5 would see the king on h5.
    let p = pos("8/8/8/r2pP2K/8/8/8/7k w - d6 0 1");
    assert!(p.parse_move("e5d6").is_err());
    assert_eq!(perft(&p, 1), 6);
    // En passant removes the checking pawn.
    let p = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(p.parse_move("e4d3").is_ok());
    // A capture along the pinning diagonal is fine, one that leaves it is not.
    let p = pos("8/2b5/8/3pP3/8/8/7K/k7 w - d6 0 1");
    assert!(p.parse_move("e5d6").is_ok());
    let p = pos("7K/8/8/3pP3/8/8/8/b6k w - d6 0 1");
    assert!(p.parse_move("e5d6").is_err());
}

#[test]
fn castling_rules() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(mv(&p, "e1g1").kind(), MoveKind::Castling);
    let after = p.play(mv(&p, "e1c1"));
    assert_eq!(after.fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    // Through an attacked square: no castling.
    let p = pos("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
    assert!(p.parse_move("e1g1").is_err());
    assert!(p.parse_move("e1c1").is_ok());
    // Capturing a rook on its corner takes away that right.
    let p = pos("r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1");
    assert_eq!(
        p.play(mv(&p, "g2a8")).fen(),
        "B3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1"
    );
}

#[test]
fn promotions_and_clocks() {
    let p = pos("1n2k3/P7/8/8/8/8/8/4K3 w - - 7 30");
    for (text, kind) in [
        ("a7a8q", MoveKind::PromoteQueen),
        ("a7b8n", MoveKind::PromoteKnight),
        ("a7a8r", MoveKind::PromoteRook),
        ("a7b8b", MoveKind::PromoteBishop),
    ] {
        assert_eq!(mv(&p, text).kind(), kind);
    }
    assert!(p.parse_move("a7a8").is_err());
    assert_eq!(
        p.play(mv(&p, "a7b8q")).fen(),
        "1Q2k3/8/8/8/8/8/8/4K3 b - - 0 30"
    );
    let q = p.play(mv(&p, "e1d2"));
    assert_eq!(
        (q.reversible_plies(), q.fen()),
        (8, "1n2k3/P7/8/8/8/8/3K4/8 b - - 8 30".into())
    );
    assert!(p.is_noisy(mv(&p, "a7a8q")) && !p.is_noisy(mv(&p, "a7a8n")));
    assert!(p.is_noisy(mv(&p, "a7b8n")));
}

#[test]
fn static_exchange_evaluation() {
    // (FEN, move, exact SEE value): the value v makes see_ge true at v and false at v + 1.
    for (fen, text, value) in [
        // Pawn takes an undefended knight.
        ("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 320),
        // Rook takes a pawn defended by a pawn: loses the exchange for a pawn.
        ("4k3/2p5/3p4/8/8/8/8/3RK3 w - - 0 1", "d1d6", 100 - 500),
        // Knight takes a pawn defended by a pawn, the knight is lost.
        ("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", 100 - 320),
        // Queen takes a rook defended by a rook; the rook behind our queen is an x-ray.
        ("3rk3/3r4/8/8/8/8/3Q4/3RK3 w - - 0 1", "d2d7", 500 - 900),
        // Bishop takes a knight defended once, attacked twice: win the knight, lose the bishop,
        // win the pawn back.
        (
            "4k3/8/4p3/3n4/8/1BN5/8/4K3 w - - 0 1",
            "b3d5",
            320 - 330 + 100,
        ),
        // Quiet move to a square attacked by a pawn.
        ("4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "d1d5", -900),
        // En passant, nothing recaptures.
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100),
        // Promotion on an empty square.
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 800),
        // The king may not recapture a piece defended by an x-ray.
        ("4k3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 500),
        // A plain exchange of rooks.
        ("3rk3/3r4/8/8/8/8/8/3RK3 w - - 0 1", "d1d7", 0),
    ] {
        let p = pos(fen);
        let m = mv(&p, text);
        assert!(p.see_ge(m, value), "{fen} {text} >= {value}");
        assert!(!p.see_ge(m, value + 1), "{fen} {text} < {}", value + 1);
    }
}

#[test]
fn noisy_order_is_mvv_lva() {
    let p = pos("4k3/8/2q1r3/3P4/8/8/8/K7 w - - 0 1");
    assert!(p.noisy_order(mv(&p, "d5c6")) > p.noisy_order(mv(&p, "d5e6")));
    let p = pos("4k3/8/4q3/3P4/3N4/8/8/K7 w - - 0 1");
    assert!(p.noisy_order(mv(&p, "d5e6")) > p.noisy_order(mv(&p, "d4e6")));
}

#[test]
fn small_perfts() {
    let p = Chess::startpos("chess").unwrap();
    assert_eq!(perft(&p, 3), 8902);
    let kiwipete = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(perft(&kiwipete, 2), 2039);
}

#[test]
fn names_and_pretty_board() {
    assert_eq!(Chess::variants(), &["chess", "chess960"]);
    assert_eq!(Chess::xboard_name("chess"), "normal");
    let text = Chess::startpos("chess").unwrap().pretty();
    assert!(text.contains("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"), "{text}");
    assert!(text.contains("1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖"), "{text}");
    assert!(text.contains("  a b c d e f g h"), "{text}");
    assert_eq!(Chess::bench_positions().len(), BENCH_FENS.len());
}

#[test]
fn chess960_fen_castling_fields() {
    let c960 =
        |fen: &str| Chess::from_fen("chess960", fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    // Shredder-FEN letters in, X-FEN out: `KQkq` where the castling rook is the outermost
    // one on its wing, the file letter where another rook stands further out.
    assert_eq!(
        c960("rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w KQkq - 0 1").fen(),
        "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w KQkq - 0 1"
    );
    assert_eq!(
        c960("1r2k1rr/8/8/8/8/8/8/RR2K1R1 w GBgb - 0 1")
            .fen()
            .split(' ')
            .nth(2),
        Some("KBgq")
    );
    assert_eq!(
        c960("4k3/8/8/8/8/8/8/R3K1RR w GA - 0 1")
            .fen()
            .split(' ')
            .nth(2),
        Some("GQ")
    );
    // X-FEN in: K is the outermost rook on the king's side.
    let p = c960("4k3/8/8/8/8/8/8/R3K1RR w KQ - 0 1");
    assert_eq!(p.castle_rook(0), 7);
    assert_eq!(p.castle_rook(1), 0);
    // The standard start under Chess960 rules: same moves, castling written king-takes-rook.
    let start = Chess::startpos("chess960").unwrap();
    assert_eq!(start.variant(), "chess960");
    assert_eq!(perft(&start, 3), 8902);
    let p = c960("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let oo = mv(&p, "e1h1");
    assert_eq!(oo.kind(), MoveKind::Castling);
    assert_eq!(p.move_text(oo), "e1h1");
    assert_eq!(mv(&p, "e1g1"), oo, "the two-square king step is read too");
    assert_eq!(mv(&p, "O-O"), oo);
    assert_eq!(p.play(oo).fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // Standard chess reads king-takes-rook too, and writes the two-square step.
    let s = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(s.move_text(mv(&s, "e1h1")), "e1g1");
    // A king already on g1 castles short by moving only its rook.
    let p = c960("6k1/8/8/8/8/8/8/6KR w K - 0 1");
    let oo = mv(&p, "g1h1");
    assert_eq!(p.play(oo).fen(), "6k1/8/8/8/8/8/8/5RK1 b - - 1 1");
    // Errors: a file letter without a rook there is dropped; two rooks for one wing refused.
    assert_eq!(
        c960("4k3/8/8/8/8/8/8/4K2R w B - 0 1")
            .fen()
            .split(' ')
            .nth(2),
        Some("-")
    );
    assert!(Chess::from_fen("chess960", "4k3/8/8/8/8/8/8/4KRR1 w FG - 0 1").is_err());
    assert!(Chess::from_fen("chess", "4k3/8/8/8/8/8/8/4KRR1 w F - 0 1").is_err());
}

/// Every Chess960 start position numbered as python-chess numbers them
/// (`chess.Board.from_chess960_pos(n)`): spot checks, 518 the standard position, all 960
/// distinct, 960 itself refused.
#[test]
fn chess960_numbered_starts() {
    let fen = |n| Chess::numbered_start("chess960", n).unwrap().fen();
    assert_eq!(
        fen(0),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert_eq!(
        fen(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(
        fen(959),
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"
    );
    let all: std::collections::HashSet<String> = (0..960).map(fen).collect();
    assert_eq!(all.len(), 960);
    assert_eq!(Chess::start_positions("chess960"), 960);
    assert_eq!(Chess::start_positions("chess"), 1);
    assert!(Chess::numbered_start("chess960", 960).is_err());
    assert!(Chess::numbered_start("chess", 3).is_err());
    let start = Chess::numbered_start("chess960", 0).unwrap();
    assert_eq!(start.variant(), "chess960");
    assert_eq!(start.perft(3), 9_006);
}
