//! The command line end to end, as a user or a script runs it.

use crate::helpers::{Dreamd, NOW, examples, line, set_memory};

/// The README's walk-through on one database: ingest the examples, manage memories, recall.
fn walk_through(d: &Dreamd) {
    let path = examples().to_str().unwrap();
    let summary = d.json(&["ingest", path]);
    assert_eq!(
        summary,
        serde_json::json!({"lines": 48, "messages_new": 48, "duplicates": 0, "conversations": 15, "users": 3})
    );
    assert_eq!(d.json(&["ingest", path])["duplicates"], 48);

    let card = d.json(&set_memory(
        "jay",
        "presentation",
        "domain:standard",
        "读标准时按流程卡整理，每步列出操作、温度、时间、判断条件和条款号",
    ));
    let id = card["memory_id"].as_str().unwrap().to_owned();
    assert_eq!(card["origin"], "explicit");
    assert_eq!(card["status"], "active");
    assert_eq!(card["version"], 1);
    assert_eq!(card["created_at"], NOW);
    assert!(card["expires_at"].is_null());
    d.json(&set_memory("jay", "query_default", "domain:recipe", "生命周期默认查基本属性"));
    d.json(&set_memory("jay", "presentation", "global", "结果先行，再给依据"));

    let recall = d.json(&["recall", "--user", "jay", "--scope", "domain:standard"]);
    let scopes: Vec<&str> =
        recall.as_array().unwrap().iter().map(|m| m["scope"].as_str().unwrap()).collect();
    assert_eq!(scopes, ["domain:standard", "global"], "recipe habits stay out of standards");
    for field in [
        "memory_id",
        "kind",
        "scope",
        "origin",
        "content",
        "expires_at",
        "evidence",
        "source_conversation_ids",
    ] {
        assert!(recall[0].get(field).is_some(), "recall lacks {field}");
    }

    assert_eq!(d.json(&["memories", "disable", &id])["status"], "disabled");
    assert_eq!(d.json(&["memories", "list", "--user", "jay"]).as_array().unwrap().len(), 2);
    assert_eq!(d.json(&["memories", "enable", &id])["version"], 3);
    let deleted = d.json(&["memories", "delete", &id]);
    assert!(deleted["content"].is_null());
    assert_eq!(deleted["status"], "deleted");
    let history = d.json(&["memories", "history", &id]);
    let actions: Vec<&str> =
        history.as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["create", "disable", "enable", "delete"]);
    assert!(
        history
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["after"]["content"].is_null() && e["actor"] == "user")
    );
    let all = d.json(&["memories", "list", "--user", "jay", "--all"]);
    assert_eq!(all.as_array().unwrap().len(), 3);
    assert!(
        all.as_array()
            .unwrap()
            .iter()
            .any(|m| m["memory_id"] == id.as_str() && m["content"].is_null())
    );
    assert_eq!(d.json(&["memories", "show", &id])["status"], "deleted");

    let text = d.run(&["memories", "list", "--user", "jay"]);
    assert_eq!(text.code, 0);
    assert!(
        text.stdout.contains("生命周期默认查基本属性") && text.stdout.contains("query_default")
    );
    assert_eq!(d.json(&["suggestions", "list", "--user", "jay"]), serde_json::json!([]));
    assert_eq!(d.json(&["slips", "list", "--user", "jay"]), serde_json::json!([]));
}

#[test]
fn walk_through_on_the_embedded_default() {
    let d = Dreamd::sqlite();
    walk_through(&d);
    assert!(d.path("dreamd.db").is_file(), "the default database is a file created on first use");
}

#[tokio::test]
async fn walk_through_on_postgres() {
    let Some(d) = Dreamd::postgres().await else {
        return;
    };
    walk_through(&d);
}

