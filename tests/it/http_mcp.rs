//! MCP over streamable HTTP at `/mcp`, driven by rmcp's own client as an
//! agent host would: the same tools as over stdio, whom they may act for
//! taken from the bearer token.

use crate::helpers::{Dreamd, line};
use crate::served::{JAY_TOKEN, Served, with_tokens};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

async fn connect(served: &Served, token: &str) -> RunningService<RoleClient, ()> {
    let config =
        StreamableHttpClientTransportConfig::with_uri(served.url("/mcp")).auth_header(token);
    ().serve(StreamableHttpClientTransport::from_config(config)).await.expect("the MCP handshake")
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> CallToolResult {
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

fn ok(result: CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.structured_content.expect("structured content")
}

fn refused(result: CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result.content[0].as_text().unwrap().text.clone()
}

/// A `tools/list` request to `/mcp` outside any session, as an MCP client
/// would send it; the caller adds a token or not.
fn tools_list(client: &reqwest::Client, served: &Served) -> reqwest::RequestBuilder {
    client
        .post(served.url("/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
}

async fn agent_over_http(d: Dreamd) {
    let d = with_tokens(d);
    d.ingest(&[line(
        "jay",
        "c1",
        "m1",
        "user",
        "记住：读标准时按流程卡整理",
        "2026-11-28T00:00:00Z",
    )]);
    let served = Served::start(&d);
    let client = connect(&served, JAY_TOKEN).await;
    let tools: Vec<String> =
        client.list_all_tools().await.unwrap().into_iter().map(|t| t.name.to_string()).collect();
    assert_eq!(tools.len(), 11, "{tools:?}");

    let memory = ok(call(
        &client,
        "remember",
        json!({"user_id": "jay", "kind": "presentation", "scope": "domain:standard",
            "text": "读标准时按流程卡整理", "conversation_id": "c1", "message_id": "m1"}),
    )
    .await);
    let id = memory["memory_id"].as_str().unwrap().to_owned();
    let loaded = ok(call(
        &client,
        "recall",
        json!({"user_id": "jay", "scopes": ["domain:standard"], "conversation_id": "c2"}),
    )
    .await);
    assert_eq!(loaded["memories"][0]["memory_id"], id.as_str());
    let explained = ok(call(&client, "explain", json!({"user_id": "jay", "memory_id": id})).await);
    assert_eq!(explained["memory"]["loaded_in"], json!(["c2"]));

    let outsider = refused(call(&client, "recall", json!({"user_id": "emma"})).await);
    assert!(outsider.contains("http.tokens"), "{outsider}");
    let secret = refused(
        call(&client, "remember", json!({"user_id": "jay", "kind": "background", "scope": "global", "text": "我的密码是 Abc@12345"}))
            .await,
    );
    assert!(!secret.contains("Abc@12345"), "{secret}");
    let wrong_type = refused(
        call(
            &client,
            "recall",
            json!({"user_id": "jay", "limit": "my password is Hunter2Secret!"}),
        )
        .await,
    );
    assert!(wrong_type.contains("'limit'") && !wrong_type.contains("Hunter2"), "{wrong_type}");
    let missing = refused(call(&client, "remember", json!({"user_id": "jay"})).await);
    assert_eq!(missing, "argument 'kind' is required");
    let misspelt = refused(
        call(
            &client,
            "remember",
            json!({"user_id": "jay", "kind": "background", "scope": "global",
            "text": "I run the pilot plant", "expires": "2027-01-01T00:00:00Z"}),
        )
        .await,
    );
    assert!(misspelt.starts_with("unknown argument 'expires'; this tool takes"), "{misspelt}");
    client.cancel().await.unwrap();
    assert!(!served.log().contains("Hunter2"), "{}", served.log());

    let stranger = ()
        .serve(StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(served.url("/mcp"))
                .auth_header("not-a-token-of-ours"),
        ))
        .await;
    assert!(stranger.is_err(), "a wrong token cannot even start a session");
    let plain = tools_list(&reqwest::Client::new(), &served).send().await.unwrap();
    assert_eq!(plain.status(), 401);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_over_streamable_http_on_sqlite() {
    agent_over_http(Dreamd::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_over_streamable_http_on_postgres() {
    let Some(d) = Dreamd::postgres().await else { return };
    agent_over_http(d).await;
}

/// `initialize` over raw HTTP with `token`: the status and the session id.
async fn open_session(served: &Served, token: &str) -> (u16, Option<String>) {
    let answer = reqwest::Client::new()
        .post(served.url("/mcp"))
        .bearer_auth(token)
        .header("Accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "a client who logs my password is Hunter2!x", "version": "0"}}}))
        .send()
        .await
        .unwrap();
    let session = answer.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_owned());
    (answer.status().as_u16(), session)
}

/// A message on `session` with `token`: the answer's status.
async fn send_in(served: &Served, token: &str, session: &str, message: Value) -> u16 {
    let answer = reqwest::Client::new()
        .post(served.url("/mcp"))
        .bearer_auth(token)
        .header("Accept", "application/json, text/event-stream")
        .header("mcp-session-id", session)
        .json(&message)
        .send()
        .await
        .unwrap();
    answer.status().as_u16()
}

/// Sessions stay with the token that opened them and are bounded per
/// token, and their event streams per session; pages of other origins are refused, and what a client sends out
/// of order reaches no log.
#[tokio::test(flavor = "multi_thread")]
async fn mcp_sessions_belong_to_their_token_are_bounded_and_leave_the_log_clean() {
    use crate::served::EMMA_TOKEN;
    let d = with_tokens(Dreamd::sqlite());
    let served = Served::start(&d);
    let (status, jays) = open_session(&served, JAY_TOKEN).await;
    assert_eq!(status, 200);
    let jays = jays.expect("a session id");
    let ping = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(send_in(&served, EMMA_TOKEN, &jays, ping.clone()).await, 404);
    assert_eq!(send_in(&served, JAY_TOKEN, &jays, ping.clone()).await, 202);
    let stream = || {
        reqwest::Client::new()
            .get(served.url("/mcp"))
            .bearer_auth(JAY_TOKEN)
            .header("Accept", "text/event-stream")
            .header("mcp-session-id", &jays)
            .send()
    };
    let (first, second) = (stream().await.unwrap(), stream().await.unwrap());
    assert_eq!((first.status().as_u16(), second.status().as_u16()), (200, 200));
    assert_eq!(stream().await.unwrap().status(), 409, "a third event stream of one session");
    drop(first);
    let reopened = async {
        loop {
            let answer = stream().await.unwrap();
            if answer.status() == 200 {
                return answer;
            }
        }
    };
    let reopened = tokio::time::timeout(std::time::Duration::from_secs(10), reopened).await;
    assert!(reopened.is_ok(), "a closed stream frees its place");
    let from_a_page = reqwest::Client::new()
        .post(served.url("/mcp"))
        .bearer_auth(JAY_TOKEN)
        .header("Accept", "application/json, text/event-stream")
        .header("Origin", "https://evil.example")
        .header("mcp-session-id", &jays)
        .json(&ping)
        .send()
        .await
        .unwrap();
    assert_eq!(from_a_page.status(), 403, "a page of another origin");
    // Sent at once: the count and the taking of a place are one step.
    let opens = (0..40).map(|_| open_session(&served, JAY_TOKEN));
    let statuses: Vec<u16> =
        futures::future::join_all(opens).await.into_iter().map(|o| o.0).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 31, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 9, "{statuses:?}");
    // A tool called before the handshake ends: rmcp logged its arguments.
    let (status, emmas) = open_session(&served, EMMA_TOKEN).await;
    assert_eq!(status, 200);
    let early = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "remember", "arguments": {"user_id": "emma", "kind": "background",
        "scope": "global", "text": "my password is Hunter2!early"}}});
    send_in(&served, EMMA_TOKEN, &emmas.expect("a session id"), early).await;
    let log = served.log();
    for secret in ["Hunter2", &jays] {
        assert!(!log.contains(secret), "the log holds {secret:?}:\n{log}");
    }
    let end = reqwest::Client::new()
        .delete(served.url("/mcp"))
        .bearer_auth(JAY_TOKEN)
        .header("mcp-session-id", &jays)
        .send()
        .await
        .unwrap();
    assert_eq!(end.status(), 204, "clients take anything but 200 or 204 for a failed close");
    assert_eq!(send_in(&served, JAY_TOKEN, &jays, ping).await, 404, "the session is gone");
    let client = reqwest::Client::new();
    for method in [reqwest::Method::PUT, reqwest::Method::OPTIONS] {
        let refused = client.request(method.clone(), served.url("/mcp")).bearer_auth(JAY_TOKEN);
        let refused = refused.send().await.unwrap();
        assert_eq!(refused.status(), 405, "{method}");
        assert_eq!(refused.headers()["allow"], "GET, POST, DELETE", "{method}: RFC 9110 §15.5.6");
    }
    let without_session = tools_list(&client, &served).bearer_auth(JAY_TOKEN).send().await.unwrap();
    assert_eq!(without_session.status(), 400, "a request outside a session (MCP transport)");
}
