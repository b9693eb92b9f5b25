//! The HTTP API end to end (spec §13): `dreamd serve` as a child process,
//! driven over real HTTP with reqwest on SQLite and PostgreSQL: every tool
//! under `/v1`, the paged reads, each refusal code, the OpenAPI document,
//! health and metrics, and a log that never carries a token or refused text.

use crate::helpers::{Dreamd, NOW, examples, line, scenarios_on_both_backends};
use crate::served::{ADMIN_TOKEN, EMMA_TOKEN, JAY_TOKEN, Served, with_tokens};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

struct Api {
    served: Served,
    client: reqwest::Client,
}

impl Api {
    async fn send(&self, request: reqwest::RequestBuilder) -> (u16, Value) {
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let bytes = response.bytes().await.unwrap();
        let body = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        (status, body)
    }

    async fn post(&self, token: &str, tool: &str, args: Value) -> (u16, Value) {
        let request = self
            .client
            .post(self.served.url(&format!("/v1/{tool}")))
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body(args.to_string());
        self.send(request).await
    }

    async fn get(&self, token: &str, path: &str) -> (u16, Value) {
        self.send(self.client.get(self.served.url(path)).bearer_auth(token)).await
    }

    /// A tool call that must succeed; its result.
    async fn ok(&self, tool: &str, args: Value) -> Value {
        let (status, body) = self.post(JAY_TOKEN, tool, args).await;
        assert_eq!(status, 200, "{tool}: {body}");
        body
    }
}

/// A refusal: its status, code, and the message (checked to be JSON of spec §13).
fn refusal(answer: (u16, Value)) -> (u16, String, String) {
    let (status, body) = answer;
    let code = body["error"]["code"].as_str().unwrap_or_else(|| panic!("not a refusal: {body}"));
    let message = body["error"]["message"].as_str().unwrap().to_owned();
    (status, code.to_owned(), message)
}

/// The examples ingested and run once at NOW (jay gets auto memories and two
/// pending suggestions), a conversation of emma's, then the server.
async fn serve(d: Dreamd) -> (Api, Dreamd) {
    let d = with_tokens(d);
    let examples = examples().to_str().unwrap();
    assert_eq!(d.run(&["ingest", examples]).code, 0);
    d.ingest(&[
        line("jay", "c1", "m1", "user", "记住：读标准时按流程卡整理", "2026-11-28T00:00:00Z"),
        line("emma", "e1", "n1", "user", "I work on yoghurt cultures", "2026-11-28T00:00:00Z"),
    ]);
    d.run_once(NOW, &[]);
    let served = Served::start(&d);
    (Api { served, client: reqwest::Client::new() }, d)
}

async fn every_tool_over_http(d: Dreamd) {
    let (api, _d) = serve(d).await;
    let memory = api
        .ok(
            "remember",
            json!({"user_id": "jay", "kind": "presentation", "scope": "domain:standard",
                "text": "读标准时按流程卡整理", "conversation_id": "c1", "message_id": "m1"}),
        )
        .await;
    let id = memory["memory_id"].as_str().unwrap().to_owned();
    assert_eq!(
        (memory["origin"].as_str(), memory["version"].as_i64()),
        (Some("explicit"), Some(1))
    );

    let loaded = api
        .ok(
            "recall",
            json!({"user_id": "jay", "scopes": ["domain:standard"], "conversation_id": "c2"}),
        )
        .await;
    assert!(loaded["load_id"].is_string(), "{loaded}");
    assert_eq!(loaded["memories"][0]["memory_id"], id.as_str());
    let unrecorded = api.ok("recall", json!({"user_id": "jay", "limit": 1})).await;
    assert_eq!(
        (unrecorded["load_id"].clone(), unrecorded["memories"].as_array().unwrap().len()),
        (Value::Null, 1)
    );

    let explained = api.ok("explain", json!({"user_id": "jay", "memory_id": id})).await;
    assert_eq!(explained["memory"]["loaded_in"], json!(["c2"]));

    for text in ["负责发酵乳配方的稳定剂选型", "在写燕麦饮的货架期报告"] {
        api.ok(
            "remember",
            json!({"user_id": "jay", "kind": "background", "scope": "global", "text": text}),
        )
        .await;
    }
    for (query, expected) in [
        ("燕麦饮货架期报告什么时候出？", "在写燕麦饮的货架期报告"),
        ("发酵乳配方里稳定剂怎么选", "负责发酵乳配方的稳定剂选型"),
    ] {
        let ranked =
            api.ok("recall", json!({"user_id": "jay", "scopes": ["global"], "query": query})).await;
        let background: Vec<&str> = ranked["memories"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["kind"] == "background")
            .map(|m| m["content"].as_str().unwrap())
            .collect();
        assert_eq!(background.first(), Some(&expected), "query {query}: {ranked}");
    }
    assert_eq!(explained["loads"][0]["load_id"], loaded["load_id"]);
    assert_eq!(explained["history"][0]["actor"], "user");

    let edited = api
        .ok(
            "edit",
            json!({"user_id": "jay", "memory_id": id, "text": "读标准时按流程卡整理，列出条款号"}),
        )
        .await;
    assert_eq!(edited["version"], 2);
    assert_eq!(
        api.ok("disable", json!({"user_id": "jay", "memory_id": id})).await["status"],
        "disabled"
    );
    assert_eq!(
        api.ok("enable", json!({"user_id": "jay", "memory_id": id})).await["status"],
        "active"
    );

    let listed = api.ok("list_memories", json!({"user_id": "jay"})).await;
    assert!(listed["memories"].as_array().unwrap().iter().any(|m| m["memory_id"] == id.as_str()));

    let pending =
        api.ok("list_suggestions", json!({"user_id": "jay"})).await["suggestions"].clone();
    assert_eq!(pending.as_array().unwrap().len(), 2, "{pending}");
    let accepted = api
        .ok(
            "accept_suggestion",
            json!({"user_id": "jay", "suggestion_id": pending[0]["suggestion_id"]}),
        )
        .await;
    assert_eq!(accepted["suggestion"]["status"], "accepted");
    assert_eq!(accepted["memory"]["origin"], "explicit");
    let rejected = api
        .ok(
            "reject_suggestion",
            json!({"user_id": "jay", "suggestion_id": pending[1]["suggestion_id"]}),
        )
        .await;
    assert_eq!(rejected["suggestion"]["status"], "rejected");
    let decided = api.ok("list_suggestions", json!({"user_id": "jay", "all": true})).await;
    assert_eq!(decided["suggestions"].as_array().unwrap().len(), 2);
    let again = json!({"user_id": "jay", "suggestion_id": pending[0]["suggestion_id"]});
    let (status, code, message) = refusal(api.post(JAY_TOKEN, "reject_suggestion", again).await);
    assert_eq!((status, code.as_str()), (409, "stale"), "a decided suggestion: {message}");
    assert!(message.contains("already accepted"), "{message}");
    let active = json!({"user_id": "jay", "memory_id": id});
    assert_eq!(refusal(api.post(JAY_TOKEN, "enable", active).await).0, 409, "enable an active one");

    let forgotten = api.ok("forget", json!({"user_id": "jay", "memory_id": id})).await;
    assert_eq!(
        (forgotten["status"].as_str(), forgotten["content"].clone()),
        (Some("deleted"), Value::Null)
    );
    for tool in ["forget", "disable"] {
        let deleted = api.post(JAY_TOKEN, tool, json!({"user_id": "jay", "memory_id": id})).await;
        assert_eq!(refusal(deleted).0, 409, "{tool} of a deleted memory");
    }
    let after = api.ok("recall", json!({"user_id": "jay", "scopes": ["domain:standard"]})).await;
    assert!(after["memories"].as_array().unwrap().iter().all(|m| m["memory_id"] != id.as_str()));

    let (status, by_id) = api.get(JAY_TOKEN, &format!("/v1/memories/{id}")).await;
    assert_eq!((status, by_id["memory"]["content"].clone()), (200, Value::Null));
    let (status, loads) = api.get(JAY_TOKEN, "/v1/loads?user_id=jay&conversation_id=c2").await;
    assert_eq!((status, loads["loads"].as_array().unwrap().len()), (200, 1), "{loads}");
    assert_eq!(loads["loads"][0]["memories"][0]["memory_id"], id.as_str());
    let (status, suggestions) =
        api.get(JAY_TOKEN, "/v1/suggestions?user_id=jay&status=accepted").await;
    assert_eq!((status, suggestions["suggestions"].as_array().unwrap().len()), (200, 1));
    assert_eq!(api.served.stop(), 0);
}

