//! The store suite: every test runs on SQLite and on PostgreSQL.

use crate::helpers::{RawSql, line, now, on_both_backends};
use dreamd::domain::Write;
use dreamd::domain::{
    Durability, Kind, Memory, Origin, Scope, Slip, SlipState, Status, Suggestion, SuggestionOp,
    SuggestionStatus, Time, new_id,
};
use dreamd::error::Error;
use dreamd::ingest::ingest;
use dreamd::manage::{Manager, NewExplicit, StatusChange};

/// The built-in never-store detectors, with no operator patterns.
static NO_EXTRA: std::sync::LazyLock<dreamd::detect::Detector> =
    std::sync::LazyLock::new(dreamd::detect::Detector::default);

on_both_backends!(
    ingest_writes_once_and_counts_duplicates,
    ingest_keeps_conversations_current_for_selection,
    direct_inserts_keep_conversations_current_too,
    a_bad_line_rejects_the_whole_input,
    a_conversation_of_another_user_is_refused,
    lifecycle_changes_write_history_events,
    delete_erases_text_everywhere_and_leaves_a_tombstone,
    a_suggestion_left_without_evidence_by_a_deletion_is_withdrawn,
    a_lost_compare_and_set_writes_nothing,
    a_conversation_s_last_commit_releases_its_claim,
    slips_written_in_bulk_come_back_whole,
    stage_one_reads_new_messages_context_and_the_user_s_memory_scopes_at_once,
    a_user_s_texts_since_a_time_include_the_context_before_them,
    accepting_a_create_suggestion_makes_an_explicit_memory_with_evidence,
    accepting_an_update_on_a_moved_target_fails_stale,
    rejecting_a_suggestion_is_final,
    recall_returns_active_in_scope_memories_with_their_sources,
    set_refuses_secrets_and_is_idempotent,
    the_sweep_expires_auto_memories_and_leaves_explicit_ones_identical,
    recall_for_a_conversation_records_a_load,
    recall_with_a_query_weighs_the_evidence_quotes_lightly,
    recall_with_a_query_sees_every_change_whoever_makes_it,
    queued_loads_are_all_written_and_seen_after_a_flush,
    the_store_reads_recall_s_first_memories_in_recall_s_order,
    the_store_reads_recall_s_candidates_with_their_evidence,
    an_edit_makes_the_memory_explicit_and_keeps_the_old_text_in_history,
    an_edit_keeps_the_end_the_user_said,
    an_explicit_memory_carries_its_source,
    purge_leaves_no_row_of_the_user,
    retention_removes_only_old_slips_that_support_nothing,
);

fn at(s: &str) -> Time {
    s.parse().unwrap()
}

/// A run at noon on 2026-11-29: idle since 06:00, looking back to 1 November.
fn selection_window() -> dreamd::select::Window {
    dreamd::select::Window {
        now: at("2026-11-29T12:00:00Z"),
        idle_cutoff: at("2026-11-29T06:00:00Z"),
        lookback_cutoff: at("2026-11-01T00:00:00Z"),
        limit: 10,
    }
}

async fn ingest_text<S: RawSql>(
    store: &S,
    text: &str,
) -> Result<dreamd::ingest::IngestSummary, Error> {
    ingest(store, text.as_bytes(), &Default::default()).await
}

async fn ingest_writes_once_and_counts_duplicates<S: RawSql>(store: &S) {
    let input = [
        line("u1", "c1", "m1", "user", "以后看报告，都先说结果", "2026-11-20T09:00:00Z"),
        line("u1", "c1", "m2", "assistant", "好的", "2026-11-20T09:01:00Z"),
        line("u2", "c2", "m1", "user", "I prefer short answers", "2026-11-20T10:00:00Z"),
        line("u1", "c1", "m1", "user", "以后看报告，都先说结果", "2026-11-20T09:00:00Z"),
    ]
    .join("\n");
    let first = ingest_text(store, &input).await.unwrap();
    assert_eq!(
        (first.lines, first.messages_new, first.duplicates, first.conversations, first.users),
        (4, 3, 1, 2, 2)
    );
    let again = ingest_text(store, &input).await.unwrap();
    assert_eq!((again.messages_new, again.duplicates, again.conflicting), (0, 4, 0));
    assert_eq!(store.count("SELECT count(*) FROM messages").await, 3);
    // A stored message's id with other content (an agent that rewrote it):
    // the stored one stands, and the line is counted apart (ops round 5, M5),
    // in the input itself too. `m1` of another conversation is no conflict.
    let rewritten = [
        line("u1", "c1", "m1", "user", "以后看报告，都先说结论", "2026-11-20T09:00:00Z"),
        line("u1", "c1", "m3", "user", "A", "2026-11-20T09:02:00Z"),
        line("u1", "c1", "m3", "user", "B", "2026-11-20T09:02:00Z"),
        line("u2", "c2", "m1", "user", "I prefer short answers", "2026-11-20T10:00:00Z"),
    ]
    .join("\n");
    let changed = ingest_text(store, &rewritten).await.unwrap();
    assert_eq!((changed.messages_new, changed.duplicates, changed.conflicting), (1, 3, 2));
    let kept = "SELECT count(*) FROM messages WHERE content = '以后看报告，都先说结果'";
    assert_eq!(store.count(kept).await, 1);
    let no_ids = r#"{"user_id":"u3","conversation_id":"c3","role":"user","content":"hi","created_at":"2026-11-20T09:00:00Z"}"#;
    assert_eq!(ingest_text(store, no_ids).await.unwrap().messages_new, 1);
    assert_eq!(ingest_text(store, no_ids).await.unwrap().messages_new, 0);
}

async fn ingest_keeps_conversations_current_for_selection<S: RawSql>(store: &S) {
    let input = [
        line("u1", "c1", "late-arrival", "user", "b", "2026-11-20T12:00:00Z"),
        line("u1", "c1", "early", "user", "a", "2026-11-20T08:00:00Z"),
        line("u1", "c2", "x", "user", "c", "2026-11-21T08:00:00Z"),
    ]
    .join("\n");
    ingest_text(store, &input).await.unwrap();
    let newest = store.time_literal("2026-11-20T12:00:00Z");
    assert_eq!(
        store
            .count(&format!(
                "SELECT count(*) FROM conversations WHERE conversation_id = 'c1' AND last_message_at = {newest} \
                 AND last_seq = (SELECT max(seq) FROM messages WHERE conversation_id = 'c1') AND watermark_seq = 0"
            ))
            .await,
        1
    );
    let idle_since = store.time_literal("2026-11-21T00:00:00Z");
    assert_eq!(
        store
            .count(&format!(
                "SELECT count(*) FROM conversations WHERE last_seq > watermark_seq AND last_message_at <= {idle_since}"
            ))
            .await,
        1,
        "one conversation pending and idle"
    );
    let scoped = r#"{"user_id":"u1","conversation_id":"c1","message_id":"s","role":"user","content":"x","created_at":"2026-11-20T13:00:00Z","scopes":["project:A","domain:standard"]}"#;
    ingest_text(store, scoped).await.unwrap();
    let peeked = store.select_conversations(&selection_window(), None).await.unwrap();
    let c1 = peeked.iter().find(|c| c.conversation_id == "c1").unwrap();
    assert_eq!(c1.scopes, ["domain:standard", "project:A"]);
}

