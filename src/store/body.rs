// The one implementation of `Store`, written once and compiled once per
// backend: `sqlite.rs` and `postgres.rs` each include this file in a module
// where `Db` is their sqlx database, `Backend` their store type and
// `dialect` the few places where their SQL differs (how a write transaction
// begins, how a list of ids is bound, row locks, the claim statement, JSON
// editing). Column types agree through `DbTime` and `Json`.

use crate::domain::{
    Event, Evidence, Load, LoadedMemory, Memory, NewMessage, Slip, StoredMessage, Suggestion, Time,
    Tombstone, Write,
};
use crate::error::{Error, Result};
use crate::store::rows::{
    CandidateRow, EVENT_COLUMNS, EventRow, MEMORY_COLUMNS, MemoryRow, SLIP_COLUMNS,
    SUGGESTION_COLUMNS, SlipRow,
    SuggestionRow, TombstoneRow, parse,
};
use crate::store::time::DbTime;
use crate::select::{Candidate, ConversationMessages, Window};
use crate::store::{
    Backlog, Candidates, ConversationRecord, CopiedProgress, Counts, FailedRange, FailedUser,
    IngestWritten, RecallCandidate,
    MessageSource, RunRecord, SchemaState, Store,
    changed_since_read, lost_claim, stale_memory, stale_suggestion,
};
use sqlx::types::Json;
use sqlx::{AssertSqlSafe, Execute, QueryBuilder};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

type Tx<'c> = sqlx::Transaction<'c, Db>;
type Conn = <Db as sqlx::Database>::Connection;
type Args = <Db as sqlx::Database>::Arguments;
type Query<'q> = sqlx::query::Query<'q, Db, Args>;
type QueryAs<'q, R> = sqlx::query::QueryAs<'q, Db, R, Args>;

/// `(SELECT value FROM …($n))`: the ids bound as one JSON array at `$n`.
fn ids_at(param: &str) -> String {
    format!("(SELECT value FROM {}({param}))", dialect::EACH)
}

/// A list of ids as the one JSON parameter [`ids_at`] reads.
fn ids(list: &[String]) -> Json<&[String]> {
    Json(list)
}

fn sql(text: String) -> AssertSqlSafe<String> {
    AssertSqlSafe(text)
}

/// `LIMIT n` written into the statement, never bound: SQLite plans a bound
/// LIMIT from its value, so binding it again marks the prepared statement
/// expired and the next step parses and plans it anew — on every execution,
/// since sqlx binds afresh. Stage one reads each conversation with such a
/// statement: that was a tenth of a run's CPU. An integer cannot inject SQL.
fn limit(n: impl TryInto<i64>) -> String {
    format!("LIMIT {}", n.try_into().unwrap_or(i64::MAX))
}

/// Runs a statement; `what` names it in the error.
async fn exec(conn: &mut Conn, query: Query<'_>, what: &str) -> Result<u64> {
    Ok(query.execute(conn).await.map_err(Error::db(what.to_owned()))?.rows_affected())
}

/// Every row of `query`, each made into a `T` by `make`.
async fn all<R, T>(
    conn: &mut Conn,
    query: QueryAs<'_, R>,
    what: &str,
    make: impl FnMut(R) -> Result<T>,
) -> Result<Vec<T>>
where
    R: for<'r> sqlx::FromRow<'r, <Db as sqlx::Database>::Row> + Send + Unpin,
{
    let rows = query.fetch_all(conn).await.map_err(Error::db(what.to_owned()))?;
    rows.into_iter().map(make).collect()
}

/// A write transaction on `conn` (from [`Backend::writer`]), begun as the
/// backend begins writes.
async fn begin_write<'c>(conn: &'c mut Conn, what: &str) -> Result<Tx<'c>> {
    dialect::begin_write(conn).await.map_err(Error::db(what.to_owned()))
}

impl Backend {
    /// The connection to write through, in a transaction ([`begin_write`])
    /// or with one statement.
    async fn writer(&self) -> Result<impl std::ops::DerefMut<Target = Conn> + '_> {
        dialect::writer(&self.writer).await.map_err(Error::db("waiting for the database's writer"))
    }

    /// The user's stamp (migration 0009), read before the candidates so
    /// that what is kept under it is never older than it; `None` for a user
    /// who never had a memory, whose candidates are then not kept.
    async fn memory_stamp(&self, user_id: &str) -> Result<Option<i64>> {
        let query =
            sqlx::query_as::<_, (i64,)>("SELECT stamp FROM memory_stamps WHERE user_id = $1")
                .bind(user_id);
        let what = format!("reading the memory stamp of user {user_id}");
        Ok(self.read(query, &what, |(stamp,)| Ok(stamp)).await?.pop())
    }

    /// The user's active memories in `scopes` with their evidence, as one
    /// row of JSON arrays (`[[memory columns…], [[evidence]…]]`): one
    /// handoff from the database instead of one per memory and per slip,
    /// which cost more than the query itself on SQLite.
    async fn read_recall_candidates(
        &self,
        user_id: &str,
        scopes: &[String],
    ) -> Result<Candidates> {
        let (array, agg) = (dialect::JSON_ARRAY, dialect::JSON_ARRAY_AGG);
        let as_json = dialect::AS_JSON;
        let columns: Vec<String> = MEMORY_COLUMNS.split(", ").map(|c| format!("m.{c}")).collect();
        let query = sqlx::query_scalar::<_, Json<Vec<CandidateRow>>>(sql(format!(
            "SELECT coalesce({agg}({array}({array}({}), {as_json}((SELECT coalesce({agg}(\
             {array}(s.slip_id, s.conversation_id, s.message_id, s.quote, s.expressed_at) \
             ORDER BY s.expressed_at, s.slip_id), '[]') \
             FROM memory_evidence e JOIN slips s ON s.slip_id = e.slip_id \
             WHERE e.memory_id = m.memory_id))) ORDER BY m.created_at, m.memory_id), '[]') \
             FROM memories m WHERE m.user_id = $1 AND m.status = 'active' AND m.scope IN {}",
            columns.join(", "),
            ids_at("$2")
        )))
        .bind(user_id)
        .bind(ids(scopes));
        let what = format!("reading the recall candidates of user {user_id}");
        let Json(rows) =
            query.fetch_one(&mut *self.conn().await?).await.map_err(Error::db(what))?;
        rows.into_iter()
            .map(|CandidateRow(memory, evidence)| {
                let evidence = evidence.into_iter().map(Evidence::from).collect();
                Ok(RecallCandidate::new(Memory::try_from(memory)?, evidence))
            })
            .collect()
    }

    /// A connection for reads.
    async fn conn(&self) -> Result<sqlx::pool::PoolConnection<Db>> {
        self.pool.acquire().await.map_err(Error::db("getting a database connection"))
    }

    /// Every row of `query` on a pooled connection, each made into a `T`.
    async fn read<R, T>(
        &self,
        query: QueryAs<'_, R>,
        what: &str,
        make: impl FnMut(R) -> Result<T>,
    ) -> Result<Vec<T>>
    where
        R: for<'r> sqlx::FromRow<'r, <Db as sqlx::Database>::Row> + Send + Unpin,
    {
        all(&mut *self.conn().await?, query, what, make).await
    }

    /// Loads as rows of (load, memory, version), one per memory, in order.
    async fn read_loads(&self, condition: &str, key: &str) -> Result<Vec<Load>> {
        type LoadRow = (String, String, String, DbTime, Option<String>, Option<i64>);
        let query = sqlx::query_as::<_, LoadRow>(sql(format!(
            "SELECT l.load_id, l.user_id, l.conversation_id, l.at, m.memory_id, m.version \
             FROM loads l LEFT JOIN load_memories m ON m.load_id = l.load_id \
             WHERE {condition} ORDER BY l.at, l.load_id, m.position"
        )))
        .bind(key);
        let rows = self.read(query, &format!("reading loads of {key}"), Ok).await?;
        let mut loads: Vec<Load> = Vec::new();
        for (load_id, user_id, conversation_id, at, memory_id, version) in rows {
            if loads.last().is_none_or(|l| l.load_id != load_id) {
                let memories = Vec::new();
                let at = at.0;
                loads.push(Load { load_id, user_id, conversation_id, at, memories });
            }
            if let (Some(memory_id), Some(version), Some(load)) =
                (memory_id, version, loads.last_mut())
            {
                load.memories.push(LoadedMemory { memory_id, version });
            }
        }
        Ok(loads)
    }

    /// Evidence slips of memories or suggestions, from the link table `table` keyed by `owner`.
    async fn owned_evidence(
        &self,
        table: &str,
        owner: &str,
        owner_ids: &[String],
    ) -> Result<Vec<(String, Evidence)>> {
        type EvidenceRow = (String, String, String, String, Option<String>, DbTime);
        let query = sqlx::query_as::<_, EvidenceRow>(sql(format!(
            "SELECT e.{owner}, s.slip_id, s.conversation_id, s.message_id, s.quote, s.expressed_at \
             FROM {table} e JOIN slips s ON s.slip_id = e.slip_id WHERE e.{owner} IN {} \
             ORDER BY s.expressed_at, s.slip_id",
            ids_at("$1")
        )))
        .bind(ids(owner_ids));
        let what = format!("reading evidence from {table}");
        self.read(query, &what, |(owner, slip_id, conversation_id, message_id, quote, at)| {
            let expressed_at = at.0;
            Ok((owner, Evidence { slip_id, conversation_id, message_id, quote, expressed_at }))
        })
        .await
    }

    async fn memories_where<'q, K>(&self, condition: &str, key: K) -> Result<Vec<Memory>>
    where
        K: 'q + Send + sqlx::Encode<'q, Db> + sqlx::Type<Db>,
    {
        let query = sqlx::query_as::<_, MemoryRow>(sql(format!(
            "SELECT {MEMORY_COLUMNS} FROM memories WHERE {condition} ORDER BY created_at, memory_id"
        )))
        .bind(key);
        self.read(query, &format!("reading memories where {condition}"), Memory::try_from).await
    }

    async fn suggestions_where(&self, condition: &str, key: &str) -> Result<Vec<Suggestion>> {
        let query = sqlx::query_as::<_, SuggestionRow>(sql(format!(
            "SELECT {SUGGESTION_COLUMNS} FROM suggestions WHERE {condition} ORDER BY created_at, suggestion_id"
        )))
        .bind(key);
        self.read(query, &format!("reading suggestions of {key}"), Suggestion::try_from).await
    }
}

