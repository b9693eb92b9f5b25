//! Model answers as real servers send them (spec §10.26) and as a hostile
//! model might (spec §10.21), through the `dreamd` binary and its real HTTP
//! client against a fake OpenAI-compatible server.

use crate::fake_model::{self, completion, operations, stage_one_document};
use crate::helpers::{Dreamd, RawSql, line};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const NOW: &str = "2026-11-29T12:00:00Z";

fn say(conversation: &str, text: &str) -> String {
    line("jay", conversation, &format!("{conversation}-1"), "user", text, "2026-11-27T09:00:00Z")
}

fn slip_for(doc: &Value) -> Value {
    let m = &doc["messages"][0];
    json!({"slips": [{"message_id": m["message_id"], "quote": m["content"], "content": m["content"],
        "kind": "background", "scope": "global", "durability": "lasting", "valid_until": null}]})
}

/// A chat completion carrying `content` and, like some servers, `reasoning_content`.
fn completion_with_reasoning(content: &str, reasoning: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content, "reasoning_content": reasoning}}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    }))
}

/// A chat completion as some local servers send it: no `id`, `object` or
/// `created`, and usage without `total_tokens`.
fn bare_completion(content: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "choices": [{"message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20}
    }))
}

const REASONING: &str = "REASONING-CANARY the user may be an admin";

/// Each conversation is answered in the shape its id names.
fn shaped(doc: &Value) -> ResponseTemplate {
    let json = slip_for(doc).to_string();
    let conversation = doc["conversation_id"].as_str().unwrap();
    let content = match conversation {
        "plain" => json,
        "think" => format!("<think>\n{REASONING}. {{\"slips\": []}} maybe?\n</think>\n\n{json}"),
        "fence" => format!("```json\n{json}\n```"),
        "prose" => format!("{json}\n\nI kept one slip because {REASONING}."),
        "reasoning-field" => return completion_with_reasoning(&json, REASONING),
        "bare" => return bare_completion(&json),
        "no-object" => format!("<think>{REASONING}</think>I would rather not answer."),
        "two-objects" => format!("{json}\n{json}"),
        other => panic!("unexpected conversation {other}"),
    };
    completion(&content)
}

#[tokio::test(flavor = "multi_thread")]
async fn answers_are_read_as_real_servers_send_them() {
    let server = fake_model::start_both(shaped, |_: &Value| operations(json!([]))).await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__MAX_RETRIES", "0")
        .env("DREAMD_LOG__LEVEL", "trace");
    let conversations =
        ["plain", "think", "fence", "prose", "reasoning-field", "bare", "no-object", "two-objects"];
    let lines: Vec<String> =
        conversations.iter().map(|c| say(c, &format!("我在质检部做微生物检测（{c}）"))).collect();
    d.ingest(&lines);
    let run = d.run(&["--run-once", "--format", "json", "--now", NOW]);
    assert_eq!(run.code, 3, "two conversations fail: {}", run.stderr);
    let summary: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["conversations"]["done"], 6, "{summary}");
    assert_eq!(summary["conversations"]["failed"], 2, "{summary}");
    assert_eq!(summary["slips"]["kept"], 6, "{summary}");
    assert!(run.stderr.contains("holds no JSON object"), "{}", run.stderr);
    assert!(run.stderr.contains("more than one JSON object"), "{}", run.stderr);
    assert!(!run.stderr.contains("REASONING-CANARY"), "the reasoning was logged");
    let slips = d.json(&["slips", "list", "--user", "jay"]);
    assert!(!slips.to_string().contains("REASONING-CANARY"));
}

/// A reasoning model behind an OpenAI-style API: refuses any `temperature`.
struct RefusesTemperature {
    requests: Arc<Mutex<Vec<Value>>>,
    /// How long a refusal takes.
    delay: std::time::Duration,
}

impl Respond for RefusesTemperature {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        self.requests.lock().unwrap().push(body.clone());
        if body.get("temperature").is_some() {
            // Slow enough that calls sent together all carry it.
            return ResponseTemplate::new(400).set_delay(self.delay).set_body_json(json!({"error": {
                "message": "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
                "type": "invalid_request_error", "param": "temperature", "code": "unsupported_value"}}));
        }
        let doc = stage_one_document(&request.body);
        if fake_model::is_stage_one(&doc) {
            completion(&slip_for(&doc).to_string())
        } else {
            operations(json!([]))
        }
    }
}

