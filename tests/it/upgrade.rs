//! A database made by the release before the store was written once
//! (migrations 0001–0004) upgrades in place: the new binary migrates it and
//! every record reads back unchanged through the command line, on SQLite
//! and PostgreSQL; the pipeline then runs on it.

use crate::helpers::{Dreamd, line, scenarios_on_both_backends};
use serde_json::{Value, json};
use std::path::Path;

scenarios_on_both_backends!(a_database_of_the_last_release_upgrades_in_place);

/// The migrations the last release shipped, applied as that release did.
async fn old_schema(url: &str, backend: &str, dir: &Path) {
    let old = dir.join("old-migrations");
    std::fs::create_dir_all(&old).unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations").join(backend);
    for entry in std::fs::read_dir(shipped).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if ["0001", "0002", "0003", "0004"].iter().any(|n| name.starts_with(n)) {
            std::fs::copy(&path, old.join(name)).unwrap();
        }
    }
    let migrator = sqlx::migrate::Migrator::new(old.as_path()).await.unwrap();
    if backend == "postgres" {
        let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(url).await.unwrap();
        migrator.run(&mut conn).await.unwrap();
    } else {
        let mut conn = <sqlx::SqliteConnection as sqlx::Connection>::connect(url).await.unwrap();
        migrator.run(&mut conn).await.unwrap();
    }
}

