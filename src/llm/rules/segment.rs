//! Cutting a message into sentences and a sentence into clauses, keeping
//! where each piece lies, so that every quote the rules propose is a
//! verbatim, contiguous piece of the message (spec §5's quote check).

use regex::Regex;
use std::sync::LazyLock;

/// A piece of a message: its text and the byte offset where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span<'a> {
    pub start: usize,
    pub text: &'a str,
}

impl<'a> Span<'a> {
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }

    /// The piece of `whole` from this span's start to `last`'s end.
    pub fn through(&self, last: &Span<'a>, whole: &'a str) -> Span<'a> {
        Span { start: self.start, text: &whole[self.start..last.end()] }
    }
}

/// A sentence and whether it ends as a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sentence<'a> {
    pub span: Span<'a>,
    pub question: bool,
}

/// Sentence ends: Chinese and Western stops, question and exclamation marks,
/// line breaks, and a full stop followed by a space or the end (so "6.5" and
/// "ISO 6579-1:2017" stay whole). Semicolons only break clauses.
static SENTENCE_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[。！？!?\n]+|\.(?:\s+|$)").expect("valid pattern"));

/// Clause breaks inside a sentence: Chinese commas, semicolons and colons,
/// Western ones followed by a space, dashes between spaces, and "and" or
/// "but" before a new subject ("I lead the lab and I have admin rights":
/// two statements, which stand or fall on their own). The subject stays
/// with its clause.
static CLAUSE_BREAK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[，；：;]|[,:](?:\s|$)|\s[-–—]\s|——|\s(?:and|but)\s(?:I|we)\b")
        .expect("valid pattern")
});

/// The sentences of a message, trimmed, with their offsets.
pub fn sentences(content: &str) -> Vec<Sentence<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in SENTENCE_END.find_iter(content) {
        if let Some(span) = trimmed(content, start, end.start()) {
            let question = end.as_str().contains(['？', '?']) || asks(span.text);
            out.push(Sentence { span, question });
        }
        start = end.end();
    }
    if let Some(span) = trimmed(content, start, content.len()) {
        out.push(Sentence { span, question: asks(span.text) });
    }
    out
}

/// A Chinese sentence that ends in 吗 asks, though no question mark says so
/// ("CCP是指关键控制点吗").
fn asks(sentence: &str) -> bool {
    sentence.ends_with('吗')
}

/// The clauses of a sentence, trimmed, with offsets into the message.
pub fn clauses<'a>(sentence: &Span<'a>) -> Vec<Span<'a>> {
    let mut out = Vec::new();
    let mut start = 0;
    for split in CLAUSE_BREAK.find_iter(sentence.text) {
        if let Some(span) = trimmed(sentence.text, start, split.start()) {
            out.push(shifted(span, sentence.start));
        }
        let subject = split.as_str().len()
            - split.as_str().trim_end_matches(|c: char| c.is_ascii_alphabetic()).len();
        start = split.end() - subject;
    }
    if let Some(span) = trimmed(sentence.text, start, sentence.text.len()) {
        out.push(shifted(span, sentence.start));
    }
    out
}

fn trimmed(text: &str, start: usize, end: usize) -> Option<Span<'_>> {
    let piece = &text[start..end];
    let leading = piece.len() - piece.trim_start().len();
    let inner = piece.trim();
    (!inner.is_empty()).then_some(Span { start: start + leading, text: inner })
}

fn shifted(span: Span<'_>, by: usize) -> Span<'_> {
    Span { start: span.start + by, text: span.text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_keep_their_place_and_know_questions() {
        let text = "以后先说结果。 这个对吗？Keep it short. Thanks";
        let found = sentences(text);
        let texts: Vec<&str> = found.iter().map(|s| s.span.text).collect();
        assert_eq!(texts, ["以后先说结果", "这个对吗", "Keep it short", "Thanks"]);
        let questions: Vec<bool> = found.iter().map(|s| s.question).collect();
        assert_eq!(questions, [false, true, false, false]);
        let asked: Vec<bool> =
            sentences("这个是指总固形物吗。就按这个来").iter().map(|s| s.question).collect();
        assert_eq!(asked, [true, false]);
        for s in &found {
            assert_eq!(&text[s.span.start..s.span.end()], s.span.text);
        }
    }

    #[test]
    fn numbers_and_references_do_not_end_sentences_or_clauses() {
        let found = sentences("Cite ISO 6579-1:2017 in full, e.g. 1.2 × 10^3 or 6,850 USD.");
        assert_eq!(found.len(), 2, "{found:?}");
        let clauses = clauses(&found[0].span);
        let texts: Vec<&str> = clauses.iter().map(|c| c.text).collect();
        assert_eq!(texts, ["Cite ISO 6579-1:2017 in full", "e.g"]);
    }

    #[test]
    fn clauses_split_on_commas_colons_and_dashes_and_join_back_verbatim() {
        let text = "跟你更新一下：我在质检部，负责微生物 - mostly Listeria, and more";
        let sentence = sentences(text)[0].span;
        let found = clauses(&sentence);
        let texts: Vec<&str> = found.iter().map(|c| c.text).collect();
        assert_eq!(
            texts,
            ["跟你更新一下", "我在质检部", "负责微生物", "mostly Listeria", "and more"]
        );
        let joined = found[1].through(&found[2], text);
        assert_eq!(joined.text, "我在质检部，负责微生物");
        let sentence = sentences("I run the pilot plant and I sign the batch records")[0].span;
        let texts: Vec<&str> = clauses(&sentence).iter().map(|c| c.text).collect();
        assert_eq!(texts, ["I run the pilot plant", "I sign the batch records"]);
        let sentence = sentences("salt and pepper and we're done")[0].span;
        let texts: Vec<&str> = clauses(&sentence).iter().map(|c| c.text).collect();
        assert_eq!(texts, ["salt and pepper", "we're done"]);
    }
}
