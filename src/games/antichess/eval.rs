//! Antichess evaluation, in centipawns for the side to move: Räuberschach's terms, weights and
//! scoring ([`crate::games::raeuber::eval::score`]) fed with what the pieces do on the 8×8
//! board.
//!
//! A piece is a burden to its owner, who must get rid of it; the side that runs out of moves
//! first wins. The terms: the **burden** of each piece by kind, growing or shrinking as the
//! board empties (`burden_end`); **pawn advance** (a pawn near its last rank is nearly a new
//! piece); **offers** (quiet moves onto attacked squares: ways to give material away) with
//! diminishing returns, and **offer squares**, more where the mover would not have to take
//! back; **hanging** pieces (mine the opponent attacks: he may be forced to take them);
//! **deep** pieces in the enemy camp, soon forced to capture; the obligation to capture of the
//! side to move (**must capture**), and the **threats to be forced to capture** of both
//! sides, divided by the targets the opponent defends; **mobility**, and a **tempo** term
//! when few pieces are left. Opposite-colour bishops alone are a dead draw (0).
//!
//! Antichess has its own weights ([`WEIGHTS`]), for now equal to Räuberschach's (fitted there
//! by Texel's method and kept by SPRTs, docs/search-log.md), with the phase counted over the
//! 32 pieces of the 8×8 start; fitting them for 8×8 on antichess games
//! ([`crate::games::raeuber::tune::sample_of`] with [`evaluate_with`]) is the next step
//! (docs/antichess.md).

use super::movegen::{BISHOP_K, KING_K, KNIGHT_K, PAWN_K, QUEEN_K, ROOK_K, piece_attacks};
use crate::games::losing::Eight;
use super::position::{Antichess, EMPTY};
use crate::board::{Color, Move};
use crate::game::Game;
use crate::games::raeuber::eval::{self as raeuber_eval, Activity, SideView, Weights, score};
use arrayvec::ArrayVec;

/// Antichess's weights: the terms are Räuberschach's, the values its own (so far equal to
/// Räuberschach's; to be fitted on 8×8 games).
pub const WEIGHTS: Weights = raeuber_eval::WEIGHTS;

/// The pieces of the start position: the phase terms count how many of them are gone.
pub const FULL_BOARD: i32 = 32;

/// The enemy camp's last two ranks, by colour (White's targets: ranks 7–8).
const DEEP_RANKS: [u64; 2] = [0xffff << 48, 0xffff];

fn activity(pos: &Antichess, color: Color) -> Activity {
    let own = pos.occupied_by(color);
    let occ = pos.occupied();
    let empty = !occ;
    let theirs = pos.occupied_by(color.flip());
    let pawns = pos.bits.kinds[PAWN_K] & own;
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let (push, west, east) = match color {
        Color::White => (pawns << 8 & empty, (pawns & NOT_A) << 7, (pawns & NOT_H) << 9),
        Color::Black => (pawns >> 8 & empty, (pawns & NOT_A) >> 9, (pawns & NOT_H) >> 7),
    };
    let mut a = Activity {
        moves: push.count_ones() + ((west | east) & theirs).count_ones(),
        attacks: west | east,
        twice: west & east,
        steps: push,
        quiet: ArrayVec::new(),
    };
    a.quiet.push(push);
    for (kind, sq) in pos.bits.pieces_of(color.index()) {
        let targets = piece_attacks::<Eight>(kind, sq, occ);
        a.twice |= a.attacks & targets;
        a.attacks |= targets;
        a.moves += (targets & (empty | theirs)).count_ones();
        if kind != KING_K {
            a.steps |= targets & empty;
        }
        // Sixteen pieces a side at most, so the list never overflows.
        let _ = a.quiet.try_push(targets & empty);
    }
    a
}

/// The ranks a side's pawns stand beyond their start rank, summed.
fn pawn_advance(pos: &Antichess, color: Color) -> i32 {
    let mut pawns = pos.pieces(color, PAWN_K);
    let mut ranks = 0;
    while pawns != 0 {
        let rank = (pawns.trailing_zeros() / 8) as i32;
        pawns &= pawns - 1;
        ranks += match color {
            Color::White => rank - 1,
            Color::Black => 6 - rank,
        };
    }
    ranks
}

/// Static evaluation for the side to move.
pub fn evaluate(pos: &Antichess) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// Static evaluation for the side to move with weights `w`: Räuberschach's
/// [`score`] of the two sides' views of this board.
pub fn evaluate_with(pos: &Antichess, w: &Weights) -> i32 {
    if pos.insufficient_material() {
        return 0;
    }
    let non_pawns = pos.occupied() & !pos.bits.kinds[PAWN_K];
    let view = |color: Color| SideView {
        activity: activity(pos, color),
        pieces: pos.occupied_by(color),
        counts: std::array::from_fn(|k| pos.pieces(color, k).count_ones() as i32),
        pawn_advance: pawn_advance(pos, color),
        deep: (non_pawns & pos.occupied_by(color) & DEEP_RANKS[color.index()]).count_ones()
            as i32,
    };
    let us = pos.side_to_move();
    let gone = (FULL_BOARD - pos.occupied().count_ones() as i32).max(0);
    score(w, &view(us), &view(us.flip()), (gone, FULL_BOARD))
}

