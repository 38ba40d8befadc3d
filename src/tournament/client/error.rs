//! The typed error of starting and preparing an engine: what went wrong with its process or
//! its handshake, with the engine's name and what was awaited. Its `Display` is the sentence
//! the runner has always logged or put in a game's termination.

use super::Fault;
use std::time::Duration;

/// Why an engine could not be started, or could not be told a game begins.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started (`reason`: the system's, or `no pipes`).
    #[error("cannot start engine '{program}': {reason}")]
    Spawn { program: String, reason: String },
    /// A line could not be sent (the engine went away): the fault as logged.
    #[error("{0:?}")]
    Send(Fault),
    /// The engine did not send `what` within `timeout`.
    #[error("engine '{label}' did not send {what} within {} s", .timeout.as_secs_f64())]
    Timeout {
        label: String,
        what: String,
        timeout: Duration,
    },
    /// The engine's output closed before it sent `what` (`why`: how it ended).
    #[error("engine '{label}' stopped before sending {what}: {why}")]
    Stopped {
        label: String,
        what: String,
        why: String,
    },
    /// The engine's output closed during the XBoard handshake.
    #[error("engine '{label}' stopped during the handshake: {why}")]
    HandshakeStopped { label: String, why: String },
    /// An XBoard engine without `setboard`, for a game from the position `fen`.
    #[error("engine '{label}' does not support setboard, needed for the opening {fen}")]
    NoSetboard { label: String, fen: String },
    /// An N-seat engine exited while being set up.
    #[error("the engine exited")]
    Exited,
    /// An N-seat engine did not answer in time while being set up.
    #[error("no answer in time")]
    NoAnswer,
    /// An N-seat engine answered its set-up with an `info string error` line (the line).
    #[error("{0}")]
    ErrorLine(String),
    /// An N-seat engine `name` that could not be started.
    #[error("{name}: {error}")]
    Named {
        name: String,
        error: Box<EngineError>,
    },
}

impl EngineError {
    /// The N-seat words of a fault during the set-up.
    pub fn nseat(fault: Fault) -> EngineError {
        match fault {
            Fault::Crashed(_) => EngineError::Exited,
            Fault::Stalled(_) => EngineError::NoAnswer,
        }
    }
}

crate::error::sentence_error!(EngineError, string only);
