//! The one storage interface and its two implementations: SQLite (the
//! embedded default) and PostgreSQL (for scale-out). Both pass the same test
//! suite (`tests/store.rs`).
//!
//! The store holds no rules. Callers decide what changes (see `manage` and
//! later the pipeline) and hand the store a list of [`Write`]s that it applies
//! in one transaction, all or nothing.

mod postgres;
mod recall_cache;
pub(crate) mod rows;
mod sqlite;
pub(crate) mod time;

pub use postgres::PgStore;
pub use recall_cache::{Candidates, RecallCandidate};
pub use sqlite::SqliteStore;
pub use time::sqlite_text;

use crate::domain::{
    Event, Evidence, Load, Memory, NewMessage, Slip, Suggestion, Time, Tombstone, Write,
};
use crate::error::Result;
use crate::select::{Candidate, ConversationMessages, Window};
use std::collections::BTreeSet;

/// Messages in batches, pulled by [`Store::ingest`] inside its transaction.
pub trait MessageSource {
    /// The next batch of validated messages; `None` at the end of the input.
    fn next_batch(&mut self) -> Result<Option<Vec<NewMessage>>>;
    /// Reports a line the store found invalid (its conversation belongs to another user).
    fn reject(&mut self, line: usize, reason: String);
    /// Called once the input is exhausted; an error makes the store roll everything back.
    fn finish(&mut self) -> Result<()>;
}

/// What the store reports after writing an ingest input.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IngestWritten {
    pub messages_new: u64,
    /// Input lines whose message was already stored (same conversation and
    /// `message_id`) with other content: the stored one is kept.
    pub conflicting_lines: Vec<usize>,
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

/// A conversation's own state, for `dreamd copy`: what it belongs to, how far
/// it was extracted and how often its current range failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversationRecord {
    pub conversation_id: String,
    pub user_id: String,
    pub scopes: Vec<String>,
    pub watermark_seq: i64,
    pub attempts: i64,
}

/// A copied conversation's progress, by message id: sequence numbers are the
/// target's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopiedProgress {
    /// The newest message already extracted, if any.
    pub watermark_message_id: Option<String>,
    pub attempts: i64,
    /// Failed ranges as (first message id, last message id, the range).
    pub failed_ranges: Vec<(String, String, FailedRange)>,
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
    /// Conversations claimed, until their claims expire: by a run going
    /// on, or by one that died (its claims then lapse after
    /// `selection.claim_ttl_secs`).
    pub claims_held: i64,
    /// Users claimed for stage two, until their claims expire.
    pub users_claimed: i64,
    /// Note slips waiting for stage two.
    pub slips_waiting: i64,
}

/// What `status` counts across all users.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Counts {
    /// `"<status>/<origin>"` → number of memories.
    pub memories: std::collections::BTreeMap<String, i64>,
    pub suggestions_pending: i64,
}

/// The database's migrations against the ones this binary carries, for
/// `/healthz`: a database another (newer) dreamd migrated further, or one
/// with a failed migration, is not current.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct SchemaState {
    /// Migrations this binary has that the database lacks.
    pub missing: Vec<i64>,
    /// Migrations the database has that this binary does not know.
    pub unknown: Vec<i64>,
    /// Migrations recorded as failed.
    pub failed: Vec<i64>,
}

impl SchemaState {
    /// Compares the binary's `known` versions with the database's `applied` (version, success) rows.
    pub fn compare(known: impl Iterator<Item = i64>, applied: &[(i64, bool)]) -> SchemaState {
        let known: BTreeSet<i64> = known.collect();
        let done: BTreeSet<i64> = applied.iter().map(|(v, _)| *v).collect();
        SchemaState {
            missing: known.difference(&done).copied().collect(),
            unknown: done.difference(&known).copied().collect(),
            failed: applied.iter().filter(|(_, ok)| !ok).map(|(v, _)| *v).collect(),
        }
    }

    /// Every migration of this binary applied, none failed, none unknown.
    pub fn is_current(&self) -> bool {
        self.missing.is_empty() && self.unknown.is_empty() && self.failed.is_empty()
    }
}

/// dreamd's storage. Every method is one transaction or one consistent read.
#[trait_variant::make(Send)]
pub trait Store: Send + Sync {
    /// Writes every batch of `source` in one transaction, skipping messages
    /// already stored (same conversation and `message_id`).
    async fn ingest(&self, source: &mut (dyn MessageSource + Send)) -> Result<IngestWritten>;

