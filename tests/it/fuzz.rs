//! Generated input at volume (proptest): ingest lines and files, both
//! stages' model answers, mutated every way a client or a model gets them
//! wrong, and texts for the never-store detectors. No panic; a refused
//! file writes nothing; a bad answer costs only itself, and what is kept
//! from it still obeys every rule.
//!
//! Cases per property default to the counts below (over 100,000 in all);
//! `DREAMD_FUZZ_SCALE=10` runs ten times as many.

use dreamd::config::Config;
use dreamd::consolidate::policy::{self, UserState};
use dreamd::detect::Detector;
use dreamd::domain::{
    Durability, Kind, Memory, Origin, Role, Slip, SlipState, Status, StoredMessage, Time, Write,
};
use dreamd::extract::validate::{Checks, validate};
use dreamd::llm::answer;
use dreamd::llm::{ConsolidationAnswer, StageOneAnswer};
use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestCaseError, TestRunner};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};

fn cases(base: u32) -> u32 {
    let scale: u32 =
        std::env::var("DREAMD_FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    base * scale
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(RunnerConfig { cases, failure_persistence: None, ..RunnerConfig::default() })
}

/// Strings as clients send them: ordinary text, control characters, lone
/// surrogates written as escapes, SQL and JSON look-alikes, long runs.
fn odd_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,40}",
        "[\\x00-\\x1f\\u{200b}\\u{202e}\\u{feff}]{0,10}",
        Just("'; DROP TABLE messages; --".to_owned()),
        Just("\\ud800".to_owned()),
        Just(" ".to_owned()),
        Just(String::new()),
        "x{250,270}",
        Just("以后看报告，都先说结果".to_owned()),
        Just("13812345678".to_owned()),
    ]
}

fn odd_time() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("2026-11-20T09:00:00Z".to_owned()),
        Just("2026-02-30T25:61:00Z".to_owned()),
        Just("2026-11-20T23:59:60Z".to_owned()),
        Just("-0001-01-01T00:00:00Z".to_owned()),
        Just("+275760-09-13T00:00:00Z".to_owned()),
        Just("2026-11-20 09:00".to_owned()),
        Just("1700000000".to_owned()),
        "\\PC{0,25}",
    ]
}

/// Any JSON value, nested a little.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        odd_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("\\PC{0,8}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// An ingest line: mostly the right fields with odd values, sometimes not JSON at all.
fn ingest_line() -> impl Strategy<Value = Vec<u8>> {
    let field = |name: &'static str| {
        prop_oneof![
            4 => odd_text().prop_map(move |v| Some((name, Value::String(v)))),
            1 => any_json().prop_map(move |v| Some((name, v))),
            1 => Just(None),
        ]
    };
    let object = (
        field("user_id"),
        field("conversation_id"),
        field("message_id"),
        prop_oneof![
            Just(Some(("role", json!("user")))),
            Just(Some(("role", json!("robot")))),
            field("role")
        ],
        field("content"),
        prop_oneof![odd_time().prop_map(|t| Some(("created_at", json!(t)))), field("created_at")],
        prop_oneof![
            Just(None),
            prop::collection::vec(
                prop_oneof!["(global|domain:[a-z]{1,5}|project:\\PC{0,6}|\\PC{0,8})"],
                0..4
            )
            .prop_map(|s| Some(("scopes", json!(s)))),
        ],
    )
        .prop_map(|(a, b, c, d, e, f, g)| {
            let fields: serde_json::Map<String, Value> = [a, b, c, d, e, f, g]
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.to_owned(), v))
                .collect();
            Value::Object(fields).to_string().into_bytes()
        });
    prop_oneof![
        6 => object,
        1 => prop::collection::vec(any::<u8>(), 0..120),
        1 => Just(vec![b'{'; 2000]),
        1 => Just(format!("{{\"user_id\":\"u\",\"content\":\"{}\"}}", "y".repeat(300_000)).into_bytes()),
    ]
}

#[test]
fn ingest_lines_never_panic_and_what_they_accept_is_valid() {
    let mut runner = runner(cases(40_000));
    runner
        .run(&ingest_line(), |bytes| {
            let Ok(text) = std::str::from_utf8(&bytes) else { return Ok(()) };
            if let Ok(m) = dreamd::ingest::parse_line(text, 1) {
                for id in [&m.user_id, &m.conversation_id, &m.message_id] {
                    prop_assert!(!id.trim().is_empty() && id.chars().count() <= 256, "{id:?}");
                }
                prop_assert!(m.content.len() <= dreamd::ingest::MAX_CONTENT_BYTES);
            }
            Ok(())
        })
        .unwrap();
}

