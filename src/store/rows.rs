//! Rows as both backends return them, and their conversion into the domain
//! types. Names are stored as text and parsed back here, so a value dreamd
//! does not know is reported with its table and row, never trusted.

use super::time::DbTime;
use crate::domain::{Event, Evidence, Memory, Slip, Suggestion, Tombstone};
use crate::error::{Error, Result};
use sqlx::types::Json;

/// Parses a stored name back into its type, naming the table and row when it cannot.
pub fn parse<T: std::str::FromStr<Err = String>>(value: &str, what: &str, id: &str) -> Result<T> {
    value.parse().map_err(|e| Error::Corrupt(format!("{what} of {id}: {e}")))
}

pub const MEMORY_COLUMNS: &str = "memory_id, user_id, kind, scope, origin, status, version, content, \
     created_at, updated_at, expires_at, source_conversation_id, source_message_id";

/// Also read from JSON, as an array in column order, where recall's
/// candidates arrive aggregated (see [`CandidateRow`]).
#[derive(sqlx::FromRow, serde::Deserialize)]
pub struct MemoryRow {
    memory_id: String,
    user_id: String,
    kind: String,
    scope: String,
    origin: String,
    status: String,
    version: i64,
    content: Option<String>,
    created_at: DbTime,
    updated_at: DbTime,
    expires_at: Option<DbTime>,
    source_conversation_id: Option<String>,
    source_message_id: Option<String>,
}

impl TryFrom<MemoryRow> for Memory {
    type Error = Error;
    fn try_from(r: MemoryRow) -> Result<Memory> {
        let id = format!("memory {}", r.memory_id);
        Ok(Memory {
            kind: parse(&r.kind, "kind", &id)?,
            scope: parse(&r.scope, "scope", &id)?,
            origin: parse(&r.origin, "origin", &id)?,
            status: parse(&r.status, "status", &id)?,
            memory_id: r.memory_id,
            user_id: r.user_id,
            version: r.version,
            content: r.content,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
            expires_at: r.expires_at.map(|t| t.0),
            source_conversation_id: r.source_conversation_id,
            source_message_id: r.source_message_id,
        })
    }
}

/// A recall candidate with its evidence, one element of the JSON array
/// recall reads in one row: `[[memory columns…], [[evidence]…]]` (serde
/// reads a struct from an array in field order).
#[derive(serde::Deserialize)]
pub struct CandidateRow(pub MemoryRow, pub Vec<EvidenceRow>);

/// `[slip_id, conversation_id, message_id, quote, expressed_at]`.
#[derive(serde::Deserialize)]
pub struct EvidenceRow(String, String, String, Option<String>, DbTime);

impl From<EvidenceRow> for Evidence {
    fn from(EvidenceRow(slip_id, conversation_id, message_id, quote, at): EvidenceRow) -> Self {
        Evidence { slip_id, conversation_id, message_id, quote, expressed_at: at.0 }
    }
}

pub const SLIP_COLUMNS: &str = "slip_id, user_id, conversation_id, message_id, kind, scope, durability, \
     valid_until, content, quote, expressed_at, state, run_id";

#[derive(sqlx::FromRow)]
pub struct SlipRow {
    slip_id: String,
    user_id: String,
    conversation_id: String,
    message_id: String,
    kind: String,
    scope: String,
    durability: String,
    valid_until: Option<DbTime>,
    content: Option<String>,
    quote: Option<String>,
    expressed_at: DbTime,
    state: String,
    run_id: Option<String>,
}

impl TryFrom<SlipRow> for Slip {
    type Error = Error;
    fn try_from(r: SlipRow) -> Result<Slip> {
        let id = format!("slip {}", r.slip_id);
        Ok(Slip {
            kind: parse(&r.kind, "kind", &id)?,
            scope: parse(&r.scope, "scope", &id)?,
            durability: parse(&r.durability, "durability", &id)?,
            state: parse(&r.state, "state", &id)?,
            slip_id: r.slip_id,
            user_id: r.user_id,
            conversation_id: r.conversation_id,
            message_id: r.message_id,
            valid_until: r.valid_until.map(|t| t.0),
            content: r.content,
            quote: r.quote,
            expressed_at: r.expressed_at.0,
            run_id: r.run_id,
        })
    }
}

pub const SUGGESTION_COLUMNS: &str = "suggestion_id, user_id, op, kind, scope, content, memory_id, \
     target_version, status, created_at, decided_at";

#[derive(sqlx::FromRow)]
pub struct SuggestionRow {
    suggestion_id: String,
    user_id: String,
    op: String,
    kind: String,
    scope: String,
    content: Option<String>,
    memory_id: Option<String>,
    target_version: Option<i64>,
    status: String,
    created_at: DbTime,
    decided_at: Option<DbTime>,
}

impl TryFrom<SuggestionRow> for Suggestion {
    type Error = Error;
    fn try_from(r: SuggestionRow) -> Result<Suggestion> {
        let id = format!("suggestion {}", r.suggestion_id);
        Ok(Suggestion {
            op: parse(&r.op, "op", &id)?,
            kind: parse(&r.kind, "kind", &id)?,
            scope: parse(&r.scope, "scope", &id)?,
            status: parse(&r.status, "status", &id)?,
            suggestion_id: r.suggestion_id,
            user_id: r.user_id,
            content: r.content,
            memory_id: r.memory_id,
            target_version: r.target_version,
            created_at: r.created_at.0,
            decided_at: r.decided_at.map(|t| t.0),
        })
    }
}

pub const EVENT_COLUMNS: &str =
    "event_id, memory_id, at, actor, action, run_id, slip_ids, superseded_slip_ids, before, after";

#[derive(sqlx::FromRow)]
pub struct EventRow {
    event_id: String,
    memory_id: String,
    at: DbTime,
    actor: String,
    action: String,
    run_id: Option<String>,
    slip_ids: Json<Vec<String>>,
    superseded_slip_ids: Json<Vec<String>>,
    before: Option<Json<serde_json::Value>>,
    after: Option<Json<serde_json::Value>>,
}

impl TryFrom<EventRow> for Event {
    type Error = Error;
    fn try_from(r: EventRow) -> Result<Event> {
        let id = format!("event {}", r.event_id);
        Ok(Event {
            actor: parse(&r.actor, "actor", &id)?,
            event_id: r.event_id,
            memory_id: r.memory_id,
            at: r.at.0,
            action: r.action,
            run_id: r.run_id,
            slip_ids: r.slip_ids.0,
            superseded_slip_ids: r.superseded_slip_ids.0,
            before: r.before.map(|j| j.0),
            after: r.after.map(|j| j.0),
        })
    }
}

#[derive(sqlx::FromRow)]
pub struct TombstoneRow {
    memory_id: String,
    user_id: String,
    kind: String,
    scope: String,
    deleted_at: DbTime,
    fingerprint: String,
}

impl TryFrom<TombstoneRow> for Tombstone {
    type Error = Error;
    fn try_from(r: TombstoneRow) -> Result<Tombstone> {
        let id = format!("tombstone {}", r.memory_id);
        Ok(Tombstone {
            kind: parse(&r.kind, "kind", &id)?,
            scope: parse(&r.scope, "scope", &id)?,
            memory_id: r.memory_id,
            user_id: r.user_id,
            deleted_at: r.deleted_at.0,
            fingerprint: r.fingerprint,
        })
    }
}
