use dreamd::cli::{Cli, Command, Format};
use dreamd::commands::Finished;
use dreamd::config::{Config, LogFormat};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::parse_quietly() {
        Ok(cli) => cli,
        Err(refused) => {
            if refused.on_stdout {
                print!("{}", refused.message);
            } else {
                eprint!("{}", refused.message);
            }
            return ExitCode::from(refused.code.clamp(0, 255) as u8);
        }
    };
    // A service that logs JSON lines (--format json, or log.format = json)
    // says its last word before exiting (a configuration it refuses, a
    // database it cannot open) as one too, so a log pipeline keeps it.
    let service = is_service(&cli);
    let json_asked = service && cli.format == Format::Json;
    let config = Config::load(cli.config.as_deref());
    let json_configured = config.as_ref().is_ok_and(|c| c.log.format == LogFormat::Json);
    let json_error = json_asked || (service && json_configured);
    let finished = config
        .map_err(anyhow::Error::from)
        .and_then(|config| try_main(cli, &config, json_asked || json_configured));
    match finished {
        Ok(Finished::Done) => ExitCode::SUCCESS,
        Ok(Finished::PartlyFailed) => ExitCode::from(3),
        Ok(Finished::Interrupted) => ExitCode::from(130),
        Ok(Finished::GateMissed) => ExitCode::from(4),
        Err(error) => {
            if json_error {
                let line = serde_json::json!({"level": "ERROR", "target": "dreamd", "message": error.to_string()});
                eprintln!("{line}");
            } else {
                eprintln!("dreamd: {error}");
            }
            ExitCode::from(
                error.downcast_ref::<dreamd::Error>().map_or(1, dreamd::Error::exit_code),
            )
        }
    }
}

fn try_main(cli: Cli, config: &Config, json_logs: bool) -> anyhow::Result<Finished> {
    let service = is_service(&cli);
    // eval makes a run per case in scratch databases: its "run finished" lines
    // and slow-pool notices under load would bury the report.
    let quiet_runs = matches!(cli.command, Some(Command::Eval(_)));
    init_logging(config, json_logs, quiet_runs);
    // One-shot commands wait on the database and the model, not on CPU: one
    // thread spares them the cross-thread wake-ups (a `--run-once` spent
    // a third of its futex calls parking and waking runtime workers). The
    // services keep a worker per core for their concurrent clients.
    let mut runtime = if service {
        tokio::runtime::Builder::new_multi_thread()
    } else {
        tokio::runtime::Builder::new_current_thread()
    };
    let runtime = runtime.enable_all().build()?;
    Ok(runtime.block_on(dreamd::commands::run(cli, config))?)
}

/// The daemon and `serve`: the commands that run until stopped.
fn is_service(cli: &Cli) -> bool {
    (cli.command.is_none() && !cli.run_once) || matches!(cli.command, Some(Command::Serve { .. }))
}

/// Logs go to stderr (journald captures it); stdout is for command output only.
fn init_logging(config: &Config, json: bool, quiet_runs: bool) {
    let level = &config.log.level;
    let quiet_runs = if quiet_runs && !level.contains("dreamd::run") {
        ",dreamd::run=warn,sqlx::pool=error"
    } else {
        ""
    };
    let quiet_scheduler =
        if level.contains("tokio_cron_scheduler") { "" } else { ",tokio_cron_scheduler=warn" };
    // async-openai logs a body it cannot parse, and a server error's message,
    // in full: model text that must never reach a log (spec §10.21). dreamd
    // logs those failures itself, by category.
    // rmcp logs what an MCP client sent (tool arguments at ERROR when a call
    // comes out of order, client info, method names) and every session id:
    // off unless the operator names it.
    let quiet_mcp = if level.contains("rmcp") { "" } else { ",rmcp=off" };
    // sqlx says at info what PostgreSQL notices on every start ("relation
    // _sqlx_migrations already exists, skipping") and its pool's
    // housekeeping: noise at the default level (ops round 4, L10). dreamd
    // reports the database's failures itself.
    let quiet_sqlx = if level.contains("sqlx") { "" } else { ",sqlx=warn" };
    let filter = tracing_subscriber::EnvFilter::new(format!(
        "{level}{quiet_scheduler}{quiet_runs}{quiet_mcp}{quiet_sqlx},async_openai=off"
    ));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    if json {
        builder.json().flatten_event(true).with_current_span(true).with_span_list(false).init();
    } else {
        builder.init();
    }
}
