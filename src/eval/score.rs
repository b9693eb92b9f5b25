//! Scoring one case (spec §12, `eval/README.md` "How a case runs and is
//! scored"): what was found against what was expected. Pure: it takes what
//! the runs left in the scratch database and never touches a store, so every
//! rule is unit-tested on hand-made states.

use crate::domain::{Kind, Origin, Scope};
use crate::eval::golden::{
    ExpectedMemory, ExpectedSlip, ExpectedSuggestion, GoldenCase, RecallCheck,
};
use crate::text;
use serde::Serialize;

/// A slip stage one kept, as read back after the runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FoundSlip {
    pub kind: Kind,
    pub scope: Scope,
    pub quote: String,
    pub content: String,
    pub conversation_id: String,
    pub message_id: String,
}

/// An active memory at the end of the case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FoundMemory {
    pub kind: Kind,
    pub scope: Scope,
    pub origin: Origin,
    pub content: String,
}

/// A pending suggestion at the end of the case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FoundSuggestion {
    pub kind: Kind,
    pub scope: Scope,
    pub op: String,
    pub content: Option<String>,
}

/// Everything read back from a case's scratch database after its runs.
#[derive(Debug, Clone, Default)]
pub struct Observed {
    /// Every slip the runs kept, whatever state it reached later.
    pub slips: Vec<FoundSlip>,
    pub memories: Vec<FoundMemory>,
    pub suggestions: Vec<FoundSuggestion>,
    /// Per explicit memory of the case, in its order: still there, unchanged.
    pub explicit_unchanged: Vec<bool>,
    /// Every text dreamd stored (slips, memories, suggestions, history), where leaks are looked for.
    pub stored_texts: Vec<String>,
    /// Per recall check, in its order: the contents `recall` returned.
    pub recalled: Vec<Vec<String>>,
    /// Conversations and users whose model call or store step failed in the runs.
    pub failures: u64,
}

/// A found item and whether it matched an expectation.
#[derive(Debug, Clone, Serialize)]
pub struct Judged<T> {
    #[serde(flatten)]
    pub item: T,
    pub matched: bool,
}

/// An expected item and whether something found matched it.
#[derive(Debug, Clone, Serialize)]
pub struct Met<T> {
    #[serde(flatten)]
    pub expected: T,
    pub found: bool,
}

/// A kept slip with the checks made on it.
#[derive(Debug, Clone, Serialize)]
pub struct SlipVerdict {
    #[serde(flatten)]
    pub slip: FoundSlip,
    pub matched: bool,
    /// False when its quote is not verbatim in its message (should never happen: stage one checks it).
    pub quote_in_message: bool,
    /// Kept although it is a one-off (a marker in its quote, or unexpected in a `one_off` case).
    pub one_off: bool,
}

/// One recall check and what it got.
#[derive(Debug, Clone, Serialize)]
pub struct RecallVerdict {
    #[serde(flatten)]
    pub check: RecallCheck,
    pub returned: Vec<String>,
    pub hit: bool,
}

/// The outcome of one case: every found and expected item judged, and the counters.
/// This is what `--out DIR` writes per case.
#[derive(Debug, Clone, Serialize)]
pub struct CaseResult {
    pub case_id: String,
    pub lang: String,
    pub tags: Vec<String>,
    pub slips: Vec<SlipVerdict>,
    pub expected_slips: Vec<Met<ExpectedSlip>>,
    pub memories: Vec<Judged<FoundMemory>>,
    pub expected_memories: Vec<Met<ExpectedMemory>>,
    pub suggestions: Vec<Judged<FoundSuggestion>>,
    pub expected_suggestions: Vec<Met<ExpectedSuggestion>>,
    /// The `absent` strings found in stored text.
    pub leaks: Vec<String>,
    /// The texts of explicit memories that did not come through unchanged.
    pub explicit_changed: Vec<String>,
    pub recall: Vec<RecallVerdict>,
    pub failures: u64,
}

impl CaseResult {
    pub fn invalid_quotes(&self) -> u64 {
        self.slips.iter().filter(|s| !s.quote_in_message).count() as u64
    }

    pub fn one_off_kept(&self) -> u64 {
        self.slips.iter().filter(|s| s.one_off).count() as u64
    }
}

