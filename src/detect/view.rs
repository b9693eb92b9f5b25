//! The detection view of spec §2 (revision 3): what the detectors read
//! instead of the raw text, so that full-width forms, invisible characters
//! and odd separators cannot hide what a text says.
//!
//! Two views come out of one text:
//! - the *words* view ([`view`]): NFKC, default-ignorable and format
//!   characters removed, curly quotes and dashes folded, other scripts'
//!   decimal digits as ASCII digits, Cyrillic and Greek look-alikes inside
//!   Latin words as Latin letters, Traditional Chinese as Simplified (and
//!   written Cantonese's function words as Mandarin's), runs of horizontal
//!   whitespace as one space;
//! - the *digits* view ([`digits_view`]): the words view with clusters of
//!   Chinese digit numerals read as digits and runs of separators between
//!   digits removed, for number-shaped identifiers.
//!
//! The identifier detectors do not read the digits view as a string: they
//! read the [`NumberRun`]s it is made of, which keep the grouping and the
//! words around each number (a phone number written `138 1234 5678` and a
//! list of readings `13.8 12.4 5.6` join to similar digits but group very
//! differently).

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// The words view of `text`: NFKC (full-width digits and letters become
/// ASCII), default-ignorable and format characters removed, curly quotes,
/// apostrophes and dashes folded to ASCII, every run of horizontal
/// whitespace one space, every run of line breaks one `\n`, trimmed.
pub fn view(text: &str) -> String {
    // Emoji read as spaces: `pass🔑word`, `密🔒码`, `SO-2231 ✅ approved`.
    let visible: String = text
        .chars()
        .filter(|&c| !crate::text::is_invisible(c))
        .map(|c| if crate::text::is_emoji(c) { ' ' } else { c })
        .collect();
    let mut out = String::with_capacity(visible.len());
    let mut pending: Option<char> = None;
    // Most texts are already NFKC (the quick check is a table lookup per
    // character); only the others pay for the normalisation.
    let normalized: Box<dyn Iterator<Item = char>> = match is_nfkc_quick(visible.chars()) {
        IsNormalized::Yes => Box::new(visible.chars()),
        _ => Box::new(visible.nfkc()),
    };
    for c in normalized.map(fold_punctuation).map(|c| ascii_digit(c).unwrap_or(c)) {
        if c.is_whitespace() {
            let brk = if is_line_break(c) { '\n' } else { ' ' };
            pending = match pending {
                Some('\n') => Some('\n'),
                _ if out.is_empty() => None,
                _ => Some(brk),
            };
        } else {
            if let Some(p) = pending.take() {
                out.push(p);
            }
            out.push(c);
        }
    }
    let joined = address_in_words(address_joined(out));
    simplified(&latin_look_alikes(without_accents(letters_joined(joined))))
}

/// `siti dot aminah at maybank-foods dot com dot my`, `peiyu0726 小老鼠
/// gmail 點 com` (`小老鼠`, "little mouse", is Taiwan's word for `@`): an
/// address told in words, read as written, when it ends in a domain ending.
fn address_in_words(text: String) -> String {
    static WORDED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        let dot = r"(?:\s+dot\s+|\s*(?:点|點)\s*)";
        let part = r"[a-z0-9][a-z0-9_+\-]*";
        super::re(&format!(
            r"(?i)\b(?P<local>{part}(?:{dot}{part})*)\s*(?:\s+at\s+|\s*\(at\)\s*|\s*\[at\]\s*|\s*(?:小老鼠|艾特)\s*)(?P<domain>{part}(?:(?:{dot}|\.){part})*(?:{dot}|\.)(?:com|net|org|edu|gov|cn|hk|tw|sg|my|jp|kr|uk|de|fr|io|co|in|au|info|biz))\b"
        ))
    });
    static MAIL_WORDS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        super::re(r"(?i)e-?mail|\bmail|\breach\s+me|\bcontact|邮箱|邮件|电邮|電郵|郵箱|郵件|信箱")
    });
    static DOTS: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| super::re(r"(?i)\s+dot\s+|\s*[点點]\s*"));
    // Most texts hold neither an `at` word nor a Chinese `@`: they pass
    // without the pattern (`点` alone is common Chinese).
    let has =
        |word: &[u8]| text.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word));
    let at = has(b" at ")
        || has(b"(at)")
        || has(b"[at]")
        || text.contains("小老鼠")
        || text.contains("艾特");
    if !at || !(has(b" dot ") || text.contains(['点', '點'])) {
        return text;
    }
    WORDED
        .replace_all(&text, |c: &regex::Captures| {
            let words = |part: &str| DOTS.replace_all(part, ".").into_owned();
            let local = words(&c["local"]);
            // `look at example dot com`: a plain word before `at` is an
            // address only where the text speaks of mail.
            let marked = local.contains(|ch: char| ch.is_ascii_digit() || "._-+".contains(ch));
            if !marked && !MAIL_WORDS.is_match(&text) {
                return c[0].to_owned();
            }
            format!("{local}@{}", words(&c["domain"]))
        })
        .into_owned()
}

/// `j a y . w a n g @ e x a m p l e . c o m`, `j-a-y-@-q-q-.-c-o-m`: an
/// address spelled one character at a time (six or more, each set apart by
/// one space or dash, an `@` or `(at)` among them), read as written
/// together. Without the `@`, single characters are left to
/// [`letters_joined`]: `1 2 3` in a list is no address.
fn address_joined(text: String) -> String {
    static SPELLED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        let one = r"(?:(?i:at|dot)|[A-Za-z0-9._+@]|\((?i:at|dot)\)|\[(?i:at|dot)\])";
        super::re(&format!(
            r"(?P<before>^|[^A-Za-z0-9._+@\-])(?P<run>{one}(?:[ \-]{one}){{5,}})(?P<after>$|[^A-Za-z0-9._+@])"
        ))
    });
    // Every text passes here: the word test copies nothing.
    let has =
        |word: &[u8]| text.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word));
    let worded = has(b" at ") && has(b" dot ");
    if !text.contains(['@', '(', '[']) && !worded {
        return text;
    }
    SPELLED
        .replace_all(&text, |c: &regex::Captures| {
            let tokens: Vec<&str> = c["run"].split([' ', '-']).collect();
            let is = |t: &&str, words: &[&str]| words.contains(&t.to_ascii_lowercase().as_str());
            let marked = tokens.iter().any(|t| is(t, &["@", "(at)", "[at]"]));
            // `at` and `dot` as words: both, among single characters.
            let worded = tokens.iter().any(|t| is(t, &["at"]))
                && tokens.iter().any(|t| is(t, &["dot", "."]));
            if !marked && !worded {
                return c[0].to_owned();
            }
            let joined: String = tokens
                .iter()
                .map(|t| match t.to_ascii_lowercase().as_str() {
                    "(at)" | "[at]" | "at" => "@",
                    "(dot)" | "[dot]" | "dot" => ".",
                    _ => t,
                })
                .collect();
            format!("{}{joined}{}", &c["before"], &c["after"])
        })
        .into_owned()
}

