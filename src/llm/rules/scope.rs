//! Which scope a slip of the offline extractor takes (spec §3, and the
//! conventions of `eval/README.md`): the narrowest one the words support.
//! Facts about the person are global; a habit about a named project goes to
//! that project when the conversation is about it; a habit about reports,
//! standards, recipes or raw materials goes to that domain; "any project"
//! lifts a habit from the project to its domain.

use regex::Regex;
use std::sync::LazyLock;

/// Words that point to a domain, in the order they are tried when two start at the same place.
const DOMAIN_WORDS: &[(&str, &[&str])] = &[
    (
        "standard",
        &[
            "检测方法",
            "检验方法",
            "检验步骤",
            "标准",
            "国标",
            "方法",
            "条款",
            "流程卡",
            "引用",
            r"(?i:\bstandards?\b)",
            r"(?i:\bmethods?\b)",
            r"\bISO\b",
            r"\bGB\b",
            r"(?i:\bclauses?\b)",
            r"(?i:\bstep[- ]card)",
            r"(?i:\bflow[- ]card)",
        ],
    ),
    (
        "recipe",
        &[
            "配方",
            "用量",
            r"(?i:\brecipes?\b)",
            r"(?i:\bformula(?:s|tions?)?\b)",
            r"(?i:\bdosage\b)",
            r"(?i:\bingredients?\b)",
        ],
    ),
    (
        "raw_material",
        &[
            "原材料",
            "原料",
            "辅料",
            "供应商",
            "供方",
            "物料",
            r"(?i:\braw\s+materials?\b)",
            r"(?i:\bmaterials\b)",
            r"(?i:\bsuppliers?\b)",
        ],
    ),
    (
        "report",
        &[
            "报告",
            "周报",
            "月报",
            "日报",
            "汇总",
            "检测结果",
            "检测数据",
            "检验结果",
            "复核意见",
            "数据",
            "结果",
            "偏差",
            r"(?i:\breports?\b)",
            r"(?i:\bsummar(?:y|ies)\b)",
            r"(?i:\bresults?\b)",
            r"(?i:\bdata\b)",
            r"(?i:\bcounts?\b)",
            r"(?i:\bverdict\b)",
            r"(?i:\bdeviations?\b)",
            r"(?i:\bnutrition\s+values\b)",
            r"\bCAPAs?\b",
        ],
    ),
];

/// Words about answers in general: a wish with them is global whatever the conversation is about.
static ANSWERS_IN_GENERAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"回答|回复|答案|答完|中文|英文|长度|开场白|客套|缩写|术语|基本概念|(?i:\banswers?\b|\breplies\b|\bEnglish\b|\bspelling\b|\blength\b|\bemojis?\b|\bjargon\b|\bbasics\b|\bintros?\b|\b(?:abbreviations|acronyms)\b)")
        .expect("valid pattern")
});

/// A habit about every answer, whatever it is about.
static EVERY_ANSWER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:所有|每个|每次|每一个)(?:的)?(?:回答|回复)|(?i:\b(?:every|each|all|any)\s+(?:of\s+(?:my|your)\s+)?(?:answers?|replies|reply|responses?)\b)")
        .expect("valid pattern")
});

/// A habit stated for every project, not only the one at hand.
static ANY_PROJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"不管哪个项目|无论哪个项目|所有(?:的)?(?:报告|项目|标准)|(?i:\bregardless\s+of\s+(?:the\s+)?project\b|\bany\s+(?:standard|report|project)\b|\ball\s+(?:reports|standards|projects)\b|\bnot\s+just\s+for\s+this\s+project\b)")
        .expect("valid pattern")
});

static DOMAIN_PATTERNS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    DOMAIN_WORDS
        .iter()
        .map(|(domain, words)| {
            let pattern = format!("(?:{})", words.join("|"));
            (*domain, Regex::new(&pattern).expect("valid pattern"))
        })
        .collect()
});

/// Phrases that hold a domain word without being about the domain ("standard deviation").
static NOT_A_DOMAIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)standard\s+deviations?|标准差|标准偏差").expect("valid pattern")
});

/// The domain whose word comes first in `text`, if any.
pub fn domain_named(text: &str) -> Option<&'static str> {
    let text = NOT_A_DOMAIN.replace_all(text, " ");
    DOMAIN_PATTERNS
        .iter()
        .filter_map(|(domain, re)| re.find(&text).map(|m| (m.start(), *domain)))
        .min_by_key(|(start, _)| *start)
        .map(|(_, domain)| domain)
}

