//! Training records: one position in 32 bytes, with the search's score and the game's result.
//!
//! The layout (little-endian), documented in docs/nnue.md:
//!
//! | bytes  | field |
//! |--------|-------|
//! | 0..8   | occupancy: bit `s` set when square `s` holds a piece (a1 = 0, b1 = 1, …) |
//! | 8..24  | the pieces of the occupied squares in ascending square order, 4 bits each (low nibble first): `colour · 6 + kind` (White 0, Black 1; kinds as the game numbers them) |
//! | 24..26 | the search's score in centipawns, from White's point of view (`i16`) |
//! | 26     | the game's result: 0 Black won, 1 draw, 2 White won |
//! | 27     | the side to move: 0 White, 1 Black |
//! | 28..30 | the ply of the game (`u16`, 0 at the start position) |
//! | 30..32 | zero |
//!
//! A file of records is their concatenation; a file whose length is not a multiple of 32 (a
//! write cut short by a full disk or a kill) is read up to its last whole record.

use std::io::{self, Read};

/// The size of one record in bytes.
pub const RECORD_BYTES: usize = 32;
/// The most pieces a record holds.
pub const MAX_PIECES: usize = 32;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Occupied squares.
    pub occupancy: u64,
    /// The pieces of the occupied squares, in ascending square order (`colour · 6 + kind`),
    /// two a byte.
    pub pieces: [u8; 16],
    /// The score from White's point of view, in centipawns.
    pub score: i16,
    /// 0 Black won, 1 draw, 2 White won.
    pub result: u8,
    /// 0 White to move, 1 Black.
    pub side: u8,
    /// The ply of the game.
    pub ply: u16,
}

impl Record {
    /// A record from the pieces of a position as `(square, colour · 6 + kind)` pairs in any
    /// order (at most [`MAX_PIECES`], codes below 16), the score, result, side and ply.
    pub fn new(mut squares: Vec<(u8, u8)>, score: i16, result: u8, side: u8, ply: u16) -> Record {
        squares.sort_unstable();
        assert!(
            squares.len() <= MAX_PIECES,
            "a record holds at most 32 pieces"
        );
        let mut pieces = [0u8; 16];
        let mut occupancy = 0u64;
        for (i, &(sq, code)) in squares.iter().enumerate() {
            occupancy |= 1 << sq;
            pieces[i / 2] |= (code & 15) << (4 * (i % 2));
        }
        Record {
            occupancy,
            pieces,
            score,
            result,
            side,
            ply,
        }
    }

    /// The pieces as `(square, code)` pairs, ascending by square.
    pub fn squares(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        let mut occ = self.occupancy;
        let mut i = 0;
        std::iter::from_fn(move || {
            if occ == 0 {
                return None;
            }
            let sq = occ.trailing_zeros() as u8;
            occ &= occ - 1;
            let code = (self.pieces[i / 2] >> (4 * (i % 2))) & 15;
            i += 1;
            Some((sq, code))
        })
    }

    /// The record's 32 bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..8].copy_from_slice(&self.occupancy.to_le_bytes());
        b[8..24].copy_from_slice(&self.pieces);
        b[24..26].copy_from_slice(&self.score.to_le_bytes());
        b[26] = self.result;
        b[27] = self.side;
        b[28..30].copy_from_slice(&self.ply.to_le_bytes());
        b
    }

    /// A record from its bytes; an error names what is out of its range.
    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> Result<Record, super::NetError> {
        let occupancy = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
        if occupancy.count_ones() as usize > MAX_PIECES {
            return Err(super::NetError::Pieces(occupancy.count_ones()));
        }
        if b[26] > 2 || b[27] > 1 {
            return Err(super::NetError::ResultSide {
                result: b[26],
                side: b[27],
            });
        }
        if b[30..32] != [0, 0] {
            return Err(super::NetError::Padding);
        }
        let count = occupancy.count_ones() as usize;
        let unused = (count..MAX_PIECES).any(|i| (b[8 + i / 2] >> (4 * (i % 2))) & 15 != 0);
        if unused {
            return Err(super::NetError::UnusedCodes(count));
        }
        Ok(Record {
            occupancy,
            pieces: b[8..24].try_into().expect("16 bytes"),
            score: i16::from_le_bytes([b[24], b[25]]),
            result: b[26],
            side: b[27],
            ply: u16::from_le_bytes([b[28], b[29]]),
        })
    }

    /// White's result as a score: 0, 0.5 or 1.
    pub fn white_result(&self) -> f32 {
        self.result as f32 / 2.0
    }
}

