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
pub fn read<G: Game>(pos: &G, text: &str) -> Result<Move, crate::Error> {
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
        .ok_or_else(|| {
            crate::Error::Move(format!(
                "{text} is not a legal move here (in SAN or coordinates)"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Chess;
    use crate::games::pawns::Pawns;
    use crate::games::raeuber::Raeuber;

    fn san_of<G: Game>(pos: &G, coords: &str) -> String {
        pos.san(pos.parse_move(coords).unwrap())
    }

    #[test]
    fn chess_san() {
        let cases = [
            (Chess::START_FEN, "g1f3", "Nf3"),
            (Chess::START_FEN, "e2e4", "e4"),
            ("6k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", "O-O"),
            ("6k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", "O-O-O"),
            ("6k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "a1a8", "Ra8+"),
            ("k7/8/8/8/8/8/8/KN3N2 w - - 0 1", "b1d2", "Nbd2"),
            ("k7/8/8/8/N7/8/N7/K7 w - - 0 1", "a2c3", "N2c3"),
            ("4k3/8/8/8/8/Q7/8/Q1Q3K1 w - - 0 1", "a1b2", "Qa1b2"),
            ("k7/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8q", "e8=Q+"),
            ("k7/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8n", "e8=N"),
            ("k7/8/8/3pP3/8/8/8/K7 w - d6 0 1", "e5d6", "exd6"),
            ("k7/8/1K6/8/8/8/8/7R w - - 0 1", "h1h8", "Rh8#"),
            ("k7/8/8/8/8/8/3p4/2R3K1 b - - 0 1", "d2c1q", "dxc1=Q+"),
        ];
        for (fen, coords, san) in cases {
            let pos = Chess::from_fen("chess", fen).expect(fen);
            assert_eq!(san_of(&pos, coords), san, "{fen} {coords}");
            assert_eq!(read(&pos, san), pos.parse_move(coords), "{fen} {san}");
        }
        // Chess960: castling is O-O / O-O-O whatever the squares.
        let pos = Chess::from_fen("chess960", "r1k4r/8/8/8/8/8/8/RK4R1 w GAha - 0 1").unwrap();
        assert_eq!(san_of(&pos, "b1a1"), "O-O-O");
        assert_eq!(san_of(&pos, "b1g1"), "O-O");
    }

    #[test]
    fn read_takes_variants_of_san_and_coordinates() {
        let pos = Chess::from_fen("chess", "r5k1/4P3/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let castle = pos.parse_move("e1g1").unwrap();
        for text in ["O-O", "0-0", "O-O+", "e1g1", "e1h1"] {
            assert_eq!(read(&pos, text), Ok(castle), "{text}");
        }
        let promote = pos.parse_move("e7e8q").unwrap();
        for text in ["e8=Q", "e8Q", "e8=Q+!", "e7e8q"] {
            assert_eq!(read(&pos, text), Ok(promote), "{text}");
        }
        for bad in ["O-O-O", "Nf3", "e8=K", "", "e2e4"] {
            let err = read(&pos, bad).unwrap_err();
            assert!(matches!(err, crate::Error::Move(_)), "{bad}: {err:?}");
            assert!(err.to_string().contains("not a legal move"), "{bad}: {err}");
        }
    }

    #[test]
    fn variants_without_check() {
        // Räuberschach: the king is an ordinary piece; a capture that would be check in chess
        // gets no `+`.
        let pos = Raeuber::from_fen("raeuberschach", "k5/6/6/6/6/R4K w - - 0 1").unwrap();
        assert_eq!(san_of(&pos, "a1a6"), "Rxa6");
        let start = Raeuber::startpos("raeuberschach").unwrap();
        assert_eq!(san_of(&start, "e1d3"), "Nd3");
        assert_eq!(san_of(&start, "b2b3"), "b3");
        // Pawn chess: captures name their file; an arrival has no promotion suffix.
        let pos = Pawns::from_fen("pawns3", "p1p/1P1/3 w - - 0 1").unwrap();
        assert_eq!(san_of(&pos, "b2a3"), "bxa3");
        assert_eq!(san_of(&pos, "b2b3"), "b3");
        assert_eq!(read(&pos, "bxc3"), pos.parse_move("b2c3"));
    }
}