async fn direct_inserts_keep_conversations_current_too<S: RawSql>(store: &S) {
    for (id, time) in [
        ("m1", "2026-11-20T09:00:00Z"),
        ("m2", "2026-11-22T09:00:00Z"),
        ("m3", "2026-11-21T09:00:00Z"),
    ] {
        store
            .execute(&format!(
                "INSERT INTO messages (conversation_id, message_id, user_id, role, content, created_at) \
                 VALUES ('agent-c', '{id}', 'u1', 'user', 'hello', {})",
                store.time_literal(time)
            ))
            .await;
    }
    let newest = store.time_literal("2026-11-22T09:00:00Z");
    assert_eq!(
        store
            .count(&format!(
                "SELECT count(*) FROM conversations WHERE conversation_id = 'agent-c' AND user_id = 'u1' \
                 AND last_message_at = {newest} AND last_seq = (SELECT max(seq) FROM messages)"
            ))
            .await,
        1
    );
}

async fn a_bad_line_rejects_the_whole_input<S: RawSql>(store: &S) {
    let mut lines: Vec<String> = (0..12_000)
        .map(|i| line("u1", "c1", &format!("m{i}"), "user", "fine", "2026-11-20T09:00:00Z"))
        .collect();
    lines[2] = line("u1", "c1", "bad-role", "robot", "x", "2026-11-20T09:00:00Z");
    lines[11_000] = r#"{"user_id":"u1"}"#.into();
    let err = ingest_text(store, &lines.join("\n")).await.unwrap_err();
    let Error::IngestRejected(errors) = &err else { panic!("{err}") };
    let numbers: Vec<usize> = errors.iter().map(|e| e.line).collect();
    assert_eq!(numbers, [3, 11_001]);
    assert_eq!(err.exit_code(), 2);
    assert_eq!(store.count("SELECT count(*) FROM messages").await, 0);
    assert_eq!(store.count("SELECT count(*) FROM conversations").await, 0);
}

async fn a_conversation_of_another_user_is_refused<S: RawSql>(store: &S) {
    ingest_text(store, &line("u1", "c1", "m1", "user", "a", "2026-11-20T09:00:00Z")).await.unwrap();
    let input = [
        line("u2", "c2", "m1", "user", "b", "2026-11-20T09:00:00Z"),
        line("u2", "c1", "m2", "user", "c", "2026-11-20T09:00:00Z"),
    ]
    .join("\n");
    let err = ingest_text(store, &input).await.unwrap_err().to_string();
    assert!(
        err.contains("line 2: conversation 'c1' already belongs to user 'u1', not 'u2'"),
        "{err}"
    );
    assert_eq!(store.count("SELECT count(*) FROM messages").await, 1);
}

fn explicit(user: &str, kind: Kind, scope: &str, text: &str) -> NewExplicit {
    NewExplicit {
        user_id: user.into(),
        kind,
        scope: scope.parse().unwrap(),
        text: text.into(),
        expires_at: None,
        source: None,
    }
}

async fn lifecycle_changes_write_history_events<S: RawSql>(store: &S) {
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let m = manager
        .set(explicit("u1", Kind::Presentation, "domain:standard", "标准按流程卡整理"))
        .await
        .unwrap();
    let id = m.memory.memory_id.clone();
    let later = Manager::new(store, at("2026-11-30T08:00:00Z"), &NO_EXTRA);
    let disabled = later.change(&id, StatusChange::Disable).await.unwrap();
    assert_eq!((disabled.memory.status, disabled.memory.version), (Status::Disabled, 2));
    assert_eq!(disabled.memory.updated_at, at("2026-11-30T08:00:00Z"));
    assert!(later.list("u1", false).await.unwrap().is_empty());
    let err = later.change(&id, StatusChange::Disable).await.unwrap_err();
    assert!(err.to_string().contains("it is disabled"), "{err}");
    later.change(&id, StatusChange::Enable).await.unwrap();
    let actions: Vec<String> =
        later.history(&id).await.unwrap().into_iter().map(|e| e.action).collect();
    assert_eq!(actions, ["create", "disable", "enable"]);
    let missing = later.show("no-such-id").await.unwrap_err();
    assert_eq!(
        (missing.exit_code(), missing.to_string()),
        (2, "memory 'no-such-id' not found".into())
    );
}

fn auto_memory(user: &str, text: &str) -> Memory {
    Memory {
        memory_id: new_id(),
        user_id: user.into(),
        kind: Kind::Presentation,
        scope: "domain:standard".parse().unwrap(),
        origin: Origin::Auto,
        status: Status::Active,
        version: 1,
        content: Some(text.into()),
        created_at: at("2026-11-25T00:00:00Z"),
        updated_at: at("2026-11-25T00:00:00Z"),
        expires_at: Some(at("2027-05-24T00:00:00Z")),
        source_conversation_id: None,
        source_message_id: None,
    }
}

fn slip(user: &str, conversation: &str, quote: &str, state: SlipState) -> Slip {
    Slip {
        slip_id: new_id(),
        user_id: user.into(),
        conversation_id: conversation.into(),
        message_id: format!("{conversation}-m1"),
        kind: Kind::Presentation,
        scope: "domain:standard".parse().unwrap(),
        durability: Durability::Lasting,
        valid_until: None,
        content: Some(format!("slip: {quote}")),
        quote: Some(quote.into()),
        expressed_at: at("2026-11-24T09:00:00Z"),
        state,
        run_id: Some("run-1".into()),
    }
}

/// An auto memory with two evidence slips, as stage two would leave it.
async fn learned_memory<S: RawSql>(store: &S, user: &str, text: &str) -> (Memory, Vec<Slip>) {
    let memory = auto_memory(user, text);
    let slips = vec![
        slip(user, "c1", "标准整理成流程卡", SlipState::Consolidated),
        slip(user, "c2", "还是按流程卡来", SlipState::Consolidated),
    ];
    let mut writes: Vec<Write> = slips.iter().cloned().map(Write::InsertSlip).collect();
    writes.push(Write::InsertMemory(memory.clone()));
    writes.push(Write::AddEvidence {
        memory_id: memory.memory_id.clone(),
        slip_ids: slips.iter().map(|s| s.slip_id.clone()).collect(),
    });
    store.apply(writes).await.unwrap();
    (memory, slips)
}

async fn delete_erases_text_everywhere_and_leaves_a_tombstone<S: RawSql>(store: &S) {
    let (memory, _) = learned_memory(store, "u1", "标准按流程卡展示").await;
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let shown = manager.show(&memory.memory_id).await.unwrap();
    assert_eq!(shown.evidence.len(), 2);
    assert_eq!(shown.source_conversation_ids, ["c1", "c2"]);
    manager.change(&memory.memory_id, StatusChange::Disable).await.unwrap();
    manager.change(&memory.memory_id, StatusChange::Delete).await.unwrap();

    for needle in ["标准按流程卡展示", "标准整理成流程卡", "还是按流程卡来"]
    {
        assert_eq!(store.rows_containing(needle).await, 0, "{needle} still stored");
    }
    let deleted = manager.show(&memory.memory_id).await.unwrap();
    assert_eq!((deleted.memory.status, deleted.memory.content), (Status::Deleted, None));
    assert!(deleted.evidence.iter().all(|e| e.quote.is_none()));
    let history = manager.history(&memory.memory_id).await.unwrap();
    assert_eq!(history.last().unwrap().action, "delete");
    assert!(history.iter().all(|e| e.after.as_ref().unwrap()["content"].is_null()));
    let slips = manager.slips("u1", None).await.unwrap();
    assert!(slips.iter().all(|s| s.state == SlipState::Erased && s.content.is_none()));
    let tombstones = store.tombstones("u1").await.unwrap();
    assert_eq!(tombstones.len(), 1);
    assert_eq!(tombstones[0].fingerprint, dreamd::text::fingerprint("标准按流程卡展示"));
    assert_eq!(manager.list("u1", true).await.unwrap().len(), 1);
    assert!(manager.list("u1", false).await.unwrap().is_empty());
}