/// `p a s s w o r d`, `p.a.s.s.w.o.r.d`, `t-i-g-e-r-8-8-8`: four or more
/// single Latin letters or digits, two letters at least, each set apart by
/// one space, dot, dash or star, read as the word they spell; a dash set
/// apart by spaces (`g l p a t - B v C a`) is a dash of the word. Most
/// texts hold no such run.
fn letters_joined(text: String) -> String {
    static SPELLED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        super::re(r"\b[A-Za-z0-9]\b(?:(?: - |[ .*\-])[A-Za-z0-9]\b){3,}")
    });
    let separator = |b: u8| matches!(b, b' ' | b'.' | b'*' | b'-');
    let spaced = text.as_bytes().windows(4).any(|w| {
        w[0].is_ascii_alphabetic()
            && separator(w[1])
            && w[2].is_ascii_alphanumeric()
            && separator(w[3])
    });
    if !spaced {
        return text;
    }
    SPELLED
        .replace_all(&text, |c: &regex::Captures| {
            let run = &c[0];
            if run.chars().filter(char::is_ascii_alphabetic).count() < 2 {
                return run.to_owned();
            }
            run.replace(" - ", "\u{0}")
                .chars()
                .filter_map(|ch| match ch {
                    '\u{0}' => Some('-'),
                    ch if ch.is_ascii_alphanumeric() => Some(ch),
                    _ => None,
                })
                .collect::<String>()
        })
        .into_owned()
}

/// `pássword`, `密\u{301}码`: marks on Latin letters, digits and Chinese
/// characters dropped (NFKD, the marks out, NFC), so an accent does not
/// hide a word from the patterns. Marks on other scripts (the kana's
/// voicing marks) stay; most texts hold no mark and pass untouched.
fn without_accents(text: String) -> String {
    use unicode_normalization::char::is_combining_mark;
    let accented =
        |c: char| ('\u{C0}'..='\u{24F}').contains(&c) || ('\u{1E00}'..='\u{1EFF}').contains(&c);
    if !text.chars().any(|c| is_combining_mark(c) || accented(c)) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut base: Option<char> = None;
    for c in text.nfkd() {
        let on_latin_or_han = base.is_some_and(|b| b.is_ascii_alphanumeric() || is_han(b));
        if is_combining_mark(c) && on_latin_or_han {
            continue;
        }
        if !is_combining_mark(c) {
            base = Some(c);
        }
        out.push(c);
    }
    out.nfc().collect()
}

fn is_han(c: char) -> bool {
    ('\u{3400}'..='\u{9FFF}').contains(&c) || ('\u{F900}'..='\u{FAFF}').contains(&c)
}

/// `text` with Traditional Chinese characters as Simplified (`密碼` reads as
/// `密码`, `系統管理員` as `系统管理员`), so that one set of patterns serves
/// both; by `fast2s`'s table (OpenCC's), only for texts with CJK characters.
fn simplified(text: &str) -> String {
    if text.chars().any(|c| ('\u{3400}'..='\u{9FFF}').contains(&c)) {
        fast2s::convert(&cantonese_as_mandarin(text))
    } else {
        text.to_owned()
    }
}

/// Cantonese written as spoken (`報關文件仲喺阿Ben手上`, `佢而家有管理員權限`,
/// `總門禁卡喺我度`) with its function words as Mandarin's (`还在`, `他现在有`,
/// `在我这里`), so that the Chinese patterns read it; only in a text that
/// has a word only Cantonese writes. `係` is `是` there, except in words
/// Mandarin writes with it too (`關係`, `聯係`).
fn cantonese_as_mandarin(text: &str) -> std::borrow::Cow<'_, str> {
    const MARKERS: &[&str] =
        &["嘅", "咗", "喺", "佢", "冇", "哋", "啱", "嗰", "畀", "俾", "而家", "唔", "嚟", "得返"];
    const WORDS: &[(&str, &str)] = &[
        ("佢哋", "他们"),
        ("哋", "们"),
        ("佢", "他"),
        ("而家", "现在"),
        ("喺", "在"),
        ("咗", "了"),
        ("嘅", "的"),
        ("冇", "没有"),
        ("啱啱", "刚刚"),
        ("嗰", "那"),
        ("畀", "给"),
        ("俾", "给"),
        ("唔使", "不用"),
        ("唔駛", "不用"),
        ("唔", "不"),
        ("得返", "只剩"),
        ("嚟", "来"),
        ("啲", "些"),
        ("咩", "什么"),
        ("邊個", "哪个"),
        ("話事", "说了算"),
        ("我度", "我这里"),
        ("他度", "他那里"),
        ("你度", "你那里"),
    ];
    if !MARKERS.iter().any(|m| text.contains(m)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = at_a_place(text);
    for (cantonese, mandarin) in WORDS {
        out = out.replace(cantonese, mandarin);
    }
    let mut folded = String::with_capacity(out.len());
    let mut before = None;
    let mut chars = out.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let word = match c {
            '係' if !before.is_some_and(|b: char| "關关聯联干幹體体派直".contains(b)) => {
                '是'
            }
            '仲' if !next.is_some_and(|n| "裁介夏秋春冬".contains(n)) => '还',
            // `呢個`, `呢張單`: "this" before a measure word; the question
            // particle `呢` (`你呢？`) stays.
            '呢' if next.is_some_and(|n| {
                "個个張张單单批份間间位條条件次排本款隻只部架輛辆".contains(n)
            }) =>
            {
                '这'
            }
            '蚊' if before.is_some_and(|b: char| {
                b.is_ascii_digit() || "十百千万两三四五六七八九".contains(b)
            }) =>
            {
                '块'
            }
            _ => c,
        };
        folded.push(word);
        before = Some(c);
    }
    std::borrow::Cow::Owned(folded)
}

