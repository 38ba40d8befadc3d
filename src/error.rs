//! The library's typed error at its edges: what an embedding program gets back from reading a
//! position, a move, a PGN text, a proof file, a setting or a file. Each kind carries the
//! message the engines print (the same text as before the type existed), so a program can
//! match on the kind and a user still reads a sentence. Inside the crate, an [`Error`] turns
//! into that message wherever a plain `String` error is expected (`?` works both ways up).
//! A file's error is typed one level deeper ([`FileError`]: not found, not a regular file, too
//! big, damaged, unreadable). A command of the command line ends with a [`CliError`]: a
//! closed stdout (quiet) or a failure to report. Depends on nothing of the crate.

/// What went wrong, by kind, with the message for a person.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A variant name the game does not know (for an N-seat game: a player count it is not for).
    #[error("{0}")]
    Variant(String),
    /// A position text (FEN or the game's own) that cannot be read or is not a legal position.
    #[error("{0}")]
    Position(String),
    /// A move text that is not a legal move of the position.
    #[error("{0}")]
    Move(String),
    /// A PGN text that cannot be read.
    #[error("{0}")]
    Pgn(String),
    /// A proof file that cannot be read or does not prove what it claims.
    #[error("{0}")]
    Proof(String),
    /// A setting (search parameter, option value) that is unknown or out of range.
    #[error("{0}")]
    Setting(String),
    /// A file that cannot be read, is not a regular file, is too large or is damaged.
    #[error(transparent)]
    File(#[from] FileError),
}

/// An [`Error::Position`] of a formatted sentence: `position_error!("{n} ranks")`.
macro_rules! position_error {
    ($($arg:tt)*) => {
        $crate::error::Error::Position(format!($($arg)*))
    };
}
pub(crate) use position_error;

/// An [`Error::Move`] of a formatted sentence: `move_error!("'{text}' is not a move")`.
macro_rules! move_error {
    ($($arg:tt)*) => {
        $crate::error::Error::Move(format!($($arg)*))
    };
}
pub(crate) use move_error;

/// An [`Error::Setting`] of a formatted sentence: `setting_error!("unknown parameter '{n}'")`.
macro_rules! setting_error {
    ($($arg:tt)*) => {
        $crate::error::Error::Setting(format!($($arg)*))
    };
}
pub(crate) use setting_error;

/// The sentence of a typed error where a plain `String` is expected (an option handler, a
/// message to a person), and as the command line's [`CliError::Failed`]:
/// `sentence_error!(BookError);` — or `sentence_error!(BookError, string only)` without the
/// second.
macro_rules! sentence_error {
    ($t:ty) => {
        $crate::error::sentence_error!($t, string only);
        impl From<$t> for $crate::error::CliError {
            fn from(e: $t) -> $crate::error::CliError {
                $crate::error::CliError::Failed(e.to_string())
            }
        }
    };
    ($t:ty, string only) => {
        impl From<$t> for String {
            fn from(e: $t) -> String {
                e.to_string()
            }
        }
    };
}
pub(crate) use sentence_error;

/// Why a file (or pipe) could not be read, by kind; `path` is the name the user gave.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// Nothing at the path; `reason` is the system's sentence.
    #[error("cannot read {path}: {reason}")]
    NotFound { path: String, reason: String },
    /// A folder, device, FIFO or socket where a regular file is expected (`what` says which).
    #[error("cannot read {path}: not a regular file ({what})")]
    NotRegular { path: String, what: &'static str },
    /// More than `limit` bytes: refused without reading on (a device, an endless pipe).
    #[error(
        "{path} is larger than {}, the most read from it: refused (is it a device or an endless pipe?)",
        size_text(*.limit)
    )]
    TooBig { path: String, limit: u64 },
    /// Contents that are not what the file must hold (`reason`: not UTF-8 text, …).
    #[error("cannot read {path}: {reason}")]
    Damaged { path: String, reason: String },
    /// Any other failure to open or read it (permissions, an I/O error).
    #[error("cannot read {path}: {reason}")]
    Unreadable { path: String, reason: String },
    /// A file that could not be written whole (`reason`: the system's).
    #[error("cannot write {path}: {reason}")]
    Unwritable { path: String, reason: String },
}

impl FileError {
    /// The error of an I/O failure on `path`: [`FileError::NotFound`] when nothing is there,
    /// else [`FileError::Unreadable`].
    pub fn io(path: &str, e: &std::io::Error) -> FileError {
        let (path, reason) = (path.to_string(), e.to_string());
        if e.kind() == std::io::ErrorKind::NotFound {
            FileError::NotFound { path, reason }
        } else {
            FileError::Unreadable { path, reason }
        }
    }
}

/// The message, where a plain `String` error is expected.
impl From<FileError> for String {
    fn from(e: FileError) -> String {
        e.to_string()
    }
}

/// A byte count for messages: `67108864 bytes (64 MiB)`.
pub(crate) fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{bytes} bytes ({} MiB)", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

impl Error {
    /// The kind's name, as a program might log it (`variant`, `position`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Variant(_) => "variant",
            Error::Position(_) => "position",
            Error::Move(_) => "move",
            Error::Pgn(_) => "pgn",
            Error::Proof(_) => "proof",
            Error::Setting(_) => "setting",
            Error::File(_) => "file",
        }
    }
}

/// The message, for the crate's functions that report errors as text.
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}

