//! Soak: the daemon on a one-second schedule while messages arrive without
//! pause (from ten users at a time, new ones each minute, see
//! [`COHORT_BATCHES`]) and the model fails 30 % of its calls (HTTP 500, answers that are
//! not JSON, timeouts). Over the whole time no finished run leaves a claim,
//! resident memory and open files level off, nothing is logged at error
//! level, and once the input stops every message ends extracted exactly once.
//!
//! `DREAMD_SOAK_SECS` sets how long messages arrive: 60 in CI, 600 for the
//! full run the issue asks for.

use crate::fake_model::{self, completion};
use crate::helpers::{Dreamd, RawSql};
use crate::service::{daemon_with, exit_within, log_lines, signal};
use crate::workload::{self, Leftovers, Rng, Workload, differences, leftovers, state, wait_for};
use dreamd::store::SqliteStore;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wiremock::ResponseTemplate;

/// Batches of arrivals (about two a second) before ten new users take over
/// from the last ten. With the same ten users all along, each piled up
/// ~600 slips in ten minutes, and stage two, which reads a user's whole
/// history, peaked higher as that history grew: +12 % resident memory over
/// a 600 s run, against +1.7 % with users replaced each minute (a service
/// of many users, each with a minute's traffic). Memory that grows with the
/// data is not what this test looks for; a leak grows with the runs.
const COHORT_BATCHES: usize = 120;

/// The user of the `i`th conversation of arrival batch `batch`.
fn user_of(batch: usize, i: usize) -> String {
    format!("u{}-{}", batch / COHORT_BATCHES, (batch * 3 + i) % 10)
}

/// The share of model calls that fail.
const FAULT_RATE: f64 = 0.3;
/// No request fails more often than this, so retries end.
const FAULTS_PER_REQUEST: u32 = 2;
/// `selection.max_attempts` for the soak, far above what the faults can
/// reach: at the default 3, a user whose stage two takes three requests
/// could fail three runs on the same newest slip (two faults on each
/// request) and, once no newer slip arrived, be passed over for good, as
/// spec §6 says. Passing over is tested on its own
/// (`trust::…a_user_that_keeps_failing_is_passed_over_until_a_new_slip`,
/// `stage_one::a_range_that_keeps_failing_is_passed_over_and_shown`).
const MAX_ATTEMPTS: &str = "1000";

/// What identifies a request across its retries: the conversation and its
/// first unprocessed message, or the user and their new slips.
fn request_key(doc: &Value) -> String {
    if fake_model::is_stage_one(doc) {
        format!("{}/{}", doc["conversation_id"], doc["messages"][0]["message_id"])
    } else {
        let mut new: Vec<String> = doc["slips"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|s| s["new"] == true)
            .map(|s| s["slip_id"].to_string())
            .collect();
        new.sort();
        format!("{}/{}", doc["user_id"], new.join(","))
    }
}

/// The scripted model with faults injected.
struct Faulty {
    rng: Mutex<Rng>,
    failed: Mutex<HashMap<String, u32>>,
}

impl Faulty {
    fn answer(&self, doc: &Value) -> ResponseTemplate {
        let mut rng = self.rng.lock().unwrap();
        let mut failed = self.failed.lock().unwrap();
        let count = failed.entry(request_key(doc)).or_default();
        if *count >= FAULTS_PER_REQUEST || rng.unit() >= FAULT_RATE {
            return workload::answer(doc).set_delay(Duration::from_millis(30));
        }
        *count += 1;
        match rng.below(3) {
            0 => ResponseTemplate::new(500).set_body_string("upstream overloaded"),
            1 => completion("here are the slips you asked for: {\"slips\": ["),
            _ => workload::answer(doc).set_delay(Duration::from_millis(1500)),
        }
    }

    fn injected(&self) -> u32 {
        self.failed.lock().unwrap().values().sum()
    }
}

/// Resident memory (KiB) and open file descriptors of a process.
fn usage(pid: u32) -> (u64, usize) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/<pid>/status");
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).unwrap().count();
    (rss, fds)
}