/// The domain the user's own messages in a conversation are mostly about,
/// counting domain words (what the assistant said is left out: it cites
/// standards and materials in answers about anything).
pub fn domain_of_conversation<'a>(texts: impl Iterator<Item = &'a str>) -> Option<&'static str> {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for text in texts {
        for (domain, re) in DOMAIN_PATTERNS.iter() {
            let n = re.find_iter(text).count();
            if n > 0 {
                match counts.iter_mut().find(|(d, _)| d == domain) {
                    Some((_, c)) => *c += n,
                    None => counts.push((domain, n)),
                }
            }
        }
    }
    counts.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    match counts.as_slice() {
        [(domain, _)] => Some(*domain),
        [(domain, first), (_, second), ..] if first > second => Some(*domain),
        _ => None,
    }
}

/// A project name folded for comparison: lower case, letters, digits and CJK only,
/// so "cheese-sticks" meets "cheese-stick" and "A2牛奶" meets "A2 牛奶".
fn folded(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Whether `text` names the project; a name of one or two letters only next
/// to the word project ("项目A", "project A"), where it cannot be a letter of another word.
fn mentions(text: &str, project: &str) -> bool {
    let name = folded(project);
    if name.chars().count() < 3 {
        let pattern = format!(
            r"(?i)项目\s*{0}(?:[^A-Za-z0-9]|$)|(?:^|[^A-Za-z0-9]){0}\s*项目|\bproject\s+{0}(?:[^A-Za-z0-9]|$)",
            regex::escape(project)
        );
        return Regex::new(&pattern).is_ok_and(|r| r.is_match(text));
    }
    let stem = name.strip_suffix('s').unwrap_or(&name);
    folded(text).contains(stem)
}

/// Where a conversation takes place, as scope decisions need it.
pub struct Place<'a> {
    pub allowed: &'a [String],
    /// The conversation's own scopes (ingest): its project and domain, when the agent set them.
    pub conversation_scopes: &'a [String],
    /// The domain the user's messages are about, when the agent set none.
    pub talked_about: Option<&'static str>,
}

