//! The one storage interface and its two implementations: SQLite (the
//! embedded default) and PostgreSQL (for scale-out). Both pass the same test
//! suite (`tests/store.rs`).
//!
//! The store holds no rules. Callers decide what changes (see `manage` and
//! later the pipeline) and hand the store a list of [`Write`]s that it applies
//! in one transaction, all or nothing.

mod postgres;
mod sqlite;

pub use postgres::PgStore;
pub use sqlite::SqliteStore;

use crate::domain::{
    Event, Evidence, Memory, NewMessage, Slip, Suggestion, SuggestionStatus, Time, Tombstone,
};
use crate::error::Result;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::future::Future;

/// Messages in batches, pulled by [`Store::ingest`] inside its transaction.
pub trait MessageSource {
    /// The next batch of validated messages; `None` at the end of the input.
    fn next_batch(&mut self) -> Result<Option<Vec<NewMessage>>>;
    /// Reports a line the store found invalid (its conversation belongs to another user).
    fn reject(&mut self, line: usize, reason: String);
    /// Called once the input is exhausted; an error makes the store roll everything back.
    fn finish(&mut self) -> Result<()>;
}

/// One change, applied with others in a single transaction by [`Store::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum Write {
    InsertMemory(Memory),
    /// Replaces the memory's row, only if its version is still `expected_version`;
    /// otherwise the whole transaction fails as stale.
    UpdateMemory {
        memory: Memory,
        expected_version: i64,
    },
    AddEvidence {
        memory_id: String,
        slip_ids: Vec<String>,
    },
    ReplaceEvidence {
        memory_id: String,
        slip_ids: Vec<String>,
    },
    InsertEvent(Event),
    /// Erases the memory's text from its history and its evidence slips (spec §7).
    EraseText {
        memory_id: String,
    },
    InsertTombstone(Tombstone),
    InsertSlip(Slip),
    InsertSuggestion {
        suggestion: Suggestion,
        slip_ids: Vec<String>,
    },
    /// Records a person's decision, only if the suggestion is still pending.
    DecideSuggestion {
        suggestion_id: String,
        status: SuggestionStatus,
        decided_at: Time,
    },
}

/// What the store reports after writing an ingest input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IngestWritten {
    pub messages_new: u64,
}

/// dreamd's storage. Every method is one transaction or one consistent read.
pub trait Store: Send + Sync {
    /// Writes every batch of `source` in one transaction, skipping messages
    /// already stored (same conversation and `message_id`).
    fn ingest(
        &self,
        source: &mut (dyn MessageSource + Send),
    ) -> impl Future<Output = Result<IngestWritten>> + Send;

    /// Applies all `writes` in one transaction, or none of them.
    fn apply(&self, writes: Vec<Write>) -> impl Future<Output = Result<()>> + Send;

    fn memory(&self, memory_id: &str) -> impl Future<Output = Result<Option<Memory>>> + Send;

    /// All of a user's memories, whatever their status.
    fn memories(&self, user_id: &str) -> impl Future<Output = Result<Vec<Memory>>> + Send;

    /// The evidence of each memory, as `(memory_id, evidence)` pairs.
    fn evidence(
        &self,
        memory_ids: &[String],
    ) -> impl Future<Output = Result<Vec<(String, Evidence)>>> + Send;

    /// A memory's events, oldest first.
    fn history(&self, memory_id: &str) -> impl Future<Output = Result<Vec<Event>>> + Send;

    fn suggestion(
        &self,
        suggestion_id: &str,
    ) -> impl Future<Output = Result<Option<Suggestion>>> + Send;

    /// All of a user's suggestions, oldest first.
    fn suggestions(&self, user_id: &str) -> impl Future<Output = Result<Vec<Suggestion>>> + Send;

    /// The evidence of each suggestion, as `(suggestion_id, evidence)` pairs.
    fn suggestion_evidence(
        &self,
        suggestion_ids: &[String],
    ) -> impl Future<Output = Result<Vec<(String, Evidence)>>> + Send;

    /// A user's slips, optionally of one conversation, oldest first.
    fn slips(
        &self,
        user_id: &str,
        conversation_id: Option<&str>,
    ) -> impl Future<Output = Result<Vec<Slip>>> + Send;

    fn tombstones(&self, user_id: &str) -> impl Future<Output = Result<Vec<Tombstone>>> + Send;

    /// The scopes a conversation was given at ingest; empty when unknown.
    fn conversation_scopes(
        &self,
        conversation_id: &str,
    ) -> impl Future<Output = Result<Vec<String>>> + Send;
}

