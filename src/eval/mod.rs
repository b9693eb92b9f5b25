//! `dreamd eval GOLDEN` (spec §12): runs every case of a golden set through
//! explicit memories → ingest → run(s) in a scratch SQLite database of its
//! own, with the configured provider, reads back what dreamd stored, and
//! scores it against what the case expects.
//!
//! The configured database is never opened: each case gets a fresh file in a
//! directory of the system's temporary folder, removed afterwards. Users run
//! this before they switch a model or edit a prompt, so it must not write one
//! byte into their memories.
//!
//! - [`golden`]: the case format, read and checked whole before anything runs.
//! - [`score`]: one case's found and expected items, judged (pure).
//! - [`report`]: the figures per kind and language, the table, the gates.

pub mod golden;
pub mod report;
pub mod score;

use crate::config::{Config, DatabaseUrl, Provider as ProviderName};
use crate::domain::{Origin, Status, SuggestionStatus, Time};
use crate::error::{Error, Result};
use crate::llm::Provider;
use crate::llm::embed::Embedder;
use crate::manage::{DEFAULT_RECALL_LIMIT, Manager, NewExplicit};
use crate::run::{RunOptions, run_once};
use crate::store::{SqliteStore, Store};
use crate::text;
use futures::StreamExt;
use golden::{GoldenCase, RecallCheck};
use report::{Gates, Report};
use score::{CaseResult, FoundMemory, FoundSlip, FoundSuggestion, Observed};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `dreamd eval` was asked to do.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    pub golden: PathBuf,
    /// Where to write one JSON file per case (and the report).
    pub out: Option<PathBuf>,
    pub gates: Gates,
    /// Show a progress bar on standard error (only sensible on a terminal).
    pub progress: bool,
}

/// The report, the per-case results, and the gates it missed.
#[derive(Debug)]
pub struct Evaluation {
    pub report: Report,
    pub results: Vec<CaseResult>,
    pub missed_gates: Vec<String>,
}

/// Reads the golden set, runs every case in its own scratch database
/// (`llm.concurrency` cases at a time), scores them and writes `--out`.
pub async fn evaluate(config: &Config, options: &EvalOptions) -> Result<Evaluation> {
    let cases = read_golden(&options.golden)?;
    if let Some(out) = &options.out {
        refuse_configured_database_inside(config, out, "--out")?;
    }
    let scratch = Scratch::create(config)?;
    let provider = Provider::from_config(config)?;
    let embedder = Embedder::from_config(config)?;
    let started = Instant::now();
    let progress = progress_bar(options.progress, cases.len());
    let concurrency = config.llm.concurrency;
    let mut results: Vec<(usize, CaseResult)> = futures::stream::iter(cases.iter().enumerate())
        .map(|(i, case)| {
            let (provider, scratch, progress) = (&provider, &scratch, &progress);
            let embedder = embedder.as_ref();
            async move {
                let result = run_case(case, config, provider, embedder, &scratch.case_db(i)).await;
                progress.inc(1);
                result.map(|r| (i, r))
            }
        })
        .buffer_unordered(concurrency)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<Result<_>>()?;
    progress.finish_and_clear();
    results.sort_by_key(|(i, _)| *i);
    let results: Vec<CaseResult> = results.into_iter().map(|(_, r)| r).collect();
    let report = Report::new(
        options.golden.display().to_string(),
        provider_label(config),
        &results,
        started.elapsed().as_millis() as u64,
    );
    if let Some(out) = &options.out {
        write_out(out, &report, &results)?;
    }
    let missed_gates = options.gates.missed(&report);
    Ok(Evaluation { report, results, missed_gates })
}

/// Reads and checks the whole golden file; a bad line is the caller's to fix (exit 2).
fn read_golden(path: &Path) -> Result<Vec<GoldenCase>> {
    let text = std::fs::read_to_string(path)
        .map_err(Error::io(format!("reading the golden set {}", path.display())))?;
    golden::parse(&text).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        Error::Invalid(format!(
            "{}: {} bad case(s), nothing was run:\n{}",
            path.display(),
            errors.len(),
            lines.join("\n")
        ))
    })
}