/// A daemon making `concurrency` calls at once, without retries, to a
/// [`RefusesTemperature`] server whose refusals take `delay`; the server
/// (kept alive with the daemon) and the request bodies it saw.
async fn behind_a_temperature_refusing_model(
    delay: std::time::Duration,
    concurrency: &str,
) -> (MockServer, Dreamd, Arc<Mutex<Vec<Value>>>) {
    let server = MockServer::start().await;
    let requests = Arc::new(Mutex::new(Vec::new()));
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .respond_with(RefusesTemperature { requests: requests.clone(), delay })
        .mount(&server)
        .await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__CONCURRENCY", concurrency)
        .env("DREAMD_LLM__MAX_RETRIES", "0");
    (server, d, requests)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_refuses_temperature_is_asked_again_without_it() {
    let (_server, d, requests) = behind_a_temperature_refusing_model(Default::default(), "1").await;
    d.ingest(&[say("a", "我在质检部做微生物检测"), say("b", "我负责原料入厂检验")]);
    let run = d.run(&["--run-once", "--format", "json", "--now", NOW]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let summary: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["conversations"]["done"], 2, "{summary}");
    let sent = requests.lock().unwrap().clone();
    let with_temperature = sent.iter().filter(|b| b.get("temperature").is_some()).count();
    assert_eq!(
        (with_temperature, sent[0].get("temperature").is_some()),
        (1, true),
        "only the first call carries it"
    );
    assert!(sent.len() >= 3, "the refused call is repeated: {}", sent.len());
    assert_eq!(
        run.stderr.lines().filter(|l| l.contains("llm.temperature")).count(),
        1,
        "one warning naming the key: {}",
        run.stderr
    );
}

/// Calls in flight together all carried `temperature`: each refusal is
/// asked again without it, none counts as a failed call, and one warning
/// names the key (ops round 4, L7: all but the first failed, each with a
/// warning; with no retries left their conversations failed).
#[tokio::test(flavor = "multi_thread")]
async fn calls_in_flight_when_temperature_is_refused_are_all_asked_again() {
    let delay = std::time::Duration::from_millis(300);
    let (_server, d, requests) = behind_a_temperature_refusing_model(delay, "4").await;
    let lines: Vec<String> =
        (0..6).map(|i| say(&format!("c{i}"), "我在质检部做微生物检测")).collect();
    d.ingest(&lines);
    let run = d.run(&["--run-once", "--format", "json", "--now", NOW]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let summary: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["conversations"]["done"], 6, "{summary}");
    assert_eq!(summary["llm"]["failures"], 0, "{summary}");
    let refused =
        requests.lock().unwrap().iter().filter(|b| b.get("temperature").is_some()).count();
    assert!(refused > 1, "calls went out together with temperature: {refused}");
    assert!(!run.stderr.contains("model call failed"), "{}", run.stderr);
    let warnings = run.stderr.lines().filter(|l| l.contains("llm.temperature")).count();
    assert_eq!(warnings, 1, "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn temperature_none_sends_none() {
    let server = fake_model::start(|doc: &Value| completion(&slip_for(doc).to_string())).await;
    let d = Dreamd::sqlite().with_model(&server.uri()).env("DREAMD_LLM__TEMPERATURE", "none");
    d.ingest(&[say("a", "我在质检部做微生物检测")]);
    d.run_once(NOW, &[]);
    let sent = server.received_requests().await.unwrap();
    assert!(!sent.is_empty());
    for request in sent {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        assert!(body.get("temperature").is_none(), "{body}");
    }
}

/// A valid answer padded past the 32 MiB dreamd reads, for conversation
/// `huge`; an honest answer for the others.
fn huge_or_honest(doc: &Value) -> ResponseTemplate {
    let json = slip_for(doc).to_string();
    if doc["conversation_id"] == "huge" {
        return completion(&format!("{json}{}", " ".repeat(33 << 20)));
    }
    completion(&json)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_answer_past_the_size_cap_is_not_read() {
    let server = fake_model::start_both(huge_or_honest, |_: &Value| operations(json!([]))).await;
    let d = Dreamd::sqlite().with_model(&server.uri()).env("DREAMD_LLM__MAX_RETRIES", "0");
    d.ingest(&[say("huge", "我在质检部做微生物检测"), say("fine", "我负责原料入厂检验")]);
    let run = d.run(&["--run-once", "--format", "json", "--now", NOW]);
    assert_eq!(run.code, 3, "the huge answer's conversation fails: {}", run.stderr);
    let summary: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["conversations"]["done"], 1, "{summary}");
    assert_eq!(summary["slips"]["kept"], 1, "{summary}");
    assert!(run.stderr.contains("larger than 32 MiB"), "{}", run.stderr);
}

const CANARY: &str = "CANARY7Q";

/// Stage one: a valid slip (so stage two runs) beside slips with the canary
/// in every field, one field at a time and all at once.
fn hostile_stage_one(doc: &Value) -> ResponseTemplate {
    let m = &doc["messages"][0];
    let (id, text) = (m["message_id"].clone(), m["content"].clone());
    let valid = json!({"message_id": id, "quote": text, "content": text, "kind": "background",
                       "scope": "global", "durability": "lasting", "valid_until": null});
    let mut answer = vec![valid.clone()];
    for field in ["message_id", "quote", "kind", "scope", "durability", "valid_until"] {
        let mut bad = valid.clone();
        bad[field] = json!(format!("{CANARY}-{field}"));
        answer.push(bad);
    }
    let mut bad_content = valid.clone();
    bad_content["content"] = json!(format!("{CANARY} 我是系统管理员，密码是 Abc@12345"));
    answer.push(bad_content);
    answer.push(json!({"message_id": CANARY, "quote": CANARY, "content": CANARY, "kind": CANARY,
                       "scope": CANARY, "durability": CANARY, "valid_until": CANARY}));
    answer.push(json!({"message_id": [CANARY], "quote": {"x": CANARY}, "content": null}));
    answer.push(json!(CANARY));
    let mut document = json!({ "slips": answer });
    document[CANARY] = json!(CANARY);
    completion(&document.to_string())
}

/// Stage two: every op with the canary in every field, and ops whose ids are
/// right but whose other fields carry it where the policy must refuse them.
fn hostile_stage_two(doc: &Value) -> ResponseTemplate {
    let slip = doc["slips"][0]["slip_id"].clone();
    let memory = doc["memories"]
        .as_array()
        .and_then(|m| m.first())
        .map(|m| m["memory_id"].clone())
        .unwrap_or(json!(null));
    let all = |op: &str| {
        json!({"op": op, "memory_id": CANARY, "kind": CANARY, "scope": CANARY, "content": CANARY,
               "reason": CANARY, "slip_ids": [CANARY], "supersedes_slip_ids": [CANARY]})
    };
    let mut document = json!({"operations": [
            all("create"), all("update"), all("confirm"), all("retire"), all("suggest"), all(CANARY),
            {"op": "create", "kind": CANARY, "scope": "global", "content": CANARY, "slip_ids": [slip], "supersedes_slip_ids": []},
            {"op": "create", "kind": "background", "scope": format!("domain:{CANARY}"), "content": CANARY, "slip_ids": [slip], "supersedes_slip_ids": []},
            {"op": "create", "kind": "background", "scope": "global", "content": format!("{CANARY} I am the admin, my password is hunter22"), "slip_ids": [slip], "supersedes_slip_ids": []},
            {"op": "create", "kind": "background", "scope": "global", "content": CANARY, "slip_ids": [slip], "supersedes_slip_ids": [CANARY]},
            {"op": "update", "memory_id": CANARY, "content": CANARY, "slip_ids": [slip]},
            {"op": "retire", "memory_id": memory, "reason": null, "slip_ids": [slip]},
            {"op": "suggest", "kind": "terminology", "scope": "global", "content": CANARY, "memory_id": CANARY, "slip_ids": [slip]},
            {"op": "update", "memory_id": memory, "content": format!("{CANARY} 13812345678"), "slip_ids": [slip]},
            {"op": "create", "kind": "background", "scope": "global", "content": "x".repeat(600) + CANARY, "slip_ids": [slip]},
    ]});
    document[CANARY] = json!([CANARY]);
    completion(&document.to_string())
}

/// Answers that are not the schema, each carrying the canary.
fn not_the_schema(conversation: &str) -> String {
    match conversation.trim_end_matches(['t', 'j']) {
        "bad-1" => format!("<think>{CANARY}</think> {CANARY} refuses"),
        "bad-2" => format!("{{\"slips\": \"{CANARY}\"}}"),
        "bad-3" => format!("{{\"slips\": [{CANARY}"),
        "bad-4" => format!("{{\"{CANARY}\": 1}} {{\"slips\": []}}"),
        _ => format!("{{\"wrong\": \"{CANARY}\"}}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_canary_in_every_field_of_a_hostile_answer_reaches_no_log_status_or_table() {
    let server = fake_model::start_both(
        |doc: &Value| match doc["conversation_id"].as_str().unwrap() {
            c if c.starts_with("bad-") => completion(&not_the_schema(c)),
            _ => hostile_stage_one(doc),
        },
        hostile_stage_two,
    )
    .await;
    let home = Dreamd::sqlite();
    let file = home.path("dreamd.db");
    for format in ["text", "json"] {
        let mut d = Dreamd::sqlite()
            .with_model(&server.uri())
            .env("DREAMD_LLM__MAX_RETRIES", "0")
            .env("DREAMD_LOG__LEVEL", "trace")
            .env("DREAMD_LOG__FORMAT", format);
        d.database_url = format!("sqlite://{}", file.display());
        let suffix = if format == "text" { "t" } else { "j" };
        d.ingest(&[
            say(&format!("good-{suffix}"), "我在质检部做微生物检测"),
            say(&format!("bad-1{suffix}"), "我负责原料入厂检验"),
            say(&format!("bad-2{suffix}"), "我负责原料入厂检验"),
            say(&format!("bad-3{suffix}"), "我负责原料入厂检验"),
            say(&format!("bad-4{suffix}"), "我负责原料入厂检验"),
            say(&format!("bad-5{suffix}"), "我负责原料入厂检验"),
        ]);
        let day = if format == "text" { "29" } else { "30" };
        let run = d.run(&[
            "--run-once",
            "--format",
            "json",
            "--now",
            &format!("2026-11-{day}T12:00:00Z"),
        ]);
        assert!(matches!(run.code, 0 | 3), "{}", run.stderr);
        assert!(run.stderr.lines().count() > 20, "trace logging is on: {}", run.stderr);
        assert!(
            !run.stderr.contains(CANARY),
            "the canary reached the log ({format}):\n{}",
            run.stderr.lines().filter(|l| l.contains(CANARY)).collect::<Vec<_>>().join("\n")
        );
        assert!(!run.stdout.contains(CANARY), "{}", run.stdout);
        let summary: Value = serde_json::from_str(&run.stdout).unwrap();
        assert!(summary["operations"]["rejected"]["malformed"].as_u64() > Some(0), "{summary}");
        let rejected: u64 = summary["operations"]["rejected"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert!(rejected > 10, "the answer has more rejections than are listed: {summary}");
        let listed = run.stderr.lines().filter(|l| l.contains("operation rejected")).count();
        assert_eq!(listed, 10, "ten rejections listed, the rest counted: {}", run.stderr);
        assert!(run.stderr.contains("more operations rejected"), "{}", run.stderr);
        for args in [
            vec!["status"],
            vec!["status", "--format", "json"],
            vec!["slips", "list", "--user", "jay", "--format", "json"],
            vec!["memories", "list", "--user", "jay", "--all", "--format", "json"],
            vec!["suggestions", "list", "--user", "jay", "--all"],
        ] {
            let out = d.run(&args);
            assert_eq!(out.code, 0, "{}", out.stderr);
            assert!(!out.stdout.contains(CANARY) && !out.stderr.contains(CANARY), "{args:?}");
        }
    }
    let store = dreamd::store::SqliteStore::open(&file).await.unwrap();
    let dump = store.dump_except_messages().await;
    assert!(!dump.contains(CANARY), "{dump}");
}
