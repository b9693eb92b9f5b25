//! Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama) through
//! async-openai. Retries are ours alone (spec §10.4): `llm.max_retries`
//! after the first attempt, whatever failed (HTTP 429/5xx, timeout, an answer
//! that is not the schema), waiting as Retry-After says when the server says.
//! The library's own retry layer is replaced by a plain service.

use super::{
    CallReport, ConsolidationAnswer, ConsolidationRequest, LlmError, StageOneAnswer,
    StageOneRequest, Usage,
};
use crate::config::{Config, StructuredOutput};
use crate::error::Error;
use crate::text::estimate_tokens;
use async_openai::Client;
use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::middleware::{HttpRequestFactory, ReqwestService};
use async_openai::types::chat::{
    ChatCompletionRequestSystemMessage, ChatCompletionRequestUserMessage,
    CreateChatCompletionRequest, ResponseFormat, ResponseFormatJsonSchema,
};
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The longest wait a Retry-After may impose before the next attempt.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

pub struct OpenAiClient {
    client: Client<OpenAIConfig>,
    model: String,
    structured: StructuredOutput,
    max_retries: u32,
    stage_one_prompt: String,
    consolidation_prompt: String,
    permits: Semaphore,
}

/// What one kind of call sends: its system prompt and its answer's schema.
struct CallKind<'a> {
    prompt: &'a str,
    schema_name: &'static str,
    schema: serde_json::Value,
}

/// A 429 or 5xx, with the wait the server asked for.
#[derive(Debug, thiserror::Error)]
#[error("HTTP {status}")]
struct Throttled {
    status: u16,
    retry_after: Option<Duration>,
}

/// Sends requests as they are and turns 429/5xx into [`Throttled`], keeping Retry-After.
#[derive(Clone)]
struct StatusService(ReqwestService);

impl tower::Service<HttpRequestFactory> for StatusService {
    type Response = reqwest::Response;
    type Error = OpenAIError;
    type Future = Pin<Box<dyn Future<Output = Result<reqwest::Response, OpenAIError>> + Send>>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), OpenAIError>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: HttpRequestFactory) -> Self::Future {
        let mut inner = self.0.clone();
        Box::pin(async move {
            let response = inner.call(request).await?;
            let status = response.status();
            if status.as_u16() == 429 || status.is_server_error() {
                let retry_after = response
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(|s| Duration::from_secs(s).min(MAX_RETRY_AFTER));
                return Err(OpenAIError::Boxed(Box::new(Throttled {
                    status: status.as_u16(),
                    retry_after,
                })));
            }
            Ok(response)
        })
    }
}

/// The `note_slips` JSON schema of spec §5.
fn note_slips_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object", "additionalProperties": false, "required": ["slips"],
        "properties": {"slips": {"type": "array", "items": {
            "type": "object", "additionalProperties": false,
            "required": ["message_id", "quote", "content", "kind", "scope", "durability", "valid_until"],
            "properties": {
                "message_id": {"type": "string"},
                "quote": {"type": "string"},
                "content": {"type": "string"},
                "kind": {"type": "string", "enum": ["presentation", "background", "recent_focus", "terminology", "query_default", "forbidden"]},
                "scope": {"type": "string"},
                "durability": {"type": "string", "enum": ["lasting", "until", "one_off"]},
                "valid_until": {"type": ["string", "null"]}
            }}}}
    })
}

/// The `consolidation` JSON schema of spec §6: every field present, null where unused.
fn consolidation_schema() -> serde_json::Value {
    let nullable = serde_json::json!({"type": ["string", "null"]});
    let ids = serde_json::json!({"type": "array", "items": {"type": "string"}});
    serde_json::json!({
        "type": "object", "additionalProperties": false, "required": ["operations"],
        "properties": {"operations": {"type": "array", "items": {
            "type": "object", "additionalProperties": false,
            "required": ["op", "memory_id", "kind", "scope", "content", "reason", "slip_ids", "supersedes_slip_ids"],
            "properties": {
                "op": {"type": "string", "enum": ["create", "update", "confirm", "retire", "suggest"]},
                "memory_id": nullable, "kind": nullable, "scope": nullable, "content": nullable, "reason": nullable,
                "slip_ids": ids, "supersedes_slip_ids": ids
            }}}}
    })
}

