//! dreamd as a long-running service: a cron schedule, one run at a time,
//! graceful shutdown, systemd notifications, optional metrics, and the HTTP
//! server beside the schedule when `http.listen` is set ([`serve_http`] is
//! that server alone, for `dreamd serve`).
//!
//! [`run`] takes the future that ends it (a signal in `main`, anything in a
//! test). Ticks only ask for a run; one loop performs runs one after the
//! other, so a tick that comes while a run is going is skipped, never run in
//! parallel (tokio-cron-scheduler would overlap them).

pub mod metrics;
pub mod notify;
pub mod signals;

use crate::config::Config;
use crate::domain::{RunOutcome, new_id, truncate_time};
use crate::error::{Error, Result};
use crate::llm::Provider;
use crate::run::{RunOptions, RunSummary, run_once};
use crate::store::Store;
use crate::tools::{Engine, Tools};
use metrics::Metrics;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_cron_scheduler::{Job, JobScheduler};
use tokio_util::sync::CancellationToken;

/// How the service stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The run in flight finished, or was abandoned after the shutdown bound.
    Gracefully,
    /// `force` completed first: the run in flight was dropped (its
    /// transactions rolled back, its claims released).
    AtOnce,
}

/// Runs on the configured schedule until `shutdown` completes, then stops
/// taking work, lets the run in flight finish for up to
/// `schedule.shutdown_timeout_secs`, and abandons it cleanly after that;
/// `force` (a second signal) stops at once.
pub async fn run<S: Store + Clone + 'static>(
    store: &S,
    config: &Config,
    provider: &Provider,
    shutdown: impl Future<Output = ()>,
    force: impl Future<Output = ()>,
) -> Result<Stopped> {
    let metrics = Arc::new(Metrics::default());
    let _metrics_server = start_metrics(config, metrics.clone()).await?;
    let http = match config.http.listen {
        Some(listen) => {
            let served = store.clone().keeping_recall_candidates();
            let engine = Arc::new(Tools {
                loads: Some(crate::tools::loads::LoadWriter::start(served.clone())),
                store: served,
                now: None,
                detector: config.detector().clone(),
                embedder: crate::llm::embed::Embedder::from_config(config)?,
            });
            let render = metrics.clone();
            let runs: crate::http::metrics::RunMetrics = Arc::new(move || render.render());
            Some(start_http(engine, config, listen, Some(runs)).await?)
        }
        None => None,
    };
    let (ticks, mut next_run) = mpsc::channel::<()>(1);
    let running = Arc::new(AtomicBool::new(false));
    let (mut scheduler, job_id) =
        start_scheduler(&config.schedule.cron, ticks.clone(), running.clone()).await?;
    let _watchdog = notify::spawn_watchdog();
    let idle_status = |scheduler: &JobScheduler| {
        let mut scheduler = scheduler.clone();
        async move {
            let next = scheduler.next_tick_for_job(job_id).await.ok().flatten();
            let text = next.map_or("idle".to_owned(), |t| {
                format!("idle, next run {}", t.format("%Y-%m-%d %H:%M:%S UTC"))
            });
            notify::status(&text);
        }
    };
    notify::ready("starting");
    idle_status(&scheduler).await;
    tracing::info!(cron = %config.schedule.cron, "dreamd started");
    if config.schedule.run_on_start {
        let _ = ticks.try_send(());
    }
    tokio::pin!(shutdown);
    tokio::pin!(force);
    let mut fatal = None;
    let stopped = loop {
        tokio::select! {
            _ = &mut shutdown => break Stopped::Gracefully,
            Some(()) = next_run.recv() => {
                running.store(true, Ordering::SeqCst);
                let stop = one_run(store, config, provider, (&mut shutdown, &mut force), &metrics).await;
                running.store(false, Ordering::SeqCst);
                match stop {
                    Ok(None) => idle_status(&scheduler).await,
                    Ok(Some(stopped)) => break stopped,
                    Err(e) => {
                        fatal = Some(e);
                        break Stopped::Gracefully;
                    }
                }
            }
        }
    };
    notify::stopping();
    if stopped == Stopped::Gracefully
        && let Err(e) = scheduler.shutdown().await
    {
        tracing::warn!(error = %e, "the scheduler did not stop cleanly");
    }
    let stopped = match http {
        Some(http) if stopped == Stopped::Gracefully => {
            // Requests in flight get the bound; a second signal ends the wait.
            tokio::select! {
                biased;
                () = &mut force => Stopped::AtOnce,
                () = http.stop(config.schedule.shutdown_timeout) => Stopped::Gracefully,
            }
        }
        Some(http) => {
            http.stop(Duration::ZERO).await;
            stopped
        }
        None => stopped,
    };
    tracing::info!(at_once = stopped == Stopped::AtOnce, "dreamd stopped");
    fatal.map_or(Ok(stopped), Err)
}