/// Files of good lines with one bad line somewhere: refused whole, nothing written.
#[test]
fn a_file_with_a_bad_line_writes_nothing() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let db = runtime.block_on(crate::helpers::SqliteDb::new());
    let good = |i: usize| {
        crate::helpers::line(
            "u1",
            &format!("c{}", i % 7),
            &format!("m{i}"),
            "user",
            "在做燕麦饮项目",
            "2026-11-20T09:00:00Z",
        )
    };
    let files =
        (prop::collection::vec(0usize..50, 1..30), ingest_line(), any::<prop::sample::Index>());
    let mut runner = runner(cases(300));
    runner
        .run(&files, |(ids, bad, at)| {
            let Ok(bad) = String::from_utf8(bad) else { return Ok(()) };
            if dreamd::ingest::parse_line(&bad, 1).is_ok() || bad.trim().is_empty() {
                return Ok(());
            }
            let mut lines: Vec<String> = ids.into_iter().map(good).collect();
            lines.insert(at.index(lines.len() + 1), bad);
            let refused = runtime.block_on(dreamd::ingest::ingest(
                &db.store,
                lines.join("\n").as_bytes(),
                &Default::default(),
            ));
            prop_assert!(refused.is_err());
            let stored = runtime
                .block_on(<dreamd::store::SqliteStore as dreamd::store::Store>::row_counts(
                    &db.store,
                ))
                .unwrap();
            prop_assert!(stored.iter().all(|(_, n)| *n == 0), "{stored:?}");
            Ok(())
        })
        .unwrap();
}

fn at(s: &str) -> Time {
    s.parse().unwrap()
}

fn message(id: &str, role: Role, content: &str) -> StoredMessage {
    StoredMessage {
        seq: 1,
        message_id: id.into(),
        role,
        content: content.into(),
        created_at: at("2026-11-27T09:00:00Z"),
    }
}

/// A text a detector may be given: pieces of what users write (key words,
/// labels, sentence ends of every width, tokens, numbers with separators,
/// any character) in any order. Every detector slices around its matches;
/// a slice inside a multi-byte character is a panic.
fn detector_text() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "key 是 ",
        "密码：",
        "password is ",
        "token=",
        "私钥 ",
        "seed phrase: ",
        "账号 admin / ",
        "我是系统管理员",
        "I have admin rights",
        "库存还剩 ",
        "单价 ",
        "USD/CNY ",
        "订单 ",
        " 已发货",
        "手机号 ",
        "身份证 ",
        "卡号 ",
        " at ",
        " dot com",
        "@",
        "作为管理员，",
        "the code to the lab door is ",
        "unlock with ",
        "HKID ",
        "passport no. ",
        " - ",
        "以后看报告，都先说结果",
        "审批状态那一列标绿",
        "line 3 is down right now",
    ]);
    let piece = prop_oneof![
        3 => words.prop_map(str::to_owned),
        2 => "[。！？；，、：…—\n ]{1,3}",
        2 => "[A-Za-z0-9+/_-]{8,44}",
        2 => "[0-9][0-9 .-]{3,22}",
        2 => "\\PC{0,12}",
    ];
    prop::collection::vec(piece, 0..14).prop_map(|pieces| pieces.concat())
}

#[test]
fn detectors_never_panic_on_any_text() {
    let detector = Detector::default();
    runner(cases(20_000))
        .run(&detector_text(), |text| {
            detector.scan(&text);
            Ok(())
        })
        .unwrap();
}

const USER_TEXT: &str = "以后看报告，都先说结果。我在质检部做微生物检测，电话 138 1234 5678";

