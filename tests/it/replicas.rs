//! Several replicas on one PostgreSQL (spec §4 and §6 claims): four
//! `dreamd --run-once` processes started at once, then four daemons on a
//! one-second schedule over a second round of input, end with every
//! in-window message extracted exactly once, every user consolidated as one
//! process alone would have, and no claim left behind.
//!
//! CI runs 400 conversations of 40 users; `DREAMD_REPLICAS_FULL=1` runs the
//! issue's 10,000 conversations of 200 users.

use crate::app::{ingest, model_config, run_at};
use crate::helpers::{Dreamd, RawSql, fresh_postgres_database, postgres_admin_url};
use crate::service::{Daemon, daemon_with, exit_within, log_lines, signal};
use crate::workload::{self, Leftovers, Workload, differences, leftovers, state, wait_for};
use dreamd::store::PgStore;
use std::process::Stdio;
use std::time::{Duration, Instant};

const REPLICAS: usize = 4;
/// `selection.max_conversations_per_run`, the default.
const PER_RUN: usize = 1000;

struct Size {
    conversations: usize,
    users: usize,
    /// How long the daemons may take over the second round.
    bound: Duration,
}

fn size() -> Size {
    if std::env::var("DREAMD_REPLICAS_FULL").is_ok_and(|v| v == "1") {
        Size { conversations: 10_000, users: 200, bound: Duration::from_secs(1800) }
    } else {
        Size { conversations: 400, users: 40, bound: Duration::from_secs(120) }
    }
}

/// Round one: `n` conversations of 1–4 messages, one to three days old, and
/// a few older than the window. Round two: new messages in every fourth
/// conversation and `n / 4` new conversations, idle since seven hours.
fn rounds(size: &Size, now: chrono::DateTime<chrono::Utc>) -> (Workload, usize) {
    let mut w = Workload::default();
    let user = |i: usize| format!("u{:03}", i % size.users);
    for i in 0..size.conversations {
        let start = now - chrono::Duration::days(1 + (i % 3) as i64) - chrono::Duration::hours(1);
        w.conversation(&user(i), &format!("c{i:05}"), 1 + i % 4, start, true);
    }
    for i in 0..size.conversations / 20 {
        let start = now - chrono::Duration::days(9);
        w.conversation(&user(i), &format!("old{i:04}"), 2, start, false);
    }
    let first = w.lines.len();
    let recent = now - chrono::Duration::hours(7);
    for i in (0..size.conversations).step_by(4) {
        w.conversation(&user(i), &format!("c{i:05}"), 2, recent, true);
    }
    for i in 0..size.conversations / 4 {
        let id = format!("n{i:05}");
        w.conversation(&user(i * 7), &id, 1 + i % 3, recent, true);
    }
    (w, first)
}

/// One process alone over the same rounds, in process, with an instant model:
/// the state the replicas must reach.
async fn reference(w: &Workload, first: usize) -> workload::State {
    let admin = postgres_admin_url().unwrap();
    let store = PgStore::open(&fresh_postgres_database(&admin).await).await.unwrap();
    let server = workload::model(Duration::ZERO, Duration::ZERO).await;
    let config = model_config(&server.uri(), "llm.concurrency = 16");
    for round in [&w.lines[..first], w.since(first)] {
        ingest(&store, round).await;
        loop {
            let now = chrono::Utc::now().to_rfc3339();
            let run = run_at(&store, &config, &now).await;
            assert!(!run.partly_failed(), "the reference run failed: {run:?}");
            if run.conversations.selected == 0 && run.users.consolidated == 0 {
                break;
            }
        }
    }
    state(&store).await
}

