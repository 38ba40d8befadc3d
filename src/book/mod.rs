//! Opening books in the Polyglot `.bin` format, for every game whose positions have a book key
//! ([`crate::game::OpeningBook::book_key`]; chess uses the Polyglot standard's keys, so every Polyglot book works).
//!
//! A book is a file of 16-byte entries, big-endian: the position's key (u64), a move (u16,
//! [`encode_move`]), a weight (u16, the move's share among the position's moves) and a learn
//! field (u32, unused here and written as 0), sorted by key so that a reader finds a position
//! by binary search. Nothing here knows which game it serves: the game supplies the key and
//! the move encoding, and a book move is played only when it is a legal move of the position.
//!
//! - [`build`]: counting the moves of PGN games into a book (`book build`).
//! - [`options`]: the engine options `OwnBook`, `BookFile`, `BookDepth`, `BookVariety` and
//!   the choice of a book move before a search.

pub mod build;
pub mod error;
pub mod options;

pub use error::BookError;

use crate::board::{Move, MoveList};
use crate::game::Game;
use crate::rng::Rng;

/// Bytes of one book entry.
pub const ENTRY_BYTES: usize = 16;

/// The largest book file read (64 million entries).
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// One book entry: a move of the position with key `key`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    pub key: u64,
    /// The move in Polyglot's encoding ([`encode_move`], [`crate::game::OpeningBook::book_move`]).
    pub mv: u16,
    /// How often the move is to be chosen relative to the position's other moves; 0: never.
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    /// The entry's 16 bytes in the file.
    pub fn to_bytes(&self) -> [u8; ENTRY_BYTES] {
        let mut b = [0u8; ENTRY_BYTES];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.mv.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    /// The entry stored in `b`.
    pub fn from_bytes(b: &[u8; ENTRY_BYTES]) -> Entry {
        let [
            k0,
            k1,
            k2,
            k3,
            k4,
            k5,
            k6,
            k7,
            m0,
            m1,
            w0,
            w1,
            l0,
            l1,
            l2,
            l3,
        ] = *b;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            mv: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }
}

pub use crate::board::encode_move;

/// Coordinate text of an encoded move (`e2e4`, `e7e8q`), for messages and listings.
pub fn move_text(code: u16) -> String {
    let square = |s: u16| format!("{}", crate::board::Square((s & 63) as u8));
    let promotion = ["", "n", "b", "r", "q", "k", "?", "?"][(code >> 12 & 7) as usize];
    format!("{}{}{promotion}", square(code >> 6), square(code))
}

/// Whether the game `G` has opening books (its positions have a [`crate::game::OpeningBook::book_key`]).
pub fn supported<G: Game>() -> bool {
    G::startpos(G::variants()[0])
        .ok()
        .and_then(|p| p.book_key())
        .is_some()
}

pub use crate::board::zobrist::variant_key;

/// The number of plies played since the start of the game, from the position's FEN (its
/// move number and side to move); `None` when the FEN has no move number.
pub fn game_ply<G: Game>(pos: &G) -> Option<u32> {
    let fen = pos.fen();
    let fullmove: u32 = fen.split_whitespace().last()?.parse().ok()?;
    let black = pos.side_to_move() == crate::board::Color::Black;
    Some(2 * fullmove.saturating_sub(1) + u32::from(black))
}

/// A book: entries sorted by key (and, within a key, by falling weight).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// A book of `entries`, in any order.
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by(|a, b| {
            (a.key, std::cmp::Reverse(a.weight), a.mv).cmp(&(
                b.key,
                std::cmp::Reverse(b.weight),
                b.mv,
            ))
        });
        Book { entries }
    }

    /// Reads a book file's bytes (`name` names it in errors): a whole number of entries,
    /// sorted by key, at least one.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Book, BookError> {
        let name = name.to_string();
        if bytes.is_empty() {
            return Err(BookError::Empty { name });
        }
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            let bytes = bytes.len();
            return Err(BookError::Length { name, bytes });
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .map(|c| Entry::from_bytes(c.try_into().expect("a chunk of ENTRY_BYTES")))
            .collect();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(BookError::Unsorted { name, entry: i + 2 });
        }
        Ok(Book { entries })
    }

    /// Reads the book file at `path` (at most [`MAX_BOOK_BYTES`]).
    pub fn open(path: &str) -> Result<Book, BookError> {
        let bytes = crate::files::read(std::path::Path::new(path), MAX_BOOK_BYTES)?;
        Book::from_bytes(&bytes, path)
    }

    /// Every entry, sorted by key.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    /// Writes the book to `path`.
    pub fn save(&self, path: &str) -> Result<(), BookError> {
        Ok(crate::files::write_bytes(path, self.to_bytes())?)
    }

    /// The entries of the position with key `key`.
    pub fn lookup(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book's moves in `pos` that are legal there and have a weight, with their weights,
    /// heaviest first. Entries that are no legal move here (another game's book, a key
    /// collision) are left out.
    pub fn moves<G: Game>(&self, pos: &G) -> Vec<(Move, u16)> {
        let Some(key) = pos.book_key() else {
            return Vec::new();
        };
        let entries = self.lookup(key);
        if entries.is_empty() {
            return Vec::new();
        }
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        let mut found: Vec<(Move, u16)> = Vec::new();
        for e in entries.iter().filter(|e| e.weight > 0) {
            if let Some(&mv) = legal.iter().find(|&&mv| pos.book_move(mv) == e.mv)
                && !found.iter().any(|&(m, _)| m == mv)
            {
                found.push((mv, e.weight));
            }
        }
        found.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        found
    }
}

/// The most [`pick`]'s variety goes: at 100 a move's chance is proportional to its weight.
pub const MAX_VARIETY: u32 = 100;