/// `喺總經理度` ("at the general manager's"): `在總經理那里`, for a place
/// or a person of up to six characters; a measure (`溫度`, `進度`) is no
/// place.
fn at_a_place(text: &str) -> String {
    static AT: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| super::re(r"喺(?P<place>[^\s,;:.!?，。；：！？度]{1,6}?)度"));
    const MEASURES: &str = "溫温濃浓程進进年角速濕湿密強强硬酸甜純纯季額额力制製態态限幅精亮熱热深高長长寬宽厚粘黏濁浊色鮮鲜熟維维刻";
    AT.replace_all(text, |c: &regex::Captures| {
        let place = &c["place"];
        if place.chars().last().is_some_and(|l| MEASURES.contains(l) || l.is_ascii_digit()) {
            c[0].to_owned()
        } else {
            format!("在{place}那里")
        }
    })
    .into_owned()
}

/// Decimal digits of other scripts as ASCII digits: NFKC folds full-width
/// and mathematical digits but leaves Arabic-Indic `١٣٨`, Devanagari,
/// Thai and others, which read as digits to anyone. The zeros of Unicode's
/// decimal-digit (`Nd`) ranges of ten, for the scripts in common use.
fn ascii_digit(c: char) -> Option<char> {
    const ZEROS: [u32; 24] = [
        0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
        0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0,
        0xA8D0, 0xA9D0,
    ];
    let code = c as u32;
    if code < 0x0660 {
        return None;
    }
    // Dingbat and double-circled digits one to nine (❶ ➀ ➊ ⓵), and ⓿,
    // which NFKC leaves as they are.
    const ONES: [u32; 4] = [0x2776, 0x2780, 0x278A, 0x24F5];
    if code == 0x24FF {
        return Some('0');
    }
    ZEROS
        .iter()
        .find(|&&zero| (zero..zero + 10).contains(&code))
        .and_then(|&zero| char::from_digit(code - zero, 10))
        .or_else(|| {
            let one = ONES.iter().find(|&&one| (one..one + 9).contains(&code))?;
            char::from_digit(code - one + 1, 10)
        })
}

/// Cyrillic and Greek letters that look like Latin ones (Unicode's
/// confusables, `confusables.txt`), as those Latin letters.
fn latin_look_alike(c: char) -> Option<char> {
    Some(match c {
        'а' | 'α' => 'a',
        'е' | 'ε' => 'e',
        'о' | 'ο' | 'σ' => 'o',
        'р' | 'ρ' => 'p',
        'с' | 'ϲ' => 'c',
        'у' | 'γ' => 'y',
        'х' | 'χ' => 'x',
        'і' | 'ι' => 'i',
        'ј' => 'j',
        'ѕ' => 's',
        'ԁ' => 'd',
        'һ' => 'h',
        'ԛ' => 'q',
        'ԝ' => 'w',
        'ӏ' => 'l',
        'ν' => 'v',
        'κ' | 'к' => 'k',
        'А' | 'Α' => 'A',
        'В' | 'Β' => 'B',
        'Е' | 'Ε' => 'E',
        'К' | 'Κ' => 'K',
        'М' | 'Μ' => 'M',
        'Н' | 'Η' => 'H',
        'О' | 'Ο' => 'O',
        'Р' | 'Ρ' => 'P',
        'С' => 'C',
        'Т' | 'Τ' => 'T',
        'Х' | 'Χ' => 'X',
        'У' | 'Υ' => 'Y',
        'І' | 'Ι' => 'I',
        'Ј' => 'J',
        'Ѕ' => 'S',
        'Ζ' => 'Z',
        'Ν' => 'N',
        _ => return None,
    })
}

