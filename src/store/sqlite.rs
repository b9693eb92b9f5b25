//! The embedded default: one SQLite file in WAL mode. The store's methods are
//! written once in `body.rs`; this file opens the database and says where
//! SQLite's SQL differs.

use crate::error::{Error, Result};
use crate::store::SchemaState;
use crate::store::recall_cache::RecallCache;
use sqlx::pool::PoolConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a write waits for another process's lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a write waits for this process's writer connection.
const WRITER_QUEUE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the writer connection is held before it goes back through its pool.
const WRITER_HELD_FOR: Duration = Duration::from_secs(60);

// Both pools skip sqlx's ping before handing out a connection: a SQLite
// connection is a thread of this process, not a socket that can drop, and
// the ping was a round trip to that thread on every statement. sqlx still
// pings each connection when it comes back to the pool, which retires a
// connection whose thread died; the writer comes back only now and then
// (`Writer`). A dropped transaction's rollback is queued on its connection
// and runs before the next statement there.

/// Cheap to clone: clones share the connection pools.
#[derive(Clone)]
pub struct SqliteStore {
    /// Connections for reads (WAL: readers never wait for the writer).
    pool: SqlitePool,
    /// The one connection this process writes through. Writes queue for it
    /// in order, in the process; with several writing connections they met
    /// in SQLite's busy handler instead, which sleeps and polls the lock:
    /// under a run's concurrency that cost more CPU and time than the
    /// writes. Other processes still wait up to the busy timeout.
    writer: Writer,
    /// Recall's candidates between calls, checked against the database's
    /// stamp; only in long-running processes (`Store::keeping_recall_candidates`).
    recall_cache: Option<Arc<RecallCache>>,
}

impl SqliteStore {
    /// Opens (creating if missing) the database file and runs the migrations.
    pub async fn open(path: &Path) -> Result<SqliteStore> {
        Self::open_waiting(path, BUSY_TIMEOUT).await
    }

