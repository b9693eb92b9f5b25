//! The trust boundary (spec §6 commit re-check, §7 erasure): a person's
//! deletion, disable or purge, or a lost claim, between stage two's read and
//! its commit writes nothing of that user; a deletion leaves no text of the
//! memory anywhere but in the agent's own messages. On SQLite and PostgreSQL,
//! in process, with the model's answer held until the person has acted.

use crate::app::{ingest, model_config, run_at};
use crate::fake_model::{self, Gate, one_slip_per_message, operations, slips};
use crate::helpers::{RawSql, line, on_both_backends};
use dreamd::detect::Detector;
use dreamd::domain::{
    DropReason, Kind, RejectReason, Scope, Status, Suggestion, SuggestionOp, SuggestionStatus,
    Write,
};
use dreamd::manage::{Manager, NewExplicit, StatusChange};
use dreamd::store::Store;
use serde_json::{Value, json};
use std::sync::Arc;
use wiremock::{MockServer, ResponseTemplate};

on_both_backends!(
    a_deletion_while_the_model_thinks_is_not_undone,
    a_disable_while_the_model_thinks_is_not_undone,
    a_purge_while_the_model_thinks_leaves_nothing_of_the_user,
    a_claim_lost_while_the_model_thinks_writes_nothing_until_the_next_run,
    a_deletion_erases_every_text_of_the_memory,
    a_user_that_keeps_failing_is_passed_over_until_a_new_slip,
    a_value_the_model_saw_in_stage_one_stays_out_of_stage_two,
    a_value_shown_as_old_context_stays_out_of_stage_two,
    a_code_the_model_was_not_shown_is_refused_while_a_value_is_in_sight,
    a_value_said_in_one_conversation_stays_out_of_another_ones_slips,
);

const USER: &str = "u1";
const RUN_1: &str = "2026-11-21T12:00:00Z";
const RUN_2: &str = "2026-11-26T12:00:00Z";
const RUN_3: &str = "2026-11-27T12:00:00Z";
const REWORDED: &str = "REWORDED";

fn new_slips(doc: &Value) -> Vec<&Value> {
    doc["slips"].as_array().unwrap().iter().filter(|s| s["new"] == true).collect()
}

fn ids(slips: &[&Value]) -> Vec<Value> {
    slips.iter().map(|s| s["slip_id"].clone()).collect()
}

/// Stage two: the first slip creates a memory; later ones make a reworded
/// memory from all the slips, the memory's evidence included — what undid a
/// deletion before the commit re-check (the version of the deleted memory is
/// not what such a create depends on).
fn create_then_reword(doc: &Value) -> ResponseTemplate {
    let new = new_slips(doc);
    let all: Vec<&Value> = doc["slips"].as_array().unwrap().iter().collect();
    let learned = doc["memories"].as_array().unwrap().iter().any(|m| m["origin"] == "auto");
    let content = new.last().unwrap()["content"].as_str().unwrap();
    let (content, cited) = if learned {
        (format!("{REWORDED}: {content}"), ids(&all))
    } else {
        (content.to_owned(), ids(&new))
    };
    operations(json!([{"op": "create", "kind": "recent_focus", "scope": "global",
        "content": content, "slip_ids": cited, "supersedes_slip_ids": []}]))
}

struct Scene {
    _server: MockServer,
    gate: Arc<Gate>,
    config: dreamd::config::Config,
    memory_id: String,
}

/// A memory learned in a first run, and a second conversation that would
/// reword it, waiting for the second run.
async fn learned_and_said_again<S: Store>(store: &S) -> Scene {
    let gate = Gate::new();
    let held = gate.clone();
    let server = fake_model::start_both(one_slip_per_message, move |doc: &Value| {
        held.hold();
        create_then_reword(doc)
    })
    .await;
    let config = model_config(&server.uri(), "");
    let say = |c: &str, text: &str, at: &str| line(USER, c, &format!("{c}-1"), "user", text, at);
    ingest(store, &[say("c1", "最近在做低糖酸奶的稳定剂筛选", "2026-11-20T09:00:00Z")]).await;
    let first = run_at(store, &config, RUN_1).await;
    assert_eq!(first.operations.applied.create, 1, "{first:?}");
    ingest(store, &[say("c2", "这阵子还在做低糖酸奶的稳定剂筛选", "2026-11-25T09:00:00Z")]).await;
    let memory_id = store.memories(USER).await.unwrap()[0].memory_id.clone();
    gate.arm();
    Scene { _server: server, gate, config, memory_id }
}

