//! The book as engine options, for the protocols: `OwnBook` (play book moves), `BookFile`
//! (the Polyglot `.bin` file, read when set), `BookDepth` (the last ply of the game, counted
//! from its start, at which the book is asked) and `BookVariety` (0: always the heaviest
//! move; up to 100: a weighted random choice, 100 following the weights).
//!
//! They exist only for games with books ([`super::supported`]). A file that cannot be read is
//! reported and the engine plays on without a book. [`BookOptions::probe_go`] is asked before
//! a search: it answers with a legal book move (and the `info string` text saying so) or
//! `None`, and the search runs as without a book.

use std::sync::Arc;

use super::{Book, BookError, MAX_VARIETY, game_ply, pick};
use crate::board::Move;
use crate::game::Game;
use crate::rng::Rng;
use crate::search::Limits;

pub const OWN_BOOK: &str = "OwnBook";
pub const BOOK_FILE: &str = "BookFile";
pub const BOOK_DEPTH: &str = "BookDepth";
pub const BOOK_VARIETY: &str = "BookVariety";

/// `BookDepth`'s default and largest value.
pub const DEFAULT_DEPTH: u32 = 255;
pub const MAX_DEPTH: u32 = 1000;
/// `BookFile`'s value for no file, as GUIs show an empty string option.
pub const NO_FILE: &str = "<empty>";

/// The book options of one session and the book they name.
#[derive(Clone, Debug)]
pub struct BookOptions {
    own_book: bool,
    depth: u32,
    variety: u32,
    /// The file `BookFile` names and its book, when it could be read.
    book: Option<(String, Arc<Book>)>,
    rng: Rng,
}

impl Default for BookOptions {
    fn default() -> Self {
        BookOptions::with_seed(Rng::from_time().next_u64())
    }
}

impl BookOptions {
    /// Options at their defaults, the random choices drawn from `seed`.
    pub fn with_seed(seed: u64) -> BookOptions {
        BookOptions {
            own_book: false,
            depth: DEFAULT_DEPTH,
            variety: 0,
            book: None,
            rng: Rng::new(seed),
        }
    }

    /// `OwnBook`: whether book moves are played.
    pub fn set_own_book(&mut self, on: bool) {
        self.own_book = on;
    }

    /// `BookDepth`: the last ply, counted from the game's start, at which the book is asked.
    pub fn set_depth(&mut self, depth: u32) {
        self.depth = depth;
    }

    /// `BookVariety` (0 to [`MAX_VARIETY`]).
    pub fn set_variety(&mut self, variety: u32) {
        self.variety = variety.min(MAX_VARIETY);
    }

    /// `BookFile`: reads the book in `file` ("" or [`NO_FILE`]: no book). A file that cannot
    /// be read leaves no book and says so.
    pub fn set_file(&mut self, file: &str) -> Result<(), BookError> {
        self.book = None;
        if !file.is_empty() && file != NO_FILE {
            let book = Book::open(file).map_err(|e| BookError::Dropped {
                option: BOOK_FILE,
                error: Box::new(e),
            })?;
            self.book = Some((file.to_string(), Arc::new(book)));
        }
        Ok(())
    }

    /// The book move to play in `pos` instead of a search with `limits`, with the text of the
    /// `info string` that announces it: only with `OwnBook` on, a book read, within
    /// `BookDepth`, for a search that is to play a move (not `go infinite`, `ponder`,
    /// `searchmoves` or `mate`), and only a legal move of the book.
    pub fn probe_go<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        ponder: bool,
    ) -> Option<(Move, String)> {
        if ponder || limits.infinite || limits.mate.is_some() || !limits.searchmoves.is_empty() {
            return None;
        }
        self.probe(pos)
    }

    /// [`Self::probe_go`] without a search to replace.
    pub fn probe<G: Game>(&mut self, pos: &G) -> Option<(Move, String)> {
        if !self.own_book {
            return None;
        }
        let (file, book) = self.book.as_ref()?;
        if game_ply(pos).unwrap_or(0) >= self.depth {
            return None;
        }
        let moves = book.moves(pos);
        let weights: Vec<u16> = moves.iter().map(|&(_, w)| w).collect();
        let i = pick(&weights, self.variety, &mut self.rng)?;
        let (mv, weight) = moves[i];
        let total: u64 = weights.iter().map(|&w| w as u64).sum();
        let text = format!(
            "book move {} weight {weight} of {total} ({} book moves, {file})",
            pos.move_text(mv),
            moves.len()
        );
        Some((mv, text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Entry;
    use crate::game::OpeningBook;
    use crate::games::chess::Chess;

    fn book_file(name: &str, entries: Vec<Entry>) -> String {
        let path = std::env::temp_dir().join(format!("kiebitz-{}-{name}.bin", std::process::id()));
        let path = path.display().to_string();
        Book::from_entries(entries).save(&path).unwrap();
        path
    }

    #[test]
    fn plays_from_the_book_only_when_asked_and_legal() {
        let pos = Chess::startpos("chess").unwrap();
        let key = pos.book_key().unwrap();
        let d4 = pos.book_move(pos.parse_move("d2d4").unwrap());
        let path = book_file(
            "probe",
            vec![
                Entry {
                    key,
                    mv: d4,
                    weight: 3,
                    learn: 0,
                },
                // e2e5: not a legal move.
                Entry {
                    key,
                    mv: 12 << 6 | 36,
                    weight: 90,
                    learn: 0,
                },
            ],
        );
        let mut o = BookOptions::with_seed(1);
        let limits = Limits::default();
        o.set_file(&path).unwrap();
        assert_eq!(o.probe_go(&pos, &limits, false), None, "OwnBook is off");
        o.set_own_book(true);
        let (mv, text) = o.probe_go(&pos, &limits, false).unwrap();
        assert_eq!(pos.move_text(mv), "d2d4");
        assert!(text.starts_with("book move d2d4 weight 3 of 3"), "{text}");
        assert_eq!(o.probe_go(&pos, &limits, true), None, "ponder");
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(o.probe_go(&pos, &infinite, false), None);
        let after = pos.play(mv);
        assert_eq!(o.probe(&after), None, "not in the book");
        o.set_depth(0);
        assert_eq!(o.probe(&pos), None, "beyond BookDepth");
        o.set_depth(1);
        assert!(o.probe(&pos).is_some());
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_bad_file_leaves_no_book() {
        let pos = Chess::startpos("chess").unwrap();
        let mut o = BookOptions::with_seed(1);
        o.set_own_book(true);
        let path = book_file(
            "good",
            vec![Entry {
                key: pos.book_key().unwrap(),
                mv: pos.book_move(pos.parse_move("e2e4").unwrap()),
                weight: 1,
                learn: 0,
            }],
        );
        o.set_file(&path).unwrap();
        assert!(o.probe(&pos).is_some());
        let err = o.set_file("/nonexistent.bin").unwrap_err().to_string();
        assert!(err.contains("playing without a book"), "{err}");
        assert_eq!(o.probe(&pos), None);
        o.set_file(&path).unwrap();
        o.set_file(NO_FILE).unwrap();
        assert_eq!(o.probe(&pos), None);
        let _ = std::fs::remove_file(&path);
    }
}