    /// Opens the database waiting at most `busy_timeout` for another
    /// writer's lock before a write fails with "database is locked".
    pub async fn open_waiting(path: &Path, busy_timeout: Duration) -> Result<SqliteStore> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            // Deleted and overwritten text is zeroed in the file, not left
            // in free space: a person who deletes a memory means it.
            .pragma("secure_delete", "on")
            .busy_timeout(busy_timeout);
        let opening = || {
            Error::db(format!(
                "opening SQLite database {} (does its directory exist and is it writable?)",
                path.display()
            ))
        };
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(WRITER_QUEUE_TIMEOUT)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await;
        let writer = match writer {
            Ok(writer) => writer,
            Err(e) if is_read_only(&e) && path.exists() => return Self::open_to_read(path).await,
            Err(e) => return Err(opening()(e)),
        };
        dialect::MIGRATOR.run(&writer).await?;
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .test_before_acquire(false)
            .connect_with(options)
            .await
            .map_err(opening())?;
        Self::with_pools(path, pool, writer).await
    }

    /// A database this user may read but not write (an operator's `dreamd
    /// status`, a support account's `memories list` on the service's file):
    /// opened read-only, without migrations, and without creating the
    /// `-shm` file SQLite would want (read `immutable` while no process has
    /// the database open, as the log files' absence shows). Writes fail
    /// saying the database is read-only.
    async fn open_to_read(path: &Path) -> Result<SqliteStore> {
        let schema = Self::schema_untouched(path).await?;
        if !schema.is_current() {
            let why = format!(
                "it is read-only to this user and not at this release's schema (migrations missing {:?}, \
                 unknown {:?}): run this dreamd once as the user that owns it",
                schema.missing, schema.unknown
            );
            return Err(Error::Io {
                context: format!("opening SQLite database {}", path.display()),
                source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, why),
            });
        }
        let options = Self::options_to_read(path);
        let opening = || Error::db(format!("opening SQLite database {} to read", path.display()));
        let connect = |n| {
            SqlitePoolOptions::new()
                .max_connections(n)
                .test_before_acquire(false)
                .connect_with(options.clone())
        };
        let writer = connect(1).await.map_err(opening())?;
        let pool = connect(4).await.map_err(opening())?;
        tracing::debug!(path = %path.display(), "the database is read-only to this user; opened to read");
        Self::with_pools(path, pool, writer).await
    }

    /// Read-only options that create no file: the log files as they are
    /// while a process has the database open, else the main file `immutable`.
    fn options_to_read(path: &Path) -> SqliteConnectOptions {
        let beside = |suffix: &str| {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            std::path::PathBuf::from(name).exists()
        };
        let logs_open = beside("-wal") && beside("-shm");
        SqliteConnectOptions::new().filename(path).read_only(true).immutable(!logs_open)
    }

    /// The store on its pools, with the file it opened noted.
    async fn with_pools(path: &Path, pool: SqlitePool, writer: SqlitePool) -> Result<SqliteStore> {
        let opening = || {
            Error::db(format!(
                "opening SQLite database {} (does its directory exist and is it writable?)",
                path.display()
            ))
        };
        let mut marker = path.as_os_str().to_owned();
        marker.push("-erased");
        let file = Arc::new(OpenedFile::at(path).map_err(Error::io(format!(
            "reading the metadata of SQLite database {}",
            path.display()
        )))?);
        let erased_marker = Arc::new(marker.into());
        let writer = Writer { pool: writer, held: Arc::default(), erased_marker, file };
        if writer.erased_marker.exists() {
            // A process that erased text could not truncate the log; try now.
            drop(dialect::writer(&writer).await.map_err(opening())?);
        }
        Ok(SqliteStore { pool, writer, recall_cache: None })
    }

    /// The schema of the database file at `path`, read without writing a
    /// byte or creating a file: what `config --check` reports of the
    /// service's database, since a check run as root must neither create
    /// the database nor leave a `-shm` file the service's user cannot
    /// open. While the log files exist (a process has the database open)
    /// they are read as they are; otherwise the file is read `immutable`.
    pub async fn schema_untouched(path: &Path) -> Result<SchemaState> {
        use sqlx::{ConnectOptions, Connection};
        let reading =
            || Error::db(format!("reading SQLite database {} without writing", path.display()));
        let mut conn = Self::options_to_read(path).connect().await.map_err(reading())?;
        let applied: Vec<(i64, bool)> =
            sqlx::query_as("SELECT version, success FROM _sqlx_migrations ORDER BY version")
                .fetch_all(&mut conn)
                .await
                .or_else(|e| match &e {
                    // A database no dreamd has opened yet: no migration applied.
                    sqlx::Error::Database(d) if d.message().contains("no such table") => {
                        Ok(Vec::new())
                    }
                    _ => Err(e),
                })
                .map_err(reading())?;
        let _ = conn.close().await;
        let known = dialect::MIGRATOR.iter().filter(|m| !m.migration_type.is_down_migration());
        Ok(SchemaState::compare(known.map(|m| m.version), &applied))
    }

    /// Closes every connection and checkpoints the write-ahead log, so the
    /// file can be removed (`dreamd eval` does, after each scratch case).
    pub async fn close(self) {
        self.pool.close().await;
        // Dropped, the held connection goes back to its pool, which closes it.
        self.writer.held.lock().await.take();
        self.writer.pool.close().await;
    }

    /// The pool, for tests that check rows with SQL.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }
}

/// Whether SQLite refused to write (`SQLITE_READONLY` and its extended
/// codes: the file or its directory is not writable by this user).
fn is_read_only(e: &sqlx::Error) -> bool {
    crate::error::sqlite_code(e) == Some(8)
}

/// The writer connection, taken from its pool of one and held between
/// writes: sqlx pings every connection it takes back into a pool, a round
/// trip to the connection's thread after each write. Once held for
/// [`WRITER_HELD_FOR`] it goes back through the pool, whose ping retires a
/// connection whose thread died, and a new one is taken.
#[derive(Clone)]
struct Writer {
    pool: SqlitePool,
    held: Arc<tokio::sync::Mutex<Option<Held>>>,
    /// `<database>-erased`: present while erased text may still sit in the
    /// write-ahead log, so that whichever dreamd process writes next (or
    /// opens the database next) truncates the log once no reader holds it.
    erased_marker: Arc<std::path::PathBuf>,
    file: Arc<OpenedFile>,
}

