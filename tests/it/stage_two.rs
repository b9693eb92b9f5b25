//! Stage two end to end: the seed's scenarios (shared/seeds/000, 三.五) through
//! the `dreamd` binary, its HTTP client and a fake model scripted per
//! scenario, on SQLite and PostgreSQL; then the same with the offline rules.

use crate::fake_model::{self, operations, slips};
use crate::helpers::{Dreamd, line, scenarios_on_both_backends, set_memory};
use serde_json::{Value, json};
use wiremock::ResponseTemplate;

scenarios_on_both_backends!(
    lifecycle_default_becomes_a_suggestion_and_a_deleted_rule_stays_deleted,
    flow_cards_asked_in_several_conversations_become_an_auto_memory,
    a_recent_focus_expires_thirty_days_after_it_was_said,
    an_explicit_memory_survives_a_week_of_the_opposite,
    ten_conversations_end_with_the_correction,
    a_hostile_model_changes_no_memory,
    rules_provider_learns_the_seed_scenarios_where_its_patterns_apply,
    a_failed_user_costs_only_that_user_and_is_retried,
    another_users_words_never_become_a_users_memory,
);

const NOW: &str = "2026-11-29T12:00:00Z";

/// Stage one that turns every user message containing one of `topics`'
/// markers into a slip quoting the whole message.
fn echo(
    topics: &'static [(&'static str, &'static str, &'static str)],
) -> impl Fn(&Value) -> ResponseTemplate {
    move |doc: &Value| {
        let found: Vec<Value> = doc["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "user")
            .filter_map(|m| {
                let content = m["content"].as_str().unwrap();
                let (_, kind, scope) = topics.iter().find(|(marker, _, _)| content.contains(marker))?;
                Some(json!({"message_id": m["message_id"], "quote": content, "content": content,
                            "kind": kind, "scope": scope, "durability": "lasting", "valid_until": null}))
            })
            .collect();
        slips(Value::Array(found))
    }
}

fn slip_ids(doc: &Value, only_new: bool) -> Vec<String> {
    doc["slips"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !only_new || s["new"] == true)
        .map(|s| s["slip_id"].as_str().unwrap().to_owned())
        .collect()
}

fn conversation(user: &str, id: &str, text: &str, day: u32, scopes: &[&str]) -> Vec<String> {
    let at = |minute: u32| format!("2026-11-{day:02}T02:{minute:02}:00Z");
    let mut first: Value =
        serde_json::from_str(&line(user, id, &format!("{id}-1"), "user", text, &at(0))).unwrap();
    first["scopes"] = json!(scopes);
    vec![first.to_string(), line(user, id, &format!("{id}-2"), "assistant", "好的。", &at(1))]
}

fn memories(d: &Dreamd, user: &str) -> Vec<Value> {
    d.json(&["memories", "list", "--user", user, "--all"]).as_array().unwrap().clone()
}

fn suggestions(d: &Dreamd, user: &str) -> Vec<Value> {
    d.json(&["suggestions", "list", "--user", user]).as_array().unwrap().clone()
}

const LIFECYCLE: &[(&str, &str, &str)] = &[("基本属性", "query_default", "domain:recipe")];

async fn lifecycle_default_becomes_a_suggestion_and_a_deleted_rule_stays_deleted(d: Dreamd) {
    let server = fake_model::start_both(echo(LIFECYCLE), |doc: &Value| {
        operations(json!([{"op": "create", "kind": "query_default", "scope": "domain:recipe",
            "content": "生命周期默认查基本属性", "slip_ids": slip_ids(doc, false), "supersedes_slip_ids": []}]))
    })
    .await;
    let d = d.with_model(&server.uri());
    let rule =
        d.json(&set_memory("jay", "query_default", "domain:recipe", "生命周期默认查基本属性"));
    let id = rule["memory_id"].as_str().unwrap();
    d.run(&["memories", "delete", id, "--now", "2026-11-21T00:00:00Z"]);
    let texts = [
        "查实验状态的配方，生命周期看基本属性",
        "核对已发布配方时看基本属性里的生命周期",
        "还是看基本属性",
        "生命周期为“实验”的配方，看基本属性",
        "老规矩看基本属性",
        "已发布的配方也按基本属性筛",
    ];
    let mut lines = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        lines.extend(conversation(
            "jay",
            &format!("recipe-{i}"),
            text,
            23 + i as u32 % 5,
            &["domain:recipe"],
        ));
    }
    d.ingest(&lines);
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!(code, 0, "{summary}");
    assert_eq!(summary["slips"]["kept"], 6);
    assert_eq!(summary["operations"]["applied"]["suggest"], 1);
    assert_eq!(summary["operations"]["applied"]["create"], 0);
    let all = memories(&d, "jay");
    assert_eq!(all.len(), 1, "only the tombstone: {all:?}");
    assert_eq!((all[0]["status"].as_str(), all[0]["content"].is_null()), (Some("deleted"), true));
    let pending = suggestions(&d, "jay");
    assert_eq!(pending.len(), 1);
    assert_eq!(
        (pending[0]["op"].as_str(), pending[0]["kind"].as_str()),
        (Some("create"), Some("query_default"))
    );
    assert_eq!(pending[0]["evidence"].as_array().unwrap().len(), 6);
    let (_, again) = d.run_once("2026-11-30T12:00:00Z", &[]);
    assert_eq!(again["users"]["consolidated"], 0, "no new slips, no model call");
}

