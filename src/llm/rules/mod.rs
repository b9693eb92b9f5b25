//! The offline provider: deterministic grammar for what users state about
//! themselves and their answers, in Chinese and English, so `dreamd
//! --run-once` does real work with no model, and every slip it proposes can
//! be explained by the pattern family that found it.
//!
//! A message is cut into sentences and clauses ([`segment`]); each sentence
//! is asked, in order, whether it defines a term, sets a query default or
//! states a lasting wish about answers, and each clause whether it states the
//! user's work background or current focus ([`grammar`]); the scope comes
//! from the words and the conversation ([`scope`]). Questions, one-off
//! requests and requests about the answer at hand are not kept. Quotes are
//! verbatim pieces of the message, and the slips go through the same
//! validation as a model's.

mod grammar;
mod scope;
mod segment;
mod until;

use crate::domain::{Kind, Role, Status};
use crate::llm::wire::Proposal;
use crate::llm::{
    ConsolidationAnswer, ConsolidationRequest, Item, MessageView, ProposedSlip, SlipView,
    StageOneAnswer, StageOneRequest,
};
use crate::text;
use scope::Place;
use segment::{Sentence, Span};
use std::collections::BTreeMap;

/// The slips the grammar finds in the request's user messages.
pub fn extract(request: &StageOneRequest) -> StageOneAnswer {
    let users_words = request
        .context
        .iter()
        .chain(&request.messages)
        .filter(|m| m.role == Role::User)
        .map(|m| m.content.as_str());
    let place = Place {
        allowed: &request.allowed_scopes,
        conversation_scopes: &request.conversation_scopes,
        talked_about: scope::domain_of_conversation(users_words),
    };
    let slips = request
        .messages
        .iter()
        .filter(|m| m.role == Role::User)
        .flat_map(|m| slips_in(m, &place))
        .map(Item::Valid)
        .collect();
    StageOneAnswer { slips }
}

/// One statement found: its kind, the verbatim piece it rests on, its scope.
struct Found<'a> {
    kind: Kind,
    quote: Span<'a>,
    scope: String,
}

fn slips_in(message: &MessageView, place: &Place) -> Vec<ProposedSlip> {
    let content = message.content.as_str();
    let sentences = segment::sentences(content);
    let mut statements: Vec<Found> = Vec::new();
    let mut facts = Vec::new();
    let mut consumed = 0;
    for (i, sentence) in sentences.iter().enumerate() {
        if i < consumed {
            continue;
        }
        if is_clean(sentence.span.text) {
            if let Some((statement, took_next)) =
                statement_in(sentence, sentences.get(i + 1), content, place)
            {
                consumed = i + 1 + usize::from(took_next);
                merge_or_push(&mut statements, statement, content);
            }
            facts.extend(facts_about_the_user(sentence, content, place));
            continue;
        }
        let one_off = grammar::is_one_off(sentence.span.text);
        for part in clean_parts(sentence, content) {
            let statement = statement_in(&part, None, content, place)
                .filter(|_| !one_off || grammar::outlasts_one_off(part.span.text));
            if let Some((statement, _)) = statement {
                merge_or_push(&mut statements, statement, content);
            }
            facts.extend(facts_about_the_user(&part, content, place));
        }
    }
    let mut found: Vec<Found> = statements.into_iter().chain(facts).collect();
    found.sort_by_key(|f| f.quote.start);
    found.into_iter().map(|f| slip(f, message)).collect()
}

/// Whether a piece of a message may be quoted whole: no one-off marker and
/// nothing that may never be stored (spec §2, §5).
fn is_clean(text: &str) -> bool {
    !grammar::is_one_off(text) && crate::detect::scan(text).is_none()
}

/// The runs of clean clauses of a sentence that is not clean as a whole
/// ("在做乳清粉替代，现在报价是每吨…元"): a statement in one is quoted on its
/// own, the shortest span that supports it, so that a price, a claim or
/// "这次" elsewhere in the sentence neither sinks it nor is quoted with it.
fn clean_parts<'a>(sentence: &Sentence<'a>, content: &'a str) -> Vec<Sentence<'a>> {
    let clauses = segment::clauses(&sentence.span);
    let mut parts = Vec::new();
    let mut run: Option<(Span<'a>, Span<'a>)> = None;
    for clause in &clauses {
        if is_clean(clause.text) {
            run = Some(run.map_or((*clause, *clause), |(first, _)| (first, *clause)));
        } else if let Some((first, last)) = run.take() {
            parts.push(Sentence { span: first.through(&last, content), question: false });
        }
    }
    if let Some((first, last)) = run {
        parts.push(Sentence { span: first.through(&last, content), question: sentence.question });
    }
    parts
}

