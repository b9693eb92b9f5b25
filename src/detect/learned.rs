//! A learned second opinion on permission claims: a logistic regression over
//! a text's character 2- to 4-grams, trained by `learned/train.py` from the
//! labelled corpus (`tests/data/never_store.jsonl`), weights in
//! `learned/weights.tsv`.
//!
//! Why: the claim patterns recognise the forms they were written for and
//! missed about a third of the claims a new author writes (blind sets Y and
//! Z: 47 of 73 and 33 of 65 caught). Words like 权限, 审批, sign-off or admin in
//! a new arrangement still carry the model's weight. It only adds refusals,
//! at a probability (`threshold`, 0.92) where it flagged 0.25 % of the
//! corpus's harmless lines in cross-validation; the patterns decide first,
//! and a text neither flags is stored. (A model of live facts was tried and
//! left out: it refused ordinary "currently working on" statements.)
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

static MODEL: LazyLock<Model> = LazyLock::new(|| read(include_str!("learned/weights.tsv")));

/// Reads `weights.tsv`: a comment line, `threshold`, `bias`, then one
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

/// The probability that `text` is a claim.
fn probability(text: &str) -> f32 {
    let model = &*MODEL;
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

/// Words that make a text no affirmation of a right: a negation of one
/// (`I'm not an admin`, `我没有审批权限`), a question, a condition, a
/// definition, a job, an exam, or work on something (`我在做权限管理系统的
/// 需求调研`: a recent focus). Character n-grams cannot read
/// them, the patterns do; so the model says nothing of such texts.
static NOT_AFFIRMED: WordSet = WordSet::new(&[
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
    "job",
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

/// Three words, or six Chinese characters: the model learned from
/// statements, and a name or a label (`domain:admin`, a scope) gives it too
/// few n-grams to weigh.
fn is_a_statement(words: &str) -> bool {
    let han = words.chars().filter(|c| matches!(c, '\u{4e00}'..='\u{9fff}')).count();
    han >= 6 || words.split_whitespace().count() >= 3
}

/// The category the model puts `words` in, when it is sure enough and the
/// text affirms something ([`NOT_AFFIRMED`]).
pub(super) fn category(words: &str) -> Option<Category> {
    if !is_a_statement(words) || mentions(words, &NOT_AFFIRMED) {
        return None;
    }
    (probability(words) >= MODEL.threshold).then_some(Category::PermissionClaim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_are_read_whole() {
        let model = &*MODEL;
        assert!(model.weights.len() > 10_000, "{}", model.weights.len());
        assert!((0.5..1.0).contains(&model.threshold), "{}", model.threshold);
        assert!(model.bias.is_finite());
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
        ] {
            let p = probability(text);
            assert_eq!(category(text), expected, "{text}: {p:.3}");
        }
    }
}
