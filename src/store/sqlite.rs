//! The embedded default: one SQLite file in WAL mode. Times are stored as
//! UTC text with milliseconds (`2026-11-29T12:00:00.000Z`), so text order is
//! time order and the schema can check what agents write directly.

use super::{
    Backlog, Candidate, ConversationMessages, Counts, FailedRange, FailedUser, IngestWritten,
    MessageSource, RunRecord, Store, Window, Write, changed_since_read, lost_claim, parse_stored,
    stale_memory, stale_suggestion, write_name,
};
use crate::domain::{
    Event, Evidence, Load, LoadedMemory, Memory, NewMessage, Slip, SlipState, StoredMessage,
    Suggestion, Time, Tombstone,
};
use crate::error::{Error, Result};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{QueryBuilder, Row, Sqlite, SqliteConnection, SqlitePool};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::time::Duration;

/// Rows per INSERT during ingest: 7 values each, well under SQLite's variable limit.
const INGEST_ROWS_PER_STATEMENT: usize = 500;

pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating if missing) the database file and runs the migrations.
    pub async fn open(path: &Path) -> Result<SqliteStore> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(Error::db(format!(
                "opening SQLite database {} (does its directory exist and is it writable?)",
                path.display()
            )))?;
        sqlx::migrate!("migrations/sqlite").run(&pool).await?;
        Ok(SqliteStore { pool })
    }

    /// Closes every connection and checkpoints the write-ahead log, so the
    /// file can be removed (`dreamd eval` does, after each scratch case).
    pub async fn close(self) {
        self.pool.close().await;
    }

    /// The pool, for tests that check rows with SQL.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// A transaction that takes the write lock at once. A deferred one that
    /// reads first fails with SQLITE_BUSY_SNAPSHOT, without waiting, when
    /// another process commits in between; an immediate one waits its turn.
    async fn write_tx(&self, what: &str) -> Result<sqlx::Transaction<'static, Sqlite>> {
        self.pool
            .begin_with("BEGIN IMMEDIATE")
            .await
            .map_err(Error::db(what.to_owned()))
    }
}

pub(crate) fn db_time(t: Time) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

fn parse_time(text: &str, what: &str, id: &str) -> Result<Time> {
    chrono::DateTime::parse_from_rfc3339(text)
        .map(|t| t.to_utc())
        .map_err(|e| Error::Corrupt(format!("{what} of {id}: '{text}' is not a time: {e}")))
}

fn opt_time(text: Option<String>, what: &str, id: &str) -> Result<Option<Time>> {
    text.map(|t| parse_time(&t, what, id)).transpose()
}

fn get<'r, T: sqlx::Decode<'r, Sqlite> + sqlx::Type<Sqlite>>(
    row: &'r SqliteRow,
    column: &str,
) -> Result<T> {
    row.try_get(column)
        .map_err(Error::db(format!("reading column {column}")))
}

const MEMORY_COLUMNS: &str = "memory_id, user_id, kind, scope, origin, status, version, content, created_at, updated_at, expires_at, source_conversation_id, source_message_id";

fn memory_from_row(row: &SqliteRow) -> Result<Memory> {
    let id: String = get(row, "memory_id")?;
    Ok(Memory {
        user_id: get(row, "user_id")?,
        kind: parse_stored(&get::<String>(row, "kind")?, "kind", &id)?,
        scope: parse_stored(&get::<String>(row, "scope")?, "scope", &id)?,
        origin: parse_stored(&get::<String>(row, "origin")?, "origin", &id)?,
        status: parse_stored(&get::<String>(row, "status")?, "status", &id)?,
        version: get(row, "version")?,
        content: get(row, "content")?,
        created_at: parse_time(&get::<String>(row, "created_at")?, "created_at", &id)?,
        updated_at: parse_time(&get::<String>(row, "updated_at")?, "updated_at", &id)?,
        expires_at: opt_time(get(row, "expires_at")?, "expires_at", &id)?,
        source_conversation_id: get(row, "source_conversation_id")?,
        source_message_id: get(row, "source_message_id")?,
        memory_id: id,
    })
}

fn stored_message_from_row(row: &SqliteRow) -> Result<StoredMessage> {
    let id: String = get(row, "message_id")?;
    Ok(StoredMessage {
        seq: get(row, "seq")?,
        role: parse_stored(&get::<String>(row, "role")?, "role", &id)?,
        content: get(row, "content")?,
        created_at: parse_time(&get::<String>(row, "created_at")?, "created_at", &id)?,
        message_id: id,
    })
}

const EVIDENCE_COLUMNS: &str =
    "s.slip_id, s.conversation_id, s.message_id, s.quote, s.expressed_at";

fn evidence_from_row(row: &SqliteRow) -> Result<(String, Evidence)> {
    let slip_id: String = get(row, "slip_id")?;
    let evidence = Evidence {
        conversation_id: get(row, "conversation_id")?,
        message_id: get(row, "message_id")?,
        quote: get(row, "quote")?,
        expressed_at: parse_time(
            &get::<String>(row, "expressed_at")?,
            "expressed_at",
            &slip_id,
        )?,
        slip_id,
    };
    Ok((get(row, "owner_id")?, evidence))
}

const SUGGESTION_COLUMNS: &str = "suggestion_id, user_id, op, kind, scope, content, memory_id, target_version, status, created_at, decided_at";

fn suggestion_from_row(row: &SqliteRow) -> Result<Suggestion> {
    let id: String = get(row, "suggestion_id")?;
    Ok(Suggestion {
        user_id: get(row, "user_id")?,
        op: parse_stored(&get::<String>(row, "op")?, "op", &id)?,
        kind: parse_stored(&get::<String>(row, "kind")?, "kind", &id)?,
        scope: parse_stored(&get::<String>(row, "scope")?, "scope", &id)?,
        content: get(row, "content")?,
        memory_id: get(row, "memory_id")?,
        target_version: get(row, "target_version")?,
        status: parse_stored(&get::<String>(row, "status")?, "status", &id)?,
        created_at: parse_time(&get::<String>(row, "created_at")?, "created_at", &id)?,
        decided_at: opt_time(get(row, "decided_at")?, "decided_at", &id)?,
        suggestion_id: id,
    })
}

