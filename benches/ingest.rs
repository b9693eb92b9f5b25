//! Ingest throughput into SQLite (target: ≥100,000 messages/s, spec issue 2).
//!
//! Builds a synthetic JSON Lines input at run time (default 1,000,000
//! messages in 10,000 conversations of 100 users; `DREAMD_BENCH_MESSAGES`
//! changes the count), ingests it into a fresh SQLite file three times
//! (each into a new database) and prints each rate and the median. Then it
//! times the selection query of spec §4 on the result, to show that the
//! indexes that serve it do not need messages scanned.

use dreamd::ingest::ingest;
use dreamd::store::SqliteStore;
use sqlx::Row;
use std::io::Write;
use std::time::Instant;

fn synthetic_input(messages: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(messages * 260);
    for i in 0..messages {
        let conversation = i / 100;
        let user = conversation % 100;
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        let minute = i % 100;
        writeln!(
            out,
            r#"{{"user_id":"user-{user}","conversation_id":"conv-{conversation}","message_id":"m{i}","role":"{role}","content":"以后看报告都先说结果，再列数据表 (message {i}) — from now on put the conclusion first","created_at":"2026-11-{:02}T{:02}:{:02}:00Z"}}"#,
            1 + conversation % 28,
            minute / 60 + 8,
            minute % 60
        )
        .unwrap();
    }
    out
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values[values.len() / 2]
}

#[tokio::main]
async fn main() {
    let messages: usize = std::env::var("DREAMD_BENCH_MESSAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let input = synthetic_input(messages);
    println!(
        "ingest: {messages} messages, {:.0} MiB of JSON Lines",
        input.len() as f64 / 1048576.0
    );
    let mut rates = Vec::new();
    let mut last = None;
    for round in 1..=3 {
        let dir = tempfile::TempDir::new().unwrap();
        let store = SqliteStore::open(&dir.path().join("bench.db")).await.unwrap();
        let start = Instant::now();
        let summary = ingest(&store, input.as_slice(), &Default::default()).await.unwrap();
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(summary.messages_new as usize, messages);
        let rate = messages as f64 / seconds;
        println!("  round {round}: {seconds:.2} s, {rate:.0} messages/s");
        rates.push(rate);
        last = Some((store, dir));
    }
    println!("ingest median: {:.0} messages/s (target ≥ 100000)", median(rates));

    let (store, _dir) = last.unwrap();
    let selection = "SELECT conversation_id FROM conversations \
                     WHERE last_seq > watermark_seq AND last_message_at <= '2026-11-20T00:00:00.000Z' \
                     ORDER BY last_message_at LIMIT 1000";
    let plan: Vec<String> =
        sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {selection}")))
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|row| row.get("detail"))
            .collect();
    let mut timings = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let rows = sqlx::query(selection).fetch_all(store.pool()).await.unwrap();
        timings.push(start.elapsed().as_secs_f64() * 1000.0);
        assert!(!rows.is_empty());
    }
    println!(
        "selection median: {:.2} ms over 20 runs; plan: {}",
        median(timings),
        plan.join(" | ")
    );
}