/// A statement right after one of the same kind and scope goes on with it
/// ("Micro results: by default … I'll ask for EM separately."): one slip, one quote.
fn merge_or_push<'a>(statements: &mut Vec<Found<'a>>, next: Found<'a>, content: &'a str) {
    if let Some(last) = statements.last_mut()
        && last.kind == next.kind
        && last.scope == next.scope
        && content[last.quote.end()..next.quote.start]
            .chars()
            .all(|c| c.is_whitespace() || "。！!.；;".contains(c))
    {
        last.quote = last.quote.through(&next.quote, content);
        return;
    }
    statements.push(next);
}

/// A sentence-level statement: a definition, a query default or a lasting
/// wish about answers; `true` when its quote also took the next sentence.
fn statement_in<'a>(
    sentence: &Sentence<'a>,
    next: Option<&Sentence<'a>>,
    content: &'a str,
    place: &Place,
) -> Option<(Found<'a>, bool)> {
    let text = sentence.span.text;
    if sentence.question && !grammar::is_request_question(text) {
        return None;
    }
    if grammar::names_someone_else(text) {
        return None;
    }
    if let Some(at) = grammar::terminology_at(text) {
        let kind =
            if grammar::is_query_default(text) { Kind::QueryDefault } else { Kind::Terminology };
        let scope = match kind {
            Kind::QueryDefault => place.query_default(text),
            _ => place.definition(text, &text[..at]),
        };
        return Some((Found::new(kind, sentence.span, scope), false));
    }
    if grammar::is_query_default(text) {
        let scope = place.query_default(text);
        return Some((Found::new(Kind::QueryDefault, sentence.span, scope), false));
    }
    if let Some(wish) = grounded_wish(sentence, content, place) {
        return Some((wish, false));
    }
    let next_is_marker = next.is_some_and(|n| grammar::is_marker_only(n.span.text));
    if !grammar::is_presentation(text, next_is_marker) && !grammar::is_request_question(text) {
        return None;
    }
    let takes_next = next.filter(|n| next_is_marker || continues_wish(n));
    let quote = match takes_next {
        Some(n) => sentence.span.through(&n.span, content),
        None => sentence.span,
    };
    let scope = place.habit(quote.text);
    Some((Found::new(Kind::Presentation, quote, scope), takes_next.is_some()))
}

/// A wish that rests on the user's background in the same sentence ("I'm
/// new to the dairy side, so keep the jargon down"): the lasting fact makes
/// the wish lasting. The quote is the wish, from the first clause after the
/// background; a question's last clause is the question itself.
fn grounded_wish<'a>(
    sentence: &Sentence<'a>,
    content: &'a str,
    place: &Place,
) -> Option<Found<'a>> {
    let mut clauses = segment::clauses(&sentence.span);
    if sentence.question {
        clauses.pop();
    }
    let first = clauses.iter().position(|c| grammar::is_background(c.text))?;
    let (_, taken) = background_run(&clauses[first..], content);
    let rest = clauses.get(first + taken..)?;
    let wish = rest.first()?.through(rest.last()?, content);
    grammar::is_presentation(wish.text, true)
        .then(|| Found::new(Kind::Presentation, wish, place.habit(wish.text)))
}

/// A sentence that goes on about the wish before it without a marker of its
/// own ("No tables any more. Three plain sentences is enough.").
fn continues_wish(next: &Sentence) -> bool {
    let text = next.span.text;
    !next.question
        && grammar::has_format_cue(text)
        && !grammar::is_at_hand(text)
        && !grammar::is_one_off(text)
        && !grammar::is_presentation(text, false)
        && grammar::terminology_at(text).is_none()
        && !grammar::is_query_default(text)
}