#[test]
fn usage_and_input_errors_exit_2_with_a_reason_and_empty_stdout() {
    let d = Dreamd::sqlite();
    let cases: [(&[&str], &str); 8] = [
        (&set_memory("u", "preference", "global", "x"), "'--kind <KIND>': not a valid kind"),
        (
            &set_memory("u", "presentation", "team:x", "x"),
            "invalid value for '--scope <SCOPE>': a scope must be 'global'",
        ),
        (
            &set_memory("u", "background", "global", "I have admin rights"),
            "permission or identity claim",
        ),
        (&["memories", "show", "nope"], "memory 'nope' not found"),
        (&["recall", "--user", "u", "--limit", "0"], "--limit must be at least 1"),
        (&["--now", "yesterday", "recall", "--user", "u"], "not an RFC 3339 time"),
        (&["--run-once", "memories", "list", "--user", "u"], "--run-once takes no command"),
        (&["--dry-run", "status"], "--run-once"),
    ];
    for (args, expected) in cases {
        let run = d.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: stdout {}", run.stdout);
    }
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    let d = Dreamd::sqlite();
    d.json(&set_memory("jay", "presentation", "global", "结果先行"));
    let commands: [&[&str]; 4] = [
        &["--format", "json", "memories", "list", "--user", "jay"],
        &["memories", "list", "--user", "jay"],
        &["recall", "--user", "jay"],
        &["config"],
    ];
    for args in commands {
        let run = d.run_with_closed_stdout(args);
        assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{args:?}");
    }
}