/// A pending suggestion whose every evidence slip a deletion erases is
/// withdrawn (accepted, it would be an explicit memory without a source);
/// one with other evidence stays pending.
async fn a_suggestion_left_without_evidence_by_a_deletion_is_withdrawn<S: RawSql>(store: &S) {
    let (memory, slips) = learned_memory(store, "u1", "标准按流程卡展示").await;
    let other = slip("u1", "c3", "条款号写在左边", SlipState::Consolidated);
    let orphaned = suggestion("u1", SuggestionOp::Create, Some("流程卡附条款号"), None);
    let backed = suggestion("u1", SuggestionOp::Create, Some("条款号靠左"), None);
    let link = |s: &Suggestion, ids: Vec<String>| Write::InsertSuggestion {
        suggestion: s.clone(),
        slip_ids: ids,
    };
    store
        .apply(vec![
            Write::InsertSlip(other.clone()),
            link(&orphaned, vec![slips[0].slip_id.clone()]),
            link(&backed, vec![slips[1].slip_id.clone(), other.slip_id.clone()]),
        ])
        .await
        .unwrap();
    let manager = Manager::new(store, now(), &NO_EXTRA);
    manager.change(&memory.memory_id, StatusChange::Delete).await.unwrap();
    let status = |id: String| async move { store.suggestion(&id).await.unwrap().unwrap() };
    let withdrawn = status(orphaned.suggestion_id.clone()).await;
    assert_eq!((withdrawn.status, withdrawn.content), (SuggestionStatus::Withdrawn, None));
    assert_eq!(status(backed.suggestion_id.clone()).await.status, SuggestionStatus::Pending);
}

async fn a_lost_compare_and_set_writes_nothing<S: RawSql>(store: &S) {
    let (memory, _) = learned_memory(store, "u1", "结果先行").await;
    let mut changed = memory.clone();
    changed.content = Some("改过了".into());
    changed.version = 2;
    let err = store
        .apply(vec![
            Write::InsertSlip(slip("u1", "c9", "new", SlipState::New)),
            Write::UpdateMemory { memory: changed, expected_version: 7 },
        ])
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Stale(_)), "{err}");
    assert_eq!(store.count("SELECT count(*) FROM slips WHERE conversation_id = 'c9'").await, 0);
    assert_eq!(store.memory(&memory.memory_id).await.unwrap().unwrap(), memory);
    // SQLite's next write goes through the same held connection: it starts
    // after the rollback and commits only its own.
    store.apply(vec![Write::InsertSlip(slip("u1", "c8", "next", SlipState::New))]).await.unwrap();
    assert_eq!(store.count("SELECT count(*) FROM slips WHERE conversation_id = 'c9'").await, 0);
    assert_eq!(store.count("SELECT count(*) FROM slips WHERE conversation_id = 'c8'").await, 1);
}

/// Stage one's commits keep the claim until the last, which releases it in
/// the same transaction; the old owner can then write nothing more.
async fn a_conversation_s_last_commit_releases_its_claim<S: RawSql>(store: &S) {
    let lines = [
        r#"{"user_id":"u1","conversation_id":"c1","message_id":"m1","role":"user","content":"a","created_at":"2026-11-20T09:00:00Z"}"#,
        r#"{"user_id":"u1","conversation_id":"c1","message_id":"m2","role":"user","content":"b","created_at":"2026-11-20T09:01:00Z"}"#,
    ];
    ingest_text(store, &lines.join("\n")).await.unwrap();
    let window = selection_window();
    let until = at("2026-11-29T12:10:00Z");
    let claimed = store.select_conversations(&window, Some(("run-a", until))).await.unwrap();
    let c = &claimed[0];
    let held = "SELECT count(*) FROM conversations WHERE claim_owner = 'run-a' AND claim_expires_at IS NOT NULL";
    let middle = c.last_seq - 1;
    store
        .commit_extraction("c1", "run-a", (c.watermark_seq, middle), Vec::new(), false)
        .await
        .unwrap();
    assert_eq!(store.count(held).await, 1, "a commit before the last keeps the claim");
    assert!(store.select_conversations(&window, Some(("run-b", until))).await.unwrap().is_empty());
    let kept = slip("u1", "c1", "m2", SlipState::New);
    store.commit_extraction("c1", "run-a", (middle, c.last_seq), vec![kept], true).await.unwrap();
    assert_eq!(
        store
            .count("SELECT count(*) FROM conversations WHERE claim_owner IS NULL AND claim_expires_at IS NULL")
            .await,
        1,
        "the last commit released the claim"
    );
    assert_eq!(store.count("SELECT count(*) FROM slips WHERE conversation_id = 'c1'").await, 1);
    let err = store
        .commit_extraction("c1", "run-a", (c.last_seq, c.last_seq), Vec::new(), true)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Stale(_)), "{err}");
    let late = slip("u1", "c1", "m1", SlipState::New);
    let err = store
        .commit_extraction("c1", "run-a", (c.last_seq, c.last_seq), vec![late], true)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Stale(_)), "{err}");
    assert_eq!(
        store.count("SELECT count(*) FROM slips WHERE conversation_id = 'c1'").await,
        1,
        "a stale commit with slips writes none of them"
    );
}

/// Slips go in as multi-row INSERTs, chunked under each backend's parameter
/// limit: more slips than one statement could bind on either backend (13
/// values each; SQLite takes 32,766, PostgreSQL 65,535), with every optional
/// field set and unset, come back exactly as written, from a commit and from
/// `apply`.
async fn slips_written_in_bulk_come_back_whole<S: RawSql>(store: &S) {
    let line = r#"{"user_id":"u1","conversation_id":"c1","message_id":"m1","role":"user","content":"a","created_at":"2026-11-20T09:00:00Z"}"#;
    ingest_text(store, line).await.unwrap();
    let claimed = store
        .select_conversations(&selection_window(), Some(("run-a", at("2026-11-29T12:10:00Z"))))
        .await
        .unwrap();
    let many = |conversation: &str| -> Vec<Slip> {
        (0..5100)
            .map(|i| {
                let mut s = slip("u1", conversation, &format!("引用 {i}"), SlipState::New);
                if i % 3 == 0 {
                    (s.content, s.quote, s.run_id) = (None, None, None);
                    s.state = SlipState::Erased;
                }
                if i % 2 == 0 {
                    s.durability = Durability::Until;
                    s.valid_until = Some(at("2026-12-31T00:00:00Z"));
                }
                s
            })
            .collect()
    };
    let sorted = |mut slips: Vec<Slip>| {
        slips.sort_by(|a, b| a.slip_id.cmp(&b.slip_id));
        slips
    };
    let committed = many("c1");
    let c = &claimed[0];
    store
        .commit_extraction("c1", "run-a", (c.watermark_seq, c.last_seq), committed.clone(), true)
        .await
        .unwrap();
    assert_eq!(sorted(store.slips("u1", Some("c1")).await.unwrap()), sorted(committed));
    let applied = many("c2");
    let mut writes: Vec<Write> = applied.iter().cloned().map(Write::InsertSlip).collect();
    writes.insert(2600, Write::InsertMemory(auto_memory("u1", "between the slips")));
    store.apply(writes).await.unwrap();
    assert_eq!(sorted(store.slips("u1", Some("c2")).await.unwrap()), sorted(applied));
    assert_eq!(store.memories("u1").await.unwrap().len(), 1);
}