async fn list_endpoints_page_and_filter(d: Dreamd) {
    let (api, _d) = serve(d).await;
    for text in ["先给结论", "表格要带单位", "图表用中文标题"] {
        api.ok(
            "remember",
            json!({"user_id": "jay", "kind": "presentation", "scope": "project:A", "text": text}),
        )
        .await;
    }
    let (status, all) = api.get(JAY_TOKEN, "/v1/memories?user_id=jay").await;
    assert_eq!(status, 200);
    for token in [JAY_TOKEN, "not-a-token"] {
        let url = api.served.url("/v1/memories?user_id=jay");
        let answer = api.client.get(url).bearer_auth(token).send().await.unwrap();
        let header =
            |name: &str| answer.headers().get(name).map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(
            header("cache-control").as_deref(),
            Some("no-store"),
            "no cache keeps a user's memories"
        );
        assert_eq!(header("x-content-type-options").as_deref(), Some("nosniff"));
    }
    let total = all["memories"].as_array().unwrap().len();
    assert!(total >= 5, "the examples' two and these three: {all}");
    assert_eq!(all["next_cursor"], Value::Null);

    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/memories?user_id=jay&limit=2&cursor={c}"),
            None => "/v1/memories?user_id=jay&limit=2".to_owned(),
        };
        let (status, page) = api.get(JAY_TOKEN, &path).await;
        assert_eq!(status, 200, "{page}");
        let ids: Vec<String> = page["memories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["memory_id"].as_str().unwrap().to_owned())
            .collect();
        assert!(ids.len() <= 2 && !ids.is_empty());
        seen.extend(ids);
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    let in_order: Vec<String> = all["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["memory_id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(seen, in_order, "pages cover every memory once, in order");

    let (_, project) =
        api.get(JAY_TOKEN, "/v1/memories?user_id=jay&scope=project:A&kind=presentation").await;
    assert_eq!(project["memories"].as_array().unwrap().len(), 3);
    let (_, background) =
        api.get(JAY_TOKEN, "/v1/memories?user_id=jay&kind=background&status=active").await;
    assert!(background["memories"].as_array().unwrap().iter().all(|m| m["kind"] == "background"));
    let (_, none) = api.get(JAY_TOKEN, "/v1/memories?user_id=jay&status=deleted").await;
    assert_eq!(none["memories"], json!([]));
    let (_, pending) =
        api.get(JAY_TOKEN, "/v1/suggestions?user_id=jay&status=pending&limit=1").await;
    assert_eq!(pending["suggestions"].as_array().unwrap().len(), 1);
    assert!(pending["next_cursor"].is_string(), "{pending}");
    let (_, rest) = api
        .get(
            JAY_TOKEN,
            &format!(
                "/v1/suggestions?user_id=jay&status=pending&cursor={}",
                pending["next_cursor"].as_str().unwrap()
            ),
        )
        .await;
    assert_eq!(
        (rest["suggestions"].as_array().unwrap().len(), rest["next_cursor"].clone()),
        (1, Value::Null)
    );
    let truncated = &pending["next_cursor"].as_str().unwrap()[..20];
    for path in [
        "/v1/memories?user_id=jay&cursor=zzz".to_owned(),
        format!("/v1/suggestions?user_id=jay&cursor={truncated}"),
        "/v1/loads?user_id=jay&cursor=".to_owned(),
    ] {
        let (status, code, message) = refusal(api.get(JAY_TOKEN, &path).await);
        assert_eq!((status, code.as_str()), (400, "invalid_argument"), "{path}");
        assert!(message.contains("next_cursor"), "{path}: {message}");
    }
    // A misspelt filter is refused by name, not ignored (which listed every
    // status, deleted memories included).
    for path in [
        "/v1/memories/01a23c4d-0000-7000-8000-000000000000?x=1",
        "/v1/memories?user_id=jay&stauts=active",
        "/v1/suggestions?user_id=jay&kinds=background",
        "/v1/loads?user_id=jay&conversation=c1",
    ] {
        let (status, code, message) = refusal(api.get(JAY_TOKEN, path).await);
        assert_eq!((status, code.as_str()), (400, "invalid_argument"), "{path}");
        let name = path.rsplit(['&', '?']).next().unwrap().split('=').next().unwrap();
        assert!(message.contains(name), "{path}: {message}");
    }
}

async fn every_refusal_has_its_code_and_never_repeats_the_text(d: Dreamd) {
    let (api, _d) = serve(d).await;
    let (status, emma) = api
        .post(ADMIN_TOKEN, "remember", json!({"user_id": "emma", "kind": "background", "scope": "global", "text": "I work on yoghurt cultures"}))
        .await;
    assert_eq!(status, 200, "{emma}");
    let emmas = emma["memory_id"].as_str().unwrap();

    let recall = json!({"user_id": "jay"});
    let no_token = api
        .send(
            api.client
                .post(api.served.url("/v1/recall"))
                .header("content-type", "application/json")
                .body(recall.to_string()),
        )
        .await;
    assert_eq!(refusal(no_token).0, 401);
    assert_eq!(
        refusal(api.post("not-a-token-of-ours-000000", "recall", recall.clone()).await).1,
        "unauthorized"
    );
    assert_eq!(refusal(api.get("wrong", "/v1/memories?user_id=jay").await).0, 401);
    let two_callers = api
        .send(
            api.client
                .post(api.served.url("/v1/recall"))
                .header("content-type", "application/json")
                .header("authorization", format!("Bearer {JAY_TOKEN}"))
                .header("authorization", format!("Bearer {EMMA_TOKEN}"))
                .body(recall.to_string()),
        )
        .await;
    assert_eq!(refusal(two_callers).0, 401, "two Authorization headers name no caller");

    let (status, code, message) =
        refusal(api.post(JAY_TOKEN, "recall", json!({"user_id": "emma"})).await);
    assert_eq!((status, code.as_str()), (403, "forbidden"), "{message}");
    assert_eq!(refusal(api.get(EMMA_TOKEN, "/v1/memories?user_id=jay").await).0, 403);
    let remember = json!({"user_id": "jay", "conversation_id": "e1", "kind": "background",
        "scope": "global", "text": "I review the cultures"});
    let recall = json!({"user_id": "jay", "conversation_id": "e1"});
    for (tool, args) in [("recall", recall), ("remember", remember)] {
        let (status, code, message) = refusal(api.post(JAY_TOKEN, tool, args).await);
        assert_eq!((status, code.as_str()), (403, "forbidden"), "{tool}: emma's conversation");
        assert!(!message.contains("--"), "{tool}: {message}");
    }
    let past = json!({"user_id": "jay", "kind": "background", "scope": "global",
        "text": "I review the cultures", "expires_at": "2001-01-01T00:00:00Z"});
    let unknown_message = json!({"user_id": "jay", "kind": "background", "scope": "global",
        "text": "I review the cultures", "conversation_id": "c1", "message_id": "no-such-message"});
    for (args, named) in [(past, "expires_at"), (unknown_message, "message_id")] {
        let (status, code, message) = refusal(api.post(JAY_TOKEN, "remember", args).await);
        assert_eq!((status, code.as_str()), (400, "invalid_argument"), "{message}");
        assert!(message.starts_with(named), "{message}");
        assert!(!message.contains("--") && !message.contains("2001"), "{message}");
    }
    let foreign_loads = api.get(JAY_TOKEN, "/v1/loads?user_id=jay&conversation_id=e1").await;
    assert_eq!(refusal(foreign_loads).0, 403, "the loads of emma's conversation");
    let (status, code, _) = refusal(api.get(JAY_TOKEN, "/v1/memories/x%ff").await);
    assert_eq!((status, code.as_str()), (400, "invalid_argument"), "a path that is not UTF-8");
    for id in ["*", "jay\u{200B}", "\u{202E}jay"] {
        let remember = json!({"user_id": id, "kind": "background", "scope": "global", "text": "x"});
        let (status, code, _) = refusal(api.post(ADMIN_TOKEN, "remember", remember).await);
        assert_eq!((status, code.as_str()), (400, "invalid_argument"), "{id:?}");
    }
    for tool in ["disable", "forget", "explain"] {
        let foreign =
            api.post(JAY_TOKEN, tool, json!({"user_id": "jay", "memory_id": emmas})).await;
        assert_eq!(refusal(foreign).0, 403, "{tool} of emma's memory as jay");
    }
    assert_eq!(refusal(api.get(JAY_TOKEN, &format!("/v1/memories/{emmas}")).await).0, 403);
    assert_eq!(api.get(EMMA_TOKEN, &format!("/v1/memories/{emmas}")).await.0, 200);
    let (_, pending) = api.get(JAY_TOKEN, "/v1/suggestions?user_id=jay&status=pending").await;
    let jays_suggestion = pending["suggestions"][0]["suggestion_id"].clone();
    let foreign = api
        .post(
            EMMA_TOKEN,
            "accept_suggestion",
            json!({"user_id": "emma", "suggestion_id": jays_suggestion}),
        )
        .await;
    assert_eq!(refusal(foreign).0, 403);

    let missing = api
        .post(JAY_TOKEN, "enable", json!({"user_id": "jay", "memory_id": "no-such-memory"}))
        .await;
    assert_eq!(refusal(missing).1, "not_found");
    assert_eq!(refusal(api.get(JAY_TOKEN, "/v1/no_such_tool").await).0, 404);

    let secret = "Abc@12345-hunter";
    let (status, code, message) = refusal(
        api.post(JAY_TOKEN, "remember", json!({"user_id": "jay", "kind": "background", "scope": "global", "text": format!("我的密码是 {secret}")}))
            .await,
    );
    assert_eq!((status, code.as_str()), (400, "never_store"), "{message}");
    assert!(message.contains("password") && !message.contains(secret), "{message}");
    let phone = "13812345678";
    let (status, _, message) = refusal(
        api.post(
            JAY_TOKEN,
            "edit",
            json!({"user_id": "jay", "memory_id": emmas, "text": format!("call me at {phone}")}),
        )
        .await,
    );
    assert_eq!(status, 403, "ownership is checked before the text: {message}");
    let secret_kind = "kind-with-secret-sk-live-123";
    let (status, code, message) = refusal(
        api.post(
            JAY_TOKEN,
            "remember",
            json!({"user_id": "jay", "kind": secret_kind, "scope": "global", "text": "x"}),
        )
        .await,
    );
    assert_eq!((status, code.as_str()), (400, "invalid_argument"));
    assert!(!message.contains(secret_kind), "{message}");
    let (status, _, message) = refusal(
        api.post(JAY_TOKEN, "remember", json!({"user_id": "jay", "kind": "background"})).await,
    );
    assert_eq!((status, message.as_str()), (400, "argument 'scope' is required"));
    // A misspelt argument is refused, not ignored: `scope` for `scopes`
    // recalled global memories only, `expires` stored no expiry.
    let (status, _, message) = refusal(
        api.post(JAY_TOKEN, "recall", json!({"user_id": "jay", "scope": "project:A"})).await,
    );
    assert_eq!(
        (status, message.as_str()),
        (
            400,
            "unknown argument 'scope'; this tool takes user_id, scopes, limit, conversation_id, query"
        )
    );
    // A query string's refusal names what is wrong in it (HTTP round 4, M3).
    for (query, said) in [
        (
            "user_id=jay&status=active&status=deleted",
            "argument 'status' is given twice; give it once",
        ),
        ("user_id=jay&limit=many", "argument 'limit' has the wrong type or value"),
        ("status=active", "argument 'user_id' is required"),
    ] {
        let (status, _, message) =
            refusal(api.get(JAY_TOKEN, &format!("/v1/memories?{query}")).await);
        assert_eq!((status, message.as_str()), (400, said), "{query}");
    }
    let wrong_type =
        api.post(JAY_TOKEN, "recall", json!({"user_id": "jay", "limit": "eight-secret"})).await;
    let (status, _, message) = refusal(wrong_type);
    assert!(
        status == 400 && message.contains("limit") && !message.contains("eight-secret"),
        "{message}"
    );
    let broken = api
        .send(
            api.client
                .post(api.served.url("/v1/recall"))
                .bearer_auth(JAY_TOKEN)
                .header("content-type", "application/json")
                .body("{\"user_id\": "),
        )
        .await;
    assert_eq!(refusal(broken).2, "the body is not valid JSON");
    let form = api
        .send(
            api.client
                .post(api.served.url("/v1/recall"))
                .bearer_auth(JAY_TOKEN)
                .header("content-type", "text/plain")
                .body("{}"),
        )
        .await;
    assert_eq!(refusal(form).0, 415);
    let with_type = |content_type: &str, body: Vec<u8>| {
        api.client
            .post(api.served.url("/v1/recall"))
            .bearer_auth(JAY_TOKEN)
            .header("content-type", content_type)
            .body(body)
    };
    let latin1 =
        with_type("application/json; charset=ISO-8859-1", b"{\"user_id\": \"j\xe4y\"}".to_vec());
    let (status, code, message) = refusal(api.send(latin1).await);
    assert_eq!((status, code.as_str()), (415, "unsupported_media_type"), "{message}");
    assert!(message.contains("UTF-8"), "{message}");
    let with_bom = [b"\xEF\xBB\xBF".as_slice(), br#"{"user_id": "jay"}"#].concat();
    let (status, _) = api.send(with_type("application/json; charset=\"utf-8\"", with_bom)).await;
    assert_eq!(status, 200, "a UTF-8 byte order mark is ignored (RFC 8259 §8.1)");
    let huge = json!({"user_id": "jay", "kind": "background", "scope": "global", "text": "x".repeat(1 << 20)});
    let (status, code, _) = refusal(api.post(JAY_TOKEN, "remember", huge).await);
    assert_eq!((status, code.as_str()), (413, "payload_too_large"));
    let (status, code, _) =
        refusal(api.get(JAY_TOKEN, "/v1/memories?user_id=jay&limit=many").await);
    assert_eq!((status, code.as_str()), (400, "invalid_argument"));
    assert_eq!(
        refusal(api.get(JAY_TOKEN, "/v1/memories?user_id=jay&status=sleeping").await).0,
        400
    );
    let twice = api
        .post(
            JAY_TOKEN,
            "reject_suggestion",
            json!({"user_id": "jay", "suggestion_id": jays_suggestion}),
        )
        .await;
    assert_eq!(twice.0, 200);
    assert_eq!(
        refusal(
            api.post(
                JAY_TOKEN,
                "reject_suggestion",
                json!({"user_id": "jay", "suggestion_id": jays_suggestion})
            )
            .await
        )
        .0,
        409,
        "a decided suggestion: the arguments are right, the state moved on"
    );

    let long_user = format!("emma-{}", "x".repeat(100_000));
    let (status, _, message) =
        refusal(api.post(JAY_TOKEN, "recall", json!({"user_id": long_user})).await);
    assert!(status == 403 && message.len() < 200 && !message.contains("emma-"), "{message}");
    let missing_id = "no-such-memory-Hunter2Secret";
    for answer in [
        api.post(JAY_TOKEN, "disable", json!({"user_id": "jay", "memory_id": missing_id})).await,
        api.get(JAY_TOKEN, &format!("/v1/memories/{missing_id}")).await,
    ] {
        let (status, _, message) = refusal(answer);
        assert!(status == 404 && !message.contains("Hunter2"), "{message}");
    }
    let unknown_source = json!({"user_id": "jay", "kind": "background", "scope": "global",
        "text": "I work on yoghurt cultures", "conversation_id": "password=Hunter2Secret!"});
    let (status, _, message) = refusal(api.post(JAY_TOKEN, "remember", unknown_source).await);
    assert!(status == 404 && message.contains("conversation_id"), "{message}");
    assert!(!message.contains("Hunter2"), "{message}");
    let (status, code, _) = refusal(api.get(JAY_TOKEN, "/v1/recall").await);
    assert_eq!((status, code.as_str()), (405, "method_not_allowed"));
    let mcp = |content_type: &'static str, body: &'static str| {
        api.client
            .post(api.served.url("/mcp"))
            .bearer_auth(JAY_TOKEN)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", content_type)
            .body(body)
    };
    let (status, code, message) =
        refusal(api.send(mcp("application/json", "{\"password\": \"Hunter2Secret!")).await);
    assert_eq!((status, code.as_str()), (400, "invalid_argument"), "{message}");
    assert!(!message.contains("Hunter2"), "{message}");
    assert_eq!(refusal(api.send(mcp("text/plain", "{}")).await).0, 415);

    let long_target = format!("/v1/memories?user_id=jay&note={}", "x".repeat(10_000));
    let (status, code, _) = refusal(api.get(JAY_TOKEN, &long_target).await);
    assert_eq!((status, code.as_str()), (414, "uri_too_long"));
    let mut many_headers = api.client.get(api.served.url("/v1/memories?user_id=jay"));
    for i in 0..150 {
        many_headers = many_headers.header(format!("x-extra-{i}"), "1");
    }
    let (status, code, _) = refusal(api.send(many_headers.bearer_auth(JAY_TOKEN)).await);
    assert_eq!((status, code.as_str()), (431, "header_fields_too_large"));

    let log = api.served.log();
    for never in [JAY_TOKEN, EMMA_TOKEN, ADMIN_TOKEN, secret, phone, "Hunter2"] {
        assert!(!log.contains(never), "the log carries {never}:\n{log}");
    }
}

/// The document is OpenAPI 3.1, lists every route with its method, and every
/// reference in it resolves.
async fn the_openapi_document_lists_every_route(d: Dreamd) {
    let (api, _d) = serve(d).await;
    let (status, doc) = api.get("no token needed", "/v1/openapi.json").await;
    assert_eq!(status, 200);
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "dreamd");
    assert!(doc["info"]["version"].is_string());
    let tools = [
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
    ];
    let mut routes: Vec<(String, &str)> =
        tools.iter().map(|t| (format!("/v1/{t}"), "post")).collect();
    for path in [
        "/v1/memories",
        "/v1/memories/{memory_id}",
        "/v1/suggestions",
        "/v1/loads",
        "/v1/openapi.json",
        "/healthz",
        "/metrics",
    ] {
        routes.push((path.to_owned(), "get"));
    }
    let paths = doc["paths"].as_object().unwrap();
    assert_eq!(paths.len(), routes.len(), "{:?}", paths.keys().collect::<Vec<_>>());
    for (path, method) in &routes {
        let operation = &doc["paths"][path][method];
        assert!(operation.is_object(), "{method} {path} is not in the document");
        assert!(operation["responses"]["200"].is_object(), "{method} {path} has no 200");
        if path.starts_with("/v1/") && path != "/v1/openapi.json" {
            assert_eq!(operation["security"], json!([{"bearer": []}]), "{path}");
            for code in ["400", "401", "403", "413"] {
                assert!(operation["responses"][code].is_object(), "{path} lacks {code}");
            }
        }
        if *method == "post" {
            let schema = &operation["requestBody"]["content"]["application/json"]["schema"]["$ref"];
            assert!(schema.is_string(), "{path} has no request schema");
        }
    }
    assert_eq!(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
    let recall = &doc["components"]["schemas"]["RecallArgs"];
    assert_eq!(recall["required"], json!(["user_id"]));
    for field in ["user_id", "scopes", "limit", "conversation_id", "query"] {
        assert!(recall["properties"][field].is_object(), "RecallArgs.{field}");
    }
    // What the server refuses, the document refuses too (HTTP round 4, D).
    assert_eq!(
        (
            recall["properties"]["user_id"]["minLength"].as_u64(),
            recall["properties"]["user_id"]["maxLength"].as_u64()
        ),
        (Some(1), Some(256))
    );
    let remember = &doc["components"]["schemas"]["RememberArgs"]["properties"];
    assert_eq!(remember["kind"]["$ref"], "#/components/schemas/Kind", "{remember}");
    let scope = regex::Regex::new(remember["scope"]["pattern"].as_str().unwrap()).unwrap();
    for (text, valid) in [
        ("global", true),
        ("domain:standard", true),
        ("project:A", true),
        ("project:", false),
        ("domain:a b", false),
        ("other:x", false),
        ("global ", false),
    ] {
        assert_eq!(scope.is_match(text), valid, "{text}");
    }
    let mut refs = Vec::new();
    collect_refs(&doc, &mut refs);
    assert!(refs.len() > 20);
    for r in refs {
        let name = r.strip_prefix("#/components/schemas/").unwrap_or_else(|| panic!("{r}"));
        assert!(doc["components"]["schemas"][name].is_object(), "{r} does not resolve");
    }
    let (status, health) = api.get("", "/healthz").await;
    assert_eq!(
        (status, health),
        (200, json!({"status": "ok", "database": "reachable", "migrations": "current"}))
    );
    assert_eq!(refusal(api.get("", "/metrics").await).0, 404, "metrics are off by default");
}

fn collect_refs(value: &Value, refs: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("$ref", Value::String(r)) => refs.push(r.clone()),
                    _ => collect_refs(v, refs),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, refs)),
        _ => {}
    }
}

