//! Whether a text the model wrote carries a *piece* of what the detectors
//! find in what the user wrote: the value of a password without its label,
//! four digits of an ID. Each piece passes the detectors alone; only the
//! message it came from shows what it is. Stage one checks a slip against
//! the user messages of its chunk and context, stage two checks every text
//! it would store against the user's recent messages: a model that saw a
//! password in one call may write it in the next.

use super::{Detector, digits_view, view};
use crate::text;

/// Whether `texts` carry a piece of what the detectors find in one of
/// `sources` (what the user wrote): a value-like word of the source
/// (`Tr0ub4dor&3x`, `jay@example.com`) or four digits or more of a number,
/// without which that source has no finding. The texts are read as the
/// detectors read text, so a glued (`staging=Tr0ub4dor&3x`), full-width or
/// zero-width copy counts; a source is scanned only when the texts hold one
/// of its value-like words or one of its numbers.
pub fn carries_a_piece<'s>(
    texts: &[&str],
    sources: impl IntoIterator<Item = &'s str>,
    detector: &Detector,
) -> bool {
    let viewed: Vec<String> = texts.iter().map(|t| view(t)).collect();
    let runs = digit_runs_of(texts, &viewed);
    if runs.is_empty() && viewed.iter().all(|t| value_words(t).is_empty()) {
        return false;
    }
    sources.into_iter().any(|source| {
        let source = view(&text::normalize(source));
        let carried: Vec<String> = value_words(&source)
            .into_iter()
            .filter(|w| viewed.iter().any(|t| t.contains(w.as_str())))
            .collect();
        let holds_a_run = !runs.is_empty() && {
            let digits = digits_view(&source);
            runs.iter().any(|run| digits.contains(run.as_str()))
        };
        (!carried.is_empty() || holds_a_run)
            && detector.scan(&source).is_some()
            && (carried.iter().any(|w| detector.scan(&source.replace(w.as_str(), " ")).is_none())
                || carries_part_of_an_identifier(&runs, &source, detector))
    })
}

/// Whether `texts` hold anything [`carries_a_piece`] looks for (a value-like
/// word, four digits in a row): when none does, no source need be read.
pub fn may_carry_a_piece(texts: &[&str]) -> bool {
    let viewed: Vec<String> = texts.iter().map(|t| view(t)).collect();
    !digit_runs_of(texts, &viewed).is_empty() || viewed.iter().any(|t| !value_words(t).is_empty())
}

/// The runs of four digits or more of `texts` (their `viewed` forms), read
/// as the detectors read digits: separators and Chinese numerals folded.
fn digit_runs_of(texts: &[&str], viewed: &[String]) -> Vec<String> {
    let digit_like = |ch: char| ch.is_numeric() || "〇零一二三四五六七八九幺两".contains(ch);
    if !texts.iter().any(|t| t.chars().any(digit_like)) {
        return Vec::new();
    }
    viewed.iter().flat_map(|t| digit_runs(&digits_view(t))).collect()
}

/// Whether one of `runs` lies in an identifier of `message` (which has a
/// finding: a phone number, an ID, a card, a number without which the
/// detectors find nothing there).
fn carries_part_of_an_identifier(runs: &[String], message: &str, detector: &Detector) -> bool {
    if runs.is_empty() {
        return false;
    }
    let message = digits_view(message);
    digit_runs(&message)
        .into_iter()
        .filter(|id| detector.scan(&message.replace(id.as_str(), " ")).is_none())
        .any(|id| runs.iter().any(|run| id.contains(run.as_str())))
}

/// The runs of four digits or more in a digits view.
fn digit_runs(digits: &str) -> Vec<String> {
    digits
        .split(|c: char| !c.is_ascii_digit())
        .filter(|run| run.len() >= 4)
        .map(str::to_owned)
        .collect()
}

/// The words of `text` that look like values rather than words: four
/// characters or more of ASCII, with a digit or a symbol in them, split at
/// spaces, other scripts and the punctuation around values.
fn value_words(text: &str) -> Vec<String> {
    text.split(|ch: char| !ch.is_ascii_graphic() || ",;:=()[]{}<>\"'`".contains(ch))
        .map(|w| w.trim_end_matches(['.', '!', '?']))
        .filter(|w| w.len() >= 4)
        .filter(|w| w.chars().any(|ch| ch.is_ascii_digit() || !ch.is_ascii_alphanumeric()))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "测试环境密码是 Tr0ub4dor&3x，另外我在研发中心质检部";

    fn carries(text: &str, source: &str) -> bool {
        carries_a_piece(&[text], [source], &Detector::new(Vec::new()))
    }

    #[test]
    fn a_value_without_its_label_is_a_piece() {
        for text in [
            "质检部; staging: Tr0ub4dor&3x",
            "staging=Tr0ub4dor&3x",
            "ｓｔａｇｉｎｇ Ｔｒ０ｕｂ４ｄｏｒ＆３ｘ",
            "Tr0ub4\u{200b}dor&3x",
        ] {
            assert!(carries(text, SOURCE), "{text}");
        }
    }

    #[test]
    fn digits_of_an_identifier_are_a_piece() {
        let source = "我的身份证 11010519491231002X，以后报告抬头用研发中心";
        assert!(carries("证件前段 1101051949", source));
        assert!(carries("证件后段 1231002X", source));
    }

    #[test]
    fn what_the_source_holds_beside_its_finding_is_no_piece() {
        assert!(!carries("质检部负责乳品微生物检测", SOURCE));
        assert!(!carries("pasteurise at 72 °C for 15 s, ISO 22000", SOURCE));
        assert!(!carries("staging: Tr0ub4dor&3x", "我喜欢简短的回答"));
    }

    #[test]
    fn only_texts_with_values_or_digit_runs_need_sources() {
        assert!(may_carry_a_piece(&["备份 Tr0ub4dor&3x"]));
        assert!(may_carry_a_piece(&["卡后八 一一一一二二二二"]));
        assert!(!may_carry_a_piece(&["用户偏好简短的回答", "keep answers short"]));
    }
}