#[test]
fn ids_are_checked_as_ingest_checks_them_everywhere() {
    let d = Dreamd::sqlite();
    let long = "u".repeat(5000);
    let set = |user: &str| -> Vec<String> {
        ["memories", "set", "--user", user, "--kind", "background", "--scope", "global", "x"]
            .map(String::from)
            .to_vec()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (set(""), "user id must not be empty"),
        (set(&long), "user id is longer than 256 characters"),
        (set("jay\nemma"), "user id must not contain control characters"),
        (vec!["recall".into(), "--user".into(), " ".into()], "user id must not be empty"),
        (vec!["memories".into(), "list".into(), "--user".into(), long.clone()], "longer than 256"),
        (
            vec!["suggestions".into(), "list".into(), "--user".into(), "".into()],
            "must not be empty",
        ),
        (vec!["users".into(), "purge".into(), "a\tb".into()], "control characters"),
        (
            ["loads", "list", "--user", "jay", "--conversation", ""].map(String::from).to_vec(),
            "conversation id must not be empty",
        ),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = d.run(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: stdout {}", run.stdout);
    }
    let ingest = d.run_with_stdin(
        &["ingest", "-"],
        &line("jay\nemma", "c", "m", "user", "hi", "2026-11-20T09:00:00Z"),
    );
    assert_eq!(ingest.code, 2, "{}", ingest.stderr);
    assert!(
        ingest.stderr.contains("field 'user_id' must not contain control"),
        "{}",
        ingest.stderr
    );
}

#[test]
fn a_memory_past_its_expiry_shows_as_expired_before_any_run() {
    let d = Dreamd::sqlite();
    let at = |now: &str, args: &[&str]| {
        d.run(&[args, &["--format", "json", "--now", now]].concat()).json()
    };
    let set = at(
        "2026-11-10T00:00:00Z",
        &["memories", "set", "--user", "jay", "--kind", "recent_focus", "--scope", "global"]
            .into_iter()
            .chain(["--expires-at", "2026-11-20T00:00:00Z", "在做燕麦饮的中试"])
            .collect::<Vec<_>>(),
    );
    let id = set["memory_id"].as_str().unwrap();
    assert_eq!(set["status"], "active");
    let later = "2026-11-25T00:00:00Z";
    let shown = at(later, &["memories", "show", id]);
    assert_eq!(shown["status"], "expired", "{shown}");
    let all = at(later, &["memories", "list", "--user", "jay", "--all"]);
    assert_eq!(all[0]["status"], "expired", "{all}");
}

#[test]
fn recall_records_no_load_in_another_users_conversation() {
    let d = Dreamd::sqlite();
    d.json(&["ingest", examples().to_str().unwrap()]);
    let run = d.run(&["recall", "--user", "jay", "--conversation", "emma-1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("the conversation belongs to another user"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(d.json(&["loads", "list", "--user", "jay"]), serde_json::json!([]));
    for own_or_new in ["jay-dept", "not-ingested-yet"] {
        let loaded = d.json(&["recall", "--user", "jay", "--conversation", own_or_new]);
        assert!(loaded["load_id"].is_string(), "{own_or_new}: {loaded}");
    }
}

#[test]
fn a_bad_file_names_every_bad_line_and_writes_nothing() {
    let d = Dreamd::sqlite();
    let input = [
        line("u1", "c1", "m1", "user", "ok", "2026-11-20T09:00:00Z"),
        line("u1", "c1", "m2", "robot", "x", "2026-11-20T09:00:00Z"),
        "not json".to_owned(),
        line("u1", "c1", "m3", "user", "ok", "20/11/2026"),
    ]
    .join("\n");
    std::fs::write(d.path("bad.jsonl"), &input).unwrap();
    let run = d.run(&["ingest", "bad.jsonl"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    for expected in [
        "3 invalid line(s), nothing was written",
        "line 2: field 'role'",
        "line 3: not valid JSON",
        "line 4: field 'created_at'",
    ] {
        assert!(run.stderr.contains(expected), "missing {expected:?} in {}", run.stderr);
    }
    let good =
        d.run_with_stdin(&["ingest", "-", "--format", "json"], input.lines().next().unwrap());
    assert_eq!(good.json()["messages_new"], 1, "nothing of the bad file was written before");
    let missing = d.run(&["ingest", "missing.jsonl"]);
    assert_eq!(missing.code, 1);
    assert!(missing.stderr.contains("opening missing.jsonl"), "{}", missing.stderr);
}

#[test]
fn an_unreachable_database_exits_1() {
    let d = Dreamd::sqlite()
        .env("DREAMD_DATABASE__URL", "postgres://dreamd:hunter2@127.0.0.1:1/dreamd");
    let run = d.run(&["memories", "list", "--user", "u"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("postgres://dreamd:****@127.0.0.1:1/dreamd"), "{}", run.stderr);
    assert!(!run.stderr.contains("hunter2"));
    // The cause, not the pool's "timed out" (ops round 4, L2).
    assert!(run.stderr.contains("Connection refused"), "{}", run.stderr);
}

#[test]
fn a_sqlite_file_in_a_missing_directory_is_reported() {
    let d = Dreamd::sqlite().env("DREAMD_DATABASE__URL", "sqlite://no/such/dir/dreamd.db");
    let run = d.run(&["memories", "list", "--user", "u"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("no/such/dir/dreamd.db"), "{}", run.stderr);
}

#[test]
fn an_absolute_sqlite_path_works() {
    let d = Dreamd::sqlite();
    let absolute = format!("sqlite://{}", d.path("abs.db").display());
    let d = d.env("DREAMD_DATABASE__URL", &absolute);
    d.json(&set_memory("u", "background", "global", "I lead the dairy R&D team"));
    assert!(d.path("abs.db").is_file());
}

#[test]
fn loads_edits_sources_and_purge_from_the_command_line() {
    let d = Dreamd::sqlite();
    d.json(&["ingest", examples().to_str().unwrap()]);
    let set = d.json(&[
        "memories",
        "set",
        "--user",
        "jay",
        "--kind",
        "presentation",
        "--scope",
        "domain:standard",
        "--conversation",
        "jay-standard-1",
        "--message",
        "jay-standard-1-3",
        "标准按流程卡整理",
    ]);
    let id = set["memory_id"].as_str().unwrap().to_owned();
    assert_eq!(set["source_conversation_ids"], serde_json::json!(["jay-standard-1"]));
    let loaded = d.json(&[
        "recall",
        "--user",
        "jay",
        "--scope",
        "domain:standard",
        "--conversation",
        "new-chat",
    ]);
    assert_eq!(loaded["memories"][0]["memory_id"], id.as_str());
    let loads = d.json(&["loads", "list", "--user", "jay"]);
    assert_eq!(loads[0]["load_id"], loaded["load_id"]);
    assert_eq!(loads[0]["memories"], serde_json::json!([{"memory_id": id, "version": 1}]));
    assert_eq!(d.json(&["memories", "show", &id])["loaded_in"], serde_json::json!(["new-chat"]));
    let edited = d.json(&["memories", "edit", &id, "标准按流程卡整理，列出条款号"]);
    assert_eq!(
        (edited["version"].as_i64(), edited["content"].as_str()),
        (Some(2), Some("标准按流程卡整理，列出条款号"))
    );
    let purged = d.json(&["users", "purge", "jay"]);
    assert!(purged["removed"]["messages"].as_u64().unwrap() > 0);
    assert_eq!(d.json(&["memories", "list", "--user", "jay", "--all"]), serde_json::json!([]));
    assert_eq!(d.json(&["loads", "list", "--user", "jay"]), serde_json::json!([]));
    assert_eq!(
        d.json(&["memories", "list", "--user", "emma", "--all"]),
        serde_json::json!([]),
        "emma had none yet"
    );
    assert_eq!(
        d.json(&["ingest", examples().to_str().unwrap()])["messages_new"],
        purged["removed"]["messages"],
        "only jay's messages were removed"
    );
}

#[test]
fn detect_names_the_category_never_the_text() {
    let d = Dreamd::sqlite();
    let one = d.run(&["detect", "call me on １３８—１２３４—５６７８"]);
    assert_eq!((one.code, one.stdout.as_str()), (0, "phone\n"), "{}", one.stderr);
    let fine = d.run(&["detect", "以后报告先说结果"]);
    assert_eq!(fine.stdout, "ok\n");
    let lines = d.run_with_stdin(
        &["detect", "-", "--format", "json"],
        "我的角色是配方工程师\n密码是 Abc@123\nI am the system administrator\n",
    );
    assert_eq!(lines.code, 0, "{}", lines.stderr);
    let found: serde_json::Value = serde_json::from_str(&lines.stdout).unwrap();
    let categories: Vec<&serde_json::Value> =
        found.as_array().unwrap().iter().map(|d| &d["category"]).collect();
    assert_eq!(
        categories,
        [
            &serde_json::Value::Null,
            &serde_json::json!("password"),
            &serde_json::json!("permission_claim")
        ]
    );
    assert!(!lines.stdout.contains("Abc@123") && !lines.stdout.contains("administrator"));
    assert!(!d.path("dreamd.db").exists(), "detect needs no database");
}

#[test]
fn operator_patterns_refuse_their_texts_everywhere() {
    let d = Dreamd::sqlite();
    std::fs::write(
        d.path("dreamd.toml"),
        "[never_store]\nextra = [{ name = \"customer\", pattern = \"(?i)globex\" }]\n",
    )
    .unwrap();
    let config = d.path("dreamd.toml");
    let config = config.to_str().unwrap();
    let refused = d.run(&[
        "--config",
        config,
        "memories",
        "set",
        "--user",
        "jay",
        "--kind",
        "background",
        "--scope",
        "global",
        "负责 Globex 的酸奶项目",
    ]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("customer"), "{}", refused.stderr);
    assert!(!refused.stderr.contains("Globex") && refused.stdout.is_empty());
    let detect = d.run(&["--config", config, "detect", "GLOBEX 的报告"]);
    assert_eq!(detect.stdout, "customer\n");
    let bad = d.run_with_stdin(&["--config", config, "detect"], "");
    assert_eq!(bad.code, 0);
}

#[test]
fn scope_names_pass_the_never_store_detectors_wherever_they_arrive() {
    let d = Dreamd::sqlite();
    let set = d.run(&set_memory("jay", "recent_focus", "project:13800138000", "跟进新配方"));
    assert_eq!(set.code, 2, "{}", set.stderr);
    assert!(
        set.stderr.contains("the scope name") && set.stderr.contains("phone"),
        "{}",
        set.stderr
    );
    assert!(!set.stderr.contains("13800138000") && set.stdout.is_empty());
    for malformed in ["project:13800138000 x", "sk-proj-abcdefghijklmnopqrstuvwxyz123456"] {
        let run = d.run(&set_memory("jay", "recent_focus", malformed, "跟进新配方"));
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("invalid value for '--scope <SCOPE>'"), "{}", run.stderr);
        assert!(!run.stderr.contains(&malformed[8..]), "never repeated: {}", run.stderr);
    }
    let line = |scope: &str| {
        format!(
            r#"{{"user_id":"jay","conversation_id":"c1","message_id":"m1","role":"user","content":"以后先说结果","created_at":"2026-11-28T09:00:00Z","scopes":["{scope}"]}}"#
        ) + "\n"
    };
    let key = "sk-proj-abcdefghijklmnopqrstuvwxyz123456";
    let refused = d.run_with_stdin(&["ingest", "-"], &line(&format!("project:{key}")));
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("line 1") && refused.stderr.contains("scopes[0]"),
        "{}",
        refused.stderr
    );
    assert!(!refused.stderr.contains(key), "{}", refused.stderr);
    let good = d.run_with_stdin(&["--format", "json", "ingest", "-"], &line("project:A")).json();
    assert_eq!(good["messages_new"], 1, "the refused input wrote nothing");
}

#[test]
fn refused_values_are_named_never_repeated() {
    let d = Dreamd::sqlite();
    let secret = "Hunter2!x9";
    let with_secret = |args: &[&str]| -> Vec<String> {
        args.iter().map(|a| a.replace("SECRET", secret)).collect()
    };
    let cases: [(&[&str], &str); 10] = [
        (
            &["memories", "set", "--user", "u", "--kind", "SECRET", "--scope", "global", "x"],
            "--kind",
        ),
        (
            &["memories", "set", "--user", "u", "--kind", "background", "--scope", "global"]
                .iter()
                .copied()
                .chain(["--expires-at", "SECRET", "x"])
                .collect::<Vec<_>>(),
            "--expires-at",
        ),
        (&["--now", "SECRET", "status"], "--now"),
        (&["--format", "SECRET", "status"], "--format"),
        (&["recall", "--user", "u", "--limit", "SECRET"], "--limit"),
        (
            &[
                "memories",
                "set",
                "--user",
                "u",
                "--kind",
                "background",
                "--scope",
                "global",
                "x",
                "SECRET",
            ],
            "unexpected argument",
        ),
        (&["--run-once=SECRET"], "--run-once"),
        (&["eval", "golden.jsonl", "--min-precision", "SECRET"], "--min-precision"),
        (&["SECRET"], "unrecognized subcommand"),
        (&["hunter2x9"], "unrecognized subcommand"),
    ];
    for (args, named) in cases {
        let args = with_secret(args);
        let run = d.run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(named), "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains(secret), "{args:?} repeated the value: {}", run.stderr);
        assert!(!run.stderr.contains("hunter2x9"), "{args:?} repeated the word: {}", run.stderr);
    }
    let line = format!(
        r#"{{"user_id":"u","conversation_id":"c","message_id":"m","role":"{secret}","content":"x","created_at":"{secret}"}}"#
    ) + "\n";
    let run = d.run_with_stdin(&["ingest", "-"], &line);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("field 'role'"), "{}", run.stderr);
    assert!(!run.stderr.contains(secret), "ingest repeated the value: {}", run.stderr);
}

#[test]
fn a_service_refused_at_start_says_so_in_its_log_format() {
    let d = Dreamd::sqlite().env("DREAMD_SCHEDULE__CRON", "every minute");
    let run = d.run(&["--format", "json", "serve"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let line: serde_json::Value = serde_json::from_str(run.stderr.trim())
        .unwrap_or_else(|e| panic!("not one JSON line ({e}): {}", run.stderr));
    assert_eq!(line["level"], "ERROR");
    assert!(line["message"].as_str().is_some_and(|m| m.contains("schedule.cron")), "{line}");
    let text = d.run(&["serve"]);
    assert!(text.stderr.starts_with("dreamd: invalid configuration"), "{}", text.stderr);
}

#[test]
fn terminology_and_query_defaults_cannot_be_learned_alone() {
    let d = Dreamd::sqlite().env("DREAMD_POLICY__KINDS__TERMINOLOGY__AUTO", "true");
    let run = d.run(&["status"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("policy.kinds.terminology.auto"), "{}", run.stderr);
}

#[test]
fn a_slow_ingest_does_not_hold_the_database_while_it_reads() {
    use std::io::Write;
    let d = Dreamd::sqlite();
    d.json(&["status"]);
    let mut ingest = d
        .command(&["ingest", "-", "--format", "json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = ingest.stdin.take().unwrap();
    writeln!(
        stdin,
        "{}",
        line("jay", "c1", "m1", "user", "在做燕麦饮项目", "2026-11-20T09:00:00Z")
    )
    .unwrap();
    stdin.flush().unwrap();
    let started = std::time::Instant::now();
    let set = d.run(&set_memory("jay", "background", "global", "质检部"));
    assert_eq!(set.code, 0, "{}", set.stderr);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "a write waited for the ingest still reading its input: {:?}",
        started.elapsed()
    );
    writeln!(stdin, "{}", line("jay", "c1", "m2", "user", "还在做", "2026-11-20T09:01:00Z"))
        .unwrap();
    drop(stdin);
    let output = ingest.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(d.json(&["slips", "list", "--user", "jay"]).as_array().map(Vec::len), Some(0));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((summary["lines"].as_u64(), summary["messages_new"].as_u64()), (Some(2), Some(2)));
}

/// The read-only commands work for someone who may read the database but
/// not write it (an operator's `status`, a support account's list), with no
/// log files beside it, as after a clean stop; writes fail saying why
/// (ops round 5, M3: they all failed with "attempt to write a readonly
/// database"). As root the reader is `nobody` (setpriv); otherwise the
/// directory and the file are made read-only.
#[tokio::test(flavor = "multi_thread")]
async fn a_reader_who_cannot_write_the_database_still_reads_it() {
    use std::os::unix::fs::PermissionsExt;
    let d = Dreamd::sqlite();
    let set = d.run(&set_memory("u1", "presentation", "global", "以后看报告都先说结论"));
    assert_eq!(set.code, 0, "{}", set.stderr);
    // Closed as the service closes it: checkpointed, the log files gone.
    dreamd::store::SqliteStore::open(&d.path("dreamd.db")).await.unwrap().close().await;
    for suffix in ["-wal", "-shm"] {
        assert!(!d.path(&format!("dreamd.db{suffix}")).exists(), "a clean stop leaves no {suffix}");
    }
    let root = running_as_root();
    let dir_mode = if root { 0o755 } else { 0o555 };
    std::fs::set_permissions(d.path("dreamd.db"), std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(d.path(""), std::fs::Permissions::from_mode(dir_mode)).unwrap();
    let as_reader = |args: &[&str]| {
        let command = d.command(args);
        let mut reader = if root {
            let mut r = std::process::Command::new("setpriv");
            r.args(["--reuid=65534", "--regid=65534", "--clear-groups"]).arg(command.get_program());
            r.args(command.get_args());
            r
        } else {
            std::process::Command::new(command.get_program())
        };
        if !root {
            reader.args(command.get_args());
        }
        reader.current_dir(d.path("")).env_clear();
        for (k, v) in command.get_envs() {
            if let Some(v) = v {
                reader.env(k, v);
            }
        }
        reader.output().unwrap()
    };
    let listed = as_reader(&["memories", "list", "--user", "u1"]);
    let said = String::from_utf8_lossy(&listed.stdout);
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    assert!(said.contains("以后看报告都先说结论"), "{said}");
    assert!(as_reader(&["status"]).status.success());
    let write = as_reader(&[
        "memories",
        "set",
        "--user",
        "u1",
        "--kind",
        "presentation",
        "--scope",
        "global",
        "tables",
    ]);
    assert_eq!(write.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&write.stderr).contains("readonly"), "{write:?}");
    std::fs::set_permissions(d.path(""), std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn running_as_root() -> bool {
    std::process::Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}