/// `text` with look-alike letters as Latin inside words that also hold
/// Latin letters (`pаssword` with a Cyrillic `а`), and nowhere else: a
/// Russian or Greek word stays as it is.
fn latin_look_alikes(text: String) -> String {
    if text.is_ascii() {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let mixed = word.chars().any(|c| c.is_ascii_alphabetic())
            && word.chars().any(|c| latin_look_alike(c).is_some());
        if mixed {
            out.extend(word.chars().map(|c| latin_look_alike(c).unwrap_or(c)));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() && !crate::text::is_cjk(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The digits view of `text`: its words view with clusters of Chinese digit
/// numerals (`一三八…`, three or more, not a quantity such as `三百`) read as
/// ASCII digits, and every short run of separators (spaces, `-`, `.`, `/`,
/// `_`, parentheses, middle dots; dashes are already `-`) between two digits
/// removed.
pub fn digits_view(text: &str) -> String {
    Views::of(text).digits
}

fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Curly quotes and apostrophes as ASCII quotes, every dash and minus as `-`
/// (NFKC leaves these alone).
fn fold_punctuation(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2035}' | '`' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{2036}'
        | '\u{301D}' | '\u{301E}' | '\u{301F}' => '"',
        '\u{2010}'..='\u{2015}'
        | '\u{2212}'
        | '\u{2043}'
        | '\u{FE58}'
        | '\u{FE63}'
        | '\u{2E3A}'
        | '\u{2E3B}' => '-',
        _ => c,
    }
}

/// A Chinese digit numeral as an ASCII digit: 〇零一二三四五六七八九, 幺 (how
/// `1` is read aloud in phone numbers) and the financial forms 壹贰叁….
fn chinese_digit(c: char) -> Option<char> {
    Some(match c {
        '〇' | '零' => '0',
        '一' | '幺' | '壹' => '1',
        '二' | '两' | '贰' => '2',
        '三' | '叁' => '3',
        '四' | '肆' => '4',
        '五' | '伍' => '5',
        '六' | '陆' => '6',
        '七' | '柒' => '7',
        '八' | '捌' => '8',
        '九' | '玖' => '9',
        _ => return None,
    })
}

/// Characters that make a cluster of numerals a quantity (三百, 一千零五,
/// 两万, 二十三点五) rather than a string of digits.
fn is_chinese_magnitude(c: char) -> bool {
    matches!(c, '十' | '百' | '千' | '万' | '亿' | '两' | '点' | '拾' | '佰' | '仟')
}

/// Characters that may stand between the digits of one identifier.
pub(crate) fn is_digit_separator(c: char) -> bool {
    crate::text::is_emoji(c)
        || matches!(
            c,
            ' ' | '-'
                | '.'
                | '/'
                | '_'
                | '('
                | ')'
                | '\u{B7}'
                | '\u{30FB}'
                | '\u{2022}'
                | '\u{2219}'
                | '\u{2027}'
        )
}

/// The longest run of separators still read as joining two digits.
const MAX_SEPARATOR_RUN: usize = 3;

/// Clusters of Chinese digit numerals (possibly split by separators, and
/// mixed with ASCII digits) read as ASCII digits, character for character,
/// when the cluster holds no magnitude and at least three numerals, or one
/// numeral among seven digits or more (so `一三八一二三四五六七八` and
/// `1三8一2三4五6七8` become digits, and `三百`, `第一` or `3一5` stay as written).
fn map_chinese_digits(chars: &[char]) -> Vec<char> {
    let mut out = chars.to_vec();
    let is_numeral =
        |c: char| chinese_digit(c).is_some() || is_chinese_magnitude(c) || c.is_ascii_digit();
    let mut i = 0;
    while i < chars.len() {
        if !is_numeral(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let (mut digits, mut ascii, mut magnitude) = (0usize, 0usize, false);
        let mut j = i;
        while j < chars.len() {
            let c = chars[j];
            if chinese_digit(c).is_some() {
                digits += 1;
                j += 1;
            } else if c.is_ascii_digit() {
                ascii += 1;
                j += 1;
            } else if is_chinese_magnitude(c) {
                magnitude = true;
                j += 1;
            } else if is_digit_separator(c) {
                let mut k = j;
                while k < chars.len() && is_digit_separator(chars[k]) {
                    k += 1;
                }
                if k < chars.len() && k - j <= MAX_SEPARATOR_RUN && is_numeral(chars[k]) {
                    j = k;
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        // Mixed with ASCII digits, a numeral at either end is a word
        // (`13812345678一直没人接`): only those between digits are read.
        let (from, to) = if digits >= 3 {
            (start, j)
        } else {
            let numeral_at = |k: usize| chinese_digit(chars[k]).is_some();
            (start + usize::from(numeral_at(start)), j - usize::from(numeral_at(j - 1)))
        };
        if !magnitude && (digits >= 3 || (digits >= 1 && digits + ascii >= 7)) {
            for c in &mut out[from..to.max(from)] {
                if let Some(d) = chinese_digit(*c) {
                    *c = d;
                }
            }
        }
        i = j.max(i + 1);
    }
    out
}

/// One number of the digits view: digits joined across separators, with the
/// grouping they were written in and the words around them.
#[derive(Debug, Clone)]
pub(crate) struct NumberRun {
    /// The digits, ASCII, separators removed.
    pub digits: String,
    /// How many digits each written group held (`138 1234 5678` → 3, 4, 4).
    pub groups: Vec<usize>,
    /// Whether every separator run between groups was the same string.
    pub uniform_separators: bool,
    /// The separator runs between groups, in order.
    pub separators: Vec<String>,
    /// A `+` stood right before the first digit.
    pub plus: bool,
    /// An ASCII letter touches the number (directly, or through one `-`, `_`,
    /// `/` or `.`): it is part of a code, a hash, a file name or a unit.
    pub glued: bool,
    /// An `X` right after the digits (the check character of a resident ID).
    pub trailing_x: bool,
    /// Up to [`CONTEXT`] characters before the number, within its sentence,
    /// lower-cased.
    pub before: String,
    /// Up to [`CONTEXT`] characters after the number, within its sentence,
    /// lower-cased.
    pub after: String,
    /// Up to three times [`CONTEXT`] characters before the number, within
    /// its sentence, lower-cased: where a label stands far off (`Il
    /// cellulare del dott. Bianchi è 333 …`).
    pub sentence_before: String,
}

/// How much text around a number the detectors look at for keywords.
pub(crate) const CONTEXT: usize = 24;

impl NumberRun {
    /// The digits of groups `from..to`.
    pub fn window(&self, from: usize, to: usize) -> &str {
        let start: usize = self.groups[..from].iter().sum();
        let end: usize = self.groups[..to].iter().sum();
        &self.digits[start..end]
    }

    /// Whether every separator run between groups is `sep`.
    pub fn separators_are(&self, sep: &str) -> bool {
        self.separators.iter().all(|s| s == sep)
    }

    /// The text around the number, before and after, for keyword checks.
    pub fn around(&self) -> String {
        format!("{} {}", self.before, self.after)
    }
}

/// The letter a digit or sign stands for in leetspeak.
fn leet_letter(c: char) -> Option<char> {
    Some(match c {
        '0' => 'o',
        '1' => 'i',
        '3' => 'e',
        '4' => 'a',
        '5' => 's',
        '7' => 't',
        '@' => 'a',
        '$' => 's',
        _ => return None,
    })
}

/// `words` with leetspeak undone inside Latin words (`adm1n` → `admin`,
/// `r00t` → `root`, `@dmin` → `admin`), or `None` when there is none: a
/// word of at least four characters, two of them letters, with at most two
/// such characters and no other digit. Numbers (`2026Q4`, `PO-77`), codes
/// and hex tokens stay as they are.
pub fn unleet(words: &str) -> Option<String> {
    if !words.bytes().any(|b| leet_letter(char::from(b)).is_some()) {
        return None;
    }
    let chars: Vec<char> = words.chars().collect();
    let mut out = String::with_capacity(words.len());
    let mut changed = false;
    let mut start = 0;
    while start < chars.len() {
        let in_word = |c: char| c.is_ascii_alphanumeric() || leet_letter(c).is_some();
        if !in_word(chars[start]) {
            out.push(chars[start]);
            start += 1;
            continue;
        }
        let end = (start..chars.len()).find(|&i| !in_word(chars[i])).unwrap_or(chars.len());
        let word = &chars[start..end];
        let letters = word.iter().filter(|c| c.is_ascii_alphabetic()).count();
        let leet: Vec<usize> =
            (0..word.len()).filter(|&i| leet_letter(word[i]).is_some()).collect();
        let digits = word.iter().filter(|c| c.is_ascii_digit()).count();
        let foldable = letters >= 2
            && word.len() >= 4
            && !leet.is_empty()
            && leet.len() <= 2
            && digits == leet.iter().filter(|&&i| word[i].is_ascii_digit()).count();
        if foldable {
            out.extend(word.iter().map(|&c| leet_letter(c).unwrap_or(c)));
            changed = true;
        } else {
            out.extend(word);
        }
        start = end;
    }
    changed.then_some(out)
}

/// Both views of one text and the numbers in it, computed once per scan.
#[derive(Debug, Clone)]
pub(crate) struct Views {
    pub words: String,
    pub digits: String,
    pub runs: Vec<NumberRun>,
}

impl Views {
    pub fn of(text: &str) -> Views {
        let text = &*unescaped(text);
        let words = spelled_digits(with_overridden_reversed(text, view(text)));
        let words = with_xml_elements_labelled(with_table_cells_labelled(words));
        let spoken = join_spoken_groups(&words);
        let chars = map_chinese_digits(&spoken.chars().collect::<Vec<_>>());
        let (digits, runs) = number_runs(&chars);
        Views { words, digits, runs }
    }
}

/// `text` with HTML character references (`&#64;`, `&#x31;`, `&commat;`) and URL
/// escapes (`%40`, `%31`) read as the characters they stand for, as a
/// browser or a terminal shows them; most texts hold neither.
fn unescaped(text: &str) -> std::borrow::Cow<'_, str> {
    static ESCAPE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        super::re(r"(?i)&#(?:x([0-9a-f]{1,6})|([0-9]{1,7}));|%([0-9a-f]{2})|&(commat|period|amp);")
    });
    if !text.contains(['&', '%']) {
        return std::borrow::Cow::Borrowed(text);
    }
    ESCAPE.replace_all(text, |c: &regex::Captures| {
        if let Some(name) = c.get(4) {
            return match name.as_str().to_ascii_lowercase().as_str() {
                "commat" => "@",
                "period" => ".",
                _ => "&",
            }
            .to_owned();
        }
        let (hex, decimal, percent) = (c.get(1), c.get(2), c.get(3));
        let code = match (hex, decimal, percent) {
            (Some(h), _, _) => u32::from_str_radix(h.as_str(), 16).ok(),
            (_, Some(d), _) => d.as_str().parse().ok(),
            (_, _, Some(p)) => {
                u32::from_str_radix(p.as_str(), 16).ok().filter(|&b| (0x21..0x7f).contains(&b))
            }
            _ => None,
        };
        // `Mocha%1287zd` is a value with a percent sign, not a control
        // character, and `Melk%2022ET` one, not `Melk 22ET`: a percent
        // escape is read only as a visible character.
        let shown = code.and_then(char::from_u32).filter(|ch| !ch.is_control());
        shown.map_or_else(|| c[0].to_owned(), String::from)
    })
}