/// The lines of `batch` whose conversation is already stored under another
/// user, checking each conversation once (`checked`).
async fn foreign_conversations(
    conn: &mut Conn,
    batch: &[NewMessage],
    checked: &mut HashSet<String>,
) -> Result<Vec<(usize, String)>> {
    let unchecked: Vec<&NewMessage> =
        batch.iter().filter(|m| checked.insert(m.conversation_id.clone())).collect();
    if unchecked.is_empty() {
        return Ok(Vec::new());
    }
    let conversation_ids: Vec<String> =
        unchecked.iter().map(|m| m.conversation_id.clone()).collect();
    let query = sqlx::query_as::<_, (String, String)>(sql(format!(
        "SELECT conversation_id, user_id FROM conversations WHERE conversation_id IN {}",
        ids_at("$1")
    )))
    .bind(ids(&conversation_ids));
    let owners: HashMap<String, String> =
        all(conn, query, "reading conversation owners", Ok).await?.into_iter().collect();
    Ok(unchecked
        .iter()
        .filter_map(|m| {
            let owner = owners.get(&m.conversation_id)?;
            let why = format!(
                "conversation '{}' already belongs to user '{owner}', not '{}'",
                m.conversation_id, m.user_id
            );
            (owner != &m.user_id).then_some((m.line, why))
        })
        .collect())
}

/// Inserts the batch, skipping stored messages; counts the new ones, and
/// notes the lines whose message was stored with other content.
async fn insert_messages(
    conn: &mut Conn,
    batch: &[NewMessage],
    written: &mut IngestWritten,
) -> Result<()> {
    for chunk in batch.chunks(dialect::ROWS_PER_INSERT) {
        let mut query = QueryBuilder::<Db>::new(
            "INSERT INTO messages (conversation_id, message_id, user_id, role, content, created_at) ",
        );
        query.push_values(chunk, |mut row, m| {
            row.push_bind(m.conversation_id.as_str())
                .push_bind(m.message_id.as_str())
                .push_bind(m.user_id.as_str())
                .push_bind(m.role.as_str())
                .push_bind(m.content.as_str())
                .push_bind(DbTime(m.created_at));
        });
        query.push(" ON CONFLICT (conversation_id, message_id) DO NOTHING");
        let what = format!("inserting messages from line {}", chunk[0].line);
        let inserted = exec(conn, query.build(), &what).await?;
        written.messages_new += inserted;
        if inserted < chunk.len() as u64 {
            written.conflicting_lines.extend(differing_from_stored(conn, chunk).await?);
        }
    }
    Ok(())
}

/// The lines of `chunk` whose message is stored with other content (an
/// agent that regenerated a message under its id): a line sent again as it
/// was is a duplicate, this is not, and the caller says so.
async fn differing_from_stored(conn: &mut Conn, chunk: &[NewMessage]) -> Result<Vec<usize>> {
    let message_ids: Vec<String> = chunk.iter().map(|m| m.message_id.clone()).collect();
    let query = sqlx::query_as::<_, (String, String, String)>(sql(format!(
        "SELECT conversation_id, message_id, content FROM messages WHERE message_id IN {}",
        ids_at("$1")
    )))
    .bind(ids(&message_ids));
    let stored: HashMap<(String, String), String> = query
        .fetch_all(&mut *conn)
        .await
        .map_err(Error::db(format!("reading stored messages from line {}", chunk[0].line)))?
        .into_iter()
        .map(|(conversation, message, content)| ((conversation, message), content))
        .collect();
    Ok(chunk
        .iter()
        .filter(|m| {
            stored
                .get(&(m.conversation_id.clone(), m.message_id.clone()))
                .is_some_and(|content| *content != m.content)
        })
        .map(|m| m.line)
        .collect())
}

/// Moves a conversation's watermark from `$3` to `$1` and resets its failed
/// attempts, releasing its claim when `$5`, only while `$4` holds the claim
/// (compare-and-set): stage one's commit.
const ADVANCE: &str = "UPDATE conversations SET watermark_seq = $1, attempts = 0, \
     claim_owner = CASE WHEN $5 THEN NULL ELSE claim_owner END, \
     claim_expires_at = CASE WHEN $5 THEN NULL ELSE claim_expires_at END \
     WHERE conversation_id = $2 AND watermark_seq = $3 AND claim_owner = $4";

/// [`ADVANCE`] changed `rows`: none means the claim was lost, and the
/// statement wrote nothing.
fn claim_held(rows: u64, conversation_id: &str) -> Result<()> {
    if rows == 0 { Err(lost_claim(conversation_id)) } else { Ok(()) }
}