/// A stage-one answer: a valid one, mutated.
fn stage_one_text() -> impl Strategy<Value = String> {
    let valid = json!({"slips": [{"message_id": "m2", "quote": "都先说结果", "content": "Reports: result first",
        "kind": "presentation", "scope": "domain:report", "durability": "lasting", "valid_until": null}]});
    let fields = ["message_id", "quote", "content", "kind", "scope", "durability", "valid_until"];
    let mutated_field = (prop::sample::select(fields.to_vec()), any_json()).prop_map({
        let valid = valid.clone();
        move |(field, value)| {
            let mut v = valid.clone();
            v["slips"][0][field] = value;
            v.to_string()
        }
    });
    let wrapped =
        (prop::sample::select(vec!["<think>", "```json\n", "Sure! ", "</think>", ""]), any_json())
            .prop_map({
                let valid = valid.clone();
                move |(prefix, tail)| format!("{prefix}{valid}\n{tail}")
            });
    prop_oneof![
        4 => mutated_field,
        2 => wrapped,
        2 => any_json().prop_map(|v| v.to_string()),
        1 => any_json().prop_map(|v| json!({"slips": v}).to_string()),
        1 => (1usize..3000).prop_map(|n| "[".repeat(n) + &"]".repeat(n)),
        1 => "\\PC{0,80}",
    ]
}

/// Hostile answers that need no generating: each is checked once, not in
/// every generated case (a 200-slip array repeated 3,000 times was most of
/// this file's time).
fn fixed_stage_one_answers() -> Vec<String> {
    let slip = json!({"message_id": "m2", "quote": "都先说结果", "content": "Reports: result first",
        "kind": "presentation", "scope": "domain:report", "durability": "lasting", "valid_until": null});
    vec![
        json!({"slips": vec![slip; 200]}).to_string(),
        "{\"slips\": [{\"quote\": \"\\ud800\"}]}".to_owned(),
        "[".repeat(100_000) + &"]".repeat(100_000),
    ]
}

/// What a stage-one answer may lead to: nothing kept that breaks a rule.
fn stage_one_answer_obeys_every_rule(text: &str) -> Result<(), TestCaseError> {
    let detector = Detector::default();
    let user = message("m2", Role::User, USER_TEXT);
    let assistant = message("m3", Role::Assistant, "好的，以后都先说结果");
    let allowed = vec!["global".to_owned(), "domain:report".to_owned()];
    let said = dreamd::said::SaidInRun::default();
    let checks = Checks {
        user_id: "u1",
        conversation_id: "c1",
        run_id: "r1",
        now: at("2026-11-29T12:00:00Z"),
        messages: [("m2", &user), ("m3", &assistant)].into_iter().collect(),
        context_ids: vec!["m1"],
        context_texts: Vec::new(),
        seen: &[],
        allowed_scopes: &allowed,
        detector: &detector,
        tombstones: &[],
        said: &said,
    };
    let read = answer::json_object(text)
        .and_then(|v| answer::read::<StageOneAnswer>(v, "note_slips", "slips", "$.slips"));
    let Ok(parsed) = read else { return Ok(()) };
    for slip in validate(parsed.slips, &checks).kept {
        prop_assert_eq!(slip.message_id.as_str(), "m2");
        let quote = slip.quote.clone().unwrap();
        prop_assert!(dreamd::text::quote_occurs_in(&quote, USER_TEXT));
        prop_assert!(
            detector.scan(&quote).is_none()
                && detector.scan(slip.content.as_deref().unwrap()).is_none()
        );
        prop_assert!(allowed.contains(&slip.scope.to_string()));
        prop_assert!(
            !dreamd::text::has_one_off_marker(&quote) || slip.durability == Durability::Until
        );
    }
    Ok(())
}

#[test]
fn stage_one_answers_never_panic_and_what_is_kept_obeys_every_rule() {
    let mut runner = runner(cases(40_000));
    runner.run(&stage_one_text(), |text| stage_one_answer_obeys_every_rule(&text)).unwrap();
}

#[test]
fn huge_and_broken_stage_one_answers_never_panic() {
    for text in fixed_stage_one_answers() {
        stage_one_answer_obeys_every_rule(&text).unwrap();
    }
}

fn slip(id: &str, conversation: &str, when: &str) -> Slip {
    Slip {
        slip_id: id.into(),
        user_id: "u1".into(),
        conversation_id: conversation.into(),
        message_id: format!("{id}-m"),
        kind: Kind::Presentation,
        scope: "domain:standard".parse().unwrap(),
        durability: Durability::Lasting,
        valid_until: None,
        content: Some(format!("slip {id}")),
        quote: Some(format!("quote {id}")),
        expressed_at: at(when),
        state: SlipState::New,
        run_id: None,
    }
}

fn memory(id: &str, origin: Origin, status: Status) -> Memory {
    Memory {
        memory_id: id.into(),
        user_id: "u1".into(),
        kind: Kind::Presentation,
        scope: "domain:standard".parse().unwrap(),
        origin,
        status,
        version: 2,
        content: Some(format!("memory {id}")),
        created_at: at("2026-11-01T00:00:00Z"),
        updated_at: at("2026-11-20T00:00:00Z"),
        expires_at: None,
        source_conversation_id: None,
        source_message_id: None,
    }
}

