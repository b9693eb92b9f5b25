//! Embeddings from the OpenAI-compatible `/embeddings` endpoint at
//! `llm.base_url` (spec §10.25), when `llm.embedding_model` names a model.
//! A plain POST: servers differ in what they add around `data` (usage,
//! object, model), and dreamd reads only the vectors.
//!
//! Nothing here waits on recall for long: a query is embedded with one call
//! under `llm.timeout_secs`, and the caller ranks lexically when it fails.
//! Memories are embedded with `llm.max_retries` retries, as every model call.
//! Failures are reported by category (HTTP status, timeout, transport, the
//! shape of the answer), never with the texts sent or the server's words.

use super::answer::AnswerProblem;
use super::openai::{Attempt, retry_after, with_retries};
use super::{CallReport, LlmError, Usage};
use crate::config::Config;
use crate::error::Error;
use serde::Deserialize;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// A client of one embedding model.
pub struct Embedder {
    http: reqwest::Client,
    url: String,
    api_key: String,
    model: String,
    max_retries: u32,
}

/// The part of an embeddings answer dreamd reads.
#[derive(Deserialize)]
struct Answer {
    data: Vec<Datum>,
    #[serde(default)]
    usage: Option<AnswerUsage>,
}

#[derive(Deserialize)]
struct Datum {
    #[serde(default)]
    index: Option<usize>,
    embedding: Vec<f32>,
}

#[derive(Deserialize)]
struct AnswerUsage {
    #[serde(default)]
    prompt_tokens: u64,
}

/// One failed attempt, with the wait the server asked for.
struct Failed {
    error: LlmError,
    retry_after: Option<Duration>,
}

impl From<LlmError> for Failed {
    fn from(error: LlmError) -> Failed {
        Failed { error, retry_after: None }
    }
}

impl Embedder {
    /// The embedder `llm.embedding_model` asks for, or `None` when it is empty.
    pub fn from_config(config: &Config) -> Result<Option<Embedder>, Error> {
        let llm = &config.llm;
        let Some(model) = llm.embedding_model.clone() else { return Ok(None) };
        let http = reqwest::Client::builder()
            .timeout(llm.timeout)
            .build()
            .map_err(|e| Error::Config(format!("llm: cannot build the HTTP client: {e}")))?;
        Ok(Some(Embedder {
            http,
            url: format!("{}/embeddings", llm.base_url.trim_end_matches('/')),
            api_key: llm.api_key().unwrap_or_default(),
            model,
            max_retries: llm.max_retries,
        }))
    }

    /// The embedding model's name, under which vectors are stored.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// A query's vector, from one call and no retry: recall does not wait
    /// for a second chance, it ranks lexically instead.
    pub async fn embed_query(&self, query: &str) -> Result<Vec<f32>, LlmError> {
        let (mut vectors, _) = self.call(&[query]).await.map_err(|f| f.error)?;
        vectors.pop().ok_or(LlmError::BadAnswer(SHAPE))
    }

    /// One vector per text, in order, with `llm.max_retries` retries
    /// whatever failed (spec §10.4), unless `stop` ends the waits.
    pub async fn embed(
        &self,
        texts: &[&str],
        stop: &CancellationToken,
    ) -> CallReport<Vec<Vec<f32>>> {
        with_retries(self.max_retries, "embedding call", stop, move || async move {
            match self.call(texts).await {
                Ok((vectors, prompt_tokens)) => {
                    let usage = Usage { prompt_tokens, completion_tokens: 0 };
                    Attempt { result: Ok(vectors), usage, retry_after: None, repeated: false }
                }
                Err(Failed { error, retry_after }) => {
                    let usage = Usage::default();
                    Attempt { result: Err(error), usage, retry_after, repeated: false }
                }
            }
        })
        .await
    }

