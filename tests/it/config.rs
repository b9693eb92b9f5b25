//! Configuration layers and their error messages (spec §9, §10.3).

use crate::helpers::Dreamd;

#[test]
fn config_prints_the_effective_values_with_secrets_masked() {
    let d = Dreamd::sqlite()
        .env("DREAMD_DATABASE__URL", "postgres://dreamd:s3cret@db.internal/dreamd")
        .env("DREAMD_LLM__MODEL", "qwen2.5-7b-instruct")
        .env("DREAMD_LLM__BASE_URL", "https://user:basicpw@api.example.com/v1?key=querysecret")
        .env("OPENAI_API_KEY", "sk-should-never-print-1234567890");
    let json = d.run(&["config", "--format", "json"]).json();
    assert_eq!(json["database"]["url"], "postgres://dreamd:****@db.internal/dreamd");
    assert_eq!(json["llm"]["base_url"], "https://user:****@api.example.com/v1?key=****");
    assert_eq!(json["llm"]["model"], "qwen2.5-7b-instruct");
    assert_eq!(json["selection"]["idle_hours"], 6);
    assert_eq!(json["policy"]["kinds"]["presentation"]["min_evidence"], 2);
    let text = d.run(&["config"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("API key: read from $OPENAI_API_KEY (set)"), "{}", text.stdout);
    assert!(text.stdout.contains("[policy.kinds.recent_focus]"));
    for out in [&text.stdout, &text.stderr] {
        for secret in ["s3cret", "sk-should-never-print", "basicpw", "querysecret"] {
            assert!(!out.contains(secret), "{secret} printed: {out}");
        }
    }
}

#[test]
fn a_file_overrides_defaults_and_env_overrides_the_file() {
    let d = Dreamd::sqlite();
    std::fs::write(d.path("dreamd.toml"), "[selection]\nidle_hours = 2\nlookback_days = 3\n")
        .unwrap();
    let d = d.env("DREAMD_SELECTION__LOOKBACK_DAYS", "5");
    let json = d.run(&["--config", "dreamd.toml", "config", "--format", "json"]).json();
    assert_eq!(
        (json["selection"]["idle_hours"].as_i64(), json["selection"]["lookback_days"].as_i64()),
        (Some(2), Some(5))
    );
    let via_env = d.env("DREAMD_CONFIG", "dreamd.toml");
    assert_eq!(via_env.run(&["config", "--format", "json"]).json()["selection"]["idle_hours"], 2);
}

fn config_error(d: &Dreamd, args: &[&str]) -> String {
    let run = d.run(args);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    run.stderr
}

#[test]
fn unknown_keys_and_bad_values_name_the_key_and_the_source() {
    let d = Dreamd::sqlite();
    std::fs::write(d.path("typo.toml"), "[llm]\nmodle = \"x\"\n").unwrap();
    let err = config_error(&d, &["--config", "typo.toml", "config"]);
    assert!(err.contains("llm.modle: unknown key") && err.contains("typo.toml"), "{err}");

    std::fs::write(d.path("bad.toml"), "[selection]\nidle_hours = \"six\"\n").unwrap();
    let err = config_error(&d, &["--config", "bad.toml", "config"]);
    assert!(err.contains("selection.idle_hours") && err.contains("bad.toml"), "{err}");

    let err = config_error(&d.env("DREAMD_LLM__COLOUR", "blue"), &["config"]);
    assert!(err.contains("llm.colour: unknown key") && err.contains("DREAMD_LLM__COLOUR"), "{err}");

    let d = Dreamd::sqlite().env("DREAMD_LLM__CONCURRENCY", "0");
    let err = config_error(&d, &["config"]);
    assert!(
        err.contains("llm.concurrency: must be at least 1")
            && err.contains("DREAMD_LLM__CONCURRENCY"),
        "{err}"
    );

    for cron in ["*/15 * * * *", "0 61 * * * *"] {
        let d = Dreamd::sqlite().env("DREAMD_SCHEDULE__CRON", cron);
        let err = config_error(&d, &["config"]);
        assert!(
            err.contains("schedule.cron")
                && err.contains("not a valid schedule")
                && err.contains("DREAMD_SCHEDULE__CRON"),
            "{err}"
        );
    }

    let d = Dreamd::sqlite().env("DREAMD_LOG__LEVEL", "warning");
    let err = config_error(&d, &["config", "--check"]);
    assert!(
        err.contains("log.level: 'warning' is neither a level")
            && err.contains("DREAMD_LOG__LEVEL"),
        "{err}"
    );

    let d = Dreamd::sqlite().env("DREAMD_LLM__PROVIDER", "anthropic");
    assert!(config_error(&d, &["config"]).contains("DREAMD_LLM__PROVIDER"));

    let err = config_error(&Dreamd::sqlite(), &["--config", "missing.toml", "config"]);
    assert!(err.contains("missing.toml does not exist"), "{err}");

    // A syntax error names the file, line and column on one line, and never
    // quotes the line (ops round 4, L1: it printed `api_key = sk-…`).
    let d = Dreamd::sqlite();
    std::fs::write(d.path("syntax.toml"), "[llm]\napi_key = sk-live-4f9a2c\n").unwrap();
    let err = config_error(&d, &["--config", "syntax.toml", "config", "--check"]);
    assert!(
        err.contains("file syntax.toml: TOML parse error at line 2, column 11: ")
            && err.contains("invalid string"),
        "{err}"
    );
    assert!(!err.contains("sk-live") && !err.contains(": :"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn a_config_file_that_cannot_be_read_is_named_and_exits_1() {
    // The tests may run as root, whom no file mode stops: the kernel's own
    // /proc/self/mem is a regular file whose first byte cannot be read.
    let run = Dreamd::sqlite().run(&["--config", "/proc/self/mem", "config"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("reading config file /proc/self/mem: "), "{}", run.stderr);
    assert!(run.stdout.is_empty());

    let d = Dreamd::sqlite();
    std::fs::write(d.path("latin1.toml"), b"[llm]\nmodel = \"caf\xe9\"\n").unwrap();
    let err = config_error(&d, &["--config", "latin1.toml", "config"]);
    assert!(err.contains("config file latin1.toml is not UTF-8 text"), "{err}");
}

#[test]
fn the_api_key_variable_and_other_dreamd_variables_are_not_config_keys() {
    let d = Dreamd::sqlite()
        .env("DREAMD_LLM__API_KEY_ENV", "DREAMD_SECRET__KEY")
        .env("DREAMD_SECRET__KEY", "sk-abcdefghijklmnopqrstu")
        .env("DREAMD_TEST_POSTGRES_URL", "postgres://ignored");
    let run = d.run(&["config", "--format", "json"]);
    assert_eq!(run.json()["llm"]["api_key_env"], "DREAMD_SECRET__KEY");
    assert!(!run.stdout.contains("sk-abcdefghijklmnopqrstu"));
}