    /// Applies all `writes` in one transaction, or none of them.
    async fn apply(&self, writes: Vec<Write>) -> Result<()>;

    async fn memory(&self, memory_id: &str) -> Result<Option<Memory>>;

    /// All of a user's memories, whatever their status.
    async fn memories(&self, user_id: &str) -> Result<Vec<Memory>>;

    /// The evidence of each memory, as `(memory_id, evidence)` pairs.
    async fn evidence(&self, memory_ids: &[String]) -> Result<Vec<(String, Evidence)>>;

    /// The same store, keeping recall's candidates between calls (shared by
    /// its clones): for long-running processes (serve, MCP, the daemon's
    /// HTTP server), where recall is the hot path. A one-shot command would
    /// pay for reading and keeping what it never asks for again.
    fn keeping_recall_candidates(self) -> Self
    where
        Self: Sized;

    /// Whether this store keeps recall's candidates between calls.
    fn keeps_recall_candidates(&self) -> bool;

    /// A user's active memories in one of `scopes` (expiry times not yet
    /// applied), with their evidence, quotes indexed on demand: recall's
    /// candidates, all it returns. A store that keeps them reads one row
    /// (the user's stamp) to know the kept ones are still current.
    async fn recall_candidates(&self, user_id: &str, scopes: &[String]) -> Result<Candidates>;

    /// The first `limit` of a user's active, unexpired memories in one of
    /// `scopes`, in recall's order (spec §10.9, as `manage::recall_order`
    /// orders them): recall without a query reads no more than it returns.
    async fn recall_first(
        &self,
        user_id: &str,
        scopes: &[String],
        now: Time,
        limit: usize,
    ) -> Result<Vec<Memory>>;

    /// The embeddings by `model` of a user's active memories at their
    /// current version, as `(memory_id, vector)` pairs.
    async fn embeddings(&self, user_id: &str, model: &str) -> Result<Vec<(String, Vec<f32>)>>;

    /// Up to `limit` active memories, of any user, with no embedding by
    /// `model` of their current version; the most recently updated first.
    async fn memories_to_embed(&self, model: &str, limit: u32) -> Result<Vec<Memory>>;

    /// A memory's events, oldest first.
    async fn history(&self, memory_id: &str) -> Result<Vec<Event>>;

    async fn suggestion(&self, suggestion_id: &str) -> Result<Option<Suggestion>>;

    /// All of a user's suggestions, oldest first.
    async fn suggestions(&self, user_id: &str) -> Result<Vec<Suggestion>>;

    /// The evidence of each suggestion, as `(suggestion_id, evidence)` pairs.
    async fn suggestion_evidence(
        &self,
        suggestion_ids: &[String],
    ) -> Result<Vec<(String, Evidence)>>;

    /// A user's slips, optionally of one conversation, oldest first.
    async fn slips(&self, user_id: &str, conversation_id: Option<&str>) -> Result<Vec<Slip>>;

    async fn tombstones(&self, user_id: &str) -> Result<Vec<Tombstone>>;

    /// The texts of every message (any role) of the user's conversations
    /// since `since`, with the `context` messages before each one's first
    /// since then, whatever their age (stage one shows them as context),
    /// oldest first.
    async fn conversation_texts(
        &self,
        user_id: &str,
        since: Time,
        context: u32,
    ) -> Result<Vec<String>>;

    /// Passes over conversations whose unprocessed messages all fall before the
    /// window (watermark to their newest message, unless `count_only`) and
    /// returns how many messages were skipped.
    async fn skip_out_of_window(&self, window: &Window, count_only: bool) -> Result<u64>;

    /// The conversations a run takes, oldest idle first. With an `owner`, each
    /// is claimed until `claim_until` in the same statement, so concurrent runs
    /// get disjoint sets; without one (a dry run), nothing is written.
    async fn select_conversations(
        &self,
        window: &Window,
        owner: Option<(&str, Time)>,
    ) -> Result<Vec<Candidate>>;

    /// What stage one reads of each of `conversations` (id and watermark,
    /// each once), in the order asked: the unprocessed messages above the
    /// watermark, up to `context` before them, and the scopes of the user's
    /// memories. One statement for the lot: a run reads the conversations
    /// it claims a batch at a time, a round trip per batch.
    async fn conversations_messages(
        &self,
        conversations: &[(&str, i64)],
        context: u32,
    ) -> Result<Vec<ConversationMessages>>;

