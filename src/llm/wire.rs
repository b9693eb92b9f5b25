//! The provider protocol: what a model is sent and what it may answer, for
//! both stages (spec §5, §6). Pure data: nothing here is trusted or stored;
//! `extract::validate` and `consolidate::policy` decide what is kept.

use crate::domain::{Durability, Kind, Origin, Role, Status, SuggestionOp, Time};
use serde::{Deserialize, Serialize};

/// A message as the model sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MessageView {
    pub message_id: String,
    pub role: Role,
    pub created_at: Time,
    pub content: String,
}

/// The user message of a stage-one call (spec §5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StageOneRequest {
    pub user_id: String,
    pub conversation_id: String,
    #[serde(serialize_with = "whole_seconds")]
    pub now: Time,
    pub allowed_scopes: Vec<String>,
    pub context: Vec<MessageView>,
    pub messages: Vec<MessageView>,
    /// The conversation's own scopes (set at ingest, spec §8.1), also among
    /// `allowed_scopes`. Not part of the model's document: the offline
    /// provider places habits with them ("周报还是结论打头" in a
    /// `project:奶酪棒` conversation is about that project's reports).
    #[serde(skip)]
    pub conversation_scopes: Vec<String>,
}

/// A run's `now` as the model reads it, to the second as in spec §5's
/// example: the run's clock carries milliseconds no model needs, paid on
/// every call.
fn whole_seconds<S: serde::Serializer>(now: &Time, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
}

/// One slip as a provider proposes it; every field is checked before use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProposedSlip {
    pub message_id: String,
    pub quote: String,
    pub content: String,
    pub kind: String,
    pub scope: String,
    pub durability: String,
    #[serde(default)]
    pub valid_until: Option<String>,
}

/// One element of an answer's list, read on its own: an element that does not
/// have its fields (a `null` where a value is needed, a wrong type, an unknown
/// op) is `Malformed` and costs only itself, never the answer (spec §6).
#[derive(Debug, Clone, PartialEq)]
pub enum Item<T> {
    Valid(T),
    Malformed,
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for Item<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(T::deserialize(value).map_or(Item::Malformed, Item::Valid))
    }
}

impl<T: Serialize> Serialize for Item<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Item::Valid(t) => t.serialize(serializer),
            Item::Malformed => serializer.serialize_none(),
        }
    }
}

/// A stage-one answer (spec §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageOneAnswer {
    pub slips: Vec<Item<ProposedSlip>>,
}

/// A memory as stage two sees it (spec §6).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MemoryView {
    pub memory_id: String,
    pub version: i64,
    pub origin: Origin,
    pub kind: Kind,
    pub scope: String,
    pub content: Option<String>,
    pub status: Status,
    pub updated_at: Time,
    pub expires_at: Option<Time>,
}

/// A pending suggestion as stage two sees it, so the model does not propose it again.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SuggestionView {
    pub suggestion_id: String,
    pub op: SuggestionOp,
    pub memory_id: Option<String>,
    pub kind: Kind,
    pub scope: String,
    pub content: Option<String>,
}

/// A slip as stage two sees it; `new` marks the ones this consolidation is for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlipView {
    pub slip_id: String,
    pub conversation_id: String,
    pub kind: Kind,
    pub scope: String,
    pub content: Option<String>,
    pub quote: Option<String>,
    pub expressed_at: Time,
    pub durability: Durability,
    pub valid_until: Option<Time>,
    pub new: bool,
}

/// The user message of a stage-two call (spec §6).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConsolidationRequest {
    pub user_id: String,
    #[serde(serialize_with = "whole_seconds")]
    pub now: Time,
    pub memories: Vec<MemoryView>,
    pub suggestions: Vec<SuggestionView>,
    pub slips: Vec<SlipView>,
}

/// A stage-two answer (spec §6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsolidationAnswer {
    pub operations: Vec<Item<Proposal>>,
}

/// One operation as the model (or the rules provider) proposes it (spec §6).
/// Kinds and scopes stay strings so a bad one rejects the operation, not the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Proposal {
    Create {
        kind: String,
        scope: String,
        content: String,
        slip_ids: Vec<String>,
        #[serde(default, deserialize_with = "null_as_empty")]
        supersedes_slip_ids: Vec<String>,
    },
    Update {
        memory_id: String,
        content: String,
        slip_ids: Vec<String>,
    },
    Confirm {
        memory_id: String,
        slip_ids: Vec<String>,
    },
    Retire {
        memory_id: String,
        reason: String,
        slip_ids: Vec<String>,
    },
    Suggest {
        kind: String,
        scope: String,
        content: String,
        #[serde(default)]
        memory_id: Option<String>,
        slip_ids: Vec<String>,
    },
}

/// `supersedes_slip_ids` is optional: absent or `null` means none.
fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(Option::<Vec<String>>::deserialize(d)?.unwrap_or_default())
}
