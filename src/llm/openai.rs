//! Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama) through
//! async-openai. Retries are ours alone (spec §10.4): `llm.max_retries`
//! after the first attempt, whatever failed (HTTP 429/5xx, timeout, an answer
//! that is not the schema), waiting as Retry-After says when the server says.
//! The library's own retry layer is replaced by a plain service. Answers are
//! read as real servers send them ([`super::answer`]), and a server that
//! refuses `temperature` (reasoning models) is asked again without it.

use super::answer::{self, AnswerProblem};
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
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// The longest wait a Retry-After may impose before the next attempt.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// The wait a response's Retry-After (in seconds) asks for, at most
/// [`MAX_RETRY_AFTER`]: a server asking for an hour would otherwise hold
/// the run, and its shutdown, for that hour.
pub(super) fn retry_after(response: &reqwest::Response) -> Option<Duration> {
    let seconds = response.headers().get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    Some(Duration::from_secs(seconds.trim().parse().ok()?).min(MAX_RETRY_AFTER))
}

pub struct OpenAiClient {
    client: Client<OpenAIConfig>,
    model: String,
    structured: StructuredOutput,
    max_retries: u32,
    stage_one_prompt: String,
    consolidation_prompt: String,
    permits: Semaphore,
    /// `llm.temperature`, or `None` to send none.
    temperature: Option<f32>,
    /// Set once the server refused `temperature`: sent no more in this process.
    temperature_refused: AtomicBool,
}

/// What one kind of call sends: its system prompt and its answer's schema,
/// and where its list of items is in the answer.
struct CallKind<'a> {
    prompt: &'a str,
    schema_name: &'static str,
    schema: serde_json::Value,
    list_key: &'static str,
    list_path: &'static str,
}

/// A 429 or 5xx, with the wait the server asked for.
#[derive(Debug, thiserror::Error)]
#[error("HTTP {status}")]
struct Throttled {
    status: u16,
    retry_after: Option<Duration>,
}

/// Sends requests as they are and turns 429/5xx into [`Throttled`], keeping
/// Retry-After, and the statuses that say the model answers no one (401,
/// 403, 404, 407) too, whatever their body: a proxy's page for them is no
/// JSON and read as one it said only "not a chat completion".
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
            let unavailable = matches!(status.as_u16(), 401 | 403 | 404 | 407);
            if status.as_u16() == 429 || status.is_server_error() || unavailable {
                let retry_after = retry_after(&response);
                return Err(OpenAIError::Boxed(Box::new(Throttled {
                    status: status.as_u16(),
                    retry_after,
                })));
            }
            capped(response).await
        })
    }
}

/// The answer past [`super::MAX_ANSWER_BYTES`], for [`describe`].
#[derive(Debug, thiserror::Error)]
#[error("the answer is too large")]
struct TooLarge;

