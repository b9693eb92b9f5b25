use clap::Parser;
use dreamd::cli::Cli;
use dreamd::config::{Config, LogFormat};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match try_main(cli) {
        Ok(()) => ExitCode::SUCCESS,
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

fn try_main(cli: Cli) -> anyhow::Result<()> {
    let config = Config::load(cli.config.as_deref())?;
    init_logging(&config);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(dreamd::commands::run(cli, &config))?;
    Ok(())
}

/// Logs go to stderr (journald captures it); stdout is for command output only.
fn init_logging(config: &Config) {
    let filter = tracing_subscriber::EnvFilter::new(&config.raw.log.level);
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match config.raw.log.format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Text => builder.init(),
    }
}
