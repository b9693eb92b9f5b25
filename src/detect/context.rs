//! Small helpers for reading the words around a match: keyword lookups and
//! the clause a match sits in.

use regex::Regex;
use std::sync::{LazyLock, OnceLock};

/// A list of keywords looked up in one pass: compiled once into a single
/// case-insensitive alternation (which the regex crate runs as a literal
/// automaton). An ASCII word counts only standing alone (`id` in `id: 3`,
/// not in `video`); a Chinese word counts anywhere.
pub(crate) struct WordSet {
    lists: Lists,
    regex: OnceLock<Regex>,
}

/// One list, or lists that other sets share (written once, read by both).
enum Lists {
    One(&'static [&'static str]),
    Joined(&'static [&'static [&'static str]]),
}

impl WordSet {
    pub(crate) const fn new(words: &'static [&'static str]) -> WordSet {
        WordSet { lists: Lists::One(words), regex: OnceLock::new() }
    }

    /// The words of several lists, some of them shared with other sets.
    pub(crate) const fn joined(lists: &'static [&'static [&'static str]]) -> WordSet {
        WordSet { lists: Lists::Joined(lists), regex: OnceLock::new() }
    }

    fn words(&self) -> impl Iterator<Item = &'static str> {
        let lists: &[&'static [&'static str]] = match &self.lists {
            Lists::One(words) => std::slice::from_ref(words),
            Lists::Joined(lists) => lists,
        };
        lists.iter().flat_map(|words| words.iter().copied())
    }

    pub(crate) fn is_match(&self, text: &str) -> bool {
        self.regex
            .get_or_init(|| {
                let alternatives: Vec<String> = self
                    .words()
                    .map(|w| {
                        let starts = w.chars().next().is_some_and(|c| c.is_ascii_alphanumeric());
                        let ends = w.chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric());
                        format!(
                            "{}{}{}",
                            if starts { r"(?-u:\b)" } else { "" },
                            regex::escape(w),
                            if ends { r"(?-u:\b)" } else { "" }
                        )
                    })
                    .collect();
                // The keyword lists are constants, escaped above, compiled by every test.
                Regex::new(&format!("(?i)(?:{})", alternatives.join("|")))
                    .expect("keyword lists compile")
            })
            .is_match(text)
    }
}

/// Whether `text` mentions any word of `words`.
pub(crate) fn mentions(text: &str, words: &WordSet) -> bool {
    words.is_match(text)
}