const SLIP_COLUMNS: &str = "slip_id, user_id, conversation_id, message_id, kind, scope, durability, valid_until, content, quote, expressed_at, state, run_id";

fn slip_from_row(row: &SqliteRow) -> Result<Slip> {
    let id: String = get(row, "slip_id")?;
    Ok(Slip {
        user_id: get(row, "user_id")?,
        conversation_id: get(row, "conversation_id")?,
        message_id: get(row, "message_id")?,
        kind: parse_stored(&get::<String>(row, "kind")?, "kind", &id)?,
        scope: parse_stored(&get::<String>(row, "scope")?, "scope", &id)?,
        durability: parse_stored(&get::<String>(row, "durability")?, "durability", &id)?,
        valid_until: opt_time(get(row, "valid_until")?, "valid_until", &id)?,
        content: get(row, "content")?,
        quote: get(row, "quote")?,
        expressed_at: parse_time(&get::<String>(row, "expressed_at")?, "expressed_at", &id)?,
        state: parse_stored(&get::<String>(row, "state")?, "state", &id)?,
        run_id: get(row, "run_id")?,
        slip_id: id,
    })
}

fn event_from_row(row: &SqliteRow) -> Result<Event> {
    let id: String = get(row, "event_id")?;
    let json = |column: &str| -> Result<Option<serde_json::Value>> {
        get::<Option<String>>(row, column)?
            .map(|text| {
                serde_json::from_str(&text)
                    .map_err(|e| Error::Corrupt(format!("{column} of event {id}: {e}")))
            })
            .transpose()
    };
    let slip_ids = json("slip_ids")?
        .map(serde_json::from_value)
        .transpose()
        .map_err(|e| Error::Corrupt(format!("slip_ids of event {id}: {e}")))?
        .unwrap_or_default();
    Ok(Event {
        memory_id: get(row, "memory_id")?,
        at: parse_time(&get::<String>(row, "at")?, "at", &id)?,
        actor: parse_stored(&get::<String>(row, "actor")?, "actor", &id)?,
        action: get(row, "action")?,
        run_id: get(row, "run_id")?,
        slip_ids,
        superseded_slip_ids: json("superseded_slip_ids")?
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| Error::Corrupt(format!("superseded_slip_ids of event {id}: {e}")))?
            .unwrap_or_default(),
        before: json("before")?,
        after: json("after")?,
        event_id: id,
    })
}

/// The owners of those of `conversation_ids` that are already stored.
async fn conversation_owners(
    conn: &mut SqliteConnection,
    conversation_ids: &[&str],
) -> Result<HashMap<String, String>> {
    let mut query = QueryBuilder::<Sqlite>::new(
        "SELECT conversation_id, user_id FROM conversations WHERE conversation_id IN (",
    );
    let mut ids = query.separated(", ");
    for id in conversation_ids {
        ids.push_bind(*id);
    }
    query.push(")");
    query
        .build()
        .fetch_all(&mut *conn)
        .await
        .map_err(Error::db("reading conversation owners"))?
        .iter()
        .map(|row| Ok((get(row, "conversation_id")?, get(row, "user_id")?)))
        .collect()
}

async fn insert_messages(conn: &mut SqliteConnection, batch: &[NewMessage]) -> Result<u64> {
    let mut inserted = 0;
    for chunk in batch.chunks(INGEST_ROWS_PER_STATEMENT) {
        let mut query = QueryBuilder::<Sqlite>::new(
            "INSERT INTO messages (conversation_id, message_id, user_id, role, content, created_at) ",
        );
        query.push_values(chunk, |mut row, m| {
            row.push_bind(m.conversation_id.as_str())
                .push_bind(m.message_id.as_str())
                .push_bind(m.user_id.as_str())
                .push_bind(m.role.as_str())
                .push_bind(m.content.as_str())
                .push_bind(db_time(m.created_at));
        });
        query.push(" ON CONFLICT (conversation_id, message_id) DO NOTHING");
        inserted += query
            .build()
            .execute(&mut *conn)
            .await
            .map_err(Error::db(format!(
                "inserting messages from line {}",
                chunk[0].line
            )))?
            .rows_affected();
    }
    Ok(inserted)
}

async fn add_conversation_scopes(
    conn: &mut SqliteConnection,
    scopes: HashMap<String, BTreeSet<String>>,
) -> Result<()> {
    for (conversation_id, new_scopes) in scopes {
        let current: String =
            sqlx::query_scalar("SELECT scopes FROM conversations WHERE conversation_id = $1")
                .bind(&conversation_id)
                .fetch_one(&mut *conn)
                .await
                .map_err(Error::db(format!(
                    "reading scopes of conversation {conversation_id}"
                )))?;
        let mut all: BTreeSet<String> = serde_json::from_str(&current).map_err(|e| {
            Error::Corrupt(format!("scopes of conversation {conversation_id}: {e}"))
        })?;
        all.extend(new_scopes);
        sqlx::query("UPDATE conversations SET scopes = $1 WHERE conversation_id = $2")
            .bind(serde_json::to_string(&all).expect("a set of strings serialises"))
            .bind(&conversation_id)
            .execute(&mut *conn)
            .await
            .map_err(Error::db(format!(
                "writing scopes of conversation {conversation_id}"
            )))?;
    }
    Ok(())
}

