//! Several writers and replicas on one PostgreSQL (spec §4): no message is
//! skipped when writers of one conversation commit out of order.

use crate::app::{ingest, model_config, run_at};
use crate::fake_model;
use crate::helpers::{fresh_postgres_database, line, postgres_admin_url};
use dreamd::store::{PgStore, Store};
use sqlx::{Connection, PgConnection};

/// Waits until some session of the database waits on an advisory lock.
async fn until_waiting_on_advisory_lock(url: &str) {
    let mut conn = PgConnection::connect(url).await.unwrap();
    for _ in 0..600 {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'",
        )
        .fetch_one(&mut conn)
        .await
        .unwrap();
        if waiting > 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the held writer never reached its advisory lock");
}

/// A writer numbers a message of `c1`, then is held (inside the same
/// statement, before any statement-level trigger could run) while a second
/// writer of `c1` commits and a run goes by; then both finish. The next run
/// extracts every message exactly once.
#[tokio::test(flavor = "multi_thread")]
async fn a_writer_held_open_across_a_run_loses_no_message() {
    let Some(admin) = postgres_admin_url() else { return };
    let url = fresh_postgres_database(&admin).await;
    let store = PgStore::open(&url).await.unwrap();
    let server = fake_model::start(fake_model::one_slip_per_message).await;
    let config = model_config(&server.uri(), "");
    ingest(&store, &[line("jay", "c1", "m1", "user", "在做燕麦饮项目", "2026-11-27T09:00:00Z")])
        .await;

    let mut gate = PgConnection::connect(&url).await.unwrap();
    sqlx::query("SELECT pg_advisory_lock(42)").execute(&mut gate).await.unwrap();
    let held_url = url.clone();
    let held = tokio::spawn(async move {
        let mut conn = PgConnection::connect(&held_url).await.unwrap();
        let mut tx = conn.begin().await.unwrap();
        sqlx::query(
            "INSERT INTO messages (conversation_id, message_id, user_id, role, content, created_at) VALUES \
             ('c1', 'm2', 'jay', 'user', '还在做燕麦饮项目', '2026-11-27T09:01:00Z'), \
             ('c9', 'x1', 'jay', 'user', '在做酸奶项目' || (SELECT pg_advisory_lock(42))::text, '2026-11-27T09:01:00Z')",
        )
        .execute(&mut *tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
    });
    until_waiting_on_advisory_lock(&url).await;
    let second_url = url.clone();
    let second = tokio::spawn(async move {
        let mut conn = PgConnection::connect(&second_url).await.unwrap();
        sqlx::query(
            "INSERT INTO messages (conversation_id, message_id, user_id, role, content, created_at) \
             VALUES ('c1', 'm3', 'jay', 'user', '燕麦饮项目进入中试', '2026-11-27T09:02:00Z')",
        )
        .execute(&mut conn)
        .await
        .unwrap();
    });
    let during = run_at(&store, &config, "2026-11-29T12:00:00Z").await;
    assert_eq!(during.conversations.failed, 0, "{during:?}");
    sqlx::query("SELECT pg_advisory_unlock(42)").execute(&mut gate).await.unwrap();
    held.await.unwrap();
    second.await.unwrap();

    let after = run_at(&store, &config, "2026-11-29T13:00:00Z").await;
    assert_eq!(after.conversations.failed, 0, "{after:?}");
    let mut per_message: Vec<String> =
        store.slips("jay", None).await.unwrap().into_iter().map(|s| s.message_id).collect();
    per_message.sort();
    assert_eq!(per_message, ["m1", "m2", "m3", "x1"], "every message extracted exactly once");
}