fn state() -> UserState {
    let slips = [
        slip("s1", "c1", "2026-11-21T00:00:00Z"),
        slip("s2", "c2", "2026-11-22T00:00:00Z"),
        slip("s3", "c3", "2026-11-28T00:00:00Z"),
    ];
    let memories = [
        memory("auto", Origin::Auto, Status::Active),
        memory("mine", Origin::Explicit, Status::Active),
        memory("off", Origin::Auto, Status::Disabled),
    ];
    UserState {
        user_id: "u1".into(),
        now: at("2026-11-29T12:00:00Z"),
        run_id: "r1".into(),
        evidence: HashMap::from([("auto".to_owned(), vec!["s1".to_owned()])]),
        memories: memories.into_iter().map(|m| (m.memory_id.clone(), m)).collect(),
        slips: slips.into_iter().map(|s| (s.slip_id.clone(), s)).collect(),
        suggestions: Vec::new(),
        tombstones: Vec::new(),
        messages_with_values: Vec::new(),
        unseen_slips: Default::default(),
        said_in_run: Default::default(),
    }
}

/// A consolidation answer: valid operations, mutated.
fn consolidation_text() -> impl Strategy<Value = String> {
    let ops = vec![
        json!({"op": "create", "kind": "presentation", "scope": "domain:standard", "content": "标准按流程卡整理", "slip_ids": ["s3"], "supersedes_slip_ids": ["s2"]}),
        json!({"op": "update", "memory_id": "auto", "content": "更新后的说法", "slip_ids": ["s3"]}),
        json!({"op": "confirm", "memory_id": "auto", "slip_ids": ["s2"]}),
        json!({"op": "retire", "memory_id": "auto", "reason": "no longer", "slip_ids": ["s3"]}),
        json!({"op": "suggest", "kind": "presentation", "scope": "domain:standard", "content": "改一下", "memory_id": "mine", "slip_ids": ["s3"]}),
        json!({"op": "update", "memory_id": "mine", "content": "改掉显式记忆", "slip_ids": ["s3"]}),
    ];
    let fields = [
        "op",
        "memory_id",
        "kind",
        "scope",
        "content",
        "reason",
        "slip_ids",
        "supersedes_slip_ids",
    ];
    let op = (
        prop::sample::select(ops),
        prop::option::of((prop::sample::select(fields.to_vec()), any_json())),
    )
        .prop_map(|(mut op, change)| {
            if let Some((field, value)) = change {
                op[field] = value;
            }
            op
        });
    prop_oneof![
        6 => prop::collection::vec(op, 0..8).prop_map(|ops| json!({"operations": ops}).to_string()),
        1 => any_json().prop_map(|v| json!({"operations": v}).to_string()),
        1 => any_json().prop_map(|v| v.to_string()),
        1 => (1usize..3000).prop_map(|n| "{\"operations\":".to_owned() + &"[".repeat(n)),
    ]
}

#[test]
fn consolidation_answers_never_panic_nor_touch_what_they_may_not() {
    let rules = Config::from_toml("").unwrap().policy.rules;
    let groups = BTreeSet::from([(Kind::Presentation, "domain:standard".parse().unwrap())]);
    let mut runner = runner(cases(25_000));
    runner
        .run(&consolidation_text(), |text| {
            let read = answer::json_object(&text).and_then(|v| {
                answer::read::<ConsolidationAnswer>(
                    v,
                    "consolidation",
                    "operations",
                    "$.operations",
                )
            });
            let Ok(parsed) = read else { return Ok(()) };
            let mut s = state();
            let known: BTreeSet<String> = s.slips.keys().cloned().collect();
            let decisions = policy::decide(&mut s, parsed.operations, &rules, &groups);
            prop_assert_eq!(&s.memories["mine"], &state().memories["mine"]);
            for w in &decisions.writes {
                match w {
                    Write::UpdateMemory { memory, .. } => prop_assert!(memory.memory_id != "mine"),
                    Write::AddEvidence { slip_ids, .. } | Write::SetSlipStates { slip_ids, .. } => {
                        prop_assert!(slip_ids.iter().all(|id| known.contains(id)), "{slip_ids:?}")
                    }
                    _ => {}
                }
            }
            Ok(())
        })
        .unwrap();
}
