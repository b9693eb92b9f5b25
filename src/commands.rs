//! Runs one parsed command against the configured store and prints its result.

use crate::cli::{
    Cli, Command, EvalArgs, Format, LoadsCommand, MemoriesCommand, SlipsCommand, StoreCommand,
    SuggestionsCommand, UsersCommand,
};
use crate::config::{Config, DatabaseUrl};
use crate::domain::{Time, truncate_time};
use crate::error::{Error, Result};
use crate::eval::EvalOptions;
use crate::eval::report::{Gates, Report};
use crate::ingest::ingest;
use crate::llm::Provider;
use crate::llm::embed::Embedder;
use crate::manage::{Manager, NewExplicit, StatusChange};
use crate::output::{self, emit};
use crate::select::Window;
use crate::store::{PgStore, SqliteStore, Store};
use crate::tools::loads::LoadWriter;
use crate::tools::{Access, Engine, Grant, Tools};
use std::io::BufReader;
use std::sync::Arc;

/// How a command ended when it did not fail outright.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    Done,
    /// A run finished but some conversations or users failed (exit code 3).
    PartlyFailed,
    /// A second stop signal ended the work at once, or a `--run-once` was
    /// abandoned at its shutdown bound (exit code 130).
    Interrupted,
    /// `dreamd eval` finished but missed a gate (exit code 4).
    GateMissed,
}

/// Executes the command line with the validated `config`.
pub async fn run(cli: Cli, config: &Config) -> Result<Finished> {
    let now = cli.now.unwrap_or_else(|| truncate_time(chrono::Utc::now()));
    if cli.run_once && cli.command.is_some() {
        return Err(Error::Invalid("--run-once takes no command; run them separately".into()));
    }
    if cli.now.is_some() && !cli.run_once && cli.command.is_none() {
        tracing::warn!(
            "--now is ignored: the service runs on the real clock (--now is for --run-once and commands)"
        );
    }
    let command = match cli.command {
        Some(Command::Config { check: true }) => {
            crate::check::run(config, cli.format).await?;
            return Ok(Finished::Done);
        }
        Some(Command::Config { check: false }) => {
            print_config(cli.format, config)?;
            return Ok(Finished::Done);
        }
        Some(Command::Detect { text }) => {
            detect(cli.format, config.detector(), text.as_deref())?;
            return Ok(Finished::Done);
        }
        Some(Command::Mcp) => return serve_mcp(config, cli.now).await.map(|()| Finished::Done),
        Some(Command::Serve { listen }) => return serve_http(config, cli.now, listen).await,
        Some(Command::Eval(args)) => return eval(config, cli.format, &args).await,
        Some(Command::Store(command)) => Some(command),
        None => None,
    };
    let how = How { format: cli.format, now, dry_run: cli.dry_run, run_once: cli.run_once };
    match &config.database {
        DatabaseUrl::Sqlite(path) => {
            run_on(&SqliteStore::open(path).await?, command, config, how).await
        }
        DatabaseUrl::Postgres(url) => {
            run_on(&PgStore::open(url).await?, command, config, how).await
        }
    }
}

/// The global options a command on the store needs.
struct How {
    format: Format,
    now: Time,
    dry_run: bool,
    run_once: bool,
}

