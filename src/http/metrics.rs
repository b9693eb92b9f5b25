//! `/metrics` on the HTTP server when metrics are on (`metrics.listen` set):
//! the service's run counters, when the daemon serves, and the server's own
//! requests by route and status with a latency histogram per route, so the
//! recall hot path can be watched.

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Upper bounds of the request-latency histogram, in seconds.
const LATENCY_BUCKETS: [f64; 9] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5];

/// Renders the run counters of the service the server runs beside.
pub type RunMetrics = Arc<dyn Fn() -> String + Send + Sync>;

#[derive(Default)]
struct Latency {
    buckets: [u64; LATENCY_BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// Requests since the server started.
#[derive(Default)]
pub struct Metrics {
    runs: Option<RunMetrics>,
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    latency: Mutex<BTreeMap<String, Latency>>,
}

impl Metrics {
    pub fn new(runs: Option<RunMetrics>) -> Metrics {
        Metrics { runs, ..Metrics::default() }
    }

    fn record(&self, route: &str, status: u16, seconds: f64) {
        // Each update is a single increment, so a poisoned lock still holds consistent counts.
        let mut requests = self.requests.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *requests.entry((route.to_owned(), status)).or_default() += 1;
        drop(requests);
        let mut latency = self.latency.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let l = latency.entry(route.to_owned()).or_default();
        l.count += 1;
        l.sum += seconds;
        for (i, bound) in LATENCY_BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                l.buckets[i] += 1;
            }
        }
    }

    /// The text exposition format: run counters first, then requests.
    pub fn render(&self) -> String {
        let mut out = self.runs.as_ref().map(|runs| runs()).unwrap_or_default();
        let requests = self.requests.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = writeln!(out, "# TYPE dreamd_http_requests_total counter");
        for ((route, status), n) in requests.iter() {
            let _ = writeln!(
                out,
                "dreamd_http_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}"
            );
        }
        drop(requests);
        let latency = self.latency.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = writeln!(out, "# TYPE dreamd_http_request_duration_seconds histogram");
        for (route, l) in latency.iter() {
            let name = "dreamd_http_request_duration_seconds";
            for (bound, n) in LATENCY_BUCKETS.iter().zip(l.buckets) {
                let _ = writeln!(out, "{name}_bucket{{route=\"{route}\",le=\"{bound}\"}} {n}");
            }
            let _ = writeln!(out, "{name}_bucket{{route=\"{route}\",le=\"+Inf\"}} {}", l.count);
            let _ = writeln!(out, "{name}_sum{{route=\"{route}\"}} {}", l.sum);
            let _ = writeln!(out, "{name}_count{{route=\"{route}\"}} {}", l.count);
        }
        out
    }
}

/// Counts a matched request by its route's template (never the ids in its path).
pub async fn track(
    State(metrics): State<Arc<Metrics>>,
    route: Option<MatchedPath>,
    request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let response = next.run(request).await;
    if let Some(route) = route {
        metrics.record(route.as_str(), response.status().as_u16(), started.elapsed().as_secs_f64());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_route_and_status_with_their_latency() {
        let metrics = Metrics::new(Some(Arc::new(|| "dreamd_runs_total 3\n".to_owned())));
        metrics.record("/v1/recall", 200, 0.002);
        metrics.record("/v1/recall", 200, 0.02);
        metrics.record("/v1/recall", 403, 0.001);
        let text = metrics.render();
        assert!(text.starts_with("dreamd_runs_total 3\n"), "{text}");
        assert!(text.contains("dreamd_http_requests_total{route=\"/v1/recall\",status=\"200\"} 2"));
        assert!(text.contains(
            "dreamd_http_request_duration_seconds_bucket{route=\"/v1/recall\",le=\"0.005\"} 2"
        ));
        assert!(
            text.contains("dreamd_http_request_duration_seconds_count{route=\"/v1/recall\"} 3")
        );
    }
}