async fn apply_one(conn: &mut SqliteConnection, write: &Write) -> Result<()> {
    let context = || format!("applying {}", write_name(write));
    match write {
        Write::InsertMemory(m) => {
            sqlx::query(
                "INSERT INTO memories (memory_id, user_id, kind, scope, origin, status, version, content, created_at, updated_at, expires_at, \
                 source_conversation_id, source_message_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            )
            .bind(&m.memory_id)
            .bind(&m.user_id)
            .bind(m.kind.as_str())
            .bind(m.scope.as_str())
            .bind(m.origin.as_str())
            .bind(m.status.as_str())
            .bind(m.version)
            .bind(&m.content)
            .bind(db_time(m.created_at))
            .bind(db_time(m.updated_at))
            .bind(m.expires_at.map(db_time))
            .bind(&m.source_conversation_id)
            .bind(&m.source_message_id)
            .execute(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
        }
        Write::UpdateMemory {
            memory: m,
            expected_version,
        } => {
            let updated = sqlx::query(
                "UPDATE memories SET kind = $1, scope = $2, origin = $3, status = $4, version = $5, content = $6, \
                 updated_at = $7, expires_at = $8 WHERE memory_id = $9 AND version = $10",
            )
            .bind(m.kind.as_str())
            .bind(m.scope.as_str())
            .bind(m.origin.as_str())
            .bind(m.status.as_str())
            .bind(m.version)
            .bind(&m.content)
            .bind(db_time(m.updated_at))
            .bind(m.expires_at.map(db_time))
            .bind(&m.memory_id)
            .bind(expected_version)
            .execute(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
            if updated.rows_affected() == 0 {
                return Err(stale_memory(&m.memory_id, *expected_version));
            }
        }
        Write::AddEvidence {
            memory_id,
            slip_ids,
        } => {
            add_evidence(conn, memory_id, slip_ids).await?;
        }
        Write::ReplaceEvidence {
            memory_id,
            slip_ids,
        } => {
            sqlx::query("DELETE FROM memory_evidence WHERE memory_id = $1")
                .bind(memory_id)
                .execute(&mut *conn)
                .await
                .map_err(Error::db(context()))?;
            add_evidence(conn, memory_id, slip_ids).await?;
        }
        Write::InsertEvent(e) => {
            let json = |v: &Option<serde_json::Value>| v.as_ref().map(ToString::to_string);
            sqlx::query(
                "INSERT INTO memory_events (event_id, memory_id, at, actor, action, run_id, slip_ids, superseded_slip_ids, before, after) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(&e.event_id)
            .bind(&e.memory_id)
            .bind(db_time(e.at))
            .bind(e.actor.as_str())
            .bind(&e.action)
            .bind(&e.run_id)
            .bind(json_ids(&e.slip_ids))
            .bind(json_ids(&e.superseded_slip_ids))
            .bind(json(&e.before))
            .bind(json(&e.after))
            .execute(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
        }
        Write::EraseText {
            memory_id,
            slip_ids,
            at,
        } => {
            for statement in [
                "UPDATE memory_events SET before = json_set(before, '$.content', NULL) WHERE memory_id = $1 AND before IS NOT NULL",
                "UPDATE memory_events SET after = json_remove(json_set(after, '$.content', NULL), '$.reason') WHERE memory_id = $1 AND after IS NOT NULL",
                "UPDATE slips SET content = NULL, quote = NULL, state = 'erased' \
                 WHERE slip_id IN (SELECT value FROM json_each($2)) \
                 OR slip_id IN (SELECT slip_id FROM memory_evidence WHERE memory_id = $1)",
                "UPDATE suggestions SET content = NULL, \
                 decided_at = CASE WHEN status = 'pending' THEN $3 ELSE decided_at END, \
                 status = CASE WHEN status = 'pending' THEN 'withdrawn' ELSE status END \
                 WHERE memory_id = $1",
            ] {
                sqlx::query(statement)
                    .bind(memory_id)
                    .bind(json_ids(slip_ids))
                    .bind(db_time(*at))
                    .execute(&mut *conn)
                    .await
                    .map_err(Error::db(context()))?;
            }
        }
        Write::ExpectUserClaim {
            user_id,
            owner,
            now,
        } => {
            let held: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM user_claims WHERE user_id = $1 AND owner = $2 AND expires_at > $3",
            )
            .bind(user_id)
            .bind(owner)
            .bind(db_time(*now))
            .fetch_one(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
            if held == 0 {
                return Err(changed_since_read(&format!("the claim on user {user_id}")));
            }
        }
        Write::ExpectMemories {
            user_id,
            versions,
            tombstones,
        } => {
            let mut found: Vec<(String, i64)> =
                sqlx::query_as("SELECT memory_id, version FROM memories WHERE user_id = $1")
                    .bind(user_id)
                    .fetch_all(&mut *conn)
                    .await
                    .map_err(Error::db(context()))?;
            let buried: i64 =
                sqlx::query_scalar("SELECT count(*) FROM tombstones WHERE user_id = $1")
                    .bind(user_id)
                    .fetch_one(&mut *conn)
                    .await
                    .map_err(Error::db(context()))?;
            found.sort();
            if !super::same_versions(found, versions) || buried != *tombstones {
                return Err(changed_since_read(&format!(
                    "the memories of user {user_id}"
                )));
            }
        }
        Write::ExpectSlipsLive { user_id, slip_ids } => {
            let live: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM slips WHERE user_id = $1 AND state <> 'erased' \
                 AND slip_id IN (SELECT value FROM json_each($2))",
            )
            .bind(user_id)
            .bind(json_ids(slip_ids))
            .fetch_one(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
            if live != slip_ids.len() as i64 {
                return Err(changed_since_read(&format!("the slips of user {user_id}")));
            }
        }
        Write::InsertTombstone(t) => {
            sqlx::query(
                "INSERT INTO tombstones (memory_id, user_id, kind, scope, deleted_at, fingerprint) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&t.memory_id)
            .bind(&t.user_id)
            .bind(t.kind.as_str())
            .bind(t.scope.as_str())
            .bind(db_time(t.deleted_at))
            .bind(&t.fingerprint)
            .execute(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
        }
        Write::InsertSlip(s) => {
            sqlx::query(
                "INSERT INTO slips (slip_id, user_id, conversation_id, message_id, kind, scope, durability, valid_until, content, quote, expressed_at, state, run_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            )
            .bind(&s.slip_id)
            .bind(&s.user_id)
            .bind(&s.conversation_id)
            .bind(&s.message_id)
            .bind(s.kind.as_str())
            .bind(s.scope.as_str())
            .bind(s.durability.as_str())
            .bind(s.valid_until.map(db_time))
            .bind(&s.content)
            .bind(&s.quote)
            .bind(db_time(s.expressed_at))
            .bind(s.state.as_str())
            .bind(&s.run_id)
            .execute(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
        }
        Write::InsertSuggestion {
            suggestion: s,
            slip_ids,
        } => {
            sqlx::query(
                "INSERT INTO suggestions (suggestion_id, user_id, op, kind, scope, content, memory_id, target_version, status, created_at, decided_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(&s.suggestion_id)
            .bind(&s.user_id)
            .bind(s.op.as_str())
            .bind(s.kind.as_str())
            .bind(s.scope.as_str())
            .bind(&s.content)
            .bind(&s.memory_id)
            .bind(s.target_version)
            .bind(s.status.as_str())
            .bind(db_time(s.created_at))
            .bind(s.decided_at.map(db_time))
            .execute(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
            for slip_id in slip_ids {
                sqlx::query("INSERT INTO suggestion_evidence (suggestion_id, slip_id) VALUES ($1, $2) ON CONFLICT DO NOTHING")
                    .bind(&s.suggestion_id)
                    .bind(slip_id)
                    .execute(&mut *conn)
                    .await
                    .map_err(Error::db(context()))?;
            }
        }
        Write::AddSuggestionEvidence {
            suggestion_id,
            slip_ids,
        } => {
            add_suggestion_evidence(conn, suggestion_id, slip_ids).await?;
        }
        Write::SetSlipStates { slip_ids, state } => {
            set_slip_states(conn, slip_ids, *state).await?;
        }
        Write::InsertLoad(load) => {
            sqlx::query(
                "INSERT INTO loads (load_id, user_id, conversation_id, at) VALUES ($1, $2, $3, $4)",
            )
            .bind(&load.load_id)
            .bind(&load.user_id)
            .bind(&load.conversation_id)
            .bind(db_time(load.at))
            .execute(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
            for (position, m) in load.memories.iter().enumerate() {
                sqlx::query("INSERT INTO load_memories (load_id, memory_id, version, position) VALUES ($1, $2, $3, $4)")
                    .bind(&load.load_id)
                    .bind(&m.memory_id)
                    .bind(m.version)
                    .bind(position as i64)
                    .execute(&mut *conn)
                    .await
                    .map_err(Error::db(context()))?;
            }
        }
        Write::DecideSuggestion {
            suggestion_id,
            status,
            decided_at,
            memory_id,
        } => {
            let updated = sqlx::query(
                "UPDATE suggestions SET status = $1, decided_at = $2, memory_id = COALESCE($4, memory_id) \
                 WHERE suggestion_id = $3 AND status = 'pending'",
            )
            .bind(status.as_str())
            .bind(db_time(*decided_at))
            .bind(suggestion_id)
            .bind(memory_id)
            .execute(&mut *conn)
            .await
            .map_err(Error::db(context()))?;
            if updated.rows_affected() == 0 {
                return Err(stale_suggestion(suggestion_id));
            }
        }
    }
    Ok(())
}

/// A list of ids as one JSON array parameter, read back with `json_each`.
fn json_ids(ids: &[String]) -> String {
    serde_json::to_string(ids).expect("ids serialise")
}

async fn add_evidence(
    conn: &mut SqliteConnection,
    memory_id: &str,
    slip_ids: &[String],
) -> Result<()> {
    for slip_id in slip_ids {
        sqlx::query("INSERT INTO memory_evidence (memory_id, slip_id) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(memory_id)
            .bind(slip_id)
            .execute(&mut *conn)
            .await
            .map_err(Error::db(format!("adding evidence {slip_id} to memory {memory_id}")))?;
    }
    Ok(())
}

async fn add_suggestion_evidence(
    conn: &mut SqliteConnection,
    suggestion_id: &str,
    slip_ids: &[String],
) -> Result<()> {
    for slip_id in slip_ids {
        sqlx::query("INSERT INTO suggestion_evidence (suggestion_id, slip_id) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(suggestion_id)
            .bind(slip_id)
            .execute(&mut *conn)
            .await
            .map_err(Error::db(format!("adding evidence {slip_id} to suggestion {suggestion_id}")))?;
    }
    Ok(())
}

async fn set_slip_states(
    conn: &mut SqliteConnection,
    slip_ids: &[String],
    state: SlipState,
) -> Result<()> {
    for slip_id in slip_ids {
        sqlx::query("UPDATE slips SET state = $1 WHERE slip_id = $2 AND state <> 'erased'")
            .bind(state.as_str())
            .bind(slip_id)
            .execute(&mut *conn)
            .await
            .map_err(Error::db(format!("moving slip {slip_id} to {state}")))?;
    }
    Ok(())
}

impl SqliteStore {
    /// Completes load rows with their memories, in the order they were given.
    async fn with_load_memories(&self, rows: Vec<SqliteRow>) -> Result<Vec<Load>> {
        let mut loads = Vec::new();
        for row in &rows {
            let load_id: String = get(row, "load_id")?;
            let memories = sqlx::query(
                "SELECT memory_id, version FROM load_memories WHERE load_id = $1 ORDER BY position",
            )
            .bind(&load_id)
            .fetch_all(&self.pool)
            .await
            .map_err(Error::db(format!("reading load {load_id}")))?
            .iter()
            .map(|m| {
                Ok(LoadedMemory {
                    memory_id: get(m, "memory_id")?,
                    version: get(m, "version")?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
            loads.push(Load {
                user_id: get(row, "user_id")?,
                conversation_id: get(row, "conversation_id")?,
                at: parse_time(&get::<String>(row, "at")?, "at", &load_id)?,
                memories,
                load_id,
            });
        }
        Ok(loads)
    }
}

impl super::IngestSteps for SqliteConnection {
    async fn conversation_owners(
        &mut self,
        conversation_ids: &[&str],
    ) -> Result<HashMap<String, String>> {
        conversation_owners(self, conversation_ids).await
    }

    async fn insert_messages(&mut self, batch: &[NewMessage]) -> Result<u64> {
        insert_messages(self, batch).await
    }

    async fn add_conversation_scopes(
        &mut self,
        scopes: HashMap<String, BTreeSet<String>>,
    ) -> Result<()> {
        add_conversation_scopes(self, scopes).await
    }
}

impl Store for SqliteStore {
    async fn ingest(&self, source: &mut (dyn MessageSource + Send)) -> Result<IngestWritten> {
        let mut tx = self.write_tx("starting the ingest transaction").await?;
        let written = super::ingest_in(&mut *tx, source).await?;
        tx.commit()
            .await
            .map_err(Error::db("committing the ingest"))?;
        Ok(written)
    }

    async fn apply(&self, writes: Vec<Write>) -> Result<()> {
        let mut tx = self.write_tx("starting a transaction").await?;
        for write in &writes {
            apply_one(&mut tx, write).await?;
        }
        tx.commit().await.map_err(Error::db("committing"))
    }

    async fn memory(&self, memory_id: &str) -> Result<Option<Memory>> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MEMORY_COLUMNS} FROM memories WHERE memory_id = $1"
        )))
        .bind(memory_id)
        .fetch_optional(&self.pool)
        .await
        .map_err(Error::db(format!("reading memory {memory_id}")))?
        .as_ref()
        .map(memory_from_row)
        .transpose()
    }

    async fn memories(&self, user_id: &str) -> Result<Vec<Memory>> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MEMORY_COLUMNS} FROM memories WHERE user_id = $1 ORDER BY created_at, memory_id"
        )))
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db(format!("reading memories of user {user_id}")))?
        .iter()
        .map(memory_from_row)
        .collect()
    }

    async fn evidence(&self, memory_ids: &[String]) -> Result<Vec<(String, Evidence)>> {
        owned_evidence(&self.pool, "memory_evidence", "memory_id", memory_ids).await
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<Event>> {
        sqlx::query(
            "SELECT event_id, memory_id, at, actor, action, run_id, slip_ids, before, after \
             , superseded_slip_ids FROM memory_events WHERE memory_id = $1 ORDER BY at, event_id",
        )
        .bind(memory_id)
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db(format!("reading history of memory {memory_id}")))?
        .iter()
        .map(event_from_row)
        .collect()
    }

    async fn suggestion(&self, suggestion_id: &str) -> Result<Option<Suggestion>> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {SUGGESTION_COLUMNS} FROM suggestions WHERE suggestion_id = $1"
        )))
        .bind(suggestion_id)
        .fetch_optional(&self.pool)
        .await
        .map_err(Error::db(format!("reading suggestion {suggestion_id}")))?
        .as_ref()
        .map(suggestion_from_row)
        .transpose()
    }

    async fn suggestions(&self, user_id: &str) -> Result<Vec<Suggestion>> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {SUGGESTION_COLUMNS} FROM suggestions WHERE user_id = $1 ORDER BY created_at, suggestion_id"
        )))
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db(format!("reading suggestions of user {user_id}")))?
        .iter()
        .map(suggestion_from_row)
        .collect()
    }

    async fn suggestion_evidence(
        &self,
        suggestion_ids: &[String],
    ) -> Result<Vec<(String, Evidence)>> {
        owned_evidence(
            &self.pool,
            "suggestion_evidence",
            "suggestion_id",
            suggestion_ids,
        )
        .await
    }

    async fn slips(&self, user_id: &str, conversation_id: Option<&str>) -> Result<Vec<Slip>> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {SLIP_COLUMNS} FROM slips WHERE user_id = $1 AND ($2 IS NULL OR conversation_id = $2) \
             ORDER BY expressed_at, slip_id"
        )))
        .bind(user_id)
        .bind(conversation_id)
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db(format!("reading slips of user {user_id}")))?
        .iter()
        .map(slip_from_row)
        .collect()
    }

    async fn tombstones(&self, user_id: &str) -> Result<Vec<Tombstone>> {
        let rows = sqlx::query(
            "SELECT memory_id, user_id, kind, scope, deleted_at, fingerprint FROM tombstones WHERE user_id = $1 ORDER BY deleted_at",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db(format!("reading tombstones of user {user_id}")))?;
        rows.iter()
            .map(|row| {
                let id: String = get(row, "memory_id")?;
                Ok(Tombstone {
                    user_id: get(row, "user_id")?,
                    kind: parse_stored(&get::<String>(row, "kind")?, "kind", &id)?,
                    scope: parse_stored(&get::<String>(row, "scope")?, "scope", &id)?,
                    deleted_at: parse_time(&get::<String>(row, "deleted_at")?, "deleted_at", &id)?,
                    fingerprint: get(row, "fingerprint")?,
                    memory_id: id,
                })
            })
            .collect()
    }

    async fn skip_out_of_window(&self, window: &Window, count_only: bool) -> Result<u64> {
        let mut tx = self.write_tx("starting a transaction").await?;
        let stale = "FROM conversations c WHERE c.last_seq > c.watermark_seq AND c.last_message_at < $1 \
                     AND (c.claim_owner IS NULL OR c.claim_expires_at <= $2)";
        let skipped: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM messages m WHERE m.conversation_id IN (SELECT c.conversation_id {stale}) \
             AND m.seq > (SELECT watermark_seq FROM conversations WHERE conversation_id = m.conversation_id)"
        )))
        .bind(db_time(window.lookback_cutoff))
        .bind(db_time(window.now))
        .fetch_one(&mut *tx)
        .await
        .map_err(Error::db("counting messages before the window"))?;
        if !count_only {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "UPDATE conversations SET watermark_seq = last_seq, attempts = 0 \
                 WHERE conversation_id IN (SELECT c.conversation_id {stale})"
            )))
            .bind(db_time(window.lookback_cutoff))
            .bind(db_time(window.now))
            .execute(&mut *tx)
            .await
            .map_err(Error::db("passing over messages before the window"))?;
        }
        tx.commit().await.map_err(Error::db("committing"))?;
        Ok(skipped as u64)
    }

    async fn select_conversations(
        &self,
        window: &Window,
        owner: Option<(&str, Time)>,
    ) -> Result<Vec<Candidate>> {
        const ELIGIBLE: &str = "SELECT conversation_id FROM conversations \
             WHERE last_seq > watermark_seq AND last_message_at <= $1 AND last_message_at >= $2 \
             AND (claim_owner IS NULL OR claim_expires_at <= $3) ORDER BY last_message_at LIMIT $4";
        const COLUMNS: &str =
            "conversation_id, user_id, watermark_seq, last_seq, last_message_at, scopes";
        let sql = match owner {
            Some(_) => format!(
                "UPDATE conversations SET claim_owner = $5, claim_expires_at = $6 \
                 WHERE conversation_id IN ({ELIGIBLE}) RETURNING {COLUMNS}"
            ),
            None => {
                format!("SELECT {COLUMNS} FROM conversations WHERE conversation_id IN ({ELIGIBLE})")
            }
        };
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(db_time(window.idle_cutoff))
            .bind(db_time(window.lookback_cutoff))
            .bind(db_time(window.now))
            .bind(i64::from(window.limit));
        if let Some((owner, until)) = owner {
            query = query.bind(owner.to_owned()).bind(db_time(until));
        }
        let rows = query
            .fetch_all(&self.pool)
            .await
            .map_err(Error::db("selecting conversations"))?;
        let mut candidates = rows
            .iter()
            .map(|row| {
                let id: String = get(row, "conversation_id")?;
                let scopes: String = get(row, "scopes")?;
                Ok(Candidate {
                    user_id: get(row, "user_id")?,
                    watermark_seq: get(row, "watermark_seq")?,
                    last_seq: get(row, "last_seq")?,
                    last_message_at: parse_time(
                        &get::<String>(row, "last_message_at")?,
                        "last_message_at",
                        &id,
                    )?,
                    scopes: serde_json::from_str(&scopes)
                        .map_err(|e| Error::Corrupt(format!("scopes of conversation {id}: {e}")))?,
                    conversation_id: id,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        candidates.sort_by(|a, b| {
            (a.last_message_at, &a.conversation_id).cmp(&(b.last_message_at, &b.conversation_id))
        });
        Ok(candidates)
    }

    async fn conversation_messages(
        &self,
        conversation_id: &str,
        watermark_seq: i64,
        context: u32,
    ) -> Result<ConversationMessages> {
        const COLUMNS: &str = "seq, message_id, role, content, created_at";
        let read = |sql: String, limit: Option<u32>| {
            let pool = &self.pool;
            async move {
                let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(conversation_id)
                    .bind(watermark_seq);
                if let Some(limit) = limit {
                    query = query.bind(i64::from(limit));
                }
                query
                    .fetch_all(pool)
                    .await
                    .map_err(Error::db(format!(
                        "reading messages of conversation {conversation_id}"
                    )))?
                    .iter()
                    .map(stored_message_from_row)
                    .collect::<Result<Vec<_>>>()
            }
        };
        let unprocessed = read(
            format!("SELECT {COLUMNS} FROM messages WHERE conversation_id = $1 AND seq > $2 ORDER BY seq"),
            None,
        )
        .await?;
        let mut before = read(
            format!("SELECT {COLUMNS} FROM messages WHERE conversation_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT $3"),
            Some(context),
        )
        .await?;
        before.reverse();
        Ok(ConversationMessages {
            before,
            unprocessed,
        })
    }

    async fn commit_extraction(
        &self,
        conversation_id: &str,
        owner: &str,
        from_seq: i64,
        to_seq: i64,
        slips: Vec<Slip>,
    ) -> Result<()> {
        let mut tx = self.write_tx("starting a transaction").await?;
        let moved = sqlx::query(
            "UPDATE conversations SET watermark_seq = $1, attempts = 0 \
             WHERE conversation_id = $2 AND watermark_seq = $3 AND claim_owner = $4",
        )
        .bind(to_seq)
        .bind(conversation_id)
        .bind(from_seq)
        .bind(owner)
        .execute(&mut *tx)
        .await
        .map_err(Error::db(format!(
            "moving the watermark of conversation {conversation_id}"
        )))?;
        if moved.rows_affected() == 0 {
            return Err(lost_claim(conversation_id));
        }
        for slip in slips {
            apply_one(&mut tx, &Write::InsertSlip(slip)).await?;
        }
        tx.commit().await.map_err(Error::db("committing slips"))
    }

    async fn record_failure(
        &self,
        conversation_id: &str,
        owner: &str,
        (from_seq, to_seq): (i64, i64),
        max_attempts: u32,
        reason: &str,
        now: Time,
    ) -> Result<bool> {
        let mut tx = self.write_tx("starting a transaction").await?;
        let attempts: Option<i64> = sqlx::query_scalar(
            "UPDATE conversations SET attempts = attempts + 1, claim_owner = NULL, claim_expires_at = NULL \
             WHERE conversation_id = $1 AND claim_owner = $2 AND watermark_seq = $3 RETURNING attempts",
        )
        .bind(conversation_id)
        .bind(owner)
        .bind(from_seq)
        .fetch_optional(&mut *tx)
        .await
        .map_err(Error::db(format!("counting a failure of conversation {conversation_id}")))?;
        let Some(attempts) = attempts else {
            return Err(lost_claim(conversation_id));
        };
        let given_up = attempts >= i64::from(max_attempts);
        if given_up {
            sqlx::query(
                "INSERT INTO failed_ranges (conversation_id, from_seq, to_seq, attempts, reason, failed_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
            )
            .bind(conversation_id)
            .bind(from_seq + 1)
            .bind(to_seq)
            .bind(attempts)
            .bind(reason)
            .bind(db_time(now))
            .execute(&mut *tx)
            .await
            .map_err(Error::db(format!("recording a failed range of conversation {conversation_id}")))?;
            sqlx::query("UPDATE conversations SET watermark_seq = $1, attempts = 0 WHERE conversation_id = $2")
                .bind(to_seq)
                .bind(conversation_id)
                .execute(&mut *tx)
                .await
                .map_err(Error::db(format!("passing over a failed range of conversation {conversation_id}")))?;
        }
        tx.commit().await.map_err(Error::db("committing"))?;
        Ok(given_up)
    }

    async fn release_claim(&self, conversation_id: &str, owner: &str) -> Result<()> {
        sqlx::query(
            "UPDATE conversations SET claim_owner = NULL, claim_expires_at = NULL WHERE conversation_id = $1 AND claim_owner = $2",
        )
        .bind(conversation_id)
        .bind(owner)
        .execute(&self.pool)
        .await
        .map_err(Error::db(format!("releasing conversation {conversation_id}")))?;
        Ok(())
    }

    async fn renew_claims(&self, owner: &str, until: Time) -> Result<u64> {
        let mut renewed = 0;
        for sql in [
            "UPDATE conversations SET claim_expires_at = $1 WHERE claim_owner = $2",
            "UPDATE user_claims SET expires_at = $1 WHERE owner = $2",
        ] {
            renewed += sqlx::query(sql)
                .bind(db_time(until))
                .bind(owner)
                .execute(&self.pool)
                .await
                .map_err(Error::db("renewing claims"))?
                .rows_affected();
        }
        Ok(renewed)
    }

    async fn users_with_new_slips(&self, max_attempts: u32) -> Result<Vec<String>> {
        sqlx::query_scalar(super::USERS_WITH_NEW_SLIPS)
            .bind(i64::from(max_attempts))
            .fetch_all(&self.pool)
            .await
            .map_err(Error::db("reading users with new slips"))
    }

    async fn record_user_failure(
        &self,
        user_id: &str,
        newest_slip_id: &str,
        reason: &str,
        now: Time,
    ) -> Result<i64> {
        sqlx::query_scalar(super::RECORD_USER_FAILURE)
            .bind(user_id)
            .bind(newest_slip_id)
            .bind(reason)
            .bind(db_time(now))
            .fetch_one(&self.pool)
            .await
            .map_err(Error::db(format!("counting a failure of user {user_id}")))
    }

    async fn clear_user_failure(&self, user_id: &str) -> Result<()> {
        sqlx::query("DELETE FROM user_failures WHERE user_id = $1")
            .bind(user_id)
            .execute(&self.pool)
            .await
            .map_err(Error::db(format!(
                "clearing the failures of user {user_id}"
            )))?;
        Ok(())
    }

    async fn failed_users(&self, limit: u32) -> Result<Vec<FailedUser>> {
        let rows = sqlx::query(
            "SELECT user_id, attempts, reason, failed_at FROM user_failures ORDER BY failed_at DESC, user_id LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db("reading failed users"))?;
        rows.iter()
            .map(|row| {
                let id: String = get(row, "user_id")?;
                Ok(FailedUser {
                    attempts: get(row, "attempts")?,
                    reason: get(row, "reason")?,
                    failed_at: parse_time(&get::<String>(row, "failed_at")?, "failed_at", &id)?,
                    user_id: id,
                })
            })
            .collect()
    }

    async fn claim_user(&self, user_id: &str, owner: &str, now: Time, until: Time) -> Result<bool> {
        let claimed = sqlx::query(
            "INSERT INTO user_claims (user_id, owner, expires_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at \
             WHERE user_claims.expires_at <= $4 OR user_claims.owner = excluded.owner",
        )
        .bind(user_id)
        .bind(owner)
        .bind(db_time(until))
        .bind(db_time(now))
        .execute(&self.pool)
        .await
        .map_err(Error::db(format!("claiming user {user_id}")))?;
        Ok(claimed.rows_affected() == 1)
    }

    async fn release_user(&self, user_id: &str, owner: &str) -> Result<()> {
        sqlx::query("DELETE FROM user_claims WHERE user_id = $1 AND owner = $2")
            .bind(user_id)
            .bind(owner)
            .execute(&self.pool)
            .await
            .map_err(Error::db(format!("releasing user {user_id}")))?;
        Ok(())
    }

    async fn expiring_memories(&self, now: Time) -> Result<Vec<Memory>> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MEMORY_COLUMNS} FROM memories WHERE status = 'active' AND origin = 'auto' AND expires_at <= $1"
        )))
        .bind(db_time(now))
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db("reading expiring memories"))?
        .iter()
        .map(memory_from_row)
        .collect()
    }

    async fn save_run(&self, run: &RunRecord) -> Result<()> {
        sqlx::query("INSERT INTO runs (run_id, started_at, finished_at, dry_run, summary) VALUES ($1, $2, $3, $4, $5)")
            .bind(&run.run_id)
            .bind(db_time(run.started_at))
            .bind(db_time(run.finished_at))
            .bind(run.dry_run)
            .bind(run.summary.to_string())
            .execute(&self.pool)
            .await
            .map_err(Error::db(format!("saving run {}", run.run_id)))?;
        Ok(())
    }

    async fn recent_runs(&self, limit: u32) -> Result<Vec<RunRecord>> {
        let rows = sqlx::query(
            "SELECT run_id, started_at, finished_at, dry_run, summary FROM runs ORDER BY started_at DESC, run_id DESC LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db("reading runs"))?;
        rows.iter()
            .map(|row| {
                let id: String = get(row, "run_id")?;
                let summary: String = get(row, "summary")?;
                Ok(RunRecord {
                    started_at: parse_time(&get::<String>(row, "started_at")?, "started_at", &id)?,
                    finished_at: parse_time(
                        &get::<String>(row, "finished_at")?,
                        "finished_at",
                        &id,
                    )?,
                    dry_run: get(row, "dry_run")?,
                    summary: serde_json::from_str(&summary)
                        .map_err(|e| Error::Corrupt(format!("summary of run {id}: {e}")))?,
                    run_id: id,
                })
            })
            .collect()
    }

    async fn backlog(&self, window: &Window) -> Result<Backlog> {
        let row = sqlx::query(
            "SELECT count(*) AS eligible, min(last_message_at) AS oldest, \
             (SELECT count(*) FROM conversations WHERE claim_owner IS NOT NULL AND claim_expires_at > $3) AS claims \
             FROM conversations WHERE last_seq > watermark_seq AND last_message_at <= $1 AND last_message_at >= $2 \
             AND (claim_owner IS NULL OR claim_expires_at <= $3)",
        )
        .bind(db_time(window.idle_cutoff))
        .bind(db_time(window.lookback_cutoff))
        .bind(db_time(window.now))
        .fetch_one(&self.pool)
        .await
        .map_err(Error::db("reading the backlog"))?;
        Ok(Backlog {
            eligible: get(&row, "eligible")?,
            oldest_idle: opt_time(get(&row, "oldest")?, "oldest idle", "backlog")?,
            claims_held: get(&row, "claims")?,
        })
    }

    async fn failed_ranges(&self, limit: u32) -> Result<Vec<FailedRange>> {
        let rows = sqlx::query(
            "SELECT conversation_id, from_seq, to_seq, attempts, reason, failed_at FROM failed_ranges \
             ORDER BY failed_at DESC LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db("reading failed ranges"))?;
        rows.iter()
            .map(|row| {
                let id: String = get(row, "conversation_id")?;
                Ok(FailedRange {
                    from_seq: get(row, "from_seq")?,
                    to_seq: get(row, "to_seq")?,
                    attempts: get(row, "attempts")?,
                    reason: get(row, "reason")?,
                    failed_at: parse_time(&get::<String>(row, "failed_at")?, "failed_at", &id)?,
                    conversation_id: id,
                })
            })
            .collect()
    }

    async fn release_claims(&self, owner: &str) -> Result<u64> {
        let mut released = 0;
        for sql in [
            "UPDATE conversations SET claim_owner = NULL, claim_expires_at = NULL WHERE claim_owner = $1",
            "DELETE FROM user_claims WHERE owner = $1",
        ] {
            released += sqlx::query(sql)
                .bind(owner)
                .execute(&self.pool)
                .await
                .map_err(Error::db(format!("releasing the claims of run {owner}")))?
                .rows_affected();
        }
        Ok(released)
    }

    async fn counts(&self) -> Result<Counts> {
        let rows = sqlx::query(
            "SELECT status, origin, count(*) AS n FROM memories GROUP BY status, origin",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db("counting memories"))?;
        let mut memories = std::collections::BTreeMap::new();
        for row in &rows {
            let (status, origin): (String, String) = (get(row, "status")?, get(row, "origin")?);
            memories.insert(format!("{status}/{origin}"), get::<i64>(row, "n")?);
        }
        let suggestions_pending =
            sqlx::query_scalar("SELECT count(*) FROM suggestions WHERE status = 'pending'")
                .fetch_one(&self.pool)
                .await
                .map_err(Error::db("counting suggestions"))?;
        Ok(Counts {
            memories,
            suggestions_pending,
        })
    }

    async fn loads(&self, user_id: &str, conversation_id: Option<&str>) -> Result<Vec<Load>> {
        let rows = sqlx::query(
            "SELECT load_id, user_id, conversation_id, at FROM loads WHERE user_id = $1 AND ($2 IS NULL OR conversation_id = $2) ORDER BY at, load_id",
        )
        .bind(user_id)
        .bind(conversation_id)
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db(format!("reading loads of user {user_id}")))?;
        self.with_load_memories(rows).await
    }

    async fn loads_of_memory(&self, memory_id: &str) -> Result<Vec<Load>> {
        let rows = sqlx::query(
            "SELECT load_id, user_id, conversation_id, at FROM loads \
             WHERE load_id IN (SELECT load_id FROM load_memories WHERE memory_id = $1) ORDER BY at, load_id",
        )
        .bind(memory_id)
        .fetch_all(&self.pool)
        .await
        .map_err(Error::db(format!("reading loads of memory {memory_id}")))?;
        self.with_load_memories(rows).await
    }

    async fn check_source(
        &self,
        user_id: &str,
        conversation_id: &str,
        message_id: Option<&str>,
    ) -> Result<Option<String>> {
        let owner: Option<String> =
            sqlx::query_scalar("SELECT user_id FROM conversations WHERE conversation_id = $1")
                .bind(conversation_id)
                .fetch_optional(&self.pool)
                .await
                .map_err(Error::db(format!("reading conversation {conversation_id}")))?;
        match owner {
            None => return Ok(Some(format!("conversation '{conversation_id}' not found"))),
            Some(owner) if owner != user_id => {
                return Ok(Some(format!(
                    "conversation '{conversation_id}' belongs to another user"
                )));
            }
            Some(_) => {}
        }
        let Some(message_id) = message_id else {
            return Ok(None);
        };
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT seq FROM messages WHERE conversation_id = $1 AND message_id = $2",
        )
        .bind(conversation_id)
        .bind(message_id)
        .fetch_optional(&self.pool)
        .await
        .map_err(Error::db(format!("reading message {message_id}")))?;
        Ok(found.is_none().then(|| {
            format!("message '{message_id}' not found in conversation '{conversation_id}'")
        }))
    }

    async fn purge_user(&self, user_id: &str) -> Result<Vec<(&'static str, u64)>> {
        let mut tx = self.write_tx("starting the purge").await?;
        let mut removed = Vec::new();
        for (table, condition) in super::USER_TABLES {
            let n = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DELETE FROM {table} WHERE {condition}"
            )))
            .bind(user_id)
            .execute(&mut *tx)
            .await
            .map_err(Error::db(format!("purging user {user_id} from {table}")))?
            .rows_affected();
            removed.push((*table, n));
        }
        tx.commit()
            .await
            .map_err(Error::db(format!("committing the purge of user {user_id}")))?;
        Ok(removed)
    }

    async fn purge_slips(&self, before: Time) -> Result<u64> {
        Ok(sqlx::query(super::PURGEABLE_SLIPS)
            .bind(db_time(before))
            .execute(&self.pool)
            .await
            .map_err(Error::db("purging old slips"))?
            .rows_affected())
    }

    async fn conversation_scopes(&self, conversation_id: &str) -> Result<Vec<String>> {
        let scopes: Option<String> =
            sqlx::query_scalar("SELECT scopes FROM conversations WHERE conversation_id = $1")
                .bind(conversation_id)
                .fetch_optional(&self.pool)
                .await
                .map_err(Error::db(format!("reading conversation {conversation_id}")))?;
        scopes
            .map(|s| {
                serde_json::from_str(&s).map_err(|e| {
                    Error::Corrupt(format!("scopes of conversation {conversation_id}: {e}"))
                })
            })
            .transpose()
            .map(Option::unwrap_or_default)
    }
}

/// Evidence slips of memories or suggestions, from the link table `table` keyed by `owner`.
async fn owned_evidence(
    pool: &SqlitePool,
    table: &'static str,
    owner: &'static str,
    owner_ids: &[String],
) -> Result<Vec<(String, Evidence)>> {
    if owner_ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = QueryBuilder::<Sqlite>::new(format!(
        "SELECT e.{owner} AS owner_id, {EVIDENCE_COLUMNS} FROM {table} e JOIN slips s ON s.slip_id = e.slip_id WHERE e.{owner} IN ("
    ));
    let mut ids = query.separated(", ");
    for id in owner_ids {
        ids.push_bind(id.as_str());
    }
    query.push(") ORDER BY s.expressed_at, s.slip_id");
    query
        .build()
        .fetch_all(pool)
        .await
        .map_err(Error::db(format!("reading evidence from {table}")))?
        .iter()
        .map(evidence_from_row)
        .collect()
}
