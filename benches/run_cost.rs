//! What a run costs, measured as a user would (issue 10, item 8): this
//! build's `dreamd --run-once` as its own process on SQLite, against a fake
//! OpenAI-compatible model served over HTTP by this process. Prints figures
//! against their targets; asserts only that the work was done.
//!
//! 1. CPU per conversation of a whole run (both stages, instant model): the
//!    dreamd process's user + system time as this process reaps it, divided
//!    by the conversations done; target ≤ 1.0 ms. Median of 5 runs, each on
//!    a fresh copy of the same database. With `perf` on the PATH, one more
//!    run is profiled and its samples are grouped by where they fall.
//! 2. Wall time with a 200 ms model, 400 users × 1 conversation at
//!    `llm.concurrency = 16`, against the limit C/L for both stages
//!    (400 / 16 × 0.2 s per stage); target ≥ 0.9 of it.
//! 3. Prompt characters when a 200-message conversation of 20–60 character
//!    messages grows by 5, against sending it whole; target ≥ 10× fewer.
//!
//! `DREAMD_BENCH_RUN_CONVERSATIONS` changes the size of 1 (2,000).

mod common;

use common::{Model, children_cpu_seconds, content};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer};

const NOW: &str = "2026-11-29T12:00:00Z";

async fn model(delay: Duration) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST")).respond_with(Model { delay }).mount(&server).await;
    server
}

/// `count` conversations of `messages` alternating turns, of `users` users,
/// idle since yesterday morning.
fn input(count: usize, messages: usize, users: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for c in 0..count {
        for m in 0..messages {
            let role = if m.is_multiple_of(2) { "user" } else { "assistant" };
            writeln!(
                out,
                r#"{{"user_id":"u{}","conversation_id":"c{c}","message_id":"m{m}","role":"{role}","content":"{}","created_at":"2026-11-28T{:02}:{:02}:00Z"}}"#,
                c % users,
                content(role, m),
                m / 60,
                m % 60
            )
            .unwrap();
        }
    }
    out
}

fn dreamd(dir: &Path, model_url: &str, concurrency: u32, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dreamd"));
    command
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DREAMD_DATABASE__URL", "sqlite://bench.db")
        .env("DREAMD_LOG__LEVEL", "warn")
        .env("DREAMD_LLM__PROVIDER", "openai")
        .env("DREAMD_LLM__BASE_URL", model_url)
        .env("DREAMD_LLM__MODEL", "fake")
        .env("DREAMD_LLM__CONCURRENCY", concurrency.to_string())
        .env("DREAMD_LLM__MAX_TOKENS_PER_RUN", "1000000000")
        .env("DREAMD_SELECTION__MAX_CONVERSATIONS_PER_RUN", "100000")
        .env("OPENAI_API_KEY", "sk-bench-not-a-real-key-000000");
    command
}

fn ingest(dir: &Path, lines: &[u8]) {
    let mut child = dreamd(dir, "http://127.0.0.1:9", 1, &["ingest", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(lines).unwrap();
    assert!(child.wait().unwrap().success(), "ingest failed");
}

/// One `--run-once` on a copy of `template`: its summary, wall seconds,
/// and the user and system CPU seconds of the dreamd process.
struct Run {
    summary: serde_json::Value,
    wall: f64,
    user: f64,
    system: f64,
}

fn run_once(template: &Path, model_url: &str, concurrency: u32, wrapper: &[&str]) -> Run {
    let dir = tempfile::TempDir::new().unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let from = PathBuf::from(format!("{}{suffix}", template.display()));
        if from.exists() {
            std::fs::copy(&from, dir.path().join(format!("bench.db{suffix}"))).unwrap();
        }
    }
    let mut command = dreamd(
        dir.path(),
        model_url,
        concurrency,
        &["--run-once", "--format", "json", "--now", NOW],
    );
    if let Some((program, args)) = wrapper.split_first() {
        let inner = command;
        command = Command::new(program);
        command.args(args).arg(inner.get_program()).args(inner.get_args());
        command.current_dir(dir.path()).env_clear();
        for (k, v) in inner.get_envs() {
            command.env(k, v.unwrap());
        }
    }
    let before = children_cpu_seconds();
    let start = Instant::now();
    let out = command.stderr(Stdio::inherit()).output().unwrap();
    let wall = start.elapsed().as_secs_f64();
    let after = children_cpu_seconds();
    assert_eq!(out.status.code(), Some(0), "the run failed");
    let summary = serde_json::from_slice(&out.stdout).unwrap();
    Run { summary, wall, user: after.0 - before.0, system: after.1 - before.1 }
}

/// A database with `lines` ingested, to copy for each run.
fn template(lines: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::TempDir::new().unwrap();
    ingest(dir.path(), lines);
    let path = dir.path().join("bench.db");
    (dir, path)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values[values.len() / 2]
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "missed" }
}

