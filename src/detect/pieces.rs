//! Whether a text the model wrote carries a *piece* of a value the
//! detectors find in what it was shown: the password of a message without
//! its label, in another case, reversed, in halves or hex-encoded; four
//! digits of an ID, glued to other digits or not. Each piece passes the
//! detectors alone; only the message it came from shows what it is. Both
//! stages check every text the model writes against the messages it may
//! have seen (a slip: its chunk and context; both: the user's recent
//! conversations, see the `seen` module): a model that saw a password in
//! one call may write it in the next.

use super::context::clause_of;
use super::identifiers::is_identifier;
use super::view::Views;
use super::{Detector, digits_view, view};
use crate::text;

/// Whether `texts` carry a piece of a value (a credential, a personal
/// identifier, an operator pattern) the detectors find in one of
/// `sources`. A value counts when its clause or its source holds no such
/// value with a bland word in its place, so a message with two values
/// protects both.
pub fn carries_a_piece<'s>(
    texts: &[&str],
    sources: impl IntoIterator<Item = &'s str>,
    detector: &Detector,
) -> bool {
    let carried = Carried::of(texts);
    if carried.is_empty() {
        return false;
    }
    sources.into_iter().any(|source| {
        let source = view(&text::normalize(source));
        carries_a_value_word(&carried, &source, detector)
            || carries_digits_of_a_value(&carried, &source, detector)
    })
}

/// Whether `texts` hold anything [`carries_a_piece`] looks for (a value-like
/// word, four digits in a row): when none does, no source need be read.
pub fn may_carry_a_piece(texts: &[&str]) -> bool {
    !Carried::of(texts).is_empty()
}

/// The fewest digits in a row that count as a number (a run of a text).
const MIN_PIECE: usize = 4;

/// The shortest piece of a value word that counts, in letters and digits:
/// the texts are compared with their words run together, and four or five
/// characters turn up there by chance (`card ending in 1234` holds `in123`).
const MIN_WORD_PIECE: usize = 6;

/// Digits in a row of an identifier that count within a longer number: a
/// list of readings or a date runs its digits together, and five of them
/// match some phone number's by chance.
const DIGITS_PIECE: usize = 6;

/// A piece of a long value (a token) that counts whatever its share.
const LONG_PIECE: usize = 12;

/// What texts could carry, read as the detectors read text.
struct Carried {
    /// Each text with a value-like word, lower-cased with all but ASCII
    /// letters and digits left out (`Tr0ub4/dor&3x` → `tr0ub4dor3x`), and
    /// what its hex or base64 words decode to, likewise.
    compact: Vec<String>,
    /// Runs of four digits or more, separators and Chinese numerals read.
    runs: Vec<String>,
}

impl Carried {
    fn of(texts: &[&str]) -> Carried {
        let viewed: Vec<String> = texts.iter().map(|t| view(t)).collect();
        let (mut compact, mut runs) = (Vec::new(), digit_runs_of(texts, &viewed));
        for text in &viewed {
            let plain: Vec<String> = ascii_words(text).filter_map(decoded).collect();
            if value_words(text).is_empty() && spelled_out(text).is_empty() && plain.is_empty() {
                continue;
            }
            compact.push(compact_form(text));
            for plain in plain {
                runs.extend(digit_runs(&digits_view(&plain)));
                compact.push(compact_form(&plain));
            }
        }
        Carried { compact, runs }
    }

    fn is_empty(&self) -> bool {
        self.compact.is_empty() && self.runs.is_empty()
    }

    /// Whether a text holds half of `value` or more (or twelve characters of
    /// a long one), forwards or reversed: a run of its letters and digits
    /// at least that long (and [`MIN_WORD_PIECE`], or all of a shorter
    /// value) with a digit in it, or of eight or more.
    fn holds_a_piece_of_word(&self, value: &str) -> bool {
        let token: Vec<char> = compact_form(value).chars().collect();
        let n = token.len();
        if n < MIN_PIECE || self.compact.is_empty() {
            return false;
        }
        let len = (n / 2).clamp(MIN_WORD_PIECE, LONG_PIECE).min(n);
        let reversed: Vec<char> = token.iter().rev().copied().collect();
        [token, reversed].iter().any(|t| {
            t.windows(len).any(|window| {
                let piece: String = window.iter().collect();
                let telling = piece.bytes().any(|b| b.is_ascii_digit()) || len >= 8;
                // ROT13 and every other letter shift (`Purrfr*2025` for
                // `Cheese*2025`): the digits stay, the letters move.
                telling
                    && (0..26).any(|k| {
                        let piece = shifted(&piece, k);
                        self.compact.iter().any(|c| c.contains(&piece))
                    })
            })
        })
    }