async fn run_on<S: Store + Clone + 'static>(
    store: &S,
    command: Option<StoreCommand>,
    config: &Config,
    how: How,
) -> Result<Finished> {
    let (format, now) = (how.format, how.now);
    let Some(command) = command else {
        let provider = Provider::from_config(config)?;
        let signals = crate::service::signals::StopSignals::listen()
            .map_err(Error::io("installing signal handlers"))?;
        if !how.run_once {
            let stopped =
                crate::service::run(store, config, &provider, signals.first(), signals.second())
                    .await?;
            return Ok(match stopped {
                crate::service::Stopped::Gracefully => Finished::Done,
                crate::service::Stopped::AtOnce => Finished::Interrupted,
            });
        }
        let options = crate::run::RunOptions::once(now, how.dry_run);
        let ended = crate::service::run_once_until_stopped(
            store,
            config,
            &provider,
            options,
            signals.first(),
            signals.second(),
        )
        .await;
        let Some(result) = ended.result else {
            return Ok(Finished::Interrupted);
        };
        let summary = result?;
        emit(format, &summary, output::run_summary)?;
        return Ok(if summary.retried_next_run() {
            Finished::PartlyFailed
        } else {
            Finished::Done
        });
    };
    let embedder = Embedder::from_config(config)?;
    let manager = Manager::new(store, now, config.detector()).with_embedder(embedder.as_ref());
    match command {
        StoreCommand::Ingest { path } => {
            let summary = if path == "-" {
                ingest(store, BufReader::new(std::io::stdin()), config.detector()).await?
            } else {
                let file =
                    std::fs::File::open(&path).map_err(Error::io(format!("opening {path}")))?;
                ingest(store, BufReader::with_capacity(1 << 20, file), config.detector()).await?
            };
            emit(format, &summary, output::ingest_summary)?;
        }
        StoreCommand::Memories(command) => memories(&manager, format, command).await?,
        StoreCommand::Suggestions(command) => suggestions(&manager, format, command).await?,
        StoreCommand::Slips(SlipsCommand::List { user, conversation }) => {
            let slips = manager.slips(&user, conversation.as_deref()).await?;
            emit(format, &slips, |s| output::slip_lines(s))?;
        }
        StoreCommand::Recall(args) => match &args.conversation {
            None => {
                let records = manager
                    .recall(&args.user, &args.scopes, args.limit, args.query.as_deref())
                    .await?;
                emit(format, &records, |r| output::memory_lines(r))?;
            }
            Some(conversation) => {
                let (load_id, memories) = manager
                    .recall_for(
                        &args.user,
                        &args.scopes,
                        args.limit,
                        args.query.as_deref(),
                        conversation,
                    )
                    .await?;
                let loaded = serde_json::json!({ "load_id": load_id, "memories": memories });
                emit(format, &loaded, |_| {
                    format!("load {load_id}\n{}", output::memory_lines(&memories))
                })?;
            }
        },
        StoreCommand::Loads(LoadsCommand::List { user, conversation }) => {
            let loads = manager.loads(&user, conversation.as_deref()).await?;
            emit(format, &loads, |l| output::load_lines(l))?;
        }
        StoreCommand::Users(UsersCommand::Purge { user }) => {
            crate::manage::check_ids(&user, None, None)?;
            let removed: std::collections::BTreeMap<&str, u64> =
                store.purge_user(&user).await?.into_iter().collect();
            let report = serde_json::json!({ "user_id": user, "removed": removed });
            emit(format, &report, |_| {
                let rows: Vec<String> = removed
                    .iter()
                    .filter(|(_, n)| **n > 0)
                    .map(|(t, n)| format!("{n} {t}"))
                    .collect();
                format!(
                    "purged user {user}: {}\n",
                    if rows.is_empty() { "nothing was stored".to_owned() } else { rows.join(", ") }
                )
            })?;
        }
        StoreCommand::Copy { to, into_non_empty } => {
            let counts = copy_to(store, config, &to, into_non_empty).await?;
            emit(format, &counts, |c| output::copy_report(c))?;
        }
        StoreCommand::Status { runs } => {
            let status = output::Status {
                runs: store.recent_runs(runs).await?,
                backlog: store.backlog(&Window::at(now, config)).await?,
                failed_ranges: store.failed_ranges(20).await?,
                failed_users: store
                    .failed_users(20)
                    .await?
                    .into_iter()
                    .map(|user| output::FailedUserStatus {
                        passed_over: user.attempts >= i64::from(config.selection.max_attempts),
                        user,
                    })
                    .collect(),
                counts: store.counts().await?,
            };
            emit(format, &status, output::status)?;
        }
    }
    Ok(Finished::Done)
}