/// The database file as opened, by device and inode. A file deleted or
/// replaced under a running process stays open to it, unlinked: it would go
/// on writing where no one reads, and lose it all at its next start, while
/// new input goes to the new file (ops round 4, M6).
struct OpenedFile {
    path: std::path::PathBuf,
    id: (u64, u64),
}

impl OpenedFile {
    fn at(path: &Path) -> std::io::Result<OpenedFile> {
        Ok(OpenedFile { path: path.to_owned(), id: Self::id(path)? })
    }

    fn id(path: &Path) -> std::io::Result<(u64, u64)> {
        use std::os::unix::fs::MetadataExt;
        let metadata = std::fs::metadata(path)?;
        Ok((metadata.dev(), metadata.ino()))
    }

    /// An error when the path no longer names the file opened.
    fn check(&self) -> Result<(), sqlx::Error> {
        if Self::id(&self.path).is_ok_and(|id| id == self.id) {
            return Ok(());
        }
        let why = format!(
            "the database file {} was deleted or replaced while this process had it open; \
             nothing more is written to it, since it would be lost: restart dreamd to use the file at that path",
            self.path.display()
        );
        let replaced = crate::error::DatabaseReplaced(why);
        Err(sqlx::Error::Io(std::io::Error::new(std::io::ErrorKind::NotFound, replaced)))
    }
}

struct Held {
    conn: PoolConnection<Sqlite>,
    since: Instant,
}

/// Where SQLite's SQL differs from PostgreSQL's.
mod dialect {
    /// The schema this binary creates and expects.
    pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("migrations/sqlite");

    use super::{Held, WRITER_HELD_FOR, WRITER_QUEUE_TIMEOUT, Writer};

    /// Whether the database file is still the one opened.
    pub fn check_file(writer: &Writer) -> Result<(), sqlx::Error> {
        writer.file.check()
    }
    use sqlx::{Connection, Sqlite, SqliteConnection, Transaction};
    use std::time::Instant;
    use tokio::sync::{MappedMutexGuard, MutexGuard};