/// The HTTP server on `listen`: tokens read from their variables (an unset
/// one is a configuration error naming it), the socket bound, then served.
async fn start_http(
    engine: Arc<dyn Engine>,
    config: &Config,
    listen: SocketAddr,
    runs: Option<crate::http::metrics::RunMetrics>,
) -> Result<crate::http::Server> {
    let tokens = crate::http::auth::Tokens::from_env(&config.http.tokens)?;
    let listener = crate::http::bind(listen).await?;
    let options = crate::http::Options {
        engine,
        tokens,
        metrics_on: config.metrics_listen.is_some(),
        runs,
        limits: config.http.limits,
    };
    crate::http::start(listener, options).await
}

/// `dreamd serve`: the HTTP API, MCP over HTTP and the review pages, without
/// the schedule, until `shutdown`; requests in flight then get
/// `schedule.shutdown_timeout_secs` to finish, unless `force` comes first.
pub async fn serve_http(
    engine: Arc<dyn Engine>,
    config: &Config,
    listen: SocketAddr,
    shutdown: impl Future<Output = ()>,
    force: impl Future<Output = ()>,
) -> Result<Stopped> {
    let server = start_http(engine, config, listen, None).await?;
    let _watchdog = notify::spawn_watchdog();
    notify::ready(&format!("serving HTTP on {}", server.address()));
    shutdown.await;
    notify::stopping();
    tokio::select! {
        biased;
        _ = force => Ok(Stopped::AtOnce),
        _ = server.stop(config.schedule.shutdown_timeout) => Ok(Stopped::Gracefully),
    }
}

/// One scheduled run under the stop rules ([`run_once_until_stopped`]);
/// the stop that came during it, if any, ends the service after it, and so
/// does a database file replaced under the process (an error).
async fn one_run<S: Store>(
    store: &S,
    config: &Config,
    provider: &Provider,
    (shutdown, force): (impl Future<Output = ()>, impl Future<Output = ()>),
    metrics: &Metrics,
) -> Result<Option<Stopped>> {
    let run_id = new_id();
    let progress_id = run_id.clone();
    let progress = move |done: usize, total: usize| {
        notify::status(&format!("run {progress_id}: {done}/{total} conversations"))
    };
    notify::status(&format!("run {run_id}: selecting"));
    let options = RunOptions {
        run_id,
        now: truncate_time(chrono::Utc::now()),
        dry_run: false,
        cancel: CancellationToken::new(),
        progress: Some(&progress),
    };
    let ended = run_once_until_stopped(store, config, provider, options, shutdown, force).await;
    if let Some(result) = ended.result {
        report(result, metrics)?;
    }
    if config.metrics_listen.is_some() {
        observe_store(store, config, metrics).await;
    }
    Ok(ended.stop)
}

/// The most failed ranges or users the gauges count.
const MOST_COUNTED: u32 = 10_000;

/// Sets the metrics' gauges from what the database holds after a run; a
/// database that cannot answer leaves them as they were (the run's own
/// error says why).
async fn observe_store<S: Store>(store: &S, config: &Config, metrics: &Metrics) {
    let window = crate::select::Window::at(truncate_time(chrono::Utc::now()), config);
    let read = async {
        let backlog = store.backlog(&window).await?;
        let failed_ranges = store.failed_ranges(MOST_COUNTED).await?.len() as u64;
        let failed_users = store.failed_users(MOST_COUNTED).await?.len() as u64;
        Ok::<_, Error>(metrics::StoreState {
            backlog: backlog.eligible,
            slips_waiting: backlog.slips_waiting,
            failed_ranges,
            failed_users,
        })
    };
    match read.await {
        Ok(state) => metrics.observe(state),
        Err(e) => tracing::debug!(error = %e, "the metrics' gauges were not read"),
    }
}

/// Counts a run's result; a database file deleted or replaced under the
/// process is returned, since no later run could write either.
fn report(result: Result<RunSummary>, metrics: &Metrics) -> Result<()> {
    match result {
        Ok(summary) => metrics.record(&summary),
        Err(e) if e.is_database_replaced() => {
            metrics.record_error();
            tracing::error!(error = %e, "run failed; dreamd exits so that its service manager starts it on the file now at that path");
            return Err(e);
        }
        Err(e) => {
            metrics.record_error();
            tracing::error!(error = %e, "run failed; the next tick tries again");
        }
    }
    Ok(())
}

/// How a run under the stop rules ended.
#[derive(Debug)]
pub struct StoppedRun {
    /// What the run returned; `None` when it was abandoned (a second
    /// signal, or the shutdown bound) and its claims released.
    pub result: Option<Result<RunSummary>>,
    /// The stop asked for while it ran, if any.
    pub stop: Option<Stopped>,
}