/// Runs the second run while `person` acts between stage two's read and its commit.
async fn run_with_person_between<S: Store>(
    store: &S,
    scene: &Scene,
    person: impl Future<Output = ()>,
) -> dreamd::run::RunSummary {
    let (summary, ()) = tokio::join!(run_at(store, &scene.config, RUN_2), async {
        scene.gate.arrived().await;
        person.await;
        scene.gate.release();
    });
    summary
}

async fn person_changes<S: Store>(store: &S, memory_id: &str, change: StatusChange) {
    let detector = Detector::default();
    Manager::new(store, RUN_2.parse().unwrap(), &detector)
        .change(memory_id, change)
        .await
        .expect("the person's change is applied");
}

async fn nothing_reworded<S: RawSql>(store: &S) {
    assert_eq!(store.rows_containing(REWORDED).await, 0, "the model's rewording was written");
}

async fn a_deletion_while_the_model_thinks_is_not_undone<S: Store + RawSql>(store: &S) {
    let scene = learned_and_said_again(store).await;
    let summary = run_with_person_between(
        store,
        &scene,
        person_changes(store, &scene.memory_id, StatusChange::Delete),
    )
    .await;
    assert_eq!((summary.users.failed, summary.operations.applied.update), (1, 0), "{summary:?}");
    nothing_reworded(store).await;
    let after = run_at(store, &scene.config, RUN_3).await;
    assert_eq!(after.users.failed, 0, "{after:?}");
    let memories = store.memories(USER).await.unwrap();
    assert_eq!(memories.len(), 1, "{memories:?}");
    assert_eq!(
        (memories[0].status, memories[0].content.as_deref()),
        (Status::Deleted, None),
        "the deleted memory came back"
    );
    nothing_reworded(store).await;
}

async fn a_disable_while_the_model_thinks_is_not_undone<S: Store + RawSql>(store: &S) {
    let scene = learned_and_said_again(store).await;
    let before = store.memory(&scene.memory_id).await.unwrap().unwrap();
    let summary = run_with_person_between(
        store,
        &scene,
        person_changes(store, &scene.memory_id, StatusChange::Disable),
    )
    .await;
    assert_eq!(summary.users.failed, 1, "{summary:?}");
    run_at(store, &scene.config, RUN_3).await;
    let after = store.memory(&scene.memory_id).await.unwrap().unwrap();
    assert_eq!(
        (after.status, after.version, &after.content),
        (Status::Disabled, before.version + 1, &before.content),
        "only the person's disable changed the memory"
    );
    nothing_reworded(store).await;
    assert!(
        store.suggestions(USER).await.unwrap().is_empty(),
        "slips said before the disable are no evidence (spec §10.8)"
    );
}

async fn a_purge_while_the_model_thinks_leaves_nothing_of_the_user<S: Store + RawSql>(store: &S) {
    let scene = learned_and_said_again(store).await;
    let summary = run_with_person_between(store, &scene, async {
        store.purge_user(USER).await.expect("the purge is applied");
    })
    .await;
    assert_eq!(summary.users.failed, 1, "{summary:?}");
    for table in ["memories", "slips", "memory_events", "suggestions", "messages"] {
        assert_eq!(
            store.count(&format!("SELECT count(*) FROM {table}")).await,
            0,
            "{table} still holds rows of the purged user"
        );
    }
    let after = run_at(store, &scene.config, RUN_3).await;
    assert_eq!((after.users.consolidated, after.users.failed), (0, 0));
}

