//! `dreamd eval` end to end: the configured database is never touched, gates
//! exit 4, a bad golden file exits 2 naming its line, and a scripted model's
//! known mistakes are scored exactly as counted by hand.

use crate::fake_model::{self, operations, slip};
use crate::helpers::Dreamd;
use serde_json::{Value, json};
use std::collections::BTreeMap;

const NOW: &str = "2026-11-29T12:00:00Z";

/// One user message of a case, in conversation `c1`, two days before [`NOW`].
fn message(case_id: &str, n: usize, content: &str, scopes: &[&str]) -> Value {
    json!({"user_id": format!("u-{case_id}"), "conversation_id": format!("{case_id}-c1"),
           "message_id": format!("{case_id}-c1-m{n}"), "role": "user", "content": content,
           "created_at": format!("2026-11-27T09:0{n}:00Z"), "scopes": scopes})
}

fn case(case_id: &str, lang: &str, messages: Vec<Value>, expect: Value) -> String {
    json!({"case_id": case_id, "lang": lang, "tags": [], "now": NOW,
           "messages": messages, "expect": expect})
    .to_string()
}

fn write_golden(d: &Dreamd, cases: &[String]) -> String {
    std::fs::write(d.path("golden.jsonl"), cases.join("\n") + "\n").unwrap();
    "golden.jsonl".into()
}

/// Two cases the rules provider handles: a report habit and a background fact.
fn rules_cases() -> Vec<String> {
    vec![
        case(
            "zh-report",
            "zh",
            vec![message("zh-report", 1, "以后看报告，都先说结果，再列依据。", &["domain:report"])],
            json!({"slips": [{"kind": "presentation", "scope": "domain:report", "quote_contains": "先说结果"}]}),
        ),
        case(
            "en-team",
            "en",
            vec![message("en-team", 1, "I lead the dairy R&D team, by the way.", &[])],
            json!({"slips": [{"kind": "background", "scope": "global", "quote_contains": "R&D team"}],
                   "memories": [{"kind": "background", "scope": "global", "content_contains": ["R&D"], "origin": "auto"}]}),
        ),
    ]
}

/// Every file of the configured SQLite database (main, -wal, -shm) with its bytes and mtime.
fn database_files(d: &Dreamd) -> BTreeMap<String, (Vec<u8>, std::time::SystemTime)> {
    std::fs::read_dir(d.dir.path())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().starts_with("dreamd.db"))
        .map(|e| {
            let path = e.path();
            let mtime = e.metadata().unwrap().modified().unwrap();
            (e.file_name().to_string_lossy().into_owned(), (std::fs::read(path).unwrap(), mtime))
        })
        .collect()
}

