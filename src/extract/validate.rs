//! Which proposed slips are kept (spec §5, §10.5–§10.6). Pure: the same
//! checks for the model and the offline rules, whatever either returns.

use crate::detect::{self, Detector};
use crate::domain::{
    DropReason, Durability, Kind, MIN_QUOTE_CHARS, Role, Scope, Slip, SlipState, StoredMessage,
    Time, Tombstone, keeps_out, new_id,
};
use crate::guard::{self, Refusal, TextKind};
use crate::llm::wire::{Item, ProposedSlip};
use crate::said::SaidInRun;
use crate::text;
use regex::Regex;
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

/// What a chunk's slips are checked against.
pub struct Checks<'a> {
    pub user_id: &'a str,
    pub conversation_id: &'a str,
    pub run_id: &'a str,
    pub now: Time,
    /// The chunk's new messages by id (whole messages, also when sent in pieces).
    pub messages: HashMap<&'a str, &'a StoredMessage>,
    /// Ids of the context messages, which slips may not cite.
    pub context_ids: Vec<&'a str>,
    /// What the context messages say (the user's, the agent's, a tool's):
    /// a slip may carry no piece of a value the detectors find there
    /// either, nor in any message of the chunk (a tool's result holding a
    /// customer's ID is no user's statement to keep).
    pub context_texts: Vec<&'a str>,
    /// The user's recent messages that hold a value, in any conversation
    /// (what the `seen` module reads), when a slip could carry a piece of one.
    pub seen: &'a [String],
    pub allowed_scopes: &'a [String],
    pub detector: &'a Detector,
    /// The user's deleted texts: a slip may not write one back (§7), unless
    /// its quote says it again after the deletion.
    pub tombstones: &'a [Tombstone],
    /// What each user said to the model in this run.
    pub said: &'a SaidInRun,
}

impl Checks<'_> {
    /// Every message the model was shown with the chunk.
    fn shown(&self) -> impl Iterator<Item = &str> {
        let chunk = self.messages.values().map(|m| m.content.as_str());
        chunk.chain(self.context_texts.iter().copied())
    }

    /// Whether the model has a value in sight: one of the user's recent
    /// messages or one it was shown holds a credential or an identifier.
    fn a_value_in_sight(&self) -> bool {
        !self.seen.is_empty()
            || self.shown().any(|t| self.detector.finds_a_value(&text::normalize(t)))
    }
}

/// The kept slips and the dropped ones counted by reason.
#[derive(Debug, Default)]
pub struct Verdict {
    pub kept: Vec<Slip>,
    pub dropped: BTreeMap<DropReason, u64>,
}

/// Checks every proposed slip; never fails, only keeps or drops.
pub fn validate(proposed: Vec<Item<ProposedSlip>>, checks: &Checks) -> Verdict {
    let mut verdict = Verdict::default();
    let mut seen = std::collections::HashSet::new();
    let mut per_message: HashMap<String, usize> = HashMap::new();
    for item in proposed {
        let Item::Valid(slip) = item else {
            *verdict.dropped.entry(DropReason::Malformed).or_default() += 1;
            continue;
        };
        match check(&slip, checks) {
            Ok(kept) => {
                let key = (
                    kept.message_id.clone(),
                    kept.kind,
                    kept.scope.clone(),
                    text::fold(kept.content.as_deref().unwrap_or_default()),
                );
                let count = per_message.entry(kept.message_id.clone()).or_default();
                if *count >= MAX_SLIPS_PER_MESSAGE {
                    *verdict.dropped.entry(DropReason::TooMany).or_default() += 1;
                } else if seen.insert(key) {
                    *count += 1;
                    verdict.kept.push(kept);
                } else {
                    *verdict.dropped.entry(DropReason::Duplicate).or_default() += 1;
                }
            }
            Err(reason) => *verdict.dropped.entry(reason).or_default() += 1,
        }
    }
    verdict
}

/// The most slips one message gives: a person says a few lasting things in
/// one message, never dozens; an answer of thousands of slips on one
/// message (a model gone wrong, or made to) would otherwise all be kept.
pub const MAX_SLIPS_PER_MESSAGE: usize = 8;