/// A run under the service's stop rules, for the daemon's runs and for
/// `--run-once` alike: `shutdown` (the first SIGTERM or SIGINT) makes the
/// run take no more work and finish what it holds within
/// `schedule.shutdown_timeout_secs`; `force` (a second signal), or that
/// bound, abandons it and releases its claims, so the next run need not
/// wait `claim_ttl_secs` for them.
pub async fn run_once_until_stopped<S: Store>(
    store: &S,
    config: &Config,
    provider: &Provider,
    options: RunOptions<'_>,
    shutdown: impl Future<Output = ()>,
    force: impl Future<Output = ()>,
) -> StoppedRun {
    let (run_id, cancel) = (options.run_id.clone(), options.cancel.clone());
    let mut run = Box::pin(run_once(store, config, provider, options));
    tokio::select! {
        result = &mut run => {
            let result = said_if_failed(&run_id, result);
            return StoppedRun { result: Some(result), stop: None };
        }
        () = shutdown => {}
    }
    tracing::info!(run_id = %run_id, "shutdown requested: finishing the work in flight, taking no more");
    notify::stopping();
    cancel.cancel();
    let bound = config.schedule.shutdown_timeout;
    let forced = tokio::select! {
        biased;
        () = force => true,
        finished = tokio::time::timeout(bound, &mut run) => match finished {
            Ok(result) => {
                let result = said_if_failed(&run_id, result);
                return StoppedRun { result: Some(result), stop: Some(Stopped::Gracefully) };
            }
            Err(_) => false,
        },
    };
    // Dropped first: its transactions roll back and free the writer.
    drop(run);
    if forced {
        release(store, &run_id).await;
    } else {
        abandon(store, &run_id, bound).await;
    }
    finished_without_summary(&run_id, RunOutcome::Abandoned);
    StoppedRun {
        result: None,
        stop: Some(if forced { Stopped::AtOnce } else { Stopped::Gracefully }),
    }
}

/// Every run ends with one `run finished` line (spec §10.15); a run that
/// has no summary (it failed, or was abandoned) says how it ended, so an
/// operator following that line sees every run end.
fn finished_without_summary(run_id: &str, outcome: RunOutcome) {
    tracing::info!(run_id, outcome = %outcome, "run finished");
}

/// `result`, with its `run finished` line when it is a failure (the
/// caller logs the error itself).
fn said_if_failed(run_id: &str, result: Result<RunSummary>) -> Result<RunSummary> {
    if result.is_err() {
        finished_without_summary(run_id, RunOutcome::Failed);
    }
    result
}

/// Gives up a run that did not finish in time: its transactions were rolled
/// back when it was dropped; its claims are released for the next start.
async fn abandon<S: Store>(store: &S, run_id: &str, bound: Duration) {
    tracing::warn!(
        run_id,
        timeout_secs = bound.as_secs(),
        "run did not finish in time; abandoned, nothing half-written"
    );
    release(store, run_id).await;
}

/// How long a stopping process waits for the database to release its
/// claims: an exit "at once" must not hang on a stuck connection.
const RELEASE_BOUND: Duration = Duration::from_secs(5);

/// Releases a given-up run's claims; on failure, or past [`RELEASE_BOUND`],
/// they expire by themselves.
async fn release<S: Store>(store: &S, run_id: &str) {
    match tokio::time::timeout(RELEASE_BOUND, store.release_claims(run_id)).await {
        Ok(Ok(n)) => tracing::info!(run_id, released = n, "claims of the abandoned run released"),
        Ok(Err(e)) => {
            tracing::warn!(run_id, error = %e, "could not release claims; they expire by themselves")
        }
        Err(_) => tracing::warn!(
            run_id,
            bound_secs = RELEASE_BOUND.as_secs(),
            "the database did not release the claims in time; they expire by themselves"
        ),
    }
}

async fn start_scheduler(
    cron: &str,
    ticks: mpsc::Sender<()>,
    running: Arc<AtomicBool>,
) -> Result<(JobScheduler, uuid::Uuid)> {
    let fail =
        |e: tokio_cron_scheduler::JobSchedulerError| Error::Config(format!("schedule.cron: {e}"));
    let scheduler = JobScheduler::new().await.map_err(fail)?;
    let job = Job::new_async(cron, move |_, _| {
        let (ticks, running) = (ticks.clone(), running.clone());
        Box::pin(async move {
            if running.load(Ordering::SeqCst) || ticks.try_send(()).is_err() {
                tracing::info!("tick skipped: the previous run is still going");
            }
        })
    })
    .map_err(fail)?;
    let job_id = scheduler.add(job).await.map_err(fail)?;
    scheduler.start().await.map_err(fail)?;
    Ok((scheduler, job_id))
}

/// The metrics endpoint's task, stopped when the service stops.
struct MetricsServer(tokio::task::JoinHandle<()>);

impl Drop for MetricsServer {
    fn drop(&mut self) {
        self.0.abort();
    }
}

async fn start_metrics(config: &Config, metrics: Arc<Metrics>) -> Result<Option<MetricsServer>> {
    let Some(listen) = config.metrics_listen else {
        return Ok(None);
    };
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(Error::io(format!("metrics.listen: cannot listen on {listen}")))?;
    let bound =
        listener.local_addr().map_err(Error::io("metrics.listen: reading the bound address"))?;
    tracing::info!(address = %bound, "metrics endpoint listening");
    Ok(Some(MetricsServer(tokio::spawn(metrics::serve(listener, metrics)))))
}
