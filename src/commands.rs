//! Runs one parsed command against the configured store and prints its result.

use crate::cli::{Cli, Command, Format, MemoriesCommand, SlipsCommand, SuggestionsCommand};
use crate::config::{Config, DatabaseUrl};
use crate::domain::{Time, truncate_time};
use crate::error::{Error, Result};
use crate::ingest::ingest;
use crate::manage::{Manager, NewExplicit, StatusChange};
use crate::output::{self, emit};
use crate::store::{PgStore, SqliteStore, Store};
use std::io::BufReader;

/// Executes `cli.command` with the validated `config`.
pub async fn run(cli: Cli, config: &Config) -> Result<()> {
    let now = cli.now.unwrap_or_else(|| truncate_time(chrono::Utc::now()));
    if let Command::Config = cli.command {
        return print_config(cli.format, config);
    }
    match &config.database {
        DatabaseUrl::Sqlite(path) => {
            let store = SqliteStore::open(path).await?;
            run_on(&store, cli, now).await
        }
        DatabaseUrl::Postgres(url) => {
            let store = PgStore::open(url).await?;
            run_on(&store, cli, now).await
        }
    }
}

async fn run_on<S: Store>(store: &S, cli: Cli, now: Time) -> Result<()> {
    let format = cli.format;
    let manager = Manager::new(store, now);
    match cli.command {
        Command::Ingest { path } => {
            let summary = if path == "-" {
                ingest(store, BufReader::new(std::io::stdin())).await?
            } else {
                let file =
                    std::fs::File::open(&path).map_err(Error::io(format!("opening {path}")))?;
                ingest(store, BufReader::with_capacity(1 << 20, file)).await?
            };
            emit(format, &summary, output::ingest_summary);
        }
        Command::Memories(command) => memories(&manager, format, command).await?,
        Command::Suggestions(command) => suggestions(&manager, format, command).await?,
        Command::Slips(SlipsCommand::List { user, conversation }) => {
            let slips = manager.slips(&user, conversation.as_deref()).await?;
            emit(format, &slips, |s| output::slip_lines(s));
        }
        Command::Recall(args) => {
            let records = manager.recall(&args.user, &args.scopes, args.limit).await?;
            emit(format, &records, |r| output::memory_lines(r));
        }
        Command::Config => unreachable!("handled before opening the store"),
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
            emit(format, &records, |r| output::memory_lines(r));
            return Ok(());
        }
        MemoriesCommand::History { id } => {
            let events = manager.history(&id).await?;
            emit(format, &events, |e| output::history_lines(e));
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
                })
                .await?
        }
        MemoriesCommand::Disable { id } => manager.change(&id, StatusChange::Disable).await?,
        MemoriesCommand::Enable { id } => manager.change(&id, StatusChange::Enable).await?,
        MemoriesCommand::Delete { id } => manager.change(&id, StatusChange::Delete).await?,
    };
    emit(format, &record, output::memory_block);
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
            emit(format, &records, |r| output::suggestion_lines(r));
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
            });
        }
        SuggestionsCommand::Reject { id } => {
            let record = manager.reject(&id).await?;
            emit(format, &record, |r| {
                output::suggestion_lines(std::slice::from_ref(r))
            });
        }
    }
    Ok(())
}

fn print_config(format: Format, config: &Config) -> Result<()> {
    let masked = config.to_masked();
    let key_env = &config.raw.llm.api_key_env;
    let key_state = if std::env::var_os(key_env).is_some() {
        "set"
    } else {
        "not set"
    };
    emit(format, &masked, |c| {
        format!(
            "# effective configuration (secrets masked)\n# API key: read from ${key_env} ({key_state})\n{}",
            toml::to_string(c).expect("the configuration serialises to TOML")
        )
    });
    Ok(())
}