/// Whether `quote` holds part of what the detectors find in `message` (its
/// normalised message, which has a finding): the finding is gone once the
/// quote is cut out (`邮箱 jay@` and `example.com，以后周报发这里` quoted
/// apart, each harmless alone, would put the address back together as the
/// evidence of one memory).
fn cuts_into_a_finding(quote: &str, message: &str, detector: &Detector) -> bool {
    detector.scan(&message.replacen(quote, " ", 1)).is_none()
}

/// Whether a quote, or the sentence it was cut from, asks for something only
/// this once. Both are given as the detectors read text (`detect::view`:
/// Traditional as Simplified, full-width folded, invisible characters
/// gone), so that `這次`, `ＴＨＩＳ ＴＩＭＥ` or a zero-width space inside
/// `this time` hide nothing.
fn is_one_off(quote: &str, message: &str) -> bool {
    text::has_one_off_marker(quote) || text::one_off_in_its_sentence(quote, message)
}

/// Whether the quote was cut off right after a word that turns it around
/// or gives it to someone else, so that the words quoted say the opposite
/// of what the user said, or say it of another person: `我不负责发酵乳配方`
/// quoted as `负责发酵乳配方`, `I am not on the QA team` as `on the QA
/// team`, `不要用表格` as `用表格`, `我同事老王负责检测` as `负责检测`. Both
/// are given as the detectors read text, as for [`is_one_off`].
fn is_cut_from_its_sense(quote: &str, message: &str) -> bool {
    static TURNED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)(?:不|没|没有|别|未|非|无|不要|不用|不必|不想|不需要|不喜欢|不太|不怎么|讨厌|不再|从不|从没|并非|不是|\bnot(?:\s+really)?|n't|\bno\s+more|\bhate|\bnever|\bno\s+longer|\bno|\bdon'?t|\bdo\s+not|\bstop|\bnobody|\bno\s+one)\s*$",
        )
        .expect("a valid pattern")
    });
    static SOMEONE_ELSE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)(?:同事|老板|领导|主管|经理|老师|师傅|老婆|老公|太太|妈妈|爸爸|儿子|女儿|孩子|朋友|他|她|他们|她们|(?:老|小)[王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡杜叶程苏魏吕丁沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江薛段雷侯龙陶贺顾毛郝龚邵钱严武戴孔]|\bmy\s+(?:colleague|boss|manager|co-?worker|teammate|friend|wife|husband)(?:\s+[a-z]+)?|\b[a-z]+'s\s+(?:team|boss|group|lab)|\b(?:he|she|they)(?:'s|\s+is|\s+was|\s+are)?)\s*$",
        )
        .expect("a valid pattern")
    });
    let Some(at) = message.find(quote) else { return false };
    let before = &message[..at];
    let clause = before.rsplit([',', '.', ';', '!', '?', ':', '\n']).next().unwrap_or_default();
    // `其他报告都用表格` quoted as `报告都用表格`: 其他 is "other", no one.
    let someone_else = SOMEONE_ELSE.is_match(clause) && !clause.trim_end().ends_with("其他");
    TURNED.is_match(clause) || someone_else || asks_about_oneself(clause, &message[at..])
}

/// Whether the quote was cut from a question the user asks about
/// themselves (`我是不是应该调到配方组？` quoted as `调到配方组`, `Should I
/// move to the recipe team?`): advice sought, not a fact or a wish. A
/// request put as a question (`以后能不能都先说结论？`) is no such thing.
fn asks_about_oneself(clause: &str, from_quote: &str) -> bool {
    static SELF_QUESTION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)(?:我|本人)(?:是不是|要不要|该不该|应不应该|应该不应该|需不需要|能不能|可不可以)(?:应该|该|要)?\s*$|(?:我|本人)(?:应该|该|需要)\s*$|\b(?:should|shall|must|do|can)\s+i\s*$|\bam\s+i\s+(?:supposed|meant)\s+to\s*$|\bis\s+it\s+(?:better|worth\s+it)\s+(?:to|if\s+i)\s*$",
        )
        .expect("a valid pattern")
    });
    let question = from_quote.split(['.', ';', '!', '\n']).next().unwrap_or_default().contains('?');
    question && SELF_QUESTION.is_match(clause)
}