async fn a_claim_lost_while_the_model_thinks_writes_nothing_until_the_next_run<
    S: Store + RawSql,
>(
    store: &S,
) {
    let scene = learned_and_said_again(store).await;
    let taken_until = store.time_literal("2026-11-26T13:00:00Z");
    let summary = run_with_person_between(store, &scene, async {
        store
            .execute(&format!(
                "UPDATE user_claims SET owner = 'another-replica', expires_at = {taken_until}"
            ))
            .await;
    })
    .await;
    assert_eq!(summary.users.failed, 1, "{summary:?}");
    nothing_reworded(store).await;
    let after = run_at(store, &scene.config, RUN_3).await;
    assert_eq!(after.operations.applied.create, 1, "{after:?}");
    assert_eq!(
        store
            .count(&format!("SELECT count(*) FROM memories WHERE content LIKE '{REWORDED}%'"))
            .await,
        1,
        "reworded exactly once"
    );
}

/// Texts of one memory's life that a deletion must erase (spec §7).
const ERASED: &[&str] = &[
    "QUOTE-Z",
    "QUOTE-A",
    "QUOTE-B",
    "QUOTE-C",
    "QUOTE-D",
    "MEMTEXT-ONE",
    "MEMTEXT-TWO",
    "SUGTEXT-THREE",
    "REASONTEXT-FOUR",
];

/// Stage two over a memory's life: created (superseding an older slip),
/// reworded, aimed at by a suggestion, retired with a reason.
fn lifecycle(doc: &Value) -> ResponseTemplate {
    let new = new_slips(doc);
    let said = |marker: &str| new.iter().any(|s| s["quote"].as_str().unwrap().contains(marker));
    let memory = doc["memories"].as_array().unwrap().first().cloned();
    let all: Vec<&Value> = doc["slips"].as_array().unwrap().iter().collect();
    let op = match memory {
        None => {
            let (newest, older) = all.split_last().unwrap();
            json!({"op": "create", "kind": "recent_focus", "scope": "global", "content": "MEMTEXT-ONE",
                   "slip_ids": [newest["slip_id"]], "supersedes_slip_ids": ids(older)})
        }
        Some(m) if said("QUOTE-B") => json!({"op": "update", "memory_id": m["memory_id"],
            "content": "MEMTEXT-TWO", "slip_ids": ids(&new)}),
        Some(m) if said("QUOTE-C") => {
            json!({"op": "suggest", "kind": "recent_focus", "scope": "global",
            "memory_id": m["memory_id"], "content": "SUGTEXT-THREE", "slip_ids": ids(&new)})
        }
        Some(m) => json!({"op": "retire", "memory_id": m["memory_id"], "reason": "REASONTEXT-FOUR",
            "slip_ids": ids(&new)}),
    };
    operations(json!([op]))
}

