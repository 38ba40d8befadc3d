//! The protocol's typed errors: why a `go`, `setoption` or `position` line was refused, by
//! kind, with the data a dialect needs to word it. Each type's `Display` is the UCI sentence
//! (the words users have always read); a dialect that words a kind otherwise (XBoard's bare
//! `unknown option`, the N-seat dialect's `unknown go parameter`) matches on the variant. A
//! command's error ([`CommandError`]) takes any of them with `?` (`#[from]`), and a handler's
//! refusal whose message is all there is to say stays a sentence ([`CommandError::Refused`]).
//! Position, move and file errors of the library come as [`crate::Error`] inside them.
//! XBoard's commands fail with [`XboardError`], whose `Display` is the short reason of its
//! `Error (…)` reply.

use crate::Error;
use crate::engine_option::ValueError;
use crate::table_error::TableError;
use crate::text::shorten;

/// Why a `go` line was refused (or, for [`GoError::IgnoredMove`], what was left out of it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// A word that is no `go` parameter of the dialect.
    #[error("go: unknown parameter '{}'", shorten(.0))]
    UnknownToken(String),
    /// A parameter that takes a number came last.
    #[error("go {0} needs a number")]
    MissingValue(String),
    /// A parameter's value that is not a whole number.
    #[error("go {what}: '{}' is not a number", shorten(.text))]
    BadNumber { what: String, text: String },
    /// A number outside what the parameter takes (`go perft 99`).
    #[error("go {what}: depth {value} out of range {min}..{max}")]
    OutOfRange {
        what: String,
        value: i64,
        min: i64,
        max: i64,
    },
    /// A `searchmoves` move that is not legal here: dropped, the search goes on.
    #[error("go searchmoves: '{}' ignored ({source})", shorten(.text))]
    IgnoredMove { text: String, source: Error },
}

/// Why a `setoption` (`option NAME=VALUE`) changed nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetOptionError {
    /// The line is not `setoption name NAME [value VALUE]`.
    #[error("expected 'setoption name NAME [value VALUE]'")]
    Syntax,
    /// No option of that name in this dialect and game.
    #[error("unknown option '{}'", shorten(.0))]
    Unknown(String),
    /// A value that does not fit the option's kind.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// The game's endgame tables or tablebases refused the value (`Endgame Tables`,
    /// `SyzygyPath`).
    #[error(transparent)]
    Tables(#[from] TableError),
    /// `BookFile` named a book that cannot be read (the session plays without one).
    #[error(transparent)]
    Book(#[from] crate::book::BookError),
    /// A file or folder this server's clients may not name (`option` the option, `shown` the
    /// value as sent, shortened; `why` says what is in the way).
    #[error("{option} '{shown}' refused: {why}")]
    Confined {
        option: String,
        shown: String,
        why: String,
    },
    /// A variant the game does not have (`UCI_Variant`).
    #[error("unknown variant '{0}'")]
    UnknownVariant(String),
    /// The game has no variants to choose (an N-seat session).
    #[error("this game has no variants to choose")]
    NoVariants,
    /// The chosen variant's start position could not be set up.
    #[error(transparent)]
    Start(#[from] Error),
    /// The option's handler refused the value (a game option's value, an algorithm): its sentence is the whole content.
    #[error("{0}")]
    Refused(String),
}

/// A handler's refusal whose sentence is the whole content.
impl From<String> for SetOptionError {
    fn from(sentence: String) -> SetOptionError {
        SetOptionError::Refused(sentence)
    }
}

impl SetOptionError {
    /// The sentence XBoard shows in `Error (…)`: its options are named on the echoed line, so
    /// an unknown one is just `unknown option`.
    pub fn xboard_text(&self) -> String {
        match self {
            SetOptionError::Unknown(_) => "unknown option".to_string(),
            other => other.to_string(),
        }
    }
}

/// Why a `position` line set nothing (or, for [`PositionError::Move`], stopped early).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Neither `startpos` nor `fen` follows `position`; holds the line.
    #[error("position needs 'startpos' or 'fen FEN', got '{}'", shorten(.0))]
    Syntax(String),
    /// Words after `startpos` that are not `moves …` (UCI) or `players N` (N-seat); holds
    /// the line (UCI) or the words (N-seat).
    #[error("position: unexpected text after startpos in '{}'", shorten(.0))]
    AfterStartpos(String),
    /// The N-seat `players N` with a count that is not a number.
    #[error("bad player count '{}'", shorten(.0))]
    PlayerCount(String),
    /// The game has no start position of the session's variant (or player count).
    #[error("{0}")]
    Start(Error),
    /// A position text that the game cannot read.
    #[error("bad FEN '{}': {source}", shorten(.fen))]
    Fen { fen: String, source: Error },
    /// A move of the list that is not legal: the moves before it (`played`) stand.
    #[error(
        "illegal move '{}' after {played} legal moves ({source}); position set before it",
        shorten(.text)
    )]
    Move {
        text: String,
        played: usize,
        source: Error,
    },
}

