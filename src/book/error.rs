//! The typed error of the opening books: a file that is not a Polyglot book, a book that
//! cannot be built or written. Its `Display` is the sentence the engines and `book` have
//! always shown.

use super::ENTRY_BYTES;

/// Why a book was not read, built or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The file (`name`) holds no byte.
    #[error("{name} is empty: not a book")]
    Empty { name: String },
    /// A length that is not a whole number of entries.
    #[error(
        "{name} is not a Polyglot book: its {bytes} bytes are not a whole number of \
         {ENTRY_BYTES}-byte entries"
    )]
    Length { name: String, bytes: usize },
    /// Entries out of key order (`entry` comes after a larger key, counted from 1).
    #[error(
        "{name} is not a Polyglot book: its entries are not sorted by key (entry {entry} comes \
         after a larger key)"
    )]
    Unsorted { name: String, entry: usize },
    /// The file cannot be read or written.
    #[error(transparent)]
    File(#[from] crate::FileError),
    /// The engine of `game` has no books.
    #[error("kiebitz-{game} has no opening books")]
    NoBooks { game: &'static str },
    /// No move is left for the book after the counts (`counted` games, `pairs` moves).
    #[error(
        "no move left for the book: {counted} games counted, {pairs} different moves, none \
         played in {min_games} or more games with a point won (try a smaller --min-games)"
    )]
    NoMove {
        counted: usize,
        pairs: usize,
        min_games: u32,
    },
    /// The option `option` (`BookFile`) named a book that cannot be read: the engine plays
    /// without one.
    #[error("{option}: {error}; playing without a book")]
    Dropped {
        option: &'static str,
        error: Box<BookError>,
    },
}

crate::error::sentence_error!(BookError);