/// Ordering of captures and promotions: promotions first (a new piece is one more to give
/// away; a king or a queen first), then captures after which the capturer can be taken
/// back, then the others; among equals, the capturer that is harder to get rid of first.
pub fn noisy_order(pos: &Antichess, mv: Move) -> i32 {
    let (from, to) = (mv.from().index(), mv.to().index());
    let attacker = pos.board[from] as usize % 6;
    let mut score = PROMOTION_ORDER[mv.kind() as usize];
    if pos.is_capture(mv) {
        let them = pos.side_to_move().flip().index();
        let occ = pos.occupied() & !(1u64 << from);
        score += 100 + ORDER_KIND[attacker];
        if pos.board[to] != EMPTY && pos.bits().attacked::<Eight>(to, them, occ) {
            score += 200;
        }
    }
    score
}

/// Ordering bonus of a quiet move that offers the moved piece (its new square is attacked).
pub fn quiet_order(pos: &Antichess, mv: Move) -> i32 {
    let (from, to) = (mv.from().index(), mv.to().index());
    let them = pos.side_to_move().flip().index();
    let occ = pos.occupied() & !(1u64 << from);
    if pos.bits().attacked::<Eight>(to, them, occ) { OFFER_BONUS } else { 0 }
}

/// Half the history range: an offer goes before most quiet moves, not before a proven one.
const OFFER_BONUS: i32 = 8192;

/// The ordering of a move by its kind: nothing but for promotions (index by `MoveKind`:
/// knight, bishop, rook, queen, king).
const PROMOTION_ORDER: [i32; 16] = [0, 0, 0, 0, 600, 700, 800, 1000, 900, 0, 0, 0, 0, 0, 0, 0];

/// Captures with these first, other things equal (pawn, knight, bishop, rook, queen, king).
const ORDER_KIND: [i32; 6] = {
    let mut k = [0; 6];
    k[KNIGHT_K] = 10;
    k[BISHOP_K] = 30;
    k[ROOK_K] = 30;
    k[QUEEN_K] = 20;
    k[KING_K] = 10;
    k
};

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Antichess {
        Antichess::from_fen("antichess", fen).unwrap()
    }

    #[test]
    fn the_start_is_level_but_for_the_move() {
        let p = Antichess::startpos("antichess").unwrap();
        assert_eq!(evaluate(&p), WEIGHTS.to_move);
        // Mirrored positions score the same for the side to move.
        let w = pos("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2");
        let b = pos("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 2");
        assert_eq!(evaluate(&w), evaluate(&b));
    }

    #[test]
    fn a_heavier_burden_favours_the_side_with_fewer_pieces() {
        let heavier = Weights {
            burden: {
                let mut b = WEIGHTS.burden;
                b[ROOK_K] += 100;
                b
            },
            ..WEIGHTS
        };
        // Black has one rook more.
        let w = pos("r3k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
        assert_eq!(evaluate_with(&w, &heavier) - evaluate_with(&w, &WEIGHTS), 100);
        let b = pos("r3k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1");
        assert_eq!(evaluate_with(&b, &heavier) - evaluate_with(&b, &WEIGHTS), -100);
    }

    #[test]
    fn opposite_bishops_are_a_draw_and_offers_come_first() {
        assert_eq!(evaluate(&pos("8/8/2b5/8/8/8/8/2B5 w - - 0 1")), 0);
        // The knight's step to c3 offers it to the pawn on b4 (not the h-pawn's step).
        let p = pos("8/8/8/8/1p6/8/7P/1N6 w - - 0 1");
        let offer = p.parse_move("b1c3").unwrap();
        let quiet = p.parse_move("h2h3").unwrap();
        assert!(quiet_order(&p, offer) > quiet_order(&p, quiet));
        // A promotion to a queen is tried before a plain capture.
        let q = pos("1n6/P7/8/8/8/8/3p4/4B3 w - - 0 1");
        let promote = q.parse_move("a7b8q").unwrap();
        let take = q.parse_move("e1d2").unwrap();
        assert!(noisy_order(&q, promote) > noisy_order(&q, take));
    }

    /// The tune's trace of an antichess position reproduces antichess's evaluation (for
    /// White), so the fit can run on antichess games.
    #[test]
    fn the_tune_trace_reproduces_the_antichess_evaluation() {
        use crate::games::raeuber::tune::{flatten, sample_of};
        let mut p = Antichess::startpos("antichess").unwrap();
        let w = flatten(&WEIGHTS);
        for ply in 0..30 {
            let mut moves = crate::board::MoveList::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let sign = if p.side_to_move() == Color::White { 1 } else { -1 };
            let expected = (sign * evaluate_with(&p, &WEIGHTS)) as f64;
            let s = sample_of("antichess", &p.fen(), 0.5, &WEIGHTS, evaluate_with).unwrap();
            assert!((s.eval(&w) - expected).abs() <= 8.0, "{}", p.fen());
            p = p.play(moves[(ply * 5) % moves.len()]);
        }
        assert!(sample_of("antichess", "not a fen", 0.5, &WEIGHTS, evaluate_with).is_err());
    }
}