/// How a command of the command line ends early: its reader closed stdout (`| head`: end
/// quietly, exit code 0), or a failure for the person at the terminal (the sentence printed
/// after `error:`, exit code non-zero). `limits::out` returns it; `limits::exit_code` turns it
/// into the exit code. Before, a closed stdout was the empty `String`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CliError {
    /// Stdout is closed: its reader has gone, nothing more to say.
    #[error("stdout is closed")]
    Closed,
    /// The command failed: why, in a sentence.
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    /// The sentence for the person, `None` for a closed stdout (nothing to say).
    pub fn message(&self) -> Option<&str> {
        match self {
            CliError::Closed => None,
            CliError::Failed(m) => Some(m),
        }
    }
}

impl From<String> for CliError {
    fn from(m: String) -> CliError {
        CliError::Failed(m)
    }
}

impl From<&str> for CliError {
    fn from(m: &str) -> CliError {
        CliError::Failed(m.to_string())
    }
}

impl From<Error> for CliError {
    fn from(e: Error) -> CliError {
        CliError::Failed(e.to_string())
    }
}

impl From<FileError> for CliError {
    fn from(e: FileError) -> CliError {
        CliError::Failed(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_shows_its_message_and_names_its_kind() {
        let e = Error::Move("e2e5 is not a legal move here".into());
        assert_eq!(e.to_string(), "e2e5 is not a legal move here");
        assert_eq!(e.kind(), "move");
        let text: String = e.into();
        assert_eq!(text, "e2e5 is not a legal move here");
    }

    /// The library's edges say which kind of input was wrong.
    #[test]
    fn the_edges_return_typed_errors() {
        use crate::game::Game;
        use crate::games::chess::Chess;
        use crate::games::pawns::Pawns;
        use crate::search::SearchParams;
        let kind = |e: Error| e.kind();
        assert_eq!(kind(Chess::startpos("xiangqi").unwrap_err()), "variant");
        assert_eq!(kind(Pawns::startpos("pawns9").unwrap_err()), "variant");
        assert_eq!(
            kind(Chess::from_fen("chess", "8/8 w").unwrap_err()),
            "position"
        );
        let start = Chess::startpos("chess").unwrap();
        assert_eq!(kind(start.parse_move("e2e5").unwrap_err()), "move");
        assert_eq!(kind(crate::san::read(&start, "Ke2").unwrap_err()), "move");
        assert_eq!(
            kind(crate::game::start_position::<Chess>(Some("shogi"), None).unwrap_err()),
            "variant"
        );
        assert_eq!(
            kind(crate::game::start_position::<Chess>(None, Some("x")).unwrap_err()),
            "position"
        );
        assert_eq!(
            kind(crate::pgn::parse("[Event \"x\"]\n1. e4").unwrap_err()),
            "pgn"
        );
        assert_eq!(
            kind(crate::solve::proof::Proof::parse("nonsense").unwrap_err()),
            "proof"
        );
        assert_eq!(
            kind(SearchParams::FULL.with_overrides("bogus=1").unwrap_err()),
            "setting"
        );
        assert_eq!(
            kind(crate::files::read_input("/no/such", 1).unwrap_err().into()),
            "file"
        );
        assert_eq!(
            kind(crate::board::fen::Fen::parse("9/8 w").unwrap_err()),
            "position"
        );
        assert_eq!(kind(Chess::parse_fen("8/8/8 w").unwrap_err()), "position");
        assert_eq!(
            kind(crate::games::antichess::Antichess::read_fen("4k3/8 w").unwrap_err()),
            "position"
        );
        assert_eq!(
            kind(crate::games::pawns::parse_variant("pawns9").unwrap_err()),
            "variant"
        );
        let seats = <crate::games::chamaeleon::Chamaeleon as crate::ngame::NGame>::startpos(2);
        assert_eq!(
            kind(crate::games::chamaeleon::rules::parse_move(&seats.unwrap(), "z9").unwrap_err()),
            "move"
        );
        let weights = crate::games::raeuber::eval::WEIGHTS;
        assert_eq!(
            kind(weights.with_overrides("bogus=1").unwrap_err()),
            "setting"
        );
    }

    /// A file's error says which way the file failed, in the sentence users have read.
    #[test]
    fn a_file_error_says_how_the_file_failed() {
        use crate::files::{read, read_input, read_input_text};
        let file = |e: FileError| e;
        let missing = file(read_input("/no/such", 1).unwrap_err());
        assert!(matches!(&missing, FileError::NotFound { path, .. } if path == "/no/such"));
        assert!(missing.to_string().starts_with("cannot read /no/such: "));
        let folder = file(read(std::path::Path::new("/"), 1).unwrap_err());
        assert_eq!(
            folder,
            FileError::NotRegular {
                path: "/".into(),
                what: "a folder"
            }
        );
        assert_eq!(
            folder.to_string(),
            "cannot read /: not a regular file (a folder)"
        );
        let endless = file(read_input("/dev/zero", 1000).unwrap_err());
        assert_eq!(
            endless,
            FileError::TooBig {
                path: "/dev/zero".into(),
                limit: 1000
            }
        );
        let dir = std::env::temp_dir().join(format!("kiebitz-error-{}", std::process::id()));
        std::fs::write(&dir, [0xff, 0xfe]).unwrap();
        let path = dir.to_string_lossy().to_string();
        let damaged = file(read_input_text(&path, 10).unwrap_err());
        std::fs::remove_file(&dir).unwrap();
        assert!(matches!(damaged, FileError::Damaged { .. }), "{damaged:?}");
        assert!(damaged.to_string().contains("not UTF-8 text"));
    }
}