async fn a_deletion_erases_every_text_of_the_memory<S: Store + RawSql>(store: &S) {
    let server = fake_model::start_both(one_slip_per_message, lifecycle).await;
    let config = model_config(&server.uri(), "");
    let say = |c: &str, text: &str, day: u32| {
        line(USER, c, &format!("{c}-1"), "user", text, &format!("2026-11-{day:02}T09:00:00Z"))
    };
    ingest(
        store,
        &[say("c0", "在做酸奶项目 QUOTE-Z", 10), say("c1", "在做低糖酸奶项目 QUOTE-A", 11)],
    )
    .await;
    run_at(store, &config, "2026-11-12T12:00:00Z").await;
    for (conversation, text, day) in [
        ("c2", "现在在做燕麦饮项目 QUOTE-B", 13),
        ("c3", "燕麦饮项目改叫植物基项目 QUOTE-C", 15),
        ("c4", "燕麦饮项目做完了 QUOTE-D", 17),
    ] {
        ingest(store, &[say(conversation, text, day)]).await;
        let summary = run_at(store, &config, &format!("2026-11-{:02}T12:00:00Z", day + 1)).await;
        assert_eq!(summary.operations.rejected.len(), 0, "{summary:?}");
    }
    let memory = &store.memories(USER).await.unwrap()[0];
    assert_eq!(memory.status, Status::Retired);
    let same_text = Suggestion {
        suggestion_id: "same-text".into(),
        user_id: USER.into(),
        op: SuggestionOp::Create,
        kind: memory.kind,
        scope: memory.scope.clone(),
        content: Some("memtext-two！".into()),
        memory_id: None,
        target_version: None,
        status: SuggestionStatus::Pending,
        created_at: "2026-11-19T00:00:00Z".parse().unwrap(),
        decided_at: None,
    };
    let suggestion = Write::InsertSuggestion { suggestion: same_text, slip_ids: Vec::new() };
    store.apply(vec![suggestion]).await.unwrap();
    let dump = store.dump_except_messages().await;
    for text in ERASED {
        assert!(dump.contains(text), "{text} was never stored: the scene is wrong");
    }
    let detector = Detector::default();
    Manager::new(store, "2026-11-20T00:00:00Z".parse().unwrap(), &detector)
        .change(&memory.memory_id, StatusChange::Delete)
        .await
        .unwrap();
    let dump = store.dump_except_messages().await;
    for text in ERASED {
        assert!(!dump.contains(text), "{text} survived the deletion:\n{dump}");
    }
    let suggestions = store.suggestions(USER).await.unwrap();
    assert_eq!(suggestions.len(), 2, "the one aimed at the memory, the one with its text");
    for s in suggestions {
        assert_eq!((s.status, s.content.as_deref()), (SuggestionStatus::Withdrawn, None), "{s:?}");
    }
}

/// A user whose stage two fails every time (here the model's answer is
/// never JSON; a server failing alone would be an outage, charged to no one).
async fn a_user_that_keeps_failing_is_passed_over_until_a_new_slip<S: Store>(store: &S) {
    let server = fake_model::start_both(one_slip_per_message, |_: &Value| {
        fake_model::completion("Sure! Here are the operations: none")
    })
    .await;
    let config = model_config(&server.uri(), "");
    let say = |c: &str, at: &str| line(USER, c, &format!("{c}-1"), "user", "在做燕麦饮项目", at);
    ingest(store, &[say("c1", "2026-11-20T09:00:00Z")]).await;
    let stage_two_calls = || async { fake_model::documents(&server, false).await.len() };
    for day in 21..=23 {
        let summary = run_at(store, &config, &format!("2026-11-{day}T12:00:00Z")).await;
        assert_eq!(summary.users.failed, 1, "{summary:?}");
    }
    let failed = store.failed_users(10).await.unwrap();
    assert_eq!((failed.len(), failed[0].attempts), (1, 3));
    assert!(failed[0].reason.starts_with("the model's answer is not valid"), "{failed:?}");
    let window = dreamd::select::Window::at("2026-11-24T00:00:00Z".parse().unwrap(), &config);
    let backlog = store.backlog(&window).await.unwrap();
    assert_eq!(
        (backlog.slips_waiting, backlog.users_claimed),
        (1, 0),
        "status shows the slip waiting for stage two, and no user claim left behind"
    );
    let calls = stage_two_calls().await;
    let passed_over = run_at(store, &config, "2026-11-24T12:00:00Z").await;
    assert_eq!((passed_over.users.failed, passed_over.users.consolidated), (0, 0));
    assert_eq!(stage_two_calls().await, calls, "no model call for a passed-over user");
    ingest(store, &[say("c2", "2026-11-24T13:00:00Z")]).await;
    let again = run_at(store, &config, "2026-11-25T12:00:00Z").await;
    assert_eq!(again.users.failed, 1, "a new slip makes the user due again");
    assert_eq!(store.failed_users(10).await.unwrap()[0].attempts, 1);
}

