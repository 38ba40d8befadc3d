//! The typed errors of `kiebitz-match`'s command lines (the two-seat runner's [`super::cli`]
//! and the N-seat runner's [`super::nseat::cli`]): what is wrong with a flag, a key or a value,
//! each with the words the user reads after `kiebitz-match: `.
//!
//! [`MatchError`]: why a match or a tournament did not start or stopped early. Depends on
//! the engine clients' and the report's errors and on `limits::BoundError`.

/// Why a `kiebitz-match` command line is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    /// A flag neither runner knows.
    #[error("unknown option {0} (see --help)")]
    UnknownFlag(String),
    /// A word where a flag was expected.
    #[error("unexpected argument '{0}' (options start with --)")]
    NotAFlag(String),
    /// A flag or key given without its value.
    #[error("{what} needs a value")]
    MissingValue { what: String },
    /// A value that does not read as a number.
    #[error("{what} needs a number, got '{value}'")]
    NotANumber { what: String, value: String },
    /// A value that does not read as seconds.
    #[error("{what} needs seconds, got '{value}'")]
    NotSeconds { what: String, value: String },
    /// A value outside the ones a flag or key takes (`expected` says which).
    #[error("{what} must be {expected}, got '{value}'")]
    Invalid {
        what: String,
        expected: &'static str,
        value: String,
    },
    /// A word of a `key=value` flag without `=`.
    #[error("{flag}: expected key=value, got '{word}'")]
    NotKeyValue { flag: String, word: String },
    /// A key the flag does not have (`known` lists those it has).
    #[error("{flag}: unknown key '{key}' (known: {known})")]
    UnknownKey {
        flag: String,
        key: String,
        known: &'static str,
    },
    /// A key `--engine` and `--each` do not have.
    #[error(
        "unknown engine key '{0}' (known: cmd name proto args dir option.NAME tc st movetime depth nodes timemargin variant ponder)"
    )]
    UnknownEngineKey(String),
    /// A flag that takes one value given none or several.
    #[error("{flag} takes one value, got {count}")]
    NotOneValue { flag: String, count: usize },
    /// A flag that takes no value given some.
    #[error("{flag} takes no value, got '{words}'")]
    NoValue { flag: String, words: String },
    /// What is wrong with the keys of the `engine`-th `--engine` (from 1).
    #[error("engine {engine}: {error}")]
    Engine {
        engine: usize,
        error: Box<FlagError>,
    },
    /// What is wrong with the keys of `--each`.
    #[error("--each: {0}")]
    Each(Box<FlagError>),
    /// A refusal whose sentence is all there is to say: a missing setting, settings that do
    /// not go together, a bound (a time control, a duration, an SPRT's bounds).
    #[error("{0}")]
    Refused(String),
}

impl From<String> for FlagError {
    fn from(sentence: String) -> FlagError {
        FlagError::Refused(sentence)
    }
}

/// A bound of the command line (a duration, a number), as the sentence it reads.
impl From<crate::limits::BoundError> for FlagError {
    fn from(e: crate::limits::BoundError) -> FlagError {
        FlagError::Refused(e.to_string())
    }
}

impl From<&str> for FlagError {
    fn from(sentence: &str) -> FlagError {
        FlagError::Refused(sentence.to_string())
    }
}

/// Why a match or a tournament did not start or stopped early: an engine, the report, the
/// variant, a file the runner writes. Its `Display` is the sentence printed after
/// `kiebitz-match: `.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MatchError {
    /// An engine could not be started.
    #[error(transparent)]
    Engine(#[from] super::client::EngineError),
    /// The report could not be made or written.
    #[error(transparent)]
    Report(#[from] super::html::ReportError),
    /// A start position the game does not have (an N-seat player count).
    #[error(transparent)]
    Start(#[from] crate::Error),
    /// The match's variant is not one of the game's (`variants`: those it has).
    #[error("{error} (variants of {game}: {variants})")]
    Variant {
        error: crate::Error,
        game: &'static str,
        variants: String,
    },
    /// An engine that does not announce the match's variant (`offers`: those it does).
    #[error(
        "engine '{engine}' does not announce variant '{variant}' (it offers: {offers}); not \
         starting"
    )]
    NotAnnounced {
        engine: String,
        variant: String,
        offers: String,
    },
    /// A UCI engine without the option the variant needs.
    #[error("engine '{engine}' has no option {option}, needed for {variant}; not starting")]
    NoOption {
        engine: String,
        option: &'static str,
        variant: &'static str,
    },
    /// The `-log` file cannot be opened (`reason`: the system's).
    #[error("-log: cannot open {path}: {reason}")]
    Log { path: String, reason: String },
    /// An output file (`what`: `PGN file`, `EPD file`) that cannot be opened or made.
    #[error("cannot {action} {what} {path}: {reason}")]
    File {
        action: &'static str,
        what: String,
        path: String,
        reason: String,
    },
    /// A game's record that cannot be written (`what`: `PGN file`, `EPD file`).
    #[error("cannot write the {what}: {reason}")]
    Record { what: &'static str, reason: String },
    /// More games than the N-seat runner plays.
    #[error("--rounds {rounds} × {seatings} seatings is more than {most} games")]
    TooManyGames {
        rounds: usize,
        seatings: usize,
        most: usize,
    },
    /// The N-seat PGN stopped being written after `played` games (from game `game` on).
    #[error(
        "cannot write the PGN {path}: {reason}; stopped after {played} games, the records from \
         game {game} on are missing"
    )]
    PgnStopped {
        path: String,
        reason: String,
        played: usize,
        game: usize,
    },
    /// A refusal whose sentence is the whole content (an opening, a worker's failure).
    #[error("{0}")]
    Refused(String),
}

impl From<String> for MatchError {
    fn from(sentence: String) -> MatchError {
        MatchError::Refused(sentence)
    }
}

crate::error::sentence_error!(MatchError);
