//! Räuberschach evaluation, in centipawns for the side to move.
//!
//! Everything is upside down compared with chess: a piece is a burden to its owner, who must
//! get rid of it, and the side that runs out of moves first wins. The terms:
//!
//! - **Burden**: each piece counts against its owner. The weights are kept per kind (a queen
//!   should be easier to give away than a lone rook or bishop), but self-play at depth 3 with
//!   `examples/raeuber_selfplay.rs` found equal weights stronger than every uneven set tried
//!   (queen 60 / rook and bishop 170 lost 37.5 % against them; pawn 70 or 130, queen 70,
//!   rook and bishop 130 each scored 38–43 %), so for now every piece weighs the same.
//! - **Offers**: squares where one of my pieces could step and be taken at once, and my pieces
//!   the opponent attacks already (after my move the opponent may be forced to take them).
//!   Counted with diminishing returns: a few ways to give material away matter, many do not.
//! - **Deep pieces**: my pieces (not pawns) in the last two ranks of the enemy camp, among the
//!   enemy pieces, will soon be forced to capture.
//! - **Tempo**: when few pieces are left, the side with fewer moves is closer to being the one
//!   who cannot move, which wins. (Self-play could not tell this term from noise.)
//! - **Must capture**: the side to move that can capture must, and so takes material it
//!   wanted to be rid of; it pays `must_capture`, less the larger the share of its targets the
//!   opponent defends (a capture that is taken back hands the burden straight back). This
//!   prices the obligation where the search stands pat in a forcing position.
//! - **Opposite bishops**: bishops on different colour complexes never meet: a dead draw.
//!
//! Without the offer, hanging, deep and tempo terms the evaluation scored 39 % against
//! itself with them (80 games at depth 3).
//!
//! The search evaluates forcing positions only in quiescence, where it stands pat in them
//! after its first forcing plies (`qsearch_forcing_plies`); the must-capture term is for
//! those.

use super::Raeuber;
use super::attacks::{BOARD, KING, KNIGHT, sliders};
use super::position::{BISHOP_K, EMPTY, KING_K, KNIGHT_K, PAWN_K, QUEEN_K, ROOK_K};
use crate::board::{Color, Move, MoveKind};
use crate::game::Game;

/// The evaluation's weights, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// What owning one piece of each kind costs (pawn, knight, bishop, rook, queen, king).
    pub burden: [i32; 6],
    /// Offers (ways to give a piece away) by count: 0, 1, 2, 3, 4 and more.
    pub offer: [i32; 5],
    /// Each of my pieces the opponent attacks now.
    pub hanging: i32,
    /// Each of my pieces (not pawns) deep in the enemy camp.
    pub deep: i32,
    /// Per move of difference in mobility, when at most `tempo_pieces` pieces are left.
    pub tempo: i32,
    pub tempo_pieces: u32,
    /// The side to move's tempo.
    pub to_move: i32,
    /// What the side to move pays when it must capture…
    pub must_capture: i32,
    /// …less this share of it when every target is defended (in proportion).
    pub must_capture_defended: i32,
}

/// The weights the engine plays with.
pub const WEIGHTS: Weights = Weights {
    burden: [100, 100, 100, 100, 100, 100],
    offer: [0, 24, 36, 44, 50],
    hanging: 18,
    deep: 6,
    tempo: 6,
    tempo_pieces: 6,
    to_move: 10,
    must_capture: 60,
    must_capture_defended: 40,
};

/// Rank masks of the enemy camp's last two ranks, by colour (White's targets: ranks 5–6).
const DEEP_RANKS: [u64; 2] = [0x3f3f << 32, 0x3f3f];

/// Quiet and capturing move counts of a side, and its offers: targets of its quiet moves
/// that the opponent attacks.
struct Activity {
    moves: u32,
    offers: u32,
}

