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