    /// [`Store::conversations_messages`] of one conversation.
    fn conversation_messages(
        &self,
        conversation_id: &str,
        watermark_seq: i64,
        context: u32,
    ) -> impl Future<Output = Result<ConversationMessages>> + Send {
        async move {
            let mut read =
                self.conversations_messages(&[(conversation_id, watermark_seq)], context).await?;
            Ok(read.pop().unwrap_or_default())
        }
    }

    /// Writes a chunk's slips and moves the watermark over `range` (from,
    /// to), in one transaction, only while `owner` holds the claim
    /// (otherwise stale, nothing written). The conversation's `last` commit
    /// also releases the claim, in the same transaction: one write fewer per
    /// conversation, and a process killed after it leaves no claim behind.
    async fn commit_extraction(
        &self,
        conversation_id: &str,
        owner: &str,
        range: (i64, i64),
        slips: Vec<Slip>,
        last: bool,
    ) -> Result<()>;

    /// Counts a failed attempt at the range after `from_seq` up to `to_seq`;
    /// the claim stays until the run ends (`release_claims`), so the run does
    /// not take the conversation again. At `max_attempts` the range is
    /// recorded as failed and passed over; returns whether that happened.
    async fn record_failure(
        &self,
        conversation_id: &str,
        owner: &str,
        range: (i64, i64),
        max_attempts: u32,
        reason: &str,
        now: Time,
    ) -> Result<bool>;

    async fn release_claim(&self, conversation_id: &str, owner: &str) -> Result<()>;

    /// Extends every claim `owner` holds, on conversations and users, to `until`.
    async fn renew_claims(&self, owner: &str, until: Time) -> Result<u64>;

    /// Auto memories still `active` whose expiry is at or before `now`.
    async fn expiring_memories(&self, now: Time) -> Result<Vec<Memory>>;

    async fn save_run(&self, run: &RunRecord) -> Result<()>;

    /// The newest `limit` runs, newest first.
    async fn recent_runs(&self, limit: u32) -> Result<Vec<RunRecord>>;

    async fn backlog(&self, window: &Window) -> Result<Backlog>;

    /// The newest `limit` failed ranges, newest first.
    async fn failed_ranges(&self, limit: u32) -> Result<Vec<FailedRange>>;

    /// Users with slips in state `new`, whichever run made them (spec §6,
    /// §10.12), except those that failed `max_attempts` times in a row on the
    /// same new slips and got no newer one since.
    async fn users_with_new_slips(&self, max_attempts: u32) -> Result<Vec<String>>;

    /// Counts a failed stage two of a user whose newest new slip is
    /// `newest_slip_id` (a newer slip starts the count again); returns the count.
    async fn record_user_failure(
        &self,
        user_id: &str,
        newest_slip_id: &str,
        reason: &str,
        now: Time,
    ) -> Result<i64>;

    /// Forgets a user's failures after a stage two that succeeded.
    async fn clear_user_failure(&self, user_id: &str) -> Result<()>;

    /// Users whose stage two failed, most recent first, for `status`.
    async fn failed_users(&self, limit: u32) -> Result<Vec<FailedUser>>;

    /// Claims a user for stage two until `until`, unless another owner holds a
    /// live claim; returns whether this owner now holds it.
    async fn claim_user(&self, user_id: &str, owner: &str, now: Time, until: Time) -> Result<bool>;

    async fn release_user(&self, user_id: &str, owner: &str) -> Result<()>;

    /// Releases every claim `owner` holds (an abandoned run's); returns how many.
    async fn release_claims(&self, owner: &str) -> Result<u64>;

    /// Reads the applied migrations: the database answers, and whether its
    /// schema is the one this binary expects.
    async fn schema(&self) -> Result<SchemaState>;

    /// Memories by (status, origin) and pending suggestions, for `status`.
    async fn counts(&self) -> Result<Counts>;

    /// A user's loads, optionally of one conversation, oldest first.
    async fn loads(&self, user_id: &str, conversation_id: Option<&str>) -> Result<Vec<Load>>;

    /// The loads that included a memory, oldest first.
    async fn loads_of_memory(&self, memory_id: &str) -> Result<Vec<Load>>;

