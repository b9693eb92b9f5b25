//! The optional Prometheus endpoint (`metrics.listen`): counters from every
//! run's summary, a histogram of run durations and gauges of what the
//! database holds after each run (backlog, slips waiting, ranges and users
//! given up, the last run's end), in the text exposition format, over a
//! minimal HTTP/1.1 responder.

use crate::run::RunSummary;
use std::fmt::Write;
use std::sync::Mutex;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Upper bounds of the run-duration histogram, in seconds.
const DURATION_BUCKETS: [f64; 9] = [0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 3600.0];

/// Totals since the process started.
#[derive(Debug, Default)]
pub struct Metrics {
    inner: Mutex<Totals>,
}

#[derive(Debug, Default)]
struct Totals {
    runs: u64,
    runs_partly_failed: u64,
    run_errors: u64,
    counters: std::collections::BTreeMap<(&'static str, String), u64>,
    duration_buckets: [u64; DURATION_BUCKETS.len()],
    duration_sum: f64,
    /// Read from the database after the last run; absent until then.
    state: Option<StoreState>,
    /// When the last run with a summary finished (Unix seconds).
    last_run_finished: Option<f64>,
}

/// What the database holds that an operator alerts on, read after each run:
/// a count of ranges given up can only be seen here or in `status`, not in
/// any counter (ops round 4, L11).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StoreState {
    /// Conversations a run would take now.
    pub backlog: i64,
    /// Note slips waiting for stage two.
    pub slips_waiting: i64,
    /// Message ranges given up after `selection.max_attempts` failures.
    pub failed_ranges: u64,
    /// Users whose stage two failed and has not succeeded since.
    pub failed_users: u64,
}

impl Metrics {
    /// Adds a finished run's counts.
    pub fn record(&self, s: &RunSummary) {
        let mut t = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        t.runs += 1;
        t.runs_partly_failed += u64::from(s.partly_failed());
        let mut add = |name: &'static str, label: &str, n: u64| {
            *t.counters.entry((name, label.to_owned())).or_default() += n;
        };
        add("dreamd_conversations_total", "outcome=\"done\"", s.conversations.done);
        add("dreamd_conversations_total", "outcome=\"failed\"", s.conversations.failed);
        add("dreamd_messages_extracted_total", "", s.messages.extracted);
        add("dreamd_messages_skipped_total", "", s.messages.skipped_out_of_window);
        add("dreamd_slips_kept_total", "", s.slips.kept);
        for (reason, n) in &s.slips.dropped {
            add("dreamd_slips_dropped_total", &format!("reason=\"{reason}\""), *n);
        }
        add("dreamd_users_total", "outcome=\"consolidated\"", s.users.consolidated);
        add("dreamd_users_total", "outcome=\"failed\"", s.users.failed);
        let a = &s.operations.applied;
        for (op, n) in [
            ("create", a.create),
            ("update", a.update),
            ("confirm", a.confirm),
            ("retire", a.retire),
            ("suggest", a.suggest),
        ] {
            add("dreamd_operations_applied_total", &format!("op=\"{op}\""), n);
        }
        for (reason, n) in &s.operations.rejected {
            add("dreamd_operations_rejected_total", &format!("reason=\"{reason}\""), *n);
        }
        add("dreamd_operations_deferred_total", "", s.operations.deferred);
        add("dreamd_memories_expired_total", "", s.memories_expired);
        add("dreamd_model_calls_total", "", s.llm.calls);
        add("dreamd_model_failures_total", "", s.llm.failures);
        add("dreamd_tokens_total", "kind=\"prompt\"", s.llm.prompt_tokens);
        add("dreamd_tokens_total", "kind=\"completion\"", s.llm.completion_tokens);
        t.last_run_finished = Some(s.finished_at.timestamp_millis() as f64 / 1000.0);
        let seconds = s.duration_ms as f64 / 1000.0;
        t.duration_sum += seconds;
        for (i, bound) in DURATION_BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                t.duration_buckets[i] += 1;
            }
        }
    }

    /// What the database holds after a run.
    pub fn observe(&self, state: StoreState) {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner).state = Some(state);
    }

    /// A run that could not run at all (database unreachable…).
    pub fn record_error(&self) {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner).run_errors += 1;
    }

    /// The text exposition format.
    pub fn render(&self) -> String {
        let t = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut out = String::new();
        let _ = writeln!(out, "# TYPE dreamd_runs_total counter\ndreamd_runs_total {}", t.runs);
        let _ = writeln!(
            out,
            "# TYPE dreamd_runs_partly_failed_total counter\ndreamd_runs_partly_failed_total {}",
            t.runs_partly_failed
        );
        let _ = writeln!(
            out,
            "# TYPE dreamd_run_errors_total counter\ndreamd_run_errors_total {}",
            t.run_errors
        );
        let mut last = "";
        for ((name, label), n) in &t.counters {
            if *name != last {
                let _ = writeln!(out, "# TYPE {name} counter");
                last = name;
            }
            match label.is_empty() {
                true => {
                    let _ = writeln!(out, "{name} {n}");
                }
                false => {
                    let _ = writeln!(out, "{name}{{{label}}} {n}");
                }
            }
        }
        let _ = writeln!(out, "# TYPE dreamd_run_duration_seconds histogram");
        for (bound, n) in DURATION_BUCKETS.iter().zip(t.duration_buckets) {
            let _ = writeln!(out, "dreamd_run_duration_seconds_bucket{{le=\"{bound}\"}} {n}");
        }
        let _ = writeln!(out, "dreamd_run_duration_seconds_bucket{{le=\"+Inf\"}} {}", t.runs);
        let _ = writeln!(out, "dreamd_run_duration_seconds_sum {}", t.duration_sum);
        let _ = writeln!(out, "dreamd_run_duration_seconds_count {}", t.runs);
        let mut gauge = |name: &str, value: f64| {
            let _ = writeln!(out, "# TYPE {name} gauge\n{name} {value}");
        };
        if let Some(state) = t.state {
            gauge("dreamd_backlog_conversations", state.backlog as f64);
            gauge("dreamd_slips_waiting", state.slips_waiting as f64);
            gauge("dreamd_failed_ranges", state.failed_ranges as f64);
            gauge("dreamd_failed_users", state.failed_users as f64);
        }
        if let Some(at) = t.last_run_finished {
            gauge("dreamd_last_run_finished_timestamp_seconds", at);
        }
        out
    }
}