fn provider_label(config: &Config) -> String {
    match config.llm.provider {
        ProviderName::Rules => "rules".into(),
        ProviderName::Openai => format!("openai ({})", config.llm.model),
    }
}

fn progress_bar(visible: bool, cases: usize) -> indicatif::ProgressBar {
    if !visible {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(cases as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} cases, {elapsed} (about {eta} left)",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The configured SQLite file, made absolute; `None` for PostgreSQL.
fn configured_sqlite(config: &Config) -> Option<PathBuf> {
    match &config.database {
        DatabaseUrl::Sqlite(path) => Some(resolved(path)),
        DatabaseUrl::Postgres(_) => None,
    }
}

/// `path` made absolute, through symbolic links as far as it exists.
fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if let Ok(real) = absolute.canonicalize() {
        return real;
    }
    match (absolute.parent(), absolute.file_name()) {
        (Some(parent), Some(name)) => resolved(parent).join(name),
        _ => absolute,
    }
}

/// Refuses `dir` when the configured SQLite database (or its -wal and -shm
/// files) lies inside it: eval never writes where the real memories are.
fn refuse_configured_database_inside(config: &Config, dir: &Path, what: &str) -> Result<()> {
    let Some(database) = configured_sqlite(config) else {
        return Ok(());
    };
    let dir = resolved(dir);
    if database.starts_with(&dir) {
        return Err(Error::Invalid(format!(
            "{what} {} holds the configured database {}; eval never writes there, choose another directory",
            dir.display(),
            database.display()
        )));
    }
    Ok(())
}

/// A fresh directory in the system's temporary folder for the cases'
/// databases, removed with everything in it when dropped.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn create(config: &Config) -> Result<Scratch> {
        let dir = std::env::temp_dir().join(format!("dreamd-eval-{}", uuid::Uuid::now_v7()));
        refuse_configured_database_inside(config, &dir, "the scratch directory")?;
        std::fs::create_dir_all(&dir)
            .map_err(Error::io(format!("creating the scratch directory {}", dir.display())))?;
        Ok(Scratch { dir })
    }

    fn case_db(&self, index: usize) -> PathBuf {
        self.dir.join(format!("case-{index}.db"))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.dir) {
            tracing::warn!(dir = %self.dir.display(), error = %e, "could not remove the eval scratch directory");
        }
    }
}

/// Runs one case in a fresh database at `db` and scores it; the database is removed after.
async fn run_case(
    case: &GoldenCase,
    config: &Config,
    provider: &Provider,
    embedder: Option<&Embedder>,
    db: &Path,
) -> Result<CaseResult> {
    let config = scratch_config(config, db);
    let store = SqliteStore::open(db).await?;
    let observed = observe(case, &store, &config, provider, embedder).await;
    store.close().await;
    for suffix in ["", "-wal", "-shm"] {
        let mut file = db.as_os_str().to_owned();
        file.push(suffix);
        // Missing files are fine; the scratch directory goes at the end anyway.
        let _ = std::fs::remove_file(PathBuf::from(file));
    }
    Ok(score::score_case(case, observed?))
}

/// The configuration with the case's scratch database. Cases run side by side
/// (`llm.concurrency` at a time), so each makes one model call at a time and
/// the endpoint never sees more than `llm.concurrency` calls at once.
fn scratch_config(config: &Config, db: &Path) -> Config {
    let mut scratch = config.clone();
    scratch.database = DatabaseUrl::Sqlite(db.to_path_buf());
    scratch.llm.concurrency = 1;
    scratch
}

