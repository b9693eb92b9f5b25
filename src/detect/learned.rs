//! Learned second opinions on permission claims and on live business facts:
//! logistic regressions over a text's character 2- to 4-grams, trained by
//! `learned/train.py` from the labelled corpus
//! (`tests/data/never_store.jsonl`), weights in `learned/claims.tsv` and
//! `learned/live_facts.tsv`.
//!
//! Why: the patterns recognise the forms they were written for and missed
//! about a third of the claims a new author writes (blind sets Y and Z: 47
//! of 73 and 33 of 65 caught) and over 40 % of the live facts (set AA: 129
//! of 224). Words like 权限, 审批, sign-off or admin, 还没发, 在途 or still
//! pending in a new arrangement still carry a model's weight. A model only
//! adds refusals, at a probability (`threshold` in its file) where it
//! flagged under 0.5 % of the corpus's harmless lines in cross-validation;
//! the patterns decide first, and a text none flags is stored. Each reads
//! only affirmative statements: the words that make a text something else
//! ([`NOT_AFFIRMED`], [`NOT_A_CURRENT_VALUE`]) are read by the patterns.
//!
//! The view it reads: NFKC, lower case, whitespace runs as one space, a
//! space at each end; each distinct n-gram counts once and the sum is scaled
//! by the square root of their number, as the training did.

use super::Category;
use super::context::{WordSet, mentions};
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;
use unicode_normalization::UnicodeNormalization;

/// The trained model: threshold, intercept, the n-gram weights.
struct Model {
    threshold: f32,
    bias: f32,
    weights: HashMap<&'static str, f32>,
}

static CLAIMS: LazyLock<Model> = LazyLock::new(|| read(include_str!("learned/claims.tsv")));
static LIVE_FACTS: LazyLock<Model> = LazyLock::new(|| read(include_str!("learned/live_facts.tsv")));

/// Reads a weights file: a comment line, `threshold`, `bias`, then one
/// n-gram and its weight per line. The file is written by `train.py` and
/// checked by the tests: a malformed line is a build that cannot have
/// passed them, so it is skipped rather than failing every scan.
fn read(text: &'static str) -> Model {
    let mut lines = text.lines().skip(1);
    let mut field = |name: &str| -> Option<f32> {
        lines.next()?.strip_prefix(name)?.trim_start_matches('\t').parse().ok()
    };
    let threshold = field("threshold").unwrap_or(f32::INFINITY);
    let bias = field("bias").unwrap_or(f32::NEG_INFINITY);
    let weights = lines
        .filter_map(|line| {
            let (gram, weight) = line.split_once('\t')?;
            Some((gram, weight.parse().ok()?))
        })
        .collect();
    Model { threshold, bias, weights }
}

/// The text as the model reads it.
fn model_view(text: &str) -> String {
    let folded: String = text.nfkc().collect::<String>().to_lowercase();
    let words: Vec<&str> = folded.split_whitespace().collect();
    format!(" {} ", words.join(" "))
}

impl Model {
    /// The probability that `text` is of the model's category.
    fn probability(&self, text: &str) -> f32 {
        let model = self;
        let view = model_view(text);
        let bounds: Vec<usize> = view.char_indices().map(|(i, _)| i).chain([view.len()]).collect();
        let mut seen = HashSet::new();
        let (mut sum, mut present) = (0f32, 0usize);
        for (k, &start) in bounds.iter().enumerate() {
            for &end in bounds.iter().skip(k + 2).take(3) {
                let gram = &view[start..end];
                if gram.trim().is_empty() || !seen.insert(gram) {
                    continue;
                }
                if let Some(w) = model.weights.get(gram) {
                    sum += w;
                    present += 1;
                }
            }
        }
        let scale = if present == 0 { 0.0 } else { 1.0 / (present as f32).sqrt() };
        1.0 / (1.0 + (-(model.bias + sum * scale)).exp())
    }

    /// Whether the model is sure enough that `words` are of its category.
    fn is_sure(&self, words: &str) -> bool {
        self.probability(words) >= self.threshold
    }
}