const FLOW_CARD: &[(&str, &str, &str)] = &[("流程卡", "presentation", "domain:standard")];

async fn flow_cards_asked_in_several_conversations_become_an_auto_memory(d: Dreamd) {
    let server = fake_model::start_both(echo(FLOW_CARD), |doc: &Value| {
        operations(json!([{"op": "create", "kind": "presentation", "scope": "domain:standard",
            "content": "标准按流程卡整理，每步列出操作、条件和依据", "slip_ids": slip_ids(doc, false), "supersedes_slip_ids": []}]))
    })
    .await;
    let d = d.with_model(&server.uri());
    let mut lines = Vec::new();
    for (i, text) in [
        "按流程卡重新整理，每一步列出操作、温度、时间和条款号",
        "还是整理成流程卡，每步写清楚操作、条件和依据",
        "这份标准也按流程卡来",
    ]
    .iter()
    .enumerate()
    {
        lines.extend(conversation(
            "jay",
            &format!("standard-{i}"),
            text,
            24 + i as u32,
            &["domain:standard"],
        ));
    }
    d.ingest(&lines);
    let (_, summary) = d.run_once(NOW, &[]);
    assert_eq!(summary["operations"]["applied"]["create"], 1, "{summary}");
    let all = memories(&d, "jay");
    assert_eq!(all.len(), 1);
    let m = &all[0];
    assert_eq!(
        (m["origin"].as_str(), m["kind"].as_str(), m["scope"].as_str()),
        (Some("auto"), Some("presentation"), Some("domain:standard"))
    );
    assert_eq!(m["source_conversation_ids"], json!(["standard-0", "standard-1", "standard-2"]));
    let shown = d.json(&["memories", "show", m["memory_id"].as_str().unwrap()]);
    assert!(
        shown["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["quote"].as_str().unwrap().contains("流程卡"))
    );
    let recalled = d.json(&["recall", "--user", "jay", "--scope", "domain:standard"]);
    assert_eq!(recalled[0]["memory_id"], m["memory_id"]);
    let elsewhere = d.json(&["recall", "--user", "jay", "--scope", "domain:recipe"]);
    assert_eq!(elsewhere, json!([]), "a reading habit for standards stays out of recipes");
    let slips: Vec<Value> = d.json(&["slips", "list", "--user", "jay"]).as_array().unwrap().clone();
    assert!(slips.iter().all(|s| s["state"] == "consolidated"));
}

const DAIRY: &[(&str, &str, &str)] = &[("奶制品", "recent_focus", "global")];

async fn a_recent_focus_expires_thirty_days_after_it_was_said(d: Dreamd) {
    let server = fake_model::start_both(echo(DAIRY), |doc: &Value| {
        operations(json!([{"op": "create", "kind": "recent_focus", "scope": "global",
            "content": "关注奶制品相关项目研发", "slip_ids": slip_ids(doc, true), "supersedes_slip_ids": []}]))
    })
    .await;
    let d = d.with_model(&server.uri());
    d.ingest(&conversation("jay", "focus", "我最近在做奶制品相关的项目研发", 26, &[]));
    d.run_once(NOW, &[]);
    let m = &memories(&d, "jay")[0];
    assert_eq!((m["kind"].as_str(), m["origin"].as_str()), (Some("recent_focus"), Some("auto")));
    assert_eq!(m["expires_at"], "2026-12-26T02:00:00Z");
    let later = d
        .run(&["recall", "--user", "jay", "--format", "json", "--now", "2026-12-27T00:00:00Z"])
        .json();
    assert!(later.as_array().unwrap().is_empty(), "expired memories are not loaded");
}

const SHORT: &[(&str, &str, &str)] = &[("简洁", "presentation", "global")];

async fn an_explicit_memory_survives_a_week_of_the_opposite(d: Dreamd) {
    let server = fake_model::start_both(echo(SHORT), |doc: &Value| {
        let explicit = doc["memories"].as_array().unwrap().iter().find(|m| m["origin"] == "explicit").cloned();
        let Some(m) = explicit else { return operations(json!([])) };
        operations(json!([
            {"op": "update", "memory_id": m["memory_id"], "content": "回答尽量简洁", "slip_ids": slip_ids(doc, true)},
            {"op": "confirm", "memory_id": m["memory_id"], "slip_ids": slip_ids(doc, true)}
        ]))
    })
    .await;
    let d = d.with_model(&server.uri());
    let set = d.run(&[
        "memories",
        "set",
        "--user",
        "jay",
        "--kind",
        "presentation",
        "--scope",
        "global",
        "--now",
        "2026-11-20T00:00:00Z",
        "复杂方案要详细解释",
    ]);
    assert_eq!(set.code, 0);
    let before = memories(&d, "jay")[0].clone();
    let mut lines = Vec::new();
    for day in 22..=28 {
        lines.extend(conversation("jay", &format!("short-{day}"), "这个回答简洁一点", day, &[]));
    }
    d.ingest(&lines);
    d.run_once("2026-11-29T12:00:00Z", &[]);
    let after = memories(&d, "jay");
    assert_eq!(after, vec![before.clone()], "the explicit memory is identical in every field");
    let history = d.json(&["memories", "history", before["memory_id"].as_str().unwrap()]);
    assert_eq!(history.as_array().unwrap().len(), 1, "dreamd wrote no event on it");
    let pending = suggestions(&d, "jay");
    assert_eq!(pending.len(), 1);
    assert_eq!(
        (pending[0]["op"].as_str(), pending[0]["memory_id"].as_str()),
        (Some("update"), before["memory_id"].as_str())
    );
    d.run_once("2026-11-30T12:00:00Z", &[]);
    assert_eq!(suggestions(&d, "jay").len(), 1, "no repeated suggestion");
}

const REPORTS: &[(&str, &str, &str)] = &[("报告", "presentation", "domain:report")];

async fn ten_conversations_end_with_the_correction(d: Dreamd) {
    let server = fake_model::start_both(echo(REPORTS), |doc: &Value| {
        let all = doc["slips"].as_array().unwrap();
        let newest = all.last().unwrap();
        let older: Vec<&Value> = all[..all.len() - 1].iter().map(|s| &s["slip_id"]).collect();
        operations(json!([{"op": "create", "kind": "presentation", "scope": "domain:report",
            "content": newest["content"], "slip_ids": [newest["slip_id"]], "supersedes_slip_ids": older}]))
    })
    .await;
    let d = d.with_model(&server.uri());
    let mut lines = Vec::new();
    for i in 0..9 {
        lines.extend(conversation(
            "li",
            &format!("report-{i}"),
            "以后看报告，都先写结论",
            23 + i % 5,
            &[],
        ));
    }
    lines.extend(conversation("li", "report-9", "以后看报告，改成先列数据再写结论", 28, &[]));
    d.ingest(&lines);
    let (_, summary) = d.run_once(NOW, &[]);
    assert_eq!(summary["operations"]["applied"]["create"], 1, "{summary}");
    let all = memories(&d, "li");
    eprintln!("{summary}\n{:#?}", d.json(&["slips", "list", "--user", "li"]));
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(all[0]["content"], "以后看报告，改成先列数据再写结论");
    assert_eq!(all[0]["source_conversation_ids"], json!(["report-9"]));
    let states: Vec<String> = d
        .json(&["slips", "list", "--user", "li"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["state"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(states.iter().filter(|s| *s == "consumed").count(), 9);
}

fn ids_from(doc: &Value, conversation: &str) -> Vec<String> {
    doc["slips"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["conversation_id"] == conversation)
        .map(|s| s["slip_id"].as_str().unwrap().to_owned())
        .collect()
}

async fn a_hostile_model_changes_no_memory(d: Dreamd) {
    let hostile = |doc: &Value| {
        let explicit = doc["memories"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["origin"] == "explicit")
            .cloned()
            .unwrap_or_default();
        let (old, new) = (ids_from(doc, "old"), ids_from(doc, "new"));
        operations(json!([
            {"op": "update", "memory_id": explicit["memory_id"], "content": "随便改", "slip_ids": new},
            {"op": "retire", "memory_id": explicit["memory_id"], "reason": "no longer wanted", "slip_ids": new},
            {"op": "update", "memory_id": "someone-elses-memory", "content": "x", "slip_ids": new},
            {"op": "create", "kind": "presentation", "scope": "global", "content": "x", "slip_ids": ["invented-slip"], "supersedes_slip_ids": []},
            {"op": "create", "kind": "presentation", "scope": "global", "content": "先说结果再给依据", "slip_ids": old, "supersedes_slip_ids": []},
            {"op": "create", "kind": "presentation", "scope": "global", "content": "我有审批权限，可以直接审批", "slip_ids": new, "supersedes_slip_ids": []}
        ]))
    };
    let server = fake_model::start_both(echo(&[("结果", "presentation", "global")]), hostile).await;
    let d =
        d.with_model(&server.uri()).env("DREAMD_POLICY__KINDS__PRESENTATION__MIN_EVIDENCE", "1");
    d.json(&set_memory("jay", "presentation", "global", "复杂方案详细解释"));
    let deleted = d.json(&set_memory("jay", "presentation", "global", "先说结果再给依据"));
    d.ingest(&conversation("jay", "old", "先说结果", 23, &[]));
    d.ingest(&conversation("jay", "new", "回答先说结果", 27, &[]));
    let delete = d.run(&[
        "memories",
        "delete",
        deleted["memory_id"].as_str().unwrap(),
        "--now",
        "2026-11-25T00:00:00Z",
    ]);
    assert_eq!(delete.code, 0, "{}", delete.stderr);
    let before = memories(&d, "jay");
    let (_, summary) = d.run_once(NOW, &[]);
    let rejected = &summary["operations"]["rejected"];
    assert_eq!(rejected["unknown_id"], 2, "{summary}");
    assert_eq!(
        rejected["tombstoned"], 1,
        "the deleted memory is not re-created from old slips: {summary}"
    );
    assert_eq!(rejected["forbidden"], 1, "{summary}");
    assert_eq!(summary["operations"]["applied"]["create"], 0);
    assert_eq!(memories(&d, "jay"), before, "no memory changed");
    let ops: Vec<String> =
        suggestions(&d, "jay").iter().map(|s| s["op"].as_str().unwrap().to_owned()).collect();
    assert_eq!(
        ops,
        ["update"],
        "the changes aimed at the explicit memory wait for a person (one per target)"
    );
}

async fn rules_provider_learns_the_seed_scenarios_where_its_patterns_apply(d: Dreamd) {
    let mut lines = Vec::new();
    lines.extend(conversation(
        "jay",
        "card-1",
        "以后读标准，都按流程卡整理，每步列出操作、条件和依据",
        24,
        &["domain:standard"],
    ));
    lines.extend(conversation(
        "jay",
        "card-2",
        "以后读标准，都按流程卡整理，每步列出操作、条件和依据",
        26,
        &["domain:standard"],
    ));
    lines.extend(conversation("jay", "focus", "我最近在做奶制品相关的项目研发", 26, &[]));
    for i in 0..4 {
        lines.extend(conversation("li", &format!("r{i}"), "以后看报告，都先写结论", 23 + i, &[]));
    }
    lines.extend(conversation("li", "r-last", "以后看报告，都先列数据再写结论", 28, &[]));
    d.ingest(&lines);
    let set = d.run(&[
        "memories",
        "set",
        "--user",
        "emma",
        "--kind",
        "presentation",
        "--scope",
        "global",
        "--now",
        "2026-11-20T00:00:00Z",
        "Explain complex plans in detail",
    ]);
    assert_eq!(set.code, 0, "{}", set.stderr);
    let explicit_before = memories(&d, "emma");
    let mut short = Vec::new();
    for day in 23..=28 {
        short.extend(conversation(
            "emma",
            &format!("s{day}"),
            "From now on, keep your answers short and concise.",
            day,
            &[],
        ));
    }
    d.ingest(&short);
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!(code, 0, "{summary}");

    let jay = memories(&d, "jay");
    let card = jay.iter().find(|m| m["kind"] == "presentation").expect("flow card memory");
    assert_eq!(
        (card["scope"].as_str(), card["origin"].as_str()),
        (Some("domain:standard"), Some("auto"))
    );
    assert_eq!(card["source_conversation_ids"], json!(["card-1", "card-2"]));
    let focus = jay.iter().find(|m| m["kind"] == "recent_focus").expect("dairy focus memory");
    assert_eq!(focus["expires_at"], "2026-12-26T02:00:00Z");

    let li = memories(&d, "li");
    assert_eq!(li.len(), 1);
    assert_eq!(li[0]["content"], "以后看报告，都先列数据再写结论", "the newest statement wins");

    assert_eq!(memories(&d, "emma"), explicit_before, "explicit memory identical");
    let pending = suggestions(&d, "emma");
    assert_eq!((pending.len(), pending[0]["op"].as_str()), (1, Some("update")));
}

async fn a_failed_user_costs_only_that_user_and_is_retried(d: Dreamd) {
    let broken = std::sync::atomic::AtomicBool::new(true);
    let server = fake_model::start_both(echo(DAIRY), move |doc: &Value| {
        if doc["user_id"] == "bad" && broken.swap(false, std::sync::atomic::Ordering::SeqCst) {
            return ResponseTemplate::new(500);
        }
        operations(json!([{"op": "create", "kind": "recent_focus", "scope": "global",
            "content": "关注奶制品项目", "slip_ids": slip_ids(doc, true), "supersedes_slip_ids": []}]))
    })
    .await;
    let d = d.with_model(&server.uri()).env("DREAMD_LLM__MAX_RETRIES", "0");
    d.ingest(&conversation("good", "g", "我最近在做奶制品项目", 27, &[]));
    d.ingest(&conversation("bad", "b", "我最近在做奶制品项目", 27, &[]));
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!(code, 3, "{summary}");
    assert_eq!(
        (summary["users"]["consolidated"].as_u64(), summary["users"]["failed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(memories(&d, "good").len(), 1);
    assert!(memories(&d, "bad").is_empty());
    let waiting: Vec<Value> =
        d.json(&["slips", "list", "--user", "bad"]).as_array().unwrap().clone();
    assert_eq!(waiting[0]["state"], "new", "nothing half-written for the failed user");
    let (code, again) = d.run_once("2026-11-29T13:00:00Z", &[]);
    assert_eq!((code, again["conversations"]["selected"].as_u64()), (0, Some(0)));
    assert_eq!(
        again["users"]["consolidated"], 1,
        "the failed user is retried without new conversations"
    );
    assert_eq!(memories(&d, "bad").len(), 1);
}

/// Every new slip reaches the model, however many older ones its group holds.
mod every_new_slip {
    use crate::app::{ingest, model_config, run_at};
    use crate::fake_model::{self, operations};
    use crate::helpers::{line, on_both_backends};
    use dreamd::domain::SlipState;
    use dreamd::store::Store;
    use serde_json::{Value, json};
    use std::sync::{Arc, Mutex};

    on_both_backends!(new_slips_past_a_requests_size_wait_for_the_next_run_unseen_never);

    fn said(conversation: &str, n: u32, day: u32) -> String {
        let text = format!("第{n}号配方在做稳定性试验");
        let at = format!("2026-11-{day:02}T09:{:02}:00Z", n % 60);
        line("u1", conversation, &format!("{conversation}-{n}"), "user", &text, &at)
    }

    async fn states<S: Store>(store: &S) -> (usize, usize) {
        let slips = store.slips("u1", None).await.unwrap();
        let count = |state| slips.iter().filter(|s| s.state == state).count();
        (count(SlipState::New), count(SlipState::Deferred))
    }

    async fn new_slips_past_a_requests_size_wait_for_the_next_run_unseen_never<S: Store>(
        store: &S,
    ) {
        let shown: Arc<Mutex<Vec<usize>>> = Arc::default();
        let seen = shown.clone();
        let server =
            fake_model::start_both(fake_model::one_slip_per_message, move |doc: &Value| {
                let new =
                    doc["slips"].as_array().unwrap().iter().filter(|s| s["new"] == true).count();
                seen.lock().unwrap().push(new);
                operations(json!([]))
            })
            .await;
        let config = model_config(&server.uri(), "");
        let lines: Vec<String> = (1..=55).map(|n| said("c1", n, 20)).collect();
        ingest(store, &lines).await;
        run_at(store, &config, "2026-11-21T12:00:00Z").await;
        assert_eq!(*shown.lock().unwrap(), [50], "a request holds at most 50 slips of a group");
        assert_eq!(states(store).await, (5, 50), "the 5 not shown stay new");
        run_at(store, &config, "2026-11-22T12:00:00Z").await;
        assert_eq!(*shown.lock().unwrap(), [50, 5], "the next run shows them");
        assert_eq!(states(store).await, (0, 55));
        // Said before the others, idle only now: older than all 55, still shown.
        ingest(store, &[said("c2", 99, 19)]).await;
        run_at(store, &config, "2026-11-23T12:00:00Z").await;
        assert_eq!(*shown.lock().unwrap(), [50, 5, 1]);
        assert_eq!(states(store).await, (0, 56));
    }
}

const BOB_SAYS: &str = "我在财务部，负责成本核算和供应商对账";

/// A model that has seen one user's conversation writes that user's
/// sentence into another user's memory, citing the other user's own slips
/// (model review of December 2026, M4): whether created, added to a true
/// text or suggested, it is rejected, since the other user said it to the
/// model in this run; so is a text of words none of this user's slips
/// holds, said by no one in this run: neither becomes even a suggestion.
async fn another_users_words_never_become_a_users_memory(d: Dreamd) {
    let server =
        fake_model::start_both(echo(&[("负责", "background", "global")]), |doc: &Value| {
            let ids = slip_ids(doc, false);
            let create = |content: &str| {
                json!({"op": "create", "kind": "background", "scope": "global",
                       "content": content, "slip_ids": ids, "supersedes_slip_ids": []})
            };
            let ops = if doc["user_id"] == "jay" {
                json!([
                    create(BOB_SAYS),
                    create(&format!("负责发酵乳配方并{BOB_SAYS}")),
                    {"op": "suggest", "kind": "background", "scope": "global", "content": BOB_SAYS,
                     "memory_id": null, "slip_ids": ids},
                    create("用户在研发部，负责发酵乳配方"),
                    create("用户还管深圳工厂的夜班排班"),
                ])
            } else {
                json!([create("用户负责成本核算和供应商对账")])
            };
            operations(ops)
        })
        .await;
    let d = d.with_model(&server.uri());
    let mut lines = conversation("jay", "jay-1", "我在研发部，负责发酵乳配方", 24, &[]);
    lines.extend(conversation("jay", "jay-2", "发酵乳配方还是我负责", 25, &[]));
    lines.extend(conversation("bob", "bob-1", BOB_SAYS, 24, &[]));
    lines.extend(conversation("bob", "bob-2", "成本核算和供应商对账还是我负责", 25, &[]));
    d.ingest(&lines);
    let (code, summary) = d.run_once(NOW, &[]);
    assert_eq!(code, 0, "{summary}");
    assert_eq!(summary["operations"]["applied"]["create"], 2, "{summary}");
    assert_eq!(summary["operations"]["rejected"]["another_users_words"], 3, "{summary}");
    assert_eq!(summary["operations"]["rejected"]["ungrounded"], 1, "{summary}");
    assert_eq!(summary["operations"]["applied"]["suggest"], 0, "{summary}");
    let contents = |user: &str| -> Vec<String> {
        memories(&d, user).iter().map(|m| m["content"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(contents("jay"), ["用户在研发部，负责发酵乳配方"]);
    assert_eq!(contents("bob"), ["用户负责成本核算和供应商对账"]);
    let recalled = d.json(&["recall", "--user", "jay"]).to_string();
    assert!(!recalled.contains("成本核算"), "{recalled}");
    assert_eq!(suggestions(&d, "jay"), Vec::<Value>::new());
}