/// The words view with, after it, every stretch a right-to-left override
/// or isolate (U+202E, U+2067) turns around, in the order it displays:
/// `\u{202E}moc.elpmaxe@yaj` reads as an address on screen, and so it is
/// read here. The stretch ends at its closing mark or the line's end.
fn with_overridden_reversed(text: &str, words: String) -> String {
    if !text.contains(['\u{202E}', '\u{2067}']) {
        return words;
    }
    let mut out = words;
    for stretch in text.split(['\u{202E}', '\u{2067}']).skip(1) {
        let end = stretch.find(['\u{202C}', '\u{2069}', '\n']).unwrap_or(stretch.len());
        let displayed: String = stretch[..end].chars().rev().collect();
        out.push('\n');
        out.push_str(&view(&displayed));
    }
    out
}

/// The words view with, after it, every cell of a Markdown-style table
/// under its column's header, a `header: cell;` line each: `| 系统 | 密码 |`
/// over `| LIMS | Wf_lims2024! |` says `密码: Wf_lims2024!;`, which the
/// patterns read. Rows end at line breaks, at a written `\n` in text
/// pasted from a JSON string, or, in a text whose line breaks were folded
/// into spaces as stored texts are, where one row's closing `|` meets the
/// next row's opening one (`… | Wf_lims2024! | | LIMS | …`). A query's
/// output as psql and mysql print it is read the same way ([`aligned_rows`]).
fn with_table_cells_labelled(words: String) -> String {
    let mut out = words.clone();
    if let Some((header, body)) = aligned_rows(&words) {
        push_labelled_cells(&mut out, &header, &body);
    }
    if words.matches('|').count() < 4 {
        return out;
    }
    let is_rule =
        |row: &[String]| row.iter().all(|c| c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')));
    let rows_of = |lines: Vec<&str>| -> Vec<Vec<String>> {
        lines
            .into_iter()
            .filter(|line| line.matches('|').count() >= 2)
            .map(table_cells)
            .filter(|row| !is_rule(row))
            .collect()
    };
    let mut rows = rows_of(words.split('\n').flat_map(|line| line.split("\\n")).collect());
    if rows.len() < 2 {
        rows = rows_of(ROW_BREAK.split(&words).collect());
    }
    if let Some((header, body)) = rows.split_first() {
        let body: Vec<Vec<String>> =
            body.iter().filter(|row| row.len() == header.len()).cloned().collect();
        push_labelled_cells(&mut out, header, &body);
    }
    out
}

/// Where one row of a folded table ends and the next begins: `| |`.
static ROW_BREAK: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| super::re(r"\|\s+\|"));

/// A table row's cells, trimmed, without the outer bars.
fn table_cells(row: &str) -> Vec<String> {
    let row = row.trim().trim_matches('|');
    row.split('|').map(|c| c.trim().to_owned()).collect()
}

/// `\nheader: cell;` for every non-empty cell of `rows` under its header,
/// after a `;` that ends the text's last word (a last cell `Pass` is no
/// `pass` before the first label's value).
fn push_labelled_cells(out: &mut String, header: &[String], rows: &[Vec<String>]) {
    if !rows.is_empty() {
        out.push(';');
    }
    for row in rows {
        for (name, cell) in header.iter().zip(row) {
            if !name.is_empty() && !cell.is_empty() {
                out.push_str(&format!("\n{name}: {cell};"));
            }
        }
    }
}