/// Words that make a text no affirmation of a right: a negation of one
/// (`I'm not an admin`, `我没有审批权限`), a question, a condition, a
/// definition, a job (`I'm the admin assistant to the director`), an exam,
/// or work on something (`我在做权限管理系统的
/// 需求调研`: a recent focus). Character n-grams cannot read
/// them, the patterns do; so the model says nothing of such texts.
static NOT_AFFIRMED: WordSet = WordSet::new(&[
    "listed in",
    "are listed",
    "annex",
    "appendix",
    "列在",
    "not",
    "don't",
    "doesn't",
    "didn't",
    "can't",
    "cannot",
    "isn't",
    "aren't",
    "wasn't",
    "won't",
    "haven't",
    "hasn't",
    "just a user",
    "normal user",
    "no",
    "never",
    "nobody",
    "none",
    "neither",
    "without",
    "if",
    "unless",
    "whether",
    "once",
    "?",
    "means",
    "meaning",
    "refers to",
    "stands for",
    "e.g",
    "example",
    "such as",
    "work as",
    "approve of",
    "approves of",
    "job",
    "assistant",
    "secretary",
    "receptionist",
    "助理",
    "秘书",
    "文员",
    "studying",
    "exam",
    "certification",
    "course",
    "template",
    "不是",
    "并非",
    "权威",
    "没有",
    "没",
    "无权",
    "不能",
    "不可以",
    "不可",
    "不允许",
    "吗",
    "么",
    "如果",
    "假如",
    "要是",
    "万一",
    "是否",
    "指的是",
    "是指",
    "意思",
    "规则",
    "规定",
    "制度",
    "例如",
    "比如",
    "举例",
    "在做",
    "在搞",
    "在写",
    "在研究",
    "需求",
    "working on",
    "researching",
    "考试",
    "认证",
    "课程",
    "模板",
]);

/// Six Chinese characters or `min_words` words: the models learned from
/// statements, and a name or a label (`domain:admin`, a scope) gives them
/// too few n-grams to weigh. The live-fact model needs four words: with
/// three, a short Chinese wish behind two English words (`content of
/// 结果先行`) was weighed by `of` and `ent` alone.
fn is_a_statement(words: &str, min_words: usize) -> bool {
    let han = words.chars().filter(|c| matches!(c, '\u{4e00}'..='\u{9fff}')).count();
    han >= 6 || words.split_whitespace().count() >= min_words
}

/// Words that make a text no statement of a current value: a question
/// (`现在还剩多少？`, `Is lactose back in stock?`), a condition or a case
/// imagined, a definition, a rule, a plan or target, work on something
/// (`My main project right now is cutting order lead time`: a recent
/// focus), a formatting wish, or a past told as such. Negations stay: `还没
/// 发货` and `hasn't shipped` are statuses.
static NOT_A_CURRENT_VALUE: WordSet = WordSet::new(&[
    "?",
    "吗",
    "么",
    "多少",
    "什么",
    "哪",
    "是否",
    "能否",
    "有没有",
    "如果",
    "假设",
    "假如",
    "万一",
    "要是",
    "一旦",
    "的话",
    "if",
    "imagine",
    "suppose",
    "assume",
    "assuming",
    "what if",
    "would",
    "指的是",
    "是指",
    "意思",
    "称为",
    "叫做",
    "in our team",
    "our team",
    "in our group",
    "we call",
    "i mean",
    "我们管",
    "我们叫",
    "我们这儿",
    "在我们这",
    "我们组",
    "表示",
    "定义",
    "means",
    "refers to",
    "stands for",
    "definition",
    "一般",
    "通常",
    "默认",
    "规则",
    "规定",
    "制度",
    "流程",
    "必须",
    "应该",
    "要求",
    "每次",
    "以后",
    "must",
    "should",
    "always",
    "usually",
    "typically",
    "generally",
    "every",
    "each",
    "policy",
    "rule",
    "within",
    "目标",
    "target",
    "预算",
    "budget",
    "参考",
    "在做",
    "在搞",
    "在写",
    "在研究",
    "负责",
    "项目",
    "重点",
    "课题",
    "working on",
    "project",
    "focus",
    "migrating",
    "building",
    "responsible",
    "in charge",
    "my job",
    "列",
    "栏",
    "格式",
    "模板",
    "template",
    "不清楚",
    "不知道",
    "不确定",
    "not sure",
    "don't know",
    "标红",
    "标绿",
    "标黄",
    "标成",
    "标出",
    "标注",
    "标记",
    "排序",
    "分组",
    "报表",
    "表头",
    "column",
    "format",
    "display",
    "highlight",
    "sort",
    "group",
    "report",
    "layout",
    "去年",
    "前年",
    "那次",
    "当时",
    "以前",
    "曾经",
    "back in",
    "used to",
    "那会儿",
    "当年",
    "那时",
    "back then",
    "years ago",
    "per",
    "每",
    "rated",
    "typical",
    "字段",
    "枚举",
    "values",
    "definitions",
    "单位",
]);