/// `dreamd copy --to URL`: the configured database into another one.
async fn copy_to<S: Store>(
    store: &S,
    config: &Config,
    to: &str,
    into_non_empty: bool,
) -> Result<Vec<crate::copy::TableCount>> {
    let target = DatabaseUrl::parse(to).map_err(|e| Error::Invalid(format!("--to: {e}")))?;
    if target == config.database {
        return Err(Error::Invalid("--to names the configured database itself".into()));
    }
    let progress = |what: &str, done: usize, total: usize| {
        if done == total || done.is_multiple_of(1000) {
            tracing::info!(what, done, total, "copy progress");
        }
    };
    match target {
        DatabaseUrl::Sqlite(path) => {
            let target = SqliteStore::open(&path).await?;
            crate::copy::copy(store, &target, into_non_empty, &progress).await
        }
        DatabaseUrl::Postgres(url) => {
            let target = PgStore::open(&url).await?;
            crate::copy::copy(store, &target, into_non_empty, &progress).await
        }
    }
}

/// `dreamd eval`: scores the golden set in scratch databases (the configured
/// one is never opened), prints the report, and names every gate missed.
async fn eval(config: &Config, format: Format, args: &EvalArgs) -> Result<Finished> {
    let options = EvalOptions {
        golden: args.golden.clone(),
        out: args.out.clone(),
        gates: Gates {
            min_precision: args.min_precision,
            min_recall: args.min_recall,
            max_leaks: args.max_leaks,
            min_recall_hit_rate: args.min_recall_hit_rate,
        },
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    let evaluation = crate::eval::evaluate(config, &options).await?;
    emit(format, &evaluation.report, Report::table)?;
    for gate in &evaluation.missed_gates {
        eprintln!("dreamd: eval gate missed: {gate}");
    }
    Ok(if evaluation.missed_gates.is_empty() { Finished::Done } else { Finished::GateMissed })
}

/// `dreamd detect`: the category of `text`, or of each line of stdin.
fn detect(format: Format, detector: &crate::detect::Detector, text: Option<&str>) -> Result<()> {
    match text {
        Some(text) if text != "-" => {
            let found = output::Detection::of(detector, text, None);
            emit(format, &found, output::detection)?;
        }
        _ => {
            let mut found = Vec::new();
            for (i, line) in std::io::stdin().lines().enumerate() {
                let line = line.map_err(Error::io("reading standard input"))?;
                found.push(output::Detection::of(detector, &line, Some(i + 1)));
            }
            emit(format, &found, |all| all.iter().map(output::detection).collect::<String>())?;
        }
    }
    Ok(())
}

async fn memories<S: Store>(
    manager: &Manager<'_, S>,
    format: Format,
    command: MemoriesCommand,
) -> Result<()> {
    let record = match command {
        MemoriesCommand::List { user, all } => {
            let records = manager.list(&user, all).await?;
            emit(format, &records, |r| output::memory_lines(r))?;
            return Ok(());
        }
        MemoriesCommand::History { id } => {
            let events = manager.history(&id).await?;
            emit(format, &events, |e| output::history_lines(e))?;
            return Ok(());
        }
        MemoriesCommand::Show { id } => manager.show(&id).await?,
        MemoriesCommand::Set(args) => {
            manager
                .set(NewExplicit {
                    user_id: args.user,
                    kind: args.kind,
                    scope: args.scope,
                    text: args.text,
                    expires_at: args.expires_at,
                    source: args.conversation.map(|c| (c, args.message)),
                })
                .await?
        }
        MemoriesCommand::Edit { id, text } => manager.edit(&id, &text).await?,
        MemoriesCommand::Disable { id } => manager.change(&id, StatusChange::Disable).await?,
        MemoriesCommand::Enable { id } => manager.change(&id, StatusChange::Enable).await?,
        MemoriesCommand::Delete { id } => manager.change(&id, StatusChange::Delete).await?,
    };
    emit(format, &record, output::memory_block)?;
    Ok(())
}

async fn suggestions<S: Store>(
    manager: &Manager<'_, S>,
    format: Format,
    command: SuggestionsCommand,
) -> Result<()> {
    match command {
        SuggestionsCommand::List { user, all } => {
            let records = manager.suggestions(&user, all).await?;
            emit(format, &records, |r| output::suggestion_lines(r))?;
        }
        SuggestionsCommand::Accept { id } => {
            let (suggestion, memory) = manager.accept(&id).await?;
            let both = serde_json::json!({ "suggestion": suggestion, "memory": memory });
            emit(format, &both, |_| {
                format!(
                    "accepted suggestion {}\n{}",
                    suggestion.suggestion.suggestion_id,
                    output::memory_block(&memory)
                )
            })?;
        }
        SuggestionsCommand::Reject { id } => {
            let record = manager.reject(&id).await?;
            emit(format, &record, |r| output::suggestion_lines(std::slice::from_ref(r)))?;
        }
    }
    Ok(())
}

fn print_config(format: Format, config: &Config) -> Result<()> {
    let masked = config.to_masked();
    let key_env = &config.llm.api_key_env;
    let key_state = config.llm.api_key_state();
    let toml = toml::to_string(&masked)
        .map_err(|e| Error::Config(format!("cannot print the configuration as TOML: {e}")))?;
    emit(format, &masked, |_| {
        format!(
            "# effective configuration (secrets masked)\n# API key: read from ${key_env} ({key_state})\n{toml}"
        )
    })?;
    Ok(())
}

/// The tools on the configured store, which moves into them; with
/// `queued_loads`, recall's loads are written off the request path (HTTP).
async fn open_engine(
    config: &Config,
    now: Option<Time>,
    queued_loads: bool,
) -> Result<Arc<dyn Engine>> {
    let detector = config.detector().clone();
    let embedder = Embedder::from_config(config)?;
    Ok(match &config.database {
        DatabaseUrl::Sqlite(path) => {
            let store = SqliteStore::open(path).await?.keeping_recall_candidates();
            let loads = queued_loads.then(|| LoadWriter::start(store.clone()));
            Arc::new(Tools { store, now, detector, embedder, loads })
        }
        DatabaseUrl::Postgres(url) => {
            let store = PgStore::open(url).await?.keeping_recall_candidates();
            let loads = queued_loads.then(|| LoadWriter::start(store.clone()));
            Arc::new(Tools { store, now, detector, embedder, loads })
        }
    })
}

/// `dreamd mcp`: the tools over stdio for the users of `mcp.users`, until stdin closes.
async fn serve_mcp(config: &Config, now: Option<Time>) -> Result<()> {
    let access = Access::new(config.mcp_users.clone(), Grant::McpUsers);
    crate::mcp::serve(open_engine(config, now, false).await?, access).await
}

/// `dreamd serve`: the HTTP server on `--listen` or `http.listen` until a stop signal.
async fn serve_http(
    config: &Config,
    now: Option<Time>,
    listen: Option<std::net::SocketAddr>,
) -> Result<Finished> {
    let listen = listen.or(config.http.listen).ok_or_else(|| {
        Error::Config(
            "http.listen is empty: set it (e.g. \"127.0.0.1:8464\") or pass --listen".into(),
        )
    })?;
    let signals = crate::service::signals::StopSignals::listen()
        .map_err(Error::io("installing signal handlers"))?;
    let engine = open_engine(config, now, true).await?;
    let stopped =
        crate::service::serve_http(engine, config, listen, signals.first(), signals.second())
            .await?;
    Ok(match stopped {
        crate::service::Stopped::Gracefully => Finished::Done,
        crate::service::Stopped::AtOnce => Finished::Interrupted,
    })
}
