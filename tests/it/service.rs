//! The service as an operator runs it: `dreamd` as a child process on a
//! one-second schedule, stopped with signals, watched through its JSON logs,
//! the systemd notify socket and the metrics endpoint.

use crate::fake_model::{self, slips};
use crate::helpers::{Dreamd, line};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use wiremock::ResponseTemplate;

/// Stage one answering after `delay` with one slip per conversation.
fn slow_model(delay: Duration) -> impl Fn(&Value) -> ResponseTemplate {
    move |doc: &Value| {
        let m = &doc["messages"][0];
        slips(json!([{"message_id": m["message_id"], "quote": m["content"], "content": "I prefer tables",
            "kind": "presentation", "scope": "global", "durability": "lasting", "valid_until": null}]))
        .set_delay(delay)
    }
}

/// A running daemon, killed if a test fails before stopping it.
pub(crate) struct Daemon(pub(crate) Child);

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl std::ops::Deref for Daemon {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Daemon {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

fn daemon(d: &Dreamd, log: &str) -> Daemon {
    daemon_with(d, log, &[])
}

/// A daemon with extra environment on top of `d`'s.
pub(crate) fn daemon_with(d: &Dreamd, log: &str, env: &[(&str, &str)]) -> Daemon {
    let log = std::fs::File::create(d.path(log)).unwrap();
    Daemon(
        d.command(&["--format", "json"])
            .env("DREAMD_SCHEDULE__CRON", "* * * * * *")
            .env("DREAMD_LOG__LEVEL", "info")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap(),
    )
}

pub(crate) fn signal(child: &Child, name: &str) {
    let status = std::process::Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits for the child to exit, up to `bound`.
pub(crate) fn exit_within(child: &mut Child, bound: Duration) -> (i32, Duration) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code().unwrap_or(-1), start.elapsed());
        }
        if start.elapsed() > bound {
            let _ = child.kill();
            panic!("dreamd did not exit within {bound:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub(crate) async fn wait_until(what: &str, bound: Duration, mut done: impl AsyncFnMut() -> bool) {
    let start = Instant::now();
    while !done().await {
        assert!(start.elapsed() < bound, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The complete lines of a JSON log (a line still being written is left for later).
pub(crate) fn log_lines(d: &Dreamd, log: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(d.path(log)).unwrap();
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    complete
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("a log line is not JSON ({e}): {l}"))
        })
        .collect()
}

/// Two stop signals, the second once the first is heard in `log`: the
/// process exits 130 at once, not after its shutdown bound.
async fn stop_twice(d: &Dreamd, child: &mut Child, log: &str) {
    signal(child, "TERM");
    wait_until("the first signal heard", Duration::from_secs(20), async || {
        std::fs::read_to_string(d.path(log)).unwrap_or_default().contains("shutdown requested")
    })
    .await;
    signal(child, "TERM");
    let (code, took) = exit_within(child, Duration::from_secs(20));
    assert_eq!(code, 130, "a second signal exits at once");
    assert!(took < Duration::from_secs(10), "not the 600 s bound: {took:?}");
}

/// A day ago by the real clock: idle, and inside the window of a daemon's run.
fn yesterday() -> String {
    (chrono::Utc::now() - chrono::Duration::days(1)).to_rfc3339()
}

/// `n` conversations idle since yesterday, so a daemon on the real clock takes them.
fn conversations(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| line("u1", &format!("c{i:02}"), "m1", "user", "I prefer tables", &yesterday()))
        .collect()
}

/// Stage-one requests per conversation.
async fn requests_per_conversation(server: &wiremock::MockServer) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for doc in fake_model::documents(server, true).await {
        *counts.entry(doc["conversation_id"].as_str().unwrap().to_owned()).or_default() += 1;
    }
    counts
}

fn slip_count(d: &Dreamd) -> usize {
    d.run(&["slips", "list", "--user", "u1", "--format", "json"]).json().as_array().unwrap().len()
}

