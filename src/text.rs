//! Text normalisation shared by quote checks, equality and fingerprints (spec §10.6).

use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::sync::LazyLock;
use unicode_normalization::UnicodeNormalization;

/// NFC, every run of Unicode whitespace (U+3000 included) as one ASCII space, trimmed.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.nfc() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
        } else {
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            out.push(c);
        }
    }
    out
}

/// The form used to compare memory and suggestion texts: normalised and case-folded.
pub fn fold(text: &str) -> String {
    normalize(text).to_lowercase()
}

/// A one-way fingerprint of a text's folded form ([`fold`]); tombstones
/// written before [`loose_fingerprint`] hold this one.
pub fn fingerprint(text: &str) -> String {
    hex(&Sha256::digest(fold(text).as_bytes()))
}

/// A one-way fingerprint that also ignores invisible characters, width
/// (NFKC), case, punctuation, symbols and spaces. Tombstones written by
/// releases of November 2026 hold this one; [`folded_fingerprint`] replaced it.
pub fn loose_fingerprint(text: &str) -> String {
    hex(&Sha256::digest(letters_of(text).as_bytes()))
}

/// The letters and digits of a text as it reads: invisible characters,
/// width (NFKC), case, punctuation, symbols and spaces left out.
fn letters_of(text: &str) -> String {
    let visible: String = text.chars().filter(|&c| !is_invisible(c)).collect();
    visible.nfkc().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// What a text says, for comparing two: its letters and digits, a sign
/// before a number and a point inside one (`-18`, `4.5` are not `18`, `45`),
/// invisible characters, width, case, other punctuation and spaces left
/// out, and Traditional Chinese read as Simplified, so that `…工程师！`,
/// `…工程師` and `…工程\u{200B}师` are one text.
pub fn loose_form(text: &str) -> String {
    let visible: String = text.chars().filter(|&c| !is_invisible(c)).collect();
    let chars: Vec<char> = visible.nfkc().collect();
    let digit_at =
        |i: Option<usize>| i.and_then(|i| chars.get(i)).is_some_and(char::is_ascii_digit);
    let kept: String = (0..chars.len())
        .filter(|&i| {
            let c = chars[i];
            c.is_alphanumeric()
                || (matches!(c, '-' | '+') && digit_at(Some(i + 1)))
                || (c == '.' && digit_at(i.checked_sub(1)) && digit_at(Some(i + 1)))
        })
        .flat_map(|i| chars[i].to_lowercase())
        .collect();
    fast2s::convert(&kept)
}

/// A one-way fingerprint of [`loose_form`]. Tombstones keep this one instead
/// of the text, so a deleted text does not come back with a `！`, a
/// zero-width space or in Traditional characters.
pub fn folded_fingerprint(text: &str) -> String {
    hex(&Sha256::digest(loose_form(text).as_bytes()))
}

/// The runs of one or more consecutive clauses of `text` (split at
/// sentence and clause punctuation), the whole text aside: where a deleted
/// text written inside a longer one is looked for. At most 32 clauses are
/// read, so a text gives at most 528 runs.
pub fn clause_runs(text: &str) -> Vec<&str> {
    const MOST: usize = 32;
    let breaks = |c: char| ",.;!?，。；！？、\n".contains(c);
    let mut clauses = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices().filter(|&(_, c)| breaks(c)) {
        clauses.push((start, i));
        start = i + c.len_utf8();
    }
    clauses.push((start, text.len()));
    clauses.truncate(MOST);
    let mut runs = Vec::new();
    for (i, &(from, _)) in clauses.iter().enumerate() {
        for &(_, to) in &clauses[i..] {
            let run = &text[from..to];
            if run.len() < text.len() && !run.trim().is_empty() {
                runs.push(run);
            }
        }
    }
    runs
}

/// Every fingerprint a tombstone may hold of a text, old and new.
pub fn fingerprints(text: &str) -> [String; 3] {
    [fingerprint(text), loose_fingerprint(text), folded_fingerprint(text)]
}

/// Default-ignorable code points (Unicode `DerivedCoreProperties.txt`,
/// `Default_Ignorable_Code_Point`) and the remaining format characters
/// (general category `Cf`): zero-width spaces and joiners, soft hyphens, bidi
/// marks and embeddings, word joiners, variation selectors, tags, BOM, and
/// the blank braille pattern. None of them is visible, so none may split a word or a number for a detector.
pub fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5
        | 0x180B..=0x180F | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F
        | 0x2800 | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF
        // Format characters that are not default-ignorable.
        | 0x0600..=0x0605 | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2
        | 0x110BD | 0x110CD | 0x13430..=0x1343F)
}

