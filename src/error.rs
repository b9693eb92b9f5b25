//! One error type for the library, so the binary can map every failure to the
//! exit codes of spec §8: 2 for what the caller can fix, 1 for what it cannot.

use std::fmt;

/// A line of input that failed validation, with its 1-based number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The configuration is invalid; the message names the key and its source.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// A command's arguments or input are unacceptable; the message says why.
    #[error("{0}")]
    Invalid(String),
    /// A text dreamd may not store (spec §2); the message names the category, never the text.
    #[error("{0}")]
    Refused(String),
    #[error("{what} '{id}' not found")]
    NotFound { what: &'static str, id: String },
    /// The record changed between reading and writing it (compare-and-set
    /// lost), or is not in the state the change needs (a decided
    /// suggestion, a deleted memory): the arguments were right, the record
    /// moved on (409 over HTTP, not 400; HTTP round 4, L6).
    #[error("{0}")]
    Stale(String),
    /// An ingest input with invalid lines; nothing of it was written.
    #[error("{} invalid line(s), nothing was written:\n{}", .0.len(), join_lines(.0))]
    IngestRejected(Vec<LineError>),
    #[error("database: {context}: {source}")]
    Database {
        context: String,
        #[source]
        source: sqlx::Error,
    },
    /// The database went away during a run; what was in flight is left for the next run.
    #[error("database unreachable: {0}")]
    Unreachable(String),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A row read back from the store holds a value dreamd does not know.
    #[error("corrupt row: {0}")]
    Corrupt(String),
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

fn join_lines(errors: &[LineError]) -> String {
    errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

impl Error {
    /// The process exit code for this error (spec §8, §10.2).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Config(_)
            | Error::Invalid(_)
            | Error::Refused(_)
            | Error::NotFound { .. }
            | Error::Stale(_)
            | Error::IngestRejected(_) => 2,
            // A database URL sqlx cannot read (a port that is no number,
            // a broken IPv6 address): the configuration's fault.
            Error::Database { source: sqlx::Error::Configuration(_), .. } => 2,
            Error::Database { .. }
            | Error::Unreachable(_)
            | Error::Migrate(_)
            | Error::Corrupt(_)
            | Error::Io { .. } => 1,
        }
    }

    /// Whether the database could not be reached at all (connection refused
    /// or lost, no connection within the pool's timeout), as opposed to a
    /// statement that failed: a run stops taking work on it.
    pub fn is_unreachable(&self) -> bool {
        matches!(
            self,
            Error::Database {
                source: sqlx::Error::Io(_)
                    | sqlx::Error::PoolTimedOut
                    | sqlx::Error::PoolClosed
                    | sqlx::Error::Tls(_)
                    | sqlx::Error::WorkerCrashed,
                ..
            }
        )
    }

    /// Whether another writer held the database past the wait for its lock
    /// (SQLite's `database is locked`, PostgreSQL's lock or connection
    /// limits): the request may succeed if tried again.
    pub fn is_busy(&self) -> bool {
        let Error::Database { source, .. } = self else { return false };
        let postgres = |e: &sqlx::Error| match e {
            sqlx::Error::Database(d) => {
                matches!(d.code().as_deref(), Some("55P03" | "53300" | "57P03" | "40P01"))
            }
            _ => false,
        };
        matches!(sqlite_code(source), Some(5 | 6)) || postgres(source)
    }

    /// Whether the database file was deleted or replaced under this
    /// process ([`DatabaseReplaced`]): no later run can write, so a
    /// service exits and its manager starts it on the new file.
    pub fn is_database_replaced(&self) -> bool {
        matches!(self, Error::Database { source: sqlx::Error::Io(e), .. }
            if e.get_ref().is_some_and(|inner| inner.is::<DatabaseReplaced>()))
    }

    /// Wraps a database error with what was being done, for `map_err`.
    pub fn db(context: impl Into<String>) -> impl FnOnce(sqlx::Error) -> Error {
        let context = context.into();
        move |source| Error::Database { context, source }
    }

    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        let context = context.into();
        move |source| Error::Io { context, source }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// SQLite's primary result code of a database error (`SQLITE_BUSY` is 5,
/// `SQLITE_READONLY` 8): its extended codes keep it in their low byte.
/// `None` for PostgreSQL's, whose codes may be numbers too.
pub(crate) fn sqlite_code(e: &sqlx::Error) -> Option<i32> {
    let sqlx::Error::Database(d) = e else { return None };
    d.try_downcast_ref::<sqlx::sqlite::SqliteError>()?;
    d.code()?.parse::<i32>().ok().map(|c| c & 0xff)
}

/// The database file this process opened was deleted or replaced at its
/// path: what it would write goes to a file no one reads (the message says
/// what to do).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DatabaseReplaced(pub String);
