//! FEN split into its fields, for boards of any size up to 8×8 (docs/rules.md §2).
//!
//! Games read the piece letters themselves; this module only knows the grammar: ranks from the
//! top down separated by `/`, digits for runs of empty squares, then side to move, castling,
//! en-passant square, halfmove clock and fullmove number (the two clocks default to `0 1`).

use super::{Color, Geometry, Square};
use crate::error::position_error;

/// The fields of a FEN, with the board's size inferred from the placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fen {
    pub geometry: Geometry,
    /// Every occupied square and its letter.
    pub pieces: Vec<(Square, char)>,
    pub side: Color,
    pub castling: String,
    pub en_passant: Option<Square>,
    pub halfmove: u32,
    pub fullmove: u32,
}

impl Fen {
    /// Splits `text` into its fields. Every error ([`crate::Error::Position`]) names what is
    /// wrong.
    pub fn parse(text: &str) -> Result<Fen, crate::Error> {
        Fen::fields(text)
    }

    fn fields(text: &str) -> Result<Fen, crate::Error> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(position_error!("empty FEN"));
        }
        if fields.len() > 6 {
            return Err(position_error!(
                "FEN has {} fields, at most 6 expected",
                fields.len()
            ));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        let height = rows.len();
        if !(1..=8).contains(&height) {
            return Err(position_error!("FEN has {height} ranks, 1 to 8 expected"));
        }
        let mut pieces = Vec::new();
        let mut width = None;
        for (i, row) in rows.iter().enumerate() {
            let rank = (height - 1 - i) as u8;
            let mut file = 0usize;
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    // Allow multi-digit runs only up to 8 in total.
                    let mut n = d as usize;
                    while let Some(&next) = chars.peek() {
                        match next.to_digit(10) {
                            Some(d2) => {
                                n = n.saturating_mul(10).saturating_add(d2 as usize);
                                chars.next();
                            }
                            None => break,
                        }
                    }
                    if n == 0 {
                        return Err(position_error!(
                            "rank {} of the FEN has an empty run of 0",
                            rank + 1
                        ));
                    }
                    file = file.saturating_add(n);
                } else if c.is_ascii_alphabetic() {
                    if file < 8 {
                        pieces.push((Square::new(file as u8, rank), c));
                    }
                    file += 1;
                } else {
                    return Err(position_error!(
                        "unexpected character '{c}' in the FEN placement"
                    ));
                }
                if file > 8 {
                    return Err(position_error!(
                        "rank {} of the FEN is wider than 8 squares",
                        rank + 1
                    ));
                }
            }
            match width {
                None => width = Some(file),
                Some(w) if w != file => {
                    return Err(position_error!(
                        "rank {} of the FEN has {file} squares, rank {} has {w}",
                        rank + 1,
                        height
                    ));
                }
                _ => {}
            }
        }
        let width = width.unwrap_or(0);
        let geometry = Geometry::new(width as u8, height as u8)
            .ok_or_else(|| position_error!("FEN board is {width}×{height}, 1×1 to 8×8 expected"))?;
        let side = match fields.get(1).copied().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(position_error!(
                    "side to move '{}' is neither 'w' nor 'b'",
                    cut(other)
                ));
            }
        };
        let castling = fields.get(2).copied().unwrap_or("-").to_string();
        if castling != "-" && !castling.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(position_error!(
                "castling field '{}' is malformed",
                cut(&castling)
            ));
        }
        let en_passant = match fields.get(3).copied().unwrap_or("-") {
            "-" => None,
            s => Some(geometry.parse_square(s).ok_or_else(|| {
                position_error!("en-passant square '{}' is not on the board", cut(s))
            })?),
        };
        let halfmove = counter(fields.get(4), "halfmove clock", 0)?;
        let fullmove = counter(fields.get(5), "fullmove number", 1)?;
        Ok(Fen {
            geometry,
            pieces,
            side,
            castling,
            en_passant,
            halfmove,
            fullmove,
        })
    }
}

/// A FEN's move counter (`what`) from its field, `default` where the field is absent.
fn counter(field: Option<&&str>, what: &str, default: u32) -> Result<u32, crate::Error> {
    let Some(s) = field else {
        return Ok(default);
    };
    match s.parse::<u32>() {
        Ok(n) if n <= MAX_COUNTER => Ok(n),
        Ok(_) => Err(position_error!(
            "{what} {s} is too large (at most {MAX_COUNTER})"
        )),
        Err(_) => Err(position_error!("{what} '{}' is not a number", cut(s))),
    }
}

/// The largest halfmove clock or fullmove number a FEN may give (positions keep 16 bits).
pub const MAX_COUNTER: u32 = u16::MAX as u32;

/// A FEN field quoted in an error, cut to a few characters.
fn cut(field: &str) -> String {
    let mut out: String = field.chars().take(12).collect();
    if field.chars().nth(12).is_some() {
        out.push('…');
    }
    out
}

/// Writes a FEN placement field for a board, asking `piece` for each square's letter.
pub fn placement(geometry: &Geometry, piece: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (0..geometry.height).rev() {
        let mut empty = 0;
        for file in 0..geometry.width {
            match piece(Square::new(file, rank)) {
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_4x4_pawn_fen_with_default_clocks() {
        let fen = Fen::parse("pppp/4/4/PPPP w - -").unwrap();
        assert_eq!((fen.geometry.width, fen.geometry.height), (4, 4));
        assert_eq!(fen.pieces.len(), 8);
        assert_eq!((fen.halfmove, fen.fullmove), (0, 1));
        assert_eq!(
            placement(&fen.geometry, |sq| fen
                .pieces
                .iter()
                .find(|p| p.0 == sq)
                .map(|p| p.1)),
            "pppp/4/4/PPPP"
        );
    }

    #[test]
    fn rejects_malformed_fens() {
        for bad in [
            "",
            "ppp/3/PPPP w - - 0 1",
            "ppp/3/PPP x - - 0 1",
            "ppp/3/PPP w - z9 0 1",
            "ppp/3/PPP w - - a 1",
            "ppp/3/P?P w - - 0 1",
            "9/8/8/8/8/8/8/8 w - - 0 1",
            "p/p/p/p/p/p/p/p/p w - - 0 1",
            "ppp/3/PPP w - - 4294967295 1",
            "ppp/3/PPP w - - 0 65536",
            "99999999999999999999999/8/8/8/8/8/8/8 w - - 0 1",
        ] {
            assert!(Fen::parse(bad).is_err(), "{bad} accepted");
        }
    }
}
