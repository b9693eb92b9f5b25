//! Throwaway databases and a way to run the `dreamd` binary against them.

use dreamd::store::{PgStore, SqliteStore, Store};
use sqlx::Connection;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use tempfile::TempDir;

pub const NOW: &str = "2026-11-29T12:00:00Z";

pub fn now() -> dreamd::domain::Time {
    NOW.parse().unwrap()
}

/// The PostgreSQL server for tests, or `None` (with a note) when not configured.
/// CI always sets it, so there a missing URL is a failure, not a skip.
pub fn postgres_admin_url() -> Option<String> {
    match std::env::var("DREAMD_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI must set DREAMD_TEST_POSTGRES_URL (see .ci/postgres)")
        }
        _ => {
            eprintln!(
                "skipped: DREAMD_TEST_POSTGRES_URL is not set (eval \"$(.ci/postgres start)\")"
            );
            None
        }
    }
}

/// Creates a fresh database on the test server and returns its URL.
pub async fn fresh_postgres_database(admin_url: &str) -> String {
    let name = format!("dreamd_test_{}", uuid::Uuid::now_v7().simple());
    let mut admin =
        sqlx::PgConnection::connect(admin_url).await.expect("connect to the test server");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await
        .expect("create a test database");
    let base = admin_url.rsplit_once('/').map(|(base, _)| base).unwrap_or(admin_url);
    format!("{base}/{name}")
}

/// Drops a test database once its test passed (a failed test leaves its
/// database for a look), so a long-lived test cluster does not fill up.
pub async fn drop_postgres_database(admin_url: &str, url: &str, store: dreamd::store::PgStore) {
    store.pool().close().await;
    let name = url.rsplit_once('/').map(|(_, name)| name).unwrap_or(url);
    let mut admin =
        sqlx::PgConnection::connect(admin_url).await.expect("connect to the test server");
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE {name} WITH (FORCE)")))
        .execute(&mut admin)
        .await
        .expect("drop a test database");
}

/// Raw SQL for tests that check rows directly, as an operator or agent would.
pub(crate) trait RawSql: Store {
    async fn count(&self, sql: &str) -> i64;
    async fn execute(&self, sql: &str);
    /// A SQL literal for a time, as an agent writing this backend directly would spell it.
    fn time_literal(&self, rfc3339: &str) -> String;
    /// Rows in any table holding `needle` in any text column.
    async fn rows_containing(&self, needle: &str) -> i64;
    /// Every row of every table but `messages` (the agent's own data), as text:
    /// what an erasure must leave without a trace.
    async fn dump_except_messages(&self) -> String;
}

const TEXT_COLUMNS: &[(&str, &str)] = &[
    ("memories", "content"),
    ("memory_events", "before"),
    ("memory_events", "after"),
    ("slips", "content"),
    ("slips", "quote"),
    ("suggestions", "content"),
    ("tombstones", "fingerprint"),
];

impl RawSql for SqliteStore {
    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
            .fetch_one(self.pool())
            .await
            .unwrap()
    }
    async fn execute(&self, sql: &str) {
        sqlx::query(sqlx::AssertSqlSafe(sql.to_owned())).execute(self.pool()).await.unwrap();
    }
    fn time_literal(&self, rfc3339: &str) -> String {
        let t: dreamd::domain::Time = rfc3339.parse().unwrap();
        format!("'{}'", t.format("%Y-%m-%dT%H:%M:%S%.3fZ"))
    }
    async fn dump_except_messages(&self) -> String {
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'messages' ORDER BY name",
        )
        .fetch_all(self.pool())
        .await
        .unwrap();
        let mut dump = String::new();
        for table in tables {
            let rows = sqlite_rows_as_text(self, &table).await;
            dump.push_str(&format!("## {table}\n{}\n", rows.join("\n")));
        }
        dump
    }
    async fn rows_containing(&self, needle: &str) -> i64 {
        let mut total = 0;
        for (table, column) in TEXT_COLUMNS {
            total += self
                .count(&format!(
                    "SELECT count(*) FROM {table} WHERE instr({column}, '{needle}') > 0"
                ))
                .await;
        }
        total
    }
}

/// Every row of a SQLite table as one text line, each column quoted.
async fn sqlite_rows_as_text(store: &SqliteStore, table: &str) -> Vec<String> {
    let columns: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT name FROM pragma_table_info('{table}')"
    )))
    .fetch_all(store.pool())
    .await
    .unwrap();
    let row = columns
        .iter()
        .map(|c| format!("coalesce(quote(\"{c}\"), '')"))
        .collect::<Vec<_>>()
        .join(" || ' | ' || ");
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT {row} FROM \"{table}\"")))
        .fetch_all(store.pool())
        .await
        .unwrap()
}

impl RawSql for PgStore {
    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
            .fetch_one(self.pool())
            .await
            .unwrap()
    }
    async fn execute(&self, sql: &str) {
        sqlx::query(sqlx::AssertSqlSafe(sql.to_owned())).execute(self.pool()).await.unwrap();
    }
    fn time_literal(&self, rfc3339: &str) -> String {
        format!("'{rfc3339}'::timestamptz")
    }
    async fn dump_except_messages(&self) -> String {
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = 'public' AND table_name <> 'messages' ORDER BY 1",
        )
        .fetch_all(self.pool())
        .await
        .unwrap();
        let mut dump = String::new();
        for table in tables {
            let rows: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "SELECT t::text FROM \"{table}\" t"
            )))
            .fetch_all(self.pool())
            .await
            .unwrap();
            dump.push_str(&format!("## {table}\n{}\n", rows.join("\n")));
        }
        dump
    }
    async fn rows_containing(&self, needle: &str) -> i64 {
        let mut total = 0;
        for (table, column) in TEXT_COLUMNS {
            total += self
                .count(&format!(
                    "SELECT count(*) FROM {table} WHERE strpos({column}::text, '{needle}') > 0"
                ))
                .await;
        }
        total
    }
}