/// The header and rows of a query's output as psql and mysql print it: the
/// header over a rule of dashes joined by `+` (psql's `------+-------`), or
/// between two rules with outer `+` (mysql's `+------+-------+`), then the
/// rows, which a folded text runs together. psql's rows have no outer bars,
/// so where one row's last cell meets the next row's first, the two make
/// one cell, read as the row's last and the next row's first
/// (`19585054455 李雷` under `phone` and under `name`).
fn aligned_rows(words: &str) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    static RULE: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| super::re(r"\+?-{2,}(?:\+-{2,})+\+?"));
    static FOOTER: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| super::re(r"(?i)\(\d+ rows?\)|\d+ rows? in set|empty set"));
    let mut rules = RULE.find_iter(words);
    let first = rules.next()?;
    let columns = first.as_str().trim_matches('+').split('+').count();
    let bars_around = first.as_str().starts_with('+');
    let (header_text, body_start) = match rules.next() {
        Some(second) if bars_around => (&words[first.end()..second.start()], second.end()),
        _ => {
            let before = &words[..first.start()];
            (before.rsplit('\n').next()?.rsplit("\\n").next()?, first.end())
        }
    };
    let mut header = table_cells(header_text);
    header = header.split_off(header.len().checked_sub(columns)?);
    header[0] = header[0].rsplit(char::is_whitespace).next()?.to_owned();
    let body = RULE.replace_all(&words[body_start..], "\n");
    let body = FOOTER.replace_all(&body, "\n");
    let mut rows = Vec::new();
    for line in body.split('\n').flat_map(|line| line.split("\\n")) {
        let pieces: Vec<&str> =
            if bars_around { ROW_BREAK.split(line).collect() } else { vec![line] };
        for piece in pieces.into_iter().filter(|p| p.contains('|')) {
            rows.extend(rows_sharing_cells(table_cells(piece), columns));
        }
    }
    (!rows.is_empty()).then_some((header, rows))
}

/// `cells` as rows of `columns`, where rows run together share a cell (see
/// [`aligned_rows`]); none when the count fits no number of rows.
fn rows_sharing_cells(cells: Vec<String>, columns: usize) -> Vec<Vec<String>> {
    if cells.len() == columns {
        return vec![cells];
    }
    let step = columns.saturating_sub(1);
    if step == 0 || cells.len() < columns || !(cells.len() - 1).is_multiple_of(step) {
        return Vec::new();
    }
    (0..(cells.len() - 1) / step).map(|r| cells[r * step..=r * step + step].to_vec()).collect()
}

/// The words view with, after it, every XML element of text alone under
/// its name, a `name: text;` line each: `<password>OKl07g$bhZJ</password>`
/// says `password: OKl07g$bhZJ;`, which the patterns read.
fn with_xml_elements_labelled(words: String) -> String {
    static ELEMENT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        super::re(r"<([A-Za-z_][\w.\-]{0,40})>([^<>]{1,200})</([A-Za-z_][\w.\-]{0,40})>")
    });
    if !words.contains("</") {
        return words;
    }
    let labelled: Vec<String> = ELEMENT
        .captures_iter(&words)
        .filter(|c| c[1] == c[3])
        .map(|c| format!("\n{}: {};", &c[1], c[2].trim()))
        .collect();
    if labelled.is_empty() { words } else { words + &labelled.concat() }
}

/// Digits read out as English words, four or more in a row (`one eight
/// nine, two two three four`, `double seven oh three …`, a PIN's
/// `one-nine-seven-three`).
static SPELLED_DIGITS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    let digit =
        r"(?:(?:double|triple)\s+)?(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)";
    super::re(&format!(r"(?i)\b{digit}(?:(?:\s*[,\-]\s*|\s+){digit}){{3,}}\b"))
});

/// Spelled digits ([`SPELLED_DIGITS`]) written as digits, a group per
/// stretch between commas or dashes (`189 2234 5678`), so that the
/// identifier detectors read a number said aloud as the number.
fn spelled_digits(words: String) -> String {
    if !SPELLED_DIGITS.is_match(&words) {
        return words;
    }
    SPELLED_DIGITS
        .replace_all(&words, |c: &regex::Captures| {
            let groups = c[0].split([',', '-']).map(|group| {
                let mut digits = String::new();
                let mut times = 1;
                for word in group.split_whitespace() {
                    match word.to_ascii_lowercase().as_str() {
                        "double" => times = 2,
                        "triple" => times = 3,
                        spoken => {
                            let digit = SPOKEN_DIGITS.iter().position(|d| d.contains(&spoken));
                            let digit = char::from(b'0' + digit.unwrap_or(0) as u8);
                            digits.extend(std::iter::repeat_n(digit, times));
                            times = 1;
                        }
                    }
                }
                digits
            });
            groups.collect::<Vec<_>>().join(" ")
        })
        .into_owned()
}

/// The English words for each digit, in order.
const SPOKEN_DIGITS: [&[&str]; 10] = [
    &["zero", "oh"],
    &["one"],
    &["two"],
    &["three"],
    &["four"],
    &["five"],
    &["six"],
    &["seven"],
    &["eight"],
    &["nine"],
];

/// Words that join the groups of a number read out aloud (`138 后面 0247
/// 再 5591`, `六二二二 零二 后面是 六一九八…`), as a space: one number, not three.
static SPOKEN_JOIN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    super::re(
        r"([0-9〇零一二三四五六七八九幺]) ?(?:后面是|后面|然后是|然后|接着是|接着|再是|再) ?([0-9〇零一二三四五六七八九幺])",
    )
});

fn join_spoken_groups(words: &str) -> std::borrow::Cow<'_, str> {
    if !words.contains(['后', '然', '接', '再']) {
        return std::borrow::Cow::Borrowed(words);
    }
    SPOKEN_JOIN.replace_all(words, "$1 $2")
}