/// Clause-level facts: the user's background (a run of clauses about their
/// role, team and field) and current focus (from the clause that names it to
/// the end of the sentence, and the clause before when it only points back:
/// "报告还没写完，这几天都在弄这个"). A question's last clause is the question
/// itself; after a clause about someone else the rest is about them.
fn facts_about_the_user<'a>(
    sentence: &Sentence<'a>,
    content: &'a str,
    place: &Place,
) -> Vec<Found<'a>> {
    let mut clauses = segment::clauses(&sentence.span);
    if sentence.question {
        clauses.pop();
    }
    let mut found = Vec::new();
    let mut i = 0;
    let mut previous_is_free = false;
    while i < clauses.len() {
        if grammar::names_someone_else(clauses[i].text) {
            break;
        }
        let before = found.len();
        let taken = if grammar::is_recent_focus(clauses[i].text) {
            let (mut quote, taken) = focus_run(&clauses[i..], content);
            if previous_is_free && grammar::points_back(clauses[i].text) {
                quote = clauses[i - 1].through(&quote, content);
            }
            found.push(Found::new(Kind::RecentFocus, quote, place.focus(quote.text)));
            taken
        } else if grammar::is_background(clauses[i].text) {
            let (quote, taken) = background_run(&clauses[i..], content);
            found.push(Found::new(Kind::Background, quote, "global".into()));
            taken
        } else {
            1
        };
        previous_is_free = found.len() == before;
        i += taken;
    }
    found
}

/// A focus from its clause to the end of the sentence, short of a background
/// clause; the quote and how many clauses it took.
fn focus_run<'a>(clauses: &[Span<'a>], content: &'a str) -> (Span<'a>, usize) {
    let taken = 1 + clauses[1..].iter().take_while(|c| !grammar::is_background(c.text)).count();
    (clauses[0].through(&clauses[taken - 1], content), taken)
}

/// A background clause with the ones that go on about it ("我在原料检验组，主要做…").
fn background_run<'a>(clauses: &[Span<'a>], content: &'a str) -> (Span<'a>, usize) {
    let taken = 1 + clauses[1..]
        .iter()
        .take_while(|c| {
            !grammar::is_recent_focus(c.text)
                && (grammar::is_background(c.text) || grammar::continues_background(c.text))
        })
        .count();
    (clauses[0].through(&clauses[taken - 1], content), taken)
}

