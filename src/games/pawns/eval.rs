//! Pawn-chess evaluation: material, advancement, passed pawns and the race between them.
//!
//! Only pawns exist, and pawns never move sideways or back, so a pawn with no enemy pawn ahead
//! on its own or a neighbouring file ("passed") can never be stopped. The race between the
//! two sides' fastest passed pawns, counted in moves with the side to move's tempo, decides
//! most endings; the search handles the tactics around it.

use super::Pawns;
use crate::board::{Bitboard, Color, Geometry, Square};

const PAWN: i32 = 100;
/// Bonus per step of progress (squared): advanced pawns are worth more.
const ADVANCE: i32 = 4;
const PASSED: i32 = 20;
const PASSED_STEP: i32 = 12;
/// A won race is nearly decisive, a little less for a longer one.
const RACE: i32 = 600;
const RACE_STEP: i32 = 20;

/// The squares strictly ahead of `sq` for `color` on its own and neighbouring files.
fn front_span(g: &Geometry, sq: Square, color: Color) -> Bitboard {
    let mut files = g.file(sq.file());
    if sq.file() > 0 {
        files |= g.file(sq.file() - 1);
    }
    if sq.file() + 1 < g.width {
        files |= g.file(sq.file() + 1);
    }
    let ahead = match color {
        Color::White => !0u64 << 8 << (8 * sq.rank() as u32),
        Color::Black => (1u64 << (8 * sq.rank() as u32)) - 1,
    };
    files & Bitboard(ahead)
}

/// Moves a pawn on `sq` needs to reach its goal line.
fn distance(g: &Geometry, sq: Square, color: Color) -> i32 {
    match color {
        Color::White => (g.height - 1 - sq.rank()) as i32,
        Color::Black => sq.rank() as i32,
    }
}

/// Material, advancement and passed pawns of `color`, and the moves its fastest passed pawn
/// needs (`None` without one).
fn side_terms(pos: &Pawns, color: Color) -> (i32, Option<i32>) {
    let g = pos.geometry();
    let own = pos.pawns(color);
    let theirs = pos.pawns(color.flip());
    let goal = g.height as i32 - 1;
    let mut score = 0;
    let mut fastest: Option<i32> = None;
    for sq in own {
        let dist = distance(g, sq, color);
        let progress = goal - dist;
        score += PAWN + ADVANCE * progress * progress;
        if (front_span(g, sq, color) & theirs).is_empty() {
            score += PASSED + PASSED_STEP * progress;
            let mut moves = dist;
            let path_clear = (front_span(g, sq, color) & g.file(sq.file()) & own).is_empty();
            if !path_clear {
                continue;
            }
            if pos.rules.double_step && pos.start_rank(color).contains(sq) && dist >= 2 {
                moves -= 1;
            }
            fastest = Some(fastest.map_or(moves, |f: i32| f.min(moves)));
        }
    }
    (score, fastest)
}

/// Static evaluation in centipawns for the side to move.
pub fn evaluate(pos: &Pawns) -> i32 {
    let us = pos.side;
    let (mine, my_race) = side_terms(pos, us);
    let (theirs, their_race) = side_terms(pos, us.flip());
    let mut score = mine - theirs;
    // The side to move arrives first when its fastest passed pawn needs no more moves.
    match (my_race, their_race) {
        (Some(m), Some(t)) if m <= t => score += RACE - RACE_STEP * m,
        (Some(_), Some(t)) => score -= RACE - RACE_STEP * t,
        (Some(m), None) => score += RACE - RACE_STEP * m,
        (None, Some(t)) => score -= RACE - RACE_STEP * t,
        (None, None) => {}
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn symmetric_start_is_level() {
        let p = Pawns::startpos("pawns6").unwrap();
        assert_eq!(evaluate(&p), 0);
    }

    #[test]
    fn the_faster_passed_pawn_wins_the_race() {
        // White's a-pawn needs 3 moves, Black's h-pawn 4: White is winning whoever moves.
        let w = Pawns::from_fen("pawns8", "8/8/8/P6p/8/8/8/8 w - - 0 1").unwrap();
        assert!(evaluate(&w) > 300);
        let b = Pawns::from_fen("pawns8", "8/8/8/P6p/8/8/8/8 b - - 0 1").unwrap();
        assert!(evaluate(&b) < -300);
    }
}