/// Walks the (numeral-mapped) words view, joining digits across short runs
/// of separators; returns the digits view and its numbers.
fn number_runs(chars: &[char]) -> (String, Vec<NumberRun>) {
    let mut view = String::with_capacity(chars.len());
    let mut runs = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            view.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        let mut digits = String::new();
        let mut groups = Vec::new();
        let mut separators: Vec<String> = Vec::new();
        let mut group = 0;
        let mut j = i;
        loop {
            while j < chars.len() && chars[j].is_ascii_digit() {
                digits.push(chars[j]);
                group += 1;
                j += 1;
            }
            let mut k = j;
            while k < chars.len() && is_digit_separator(chars[k]) {
                k += 1;
            }
            if k > j && k - j <= MAX_SEPARATOR_RUN && k < chars.len() && chars[k].is_ascii_digit() {
                groups.push(group);
                group = 0;
                separators.push(chars[j..k].iter().collect());
                j = k;
            } else {
                break;
            }
        }
        groups.push(group);
        let end = j;
        let plus = start > 0 && chars[start - 1] == '+';
        let trailing_x = end < chars.len()
            && matches!(chars[end], 'X' | 'x')
            && !chars.get(end + 1).is_some_and(|c| c.is_ascii_alphanumeric());
        let glued = letter_touches(chars, start, end, trailing_x);
        let context_start = (start.saturating_sub(CONTEXT)..start)
            .rev()
            .find(|&k| ends_sentence(chars[k]))
            .map_or(start.saturating_sub(CONTEXT), |k| k + 1);
        let sentence_start = (start.saturating_sub(3 * CONTEXT)..start)
            .rev()
            .find(|&k| ends_sentence(chars[k]))
            .map_or(start.saturating_sub(3 * CONTEXT), |k| k + 1);
        let context_end = (end..(end + CONTEXT).min(chars.len()))
            .find(|&k| ends_sentence(chars[k]))
            .unwrap_or((end + CONTEXT).min(chars.len()));
        runs.push(NumberRun {
            uniform_separators: separators.windows(2).all(|w| w[0] == w[1]),
            separators,
            before: chars[context_start..start].iter().collect::<String>().to_lowercase(),
            after: chars[end..context_end].iter().collect::<String>().to_lowercase(),
            sentence_before: chars[sentence_start..start].iter().collect::<String>().to_lowercase(),
            digits: digits.clone(),
            groups,
            plus,
            glued,
            trailing_x,
        });
        view.push_str(&digits);
        i = end;
    }
    (view, runs)
}

/// Whether `c` ends a sentence: words beyond it say nothing about a number
/// (`手机号那一列要脱敏；工单号 2024113000001`).
fn ends_sentence(c: char) -> bool {
    matches!(c, ';' | '。' | '!' | '?' | '\n' | '|')
}

/// An ASCII letter right next to `start..end`, or one `-_/.` away from it:
/// the number belongs to a code (`PO-2231`, `a716-4466…`, `2024Q3`).
fn letter_touches(chars: &[char], start: usize, end: usize, trailing_x: bool) -> bool {
    let letter =
        |i: Option<usize>| i.and_then(|i| chars.get(i)).is_some_and(|c| c.is_ascii_alphabetic());
    let joiner = |i: Option<usize>| {
        i.and_then(|i| chars.get(i)).is_some_and(|c| matches!(c, '-' | '_' | '/' | '.'))
    };
    let mut before = start.checked_sub(1);
    if before.is_some_and(|b| chars[b] == '+') {
        before = before.and_then(|b| b.checked_sub(1));
    }
    let glued_before = letter(before)
        || (joiner(before)
            && letter(before.and_then(|b| b.checked_sub(1)))
            && !is_label_before(chars, before));
    let after = if trailing_x { end + 1 } else { end };
    let glued_after =
        !trailing_x && (letter(Some(after)) || (joiner(Some(after)) && letter(Some(after + 1))));
    glued_before || glued_after
}

