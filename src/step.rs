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
