//! `dreamd copy --to URL`: everything dreamd holds, from the configured
//! database into another (a user who outgrows the embedded SQLite moves to
//! PostgreSQL), with history: messages and how far they were extracted,
//! slips, memories with their versions, evidence and events, tombstones,
//! suggestions, loads, runs and failed ranges. Claims are left behind (they
//! belong to processes of the old database), and so are per-user failure
//! counters (a fresh count on the new database is harmless).

use crate::domain::{NewMessage, StoredMessage, Write};
use crate::error::{Error, Result};
use crate::store::{ConversationRecord, CopiedProgress, FailedRange, Store};
use serde::Serialize;
use std::collections::HashMap;

/// Rows per table in the source and, after the copy, in the target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableCount {
    pub table: &'static str,
    pub source: u64,
    pub target: u64,
}

/// Copies everything of `from` into `to`; refuses a target that holds rows
/// unless `into_non_empty`. `progress` hears (what, done, total).
pub async fn copy<S: Store, T: Store>(
    from: &S,
    to: &T,
    into_non_empty: bool,
    progress: &dyn Fn(&str, usize, usize),
) -> Result<Vec<TableCount>> {
    refuse_non_empty(to, into_non_empty).await?;
    copy_conversations(from, to, progress).await?;
    let users = from.users().await?;
    for (i, user) in users.iter().enumerate() {
        to.apply(user_writes(from, user).await?).await?;
        progress("users", i + 1, users.len());
    }
    for run in from.recent_runs(u32::MAX).await? {
        to.save_run(&run).await?;
    }
    let (source, target) = (from.row_counts().await?, to.row_counts().await?);
    Ok(source
        .into_iter()
        .zip(target)
        .map(|((table, source), (_, target))| TableCount { table, source, target })
        .collect())
}

async fn refuse_non_empty<T: Store>(to: &T, into_non_empty: bool) -> Result<()> {
    if into_non_empty {
        return Ok(());
    }
    match to.row_counts().await?.into_iter().find(|(_, n)| *n > 0) {
        None => Ok(()),
        Some((table, n)) => Err(Error::Invalid(format!(
            "the target database is not empty ({n} rows in {table}); copy into an empty database, \
             or pass --into-non-empty to add to it"
        ))),
    }
}

/// Every conversation with its messages in order and its progress, each in
/// one transaction of the target.
async fn copy_conversations<S: Store, T: Store>(
    from: &S,
    to: &T,
    progress: &dyn Fn(&str, usize, usize),
) -> Result<()> {
    let mut failed: HashMap<String, Vec<FailedRange>> = HashMap::new();
    for range in from.failed_ranges(u32::MAX).await? {
        failed.entry(range.conversation_id.clone()).or_default().push(range);
    }
    let conversations = from.conversations().await?;
    for (i, c) in conversations.iter().enumerate() {
        let stored = from.conversation_messages(&c.conversation_id, 0, 0).await?.unprocessed;
        let ranges = failed.remove(&c.conversation_id).unwrap_or_default();
        let progress_by_id = progress_of(c, &stored, ranges);
        to.import_conversation(c, &new_messages(c, stored), &progress_by_id).await?;
        progress("conversations", i + 1, conversations.len());
    }
    Ok(())
}

/// A conversation's progress by message id, since the target numbers the
/// messages itself: the watermark is the newest message at or below it; a
/// failed range runs from its first to its last message.
fn progress_of(
    c: &ConversationRecord,
    messages: &[StoredMessage],
    ranges: Vec<FailedRange>,
) -> CopiedProgress {
    let last_at_or_below =
        |seq: i64| messages.iter().rev().find(|m| m.seq <= seq).map(|m| m.message_id.clone());
    let first_at_or_above =
        |seq: i64| messages.iter().find(|m| m.seq >= seq).map(|m| m.message_id.clone());
    CopiedProgress {
        watermark_message_id: last_at_or_below(c.watermark_seq),
        attempts: c.attempts,
        failed_ranges: ranges
            .into_iter()
            .filter_map(|r| Some((first_at_or_above(r.from_seq)?, last_at_or_below(r.to_seq)?, r)))
            .collect(),
    }
}

fn new_messages(c: &ConversationRecord, stored: Vec<StoredMessage>) -> Vec<NewMessage> {
    stored
        .into_iter()
        .enumerate()
        .map(|(i, m)| NewMessage {
            line: i + 1,
            user_id: c.user_id.clone(),
            conversation_id: c.conversation_id.clone(),
            message_id: m.message_id,
            role: m.role,
            content: m.content,
            created_at: m.created_at,
            scopes: Vec::new(),
        })
        .collect()
}

/// Everything of one user but conversations, as writes for one transaction:
/// slips first, then what cites them.
async fn user_writes<S: Store>(from: &S, user: &str) -> Result<Vec<Write>> {
    let mut writes: Vec<Write> =
        from.slips(user, None).await?.into_iter().map(Write::InsertSlip).collect();
    let memories = from.memories(user).await?;
    let memory_ids: Vec<String> = memories.iter().map(|m| m.memory_id.clone()).collect();
    let mut evidence: HashMap<String, Vec<String>> = HashMap::new();
    for (memory_id, e) in from.evidence(&memory_ids).await? {
        evidence.entry(memory_id).or_default().push(e.slip_id);
    }
    for memory in memories {
        let memory_id = memory.memory_id.clone();
        let history = from.history(&memory_id).await?;
        writes.push(Write::InsertMemory(memory));
        writes.extend(history.into_iter().map(Write::InsertEvent));
        let slip_ids = evidence.remove(&memory_id).unwrap_or_default();
        writes.push(Write::AddEvidence { memory_id, slip_ids });
    }
    let suggestions = from.suggestions(user).await?;
    let suggestion_ids: Vec<String> = suggestions.iter().map(|s| s.suggestion_id.clone()).collect();
    let mut cited: HashMap<String, Vec<String>> = HashMap::new();
    for (suggestion_id, e) in from.suggestion_evidence(&suggestion_ids).await? {
        cited.entry(suggestion_id).or_default().push(e.slip_id);
    }
    for suggestion in suggestions {
        let slip_ids = cited.remove(&suggestion.suggestion_id).unwrap_or_default();
        writes.push(Write::InsertSuggestion { suggestion, slip_ids });
    }
    writes.extend(from.tombstones(user).await?.into_iter().map(Write::InsertTombstone));
    writes.extend(from.loads(user, None).await?.into_iter().map(Write::InsertLoad));
    Ok(writes)
}
