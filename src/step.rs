//! What a failed pipeline step cost: one conversation (stage one) or one
//! user (stage two), for this run only.

use crate::error::Error;
use crate::llm::LlmError;

/// Why one conversation (stage one) or one user (stage two) failed this run:
/// the model, after its retries, or the store.
#[derive(Debug, thiserror::Error)]
pub enum StepFailure {
    #[error(transparent)]
    Model(#[from] LlmError),
    #[error(transparent)]
    Store(#[from] Error),
}

/// How one conversation (stage one) or one user (stage two) ended in a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Ending {
    #[default]
    Done,
    /// Failed this run, for the reason given (never model or user text);
    /// retried next run.
    Failed(String),
    /// Not worked on: another run holds it, or this run was stopping.
    LeftForLater,
}
