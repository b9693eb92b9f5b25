use clap::Parser;
use dreamd::cli::Cli;
use dreamd::commands::Finished;
use dreamd::config::{Config, LogFormat};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match try_main(cli) {
        Ok(Finished::Done) => ExitCode::SUCCESS,
        Ok(Finished::PartlyFailed) => ExitCode::from(3),
        Err(error) => {
            eprintln!("dreamd: {error}");
            let code = error
                .downcast_ref::<dreamd::Error>()
                .map(dreamd::Error::exit_code)
                .unwrap_or(1);
            ExitCode::from(code)
        }
    }
}

fn try_main(cli: Cli) -> anyhow::Result<Finished> {
    let config = Config::load(cli.config.as_deref())?;
    init_logging(&config);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(dreamd::commands::run(cli, &config))?)
}

/// Logs go to stderr (journald captures it); stdout is for command output only.
fn init_logging(config: &Config) {
    let filter = tracing_subscriber::EnvFilter::new(&config.raw.log.level);
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    match config.raw.log.format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Text => builder.init(),
    }
}