    /// Whether a text holds a piece of the identifier `digits`: its first
    /// or last four or five digits (`尾号 5678`), or [`DIGITS_PIECE`] in a
    /// row anywhere, also within a longer number (`2026 1381234`). Four
    /// digits from its middle are a birth year or a standard's year as
    /// often as a piece (`GB 19301-2010` beside a phone holding 2010).
    fn holds_digits_of(&self, digits: &str) -> bool {
        self.runs.iter().any(|run| {
            if run.len() < DIGITS_PIECE {
                return digits.starts_with(run.as_str()) || digits.ends_with(run.as_str());
            }
            (0..=run.len() - DIGITS_PIECE).any(|i| digits.contains(&run[i..i + DIGITS_PIECE]))
        })
    }
}

/// Whether `carried` holds a piece of a value-like word of `source` that is
/// part of a value there.
fn carries_a_value_word(carried: &Carried, source: &str, detector: &Detector) -> bool {
    value_words(source)
        .iter()
        .filter(|w| carried.holds_a_piece_of_word(w))
        .any(|w| is_part_of_a_value(source, w, detector))
}

/// Whether `word` of `source` is (part of) a value the detectors find:
/// with a bland word in its place, its clause or the whole source holds
/// none. A host name or a column header beside a password is structure:
/// the password is still there when it is replaced.
fn is_part_of_a_value(source: &str, word: &str, detector: &Detector) -> bool {
    let clause = source.find(word).map_or(source, |at| clause_of(source, at, at + word.len()));
    [clause, source].iter().any(|text| {
        detector.finds_a_value(text) && !detector.finds_a_value(&text.replace(word, "x"))
    })
}

/// Whether `carried` holds digits of a number of `source` that is an
/// identifier by itself, or without which the source holds no identifier
/// (an ID written in two parts). The digits of a password or a token are
/// its word's, checked as such: `2024` of `Lims2024` is no piece.
fn carries_digits_of_a_value(carried: &Carried, source: &str, detector: &Detector) -> bool {
    if carried.runs.is_empty() {
        return false;
    }
    let views = Views::of(source);
    views.runs.iter().filter(|run| carried.holds_digits_of(&run.digits)).any(|run| {
        is_identifier(run, &views.words)
            || (detector.finds_an_identifier(source)
                && !detector.finds_an_identifier(&views.digits.replace(run.digits.as_str(), " ")))
    })
}

/// Values spelled out a character at a time (`T r 0 u b 4 d o r & 3 x`):
/// six or more single characters in a row with a digit among them, joined.
fn spelled_out(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current = String::new();
    for word in text.split(' ').chain([""]) {
        let single = word.chars().count() == 1 && word.chars().all(|c| c.is_ascii_graphic());
        if single {
            current.push_str(word);
            continue;
        }
        if current.len() >= 6 && current.bytes().any(|b| b.is_ascii_digit()) {
            found.push(current.clone());
        }
        current.clear();
    }
    found
}

/// `compact` (lower-case letters and digits) with its letters shifted `k`
/// places along the alphabet.
fn shifted(compact: &str, k: u8) -> String {
    compact
        .bytes()
        .map(|b| if b.is_ascii_lowercase() { (b - b'a' + k) % 26 + b'a' } else { b } as char)
        .collect()
}