/// Explicit memories, then the messages, then a run at each `now`; then the state.
async fn observe<S: Store>(
    case: &GoldenCase,
    store: &S,
    config: &Config,
    provider: &Provider,
    embedder: Option<&Embedder>,
) -> Result<Observed> {
    set_explicit(case, store, config).await?;
    crate::ingest::ingest(store, case.ingest_lines.join("\n").as_bytes(), config.detector())
        .await
        .map_err(|e| in_case(case, "messages", e))?;
    let mut kept = BTreeMap::new();
    let mut failures = 0;
    for now in &case.now {
        let summary = run_once(store, config, provider, RunOptions::once(*now, false)).await?;
        failures += summary.conversations.failed + summary.users.failed;
        // Read after every run: retention may purge a slip before the last one.
        for slip in store.slips(&case.user_id, None).await? {
            kept.entry(slip.slip_id.clone()).or_insert(slip);
        }
    }
    let mut observed = read_state(case, store, config, embedder).await?;
    observed.slips = kept.into_values().filter_map(found_slip).collect();
    observed
        .stored_texts
        .extend(observed.slips.iter().flat_map(|s| [s.quote.clone(), s.content.clone()]));
    observed.failures = failures;
    Ok(observed)
}

fn in_case(case: &GoldenCase, what: &str, error: Error) -> Error {
    Error::Invalid(format!("line {} ({}): {what}: {error}", case.line, case.case_id))
}

/// The case's explicit memories, each set by a person at its `at`.
async fn set_explicit<S: Store>(case: &GoldenCase, store: &S, config: &Config) -> Result<()> {
    for (i, explicit) in case.explicit.iter().enumerate() {
        let at = explicit.at.unwrap_or(case.now[0]);
        Manager::new(store, at, config.detector())
            .set(NewExplicit {
                user_id: case.user_id.clone(),
                kind: explicit.kind,
                scope: explicit.scope.clone(),
                text: explicit.text.clone(),
                expires_at: None,
                source: None,
            })
            .await
            .map_err(|e| in_case(case, &format!("explicit[{i}]"), e))?;
    }
    Ok(())
}

/// A slip as scored; an erased one (no quote left) is not there to score.
fn found_slip(slip: crate::domain::Slip) -> Option<FoundSlip> {
    Some(FoundSlip {
        kind: slip.kind,
        scope: slip.scope,
        quote: slip.quote?,
        content: slip.content.unwrap_or_default(),
        conversation_id: slip.conversation_id,
        message_id: slip.message_id,
    })
}

/// Memories, suggestions, explicit memories, stored texts and recall at the last run's time.
async fn read_state<S: Store>(
    case: &GoldenCase,
    store: &S,
    config: &Config,
    embedder: Option<&Embedder>,
) -> Result<Observed> {
    let now = case.last_now();
    let manager = Manager::new(store, now, config.detector()).with_embedder(embedder);
    let user = case.user_id.as_str();
    let memories: Vec<_> = manager.list(user, true).await?.into_iter().map(|r| r.memory).collect();
    let suggestions = manager.suggestions(user, true).await?;
    let mut stored_texts: Vec<String> = memories
        .iter()
        .filter_map(|m| m.content.clone())
        .chain(suggestions.iter().filter_map(|s| s.suggestion.content.clone()))
        .collect();
    for memory in &memories {
        for event in store.history(&memory.memory_id).await? {
            for snapshot in [event.before, event.after].into_iter().flatten() {
                strings_in(&snapshot, &mut stored_texts);
            }
        }
    }
    let mut recalled = Vec::with_capacity(case.recall.len());
    for check in &case.recall {
        recalled.push(recall_contents(&manager, user, check).await?);
    }
    Ok(Observed {
        slips: Vec::new(),
        explicit_unchanged: case
            .explicit
            .iter()
            .map(|e| explicit_unchanged(&e.text, e.kind, &e.scope, &memories, now))
            .collect(),
        memories: memories
            .iter()
            .filter(|m| m.status_at(now) == Status::Active)
            .filter_map(|m| {
                Some(FoundMemory {
                    kind: m.kind,
                    scope: m.scope.clone(),
                    origin: m.origin,
                    content: m.content.clone()?,
                })
            })
            .collect(),
        suggestions: suggestions
            .into_iter()
            .filter(|s| s.suggestion.status == SuggestionStatus::Pending)
            .map(|s| FoundSuggestion {
                kind: s.suggestion.kind,
                scope: s.suggestion.scope,
                op: s.suggestion.op.as_str().to_owned(),
                content: s.suggestion.content,
            })
            .collect(),
        stored_texts,
        recalled,
        failures: 0,
    })
}

