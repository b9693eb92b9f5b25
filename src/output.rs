//! How command results are printed: one JSON document with `--format json`,
//! short aligned lines for people otherwise.

use crate::cli::Format;
use crate::domain::{Event, Evidence, MemoryRecord, Slip, SuggestionRecord, Time};
use crate::error::{Error, Result};
use crate::ingest::IngestSummary;
use crate::store::{Backlog, Counts, FailedRange, FailedUser, RunRecord};
use serde::Serialize;
use std::fmt::Write;

/// Prints `value` as JSON, or the text `render` makes of it.
pub fn emit<T: Serialize + ?Sized>(
    format: Format,
    value: &T,
    render: impl FnOnce(&T) -> String,
) -> Result<()> {
    let text = match format {
        Format::Json => {
            let json = serde_json::to_string_pretty(value).expect("records serialise to JSON");
            json + "\n"
        }
        Format::Text => render(value),
    };
    write_stdout(text.as_bytes())
}

/// Writes a command's output. A reader that closed the pipe early (`| head -1`)
/// is no failure: the command's work is done and nobody is left to read, so
/// the output stops quietly, as `ls` and `git` do; any other write error is one.
fn write_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        written => written.map_err(Error::io("writing to standard output")),
    }
}

/// What `dreamd detect` reports of one text: its category, never the text.
#[derive(Debug, serde::Serialize)]
pub struct Detection {
    /// The input line, when reading standard input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The never-store category, or `None` when the text may be stored.
    pub category: Option<String>,
    pub reason: Option<String>,
}

impl Detection {
    pub fn of(detector: &crate::detect::Detector, text: &str, line: Option<usize>) -> Detection {
        let finding = detector.scan(&crate::text::normalize(text));
        Detection {
            line,
            category: finding.as_ref().map(|f| f.name().to_owned()),
            reason: finding.map(|f| f.reason()),
        }
    }
}

/// What `dreamd status` shows.
#[derive(Debug, serde::Serialize)]
pub struct Status {
    pub runs: Vec<RunRecord>,
    pub backlog: Backlog,
    pub failed_ranges: Vec<FailedRange>,
    /// Users whose stage two failed in a row; `passed_over` once at `selection.max_attempts`.
    pub failed_users: Vec<FailedUserStatus>,
    pub counts: Counts,
}

/// A user whose stage two keeps failing, and whether runs now pass it over.
#[derive(Debug, serde::Serialize)]
pub struct FailedUserStatus {
    #[serde(flatten)]
    pub user: FailedUser,
    pub passed_over: bool,
}
fn time(t: Time) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn opt_time(t: Option<Time>) -> String {
    t.map(time).unwrap_or_else(|| "never".into())
}

fn content(text: &Option<String>) -> &str {
    text.as_deref().unwrap_or("(erased)")
}

pub fn memory_lines(records: &[MemoryRecord]) -> String {
    if records.is_empty() {
        return "no memories\n".into();
    }
    records.iter().fold(String::new(), |mut out, r| {
        let m = &r.memory;
        let _ = writeln!(
            out,
            "{}  {:<8} {:<8} {:<13} {:<20} {}",
            m.memory_id,
            m.status,
            m.origin,
            m.kind,
            m.scope,
            content(&m.content)
        );
        out
    })
}

pub fn memory_block(r: &MemoryRecord) -> String {
    let m = &r.memory;
    let mut out = String::new();
    let _ = writeln!(out, "memory   {}", m.memory_id);
    let _ = writeln!(out, "user     {}", m.user_id);
    let _ = writeln!(out, "kind     {}   scope {}   origin {}", m.kind, m.scope, m.origin);
    let _ = writeln!(out, "status   {} (version {})", m.status, m.version);
    let _ = writeln!(out, "content  {}", content(&m.content));
    let _ = writeln!(
        out,
        "times    created {}, updated {}, expires {}",
        time(m.created_at),
        time(m.updated_at),
        opt_time(m.expires_at)
    );
    out.push_str(&evidence_lines(&r.evidence));
    if let Some(loaded) = &r.loaded_in {
        let _ = writeln!(
            out,
            "loaded   {}",
            if loaded.is_empty() {
                "never".to_owned()
            } else {
                format!("in {}", loaded.join(", "))
            }
        );
    }
    out
}