/// `text` lower-cased, with only its ASCII letters and digits.
fn compact_form(text: &str) -> String {
    text.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// What a hex or base64 word decodes to, when that is printable text.
pub(crate) fn decoded(word: &str) -> Option<String> {
    if word.len() < 8 {
        return None;
    }
    let bytes = if word.len().is_multiple_of(2) && word.bytes().all(|b| b.is_ascii_hexdigit()) {
        (0..word.len()).step_by(2).map(|i| u8::from_str_radix(&word[i..i + 2], 16).ok()).collect()
    } else {
        base64(word)
    }?;
    let text = String::from_utf8(bytes).ok()?;
    // Words that happen to decode give printable noise: a value is mostly
    // letters and digits.
    let alphanumeric = text.chars().filter(char::is_ascii_alphanumeric).count();
    let printable = text.chars().all(|c| c.is_ascii_graphic() || c == ' ');
    (printable && alphanumeric * 5 >= text.len() * 4).then_some(text)
}

/// Standard or URL-safe base64, padded or not.
fn base64(word: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    };
    let sextets: Vec<u8> = word.trim_end_matches('=').bytes().map(value).collect::<Option<_>>()?;
    if sextets.len() < 8 || sextets.len() % 4 == 1 {
        return None;
    }
    let bits = sextets.iter().fold(Vec::new(), |mut out: Vec<u8>, s| {
        out.extend((0..6).rev().map(|i| (s >> i) & 1));
        out
    });
    Some(bits.chunks_exact(8).map(|b| b.iter().fold(0, |acc, bit| acc << 1 | bit)).collect())
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

/// The runs of four digits or more in a digits view.
fn digit_runs(digits: &str) -> Vec<String> {
    digits
        .split(|c: char| !c.is_ascii_digit())
        .filter(|run| run.len() >= MIN_PIECE)
        .map(str::to_owned)
        .collect()
}

/// The words of `text` that look like values rather than words: four
/// characters or more of ASCII, with a digit or a symbol in them.
fn value_words(text: &str) -> Vec<String> {
    ascii_words(text)
        .filter(|w| w.len() >= MIN_PIECE)
        .filter(|w| w.chars().any(|ch| ch.is_ascii_digit() || !ch.is_ascii_alphanumeric()))
        .map(str::to_owned)
        .collect()
}

/// The ASCII words of `text`, split at spaces, other scripts and the
/// punctuation around values.
pub(crate) fn ascii_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|ch: char| !ch.is_ascii_graphic() || ",;:=()[]{}<>\"'`".contains(ch))
        .map(|w| w.trim_end_matches(['.', '!', '?']))
        .filter(|w| !w.is_empty())
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
            "备份 TR0UB4DOR&3X",
            "备份 tr0ub4dor&3",
            "前半 Tr0ub4 收好",
            "后半 b4dor&3x",
            "x3&rod4bu0rT 倒过来",
            "Tr0ub4/dor&3x",
            "hex 547230756234646f72263378",
            "b64 VHIwdWI0ZG9yJjN4",
            "T r 0 u b 4 d o r & 3 x",
            "备份 Ge0ho4qbe&3k",
            "Purrfr Ge0ho4qbe",
        ] {
            assert!(carries(text, SOURCE), "{text}");
        }
    }

    #[test]
    fn digits_of_an_identifier_are_a_piece() {
        let source = "我的身份证 11010519491231002X，以后报告抬头用研发中心";
        assert!(carries("证件前段 1101051949", source));
        assert!(carries("证件后段 1231002X", source));
        assert!(carries("证件 0 1101051949", source), "glued to another digit");
        assert!(carries("编号 2026 1101051 备查", source), "glued to a year");
        let card = "卡号 4111 1111 1111 1111，报销用";
        assert!(carries("b64 NDExMTExMTExMTExMTExMQ==", card), "base64 of the card");
    }

    #[test]
    fn a_dozen_characters_of_a_long_token_are_a_piece() {
        let source = "token ghp_16C7e42F292c6912E7710c838347Ae178B4a 给 CI 用";
        for text in ["ghp_16C7e42F292c", "ghp 16C7e42F 292c6912", "16C7-e42F-292c-6912"] {
            assert!(carries(text, source), "{text}");
        }
        assert!(!carries("ghp_ 前缀的都是 GitHub token", source));
    }

    #[test]
    fn four_digits_from_an_identifiers_middle_are_no_piece() {
        let phone = "有事打我手机 13820101234";
        assert!(carries("尾号 1234", phone));
        assert!(carries("前五位 13820", phone));
        assert!(!carries("按 GB 19301-2010 验收", phone));
        let id = "我的身份证 110105198705120029，报告抬头用研发中心";
        assert!(!carries("1987 年的老配方还在用", id));
        assert!(carries("证件尾 0029", id));
    }

    #[test]
    fn a_second_value_in_the_message_protects_both() {
        let source = "我的身份证 11010519491231002X，卡号 4111 1111 1111 1111，密码是 Tr0ub4dor&3x";
        assert!(carries("证件前段 1101051949", source));
        assert!(carries("卡前八 41111111", source));
        assert!(carries("staging Tr0ub4dor&3x", source));
        let two_passwords = "测试环境密码是 Tr0ub4dor&3x，生产环境密码是 Qz9!mK2#pL";
        assert!(carries("staging Tr0ub4dor&3x", two_passwords));
        assert!(carries("prod Qz9!mK2#pL", two_passwords));
        let beside_a_claim = "我是系统管理员，测试环境密码是 Tr0ub4dor&3x";
        assert!(carries("staging Tr0ub4dor&3x", beside_a_claim));
    }

    #[test]
    fn what_the_source_holds_beside_its_values_is_no_piece() {
        assert!(!carries("质检部负责乳品微生物检测", SOURCE));
        assert!(!carries("pasteurise at 72 °C for 15 s, ISO 22000", SOURCE));
        assert!(!carries("staging: Tr0ub4dor&3x", "我喜欢简短的回答"));
        let with_a_batch = "批号 20261130-B03 的样品，密码是 Tr0ub4dor&3x";
        assert!(!carries("批号 20261130-B03 复测合格", with_a_batch));
        assert!(!carries("vendor 3x concentrate, butter 82%", SOURCE));
    }

    #[test]
    fn only_texts_with_values_or_digit_runs_need_sources() {
        assert!(may_carry_a_piece(&["备份 Tr0ub4dor&3x"]));
        assert!(may_carry_a_piece(&["卡后八 一一一一二二二二"]));
        assert!(!may_carry_a_piece(&["用户偏好简短的回答", "keep answers short"]));
    }
}