/// Why an XBoard command was refused: the `ERRORTYPE` of its `Error (ERRORTYPE): COMMAND`
/// reply. XBoard shows the words to its user and echoes the command, so they stay short and
/// name no argument; the variants keep what a caller needs to tell them apart.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XboardError {
    /// A word that is neither an XBoard command nor a move.
    #[error("unknown command")]
    UnknownCommand(String),
    /// Words after a command that takes none; holds the command.
    #[error("unexpected argument")]
    UnexpectedArgument(String),
    /// An argument that is not the command's (`level forty`, `sd x`, `memory -1`); holds the
    /// command.
    #[error("bad argument")]
    BadArgument(String),
    /// `setboard` with no position after it.
    #[error("setboard needs a FEN")]
    MissingFen,
    /// `option` with nothing after it.
    #[error("option needs NAME=VALUE")]
    OptionSyntax,
    /// A `time` or `otim` over the longest clock the engine keeps (a year).
    #[error("clock above {max} centiseconds")]
    ClockTooLarge { max: i64 },
    /// A `variant` the game does not have (as XBoard names it).
    #[error("unknown variant")]
    UnknownVariant(String),
    /// A `setboard` position the game cannot read.
    #[error("bad FEN: {0}")]
    Fen(Error),
    /// `undo` or `remove` with fewer moves played than it takes back.
    #[error("no moves to take back")]
    NothingToTakeBack,
    /// `option NAME=VALUE`, `memory` or `cores` changed nothing; XBoard's words for it.
    #[error("{}", .0.xboard_text())]
    SetOption(#[from] SetOptionError),
}

/// Why a command was refused: one of the typed parse errors, or a sentence for a refusal that
/// has nothing more to it (`the game is over: there is nothing to search`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error(transparent)]
    Go(#[from] GoError),
    #[error(transparent)]
    SetOption(#[from] SetOptionError),
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A command the dialect does not know; holds the command word.
    #[error("unknown command '{}'", shorten(.0))]
    Unknown(String),
    /// Any other refusal, as the sentence the user reads.
    #[error("{0}")]
    Refused(String),
}

impl From<String> for CommandError {
    fn from(text: String) -> CommandError {
        CommandError::Refused(text)
    }
}

impl From<&str> for CommandError {
    fn from(text: &str) -> CommandError {
        CommandError::Refused(text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_reads_as_the_sentence_users_know() {
        let go = GoError::BadNumber {
            what: "depth".into(),
            text: "x".into(),
        };
        assert_eq!(go.to_string(), "go depth: 'x' is not a number");
        let perft = GoError::OutOfRange {
            what: "perft".into(),
            value: 31,
            min: 0,
            max: 30,
        };
        assert_eq!(perft.to_string(), "go perft: depth 31 out of range 0..30");
        let unknown = SetOptionError::Unknown("Frob".into());
        assert_eq!(unknown.to_string(), "unknown option 'Frob'");
        assert_eq!(unknown.xboard_text(), "unknown option");
        let fen = PositionError::Fen {
            fen: "8/8".into(),
            source: Error::Position("too few ranks".into()),
        };
        assert_eq!(fen.to_string(), "bad FEN '8/8': too few ranks");
    }

    /// XBoard's words for each kind, as `Error (…)` has always shown them.
    #[test]
    fn xboard_errors_read_as_xboard_shows_them() {
        let cases = [
            (
                XboardError::UnknownCommand("frob".into()),
                "unknown command",
            ),
            (XboardError::BadArgument("level".into()), "bad argument"),
            (
                XboardError::ClockTooLarge { max: 5 },
                "clock above 5 centiseconds",
            ),
            (
                XboardError::Fen(Error::Position("too few ranks".into())),
                "bad FEN: too few ranks",
            ),
            (
                SetOptionError::Unknown("Frob".into()).into(),
                "unknown option",
            ),
        ];
        for (error, text) in cases {
            assert_eq!(error.to_string(), text);
        }
    }

    /// `?` keeps the kind: a command error made from a `go` error is still one.
    #[test]
    fn a_command_error_keeps_the_kind_it_came_from() {
        fn go() -> Result<(), CommandError> {
            Err(GoError::MissingValue("depth".into()))?
        }
        fn value() -> Result<(), ValueError> {
            Err(ValueError::NotABool {
                name: "Ponder".into(),
            })
        }
        fn setoption() -> Result<(), SetOptionError> {
            value()?;
            Ok(())
        }
        fn set() -> Result<(), CommandError> {
            setoption()?;
            Ok(())
        }
        assert!(matches!(
            go(),
            Err(CommandError::Go(GoError::MissingValue(w))) if w == "depth"
        ));
        assert!(matches!(
            set(),
            Err(CommandError::SetOption(SetOptionError::Value(
                ValueError::NotABool { .. }
            )))
        ));
        assert_eq!(go().unwrap_err().to_string(), "go depth needs a number");
    }
}