async fn cpu_per_conversation() {
    let n: usize = std::env::var("DREAMD_BENCH_RUN_CONVERSATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let server = model(Duration::ZERO).await;
    let (_dir, db) = template(&input(n, 8, 50));
    let (_empty_dir, empty) = template(b"");
    let idle: Vec<Run> = (0..5).map(|_| run_once(&empty, &server.uri(), 8, &[])).collect();
    let runs: Vec<Run> = (0..5).map(|_| run_once(&db, &server.uri(), 8, &[])).collect();
    for run in &runs {
        assert_eq!(run.summary["conversations"]["done"].as_u64(), Some(n as u64));
    }
    let per_ms = |r: &Run| (r.user + r.system) * 1000.0 / n as f64;
    let cpu = median(runs.iter().map(per_ms).collect());
    let user = median(runs.iter().map(|r| r.user * 1000.0 / n as f64).collect());
    let system = median(runs.iter().map(|r| r.system * 1000.0 / n as f64).collect());
    let fixed = median(idle.iter().map(|r| (r.user + r.system) * 1000.0).collect());
    let wall = median(runs.iter().map(|r| r.wall).collect());
    let s = &runs[0].summary;
    println!(
        "cpu: {n} conversations of 8 messages, 50 users, instant model, SQLite: whole run {wall:.2} s, \
         {} slips kept, {} users consolidated, {} model calls",
        s["slips"]["kept"], s["users"]["consolidated"], s["llm"]["calls"]
    );
    println!(
        "  dreamd CPU per conversation (median of 5): {cpu:.3} ms = {user:.3} user + {system:.3} system \
         (target ≤ 1.0 ms: {}); a run with nothing to do costs {fixed:.0} ms in all",
        verdict(cpu <= 1.0)
    );
    profile(&db, &server.uri(), n);
}

/// Where the time goes: one more run under `perf record`, its samples
/// grouped by the code they fall in. Skipped where perf is missing.
fn profile(db: &Path, model_url: &str, n: usize) {
    let data = std::env::temp_dir().join(format!("dreamd-run-cost-{}.perf", std::process::id()));
    let data_arg = data.to_str().unwrap();
    let recorded =
        Command::new("perf").args(["record", "-o", data_arg, "-F", "999", "true"]).output();
    if !recorded.is_ok_and(|o| o.status.success()) {
        println!("  where the time goes: not profiled (perf is not available)");
        return;
    }
    println!("  where the time goes ({n} conversations, perf samples of the dreamd process):");
    run_once(db, model_url, 8, &["perf", "record", "-q", "-o", data_arg, "-F", "999", "--"]);
    let report = |sort: &str| {
        let out = Command::new("perf")
            .args(["report", "-i", data_arg, "--no-children", "--sort", sort, "--stdio"])
            .args(["--percent-limit", "0", "-g", "none"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let by_thread = report("comm,dso");
    let text = report("dso,sym");
    let _ = std::fs::remove_file(&data);
    let mut threads: Vec<(String, f64)> = Vec::new();
    for line in
        by_thread.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
    {
        let mut words = line.split_whitespace();
        let (Some(percent), Some(thread), Some(dso)) = (words.next(), words.next(), words.next())
        else {
            continue;
        };
        let Ok(percent) = percent.trim_end_matches('%').parse::<f64>() else { continue };
        let thread = if thread.starts_with("sqlx-sqlite") {
            "SQLite worker threads"
        } else {
            "runtime thread"
        };
        let side = if dso.starts_with("[kernel") { "in the kernel" } else { "in user space" };
        let name = format!("{thread} {side}");
        match threads.iter_mut().find(|(n, _)| *n == name) {
            Some((_, p)) => *p += percent,
            None => threads.push((name, percent)),
        }
    }
    threads.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap());
    let threads: Vec<String> = threads.iter().map(|(name, p)| format!("{name} {p:.0} %")).collect();
    println!("  by thread: {}", threads.join(", "));
    let mut groups: Vec<(&str, f64)> = GROUPS.iter().map(|(name, _)| (*name, 0.0)).collect();
    let mut other = 0.0;
    for line in text.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())) {
        let Some(percent) = line
            .split_whitespace()
            .next()
            .and_then(|p| p.trim_end_matches('%').parse::<f64>().ok())
        else {
            continue;
        };
        match GROUPS.iter().position(|(_, patterns)| patterns.iter().any(|p| line.contains(p))) {
            Some(i) => groups[i].1 += percent,
            None => other += percent,
        }
    }
    groups.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap());
    let shares: Vec<String> = groups
        .iter()
        .filter(|(_, p)| *p >= 0.5)
        .map(|(name, p)| format!("{name} {p:.0} %"))
        .chain(std::iter::once(format!("other {other:.0} %")))
        .collect();
    println!("  by code: {}", shares.join(", "));
    println!(
        "  reading: the kernel's scheduler is threads woken and put to sleep, a round trip \
         between the runtime and a SQLite worker thread per statement (sqlx runs each SQLite \
         connection on a thread of its own); fewer statements per conversation is what lowers it"
    );
}

