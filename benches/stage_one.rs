//! Pipeline throughput (issues 3 and 4). Prints figures; asserts nothing
//! about speed. Data is generated at run time.
//!
//! 1. conversations/s through selection, stage one and stage two with an
//!    instant fake model (HTTP, SQLite) that proposes a slip per conversation
//!    and a memory per user: target ≥ 1,000/s;
//! 2. conversations/s with a 200 ms model at concurrency 16 against the limit
//!    of 16 / 0.2 s = 80/s: target ≥ 0.9 of it;
//! 3. prompt tokens when a 200-message conversation grows by 5, against
//!    sending it whole: target ≥ 10× fewer;
//! 4. selection time at 10 million messages (`DREAMD_BENCH_MESSAGES` to
//!    change): target ≤ 10 ms.

mod common;

use common::{Model, content};
use dreamd::config::Config;
use dreamd::ingest::ingest;
use dreamd::llm::Provider;
use dreamd::run::{RunOptions, run_once};
use dreamd::select::Window;
use dreamd::store::{SqliteStore, Store};
use dreamd::text::estimate_tokens;
use std::io::Write;
use std::time::{Duration, Instant};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

const NOW: &str = "2026-11-29T12:00:00Z";

fn answer() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(serde_json::json!({
        "id": "x", "object": "chat.completion", "created": 0, "model": "fake",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "{\"slips\": []}"}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    }))
}

async fn fake_model(delay: Duration) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST")).respond_with(answer().set_delay(delay)).mount(&server).await;
    server
}

fn config(dir: &std::path::Path, base_url: &str, concurrency: u32) -> Config {
    let file = dir.join("dreamd.toml");
    std::fs::write(
        &file,
        format!(
            "[llm]\nprovider = \"openai\"\nbase_url = \"{base_url}\"\nmodel = \"fake\"\nconcurrency = {concurrency}\nmax_tokens_per_run = 1000000000\n\
             [selection]\nmax_conversations_per_run = 100000\n"
        ),
    )
    .unwrap();
    Config::load(Some(&file)).unwrap()
}

fn conversations(count: usize, messages_each: usize, first_id: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for c in first_id..first_id + count {
        for m in 0..messages_each {
            let role = if m % 2 == 0 { "user" } else { "assistant" };
            writeln!(
                out,
                r#"{{"user_id":"u{}","conversation_id":"c{c}","message_id":"m{m}","role":"{role}","content":"{}","created_at":"2026-11-28T{:02}:{:02}:00Z"}}"#,
                c % 50,
                content(role, m),
                m / 60,
                m % 60
            )
            .unwrap();
        }
    }
    out
}

async fn store_with(dir: &std::path::Path, input: &[u8]) -> SqliteStore {
    let store = SqliteStore::open(&dir.join("bench.db")).await.unwrap();
    ingest(&store, input, &Default::default()).await.unwrap();
    store
}

async fn throughput(
    label: &str,
    conversations_n: usize,
    delay: Option<Duration>,
    concurrency: u32,
) -> f64 {
    let dir = tempfile::TempDir::new().unwrap();
    let server = match delay {
        Some(delay) => fake_model(delay).await,
        None => {
            let server = MockServer::start().await;
            Mock::given(method("POST"))
                .respond_with(Model { delay: Duration::ZERO })
                .mount(&server)
                .await;
            server
        }
    };
    let config = config(dir.path(), &server.uri(), concurrency);
    let store = store_with(dir.path(), &conversations(conversations_n, 8, 0)).await;
    let provider = Provider::from_config(&config).unwrap();
    let start = Instant::now();
    let summary =
        run_once(&store, &config, &provider, RunOptions::once(NOW.parse().unwrap(), false))
            .await
            .unwrap();
    let seconds = start.elapsed().as_secs_f64();
    assert_eq!(summary.conversations.done as usize, conversations_n);
    let rate = conversations_n as f64 / seconds;
    println!(
        "{label}: {conversations_n} conversations in {seconds:.2} s = {rate:.0} conversations/s \
         ({} slips kept, {} users consolidated, {} memories created, {} model calls)",
        summary.slips.kept,
        summary.users.consolidated,
        summary.operations.applied.create,
        summary.llm.calls
    );
    rate
}