fn check(p: &ProposedSlip, c: &Checks) -> Result<Slip, DropReason> {
    let Some(message) = c.messages.get(p.message_id.as_str()) else {
        return Err(if c.context_ids.contains(&p.message_id.as_str()) {
            DropReason::ContextMessage
        } else {
            DropReason::UnknownMessage
        });
    };
    if message.role != Role::User {
        return Err(DropReason::NotUserMessage);
    }
    if !text::quote_occurs_in(&p.quote, &message.content) {
        return Err(DropReason::QuoteNotFound);
    }
    if p.kind == "forbidden" {
        return Err(DropReason::Forbidden);
    }
    let kind: Kind = p.kind.parse().map_err(|_| DropReason::InvalidKind)?;
    let durability: Durability = p.durability.parse().map_err(|_| DropReason::InvalidDurability)?;
    let valid_until = match durability {
        Durability::OneOff => return Err(DropReason::OneOff),
        Durability::Lasting => None,
        Durability::Until => Some(future_time(p.valid_until.as_deref(), c.now)?),
    };
    let scope: Scope = p.scope.parse().map_err(|_| DropReason::ScopeUnknown)?;
    if !c.allowed_scopes.iter().any(|s| s == scope.as_str()) {
        return Err(DropReason::ScopeUnknown);
    }
    let quote = guard::admit(&p.quote, TextKind::Quote, c.detector).map_err(drop_reason)?;
    if quote.chars().count() < MIN_QUOTE_CHARS {
        return Err(DropReason::QuoteTooShort);
    }
    // Both read the quote and its message as the detectors read text.
    let (viewed_quote, viewed_message) = (detect::view(&quote), detect::view(&message.content));
    if durability != Durability::Until && is_one_off(&viewed_quote, &viewed_message) {
        return Err(DropReason::OneOff);
    }
    if is_cut_from_its_sense(&viewed_quote, &viewed_message) {
        return Err(DropReason::QuoteCut);
    }
    let content = guard::admit(&p.content, TextKind::Statement, c.detector).map_err(drop_reason)?;
    // A content that does not rest on the conversation, or that carries
    // words another user said this run (from a model that has seen both),
    // gives way to the user's own words, the quote; the slip is not lost.
    let its_own = text::rests_on(&content, c.shown())
        && !c.said.carries_anothers_words(c.user_id, &content, c.shown());
    let content = if its_own { content } else { quote.clone() };
    if keeps_out(c.tombstones, &content, &[&quote], Some(message.created_at)) {
        return Err(DropReason::Tombstoned);
    }
    // A label in one and its value in the other (`我的密码是` / `hunter2`)
    // is whole again when read together; an identifier the message holds
    // may not leave it in parts (its first digits in the quote, the last
    // ones in the content).
    // Both orders in one text: the quote's label before the content's
    // value, and the content's label before the quote's value.
    let together = format!("{quote} {content} {quote}");
    if c.detector.scan(&together).is_some() {
        return Err(DropReason::Forbidden);
    }
    let source = text::normalize(&message.content);
    if c.detector.scan(&source).is_some() && cuts_into_a_finding(&quote, &source, c.detector) {
        return Err(DropReason::Forbidden);
    }
    let chunk_texts = c.messages.values().map(|m| m.content.as_str());
    let seen = c.seen.iter().map(String::as_str);
    let sources = chunk_texts.chain(c.context_texts.iter().copied()).chain(seen);
    if detect::carries_a_piece(&[&quote, &content], sources, c.detector) {
        return Err(DropReason::Forbidden);
    }
    if detect::writes_an_unseen_code(&content, c.shown()) && c.a_value_in_sight() {
        return Err(DropReason::Forbidden);
    }
    Ok(Slip {
        slip_id: new_id(),
        user_id: c.user_id.to_owned(),
        conversation_id: c.conversation_id.to_owned(),
        message_id: p.message_id.clone(),
        kind,
        scope,
        durability,
        valid_until,
        content: Some(content),
        quote: Some(quote),
        expressed_at: message.created_at,
        state: SlipState::New,
        run_id: Some(c.run_id.to_owned()),
    })
}