    /// The writer connection, once the writes queued before have had it.
    pub async fn writer(
        writer: &Writer,
    ) -> Result<MappedMutexGuard<'_, SqliteConnection>, sqlx::Error> {
        writer.file.check()?;
        let queued = tokio::time::timeout(WRITER_QUEUE_TIMEOUT, writer.held.lock());
        let mut held = queued.await.map_err(|_| sqlx::Error::PoolTimedOut)?;
        if let Some(h) = held.as_mut()
            && left_in_a_transaction(&mut h.conn).await
            && let Some(h) = held.take()
        {
            tracing::warn!(
                "the writer connection was left inside a failed transaction; it is closed and a new one opened"
            );
            let _ = h.conn.close().await;
        }
        if held.as_ref().is_none_or(|h| h.since.elapsed() >= WRITER_HELD_FOR) {
            // Back to the pool first: the pool has one connection.
            *held = None;
            let conn = writer.pool.acquire().await?;
            *held = Some(Held { conn, since: Instant::now() });
        }
        let mut conn = MutexGuard::try_map(held, |h| h.as_mut().map(|h| &mut *h.conn))
            // Never the error: `held` is set above.
            .map_err(|_| sqlx::Error::PoolClosed)?;
        if writer.erased_marker.exists() && truncate_log(&mut conn).await {
            let _ = std::fs::remove_file(&*writer.erased_marker);
        }
        Ok(conn)
    }

    /// Whether `conn` still counts a transaction that ended: SQLite rolls a
    /// transaction back by itself on some errors (a full disk), and the
    /// rollback sqlx then queues for the dropped transaction fails without
    /// a word, leaving its count at one, so that every later `BEGIN` on the
    /// connection fails ("non-zero transaction depth"). A statement first
    /// lets a rollback still queued run.
    async fn left_in_a_transaction(conn: &mut SqliteConnection) -> bool {
        if !conn.is_in_transaction() {
            return false;
        }
        let _ = sqlx::query("SELECT 1").execute(&mut *conn).await;
        conn.is_in_transaction()
    }

    /// A transaction that takes the write lock at once. A deferred one that
    /// reads first fails with SQLITE_BUSY_SNAPSHOT, without waiting, when
    /// another process commits in between; an immediate one waits its turn.
    pub async fn begin_write(
        conn: &mut SqliteConnection,
    ) -> Result<Transaction<'_, Sqlite>, sqlx::Error> {
        conn.begin_with("BEGIN IMMEDIATE").await
    }

    /// After a commit that erased text: the write-ahead log still holds the
    /// pages that carried it, so it is checkpointed and truncated (with
    /// `secure_delete` the database file's own copies are already zeros).
    /// Never waits: while a reader on an old snapshot (a backup, another
    /// process) holds the log, the marker file stays, and [`writer`] in any
    /// dreamd process tries again before each write until it succeeds.
    pub async fn after_erasing(writer: &Writer, conn: &mut SqliteConnection) {
        let marker = &*writer.erased_marker;
        if let Err(e) = std::fs::write(marker, b"") {
            tracing::warn!(error = %e, "could not mark erased text for the next checkpoint");
        }
        if truncate_log(conn).await {
            let _ = std::fs::remove_file(marker);
        }
    }

    /// Checkpoints and truncates the log without waiting for readers;
    /// whether the log is now empty.
    async fn truncate_log(conn: &mut SqliteConnection) -> bool {
        let waited: Result<(i64,), _> =
            sqlx::query_as("PRAGMA busy_timeout").fetch_one(&mut *conn).await;
        let Ok((waited,)) = waited else { return false };
        let _ = sqlx::query("PRAGMA busy_timeout = 0").execute(&mut *conn).await;
        let truncated = sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(TRUNCATE)")
            .fetch_one(&mut *conn)
            .await;
        let restore = format!("PRAGMA busy_timeout = {waited}");
        let _ = sqlx::query(sqlx::AssertSqlSafe(restore)).execute(&mut *conn).await;
        let done = matches!(truncated, Ok((0, _, _)));
        if !done {
            tracing::info!(
                "a reader holds the write-ahead log; erased text leaves it at the next write"
            );
        }
        done
    }

    /// The table function that reads a JSON array parameter as rows of `value`.
    pub const EACH: &str = "json_each";

    /// The rows of (`conversation_id`, `watermark_seq`) a JSON array of
    /// pairs in the first parameter holds.
    pub const WATERMARKS: &str = "(SELECT json_extract(value, '$[0]') AS conversation_id, \
         json_extract(value, '$[1]') AS watermark_seq FROM json_each($1))";

    /// Building JSON in SQL: an array, an array aggregate, and the wrapper
    /// that keeps a subquery's JSON text JSON rather than a string.
    pub const JSON_ARRAY: &str = "json_array";
    pub const JSON_ARRAY_AGG: &str = "json_group_array";
    pub const AS_JSON: &str = "json";

    /// Row locks: none needed, a write transaction holds the whole database.
    pub const FOR_UPDATE: &str = "";

    /// No data-modifying WITH: stage one's commit with slips is a
    /// transaction of two statements.
    pub const UPDATE_IN_WITH: bool = false;

    /// Rows per multi-row INSERT (messages: 6 values each, slips: 13), well
    /// under SQLite's limit of 32,766 variables.
    pub const ROWS_PER_INSERT: usize = 500;

    /// Claims the conversations a run takes; one writer at a time, so a plain UPDATE.
    pub const CLAIM_CONVERSATIONS: &str = "UPDATE conversations SET claim_owner = $4, claim_expires_at = $5 \
         WHERE conversation_id IN (SELECT conversation_id FROM conversations \
         WHERE last_seq > watermark_seq AND last_message_at <= $1 AND last_message_at >= $2 \
         AND (claim_owner IS NULL OR claim_expires_at <= $3) ORDER BY last_message_at {limit}) \
         RETURNING conversation_id, user_id, watermark_seq, last_seq, last_message_at, scopes";

    /// Erases a memory's texts from its history: contents and retire reasons.
    pub const ERASE_EVENT_TEXTS: [&str; 2] = [
        "UPDATE memory_events SET before = json_set(before, '$.content', NULL) \
         WHERE memory_id = $1 AND before IS NOT NULL",
        "UPDATE memory_events SET after = json_remove(json_set(after, '$.content', NULL), '$.reason') \
         WHERE memory_id = $1 AND after IS NOT NULL",
    ];
}