/// Parses a stored name back into its type, naming the table and row when it cannot.
pub(crate) fn parse_stored<T: std::str::FromStr<Err = String>>(
    value: &str,
    what: &str,
    id: &str,
) -> Result<T> {
    value
        .parse()
        .map_err(|e| crate::error::Error::Corrupt(format!("{what} of {id}: {e}")))
}

/// The error for a compare-and-set that lost.
pub(crate) fn stale_memory(memory_id: &str, expected: i64) -> crate::error::Error {
    crate::error::Error::Stale(format!(
        "memory {memory_id} changed since it was read (expected version {expected}); read it again and retry"
    ))
}

pub(crate) fn stale_suggestion(suggestion_id: &str) -> crate::error::Error {
    crate::error::Error::Stale(format!("suggestion {suggestion_id} is no longer pending"))
}

/// A short name of a write, for error context.
pub(crate) fn write_name(write: &Write) -> String {
    match write {
        Write::InsertMemory(m) => format!("insert of memory {}", m.memory_id),
        Write::UpdateMemory { memory, .. } => format!("update of memory {}", memory.memory_id),
        Write::AddEvidence { memory_id, .. } | Write::ReplaceEvidence { memory_id, .. } => {
            format!("evidence of memory {memory_id}")
        }
        Write::InsertEvent(e) => format!("event {} of memory {}", e.event_id, e.memory_id),
        Write::EraseText { memory_id } => format!("erasure of memory {memory_id}"),
        Write::InsertTombstone(t) => format!("tombstone of memory {}", t.memory_id),
        Write::InsertSlip(s) => format!("insert of slip {}", s.slip_id),
        Write::InsertSuggestion { suggestion, .. } => {
            format!("insert of suggestion {}", suggestion.suggestion_id)
        }
        Write::DecideSuggestion { suggestion_id, .. } => {
            format!("decision on suggestion {suggestion_id}")
        }
    }
}

/// The backend-specific steps of an ingest, run inside its transaction.
pub(crate) trait IngestSteps {
    /// The owners of those of `conversation_ids` that are already stored.
    async fn conversation_owners(
        &mut self,
        conversation_ids: &[&str],
    ) -> Result<HashMap<String, String>>;
    /// Inserts the batch, skipping stored messages; returns how many were new.
    async fn insert_messages(&mut self, batch: &[NewMessage]) -> Result<u64>;
    /// Adds scopes given at ingest to their conversations.
    async fn add_conversation_scopes(
        &mut self,
        scopes: HashMap<String, BTreeSet<String>>,
    ) -> Result<()>;
}

/// Pulls every batch of `source` through `tx`. Once a line is rejected nothing
/// more is written, but the rest is still read so every bad line is reported;
/// `source.finish()` then fails and the caller's transaction rolls back.
pub(crate) async fn ingest_in<T: IngestSteps>(
    tx: &mut T,
    source: &mut (dyn MessageSource + Send),
) -> Result<IngestWritten> {
    let mut checked = HashSet::new();
    let mut scopes: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut written = IngestWritten::default();
    let mut rejected = false;
    while let Some(batch) = source.next_batch()? {
        for (line, reason) in foreign_conversations(tx, &batch, &mut checked).await? {
            source.reject(line, reason);
            rejected = true;
        }
        if rejected {
            continue;
        }
        written.messages_new += tx.insert_messages(&batch).await?;
        for m in batch.iter().filter(|m| !m.scopes.is_empty()) {
            let entry = scopes.entry(m.conversation_id.clone()).or_default();
            entry.extend(m.scopes.iter().map(|s| s.as_str().to_owned()));
        }
    }
    source.finish()?;
    tx.add_conversation_scopes(scopes).await?;
    Ok(written)
}

/// The lines of `batch` whose conversation is already stored under another
/// user, checking each conversation once (`checked`).
async fn foreign_conversations<T: IngestSteps>(
    tx: &mut T,
    batch: &[NewMessage],
    checked: &mut HashSet<String>,
) -> Result<Vec<(usize, String)>> {
    let unchecked: Vec<&NewMessage> = batch
        .iter()
        .filter(|m| checked.insert(m.conversation_id.clone()))
        .collect();
    if unchecked.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<&str> = unchecked
        .iter()
        .map(|m| m.conversation_id.as_str())
        .collect();
    let owners = tx.conversation_owners(&ids).await?;
    Ok(unchecked
        .iter()
        .filter_map(|m| {
            let owner = owners.get(&m.conversation_id)?;
            (owner != &m.user_id).then(|| {
                (
                    m.line,
                    format!(
                        "conversation '{}' already belongs to user '{}', not '{}'",
                        m.conversation_id, owner, m.user_id
                    ),
                )
            })
        })
        .collect())
}