/// Judges what a case's runs left against what the case expects.
pub fn score_case(case: &GoldenCase, observed: Observed) -> CaseResult {
    let Observed {
        slips,
        memories,
        suggestions,
        explicit_unchanged,
        stored_texts,
        recalled,
        failures,
    } = observed;
    let expected_slips = met(&case.expect.slips, |e| slips.iter().any(|s| slip_matches(s, e)));
    let slips = slips.into_iter().map(|slip| judge_slip(case, slip)).collect();
    let expected_memories =
        met(&case.expect.memories, |e| memories.iter().any(|m| memory_matches(m, e)));
    let memories = memories
        .into_iter()
        .map(|m| Judged {
            matched: case.expect.memories.iter().any(|e| memory_matches(&m, e)),
            item: m,
        })
        .collect();
    let (suggestions, expected_suggestions) =
        pair_suggestions(suggestions, &case.expect.suggestions);
    CaseResult {
        case_id: case.case_id.clone(),
        lang: case.lang.clone(),
        tags: case.tags.clone(),
        slips,
        expected_slips,
        memories,
        expected_memories,
        suggestions,
        expected_suggestions,
        leaks: leaks(&case.expect.absent, &stored_texts),
        explicit_changed: case
            .explicit
            .iter()
            .zip(explicit_unchanged.iter().chain(std::iter::repeat(&false)))
            .filter(|(_, unchanged)| !**unchanged)
            .map(|(e, _)| e.text.clone())
            .collect(),
        recall: case
            .recall
            .iter()
            .zip(recalled.into_iter().chain(std::iter::repeat_with(Vec::new)))
            .map(|(check, returned)| RecallVerdict {
                hit: recall_hits(check, &returned),
                check: check.clone(),
                returned,
            })
            .collect(),
        failures,
    }
}

fn met<T: Clone>(expected: &[T], found: impl Fn(&T) -> bool) -> Vec<Met<T>> {
    expected.iter().map(|e| Met { found: found(e), expected: e.clone() }).collect()
}

/// Same kind and scope, and the quote holds the expected fragment.
pub fn slip_matches(slip: &FoundSlip, expected: &ExpectedSlip) -> bool {
    slip.kind == expected.kind
        && slip.scope == expected.scope
        && contains_folded(&slip.quote, &expected.quote_contains)
}

/// Same kind, scope and origin, and the content holds one of the alternatives.
pub fn memory_matches(memory: &FoundMemory, expected: &ExpectedMemory) -> bool {
    memory.kind == expected.kind
        && memory.scope == expected.scope
        && memory.origin == expected.origin
        && contains_any(&memory.content, &expected.content_contains)
}

fn judge_slip(case: &GoldenCase, slip: FoundSlip) -> SlipVerdict {
    let matched = case.expect.slips.iter().any(|e| slip_matches(&slip, e));
    let quote_in_message = case
        .messages
        .iter()
        .filter(|m| m.conversation_id == slip.conversation_id && m.message_id == slip.message_id)
        .any(|m| text::quote_occurs_in(&slip.quote, &m.content));
    let one_off = text::has_one_off_marker(&slip.quote) || (!matched && case.has_tag("one_off"));
    SlipVerdict { slip, matched, quote_in_message, one_off }
}

/// Suggestions are counted by kind and scope: each expected one takes one
/// pending suggestion of its kind and scope that no other expectation took.
fn pair_suggestions(
    found: Vec<FoundSuggestion>,
    expected: &[ExpectedSuggestion],
) -> (Vec<Judged<FoundSuggestion>>, Vec<Met<ExpectedSuggestion>>) {
    let mut judged: Vec<Judged<FoundSuggestion>> =
        found.into_iter().map(|item| Judged { item, matched: false }).collect();
    let met = expected
        .iter()
        .map(|e| {
            let partner = judged
                .iter_mut()
                .find(|j| !j.matched && j.item.kind == e.kind && j.item.scope == e.scope);
            let found = partner.map(|j| j.matched = true).is_some();
            Met { expected: e.clone(), found }
        })
        .collect();
    (judged, met)
}

/// The `absent` strings that occur in any stored text (normalised, case-insensitive).
pub fn leaks(absent: &[String], stored: &[String]) -> Vec<String> {
    absent.iter().filter(|a| stored.iter().any(|s| contains_folded(s, a))).cloned().collect()
}

/// A check hits when one returned memory holds one of its alternatives.
pub fn recall_hits(check: &RecallCheck, returned: &[String]) -> bool {
    returned.iter().any(|content| contains_any(content, &check.expect_memory_contains))
}

fn contains_any(haystack: &str, alternatives: &[String]) -> bool {
    alternatives.iter().filter(|a| !a.trim().is_empty()).any(|a| contains_folded(haystack, a))
}