fn drop_reason(refusal: Refusal) -> DropReason {
    match refusal {
        Refusal::Forbidden(_) => DropReason::Forbidden,
        Refusal::Empty | Refusal::ControlCharacter | Refusal::TooLong { .. } => {
            DropReason::InvalidContent
        }
    }
}

fn future_time(text: Option<&str>, now: Time) -> Result<Time, DropReason> {
    let t = text
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
        .map(|t| crate::domain::truncate_time(t.to_utc()))
        .ok_or(DropReason::InvalidDurability)?;
    // Nothing said in a conversation lasts "until" centuries from now: a
    // far date is no end, and its digits could carry anything (year 3812).
    if t <= now || t > now + chrono::Duration::days(MAX_UNTIL_DAYS) {
        return Err(DropReason::InvalidDurability);
    }
    Ok(t)
}

/// The furthest end a slip may name: ten years.
const MAX_UNTIL_DAYS: i64 = 3_653;

#[cfg(test)]
mod tests {
    use super::*;

    /// A run in which no other user said anything.
    static NOBODY: LazyLock<SaidInRun> = LazyLock::new(SaidInRun::default);

    fn message(seq: i64, id: &str, role: Role, content: &str) -> StoredMessage {
        StoredMessage {
            seq,
            message_id: id.into(),
            role,
            content: content.into(),
            created_at: "2026-11-20T09:00:00Z".parse().unwrap(),
        }
    }

    fn proposed(
        message_id: &str,
        quote: &str,
        kind: &str,
        scope: &str,
        durability: &str,
    ) -> ProposedSlip {
        ProposedSlip {
            message_id: message_id.into(),
            quote: quote.into(),
            content: format!("content of {quote}"),
            kind: kind.into(),
            scope: scope.into(),
            durability: durability.into(),
            valid_until: None,
        }
    }

    fn check_all(slips: Vec<ProposedSlip>) -> Verdict {
        let user = message(
            2,
            "m2",
            Role::User,
            "以后看报告，都先说结果。\u{3000}密码是 Abc@12345。这次先说结果。电话 138  1234 5678",
        );
        let assistant = message(3, "m3", Role::Assistant, "以后我都先说结果");
        let nfd = message(4, "m4", Role::User, "Re\u{301}sume\u{301} first, please");
        let this_time = message(5, "m5", Role::User, "这次报告用表格列出来。以后报告先写结论");
        let traditional = message(6, "m6", Role::User, "這次報告先說結果");
        let hidden = message(7, "m7", Role::User, "Th\u{200b}is time, put the result first");
        let with_id = message(
            8,
            "m8",
            Role::User,
            "我的身份证号 110101199003074514，批次 20240318 我在质量部做乳粉检测。",
        );
        let with_address = message(9, "m10", Role::User, "邮箱 jay@example.com，以后周报发这里。");
        let context = vec!["m1"];
        let allowed = vec!["global".to_owned(), "domain:report".to_owned()];
        let checks = Checks {
            user_id: "u1",
            conversation_id: "c1",
            run_id: "r1",
            now: "2026-11-29T12:00:00Z".parse().unwrap(),
            messages: [
                ("m2", &user),
                ("m3", &assistant),
                ("m4", &nfd),
                ("m5", &this_time),
                ("m6", &traditional),
                ("m7", &hidden),
                ("m8", &with_id),
                ("m10", &with_address),
            ]
            .into_iter()
            .collect(),
            context_ids: context,
            context_texts: Vec::new(),
            seen: &[],
            allowed_scopes: &allowed,
            detector: &Detector::default(),
            tombstones: &[],
            said: &NOBODY,
        };
        validate(slips.into_iter().map(Item::Valid).collect(), &checks)
    }