/// The bidi embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069): they make a text display other than it reads
/// (`\u{202E}moc.elpmaxe@yaj` shows as an address), so no stored text holds one.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c as u32, 0x202A..=0x202E | 0x2066..=0x2069)
}

/// True when `quote`, normalised, occurs in `message`, normalised.
pub fn quote_occurs_in(quote: &str, message: &str) -> bool {
    let quote = normalize(quote);
    !quote.is_empty() && normalize(message).contains(&quote)
}

/// Whether `others` together hold at least half of `text`'s terms
/// ([`terms`], common English words aside): how the policy tells that the
/// user said a text again. One shared word is not enough: a deleted
/// `ZQX夜莺项目的配方评审` came back on `这个项目的事情先放一放` (hm6 F2).
pub fn restates<'a>(text: &str, others: impl IntoIterator<Item = &'a str>) -> bool {
    let own: BTreeSet<String> =
        terms(text).into_iter().filter(|t| !STOP_WORDS.contains(&t.as_str())).collect();
    let said: BTreeSet<String> = others.into_iter().flat_map(terms).collect();
    !own.is_empty() && own.intersection(&said).count() * 2 >= own.len()
}

/// A text's terms, folded: ASCII words of three characters or more, and
/// adjacent pairs of characters in other words (`报告先写` → 报告, 告先, 先写).
pub fn terms(text: &str) -> BTreeSet<String> {
    let folded = fold(text);
    let mut out = BTreeSet::new();
    for word in folded.split(|c: char| !c.is_alphanumeric()) {
        if word.is_ascii() {
            if word.len() >= 3 {
                out.insert(word.to_owned());
            }
        } else {
            let chars: Vec<char> = word.chars().collect();
            out.extend(chars.windows(2).map(|w| w.iter().collect::<String>()));
        }
    }
    out
}

/// Whether `text` rests on `evidence`, the texts it was written from: what
/// keeps a model from putting words this user never said into a slip or a
/// memory (another user's sentence, from a model that saw both). The text
/// and each of its clauses of four terms or more (words, or pairs of
/// Chinese characters, the commonest aside) must share a fifth of their
/// terms with the evidence, or a third of their Chinese characters. Not
/// judged: a script of which the evidence holds fewer than three terms (a
/// content may translate its quote), nor Chinese pairs that English words
/// missing from the text may have been translated into, up to three pairs
/// a word, when the evidence they are in shares something with the text
/// (`我是 IT helpdesk 的 team lead` noted as `用户是IT服务台组长`). Width,
/// case, invisible characters and Traditional characters do not count.
pub fn rests_on<'a>(text: &str, evidence: impl IntoIterator<Item = &'a str>) -> bool {
    let whole = Terms::of(text);
    let mut said = Terms::default();
    let mut untranslated = BTreeSet::new();
    for piece in evidence {
        let terms = Terms::of(piece);
        if terms.shares_something_with(&whole) {
            let english = terms.words.iter().filter(|w| w.bytes().all(|b| b.is_ascii_alphabetic()));
            untranslated.extend(english.filter(|w| !whole.words.contains(*w)).cloned());
        }
        said.words.extend(terms.words);
        said.pairs.extend(terms.pairs);
        said.chars.extend(terms.chars);
    }
    let translated = untranslated.len();
    whole.rests_on(&said, 3, translated)
        && CLAUSE_BREAK.split(text).all(|c| Terms::of(c).rests_on(&said, 4, translated))
}

