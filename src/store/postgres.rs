//! PostgreSQL, for deployments where several dreamd replicas share one
//! database. The store's methods are written once in `body.rs`; this file
//! connects and says where PostgreSQL's SQL differs.

use crate::error::{Error, Result};
use crate::store::recall_cache::RecallCache;
use crate::text::mask_url_secrets;
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use std::sync::Arc;
use std::time::Duration;

/// Cheap to clone: clones share one connection pool.
#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
    /// The same pool: PostgreSQL's writers run concurrently.
    writer: PgPool,
    /// Recall's candidates between calls, checked against the database's
    /// stamp; only in long-running processes (`Store::keeping_recall_candidates`).
    recall_cache: Option<Arc<RecallCache>>,
}

impl PgStore {
    /// Connects and runs the migrations.
    pub async fn open(url: &str) -> Result<PgStore> {
        let connecting = format!("connecting to {}", mask_url_secrets(url));
        let pool = match PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(CONNECT_TIMEOUT)
            .connect(url)
            .await
        {
            Ok(pool) => pool,
            Err(sqlx::Error::PoolTimedOut) => {
                return Err(Error::db(connecting)(why_not(url).await));
            }
            Err(e) => return Err(Error::db(connecting)(e)),
        };
        dialect::MIGRATOR.run(&pool).await?;
        Ok(PgStore { writer: pool.clone(), pool, recall_cache: None })
    }

    /// The pool, for tests that check rows with SQL.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

/// How long opening waits for the server.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why no connection could be made: the pool says only that it timed out
/// while its attempts failed (refused, unknown host, a password
/// refused), so one connection is tried alone for the cause an operator
/// can act on (ops round 4, L2).
async fn why_not(url: &str) -> sqlx::Error {
    use sqlx::Connection;
    match tokio::time::timeout(CONNECT_TIMEOUT, sqlx::PgConnection::connect(url)).await {
        Ok(Err(cause)) => cause,
        _ => sqlx::Error::PoolTimedOut,
    }
}

/// Where PostgreSQL's SQL differs from SQLite's.
mod dialect {
    /// The schema this binary creates and expects.
    pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("migrations/postgres");

    use sqlx::pool::PoolConnection;
    use sqlx::{Connection, PgConnection, PgPool, Postgres, Transaction};

    /// Any connection of the pool: writers run concurrently.
    pub async fn writer(pool: &PgPool) -> Result<PoolConnection<Postgres>, sqlx::Error> {
        pool.acquire().await
    }

    /// A server has no file to lose under a running process.
    pub fn check_file(_writer: &PgPool) -> Result<(), sqlx::Error> {
        Ok(())
    }

    /// A plain transaction; rows that writers depend on are locked explicitly.
    pub async fn begin_write(
        conn: &mut PgConnection,
    ) -> Result<Transaction<'_, Postgres>, sqlx::Error> {
        conn.begin().await
    }

    /// After a commit that erased text: nothing here. PostgreSQL keeps dead
    /// row versions until VACUUM reclaims them (autovacuum, or the
    /// operator's schedule; see the README on deleting).
    pub async fn after_erasing(_writer: &PgPool, _conn: &mut PgConnection) {}

    /// The set-returning function that reads a JSON array parameter as rows of `value`.
    pub const EACH: &str = "jsonb_array_elements_text";

    /// The rows of (`conversation_id`, `watermark_seq`) a JSON array of
    /// pairs in the first parameter holds.
    pub const WATERMARKS: &str = "(SELECT value->>0 AS conversation_id, \
         (value->>1)::bigint AS watermark_seq FROM jsonb_array_elements($1))";

    /// Building JSON in SQL: an array, an array aggregate, and (not needed
    /// here, a subquery's `json` stays `json`) a wrapper for nested JSON.
    pub const JSON_ARRAY: &str = "json_build_array";
    pub const JSON_ARRAY_AGG: &str = "json_agg";
    pub const AS_JSON: &str = "";

    /// Locks the rows a commit re-check read until the commit, so a
    /// concurrent deletion waits for it or is seen by it.
    pub const FOR_UPDATE: &str = " FOR UPDATE";

    /// A data-modifying WITH in front of another statement: stage one's
    /// commit is one statement.
    pub const UPDATE_IN_WITH: bool = true;

    /// Rows per multi-row INSERT (messages: 6 parameters each, slips: 13),
    /// well under PostgreSQL's 65,535.
    pub const ROWS_PER_INSERT: usize = 1000;

    /// Claims the conversations a run takes; `SKIP LOCKED` hands concurrent
    /// replicas disjoint sets without waiting for each other.
    pub const CLAIM_CONVERSATIONS: &str = "UPDATE conversations c SET claim_owner = $4, claim_expires_at = $5 \
         FROM (SELECT conversation_id FROM conversations \
         WHERE last_seq > watermark_seq AND last_message_at <= $1 AND last_message_at >= $2 \
         AND (claim_owner IS NULL OR claim_expires_at <= $3) ORDER BY last_message_at {limit} \
         FOR UPDATE SKIP LOCKED) e WHERE c.conversation_id = e.conversation_id \
         RETURNING c.conversation_id, c.user_id, c.watermark_seq, c.last_seq, c.last_message_at, c.scopes";

    /// Erases a memory's texts from its history: contents and retire reasons.
    pub const ERASE_EVENT_TEXTS: [&str; 2] = [
        "UPDATE memory_events SET before = jsonb_set(before, '{content}', 'null') \
         WHERE memory_id = $1 AND before IS NOT NULL",
        "UPDATE memory_events SET after = jsonb_set(after, '{content}', 'null') - 'reason' \
         WHERE memory_id = $1 AND after IS NOT NULL",
    ];
}

mod body {
    use super::{PgStore as Backend, dialect};
    type Db = sqlx::Postgres;
    include!("body.rs");
}