/// `word` in `text` (both lower case), not inside a longer ASCII word.
pub(crate) fn contains_word(text: &str, word: &str) -> bool {
    if !word.bytes().any(|b| b.is_ascii_alphanumeric()) {
        return text.contains(word);
    }
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

/// Whether `c` ends a clause: commas, semicolons, full stops, question and
/// exclamation marks, enumeration commas, spaced dashes and line breaks.
fn ends_clause(text: &str, i: usize, c: char) -> bool {
    match c {
        ';' | '。' | '!' | '?' | '、' | '\n' | '|' => true,
        // A comma, not a thousands separator (`$3,000`).
        ',' => {
            !(text[..i].ends_with(|b: char| b.is_ascii_digit())
                && text[i + 1..].starts_with(|n: char| n.is_ascii_digit()))
        }
        // A full stop, not a decimal point or a domain dot.
        '.' => !text[i + 1..].chars().next().is_some_and(|n| n.is_ascii_alphanumeric()),
        // A dash between spaces before a word (`… all systems — don't ask`;
        // the view folds dashes to `-`), not a hyphen or a range (`8-16`,
        // `3000 - 5000 元`, `$3,000 - $5,000`).
        '-' => {
            let before = text[..i].strip_suffix(' ').and_then(|b| b.chars().next_back());
            let after = text[i + 1..].strip_prefix(' ').and_then(|a| a.chars().next());
            before.is_some_and(|c| !c.is_ascii_digit())
                && after.is_some_and(|c| c.is_alphabetic() && !c.is_ascii_digit())
        }
        _ => false,
    }
}

/// What `head` (the words before a match) says after its last `: `: a
/// lead-in before a colon (`quick context before my question: …`) frames
/// nothing after it, unless it introduces an example or a quotation
/// (`Example phishing line: 'I have root access'`).
pub(crate) fn after_lead_in(head: &str) -> &str {
    static EXAMPLE: WordSet = WordSet::new(&[
        "example", "examples", "e.g", "such as", "like", "sample", "template", "phishing", "quote",
        "says", "said", "wrote", "例如", "比如", "示例", "例子",
    ]);
    match head.rsplit_once(": ") {
        Some((lead, rest))
            if !mentions(&lead.to_lowercase(), &EXAMPLE)
                && !rest.trim_start().starts_with(['\'', '"', '“', '‘', '「']) =>
        {
            rest
        }
        _ => head,
    }
}

/// The clause of `text` holding byte `pos`.
pub(crate) fn clause_around(text: &str, pos: usize) -> &str {
    let pos = pos.min(text.len());
    let start = text[..pos]
        .char_indices()
        .rev()
        .find(|&(i, c)| ends_clause(text, i, c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[pos..]
        .char_indices()
        .find(|&(i, c)| ends_clause(text, pos + i, c))
        .map_or(text.len(), |(i, _)| pos + i);
    &text[start..end.max(start)]
}

/// The clause of `text` spanning bytes `start..end` (a match may cross no
/// clause boundary, but take the union to be safe).
pub(crate) fn clause_of(text: &str, start: usize, end: usize) -> &str {
    let first = clause_around(text, start);
    let last_char =
        text[..end.min(text.len())].char_indices().next_back().map_or(start, |(i, _)| i);
    let last = clause_around(text, last_char.max(start));
    let from = first.as_ptr() as usize - text.as_ptr() as usize;
    let to = last.as_ptr() as usize - text.as_ptr() as usize + last.len();
    &text[from..to.max(from)]
}

/// Coordinating conjunctions that start a second statement within a clause.
static CONJUNCTION: LazyLock<Regex> =
    LazyLock::new(|| super::re(r"(?i)\s(?:and|but)\s|并且|而且|但是|不过"));

/// The clause of `text` around bytes `start..end`, cut after `end` at the
/// first conjunction: what a negation or a condition must sit in to bear
/// on the match. In `order 5 shipped yesterday and should arrive Friday`,
/// the `should` belongs to the second statement, not to the first.
pub(crate) fn statement_of(text: &str, start: usize, end: usize) -> &str {
    let clause = clause_of(text, start, end);
    let from = clause.as_ptr() as usize - text.as_ptr() as usize;
    let to = from + clause.len();
    let end = end.clamp(from, to);
    let cut = CONJUNCTION.find(&text[end..to]).map_or(to, |m| end + m.start());
    &text[from..cut]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_words_stand_alone() {
        static WORDS: WordSet = WordSet::new(&["批号", "id", "call"]);
        assert!(mentions("批号: 3", &WORDS));
        assert!(mentions("the ID is", &WORDS));
        assert!(!mentions("video", &WORDS));
        assert!(mentions("Call me", &WORDS));
        assert!(!mentions("recall", &WORDS));
        assert!(contains_word("the id is", "id"));
        assert!(!contains_word("video", "id"));
    }

    #[test]
    fn clauses_end_at_punctuation_not_decimal_points() {
        let text = "我是管理员, 需要 3.5 元的东西? 好";
        assert_eq!(clause_around(text, 3), "我是管理员");
        let p = text.find("3.5").unwrap();
        assert_eq!(clause_around(text, p), " 需要 3.5 元的东西");
        assert_eq!(clause_around("Budget: $3,000, fixed", 0), "Budget: $3,000");
    }

    #[test]
    fn a_statement_ends_at_the_next_conjunction_or_spaced_dash() {
        let text = "Order 5 shipped yesterday and should arrive Friday";
        assert_eq!(statement_of(text, 0, 15), "Order 5 shipped yesterday");
        let text = "I have full access - don't ask me";
        assert_eq!(clause_around(text, 0), "I have full access ");
        assert_eq!(clause_around("range 8-16 chars", 0), "range 8-16 chars");
        assert_eq!(clause_around("预算 3000 - 5000 元", 0), "预算 3000 - 5000 元");
        assert_eq!(clause_around("$3000 - $5000 budget", 0), "$3000 - $5000 budget");
        let text = "我不是管理员并且没有权限";
        assert_eq!(statement_of(text, 3, 6), "我不是管理员");
    }
}
