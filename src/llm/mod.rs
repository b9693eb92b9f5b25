//! The model side of stage one: a provider proposes note slips for a request
//! shaped as spec §5 says. Nothing it returns is trusted: `extract::validate`
//! decides what is kept.

pub mod answer;
pub mod embed;
pub mod openai;
pub mod rules;
pub mod wire;

pub use wire::{
    ConsolidationAnswer, ConsolidationRequest, Item, MemoryView, MessageView, ProposedSlip,
    SlipView, StageOneAnswer, StageOneRequest, SuggestionView,
};

use crate::config::{Config, Provider as ProviderName};
use crate::error::Error;
use tokio_util::sync::CancellationToken;

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
    Unreachable(String),
    #[error("the connection to the model server failed: {0}")]
    Transport(String),
    #[error("the model server's answer is not a chat completion (cut short, or not JSON)")]
    NotACompletion,
    #[error("the model's answer is not valid: {0}")]
    BadAnswer(#[from] answer::AnswerProblem),
    #[error("the model's answer is larger than {} MiB; it was not read", MAX_ANSWER_BYTES >> 20)]
    TooLarge,
    #[error("the model call was given up before its retry: dreamd is shutting down")]
    Stopped,
}

impl LlmError {
    /// Whether the model cannot answer any call, whatever the conversation:
    /// its server cannot be reached, refuses the key (401, 403) or has no
    /// such endpoint or model (404). Such a failure is the operator's to
    /// fix, not the conversation's: it charges no attempt, and the run
    /// stops taking work. So does a call given up because dreamd is
    /// shutting down before the server's failure could be retried.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, LlmError::Unreachable(_) | LlmError::Stopped)
            || matches!(self, LlmError::Status { status: 401 | 403 | 404 | 407, .. })
    }

    /// Whether the model server failed a call in a way no conversation
    /// causes: it timed out, was overloaded (429) or broke (5xx, a broken
    /// connection). Such a failure is charged as usual; many in a row end
    /// the run's work early, since every further call would likely wait
    /// out its timeout and retries the same way.
    pub fn is_server_fault(&self) -> bool {
        matches!(self, LlmError::Timeout | LlmError::Transport(_))
            || matches!(self, LlmError::Status { status: 429 | 500..=599, .. })
    }

    /// A reqwest error: a timeout, a connection never made, or one that broke.
    pub(crate) fn of_reqwest(e: &reqwest::Error) -> LlmError {
        if e.is_timeout() {
            LlmError::Timeout
        } else if e.is_connect() {
            LlmError::Unreachable(e.to_string())
        } else {
            LlmError::Transport(e.to_string())
        }
    }
}

/// The most of an answer dreamd reads: far above any honest one (a chat
/// answer is a few kilobytes, a full batch of embeddings a few megabytes),
/// far below what would take the daemon's memory (a server once sent
/// 400 MB, and all of it was kept to be parsed).
pub const MAX_ANSWER_BYTES: usize = 32 << 20;

/// The body of `response`, read up to [`MAX_ANSWER_BYTES`] and `None`
/// past it; a declared length past it is refused before a byte is read.
async fn read_capped(response: &mut reqwest::Response) -> Result<Option<Vec<u8>>, reqwest::Error> {
    if response.content_length().is_some_and(|n| n > MAX_ANSWER_BYTES as u64) {
        return Ok(None);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > MAX_ANSWER_BYTES {
            return Ok(None);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Some(body))
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
        Ok(match config.llm.provider {
            ProviderName::Rules => Provider::Rules,
            ProviderName::Openai => Provider::OpenAi(Box::new(openai::OpenAiClient::new(config)?)),
        })
    }

    /// Proposes note slips for one chunk of a conversation; `stop` ends
    /// a wait for a retry (see `with_retries`).
    pub async fn stage_one(
        &self,
        request: &StageOneRequest,
        stop: &CancellationToken,
    ) -> CallReport<StageOneAnswer> {
        match self {
            Provider::Rules => CallReport {
                outcome: Ok(rules::extract(request)),
                calls: 0,
                failures: 0,
                usage: Usage::default(),
            },
            Provider::OpenAi(client) => client.stage_one(request, stop).await,
        }
    }

    /// Proposes operations for one user's groups.
    pub async fn consolidate(
        &self,
        request: &ConsolidationRequest,
        stop: &CancellationToken,
    ) -> CallReport<ConsolidationAnswer> {
        match self {
            Provider::Rules => CallReport {
                outcome: Ok(rules::consolidate(request)),
                calls: 0,
                failures: 0,
                usage: Usage::default(),
            },
            Provider::OpenAi(client) => client.consolidate(request, stop).await,
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
