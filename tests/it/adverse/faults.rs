//! Database faults: a PostgreSQL that goes away mid-run and comes back, and
//! a SQLite write that waits longer than its busy timeout. Either costs the
//! work in flight, never a half-write, and the next run finishes the work.

use crate::app::{ingest, model_config, run_at};
use crate::fake_model::{self, Gate};
use crate::helpers::{Dreamd, line};
use serde_json::Value;
use sqlx::Connection;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A PostgreSQL server of this test's own, which it may stop and start.
struct OwnPostgres {
    dir: PathBuf,
    url: String,
}

impl OwnPostgres {
    fn script(&self, action: &str) -> std::process::Output {
        Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/postgres"))
            .arg(action)
            .env("DREAMD_PG_DIR", &self.dir)
            .stderr(Stdio::inherit())
            .output()
            .unwrap()
    }

    fn start() -> Option<OwnPostgres> {
        crate::helpers::postgres_admin_url()?;
        let dir =
            std::env::temp_dir().join(format!("dreamd-outage-{}", uuid::Uuid::now_v7().simple()));
        let mut server = OwnPostgres { dir, url: String::new() };
        let out = server.script("start");
        assert!(out.status.success(), "could not start a PostgreSQL server of the test's own");
        let printed = String::from_utf8(out.stdout).unwrap();
        server.url = printed.trim().rsplit('=').next().unwrap().to_owned();
        Some(server)
    }

    fn pause(&self) {
        assert!(self.script("pause").status.success());
    }

    fn resume(&self) {
        assert!(self.script("resume").status.success());
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        self.script("stop");
    }
}

fn yesterday() -> String {
    (chrono::Utc::now() - chrono::Duration::days(1)).to_rfc3339()
}

async fn wait_until(what: &str, bound: Duration, mut done: impl AsyncFnMut() -> bool) {
    let start = Instant::now();
    while !done().await {
        assert!(start.elapsed() < bound, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Slips per message, as `slips list` shows them.
fn slips_per_message(d: &Dreamd) -> std::collections::BTreeMap<String, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for s in d.json(&["slips", "list", "--user", "u1"]).as_array().unwrap() {
        let key = format!(
            "{}/{}",
            s["conversation_id"].as_str().unwrap(),
            s["message_id"].as_str().unwrap()
        );
        *counts.entry(key).or_default() += 1;
    }
    counts
}

#[tokio::test(flavor = "multi_thread")]
async fn postgres_going_away_mid_run_costs_the_run_and_the_daemon_finishes_later() {
    let Some(pg) = OwnPostgres::start() else { return };
    let server = fake_model::start(|doc: &Value| {
        fake_model::one_slip_per_message(doc).set_delay(Duration::from_millis(1500))
    })
    .await;
    let mut d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__CONCURRENCY", "2")
        .env("DREAMD_LLM__MAX_RETRIES", "0")
        .env("DREAMD_SELECTION__CLAIM_TTL_SECS", "3");
    d.database_url = pg.url.clone();
    let lines: Vec<String> = (0..6)
        .map(|i| line("u1", &format!("c{i}"), "m1", "user", "在做燕麦饮项目", &yesterday()))
        .collect();
    d.ingest(&lines);
    let log = std::fs::File::create(d.path("daemon.log")).unwrap();
    let mut daemon = d
        .command(&["--format", "json"])
        .env("DREAMD_SCHEDULE__CRON", "* * * * * *")
        .env("DREAMD_LOG__LEVEL", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    wait_until("a run in flight", Duration::from_secs(30), async || {
        !fake_model::documents(&server, true).await.is_empty()
    })
    .await;
    pg.pause();
    let log_text = || std::fs::read_to_string(d.path("daemon.log")).unwrap_or_default();
    wait_until("the run to fail on the outage", Duration::from_secs(30), async || {
        log_text().lines().any(|l| l.contains("run failed; the next tick tries again"))
    })
    .await;
    let once = d.run(&["--run-once", "--now", &chrono::Utc::now().to_rfc3339()]);
    assert_eq!(once.code, 1, "a run with no database exits 1: {}", once.stderr);
    assert!(once.stderr.contains("database"), "{}", once.stderr);
    assert!(daemon.try_wait().unwrap().is_none(), "the daemon keeps running through the outage");
    pg.resume();
    wait_until("all the work done after the outage", Duration::from_secs(60), async || {
        slips_per_message(&d).len() == 6
    })
    .await;
    assert!(slips_per_message(&d).values().all(|n| *n == 1), "{:?}", slips_per_message(&d));
    let failure = log_text()
        .lines()
        .find(|l| l.contains("run failed; the next tick tries again"))
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .unwrap();
    assert_eq!(failure["level"], "ERROR");
    assert!(failure["error"].as_str().unwrap().contains("database"), "{failure}");
    Command::new("kill").args(["-TERM", &daemon.id().to_string()]).status().unwrap();
    let status = daemon.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

/// A writer holds SQLite's lock past the store's busy timeout while a
/// conversation commits: that conversation fails this run, the run goes on
/// and the next one extracts it.
#[tokio::test(flavor = "multi_thread")]
async fn sqlite_locked_past_its_busy_timeout_fails_one_conversation_not_the_run() {
    let dir = tempfile::TempDir::new().unwrap();
    let path = dir.path().join("dreamd.db");
    let store =
        dreamd::store::SqliteStore::open_waiting(&path, Duration::from_millis(300)).await.unwrap();
    let gate = Gate::new();
    let held = gate.clone();
    let server = fake_model::start(move |doc: &Value| {
        held.hold();
        fake_model::one_slip_per_message(doc)
    })
    .await;
    let config = model_config(&server.uri(), "llm.concurrency = 1");
    ingest(
        &store,
        &[
            line("u1", "a", "m1", "user", "在做燕麦饮项目", "2026-11-27T08:00:00Z"),
            line("u1", "b", "m1", "user", "在做酸奶项目", "2026-11-27T09:00:00Z"),
        ],
    )
    .await;
    gate.arm();
    let (summary, ()) = tokio::join!(run_at(&store, &config, "2026-11-29T12:00:00Z"), async {
        gate.arrived().await;
        let mut locker =
            sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display())).await.unwrap();
        sqlx::query("BEGIN IMMEDIATE").execute(&mut locker).await.unwrap();
        gate.arm();
        gate.release();
        gate.arrived().await;
        sqlx::query("ROLLBACK").execute(&mut locker).await.unwrap();
        gate.release();
    });
    assert_eq!((summary.conversations.failed, summary.conversations.done), (1, 1), "{summary:?}");
    assert_eq!(
        summary.messages.extracted, 1,
        "the failed commit extracted nothing (ops round 4, M3)"
    );
    let next = run_at(&store, &config, "2026-11-29T13:00:00Z").await;
    assert_eq!((next.conversations.failed, next.conversations.done), (0, 1), "{next:?}");
    assert_eq!(next.messages.extracted, 1);
    use dreamd::store::Store;
    let mut messages: Vec<String> =
        store.slips("u1", None).await.unwrap().into_iter().map(|s| s.conversation_id).collect();
    messages.sort();
    assert_eq!(messages, ["a", "b"]);
}
