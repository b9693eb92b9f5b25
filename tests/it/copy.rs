//! Moving up from SQLite: `dreamd copy --to postgres://…` carries everything
//! with history, and the daemon goes on working on the copy.

use crate::helpers::{Dreamd, examples, line, set_memory};
use serde_json::Value;

/// Every user-facing record of a user: memories with evidence, their
/// history, slips, suggestions and loads.
fn everything_of(d: &Dreamd, user: &str) -> Value {
    let memories = d.json(&["memories", "list", "--user", user, "--all"]);
    let histories: Vec<Value> = memories
        .as_array()
        .unwrap()
        .iter()
        .map(|m| d.json(&["memories", "history", m["memory_id"].as_str().unwrap()]))
        .collect();
    serde_json::json!({
        "memories": memories,
        "histories": histories,
        "slips": d.json(&["slips", "list", "--user", user]),
        "suggestions": d.json(&["suggestions", "list", "--user", user, "--all"]),
        "loads": d.json(&["loads", "list", "--user", user]),
    })
}

/// A database that has seen a full scenario: runs, explicit and deleted
/// memories, an accepted and a pending suggestion, a load.
fn lived_in() -> Dreamd {
    let d = Dreamd::sqlite();
    d.json(&["ingest", examples().to_str().unwrap()]);
    d.run_once("2026-11-29T12:00:00Z", &[]);
    let suggestions = d.json(&["suggestions", "list", "--user", "jay"]);
    if let Some(first) = suggestions.as_array().unwrap().first() {
        d.json(&["suggestions", "accept", first["suggestion_id"].as_str().unwrap()]);
    }
    let set = d.json(&set_memory("jay", "presentation", "global", "回答先给结论"));
    let gone = d.json(&set_memory("jay", "background", "global", "在研发中心"));
    d.json(&["memories", "delete", gone["memory_id"].as_str().unwrap()]);
    d.json(&["memories", "edit", set["memory_id"].as_str().unwrap(), "回答先给结论，再给依据"]);
    d.json(&["recall", "--user", "jay", "--conversation", "c-new"]);
    d
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sqlite_database_moves_to_postgres_with_its_history() {
    let Some(target) = Dreamd::postgres().await else { return };
    let source = lived_in();
    let copied = source.run(&["copy", "--to", &target.database_url, "--format", "json"]);
    assert_eq!(copied.code, 0, "{}", copied.stderr);
    let counts: Value = serde_json::from_str(&copied.stdout).unwrap();
    for table in counts.as_array().unwrap() {
        assert_eq!(table["source"], table["target"], "{table}");
    }
    let nonzero = |name: &str| {
        counts
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["table"] == name && t["target"].as_u64() > Some(0))
    };
    for table in [
        "messages",
        "slips",
        "memories",
        "memory_events",
        "suggestions",
        "tombstones",
        "loads",
        "runs",
    ] {
        assert!(nonzero(table), "the scenario wrote no {table}: {counts}");
    }
    for user in ["jay", "emma", "li"] {
        assert_eq!(everything_of(&target, user), everything_of(&source, user), "user {user}");
    }
    let status = |d: &Dreamd| d.json(&["status"])["runs"].clone();
    assert_eq!(status(&target), status(&source));

    let again = source.run(&["copy", "--to", &target.database_url]);
    assert_eq!(again.code, 2, "a non-empty target is refused: {}", again.stderr);
    assert!(again.stderr.contains("not empty"), "{}", again.stderr);

    target.ingest(&[line(
        "jay",
        "c-after",
        "m1",
        "user",
        "最近在做低糖酸奶项目",
        "2026-12-01T09:00:00Z",
    )]);
    let (code, summary) = target.run_once("2026-12-02T12:00:00Z", &[]);
    assert_eq!(code, 0, "{summary}");
    assert_eq!(summary["messages"]["extracted"], 1, "only the new message: {summary}");
}
