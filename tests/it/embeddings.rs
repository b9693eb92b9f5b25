//! Optional embeddings (spec §10.25) through the real HTTP client against a
//! fake OpenAI-compatible `/embeddings`: each memory version is embedded (on
//! set and edit, and by runs for the rest), recall blends the cosine with
//! the lexical score, a memory without an embedding is ranked lexically, and
//! a query that cannot be embedded falls back to lexical ranking. On both
//! backends.

use crate::helpers::{Dreamd, RawSql, now, on_both_backends};
use dreamd::config::Config;
use dreamd::domain::{Kind, Memory, Origin, Status, Time, Write, new_id};
use dreamd::llm::embed::Embedder;
use dreamd::manage::{Manager, NewExplicit, StatusChange};
use serde_json::{Value, json};
use std::time::Duration;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

on_both_backends!(
    each_version_is_embedded_and_recall_blends_the_cosine_in,
    a_run_embeds_what_has_no_embedding_and_never_fails_for_it,
    recall_ranks_lexically_when_the_query_cannot_be_embedded,
);

static NO_EXTRA: std::sync::LazyLock<dreamd::detect::Detector> =
    std::sync::LazyLock::new(dreamd::detect::Detector::default);

/// Topics the fake model "understands" in both languages: one dimension each.
const TOPICS: &[&[&str]] = &[
    &["酸奶", "yoghurt", "yogurt"],
    &["奶酪", "cheese"],
    &["燕麦", "oat"],
    &["内审", "audit"],
    &["感官", "sensory"],
];

/// A vector per input: 1 on each topic the text mentions, and a small
/// constant so no vector is zero.
fn vector(text: &str) -> Vec<f32> {
    let text = text.to_lowercase();
    let mut v: Vec<f32> = TOPICS
        .iter()
        .map(|words| f32::from(u8::from(words.iter().any(|w| text.contains(w)))))
        .collect();
    v.push(0.1);
    v
}

struct FakeEmbeddings;

impl Respond for FakeEmbeddings {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        assert_eq!(body["model"], "fake-embed");
        let data: Vec<Value> = body["input"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, text)| json!({"object": "embedding", "index": i, "embedding": vector(text.as_str().unwrap())}))
            .collect();
        ResponseTemplate::new(200).set_body_json(json!({
            "object": "list", "model": "fake-embed", "data": data,
            "usage": {"prompt_tokens": 3, "total_tokens": 3}
        }))
    }
}

async fn embeddings_server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/embeddings"))
        .respond_with(FakeEmbeddings)
        .mount(&server)
        .await;
    server
}

/// A server whose every answer is `answer`.
async fn failing_server(answer: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST")).respond_with(answer).mount(&server).await;
    server
}

fn config(base_url: &str) -> Config {
    Config::from_toml(&format!(
        "[llm]\nbase_url = \"{base_url}\"\nembedding_model = \"fake-embed\"\nmax_retries = 0\ntimeout_secs = 1\n"
    ))
    .unwrap()
}

fn embedder(base_url: &str) -> Embedder {
    Embedder::from_config(&config(base_url)).unwrap().expect("embedding_model is set")
}

fn at(s: &str) -> Time {
    s.parse().unwrap()
}

/// Current work in two languages, oldest first; only embeddings connect the
/// English questions below with the Chinese memory.
const WORK: &[(&str, &str)] = &[
    ("在做低糖酸奶的配方", "2026-11-01T08:00:00Z"),
    ("Cheese-stick plant trial next month", "2026-11-02T08:00:00Z"),
    ("在整理燕麦饮的数据", "2026-11-03T08:00:00Z"),
    ("Preparing the ISO 22000 audit", "2026-11-04T08:00:00Z"),
    ("Training the sensory panel", "2026-11-05T08:00:00Z"),
];

