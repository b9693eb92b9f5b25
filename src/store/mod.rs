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
    Event, Evidence, Load, Memory, NewMessage, Slip, SlipState, StoredMessage, Suggestion,
    SuggestionStatus, Time, Tombstone,
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
/// The `Expect…` variants write nothing: they re-check, inside the
/// transaction and under row locks, what the changes were decided on; when
/// one fails the whole transaction fails as stale and nothing is written.
#[derive(Debug, Clone, PartialEq)]
pub enum Write {
    /// `owner` still holds the user's stage-two claim at `now`.
    ExpectUserClaim {
        user_id: String,
        owner: String,
        now: Time,
    },
    /// The user's memories are exactly these, at these versions (no deletion,
    /// disable, edit or expiry since they were read), with this many tombstones.
    ExpectMemories {
        user_id: String,
        versions: Vec<(String, i64)>,
        tombstones: i64,
    },
    /// Every one of these slips still exists, is the user's, and is not erased
    /// (no deletion erased them, no purge removed the user).
    ExpectSlipsLive {
        user_id: String,
        slip_ids: Vec<String>,
    },
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
    /// Erases the memory's text from its history (contents and retire
    /// reasons), the given slips (every slip that ever backed it or that its
    /// creation superseded) and the suggestions aimed at it; pending ones
    /// become `withdrawn` at `at` (spec §7).
    EraseText {
        memory_id: String,
        slip_ids: Vec<String>,
        at: Time,
    },
    InsertTombstone(Tombstone),
    InsertSlip(Slip),
    InsertSuggestion {
        suggestion: Suggestion,
        slip_ids: Vec<String>,
    },
    AddSuggestionEvidence {
        suggestion_id: String,
        slip_ids: Vec<String>,
    },
    /// Moves slips to `state`; erased slips stay erased.
    SetSlipStates {
        slip_ids: Vec<String>,
        state: SlipState,
    },
    InsertLoad(Load),
    /// Records a person's decision, only if the suggestion is still pending;
    /// an accepted creation records the memory it made.
    DecideSuggestion {
        suggestion_id: String,
        status: SuggestionStatus,
        decided_at: Time,
        memory_id: Option<String>,
    },
}

/// What the store reports after writing an ingest input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IngestWritten {
    pub messages_new: u64,
}

/// Which conversations a run may take (spec §4), as absolute times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub now: Time,
    /// A conversation is idle when its newest message is at or before this.
    pub idle_cutoff: Time,
    /// Unprocessed messages created before this are skipped, never extracted.
    pub lookback_cutoff: Time,
    pub limit: u32,
}

/// A conversation a run took (or, in a dry run, would take).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub conversation_id: String,
    pub user_id: String,
    pub watermark_seq: i64,
    pub last_seq: i64,
    pub last_message_at: Time,
    pub scopes: Vec<String>,
}

/// A conversation's messages as stage one needs them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConversationMessages {
    /// Up to the requested number of messages at or below the watermark, oldest first.
    pub before: Vec<StoredMessage>,
    /// Every message above the watermark, in arrival order.
    pub unprocessed: Vec<StoredMessage>,
}

/// A range of messages given up after `selection.max_attempts` failures.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FailedRange {
    pub conversation_id: String,
    pub from_seq: i64,
    pub to_seq: i64,
    pub attempts: i64,
    pub reason: String,
    pub failed_at: Time,
}

/// A user whose stage two failed, with the count of failures in a row.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FailedUser {
    pub user_id: String,
    pub attempts: i64,
    pub reason: String,
    pub failed_at: Time,
}

/// One stored run: its summary as JSON (spec §8.2).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RunRecord {
    pub run_id: String,
    pub started_at: Time,
    pub finished_at: Time,
    pub dry_run: bool,
    pub summary: serde_json::Value,
}

/// Counts for `dreamd status`.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Backlog {
    /// Conversations a run would take now.
    pub eligible: i64,
    /// The newest-message time of the longest-idle eligible conversation.
    pub oldest_idle: Option<Time>,
    /// Conversations claimed by a live run.
    pub claims_held: i64,
}