/// Where [`rests_on`] cuts a text into clauses: punctuation, brackets and
/// slashes, and the words that join one statement to another (`并`, `兼`,
/// `另外`, `and`, `also`), so that a clause of other words does not hide
/// behind a true one.
static CLAUSE_BREAK: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"(?i)[,.;:!?，。；：！？、\n()（）/\[\]]|\s(?:and|but|also|plus|as well as|while)\s|并且?|兼|以及|另外|此外|同时")
        .expect("a valid pattern")
});

/// The terms [`rests_on`] compares: stems of words in letters or digits,
/// and pairs and single characters of Chinese.
#[derive(Default)]
struct Terms {
    words: BTreeSet<String>,
    pairs: BTreeSet<[char; 2]>,
    chars: BTreeSet<char>,
}

impl Terms {
    fn of(text: &str) -> Terms {
        let mut terms = Terms::default();
        terms.add(text);
        terms
    }

    /// A word or a pair in common, or two Chinese characters.
    fn shares_something_with(&self, other: &Terms) -> bool {
        self.words.intersection(&other.words).next().is_some()
            || self.pairs.intersection(&other.pairs).next().is_some()
            || self.chars.intersection(&other.chars).nth(1).is_some()
    }

    fn add(&mut self, text: &str) {
        let visible: String = text.chars().filter(|&c| !is_invisible(c)).collect();
        let folded = fast2s::convert(&visible.nfkc().collect::<String>().to_lowercase());
        let chars: Vec<char> = folded.chars().collect();
        for run in chars.chunk_by(|a, b| char_class(*a) == char_class(*b)) {
            match char_class(run[0]) {
                CharClass::Chinese => self.add_chinese(run),
                CharClass::Word => self.add_word(&run.iter().collect::<String>()),
                CharClass::Other => {}
            }
        }
    }

    fn add_word(&mut self, word: &str) {
        if word.chars().count() < 3 || STOP_WORDS.contains(&word) {
            return;
        }
        // `reports` and `report`, `tables` and `table`, `concisely` and `concise`.
        let stem = word.strip_suffix('s').filter(|w| w.chars().count() >= 3).unwrap_or(word);
        self.words.insert(stem.chars().take(6).collect());
    }

    fn add_chinese(&mut self, run: &[char]) {
        self.chars.extend(run.iter().filter(|c| !COMMON_CHINESE.contains(**c)));
        let pairs = run.windows(2).map(|w| [w[0], w[1]]);
        self.pairs.extend(
            pairs.filter(|[a, b]| !(COMMON_CHINESE.contains(*a) && COMMON_CHINESE.contains(*b))),
        );
    }

    /// Whether these terms rest on `said` ([`rests_on`]); fewer than
    /// `judged` terms do, and so do Chinese pairs `translated` English
    /// words of `said` may explain.
    fn rests_on(&self, said: &Terms, judged: usize, translated: usize) -> bool {
        let words = if said.words.len() >= 3 { self.words.len() } else { 0 };
        let pairs = if said.pairs.len() >= 3 { self.pairs.len() } else { 0 };
        if words + pairs < judged {
            return true;
        }
        let shared_words = if words > 0 { self.words.intersection(&said.words).count() } else { 0 };
        let shared_pairs = if pairs > 0 { self.pairs.intersection(&said.pairs).count() } else { 0 };
        if (shared_words + shared_pairs) * 5 >= words + pairs {
            return true;
        }
        let shared_chars = self.chars.intersection(&said.chars).count();
        if pairs > 0 && self.chars.len() >= 3 && shared_chars * 3 >= self.chars.len() {
            return true;
        }
        pairs > 0 && pairs - shared_pairs <= 3 * translated
    }
}

#[derive(PartialEq, Clone, Copy)]
enum CharClass {
    Chinese,
    Word,
    Other,
}

fn char_class(c: char) -> CharClass {
    if !c.is_alphanumeric() {
        CharClass::Other
    } else if is_cjk(c) {
        CharClass::Chinese
    } else {
        CharClass::Word
    }
}