async fn stage_one_reads_new_messages_context_and_the_user_s_memory_scopes_at_once<S: RawSql>(
    store: &S,
) {
    let lines: Vec<String> = (1..=6)
        .map(|m| {
            line("u1", "c1", &format!("m{m}"), "user", "x", &format!("2026-11-20T09:0{m}:00Z"))
        })
        .chain([line("u2", "c2", "m1", "user", "y", "2026-11-20T09:00:00Z")])
        .collect();
    ingest_text(store, &lines.join("\n")).await.unwrap();
    let read = store.conversation_messages("c1", 4, 2).await.unwrap();
    let ids = |ms: &[dreamd::domain::StoredMessage]| -> Vec<String> {
        ms.iter().map(|m| m.message_id.clone()).collect()
    };
    assert_eq!(
        (ids(&read.before), ids(&read.unprocessed)),
        (vec!["m3".into(), "m4".into()], vec!["m5".into(), "m6".into()])
    );
    assert!(read.memory_scopes.is_empty(), "no memory yet: {:?}", read.memory_scopes);
    let manager = Manager::new(store, now(), &NO_EXTRA);
    for (user, scope) in
        [("u1", "project:A"), ("u1", "project:A"), ("u1", "domain:standard"), ("u2", "project:B")]
    {
        manager
            .set(explicit(user, Kind::RecentFocus, scope, &format!("{scope} {user} focus")))
            .await
            .unwrap();
    }
    let disabled = manager
        .set(explicit("u1", Kind::Background, "project:C", "a project I left"))
        .await
        .unwrap();
    manager.change(&disabled.memory.memory_id, StatusChange::Disable).await.unwrap();
    let mut scopes = store.conversation_messages("c1", 4, 2).await.unwrap().memory_scopes;
    scopes.sort();
    assert_eq!(
        scopes,
        ["domain:standard", "project:A", "project:C"],
        "the user's scopes, once each, whatever the status; not another user's"
    );
    let batch = store.conversations_messages(&[("c2", 0), ("c9", 0), ("c1", 4)], 2).await.unwrap();
    let mut scopes: Vec<Vec<String>> = batch.iter().map(|r| r.memory_scopes.clone()).collect();
    scopes.iter_mut().for_each(|s| s.sort());
    assert_eq!(
        (batch.iter().map(|r| (ids(&r.before), ids(&r.unprocessed))).collect::<Vec<_>>(), scopes),
        (
            vec![
                (vec![], vec!["m1".into()]),
                (vec![], vec![]),
                (vec!["m3".into(), "m4".into()], vec!["m5".into(), "m6".into()])
            ],
            vec![
                vec!["project:B".into()],
                vec![],
                vec!["domain:standard".into(), "project:A".into(), "project:C".into()]
            ]
        ),
        "a batch reads each conversation with its own watermark and user, in the order asked; \
         an unknown one reads empty"
    );
}

fn suggestion(
    user: &str,
    op: SuggestionOp,
    content: Option<&str>,
    target: Option<&Memory>,
) -> Suggestion {
    Suggestion {
        suggestion_id: new_id(),
        user_id: user.into(),
        op,
        kind: target.map_or(Kind::QueryDefault, |m| m.kind),
        scope: target.map_or_else(|| "domain:recipe".parse().unwrap(), |m| m.scope.clone()),
        content: content.map(Into::into),
        memory_id: target.map(|m| m.memory_id.clone()),
        target_version: target.map(|m| m.version),
        status: SuggestionStatus::Pending,
        created_at: at("2026-11-28T00:00:00Z"),
        decided_at: None,
    }
}

/// The texts the pieces check reads: since `since`, and the context stage
/// one shows before each conversation's first message since then.
async fn a_user_s_texts_since_a_time_include_the_context_before_them<S: RawSql>(store: &S) {
    let old = |c: &str, m: u32| {
        line(
            "u1",
            c,
            &format!("m{m}"),
            "user",
            &format!("{c} old {m}"),
            &format!("2026-10-{m:02}T09:00:00Z"),
        )
    };
    let lines: Vec<String> = (1..=5)
        .map(|m| old("c1", m))
        .chain([line("u1", "c1", "m9", "user", "c1 new", "2026-11-20T09:00:00Z")])
        .chain((1..=3).map(|m| old("c2", m)))
        .chain([line("u2", "c3", "m1", "user", "c3 other user", "2026-11-20T09:00:00Z")])
        .collect();
    ingest_text(store, &lines.join("\n")).await.unwrap();
    let since = at("2026-11-01T00:00:00Z");
    let texts = |context| store.conversation_texts("u1", since, context);
    assert_eq!(texts(2).await.unwrap(), ["c1 old 4", "c1 old 5", "c1 new"]);
    assert_eq!(texts(0).await.unwrap(), ["c1 new"]);
    assert_eq!(texts(8).await.unwrap().len(), 6, "fewer old messages than the context: all");
    assert!(store.conversation_texts("u3", since, 8).await.unwrap().is_empty());
}

/// Stores a suggestion with no evidence, as stage two would for a bare proposal.
async fn insert_suggestion<S: RawSql>(store: &S, s: &Suggestion) {
    store
        .apply(vec![Write::InsertSuggestion { suggestion: s.clone(), slip_ids: vec![] }])
        .await
        .unwrap();
}

async fn accepting_a_create_suggestion_makes_an_explicit_memory_with_evidence<S: RawSql>(
    store: &S,
) {
    let slips: Vec<Slip> = ["c1", "c2", "c3"]
        .iter()
        .map(|c| slip("u1", c, "生命周期看基本属性", SlipState::Consolidated))
        .collect();
    let s = suggestion("u1", SuggestionOp::Create, Some("生命周期默认查基本属性"), None);
    let mut writes: Vec<Write> = slips.iter().cloned().map(Write::InsertSlip).collect();
    writes.push(Write::InsertSuggestion {
        suggestion: s.clone(),
        slip_ids: slips.iter().map(|s| s.slip_id.clone()).collect(),
    });
    store.apply(writes).await.unwrap();
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let pending = manager.suggestions("u1", false).await.unwrap();
    assert_eq!((pending.len(), pending[0].evidence.len()), (1, 3));

    let (accepted, memory) = manager.accept(&s.suggestion_id).await.unwrap();
    assert_eq!(accepted.suggestion.status, SuggestionStatus::Accepted);
    assert_eq!(accepted.suggestion.decided_at, Some(now()));
    assert_eq!((memory.memory.origin, memory.memory.kind), (Origin::Explicit, Kind::QueryDefault));
    assert_eq!(memory.memory.content.as_deref(), Some("生命周期默认查基本属性"));
    assert_eq!(memory.source_conversation_ids, ["c1", "c2", "c3"]);
    assert!(manager.suggestions("u1", false).await.unwrap().is_empty());
    assert_eq!(manager.suggestions("u1", true).await.unwrap().len(), 1);
    let again = manager.accept(&s.suggestion_id).await.unwrap_err();
    assert!(again.to_string().contains("already accepted"), "{again}");
}