fn evidence_lines(evidence: &[Evidence]) -> String {
    if evidence.is_empty() {
        return "evidence (none)\n".into();
    }
    evidence.iter().fold("evidence\n".to_owned(), |mut out, e| {
        let _ = writeln!(
            out,
            "  {}  conversation {} message {}: {}",
            time(e.expressed_at),
            e.conversation_id,
            e.message_id,
            e.quote.as_deref().map(|q| format!("“{q}”")).unwrap_or_else(|| "(erased)".into())
        );
        out
    })
}

pub fn history_lines(events: &[Event]) -> String {
    events.iter().fold(String::new(), |mut out, e| {
        let version = |s: &Option<serde_json::Value>| {
            s.as_ref().map(|v| v["version"].to_string()).unwrap_or_else(|| "-".into())
        };
        let _ = writeln!(
            out,
            "{}  {:<6} {:<8} v{} → v{}{}",
            time(e.at),
            e.actor,
            e.action,
            version(&e.before),
            version(&e.after),
            e.run_id.as_deref().map(|r| format!("  run {r}")).unwrap_or_default()
        );
        out
    })
}

pub fn suggestion_lines(records: &[SuggestionRecord]) -> String {
    if records.is_empty() {
        return "no suggestions\n".into();
    }
    records.iter().fold(String::new(), |mut out, r| {
        let s = &r.suggestion;
        let _ = writeln!(
            out,
            "{}  {:<8} {:<7} {:<13} {:<20} {}{}  ({} evidence)",
            s.suggestion_id,
            s.status,
            s.op,
            s.kind,
            s.scope,
            content(&s.content),
            s.memory_id.as_deref().map(|m| format!("  → memory {m}")).unwrap_or_default(),
            r.evidence.len()
        );
        out
    })
}

pub fn slip_lines(slips: &[Slip]) -> String {
    if slips.is_empty() {
        return "no slips\n".into();
    }
    slips.iter().fold(String::new(), |mut out, s| {
        let _ = writeln!(
            out,
            "{}  {:<12} {:<13} {:<20} {}  conversation {} message {}\n    {}  ← “{}”",
            s.slip_id,
            s.state,
            s.kind,
            s.scope,
            time(s.expressed_at),
            s.conversation_id,
            s.message_id,
            content(&s.content),
            s.quote.as_deref().unwrap_or("(erased)")
        );
        out
    })
}

pub fn ingest_summary(s: &IngestSummary) -> String {
    let conflicting = match s.conflicting {
        0 => String::new(),
        n => format!(" ({n} with other content than the stored message, which is kept)"),
    };
    format!(
        "ingested {} lines: {} new messages, {} duplicates{conflicting}, {} conversations, {} users\n",
        s.lines, s.messages_new, s.duplicates, s.conversations, s.users
    )
}