async fn growth_tokens() {
    let dir = tempfile::TempDir::new().unwrap();
    let server = fake_model(Duration::ZERO).await;
    let config = config(dir.path(), &server.uri(), 1);
    let store = store_with(dir.path(), &conversations(1, 200, 0)).await;
    let provider = Provider::from_config(&config).unwrap();
    run_once(&store, &config, &provider, RunOptions::once(NOW.parse().unwrap(), false))
        .await
        .unwrap();
    let mut grown = Vec::new();
    for m in 200..205 {
        let role = if m % 2 == 0 { "user" } else { "assistant" };
        writeln!(
            grown,
            r#"{{"user_id":"u0","conversation_id":"c0","message_id":"m{m}","role":"{role}","content":"{}","created_at":"2026-11-29T05:{:02}:00Z"}}"#,
            content(role, m),
            m - 200
        )
        .unwrap();
    }
    ingest(&store, grown.as_slice(), &Default::default()).await.unwrap();
    run_once(&store, &config, &provider, RunOptions::once(NOW.parse().unwrap(), false))
        .await
        .unwrap();
    let tokens: Vec<u64> = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| {
            let chat: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
            chat["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| estimate_tokens(m["content"].as_str().unwrap()))
                .sum()
        })
        .collect();
    let whole: u64 = tokens[..tokens.len() - 1].iter().sum();
    let incremental = *tokens.last().unwrap();
    println!(
        "growth: 200-message conversation sent whole = {whole} prompt tokens in {} calls; grown by 5 = {incremental} tokens; {:.1}× fewer (target ≥ 10×)",
        tokens.len() - 1,
        whole as f64 / incremental as f64
    );
}

async fn selection_at_scale() {
    let messages: usize = std::env::var("DREAMD_BENCH_MESSAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    let dir = tempfile::TempDir::new().unwrap();
    let store = SqliteStore::open(&dir.path().join("bench.db")).await.unwrap();
    let per_conversation = 50;
    let batch_conversations = 20_000;
    let start = Instant::now();
    let mut first = 0;
    while first * per_conversation < messages {
        let n = batch_conversations.min(messages / per_conversation - first);
        ingest(&store, conversations(n, per_conversation, first).as_slice(), &Default::default())
            .await
            .unwrap();
        first += n;
    }
    println!(
        "selection: {} messages in {first} conversations ingested in {:.0} s",
        first * per_conversation,
        start.elapsed().as_secs_f64()
    );
    let now: dreamd::domain::Time = NOW.parse().unwrap();
    let window = Window {
        now,
        idle_cutoff: now - chrono::Duration::hours(6),
        lookback_cutoff: now - chrono::Duration::days(7),
        limit: 1000,
    };
    let mut timings = Vec::new();
    for _ in 0..21 {
        let t = Instant::now();
        let selected = store.select_conversations(&window, None).await.unwrap();
        timings.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(selected.len(), 1000);
    }
    timings.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "selection: median {:.2} ms to select 1,000 of {first} pending conversations (target ≤ 10 ms)",
        timings[10]
    );
}

#[tokio::main]
async fn main() {
    let instant = throughput("both stages, instant model, concurrency 8", 5_000, None, 8).await;
    println!("  target ≥ 1000/s: {}", if instant >= 1000.0 { "met" } else { "missed" });
    let slow =
        throughput("200 ms model, concurrency 16", 800, Some(Duration::from_millis(200)), 16).await;
    println!("  {:.2} of the 80/s limit (target ≥ 0.9)", slow / 80.0);
    growth_tokens().await;
    selection_at_scale().await;
}