async fn accepting_an_update_on_a_moved_target_fails_stale<S: RawSql>(store: &S) {
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let target = manager
        .set(explicit("u1", Kind::Presentation, "global", "复杂方案详细解释"))
        .await
        .unwrap()
        .memory;
    let s = suggestion("u1", SuggestionOp::Update, Some("回答尽量简洁"), Some(&target));
    insert_suggestion(store, &s).await;
    manager.change(&target.memory_id, StatusChange::Disable).await.unwrap();
    let err = manager.accept(&s.suggestion_id).await.unwrap_err();
    assert!(matches!(err, Error::Stale(_)) && err.exit_code() == 2, "{err}");
    assert_eq!(manager.suggestions("u1", false).await.unwrap().len(), 1, "still pending");

    let fresh = store.memory(&target.memory_id).await.unwrap().unwrap();
    let s2 = suggestion("u1", SuggestionOp::Update, Some("回答尽量简洁"), Some(&fresh));
    insert_suggestion(store, &s2).await;
    let (_, updated) = manager.accept(&s2.suggestion_id).await.unwrap();
    assert_eq!(updated.memory.content.as_deref(), Some("回答尽量简洁"));
    assert_eq!((updated.memory.version, updated.memory.status), (3, Status::Disabled));
}

async fn rejecting_a_suggestion_is_final<S: RawSql>(store: &S) {
    let s = suggestion("u1", SuggestionOp::Create, Some("LC 指生命周期"), None);
    insert_suggestion(store, &s).await;
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let rejected = manager.reject(&s.suggestion_id).await.unwrap();
    assert_eq!(rejected.suggestion.status, SuggestionStatus::Rejected);
    assert!(manager.accept(&s.suggestion_id).await.is_err());
    assert!(store.memories("u1").await.unwrap().is_empty());
}

async fn recall_returns_active_in_scope_memories_with_their_sources<S: RawSql>(store: &S) {
    let (learned, _) = learned_memory(store, "u1", "标准按流程卡展示").await;
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let global =
        manager.set(explicit("u1", Kind::Presentation, "global", "结果先行")).await.unwrap().memory;
    manager
        .set(explicit("u1", Kind::QueryDefault, "domain:recipe", "生命周期默认查基本属性"))
        .await
        .unwrap();
    let mut short_lived = explicit("u1", Kind::RecentFocus, "global", "本周在做酸奶项目");
    short_lived.expires_at = Some(at("2026-12-01T00:00:00Z"));
    manager.set(short_lived).await.unwrap();
    manager.set(explicit("u2", Kind::Presentation, "global", "someone else")).await.unwrap();

    let standard: Scope = "domain:standard".parse().unwrap();
    let recalled = manager.recall("u1", std::slice::from_ref(&standard), 5, None).await.unwrap();
    let ids: Vec<&str> = recalled.iter().map(|r| r.memory.memory_id.as_str()).collect();
    assert_eq!(ids.len(), 3);
    assert_eq!(ids[0], learned.memory_id, "domain before global");
    assert!(ids.contains(&global.memory_id.as_str()));
    assert_eq!(recalled[0].source_conversation_ids, ["c1", "c2"]);

    let after_expiry = Manager::new(store, at("2026-12-02T00:00:00Z"), &NO_EXTRA);
    let later = after_expiry.recall("u1", &[], 5, None).await.unwrap();
    assert_eq!(later.len(), 1, "expired memories are hidden before any sweep");
    assert_eq!(later[0].memory.memory_id, global.memory_id);
}

async fn set_refuses_secrets_and_is_idempotent<S: RawSql>(store: &S) {
    let manager = Manager::new(store, now(), &NO_EXTRA);
    for secret in ["密码是 Abc@12345", "I am an admin", "库存还有 300 箱", "call 13812345678"]
    {
        let err =
            manager.set(explicit("u1", Kind::Background, "global", secret)).await.unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(!err.to_string().contains(secret), "the refusal repeats the text: {err}");
    }
    assert_eq!(store.rows_containing("Abc@12345").await, 0);
    let first = manager
        .set(explicit("u1", Kind::Background, "global", "我在质检部做微生物检测"))
        .await
        .unwrap();
    let second = manager
        .set(explicit("u1", Kind::Background, "global", " 我在质检部做微生物检测 "))
        .await
        .unwrap();
    assert_eq!(first.memory.memory_id, second.memory.memory_id);
    assert_eq!(store.memories("u1").await.unwrap().len(), 1);
}

async fn the_sweep_expires_auto_memories_and_leaves_explicit_ones_identical<S: RawSql>(store: &S) {
    let mut auto = auto_memory("u1", "最近在做低糖酸奶项目");
    auto.expires_at = Some(at("2026-11-29T00:00:00Z"));
    store.apply(vec![Write::InsertMemory(auto.clone())]).await.unwrap();
    let mut request = explicit("u1", Kind::RecentFocus, "global", "本周在做酸奶项目");
    request.expires_at = Some(at("2026-11-29T06:00:00Z"));
    let explicit = Manager::new(store, at("2026-11-28T00:00:00Z"), &NO_EXTRA)
        .set(request)
        .await
        .unwrap()
        .memory;

    let config = dreamd::config::Config::load(None).unwrap();
    let summary = dreamd::run::run_once(
        store,
        &config,
        &dreamd::llm::Provider::Rules,
        dreamd::run::RunOptions::once(now(), false),
    )
    .await
    .unwrap();
    assert_eq!(summary.memories_expired, 1);
    let swept = store.memory(&auto.memory_id).await.unwrap().unwrap();
    assert_eq!((swept.status, swept.version), (Status::Expired, 2));
    let event = store.history(&auto.memory_id).await.unwrap().pop().unwrap();
    assert_eq!((event.actor, event.action.as_str()), (dreamd::domain::Actor::Dreamd, "expire"));
    assert_eq!(event.run_id.as_deref(), Some(summary.run_id.as_str()));
    assert_eq!(
        store.memory(&explicit.memory_id).await.unwrap().unwrap(),
        explicit,
        "explicit memories are never changed by dreamd"
    );
    assert_eq!(store.history(&explicit.memory_id).await.unwrap().len(), 1);
    assert_eq!(store.recent_runs(5).await.unwrap()[0].run_id, summary.run_id);
}