/// What `status` counts across all users.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Counts {
    /// `"<status>/<origin>"` → number of memories.
    pub memories: std::collections::BTreeMap<String, i64>,
    pub suggestions_pending: i64,
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

    /// Passes over conversations whose unprocessed messages all fall before the
    /// window (watermark to their newest message, unless `count_only`) and
    /// returns how many messages were skipped.
    fn skip_out_of_window(
        &self,
        window: &Window,
        count_only: bool,
    ) -> impl Future<Output = Result<u64>> + Send;

    /// The conversations a run takes, oldest idle first. With an `owner`, each
    /// is claimed until `claim_until` in the same statement, so concurrent runs
    /// get disjoint sets; without one (a dry run), nothing is written.
    fn select_conversations(
        &self,
        window: &Window,
        owner: Option<(&str, Time)>,
    ) -> impl Future<Output = Result<Vec<Candidate>>> + Send;

    /// The unprocessed messages above `watermark_seq` and up to `context` before them.
    fn conversation_messages(
        &self,
        conversation_id: &str,
        watermark_seq: i64,
        context: u32,
    ) -> impl Future<Output = Result<ConversationMessages>> + Send;

    /// Writes a chunk's slips and moves the watermark from `from_seq` to
    /// `to_seq`, in one transaction, only while `owner` holds the claim
    /// (otherwise stale, nothing written).
    fn commit_extraction(
        &self,
        conversation_id: &str,
        owner: &str,
        from_seq: i64,
        to_seq: i64,
        slips: Vec<Slip>,
    ) -> impl Future<Output = Result<()>> + Send;

    /// Counts a failed attempt at the range after `from_seq` up to `to_seq` and
    /// releases the claim. At `max_attempts` the range is recorded as failed and
    /// passed over; returns whether that happened.
    fn record_failure(
        &self,
        conversation_id: &str,
        owner: &str,
        range: (i64, i64),
        max_attempts: u32,
        reason: &str,
        now: Time,
    ) -> impl Future<Output = Result<bool>> + Send;

    fn release_claim(
        &self,
        conversation_id: &str,
        owner: &str,
    ) -> impl Future<Output = Result<()>> + Send;

    /// Extends every claim `owner` holds, on conversations and users, to `until`.
    fn renew_claims(&self, owner: &str, until: Time) -> impl Future<Output = Result<u64>> + Send;

    /// Auto memories still `active` whose expiry is at or before `now`.
    fn expiring_memories(&self, now: Time) -> impl Future<Output = Result<Vec<Memory>>> + Send;

    fn save_run(&self, run: &RunRecord) -> impl Future<Output = Result<()>> + Send;

    /// The newest `limit` runs, newest first.
    fn recent_runs(&self, limit: u32) -> impl Future<Output = Result<Vec<RunRecord>>> + Send;

    fn backlog(&self, window: &Window) -> impl Future<Output = Result<Backlog>> + Send;

    /// The newest `limit` failed ranges, newest first.
    fn failed_ranges(&self, limit: u32) -> impl Future<Output = Result<Vec<FailedRange>>> + Send;

    /// Users with slips in state `new`, whichever run made them (spec §6,
    /// §10.12), except those that failed `max_attempts` times in a row on the
    /// same new slips and got no newer one since.
    fn users_with_new_slips(
        &self,
        max_attempts: u32,
    ) -> impl Future<Output = Result<Vec<String>>> + Send;

    /// Counts a failed stage two of a user whose newest new slip is
    /// `newest_slip_id` (a newer slip starts the count again); returns the count.
    fn record_user_failure(
        &self,
        user_id: &str,
        newest_slip_id: &str,
        reason: &str,
        now: Time,
    ) -> impl Future<Output = Result<i64>> + Send;

    /// Forgets a user's failures after a stage two that succeeded.
    fn clear_user_failure(&self, user_id: &str) -> impl Future<Output = Result<()>> + Send;

    /// Users whose stage two failed, most recent first, for `status`.
    fn failed_users(&self, limit: u32) -> impl Future<Output = Result<Vec<FailedUser>>> + Send;

    /// Claims a user for stage two until `until`, unless another owner holds a
    /// live claim; returns whether this owner now holds it.
    fn claim_user(
        &self,
        user_id: &str,
        owner: &str,
        now: Time,
        until: Time,
    ) -> impl Future<Output = Result<bool>> + Send;

    fn release_user(&self, user_id: &str, owner: &str) -> impl Future<Output = Result<()>> + Send;

    /// Releases every claim `owner` holds (an abandoned run's); returns how many.
    fn release_claims(&self, owner: &str) -> impl Future<Output = Result<u64>> + Send;

    /// Memories by (status, origin) and pending suggestions, for `status`.
    fn counts(&self) -> impl Future<Output = Result<Counts>> + Send;

    /// A user's loads, optionally of one conversation, oldest first.
    fn loads(
        &self,
        user_id: &str,
        conversation_id: Option<&str>,
    ) -> impl Future<Output = Result<Vec<Load>>> + Send;

    /// The loads that included a memory, oldest first.
    fn loads_of_memory(&self, memory_id: &str) -> impl Future<Output = Result<Vec<Load>>> + Send;

    /// Whether a conversation (and, if given, a message in it) exists and
    /// belongs to the user: `None` if it is fine, else why not.
    fn check_source(
        &self,
        user_id: &str,
        conversation_id: &str,
        message_id: Option<&str>,
    ) -> impl Future<Output = Result<Option<String>>> + Send;

    /// Erases everything dreamd holds about a user, in one transaction;
    /// returns the rows removed per table.
    fn purge_user(
        &self,
        user_id: &str,
    ) -> impl Future<Output = Result<Vec<(&'static str, u64)>>> + Send;

    /// Deletes slips expressed before `before` that are evidence of no memory
    /// and of no pending suggestion (spec §7 retention); returns how many.
    fn purge_slips(&self, before: Time) -> impl Future<Output = Result<u64>> + Send;

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

/// The error when what stage two decided on changed before its commit.
pub(crate) fn changed_since_read(what: &str) -> crate::error::Error {
    crate::error::Error::Stale(format!(
        "{what} changed since stage two read it; nothing was written, the user is retried next run"
    ))
}

/// The error for a compare-and-set that lost.
pub(crate) fn stale_memory(memory_id: &str, expected: i64) -> crate::error::Error {
    crate::error::Error::Stale(format!(
        "memory {memory_id} changed since it was read (expected version {expected}); read it again and retry"
    ))
}

/// The error when a run no longer holds the claim on a conversation.
pub(crate) fn lost_claim(conversation_id: &str) -> crate::error::Error {
    crate::error::Error::Stale(format!(
        "the claim on conversation {conversation_id} was lost (expired and taken by another run); nothing was written"
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
        Write::EraseText { memory_id, .. } => format!("erasure of memory {memory_id}"),
        Write::ExpectUserClaim { user_id, .. } => format!("the claim on user {user_id}"),
        Write::ExpectMemories { user_id, .. } => {
            format!("the memories of user {user_id} as read")
        }
        Write::ExpectSlipsLive { user_id, .. } => format!("the slips of user {user_id} as read"),
        Write::InsertTombstone(t) => format!("tombstone of memory {}", t.memory_id),
        Write::InsertSlip(s) => format!("insert of slip {}", s.slip_id),
        Write::InsertSuggestion { suggestion, .. } => {
            format!("insert of suggestion {}", suggestion.suggestion_id)
        }
        Write::AddSuggestionEvidence { suggestion_id, .. } => {
            format!("evidence of suggestion {suggestion_id}")
        }
        Write::SetSlipStates { state, .. } => format!("moving slips to {state}"),
        Write::InsertLoad(load) => format!("load {}", load.load_id),
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

/// The tables `purge_user` empties of a user, children before parents.
pub(crate) const USER_TABLES: &[(&str, &str)] = &[
    (
        "load_memories",
        "load_id IN (SELECT load_id FROM loads WHERE user_id = $1)",
    ),
    ("loads", "user_id = $1"),
    (
        "memory_events",
        "memory_id IN (SELECT memory_id FROM memories WHERE user_id = $1)",
    ),
    (
        "memory_evidence",
        "memory_id IN (SELECT memory_id FROM memories WHERE user_id = $1)",
    ),
    (
        "suggestion_evidence",
        "suggestion_id IN (SELECT suggestion_id FROM suggestions WHERE user_id = $1)",
    ),
    ("suggestions", "user_id = $1"),
    ("tombstones", "user_id = $1"),
    ("memories", "user_id = $1"),
    ("slips", "user_id = $1"),
    (
        "failed_ranges",
        "conversation_id IN (SELECT conversation_id FROM conversations WHERE user_id = $1)",
    ),
    ("user_claims", "user_id = $1"),
    ("user_failures", "user_id = $1"),
    ("messages", "user_id = $1"),
    ("conversations", "user_id = $1"),
];

/// Users with new slips, less those passed over after too many failures on them.
pub(crate) const USERS_WITH_NEW_SLIPS: &str = "SELECT u.user_id FROM \
     (SELECT user_id, max(slip_id) AS newest FROM slips WHERE state = 'new' GROUP BY user_id) u \
     LEFT JOIN user_failures f ON f.user_id = u.user_id \
     WHERE f.user_id IS NULL OR f.attempts < $1 OR f.newest_slip_id < u.newest ORDER BY u.user_id";

/// Counts a user's failure; a newer newest slip starts the count again.
pub(crate) const RECORD_USER_FAILURE: &str = "INSERT INTO user_failures (user_id, newest_slip_id, attempts, reason, failed_at) \
     VALUES ($1, $2, 1, $3, $4) ON CONFLICT (user_id) DO UPDATE SET \
     attempts = CASE WHEN user_failures.newest_slip_id = excluded.newest_slip_id THEN user_failures.attempts + 1 ELSE 1 END, \
     newest_slip_id = excluded.newest_slip_id, reason = excluded.reason, failed_at = excluded.failed_at \
     RETURNING attempts";

/// Whether the memories found (sorted) are the ones read, at the same versions.
pub(crate) fn same_versions(found: Vec<(String, i64)>, read: &[(String, i64)]) -> bool {
    let mut read = read.to_vec();
    read.sort();
    found == read
}

/// Slips past retention: old, and evidence of nothing that lives.
pub(crate) const PURGEABLE_SLIPS: &str = "DELETE FROM slips WHERE expressed_at < $1 \
     AND slip_id NOT IN (SELECT e.slip_id FROM memory_evidence e JOIN memories m ON m.memory_id = e.memory_id WHERE m.status <> 'deleted') \
     AND slip_id NOT IN (SELECT e.slip_id FROM suggestion_evidence e JOIN suggestions s ON s.suggestion_id = e.suggestion_id WHERE s.status = 'pending')";
