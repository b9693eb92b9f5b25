//! Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama) through
//! async-openai. Retries are ours alone (spec §10.4): `llm.max_retries`
//! after the first attempt, whatever failed (HTTP 429/5xx, timeout, an answer
//! that is not the schema), waiting as Retry-After says when the server says.
//! The library's own retry layer is replaced by a plain service.

use super::{CallReport, LlmError, StageOneAnswer, StageOneRequest, Usage};
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
    system_prompt: String,
    permits: Semaphore,
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
            system_prompt: crate::prompts::stage_one(config)?,
            permits: Semaphore::new(llm.concurrency as usize),
        })
    }

    pub fn system_prompt_tokens(&self) -> u64 {
        estimate_tokens(&self.system_prompt)
    }

    /// One logical call with its retries; at most `llm.concurrency` run at once.
    pub async fn stage_one(&self, request: &StageOneRequest) -> CallReport<StageOneAnswer> {
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
            let (result, usage, retry_after) = self.call_once(&user).await;
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

    fn request(&self, user: &str) -> CreateChatCompletionRequest {
        let response_format = match self.structured {
            StructuredOutput::JsonSchema => ResponseFormat::JsonSchema {
                json_schema: ResponseFormatJsonSchema {
                    name: "note_slips".into(),
                    description: None,
                    schema: note_slips_schema(),
                    strict: Some(true),
                },
            },
            StructuredOutput::JsonObject => ResponseFormat::JsonObject,
        };
        CreateChatCompletionRequest {
            model: self.model.clone(),
            messages: vec![
                ChatCompletionRequestSystemMessage {
                    content: self.system_prompt.as_str().into(),
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

    async fn call_once(
        &self,
        user: &str,
    ) -> (Result<StageOneAnswer, LlmError>, Usage, Option<Duration>) {
        let response = match self.client.chat().create(self.request(user)).await {
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
                prompt_tokens: self.system_prompt_tokens() + estimate_tokens(user),
                completion_tokens: 0,
            });
        let content = response
            .choices
            .into_iter()
            .next()
            .and_then(|c| c.message.content);
        let answer = match content {
            None => Err(LlmError::BadAnswer("the answer has no content".into())),
            Some(text) => serde_json::from_str::<StageOneAnswer>(strip_fences(&text))
                .map_err(|e| LlmError::BadAnswer(format!("not the note_slips shape: {e}"))),
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