    #[test]
    fn no_slip_carries_a_piece_of_what_a_message_of_the_chunk_holds() {
        let password =
            message(1, "m1", Role::User, "测试环境密码是 Tr0ub4dor&3x，另外我在质检部工作");
        let id = message(2, "m2", Role::User, "我的身份证 11010519491231002X，别外传");
        let plain = message(3, "m3", Role::User, "以后看报告，都先说结果，再给证据。");
        let allowed = vec!["global".to_owned()];
        let earlier = "我的卡号 6222 0202 0011 2233 446";
        let checks = Checks {
            user_id: "u1",
            conversation_id: "c1",
            run_id: "r1",
            now: "2026-11-29T12:00:00Z".parse().unwrap(),
            messages: [("m1", &password), ("m2", &id), ("m3", &plain)].into_iter().collect(),
            context_ids: vec!["m0"],
            context_texts: vec![earlier],
            seen: &[],
            allowed_scopes: &allowed,
            detector: &Detector::default(),
            tombstones: &[],
            said: &NOBODY,
        };
        let slip = |message_id: &str, quote: &str, content: &str| ProposedSlip {
            content: content.into(),
            ..proposed(message_id, quote, "background", "global", "lasting")
        };
        let verdict = validate(
            vec![
                slip("m1", "另外我在质检部工作", "质检部; staging: Tr0ub4dor&3x"),
                slip("m3", "以后看报告，都先说结果", "先说结果 staging=Tr0ub4dor&3x"),
                slip("m3", "以后看报告，都先说结果", "先说结果 Ｔｒ０ｕｂ４ｄｏｒ＆３ｘ"),
                slip("m3", "以后看报告，都先说结果", "先说结果 Tr0ub\u{200B}4dor&3x"),
                slip("m3", "以后看报告，都先说结果", "先说结果 1101051949"),
                slip("m3", "以后看报告，都先说结果", "先说结果，卡 6222020200"),
                slip("m3", "以后看报告，都先说结果", "先说结果，再给证据"),
                slip("m1", "另外我在质检部工作", "在质检部工作"),
            ]
            .into_iter()
            .map(Item::Valid)
            .collect(),
            &checks,
        );
        assert_eq!(verdict.dropped.get(&DropReason::Forbidden), Some(&6), "{verdict:?}");
        assert_eq!(verdict.kept.len(), 2, "{verdict:?}");
    }

    #[test]
    fn each_rule_drops_with_its_reason() {
        let mut until_past = proposed("m2", "先说结果", "presentation", "domain:report", "until");
        until_past.valid_until = Some("2026-11-01T00:00:00Z".into());
        let mut until_centuries = until_past.clone();
        until_centuries.valid_until = Some("3812-12-03T04:56:07Z".into());
        let mut leaky = proposed("m2", "先说结果", "presentation", "domain:report", "lasting");
        leaky.content = "the password is Abc@12345".into();
        let mut split_id =
            proposed("m8", "我的身份证号 110101199003", "background", "global", "lasting");
        split_id.content = "后六位 074514".into();

        let cases = vec![
            (proposed("m9", "先说结果", "presentation", "global", "lasting"), "unknown_message"),
            (proposed("m1", "先说结果", "presentation", "global", "lasting"), "context_message"),
            (proposed("m3", "先说结果", "presentation", "global", "lasting"), "not_user_message"),
            (proposed("m2", "先说结论", "presentation", "global", "lasting"), "quote_not_found"),
            (proposed("m2", "先说结果", "preference", "global", "lasting"), "invalid_kind"),
            (proposed("m2", "先说结果", "forbidden", "global", "lasting"), "forbidden"),
            (proposed("m2", "先说结果", "presentation", "global", "one_off"), "one_off"),
            (until_past, "invalid_durability"),
            (until_centuries, "invalid_durability"),
            (proposed("m2", "先说结果", "presentation", "domain:标准", "lasting"), "scope_unknown"),
            (proposed("m2", "密码是 Abc@12345", "background", "global", "lasting"), "forbidden"),
            (leaky, "forbidden"),
            (split_id, "forbidden"),
            (proposed("m10", "邮箱 jay@", "background", "global", "lasting"), "forbidden"),
            (
                proposed("m10", "example.com，以后周报发这里", "presentation", "global", "lasting"),
                "forbidden",
            ),
            (proposed("m2", "。", "presentation", "global", "lasting"), "quote_too_short"),
            (proposed("m2", "这次先说结果", "presentation", "global", "lasting"), "one_off"),
            (proposed("m5", "报告用表格列出来", "presentation", "global", "lasting"), "one_off"),
            (proposed("m6", "報告先說結果", "presentation", "global", "lasting"), "one_off"),
            (
                proposed("m7", "put the result first", "presentation", "global", "lasting"),
                "one_off",
            ),
            (proposed("m2", "电话 138  1234 5678", "background", "global", "lasting"), "forbidden"),
        ];
        for (slip, reason) in cases {
            let verdict = check_all(vec![slip.clone()]);
            assert!(verdict.kept.is_empty(), "{slip:?} kept");
            assert_eq!(
                verdict.dropped.get(&reason.parse::<DropReason>().unwrap()),
                Some(&1),
                "{slip:?}: {:?}",
                verdict.dropped
            );
        }
    }