/// Chinese characters too common to show where a text came from: `我在`
/// begins many a sentence about oneself.
const COMMON_CHINESE: &str =
    "的了是在我你他她它们和与及或也都要把被就这那个一不有对于为很吗呢吧啊哦着过地得之其";

/// English words too common to show that two texts say the same thing.
const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "with", "that", "this", "from", "are", "was", "all", "any", "not", "you",
    "your", "our", "use", "user", "always", "never", "also",
];

/// The token estimate of spec §10.18, used before a call for chunking and
/// budgets: one token per CJK character plus one per four other characters.
pub fn estimate_tokens(text: &str) -> u64 {
    let (cjk, other) = text.chars().fold((0u64, 0u64), |(cjk, other), c| {
        if is_cjk(c) { (cjk + 1, other) } else { (cjk, other + 1) }
    });
    cjk + other.div_ceil(4)
}

pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x2FA1F)
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// A URL fit to print: `postgres://user:secret@host/db?sslpassword=x` →
/// `postgres://user:****@host/db?sslpassword=****`. The password of the user
/// info and the value of every query parameter whose name looks like a secret
/// ([`is_secret_name`]) are masked; the rest stays, to say where it points.
pub fn mask_url_secrets(url: &str) -> String {
    let (address, fragment) = url.split_once('#').map_or((url, None), |(a, f)| (a, Some(f)));
    let (base, query) = address.split_once('?').map_or((address, None), |(b, q)| (b, Some(q)));
    let mut masked = mask_user_password(base);
    if let Some(query) = query {
        masked.push('?');
        masked.push_str(&mask_query_secrets(query));
    }
    if let Some(fragment) = fragment {
        masked.push('#');
        masked.push_str(fragment);
    }
    masked
}

/// `scheme://user:secret@host/path` → `scheme://user:****@host/path` (no query).
fn mask_user_password(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_owned();
    };
    let rest = &url[scheme_end..];
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return url.to_owned();
    };
    match rest[..at].find(':') {
        Some(colon) => format!("{}{}:****{}", &url[..scheme_end], &rest[..colon], &rest[at..]),
        None => url.to_owned(),
    }
}

/// `a=1&api_key=x` → `a=1&api_key=****`.
fn mask_query_secrets(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if is_secret_name(name) => format!("{name}=****"),
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// Whether a query parameter's name says its value is a secret: keys, tokens,
/// passwords, signatures, credentials (`key`, `api-key`, `access_token`,
/// `sslpassword`, `X-Amz-Signature`, `auth`).
fn is_secret_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["key", "token", "secret", "pass", "pwd", "auth", "sig", "credential"]
        .iter()
        .any(|word| name.contains(word))
}

// The two patterns below are constants, compiled by this module's unit tests.

/// Words that make a request one-off ("this time…"), unless they start a
/// lasting change ("从这次开始", "from this time on").
static ONE_OFF_MARKER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)这一次|这次|本次|这回|这一回|今天先|今天就|暂时|临时|先这样|仅此一次|只此一次|下不为例|(?:\b(?:just[\s-]+)?this[\s-]+(?:time|once)\b)|\bjust[\s-]+(?:for[\s-]+)?today\b|\bfor[\s-]+now\b|\bfor[\s-]+this[\s-]+(?:one|report|query|request)\b|\bthis[\s-]+one[\s-]+time\b",
    )
    .expect("the one-off pattern is valid")
});

/// Markers that turn "this time" into the start of a lasting habit.
static LASTING_START: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)从(?:这一次|这次|本次|这回)(?:开始|起)|(?:这一次|这次|本次|这回)(?:以后|之后|往后|开始|起)|\bfrom\s+this\s+time\s+on|\bafter\s+this\s+time\b|\bfrom\s+now\s+on\b",
    )
    .expect("the lasting-start pattern is valid")
});

/// Words in a quote that make it lasting whatever its sentence says
/// ("这次的先放着，以后都先说结果").
static LASTING_WORD: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)以后|今后|往后|每次|一律|默认|\balways\b|\bfrom\s+now\s+on\b|\bevery\s+time\b|\bby\s+default\b|\bgoing\s+forward\b|\bin\s+(?:the\s+)?future\b",
    )
    .expect("the lasting-word pattern is valid")
});