/// A claim, when the claim model is sure of it and the text affirms
/// something ([`NOT_AFFIRMED`]).
pub(super) fn claim(words: &str) -> Option<Category> {
    let affirmed = is_a_statement(words, 3) && !mentions(words, &NOT_AFFIRMED);
    (affirmed && CLAIMS.is_sure(words)).then_some(Category::PermissionClaim)
}

/// A live business fact, when the live-fact model is sure of it and the
/// text states something as it is ([`NOT_A_CURRENT_VALUE`]).
pub(super) fn live_fact(words: &str) -> Option<Category> {
    let stated = is_a_statement(words, 4) && !mentions(words, &NOT_A_CURRENT_VALUE);
    (stated && LIVE_FACTS.is_sure(words)).then_some(Category::LiveBusinessFact)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_are_read_whole() {
        for model in [&*CLAIMS, &*LIVE_FACTS] {
            assert!(model.weights.len() > 10_000, "{}", model.weights.len());
            assert!((0.5..1.0).contains(&model.threshold), "{}", model.threshold);
            assert!(model.bias.is_finite());
        }
    }

    #[test]
    fn the_view_is_the_training_view() {
        assert_eq!(model_view("  Ｉ ＨＡＶＥ\u{3000}admin\n rights "), " i have admin rights ");
    }

    /// Claims of blind sets Y and Z (written after the model was trained)
    /// that no pattern recognised, and ordinary lines beside them: the
    /// second opinion adds the first, passes the second (recent focus
    /// above all: it is what dreamd keeps), and says nothing of a negation.
    #[test]
    fn it_reads_claims_in_new_words_and_passes_ordinary_ones() {
        for (text, expected) in [
            ("lzh有配方库的写权限，他改的东西不用再走审核", Some(Category::PermissionClaim)),
            (
                "今天上午刚开通的，ERP里采购订单审批我这一级可以直接过了",
                Some(Category::PermissionClaim),
            ),
            ("I'm not an admin, so please give me steps that don't need elevated rights.", None),
            ("我没有审批权限，这个得找QA经理", None),
            ("我的角色是配方工程师", None),
            ("审批状态那一列标绿", None),
            ("Please put the approval status column in green", None),
            ("我最近在做库存管理系统的需求分析", None),
            ("现在在做燕麦饮项目", None),
            ("现在手上有三个项目：低糖酸奶、燕麦饮和奶酪棒", None),
            ("I'm currently working on the oat milk shelf-life study", None),
            ("我在做权限管理系统的需求调研", None),
            ("I'm the admin assistant to the R&D director, so I handle her calendar", None),
        ] {
            let p = CLAIMS.probability(text);
            assert_eq!(claim(text), expected, "{text}: {p:.3}");
        }
    }

    /// Live facts of set AA that no pattern recognised, and what dreamd
    /// must keep beside them: a recent focus said with a word of now, a
    /// definition, a wish behind a model's English words. A question asks
    /// for a value and states none.
    #[test]
    fn it_reads_live_facts_in_new_words_and_passes_what_dreamd_keeps() {
        for (text, expected) in [
            ("PO 4471 现在还是 pending approval。", Some(Category::LiveBusinessFact)),
            ("Jira 那张票还在 In Review。", Some(Category::LiveBusinessFact)),
            ("The 20 tons of palm olein are still on the water.", Some(Category::LiveBusinessFact)),
            ("新标签的变更申请现在走到第三步，等法规部审。", Some(Category::LiveBusinessFact)),
            ("目前也在协助品保部门做过敏原交叉污染的评估", None),
            ("现在在做燕麦饮项目", None),
            ("I'm currently working on the oat milk shelf-life study", None),
            ("content of 结果先行", None),
            (
                "Just so you know, a 'hold batch' in our team is a batch that's waiting on micro results before release",
                None,
            ),
            ("现在 WPC80 还有多少 stock？", None),
        ] {
            let p = LIVE_FACTS.probability(text);
            assert_eq!(live_fact(text), expected, "{text}: {p:.3}");
        }
    }
}
