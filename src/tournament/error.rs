//! The typed errors of `kiebitz-match`'s command lines (the two-seat runner's [`super::cli`]
//! and the N-seat runner's [`super::nseat::cli`]): what is wrong with a flag, a key or a value,
//! each with the words the user reads after `kiebitz-match: `.
//!
//! Depends on nothing in the crate.

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

impl From<&str> for FlagError {
    fn from(sentence: &str) -> FlagError {
        FlagError::Refused(sentence.to_string())
    }
}
