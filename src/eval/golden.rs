//! The golden-set format of spec §12 (`eval/README.md` describes it in full):
//! one case per line, read and checked whole before anything runs, so a
//! mistake in case 300 is reported at once, naming its line and field.

use crate::domain::{Kind, NewMessage, Origin, Scope, Time, truncate_time};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;

/// One case of a golden set: what a user said, and what dreamd should make of it.
#[derive(Debug, Clone)]
pub struct GoldenCase {
    /// The 1-based line of the golden file it was read from.
    pub line: usize,
    pub case_id: String,
    /// The language the user writes in (`zh`, `en`, …); figures are also given per language.
    pub lang: String,
    pub tags: Vec<String>,
    /// One run at each of these times, increasing.
    pub now: Vec<Time>,
    /// The one user every message of the case belongs to.
    pub user_id: String,
    pub explicit: Vec<ExplicitMemory>,
    /// The case's messages as ingest lines (spec §8.1), ready for `ingest`.
    pub ingest_lines: Vec<String>,
    /// The same messages, validated, to check quotes against.
    pub messages: Vec<NewMessage>,
    pub expect: Expect,
    pub recall: Vec<RecallCheck>,
}

impl GoldenCase {
    /// The time of the last run, when the final state is read.
    pub fn last_now(&self) -> Time {
        *self.now.last().expect("parse refuses a case without a run time")
    }

    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }
}

/// A memory a person set before the case's messages arrived.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplicitMemory {
    pub kind: Kind,
    pub scope: Scope,
    pub text: String,
    /// When it was set; the case's first run time when absent.
    #[serde(default)]
    pub at: Option<Time>,
}

/// What a good extractor and consolidator leave behind.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default)]
    pub slips: Vec<ExpectedSlip>,
    #[serde(default)]
    pub memories: Vec<ExpectedMemory>,
    #[serde(default)]
    pub suggestions: Vec<ExpectedSuggestion>,
    /// Texts that must be stored nowhere dreamd writes.
    #[serde(default)]
    pub absent: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedSlip {
    pub kind: Kind,
    pub scope: Scope,
    /// A verbatim fragment of the user's message that any fair quote of the statement holds.
    pub quote_contains: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedMemory {
    pub kind: Kind,
    pub scope: Scope,
    /// Alternatives (Chinese and English renderings): one must occur in the content, case-insensitively.
    pub content_contains: Vec<String>,
    pub origin: Origin,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedSuggestion {
    pub kind: Kind,
    pub scope: Scope,
}

/// What `recall` should return after the runs (spec §10.25).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecallCheck {
    pub scopes: Vec<Scope>,
    /// The user's request as the agent received it.
    pub query: String,
    /// Alternatives: the check hits when one returned memory contains one of them.
    pub expect_memory_contains: Vec<String>,
}

/// A case as written, before the checks that types alone cannot make.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    case_id: String,
    lang: String,
    #[serde(default)]
    tags: Vec<String>,
    now: OneOrMany,
    #[serde(default)]
    explicit: Vec<ExplicitMemory>,
    messages: Vec<serde_json::Value>,
    expect: Expect,
    #[serde(default)]
    recall: Vec<RecallCheck>,
}

/// `now` is one time or a list of increasing times.
#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(Time),
    Many(Vec<Time>),
}

/// What is wrong with one line of a golden file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoldenError {
    pub line: usize,
    pub case_id: Option<String>,
    pub problem: String,
}

impl fmt::Display for GoldenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.case_id {
            Some(id) => write!(f, "line {} ({id}): {}", self.line, self.problem),
            None => write!(f, "line {}: {}", self.line, self.problem),
        }
    }
}

/// Reads a whole golden set; every bad line is reported, not only the first.
pub fn parse(text: &str) -> Result<Vec<GoldenCase>, Vec<GoldenError>> {
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_case(line, index + 1) {
            Ok(case) if !seen.insert(case.case_id.clone()) => errors.push(GoldenError {
                line: case.line,
                case_id: Some(case.case_id),
                problem: "case_id is used by an earlier case".into(),
            }),
            Ok(case) => cases.push(case),
            Err(e) => errors.push(e),
        }
    }
    if cases.is_empty() && errors.is_empty() {
        errors.push(GoldenError {
            line: 0,
            case_id: None,
            problem: "the golden set holds no case".into(),
        });
    }
    if errors.is_empty() { Ok(cases) } else { Err(errors) }
}

