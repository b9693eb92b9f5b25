//! The model side of stage one: a provider proposes note slips for a request
//! shaped as spec §5 says. Nothing it returns is trusted: `extract::validate`
//! decides what is kept.

pub mod answer;
pub mod openai;
pub mod rules;

use crate::config::{Config, Provider as ProviderName};
use crate::domain::{Role, Time};
use crate::error::Error;
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
    pub origin: crate::domain::Origin,
    pub kind: crate::domain::Kind,
    pub scope: String,
    pub content: Option<String>,
    pub status: crate::domain::Status,
    pub updated_at: Time,
    pub expires_at: Option<Time>,
}

/// A pending suggestion as stage two sees it, so the model does not propose it again.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SuggestionView {
    pub suggestion_id: String,
    pub op: crate::domain::SuggestionOp,
    pub memory_id: Option<String>,
    pub kind: crate::domain::Kind,
    pub scope: String,
    pub content: Option<String>,
}

/// A slip as stage two sees it; `new` marks the ones this consolidation is for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlipView {
    pub slip_id: String,
    pub conversation_id: String,
    pub kind: crate::domain::Kind,
    pub scope: String,
    pub content: Option<String>,
    pub quote: Option<String>,
    pub expressed_at: Time,
    pub durability: crate::domain::Durability,
    pub valid_until: Option<Time>,
    pub new: bool,
}

/// The user message of a stage-two call (spec §6).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConsolidationRequest {
    pub user_id: String,
    pub now: Time,
    pub memories: Vec<MemoryView>,
    pub suggestions: Vec<SuggestionView>,
    pub slips: Vec<SlipView>,
}

/// A stage-two answer (spec §6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsolidationAnswer {
    pub operations: Vec<Item<crate::consolidate::policy::Proposal>>,
}

/// Tokens a call cost, as the server reported (or estimated when it did not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

/// Why a model call failed, after its retries. What it says is fit for logs
/// and `status`: never the answer's text nor the server's error message,
/// which may echo the conversation (spec §10.21).
#[derive(Debug, Clone, thiserror::Error)]
pub enum LlmError {
    #[error("the model server answered HTTP {status}{}", code.as_ref().map(|c| format!(" ({c})")).unwrap_or_default())]
    Status { status: u16, code: Option<String> },
    #[error("the model call timed out")]
    Timeout,
    #[error("could not reach the model server: {0}")]
    Transport(String),
    #[error("the model's answer is not valid: {0}")]
    BadAnswer(#[from] answer::AnswerProblem),
}

/// The outcome of one logical call with its retries and what they cost.
#[derive(Debug)]
pub struct CallReport<T> {
    pub outcome: Result<T, LlmError>,
    /// HTTP requests made, retries included.
    pub calls: u32,
    /// Requests that failed, whether or not a retry then succeeded.
    pub failures: u32,
    pub usage: Usage,
}

/// The configured provider.
pub enum Provider {
    /// Offline, deterministic patterns; needs no model.
    Rules,
    OpenAi(Box<openai::OpenAiClient>),
}

impl Provider {
    pub fn from_config(config: &Config) -> Result<Provider, Error> {
        Ok(match config.raw.llm.provider {
            ProviderName::Rules => Provider::Rules,
            ProviderName::Openai => Provider::OpenAi(Box::new(openai::OpenAiClient::new(config)?)),
        })
    }

    /// Proposes note slips for one chunk of a conversation.
    pub async fn stage_one(&self, request: &StageOneRequest) -> CallReport<StageOneAnswer> {
        match self {
            Provider::Rules => CallReport {
                outcome: Ok(rules::extract(request)),
                calls: 0,
                failures: 0,
                usage: Usage::default(),
            },
            Provider::OpenAi(client) => client.stage_one(request).await,
        }
    }

    /// Proposes operations for one user's groups.
    pub async fn consolidate(
        &self,
        request: &ConsolidationRequest,
    ) -> CallReport<ConsolidationAnswer> {
        match self {
            Provider::Rules => CallReport {
                outcome: Ok(rules::consolidate(request)),
                calls: 0,
                failures: 0,
                usage: Usage::default(),
            },
            Provider::OpenAi(client) => client.consolidate(request).await,
        }
    }

    /// The stage-two system prompt's size, which every request pays.
    pub fn consolidation_prompt_tokens(&self) -> u64 {
        match self {
            Provider::Rules => 0,
            Provider::OpenAi(client) => client.consolidation_prompt_tokens(),
        }
    }

    /// The system prompt's size, which every chunk pays.
    pub fn prompt_tokens(&self) -> u64 {
        match self {
            Provider::Rules => 0,
            Provider::OpenAi(client) => client.system_prompt_tokens(),
        }
    }
}