/// A SQLite store in its own directory, removed when dropped.
pub struct SqliteDb {
    pub store: SqliteStore,
    _dir: TempDir,
}

impl SqliteDb {
    pub async fn new() -> SqliteDb {
        let dir = TempDir::new().unwrap();
        let store = SqliteStore::open(&dir.path().join("dreamd.db")).await.unwrap();
        SqliteDb { store, _dir: dir }
    }
}

/// Runs each listed test function on a fresh SQLite store and a fresh PostgreSQL database.
macro_rules! on_both_backends {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    let db = crate::helpers::SqliteDb::new().await;
                    super::$name(&db.store).await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    let Some(admin) = crate::helpers::postgres_admin_url() else { return };
                    let url = crate::helpers::fresh_postgres_database(&admin).await;
                    let store = dreamd::store::PgStore::open(&url).await.unwrap();
                    super::$name(&store).await;
                    crate::helpers::drop_postgres_database(&admin, &url, store).await;
                }
            )+
        }
    };
}
pub(crate) use on_both_backends;

/// The `dreamd` binary with a clean environment and its own working directory.
pub struct Dreamd {
    pub dir: TempDir,
    pub database_url: String,
    env: Vec<(String, String)>,
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        assert_eq!(self.code, 0, "dreamd failed: {}", self.stderr);
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout))
    }
}

impl Dreamd {
    /// On the embedded default: a SQLite file created in a fresh working directory.
    pub fn sqlite() -> Dreamd {
        Dreamd {
            dir: TempDir::new().unwrap(),
            database_url: "sqlite://dreamd.db".into(),
            env: Vec::new(),
        }
    }

    pub async fn postgres() -> Option<Dreamd> {
        let admin = postgres_admin_url()?;
        let url = fresh_postgres_database(&admin).await;
        Some(Dreamd { dir: TempDir::new().unwrap(), database_url: url, env: Vec::new() })
    }

    pub fn env(mut self, key: &str, value: &str) -> Dreamd {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Points the openai provider at a fake server, with fast retries.
    pub fn with_model(self, base_url: &str) -> Dreamd {
        self.env("DREAMD_LLM__PROVIDER", "openai")
            .env("DREAMD_LLM__BASE_URL", base_url)
            .env("DREAMD_LLM__MODEL", "fake-model")
            .env("DREAMD_LLM__TIMEOUT_SECS", "5")
            .env("OPENAI_API_KEY", "sk-test-not-a-real-key-000000")
    }

    /// Ingests JSON Lines given as text.
    pub fn ingest(&self, lines: &[String]) {
        let run = self.run_with_stdin(&["ingest", "-"], &lines.join("\n"));
        assert_eq!(run.code, 0, "{}", run.stderr);
    }

    /// `--run-once --format json` at `now`; returns the exit code and the summary.
    pub fn run_once(&self, now: &str, extra: &[&str]) -> (i32, serde_json::Value) {
        let mut args = vec!["--run-once", "--format", "json", "--now", now];
        args.extend(extra);
        let run = self.run(&args);
        assert!(matches!(run.code, 0 | 3), "run failed ({}): {}", run.code, run.stderr);
        (
            run.code,
            serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout)),
        )
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_dreamd"));
        command
            .args(args)
            .current_dir(self.dir.path())
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DREAMD_DATABASE__URL", &self.database_url)
            .env("DREAMD_LOG__LEVEL", "warn");
        for (k, v) in &self.env {
            command.env(k, v);
        }
        command
    }

    pub fn run(&self, args: &[&str]) -> Run {
        finish(self.command(args).stdin(Stdio::null()).output().unwrap())
    }

    /// Runs with `--format json --now NOW` and parses the output.
    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = args.to_vec();
        all.extend(["--format", "json", "--now", NOW]);
        self.run(&all).json()
    }

    /// Runs with its stdout closed before it writes, as `dreamd … | head -1`
    /// leaves it once `head` has its line; `stdout` is always empty.
    pub fn run_with_closed_stdout(&self, args: &[&str]) -> Run {
        let mut child = self
            .command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        finish(child.wait_with_output().unwrap())
    }

    pub fn run_with_stdin(&self, args: &[&str], input: &str) -> Run {
        use std::io::Write;
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        finish(child.wait_with_output().unwrap())
    }
}

fn finish(output: Output) -> Run {
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// The repository's example conversations.
pub fn examples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/conversations.jsonl"))
}

/// One ingest line.
pub fn line(
    user: &str,
    conversation: &str,
    message: &str,
    role: &str,
    content: &str,
    at: &str,
) -> String {
    serde_json::json!({
        "user_id": user, "conversation_id": conversation, "message_id": message,
        "role": role, "content": content, "created_at": at,
    })
    .to_string()
}

/// Runs each listed scenario on the `dreamd` binary over a fresh SQLite file
/// and a fresh PostgreSQL database.
macro_rules! scenarios_on_both_backends {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $name() {
                    super::$name(crate::helpers::Dreamd::sqlite()).await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread")]
                async fn $name() {
                    let Some(d) = crate::helpers::Dreamd::postgres().await else { return };
                    super::$name(d).await;
                }
            )+
        }
    };
}
pub(crate) use scenarios_on_both_backends;

/// The arguments of `memories set` for one memory, for [`Dreamd::run`] and
/// [`Dreamd::json`].
pub fn set_memory<'a>(user: &'a str, kind: &'a str, scope: &'a str, text: &'a str) -> [&'a str; 9] {
    ["memories", "set", "--user", user, "--kind", kind, "--scope", scope, text]
}