/// `response` with its body read here, within [`super::MAX_ANSWER_BYTES`]:
/// async-openai reads a body whole, whatever its size.
async fn capped(mut response: reqwest::Response) -> Result<reqwest::Response, OpenAIError> {
    let (status, version, headers) =
        (response.status(), response.version(), response.headers().clone());
    let body = super::read_capped(&mut response).await.map_err(OpenAIError::Reqwest)?;
    let body = body.ok_or_else(|| OpenAIError::Boxed(Box::new(TooLarge)))?;
    let mut read = http::Response::new(body);
    *read.status_mut() = status;
    *read.version_mut() = version;
    *read.headers_mut() = headers;
    Ok(reqwest::Response::from(read))
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
        let llm = &config.llm;
        let api_key = llm.api_key().unwrap_or_else(|| {
            tracing::warn!(variable = %llm.api_key_env, state = llm.api_key_state(), "no API key; calling the model without one (fine for local servers)");
            String::new()
        });
        let http = reqwest::Client::builder()
            .timeout(llm.timeout)
            .build()
            .map_err(|e| Error::Config(format!("llm: cannot build the HTTP client: {e}")))?;
        let client = Client::with_config(
            OpenAIConfig::new().with_api_base(&llm.base_url).with_api_key(api_key),
        )
        .with_http_service(StatusService(ReqwestService::new(http)));
        Ok(OpenAiClient {
            client,
            model: llm.model.clone(),
            structured: llm.structured_output,
            max_retries: llm.max_retries,
            stage_one_prompt: crate::prompts::stage_one(config)?,
            consolidation_prompt: crate::prompts::consolidation(config)?,
            permits: Semaphore::new(llm.concurrency),
            temperature: llm.temperature,
            temperature_refused: AtomicBool::new(false),
        })
    }

    pub fn system_prompt_tokens(&self) -> u64 {
        estimate_tokens(&self.stage_one_prompt)
    }

    pub fn consolidation_prompt_tokens(&self) -> u64 {
        estimate_tokens(&self.consolidation_prompt)
    }

    pub async fn stage_one(
        &self,
        request: &StageOneRequest,
        stop: &CancellationToken,
    ) -> CallReport<StageOneAnswer> {
        let kind = CallKind {
            prompt: &self.stage_one_prompt,
            schema_name: "note_slips",
            schema: note_slips_schema(),
            list_key: "slips",
            list_path: "$.slips",
        };
        self.call(&kind, request, stop).await
    }

    pub async fn consolidate(
        &self,
        request: &ConsolidationRequest,
        stop: &CancellationToken,
    ) -> CallReport<ConsolidationAnswer> {
        let kind = CallKind {
            prompt: &self.consolidation_prompt,
            schema_name: "consolidation",
            schema: consolidation_schema(),
            list_key: "operations",
            list_path: "$.operations",
        };
        self.call(&kind, request, stop).await
    }

    /// One logical call with its retries; at most `llm.concurrency` run at once.
    async fn call<Q: serde::Serialize, A: serde::de::DeserializeOwned>(
        &self,
        kind: &CallKind<'_>,
        request: &Q,
        stop: &CancellationToken,
    ) -> CallReport<A> {
        // The semaphore lives as long as the client and is never closed.
        let _permit = self.permits.acquire().await.expect("the semaphore is never closed");
        // A request is plain data with string keys: serialising it cannot fail.
        let user = serde_json::to_string(request).expect("requests serialise");
        let user = user.as_str();
        with_retries(self.max_retries, "model call", stop, move || async move {
            let temperature = self.temperature_to_send();
            let (result, usage, retry_after) = self.call_once(kind, user, temperature).await;
            if !self.refused_temperature(&result, temperature) {
                return Attempt { result, usage, retry_after, repeated: false };
            }
            let (result, usage, retry_after) = self.call_once(kind, user, None).await;
            Attempt { result, usage, retry_after, repeated: true }
        })
        .await
    }

    fn request(
        &self,
        kind: &CallKind<'_>,
        user: &str,
        temperature: Option<f32>,
    ) -> CreateChatCompletionRequest {
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
                ChatCompletionRequestSystemMessage { content: kind.prompt.into(), name: None }
                    .into(),
                ChatCompletionRequestUserMessage { content: user.into(), name: None }.into(),
            ],
            response_format: Some(response_format),
            temperature,
            ..Default::default()
        }
    }

    fn temperature_to_send(&self) -> Option<f32> {
        self.temperature.filter(|_| !self.temperature_refused.load(Ordering::Relaxed))
    }

    /// Whether `result` is the server refusing the temperature this request
    /// carried (`sent`; spec §10.26); if so, temperature is left out from
    /// now on, with one warning. Judged by the request, not by what is sent
    /// now: calls in flight together all carried it, and each is asked
    /// again (ops round 4, L7: all but the first counted as failed calls,
    /// each with a warning).
    fn refused_temperature<A>(&self, result: &Result<A, LlmError>, sent: Option<f32>) -> bool {
        let refused = matches!(
            result,
            Err(LlmError::Status { status: 400, code: Some(code) }) if code == TEMPERATURE_REFUSED
        );
        if !refused || sent.is_none() {
            return false;
        }
        if !self.temperature_refused.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                key = "llm.temperature",
                "the model refuses the configured temperature; sending none from now on (set it to \"none\" to silence this)"
            );
        }
        true
    }

    async fn call_once<A: serde::de::DeserializeOwned>(
        &self,
        kind: &CallKind<'_>,
        user: &str,
        temperature: Option<f32>,
    ) -> (Result<A, LlmError>, Usage, Option<Duration>) {
        let request = self.request(kind, user, temperature);
        let response = match self.client.chat().create_byot::<_, Completion>(request).await {
            Ok(response) => response,
            Err(error) => {
                let (error, retry_after) = describe(error);
                return (Err(error), Usage::default(), retry_after);
            }
        };
        let reported = response.usage.unwrap_or_default();
        let usage = Usage {
            prompt_tokens: reported
                .prompt_tokens
                .unwrap_or_else(|| estimate_tokens(kind.prompt) + estimate_tokens(user)),
            completion_tokens: reported.completion_tokens.unwrap_or(0),
        };
        let content = response.choices.into_iter().next().and_then(|c| c.message.content);
        let answer = content
            .ok_or(AnswerProblem::NoContent)
            .and_then(|text| answer::json_object(&text))
            .and_then(|value| answer::read(value, kind.schema_name, kind.list_key, kind.list_path))
            .map_err(LlmError::BadAnswer);
        (answer, usage, None)
    }
}