    /// One POST of `texts`; the vectors in the texts' order and the prompt tokens.
    async fn call(&self, texts: &[&str]) -> Result<(Vec<Vec<f32>>, u64), Failed> {
        // A model name and a list of strings: serialising them cannot fail.
        let body = serde_json::to_vec(&serde_json::json!({ "model": self.model, "input": texts }))
            .expect("an embeddings request serialises");
        let mut request = self
            .http
            .post(&self.url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        if !self.api_key.is_empty() {
            request = request.bearer_auth(&self.api_key);
        }
        let mut response = request.send().await.map_err(transport)?;
        let status = response.status();
        if !status.is_success() {
            let retry_after = retry_after(&response)
                .filter(|_| status.as_u16() == 429 || status.is_server_error());
            let error = LlmError::Status { status: status.as_u16(), code: None };
            return Err(Failed { error, retry_after });
        }
        let too_large = Failed { error: LlmError::TooLarge, retry_after: None };
        let bytes = super::read_capped(&mut response).await.map_err(transport)?.ok_or(too_large)?;
        Ok(read_answer(&bytes, texts.len())?)
    }
}

/// The answer's shape problem, for an answer that is not an embedding list.
const SHAPE: AnswerProblem = AnswerProblem::Shape { schema: "embeddings", path: "$.data" };

/// The vectors of an answer in input order, and its prompt tokens; one
/// vector per input or the answer is not the shape.
fn read_answer(bytes: &[u8], inputs: usize) -> Result<(Vec<Vec<f32>>, u64), LlmError> {
    let answer: Answer = serde_json::from_slice(bytes).map_err(|e| {
        LlmError::BadAnswer(if e.is_syntax() || e.is_eof() {
            AnswerProblem::Syntax { line: e.line(), column: e.column() }
        } else {
            SHAPE
        })
    })?;
    let mut data: Vec<(usize, Vec<f32>)> = answer
        .data
        .into_iter()
        .enumerate()
        .map(|(position, d)| (d.index.unwrap_or(position), d.embedding))
        .collect();
    data.sort_by_key(|(index, _)| *index);
    let in_order = data.iter().enumerate().all(|(i, (index, v))| i == *index && !v.is_empty());
    if data.len() != inputs || !in_order {
        return Err(LlmError::BadAnswer(SHAPE));
    }
    let tokens = answer.usage.map_or(0, |u| u.prompt_tokens);
    Ok((data.into_iter().map(|(_, v)| v).collect(), tokens))
}

fn transport(e: reqwest::Error) -> Failed {
    Failed { error: LlmError::of_reqwest(&e), retry_after: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_in_input_order_whatever_servers_add() {
        let body = br#"{"object": "list", "model": "m", "data": [
            {"object": "embedding", "index": 1, "embedding": [0.0, 1.0]},
            {"object": "embedding", "index": 0, "embedding": [1.0, 0.0]}],
            "usage": {"prompt_tokens": 7, "total_tokens": 7}}"#;
        assert_eq!(read_answer(body, 2).unwrap(), (vec![vec![1.0, 0.0], vec![0.0, 1.0]], 7));
        let bare = br#"{"data": [{"embedding": [0.5]}]}"#;
        assert_eq!(read_answer(bare, 1).unwrap(), (vec![vec![0.5]], 0));
    }

    #[test]
    fn an_answer_that_is_not_one_vector_per_input_is_refused_by_category() {
        for (body, inputs) in [
            (&br#"{"data": [{"embedding": [0.5]}]}"#[..], 2),
            (br#"{"data": [{"index": 3, "embedding": [0.5]}]}"#, 1),
            (br#"{"data": [{"embedding": []}]}"#, 1),
            (br#"{"error": {"message": "secret text"}}"#, 1),
        ] {
            let error = read_answer(body, inputs).unwrap_err();
            assert!(matches!(error, LlmError::BadAnswer(SHAPE)), "{error}");
        }
        let broken = read_answer(b"{\"data\": [", 1).unwrap_err();
        assert!(matches!(broken, LlmError::BadAnswer(AnswerProblem::Syntax { .. })), "{broken}");
    }
}