/// Deleting means the bytes (spec §7): after a deletion and after a purge,
/// the SQLite files (database, write-ahead log, shared memory) hold no byte
/// of the erased texts while the store is still open, as a served dreamd's is.
#[tokio::test]
async fn erased_text_leaves_the_sqlite_files() {
    let dir = tempfile::TempDir::new().unwrap();
    let store = dreamd::store::SqliteStore::open(&dir.path().join("dreamd.db")).await.unwrap();
    let on_disk = |needle: &str| {
        ["dreamd.db", "dreamd.db-wal", "dreamd.db-shm"].iter().any(|file| {
            std::fs::read(dir.path().join(file))
                .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
        })
    };
    let detector = Detector::default();
    let manager = Manager::new(&store, "2026-11-20T00:00:00Z".parse().unwrap(), &detector);
    let request = NewExplicit { text: "报告用 zebraquokka 格式".into(), ..request_for(USER) };
    let kept = manager.set(request).await.unwrap();
    assert!(on_disk("zebraquokka"), "the text was written: the scene is right");
    manager.change(&kept.memory.memory_id, StatusChange::Delete).await.unwrap();
    assert!(!on_disk("zebraquokka"), "a deleted memory's text is gone from the files");

    // A reader on an old snapshot (a backup, another process) keeps the
    // log: the deletion neither waits for it nor leaves the text there for
    // longer than the next write after the reader is done.
    let mut reader = store.pool().begin().await.unwrap();
    sqlx::query("SELECT count(*) FROM memories").fetch_one(&mut *reader).await.unwrap();
    // The deletion comes from another process (its own store on the file);
    // the next write of any process on the file takes the text out.
    let request = NewExplicit { text: "报告用 okapinarwhal 格式".into(), ..request_for(USER) };
    let held = manager.set(request).await.unwrap();
    let other = dreamd::store::SqliteStore::open(&dir.path().join("dreamd.db")).await.unwrap();
    let elsewhere = Manager::new(&other, "2026-11-20T00:00:00Z".parse().unwrap(), &detector);
    let started = std::time::Instant::now();
    elsewhere.change(&held.memory.memory_id, StatusChange::Delete).await.unwrap();
    drop(other);
    assert!(started.elapsed() < std::time::Duration::from_secs(3), "{:?}", started.elapsed());
    assert!(on_disk("okapinarwhal"), "held in the log while the reader is on its snapshot");
    reader.commit().await.unwrap();
    manager.set(NewExplicit { text: "报告先写结论".into(), ..request_for(USER) }).await.unwrap();
    assert!(!on_disk("okapinarwhal"), "gone at the first write after the reader");
    assert!(!dir.path().join("dreamd.db-erased").exists(), "the marker goes with the text");

    let said = "我在做 wombatpangolin 项目";
    ingest(&store, &[line("u2", "c9", "m1", "user", said, "2026-11-19T09:00:00Z")]).await;
    assert!(on_disk("wombatpangolin"));
    store.purge_user("u2").await.unwrap();
    assert!(!on_disk("wombatpangolin"), "a purged user's messages are gone from the files");
}

/// Stage two writes what stage one's messages held and its slips do not:
/// the password without its label, in a memory, an update's text and a
/// retire reason; beside it, one honest memory.
fn leak_what_stage_one_saw(doc: &Value) -> ResponseTemplate {
    let cited = ids(&new_slips(doc));
    let explicit = doc["memories"].as_array().unwrap().iter().find(|m| m["origin"] == "explicit");
    let explicit = explicit.map_or(Value::Null, |m| m["memory_id"].clone());
    operations(json!([
        {"op": "create", "kind": "recent_focus", "scope": "global",
         "content": "低糖酸奶; staging: Tr0ub4dor&3x", "slip_ids": cited, "supersedes_slip_ids": []},
        {"op": "retire", "memory_id": explicit, "reason": "OP02 staging Tr0ub4dor&3x", "slip_ids": cited},
        {"op": "create", "kind": "recent_focus", "scope": "global",
         "content": "在做低糖酸奶的稳定剂筛选", "slip_ids": cited, "supersedes_slip_ids": []},
    ]))
}