/// The code [`describe`] gives a 400 that names `temperature`.
const TEMPERATURE_REFUSED: &str = "temperature_unsupported";

/// One request of a call: the answer or why not, the tokens it used, the
/// wait the server asked for, and whether it was sent a second time after
/// the server refused `temperature` (the refused one counts as a call, not
/// as a failure: the one warning says what happened).
pub(super) struct Attempt<T> {
    pub result: Result<T, LlmError>,
    pub usage: Usage,
    pub retry_after: Option<Duration>,
    pub repeated: bool,
}

/// A call with our retries (spec §10.4), for chat and embeddings alike:
/// `attempt` once and, while it fails, up to `max_retries` more times,
/// waiting as the server asked or backing off; each failure is logged as
/// "`what` failed". Once `stop` is cancelled (dreamd is shutting down) a
/// wait for a retry ends the call with [`LlmError::Stopped`]: a server that
/// asked for a minute must not hold a stopping daemon for that minute.
pub(super) async fn with_retries<T, F: Future<Output = Attempt<T>>>(
    max_retries: u32,
    what: &str,
    stop: &CancellationToken,
    mut attempt: impl FnMut() -> F,
) -> CallReport<T> {
    let mut report = CallReport {
        outcome: Err(LlmError::Timeout),
        calls: 0,
        failures: 0,
        usage: Usage::default(),
    };
    for n in 0..=max_retries {
        let Attempt { result, usage, retry_after, repeated } = attempt().await;
        report.calls += 1 + u32::from(repeated);
        report.usage.prompt_tokens += usage.prompt_tokens;
        report.usage.completion_tokens += usage.completion_tokens;
        match result {
            Ok(answer) => {
                report.outcome = Ok(answer);
                return report;
            }
            Err(error) => {
                report.failures += 1;
                let retry_in = (n < max_retries).then(|| retry_after.unwrap_or_else(|| backoff(n)));
                tracing::warn!(
                    attempt = n + 1,
                    error = %error,
                    retry_in_ms = retry_in.map(|wait| wait.as_millis() as u64),
                    server_asked = retry_after.is_some(),
                    "{what} failed"
                );
                report.outcome = Err(error);
                if let Some(wait) = retry_in {
                    tokio::select! {
                        biased;
                        () = stop.cancelled() => {
                            tracing::info!(attempt = n + 1, "{what}: no retry, dreamd is shutting down");
                            report.outcome = Err(LlmError::Stopped);
                            return report;
                        }
                        () = tokio::time::sleep(wait) => {}
                    }
                }
            }
        }
    }
    report
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(200u64.saturating_mul(1 << attempt.min(6))).min(Duration::from_secs(8))
}

/// A chat completion as servers send it: only what dreamd reads, each part
/// optional, so that a server leaving out `usage.total_tokens`, `id` or
/// `object` (local servers do, spec §10.26) is still understood.
#[derive(Debug, serde::Deserialize)]
struct Completion {
    #[serde(default)]
    choices: Vec<CompletionChoice>,
    usage: Option<CompletionUsage>,
}

#[derive(Debug, serde::Deserialize)]
struct CompletionChoice {
    message: CompletionMessage,
}