    /// Another user's sentence as the content of this user's quote (model
    /// review of December 2026, M4): the slip keeps the user's own words.
    #[test]
    fn a_content_that_rests_on_nothing_said_gives_way_to_the_quote() {
        let mut foreign = proposed("m2", "先说结果", "presentation", "global", "lasting");
        foreign.content = "我在财务部，负责成本核算和供应商对账".into();
        let verdict = check_all(vec![foreign]);
        assert_eq!(verdict.kept.len(), 1, "{verdict:?}");
        assert_eq!(verdict.kept[0].content.as_deref(), Some("先说结果"));
        let mut faithful = proposed("m2", "先说结果", "presentation", "global", "lasting");
        faithful.content = "看报告时先说结果".into();
        let verdict = check_all(vec![faithful]);
        assert_eq!(verdict.kept[0].content.as_deref(), Some("看报告时先说结果"));
    }

    /// A content carrying words another user said to the model this run
    /// keeps this user's quote instead.
    #[test]
    fn a_content_with_another_users_words_gives_way_to_the_quote() {
        let said = SaidInRun::default();
        said.record("bob", "我在财务部，负责成本核算和供应商对账");
        let user = message(2, "m2", Role::User, "我在质检部，负责乳品微生物检测");
        let detector = Detector::default();
        let mut checks = chunk_checks(&[("m2", &user)], &detector, &[]);
        checks.said = &said;
        let mut slip = proposed("m2", "负责乳品微生物检测", "background", "global", "lasting");
        slip.content = "在质检部负责成本核算和供应商对账".into();
        let verdict = validate(vec![Item::Valid(slip)], &checks);
        assert_eq!(verdict.kept[0].content.as_deref(), Some("负责乳品微生物检测"), "{verdict:?}");
    }

    #[test]
    fn a_message_gives_a_few_slips_not_thousands() {
        let flood = (0..MAX_SLIPS_PER_MESSAGE + 5)
            .map(|i| {
                let mut slip =
                    proposed("m2", "先说结果", "presentation", "domain:report", "lasting");
                slip.content = format!("先说结果 {i}");
                slip
            })
            .collect();
        let verdict = check_all(flood);
        assert_eq!(verdict.kept.len(), MAX_SLIPS_PER_MESSAGE);
        assert_eq!(verdict.dropped.get(&DropReason::TooMany), Some(&5));
    }

    #[test]
    fn a_message_with_an_address_still_gives_slips_without_it() {
        let verdict =
            check_all(vec![proposed("m10", "以后周报发这里", "presentation", "global", "lasting")]);
        assert_eq!(verdict.kept.len(), 1, "{:?}", verdict.dropped);
    }

    #[test]
    fn a_message_with_an_identifier_still_gives_slips_without_it() {
        let mut lot =
            proposed("m8", "批次 20240318 我在质量部做乳粉检测", "background", "global", "lasting");
        lot.content = "在质量部做乳粉检测（批次 20240318）".into();
        let verdict = check_all(vec![lot]);
        assert_eq!(verdict.kept.len(), 1, "{:?}", verdict.dropped);
    }

