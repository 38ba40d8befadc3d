//! Standard algebraic notation (SAN), written and read for every game through the
//! [`Game`] trait, following the PGN standard and Fairy-Stockfish's SAN for variants:
//!
//! - the piece's upper-case letter (none for a pawn), then the origin's file, rank or square
//!   when another piece of the same kind could make the same move (file first), `x` for a
//!   capture (a pawn capture always names its file), the target square;
//! - `=Q` for a promotion, `O-O` / `O-O-O` for castling (also in Chess960);
//! - `+` for check and `#` for mate, only in games with check (a game without a royal king,
//!   such as Räuberschach or pawn chess, writes neither, as Fairy-Stockfish does).
//!
//! A game gives the letters and capture flags through [`SanParts`] in its [`Game::san`]; the
//! reader [`read`] takes SAN (with or without `+ # ! ?`, `0-0` for `O-O`) and coordinate
//! notation alike. Depends on [`crate::board`] and [`crate::game`].

use crate::board::{Move, MoveList};
use crate::game::Game;

/// What SAN needs to know about one legal move, told by the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SanParts {
    /// The moving piece's upper-case letter; `None` for a pawn.
    pub piece: Option<char>,
    /// Whether the move captures (en passant included).
    pub capture: bool,
    /// Castling: `Some(true)` on the king's side (`O-O`), `Some(false)` on the queen's side.
    pub castling: Option<bool>,
}

/// SAN of the legal move `mv` in `pos`. `parts` describes a legal move of `pos`; `in_check`
/// tells whether the side to move of a position is in check (always `false` in games
/// without check).
pub fn write<G: Game>(
    pos: &G,
    mv: Move,
    parts: impl Fn(Move) -> SanParts,
    in_check: impl Fn(&G) -> bool,
) -> String {
    let me = parts(mv);
    let mut san = match me.castling {
        Some(true) => "O-O".to_string(),
        Some(false) => "O-O-O".to_string(),
        None => {
            let mut s = String::new();
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let others: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    m.to() == mv.to()
                        && m.from() != mv.from()
                        && m.kind().promotion_char() == mv.kind().promotion_char()
                        && parts(m).piece == me.piece
                        && parts(m).castling.is_none()
                })
                .collect();
            let from = mv.from();
            let file = (b'a' + from.file()) as char;
            let rank = (b'1' + from.rank()) as char;
            if let Some(letter) = me.piece {
                s.push(letter);
            }
            if me.piece.is_none() && me.capture {
                s.push(file);
            } else if !others.is_empty() {
                if others.iter().all(|m| m.from().file() != from.file()) {
                    s.push(file);
                } else if others.iter().all(|m| m.from().rank() != from.rank()) {
                    s.push(rank);
                } else {
                    s.push(file);
                    s.push(rank);
                }
            }
            if me.capture {
                s.push('x');
            }
            s.push_str(&mv.to().to_string());
            if let Some(p) = mv.kind().promotion_char() {
                s.push('=');
                s.push(p.to_ascii_uppercase());
            }
            s
        }
    };
    let after = pos.play(mv);
    if in_check(&after) {
        let mut replies = MoveList::new();
        after.legal_moves(&mut replies);
        san.push(if replies.is_empty() { '#' } else { '+' });
    }
    san
}

/// `text` without annotations (`+ # ! ?`), with `0-0` read as `O-O` and `=` dropped, so that
/// `e8=Q+`, `e8Q` and `e8=Q` compare equal.
fn normalise(text: &str) -> String {
    let bare = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let bare = match bare {
        "0-0" => "O-O",
        "0-0-0" => "O-O-O",
        other => other,
    };
    bare.replace('=', "")
}

/// Reads a move in SAN or in the game's coordinate notation; it must be legal in `pos`.
pub fn read<G: Game>(pos: &G, text: &str) -> Result<Move, String> {
    if let Ok(mv) = pos.parse_move(text) {
        return Ok(mv);
    }
    let wanted = normalise(text);
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .copied()
        .find(|&mv| normalise(&pos.san(mv)) == wanted)
        .ok_or_else(|| format!("{text} is not a legal move here (in SAN or coordinates)"))
}
