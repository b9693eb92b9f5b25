//! The offline provider: deterministic patterns for what users state
//! explicitly, in Chinese and English, so `dreamd --run-once` does real work
//! with no model. Precision over recall: a sentence is kept only when a
//! pattern for a lasting statement and a cue for its kind both match, and
//! questions and one-off requests ("这次…", "this time…") never are. Its slips
//! go through the same validation as a model's.

use crate::domain::{Kind, Role, Status};
use crate::llm::wire::Proposal;
use crate::llm::{
    ConsolidationAnswer, ConsolidationRequest, Item, ProposedSlip, SlipView, StageOneAnswer,
    StageOneRequest,
};
use crate::text;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

fn re(pattern: &str) -> Regex {
    // The patterns are constants, compiled by every unit test of this module.
    Regex::new(pattern).expect("rule patterns are valid")
}

static SENTENCE_END: LazyLock<Regex> = LazyLock::new(|| re(r"[。！？!?；;\n]+|\.(?:\s+|$)"));

/// A lasting statement about how answers should look, and the cue that it is about answers.
static PRESENTATION: LazyLock<[Regex; 2]> = LazyLock::new(|| {
    [
        re(
            r"(?:以后|今后|往后|从现在开始|从今以后|每次|一律|始终|总是|我(?:习惯|希望|喜欢|更喜欢|偏好|倾向于?))",
        ),
        re(
            r"(?i:\bfrom\s+now\s+on\b|\bgoing\s+forward\b|\bin\s+(?:the\s+)?future\b|\balways\b|\bevery\s+time\b|\bI\s+(?:prefer|like|want|would\s+like|'d\s+like)\b)",
        ),
    ]
});
static PRESENTATION_CUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"整理|格式|先说|先写|先给|结论|表格|流程卡|简洁|简短|详细|列出|列清|分点|步骤|回答|展示|排版|标注|条款|摘要|(?i:\banswers?\b|\bformat|\btables?\b|\bbullet|\blists?\b|\bsummar|\bconclusion|\b(?:put|give|show|state)\b.{0,40}\bfirst\b|\bconcise|\bbrief\b|\bin\s+detail\b|\bstep[- ]by[- ]step\b|\bevidence\b|\bflow\s+card|\bheadings?\b)",
    )
});
static RECENT_FOCUS: LazyLock<[Regex; 2]> = LazyLock::new(|| {
    [
        re(
            r"我(?:最近|近期|目前|这段时间|正在)(?:一直|主要)?在?(?:(?:做|搞|跟|研究|开发|负责|关注).{0,30}(?:项目|研发|课题|开发|产品|实验)|(?:准备|筹备|写|学习)[^，。,]{2,30})",
        ),
        re(
            r"(?i)\bI(?:'m|\s+am)\s+(?:currently\s+|now\s+|mainly\s+)?(?:(?:working\s+on|focusing\s+on|focused\s+on|leading)\b.{2,60}\b(?:project|study|product|line|development|research|formulation|launch|trial|novel|book|thesis|paper)s?\b|(?:preparing|writing|learning|studying)\s+(?:for\s+)?(?:a|an|my|the)?\s*\w+)",
        ),
    ]
});
static BACKGROUND: LazyLock<[Regex; 2]> = LazyLock::new(|| {
    [
        re(
            r"我(?:在[^，。,]{1,20}(?:部门|部|中心|组|团队|实验室|研究院|工厂|车间)|负责[^，。,？?]{2,30}|是[^，。,]{0,12}(?:工程师|研究员|主管|专员|技术员|研发人员))",
        ),
        re(
            r"(?i)\bI\s+(?:lead|manage|run|head)\s+the\b.{2,40}\b(?:team|group|lab|department|unit)\b|\bI(?:'m|\s+am)\s+(?:an?\s+)?[\w\- ]{0,30}\b(?:engineer|scientist|researcher|technologist|chemist|food\s+technologist)\b|\bI\s+work\s+(?:in|at|for|on)\s+the\b.{2,40}\b(?:team|department|lab|group|division)\b|\bI(?:'m|\s+am)\s+responsible\s+for\b",
        ),
    ]
});
static QUERY_DEFAULT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"默认.{0,12}(?:查|看|用|取|按)|(?i:\bby\s+default\b.{0,40}\b(?:query|search|look\s+up|use|filter|check)\b|\bdefault\s+to\b)",
    )
});
static TERMINOLOGY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"我说的\s*[“”\x22']?[^“”\x22'，。]{1,20}[“”\x22']?\s*(?:指的是|是指|就是指)|(?i:\bwhen\s+I\s+say\s+\S.{0,20}\bI\s+mean\b|\bby\s+[“”\x22']\S.{0,20}[“”\x22']\s*,?\s*I\s+mean\b)",
    )
});