/// A background memory learned from `quote` (its evidence), updated at `at`.
async fn learned_background<S: RawSql>(store: &S, content: &str, quote: Option<&str>, at: Time) {
    let mut memory = auto_memory("u1", content);
    (memory.kind, memory.scope, memory.updated_at) = (Kind::Background, Scope::global(), at);
    let mut evidence = slip("u1", "c1", "unused", SlipState::Consolidated);
    (evidence.kind, evidence.scope, evidence.quote) = (Kind::Background, Scope::global(), None);
    if let Some(quote) = quote {
        evidence.quote = Some(quote.into());
    } else {
        evidence.state = SlipState::Erased;
    }
    store
        .apply(vec![
            Write::InsertSlip(evidence.clone()),
            Write::InsertMemory(memory.clone()),
            Write::AddEvidence { memory_id: memory.memory_id, slip_ids: vec![evidence.slip_id] },
        ])
        .await
        .unwrap();
}

async fn recall_with_a_query_weighs_the_evidence_quotes_lightly<S: RawSql>(store: &S) {
    let manager = Manager::new(store, now(), &NO_EXTRA);
    manager.set(explicit("u1", Kind::Presentation, "global", "结果先行")).await.unwrap();
    learned_background(
        store,
        "在研发中心工作",
        Some("我在研发中心，主要做发酵乳"),
        at("2026-11-01T00:00:00Z"),
    )
    .await;
    learned_background(store, "在质检部工作", None, at("2026-11-02T00:00:00Z")).await;
    manager.set(explicit("u1", Kind::Background, "global", "负责发酵乳配方")).await.unwrap();
    manager.set(explicit("u1", Kind::RecentFocus, "global", "在准备内审")).await.unwrap();
    let contents = |records: Vec<dreamd::domain::MemoryRecord>| -> Vec<String> {
        records.into_iter().map(|r| r.memory.content.unwrap()).collect()
    };

    let ranked = manager.recall("u1", &[], 4, Some("发酵乳配方怎么调？")).await.unwrap();
    assert_eq!(contents(ranked), ["结果先行", "负责发酵乳配方", "在研发中心工作", "在准备内审"]);
    let unranked = manager.recall("u1", &[], 4, None).await.unwrap();
    assert_eq!(contents(unranked), ["结果先行", "负责发酵乳配方", "在准备内审", "在质检部工作"]);
    let blank = manager.recall("u1", &[], 4, Some("  ")).await.unwrap();
    assert_eq!(contents(blank)[2], "在准备内审", "a blank query is no query");
}

/// Recall keeps a user's candidates between calls; every kind of change
/// to what it ranks, made through the store or by SQL behind its back (as
/// another process or an agent's own code would), is seen by the next call.
async fn recall_with_a_query_sees_every_change_whoever_makes_it<S: RawSql + Clone>(store: &S) {
    let keeping = &store.clone().keeping_recall_candidates();
    assert!(keeping.keeps_recall_candidates() && !store.keeps_recall_candidates());
    let manager = &Manager::new(keeping, now(), &NO_EXTRA);
    let top = |query: &'static str| async move {
        let records = manager.recall("u1", &[], 1, Some(query)).await.unwrap();
        records.into_iter().map(|r| r.memory.content.unwrap()).collect::<Vec<_>>()
    };
    let unranked = || async move {
        let records = manager.recall("u1", &[], 8, None).await.unwrap();
        records.into_iter().map(|r| (r.memory.content.unwrap(), r.evidence)).collect::<Vec<_>>()
    };
    let a =
        manager.set(explicit("u1", Kind::Background, "global", "负责发酵乳配方")).await.unwrap();
    let later = Manager::new(keeping, at("2026-11-29T13:00:00Z"), &NO_EXTRA);
    later.set(explicit("u1", Kind::RecentFocus, "global", "在准备内审")).await.unwrap();
    assert_eq!(top("发酵乳配方").await, ["负责发酵乳配方"]);
    let stamp = "SELECT stamp FROM memory_stamps WHERE user_id = 'u1'";
    let before = store.count(stamp).await;
    assert_eq!(top("奶酪棒降钠").await, ["在准备内审"], "nothing matches: the newest first");
    assert_eq!(store.count(stamp).await, before, "recall changes no stamp");

    let id = a.memory.memory_id.clone();
    store
        .execute(&format!(
            "UPDATE memories SET content = '负责奶酪棒降钠' WHERE memory_id = '{id}'"
        ))
        .await;
    assert_eq!(top("奶酪棒降钠").await, ["负责奶酪棒降钠"], "an edit by SQL");
    assert!(unranked().await.iter().any(|(c, _)| c == "负责奶酪棒降钠"), "also without a query");

    learned_background(
        store,
        "在研发中心工作",
        Some("最近在弄燕麦饮的货架期"),
        at("2026-11-01T00:00:00Z"),
    )
    .await;
    assert_eq!(top("燕麦饮货架期").await, ["在研发中心工作"], "a new memory, ranked by its quote");
    store.execute("UPDATE slips SET quote = NULL WHERE quote LIKE '%燕麦饮%'").await;
    assert_eq!(top("燕麦饮货架期").await, ["在准备内审"], "its quote erased");
    let learned = unranked().await.into_iter().find(|(c, _)| c == "在研发中心工作").unwrap();
    assert_eq!(learned.1.len(), 1);
    assert_eq!(learned.1[0].quote, None, "the evidence recall returns is erased too");
    store.execute("UPDATE slips SET quote = '燕麦饮货架期报告' WHERE user_id = 'u1'").await;
    assert_eq!(top("燕麦饮货架期").await, ["在研发中心工作"], "a quote written back");
    store.execute("DELETE FROM memory_evidence").await;
    assert_eq!(top("燕麦饮货架期").await, ["在准备内审"], "its evidence removed");

    manager.change(&id, StatusChange::Disable).await.unwrap();
    assert_eq!(top("奶酪棒降钠").await, ["在准备内审"], "disabled through the store");
    assert!(unranked().await.iter().all(|(c, _)| c != "负责奶酪棒降钠"), "nor without a query");
    store.execute(&format!("UPDATE memories SET status = 'active' WHERE memory_id = '{id}'")).await;
    assert_eq!(top("奶酪棒降钠").await, ["负责奶酪棒降钠"], "enabled by SQL");
    store.purge_user("u1").await.unwrap();
    assert!(manager.recall("u1", &[], 5, Some("奶酪棒降钠")).await.unwrap().is_empty(), "purged");
    manager.set(explicit("u1", Kind::Background, "global", "负责奶酪棒降钠")).await.unwrap();
    assert_eq!(top("奶酪棒降钠").await.len(), 1, "the same user starting again");
}