async fn a_value_the_model_saw_in_stage_one_stays_out_of_stage_two<S: Store + RawSql>(store: &S) {
    let server = fake_model::start_both(one_slip_per_message, leak_what_stage_one_saw).await;
    let config = model_config(&server.uri(), "");
    let detector = Detector::default();
    let manager = Manager::new(store, "2026-11-19T09:00:00Z".parse().unwrap(), &detector);
    let explicit =
        NewExplicit {
            text: "周报先写结论".into(), kind: Kind::RecentFocus, ..request_for(USER)
        };
    manager.set(explicit).await.expect("the explicit memory is kept");
    let say = |id: &str, text: &str| line(USER, "c1", id, "user", text, "2026-11-20T09:00:00Z");
    ingest(
        store,
        &[
            say("m1", "测试环境密码是 Tr0ub4dor&3x，另外我在研发中心质检部"),
            say("m2", "最近在做低糖酸奶的稳定剂筛选"),
        ],
    )
    .await;
    let summary = run_at(store, &config, RUN_1).await;
    assert_eq!(summary.operations.applied.create, 1, "{summary:?}");
    let forbidden = summary.operations.rejected.get(&RejectReason::Forbidden);
    assert_eq!(forbidden, Some(&2), "{summary:?}");
    assert_eq!(store.rows_containing("Tr0ub4dor").await, 0, "a piece of the password was stored");
}

/// A conversation resumed after the slip TTL: stage one is shown its old
/// message as context, so stage two may not write a piece of it either
/// (hostile model round 5, B3).
async fn a_value_shown_as_old_context_stays_out_of_stage_two<S: Store + RawSql>(store: &S) {
    let server = fake_model::start_both(one_slip_per_message, leak_what_stage_one_saw).await;
    let config = model_config(&server.uri(), "");
    let say = |id: &str, text: &str, at: &str| line(USER, "c1", id, "user", text, at);
    ingest(
        store,
        &[
            say("m1", "测试环境密码是 Tr0ub4dor&3x，记一下", "2026-10-10T09:00:00Z"),
            say("m2", "最近在做低糖酸奶的稳定剂筛选", "2026-11-20T09:00:00Z"),
        ],
    )
    .await;
    let summary = run_at(store, &config, RUN_1).await;
    assert_eq!(summary.operations.applied.create, 1, "{summary:?}");
    let forbidden = summary.operations.rejected.get(&RejectReason::Forbidden);
    assert_eq!(forbidden, Some(&1), "{summary:?}");
    assert_eq!(store.rows_containing("Tr0ub4dor").await, 0, "a piece of the password was stored");
}

/// Stage one: each user message gives one slip whose content adds a code:
/// the password ROT13-shifted where the message holds it, else the batch
/// number the user said, or an SOP number nobody said.
fn encode_what_it_saw(doc: &Value) -> ResponseTemplate {
    let found: Vec<Value> = doc["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let said = m["content"].as_str().unwrap();
            let (quote, content) = match said.split_once("，") {
                Some((_, after)) if said.contains("Tr0ub4dor") => (after, format!("{after} Ge0ho4qbe&3k")),
                _ if said.contains("批号") => (said, "稳定剂筛选，批号 20261130-B03".to_owned()),
                _ => (said, format!("{said}，按 SOP-QC7781")),
            };
            json!({"message_id": m["message_id"], "quote": quote, "content": content,
                   "kind": "recent_focus", "scope": "global", "durability": "lasting", "valid_until": null})
        })
        .collect();
    slips(Value::Array(found))
}

/// Stage two: the password as ASCII codes, and a memory from each new slip.
fn write_ascii_codes(doc: &Value) -> ResponseTemplate {
    let new = new_slips(doc);
    let mut ops = vec![json!({"op": "create", "kind": "recent_focus", "scope": "global",
        "content": "备份 84 114 48 117 98 52 100 111 114 38 51 120", "slip_ids": ids(&new),
        "supersedes_slip_ids": []})];
    ops.extend(new.iter().map(|s| {
        json!({"op": "create", "kind": "recent_focus", "scope": "global",
        "content": s["content"], "slip_ids": [s["slip_id"]], "supersedes_slip_ids": []})
    }));
    operations(Value::Array(ops))
}

