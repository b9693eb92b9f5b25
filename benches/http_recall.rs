//! Recall over HTTP while a run is going (issue 13): the hot path, once per
//! conversation start. Prints figures; asserts nothing about speed.
//!
//! SQLite, one user with 1,000 memories. The HTTP server runs beside a run
//! of the pipeline (placed two ways, below), on a fake model
//! that answers after 10 ms and proposes a slip per conversation and a
//! memory per user, so the run keeps writing throughout. A real HTTP client
//! (reqwest, on its own thread and runtime) sends `POST /v1/recall` with a
//! conversation id (so each one also records a load) at 500 requests/s for
//! 10 s (`DREAMD_BENCH_SECONDS` to change), open loop: each latency is
//! counted from the moment its request was due, so a stall is not hidden by
//! the requests it delayed. Target: p99 ≤ 5 ms. The server is set up as
//! `dreamd serve` sets it up (recall's candidates kept between calls, loads
//! written by a background task; the bench checks every load was written)
//! and measured twice: as `dreamd serve` beside the daemon (its own runtime
//! and connection pool, as in its own process) and as the daemon's own
//! server (`http.listen`, sharing the run's runtime).

mod common;

use common::Model;
use dreamd::config::{Config, HttpToken};
use dreamd::domain::{Kind, Memory, Origin, Scope, Status, Write};
use dreamd::http::auth::Tokens;
use dreamd::ingest::ingest;
use dreamd::llm::Provider;
use dreamd::run::{RunOptions, run_once};
use dreamd::store::{SqliteStore, Store};
use dreamd::tools::Tools;
use dreamd::tools::loads::LoadWriter;
use std::io::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer};

const NOW: &str = "2026-11-29T12:00:00Z";
const RATE: u64 = 500;
const TOKEN: &str = "bench-token-0123456789abcdef";
const TARGET_P99_MS: f64 = 5.0;

fn config(dir: &std::path::Path, base_url: &str) -> Config {
    let file = dir.join("dreamd.toml");
    std::fs::write(
        &file,
        format!(
            "[llm]\nprovider = \"openai\"\nbase_url = \"{base_url}\"\nmodel = \"fake\"\nconcurrency = 8\nmax_tokens_per_run = 1000000000\n\
             [selection]\nmax_conversations_per_run = 100000\n"
        ),
    )
    .unwrap();
    Config::load(Some(&file)).unwrap()
}

/// Conversations for the run to work through: more than it can finish in the measurement.
fn conversations(count: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for c in 0..count {
        for m in 0..4 {
            let role = if m % 2 == 0 { "user" } else { "assistant" };
            writeln!(
                out,
                r#"{{"user_id":"u{}","conversation_id":"c{c}","message_id":"m{m}","role":"{role}","content":"以后看报告都先说结果，再列数据表 ({c}-{m})","created_at":"2026-11-28T10:{m:02}:00Z"}}"#,
                c % 200
            )
            .unwrap();
        }
    }
    out
}

/// 1,000 memories of user `bench` over kinds and scopes, some expired or disabled.
fn memories() -> Vec<Write> {
    let now: dreamd::domain::Time = NOW.parse().unwrap();
    let scopes = ["global", "domain:recipe", "domain:standard", "project:A", "project:B"];
    (0..1000)
        .map(|i| {
            let status = match i % 20 {
                0 => Status::Disabled,
                1 => Status::Retired,
                _ => Status::Active,
            };
            Write::InsertMemory(Memory {
                memory_id: format!("m{i:04}"),
                user_id: "bench".into(),
                kind: Kind::ALL[i % Kind::ALL.len()],
                scope: scopes[i % scopes.len()].parse::<Scope>().unwrap(),
                origin: if i % 3 == 0 { Origin::Explicit } else { Origin::Auto },
                status,
                version: 1,
                content: Some(format!("记忆 {i}: 报告先给结论，再列数据表和依据条款")),
                created_at: now - chrono::Duration::minutes(i as i64),
                updated_at: now - chrono::Duration::minutes(i as i64),
                expires_at: (i % 7 == 0).then(|| now - chrono::Duration::days(1)),
                source_conversation_id: None,
                source_message_id: None,
            })
        })
        .collect()
}