/// Sets each of [`WORK`] as a person would, at its time.
async fn set_work<S: RawSql>(store: &S, embedder: Option<&Embedder>) -> Vec<Memory> {
    let mut set = Vec::new();
    for (text, when) in WORK {
        let request = NewExplicit {
            user_id: "u1".into(),
            kind: Kind::RecentFocus,
            scope: "global".parse().unwrap(),
            text: (*text).into(),
            expires_at: None,
            source: None,
        };
        let manager = Manager::new(store, at(when), &NO_EXTRA).with_embedder(embedder);
        set.push(manager.set(request).await.unwrap().memory);
    }
    set
}

async fn first_recalled<S: RawSql>(manager: &Manager<'_, S>, query: &str) -> String {
    let recalled = manager.recall("u1", &[], 1, Some(query)).await.unwrap();
    recalled[0].memory.content.clone().unwrap()
}

async fn each_version_is_embedded_and_recall_blends_the_cosine_in<S: RawSql>(store: &S) {
    let server = embeddings_server().await;
    let embedder = embedder(&server.uri());
    let work = set_work(store, Some(&embedder)).await;
    assert_eq!(store.count("SELECT count(*) FROM memory_embeddings").await, 5);

    let blended = Manager::new(store, now(), &NO_EXTRA).with_embedder(Some(&embedder));
    let lexical = Manager::new(store, now(), &NO_EXTRA);
    let question = "How is the low-sugar yogurt recipe going?";
    assert_eq!(first_recalled(&blended, question).await, "在做低糖酸奶的配方");
    assert_eq!(first_recalled(&lexical, question).await, "Training the sensory panel");
    assert_eq!(
        first_recalled(&blended, "cheese-stick trial").await,
        "Cheese-stick plant trial next month",
        "lexical and semantic agree"
    );

    let edited = blended.edit(&work[0].memory_id, "在做燕麦酸奶的配方").await.unwrap().memory;
    let version = format!(
        "SELECT count(*) FROM memory_embeddings WHERE memory_id = '{}' AND version = 2",
        edited.memory_id
    );
    assert_eq!(store.count(&version).await, 1, "the edit embedded the new version in place");
    assert_eq!(store.count("SELECT count(*) FROM memory_embeddings").await, 5);

    blended.change(&work[1].memory_id, StatusChange::Delete).await.unwrap();
    let gone =
        format!("SELECT count(*) FROM memory_embeddings WHERE memory_id = '{}'", work[1].memory_id);
    assert_eq!(store.count(&gone).await, 0, "deleting erases what was derived from the text");
    let requests = server.received_requests().await.unwrap();
    assert!(requests.iter().all(|r| r.url.path() == "/embeddings"));
}

fn learned(text: &str) -> Memory {
    Memory {
        memory_id: new_id(),
        user_id: "u1".into(),
        kind: Kind::Background,
        scope: "global".parse().unwrap(),
        origin: Origin::Auto,
        status: Status::Active,
        version: 1,
        content: Some(text.into()),
        created_at: at("2026-10-01T00:00:00Z"),
        updated_at: at("2026-10-01T00:00:00Z"),
        expires_at: None,
        source_conversation_id: None,
        source_message_id: None,
    }
}