/// A model that saw a password writes it encoded (ROT13 in a slip, ASCII
/// codes in a memory): every encoding writes a code the user never said,
/// which is refused while a value is in sight; the user's own codes pass,
/// and so do the model's where no value is in sight.
async fn a_code_the_model_was_not_shown_is_refused_while_a_value_is_in_sight<S: Store + RawSql>(
    store: &S,
) {
    let server = fake_model::start_both(encode_what_it_saw, write_ascii_codes).await;
    let config = model_config(&server.uri(), "llm.concurrency = 1");
    let say = |user: &str, c: &str, id: &str, text: &str| {
        line(user, c, id, "user", text, "2026-11-20T09:00:00Z")
    };
    ingest(
        store,
        &[
            say(USER, "c1", "m1", "测试环境密码是 Tr0ub4dor&3x，另外我在研发中心质检部"),
            say(USER, "c1", "m2", "最近在做低糖酸奶的稳定剂筛选，批号 20261130-B03"),
            say("u2", "c2", "m1", "我们的清洗流程要重新写一版"),
        ],
    )
    .await;
    let summary = run_at(store, &config, RUN_1).await;
    assert_eq!(summary.slips.dropped.get(&DropReason::Forbidden), Some(&1), "{summary:?}");
    let forbidden = summary.operations.rejected.get(&RejectReason::Forbidden);
    assert_eq!(forbidden, Some(&1), "only u1's ASCII codes: {summary:?}");
    assert_eq!(store.rows_containing("Ge0ho4qbe").await, 0);
    let texts = |user: &'static str| async move {
        let memories = store.memories(user).await.unwrap();
        memories.into_iter().filter_map(|m| m.content).collect::<Vec<_>>()
    };
    assert_eq!(texts(USER).await, ["稳定剂筛选，批号 20261130-B03"]);
    let u2 = texts("u2").await;
    assert!(u2.iter().any(|t| t.contains("SOP-QC7781")), "no value in sight: {u2:?}");
    assert!(u2.iter().any(|t| t.contains("84 114 48")), "no value in sight: {u2:?}");
}

/// Stage one: conversation `c2`'s slip carries the password said in `c1`;
/// every other message is echoed.
fn carry_across(doc: &Value) -> ResponseTemplate {
    if doc["conversation_id"] != "c2" {
        return one_slip_per_message(doc);
    }
    let m = &doc["messages"][0];
    slips(json!([{"message_id": m["message_id"], "quote": m["content"],
        "content": "稳定剂筛选; 备份 Tr0ub4dor&3x", "kind": "recent_focus", "scope": "global",
        "durability": "lasting", "valid_until": null}]))
}

async fn a_value_said_in_one_conversation_stays_out_of_another_ones_slips<S: Store + RawSql>(
    store: &S,
) {
    let server = fake_model::start_both(carry_across, |_: &Value| operations(json!([]))).await;
    let config = model_config(&server.uri(), "llm.concurrency = 1");
    let say = |c: &str, text: &str, at: &str| line(USER, c, &format!("{c}-1"), "user", text, at);
    ingest(
        store,
        &[
            say("c1", "测试环境密码是 Tr0ub4dor&3x，记一下", "2026-11-20T09:00:00Z"),
            say("c2", "最近在做低糖酸奶的稳定剂筛选", "2026-11-20T10:00:00Z"),
        ],
    )
    .await;
    let summary = run_at(store, &config, RUN_1).await;
    assert_eq!(summary.slips.dropped.get(&DropReason::Forbidden), Some(&2), "{summary:?}");
    assert_eq!(store.rows_containing("Tr0ub4dor").await, 0, "a piece of the password was stored");
}

fn request_for(user: &str) -> NewExplicit {
    NewExplicit {
        user_id: user.into(),
        kind: Kind::Presentation,
        scope: Scope::global(),
        text: String::new(),
        expires_at: None,
        source: None,
    }
}