/// The HTTP server's load writer: loads queued from many tasks are all
/// written, a flush waits for every load queued before it, closing writes
/// what is left, and a load after closing is refused, not lost silently.
async fn queued_loads_are_all_written_and_seen_after_a_flush<S: RawSql + Clone + 'static>(
    store: &S,
) {
    use dreamd::tools::loads::LoadWriter;
    let manager = Manager::new(store, now(), &NO_EXTRA);
    manager.set(explicit("u1", Kind::Presentation, "global", "结果先行")).await.unwrap();
    let records = manager.recall("u1", &[], 5, None).await.unwrap();
    let writer = std::sync::Arc::new(LoadWriter::start(store.clone()));
    let tasks: Vec<_> = (0..300)
        .map(|i| {
            let (writer, load) =
                (writer.clone(), manager.load_of("u1", &format!("c{}", i % 7), &records));
            tokio::spawn(async move { writer.record(load).await.unwrap() })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    writer.flush().await;
    assert_eq!(store.count("SELECT count(*) FROM loads").await, 300);
    assert_eq!(store.count("SELECT count(*) FROM load_memories").await, 300);
    let last = manager.load_of("u1", "c-last", &records);
    writer.record(last.clone()).await.unwrap();
    writer.close().await;
    assert_eq!(manager.loads("u1", Some("c-last")).await.unwrap(), std::slice::from_ref(&last));
    assert!(writer.record(last).await.is_err(), "a closed writer refuses");
}

async fn recall_for_a_conversation_records_a_load<S: RawSql>(store: &S) {
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let a =
        manager.set(explicit("u1", Kind::Presentation, "global", "结果先行")).await.unwrap().memory;
    let b = manager
        .set(explicit("u1", Kind::Presentation, "domain:standard", "标准按流程卡整理"))
        .await
        .unwrap()
        .memory;
    let scopes = ["domain:standard".parse().unwrap()];
    let (load_id, recalled) = manager.recall_for("u1", &scopes, 5, None, "conv-9").await.unwrap();
    assert_eq!(recalled.len(), 2);
    let loads = manager.loads("u1", Some("conv-9")).await.unwrap();
    assert_eq!(loads.len(), 1);
    assert_eq!(loads[0].load_id, load_id);
    let ids: Vec<(&str, i64)> =
        loads[0].memories.iter().map(|m| (m.memory_id.as_str(), m.version)).collect();
    assert_eq!(
        ids,
        [(b.memory_id.as_str(), 1), (a.memory_id.as_str(), 1)],
        "in recall order, with versions"
    );
    assert!(manager.loads("u1", Some("other")).await.unwrap().is_empty());
    assert_eq!(
        manager.show(&a.memory_id).await.unwrap().loaded_in,
        Some(vec!["conv-9".to_owned()])
    );
}

async fn an_edit_makes_the_memory_explicit_and_keeps_the_old_text_in_history<S: RawSql>(store: &S) {
    let (memory, _) = learned_memory(store, "u1", "标准按流程卡展示").await;
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let edited = manager.edit(&memory.memory_id, "标准按流程卡展示，并列出条款号").await.unwrap();
    assert_eq!((edited.memory.origin, edited.memory.version), (Origin::Explicit, 2));
    assert_eq!(edited.evidence.len(), 2, "evidence is kept");
    assert_eq!(edited.memory.expires_at, None, "dreamd's TTL ends with a person's correction");
    let history = manager.history(&memory.memory_id).await.unwrap();
    let last = history.last().unwrap();
    assert_eq!((last.action.as_str(), last.actor), ("edit", dreamd::domain::Actor::User));
    assert_eq!(last.before.as_ref().unwrap()["content"], "标准按流程卡展示");
    assert!(manager.edit(&memory.memory_id, "我的密码是 hunter22").await.is_err());
    manager.change(&memory.memory_id, StatusChange::Delete).await.unwrap();
    assert!(
        manager.edit(&memory.memory_id, "x").await.is_err(),
        "a deleted memory cannot be edited"
    );
}

/// A time-bound memory keeps the end the user said through a correction.
async fn an_edit_keeps_the_end_the_user_said<S: RawSql>(store: &S) {
    let end = at("2026-12-20T00:00:00Z");
    let memory = Memory {
        expires_at: Some(end),
        ..auto_memory("u1", "月底前在做燕麦奶稳定性实验")
    };
    let said = Slip {
        durability: Durability::Until,
        valid_until: Some(end),
        ..slip("u1", "c1", "这个月底前在做燕麦奶稳定性实验", SlipState::Consolidated)
    };
    store
        .apply(vec![
            Write::InsertSlip(said.clone()),
            Write::InsertMemory(memory.clone()),
            Write::AddEvidence {
                memory_id: memory.memory_id.clone(),
                slip_ids: vec![said.slip_id],
            },
        ])
        .await
        .unwrap();
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let edited =
        manager.edit(&memory.memory_id, "月底前在做燕麦奶稳定性实验（人工改）").await.unwrap();
    assert_eq!((edited.memory.origin, edited.memory.expires_at), (Origin::Explicit, Some(end)));
}

async fn an_explicit_memory_carries_its_source<S: RawSql>(store: &S) {
    ingest_text(store, &line("u1", "c1", "m1", "user", "以后都先说结果", "2026-11-20T09:00:00Z"))
        .await
        .unwrap();
    ingest_text(store, &line("u2", "c2", "m1", "user", "hi", "2026-11-20T09:00:00Z"))
        .await
        .unwrap();
    let manager = Manager::new(store, now(), &NO_EXTRA);
    let mut request = explicit("u1", Kind::Presentation, "global", "先说结果");
    request.source = Some(("c1".into(), Some("m1".into())));
    let m = manager.set(request.clone()).await.unwrap();
    assert_eq!(
        (m.memory.source_conversation_id.as_deref(), m.memory.source_message_id.as_deref()),
        (Some("c1"), Some("m1"))
    );
    assert_eq!(m.source_conversation_ids, ["c1"]);
    for (source, why) in [
        (("nope", None), "no such conversation"),
        (("c2", None), "belongs to another user"),
        (("c1", Some("m9")), "no such message"),
    ] {
        let mut bad = explicit("u1", Kind::Background, "global", "在质检部");
        bad.source = Some((source.0.into(), source.1.map(Into::into)));
        let err = manager.set(bad).await.unwrap_err().to_string();
        assert!(err.contains(why), "{err}");
    }
}

async fn purge_leaves_no_row_of_the_user<S: RawSql>(store: &S) {
    ingest_text(store, &line("u1", "c1", "m1", "user", "以后都先说结果", "2026-11-20T09:00:00Z"))
        .await
        .unwrap();
    ingest_text(store, &line("u2", "c2", "m1", "user", "keep me", "2026-11-20T09:00:00Z"))
        .await
        .unwrap();
    let (memory, _) = learned_memory(store, "u1", "标准按流程卡展示").await;
    let manager = Manager::new(store, now(), &NO_EXTRA);
    manager.set(explicit("u1", Kind::Background, "global", "在质检部")).await.unwrap();
    manager.change(&memory.memory_id, StatusChange::Delete).await.unwrap();
    let s = suggestion("u1", SuggestionOp::Create, Some("LC 指生命周期"), None);
    insert_suggestion(store, &s).await;
    manager.recall_for("u1", &[], 5, None, "c1").await.unwrap();
    manager.set(explicit("u2", Kind::Background, "global", "someone else")).await.unwrap();

    let removed = store.purge_user("u1").await.unwrap();
    assert!(removed.iter().map(|(_, n)| n).sum::<u64>() > 8, "{removed:?}");
    for table in [
        "conversations",
        "messages",
        "slips",
        "memories",
        "suggestions",
        "tombstones",
        "loads",
        "memory_stamps",
    ] {
        assert_eq!(
            store.count(&format!("SELECT count(*) FROM {table} WHERE user_id = 'u1'")).await,
            0,
            "{table}"
        );
    }
    for (table, parent) in [
        ("memory_events", "memory_id IN (SELECT memory_id FROM memories)"),
        ("memory_evidence", "memory_id IN (SELECT memory_id FROM memories)"),
        ("load_memories", "load_id IN (SELECT load_id FROM loads)"),
        ("suggestion_evidence", "suggestion_id IN (SELECT suggestion_id FROM suggestions)"),
    ] {
        let orphans =
            store.count(&format!("SELECT count(*) FROM {table} WHERE NOT ({parent})")).await;
        assert_eq!(orphans, 0, "{table} keeps rows of u1");
    }
    assert_eq!(
        store.count("SELECT count(*) FROM memory_events").await,
        1,
        "only u2's event is left"
    );
    assert_eq!(
        store.count("SELECT count(*) FROM messages WHERE user_id = 'u2'").await,
        1,
        "other users are untouched"
    );
    assert_eq!(store.memories("u2").await.unwrap().len(), 1);
}

async fn retention_removes_only_old_slips_that_support_nothing<S: RawSql>(store: &S) {
    let (memory, evidence) = learned_memory(store, "u1", "标准按流程卡展示").await;
    let mut old = slip("u1", "c3", "无人引用", SlipState::Deferred);
    old.expressed_at = at("2026-10-01T00:00:00Z");
    let mut recent = slip("u1", "c4", "最近的", SlipState::Deferred);
    recent.expressed_at = at("2026-11-25T00:00:00Z");
    let mut suggested = slip("u1", "c5", "建议里的", SlipState::Consolidated);
    suggested.expressed_at = at("2026-10-01T00:00:00Z");
    let s = suggestion("u1", SuggestionOp::Create, Some("LC 指生命周期"), None);
    store
        .apply(vec![
            Write::InsertSlip(old.clone()),
            Write::InsertSlip(recent.clone()),
            Write::InsertSlip(suggested.clone()),
            Write::InsertSuggestion { suggestion: s, slip_ids: vec![suggested.slip_id.clone()] },
        ])
        .await
        .unwrap();
    let purged = store.purge_slips(at("2026-10-30T12:00:00Z")).await.unwrap();
    assert_eq!(purged, 1);
    let left: Vec<String> =
        store.slips("u1", None).await.unwrap().into_iter().map(|s| s.slip_id).collect();
    assert!(!left.contains(&old.slip_id));
    for kept in [&recent.slip_id, &suggested.slip_id, &evidence[0].slip_id] {
        assert!(left.contains(kept));
    }
    assert_eq!(store.evidence(std::slice::from_ref(&memory.memory_id)).await.unwrap().len(), 2);
}

/// The store orders and limits recall without a query in SQL; the pure
/// `select_for_recall` over all of the user's memories is the reference.
/// Scopes, origins, statuses, expiries and equal update times vary together.
async fn the_store_reads_recall_s_first_memories_in_recall_s_order<S: RawSql>(store: &S) {
    let now = now();
    let scopes = ["global", "domain:standard", "domain:recipe", "project:A", "project:B"];
    let statuses =
        [Status::Active, Status::Active, Status::Active, Status::Disabled, Status::Retired];
    let mut writes = Vec::new();
    for i in 0..60usize {
        let mut m = auto_memory("u1", &format!("memory {i}"));
        m.scope = scopes[i % scopes.len()].parse().unwrap();
        m.origin = if i % 3 == 0 { Origin::Explicit } else { Origin::Auto };
        m.status = statuses[(i / 2) % statuses.len()];
        m.updated_at = now - chrono::Duration::hours((i % 7) as i64);
        m.expires_at = match i % 4 {
            0 => None,
            1 => Some(now - chrono::Duration::minutes(1)),
            2 => Some(now),
            _ => Some(now + chrono::Duration::days(1)),
        };
        writes.push(Write::InsertMemory(m));
    }
    writes.push(Write::InsertMemory(auto_memory("u2", "another user's")));
    store.apply(writes).await.unwrap();
    let asked: Vec<Scope> = ["domain:standard", "project:A"].map(|s| s.parse().unwrap()).into();
    let names: Vec<String> = ["global", "domain:standard", "project:A"].map(str::to_owned).into();
    for limit in [1, 5, 8, 100] {
        let expected: Vec<String> = dreamd::manage::select_for_recall(
            store.memories("u1").await.unwrap(),
            &asked,
            limit,
            now,
        )
        .into_iter()
        .map(|m| m.memory_id)
        .collect();
        let read: Vec<String> = store
            .recall_first("u1", &names, now, limit)
            .await
            .unwrap()
            .into_iter()
            .map(|m| m.memory_id)
            .collect();
        assert_eq!(read[..expected.len()], expected[..], "limit {limit}");
        assert!(read.len() == expected.len() || limit > dreamd::manage::MAX_RECALL_LIMIT);
    }
}

/// Recall chooses among the candidates the store reads in one JSON row:
/// every active memory of the user in the scopes asked for, with the same
/// evidence `evidence` reads row by row. Scopes, origins, statuses and
/// evidence (with erased quotes) vary together.
async fn the_store_reads_recall_s_candidates_with_their_evidence<S: RawSql>(store: &S) {
    let scopes = ["global", "domain:standard", "domain:recipe", "project:A", "project:B"];
    let statuses =
        [Status::Active, Status::Active, Status::Active, Status::Disabled, Status::Retired];
    let mut writes = Vec::new();
    for i in 0..60usize {
        let mut m = auto_memory("u1", &format!("memory {i} «\"quoted\"» \\ 记忆"));
        m.scope = scopes[i % scopes.len()].parse().unwrap();
        m.origin = if i % 3 == 0 { Origin::Explicit } else { Origin::Auto };
        m.status = statuses[(i / 2) % statuses.len()];
        m.expires_at = (i % 4 == 1).then(|| now() - chrono::Duration::minutes(1));
        let evidence: Vec<Slip> = (0..i % 3)
            .map(|n| {
                let mut s = slip(
                    "u1",
                    &format!("c{i}"),
                    &format!("quote {n} of {i}"),
                    SlipState::Consolidated,
                );
                if n == 1 {
                    (s.quote, s.state) = (None, SlipState::Erased);
                }
                s
            })
            .collect();
        writes.extend(evidence.iter().cloned().map(Write::InsertSlip));
        let slip_ids = evidence.iter().map(|s| s.slip_id.clone()).collect();
        writes.push(Write::InsertMemory(m.clone()));
        writes.push(Write::AddEvidence { memory_id: m.memory_id, slip_ids });
    }
    writes.push(Write::InsertMemory(auto_memory("u2", "another user's")));
    store.apply(writes).await.unwrap();
    let names: Vec<String> = ["global", "domain:standard", "project:A"].map(str::to_owned).into();
    let mut expected: Vec<Memory> = store
        .memories("u1")
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.status == Status::Active && names.contains(&m.scope.as_str().to_owned()))
        .collect();
    expected.sort_by(|a, b| a.memory_id.cmp(&b.memory_id));
    let mut read: Vec<_> = store.recall_candidates("u1", &names).await.unwrap().to_vec();
    read.sort_by(|a, b| a.memory.memory_id.cmp(&b.memory.memory_id));
    assert_eq!(read.len(), expected.len());
    assert!(read.iter().any(|c| c.evidence.iter().any(|e| e.quote.is_none())), "erased kept");
    for (candidate, memory) in read.iter().zip(&expected) {
        assert_eq!(&candidate.memory, memory);
        let evidence: Vec<_> = store
            .evidence(std::slice::from_ref(&memory.memory_id))
            .await
            .unwrap()
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        assert_eq!(candidate.evidence, evidence, "{}", memory.memory_id);
    }
}