impl OpenAiClient {
    pub fn new(config: &Config) -> Result<OpenAiClient, Error> {
        let llm = &config.raw.llm;
        let api_key = std::env::var(&llm.api_key_env).unwrap_or_else(|_| {
            tracing::warn!(variable = %llm.api_key_env, "no API key set; calling the model without one (fine for local servers)");
            String::new()
        });
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(llm.timeout_secs))
            .build()
            .map_err(|e| Error::Config(format!("llm: cannot build the HTTP client: {e}")))?;
        let client = Client::with_config(
            OpenAIConfig::new()
                .with_api_base(&llm.base_url)
                .with_api_key(api_key),
        )
        .with_http_service(StatusService(ReqwestService::new(http)));
        Ok(OpenAiClient {
            client,
            model: llm.model.clone(),
            structured: llm.structured_output,
            max_retries: llm.max_retries,
            stage_one_prompt: crate::prompts::stage_one(config)?,
            consolidation_prompt: crate::prompts::consolidation(config)?,
            permits: Semaphore::new(llm.concurrency as usize),
        })
    }

    pub fn system_prompt_tokens(&self) -> u64 {
        estimate_tokens(&self.stage_one_prompt)
    }

    pub fn consolidation_prompt_tokens(&self) -> u64 {
        estimate_tokens(&self.consolidation_prompt)
    }

    pub async fn stage_one(&self, request: &StageOneRequest) -> CallReport<StageOneAnswer> {
        let kind = CallKind {
            prompt: &self.stage_one_prompt,
            schema_name: "note_slips",
            schema: note_slips_schema(),
        };
        self.call(&kind, request).await
    }

    pub async fn consolidate(
        &self,
        request: &ConsolidationRequest,
    ) -> CallReport<ConsolidationAnswer> {
        let kind = CallKind {
            prompt: &self.consolidation_prompt,
            schema_name: "consolidation",
            schema: consolidation_schema(),
        };
        self.call(&kind, request).await
    }

    /// One logical call with its retries; at most `llm.concurrency` run at once.
    async fn call<Q: serde::Serialize, A: serde::de::DeserializeOwned>(
        &self,
        kind: &CallKind<'_>,
        request: &Q,
    ) -> CallReport<A> {
        let _permit = self
            .permits
            .acquire()
            .await
            .expect("the semaphore is never closed");
        let user = serde_json::to_string(request).expect("requests serialise");
        let mut report = CallReport {
            outcome: Err(LlmError::Timeout),
            calls: 0,
            failures: 0,
            usage: Usage::default(),
        };
        for attempt in 0..=self.max_retries {
            report.calls += 1;
            let (result, usage, retry_after) = self.call_once(kind, &user).await;
            report.usage.prompt_tokens += usage.prompt_tokens;
            report.usage.completion_tokens += usage.completion_tokens;
            match result {
                Ok(answer) => {
                    report.outcome = Ok(answer);
                    return report;
                }
                Err(error) => {
                    report.failures += 1;
                    tracing::warn!(attempt = attempt + 1, error = %error, "model call failed");
                    report.outcome = Err(error);
                    if attempt < self.max_retries {
                        tokio::time::sleep(retry_after.unwrap_or_else(|| backoff(attempt))).await;
                    }
                }
            }
        }
        report
    }

    fn request(&self, kind: &CallKind<'_>, user: &str) -> CreateChatCompletionRequest {
        let response_format = match self.structured {
            StructuredOutput::JsonSchema => ResponseFormat::JsonSchema {
                json_schema: ResponseFormatJsonSchema {
                    name: kind.schema_name.into(),
                    description: None,
                    schema: kind.schema.clone(),
                    strict: Some(true),
                },
            },
            StructuredOutput::JsonObject => ResponseFormat::JsonObject,
        };
        CreateChatCompletionRequest {
            model: self.model.clone(),
            messages: vec![
                ChatCompletionRequestSystemMessage {
                    content: kind.prompt.into(),
                    name: None,
                }
                .into(),
                ChatCompletionRequestUserMessage {
                    content: user.into(),
                    name: None,
                }
                .into(),
            ],
            response_format: Some(response_format),
            temperature: Some(0.0),
            ..Default::default()
        }
    }

    async fn call_once<A: serde::de::DeserializeOwned>(
        &self,
        kind: &CallKind<'_>,
        user: &str,
    ) -> (Result<A, LlmError>, Usage, Option<Duration>) {
        let response = match self.client.chat().create(self.request(kind, user)).await {
            Ok(response) => response,
            Err(error) => {
                let (error, retry_after) = describe(error);
                return (Err(error), Usage::default(), retry_after);
            }
        };
        let usage = response
            .usage
            .as_ref()
            .map(|u| Usage {
                prompt_tokens: u.prompt_tokens.into(),
                completion_tokens: u.completion_tokens.into(),
            })
            .unwrap_or_else(|| Usage {
                prompt_tokens: estimate_tokens(kind.prompt) + estimate_tokens(user),
                completion_tokens: 0,
            });
        let content = response
            .choices
            .into_iter()
            .next()
            .and_then(|c| c.message.content);
        let answer = match content {
            None => Err(LlmError::BadAnswer("the answer has no content".into())),
            Some(text) => serde_json::from_str::<A>(strip_fences(&text)).map_err(|e| {
                LlmError::BadAnswer(format!("not the {} shape: {e}", kind.schema_name))
            }),
        };
        (answer, usage, None)
    }
}

/// Some servers wrap JSON in a Markdown code fence even when asked not to.
fn strip_fences(text: &str) -> &str {
    let trimmed = text.trim();
    trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|t| t.strip_suffix("```"))
        .map(str::trim)
        .unwrap_or(trimmed)
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(200u64.saturating_mul(1 << attempt.min(6))).min(Duration::from_secs(8))
}

fn describe(error: OpenAIError) -> (LlmError, Option<Duration>) {
    match error {
        OpenAIError::Boxed(boxed) => match boxed.downcast::<Throttled>() {
            Ok(t) => (
                LlmError::Status {
                    status: t.status,
                    message: "rate limited or server error".into(),
                },
                t.retry_after,
            ),
            Err(other) => (LlmError::Transport(other.to_string()), None),
        },
        OpenAIError::Reqwest(e) if e.is_timeout() => (LlmError::Timeout, None),
        OpenAIError::Reqwest(e) => (LlmError::Transport(e.to_string()), None),
        OpenAIError::ApiError(e) => (
            LlmError::Status {
                status: e.status_code.as_u16(),
                message: e.api_error.message,
            },
            None,
        ),
        OpenAIError::JSONDeserialize(e, _) => (
            LlmError::BadAnswer(format!("not a chat completion: {e}")),
            None,
        ),
        other => (LlmError::Transport(other.to_string()), None),
    }
}
