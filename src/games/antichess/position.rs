//! The antichess position: the family's position on the 8×8 board
//! ([`crate::games::losing::Position`]), read from a FEN. The
//! [`Game`](crate::game::Game) implementation is in `game.rs`.

use crate::board::fen::Fen;
use crate::games::losing::{Eight, Position};

pub use crate::games::losing::position::{EMPTY, LETTERS, NO_EP};

/// An antichess position (lichess's rules, 8×8).
pub type Antichess = Position<Eight>;

impl Antichess {
    /// Reads a FEN (pieces `PNBRQK pnbrqk`, no castling; an en-passant square must be one a
    /// pawn has just passed over). Every error says what is wrong.
    pub fn read_fen(text: &str) -> Result<Antichess, crate::Error> {
        let fen = Fen::parse(text)?;
        Antichess::from_fields(fen, "antichess")
    }
}