/// Serves `GET /metrics` on `listener` until the task is aborted. An accept
/// error (out of file descriptors, say) waits before the next try, doubling
/// up to a second, so it never spins.
pub async fn serve(listener: TcpListener, metrics: std::sync::Arc<Metrics>) {
    const MAX_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);
    let mut pause = std::time::Duration::from_millis(10);
    loop {
        let mut socket = match listener.accept().await {
            Ok((socket, _)) => {
                pause = std::time::Duration::from_millis(10);
                socket
            }
            Err(e) => {
                tracing::warn!(error = %e, pause_ms = pause.as_millis() as u64, "metrics endpoint cannot accept; pausing");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(MAX_PAUSE);
                continue;
            }
        };
        let metrics = metrics.clone();
        tokio::spawn(async move {
            let mut request = [0u8; 1024];
            let n = socket.read(&mut request).await.unwrap_or(0);
            let head = String::from_utf8_lossy(&request[..n]);
            let (status, body) = if head.starts_with("GET /metrics ") {
                ("200 OK", metrics.render())
            } else {
                ("404 Not Found", "only /metrics is served here\n".to_owned())
            };
            let response = format!(
                "HTTP/1.1 {status}\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = socket.write_all(response.as_bytes()).await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauges_appear_once_the_database_was_read() {
        let metrics = Metrics::default();
        assert!(!metrics.render().contains("dreamd_failed_ranges"));
        let state = StoreState { backlog: 12, slips_waiting: 3, failed_ranges: 2, failed_users: 1 };
        metrics.observe(state);
        let text = metrics.render();
        for line in [
            "# TYPE dreamd_failed_ranges gauge\ndreamd_failed_ranges 2\n",
            "dreamd_backlog_conversations 12\n",
            "dreamd_slips_waiting 3\n",
            "dreamd_failed_users 1\n",
        ] {
            assert!(text.contains(line), "{line:?} in {text}");
        }
    }
}