#[tokio::test(flavor = "multi_thread")]
async fn runs_on_schedule_never_overlap_and_stop_gracefully_mid_run() {
    let server = fake_model::start(slow_model(Duration::from_millis(1500))).await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__CONCURRENCY", "2")
        .env("DREAMD_SCHEDULE__SHUTDOWN_TIMEOUT_SECS", "10");
    d.ingest(&conversations(8));
    let mut child = daemon(&d, "first.log");
    wait_until("the first model calls", Duration::from_secs(20), async || {
        !requests_per_conversation(&server).await.is_empty()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    signal(&child, "TERM");
    let (code, took) = exit_within(&mut child, Duration::from_secs(15));
    assert_eq!(code, 0, "graceful stop exits 0");
    assert!(took < Duration::from_secs(10), "within shutdown_timeout_secs: {took:?}");
    let log = log_lines(&d, "first.log");
    let runs: Vec<&Value> = log.iter().filter(|l| l["message"] == "run finished").collect();
    assert_eq!(runs.len(), 1, "one summary line for the interrupted run");
    assert!(
        runs[0]["run_id"].is_string() && runs[0]["conversations_selected"].as_u64().unwrap() < 8
    );
    assert_eq!(runs[0]["outcome"], "left_for_next_run", "not done: work was left (ops round 4)");
    assert!(
        log.iter().any(|l| l["message"] == "tick skipped: the previous run is still going"),
        "ticks during a run are skipped"
    );
    assert!(
        log.iter().all(|l| !l.to_string().contains("I prefer tables")),
        "no message text in logs"
    );
    let done_first = slip_count(&d);
    assert!(done_first > 0 && done_first < 8, "{done_first}");

    let mut child = daemon(&d, "second.log");
    wait_until("the rest of the work", Duration::from_secs(30), async || slip_count(&d) == 8).await;
    signal(&child, "HUP");
    wait_until("SIGHUP to be logged", Duration::from_secs(10), async || {
        log_lines(&d, "second.log").iter().any(|l| l["signal"] == "SIGHUP")
    })
    .await;
    assert!(child.try_wait().unwrap().is_none(), "SIGHUP is ignored, not an exit");
    signal(&child, "TERM");
    assert_eq!(exit_within(&mut child, Duration::from_secs(15)).0, 0);
    let per_conversation = requests_per_conversation(&server).await;
    assert_eq!(per_conversation.len(), 8);
    assert!(
        per_conversation.values().all(|&n| n == 1),
        "nothing extracted twice: {per_conversation:?}"
    );
    let status = d.run(&["status", "--format", "json"]).json();
    let records = status["runs"].as_array().unwrap();
    for pair in records.windows(2) {
        assert!(
            pair[0]["started_at"].as_str() >= pair[1]["finished_at"].as_str(),
            "runs overlapped: {pair:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_that_outlives_the_shutdown_bound_is_abandoned_without_a_trace() {
    let server = fake_model::start(slow_model(Duration::from_secs(4))).await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__TIMEOUT_SECS", "30")
        .env("DREAMD_SELECTION__CLAIM_TTL_SECS", "3")
        .env("DREAMD_SCHEDULE__SHUTDOWN_TIMEOUT_SECS", "1");
    d.ingest(&conversations(3));
    let mut child = daemon(&d, "first.log");
    wait_until("the model calls", Duration::from_secs(20), async || {
        requests_per_conversation(&server).await.len() == 3
    })
    .await;
    signal(&child, "TERM");
    let (code, took) = exit_within(&mut child, Duration::from_secs(10));
    assert_eq!(code, 0);
    assert!(took < Duration::from_secs(3), "bounded by shutdown_timeout_secs: {took:?}");
    assert_eq!(slip_count(&d), 0, "nothing half-written");
    let ended: Vec<Value> =
        log_lines(&d, "first.log").into_iter().filter(|l| l["message"] == "run finished").collect();
    assert_eq!(ended.len(), 1, "an abandoned run ends with its line too: {ended:?}");
    assert_eq!(
        (ended[0]["outcome"].as_str(), ended[0]["run_id"].is_string()),
        (Some("abandoned"), true)
    );
    let status = d.run(&["status", "--format", "json"]).json();
    assert_eq!(
        (status["backlog"]["claims_held"].as_i64(), status["backlog"]["eligible"].as_i64()),
        (Some(0), Some(3)),
        "claims released"
    );

    // A shutdown bound far longer than the test: only the second signal can
    // end it soon. Claims that outlive the test too: only a release frees them.
    let long_bound = [
        ("DREAMD_SCHEDULE__SHUTDOWN_TIMEOUT_SECS", "600"),
        ("DREAMD_SELECTION__CLAIM_TTL_SECS", "600"),
    ];
    let mut child = daemon_with(&d, "second.log", &long_bound);
    wait_until("a second start", Duration::from_secs(20), async || {
        requests_per_conversation(&server).await.values().sum::<usize>() > 3
    })
    .await;
    stop_twice(&d, &mut child, "second.log").await;
    assert_eq!(slip_count(&d), 0);
    let status = d.run(&["status", "--format", "json"]).json();
    assert_eq!(status["backlog"]["claims_held"].as_i64(), Some(0), "the forced stop released them");

    let mut child = daemon(&d, "third.log");
    wait_until("all the work", Duration::from_secs(30), async || slip_count(&d) == 3).await;
    signal(&child, "TERM");
    assert_eq!(exit_within(&mut child, Duration::from_secs(15)).0, 0);
}

/// A server that asks for a minute before a retry (429 with Retry-After)
/// must not hold a stopping daemon for that minute, nor for the shutdown
/// bound: the wait ends at the stop, and the conversation is not charged
/// for the retries it never had (ops round 4).
#[tokio::test(flavor = "multi_thread")]
async fn a_stop_ends_a_wait_the_model_server_asked_for() {
    let server = fake_model::start(|_: &Value| {
        ResponseTemplate::new(429).insert_header("Retry-After", "60")
    })
    .await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__MAX_RETRIES", "3")
        .env("DREAMD_SELECTION__MAX_ATTEMPTS", "1")
        .env("DREAMD_SCHEDULE__SHUTDOWN_TIMEOUT_SECS", "30");
    d.ingest(&conversations(1));
    let mut child = daemon(&d, "daemon.log");
    wait_until("the first failed call", Duration::from_secs(20), async || {
        std::fs::read_to_string(d.path("daemon.log"))
            .unwrap_or_default()
            .contains("model call failed")
    })
    .await;
    signal(&child, "TERM");
    let (code, took) = exit_within(&mut child, Duration::from_secs(40));
    assert_eq!(code, 0);
    assert!(took < Duration::from_secs(10), "not the server's 60 s, nor the 30 s bound: {took:?}");
    assert_eq!(server.received_requests().await.unwrap().len(), 1, "no retry after the stop");
    let status = d.run(&["status", "--format", "json"]).json();
    assert_eq!(status["failed_ranges"], json!([]), "no attempt charged: {status}");
    assert_eq!(status["backlog"]["claims_held"].as_i64(), Some(0), "{status}");
}

/// A `--run-once` as its own process, its summary on stdout and its log in `log`.
fn run_once_process(d: &Dreamd, log: &str, env: &[(&str, &str)]) -> Daemon {
    let log = std::fs::File::create(d.path(log)).unwrap();
    Daemon(
        d.command(&["--run-once", "--format", "json"])
            .env("DREAMD_LOG__LEVEL", "info")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_run_once_finishes_what_it_holds_and_leaves_no_claim() {
    let server = fake_model::start(slow_model(Duration::from_millis(1500))).await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__CONCURRENCY", "2")
        .env("DREAMD_SCHEDULE__SHUTDOWN_TIMEOUT_SECS", "20");
    d.ingest(&conversations(8));
    let claims_held =
        || d.run(&["status", "--format", "json"]).json()["backlog"]["claims_held"].clone();

    let mut child = run_once_process(&d, "first.log", &[]);
    wait_until("the first model calls", Duration::from_secs(20), async || {
        !requests_per_conversation(&server).await.is_empty()
    })
    .await;
    signal(&child, "TERM");
    let (code, _) = exit_within(&mut child, Duration::from_secs(30));
    let mut stdout = String::new();
    child.stdout.as_mut().unwrap().read_to_string(&mut stdout).unwrap();
    assert_eq!(code, 0, "a graceful stop ends as a run does: {stdout}");
    let summary: Value = serde_json::from_str(&stdout).unwrap();
    let done = summary["conversations"]["done"].as_u64().unwrap();
    assert!(done > 0 && done < 8, "the work in flight finished, no more was taken: {summary}");
    assert_eq!(slip_count(&d), done as usize, "what was done is committed");
    assert_eq!(claims_held(), 0, "no claim left for the next run to wait out");

    // A second signal abandons the run at once and still releases its claims.
    let long_bound = [("DREAMD_SCHEDULE__SHUTDOWN_TIMEOUT_SECS", "600")];
    let mut child = run_once_process(&d, "second.log", &long_bound);
    let calls_before = requests_per_conversation(&server).await.values().sum::<usize>();
    wait_until("the second run's model calls", Duration::from_secs(20), async || {
        requests_per_conversation(&server).await.values().sum::<usize>() > calls_before
    })
    .await;
    stop_twice(&d, &mut child, "second.log").await;
    assert_eq!(claims_held(), 0, "the abandoned run's claims are released");

    // The next run takes the rest at once, and nothing is extracted twice.
    let rest = d.run(&["--run-once", "--format", "json"]).json();
    assert_eq!(slip_count(&d), 8, "{rest}");
    let per_conversation = requests_per_conversation(&server).await;
    assert_eq!(per_conversation.len(), 8);
}

#[tokio::test(flavor = "multi_thread")]
async fn systemd_hears_ready_and_status_lines() {
    let d = Dreamd::sqlite();
    let socket_path = d.path("notify.sock");
    let socket = std::os::unix::net::UnixDatagram::bind(&socket_path).unwrap();
    socket.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let d = d.env("NOTIFY_SOCKET", socket_path.to_str().unwrap()).env("WATCHDOG_USEC", "400000");
    let mut child = daemon(&d, "daemon.log");
    let mut messages = Vec::new();
    let mut buf = [0u8; 4096];
    while !messages.iter().any(|m: &String| m.contains("STATUS=run "))
        || !messages.iter().any(|m| m.contains("STATUS=idle, next run"))
    {
        let n = socket.recv(&mut buf).expect("a notification within 20 s");
        messages.push(String::from_utf8_lossy(&buf[..n]).into_owned());
    }
    assert!(messages[0].contains("READY=1"), "{messages:?}");
    while !messages.iter().any(|m| m.contains("WATCHDOG=1")) {
        let n = socket.recv(&mut buf).expect("a watchdog ping when WATCHDOG_USEC is set");
        messages.push(String::from_utf8_lossy(&buf[..n]).into_owned());
    }
    signal(&child, "TERM");
    assert_eq!(exit_within(&mut child, Duration::from_secs(10)).0, 0);
    let mut rest = Vec::new();
    socket.set_read_timeout(Some(Duration::from_millis(500))).unwrap();
    while let Ok(n) = socket.recv(&mut buf) {
        rest.push(String::from_utf8_lossy(&buf[..n]).into_owned());
    }
    assert!(rest.iter().any(|m| m.contains("STOPPING=1")), "{rest:?}");
}

/// While a run waits on a slow model, systemd's status says it is working
/// on conversations, not "selecting" (ops round 4, M7).
#[tokio::test(flavor = "multi_thread")]
async fn the_status_says_a_run_is_at_work_while_its_model_thinks() {
    let gate = fake_model::Gate::new();
    gate.arm();
    let held = gate.clone();
    let server = fake_model::start(move |_: &Value| {
        held.hold();
        slips(json!([]))
    })
    .await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    d.ingest(&[line("u1", "c1", "m1", "user", "I prefer tables", "2026-11-28T00:00:00Z")]);
    let socket_path = d.path("notify.sock");
    let socket = std::os::unix::net::UnixDatagram::bind(&socket_path).unwrap();
    socket.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let d = d.env("NOTIFY_SOCKET", socket_path.to_str().unwrap());
    let child = daemon_with(&d, "daemon.log", &[("DREAMD_SCHEDULE__RUN_ON_START", "true")]);
    gate.arrived().await;
    let mut buf = [0u8; 4096];
    let mut heard = Vec::new();
    while !heard
        .iter()
        .any(|m: &String| m.contains("STATUS=run ") && m.contains("0/1 conversations"))
    {
        let n = socket.recv(&mut buf).unwrap_or_else(|e| panic!("{e}: heard only {heard:?}"));
        heard.push(String::from_utf8_lossy(&buf[..n]).into_owned());
    }
    gate.release();
    signal(&child, "TERM");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_metrics_endpoint_counts_runs() {
    let d = Dreamd::sqlite().env("DREAMD_METRICS__LISTEN", "127.0.0.1:0");
    d.ingest(&[line("u1", "c1", "m1", "user", "我最近在做奶制品相关的项目研发", &yesterday())]);
    let mut child = daemon(&d, "daemon.log");
    let mut port = 0;
    wait_until("the metrics endpoint bound", Duration::from_secs(20), async || {
        let bound = log_lines(&d, "daemon.log")
            .into_iter()
            .find(|l| l["message"] == "metrics endpoint listening")
            .and_then(|l| l["address"].as_str()?.rsplit(':').next()?.parse().ok());
        port = bound.unwrap_or(0);
        port != 0
    })
    .await;
    let scrape = || -> Option<String> {
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
        stream.write_all(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n").ok()?;
        let mut response = String::new();
        stream.read_to_string(&mut response).ok()?;
        Some(response)
    };
    let value = |body: &str, name: &str| -> Option<f64> {
        body.lines()
            .find(|l| l.starts_with(name) && l[name.len()..].starts_with(' '))
            .and_then(|l| l.rsplit(' ').next()?.parse().ok())
    };
    let mut body = String::new();
    wait_until("a run in the metrics", Duration::from_secs(20), async || {
        body = scrape().unwrap_or_default();
        value(&body, "dreamd_runs_total").is_some_and(|n| n >= 1.0)
            && value(&body, "dreamd_failed_ranges").is_some()
    })
    .await;
    signal(&child, "TERM");
    assert_eq!(exit_within(&mut child, Duration::from_secs(10)).0, 0);
    assert!(body.starts_with("HTTP/1.1 200 OK"), "{body}");
    assert_eq!(value(&body, "dreamd_conversations_total{outcome=\"done\"}"), Some(1.0), "{body}");
    assert_eq!(value(&body, "dreamd_slips_kept_total"), Some(1.0), "{body}");
    let runs = value(&body, "dreamd_runs_total").unwrap();
    assert_eq!(value(&body, "dreamd_run_duration_seconds_count"), Some(runs));
    assert_eq!(value(&body, "dreamd_run_duration_seconds_bucket{le=\"+Inf\"}"), Some(runs));
    // What the database holds after the run: the conversation taken, its
    // slip consolidated, nothing given up (ops round 4, L11).
    for gauge in [
        "dreamd_backlog_conversations",
        "dreamd_slips_waiting",
        "dreamd_failed_ranges",
        "dreamd_failed_users",
    ] {
        assert_eq!(value(&body, gauge), Some(0.0), "{gauge}: {body}");
    }
    let finished = value(&body, "dreamd_last_run_finished_timestamp_seconds").unwrap_or_default();
    assert!(finished > 1.7e9, "{body}");
    for l in body
        .lines()
        .skip_while(|l| !l.is_empty())
        .skip(1)
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        assert!(l.rsplit(' ').next().unwrap().parse::<f64>().is_ok(), "not a sample: {l}");
    }
}

/// A database file deleted under the service (ops round 5, M2): no later
/// run could write, so the service exits 1 at the next run, saying why,
/// and systemd's `Restart=on-failure` starts it on the file at that path.
#[tokio::test(flavor = "multi_thread")]
async fn the_service_exits_when_its_database_file_is_deleted() {
    let d = Dreamd::sqlite();
    d.ingest(&[line("u1", "c1", "m1", "user", "hi", &yesterday())]);
    let mut child = daemon(&d, "daemon.log");
    let finished = |d: &Dreamd| {
        log_lines(d, "daemon.log").iter().filter(|l| l["message"] == "run finished").count()
    };
    wait_until("a first run", Duration::from_secs(20), async || finished(&d) >= 1).await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(d.path(&format!("dreamd.db{suffix}")));
    }
    let (code, _) = exit_within(&mut child, Duration::from_secs(20));
    assert_eq!(code, 1, "a service manager restarts it");
    let lines = log_lines(&d, "daemon.log");
    let said = lines
        .iter()
        .any(|l| l["error"].as_str().is_some_and(|e| e.contains("was deleted or replaced")));
    assert!(said, "the error names the cause: {lines:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn run_on_start_runs_before_the_first_tick() {
    let d = Dreamd::sqlite()
        .env("DREAMD_SCHEDULE__RUN_ON_START", "true")
        .env("DREAMD_SCHEDULE__CRON", "0 0 0 1 1 *");
    d.ingest(&[line("u1", "c1", "m1", "user", "我最近在做奶制品相关的项目研发", &yesterday())]);
    let log = std::fs::File::create(d.path("daemon.log")).unwrap();
    let mut child = Daemon(
        d.command(&["--format", "json"])
            .env("DREAMD_LOG__LEVEL", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap(),
    );
    wait_until("the run on start", Duration::from_secs(20), async || slip_count(&d) == 1).await;
    signal(&child, "TERM");
    assert_eq!(exit_within(&mut child, Duration::from_secs(10)).0, 0);
    let runs =
        log_lines(&d, "daemon.log").into_iter().filter(|l| l["message"] == "run finished").count();
    assert_eq!(runs, 1, "one run at start, no tick until next New Year");
}

#[tokio::test(flavor = "multi_thread")]
async fn config_check_says_precisely_what_is_wrong() {
    let fresh = Dreamd::sqlite();
    let good = fresh.run(&["config", "--check"]);
    assert_eq!(good.code, 0, "{}", good.stderr);
    assert_eq!(good.stdout.lines().filter(|l| l.starts_with("ok")).count(), 4, "{}", good.stdout);
    // A check writes nothing: no database made where it was run (ops round
    // 5, M4), and one that exists is read as it is, migrations not applied.
    assert!(good.stdout.contains("does not exist yet"), "{}", good.stdout);
    assert!(!fresh.path("dreamd.db").exists(), "the check created a database");
    fresh.ingest(&[line("u1", "c1", "m1", "user", "hi", &yesterday())]);
    let again = fresh.run(&["config", "--check"]);
    assert!(again.stdout.contains("readable, migrations current"), "{}", again.stdout);

    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::path("/models"))
        .respond_with(ResponseTemplate::new(401))
        .mount(&server)
        .await;
    let refused = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_PROMPTS__DIR", "/no/such/dir")
        .env("DREAMD_DATABASE__URL", "postgres://dreamd@127.0.0.1:1/dreamd");
    let run = refused.run(&["config", "--check", "--format", "json"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let checks: Value = serde_json::from_str(&run.stdout).unwrap();
    let verdict: HashMap<String, bool> = checks
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["check"].as_str().unwrap().to_owned(), c["ok"].as_bool().unwrap()))
        .collect();
    assert!(verdict["schedule"]);
    assert_eq!((verdict["database"], verdict["model"]), (false, false), "{checks}");
    assert!(
        checks.to_string().contains("refused the API key (HTTP 401); check $OPENAI_API_KEY"),
        "{checks}"
    );
    assert!(
        run.stderr.contains("configuration check failed: database, prompts, model"),
        "{}",
        run.stderr
    );
    // An empty variable is no key, and both the check and `config` say so
    // (ops round 4, L8: "ok … answered", without a word).
    let keyless = Dreamd::sqlite().with_model(&server.uri()).env("OPENAI_API_KEY", "");
    let run = keyless.run(&["config", "--check", "--format", "json"]);
    assert!(
        run.stdout.contains(
            "refused the request without an API key (HTTP 401); set $OPENAI_API_KEY, which is empty"
        ),
        "{}",
        run.stdout
    );
    let shown = keyless.run(&["config"]);
    assert!(
        shown.stdout.contains("API key: read from $OPENAI_API_KEY (empty)"),
        "{}",
        shown.stdout
    );
    let open_server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::path("/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({"data": []})))
        .mount(&open_server)
        .await;
    let local = Dreamd::sqlite().with_model(&open_server.uri()).env("OPENAI_API_KEY", " ");
    let run = local.run(&["config", "--check"]);
    assert!(
        run.stdout.contains("answered without an API key ($OPENAI_API_KEY, which is empty"),
        "{}",
        run.stdout
    );
    // Only what the configuration names cannot be reached: not its fault
    // (spec §10.2), exit 1 (ops round 4, M4).
    let away = Dreamd::sqlite().env("DREAMD_DATABASE__URL", "postgres://dreamd@127.0.0.1:1/dreamd");
    let run = away.run(&["config", "--check"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("database could not be reached from here"), "{}", run.stderr);
    // A URL that cannot be read is the configuration's fault (ops round 5, M6).
    let unread = Dreamd::sqlite().env("DREAMD_DATABASE__URL", "postgres://u@host:notaport/db");
    let run = unread.run(&["config", "--check"]);
    assert_eq!(run.code, 2, "{}", run.stderr);

    let d = Dreamd::sqlite();
    std::fs::write(
        d.path("dreamd.toml"),
        "[http]\ntokens = [{ token_env = \"T_A\", users = [\"jay\"] }, { token_env = \"T_B\", users = [\"emma\"] }]\n",
    )
    .unwrap();
    let config = d.path("dreamd.toml");
    let shared = "one-token-for-two-0123456789";
    let tokens = d.env("T_A", shared).env("T_B", shared);
    let run = tokens.run(&["--config", config.to_str().unwrap(), "config", "--check"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stdout.contains("FAIL  http") && run.stdout.contains("T_B holds the same token as T_A"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains(shared) && !run.stderr.contains(shared));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_service_says_it_ignores_now() {
    let d = Dreamd::sqlite();
    let log = std::fs::File::create(d.path("now.log")).unwrap();
    let mut child = Daemon(
        d.command(&["--format", "json", "--now", "2026-11-29T12:00:00Z"])
            .env("DREAMD_SCHEDULE__CRON", "0 0 0 1 1 *")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap(),
    );
    wait_until("the warning", Duration::from_secs(20), async || {
        std::fs::read_to_string(d.path("now.log")).unwrap_or_default().contains("--now is ignored")
    })
    .await;
    signal(&child, "TERM");
    assert_eq!(exit_within(&mut child, Duration::from_secs(15)).0, 0);
}
