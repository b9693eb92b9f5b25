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

impl StepFailure {
    /// The model cannot answer any call (see [`LlmError::is_unavailable`]):
    /// no attempt is charged, and the run stops taking work.
    pub fn model_unavailable(&self) -> bool {
        matches!(self, StepFailure::Model(e) if e.is_unavailable())
    }

    /// The model server failed (see [`LlmError::is_server_fault`]): charged,
    /// and counted toward ending the run's work early.
    pub fn model_failing(&self) -> bool {
        matches!(self, StepFailure::Model(e) if e.is_server_fault())
    }
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

/// Counts by reason as the JSON summary spells them (`{"forbidden":2}`),
/// so that a search written from one matches the log too.
pub fn by_reason<R: std::fmt::Display>(counts: &std::collections::BTreeMap<R, u64>) -> String {
    let spelled: serde_json::Map<String, serde_json::Value> =
        counts.iter().map(|(reason, n)| (reason.to_string(), (*n).into())).collect();
    serde_json::Value::Object(spelled).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::DropReason;
    use std::collections::BTreeMap;

    #[test]
    fn reasons_are_spelled_as_the_json_summary_spells_them() {
        let counts = BTreeMap::from([(DropReason::Forbidden, 2), (DropReason::UnknownMessage, 1)]);
        assert_eq!(by_reason(&counts), r#"{"forbidden":2,"unknown_message":1}"#);
    }
}