/// Reads and checks one line.
fn parse_case(line: &str, line_no: usize) -> Result<GoldenCase, GoldenError> {
    let mut deserializer = serde_json::Deserializer::from_str(line);
    let raw: RawCase = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let problem = if path == "." || path.is_empty() {
            inner.to_string()
        } else {
            format!("{path}: {inner}")
        };
        GoldenError { line: line_no, case_id: case_id_of(line), problem }
    })?;
    let case_id = raw.case_id.clone();
    check_case(raw, line_no).map_err(|problem| GoldenError {
        line: line_no,
        case_id: Some(case_id),
        problem,
    })
}

/// The case id of a line that failed to read, to name it in the error when it has one.
fn case_id_of(line: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    value.get("case_id")?.as_str().map(str::to_owned)
}

/// The checks types cannot make: ids, times, one user, messages as ingest takes them.
fn check_case(raw: RawCase, line: usize) -> Result<GoldenCase, String> {
    if raw.case_id.trim().is_empty() {
        return Err("case_id: must not be empty".into());
    }
    if raw.lang.trim().is_empty() {
        return Err("lang: must not be empty".into());
    }
    let now: Vec<Time> = match raw.now {
        OneOrMany::One(t) => vec![t],
        OneOrMany::Many(ts) => ts,
    }
    .into_iter()
    .map(truncate_time)
    .collect();
    if now.is_empty() {
        return Err("now: must hold at least one time".into());
    }
    if now.windows(2).any(|w| w[1] <= w[0]) {
        return Err("now: the run times must increase".into());
    }
    let (ingest_lines, messages) = check_messages(&raw.messages)?;
    let user_id = one_user(&messages, &raw.case_id)?;
    check_expectations(&raw.expect, &raw.recall)?;
    let explicit = raw
        .explicit
        .into_iter()
        .map(|mut e| {
            e.at = e.at.map(truncate_time);
            e
        })
        .collect();
    Ok(GoldenCase {
        line,
        case_id: raw.case_id,
        lang: raw.lang,
        tags: raw.tags,
        now,
        user_id,
        explicit,
        ingest_lines,
        messages,
        expect: raw.expect,
        recall: raw.recall,
    })
}

/// Each message as an ingest line, checked the way `ingest` checks it.
fn check_messages(
    messages: &[serde_json::Value],
) -> Result<(Vec<String>, Vec<NewMessage>), String> {
    let mut lines = Vec::with_capacity(messages.len());
    let mut parsed = Vec::with_capacity(messages.len());
    for (i, value) in messages.iter().enumerate() {
        let line = value.to_string();
        let message = crate::ingest::parse_line(&line, i + 1)
            .map_err(|reason| format!("messages[{i}]: {reason}"))?;
        lines.push(line);
        parsed.push(message);
    }
    Ok((lines, parsed))
}

/// The case's user: every message must have the same one (`u-<case_id>` when there are none).
fn one_user(messages: &[NewMessage], case_id: &str) -> Result<String, String> {
    let Some(first) = messages.first() else {
        return Ok(format!("u-{case_id}"));
    };
    match messages.iter().position(|m| m.user_id != first.user_id) {
        Some(i) => Err(format!(
            "messages[{i}]: user_id '{}' differs from the case's user '{}'; a case has one user",
            messages[i].user_id, first.user_id
        )),
        None => Ok(first.user_id.clone()),
    }
}

fn check_expectations(expect: &Expect, recall: &[RecallCheck]) -> Result<(), String> {
    if let Some(i) = expect.slips.iter().position(|s| s.quote_contains.trim().is_empty()) {
        return Err(format!("expect.slips[{i}].quote_contains: must not be empty"));
    }
    if let Some(i) = expect.memories.iter().position(|m| !has_alternative(&m.content_contains)) {
        return Err(format!(
            "expect.memories[{i}].content_contains: needs at least one non-empty text"
        ));
    }
    if let Some(i) = expect.absent.iter().position(|a| a.trim().is_empty()) {
        return Err(format!("expect.absent[{i}]: must not be empty"));
    }
    if let Some(i) = recall.iter().position(|r| !has_alternative(&r.expect_memory_contains)) {
        return Err(format!(
            "recall[{i}].expect_memory_contains: needs at least one non-empty text"
        ));
    }
    Ok(())
}

