//! dreamd in process: a store, a configuration and the fake model, driven
//! through the library the way the binary drives it. For scenarios that need
//! to act between two steps of a run (a person's change while the model
//! thinks), which a child process cannot offer.

use dreamd::config::Config;
use dreamd::llm::Provider;
use dreamd::run::{RunOptions, RunSummary, run_once};
use dreamd::store::Store;

/// The built-in defaults with `overrides` (TOML) on top.
pub fn config(overrides: &str) -> Config {
    Config::from_toml(overrides).unwrap_or_else(|e| panic!("{e}\n{overrides}"))
}

/// The openai provider against a fake server at `base_url`, no retries, then
/// `overrides` (TOML without an `[llm]` table; `llm.…` dotted keys are fine).
pub fn model_config(base_url: &str, overrides: &str) -> Config {
    config(&format!(
        "llm.provider = \"openai\"\nllm.base_url = \"{base_url}\"\nllm.model = \"fake-model\"\nllm.timeout_secs = 10\nllm.max_retries = 0\n{overrides}"
    ))
}

/// Ingests JSON Lines given as text; panics on a refused input.
pub async fn ingest<S: Store>(store: &S, lines: &[String]) {
    dreamd::ingest::ingest(store, lines.join("\n").as_bytes(), &Default::default())
        .await
        .expect("the test input is valid");
}

/// One run at `now`, as `--run-once --now` does it.
pub async fn run_at<S: Store>(store: &S, config: &Config, now: &str) -> RunSummary {
    let provider = Provider::from_config(config).expect("the provider builds");
    run_once(
        store,
        config,
        &provider,
        RunOptions::once(now.parse().expect("an RFC 3339 time"), false),
    )
    .await
    .expect("the run completes")
}