mod body {
    use super::{SqliteStore as Backend, dialect};
    type Db = sqlx::Sqlite;
    include!("body.rs");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// A full disk makes SQLite roll a transaction back by itself; the
    /// writer must not stay unusable after it (ops round 4, H2: every later
    /// run failed with "non-zero transaction depth" until a restart).
    #[tokio::test]
    async fn the_writer_recovers_from_a_transaction_sqlite_rolled_back_by_itself() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let store = SqliteStore::open(&dir.path().join("t.db")).await.expect("the store opens");
        {
            let mut conn = dialect::writer(&store.writer).await.expect("the writer");
            let mut tx = dialect::begin_write(&mut conn).await.expect("a write transaction");
            // What SQLITE_FULL does inside the engine: the transaction ends
            // without sqlx knowing.
            sqlx::query("ROLLBACK").execute(&mut *tx).await.expect("the engine's own rollback");
        }
        store.apply(Vec::new()).await.expect("the next write goes through");
        store.apply(Vec::new()).await.expect("and the one after it");
    }

    /// Another process holding the write lock past the wait is a busy
    /// database, which a tool call answers 503 `unavailable` (try again),
    /// not 500 `internal` (HTTP review of December 2026, M2).
    #[tokio::test]
    async fn a_lock_held_past_the_wait_is_a_busy_database() {
        use sqlx::{ConnectOptions, Connection};
        let dir = tempfile::tempdir().expect("a scratch directory");
        let path = dir.path().join("t.db");
        let store =
            SqliteStore::open_waiting(&path, Duration::from_millis(50)).await.expect("opens");
        let mut other = SqliteConnectOptions::new()
            .filename(&path)
            .connect()
            .await
            .expect("a second connection");
        sqlx::query("BEGIN EXCLUSIVE").execute(&mut other).await.expect("the lock");
        let busy = store.release_claims("run").await.expect_err("the lock is held");
        assert!(busy.is_busy(), "{busy}");
        let refusal = crate::tools::Refusal::from(busy);
        assert_eq!(refusal.code.as_str(), "unavailable", "{}", refusal.message);
        sqlx::query("ROLLBACK").execute(&mut other).await.expect("released");
        let _ = other.close().await;
    }

    /// A database file deleted under a running process: its writes would go
    /// to the unlinked file and be lost (ops round 4, M6), so every write
    /// and the health check say so instead.
    #[tokio::test]
    async fn a_database_file_deleted_under_the_store_is_noticed() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let path = dir.path().join("t.db");
        let store = SqliteStore::open(&path).await.expect("the store opens");
        store.apply(Vec::new()).await.expect("a write while the file is there");
        assert!(store.schema().await.expect("the schema reads").is_current());
        for suffix in ["", "-wal", "-shm"] {
            let mut file = path.as_os_str().to_owned();
            file.push(suffix);
            let _ = std::fs::remove_file(file);
        }
        let written = store.release_claims("run").await.expect_err("no write to a deleted file");
        assert!(written.is_unreachable(), "a run stops taking work: {written}");
        assert!(written.to_string().contains("was deleted or replaced"), "{written}");
        assert!(written.is_database_replaced(), "a service exits on it: {written}");
        let health = store.schema().await.expect_err("not healthy");
        assert!(health.to_string().contains("restart dreamd"), "{health}");
    }
}