/// Sample groups, first match wins: the kernel's scheduler (a thread put to
/// sleep or woken: the hand-offs between the runtime and SQLite's worker
/// threads), the rest of the kernel (system calls: SQLite's file writes,
/// sockets, futexes), then libraries by symbol.
const GROUPS: &[(&str, &[&str])] = &[
    (
        "kernel scheduler",
        &["finish_task_switch", "_raw_spin_unlock", "try_to_wake_up", "__schedule"],
    ),
    ("kernel, other", &["[kernel", "[k]"]),
    ("SQLite", &["sqlite3", "libsqlite"]),
    ("sqlx", &["sqlx"]),
    ("JSON", &["serde_json", "serde::", "serde_core"]),
    ("HTTP client", &["hyper", "reqwest", "h2::", "http::", "rustls", "aws_lc"]),
    ("async runtime", &["tokio", "futures", "parking_lot", "crossbeam"]),
    ("allocator", &["malloc", "free", "realloc", "memmove", "memcpy", "memset", "_int_"]),
    (
        "detectors",
        &[
            "regex",
            "aho_corasick",
            "phonenumber",
            "unicode_normalization",
            "dreamd::detect",
            "dreamd::text",
        ],
    ),
    ("tracing", &["tracing"]),
    ("dreamd", &["dreamd::"]),
    ("libc", &["libc.so", "pthread", "__GI"]),
];

async fn wall_against_the_limit() {
    const USERS: usize = 400;
    const CONCURRENCY: u32 = 16;
    const LATENCY: Duration = Duration::from_millis(200);
    let server = model(LATENCY).await;
    let (_dir, db) = template(&input(USERS, 4, USERS));
    let runs: Vec<Run> = (0..3).map(|_| run_once(&db, &server.uri(), CONCURRENCY, &[])).collect();
    let wall = median(runs.iter().map(|r| r.wall).collect());
    let s = &runs[0].summary;
    assert_eq!(s["conversations"]["done"].as_u64(), Some(USERS as u64));
    assert_eq!(s["users"]["consolidated"].as_u64(), Some(USERS as u64));
    let limit = 2.0 * (USERS as f64 / CONCURRENCY as f64) * LATENCY.as_secs_f64();
    let ratio = limit / wall;
    println!(
        "latency: {USERS} users × 1 conversation, 200 ms model, llm.concurrency = {CONCURRENCY}: both stages in {wall:.2} s \
         (median of 3) against the limit {limit:.1} s = {ratio:.2} of it (target ≥ 0.9: {})",
        verdict(ratio >= 0.9)
    );
}