/// Inserts `slips` in as few statements as the backend's parameter limit
/// allows: a conversation's or a copied user's slips, one round trip each.
async fn insert_slips(conn: &mut Conn, slips: &[&Slip]) -> Result<()> {
    for chunk in slips.chunks(dialect::ROWS_PER_INSERT) {
        let mut query = QueryBuilder::<Db>::new(format!("INSERT INTO slips ({SLIP_COLUMNS}) "));
        push_slip_rows(&mut query, chunk);
        let what = format!("inserting {} slips from slip {}", chunk.len(), chunk[0].slip_id);
        exec(conn, query.build(), &what).await?;
    }
    Ok(())
}

/// `VALUES (…), (…)`: one row of [`SLIP_COLUMNS`], in its order, per slip.
fn push_slip_rows(query: &mut QueryBuilder<Db>, slips: &[&Slip]) {
    query.push_values(slips, |mut row, s| {
        row.push_bind(s.slip_id.as_str())
            .push_bind(s.user_id.as_str())
            .push_bind(s.conversation_id.as_str())
            .push_bind(s.message_id.as_str())
            .push_bind(s.kind.as_str())
            .push_bind(s.scope.as_str())
            .push_bind(s.durability.as_str())
            .push_bind(s.valid_until.map(DbTime))
            .push_bind(s.content.as_deref())
            .push_bind(s.quote.as_deref())
            .push_bind(DbTime(s.expressed_at))
            .push_bind(s.state.as_str())
            .push_bind(s.run_id.as_deref());
    });
}

/// Adds scopes given at ingest to their conversations.
async fn add_conversation_scopes(
    conn: &mut Conn,
    scopes: HashMap<String, BTreeSet<String>>,
) -> Result<()> {
    for (conversation_id, new_scopes) in scopes {
        let what = format!("merging the scopes of conversation {conversation_id}");
        let Json(mut all): Json<BTreeSet<String>> =
            sqlx::query_scalar("SELECT scopes FROM conversations WHERE conversation_id = $1")
                .bind(&conversation_id)
                .fetch_one(&mut *conn)
                .await
                .map_err(Error::db(what.clone()))?;
        all.extend(new_scopes);
        let update = sqlx::query("UPDATE conversations SET scopes = $1 WHERE conversation_id = $2")
            .bind(Json(&all))
            .bind(&conversation_id);
        exec(conn, update, &what).await?;
    }
    Ok(())
}

/// `INSERT INTO {table} (key, slip_id)`: links `slip_ids` to `key`.
fn link_slips<'q>(table: &str, key: &'q str, slip_ids: &'q [String]) -> Query<'q> {
    let (column, each) =
        (if table == "memory_evidence" { "memory_id" } else { "suggestion_id" }, dialect::EACH);
    sqlx::query(sql(format!(
        "INSERT INTO {table} ({column}, slip_id) SELECT $1, value FROM {each}($2) WHERE true ON CONFLICT DO NOTHING"
    )))
    .bind(key)
    .bind(ids(slip_ids))
}