pub fn run_summary(s: &crate::run::RunSummary) -> String {
    fn listed<K: std::fmt::Display>(m: &std::collections::BTreeMap<K, u64>) -> String {
        m.iter().map(|(r, n)| format!("{r} {n}")).collect::<Vec<_>>().join(", ")
    }
    let a = &s.operations.applied;
    let mut out = format!(
        "{}run {}: {} conversations ({} done, {} failed), {} messages extracted, {} skipped as too old\n\
         \x20 slips: {} kept{}\n\
         \x20 users: {} consolidated, {} failed; operations: {} create, {} update, {} confirm, {} retire, {} suggest, {} deferred{}\n\
         \x20 {} memories expired; {} model calls ({} failed, {} + {} tokens); {} ms\n",
        if s.dry_run { "dry " } else { "" },
        s.run_id,
        s.conversations.selected,
        s.conversations.done,
        s.conversations.failed,
        s.messages.extracted,
        s.messages.skipped_out_of_window,
        s.slips.kept,
        if s.slips.dropped.is_empty() {
            String::new()
        } else {
            format!(", dropped: {}", listed(&s.slips.dropped))
        },
        s.users.consolidated,
        s.users.failed,
        a.create,
        a.update,
        a.confirm,
        a.retire,
        a.suggest,
        s.operations.deferred,
        if s.operations.rejected.is_empty() {
            String::new()
        } else {
            format!(", rejected: {}", listed(&s.operations.rejected))
        },
        s.memories_expired,
        s.llm.calls,
        s.llm.failures,
        s.llm.prompt_tokens,
        s.llm.completion_tokens,
        s.duration_ms
    );
    if let Some(slips) = &s.would_write {
        out.push_str(&slip_lines(slips));
    }
    out
}

pub fn status(s: &Status) -> String {
    let mut out = format!(
        "backlog: {} conversations eligible now{}, {} claimed; {} note slips wait for stage two, {} users claimed\n",
        s.backlog.eligible,
        s.backlog
            .oldest_idle
            .map(|t| format!(" (oldest idle since {})", time(t)))
            .unwrap_or_default(),
        s.backlog.claims_held,
        s.backlog.slips_waiting,
        s.backlog.users_claimed
    );
    let memories: Vec<String> = s.counts.memories.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let _ = writeln!(
        out,
        "memories: {}; suggestions pending: {}",
        if memories.is_empty() { "none".to_owned() } else { memories.join(", ") },
        s.counts.suggestions_pending
    );
    for run in &s.runs {
        let c = &run.summary["conversations"];
        let _ = writeln!(
            out,
            "run {}  {}  {} conversations ({} failed), {} slips kept, {} ms{}",
            run.run_id,
            time(run.started_at),
            c["selected"],
            c["failed"],
            run.summary["slips"]["kept"],
            run.summary["duration_ms"],
            if run.dry_run { " (dry run)" } else { "" }
        );
    }
    for f in &s.failed_ranges {
        let _ = writeln!(
            out,
            "failed range: conversation {} messages {}..={} after {} attempts ({}): {}",
            f.conversation_id,
            f.from_seq,
            f.to_seq,
            f.attempts,
            time(f.failed_at),
            f.reason
        );
    }
    for f in &s.failed_users {
        let _ = writeln!(
            out,
            "failed user: {} stage two failed {} time(s) in a row ({}){}: {}",
            f.user.user_id,
            f.user.attempts,
            time(f.user.failed_at),
            if f.passed_over { ", passed over until a new slip arrives" } else { "" },
            f.user.reason
        );
    }
    out
}

pub fn load_lines(loads: &[crate::domain::Load]) -> String {
    if loads.is_empty() {
        return "no loads\n".into();
    }
    loads.iter().fold(String::new(), |mut out, l| {
        let memories: Vec<String> =
            l.memories.iter().map(|m| format!("{} (v{})", m.memory_id, m.version)).collect();
        let _ = writeln!(
            out,
            "{}  {}  conversation {}: {}",
            l.load_id,
            time(l.at),
            l.conversation_id,
            memories.join(", ")
        );
        out
    })
}

/// `ok`, or the never-store category, one line per input; never the text.
pub fn detection(d: &Detection) -> String {
    let prefix = d.line.map(|n| format!("line {n}: ")).unwrap_or_default();
    match &d.category {
        Some(category) => format!("{prefix}{category}\n"),
        None => format!("{prefix}ok\n"),
    }
}

/// Rows per table on both sides of a copy.
pub fn copy_report(counts: &[crate::copy::TableCount]) -> String {
    let mut out = format!("{:<22}{:>10}{:>10}\n", "table", "source", "target");
    for c in counts {
        let _ = writeln!(out, "{:<22}{:>10}{:>10}", c.table, c.source, c.target);
    }
    out
}