impl<'a> Found<'a> {
    fn new(kind: Kind, quote: Span<'a>, scope: String) -> Found<'a> {
        Found { kind, quote, scope }
    }
}

/// The proposed slip; a wish with an end date ("到15号为止") holds until then.
fn slip(found: Found, message: &MessageView) -> ProposedSlip {
    let valid_until = (found.kind == Kind::Presentation)
        .then(|| until::valid_until(found.quote.text, message.created_at))
        .flatten();
    ProposedSlip {
        message_id: message.message_id.clone(),
        quote: found.quote.text.to_owned(),
        content: found
            .quote
            .text
            .trim_end_matches(['，', ',', '、', '：', ':', '-', ' '])
            .to_owned(),
        kind: found.kind.as_str().to_owned(),
        scope: found.scope,
        durability: if valid_until.is_some() { "until" } else { "lasting" }.into(),
        valid_until: valid_until.map(|t| t.to_rfc3339()),
    }
}

/// The newest slip that says something of its own: a restatement ("就这么给",
/// "as agreed") stands for the statement before it, so that one gives the words.
fn latest_statement(slips: &[&SlipView]) -> Option<usize> {
    let newest = slips.len().checked_sub(1)?;
    Some((0..=newest).rev().find(|&i| !restates(slips[i])).unwrap_or(newest))
}

fn restates(slip: &SlipView) -> bool {
    slip.content.as_deref().is_some_and(grammar::is_restatement)
}

/// Whether a statement says what a memory already says, in other words:
/// it corrects nothing and holds at least half of the memory's terms (its
/// words, and pairs of Chinese characters). Such a restatement confirms the
/// memory (nothing for an explicit one) rather than proposing new text.
fn says_again(statement: &str, memory: &str) -> bool {
    if grammar::corrects(statement) {
        return false;
    }
    let (said, kept) = (text::terms(statement), text::terms(memory));
    !kept.is_empty() && kept.intersection(&said).count() * 2 >= kept.len()
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
            let stated = latest_statement(&slips)?;
            let newest = slips[stated].content.clone()?;
            let cites = |i: usize, s: &SlipView| {
                s.content.as_deref().map(text::fold) == Some(text::fold(&newest))
                    || (i > stated && restates(s))
            };
            let same_ids: Vec<String> = slips
                .iter()
                .enumerate()
                .filter(|(i, s)| cites(*i, s))
                .map(|(_, s)| s.slip_id.clone())
                .collect();
            // Only what was said before the newest statement can be superseded
            // by it (policy rule 7); a different statement at the same instant
            // is left for a later statement to settle.
            let stated_at = slips[stated].expressed_at;
            let older: Vec<&SlipView> = slips
                .iter()
                .enumerate()
                .filter(|(i, s)| !cites(*i, s) && s.expressed_at < stated_at)
                .map(|(_, s)| *s)
                .collect();
            let mut memories: Vec<_> = request
                .memories
                .iter()
                .filter(|m| m.kind == kind && m.scope == scope && m.status == Status::Active)
                .collect();
            memories.sort_by_key(|m| std::cmp::Reverse(m.updated_at));
            let equal = memories.iter().find(|m| {
                m.content
                    .as_deref()
                    .is_some_and(|c| text::fold(c) == text::fold(&newest) || says_again(&newest, c))
            });
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

    fn extract_from(texts: &[(&str, Role)]) -> Vec<(String, String, String)> {
        extract_in(texts, &[])
    }

    /// What the rules find in a conversation carrying `scopes`.
    fn extract_in(texts: &[(&str, Role)], scopes: &[&str]) -> Vec<(String, String, String)> {
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
            conversation_scopes: scopes.iter().map(|s| s.to_string()).collect(),
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

    #[test]
    fn a_statement_is_quoted_without_the_one_off_or_never_store_part_of_its_sentence() {
        let cases = [
            ("这次按时间顺序列吧，平时还是结论在前。", "presentation", "平时还是结论在前"),
            (
                "在做奶酪降钠的项目，现在盐的报价是每吨800元，有点贵",
                "recent_focus",
                "在做奶酪降钠的项目",
            ),
            (
                "I'm the sensory lead for the dairy unit and I have admin rights",
                "background",
                "I'm the sensory lead for the dairy unit",
            ),
            ("这回先查无锡厂，平时默认查本厂的", "query_default", "平时默认查本厂的"),
        ];
        for (text, kind, quote) in cases {
            let found = extract_from(&[(text, Role::User)]);
            assert_eq!(found.len(), 1, "{text}: {found:?}");
            assert_eq!((found[0].0.as_str(), found[0].2.as_str()), (kind, quote), "{text}");
            assert!(crate::detect::scan(&found[0].2).is_none());
        }
        for text in [
            "这次先按依据在前写吧，领导要看",
            "Just this once, put the method first, then the result",
            "我是系统管理员，负责审批放行",
        ] {
            assert_eq!(extract_from(&[(text, Role::User)]), [], "{text}");
        }
    }

    #[test]
    fn a_wish_resting_on_the_users_background_is_lasting() {
        let found = extract_from(&[("我是刚转岗过来的品控专员，所以术语少用点", Role::User)]);
        let kinds: Vec<(&str, &str)> =
            found.iter().map(|(k, _, q)| (k.as_str(), q.as_str())).collect();
        assert_eq!(
            kinds,
            [("background", "我是刚转岗过来的品控专员"), ("presentation", "所以术语少用点")]
        );
        let found = extract_from(&[(
            "I'm a chemist, so give me the short version of this report",
            Role::User,
        )]);
        assert!(found.iter().all(|(k, _, _)| k == "background"), "{found:?}");
    }

    #[test]
    fn what_follows_a_clause_about_someone_else_is_theirs() {
        for text in [
            "我师傅是做奶粉的，干了二十多年了",
            "My boss, been doing audits for 30 years, says no",
            "他们管那台均质机叫'老黄'",
            "He always wants the verdict first in reports",
        ] {
            assert_eq!(extract_from(&[(text, Role::User)]), [], "{text}");
        }
        assert_eq!(
            one("我是做奶粉的，干了二十多年了").map(|(k, _)| k).as_deref(),
            Some("background")
        );
    }

    #[test]
    fn a_focus_that_points_back_quotes_what_it_points_to() {
        let found = extract_from(&[("酸奶杯的密封问题还没解决，这周都在弄这个", Role::User)]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "recent_focus");
        assert_eq!(found[0].2, "酸奶杯的密封问题还没解决，这周都在弄这个");
    }

    fn slip_view(id: &str, conversation: &str, day: u32, content: &str) -> SlipView {
        SlipView {
            slip_id: id.into(),
            conversation_id: conversation.into(),
            kind: Kind::Presentation,
            scope: "domain:raw_material".into(),
            content: Some(content.into()),
            quote: Some(content.into()),
            expressed_at: format!("2026-11-{day:02}T09:00:00Z").parse().unwrap(),
            durability: crate::domain::Durability::Lasting,
            valid_until: None,
            new: true,
        }
    }

    fn consolidation(slips: Vec<SlipView>, memories: Vec<crate::llm::MemoryView>) -> Vec<Proposal> {
        let request = ConsolidationRequest {
            user_id: "u".into(),
            now: "2026-11-29T12:00:00Z".parse().unwrap(),
            memories,
            suggestions: vec![],
            slips,
        };
        consolidate(&request)
            .operations
            .into_iter()
            .map(|op| match op {
                Item::Valid(p) => p,
                Item::Malformed => panic!("the rules never propose a malformed operation"),
            })
            .collect()
    }

    #[test]
    fn the_newest_statement_wins_and_a_restatement_keeps_its_words() {
        let ops = consolidation(
            vec![
                slip_view("s1", "c1", 20, "查原料只列供应商、批号和有效期三列"),
                slip_view("s2", "c2", 24, "对，就这三列，以后原料都这么给"),
            ],
            vec![],
        );
        assert_eq!(
            ops,
            [Proposal::Create {
                kind: "presentation".into(),
                scope: "domain:raw_material".into(),
                content: "查原料只列供应商、批号和有效期三列".into(),
                slip_ids: vec!["s1".into(), "s2".into()],
                supersedes_slip_ids: vec![],
            }]
        );
        let corrected = consolidation(
            vec![
                slip_view("s1", "c1", 20, "原料用量按千克写"),
                slip_view("s2", "c2", 24, "更正一下，原料用量不是按千克，是按百分比"),
            ],
            vec![],
        );
        assert!(matches!(&corrected[0], Proposal::Create { content, supersedes_slip_ids, .. }
            if content.contains("百分比") && supersedes_slip_ids == &["s1".to_owned()]));
    }

    #[test]
    fn a_different_statement_at_the_same_instant_is_not_superseded() {
        let ops = consolidation(
            vec![
                slip_view("s1", "c1", 24, "原料用量按千克写"),
                slip_view("s2", "c2", 24, "检测结果都附上检出限"),
            ],
            vec![],
        );
        assert!(
            matches!(&ops[0], Proposal::Create { supersedes_slip_ids, .. } if supersedes_slip_ids.is_empty()),
            "{ops:?}"
        );
    }

    #[test]
    fn saying_a_memory_again_confirms_it_and_changing_it_updates_it() {
        let memory = crate::llm::MemoryView {
            memory_id: "m1".into(),
            version: 1,
            origin: crate::domain::Origin::Explicit,
            kind: Kind::Presentation,
            scope: "domain:raw_material".into(),
            content: Some("原料查询只列供应商和批号".into()),
            status: Status::Active,
            updated_at: "2026-11-01T09:00:00Z".parse().unwrap(),
            expires_at: None,
        };
        let again = consolidation(
            vec![slip_view("s1", "c1", 20, "查原料还是只列供应商和批号就行")],
            vec![memory.clone()],
        );
        assert!(matches!(&again[0], Proposal::Confirm { memory_id, .. } if memory_id == "m1"));
        let changed = consolidation(
            vec![slip_view("s1", "c1", 20, "不是只列供应商了，改成列有效期和库位")],
            vec![memory],
        );
        assert!(matches!(&changed[0], Proposal::Update { memory_id, .. } if memory_id == "m1"));
    }

    #[test]
    fn a_wish_with_an_end_date_is_until_that_day() {
        let request = StageOneRequest {
            user_id: "u".into(),
            conversation_id: "c".into(),
            now: "2026-12-05T12:00:00Z".parse().unwrap(),
            allowed_scopes: vec!["global".into(), "domain:report".into()],
            context: vec![],
            messages: vec![MessageView {
                message_id: "m1".into(),
                role: Role::User,
                created_at: "2026-12-04T01:20:00Z".parse().unwrap(),
                content: "12月15号审核结束之前，日报里把偏差项放第一段。".into(),
            }],
            conversation_scopes: vec![],
        };
        let slips: Vec<ProposedSlip> = extract(&request)
            .slips
            .into_iter()
            .filter_map(|i| match i {
                Item::Valid(s) => Some(s),
                Item::Malformed => None,
            })
            .collect();
        assert_eq!(slips.len(), 1);
        assert_eq!(slips[0].durability, "until");
        assert_eq!(slips[0].valid_until.as_deref(), Some("2026-12-16T00:00:00+00:00"));
    }
}