async fn apply_one(conn: &mut Conn, write: &Write) -> Result<()> {
    let what = format!("applying {}", write.describe());
    let what = what.as_str();
    match write {
        Write::InsertMemory(m) => {
            let insert = sqlx::query(
                "INSERT INTO memories (memory_id, user_id, kind, scope, origin, status, version, content, created_at, \
                 updated_at, expires_at, source_conversation_id, source_message_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            )
            .bind(&m.memory_id)
            .bind(&m.user_id)
            .bind(m.kind.as_str())
            .bind(m.scope.as_str())
            .bind(m.origin.as_str())
            .bind(m.status.as_str())
            .bind(m.version)
            .bind(&m.content)
            .bind(DbTime(m.created_at))
            .bind(DbTime(m.updated_at))
            .bind(m.expires_at.map(DbTime))
            .bind(&m.source_conversation_id)
            .bind(&m.source_message_id);
            exec(conn, insert, what).await?;
        }
        Write::UpdateMemory { memory: m, expected_version } => {
            let update = sqlx::query(
                "UPDATE memories SET kind = $1, scope = $2, origin = $3, status = $4, version = $5, content = $6, \
                 updated_at = $7, expires_at = $8 WHERE memory_id = $9 AND version = $10",
            )
            .bind(m.kind.as_str())
            .bind(m.scope.as_str())
            .bind(m.origin.as_str())
            .bind(m.status.as_str())
            .bind(m.version)
            .bind(&m.content)
            .bind(DbTime(m.updated_at))
            .bind(m.expires_at.map(DbTime))
            .bind(&m.memory_id)
            .bind(expected_version);
            if exec(conn, update, what).await? == 0 {
                return Err(stale_memory(&m.memory_id, *expected_version));
            }
        }
        Write::AddEvidence { memory_id, slip_ids } => {
            exec(conn, link_slips("memory_evidence", memory_id, slip_ids), what).await?;
        }
        Write::ReplaceEvidence { memory_id, slip_ids } => {
            let clear =
                sqlx::query("DELETE FROM memory_evidence WHERE memory_id = $1").bind(memory_id);
            exec(conn, clear, what).await?;
            exec(conn, link_slips("memory_evidence", memory_id, slip_ids), what).await?;
        }
        Write::InsertEvent(e) => {
            let insert = sqlx::query(
                "INSERT INTO memory_events (event_id, memory_id, at, actor, action, run_id, slip_ids, \
                 superseded_slip_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(&e.event_id)
            .bind(&e.memory_id)
            .bind(DbTime(e.at))
            .bind(e.actor.as_str())
            .bind(&e.action)
            .bind(&e.run_id)
            .bind(Json(&e.slip_ids))
            .bind(Json(&e.superseded_slip_ids))
            .bind(e.before.as_ref().map(Json))
            .bind(e.after.as_ref().map(Json));
            exec(conn, insert, what).await?;
        }
        Write::EraseText { memory_id, slip_ids, suggestion_ids, at } => {
            for statement in dialect::ERASE_EVENT_TEXTS {
                exec(conn, sqlx::query(statement).bind(memory_id), what).await?;
            }
            let embeddings =
                sqlx::query("DELETE FROM memory_embeddings WHERE memory_id = $1").bind(memory_id);
            exec(conn, embeddings, what).await?;
            let erase_slips = sqlx::query(sql(format!(
                "UPDATE slips SET content = NULL, quote = NULL, state = 'erased' WHERE slip_id IN {} \
                 OR slip_id IN (SELECT slip_id FROM memory_evidence WHERE memory_id = $1)",
                ids_at("$2")
            )));
            exec(conn, erase_slips.bind(memory_id).bind(ids(slip_ids)), what).await?;
            let withdraw = sqlx::query(sql(format!(
                "UPDATE suggestions SET content = NULL, \
                 decided_at = CASE WHEN status = 'pending' THEN $2 ELSE decided_at END, \
                 status = CASE WHEN status = 'pending' THEN 'withdrawn' ELSE status END \
                 WHERE memory_id = $1 OR suggestion_id IN {}",
                ids_at("$3")
            )));
            let withdraw = withdraw.bind(memory_id).bind(DbTime(*at)).bind(ids(suggestion_ids));
            exec(conn, withdraw, what).await?;
        }
        Write::ExpectUserClaim { user_id, owner, now } => {
            let held = sqlx::query_as::<_, (String,)>(sql(format!(
                "SELECT owner FROM user_claims WHERE user_id = $1 AND owner = $2 AND expires_at > $3{}",
                dialect::FOR_UPDATE
            )))
            .bind(user_id)
            .bind(owner)
            .bind(DbTime(*now));
            if all(conn, held, what, Ok).await?.is_empty() {
                return Err(changed_since_read(&format!("the claim on user {user_id}")));
            }
        }
        Write::ExpectMemories { user_id, versions, tombstones } => {
            let found = sqlx::query_as::<_, (String, i64)>(sql(format!(
                "SELECT memory_id, version FROM memories WHERE user_id = $1 ORDER BY memory_id{}",
                dialect::FOR_UPDATE
            )))
            .bind(user_id);
            let found = all(conn, found, what, Ok).await?;
            let buried =
                sqlx::query_as::<_, (i64,)>("SELECT count(*) FROM tombstones WHERE user_id = $1")
                    .bind(user_id);
            let buried = all(conn, buried, what, |(n,)| Ok(n)).await?;
            if !crate::store::same_versions(found, versions) || buried != [*tombstones] {
                return Err(changed_since_read(&format!("the memories of user {user_id}")));
            }
        }
        Write::ExpectSlipsLive { user_id, slip_ids } => {
            let live = sqlx::query_as::<_, (String,)>(sql(format!(
                "SELECT slip_id FROM slips WHERE user_id = $1 AND state <> 'erased' AND slip_id IN {}{}",
                ids_at("$2"),
                dialect::FOR_UPDATE
            )))
            .bind(user_id)
            .bind(ids(slip_ids));
            if all(conn, live, what, Ok).await?.len() != slip_ids.len() {
                return Err(changed_since_read(&format!("the slips of user {user_id}")));
            }
        }
        Write::InsertTombstone(t) => {
            let insert = sqlx::query(
                "INSERT INTO tombstones (memory_id, user_id, kind, scope, deleted_at, fingerprint) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&t.memory_id)
            .bind(&t.user_id)
            .bind(t.kind.as_str())
            .bind(t.scope.as_str())
            .bind(DbTime(t.deleted_at))
            .bind(&t.fingerprint);
            exec(conn, insert, what).await?;
        }
        Write::InsertSlip(s) => insert_slips(conn, &[s]).await?,
        Write::InsertSuggestion { suggestion: s, slip_ids } => {
            let insert = sqlx::query(
                "INSERT INTO suggestions (suggestion_id, user_id, op, kind, scope, content, memory_id, \
                 target_version, status, created_at, decided_at) \
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
            .bind(DbTime(s.created_at))
            .bind(s.decided_at.map(DbTime));
            exec(conn, insert, what).await?;
            let link = link_slips("suggestion_evidence", &s.suggestion_id, slip_ids);
            exec(conn, link, what).await?;
        }
        Write::AddSuggestionEvidence { suggestion_id, slip_ids } => {
            exec(conn, link_slips("suggestion_evidence", suggestion_id, slip_ids), what).await?;
        }
        Write::SetSlipStates { slip_ids, state } => {
            let update = sqlx::query(sql(format!(
                "UPDATE slips SET state = $1 WHERE state <> 'erased' AND slip_id IN {}",
                ids_at("$2")
            )));
            exec(conn, update.bind(state.as_str()).bind(ids(slip_ids)), what).await?;
        }
        Write::InsertLoad(load) => {
            let insert = sqlx::query(
                "INSERT INTO loads (load_id, user_id, conversation_id, at) VALUES ($1, $2, $3, $4)",
            )
            .bind(&load.load_id)
            .bind(&load.user_id)
            .bind(&load.conversation_id)
            .bind(DbTime(load.at));
            exec(conn, insert, what).await?;
            for (position, m) in load.memories.iter().enumerate() {
                let insert = sqlx::query(
                    "INSERT INTO load_memories (load_id, memory_id, version, position) VALUES ($1, $2, $3, $4)",
                )
                .bind(&load.load_id)
                .bind(&m.memory_id)
                .bind(m.version)
                .bind(position as i64);
                exec(conn, insert, what).await?;
            }
        }
        Write::SaveEmbedding { memory_id, version, model, vector } => {
            let save = sqlx::query(
                "INSERT INTO memory_embeddings (memory_id, model, version, vector) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (memory_id, model) DO UPDATE SET version = excluded.version, vector = excluded.vector \
                 WHERE memory_embeddings.version < excluded.version",
            )
            .bind(memory_id)
            .bind(model)
            .bind(version)
            .bind(crate::store::vector_bytes(vector));
            exec(conn, save, what).await?;
        }
        Write::DecideSuggestion { suggestion_id, status, decided_at, memory_id } => {
            let decide = sqlx::query(
                "UPDATE suggestions SET status = $1, decided_at = $2, memory_id = COALESCE($4, memory_id) \
                 WHERE suggestion_id = $3 AND status = 'pending'",
            )
            .bind(status.as_str())
            .bind(DbTime(*decided_at))
            .bind(suggestion_id)
            .bind(memory_id);
            if exec(conn, decide, what).await? == 0 {
                return Err(stale_suggestion(suggestion_id));
            }
        }
    }
    Ok(())
}

/// Conversations with unprocessed messages all before the window (not claimed by a live run).
const OUT_OF_WINDOW: &str = "FROM conversations c WHERE c.last_seq > c.watermark_seq AND c.last_message_at < $1 \
     AND (c.claim_owner IS NULL OR c.claim_expires_at <= $2)";

impl Store for Backend {
    async fn ingest(&self, source: &mut (dyn MessageSource + Send)) -> Result<IngestWritten> {
        let mut writer = self.writer().await?;
        let mut tx = begin_write(&mut writer, "starting the ingest").await?;
        let mut checked = HashSet::new();
        let mut scopes: HashMap<String, BTreeSet<String>> = HashMap::new();
        let mut written = IngestWritten::default();
        let mut rejected = false;
        while let Some(batch) = source.next_batch()? {
            for (line, reason) in foreign_conversations(&mut tx, &batch, &mut checked).await? {
                source.reject(line, reason);
                rejected = true;
            }
            if rejected {
                continue;
            }
            insert_messages(&mut tx, &batch, &mut written).await?;
            for m in batch.iter().filter(|m| !m.scopes.is_empty()) {
                let entry = scopes.entry(m.conversation_id.clone()).or_default();
                entry.extend(m.scopes.iter().map(|s| s.as_str().to_owned()));
            }
        }
        source.finish()?;
        add_conversation_scopes(&mut tx, scopes).await?;
        tx.commit().await.map_err(Error::db("committing the ingest"))?;
        Ok(written)
    }

    async fn apply(&self, writes: Vec<Write>) -> Result<()> {
        let mut writer = self.writer().await?;
        let mut tx = begin_write(&mut writer, "starting a transaction").await?;
        // Slips in a row (a copied user's) go in one statement per chunk.
        let slips_in_a_row =
            |a: &Write, b: &Write| matches!((a, b), (Write::InsertSlip(_), Write::InsertSlip(_)));
        for run in writes.chunk_by(slips_in_a_row) {
            if let [Write::InsertSlip(_), _, ..] = run {
                let slips: Vec<&Slip> = run
                    .iter()
                    .filter_map(|w| if let Write::InsertSlip(s) = w { Some(s) } else { None })
                    .collect();
                insert_slips(&mut tx, &slips).await?;
            } else {
                for write in run {
                    apply_one(&mut tx, write).await?;
                }
            }
        }
        tx.commit().await.map_err(Error::db("committing"))?;
        if writes.iter().any(|w| matches!(w, Write::EraseText { .. })) {
            dialect::after_erasing(&self.writer, &mut writer).await;
        }
        Ok(())
    }

    async fn memory(&self, memory_id: &str) -> Result<Option<Memory>> {
        Ok(self.memories_where("memory_id = $1", memory_id).await?.pop())
    }

    async fn memories(&self, user_id: &str) -> Result<Vec<Memory>> {
        self.memories_where("user_id = $1", user_id).await
    }

    async fn evidence(&self, memory_ids: &[String]) -> Result<Vec<(String, Evidence)>> {
        self.owned_evidence("memory_evidence", "memory_id", memory_ids).await
    }

    fn keeping_recall_candidates(self) -> Self {
        Backend { recall_cache: Some(Arc::default()), ..self }
    }

    fn keeps_recall_candidates(&self) -> bool {
        self.recall_cache.is_some()
    }

    async fn recall_candidates(&self, user_id: &str, scopes: &[String]) -> Result<Candidates> {
        let Some(cache) = &self.recall_cache else {
            return self.read_recall_candidates(user_id, scopes).await;
        };
        let stamp = self.memory_stamp(user_id).await?;
        if let Some(kept) = stamp.and_then(|stamp| cache.get(user_id, scopes, stamp)) {
            return Ok(kept);
        }
        let candidates = self.read_recall_candidates(user_id, scopes).await?;
        if let Some(stamp) = stamp {
            cache.put(user_id, scopes, stamp, candidates.clone());
        }
        Ok(candidates)
    }

    async fn recall_first(
        &self,
        user_id: &str,
        scopes: &[String],
        now: Time,
        limit: usize,
    ) -> Result<Vec<Memory>> {
        let query = sqlx::query_as::<_, MemoryRow>(sql(format!(
            "SELECT {MEMORY_COLUMNS} FROM memories WHERE user_id = $1 AND status = 'active' \
             AND scope IN {} AND (expires_at IS NULL OR expires_at > $3) \
             ORDER BY CASE WHEN scope LIKE 'project:%' THEN 0 WHEN scope LIKE 'domain:%' THEN 1 ELSE 2 END, \
             CASE WHEN origin = 'explicit' THEN 0 ELSE 1 END, updated_at DESC, memory_id {}",
            ids_at("$2"),
            self::limit(limit)
        )))
        .bind(user_id)
        .bind(ids(scopes))
        .bind(DbTime(now));
        let what = format!("reading the first memories of user {user_id} for recall");
        self.read(query, &what, Memory::try_from).await
    }

    async fn embeddings(&self, user_id: &str, model: &str) -> Result<Vec<(String, Vec<f32>)>> {
        let query = sqlx::query_as::<_, (String, Vec<u8>)>(
            "SELECT e.memory_id, e.vector FROM memories m \
             JOIN memory_embeddings e ON e.memory_id = m.memory_id AND e.version = m.version \
             WHERE m.user_id = $1 AND m.status = 'active' AND e.model = $2 ORDER BY e.memory_id",
        )
        .bind(user_id)
        .bind(model);
        self.read(query, &format!("reading the embeddings of user {user_id}"), |(id, bytes)| {
            let vector = crate::store::vector_from_bytes(&bytes).ok_or_else(|| {
                Error::Corrupt(format!("the embedding of memory {id} is not whole 32-bit floats"))
            })?;
            Ok((id, vector))
        })
        .await
    }

    async fn memories_to_embed(&self, model: &str, limit: u32) -> Result<Vec<Memory>> {
        let query = sqlx::query_as::<_, MemoryRow>(sql(format!(
            "SELECT {MEMORY_COLUMNS} FROM memories m WHERE m.status = 'active' AND m.content IS NOT NULL \
             AND NOT EXISTS (SELECT 1 FROM memory_embeddings e \
             WHERE e.memory_id = m.memory_id AND e.model = $1 AND e.version = m.version) \
             ORDER BY m.updated_at DESC, m.memory_id {}",
            self::limit(limit)
        )))
        .bind(model);
        self.read(query, "reading memories to embed", Memory::try_from).await
    }

    async fn history(&self, memory_id: &str) -> Result<Vec<Event>> {
        let query = sqlx::query_as::<_, EventRow>(sql(format!(
            "SELECT {EVENT_COLUMNS} FROM memory_events WHERE memory_id = $1 ORDER BY at, event_id"
        )))
        .bind(memory_id);
        self.read(query, &format!("reading history of memory {memory_id}"), Event::try_from).await
    }

    async fn suggestion(&self, suggestion_id: &str) -> Result<Option<Suggestion>> {
        Ok(self.suggestions_where("suggestion_id = $1", suggestion_id).await?.pop())
    }

    async fn suggestions(&self, user_id: &str) -> Result<Vec<Suggestion>> {
        self.suggestions_where("user_id = $1", user_id).await
    }

    async fn suggestion_evidence(
        &self,
        suggestion_ids: &[String],
    ) -> Result<Vec<(String, Evidence)>> {
        self.owned_evidence("suggestion_evidence", "suggestion_id", suggestion_ids).await
    }

    async fn slips(&self, user_id: &str, conversation_id: Option<&str>) -> Result<Vec<Slip>> {
        let query = sqlx::query_as::<_, SlipRow>(sql(format!(
            "SELECT {SLIP_COLUMNS} FROM slips WHERE user_id = $1 AND ($2 IS NULL OR conversation_id = $2) \
             ORDER BY expressed_at, slip_id"
        )))
        .bind(user_id)
        .bind(conversation_id);
        self.read(query, &format!("reading slips of user {user_id}"), Slip::try_from).await
    }

    async fn tombstones(&self, user_id: &str) -> Result<Vec<Tombstone>> {
        let query = sqlx::query_as::<_, TombstoneRow>(
            "SELECT memory_id, user_id, kind, scope, deleted_at, fingerprint FROM tombstones \
             WHERE user_id = $1 ORDER BY deleted_at",
        )
        .bind(user_id);
        self.read(query, &format!("reading tombstones of user {user_id}"), Tombstone::try_from)
            .await
    }

    async fn conversation_texts(
        &self,
        user_id: &str,
        since: Time,
        context: u32,
    ) -> Result<Vec<String>> {
        // `low`: the seq of the oldest message stage one may have shown as
        // context before the conversation's first message since `since`.
        let low = match context {
            0 => "f.first".to_owned(),
            n => format!(
                "coalesce((SELECT b.seq FROM messages b WHERE b.conversation_id = f.conversation_id \
                 AND b.seq < f.first ORDER BY b.seq DESC LIMIT 1 OFFSET {}), 0)",
                n - 1
            ),
        };
        let query = sqlx::query_as::<_, (String,)>(sql(format!(
            "WITH firsts AS (SELECT conversation_id, min(seq) AS first FROM messages \
             WHERE created_at >= $2 AND conversation_id IN (SELECT conversation_id \
             FROM conversations WHERE user_id = $1 AND last_message_at >= $2) \
             GROUP BY conversation_id), \
             bounds AS (SELECT f.conversation_id, {low} AS low FROM firsts f) \
             SELECT m.content FROM messages m JOIN bounds w ON w.conversation_id = m.conversation_id \
             WHERE m.seq >= w.low ORDER BY m.seq"
        )))
        .bind(user_id)
        .bind(DbTime(since));
        let what = format!("reading the conversations of user {user_id}");
        self.read(query, &what, |(text,)| Ok(text)).await
    }

    async fn skip_out_of_window(&self, window: &Window, count_only: bool) -> Result<u64> {
        let mut writer = self.writer().await?;
        let mut tx = begin_write(&mut writer, "starting a transaction").await?;
        let count = sqlx::query_as::<_, (i64,)>(sql(format!(
            "SELECT count(*) FROM messages m WHERE m.conversation_id IN (SELECT c.conversation_id {OUT_OF_WINDOW}) \
             AND m.seq > (SELECT watermark_seq FROM conversations WHERE conversation_id = m.conversation_id)"
        )))
        .bind(DbTime(window.lookback_cutoff))
        .bind(DbTime(window.now));
        let skipped =
            all(&mut tx, count, "counting messages before the window", |(n,)| Ok(n)).await?;
        if !count_only {
            let pass = sqlx::query(sql(format!(
                "UPDATE conversations SET watermark_seq = last_seq, attempts = 0 \
                 WHERE conversation_id IN (SELECT c.conversation_id {OUT_OF_WINDOW})"
            )))
            .bind(DbTime(window.lookback_cutoff))
            .bind(DbTime(window.now));
            exec(&mut tx, pass, "passing over messages before the window").await?;
        }
        tx.commit().await.map_err(Error::db("committing"))?;
        Ok(skipped.iter().sum::<i64>() as u64)
    }

    async fn select_conversations(
        &self,
        window: &Window,
        owner: Option<(&str, Time)>,
    ) -> Result<Vec<Candidate>> {
        type CandidateRow = (String, String, i64, i64, DbTime, Json<Vec<String>>);
        let statement =
            owner.map_or(crate::store::PEEK_CONVERSATIONS, |_| dialect::CLAIM_CONVERSATIONS);
        let mut query =
            sqlx::query_as::<_, CandidateRow>(sql(statement.replace("{limit}", &limit(window.limit))))
                .bind(DbTime(window.idle_cutoff))
                .bind(DbTime(window.lookback_cutoff))
                .bind(DbTime(window.now));
        if let Some((owner, until)) = owner {
            query = query.bind(owner.to_owned()).bind(DbTime(until));
        }
        let mut candidates = self
            .read(
                query,
                "selecting conversations",
                |(conversation_id, user_id, watermark_seq, last_seq, at, scopes)| {
                    let (last_message_at, scopes) = (at.0, scopes.0);
                    Ok(Candidate {
                        conversation_id,
                        user_id,
                        watermark_seq,
                        last_seq,
                        last_message_at,
                        scopes,
                    })
                },
            )
            .await?;
        candidates.sort_by(|a, b| {
            (a.last_message_at, &a.conversation_id).cmp(&(b.last_message_at, &b.conversation_id))
        });
        Ok(candidates)
    }

    async fn conversations_messages(
        &self,
        conversations: &[(&str, i64)],
        context: u32,
    ) -> Result<Vec<ConversationMessages>> {
        type MessageRow = (i64, String, String, String, DbTime);
        type Row = (String, Json<Vec<MessageRow>>, Json<Vec<MessageRow>>, Json<Vec<String>>);
        // One row of JSON arrays per conversation, one statement per batch:
        // each statement and each row sqlx hands over crosses from SQLite's
        // worker thread (on PostgreSQL, the network), and stage one reads
        // every conversation it takes.
        let (array, agg, as_json) = (dialect::JSON_ARRAY, dialect::JSON_ARRAY_AGG, dialect::AS_JSON);
        let messages = |from: &str| {
            format!(
                "{as_json}(coalesce((SELECT {agg}({array}(seq, message_id, role, content, created_at) \
                 ORDER BY seq) FROM {from}), '[]'))"
            )
        };
        let query = sqlx::query_as::<_, Row>(sql(format!(
            "SELECT w.conversation_id, {}, {}, {as_json}(coalesce((SELECT {agg}(scope) FROM (\
             SELECT DISTINCT m.scope FROM memories m JOIN conversations c ON c.user_id = m.user_id \
             WHERE c.conversation_id = w.conversation_id) s), '[]')) FROM {} w",
            messages(&format!(
                "(SELECT * FROM messages WHERE conversation_id = w.conversation_id \
                 AND seq <= w.watermark_seq ORDER BY seq DESC {}) b",
                limit(context)
            )),
            messages(
                "messages WHERE conversation_id = w.conversation_id AND seq > w.watermark_seq"
            ),
            dialect::WATERMARKS,
        )))
        .bind(Json(conversations));
        let what = format!("reading messages of {} conversation(s)", conversations.len());
        let mut read: HashMap<String, ConversationMessages> = HashMap::new();
        for (conversation_id, Json(before), Json(unprocessed), Json(memory_scopes)) in
            query.fetch_all(&mut *self.conn().await?).await.map_err(Error::db(what))?
        {
            let message = |(seq, message_id, role, content, at): MessageRow| {
                let role = parse(&role, "role", &format!("message {message_id}"))?;
                Ok(StoredMessage { seq, message_id, role, content, created_at: at.0 })
            };
            let before = before.into_iter().map(message).collect::<Result<_>>()?;
            let unprocessed = unprocessed.into_iter().map(message).collect::<Result<_>>()?;
            read.insert(conversation_id, ConversationMessages { before, unprocessed, memory_scopes });
        }
        Ok(conversations.iter().map(|(id, _)| read.remove(*id).unwrap_or_default()).collect())
    }

    async fn commit_extraction(
        &self,
        conversation_id: &str,
        owner: &str,
        (from_seq, to_seq): (i64, i64),
        slips: Vec<Slip>,
        last: bool,
    ) -> Result<()> {
        let mut advance = sqlx::query(ADVANCE)
            .bind(to_seq)
            .bind(conversation_id)
            .bind(from_seq)
            .bind(owner)
            .bind(last);
        let what = format!("moving the watermark of conversation {conversation_id}");
        let slips: Vec<&Slip> = slips.iter().collect();
        let mut writer = self.writer().await?;
        // One statement is a transaction of its own, without BEGIN and
        // COMMIT. Without slips (most conversations keep nothing) it is the
        // UPDATE; on PostgreSQL, with slips that fit one INSERT, the UPDATE
        // runs in a WITH in front of the INSERT: one round trip, not four.
        if slips.is_empty() {
            return claim_held(exec(&mut writer, advance, &what).await?, conversation_id);
        }
        if dialect::UPDATE_IN_WITH && slips.len() <= dialect::ROWS_PER_INSERT {
            let bound = advance.take_arguments().map_err(sqlx::Error::Encode);
            let bound = bound.map_err(Error::db(what.clone()))?.unwrap_or_default();
            let mut insert = QueryBuilder::<Db>::with_arguments(
                format!(
                    "WITH advanced AS ({ADVANCE} RETURNING 1) \
                     INSERT INTO slips ({SLIP_COLUMNS}) SELECT * FROM ("
                ),
                bound,
            );
            push_slip_rows(&mut insert, &slips);
            insert.push(") v WHERE EXISTS (SELECT 1 FROM advanced)");
            return claim_held(exec(&mut writer, insert.build(), &what).await?, conversation_id);
        }
        let mut tx = begin_write(&mut writer, "starting a transaction").await?;
        claim_held(exec(&mut tx, advance, &what).await?, conversation_id)?;
        insert_slips(&mut tx, &slips).await?;
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
        let what = format!("recording a failure of conversation {conversation_id}");
        let mut writer = self.writer().await?;
        let mut tx = begin_write(&mut writer, "starting a transaction").await?;
        let count = sqlx::query_as::<_, (i64,)>(
            "UPDATE conversations SET attempts = attempts + 1 \
             WHERE conversation_id = $1 AND claim_owner = $2 AND watermark_seq = $3 RETURNING attempts",
        )
        .bind(conversation_id)
        .bind(owner)
        .bind(from_seq);
        let Some(attempts) = all(&mut tx, count, &what, |(n,)| Ok(n)).await?.pop() else {
            return Err(lost_claim(conversation_id));
        };
        let given_up = attempts >= i64::from(max_attempts);
        if given_up {
            let record = sqlx::query(
                "INSERT INTO failed_ranges (conversation_id, from_seq, to_seq, attempts, reason, failed_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
            )
            .bind(conversation_id)
            .bind(from_seq + 1)
            .bind(to_seq)
            .bind(attempts)
            .bind(reason)
            .bind(DbTime(now));
            exec(&mut tx, record, &what).await?;
            let pass = sqlx::query("UPDATE conversations SET watermark_seq = $1, attempts = 0 WHERE conversation_id = $2")
                .bind(to_seq)
                .bind(conversation_id);
            exec(&mut tx, pass, &what).await?;
        }
        tx.commit().await.map_err(Error::db("committing"))?;
        Ok(given_up)
    }

    async fn release_claim(&self, conversation_id: &str, owner: &str) -> Result<()> {
        let release = sqlx::query(
            "UPDATE conversations SET claim_owner = NULL, claim_expires_at = NULL \
             WHERE conversation_id = $1 AND claim_owner = $2",
        )
        .bind(conversation_id)
        .bind(owner);
        exec(
            &mut *self.writer().await?,
            release,
            &format!("releasing conversation {conversation_id}"),
        )
        .await?;
        Ok(())
    }

    async fn renew_claims(&self, owner: &str, until: Time) -> Result<u64> {
        let mut conn = self.writer().await?;
        let mut renewed = 0;
        for statement in [
            "UPDATE conversations SET claim_expires_at = $1 WHERE claim_owner = $2",
            "UPDATE user_claims SET expires_at = $1 WHERE owner = $2",
        ] {
            let renew = sqlx::query(statement).bind(DbTime(until)).bind(owner);
            renewed += exec(&mut conn, renew, "renewing claims").await?;
        }
        Ok(renewed)
    }

    async fn expiring_memories(&self, now: Time) -> Result<Vec<Memory>> {
        let due = "status = 'active' AND origin = 'auto' AND expires_at <= $1";
        self.memories_where(due, DbTime(now)).await
    }

    async fn save_run(&self, run: &RunRecord) -> Result<()> {
        let save = sqlx::query(
            "INSERT INTO runs (run_id, started_at, finished_at, dry_run, summary) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&run.run_id)
        .bind(DbTime(run.started_at))
        .bind(DbTime(run.finished_at))
        .bind(run.dry_run)
        .bind(Json(&run.summary));
        exec(&mut *self.writer().await?, save, &format!("saving run {}", run.run_id)).await?;
        Ok(())
    }

    async fn recent_runs(&self, limit: u32) -> Result<Vec<RunRecord>> {
        type RunRow = (String, DbTime, DbTime, bool, Json<serde_json::Value>);
        let query = sqlx::query_as::<_, RunRow>(sql(format!(
            "SELECT run_id, started_at, finished_at, dry_run, summary FROM runs \
             ORDER BY started_at DESC, run_id DESC {}",
            self::limit(limit)
        )));
        self.read(query, "reading runs", |(run_id, started, finished, dry_run, summary)| {
            let (started_at, finished_at, summary) = (started.0, finished.0, summary.0);
            Ok(RunRecord { run_id, started_at, finished_at, dry_run, summary })
        })
        .await
    }

    async fn backlog(&self, window: &Window) -> Result<Backlog> {
        let query = sqlx::query_as::<_, (i64, Option<DbTime>, i64, i64, i64)>(
            "SELECT count(*), min(last_message_at), \
             (SELECT count(*) FROM conversations WHERE claim_owner IS NOT NULL AND claim_expires_at > $3), \
             (SELECT count(*) FROM user_claims WHERE expires_at > $3), \
             (SELECT count(*) FROM slips WHERE state = 'new') \
             FROM conversations WHERE last_seq > watermark_seq AND last_message_at <= $1 AND last_message_at >= $2 \
             AND (claim_owner IS NULL OR claim_expires_at <= $3)",
        )
        .bind(DbTime(window.idle_cutoff))
        .bind(DbTime(window.lookback_cutoff))
        .bind(DbTime(window.now));
        let rows = self
            .read(query, "reading the backlog", |row| {
                let (eligible, oldest, claims_held, users_claimed, slips_waiting) = row;
                let oldest_idle = oldest.map(|t| t.0);
                Ok(Backlog { eligible, oldest_idle, claims_held, users_claimed, slips_waiting })
            })
            .await?;
        Ok(rows.into_iter().next().unwrap_or_default())
    }

    async fn failed_ranges(&self, limit: u32) -> Result<Vec<FailedRange>> {
        type RangeRow = (String, i64, i64, i64, String, DbTime);
        let query = sqlx::query_as::<_, RangeRow>(sql(format!(
            "SELECT conversation_id, from_seq, to_seq, attempts, reason, failed_at FROM failed_ranges \
             ORDER BY failed_at DESC {}",
            self::limit(limit)
        )));
        self.read(
            query,
            "reading failed ranges",
            |(conversation_id, from_seq, to_seq, attempts, reason, at)| {
                let failed_at = at.0;
                Ok(FailedRange { conversation_id, from_seq, to_seq, attempts, reason, failed_at })
            },
        )
        .await
    }

    async fn users_with_new_slips(&self, max_attempts: u32) -> Result<Vec<String>> {
        let query = sqlx::query_as::<_, (String,)>(crate::store::USERS_WITH_NEW_SLIPS)
            .bind(i64::from(max_attempts));
        self.read(query, "reading users with new slips", |(user,)| Ok(user)).await
    }

    async fn record_user_failure(
        &self,
        user_id: &str,
        newest_slip_id: &str,
        reason: &str,
        now: Time,
    ) -> Result<i64> {
        let record = sqlx::query_as::<_, (i64,)>(crate::store::RECORD_USER_FAILURE)
            .bind(user_id)
            .bind(newest_slip_id)
            .bind(reason)
            .bind(DbTime(now));
        let what = format!("counting a failure of user {user_id}");
        let attempts = all(&mut *self.writer().await?, record, &what, |(n,)| Ok(n)).await?;
        Ok(attempts.into_iter().sum())
    }

    async fn clear_user_failure(&self, user_id: &str) -> Result<()> {
        let clear = sqlx::query("DELETE FROM user_failures WHERE user_id = $1").bind(user_id);
        let what = format!("clearing the failures of user {user_id}");
        exec(&mut *self.writer().await?, clear, &what).await?;
        Ok(())
    }

    async fn failed_users(&self, limit: u32) -> Result<Vec<FailedUser>> {
        let query = sqlx::query_as::<_, (String, i64, String, DbTime)>(sql(format!(
            "SELECT user_id, attempts, reason, failed_at FROM user_failures \
             ORDER BY failed_at DESC, user_id {}",
            self::limit(limit)
        )));
        self.read(query, "reading failed users", |(user_id, attempts, reason, at)| {
            Ok(FailedUser { user_id, attempts, reason, failed_at: at.0 })
        })
        .await
    }

    async fn claim_user(&self, user_id: &str, owner: &str, now: Time, until: Time) -> Result<bool> {
        let claim = sqlx::query(
            "INSERT INTO user_claims (user_id, owner, expires_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at \
             WHERE user_claims.expires_at <= $4 OR user_claims.owner = excluded.owner",
        )
        .bind(user_id)
        .bind(owner)
        .bind(DbTime(until))
        .bind(DbTime(now));
        let claimed =
            exec(&mut *self.writer().await?, claim, &format!("claiming user {user_id}")).await?;
        Ok(claimed == 1)
    }

    async fn release_user(&self, user_id: &str, owner: &str) -> Result<()> {
        let release = sqlx::query("DELETE FROM user_claims WHERE user_id = $1 AND owner = $2")
            .bind(user_id)
            .bind(owner);
        exec(&mut *self.writer().await?, release, &format!("releasing user {user_id}")).await?;
        Ok(())
    }

    async fn release_claims(&self, owner: &str) -> Result<u64> {
        let mut conn = self.writer().await?;
        let what = format!("releasing the claims of run {owner}");
        let mut released = 0;
        for statement in [
            "UPDATE conversations SET claim_owner = NULL, claim_expires_at = NULL WHERE claim_owner = $1",
            "DELETE FROM user_claims WHERE owner = $1",
        ] {
            released += exec(&mut conn, sqlx::query(statement).bind(owner), &what).await?;
        }
        Ok(released)
    }

    async fn schema(&self) -> Result<SchemaState> {
        dialect::check_file(&self.writer).map_err(Error::db("checking the database file"))?;
        let applied = sqlx::query_as::<_, (i64, bool)>(
            "SELECT version, success FROM _sqlx_migrations ORDER BY version",
        );
        let applied = self.read(applied, "reading the applied migrations", Ok).await?;
        let known = dialect::MIGRATOR
            .iter()
            .filter(|m| !m.migration_type.is_down_migration())
            .map(|m| m.version);
        Ok(SchemaState::compare(known, &applied))
    }

    async fn counts(&self) -> Result<Counts> {
        let query = sqlx::query_as::<_, (String, String, i64)>(
            "SELECT status, origin, count(*) FROM memories GROUP BY status, origin",
        );
        let memories = self
            .read(query, "counting memories", |(status, origin, n)| {
                Ok((format!("{status}/{origin}"), n))
            })
            .await?
            .into_iter()
            .collect();
        let pending = sqlx::query_as::<_, (i64,)>(
            "SELECT count(*) FROM suggestions WHERE status = 'pending'",
        );
        let pending = self.read(pending, "counting suggestions", |(n,)| Ok(n)).await?;
        Ok(Counts { memories, suggestions_pending: pending.into_iter().sum() })
    }

    async fn loads(&self, user_id: &str, conversation_id: Option<&str>) -> Result<Vec<Load>> {
        let loads = self.read_loads("l.user_id = $1", user_id).await?;
        Ok(loads
            .into_iter()
            .filter(|l| conversation_id.is_none_or(|c| l.conversation_id == c))
            .collect())
    }

    async fn loads_of_memory(&self, memory_id: &str) -> Result<Vec<Load>> {
        self.read_loads(
            "l.load_id IN (SELECT load_id FROM load_memories WHERE memory_id = $1)",
            memory_id,
        )
        .await
    }

    async fn conversation_owner(
        &self,
        conversation_id: &str,
        message_id: &str,
    ) -> Result<Option<(String, bool)>> {
        let query = sqlx::query_as::<_, (String, i64)>(
            "SELECT user_id, (SELECT count(*) FROM messages m WHERE m.conversation_id = c.conversation_id \
             AND m.message_id = $2) FROM conversations c WHERE conversation_id = $1",
        )
        .bind(conversation_id)
        .bind(message_id);
        let what = format!("reading conversation {conversation_id}");
        Ok(self.read(query, &what, |(owner, found)| Ok((owner, found > 0))).await?.pop())
    }

    async fn purge_user(&self, user_id: &str) -> Result<Vec<(&'static str, u64)>> {
        let mut writer = self.writer().await?;
        let mut tx = begin_write(&mut writer, "starting the purge").await?;
        let mut removed = Vec::new();
        for (table, condition) in crate::store::USER_TABLES {
            let purge =
                sqlx::query(sql(format!("DELETE FROM {table} WHERE {condition}"))).bind(user_id);
            let n = exec(&mut tx, purge, &format!("purging user {user_id} from {table}")).await?;
            removed.push((*table, n));
        }
        tx.commit().await.map_err(Error::db(format!("committing the purge of user {user_id}")))?;
        dialect::after_erasing(&self.writer, &mut writer).await;
        Ok(removed)
    }

    async fn users(&self) -> Result<Vec<String>> {
        let query = sqlx::query_as::<_, (String,)>(
            "SELECT user_id FROM conversations UNION SELECT user_id FROM memories \
             UNION SELECT user_id FROM slips UNION SELECT user_id FROM suggestions \
             UNION SELECT user_id FROM tombstones UNION SELECT user_id FROM loads ORDER BY 1",
        );
        self.read(query, "reading users", |(user,)| Ok(user)).await
    }

    async fn conversations(&self) -> Result<Vec<ConversationRecord>> {
        type Row = (String, String, Json<Vec<String>>, i64, i64);
        let query = sqlx::query_as::<_, Row>(
            "SELECT conversation_id, user_id, scopes, watermark_seq, attempts FROM conversations \
             ORDER BY conversation_id",
        );
        self.read(query, "reading conversations", |(conversation_id, user_id, scopes, watermark_seq, attempts)| {
            Ok(ConversationRecord { conversation_id, user_id, scopes: scopes.0, watermark_seq, attempts })
        })
        .await
    }

    async fn import_conversation(
        &self,
        c: &ConversationRecord,
        messages: &[NewMessage],
        progress: &CopiedProgress,
    ) -> Result<()> {
        let what = format!("copying conversation {}", c.conversation_id);
        let mut writer = self.writer().await?;
        let mut tx = begin_write(&mut writer, &what).await?;
        insert_messages(&mut tx, messages, &mut IngestWritten::default()).await?;
        let scopes = BTreeSet::from_iter(c.scopes.iter().cloned());
        add_conversation_scopes(&mut tx, HashMap::from([(c.conversation_id.clone(), scopes)])).await?;
        let seq_of = "(SELECT seq FROM messages WHERE conversation_id = $1 AND message_id = $2)";
        let advance = sqlx::query(sql(format!(
            "UPDATE conversations SET watermark_seq = COALESCE({seq_of}, 0), attempts = $3 \
             WHERE conversation_id = $1"
        )))
        .bind(&c.conversation_id)
        .bind(&progress.watermark_message_id)
        .bind(progress.attempts);
        exec(&mut tx, advance, &what).await?;
        for (first, last, range) in &progress.failed_ranges {
            let seq_of_last = seq_of.replace("$2", "$3");
            let record = sqlx::query(sql(format!(
                "INSERT INTO failed_ranges (conversation_id, from_seq, to_seq, attempts, reason, failed_at) \
                 VALUES ($1, {seq_of}, {seq_of_last}, $4, $5, $6)"
            )))
            .bind(&c.conversation_id)
            .bind(first)
            .bind(last)
            .bind(range.attempts)
            .bind(&range.reason)
            .bind(DbTime(range.failed_at));
            exec(&mut tx, record, &what).await?;
        }
        tx.commit().await.map_err(Error::db(what))
    }

    async fn row_counts(&self) -> Result<Vec<(&'static str, u64)>> {
        let mut counts = Vec::new();
        for table in crate::store::COPIED_TABLES {
            let count = sqlx::query_as::<_, (i64,)>(sql(format!("SELECT count(*) FROM {table}")));
            let n = self.read(count, &format!("counting {table}"), |(n,)| Ok(n)).await?;
            counts.push((*table, n.into_iter().sum::<i64>() as u64));
        }
        Ok(counts)
    }

    async fn purge_slips(&self, before: Time) -> Result<u64> {
        let purge = sqlx::query(crate::store::PURGEABLE_SLIPS).bind(DbTime(before));
        let mut writer = self.writer().await?;
        let purged = exec(&mut writer, purge, "purging old slips").await?;
        if purged > 0 {
            dialect::after_erasing(&self.writer, &mut writer).await;
        }
        Ok(purged)
    }
}