/// The contents `recall` returns for a check, with its query and limit 5,
/// as an agent calls it (spec §10.25). The one place eval asks for recall.
async fn recall_contents<S: Store>(
    manager: &Manager<'_, S>,
    user_id: &str,
    check: &RecallCheck,
) -> Result<Vec<String>> {
    let records =
        manager.recall(user_id, &check.scopes, DEFAULT_RECALL_LIMIT, Some(&check.query)).await?;
    Ok(records.into_iter().filter_map(|r| r.memory.content).collect())
}

/// An explicit memory came through when one of that kind, scope and text is
/// still active, at its first version (no one changed it, dreamd least of all).
fn explicit_unchanged(
    text_set: &str,
    kind: crate::domain::Kind,
    scope: &crate::domain::Scope,
    memories: &[crate::domain::Memory],
    now: Time,
) -> bool {
    let folded = text::fold(text_set);
    memories.iter().any(|m| {
        m.origin == Origin::Explicit
            && m.kind == kind
            && &m.scope == scope
            && m.version == 1
            && m.status_at(now) == Status::Active
            && m.content.as_deref().map(text::fold).as_deref() == Some(folded.as_str())
    })
}

/// Every string inside a JSON value (a history snapshot), where leaks may hide.
fn strings_in(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings_in(v, out)),
        serde_json::Value::Object(fields) => fields.values().for_each(|v| strings_in(v, out)),
        _ => {}
    }
}

/// `--out DIR`: one JSON file per case, named by its id, and the report.
fn write_out(dir: &Path, report: &Report, results: &[CaseResult]) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(Error::io(format!("creating {}", dir.display())))?;
    write_json(&dir.join("report.json"), report)?;
    for result in results {
        write_json(&dir.join(format!("{}.json", file_name(&result.case_id))), result)?;
    }
    Ok(())
}

fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<()> {
    let json = serde_json::to_string_pretty(value).expect("eval results serialise");
    std::fs::write(path, json + "\n").map_err(Error::io(format!("writing {}", path.display())))
}

/// A case id as a file name: letters, digits, `-` and `_` kept, anything else `_`.
fn file_name(case_id: &str) -> String {
    case_id
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite_config(url: &str) -> Config {
        Config::from_toml(&format!("database.url = \"{url}\"")).unwrap()
    }

    #[test]
    fn out_must_not_hold_the_configured_database() {
        let dir = std::env::temp_dir().join(format!("dreamd-eval-test-{}", uuid::Uuid::now_v7()));
        let config = sqlite_config(&format!("sqlite://{}/sub/dreamd.db", dir.display()));
        assert!(refuse_configured_database_inside(&config, &dir, "--out").is_err());
        assert!(refuse_configured_database_inside(&config, &dir.join("sub"), "--out").is_err());
        assert!(refuse_configured_database_inside(&config, &dir.join("other"), "--out").is_ok());
        let relative = sqlite_config("sqlite://dreamd.db");
        assert!(refuse_configured_database_inside(&relative, Path::new("."), "--out").is_err());
        let postgres = sqlite_config("postgres://localhost/dreamd");
        assert!(refuse_configured_database_inside(&postgres, Path::new("."), "--out").is_ok());
    }

    #[test]
    fn case_ids_become_safe_file_names() {
        assert_eq!(file_name("zh-pres-报告/../x"), "zh-pres-报告____x");
    }

    #[test]
    fn strings_are_found_anywhere_in_a_snapshot() {
        let mut out = Vec::new();
        strings_in(
            &serde_json::json!({"content": "a", "reason": {"x": ["b", 1]}, "v": 2}),
            &mut out,
        );
        out.sort();
        assert_eq!(out, ["a", "b"]);
    }
}