async fn a_run_embeds_what_has_no_embedding_and_never_fails_for_it<S: RawSql>(store: &S) {
    let server = embeddings_server().await;
    let cheese = learned("负责奶酪工艺");
    store.apply(vec![Write::InsertMemory(cheese.clone())]).await.unwrap();
    set_work(store, None).await;
    let blended = Manager::new(store, now(), &NO_EXTRA).with_embedder(None);
    assert_eq!(
        first_recalled(&blended, "cheese?").await,
        "Cheese-stick plant trial next month",
        "no embedding yet: ranked lexically"
    );

    let down = failing_server(ResponseTemplate::new(503)).await;
    let options = || dreamd::run::RunOptions::once(now(), false);
    let provider = dreamd::llm::Provider::Rules;
    let failed = dreamd::run::run_once(store, &config(&down.uri()), &provider, options()).await;
    let failed = failed.expect("a failed embedding never fails the run");
    assert_eq!((failed.memories_embedded, failed.llm.failures), (0, 1));

    // One 503 (asking for no wait), then the embeddings: one retry fetches them.
    let flaky = MockServer::start().await;
    let busy = ResponseTemplate::new(503).insert_header("Retry-After", "0");
    Mock::given(method("POST")).respond_with(busy).up_to_n_times(1).mount(&flaky).await;
    Mock::given(method("POST")).respond_with(FakeEmbeddings).mount(&flaky).await;
    let retrying = Config::from_toml(&format!(
        "[llm]\nbase_url = \"{}\"\nembedding_model = \"fake-embed\"\nmax_retries = 1\n",
        flaky.uri()
    ))
    .unwrap();
    let ran = dreamd::run::run_once(store, &retrying, &provider, options()).await.unwrap();
    let counted = (ran.memories_embedded, ran.llm.calls, ran.llm.failures, ran.llm.prompt_tokens);
    assert_eq!(counted, (6, 2, 1, 3), "one failure, one retry that embedded all");
    let again = dreamd::run::run_once(store, &config(&server.uri()), &provider, options()).await;
    assert_eq!(again.unwrap().memories_embedded, 0, "every version has its embedding");

    let embedder = embedder(&server.uri());
    let blended = Manager::new(store, now(), &NO_EXTRA).with_embedder(Some(&embedder));
    let recalled = blended.recall("u1", &[], 2, Some("cheese?")).await.unwrap();
    let contents: Vec<&str> =
        recalled.iter().map(|r| r.memory.content.as_deref().unwrap()).collect();
    assert_eq!(contents, ["Cheese-stick plant trial next month", "负责奶酪工艺"]);
}

async fn recall_ranks_lexically_when_the_query_cannot_be_embedded<S: RawSql>(store: &S) {
    let server = embeddings_server().await;
    set_work(store, Some(&embedder(&server.uri()))).await;
    let lexical = Manager::new(store, now(), &NO_EXTRA);
    let question = "How is the low-sugar yogurt recipe going? 燕麦饮";
    let expected = first_recalled(&lexical, question).await;
    assert_eq!(expected, "在整理燕麦饮的数据");
    for answer in [
        ResponseTemplate::new(500),
        ResponseTemplate::new(200).set_body_string("not json"),
        ResponseTemplate::new(200).set_body_json(json!({"data": []})),
        ResponseTemplate::new(200).set_delay(Duration::from_secs(3)),
    ] {
        let down = failing_server(answer).await;
        let embedder = embedder(&down.uri());
        let manager = Manager::new(store, now(), &NO_EXTRA).with_embedder(Some(&embedder));
        let started = std::time::Instant::now();
        assert_eq!(first_recalled(&manager, question).await, expected);
        assert!(started.elapsed() < Duration::from_secs(2), "one call under llm.timeout_secs");
        assert_eq!(down.received_requests().await.unwrap().len(), 1, "one call, no retry");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_command_line_embeds_and_logs_a_failed_query_without_its_text() {
    let server = embeddings_server().await;
    let d = Dreamd::sqlite()
        .env("DREAMD_LLM__BASE_URL", &server.uri())
        .env("DREAMD_LLM__EMBEDDING_MODEL", "fake-embed");
    for (text, when) in WORK {
        let args =
            ["memories", "set", "--user", "u1", "--kind", "recent_focus", "--scope", "global"];
        d.run(&[&args[..], &[*text, "--format", "json", "--now", when]].concat()).json();
    }
    let question = "How is the low-sugar yogurt recipe going?";
    let recall =
        |d: &Dreamd| d.json(&["recall", "--user", "u1", "--limit", "1", "--query", question]);
    assert_eq!(recall(&d)[0]["content"], "在做低糖酸奶的配方");

    let down = failing_server(ResponseTemplate::new(500)).await;
    let d = d.env("DREAMD_LLM__BASE_URL", &down.uri());
    let run =
        d.run(&["recall", "--user", "u1", "--limit", "1", "--query", question, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lexical: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(lexical[0]["content"], "Training the sensory panel", "ranked lexically");
    assert!(run.stderr.contains("could not embed the recall query"), "{}", run.stderr);
    assert!(run.stderr.contains("HTTP 500"), "{}", run.stderr);
    assert!(!run.stderr.contains("yogurt"), "the query reached a log: {}", run.stderr);
}