fn has_alternative(alternatives: &[String]) -> bool {
    alternatives.iter().any(|a| !a.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"case_id": "zh-a", "lang": "zh", "tags": ["presentation"], "now": "2026-11-29T12:00:00Z", "explicit": [{"kind": "presentation", "scope": "global", "text": "回答要详细"}], "messages": [{"user_id": "u-zh-a", "conversation_id": "c1", "message_id": "m1", "role": "user", "content": "以后先说结果。", "created_at": "2026-11-24T01:24:00Z", "scopes": ["domain:report"]}], "expect": {"slips": [{"kind": "presentation", "scope": "domain:report", "quote_contains": "先说结果"}], "memories": [], "suggestions": [], "absent": []}, "recall": [{"scopes": ["domain:report"], "query": "报告", "expect_memory_contains": ["详细"]}]}"#;

    fn error_of(text: &str) -> String {
        let errors = parse(text).expect_err("the set is refused");
        errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn a_good_case_is_read_whole() {
        let cases = parse(&format!("\n{GOOD}\n")).unwrap();
        let case = &cases[0];
        assert_eq!(case.line, 2);
        assert_eq!(case.user_id, "u-zh-a");
        assert_eq!(case.now.len(), 1);
        assert_eq!(case.messages[0].content, "以后先说结果。");
        assert_eq!(case.expect.slips[0].kind, Kind::Presentation);
        assert_eq!(case.recall[0].scopes[0].as_str(), "domain:report");
        assert!(case.explicit[0].at.is_none());
    }

    #[test]
    fn a_wrong_field_is_named_with_its_line_and_path() {
        let bad = GOOD.replace("zh-a", "zh-b").replace(
            r#""kind": "presentation", "scope": "domain:report", "quote_contains""#,
            r#""kind": "presentatoin", "scope": "domain:report", "quote_contains""#,
        );
        let message = error_of(&format!("{GOOD}\n{bad}"));
        assert!(
            message
                .starts_with("line 2 (zh-b): expect.slips[0].kind: unknown variant `presentatoin`"),
            "{message}"
        );
    }

    #[test]
    fn broken_json_missing_fields_and_bad_messages_are_refused() {
        assert!(error_of("{not json").starts_with("line 1: "));
        let no_expect = GOOD.replace(r#""expect": {"#, r#""expected": {"#);
        assert!(error_of(&no_expect).contains("line 1 (zh-a)"), "{}", error_of(&no_expect));
        let bad_time =
            GOOD.replace(r#""created_at": "2026-11-24T01:24:00Z""#, r#""created_at": "yesterday""#);
        let message = error_of(&bad_time);
        assert!(message.contains("messages[0]: field 'created_at'"), "{message}");
        let bad_scope = GOOD.replace(r#""scope": "global""#, r#""scope": "everywhere""#);
        assert!(error_of(&bad_scope).contains("explicit[0].scope"), "{}", error_of(&bad_scope));
    }

    #[test]
    fn duplicate_ids_decreasing_times_and_two_users_are_refused() {
        assert!(error_of(&format!("{GOOD}\n{GOOD}")).contains("line 2 (zh-a): case_id is used"));
        let times = GOOD.replace(
            r#""now": "2026-11-29T12:00:00Z""#,
            r#""now": ["2026-11-29T12:00:00Z", "2026-11-20T12:00:00Z"]"#,
        );
        assert!(error_of(&times).contains("now: the run times must increase"));
        let two_users = GOOD.replace(
            r#"[{"user_id": "u-zh-a""#,
            r#"[{"user_id": "u-other", "conversation_id": "c9", "role": "user", "content": "x", "created_at": "2026-11-24T01:24:00Z"}, {"user_id": "u-zh-a""#,
        );
        assert!(error_of(&two_users).contains("messages[1]: user_id 'u-zh-a' differs"));
        assert!(error_of("\n\n").contains("no case"));
    }
}