/// Whether a quote asks for something only this once (spec §5 `one_off`):
/// the model's `durability` is not trusted alone.
pub fn has_one_off_marker(quote: &str) -> bool {
    let quote = close_cjk_gaps(quote);
    let quote = LASTING_START.replace_all(&quote, " ");
    ONE_OFF_MARKER.is_match(&quote)
}

/// Whether whitespace stands between two CJK characters somewhere in
/// `text`; most texts have none, and pay one pass without allocating.
fn has_cjk_gap(text: &str) -> bool {
    let mut last_visible: Option<char> = None;
    let mut in_gap = false;
    for c in text.chars() {
        if is_gap(c) {
            in_gap = true;
            continue;
        }
        if in_gap && is_cjk(c) && last_visible.is_some_and(is_cjk) {
            return true;
        }
        in_gap = false;
        last_visible = Some(c);
    }
    false
}

/// What may split a Chinese word without meaning anything: whitespace, or
/// an emoji (`管🙂理员`).
fn is_gap(c: char) -> bool {
    c.is_whitespace() || is_emoji(c)
}

/// Emoji and pictographs (the blocks of Unicode's `Extended_Pictographic`
/// in common use), which read as no letter and no digit.
pub(crate) fn is_emoji(c: char) -> bool {
    // The dingbats hold the circled digits ❶–➓ (U+2776–U+2793): digits, not pictures.
    matches!(c as u32, 0x1F000..=0x1FAFF | 0x2600..=0x2775 | 0x2794..=0x27BF | 0x2B00..=0x2BFF)
}

/// `text` without the whitespace or emoji between two CJK characters (`这
/// 次` is `这次`): Chinese puts none there, so a space inside a marker hides it.
pub(crate) fn close_cjk_gaps(text: &str) -> std::borrow::Cow<'_, str> {
    if !has_cjk_gap(text) {
        return std::borrow::Cow::Borrowed(text);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        if is_gap(c) {
            let before = chars[..i].iter().rev().find(|&&c| !is_gap(c));
            let after = chars[i + 1..].iter().find(|&&c| !is_gap(c));
            if before.is_some_and(|&b| is_cjk(b)) && after.is_some_and(|&a| is_cjk(a)) {
                continue;
            }
        }
        out.push(c);
    }
    std::borrow::Cow::Owned(out)
}

/// Whether a short sentence is a one-off marker and little else ("这次！",
/// "This time."), so that it governs the sentence after it.
fn is_bare_one_off(sentence: &str) -> bool {
    let sentence = close_cjk_gaps(sentence.trim());
    let len = sentence.chars().filter(|c| c.is_alphanumeric()).count();
    let marked: usize = ONE_OFF_MARKER
        .find_iter(&sentence)
        .map(|m| m.as_str().chars().filter(|c| c.is_alphanumeric()).count())
        .sum();
    len > 0 && len <= 12 && marked * 2 >= len && !LASTING_START.is_match(&sentence)
}

/// Whether the sentence `quote` stands in makes it one-off though the quote
/// alone does not: a model that quotes "报告先说结果" out of
/// "这次报告先说结果" would otherwise turn a request for this once into a
/// habit. A quote that itself says it lasts ("以后…", "from now on") is
/// taken at its word; a quote not found as written is left to the quote check.
pub fn one_off_in_its_sentence(quote: &str, message: &str) -> bool {
    let (quote, message) = (normalize(quote), normalize(message));
    let Some(at) = message.find(&quote).filter(|_| !quote.is_empty()) else {
        return false;
    };
    if LASTING_WORD.is_match(&quote) {
        return false;
    }
    let spans = sentences(&message);
    let (Some(first), Some(last)) = (
        spans.iter().position(|&(_, end)| at < end),
        spans.iter().rposition(|&(start, _)| start < at + quote.len()),
    ) else {
        return false;
    };
    let text = |(start, end): (usize, usize)| &message[start..end];
    let own = &message[spans[first].0..spans[last.max(first)].1];
    if has_one_off_marker(own) {
        return true;
    }
    // A bare marker beside the sentence ("这次！", "就这次。") governs it,
    // unless the sentence says it lasts ("以后温度保持在3.5度。这次先这样").
    !LASTING_WORD.is_match(own)
        && (first.checked_sub(1).is_some_and(|i| is_bare_one_off(text(spans[i])))
            || spans.get(last + 1).is_some_and(|&span| is_bare_one_off(text(span))))
}