/// Scope names recognised in a sentence, by the domain they point to.
const DOMAIN_WORDS: &[(&str, &[&str])] = &[
    ("standard", &["标准", "standard"]),
    ("recipe", &["配方", "recipe", "formulation"]),
    ("raw_material", &["原材料", "原料", "raw material"]),
    ("report", &["报告", "周报", "月报", "report"]),
];
static PROJECT: LazyLock<Regex> =
    LazyLock::new(|| re(r"项目\s*([A-Za-z0-9_\-]{1,64})|(?i:\bproject\s+([A-Za-z0-9_\-]{1,64}))"));

/// The slips the patterns find in the request's user messages.
pub fn extract(request: &StageOneRequest) -> StageOneAnswer {
    let slips = request
        .messages
        .iter()
        .filter(|m| m.role == Role::User)
        .flat_map(|m| {
            sentences(&m.content)
                .into_iter()
                .filter_map(|s| slip_for(s, &m.message_id, &request.allowed_scopes))
                .map(Item::Valid)
                .collect::<Vec<_>>()
        })
        .collect();
    StageOneAnswer { slips }
}

/// The statements of a message, questions left out, as verbatim substrings.
fn sentences(content: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in SENTENCE_END.find_iter(content) {
        let is_question = end.as_str().contains(['？', '?']);
        let sentence = content[start..end.start()].trim();
        if !sentence.is_empty() && !is_question {
            out.push(sentence);
        }
        start = end.end();
    }
    let rest = content[start..].trim();
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

fn kind_of(sentence: &str) -> Option<Kind> {
    if text::has_one_off_marker(sentence) {
        return None;
    }
    if TERMINOLOGY.is_match(sentence) {
        Some(Kind::Terminology)
    } else if QUERY_DEFAULT.is_match(sentence) {
        Some(Kind::QueryDefault)
    } else if RECENT_FOCUS.iter().any(|r| r.is_match(sentence)) {
        Some(Kind::RecentFocus)
    } else if PRESENTATION.iter().any(|r| r.is_match(sentence))
        && PRESENTATION_CUE.is_match(sentence)
    {
        Some(Kind::Presentation)
    } else if BACKGROUND.iter().any(|r| r.is_match(sentence)) {
        Some(Kind::Background)
    } else {
        None
    }
}

/// The narrowest allowed scope the sentence names; global for facts about the person.
fn scope_for(sentence: &str, kind: Kind, allowed: &[String]) -> String {
    if matches!(kind, Kind::Background | Kind::RecentFocus) {
        return "global".into();
    }
    let allowed_scope = |s: String| allowed.contains(&s).then_some(s);
    let project = PROJECT.captures(sentence).and_then(|c| {
        let name = c.get(1).or_else(|| c.get(2))?.as_str();
        allowed_scope(format!("project:{name}"))
    });
    let lower = sentence.to_lowercase();
    project
        .or_else(|| {
            DOMAIN_WORDS
                .iter()
                .filter(|(_, words)| words.iter().any(|w| lower.contains(w)))
                .find_map(|(domain, _)| allowed_scope(format!("domain:{domain}")))
        })
        .unwrap_or_else(|| "global".into())
}

fn slip_for(sentence: &str, message_id: &str, allowed: &[String]) -> Option<ProposedSlip> {
    let kind = kind_of(sentence)?;
    Some(ProposedSlip {
        message_id: message_id.to_owned(),
        quote: sentence.to_owned(),
        content: sentence.trim_end_matches(['，', ',', '、', '：', ':']).to_owned(),
        kind: kind.as_str().to_owned(),
        scope: scope_for(sentence, kind, allowed),
        durability: "lasting".into(),
        valid_until: None,
    })
}

/// Deterministic consolidation: per kind and scope, the newest statement
/// wins; slips saying the same thing are merged into its evidence, older
/// different ones are superseded. It confirms an equal memory, updates the
/// group's memory otherwise (the policy turns that into a suggestion for an
/// explicit one), or creates one.
pub fn consolidate(request: &ConsolidationRequest) -> ConsolidationAnswer {
    let mut groups: BTreeMap<(Kind, &str), Vec<&SlipView>> = BTreeMap::new();
    for slip in &request.slips {
        groups.entry((slip.kind, slip.scope.as_str())).or_default().push(slip);
    }
    let operations = groups
        .into_iter()
        .filter(|(_, slips)| slips.iter().any(|s| s.new))
        .filter_map(|((kind, scope), mut slips)| {
            slips.sort_by_key(|s| s.expressed_at);
            let newest = slips.last()?.content.clone()?;
            let (same, older): (Vec<&SlipView>, Vec<&SlipView>) = slips
                .into_iter()
                .partition(|s| s.content.as_deref().map(text::fold) == Some(text::fold(&newest)));
            let same_ids: Vec<String> = same.iter().map(|s| s.slip_id.clone()).collect();
            let mut memories: Vec<_> = request
                .memories
                .iter()
                .filter(|m| m.kind == kind && m.scope == scope && m.status == Status::Active)
                .collect();
            memories.sort_by_key(|m| std::cmp::Reverse(m.updated_at));
            let equal = memories
                .iter()
                .find(|m| m.content.as_deref().map(text::fold) == Some(text::fold(&newest)));
            Some(match (equal, memories.first()) {
                (Some(m), _) => {
                    Proposal::Confirm { memory_id: m.memory_id.clone(), slip_ids: same_ids }
                }
                (None, Some(m)) => Proposal::Update {
                    memory_id: m.memory_id.clone(),
                    content: newest,
                    slip_ids: same_ids,
                },
                (None, None) => Proposal::Create {
                    kind: kind.as_str().to_owned(),
                    scope: scope.to_owned(),
                    content: newest,
                    slip_ids: same_ids,
                    supersedes_slip_ids: older.iter().map(|s| s.slip_id.clone()).collect(),
                },
            })
        })
        .map(Item::Valid)
        .collect();
    ConsolidationAnswer { operations }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::MessageView;

    fn extract_from(texts: &[(&str, Role)]) -> Vec<(String, String, String)> {
        let request = StageOneRequest {
            user_id: "u".into(),
            conversation_id: "c".into(),
            now: "2026-11-29T12:00:00Z".parse().unwrap(),
            allowed_scopes: [
                "global",
                "domain:standard",
                "domain:recipe",
                "domain:report",
                "project:A",
            ]
            .map(String::from)
            .to_vec(),
            context: vec![],
            messages: texts
                .iter()
                .enumerate()
                .map(|(i, (t, role))| MessageView {
                    message_id: format!("m{i}"),
                    role: *role,
                    created_at: "2026-11-28T09:00:00Z".parse().unwrap(),
                    content: (*t).into(),
                })
                .collect(),
        };
        extract(&request)
            .slips
            .into_iter()
            .map(|item| match item {
                Item::Valid(s) => (s.kind, s.scope, s.quote),
                Item::Malformed => panic!("the rules never propose a malformed slip"),
            })
            .collect()
    }

    fn one(text: &str) -> Option<(String, String)> {
        let found = extract_from(&[(text, Role::User)]);
        assert!(found.len() <= 1, "{found:?}");
        found.into_iter().next().map(|(k, s, q)| {
            assert!(text.contains(&q));
            (k, s)
        })
    }

    #[test]
    fn explicit_statements_become_slips_of_the_right_kind_and_scope() {
        let cases = [
            ("以后看报告，都先说结果", "presentation", "domain:report"),
            (
                "以后读标准，都按流程卡整理，每步列出操作、温度和条款号。",
                "presentation",
                "domain:standard",
            ),
            ("我希望回答先给结论", "presentation", "global"),
            ("项目A的周报，以后都先写结论，再列数据表。", "presentation", "project:A"),
            ("我最近在做奶制品相关的项目研发，主要是低糖酸奶。", "recent_focus", "global"),
            ("我在研发中心质检部，负责乳品微生物检测。", "background", "global"),
            ("配方的生命周期默认查基本属性", "query_default", "domain:recipe"),
            ("我说的LC指的是生命周期。", "terminology", "global"),
            (
                "From now on, put the conclusion first and the evidence after it.",
                "presentation",
                "global",
            ),
            ("I prefer tables when you compare formulations.", "presentation", "domain:recipe"),
            (
                "I'm working on the oat-milk stability project this quarter.",
                "recent_focus",
                "global",
            ),
            ("I lead the dairy-alternatives R&D team, by the way.", "background", "global"),
            ("我最近在准备一场重要的演讲，但是总感觉很紧张", "recent_focus", "global"),
            ("I'm working on a novel, but my progress is slow", "recent_focus", "global"),
            ("When I say LC I mean lifecycle", "terminology", "global"),
        ];
        for (text, kind, scope) in cases {
            assert_eq!(one(text), Some((kind.into(), scope.into())), "{text}");
        }
    }

    #[test]
    fn one_offs_questions_small_talk_and_assistant_turns_are_not_kept() {
        for text in [
            "这次回答简洁一点就行。",
            "This time, just give me the numbers without a table.",
            "帮我查一下生命周期为“实验”的配方有哪些？",
            "以后能不能都先说结果？",
            "I really enjoy painting, playing piano and tea tasting.",
            "I prefer artistic works, like The Great Gatsby.",
            "是的，基本属性。",
            "你好，今天天气不错",
            "I'd like the first one",
            "我最近在看一本叫做《活着》的书",
        ] {
            assert_eq!(one(text), None, "{text}");
        }
        assert!(extract_from(&[("以后我都先说结果", Role::Assistant)]).is_empty());
    }

    #[test]
    fn several_statements_in_one_message_are_separate_slips() {
        let found =
            extract_from(&[("我在质检部工作。以后回答都先说结论！这次先简单说", Role::User)]);
        let kinds: Vec<&str> = found.iter().map(|(k, _, _)| k.as_str()).collect();
        assert_eq!(kinds, ["background", "presentation"]);
    }
}