    #[test]
    fn quotes_are_compared_after_normalisation() {
        let verdict = check_all(vec![
            proposed("m2", "都先说结果。 密码是 Abc", "presentation", "domain:report", "lasting"),
            proposed("m4", "R\u{e9}sum\u{e9} first", "presentation", "global", "lasting"),
            proposed("m2", "以后看报告，都先说结果", "presentation", "domain:report", "lasting"),
        ]);
        assert_eq!(
            verdict.dropped.get(&DropReason::Forbidden),
            Some(&1),
            "the first quote matches across U+3000 and holds a password"
        );
        assert_eq!(verdict.kept.len(), 2, "{:?}", verdict.dropped);
        let slip = &verdict.kept[1];
        assert_eq!(
            (slip.kind, slip.scope.as_str(), slip.state),
            (Kind::Presentation, "domain:report", SlipState::New)
        );
        assert_eq!(slip.expressed_at, "2026-11-20T09:00:00Z".parse::<Time>().unwrap());
    }

    #[test]
    fn the_lasting_sentence_beside_a_one_off_one_is_kept() {
        let lasting = proposed("m5", "报告先写结论", "presentation", "global", "lasting");
        let verdict = check_all(vec![lasting]);
        assert_eq!(verdict.kept.len(), 1, "{:?}", verdict.dropped);
    }

    #[test]
    fn a_one_off_quote_marked_until_with_a_date_is_kept() {
        let mut slip = proposed("m2", "这次先说结果", "presentation", "global", "until");
        slip.valid_until = Some("2026-12-31T00:00:00Z".into());
        let verdict = check_all(vec![slip]);
        assert_eq!(verdict.kept.len(), 1, "{:?}", verdict.dropped);
    }