    /// A conversation's owner and whether it holds a message with id
    /// `message_id`; `None` when the conversation is unknown.
    async fn conversation_owner(
        &self,
        conversation_id: &str,
        message_id: &str,
    ) -> Result<Option<(String, bool)>>;

    /// Erases everything dreamd holds about a user, in one transaction;
    /// returns the rows removed per table.
    async fn purge_user(&self, user_id: &str) -> Result<Vec<(&'static str, u64)>>;

    /// Every user id anything is stored for, for `dreamd copy`.
    async fn users(&self) -> Result<Vec<String>>;

    /// Every conversation with its progress, for `dreamd copy`.
    async fn conversations(&self) -> Result<Vec<ConversationRecord>>;

    /// Writes a copied conversation in one transaction: its messages in their
    /// order (numbered by this store), its scopes and its progress, no claim.
    async fn import_conversation(
        &self,
        conversation: &ConversationRecord,
        messages: &[NewMessage],
        progress: &CopiedProgress,
    ) -> Result<()>;

    /// Rows per table dreamd writes, for `dreamd copy`.
    async fn row_counts(&self) -> Result<Vec<(&'static str, u64)>>;

    /// Deletes slips expressed before `before` that are evidence of no memory
    /// and of no pending suggestion (spec §7 retention); returns how many.
    async fn purge_slips(&self, before: Time) -> Result<u64>;
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

/// The tables `purge_user` empties of a user, children before parents.
pub(crate) const USER_TABLES: &[(&str, &str)] = &[
    ("load_memories", "load_id IN (SELECT load_id FROM loads WHERE user_id = $1)"),
    ("loads", "user_id = $1"),
    ("memory_events", "memory_id IN (SELECT memory_id FROM memories WHERE user_id = $1)"),
    ("memory_evidence", "memory_id IN (SELECT memory_id FROM memories WHERE user_id = $1)"),
    ("memory_embeddings", "memory_id IN (SELECT memory_id FROM memories WHERE user_id = $1)"),
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
    // Last: deleting the rows above moved the user's stamp.
    ("memory_stamps", "user_id = $1"),
];

/// The tables `dreamd copy` carries, parents before children.
pub(crate) const COPIED_TABLES: &[&str] = &[
    "conversations",
    "messages",
    "slips",
    "memories",
    "memory_evidence",
    "memory_events",
    "suggestions",
    "suggestion_evidence",
    "tombstones",
    "loads",
    "load_memories",
    "runs",
    "failed_ranges",
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

/// A vector as stored: little-endian 32-bit floats.
pub(crate) fn vector_bytes(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A stored vector read back; `None` when its length is not whole floats.
pub(crate) fn vector_from_bytes(bytes: &[u8]) -> Option<Vec<f32>> {
    let floats = bytes.chunks_exact(4);
    floats
        .remainder()
        .is_empty()
        .then(|| floats.map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
}

/// Whether the memories found (sorted) are the ones read, at the same versions.
pub(crate) fn same_versions(found: Vec<(String, i64)>, read: &[(String, i64)]) -> bool {
    let mut read = read.to_vec();
    read.sort();
    found == read
}

/// The conversations a dry run would take (spec §4), oldest idle first; the
/// claiming form of each backend is its `dialect::CLAIM_CONVERSATIONS`.
/// Its `{limit}` becomes `LIMIT n` before use (`limit` in `body.rs` says why).
pub(crate) const PEEK_CONVERSATIONS: &str = "SELECT conversation_id, user_id, watermark_seq, last_seq, last_message_at, scopes \
     FROM conversations WHERE conversation_id IN (SELECT conversation_id FROM conversations \
     WHERE last_seq > watermark_seq AND last_message_at <= $1 AND last_message_at >= $2 \
     AND (claim_owner IS NULL OR claim_expires_at <= $3) ORDER BY last_message_at {limit})";

/// Slips past retention: old, and evidence of nothing that lives.
pub(crate) const PURGEABLE_SLIPS: &str = "DELETE FROM slips WHERE expressed_at < $1 \
     AND slip_id NOT IN (SELECT e.slip_id FROM memory_evidence e JOIN memories m ON m.memory_id = e.memory_id WHERE m.status <> 'deleted') \
     AND slip_id NOT IN (SELECT e.slip_id FROM suggestion_evidence e JOIN suggestions s ON s.suggestion_id = e.suggestion_id WHERE s.status = 'pending')";