#[test]
fn eval_never_creates_nor_changes_the_configured_database() {
    let d = Dreamd::sqlite();
    let golden = write_golden(&d, &rules_cases());
    let report = d.run(&["eval", &golden, "--format", "json"]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    assert!(database_files(&d).is_empty(), "eval created the configured database");

    d.ingest(&[crate::helpers::line(
        "u1",
        "c1",
        "m1",
        "user",
        "以后先说结论。",
        "2026-11-20T09:00:00Z",
    )]);
    let before = database_files(&d);
    assert!(!before.is_empty());
    std::thread::sleep(std::time::Duration::from_millis(20));
    let out = d.path("results");
    let run = d.run(&["eval", &golden, "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(database_files(&d), before, "eval touched the configured database");
    assert!(out.join("zh-report.json").is_file() && out.join("report.json").is_file());
    let case: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("zh-report.json")).unwrap())
            .unwrap();
    assert_eq!(case["expected_slips"][0]["found"], true, "{case}");
}

#[test]
fn out_may_not_hold_the_configured_database() {
    let d = Dreamd::sqlite();
    let golden = write_golden(&d, &rules_cases());
    let run = d.run(&["eval", &golden, "--out", "."]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--out") && run.stderr.contains("configured database"),
        "{}",
        run.stderr
    );
    assert!(database_files(&d).is_empty());
}

#[test]
fn the_rules_provider_is_scored_and_a_missed_gate_exits_4() {
    let d = Dreamd::sqlite();
    let mut cases = rules_cases();
    cases.push(case(
        "en-missed",
        "en",
        vec![message("en-missed", 1, "Our plant makes yoghurt.", &[])],
        json!({"slips": [{"kind": "background", "scope": "global", "quote_contains": "yoghurt"}]}),
    ));
    let golden = write_golden(&d, &cases);
    let passing = d.run(&["eval", &golden, "--min-precision", "1", "--max-leaks", "0"]);
    assert_eq!(passing.code, 0, "{}", passing.stderr);
    assert!(passing.stdout.contains("3 cases (en 2, zh 1), provider rules"), "{}", passing.stdout);

    let missed = d.run(&["eval", &golden, "--min-recall", "0.9"]);
    assert_eq!(missed.code, 4, "{}", missed.stderr);
    assert!(
        missed.stderr.contains("--min-recall 0.9: slip recall (all) is 0.667"),
        "{}",
        missed.stderr
    );
    assert!(missed.stderr.contains("slip recall (lang en) is 0.500"), "{}", missed.stderr);
    assert!(!missed.stderr.contains("(lang zh)"), "{}", missed.stderr);
    assert!(missed.stdout.contains("presentation"), "the report is printed too");
}

#[test]
fn a_malformed_golden_file_exits_2_naming_the_line_and_field() {
    let d = Dreamd::sqlite();
    let mut cases = rules_cases();
    cases[1] = cases[1].replace(
        r#""kind":"background","quote_contains""#,
        r#""kind":"backgroud","quote_contains""#,
    );
    let golden = write_golden(&d, &cases);
    let run = d.run(&["eval", &golden]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("line 2 (en-team): expect.slips[0].kind: unknown variant `backgroud`"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());

    std::fs::write(d.path("broken.jsonl"), format!("{}\n{{\"case_id\": 3\n", rules_cases()[0]))
        .unwrap();
    let broken = d.run(&["eval", "broken.jsonl"]);
    assert_eq!(broken.code, 2, "{}", broken.stderr);
    assert!(broken.stderr.contains("line 2: "), "{}", broken.stderr);
}

/// The fake model's stage-one answer for a conversation: per user message
/// content, the slips it proposes (its known mistakes included).
fn scripted_slips(doc: &Value) -> wiremock::ResponseTemplate {
    let mut slips = Vec::new();
    for m in doc["messages"].as_array().unwrap() {
        let id = m["message_id"].as_str().unwrap();
        match m["content"].as_str().unwrap() {
            // wrong scope: the habit is about reports
            c if c.starts_with("以后看报告") => {
                slips.push(slip(id, "以后看报告都先说结果", "presentation", "global"))
            }
            // found; the two other statements of the case are missed
            c if c.starts_with("我在质检部") => {
                slips.push(slip(id, "我在质检部做微生物检测", "background", "global"))
            }
            // an extra slip from a question
            c if c.starts_with("What's the protein") => {
                slips.push(slip(id, "What's the protein content", "presentation", "global"))
            }
            c if c.starts_with("I'm working on") => {
                slips.push(slip(id, "working on a reduced-sugar yoghurt", "recent_focus", "global"))
            }
            // both found, and the content leaks the code name
            c if c.starts_with("I work in") => {
                slips.push(slip(id, "I work in the dairy R&D centre", "background", "global"));
                slips.push(json!({"message_id": id, "quote": "always answer in English",
                    "content": "Answer in English (project BLUEFIN-7)", "kind": "presentation",
                    "scope": "global", "durability": "lasting", "valid_until": null}));
            }
            _ => {}
        }
    }
    fake_model::slips(Value::Array(slips))
}

/// Stage two: a background memory from every background slip.
fn scripted_operations(doc: &Value) -> wiremock::ResponseTemplate {
    let ops: Vec<Value> = doc["slips"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "background" && s["new"] == true)
        .map(|s| json!({"op": "create", "kind": "background", "scope": "global",
                        "content": s["content"], "slip_ids": [s["slip_id"]], "supersedes_slip_ids": []}))
        .collect();
    operations(Value::Array(ops))
}

fn fake_model_cases() -> Vec<String> {
    vec![
        case(
            "zh-wrong-scope",
            "zh",
            vec![message(
                "zh-wrong-scope",
                1,
                "以后看报告都先说结果，再列依据。",
                &["domain:report"],
            )],
            json!({"slips": [{"kind": "presentation", "scope": "domain:report", "quote_contains": "先说结果"}]}),
        ),
        case(
            "zh-missed",
            "zh",
            vec![
                message("zh-missed", 1, "我在质检部做微生物检测。", &[]),
                message("zh-missed", 2, "以后回答都用中文。", &[]),
                message("zh-missed", 3, "我最近在做酸奶的货架期研究。", &[]),
            ],
            json!({"slips": [{"kind": "background", "scope": "global", "quote_contains": "质检部"},
                             {"kind": "presentation", "scope": "global", "quote_contains": "用中文"},
                             {"kind": "recent_focus", "scope": "global", "quote_contains": "货架期"}],
                   "memories": [{"kind": "background", "scope": "global", "content_contains": ["质检", "QA"], "origin": "auto"}]}),
        ),
        case(
            "en-extra",
            "en",
            vec![
                message("en-extra", 1, "What's the protein content of this recipe?", &[]),
                message("en-extra", 2, "I'm working on a reduced-sugar yoghurt right now.", &[]),
            ],
            json!({"slips": [{"kind": "recent_focus", "scope": "global", "quote_contains": "reduced-sugar"}]}),
        ),
        case(
            "en-leak",
            "en",
            vec![message(
                "en-leak",
                1,
                "I work in the dairy R&D centre. Please always answer in English. Our code name is BLUEFIN-7.",
                &[],
            )],
            json!({"slips": [{"kind": "background", "scope": "global", "quote_contains": "R&D centre"},
                             {"kind": "presentation", "scope": "global", "quote_contains": "in English"}],
                   "absent": ["BLUEFIN-7"]}),
        ),
    ]
}

#[tokio::test(flavor = "multi_thread")]
async fn a_scripted_models_mistakes_are_scored_exactly() {
    let server = fake_model::start_both(scripted_slips, scripted_operations).await;
    let d = Dreamd::sqlite().with_model(&server.uri());
    let golden = write_golden(&d, &fake_model_cases());
    let run = d.run(&["eval", &golden, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();

    // kept 6: wrong scope (zh), 质检部 (zh), protein question and reduced-sugar (en),
    // R&D centre and in English (en); matched 4. Expected 7, found 4.
    let total = &report["total"]["slips"];
    assert_eq!((total["found"].as_u64(), total["found_matched"].as_u64()), (Some(6), Some(4)));
    assert_eq!(
        (total["expected"].as_u64(), total["expected_matched"].as_u64()),
        (Some(7), Some(4))
    );
    assert_eq!(total["precision"].as_f64(), Some(4.0 / 6.0));
    assert_eq!(total["recall"].as_f64(), Some(4.0 / 7.0));
    let zh = &report["per_lang"]["zh"]["slips"];
    assert_eq!((zh["precision"].as_f64(), zh["recall"].as_f64()), (Some(0.5), Some(0.25)));
    let en = &report["per_lang"]["en"]["slips"];
    assert_eq!((en["precision"].as_f64(), en["recall"].as_f64()), (Some(0.75), Some(1.0)));
    let presentation = &report["per_kind"]["presentation"]["slips"];
    assert_eq!(
        (presentation["found"].as_u64(), presentation["found_matched"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(presentation["recall"].as_f64(), Some(1.0 / 3.0));
    let focus = &report["per_kind"]["recent_focus"]["slips"];
    assert_eq!((focus["precision"].as_f64(), focus["recall"].as_f64()), (Some(1.0), Some(0.5)));

    // two background memories, one expected: precision 1/2, recall 1/1
    let memories = &report["total"]["memories"];
    assert_eq!(
        (memories["precision"].as_f64(), memories["recall"].as_f64()),
        (Some(0.5), Some(1.0))
    );
    assert_eq!(report["leaks"], 1);
    assert_eq!(report["invalid_quotes"], 0);
    assert_eq!(report["one_off_kept"], 0);
    assert_eq!(report["explicit_changed"], 0);
    assert_eq!(report["failures"], 0);

    let gated = d.run(&["eval", &golden, "--min-precision", "0.6", "--max-leaks", "0"]);
    assert_eq!(gated.code, 4, "{}", gated.stderr);
    assert!(
        gated.stderr.contains("--min-precision 0.6: slip precision (lang zh) is 0.500"),
        "{}",
        gated.stderr
    );
    assert!(gated.stderr.contains("--max-leaks 0: 1 never-store leaks"), "{}", gated.stderr);
    assert!(!gated.stderr.contains("(all)"), "overall precision 0.667 passes: {}", gated.stderr);
    // the model got each of the four conversations once per eval, twice
    assert_eq!(fake_model::documents(&server, true).await.len(), 8);
}

/// A case whose user set many memories; each recall check aims at an older
/// one that its query names.
fn recall_case(case_id: &str, lang: &str, explicit: &[(&str, &str)], checks: Value) -> String {
    let explicit: Vec<Value> = explicit
        .iter()
        .enumerate()
        .map(|(i, (kind, text))| {
            json!({"kind": kind, "scope": "global", "text": text,
                   "at": format!("2026-11-{:02}T08:00:00Z", 10 + i)})
        })
        .collect();
    json!({"case_id": case_id, "lang": lang, "tags": ["recall"], "now": NOW,
           "explicit": explicit, "messages": [message(case_id, 1, "你好。", &[])],
           "expect": {}, "recall": checks})
    .to_string()
}

#[test]
fn recall_checks_ask_with_their_query_and_the_hit_rate_gate_exits_4() {
    let d = Dreamd::sqlite();
    let memories = [
        ("presentation", "回答先给结论"),
        ("background", "负责发酵乳配方研发"),
        ("recent_focus", "在准备内审"),
        ("recent_focus", "在整理车间的HACCP计划"),
        ("recent_focus", "在培训新员工"),
        ("recent_focus", "在跟进供应商审核"),
        ("recent_focus", "在写月度报告"),
    ];
    let hit = recall_case(
        "zh-recall-hit",
        "zh",
        &memories,
        json!([{"scopes": [], "query": "发酵乳的配方要注意什么？", "expect_memory_contains": ["发酵乳配方"]}]),
    );
    let miss = recall_case(
        "en-recall-miss",
        "en",
        &[("background", "Sensory lead"), ("recent_focus", "Triangle tests")],
        json!([{"scopes": [], "query": "anything", "expect_memory_contains": ["never stored"]}]),
    );
    let golden = write_golden(&d, &[hit.clone(), miss]);
    let report: Value =
        serde_json::from_str(&d.run(&["eval", &golden, "--format", "json"]).stdout).unwrap();
    assert_eq!(report["recall"], json!({"checks": 2, "hits": 1, "hit_rate": 0.5}));
    assert_eq!(report["recall_per_lang"]["zh"]["hit_rate"], 1.0);

    let gated = d.run(&["eval", &golden, "--min-recall-hit-rate", "0.9"]);
    assert_eq!(gated.code, 4, "{}", gated.stderr);
    assert!(
        gated.stderr.contains("--min-recall-hit-rate 0.9: recall hit rate (all) is 0.500 (1/2)"),
        "{}",
        gated.stderr
    );
    assert!(gated.stderr.contains("recall hit rate (lang en) is 0.000 (0/1)"), "{}", gated.stderr);
    assert!(!gated.stderr.contains("(lang zh)"), "{}", gated.stderr);
    assert!(
        gated.stdout.contains("recall hit rate 0.50 (1/2; en 0/1, zh 1/1)"),
        "{}",
        gated.stdout
    );

    let only_hit = write_golden(&d, &[hit]);
    let passing = d.run(&["eval", &only_hit, "--min-recall-hit-rate", "0.9"]);
    assert_eq!(passing.code, 0, "{}", passing.stderr);
    let bad = d.run(&["eval", &only_hit, "--min-recall-hit-rate", "90"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
}