impl Place<'_> {
    fn allowed(&self, scope: String) -> Option<String> {
        self.allowed.contains(&scope).then_some(scope)
    }

    /// The conversation's project: its only `project:` scope, or the one the sentence names.
    fn project(&self, sentence: &str) -> Option<String> {
        let projects: Vec<&String> =
            self.conversation_scopes.iter().filter(|s| s.starts_with("project:")).collect();
        match projects.as_slice() {
            [one] => Some((*one).clone()),
            several => several
                .iter()
                .find(|p| p.strip_prefix("project:").is_some_and(|n| mentions(sentence, n)))
                .map(|p| (*p).clone()),
        }
    }

    /// The conversation's domain scope, when the agent set exactly one.
    fn conversation_domain(&self) -> Option<String> {
        let domains: Vec<&String> =
            self.conversation_scopes.iter().filter(|s| s.starts_with("domain:")).collect();
        match domains.as_slice() {
            [one] => self.allowed((*one).clone()),
            _ => None,
        }
    }

    /// A habit (presentation): the conversation's project, unless stated for
    /// any project; else the domain its words name; else the domain the agent
    /// set on the conversation; else, unless it is about answers in general,
    /// the domain the user's messages talk about; else global.
    pub fn habit(&self, sentence: &str) -> String {
        if !ANY_PROJECT.is_match(sentence)
            && let Some(project) = self.project(sentence)
        {
            return project;
        }
        if EVERY_ANSWER.is_match(sentence) {
            return "global".into();
        }
        if let Some(domain) = domain_named(sentence) {
            return self.domain_or_global(domain);
        }
        if let Some(domain) = self.conversation_domain() {
            return domain;
        }
        match self.talked_about {
            Some(domain) if !ANSWERS_IN_GENERAL.is_match(sentence) => self.domain_or_global(domain),
            _ => "global".into(),
        }
    }

    /// A query default: the project, else the domain its words name, else the conversation's.
    pub fn query_default(&self, sentence: &str) -> String {
        if let Some(project) = self.project(sentence) {
            return project;
        }
        match domain_named(sentence) {
            Some(domain) => self.domain_or_global(domain),
            None => self.conversation_domain().unwrap_or_else(|| "global".into()),
        }
    }

    /// A definition: the project, else the domain named in its frame (`frame`:
    /// the words before the term, "查配方的时候，"), else the domain the agent
    /// set on the conversation (the narrowest scope that fits, spec §3: a
    /// term defined while querying recipes is a recipe term), else global.
    /// The domain words of the definition itself do not count: a term is the
    /// user's everywhere unless they or the conversation say where.
    pub fn definition(&self, sentence: &str, frame: &str) -> String {
        if let Some(project) = self.project(sentence) {
            return project;
        }
        match domain_named(frame) {
            Some(domain) => self.domain_or_global(domain),
            None => self.conversation_domain().unwrap_or_else(|| "global".into()),
        }
    }

    /// Work in progress: the conversation's project, else global.
    pub fn focus(&self, clause: &str) -> String {
        self.project(clause).unwrap_or_else(|| "global".into())
    }

    fn domain_or_global(&self, domain: &str) -> String {
        self.allowed(format!("domain:{domain}")).unwrap_or_else(|| "global".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(extra: &[&str]) -> Vec<String> {
        ["global", "domain:recipe", "domain:raw_material", "domain:standard", "domain:report"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_first_domain_word_decides() {
        assert_eq!(domain_named("配方里的原料用量按百分比"), Some("recipe"));
        assert_eq!(domain_named("查原料的时候，结果只列供应商"), Some("raw_material"));
        assert_eq!(domain_named("给我讲检测方法的时候"), Some("standard"));
        assert_eq!(
            domain_named("For supplier questions, approved ones first"),
            Some("raw_material")
        );
        assert_eq!(domain_named("Keep answers short"), None);
    }

    #[test]
    fn a_conversation_is_about_a_domain_when_one_dominates() {
        let texts = ["这份月报帮我看下", "报告里的数据", "配方"];
        assert_eq!(domain_of_conversation(texts.into_iter()), Some("report"));
        assert_eq!(domain_of_conversation(["配方", "原料"].into_iter()), None);
    }

    #[test]
    fn short_project_names_count_only_next_to_the_word_project() {
        assert!(mentions("项目A的周报", "A"));
        assert!(mentions("the weekly for project A.", "A"));
        assert!(!mentions("A table, always", "A"));
        assert!(mentions("Turn these cheese-stick notes into minutes", "cheese-sticks"));
        assert!(mentions("A2 牛奶的阶段报告", "A2牛奶"));
    }

    #[test]
    fn habits_go_to_the_project_the_domain_or_global() {
        let scopes = allowed(&["project:奶酪棒", "project:燕麦饮"]);
        let in_project = strings(&["project:奶酪棒"]);
        let place =
            Place { allowed: &scopes, conversation_scopes: &in_project, talked_about: None };
        assert_eq!(place.habit("周报一直保持这种格式"), "project:奶酪棒");
        assert_eq!(place.habit("不管哪个项目，报告都先写结论"), "domain:report");
        assert_eq!(place.focus("这个项目现在卡在沉淀上"), "project:奶酪棒");
        let in_report = strings(&["domain:report"]);
        let plain = Place { allowed: &scopes, conversation_scopes: &in_report, talked_about: None };
        assert_eq!(plain.habit("结论放第一段这个习惯记着"), "domain:report");
        assert_eq!(plain.habit("以后回答都用中文"), "domain:report");
        assert_eq!(plain.habit("Start every answer with a one-line summary"), "global");
        assert_eq!(domain_named("put the standard deviation next to the mean"), None);
        assert_eq!(
            plain.habit("For supplier questions, approved ones first"),
            "domain:raw_material"
        );
        assert_eq!(plain.definition("查配方时我说的老版指V3之前", "查配方时"), "domain:recipe");
        assert_eq!(plain.definition("我说的小样就是供应商样品", ""), "domain:report");
        let anywhere = Place { allowed: &scopes, conversation_scopes: &[], talked_about: None };
        assert_eq!(anywhere.definition("我说的小样就是供应商样品", ""), "global");
        assert_eq!(plain.query_default("日期默认按取样日期算"), "domain:report");
        assert_eq!(plain.focus("最近在做低糖酸奶"), "global");
        let nowhere =
            Place { allowed: &scopes, conversation_scopes: &[], talked_about: Some("report") };
        assert_eq!(nowhere.habit("好，结论放第一段这个习惯记着"), "domain:report");
        assert_eq!(nowhere.habit("可以，就保持这个长度"), "global");
        assert_eq!(nowhere.habit("以后回答都用中文"), "global");
    }
}