#[derive(Debug, serde::Deserialize)]
struct CompletionMessage {
    content: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
struct CompletionUsage {
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
}

fn describe(error: OpenAIError) -> (LlmError, Option<Duration>) {
    match error {
        OpenAIError::Boxed(boxed) => match boxed.downcast::<Throttled>() {
            Ok(t) => (LlmError::Status { status: t.status, code: None }, t.retry_after),
            Err(other) if other.is::<TooLarge>() => (LlmError::TooLarge, None),
            Err(other) => match other.downcast_ref::<reqwest::Error>() {
                Some(e) => (LlmError::of_reqwest(e), None),
                None => (LlmError::Transport(other.to_string()), None),
            },
        },
        OpenAIError::Reqwest(e) => (LlmError::of_reqwest(&e), None),
        OpenAIError::ApiError(e) => (
            LlmError::Status { status: e.status_code.as_u16(), code: api_error_code(&e.api_error) },
            None,
        ),
        OpenAIError::JSONDeserialize(..) => (LlmError::NotACompletion, None),
        other => (LlmError::Transport(other.to_string()), None),
    }
}

/// A short code for an API error, never its message (which may quote the
/// request): the server's `code` or `type` when it is one of the codes
/// OpenAI-compatible servers document ([`KNOWN_ERROR_CODES`]; any other
/// string is the server's own text and may carry anything), and
/// [`TEMPERATURE_REFUSED`] when the refusal names `temperature`.
fn api_error_code(e: &async_openai::error::ApiError) -> Option<String> {
    let names_temperature = e.param.as_deref() == Some("temperature")
        || e.message.to_ascii_lowercase().contains("temperature");
    if names_temperature {
        return Some(TEMPERATURE_REFUSED.into());
    }
    [e.code.as_deref(), e.r#type.as_deref()]
        .into_iter()
        .flatten()
        .find(|c| KNOWN_ERROR_CODES.contains(c))
        .map(str::to_owned)
}

/// The error codes and types of the OpenAI API and of the servers that
/// follow it (vLLM, Ollama, Azure), which operators look up.
const KNOWN_ERROR_CODES: &[&str] = &[
    "invalid_request_error",
    "authentication_error",
    "permission_error",
    "not_found_error",
    "rate_limit_error",
    "rate_limit_exceeded",
    "insufficient_quota",
    "server_error",
    "api_error",
    "overloaded_error",
    "engine_overloaded",
    "service_unavailable",
    "timeout",
    "context_length_exceeded",
    "model_not_found",
    "invalid_api_key",
    "invalid_value",
    "unsupported_parameter",
    "unsupported_value",
    "content_filter",
    "content_policy_violation",
    "BadRequestError",
    "NotFoundError",
    "InternalServerError",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn api_error(code: Option<&str>, kind: Option<&str>) -> async_openai::error::ApiError {
        async_openai::error::ApiError {
            message: "CANARY my password is Hunter2!".into(),
            r#type: kind.map(str::to_owned),
            param: None,
            code: code.map(str::to_owned),
            misalignment: None,
        }
    }

    #[test]
    fn only_documented_error_codes_reach_the_log() {
        assert_eq!(api_error_code(&api_error(Some("CANARY7731"), Some("CANARY7731"))), None);
        assert_eq!(
            api_error_code(&api_error(
                Some("my_password_is_Hunter2"),
                Some("invalid_request_error")
            )),
            Some("invalid_request_error".into())
        );
        assert_eq!(
            api_error_code(&api_error(Some("context_length_exceeded"), None)),
            Some("context_length_exceeded".into())
        );
    }

    /// A failed attempt whose server asked for `wait` before a retry.
    fn overloaded(wait: Duration) -> Attempt<()> {
        let result = Err(LlmError::Status { status: 429, code: None });
        Attempt { result, usage: Usage::default(), retry_after: Some(wait), repeated: false }
    }

    #[tokio::test]
    async fn a_stop_ends_the_wait_for_a_retry_and_the_call() {
        let running = CancellationToken::new();
        let report = with_retries(3, "model call", &running, || async {
            overloaded(Duration::from_millis(1))
        })
        .await;
        assert_eq!(report.calls, 4, "without a stop, every retry is made");
        let stop = CancellationToken::new();
        let report = with_retries(3, "model call", &stop, || {
            stop.cancel();
            async { overloaded(Duration::from_secs(60)) }
        })
        .await;
        assert_eq!(report.calls, 1);
        assert!(matches!(report.outcome, Err(LlmError::Stopped)), "{:?}", report.outcome);
        assert!(LlmError::Stopped.is_unavailable(), "a stopped call charges no attempt");
    }
}