    /// The checks of a chunk of `messages` with no context and no values
    /// in sight, in the global scope only.
    fn chunk_checks<'a>(
        messages: &[(&'a str, &'a StoredMessage)],
        detector: &'a Detector,
        tombstones: &'a [Tombstone],
    ) -> Checks<'a> {
        static GLOBAL: LazyLock<Vec<String>> = LazyLock::new(|| vec!["global".to_owned()]);
        Checks {
            user_id: "u1",
            conversation_id: "c1",
            run_id: "r1",
            now: "2026-11-29T12:00:00Z".parse().unwrap(),
            messages: messages.iter().copied().collect(),
            context_ids: Vec::new(),
            context_texts: Vec::new(),
            seen: &[],
            allowed_scopes: &GLOBAL,
            detector,
            tombstones,
            said: &NOBODY,
        }
    }

    #[test]
    fn a_malformed_slip_costs_only_itself() {
        let user = message(2, "m2", Role::User, "以后看报告，都先说结果。");
        let detector = Detector::default();
        let checks = chunk_checks(&[("m2", &user)], &detector, &[]);
        let answer: crate::llm::StageOneAnswer = serde_json::from_value(serde_json::json!({
            "slips": [
                {"message_id": "m2", "quote": null, "content": "x", "kind": "presentation", "scope": "global", "durability": "lasting"},
                {"message_id": 7},
                "not an object",
                {"message_id": "m2", "quote": "都先说结果", "content": "Reports: result first",
                 "kind": "presentation", "scope": "global", "durability": "lasting", "valid_until": null}
            ]
        }))
        .unwrap();
        let verdict = validate(answer.slips, &checks);
        assert_eq!(verdict.kept.len(), 1);
        assert_eq!(verdict.dropped.get(&DropReason::Malformed), Some(&3));
    }

    /// A quote cut off after a negation or another person's name says
    /// the opposite of the user's words, or says it of someone else
    /// (hostile-model review of December 2026, M3); a quote from a
    /// clause's head, or after the speaker, stays.
    #[test]
    fn a_quote_cut_from_its_sense_is_dropped() {
        for (message, quote) in [
            ("我不负责发酵乳配方，那是隔壁组的事", "负责发酵乳配方"),
            ("I am not on the QA team anymore", "on the QA team anymore"),
            ("以后不要用表格", "用表格"),
            ("Please don't use tables for the summaries", "use tables for the summaries"),
            ("我同事老王负责乳品微生物检测", "负责乳品微生物检测"),
            ("My colleague Li handles the micro tests", "handles the micro tests"),
            ("我不太喜欢表格", "喜欢表格"),
            ("I hate long intros in reports", "long intros in reports"),
            ("我老婆负责家里的账", "负责家里的账"),
            ("Emma's team runs the pilot plant", "runs the pilot plant"),
            ("我是不是应该调到配方组？", "调到配方组"),
            ("Should I move to the recipe team?", "move to the recipe team"),
            ("我要不要负责这个项目？还没想好", "负责这个项目"),
        ] {
            let cut = is_cut_from_its_sense(&detect::view(quote), &detect::view(message));
            assert!(cut, "{quote:?} of {message:?}");
        }
        for (message, quote) in [
            ("我负责乳品微生物检测", "负责乳品微生物检测"),
            ("其他报告都用表格", "报告都用表格"),
            ("每小时记录一次温度", "记录一次温度"),
            ("不喜欢长段落，以后用列表", "以后用列表"),
            ("I handle the micro tests myself", "handle the micro tests"),
            ("以后能不能都先说结论？", "都先说结论"),
            ("Could you always put the result first?", "always put the result first"),
            ("我应该说清楚：我负责配方组。", "负责配方组"),
        ] {
            let cut = is_cut_from_its_sense(&detect::view(quote), &detect::view(message));
            assert!(!cut, "{quote:?} of {message:?}");
        }
        let turned = message(2, "m2", Role::User, "我不负责发酵乳配方，那是隔壁组的事");
        let detector = Detector::default();
        let checks = chunk_checks(&[("m2", &turned)], &detector, &[]);
        let slip = proposed("m2", "负责发酵乳配方", "background", "global", "lasting");
        let verdict = validate(vec![Item::Valid(slip)], &checks);
        assert_eq!(verdict.dropped.get(&DropReason::QuoteCut), Some(&1), "{:?}", verdict.dropped);
    }

    /// A deleted text stays out of the slips too (§7): the model may not
    /// write it back under an unrelated quote; the user saying it again
    /// after the deletion brings it back.
    #[test]
    fn a_slip_may_not_write_a_deleted_text_back() {
        let unrelated = message(2, "m2", Role::User, "最近在做燕麦饮的货架期报告");
        let again = message(3, "m3", Role::User, "再说一次：我在质检部，负责乳品微生物检测");
        let deleted = Tombstone {
            memory_id: "gone".into(),
            user_id: "u1".into(),
            kind: Kind::Background,
            scope: "global".parse().unwrap(),
            deleted_at: "2026-11-19T00:00:00Z".parse().unwrap(),
            fingerprint: text::folded_fingerprint("质检部，负责乳品微生物检测"),
        };
        let detector = Detector::default();
        let deleted = [deleted];
        let checks = chunk_checks(&[("m2", &unrelated), ("m3", &again)], &detector, &deleted);
        let slip = |message_id: &str, quote: &str| ProposedSlip {
            content: "质检部，负责乳品微生物检测！".into(),
            ..proposed(message_id, quote, "background", "global", "lasting")
        };
        // Inside a longer content too (re-test of December 2026, N2).
        let within = ProposedSlip {
            content: "做燕麦饮货架期报告；质检部，负责乳品微生物检测".into(),
            ..proposed("m2", "燕麦饮的货架期报告", "background", "global", "lasting")
        };
        let verdict = validate(
            vec![
                Item::Valid(slip("m2", "燕麦饮的货架期报告")),
                Item::Valid(within),
                Item::Valid(slip("m3", "我在质检部，负责乳品微生物检测")),
            ],
            &checks,
        );
        assert_eq!(verdict.dropped.get(&DropReason::Tombstoned), Some(&2), "{:?}", verdict.dropped);
        assert_eq!(verdict.kept.len(), 1);
        assert_eq!(verdict.kept[0].message_id, "m3");
    }

    #[test]
    fn a_repeated_slip_is_kept_once() {
        let slip = proposed("m2", "先说结果", "presentation", "global", "lasting");
        let verdict = check_all(vec![slip.clone(), slip]);
        assert_eq!(
            (verdict.kept.len(), verdict.dropped.get(&DropReason::Duplicate)),
            (1, Some(&1))
        );
    }
}