/// Every whole record of a reader (a trailing partial record is ignored); the first record
/// that does not decode, or does not fit `layout`, is an error naming its index.
pub fn read_all(mut r: impl Read, layout: &super::Layout) -> io::Result<Vec<Record>> {
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes)?;
    decode(&bytes, layout).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
}

/// A record that does not decode or does not fit the game: its index and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("record {index}: {reason}")]
pub struct BadRecord {
    pub index: usize,
    pub reason: super::NetError,
}

/// The whole records of `bytes` (a trailing partial record is ignored), each checked against
/// `layout`; the first that fails is an error naming its index.
pub fn decode(bytes: &[u8], layout: &super::Layout) -> Result<Vec<Record>, BadRecord> {
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(index, c)| {
            Record::from_bytes(c.try_into().expect("32 bytes"))
                .and_then(|r| layout.check(&r).map(|()| r))
                .map_err(|reason| BadRecord { index, reason })
        })
        .collect()
}

/// A game's pieces as a record wants them: implemented by the games whose positions a
/// network learns (at most 64 squares, 16 piece codes).
pub trait Pack {
    /// The board and piece kinds the network's inputs are laid out by.
    const LAYOUT: super::Layout;
    /// The pieces as `(square, colour · kinds + kind)` pairs.
    fn pieces(&self) -> Vec<(u8, u8)>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_survives_its_bytes() {
        let squares = vec![(4, 5), (60, 11), (12, 0), (52, 6), (0, 3)];
        let r = Record::new(squares.clone(), -321, 2, 1, 77);
        let back = Record::from_bytes(&r.to_bytes()).unwrap();
        assert_eq!(back, r);
        let mut sorted = squares;
        sorted.sort();
        assert_eq!(back.squares().collect::<Vec<_>>(), sorted);
        assert_eq!(
            (back.score, back.result, back.side, back.ply),
            (-321, 2, 1, 77)
        );
    }

    #[test]
    fn a_cut_file_reads_to_its_last_whole_record_and_bad_fields_are_refused() {
        let r = Record::new(vec![(1, 1), (2, 7)], 5, 1, 0, 3);
        let mut bytes = r.to_bytes().to_vec();
        bytes.extend_from_slice(&r.to_bytes()[..17]);
        let chess = super::super::Layout::CHESS;
        assert_eq!(read_all(&bytes[..], &chess).unwrap(), vec![r]);
        let mut bad = r.to_bytes();
        bad[26] = 3;
        let err = read_all(&bad[..], &chess).unwrap_err().to_string();
        assert!(err.contains("record 0"), "{err}");
        // A piece code the game does not have (chess: 0 to 11), a square off a 6×6 board,
        // a nibble beyond the pieces, the reserved bytes: each refused, with the record's index.
        let twelve = Record::new(vec![(1, 12)], 0, 1, 0, 0);
        let err = decode(&[r.to_bytes(), twelve.to_bytes()].concat(), &chess).unwrap_err();
        assert_eq!(err.index, 1);
        assert!(err.to_string().contains("piece code 12"), "{err}");
        let six = super::super::Layout {
            width: 6,
            height: 6,
            kinds: 6,
        };
        let far = Record::new(vec![(40, 1)], 0, 1, 0, 0);
        let err = decode(&far.to_bytes(), &six).unwrap_err();
        assert!(
            err.reason.to_string().contains("beyond the 6×6 board"),
            "{err}"
        );
        let mut stray = r.to_bytes();
        stray[20] = 1;
        let err = decode(&stray, &chess).unwrap_err();
        assert!(
            err.reason.to_string().contains("beyond its 2 pieces"),
            "{err}"
        );
        let mut reserved = r.to_bytes();
        reserved[31] = 7;
        let err = decode(&reserved, &chess).unwrap_err();
        assert!(err.reason.to_string().contains("not zero"), "{err}");
    }
}