fn activity(pos: &Raeuber, color: Color, their_attacks: u64) -> Activity {
    let own = pos.occupied_by(color);
    let occ = pos.occupied();
    let empty = BOARD & !occ;
    let theirs = pos.occupied_by(color.flip());
    let s = sliders();
    let mut moves = 0;
    let mut offers = 0;
    let pawns = pos.bits.kinds[PAWN_K] & own;
    let (push, caps) = match color {
        Color::White => (
            pawns << 8 & empty,
            (pawns << 7 | pawns << 9) & BOARD & theirs,
        ),
        Color::Black => (
            pawns >> 8 & empty,
            (pawns >> 7 | pawns >> 9) & BOARD & theirs,
        ),
    };
    moves += push.count_ones() + caps.count_ones();
    offers += (push & their_attacks).count_ones();
    let mut add = |targets: u64| {
        moves += (targets & (empty | theirs)).count_ones();
        offers += (targets & empty & their_attacks).count_ones();
    };
    for kind in [KNIGHT_K, BISHOP_K, ROOK_K, QUEEN_K, KING_K] {
        let mut bb = pos.bits.kinds[kind] & own;
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            add(match kind {
                KNIGHT_K => KNIGHT[sq],
                BISHOP_K => s.bishop(sq, occ),
                ROOK_K => s.rook(sq, occ),
                QUEEN_K => s.queen(sq, occ),
                _ => KING[sq],
            });
        }
    }
    Activity { moves, offers }
}

/// The burden of a side's pieces.
fn burden(pos: &Raeuber, color: Color, w: &Weights) -> i32 {
    (0..6)
        .map(|k| pos.pieces(color, k).count_ones() as i32 * w.burden[k])
        .sum()
}

/// Static evaluation for the side to move.
pub fn evaluate(pos: &Raeuber) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// Static evaluation for the side to move with weights `w` (for tuning).
pub fn evaluate_with(pos: &Raeuber, w: &Weights) -> i32 {
    if pos.insufficient_material() {
        return 0;
    }
    let us = pos.side_to_move();
    let them = us.flip();
    let mut score = burden(pos, them, w) - burden(pos, us, w) + w.to_move;

    let att_us = pos.attacks_by(us);
    let att_them = pos.attacks_by(them);
    let mine = activity(pos, us, att_them);
    let theirs = activity(pos, them, att_us);
    score += w.offer[mine.offers.min(4) as usize] - w.offer[theirs.offers.min(4) as usize];
    score += w.hanging
        * ((att_them & pos.occupied_by(us)).count_ones() as i32
            - (att_us & pos.occupied_by(them)).count_ones() as i32);

    let non_pawns = pos.occupied() & !pos.bits.kinds[PAWN_K];
    score -= w.deep
        * ((non_pawns & pos.occupied_by(us) & DEEP_RANKS[us.index()]).count_ones() as i32
            - (non_pawns & pos.occupied_by(them) & DEEP_RANKS[them.index()]).count_ones() as i32);

    let targets = att_us & pos.occupied_by(them);
    if targets != 0 {
        let defended = (targets & att_them).count_ones() as i32;
        score -= w.must_capture - w.must_capture_defended * defended / targets.count_ones() as i32;
    }

    if pos.occupied().count_ones() <= w.tempo_pieces {
        score += w.tempo * (theirs.moves as i32 - mine.moves as i32);
    }
    score
}

/// Ordering of captures and promotions: promotions first (a new queen is easy to give away),
/// then captures after which the capturer stands where the opponent can (and so must) take
/// it back, then the others; among equals, the capturer that is more awkward to keep first.
pub fn noisy_order(pos: &Raeuber, mv: Move) -> i32 {
    let (from, to) = (mv.from().index(), mv.to().index());
    let attacker = pos.board[from] as usize % 6;
    let mut score = 0;
    if mv.kind() == MoveKind::PromoteQueen {
        score += 1000;
    }
    if pos.board[to] != EMPTY {
        let them = pos.side_to_move().flip().index();
        let occ = pos.occupied() & !(1u64 << from);
        let bits = pos.bits();
        score += 100 + ORDER_KIND[attacker];
        if bits.attacked(to, them, occ) {
            score += 200;
        }
    }
    score
}