/// The sentences of `text` as byte ranges without their ends; a run of
/// ends (`！！`, `...`, `?!`) closes one sentence, and a stretch with no
/// letter or digit is none.
fn sentences(text: &str) -> Vec<(usize, usize)> {
    let ends =
        |c: char| matches!(c, '。' | '！' | '？' | '!' | '?' | '\n' | '；' | ';' | '.' | '…');
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices().filter(|&(_, c)| ends(c)) {
        if text[start..i].chars().any(char::is_alphanumeric) {
            out.push((start, i));
        }
        start = i + c.len_utf8();
    }
    if text[start..].chars().any(char::is_alphanumeric) {
        out.push((start, text.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_collapses_every_kind_of_whitespace() {
        assert_eq!(normalize("  a\t\u{3000}b \n c  "), "a b c");
        assert_eq!(normalize("\u{3000}"), "");
    }

    #[test]
    fn normalize_composes_to_nfc() {
        assert_eq!(normalize("e\u{301}"), "\u{e9}");
    }

    #[test]
    fn fold_ignores_case_and_spacing() {
        assert_eq!(fold("Result  First"), fold("result first"));
        assert_ne!(fold("result first"), fold("result last"));
    }

    /// Stage two's and stage one's texts rest on what they cite: merges,
    /// the user's own wording and translations pass; another user's
    /// sentence, alone or added to a true one, does not (model review of
    /// December 2026, M4).
    #[test]
    fn a_text_rests_on_its_evidence_and_another_users_sentence_does_not() {
        let resting: &[(&str, &[&str])] = &[
            ("报告先说结论，再附数据表格", &["报告先说结果", "结论放前面，数据用表格"]),
            ("回答保持简洁", &["以后回答简短一点"]),
            ("報告先說結論", &["报告先说结论"]),
            ("Keep answers short", &["User prefers concise answers", "keep it short please"]),
            (
                "Weekly reports open with the conclusion, then the data",
                &["User wants weekly reports to start with the conclusion"],
            ),
            ("Reports: state the result first, then the evidence", &["以后看报告，都先说结果"]),
            ("Use GB 5009.6 for fat", &["脂肪按 GB 5009.6 测"]),
            ("好的", &[]),
            ("用户负责发酵乳配方项目", &["我现在负责发酵乳的配方"]),
            ("UHT会另行说明", &["我们说“杀菌”默认就是巴氏杀菌，UHT的话我会单独说"]),
            // English words of the message noted in Chinese.
            (
                "用户是IT服务台组长，主要处理Windows和Office问题",
                &["我是 IT helpdesk 的 team lead，主要处理 Windows 和 Office 的问题"],
            ),
            (
                "Python代码加类型注解（用户团队用mypy检查）",
                &["Code 的话给我加上 type hints，我们 team 有 mypy check"],
            ),
        ];
        for (text, evidence) in resting {
            assert!(rests_on(text, evidence.iter().copied()), "{text} rests on {evidence:?}");
        }
        let foreign: &[(&str, &[&str])] = &[
            ("我在财务部，负责成本核算和供应商对账", &["我在研发部，负责发酵乳配方"]),
            ("报告先说结论；另外我在财务部，负责成本核算", &["报告先说结论"]),
            // Joined by a word, not a comma (review of December 2026, H1).
            (
                "在研发中心质检部负责乳品微生物检测并在财务部负责成本核算和供应商对账",
                &["我在研发中心质检部，负责乳品微生物检测"],
            ),
            (
                "Works in the dairy QA lab on microbiology testing and runs the payroll team in finance handling vendor payments",
                &["I work in the dairy QA lab, mostly microbiology testing."],
            ),
            (
                "I work in finance, handling cost accounting and supplier reconciliation",
                &["Jay leads the fermented milk recipe project", "Recipe reviews go through Jay"],
            ),
            (
                "Reports start with the result. Also the user handles payroll for the Shenzhen plant",
                &["Reports: the result comes first"],
            ),
            ("我在財務部，負責成本核算和供應商對賬", &["我在研发部，负责发酵乳配方"]),
            // English words explain a few pairs, not a whole other sentence,
            // and none from a message that has nothing to do with the text.
            (
                "我在财务部，负责成本核算和供应商对账",
                &["我负责 fermented milk 的 recipe 开发和配方评审", "Resume first, please"],
            ),
            (
                "负责成本核算和供应商对账",
                &["我在研发部，负责发酵乳配方", "Put the result first in every weekly report"],
            ),
        ];
        for (text, evidence) in foreign {
            assert!(
                !rests_on(text, evidence.iter().copied()),
                "{text} does not rest on {evidence:?}"
            );
        }
    }

    #[test]
    fn terms_are_shared_across_wording_not_across_topics() {
        assert!(restates("Fermentation project", ["we're back on the fermentation trials"]));
        assert!(restates("报告先写结论", ["以后报告都先写结论吧"]));
        assert!(!restates("Fermentation project", ["Also the whey protein trial"]));
        assert!(!restates("报告先写结论", ["配方要标注来源"]));
        assert!(!restates("ZQX夜莺项目的配方评审", ["这个项目的事情先放一放"]));
        assert!(restates("ZQX夜莺项目的配方评审", ["ZQX夜莺项目的配方评审还得继续"]));
    }

    #[test]
    fn a_text_s_clause_runs_leave_out_the_whole() {
        assert_eq!(clause_runs("甲，乙。丙"), vec!["甲", "甲，乙", "乙", "乙。丙", "丙"]);
        assert!(clause_runs("no clauses here").is_empty());
    }

    #[test]
    fn fingerprints_equal_texts_alike_and_hide_the_text() {
        let a = fingerprint("以后看报告，都先说结果");
        assert_eq!(a, fingerprint(" 以后看报告，都先说结果\u{3000}"));
        assert_eq!(a.len(), 64);
        assert!(!a.contains("报告"));
    }

    #[test]
    fn loose_fingerprints_ignore_punctuation_and_invisible_characters() {
        let a = loose_fingerprint("我是乳品研发部的配方工程师");
        assert_eq!(a, loose_fingerprint("我是乳品研发部的配方\u{200B}工程师！"));
        assert_eq!(loose_fingerprint("Tables first."), loose_fingerprint("ＴＡＢＬＥＳ   first"));
        assert_ne!(a, loose_fingerprint("我是乳品研发部的工艺工程师"));
        assert!(fingerprints("x").contains(&fingerprint("x")));
        let folded = folded_fingerprint("我是乳品研发部的配方工程师");
        assert_eq!(folded, folded_fingerprint("我是乳品研發部的配方工程師！"));
        assert!(fingerprints("我是乳品研發部的配方工程師").contains(&folded));
        assert_eq!(loose_form("Tables, first!"), loose_form("ｔａｂｌｅｓ first"));
        assert_ne!(loose_form("store at -18 °C"), loose_form("store at 18 °C"));
        assert_ne!(loose_form("4.5 小时"), loose_form("45 小时"));
    }

    #[test]
    fn token_estimates_count_cjk_per_character() {
        assert_eq!(estimate_tokens("以后先说结果"), 6);
        assert_eq!(estimate_tokens("abcdefgh"), 2);
        assert_eq!(estimate_tokens("结果 first"), 2 + 2);
        assert_eq!(estimate_tokens(""), 0);
    }

    #[test]
    fn quotes_match_across_whitespace_differences() {
        assert!(quote_occurs_in("先说 结果", "以后看报告，都先说\u{3000}结果。"));
        assert!(!quote_occurs_in("先说结论", "以后看报告，都先说结果。"));
        assert!(!quote_occurs_in("  ", "anything"));
    }

    #[test]
    fn masks_only_the_password() {
        assert_eq!(
            mask_url_secrets("postgres://dreamd:s3cret@db:5432/dreamd"),
            "postgres://dreamd:****@db:5432/dreamd"
        );
        assert_eq!(mask_url_secrets("postgres://dreamd@db/dreamd"), "postgres://dreamd@db/dreamd");
        assert_eq!(mask_url_secrets("sqlite://dreamd.db"), "sqlite://dreamd.db");
    }

    #[test]
    fn masks_secret_query_parameters_and_keeps_the_rest() {
        for (url, masked) in [
            (
                "https://user:basicpw@api.example.com/v1?key=querysecret",
                "https://user:****@api.example.com/v1?key=****",
            ),
            (
                "https://h/v1?api-version=2024&API_KEY=x&access_token=y#top",
                "https://h/v1?api-version=2024&API_KEY=****&access_token=****#top",
            ),
            (
                "postgres://db/dreamd?sslmode=require&sslpassword=x",
                "postgres://db/dreamd?sslmode=require&sslpassword=****",
            ),
            ("https://h:pw@host?sig=abc", "https://h:****@host?sig=****"),
            ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
        ] {
            assert_eq!(mask_url_secrets(url), masked);
        }
    }

    #[test]
    fn a_quote_trimmed_of_its_one_off_marker_is_still_one_off() {
        for (quote, message) in [
            ("报告先说结果", "这次报告先说结果"),
            ("先说结果", "这次，先说结果，谢谢"),
            ("put the result first", "This time, put the result first."),
            ("use tables", "Just for today use tables please"),
            ("用表格列出来", "今天先用表格列出来吧！"),
            ("报告先说结果", "这 次报告先说结果"),
            ("put the result first", "this-time only: put the result first"),
            ("报告先说结果", "这次！报告先说结果。"),
            ("报告先说结果", "这次。报告先说结果。"),
            ("Put the result first", "This time. Put the result first."),
            ("put the result first", "This time; put the result first."),
            ("报告先说结果", "这次…报告先说结果"),
            ("报告先说结果", "这次！！报告先说结果"),
            ("Put the result first", "This time!!! Put the result first."),
            ("Put the result first", "This time... Put the result first."),
            ("报告先说结果", "报告先说结果。就这次。"),
            ("报告先说结果", "报告先说结果，下不为例"),
            ("报告先说结果", "仅此一次：报告先说结果"),
        ] {
            assert!(one_off_in_its_sentence(quote, message), "{quote} in {message}");
        }
        for (quote, message) in [
            ("以后都先说结果", "这次的报告不错，以后都先说结果"),
            ("报告先说结果", "这次的报告很好。报告先说结果"),
            ("put the result first", "Thanks for this time. Put the result first in reports."),
            ("from now on put the result first", "This time and from now on put the result first"),
            ("报告都先说结果", "从这次开始，报告都先说结果"),
            ("先说结果", "报告先说结果"),
            ("报告先说结果", "报告先说结果。这次的数据我已经发你了。"),
            ("温度保持在3.5度", "以后温度保持在3.5度。这次先这样"),
            ("not in it", "这次先说结果"),
        ] {
            assert!(!one_off_in_its_sentence(quote, message), "{quote} in {message}");
        }
    }

    #[test]
    fn one_off_markers_are_found_but_a_lasting_start_is_not_one() {
        for one_off in [
            "这次先说结果",
            "这一次用表格",
            "本次报告简单点",
            "Just this once, skip the evidence",
            "for now keep it short",
            "This time put the table first",
        ] {
            assert!(has_one_off_marker(one_off), "{one_off}");
        }
        for lasting in [
            "从这次开始，报告都先说结果",
            "这次以后都用流程卡",
            "From this time on, results first",
            "以后看报告都先说结果",
            "always show the method number",
        ] {
            assert!(!has_one_off_marker(lasting), "{lasting}");
        }
    }
}