/// Words that label a number rather than make it part of a code:
/// `Tel-138…`, `No.1381…`, `ID-1101…`.
fn is_label_before(chars: &[char], joiner: Option<usize>) -> bool {
    let Some(j) = joiner else { return false };
    let mut k = j;
    while k > 0 && chars[k - 1].is_ascii_alphabetic() {
        k -= 1;
    }
    let word: String = chars[k..j].iter().collect::<String>().to_lowercase();
    matches!(
        word.as_str(),
        "tel" | "no" | "id" | "phone" | "mobile" | "mob" | "fax" | "cell" | "card" | "acct"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_spelled_one_by_one_are_read_as_a_word() {
        assert_eq!(view("the p-a-s-s-w-o-r-d is x"), "the password is x");
        assert_eq!(view("p.a.s.s.w.o.r.d: x"), "password: x");
        assert_eq!(view("my p a s s is x"), "my pass is x");
        assert_eq!(view("U.S.A. and a b c"), "U.S.A. and a b c");
        assert_eq!(view("plan B or C"), "plan B or C");
    }

    #[test]
    fn an_address_spelled_one_by_one_is_read_as_written_together() {
        assert_eq!(
            view("联系 j a y . w a n g @ e x a m p l e . c o m"),
            "联系 jay.wang@example.com"
        );
        assert_eq!(view("j-a-y-.-w-a-n-g-@-q-q-.-c-o-m"), "jay.wang@qq.com");
        assert_eq!(view("J A Y W A N G (at) Q Q . C O M"), "JAYWANG@QQ.COM");
        assert_eq!(view("pH 4 . 5 at 4 3 C"), "pH 4 . 5 at 4 3 C");
        assert_eq!(view("j a y dot w a n g at q q dot c o m"), "jay.wang@qq.com");
        assert_eq!(view("meet at 3 p m at b 2"), "meet at 3 p m at b 2");
        assert_eq!(view("1 2 3 4 5 6 (dot) 7"), "1 2 3 4 5 6 (dot) 7");
    }

    #[test]
    fn leetspeak_is_undone_inside_words_only() {
        assert_eq!(unleet("I'm adm1n with r00t").as_deref(), Some("I'm admin with root"));
        assert_eq!(unleet("the @dmin, 4dmin").as_deref(), Some("the admin, admin"));
        for kept in [
            "ship v2 in 2026Q4",
            "PO-77 and SKU-1234",
            "token 9f86d081884c7d659a2feaa0c55ad015",
            "abc123",
            "plain words",
        ] {
            assert_eq!(unleet(kept), None, "{kept}");
        }
    }

    #[test]
    fn full_width_forms_become_ascii() {
        assert_eq!(view("手机１３８１２３４５６７８"), "手机13812345678");
        assert_eq!(view("ＡＰＩ　ｋｅｙ：ｘ"), "API key:x");
        assert_eq!(view("zhang＠qq．com"), "zhang@qq.com");
    }

    #[test]
    fn invisible_characters_are_removed() {
        assert_eq!(view("密\u{200B}码"), "密码");
        assert_eq!(view("pass\u{00AD}word\u{200D}"), "password");
        assert_eq!(view("\u{FEFF}ad\u{2060}min\u{FE0F}"), "admin");
        assert_eq!(view("1\u{200C}3\u{202E}8"), "138");
        assert_eq!(view("a\u{E0041}b"), "ab");
    }

    #[test]
    fn quotes_dashes_and_spaces_are_folded() {
        assert_eq!(view("it\u{2019}s \u{201C}x\u{201D}"), "it's \"x\"");
        assert_eq!(view("138\u{2014}1234\u{2013}5678"), "138-1234-5678");
        assert_eq!(view("  a \u{3000}\u{00A0} b\t\n\n c  "), "a b\nc");
    }

    #[test]
    fn escapes_and_dingbat_digits_are_read_as_shown() {
        assert_eq!(Views::of("jay&#64;example.com").words, "jay@example.com");
        assert_eq!(Views::of("jay%40example.com").words, "jay@example.com");
        assert_eq!(Views::of("&#x31;38").words, "138");
        assert_eq!(Views::of("50% of the batch").words, "50% of the batch");
        assert_eq!(view("❶➂⓹⓿"), "1350");
    }

    #[test]
    fn accents_and_reversed_stretches_are_read_as_displayed() {
        assert_eq!(view("pa\u{301}ssword: x"), "password: x");
        assert_eq!(view("密\u{301}码"), "密码");
        assert_eq!(view("パスワード"), "パスワード");
        let words = Views::of("联系 \u{202E}moc.elpmaxe@yaj").words;
        assert!(words.ends_with("\njay@example.com"), "{words}");
    }

    #[test]
    fn written_cantonese_reads_as_mandarin() {
        assert_eq!(view("呢張 PR 而家喺總經理度等簽"), "这张 PR 现在在总经理那里等签");
        assert_eq!(view("stock 得返 3 噸，唔使急"), "stock 只剩 3 吨,不用急");
        assert_eq!(view("老闆俾咗我"), "老板给了我");
        // The question particle, a measure and a number stay.
        assert_eq!(view("你呢？喺倉庫度睇"), "你呢?在仓库那里睇");
        assert_eq!(view("喺高溫度"), "在高温度");
        assert_eq!(view("唔好喺 60 度"), "不好在 60 度");
    }

    #[test]
    fn addresses_and_codes_spelled_in_words_are_joined() {
        assert_eq!(
            view("reach me at siti dot aminah at maybank-foods dot com dot my"),
            "reach me at siti.aminah@maybank-foods.com.my"
        );
        assert_eq!(view("電郵 peiyu0726 小老鼠 gmail 點 com"), "电邮 peiyu0726@gmail.com");
        assert_eq!(view("look at example dot com style"), "look at example dot com style");
        assert_eq!(view("password t-i-g-e-r-8-8-8"), "password tiger888");
        assert_eq!(view("token g l p a t - B v C a"), "token glpat-BvCa");
        assert_eq!(view("steps 1 2 3 4"), "steps 1 2 3 4");
    }

    #[test]
    fn digits_read_out_in_english_become_digits() {
        let words = |t: &str| Views::of(t).words;
        assert_eq!(words("one eight nine, two two three four, five six"), "189 2234 56");
        assert_eq!(words("call double seven oh three nine one"), "call 770391");
        // Fewer than four in a row are words.
        assert_eq!(words("one or two, maybe three"), "one or two, maybe three");
    }

    #[test]
    fn separators_between_digits_are_ignored() {
        for text in [
            "138 1234 5678",
            "138.1234.5678",
            "138  1234  5678",
            "138—1234—5678",
            "138/1234/5678",
            "138_1234_5678",
            "138 - 1234 - 5678",
            "1 3 8 1 2 3 4 5 6 7 8",
            "１３８－１２３４－５６７８",
        ] {
            assert_eq!(digits_view(text), "13812345678", "{text:?}");
        }
        assert_eq!(digits_view("(0571)8765-4321"), "(057187654321");
    }

    #[test]
    fn chinese_digit_numerals_are_read_as_digits() {
        assert_eq!(digits_view("一三八一二三四五六七八"), "13812345678");
        assert_eq!(digits_view("手机 1三8一2三4五6七8"), "手机 13812345678");
        assert_eq!(digits_view("13812345678一直没人接"), "13812345678一直没人接");
        assert_eq!(digits_view("第3一5页"), "第3一5页");
        assert_eq!(digits_view("幺三八 一二三四 五六七八"), "13812345678");
        assert_eq!(digits_view("138 一二三四 5678"), "13812345678");
        // Quantities and ordinary words stay words.
        assert_eq!(digits_view("库存还剩三百箱"), "库存还剩三百箱");
        assert_eq!(digits_view("第一步"), "第一步");
        assert_eq!(digits_view("二十三块五"), "二十三块五");
    }

    #[test]
    fn numbers_keep_their_grouping_and_context() {
        let views = Views::of("电话 +86 138-1234-5678 转 12");
        let run = &views.runs[0];
        assert_eq!(run.digits, "8613812345678");
        assert_eq!(run.groups, vec![2, 3, 4, 4]);
        assert!(run.plus && !run.glued && !run.uniform_separators);
        assert!(run.before.contains("电话"));
        assert_eq!(run.window(1, 4), "13812345678");
    }

    #[test]
    fn numbers_inside_codes_are_glued() {
        for (text, glued) in [
            ("ProcessRecipeLifecycle2Handler3Impl", true),
            ("Study_2024Q3_v2", true),
            ("uuid a716-446655440000", true),
            ("PO-2231", true),
            ("Tel-13812345678", false),
            ("身份证11010519491231002X", false),
            ("call 13812345678 now", false),
        ] {
            let views = Views::of(text);
            assert!(views.runs.iter().any(|r| r.glued == glued), "{text:?}: {:?}", views.runs);
        }
        assert!(Views::of("11010519491231002X").runs[0].trailing_x);
    }
}