/// Drives recall at `RATE` per second for `seconds` from its own thread;
/// returns each request's latency from when it was due, and the failures.
fn drive(base: String, seconds: u64) -> (Vec<Duration>, usize) {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let client = reqwest::Client::new();
            let total = RATE * seconds;
            let start = Instant::now();
            let mut tasks = Vec::with_capacity(total as usize);
            for i in 0..total {
                let due = start + Duration::from_micros(i * 1_000_000 / RATE);
                tokio::time::sleep_until(due.into()).await;
                let request = client
                    .post(format!("{base}/v1/recall"))
                    .bearer_auth(TOKEN)
                    .header("content-type", "application/json")
                    .body(format!(
                        r#"{{"user_id":"bench","scopes":["domain:recipe","project:A"],"conversation_id":"agent-{i}"}}"#
                    ));
                tasks.push(tokio::spawn(async move {
                    let ok = match request.send().await {
                        Ok(response) => {
                            let ok = response.status().is_success();
                            ok && response.bytes().await.is_ok()
                        }
                        Err(_) => false,
                    };
                    (due.elapsed(), ok)
                }));
            }
            let mut latencies = Vec::with_capacity(tasks.len());
            let mut failed = 0;
            for task in tasks {
                let (latency, ok) = task.await.unwrap();
                latencies.push(latency);
                failed += usize::from(!ok);
            }
            (latencies, failed)
        })
    })
    .join()
    .unwrap()
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index].as_secs_f64() * 1000.0
}

/// Where the HTTP server runs: as `dreamd serve` beside the daemon (its own
/// process; here its own runtime, thread and connection pool), or as the
/// daemon's own server (`http.listen`), sharing the run's runtime and pool.
#[derive(Clone, Copy, PartialEq)]
enum Placement {
    OwnProcess,
    InTheDaemon,
}

/// A server started in one placement, to be stopped the same way.
enum Running {
    InTheDaemon(dreamd::http::Server),
    OwnProcess(tokio::sync::oneshot::Sender<()>, std::thread::JoinHandle<()>),
}

impl Running {
    async fn stop(self) {
        match self {
            Running::InTheDaemon(server) => server.stop(Duration::from_secs(5)).await,
            Running::OwnProcess(stop, thread) => {
                stop.send(()).unwrap();
                tokio::task::spawn_blocking(move || thread.join().unwrap()).await.unwrap();
            }
        }
    }
}

/// The server as `dreamd serve` sets it up: candidates kept, loads queued.
fn engine(store: SqliteStore, detector: dreamd::detect::Detector) -> Arc<Tools<SqliteStore>> {
    let served = store.keeping_recall_candidates();
    Arc::new(Tools {
        loads: Some(LoadWriter::start(served.clone())),
        store: served,
        now: Some(NOW.parse().unwrap()),
        detector,
        embedder: None,
    })
}