/// Which of `weights` (all > 0) to play: at `variety` 0 the heaviest (the first of equals),
/// otherwise at random with chances proportional to `weight ^ (100 / variety)`, so that 100
/// follows the weights and lower values favour the heavy moves more.
pub fn pick(weights: &[u16], variety: u32, rng: &mut Rng) -> Option<usize> {
    let max = *weights.iter().max()?;
    if variety == 0 {
        return weights.iter().position(|&w| w == max);
    }
    let power = MAX_VARIETY as f64 / variety.min(MAX_VARIETY) as f64;
    let chances: Vec<f64> = weights
        .iter()
        .map(|&w| (w as f64 / max as f64).powf(power))
        .collect();
    let total: f64 = chances.iter().sum();
    let mut r = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (i, c) in chances.iter().enumerate() {
        if r < *c {
            return Some(i);
        }
        r -= c;
    }
    Some(weights.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::OpeningBook;
    use crate::games::chess::Chess;
    use crate::games::pawns::Pawns;

    fn start() -> Chess {
        Chess::startpos("chess").unwrap()
    }

    #[test]
    fn entries_round_trip_big_endian() {
        let e = Entry {
            key: 0x0102_0304_0506_0708,
            mv: 0x090a,
            weight: 0x0b0c,
            learn: 0x0d0e_0f10,
        };
        let b = e.to_bytes();
        assert_eq!(b, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
        assert_eq!(Entry::from_bytes(&b), e);
    }

    #[test]
    fn polyglot_start_key_and_moves() {
        // The start position's key and e2e4's code, as the format's description gives them.
        let pos = start();
        assert_eq!(pos.book_key(), Some(0x463b_9618_1691_fc9c));
        let e2e4 = pos.parse_move("e2e4").unwrap();
        assert_eq!(move_text(pos.book_move(e2e4)), "e2e4");
        assert_eq!(pos.book_move(e2e4), 28 | 12 << 6);
        let castle = Chess::from_fen("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for (uci, book) in [("e1g1", "e1h1"), ("e1c1", "e1a1")] {
            let mv = castle.parse_move(uci).unwrap();
            assert_eq!(move_text(castle.book_move(mv)), book);
        }
        let promote = Chess::from_fen("chess", "k7/4P3/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let mv = promote.parse_move("e7e8n").unwrap();
        assert_eq!(move_text(promote.book_move(mv)), "e7e8n");
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert!(
            Book::from_bytes(&[], "b")
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
        assert!(
            Book::from_bytes(&[0; 17], "b")
                .unwrap_err()
                .to_string()
                .contains("whole number")
        );
        let high = Entry {
            key: 9,
            mv: 1,
            weight: 1,
            learn: 0,
        };
        let low = Entry { key: 3, ..high };
        let mut bytes = high.to_bytes().to_vec();
        bytes.extend(low.to_bytes());
        assert!(
            Book::from_bytes(&bytes, "b")
                .unwrap_err()
                .to_string()
                .contains("sorted")
        );
        assert!(Book::open("/nonexistent/book.bin").is_err());
    }

    #[test]
    fn only_legal_weighted_moves_are_offered() {
        let pos = start();
        let key = pos.book_key().unwrap();
        let code = |t: &str| pos.book_move(pos.parse_move(t).unwrap());
        let entry = |mv: u16, weight: u16| Entry {
            key,
            mv,
            weight,
            learn: 0,
        };
        let book = Book::from_entries(vec![
            entry(code("d2d4"), 5),
            entry(code("e2e4"), 9),
            entry(code("g1f3"), 0),
            // e2e5 is no legal move.
            entry(12 << 6 | 36, 50),
            Entry {
                key: key ^ 1,
                ..entry(code("c2c4"), 7)
            },
        ]);
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes, "b").unwrap(), book);
        let texts: Vec<(String, u16)> = book
            .moves(&pos)
            .into_iter()
            .map(|(m, w)| (pos.move_text(m), w))
            .collect();
        assert_eq!(texts, vec![("e2e4".into(), 9), ("d2d4".into(), 5)]);
        assert_eq!(book.lookup(key ^ 2), &[]);
    }

    #[test]
    fn pick_follows_variety() {
        let mut rng = Rng::new(7);
        assert_eq!(pick(&[3, 9, 9, 1], 0, &mut rng), Some(1));
        assert_eq!(pick(&[], 50, &mut rng), None);
        let mut counts = [0u32; 2];
        for _ in 0..4000 {
            counts[pick(&[1, 3], MAX_VARIETY, &mut rng).unwrap()] += 1;
        }
        // Proportional: about 1000 and 3000.
        assert!((800..1200).contains(&counts[0]), "{counts:?}");
        let mut sharp = [0u32; 2];
        for _ in 0..4000 {
            sharp[pick(&[1, 3], 25, &mut rng).unwrap()] += 1;
        }
        // (1/3)^4 = 1/81: the light move about 49 times in 4000.
        assert!(sharp[0] < 150, "{sharp:?}");
    }

    #[test]
    fn variant_keys_keep_variants_apart() {
        let a = Pawns::startpos("pawns5").unwrap();
        let k = a.book_key().unwrap();
        assert_eq!(k, variant_key(a.hash(), "pawns5"));
        assert_ne!(variant_key(1, "pawns5"), variant_key(1, "pawns6"));
    }

    #[test]
    fn game_ply_counts_from_the_fen() {
        assert_eq!(game_ply(&start()), Some(0));
        let pos = Chess::from_fen("chess", "8/8/8/8/8/8/8/k1K5 b - - 3 12").unwrap();
        assert_eq!(game_ply(&pos), Some(23));
    }
}