scenarios_on_both_backends!(
    every_tool_over_http,
    list_endpoints_page_and_filter,
    every_refusal_has_its_code_and_never_repeats_the_text,
    the_openapi_document_lists_every_route,
);

#[tokio::test(flavor = "multi_thread")]
async fn metrics_count_requests_when_on() {
    let d = with_tokens(Dreamd::sqlite()).env("DREAMD_METRICS__LISTEN", "127.0.0.1:0");
    let served = Served::start(&d);
    let client = reqwest::Client::new();
    let recall = client
        .post(served.url("/v1/recall"))
        .bearer_auth(JAY_TOKEN)
        .header("content-type", "application/json")
        .body(r#"{"user_id": "jay"}"#);
    assert_eq!(recall.send().await.unwrap().status(), 200);
    let text = client.get(served.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(
        text.contains("dreamd_http_requests_total{route=\"/v1/recall\",status=\"200\"} 1"),
        "{text}"
    );
}

#[test]
fn an_unset_token_variable_is_a_configuration_error_naming_it() {
    let d = Dreamd::sqlite()
        .env("DREAMD_HTTP__TOKENS", r#"[{token_env = "TOKEN_NOBODY_SET", users = ["jay"]}]"#);
    let run = d.run(&["serve", "--listen", "127.0.0.1:0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("TOKEN_NOBODY_SET"), "{}", run.stderr);
    let nowhere = Dreamd::sqlite().run(&["serve"]);
    assert!(nowhere.code == 2 && nowhere.stderr.contains("http.listen"), "{}", nowhere.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_daemon_serves_http_beside_its_schedule() {
    let d = with_tokens(Dreamd::sqlite());
    let env = [
        ("DREAMD_HTTP__LISTEN", "127.0.0.1:0"),
        ("DREAMD_METRICS__LISTEN", "127.0.0.1:0"),
        ("DREAMD_SCHEDULE__CRON", "* * * * * *"),
    ];
    let served = Served::start_with(&d, &[], &env);
    let client = reqwest::Client::new();
    let health = client.get(served.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let started = std::time::Instant::now();
    loop {
        let text = client.get(served.url("/metrics")).send().await.unwrap().text().await.unwrap();
        if text.contains("dreamd_runs_total 1") || text.contains("dreamd_runs_total 2") {
            assert!(
                text.contains("dreamd_http_requests_total{route=\"/healthz\",status=\"200\"} 1"),
                "{text}"
            );
            break;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "no run counted: {text}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(served.stop(), 0);
}

/// A request still in flight holds the daemon's first SIGTERM up to the
/// shutdown bound; a second SIGTERM ends the wait and the daemon exits 130.
#[tokio::test(flavor = "multi_thread")]
async fn a_second_signal_ends_the_http_drain() {
    use tokio::io::AsyncWriteExt;
    let d = with_tokens(Dreamd::sqlite());
    let env = [
        ("DREAMD_HTTP__LISTEN", "127.0.0.1:0"),
        ("DREAMD_HTTP__BODY_TIMEOUT_SECS", "600"),
        ("DREAMD_SCHEDULE__SHUTDOWN_TIMEOUT_SECS", "600"),
    ];
    let served = Served::start_with(&d, &[], &env);
    let address = served.base.strip_prefix("http://").unwrap().to_owned();
    let mut in_flight = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /v1/recall HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {JAY_TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
    );
    in_flight.write_all(head.as_bytes()).await.unwrap();
    // Answered in order on one connection: the health check says the
    // server has read the request above and waits on its body.
    let health = reqwest::get(served.url("/healthz")).await.unwrap();
    assert_eq!(health.status(), 200);
    let started = Instant::now();
    assert_eq!(served.stop_twice(), 130);
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    drop(in_flight);
}

/// A form body as a browser sends it (application/x-www-form-urlencoded).
fn form(pairs: &[(&str, &str)]) -> String {
    let encode = |text: &str| -> String {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    pairs.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect::<Vec<_>>().join("&")
}

trait FormBody {
    fn form_body(self, pairs: &[(&str, &str)]) -> Self;
}

impl FormBody for reqwest::RequestBuilder {
    fn form_body(self, pairs: &[(&str, &str)]) -> Self {
        self.header("content-type", "application/x-www-form-urlencoded").body(form(pairs))
    }
}

/// The value of the first `name="csrf"` field of a page.
fn csrf_of(html: &str) -> String {
    let after = html.split("name=\"csrf\" value=\"").nth(1).expect("a form with a CSRF token");
    after.split('"').next().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn pages_speak_the_browsers_language_and_check_every_form() {
    let (api, _d) = serve(Dreamd::sqlite()).await;
    let id = api
        .ok("remember", json!({"user_id": "jay", "kind": "background", "scope": "global", "text": "我负责乳品微生物检测"}))
        .await["memory_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let page = |lang: &'static str| {
        api.client
            .get(api.served.url("/u/jay"))
            .bearer_auth(JAY_TOKEN)
            .header("accept-language", lang)
    };
    let zh = page("zh-CN,zh;q=0.9,en;q=0.8").send().await.unwrap().text().await.unwrap();
    assert!(
        zh.contains("<html lang=\"zh-CN\"") && zh.contains("jay 的记忆") && zh.contains("明确设置"),
        "{zh}"
    );
    let en = page("en-GB").send().await.unwrap().text().await.unwrap();
    assert!(en.contains("Memories of jay") && en.contains("explicit"), "{en}");
    let foreign =
        api.client.get(api.served.url("/u/emma")).bearer_auth(JAY_TOKEN).send().await.unwrap();
    assert_eq!(foreign.status(), 403);

    let browser =
        reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let to_login = browser.get(api.served.url("/u/jay")).send().await.unwrap();
    assert_eq!(to_login.status(), 303);
    assert_eq!(to_login.headers()["location"], "/login?next=%2Fu%2Fjay");
    let form = browser.get(api.served.url("/login")).send().await.unwrap();
    let nonce_cookie =
        form.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let nonce = csrf_of(&form.text().await.unwrap());
    let login = |token: &str, nonce: &str, cookie: &str| {
        browser.post(api.served.url("/login")).header("cookie", cookie.to_owned()).form_body(&[
            ("token", token),
            ("csrf", nonce),
            ("next", "/u/jay"),
        ])
    };
    let wrong = login("wrong-token-0000000000", &nonce, &nonce_cookie).send().await.unwrap();
    assert_eq!(wrong.status(), 401);
    assert!(wrong.text().await.unwrap().contains("That token is not valid."));
    // A stale form (another tab's, or its cookie gone) says so, not that a
    // good token is bad (HTTP round 4, M1).
    let stale = login(JAY_TOKEN, "forged", &nonce_cookie).send().await.unwrap();
    assert_eq!(stale.status(), 401);
    let stale = stale.text().await.unwrap();
    assert!(
        stale.contains("This login form has expired") && !stale.contains("not valid"),
        "{stale}"
    );
    let no_cookie = login(JAY_TOKEN, &nonce, "").send().await.unwrap().text().await.unwrap();
    assert!(no_cookie.contains("cookies must be allowed"), "{no_cookie}");
    let logged_in = login(JAY_TOKEN, &nonce, &nonce_cookie).send().await.unwrap();
    assert_eq!(logged_in.status(), 303);
    let cookies: Vec<String> = logged_in
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    let session =
        cookies.iter().find(|c| c.starts_with("dreamd_session=")).expect("a session cookie");
    assert!(session.contains("HttpOnly") && session.contains("SameSite=Strict"), "{session}");
    let session = session.split(';').next().unwrap().to_owned();
    let memory_page = browser
        .get(api.served.url(&format!("/u/jay/memories/{id}")))
        .header("cookie", &session)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let csrf = csrf_of(&memory_page);
    let disable = |csrf: &str| {
        browser
            .post(api.served.url(&format!("/u/jay/memories/{id}/disable")))
            .header("cookie", &session)
            .form_body(&[("csrf", csrf)])
    };
    assert_eq!(disable("not-the-token").send().await.unwrap().status(), 403);
    let done = disable(&csrf).send().await.unwrap();
    assert_eq!(done.status(), 303);
    assert_eq!(done.headers()["location"], format!("/u/jay/memories/{id}?done=disable"));
    let (_, memory) = api.get(JAY_TOKEN, &format!("/v1/memories/{id}")).await;
    assert_eq!(memory["memory"]["status"], "disabled");
    let edit = browser
        .post(api.served.url(&format!("/u/jay/memories/{id}/edit")))
        .header("cookie", &session)
        .form_body(&[("csrf", csrf.as_str()), ("text", "my password is Abc@12345-hunter")])
        .send()
        .await
        .unwrap();
    assert_eq!(edit.status(), 400);
    assert!(!edit.text().await.unwrap().contains("Abc@12345-hunter"));
}

/// After login a browser goes back only to a path of this site: a `next`
/// with a tab, line break or other control character (which browsers drop,
/// turning `/<TAB>/evil.example` into `//evil.example`) goes to `/`, and no
/// `next` makes the answer fail after the session is set.
#[tokio::test(flavor = "multi_thread")]
async fn login_returns_only_to_a_path_of_this_site() {
    let d = with_tokens(Dreamd::sqlite());
    let served = Served::start(&d);
    let browser =
        reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let cases = [
        ("/u/jay?cursor=a%20b", "/u/jay?cursor=a%20b"),
        ("/\t/evil.example/x", "/"),
        ("/\r/evil.example", "/"),
        ("/\n/evil.example", "/"),
        ("/\r\nSet-Cookie: x=1", "/"),
        ("/\x0b/evil.example", "/"),
        ("/ /evil.example", "/"),
        ("/\u{3000}/evil.example", "/"),
        ("/\\/evil.example", "/"),
        ("//evil.example", "/"),
        ("https://evil.example", "/"),
    ];
    for (next, expected) in cases {
        let form = browser.get(served.url("/login")).send().await.unwrap();
        let nonce_cookie =
            form.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
        let nonce = csrf_of(&form.text().await.unwrap());
        let answer = browser
            .post(served.url("/login"))
            .header("cookie", nonce_cookie)
            .form_body(&[("token", JAY_TOKEN), ("csrf", &nonce), ("next", next)])
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 303, "next {next:?}");
        assert_eq!(answer.headers()["location"], expected, "next {next:?}");
    }
    assert!(!served.log().contains("\"level\":\"ERROR\""), "{}", served.log());
}

/// A conversation known only by a recall into it (an agent recalls before
/// its messages reach dreamd) has a page with its loads and no messages,
/// the page the memory pages link to; one known by nothing is 404, and
/// another user's stays 403 (HTTP round 4, M4: the link gave 404).
#[tokio::test(flavor = "multi_thread")]
async fn a_conversation_known_by_its_loads_alone_has_a_page() {
    let (api, _d) = serve(Dreamd::sqlite()).await;
    let memory = api
        .ok(
            "remember",
            json!({"user_id": "jay", "kind": "presentation", "scope": "global",
                "text": "报告先写结论"}),
        )
        .await;
    let id = memory["memory_id"].as_str().unwrap();
    let loaded = api
        .ok(
            "recall",
            json!({"user_id": "jay", "scopes": ["global"], "conversation_id": "fresh-9085"}),
        )
        .await;
    assert!(loaded["load_id"].is_string(), "{loaded}");
    let page = |path: &str| {
        let request = api.client.get(api.served.url(path)).bearer_auth(JAY_TOKEN);
        async move {
            let answer = request.header("accept-language", "en").send().await.unwrap();
            (answer.status().as_u16(), answer.text().await.unwrap())
        }
    };
    let (status, memory_page) = page(&format!("/u/jay/memories/{id}")).await;
    assert_eq!(status, 200, "{memory_page}");
    assert!(memory_page.contains("/u/jay/conversations/fresh-9085"), "{memory_page}");
    let (status, conversation) = page("/u/jay/conversations/fresh-9085").await;
    assert_eq!(status, 200, "{conversation}");
    assert!(conversation.contains("No messages of this conversation"), "{conversation}");
    assert!(conversation.contains(&format!("/u/jay/memories/{id}")), "{conversation}");
    assert_eq!(page("/u/jay/conversations/never-seen").await.0, 404);
    assert_eq!(page("/u/jay/conversations/e1").await.0, 403);
    assert_eq!(api.served.stop(), 0);
}

/// Connects to `served` and sends the start of a request, never its end.
async fn half_sent_request(served: &Served) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let address = served.base.strip_prefix("http://").unwrap();
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    stream
}

/// Waits for the server to close `stream` (at most `within`); how long it took.
async fn closed_by_server(mut stream: tokio::net::TcpStream, within: Duration) -> Duration {
    use tokio::io::AsyncReadExt;
    let started = Instant::now();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(within, stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the connection is still open after {within:?}");
    started.elapsed()
}

/// A client that sends part of a request and nothing more is cut off after
/// `http.header_timeout_secs`, and while `http.max_connections` such
/// clients hold every slot, others wait only that long.
#[tokio::test(flavor = "multi_thread")]
async fn half_sent_requests_are_closed_after_the_header_timeout() {
    let d = with_tokens(Dreamd::sqlite())
        .env("DREAMD_HTTP__HEADER_TIMEOUT_SECS", "1")
        .env("DREAMD_HTTP__MAX_CONNECTIONS", "2");
    let served = Served::start(&d);
    let holders = [half_sent_request(&served).await, half_sent_request(&served).await];
    let health = tokio::spawn(reqwest::get(served.url("/healthz")));
    for stream in holders {
        assert!(closed_by_server(stream, Duration::from_secs(10)).await < Duration::from_secs(5));
    }
    let health = tokio::time::timeout(Duration::from_secs(10), health).await;
    assert_eq!(health.expect("healthz answers").unwrap().unwrap().status(), 200);
}

/// Connects to `served` and sends a recall's headers with
/// `Expect: 100-continue` and a body of `length` bytes declared, not sent;
/// returns once the server asked for the body: the request is being answered.
async fn request_awaiting_its_body(served: &Served, length: usize) -> tokio::net::TcpStream {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = served.base.strip_prefix("http://").unwrap();
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /v1/recall HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {JAY_TOKEN}\r\n\
         Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: {length}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut continued = vec![0u8; 64];
    let n = stream.read(&mut continued).await.unwrap();
    let continued = String::from_utf8_lossy(&continued[..n]);
    assert!(continued.starts_with("HTTP/1.1 100"), "the body is asked for: {continued}");
    stream
}

/// The first line of the next answer on `stream` (within 10 s).
async fn next_answer(stream: &mut tokio::net::TcpStream) -> String {
    use tokio::io::AsyncReadExt;
    let mut answer = vec![0u8; 256];
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut answer)).await;
    let n = read.expect("an answer within 10 s").unwrap();
    String::from_utf8_lossy(&answer[..n]).lines().next().unwrap_or_default().to_owned()
}

/// At `http.max_connections`, a new connection takes the slot of the
/// connection open longest among those with no request being answered
/// (HTTP round 4, H2: clients that sent nothing, or trickled headers, held
/// every slot for the header timeout while others waited). A connection
/// answering a request keeps its slot, however old.
#[tokio::test(flavor = "multi_thread")]
async fn at_the_connection_cap_unused_connections_give_way() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let d = with_tokens(Dreamd::sqlite())
        .env("DREAMD_HTTP__HEADER_TIMEOUT_SECS", "600")
        .env("DREAMD_HTTP__BODY_TIMEOUT_SECS", "600")
        .env("DREAMD_HTTP__MAX_CONNECTIONS", "2");
    let served = Served::start(&d);
    let body = r#"{"user_id":"jay"}"#;
    let mut answering = request_awaiting_its_body(&served, body.len()).await;
    let unused = half_sent_request(&served).await;
    let health =
        tokio::time::timeout(Duration::from_secs(60), reqwest::get(served.url("/healthz"))).await;
    assert_eq!(health.expect("healthz answers at the cap").unwrap().status(), 200);
    closed_by_server(unused, Duration::from_secs(60)).await;
    answering.write_all(body.as_bytes()).await.unwrap();
    // Answered, and kept alive: it was never told to close.
    let mut received = String::new();
    let mut asked_again = false;
    while received.matches("HTTP/1.1 200").count() < 2 {
        let mut chunk = vec![0u8; 4096];
        let n = tokio::time::timeout(Duration::from_secs(60), answering.read(&mut chunk))
            .await
            .expect("an answer within 60 s")
            .unwrap();
        assert!(n > 0, "the connection was closed after: {received}");
        received.push_str(&String::from_utf8_lossy(&chunk[..n]));
        if !asked_again && received.contains("HTTP/1.1 200") {
            answering.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
            asked_again = true;
        }
    }
}

/// A client that sends requests and never reads the answers is cut off once
/// an answer has waited `http.header_timeout_secs` for it (HTTP round 4, H1:
/// it held its connection and slot for ever); while it holds the only slot,
/// others wait only that long.
#[tokio::test(flavor = "multi_thread")]
async fn a_client_that_never_reads_its_answers_is_cut_off() {
    use tokio::io::AsyncWriteExt;
    let d = with_tokens(Dreamd::sqlite())
        .env("DREAMD_HTTP__HEADER_TIMEOUT_SECS", "1")
        .env("DREAMD_HTTP__MAX_CONNECTIONS", "1");
    let served = Served::start(&d);
    let address = served.base.strip_prefix("http://").unwrap().to_owned();
    let stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    let (_reader, mut writer) = stream.into_split();
    let pipelined = "GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n".repeat(2000);
    // Never read: the answers fill both sides' buffers, and the server's
    // next write waits. The writes may wait too once it stops reading.
    let sending = tokio::spawn(async move {
        let _ = writer.write_all(pipelined.as_bytes()).await;
        writer
    });
    let health =
        tokio::time::timeout(Duration::from_secs(30), reqwest::get(served.url("/healthz")));
    let health = health.await.expect("healthz answers once the stalled client is cut off");
    assert_eq!(health.unwrap().status(), 200);
    sending.abort();
}

/// Sends `head` (a request's line and headers, ended by a blank line) and
/// nothing more; returns the first line of the answer (within 10 s).
async fn answer_to_head_alone(served: &Served, head: &str) -> String {
    use tokio::io::AsyncWriteExt;
    let address = served.base.strip_prefix("http://").unwrap();
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    next_answer(&mut stream).await
}

/// A client that declares a body and never sends it gets 408 after
/// `http.body_timeout_secs` (it held its connection until it gave up
/// before); while such clients hold every slot, others wait only that long.
/// A body declared over 1 MiB gets 413 at once, without `100 Continue`; a
/// request without `Host` gets 400 and a compressed body 415.
#[tokio::test(flavor = "multi_thread")]
async fn bodies_that_never_arrive_are_refused_after_the_body_timeout() {
    let d = with_tokens(Dreamd::sqlite())
        .env("DREAMD_HTTP__BODY_TIMEOUT_SECS", "1")
        .env("DREAMD_HTTP__MAX_CONNECTIONS", "2");
    let served = Served::start(&d);
    let held = [
        request_awaiting_its_body(&served, 1000).await,
        request_awaiting_its_body(&served, 1000).await,
    ];
    let health = tokio::spawn(reqwest::get(served.url("/healthz")));
    for mut stream in held {
        let first_line = next_answer(&mut stream).await;
        assert!(first_line.starts_with("HTTP/1.1 408"), "{first_line}");
    }
    let health = tokio::time::timeout(Duration::from_secs(10), health).await;
    assert_eq!(health.expect("healthz answers").unwrap().unwrap().status(), 200);
    let huge = "POST /v1/recall HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\n\
                Content-Type: application/json\r\nExpect: 100-continue\r\n\
                Content-Length: 1000000000\r\n\r\n";
    let first_line = answer_to_head_alone(&served, huge).await;
    assert!(first_line.starts_with("HTTP/1.1 413"), "{first_line}");
    let wrong_token = "POST /v1/recall HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\n\
                       Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
    let first_line = answer_to_head_alone(&served, wrong_token).await;
    assert!(first_line.starts_with("HTTP/1.1 401"), "refused before its body: {first_line}");
    let no_host = answer_to_head_alone(&served, "GET /healthz HTTP/1.1\r\n\r\n").await;
    assert!(no_host.starts_with("HTTP/1.1 400"), "{no_host}");
    let gzipped = format!(
        "POST /v1/recall HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {JAY_TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{{}}"
    );
    let first_line = answer_to_head_alone(&served, &gzipped).await;
    assert!(first_line.starts_with("HTTP/1.1 415"), "{first_line}");
}

/// SIGTERM closes idle connections and those still sending headers at
/// once: neither the header timeout nor the shutdown bound is waited for.
#[tokio::test(flavor = "multi_thread")]
async fn half_open_connections_do_not_hold_up_shutdown() {
    let d = with_tokens(Dreamd::sqlite())
        .env("DREAMD_HTTP__HEADER_TIMEOUT_SECS", "60")
        .env("DREAMD_SCHEDULE__SHUTDOWN_TIMEOUT_SECS", "60");
    let served = Served::start(&d);
    let mut held = Vec::new();
    for _ in 0..20 {
        held.push(half_sent_request(&served).await);
    }
    let client = reqwest::Client::new();
    // Kept alive by the client: an idle connection once answered. Accepting
    // is in order, so the answer also says every half-sent one was accepted.
    assert_eq!(client.get(served.url("/healthz")).send().await.unwrap().status(), 200);
    let started = Instant::now();
    assert_eq!(served.stop(), 0);
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    drop(held);
}