/// Ordering bonus of a quiet move that offers the moved piece (its new square is attacked, so
/// the opponent will be forced to take): giving material away is what wins.
pub fn quiet_order(pos: &Raeuber, mv: Move) -> i32 {
    let (from, to) = (mv.from().index(), mv.to().index());
    let them = pos.side_to_move().flip().index();
    let occ = pos.occupied() & !(1u64 << from);
    if pos.bits().attacked(to, them, occ) {
        OFFER_BONUS
    } else {
        0
    }
}

/// Half the history range: an offer goes before most quiet moves, not before a proven one.
const OFFER_BONUS: i32 = 8192;

/// Captures with these first, other things equal (pawn, knight, bishop, rook, queen, king):
/// long-range pieces are the hardest to trap for a give-away.
const ORDER_KIND: [i32; 6] = [0, 10, 30, 30, 20, 10];

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Raeuber {
        Raeuber::from_fen("raeuberschach", fen).unwrap()
    }

    #[test]
    fn start_position_is_level_but_for_the_move() {
        let p = Raeuber::startpos("raeuberschach").unwrap();
        assert_eq!(evaluate(&p), WEIGHTS.to_move);
    }

    #[test]
    fn fewer_pieces_is_better() {
        // White has one rook less than Black; same placement otherwise.
        let w = pos("r1k3/pp4/6/6/PP4/2K3 w - - 0 1");
        assert!(evaluate(&w) > 0, "{}", evaluate(&w));
        let b = pos("r1k3/pp4/6/6/PP4/2K3 b - - 0 1");
        assert!(evaluate(&b) < 0, "{}", evaluate(&b));
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        // A position and its colour-mirrored twin score the same for the side to move.
        let a = pos("1qkbn1/2pp1r/1p3p/6/RP1PPP/1QKB1R b - - 2 7");
        let b = pos("1qkb1r/rp1ppp/6/1P3P/2PP1R/1QKBN1 w - - 2 7");
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn having_to_capture_costs_less_when_the_targets_are_defended() {
        // White's rook must take the black pawn on a3: undefended here, defended by the pawn
        // on b4 in the second position.
        let free = pos("6/6/P5/p5/6/R5 w - - 0 1");
        let with = |w: Weights| evaluate_with(&free, &w);
        let none = Weights {
            must_capture: 0,
            must_capture_defended: 0,
            ..WEIGHTS
        };
        assert_eq!(with(WEIGHTS), with(none) - WEIGHTS.must_capture);
        let guarded = pos("6/6/1p4/p5/6/R5 w - - 0 1");
        let g = |w: Weights| evaluate_with(&guarded, &w);
        assert_eq!(
            g(WEIGHTS),
            g(none) - (WEIGHTS.must_capture - WEIGHTS.must_capture_defended)
        );
        // Black to move has no capture: nothing to pay.
        let quiet = pos("6/6/1p4/p5/6/R5 b - - 0 1");
        assert_eq!(evaluate_with(&quiet, &WEIGHTS), evaluate_with(&quiet, &none));
    }

    #[test]
    fn captures_that_are_taken_back_first() {
        // The rook may take the pawn on a4, which b5 defends; the pawn may take the queen on
        // d3, which nothing defends.
        let p = pos("6/1p4/p5/3q2/2P3/R5 w - - 0 1");
        let rook_takes = p.parse_move("a1a4").unwrap();
        let pawn_takes = p.parse_move("c2d3").unwrap();
        assert_eq!(noisy_order(&p, rook_takes), 100 + 30 + 200);
        assert_eq!(noisy_order(&p, pawn_takes), 100);
        // Promotions come before everything.
        let q = pos("6/P5/6/6/6/6 w - - 0 1");
        assert_eq!(noisy_order(&q, q.parse_move("a5a6").unwrap()), 1000);
    }

    #[test]
    fn offers_are_ordered_first_among_quiet_moves() {
        // The rook on a1 may step to a4, where the pawn on b5 must then take it, or to a2,
        // where nothing can.
        let p = pos("6/1p4/6/6/6/R5 w - - 0 1");
        assert_eq!(quiet_order(&p, p.parse_move("a1a4").unwrap()), OFFER_BONUS);
        assert_eq!(quiet_order(&p, p.parse_move("a1a2").unwrap()), 0);
    }
}
