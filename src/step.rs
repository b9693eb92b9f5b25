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

    /// Whether the failure is charged an attempt: not a race with a person
    /// (stale), a model that answers no one, nor a model server failing
    /// (5xx, timeouts) that has answered no call this run (`model_answered`):
    /// an outage of the model is neither the conversation's fault nor the
    /// user's, and charging it gave up their messages after
    /// `selection.max_attempts` runs of an outage (ops round 5, M7). A
    /// server that answers other steps and fails this one is charged.
    pub fn is_charged(&self, model_answered: bool) -> bool {
        let outage = self.model_failing() && !model_answered;
        !matches!(self, StepFailure::Store(Error::Stale(_))) && !self.model_unavailable() && !outage
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

    /// An outage of the model charges no one; a model that answers others
    /// and fails one step charges that step; a bad answer is always the
    /// step's; a model answering no one and a race with a person never are.
    #[test]
    fn only_a_failure_the_step_may_have_caused_is_charged() {
        let server = |status| StepFailure::Model(LlmError::Status { status, code: None });
        assert!(!server(500).is_charged(false));
        assert!(!StepFailure::Model(LlmError::Timeout).is_charged(false));
        assert!(server(500).is_charged(true));
        assert!(StepFailure::Model(LlmError::NotACompletion).is_charged(false));
        assert!(!server(401).is_charged(true));
        assert!(!StepFailure::Store(Error::Stale("memory m1".into())).is_charged(true));
    }

    #[test]
    fn reasons_are_spelled_as_the_json_summary_spells_them() {
        let counts = BTreeMap::from([(DropReason::Forbidden, 2), (DropReason::UnknownMessage, 1)]);
        assert_eq!(by_reason(&counts), r#"{"forbidden":2,"unknown_message":1}"#);
    }
}
