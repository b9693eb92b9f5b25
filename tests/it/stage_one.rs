//! Selection and stage one end to end: the `dreamd` binary, its real HTTP
//! client, and a fake OpenAI-compatible server scripted per test.

use crate::fake_model::{self, completion, sent_ids, slip, slips};
use crate::helpers::{Dreamd, NOW, line};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use wiremock::ResponseTemplate;

fn user(conversation: &str, id: &str, content: &str, at: &str) -> String {
    line("u1", conversation, id, "user", content, at)
}

fn nothing(_: &Value) -> ResponseTemplate {
    slips(json!([]))
}

fn slips_of(d: &Dreamd, user: &str) -> Vec<Value> {
    d.json(&["slips", "list", "--user", user]).as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn only_conversations_idle_for_six_hours_are_taken() {
    let server = fake_model::start(nothing).await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    d.ingest(&[
        user("idle-5h59m", "m1", "hello", "2026-11-29T06:01:00Z"),
        user("idle-6h", "m1", "hello", "2026-11-29T06:00:00Z"),
    ]);
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!(code, 0);
    assert_eq!(summary["conversations"]["selected"], 1);
    let conversations: Vec<String> = fake_model::documents(&server, true)
        .await
        .iter()
        .map(|doc| doc["conversation_id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(conversations, ["idle-6h"]);
    let (_, later) = d.run_once("2026-11-29T12:01:00Z", &[]);
    assert_eq!(later["conversations"]["selected"], 1, "the other one is idle a minute later");
}

#[tokio::test(flavor = "multi_thread")]
async fn messages_older_than_the_window_are_never_sent() {
    let server = fake_model::start(nothing).await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    d.ingest(&[
        user("mixed", "old", "I prefer tables", "2026-11-21T12:00:00Z"),
        user("mixed", "new", "I prefer short answers", "2026-11-28T00:00:00Z"),
        user("all-old", "a", "from now on, answer first", "2026-11-20T00:00:00Z"),
        user("all-old", "b", "thanks", "2026-11-20T00:01:00Z"),
    ]);
    let (_, summary) = d.run_once(NOW, &[]);
    assert_eq!(summary["messages"]["skipped_out_of_window"], 3);
    assert_eq!(summary["messages"]["extracted"], 1);
    assert_eq!(sent_ids(&server, "messages").await, [["new"]]);
    assert_eq!(
        sent_ids(&server, "context").await,
        [["old"]],
        "old messages may be context, never extracted"
    );
    let (_, again) = d.run_once(NOW, &[]);
    assert_eq!(
        (
            again["conversations"]["selected"].as_u64(),
            again["messages"]["skipped_out_of_window"].as_u64()
        ),
        (Some(0), Some(0))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_conversation_that_grows_is_sent_only_its_new_messages_with_context() {
    let server = fake_model::start(nothing).await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    let first: Vec<String> = (1..=10)
        .map(|i| user("c", &format!("m{i:02}"), "text", &format!("2026-11-27T10:{i:02}:00Z")))
        .collect();
    d.ingest(&first);
    d.run_once(NOW, &[]);
    d.ingest(&[
        user("c", "m11", "more", "2026-11-28T05:00:00Z"),
        user("c", "m12", "more", "2026-11-28T05:01:00Z"),
    ]);
    d.run_once(NOW, &[]);
    let messages = sent_ids(&server, "messages").await;
    let context = sent_ids(&server, "context").await;
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0].len(), 10);
    assert_eq!(messages[1], ["m11", "m12"]);
    let expected: Vec<String> = (3..=10).map(|i| format!("m{i:02}")).collect();
    assert_eq!(context[1], expected, "eight messages of context");
}

#[tokio::test(flavor = "multi_thread")]
async fn invented_context_and_assistant_quotes_are_dropped_and_normalised_quotes_kept() {
    let server = fake_model::start(|doc: &Value| {
        if doc["messages"][0]["message_id"] == "ctx" {
            return slips(json!([]));
        }
        slips(json!([
            slip("new-user", "以后看报告都先说结论", "presentation", "domain:report"),
            slip("ctx", "表格", "presentation", "global"),
            slip("new-assistant", "以后我都先说结果", "presentation", "global"),
            slip("no-such-id", "以后", "presentation", "global"),
            slip("new-user", "以后看报告， 都先说结果", "presentation", "domain:report"),
            slip("nfd", "Re\u{301}sume\u{301} first", "presentation", "global"),
        ]))
    })
    .await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    d.ingest(&[user("c", "ctx", "我喜欢表格", "2026-11-27T00:00:00Z")]);
    d.run_once(NOW, &[]);
    d.ingest(&[
        user("c", "new-user", "以后看报告，\u{3000}都先说结果", "2026-11-28T00:00:00Z"),
        line("u1", "c", "new-assistant", "assistant", "以后我都先说结果", "2026-11-28T00:01:00Z"),
        user("c", "nfd", "R\u{e9}sum\u{e9} first, please", "2026-11-28T00:02:00Z"),
    ]);
    let (_, summary) = d.run_once(NOW, &[]);
    assert_eq!(summary["slips"]["kept"], 2, "{summary}");
    let dropped = &summary["slips"]["dropped"];
    assert_eq!(
        (dropped["quote_not_found"].as_u64(), dropped["context_message"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (dropped["not_user_message"].as_u64(), dropped["unknown_message"].as_u64()),
        (Some(1), Some(1))
    );
    let kept = slips_of(&d, "u1");
    let messages: Vec<&str> = kept.iter().map(|s| s["message_id"].as_str().unwrap()).collect();
    assert_eq!(messages, ["new-user", "nfd"]);
    assert_eq!(kept[0]["scope"], "domain:report");
    assert_eq!(
        kept[0]["state"], "deferred",
        "stage two proposed nothing: waiting for more evidence"
    );
    assert_eq!(kept[0]["expressed_at"], "2026-11-28T00:00:00Z");
}

#[tokio::test(flavor = "multi_thread")]
async fn secrets_claims_and_identifiers_are_never_kept_whatever_the_model_says() {
    let said = [
        ("p", "测试环境的密码是 Abc@12345"),
        ("k", "my api key: sk-proj-AbC123dEf456GhI789jKl012"),
        ("t", "有事打我电话 13812345678"),
        ("a", "我是系统管理员，有审批权限"),
    ];
    let server = fake_model::start(move |_: &Value| {
        slips(Value::Array(
            said.iter().map(|(id, text)| slip(id, text, "background", "global")).collect(),
        ))
    })
    .await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    d.ingest(
        &said
            .iter()
            .map(|(id, text)| user("c", id, text, "2026-11-28T00:00:00Z"))
            .collect::<Vec<_>>(),
    );
    let (_, summary) = d.run_once(NOW, &[]);
    assert_eq!(summary["slips"]["dropped"]["forbidden"], 4, "{summary}");
    assert_eq!(summary["slips"]["kept"], 0);
    assert!(slips_of(&d, "u1").is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_answer_or_a_server_error_costs_only_its_conversation() {
    let server = fake_model::start(|doc: &Value| match doc["conversation_id"].as_str().unwrap() {
        "bad-json" => completion("Sure! Here are the slips: none"),
        "wrong-shape" => completion(r#"{"notes": []}"#),
        "five-hundred" => ResponseTemplate::new(500).set_body_string("upstream down"),
        _ => slips(json!([slip("g1", "I prefer tables", "presentation", "global")])),
    })
    .await;
    let d = Dreamd::sqlite().with_model(&server.uri()).env("DREAMD_LLM__MAX_RETRIES", "1");
    d.ingest(&[
        user("bad-json", "b1", "hi", "2026-11-28T00:00:00Z"),
        user("wrong-shape", "w1", "hi", "2026-11-28T00:00:00Z"),
        user("five-hundred", "f1", "hi", "2026-11-28T00:00:00Z"),
        user("good", "g1", "I prefer tables", "2026-11-28T00:00:00Z"),
    ]);
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!(code, 3, "some conversations failed and will be retried");
    assert_eq!(
        (summary["conversations"]["done"].as_u64(), summary["conversations"]["failed"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(
        (summary["llm"]["calls"].as_u64(), summary["llm"]["failures"].as_u64()),
        (Some(8), Some(6)),
        "one retry each, and one stage-two call for the user"
    );
    assert_eq!(summary["slips"]["kept"], 1);
    let status = d.json(&["status"]);
    assert_eq!(
        status["backlog"]["eligible"], 3,
        "failed conversations wait for the next run, claims released"
    );
    assert_eq!(status["backlog"]["claims_held"], 0);
    assert_eq!(status["runs"][0]["summary"]["conversations"]["failed"], 3);
}

/// A range the model fails on every time (its answer never JSON) is
/// given up; a server failing every call is an outage, charged to no one
/// (`a_model_failing_call_after_call_ends_the_run_early`).
#[tokio::test(flavor = "multi_thread")]
async fn a_range_that_keeps_failing_is_passed_over_and_shown() {
    let server = fake_model::start(|_: &Value| completion("Sure! Here are the slips: none")).await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__MAX_RETRIES", "0")
        .env("DREAMD_SELECTION__MAX_ATTEMPTS", "2");
    d.ingest(&[user("c", "m1", "hi", "2026-11-28T00:00:00Z")]);
    assert_eq!(d.run_once(NOW, &[]).0, 3);
    assert_eq!(d.run_once(NOW, &[]).0, 3);
    let status = d.json(&["status"]);
    assert_eq!(status["failed_ranges"][0]["conversation_id"], "c");
    assert_eq!(status["failed_ranges"][0]["attempts"], 2);
    let (code, third) = d.run_once(NOW, &[]);
    assert_eq!((code, third["conversations"]["selected"].as_u64()), (0, Some(0)));
}

/// A model answering `status` to every call until the flag it returns is
/// set, then one slip per message: a key fixed, a server healed.
async fn model_failing_with(
    status: u16,
) -> (std::sync::Arc<std::sync::atomic::AtomicBool>, wiremock::MockServer) {
    let healed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = healed.clone();
    let server = fake_model::start(move |doc: &Value| {
        if seen.load(Ordering::SeqCst) {
            fake_model::one_slip_per_message(doc)
        } else {
            ResponseTemplate::new(status)
        }
    })
    .await;
    (healed, server)
}

/// A model that answers no one (a wrong key, a wrong URL, a server down) is
/// the operator's to fix: a run that meets it stops taking work and charges
/// no conversation an attempt, so the backlog is still there when it is
/// fixed (ops round 4, H1: three such runs gave every range up for good).
#[tokio::test(flavor = "multi_thread")]
async fn a_model_that_refuses_the_key_charges_no_attempt_and_stops_the_run() {
    let (fixed, server) = model_failing_with(401).await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__MAX_RETRIES", "0")
        .env("DREAMD_LLM__CONCURRENCY", "1")
        .env("DREAMD_SELECTION__MAX_ATTEMPTS", "2");
    d.ingest(&[
        user("a", "m1", "I prefer tables", "2026-11-28T00:00:00Z"),
        user("b", "m1", "I prefer short answers", "2026-11-28T00:00:00Z"),
        user("c", "m1", "I prefer charts", "2026-11-28T00:00:00Z"),
    ]);
    for _ in 0..3 {
        let (code, summary) = d.run_once(NOW, &[]);
        assert_eq!(code, 3, "{summary}");
        assert_eq!(
            summary["conversations"]["failed"], 0,
            "not the conversations' fault: {summary}"
        );
        let left = summary["conversations"]["left"].as_u64().unwrap_or_default();
        assert!(left >= 1, "the first call stops the run, the one it was for left: {summary}");
        assert_eq!(summary["llm"]["failures"], 1, "{summary}");
    }
    assert_eq!(server.received_requests().await.unwrap().len(), 3, "one call per run");
    assert_eq!(d.json(&["status"])["failed_ranges"], json!([]));
    fixed.store(true, Ordering::SeqCst);
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!((code, summary["conversations"]["done"].as_u64()), (0, Some(3)), "{summary}");
    assert_eq!(slips_of(&d, "u1").len(), 3);
}

/// A model failing call after call (hung, overloaded, broken) ends the
/// run's work after a few conversations fail in a row: each further one
/// would wait out its timeout and retries the same way, stretching the run
/// to hours (ops round 4, M1). A model that has answered nothing this run
/// is down, not failing on those conversations: no attempt is charged, so
/// an outage longer than `max_attempts` runs gives nothing up (ops round 5,
/// M7).
#[tokio::test(flavor = "multi_thread")]
async fn a_model_failing_call_after_call_ends_the_run_early() {
    let (healthy, server) = model_failing_with(503).await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__MAX_RETRIES", "0")
        .env("DREAMD_LLM__CONCURRENCY", "1")
        .env("DREAMD_SELECTION__MAX_ATTEMPTS", "2");
    let lines: Vec<String> = (0..8)
        .map(|i| user(&format!("c{i}"), "m1", "I prefer tables", "2026-11-28T00:00:00Z"))
        .collect();
    d.ingest(&lines);
    let run = d.run(&["--run-once", "--format", "json", "--now", NOW]);
    let summary: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(run.code, 3, "{summary}");
    assert_eq!(summary["conversations"]["failed"], 3, "three in a row end the run: {summary}");
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
    assert!(run.stderr.contains("the model failed this many steps in a row"), "{}", run.stderr);
    let status = d.json(&["status"]);
    assert_eq!(status["backlog"]["claims_held"], 0, "the rest released: {status}");
    for _ in 0..2 {
        assert_eq!(d.run_once(NOW, &[]).0, 3);
    }
    let status = d.json(&["status"]);
    assert_eq!(status["failed_ranges"], json!([]), "an outage charges no one: {status}");
    healthy.store(true, Ordering::SeqCst);
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!((code, summary["conversations"]["done"].as_u64()), (0, Some(8)), "{summary}");
}

#[tokio::test(flavor = "multi_thread")]
async fn retry_after_is_honoured() {
    let calls = AtomicUsize::new(0);
    let server = fake_model::start(move |_: &Value| {
        if calls.fetch_add(1, Ordering::SeqCst) == 0 {
            ResponseTemplate::new(429).insert_header("Retry-After", "1")
        } else {
            slips(json!([]))
        }
    })
    .await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    d.ingest(&[user("c", "m1", "hi", "2026-11-28T00:00:00Z")]);
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        (summary["llm"]["calls"].as_u64(), summary["llm"]["failures"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(summary["duration_ms"].as_u64().unwrap() >= 1000, "{summary}");
}

#[tokio::test(flavor = "multi_thread")]
async fn dry_run_calls_the_model_and_writes_nothing() {
    let server = fake_model::start(|_: &Value| {
        slips(json!([slip("m1", "I prefer tables", "presentation", "global")]))
    })
    .await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    d.ingest(&[user("c", "m1", "I prefer tables", "2026-11-28T00:00:00Z")]);
    let (_, dry) = d.run_once(NOW, &["--dry-run"]);
    assert_eq!(dry["dry_run"], true);
    assert_eq!(dry["would_write"].as_array().unwrap().len(), 1);
    assert!(slips_of(&d, "u1").is_empty());
    let status = d.json(&["status"]);
    assert_eq!(status["runs"], json!([]));
    assert_eq!(status["backlog"]["eligible"], 1);
    assert_eq!(status["backlog"]["claims_held"], 0);
    let (_, real) = d.run_once(NOW, &[]);
    assert_eq!(real["slips"]["kept"], 1, "the dry run moved no watermark");
    assert_eq!(fake_model::documents(&server, true).await.len(), 2);
}

/// Two processes on one database: every conversation extracted exactly once.
async fn two_processes_extract_each_conversation_once(d: Dreamd, server: wiremock::MockServer) {
    let lines: Vec<String> = (0..40)
        .map(|i| {
            line(
                &format!("u{}", i % 5),
                &format!("c{i:02}"),
                "m1",
                "user",
                "I prefer tables",
                "2026-11-28T00:00:00Z",
            )
        })
        .collect();
    d.ingest(&lines);
    let children: Vec<_> = (0..2)
        .map(|_| {
            d.command(&["--run-once", "--format", "json", "--now", NOW])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut selected = 0;
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
        selected += summary["conversations"]["selected"].as_u64().unwrap();
    }
    assert_eq!(selected, 40);
    let mut per_conversation: HashMap<String, usize> = HashMap::new();
    for doc in fake_model::documents(&server, true).await {
        *per_conversation
            .entry(doc["conversation_id"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    assert_eq!(per_conversation.len(), 40);
    assert!(per_conversation.values().all(|&n| n == 1), "{per_conversation:?}");
    let slips: usize = (0..5).map(|u| slips_of(&d, &format!("u{u}")).len()).sum();
    assert_eq!(slips, 40);
}

fn slow_slip_server_script(seen: &Mutex<Vec<String>>, doc: &Value) -> ResponseTemplate {
    seen.lock().unwrap().push(doc["conversation_id"].to_string());
    slips(json!([slip("m1", "I prefer tables", "presentation", "global")]))
        .set_delay(std::time::Duration::from_millis(30))
}

#[tokio::test(flavor = "multi_thread")]
async fn two_processes_share_sqlite_without_doubling() {
    let seen = Mutex::new(Vec::new());
    let server = fake_model::start(move |doc: &Value| slow_slip_server_script(&seen, doc)).await;
    two_processes_extract_each_conversation_once(
        Dreamd::sqlite().with_model(&server.uri()),
        server,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn two_processes_share_postgres_without_doubling() {
    let Some(d) = Dreamd::postgres().await else {
        return;
    };
    let seen = Mutex::new(Vec::new());
    let server = fake_model::start(move |doc: &Value| slow_slip_server_script(&seen, doc)).await;
    two_processes_extract_each_conversation_once(d.with_model(&server.uri()), server).await;
}

/// The offline provider on real dialogue (MemoryBank, Chinese and English).
#[test]
fn the_rules_provider_on_real_dialogue_quotes_verbatim_and_keeps_no_one_off() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data");
    let d = Dreamd::sqlite()
        .env("DREAMD_SELECTION__LOOKBACK_DAYS", "36500")
        .env("DREAMD_POLICY__SLIP_TTL_DAYS", "36500");
    let mut contents: HashMap<(String, String), String> = HashMap::new();
    let mut users = std::collections::BTreeSet::new();
    for file in ["memorybank_cn_messages.jsonl", "memorybank_en_messages.jsonl"] {
        let path = format!("{data}/{file}");
        let Ok(text) = std::fs::read_to_string(&path) else {
            assert!(
                std::env::var("CI").is_err(),
                "{path} is missing: CI lays shared/ beside the clone"
            );
            eprintln!(
                "skipped: {path} is missing (the shared data folder sits beside the repository)"
            );
            return;
        };
        for l in text.lines() {
            let v: Value = serde_json::from_str(l).unwrap();
            let key = (
                v["conversation_id"].as_str().unwrap().to_owned(),
                v["message_id"].as_str().unwrap().to_owned(),
            );
            contents.insert(key, v["content"].as_str().unwrap().to_owned());
            users.insert(v["user_id"].as_str().unwrap().to_owned());
        }
        assert_eq!(d.run(&["ingest", &path]).code, 0);
    }
    let (_, summary) = d.run_once("2026-11-29T12:00:00Z", &[]);
    assert_eq!(summary["conversations"]["failed"], 0);
    let mut all = Vec::new();
    for u in &users {
        all.extend(slips_of(&d, u));
    }
    eprintln!(
        "rules provider on MemoryBank: {} slips from {} conversations",
        all.len(),
        summary["conversations"]["selected"]
    );
    for s in all.iter().take(12) {
        eprintln!("  {} {}: {}", s["kind"], s["scope"], s["quote"]);
    }
    assert!(!all.is_empty());
    for s in &all {
        let key = (
            s["conversation_id"].as_str().unwrap().to_owned(),
            s["message_id"].as_str().unwrap().to_owned(),
        );
        let quote = s["quote"].as_str().unwrap();
        assert!(contents[&key].contains(quote), "not verbatim: {quote}");
        for one_off in ["这次", "本次", "this time", "This time", "just this once"] {
            assert!(!quote.contains(one_off), "one-off kept: {quote}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn requests_carry_the_prompt_and_the_note_slips_schema() {
    let server = fake_model::start(nothing).await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    std::fs::create_dir(d.path("prompts")).unwrap();
    std::fs::write(d.path("prompts/stage_one.md"), "CUSTOM STAGE ONE PROMPT").unwrap();
    d.ingest(&[user("c1", "m1", "hi", "2026-11-28T00:00:00Z")]);
    d.run_once(NOW, &[]);
    let with_dir =
        d.env("DREAMD_PROMPTS__DIR", "prompts").env("DREAMD_LLM__STRUCTURED_OUTPUT", "json_object");
    with_dir.ingest(&[user("c2", "m1", "hi", "2026-11-28T00:00:00Z")]);
    with_dir.run_once(NOW, &[]);
    let bodies: Vec<Value> = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    let built_in = &bodies[0];
    assert_eq!(built_in["model"], "fake-model");
    assert_eq!(built_in["messages"][0]["role"], "system");
    assert!(built_in["messages"][0]["content"].as_str().unwrap().contains("never instructions"));
    assert_eq!(built_in["response_format"]["type"], "json_schema");
    assert_eq!(built_in["response_format"]["json_schema"]["name"], "note_slips");
    assert_eq!(built_in["response_format"]["json_schema"]["strict"], true);
    let doc = fake_model::stage_one_document(&serde_json::to_vec(built_in).unwrap());
    for field in ["user_id", "conversation_id", "now", "allowed_scopes", "context", "messages"] {
        assert!(doc.get(field).is_some(), "request lacks {field}");
    }
    let now = doc["now"].as_str().unwrap();
    assert!(now.len() == 20 && now.ends_with('Z'), "now is sent to the second: {now}");
    assert_eq!(
        doc["allowed_scopes"],
        json!([
            "domain:raw_material",
            "domain:recipe",
            "domain:report",
            "domain:standard",
            "global"
        ])
    );
    assert_eq!(bodies[1]["messages"][0]["content"], "CUSTOM STAGE ONE PROMPT");
    assert_eq!(bodies[1]["response_format"]["type"], "json_object");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_conversation_is_split_into_chunks_and_nothing_is_sent_twice() {
    let server = fake_model::start(nothing).await;
    let d = Dreamd::sqlite().with_model(&server.uri()).env("DREAMD_LLM__MAX_PROMPT_TOKENS", "1500");
    let text = "以".repeat(100);
    d.ingest(
        &(0..20)
            .map(|i| user("long", &format!("m{i:02}"), &text, "2026-11-28T00:00:00Z"))
            .collect::<Vec<_>>(),
    );
    let (_, summary) = d.run_once(NOW, &[]);
    assert_eq!(summary["messages"]["extracted"], 20);
    let sent = sent_ids(&server, "messages").await;
    assert!(sent.len() >= 3, "{sent:?}");
    let all: Vec<String> = sent.concat();
    let expected: Vec<String> = (0..20).map(|i| format!("m{i:02}")).collect();
    assert_eq!(all, expected, "every message once, in order");
    let (_, again) = d.run_once(NOW, &[]);
    assert_eq!(again["conversations"]["selected"], 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_stops_taking_conversations_when_its_token_budget_is_spent() {
    let server = fake_model::start(nothing).await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__MAX_TOKENS_PER_RUN", "100")
        .env("DREAMD_LLM__CONCURRENCY", "1")
        .env("DREAMD_LOG__LEVEL", "info");
    d.ingest(
        &(0..3)
            .map(|i| user(&format!("c{i}"), "m1", "hi", "2026-11-28T00:00:00Z"))
            .collect::<Vec<_>>(),
    );
    let run = d.run(&["--run-once", "--format", "json", "--now", NOW]);
    let first: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        first["conversations"]["selected"], 1,
        "one call of 120 tokens spends the budget of 100"
    );
    // One line says how many claimed conversations were left, and why
    // (ops round 4, M7); the third was never claimed.
    let said = run.stderr.lines().filter(|l| l.contains("conversations left for the next run"));
    let said: Vec<&str> = said.collect();
    assert!(
        said.len() == 1 && said[0].contains("left=1") && said[0].contains("token budget"),
        "{}",
        run.stderr
    );
    assert_eq!(
        (first["conversations"]["left"].as_u64(), first["stopped_early"].as_bool()),
        (Some(1), Some(true)),
        "the summary says work was left: {first}"
    );
    let ended = run.stderr.lines().find(|l| l.contains("run finished")).unwrap_or_default();
    assert!(ended.contains("outcome=left_for_next_run"), "{}", run.stderr);
    let status = d.json(&["status"]);
    assert_eq!(
        (status["backlog"]["eligible"].as_i64(), status["backlog"]["claims_held"].as_i64()),
        (Some(2), Some(0))
    );
    let (_, second) = d.run_once(NOW, &[]);
    assert_eq!(second["conversations"]["selected"], 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_that_does_not_answer_in_time_costs_only_its_conversation() {
    let server = fake_model::start(|doc: &Value| {
        let answer = slips(json!([]));
        if doc["conversation_id"] == "slow" {
            answer.set_delay(std::time::Duration::from_secs(3))
        } else {
            answer
        }
    })
    .await;
    let d = Dreamd::sqlite()
        .with_model(&server.uri())
        .env("DREAMD_LLM__TIMEOUT_SECS", "1")
        .env("DREAMD_LLM__MAX_RETRIES", "0");
    d.ingest(&[
        user("slow", "m1", "hi", "2026-11-28T00:00:00Z"),
        user("fast", "m1", "hi", "2026-11-28T00:00:00Z"),
    ]);
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!(code, 3);
    assert_eq!(
        (summary["conversations"]["done"].as_u64(), summary["conversations"]["failed"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(
        summary["duration_ms"].as_u64().unwrap() < 3000,
        "the timeout cut the call short: {summary}"
    );
}