async fn serve(
    placement: Placement,
    store: &SqliteStore,
    db: std::path::PathBuf,
    config: &Config,
) -> (std::net::SocketAddr, Running) {
    let tokens = Tokens::from_lookup(
        &[HttpToken { token_env: "BENCH_TOKEN".into(), users: vec!["bench".into()] }],
        |_| Some(TOKEN.to_owned()),
    )
    .unwrap();
    let detector = config.detector().clone();
    if placement == Placement::InTheDaemon {
        let engine = engine(store.clone(), detector);
        let listener = dreamd::http::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let options = dreamd::http::Options {
            engine,
            tokens,
            metrics_on: false,
            runs: None,
            limits: config.http.limits,
        };
        let server = dreamd::http::start(listener, options).await.unwrap();
        return (server.address(), Running::InTheDaemon(server));
    }
    let limits = config.http.limits;
    let (address_tx, address_rx) = tokio::sync::oneshot::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let engine = engine(SqliteStore::open(&db).await.unwrap(), detector);
            let listener = dreamd::http::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
            let options =
                dreamd::http::Options { engine, tokens, metrics_on: false, runs: None, limits };
            let server = dreamd::http::start(listener, options).await.unwrap();
            address_tx.send(server.address()).unwrap();
            stop_rx.await.unwrap();
            server.stop(Duration::from_secs(5)).await;
        })
    });
    (address_rx.await.unwrap(), Running::OwnProcess(stop_tx, thread))
}

#[tokio::main]
async fn main() {
    let seconds: u64 =
        std::env::var("DREAMD_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    for (placement, label) in [
        (Placement::OwnProcess, "dreamd serve beside the daemon (own process)"),
        (
            Placement::InTheDaemon,
            "the daemon's own server (http.listen, sharing the run's runtime)",
        ),
    ] {
        measure(placement, label, seconds).await;
    }
}

async fn measure(placement: Placement, label: &str, seconds: u64) {
    let dir = tempfile::TempDir::new().unwrap();
    let model = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(Model { delay: Duration::from_millis(10) })
        .mount(&model)
        .await;
    let config = config(dir.path(), &model.uri());
    let db = dir.path().join("bench.db");
    let store = SqliteStore::open(&db).await.unwrap();
    store.apply(memories()).await.unwrap();
    ingest(&store, conversations(20_000).as_slice(), &Default::default()).await.unwrap();
    let (address, server) = serve(placement, &store, db, &config).await;
    let base = format!("http://{address}");

    let provider = Provider::from_config(&config).unwrap();
    let options = RunOptions::once(NOW.parse().unwrap(), false);
    let cancel = options.cancel.clone();
    let run = run_once(&store, &config, &provider, options);
    tokio::pin!(run);
    let measured = async {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let warm = base.clone();
        tokio::task::spawn_blocking(move || drive(warm, 1)).await.unwrap();
        let started = Instant::now();
        let driven = tokio::task::spawn_blocking(move || drive(base, seconds)).await.unwrap();
        (driven, started.elapsed())
    };
    tokio::pin!(measured);
    let (finished_early, ((mut latencies, failed), elapsed)) = tokio::select! {
        summary = &mut run => (Some(summary), measured.await),
        driven = &mut measured => (None, driven),
    };
    let run_going = finished_early.is_none();
    cancel.cancel();
    let summary = match finished_early {
        Some(summary) => summary,
        None => run.await,
    }
    .unwrap();
    server.stop().await;
    let loads: i64 = sqlx::query_scalar("SELECT count(*) FROM loads WHERE user_id = 'bench'")
        .fetch_one(store.pool())
        .await
        .unwrap();
    let sent = latencies.len() as u64 + RATE;

    latencies.sort();
    let p50 = percentile(&latencies, 0.50);
    let p90 = percentile(&latencies, 0.90);
    let p99 = percentile(&latencies, 0.99);
    let max = latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    println!(
        "{label}: recall over HTTP, SQLite, 1,000 memories, {} requests at {RATE}/s in {:.1} s ({failed} failed), during a run (still going at the end: {run_going}; it extracted {} conversations):",
        latencies.len(),
        elapsed.as_secs_f64(),
        summary.conversations.done,
    );
    println!(
        "  p50 {p50:.2} ms, p90 {p90:.2} ms, p99 {p99:.2} ms, max {max:.2} ms; target p99 <= {TARGET_P99_MS} ms: {}",
        if p99 <= TARGET_P99_MS { "met" } else { "MISSED" }
    );
    println!(
        "  loads recorded (written off the request path, in batches): {loads} of {sent} recalls that named a conversation"
    );
}
