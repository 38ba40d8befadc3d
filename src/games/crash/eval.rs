//! The heuristic evaluation of CRASH! for the shared alpha-beta search, built on the column's
//! two rules of thumb: material (stones) counts most, and stones kept together (few towers,
//! little spread between a side's rearmost and frontmost stone) are better than scattered ones.
//! Depends on the position only.

use super::Crash;
use crate::board::Color;

/// Centipawns per stone of material.
pub const STONE: i32 = 100;
/// Penalty per cell between a side's rearmost and frontmost stone.
pub const SPREAD: i32 = 12;
/// Penalty per tower beyond the first.
pub const TOWER: i32 = 6;

/// (spread in cells, towers) of colour `c`.
fn shape(pos: &Crash, c: Color) -> (i32, i32) {
    let own = |h: i32| if c == Color::White { h > 0 } else { h < 0 };
    let row = pos.row();
    let first = row.iter().position(|&h| own(h));
    let last = row.iter().rposition(|&h| own(h));
    let towers = row.iter().filter(|&&h| own(h)).count() as i32;
    match (first, last) {
        (Some(a), Some(b)) => ((b - a) as i32, towers),
        _ => (0, 0),
    }
}

/// Evaluation in centipawns for the side to move.
pub fn evaluate(pos: &Crash) -> i32 {
    let us = pos.side_to_move_color();
    let them = us.flip();
    // Stone counts reach `i32::MAX` a side (`MAX_STONES`): weigh them in `i64` and saturate,
    // so a huge count cannot wrap the evaluation's sign (the search clamps it anyway).
    let diff = i64::from(pos.stones(us)) - i64::from(pos.stones(them));
    let material =
        (i64::from(STONE) * diff).clamp(i64::from(i32::MIN / 2), i64::from(i32::MAX / 2)) as i32;
    let (spread_us, towers_us) = shape(pos, us);
    let (spread_them, towers_them) = shape(pos, them);
    let compact = SPREAD * (spread_them - spread_us)
        + TOWER * ((towers_them - 1).max(0) - (towers_us - 1).max(0));
    material + compact
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_and_compactness() {
        let e = |t: &str| evaluate(&Crash::parse(t).unwrap());
        assert_eq!(e("W2...B2 w"), 0);
        assert!(e("W3...B2 w") > 50);
        assert!(e("W3...B2 b") < -50);
        // Scattered stones are worse than a tower.
        assert!(e("W1.W1...B2 w") < e("W2.....B2 w"));
        // Symmetric positions are even.
        assert_eq!(e("W1W1..B1B1 b"), 0);
        // Huge stone counts saturate instead of wrapping the sign.
        assert!(e("W2147483647.B1 w") > 0);
        assert!(e("W2147483647.B1 b") < 0);
    }
}
