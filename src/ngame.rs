//! The [`NGame`] trait: everything the N-player search core, the N-seat protocol, `play` and
//! the N-seat tournament runner need to know about a game for two or more seats.
//!
//! It stands beside the two-player [`crate::game::Game`] trait and borrows nothing from it but
//! the move type: there is no `Color`, no negamax sign, and a position is valued by a vector
//! with one non-negative entry per seat. Its fallible edges (start, position text, move text)
//! return the library's typed [`Error`], as [`crate::game::Game`]'s do. Depends on `board`
//! (moves, move lists) and `error` only.

use crate::Error;
use crate::board::{Move, MoveList};

/// The most seats any N-player game may have; value vectors have this many entries and
/// seats beyond a game's [`NGame::seats`] stay 0.
pub const MAX_SEATS: usize = 6;

/// One non-negative entry per seat (index = seat). Seats out of the game hold 0.
pub type Values = [i64; MAX_SEATS];

/// A seat's share of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatResult {
    Win,
    Draw,
    Loss,
    /// The seat did not take part in this game.
    Absent,
}

impl SeatResult {
    /// Points in the usual 1 / ½ / 0 scale; absent seats score nothing.
    pub fn points(self) -> f64 {
        match self {
            SeatResult::Win => 1.0,
            SeatResult::Draw => 0.5,
            SeatResult::Loss | SeatResult::Absent => 0.0,
        }
    }

    /// The short word used in records and protocol lines: `win`, `draw`, `loss`, `-`.
    pub fn word(self) -> &'static str {
        match self {
            SeatResult::Win => "win",
            SeatResult::Draw => "draw",
            SeatResult::Loss => "loss",
            SeatResult::Absent => "-",
        }
    }
}

/// The result of a finished game: one entry per seat.
pub type Results = [SeatResult; MAX_SEATS];

/// One game for N seats. Positions are values ([`NGame::play`] returns the next one).
pub trait NGame: Clone + Send + Sync + std::fmt::Debug + 'static {
    /// The game's short name (`kiebitz-<GAME>`).
    const GAME: &'static str;
    /// The fewest and most players a game may start with.
    const PLAYERS: (usize, usize);

    /// The start position for `players` players; a count outside [`NGame::PLAYERS`] is an
    /// [`Error::Variant`].
    fn startpos(players: usize) -> Result<Self, Error>;
    /// A position from its text form; an [`Error::Position`] says what is wrong.
    fn from_text(text: &str) -> Result<Self, Error>;
    /// The position's text form ([`NGame::from_text`] reads it back).
    fn text(&self) -> String;

    /// Seat slots of the game (value vectors use entries `0..seats()`).
    fn seats(&self) -> usize;
    /// A seat's name (`South`) and its one-letter tag (`s`).
    fn seat_name(seat: usize) -> &'static str;
    fn seat_letter(seat: usize) -> char;
    /// The seat whose turn it is.
    fn to_move(&self) -> usize;
    /// Whether `seat` takes part in this game (eliminated seats included).
    fn plays(&self, seat: usize) -> bool;
    /// Whether `seat` is still in the game (not eliminated, not absent).
    fn in_game(&self, seat: usize) -> bool;
    /// Turns played so far.
    fn turn(&self) -> u32;
    /// Turns the game can still last at most (a turn limit), if it has such a bound: deeper
    /// searches than this find nothing new.
    fn turns_left(&self) -> Option<u32> {
        None
    }

    /// Every legal move into `moves` (cleared first): a forced pass is a move
    /// ([`Move::NULL`]); the list is empty exactly when the game is over.
    fn legal_moves(&self, moves: &mut MoveList);
    /// The position after `mv`, which must be legal here.
    fn play(&self, mv: Move) -> Self;
    /// The same position with `seat` (in the game) to move: the model Best-Reply Search needs,
    /// where every opponent may answer the root seat's move.
    fn with_to_move(&self, seat: usize) -> Self;
    /// The result once the game is over, `None` while it runs.
    fn outcome(&self) -> Option<Results>;

    /// A heuristic value per seat, each entry ≥ 0 and 0 for seats out of the game.
    fn evaluate(&self) -> Values;
    /// A hash of everything that decides the game's future (pieces, area, seat, turn).
    fn hash(&self) -> u64;
    /// Ordering score of a move: higher first (captures of valuable pieces first).
    fn order(&self, mv: Move) -> i32;

    /// The move in text (`a1b3`, `0000` for a pass).
    fn move_text(&self, mv: Move) -> String;
    /// A legal move from text; an [`Error::Move`] says why it is not one.
    fn parse_move(&self, text: &str) -> Result<Move, Error>;
    /// The board for a person, with ANSI colours or plain.
    fn pretty(&self, ansi: bool) -> String;
    /// Positions for `bench`.
    fn bench_positions() -> Vec<Self>;
}
