//! Replica scaling (issue 10): conversations/s of 1, 2 and 4 `dreamd
//! --run-once` processes of this build on one PostgreSQL over the same input,
//! with a 200 ms model at `llm.concurrency = 8` each; target: 4 replicas
//! ≥ 3.5× one. Also the CPU time the dreamd processes spent per conversation
//! (their user + system time as this process reaps them; the database
//! server's and the fake model's time are not in it); target ≤ 1.0 ms.
//!
//! PostgreSQL: `DREAMD_TEST_POSTGRES_URL` when set, else a throwaway cluster
//! started with `.ci/postgres` in a directory of its own.
//! `DREAMD_BENCH_REPLICA_CONVERSATIONS` changes the input size (1,600).

mod common;

use common::{Model, children_cpu_seconds};
use sqlx::Connection;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer};

const NOW: &str = "2026-11-29T12:00:00Z";
const USERS: usize = 100;
const LATENCY: Duration = Duration::from_millis(200);

/// A PostgreSQL server: the one tests use, or a throwaway one stopped on drop.
struct Postgres {
    admin_url: String,
    own_dir: Option<std::path::PathBuf>,
}

impl Postgres {
    fn script(dir: &std::path::Path, action: &str) -> std::process::Output {
        Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/postgres"))
            .arg(action)
            .env("DREAMD_PG_DIR", dir)
            .stderr(Stdio::inherit())
            .output()
            .unwrap()
    }

    fn get() -> Postgres {
        if let Ok(url) = std::env::var("DREAMD_TEST_POSTGRES_URL")
            && !url.is_empty()
        {
            return Postgres { admin_url: url, own_dir: None };
        }
        let dir = std::env::temp_dir().join(format!("dreamd-bench-pg-{}", std::process::id()));
        let out = Postgres::script(&dir, "start");
        assert!(out.status.success(), "could not start PostgreSQL with .ci/postgres");
        let printed = String::from_utf8(out.stdout).unwrap();
        let admin_url = printed.trim().rsplit('=').next().unwrap().to_owned();
        Postgres { admin_url, own_dir: Some(dir) }
    }

    async fn fresh_database(&self) -> String {
        let name = format!("dreamd_bench_{}", uuid::Uuid::now_v7().simple());
        let mut admin = sqlx::PgConnection::connect(&self.admin_url).await.unwrap();
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut admin)
            .await
            .unwrap();
        let base = self.admin_url.rsplit_once('/').map_or(self.admin_url.as_str(), |(b, _)| b);
        format!("{base}/{name}")
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        if let Some(dir) = &self.own_dir {
            Postgres::script(dir, "stop");
        }
    }
}

/// `n` conversations of four messages (two user turns), idle since yesterday.
fn input(n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for c in 0..n {
        for m in 0..4 {
            let (role, content) = match m % 2 {
                0 => ("user", format!("以后看报告都先说结果，再列数据表 (turn {m})")),
                _ => ("assistant", "好的，我会先给出结论，再列出支撑数据。".to_owned()),
            };
            writeln!(
                out,
                r#"{{"user_id":"u{}","conversation_id":"c{c}","message_id":"m{m}","role":"{role}","content":"{content}","created_at":"2026-11-28T08:{m:02}:00Z"}}"#,
                c % USERS
            )
            .unwrap();
        }
    }
    out
}

fn dreamd(database_url: &str, model_url: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dreamd"));
    command
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DREAMD_DATABASE__URL", database_url)
        .env("DREAMD_LOG__LEVEL", "warn")
        .env("DREAMD_LLM__PROVIDER", "openai")
        .env("DREAMD_LLM__BASE_URL", model_url)
        .env("DREAMD_LLM__MODEL", "fake")
        .env("DREAMD_LLM__CONCURRENCY", "8")
        .env("DREAMD_LLM__MAX_TOKENS_PER_RUN", "1000000000")
        .env("DREAMD_SELECTION__MAX_CONVERSATIONS_PER_RUN", "100000")
        .env("OPENAI_API_KEY", "sk-bench-not-a-real-key-000000");
    command
}

struct Measured {
    rate: f64,
    cpu_ms_per_conversation: f64,
}

async fn replicas(pg: &Postgres, model: &MockServer, n: usize, count: usize) -> Measured {
    let url = pg.fresh_database().await;
    let mut ingest = dreamd(&url, &model.uri(), &["ingest", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    ingest.stdin.take().unwrap().write_all(&input(n)).unwrap();
    assert!(ingest.wait().unwrap().success(), "ingest failed");
    let calls_before = model.received_requests().await.unwrap_or_default().len();

    let cpu_before = children_cpu_seconds();
    let start = Instant::now();
    let children: Vec<_> = (0..count)
        .map(|_| {
            dreamd(&url, &model.uri(), &["--run-once", "--format", "json", "--now", NOW])
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let summaries: Vec<serde_json::Value> = children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(0), "a replica failed");
            serde_json::from_slice(&out.stdout).unwrap()
        })
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    let cpu_after = children_cpu_seconds();
    let (user, system) = (cpu_after.0 - cpu_before.0, cpu_after.1 - cpu_before.1);
    let cpu = user + system;

    let per: Vec<u64> =
        summaries.iter().map(|s| s["conversations"]["done"].as_u64().unwrap()).collect();
    assert_eq!(per.iter().sum::<u64>(), n as u64, "every conversation done exactly once");
    let users: u64 = summaries.iter().map(|s| s["users"]["consolidated"].as_u64().unwrap()).sum();
    let mut db = sqlx::PgConnection::connect(&url).await.unwrap();
    let waiting: i64 =
        sqlx::query_scalar("SELECT count(DISTINCT user_id) FROM slips WHERE state = 'new'")
            .fetch_one(&mut db)
            .await
            .unwrap();
    let calls = model.received_requests().await.unwrap_or_default().len() - calls_before;
    let rate = n as f64 / seconds;
    let cpu_ms_per_conversation = cpu * 1000.0 / n as f64;
    println!(
        "{count} replica(s): {n} conversations in {seconds:.2} s = {rate:.1} conversations/s \
         (limit {:.0}/s); per replica {per:?}; {users} users consolidated, {waiting} left for the next run; \
         {calls} model calls; dreamd CPU {cpu:.2} s ({user:.2} user, {system:.2} system) \
         = {cpu_ms_per_conversation:.3} ms/conversation",
        count as f64 * 8.0 / LATENCY.as_secs_f64()
    );
    Measured { rate, cpu_ms_per_conversation }
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::var("DREAMD_BENCH_REPLICA_CONVERSATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1600);
    let pg = Postgres::get();
    let model = MockServer::start().await;
    Mock::given(method("POST")).respond_with(Model { delay: LATENCY }).mount(&model).await;
    println!(
        "replicas: {n} conversations of {USERS} users, 200 ms model, llm.concurrency = 8 per replica"
    );
    let one = replicas(&pg, &model, n, 1).await;
    replicas(&pg, &model, n, 2).await;
    let four = replicas(&pg, &model, n, 4).await;
    let ratio = four.rate / one.rate;
    println!(
        "  4 replicas / 1 = {ratio:.2}× (target ≥ 3.5×: {})",
        if ratio >= 3.5 { "met" } else { "missed" }
    );
    let cpu = one.cpu_ms_per_conversation.max(four.cpu_ms_per_conversation);
    println!(
        "  dreamd CPU per conversation, both stages: up to {cpu:.3} ms (target ≤ 1.0 ms: {})",
        if cpu <= 1.0 { "met" } else { "missed" }
    );
}