/// What the last release wrote for one user, in its own column formats.
fn old_rows(postgres: bool) -> Vec<String> {
    let t = |s: &str| {
        if postgres {
            format!("'{s}'::timestamptz")
        } else {
            format!("'{}'", s.replace('Z', ".000Z"))
        }
    };
    let scopes = if postgres { "'{project:A}'" } else { r#"'["project:A"]'"# };
    let ev1_after = json!({"kind": "background", "scope": "global", "origin": "auto", "status": "active",
        "version": 1, "content": "在质检部做微生物检测", "expires_at": "2027-11-20T09:00:00Z"});
    let mut ev2_after = ev1_after.clone();
    ev2_after["version"] = json!(2);
    vec![
        format!(
            "INSERT INTO messages (conversation_id, message_id, user_id, role, content, created_at) VALUES \
             ('c1', 'm1', 'jay', 'user', '我在质检部做微生物检测', {}), ('c1', 'm2', 'jay', 'assistant', '好的', {})",
            t("2026-11-20T09:00:00Z"),
            t("2026-11-20T09:01:00Z")
        ),
        format!("UPDATE conversations SET scopes = {scopes}, watermark_seq = last_seq WHERE conversation_id = 'c1'"),
        format!(
            "INSERT INTO slips (slip_id, user_id, conversation_id, message_id, kind, scope, durability, valid_until, \
             content, quote, expressed_at, state, run_id) VALUES \
             ('s1', 'jay', 'c1', 'm1', 'background', 'global', 'lasting', NULL, '在质检部做微生物检测', '我在质检部做微生物检测', {at}, 'consolidated', 'r1'), \
             ('s2', 'jay', 'c1', 'm1', 'terminology', 'global', 'lasting', NULL, 'LC 指生命周期', '质检部', {at}, 'consolidated', 'r1')",
            at = t("2026-11-20T09:00:00Z")
        ),
        format!(
            "INSERT INTO memories (memory_id, user_id, kind, scope, origin, status, version, content, created_at, \
             updated_at, expires_at, source_conversation_id, source_message_id) VALUES \
             ('auto', 'jay', 'background', 'global', 'auto', 'active', 2, '在质检部做微生物检测', {a}, {b}, {e}, NULL, NULL), \
             ('mine', 'jay', 'presentation', 'project:A', 'explicit', 'active', 1, '报告先说结论', {a}, {a}, NULL, 'c1', 'm1'), \
             ('gone', 'jay', 'presentation', 'global', 'explicit', 'deleted', 2, NULL, {a}, {b}, NULL, NULL, NULL)",
            a = t("2026-11-21T12:00:00Z"),
            b = t("2026-11-22T12:00:00Z"),
            e = t("2027-11-20T09:00:00Z")
        ),
        "INSERT INTO memory_evidence (memory_id, slip_id) VALUES ('auto', 's1')".into(),
        format!(
            "INSERT INTO memory_events (event_id, memory_id, at, actor, action, run_id, slip_ids, before, after) VALUES \
             ('e1', 'auto', {a}, 'dreamd', 'create', 'r1', '[\"s1\"]', NULL, '{ev1}'), \
             ('e2', 'auto', {b}, 'dreamd', 'confirm', 'r2', '[\"s1\"]', '{ev1}', '{ev2}')",
            a = t("2026-11-21T12:00:00Z"),
            b = t("2026-11-22T12:00:00Z"),
            ev1 = ev1_after,
            ev2 = ev2_after
        ),
        format!(
            "INSERT INTO tombstones (memory_id, user_id, kind, scope, deleted_at, fingerprint) VALUES \
             ('gone', 'jay', 'presentation', 'global', {}, 'abc123')",
            t("2026-11-22T12:00:00Z")
        ),
        format!(
            "INSERT INTO suggestions (suggestion_id, user_id, op, kind, scope, content, memory_id, target_version, \
             status, created_at, decided_at) VALUES \
             ('g1', 'jay', 'create', 'terminology', 'global', 'LC 指生命周期', NULL, NULL, 'pending', {}, NULL)",
            t("2026-11-21T12:00:00Z")
        ),
        "INSERT INTO suggestion_evidence (suggestion_id, slip_id) VALUES ('g1', 's2')".into(),
        format!(
            "INSERT INTO loads (load_id, user_id, conversation_id, at) VALUES ('l1', 'jay', 'c1', {})",
            t("2026-11-23T08:00:00Z")
        ),
        "INSERT INTO load_memories (load_id, memory_id, version, position) VALUES ('l1', 'mine', 1, 0)".into(),
        format!(
            "INSERT INTO runs (run_id, started_at, finished_at, dry_run, summary) VALUES ('r1', {}, {}, false, '{}')",
            t("2026-11-21T12:00:00Z"),
            t("2026-11-21T12:00:01Z"),
            json!({"conversations": {"selected": 1, "failed": 0}, "slips": {"kept": 2}, "duration_ms": 1000})
        ),
        format!(
            "INSERT INTO failed_ranges (conversation_id, from_seq, to_seq, attempts, reason, failed_at) \
             VALUES ('c1', 1, 1, 3, 'the model call timed out', {})",
            t("2026-11-21T12:00:00Z")
        ),
    ]
}

async fn write_old_rows(url: &str, postgres: bool) {
    use sqlx::Connection;
    if postgres {
        let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
        for statement in old_rows(true) {
            let sql = sqlx::AssertSqlSafe(statement.clone());
            if let Err(e) = sqlx::query(sql).execute(&mut conn).await {
                panic!("{e}: {statement}");
            }
        }
    } else {
        let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
        for statement in old_rows(false) {
            let sql = sqlx::AssertSqlSafe(statement.clone());
            if let Err(e) = sqlx::query(sql).execute(&mut conn).await {
                panic!("{e}: {statement}");
            }
        }
    }
}

fn pick(record: &Value, fields: &[&str]) -> Value {
    fields.iter().map(|f| (f.to_string(), record[*f].clone())).collect()
}

async fn a_database_of_the_last_release_upgrades_in_place(d: Dreamd) {
    let postgres = d.database_url.starts_with("postgres");
    let url = if postgres {
        d.database_url.clone()
    } else {
        std::fs::File::create(d.path("dreamd.db")).unwrap();
        format!("sqlite://{}", d.path("dreamd.db").display())
    };
    old_schema(&url, if postgres { "postgres" } else { "sqlite" }, d.dir.path()).await;
    write_old_rows(&url, postgres).await;

    let memories = d.json(&["memories", "list", "--user", "jay", "--all"]);
    let fields = ["memory_id", "kind", "scope", "origin", "status", "version", "content"];
    let found: Vec<Value> = memories.as_array().unwrap().iter().map(|m| pick(m, &fields)).collect();
    assert_eq!(
        found,
        [
            json!({"memory_id": "auto", "kind": "background", "scope": "global", "origin": "auto",
                   "status": "active", "version": 2, "content": "在质检部做微生物检测"}),
            json!({"memory_id": "gone", "kind": "presentation", "scope": "global", "origin": "explicit",
                   "status": "deleted", "version": 2, "content": null}),
            json!({"memory_id": "mine", "kind": "presentation", "scope": "project:A", "origin": "explicit",
                   "status": "active", "version": 1, "content": "报告先说结论"}),
        ]
    );
    let auto = d.json(&["memories", "show", "auto"]);
    assert_eq!(
        pick(&auto, &["created_at", "updated_at", "expires_at"]),
        json!({"created_at": "2026-11-21T12:00:00Z", "updated_at": "2026-11-22T12:00:00Z",
               "expires_at": "2027-11-20T09:00:00Z"})
    );
    assert_eq!(auto["evidence"][0]["quote"], "我在质检部做微生物检测");
    assert_eq!(d.json(&["memories", "show", "mine"])["loaded_in"], json!(["c1"]));
    let history = d.json(&["memories", "history", "auto"]);
    let events: Vec<Value> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|e| pick(e, &["event_id", "action", "actor", "run_id", "slip_ids"]))
        .collect();
    assert_eq!(
        events,
        [
            json!({"event_id": "e1", "action": "create", "actor": "dreamd", "run_id": "r1", "slip_ids": ["s1"]}),
            json!({"event_id": "e2", "action": "confirm", "actor": "dreamd", "run_id": "r2", "slip_ids": ["s1"]}),
        ]
    );
    assert_eq!(history[1]["after"]["version"], 2);
    let slips = d.json(&["slips", "list", "--user", "jay"]);
    let states: Vec<Value> =
        slips.as_array().unwrap().iter().map(|s| pick(s, &["slip_id", "state", "quote"])).collect();
    assert_eq!(
        states,
        [
            json!({"slip_id": "s1", "state": "consolidated", "quote": "我在质检部做微生物检测"}),
            json!({"slip_id": "s2", "state": "consolidated", "quote": "质检部"}),
        ]
    );
    let suggestions = d.json(&["suggestions", "list", "--user", "jay", "--all"]);
    assert_eq!(
        pick(&suggestions[0], &["suggestion_id", "op", "kind", "status", "content"]),
        json!({"suggestion_id": "g1", "op": "create", "kind": "terminology", "status": "pending",
               "content": "LC 指生命周期"})
    );
    assert_eq!(suggestions[0]["evidence"][0]["slip_id"], "s2");
    let loads = d.json(&["loads", "list", "--user", "jay"]);
    assert_eq!(loads[0]["memories"], json!([{"memory_id": "mine", "version": 1}]));
    let status = d.json(&["status"]);
    assert_eq!(status["runs"][0]["run_id"], "r1");
    assert_eq!(status["failed_ranges"][0]["attempts"], 3);

    d.ingest(&[line("jay", "c1", "m3", "user", "最近在做低糖酸奶项目", "2026-11-27T09:00:00Z")]);
    let (code, summary) = d.run_once("2026-11-29T12:00:00Z", &[]);
    assert_eq!(code, 0, "{summary}");
    assert_eq!(summary["messages"]["extracted"], 1, "only the new message: {summary}");
}