/// Claims still held by runs that have finished: what a run left behind.
async fn claims_of_finished_runs(store: &SqliteStore) -> i64 {
    store
        .count(
            "SELECT (SELECT count(*) FROM conversations WHERE claim_owner IN (SELECT run_id FROM runs)) \
             + (SELECT count(*) FROM user_claims WHERE owner IN (SELECT run_id FROM runs))",
        )
        .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_day_of_service_in_brief_leaves_nothing_behind() {
    let secs = workload::env_number("DREAMD_SOAK_SECS", 60);
    let seed = workload::seed("DREAMD_SOAK_SEED");
    eprintln!(
        "soak for {secs} s, seed {seed} (DREAMD_SOAK_SEED={seed} draws the same faults, in the order requests arrive)"
    );
    let faulty = Arc::new(Faulty { rng: Mutex::new(Rng::new(seed)), failed: Default::default() });
    let (one, two) = (faulty.clone(), faulty.clone());
    let server =
        fake_model::start_both(move |doc| one.answer(doc), move |doc| two.answer(doc)).await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__CONCURRENCY", "4")
        .env("DREAMD_LLM__MAX_RETRIES", "1")
        .env("DREAMD_LLM__TIMEOUT_SECS", "1")
        .env("DREAMD_SELECTION__MAX_ATTEMPTS", MAX_ATTEMPTS);
    let mut w = Workload::default();
    let start = chrono::Utc::now();
    // An idle conversation to begin with, so the store exists before the daemon starts.
    w.conversation("u0", "s0c0", 2, start - chrono::Duration::hours(7), true);
    d.ingest(&w.lines);
    let store = SqliteStore::open(&d.path("dreamd.db")).await.unwrap();
    let daemon = daemon_with(&d, "daemon.log", &[]);
    let pid = daemon.id();

    let began = Instant::now();
    let mut samples: Vec<(Duration, u64, usize)> = Vec::new();
    let mut batch = 1;
    let mut left_behind = 0;
    while began.elapsed() < Duration::from_secs(secs) {
        // Messages that have just "arrived", created seven hours ago: idle at once.
        let from = w.lines.len();
        let at = chrono::Utc::now() - chrono::Duration::hours(7);
        for i in 0..3 {
            let user = user_of(batch, i);
            w.conversation(&user, &format!("s{batch}c{i}"), 1 + (batch + i) % 4, at, true);
        }
        let earlier = format!("s{}c0", batch / 2);
        let owner = user_of(batch / 2, 0);
        if batch > 1 {
            w.conversation(&owner, &earlier, 2, at, true);
        }
        d.ingest(w.since(from));
        batch += 1;
        let (rss, fds) = usage(pid);
        samples.push((began.elapsed(), rss, fds));
        left_behind = left_behind.max(claims_of_finished_runs(&store).await);
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let lookback = (chrono::Utc::now() - chrono::Duration::days(7)).to_rfc3339();
    let total = w.total_slips();
    wait_for("the daemon to catch up", Duration::from_secs(120), async || {
        let left = leftovers(&store, &lookback, None).await;
        let slips = store.count("SELECT count(*) FROM slips").await as usize;
        match slips == total && left == Leftovers::default() {
            true => Ok(()),
            false => Err(format!("{slips} of {total} slips, {left:?}")),
        }
    })
    .await;
    let mut daemon = daemon;
    signal(&daemon, "TERM");
    assert_eq!(exit_within(&mut daemon, Duration::from_secs(30)).0, 0, "graceful stop");

    assert_eq!(left_behind, 0, "no finished run left a claim behind");
    assert!(faulty.injected() > 0, "faults were injected");
    let found = state(&store).await;
    let expected = w.expected_slips();
    assert_eq!(
        found.slips_per_message,
        expected,
        "seed {seed}: every message extracted once: {:?}",
        differences(&found.slips_per_message, &expected, 10)
    );
    let log = log_lines(&d, "daemon.log");
    let errors: Vec<&Value> = log.iter().filter(|l| l["level"] == "ERROR").collect();
    assert!(errors.is_empty(), "seed {seed}: errors logged: {errors:?}");
    let runs = log.iter().filter(|l| l["message"] == "run finished").count();

    // The first tenth warms up (allocator arenas, pools, caches); then the
    // later half may not rise far above the earlier half.
    let settled: Vec<_> = samples.iter().filter(|s| s.0.as_secs() * 10 >= secs).collect();
    let (early, late) = settled.split_at(settled.len() / 2);
    let peak = |part: &[&(Duration, u64, usize)], f: fn(&(Duration, u64, usize)) -> u64| {
        part.iter().map(|s| f(s)).max().unwrap_or(0)
    };
    let (rss_early, rss_late) = (peak(early, |s| s.1), peak(late, |s| s.1));
    let (fds_early, fds_late) = (peak(early, |s| s.2 as u64), peak(late, |s| s.2 as u64));
    eprintln!(
        "soak: {batch} batches, {total} slips, {runs} runs, {} faults; RSS peak {rss_early} KiB then {rss_late} KiB; fds {fds_early} then {fds_late}",
        faulty.injected()
    );
    // The bound, 10 %, for the full run; a short run has barely
    // settled, so it gets a wider one.
    let margin = if secs >= 600 { rss_early / 10 } else { rss_early / 4 + 8 * 1024 };
    assert!(
        rss_late <= rss_early + margin,
        "resident memory keeps growing: {rss_early} KiB, then {rss_late} KiB (allowed +{margin} KiB)"
    );
    assert!(fds_late <= fds_early + 8, "open files keep growing: {fds_early}, then {fds_late}");
}
