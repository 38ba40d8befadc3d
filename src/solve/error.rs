//! The typed error of the solvers' runs (df-pn, the win/draw/loss solver): memory refused, a
//! checkpoint that cannot be used, a certificate that cannot be collected. Its `Display` is the
//! sentence `solve` and the protocols have always shown.

use super::checkpoint::CheckpointError;
use super::proof::ProofError;

/// Why a solver's run did not start or did not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The system refused the table of `mib` MiB (`--hash` `hash`).
    #[error(
        "cannot allocate the solver's table of {mib} MiB (--hash {hash}): not enough memory; try \
         a smaller --hash"
    )]
    Table { mib: usize, hash: usize },
    /// The system refused the table of line-dependent results (`mib` MiB, half of `hash`).
    #[error(
        "cannot allocate the solver's table of line-dependent results ({mib} MiB, half of \
         --hash {hash}): not enough memory; try a smaller --hash"
    )]
    Lines { mib: usize, hash: usize },
    /// The checkpoints' folder cannot be made (`reason`: the system's).
    #[error("cannot create the checkpoint directory {dir}: {reason}")]
    CheckpointDir { dir: String, reason: String },
    /// A checkpoint that cannot be read or written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The second attempt's thread panicked.
    #[error("the solver's second thread failed")]
    Thread,
    /// The stop flag was set while a certificate was collected.
    #[error("stopped while collecting the certificate")]
    Stopped,
    /// No move of the position (`fen`) keeps the value the table gave.
    #[error("{fen}: no move keeps the value")]
    NoMove { fen: String },
    /// A certificate collected that its checker refuses.
    #[error("the certificate does not check: {0}")]
    Unchecked(ProofError),
    /// A graph of more than `limit` positions, too big to draw.
    #[error(
        "the graph has more than {limit} positions: too big to draw (analyse a smaller board or \
         a position from --fen)"
    )]
    TooLarge { limit: usize },
}

/// A certificate's chooser failing inside the proof walk.
impl From<SolveError> for ProofError {
    fn from(e: SolveError) -> ProofError {
        ProofError::from(e.to_string())
    }
}

crate::error::sentence_error!(SolveError);