#[tokio::test(flavor = "multi_thread")]
async fn four_replicas_extract_once_consolidate_as_one_and_leave_no_claim() {
    let Some(d) = Dreamd::postgres().await else { return };
    let size = size();
    let now = chrono::Utc::now();
    let (w, first) = rounds(&size, now);
    let lookback = (now - chrono::Duration::days(7)).to_rfc3339();
    let server = workload::model(Duration::from_millis(40), Duration::from_millis(40)).await;
    let d = d
        .with_model(&server.uri())
        .env("DREAMD_LLM__CONCURRENCY", "8")
        .env("DREAMD_SELECTION__MAX_CONVERSATIONS_PER_RUN", &PER_RUN.to_string());
    let store = PgStore::open(&d.database_url).await.unwrap();
    d.ingest(&w.lines[..first]);

    // Round one: four processes started together share the backlog.
    let started = Instant::now();
    let once: Vec<_> = (0..REPLICAS)
        .map(|_| {
            d.command(&["--run-once", "--format", "json"])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut selected = Vec::new();
    for child in once {
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "a replica failed: {stderr}");
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        selected.push(summary["conversations"]["selected"].as_u64().unwrap());
    }
    eprintln!("round one: {selected:?} conversations per replica in {:?}", started.elapsed());
    // At full size the four runs stop at max_conversations_per_run each and
    // the daemons take the rest with round two.
    let taken = size.conversations.min(REPLICAS * PER_RUN);
    assert_eq!(
        selected.iter().sum::<u64>(),
        taken as u64,
        "every in-window conversation taken by exactly one replica: {selected:?}"
    );
    assert!(
        selected.iter().filter(|n| **n > 0).count() >= 2,
        "the replicas shared the backlog: {selected:?}"
    );
    let after_once = leftovers(&store, &lookback, None).await;
    assert_eq!(
        Leftovers { new_slips: 0, ..after_once },
        Leftovers { unextracted: (size.conversations - taken) as i64, ..Leftovers::default() },
        "run-once replicas leave no claim and nothing unextracted of what they took"
    );

    // Round two: four daemons on a one-second schedule take the new input
    // (and any user whose stage two another replica held in round one).
    d.ingest(w.since(first));
    let daemons: Vec<Daemon> =
        (0..REPLICAS).map(|i| daemon_with(&d, &format!("daemon{i}.log"), &[])).collect();
    let total = w.total_slips();
    wait_for("the daemons to finish round two", size.bound, async || {
        let left = leftovers(&store, &lookback, None).await;
        let slips = store.count("SELECT count(*) FROM slips").await as usize;
        match slips == total && left == Leftovers::default() {
            true => Ok(()),
            false => Err(format!("{slips} of {total} slips, {left:?}")),
        }
    })
    .await;
    for mut daemon in daemons {
        signal(&daemon, "TERM");
        assert_eq!(exit_within(&mut daemon, Duration::from_secs(30)).0, 0, "graceful stop");
    }
    eprintln!("both rounds done in {:?}", started.elapsed());
    for i in 0..REPLICAS {
        let errors: Vec<_> = log_lines(&d, &format!("daemon{i}.log"))
            .into_iter()
            .filter(|l| l["level"] == "ERROR")
            .collect();
        assert!(errors.is_empty(), "daemon {i} logged errors: {errors:?}");
    }

    assert_eq!(
        leftovers(&store, &lookback, None).await,
        Leftovers::default(),
        "no claim left behind"
    );
    let sent = workload::sent_per_message(&server).await;
    let once_each: std::collections::BTreeMap<_, _> =
        w.expected.keys().map(|k| (k.clone(), 1usize)).collect();
    assert_eq!(
        sent,
        once_each,
        "every in-window message sent to stage one exactly once, none older: {:?}",
        differences(&sent, &once_each, 10)
    );
    let found = state(&store).await;
    let expected = w.expected_slips();
    assert_eq!(
        found.slips_per_message,
        expected,
        "slips per message as scripted: {:?}",
        differences(&found.slips_per_message, &expected, 10)
    );
    let alone = reference(&w, first).await;
    assert_eq!(alone.slips_per_message, expected, "the reference extracts as scripted");
    assert!(!alone.memories.is_empty() && !alone.suggestions.is_empty(), "a workload worth it");
    assert_eq!(
        found.memories,
        alone.memories,
        "memories as one process makes them: {:?}",
        differences(&found.memories, &alone.memories, 5)
    );
    assert_eq!(
        found.suggestions,
        alone.suggestions,
        "suggestions as one process makes them: {:?}",
        differences(&found.suggestions, &alone.suggestions, 5)
    );
}
