//! `dreamd mcp` driven by a real MCP client (rmcp's client side) over the
//! child's stdio, as an agent host would.

use crate::helpers::{Dreamd, line};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

pub(crate) async fn connect(d: &Dreamd) -> RunningService<RoleClient, ()> {
    let command: tokio::process::Command = d.command(&["mcp"]).into();
    ().serve(TokioChildProcess::new(command).unwrap()).await.expect("the MCP handshake")
}

pub(crate) async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams {
            meta: None,
            name: tool.to_owned().into(),
            arguments: args.as_object().cloned(),
            task: None,
        })
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

/// The structured result, checked against the text content clients without structured content read.
pub(crate) fn ok(result: CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let structured = result.structured_content.clone().expect("structured content");
    let text = result.content[0].as_text().expect("text content").text.clone();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), structured);
    structured
}

fn refused(result: CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result.content[0].as_text().unwrap().text.clone()
}

async fn agent_session(d: Dreamd) {
    d.ingest(&[
        line("jay", "c1", "m1", "user", "记住：读标准时按流程卡整理", "2026-11-28T00:00:00Z"),
        line("emma", "e1", "m1", "user", "你好", "2026-11-28T00:00:00Z"),
    ]);
    let d = d.env("DREAMD_MCP__USERS", r#"["jay"]"#);
    let client = connect(&d).await;
    let tools: Vec<String> =
        client.list_all_tools().await.unwrap().into_iter().map(|t| t.name.to_string()).collect();
    for name in [
        "recall",
        "remember",
        "forget",
        "disable",
        "enable",
        "edit",
        "explain",
        "list_memories",
        "list_suggestions",
        "accept_suggestion",
        "reject_suggestion",
    ] {
        assert!(tools.contains(&name.to_owned()), "missing tool {name}: {tools:?}");
    }

    let memory = ok(call(
        &client,
        "remember",
        json!({"user_id": "jay", "kind": "presentation", "scope": "domain:standard",
        "text": "读标准时按流程卡整理", "conversation_id": "c1", "message_id": "m1"}),
    )
    .await);
    let id = memory["memory_id"].as_str().unwrap().to_owned();
    assert_eq!(
        (memory["origin"].as_str(), memory["source_conversation_ids"].clone()),
        (Some("explicit"), json!(["c1"]))
    );

    let loaded = ok(call(
        &client,
        "recall",
        json!({"user_id": "jay", "scopes": ["domain:standard"], "conversation_id": "c2"}),
    )
    .await);
    assert!(loaded["load_id"].is_string());
    assert_eq!(loaded["memories"][0]["memory_id"], id.as_str());

    let explained = ok(call(&client, "explain", json!({"user_id": "jay", "memory_id": id})).await);
    assert_eq!(explained["memory"]["loaded_in"], json!(["c2"]));
    assert_eq!(explained["loads"][0]["load_id"], loaded["load_id"]);
    assert_eq!(explained["history"][0]["actor"], "user");

    let edited = ok(call(
        &client,
        "edit",
        json!({"user_id": "jay", "memory_id": id, "text": "读标准时按流程卡整理，列出条款号"}),
    )
    .await);
    assert_eq!(edited["version"], 2);

    let forgotten = ok(call(&client, "forget", json!({"user_id": "jay", "memory_id": id})).await);
    assert_eq!(
        (forgotten["status"].as_str(), forgotten["content"].is_null()),
        (Some("deleted"), true)
    );
    let after =
        ok(call(&client, "recall", json!({"user_id": "jay", "scopes": ["domain:standard"]})).await);
    assert_eq!(after["memories"], json!([]));

    let secret = refused(call(&client, "remember", json!({"user_id": "jay", "kind": "background", "scope": "global", "text": "我的密码是 Abc@12345"})).await);
    assert!(secret.contains("password") && !secret.contains("Abc@12345"), "{secret}");
    let into_emmas =
        refused(call(&client, "recall", json!({"user_id": "jay", "conversation_id": "e1"})).await);
    assert!(into_emmas.contains("the conversation belongs to another user"), "{into_emmas}");
    assert!(!into_emmas.contains("'e1'"), "the refusal repeats the id: {into_emmas}");
    let outsider = refused(call(&client, "recall", json!({"user_id": "emma"})).await);
    assert!(outsider.contains("mcp.users"), "{outsider}");
    let foreign = refused(
        call(&client, "disable", json!({"user_id": "jay", "memory_id": "someone-elses"})).await,
    );
    assert!(foreign.contains("no such memory") && !foreign.contains("someone-elses"), "{foreign}");
    assert_eq!(
        ok(call(&client, "list_suggestions", json!({"user_id": "jay"})).await),
        json!({"suggestions": []})
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_session_on_sqlite() {
    agent_session(Dreamd::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_session_on_postgres() {
    let Some(d) = Dreamd::postgres().await else {
        return;
    };
    agent_session(d).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn with_no_allowed_users_every_call_is_refused_naming_the_key() {
    let d = Dreamd::sqlite();
    let client = connect(&d).await;
    let refusal = refused(call(&client, "list_memories", json!({"user_id": "jay"})).await);
    assert!(refusal.contains("set mcp.users"), "{refusal}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_exits_when_stdin_closes() {
    let d = Dreamd::sqlite().env("DREAMD_MCP__USERS", r#"["*"]"#);
    let mut child = d
        .command(&["mcp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdin.take());
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "still running 10 s after stdin closed"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(status.success());
}

/// A host's stray line (an empty one, a log line, JSON that is no MCP
/// message) is answered with JSON-RPC's error and the server goes on; the
/// requests written just before stdin closes are still answered (HTTP
/// review of December 2026: rmcp alone ended at the first bad line, and
/// dropped what was in flight at the end of its input).
#[tokio::test(flavor = "multi_thread")]
async fn a_bad_line_is_answered_and_requests_before_the_end_of_input_are_too() {
    use std::io::{Read, Write};
    let d = Dreamd::sqlite().env("DREAMD_MCP__USERS", r#"["*"]"#);
    let mut child = d
        .command(&["mcp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "",
        "not json at all",
        r#"{"jsonrpc":"2.0","id":"x"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"remember","arguments":{"user_id":"jay","text":"Put the result first","kind":"presentation","scope":"global"}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
    ];
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{}\n", lines.join("\n")).as_bytes()).unwrap();
    drop(stdin);
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    assert!(child.wait().unwrap().success());
    let answers: Vec<serde_json::Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let code_for = |id: serde_json::Value| {
        answers.iter().find(|a| a["id"] == id).map(|a| a["error"]["code"].clone())
    };
    assert_eq!(code_for(json!(null)), Some(json!(-32700)), "{out}");
    assert_eq!(code_for(json!("x")), Some(json!(-32600)), "{out}");
    for id in [1, 2, 3] {
        assert_eq!(code_for(json!(id)), Some(serde_json::Value::Null), "id {id} answered: {out}");
    }
    let remembered = d.json(&["memories", "list", "--user", "jay"]);
    assert_eq!(remembered.as_array().map(Vec::len), Some(1), "the remember was carried out");
}

/// A request before the handshake ends nothing and says nothing of its
/// arguments: rmcp ended the server with exit 1 and printed the request,
/// a `remember` text with it, to stderr (re-test of December 2026, N1).
#[tokio::test(flavor = "multi_thread")]
async fn a_request_before_the_handshake_is_refused_without_a_word_of_it() {
    use std::io::{Read, Write};
    let d = Dreamd::sqlite().env("DREAMD_MCP__USERS", r#"["*"]"#);
    let mut child = d
        .command(&["mcp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let early = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"remember","arguments":{"user_id":"jay","kind":"background","scope":"global","text":"CANARY-early-text"}}}"#;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{early}\n").as_bytes()).unwrap();
    drop(stdin);
    let (mut out, mut err) = (String::new(), String::new());
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(child.wait().unwrap().success(), "{err}");
    let answer: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((answer["id"].clone(), answer["error"]["code"].clone()), (json!(3), json!(-32002)));
    assert!(!err.contains("CANARY") && !out.contains("CANARY"), "{err}");
}