fn contains_folded(haystack: &str, needle: &str) -> bool {
    text::fold(haystack).contains(&text::fold(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::golden::parse;

    /// A case with two expected slips, one memory, one suggestion, an absent string and a recall check.
    fn case(tags: &str) -> GoldenCase {
        let line = format!(
            r#"{{"case_id": "c", "lang": "zh", "tags": {tags}, "now": "2026-11-29T12:00:00Z",
              "explicit": [{{"kind": "presentation", "scope": "global", "text": "回答要详细"}}],
              "messages": [{{"user_id": "u", "conversation_id": "c1", "message_id": "m1", "role": "user",
                             "content": "以后报告都先说结果。我在质检部。", "created_at": "2026-11-24T01:24:00Z"}}],
              "expect": {{"slips": [{{"kind": "presentation", "scope": "domain:report", "quote_contains": "先说结果"}},
                                    {{"kind": "background", "scope": "global", "quote_contains": "质检部"}}],
                          "memories": [{{"kind": "background", "scope": "global", "content_contains": ["质检", "QA"], "origin": "auto"}}],
                          "suggestions": [{{"kind": "terminology", "scope": "global"}}],
                          "absent": ["13812345678"]}},
              "recall": [{{"scopes": [], "query": "q", "expect_memory_contains": ["详细"]}}]}}"#
        )
        .replace('\n', " ");
        parse(&line).unwrap().remove(0)
    }

    fn slip(kind: Kind, scope: &str, quote: &str) -> FoundSlip {
        FoundSlip {
            kind,
            scope: scope.parse().unwrap(),
            quote: quote.into(),
            content: quote.into(),
            conversation_id: "c1".into(),
            message_id: "m1".into(),
        }
    }

    fn memory(kind: Kind, origin: Origin, content: &str) -> FoundMemory {
        FoundMemory { kind, scope: Scope::global(), origin, content: content.into() }
    }

    fn suggestion(kind: Kind, scope: &str) -> FoundSuggestion {
        FoundSuggestion {
            kind,
            scope: scope.parse().unwrap(),
            op: "create".into(),
            content: Some("x".into()),
        }
    }

    #[test]
    fn a_slip_matches_on_kind_scope_and_fragment_only() {
        let c = case("[]");
        let observed = Observed {
            slips: vec![
                slip(Kind::Presentation, "domain:report", "以后报告都先说结果"),
                slip(Kind::Presentation, "global", "以后报告都先说结果"),
                slip(Kind::RecentFocus, "global", "我在质检部"),
            ],
            ..Observed::default()
        };
        let result = score_case(&c, observed);
        let matched: Vec<bool> = result.slips.iter().map(|s| s.matched).collect();
        assert_eq!(matched, [true, false, false]);
        let found: Vec<bool> = result.expected_slips.iter().map(|e| e.found).collect();
        assert_eq!(found, [true, false]);
        assert_eq!(result.invalid_quotes(), 0);
        assert_eq!(result.one_off_kept(), 0);
    }

    #[test]
    fn a_quote_not_in_its_message_is_invalid_and_a_one_off_is_counted() {
        let mut invented = slip(Kind::Presentation, "domain:report", "以后报告都先说结果");
        invented.message_id = "m9".into();
        let result = score_case(
            &case(r#"["one_off"]"#),
            Observed {
                slips: vec![
                    invented,
                    slip(Kind::Presentation, "global", "这次先说结果"),
                    slip(Kind::Background, "global", "以后报告"),
                ],
                ..Observed::default()
            },
        );
        assert_eq!(result.invalid_quotes(), 2);
        // a one-off marker, and an unexpected slip in a one_off case; the matched one is not
        let one_off: Vec<bool> = result.slips.iter().map(|s| s.one_off).collect();
        assert_eq!(one_off, [false, true, true]);
    }

    #[test]
    fn memories_need_kind_scope_origin_and_an_alternative() {
        let result = score_case(
            &case("[]"),
            Observed {
                memories: vec![
                    memory(Kind::Background, Origin::Auto, "Works in qa"),
                    memory(Kind::Background, Origin::Explicit, "质检部"),
                    memory(Kind::Presentation, Origin::Auto, "质检"),
                ],
                ..Observed::default()
            },
        );
        let matched: Vec<bool> = result.memories.iter().map(|m| m.matched).collect();
        assert_eq!(matched, [true, false, false]);
        assert!(result.expected_memories[0].found);
    }

    #[test]
    fn suggestions_pair_one_to_one_by_kind_and_scope() {
        let result = score_case(
            &case("[]"),
            Observed {
                suggestions: vec![
                    suggestion(Kind::Terminology, "global"),
                    suggestion(Kind::Terminology, "global"),
                    suggestion(Kind::QueryDefault, "global"),
                ],
                ..Observed::default()
            },
        );
        let matched: Vec<bool> = result.suggestions.iter().map(|s| s.matched).collect();
        assert_eq!(matched, [true, false, false]);
        assert!(result.expected_suggestions[0].found);
    }

    #[test]
    fn leaks_explicit_changes_and_recall_hits_are_judged() {
        let result = score_case(
            &case("[]"),
            Observed {
                stored_texts: vec!["电话 13812345678".into()],
                explicit_unchanged: vec![false],
                recalled: vec![vec!["回答要详细".into()]],
                ..Observed::default()
            },
        );
        assert_eq!(result.leaks, ["13812345678"]);
        assert_eq!(result.explicit_changed, ["回答要详细"]);
        assert!(result.recall[0].hit);
        let clean = score_case(
            &case("[]"),
            Observed {
                stored_texts: vec!["电话已删".into()],
                explicit_unchanged: vec![true],
                recalled: vec![vec!["简洁".into()]],
                ..Observed::default()
            },
        );
        assert!(clean.leaks.is_empty() && clean.explicit_changed.is_empty());
        assert!(!clean.recall[0].hit);
    }
}