/// Messages of 20–60 characters, varied so no two are alike.
fn short_message(m: usize) -> String {
    let base = "以后看报告都先说结果再列数据表标准按流程卡整理每步列出温度时间判断条件条款号";
    let chars: Vec<char> = base.chars().collect();
    let len = 20 + (m * 7) % 41 - (m.to_string().len() + 2);
    let start = m % (chars.len() - 20);
    let text: String = chars.iter().cycle().skip(start).take(len).collect();
    format!("{text} #{m}")
}

async fn growth_prompt_characters() {
    let server = model(Duration::ZERO).await;
    let dir = tempfile::TempDir::new().unwrap();
    let line = |m: usize, at: &str| {
        let role = if m.is_multiple_of(2) { "user" } else { "assistant" };
        format!(
            r#"{{"user_id":"u0","conversation_id":"c0","message_id":"m{m}","role":"{role}","content":"{}","created_at":"{at}"}}"#,
            short_message(m)
        )
    };
    let first: Vec<String> =
        (0..200).map(|m| line(m, &format!("2026-11-28T{:02}:{:02}:00Z", m / 60, m % 60))).collect();
    ingest(dir.path(), (first.join("\n") + "\n").as_bytes());
    let run = |now: &str| {
        let out = dreamd(dir.path(), &server.uri(), 1, &["--run-once", "--now", now])
            .stdout(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "the run failed");
    };
    run(NOW);
    server.reset().await;
    Mock::given(method("POST")).respond_with(Model { delay: Duration::ZERO }).mount(&server).await;
    let grown: Vec<String> =
        (200..205).map(|m| line(m, &format!("2026-11-29T13:{:02}:00Z", m - 200))).collect();
    ingest(dir.path(), (grown.join("\n") + "\n").as_bytes());
    run("2026-11-29T20:00:00Z");
    let incremental = prompt_characters(&server).await;
    let whole = reread_characters(&server, (0..205).map(|m| line(m, "2026-11-28T00:00:00Z"))).await;
    let lengths: Vec<usize> = (0..205).map(|m| short_message(m).chars().count()).collect();
    println!(
        "growth: a 200-message conversation of {}–{}-character messages grown by 5 = {} prompt characters \
         in {} call(s) (stage one); re-reading all 205 = {} characters in {} calls; {:.1}× fewer (target ≥ 10×: {})",
        lengths.iter().min().unwrap(),
        lengths.iter().max().unwrap(),
        incremental.0,
        incremental.1,
        whole.0,
        whole.1,
        whole.0 as f64 / incremental.0 as f64,
        verdict(whole.0 as f64 >= 10.0 * incremental.0 as f64)
    );
}

/// What sending a whole conversation costs: `lines` ingested into a fresh
/// database, one run, its stage-one prompt characters and calls.
async fn reread_characters(
    server: &MockServer,
    lines: impl Iterator<Item = String>,
) -> (usize, usize) {
    server.reset().await;
    Mock::given(method("POST")).respond_with(Model { delay: Duration::ZERO }).mount(server).await;
    let dir = tempfile::TempDir::new().unwrap();
    ingest(dir.path(), (lines.collect::<Vec<_>>().join("\n") + "\n").as_bytes());
    let out = dreamd(dir.path(), &server.uri(), 1, &["--run-once", "--now", NOW])
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "the run failed");
    prompt_characters(server).await
}

/// Characters of every message of the stage-one requests received, and
/// how many requests.
async fn prompt_characters(server: &MockServer) -> (usize, usize) {
    let requests = server.received_requests().await.unwrap();
    let stage_one: Vec<serde_json::Value> = requests
        .iter()
        .map(|r| serde_json::from_slice::<serde_json::Value>(&r.body).unwrap())
        .filter(|chat| {
            chat["messages"][1]["content"].as_str().is_some_and(|c| c.contains("\"messages\""))
        })
        .collect();
    let characters = stage_one
        .iter()
        .flat_map(|chat| chat["messages"].as_array().unwrap().iter())
        .map(|m| m["content"].as_str().unwrap().chars().count())
        .sum();
    (characters, stage_one.len())
}

#[tokio::main]
async fn main() {
    cpu_per_conversation().await;
    wall_against_the_limit().await;
    growth_prompt_characters().await;
}
