//! Recall with a query (spec §10.25) from the command line and over MCP, on
//! both backends: what shapes every answer first, then the background and
//! current work that bear on the request; without a query, §10.9's order.

use crate::helpers::{Dreamd, scenarios_on_both_backends};
use serde_json::{Value, json};

scenarios_on_both_backends!(the_command_line_ranks_by_the_query, mcp_recall_takes_the_query);

/// A user with one answer habit and more background and focus than recall
/// returns; the memory the queries aim at is the oldest.
const MEMORIES: &[(&str, &str, &str, &str)] = &[
    ("background", "global", "负责发酵乳配方研发，主要是风味发酵乳", "2026-11-01T08:00:00Z"),
    ("presentation", "global", "回答先给结论，再给依据", "2026-11-02T08:00:00Z"),
    ("recent_focus", "project:燕麦饮", "燕麦饮货架期报告下周要出", "2026-11-03T08:00:00Z"),
    ("recent_focus", "project:常温酸奶", "常温酸奶的货架期报告在写初稿", "2026-11-04T08:00:00Z"),
    ("recent_focus", "global", "在准备12月的 ISO 22000 内审", "2026-11-05T08:00:00Z"),
    ("recent_focus", "global", "最近在整理车间的HACCP计划", "2026-11-06T08:00:00Z"),
    ("background", "global", "平时也参与感官评价", "2026-11-07T08:00:00Z"),
];

fn set_memories(d: &Dreamd) {
    for (kind, scope, text, at) in MEMORIES {
        let args = ["memories", "set", "--user", "jay", "--kind", kind, "--scope", scope, text];
        d.run(&[&args[..], &["--format", "json", "--now", at]].concat()).json();
    }
}

fn contents(memories: &Value) -> Vec<&str> {
    memories.as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap()).collect()
}

async fn the_command_line_ranks_by_the_query(d: Dreamd) {
    set_memories(&d);
    let scopes = ["--scope", "project:燕麦饮", "--scope", "project:常温酸奶"];
    let recall = |extra: &[&str]| {
        let mut args = vec!["recall", "--user", "jay", "--limit", "3"];
        args.extend(scopes);
        args.extend(extra);
        d.json(&args)
    };
    let ranked = recall(&["--query", "燕麦饮的货架期报告什么时候能出？"]);
    assert_eq!(
        contents(&ranked),
        ["回答先给结论，再给依据", "燕麦饮货架期报告下周要出", "常温酸奶的货架期报告在写初稿"]
    );
    let fermented = recall(&["--query", "发酵乳的配方要注意什么？"]);
    assert_eq!(contents(&fermented)[1], "负责发酵乳配方研发，主要是风味发酵乳");
    let unranked = recall(&[]);
    assert_eq!(
        contents(&unranked),
        ["常温酸奶的货架期报告在写初稿", "燕麦饮货架期报告下周要出", "平时也参与感官评价"],
        "without a query, §10.9's order holds"
    );

    let loaded = recall(&["--query", "发酵乳的配方要注意什么？", "--conversation", "c-new"]);
    let loads = d.json(&["loads", "list", "--user", "jay", "--conversation", "c-new"]);
    let loaded_ids: Vec<&Value> =
        loaded["memories"].as_array().unwrap().iter().map(|m| &m["memory_id"]).collect();
    let load_ids: Vec<&Value> =
        loads[0]["memories"].as_array().unwrap().iter().map(|m| &m["memory_id"]).collect();
    assert_eq!(loaded_ids, load_ids, "the load records the ranked memories, in order");
    assert_eq!(loaded["memories"][1]["content"], "负责发酵乳配方研发，主要是风味发酵乳");

    let text = d.run(&["recall", "--user", "jay", "--limit", "2", "--query", "HACCP 计划"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("HACCP"), "{}", text.stdout);
}

async fn mcp_recall_takes_the_query(d: Dreamd) {
    set_memories(&d);
    let d = d.env("DREAMD_MCP__USERS", r#"["jay"]"#);
    let client = crate::mcp::connect(&d).await;
    let tools = client.list_all_tools().await.unwrap();
    let recall = tools.iter().find(|t| t.name == "recall").unwrap();
    assert!(recall.input_schema.get("properties").unwrap().get("query").is_some());
    let described = recall.description.as_deref().unwrap_or_default();
    assert!(described.contains("query") && described.contains("request"), "{described}");

    let args = json!({"user_id": "jay", "scopes": ["project:燕麦饮"], "limit": 2,
                      "query": "ISO 22000 内审要准备什么？", "conversation_id": "c-mcp"});
    let loaded = crate::mcp::ok(crate::mcp::call(&client, "recall", args).await);
    assert_eq!(
        contents(&loaded["memories"]),
        ["回答先给结论，再给依据", "在准备12月的 ISO 22000 内审"]
    );
    assert!(loaded["load_id"].is_string());
    let unranked = crate::mcp::ok(
        crate::mcp::call(&client, "recall", json!({"user_id": "jay", "limit": 2})).await,
    );
    assert_eq!(
        contents(&unranked["memories"]),
        ["平时也参与感官评价", "最近在整理车间的HACCP计划"]
    );
    client.cancel().await.unwrap();
}
