//! Whether a text the model wrote holds a *code it was not shown*: a word
//! mixing letters and digits, a run of numbers, or a value spelled out as
//! words, that none of the texts it rests on holds. A model that saw a
//! password can write it ROT13-shifted, as ASCII codes, in base32, in small
//! capitals or letter by letter in the NATO alphabet; no list of encodings
//! is ever whole, but every encoding writes something the user never said.
//! Honest texts restate what the user said, and their codes (a batch
//! number, a standard, a formula) are the user's. The check applies only
//! while a value is in sight (see `carries_a_piece`): elsewhere an unseen
//! code is the model's own, and no secret of the user's.

use super::view;

/// Whether `text` holds a code none of `grounds` holds (see the module
/// comment).
pub fn writes_an_unseen_code<'g>(text: &str, grounds: impl IntoIterator<Item = &'g str>) -> bool {
    let codes = Codes::of(text);
    if codes.is_empty() {
        return false;
    }
    let grounds: Vec<String> = grounds.into_iter().map(view).collect();
    let compact: String = grounds.iter().map(|g| compact_form(g) + " ").collect();
    let numbers: Vec<&str> = grounds.iter().flat_map(|g| numbers_of(g)).collect();
    codes.words.iter().any(|w| !compact.contains(w.as_str()))
        || codes.names.iter().any(|n| !grounds.iter().any(|g| g.contains(n.as_str())))
        || codes.numbers.iter().filter(|n| !numbers.contains(&n.as_str())).count() >= MIN_NUMBERS
}

/// Whether `texts` hold anything [`writes_an_unseen_code`] looks for: when
/// none does, no ground need be read.
pub fn may_write_a_code(texts: &[&str]) -> bool {
    texts.iter().any(|t| !Codes::of(t).is_empty())
}

/// The fewest letters and digits of a word that make it a code.
const MIN_CODE: usize = 6;

/// The fewest unseen numbers that make a run of them a code: a value in
/// ASCII codes, hex pairs or binary is a number per character, where an
/// honest text adds a date or a sum of its own.
const MIN_NUMBERS: usize = 6;

/// The fewest spelling words in a row that make a value spelled out: as
/// many as the characters of the shortest piece of a value that counts.
const MIN_SPELLED: usize = 6;

/// What a text holds that could be a code, each in its compact form.
struct Codes {
    words: Vec<String>,
    /// Digit names written in kana or hangul, as written.
    names: Vec<String>,
    numbers: Vec<String>,
}

impl Codes {
    fn of(text: &str) -> Codes {
        // Without a Latin letter, a digit, a dot, a dash, kana or hangul a
        // text holds no code (most Chinese sentences): spare the view.
        let may_hold_one = text.chars().any(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '.' | '-' | '\u{3040}'..='\u{30ff}' | '\u{ac00}'..='\u{d7af}')
                || c.is_numeric()
                || c.is_alphabetic() && !is_ideograph(c)
        });
        if !may_hold_one {
            return Codes { words: Vec::new(), names: Vec::new(), numbers: Vec::new() };
        }
        let text = view(text);
        let mut words: Vec<String> = parts(&text)
            .chain(words_of_short_parts(&text))
            .filter(|p| is_code(p))
            .map(compact_form)
            .filter(|w| w.chars().count() >= MIN_CODE)
            .collect();
        words.extend(spelled_runs(&text));
        let mut numbers: Vec<String> = numbers_of(&text).map(str::to_owned).collect();
        numbers.sort();
        numbers.dedup();
        if numbers.len() < MIN_NUMBERS {
            numbers.clear();
        }
        Codes { words, names: digit_names_in_kana_or_hangul(&text), numbers }
    }

    fn is_empty(&self) -> bool {
        self.words.is_empty() && self.names.is_empty() && self.numbers.is_empty()
    }
}

/// The parts of a text's words that may be codes: split at spaces, other
/// scripts than the Latin-like ones, and the punctuation that joins codes
/// to words (`Batch-20261130-B03` is three parts, each its own).
fn parts(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || is_ideograph(c) || SEPARATORS.contains(c))
        .filter(|p| !p.is_empty())
}

/// Words of three short parts or more that each mix letters and digits,
/// joined by `-`, `_` or `.` (`Us1vc-5eps-4y`): splitting them must not
/// hide what they are together. Units (`cm3/(m2·d)`), lists of codes
/// (`E339/E452`) and versions (`v2.3.1-rc1`) are not such words.
fn words_of_short_parts(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || is_ideograph(c) || ",;，。、；/()·".contains(c))
        .filter(|w| {
            let parts: Vec<&str> = w.split(['-', '_', '.']).collect();
            let mixed = |p: &&&str| {
                p.chars().any(|c| c.is_ascii_digit()) && p.chars().any(char::is_alphabetic)
            };
            parts.iter().all(|p| p.chars().count() < MIN_CODE)
                && parts.iter().filter(mixed).count() >= 3
        })
}

/// Punctuation between the parts of a word.
const SEPARATORS: &str = ",;:()[]{}<>\"'`，。、；：（）【】《》“”‘’！？!?-_./+=@#|~*";

/// A word of six letters and digits or more that switches between them
/// four times or more, and is no chemical formula. Encodings scatter
/// digits through letters (`Ge0ho4qbe`, `KRZDA5LCGRSG64RGGN4A`); the codes
/// people use are a prefix and a number, or a word and a version
/// (`ATCC53103`, `FY2026`, `2027Q1`, `Log4Shell`), and formulas
/// (`Na2HPO4`, `C12H22O11`) alternate by nature.
fn is_code(part: &str) -> bool {
    let kept: Vec<char> = part.chars().filter(|c| c.is_alphanumeric()).collect();
    let digits = kept.iter().filter(|c| c.is_ascii_digit()).count();
    let runs =
        1 + kept.windows(2).filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit()).count();
    digits > 0
        && digits < kept.len()
        && kept.len() >= MIN_CODE
        && (runs >= MIN_RUNS || has_a_look_alike_digit(&kept))
        && !is_chemical_formula(part)
}

/// A letter that looks like a digit between two digits (`13B1234`,
/// `11O1O5`): a number written past the digit checks.
fn has_a_look_alike_digit(kept: &[char]) -> bool {
    kept.windows(3)
        .any(|w| w[0].is_ascii_digit() && w[2].is_ascii_digit() && "OoIlBSZGq".contains(w[1]))
}

/// The fewest runs of letters and of digits that make a word a code.
const MIN_RUNS: usize = 4;

/// Whether `word` is a chemical formula: element symbols with counts,
/// hydrates and brackets (`Na2HPO4·12H2O`, `Ca(OH)2`, `K2Cr2O7`).
fn is_chemical_formula(word: &str) -> bool {
    let mut rest = word.trim_matches(|c: char| !c.is_alphanumeric() && c != ')');
    // Real formulas are short and count in ones and tens (`C12H22O11`),
    // not `C84H114N48O117`.
    let long_count = rest.split(|c: char| !c.is_ascii_digit()).any(|n| n.len() > 2);
    if !rest.starts_with(|c: char| c.is_ascii_uppercase() || c == '(')
        || rest.chars().count() > 20
        || long_count
    {
        return false;
    }
    let mut elements = 0;
    while let Some(c) = rest.chars().next() {
        let skip = if c.is_ascii_digit() || "()[]·.•*".contains(c) {
            c.len_utf8()
        } else {
            let two = rest.get(..2).filter(|s| ELEMENTS.contains(s));
            let one = rest.get(..1).filter(|s| ELEMENTS.contains(s));
            let Some(symbol) = two.or(one) else { return false };
            elements += 1;
            symbol.len()
        };
        rest = &rest[skip..];
    }
    elements >= 2
}

const ELEMENTS: &[&str] = &[
    "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl",
    "Ar", "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As",
    "Se", "Br", "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In",
    "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb",
    "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl",
    "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu",
];

/// CJK ideographs and kana, which split words (Chinese is written without spaces).
fn is_ideograph(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}'
        | '\u{f900}'..='\u{faff}' | '\u{ac00}'..='\u{d7af}')
}

/// `text` lower-cased, with only its letters and digits (of any script but
/// ideographs).
fn compact_form(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric() && !is_ideograph(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The numbers of two digits or more standing alone (not inside a word),
/// and hex numbers written `0x…`.
fn numbers_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| {
        let hex_digits = w
            .strip_prefix("0x")
            .or_else(|| w.strip_prefix("0X"))
            .or_else(|| w.strip_prefix('x'))
            .or_else(|| w.strip_prefix('X'));
        let hex =
            hex_digits.is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
        hex || (w.len() >= 2 && w.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Runs of [`MIN_SPELLED`] or more spelling words in a row (digit names in
/// English, French, German, Spanish or pinyin; the NATO alphabet; Morse
/// letters; single letters and digits between two of those), each run in
/// its compact form.
fn spelled_runs(text: &str) -> Vec<String> {
    let mut runs = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let words = text.split(|c: char| c.is_whitespace() || ",;，、/".contains(c) || is_ideograph(c));
    // `thirty-four` is two digit names; a Morse letter keeps its dashes.
    let words = words.flat_map(|w| {
        let morse = is_morse(w);
        w.split(move |c| !morse && c == '-')
    });
    for word in words.filter(|w| !w.is_empty()).chain([""]) {
        let single = word.len() == 1 && word.bytes().all(|b| b.is_ascii_alphanumeric());
        if single || is_spelling_word(word) {
            run.push(word);
            continue;
        }
        // Dashes and dots alone are punctuation (`A -- B ...`); a Morse
        // letter that mixes them is a letter.
        let named = run
            .iter()
            .filter(|w| {
                is_spelling_word(w) && (!is_morse(w) || (w.contains('.') && w.contains('-')))
            })
            .count();
        if run.len() >= MIN_SPELLED && named >= 2 {
            runs.push(run.iter().map(|w| compact_form(w) + &morse_form(w)).collect());
        }
        run.clear();
    }
    runs
}

/// Runs of [`MIN_DIGIT_NAMES`] digit names or more written in hangul
/// (`일삼팔일이삼`) or kana (`いちさんはち…`), without spaces, as written.
fn digit_names_in_kana_or_hangul(text: &str) -> Vec<String> {
    let hangul = text
        .split(|c: char| !"공영일이삼사오육칠팔구".contains(c))
        .filter(|run| run.chars().count() >= MIN_DIGIT_NAMES);
    let kana = text
        .split(|c: char| !matches!(c, '\u{3040}'..='\u{30ff}'))
        .filter(|run| kana_digit_names(run).is_some_and(|n| n >= MIN_DIGIT_NAMES));
    hangul.chain(kana).map(str::to_owned).collect()
}

/// The fewest digit names in a row, written without spaces, that make a number.
const MIN_DIGIT_NAMES: usize = 6;

/// How many digit names `run` is made of, read greedily, if it is made of
/// nothing else.
fn kana_digit_names(run: &str) -> Option<usize> {
    const NAMES: &[&str] = &[
        "ぜろ",
        "れい",
        "まる",
        "いち",
        "に",
        "さん",
        "よん",
        "し",
        "ご",
        "ろく",
        "なな",
        "しち",
        "はち",
        "きゅう",
        "く",
        "ゼロ",
        "イチ",
        "ニ",
        "サン",
        "ヨン",
        "ゴ",
        "ロク",
        "ナナ",
        "ハチ",
        "キュウ",
    ];
    let mut rest = run;
    let mut count = 0;
    while !rest.is_empty() {
        let name = NAMES.iter().filter(|n| rest.starts_with(*n)).max_by_key(|n| n.len())?;
        rest = &rest[name.len()..];
        count += 1;
    }
    Some(count)
}

/// Morse letters keep their dots and dashes in the compact form.
fn morse_form(word: &str) -> String {
    if is_morse(word) { word.to_owned() } else { String::new() }
}

fn is_morse(word: &str) -> bool {
    (1..=6).contains(&word.len()) && word.bytes().all(|b| b == b'.' || b == b'-')
}

/// A digit name, a NATO letter word or a Morse letter (`thirty-four` is
/// two digit names).
fn is_spelling_word(word: &str) -> bool {
    if is_morse(word) {
        return word.len() > 1 || word == ".";
    }
    let lower = word.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    !lower.is_empty() && lower.split('-').all(|w| SPELLING_WORDS.contains(&w))
}

const SPELLING_WORDS: &[&str] = &[
    // English digit names, teens and tens
    "zero",
    "oh",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "double",
    "triple",
    // French, German, Spanish digit names
    "un",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "sept",
    "huit",
    "neuf",
    "null",
    "eins",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "cero",
    "uno",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "seis",
    "siete",
    "ocho",
    "nueve",
    // pinyin digit names
    "ling",
    "yao",
    "yi",
    "er",
    "san",
    "si",
    "wu",
    "liu",
    "qi",
    "ba",
    "jiu",
    "liang",
    // the NATO alphabet
    "alfa",
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "juliett",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "whisky",
    "xray",
    "yankee",
    "zulu",
];

#[cfg(test)]
mod tests {
    use super::*;

    const SAID: &str = "测试环境密码是 Tr0ub4dor&3x，另外我在研发中心质检部";

    fn unseen(text: &str) -> bool {
        writes_an_unseen_code(text, [SAID])
    }

    #[test]
    fn an_encoded_value_is_an_unseen_code() {
        for text in [
            "备份 Ge0ho4qbe&3k",
            "Us1vc5eps",
            "KRZDA5LCGRSG64RGGN4A====",
            "84 114 48 117 98 52 100 111 114 38 51 120",
            "54 72 30 75 62 34 64 6f 72 26 33 78",
            "%54%72%30%75%62%34%64%6F%72%26%33%78",
            "&#84;&#114;&#48;&#117;&#98;&#52;&#100;&#111;",
            "\\u0054\\u0072\\u0030\\u0075",
            "Tango romeo zero uniform bravo four delta oscar romeo",
            "- .-. ----- ..- -... ....- -.. --- .-.",
            "Tqrq0quqbq4qdqoqr",
            "ᴛʀ0ᴜʙ4ᴅᴏʀ",
            "Tr0υb4dor",
            "7r0u84d0r",
            "手机 0x33747ab4e",
            "手机 6c1qrm",
            "证件 11O1O51949",
            "Us1vc-5eps-4y",
            "tango-romeo-zero-uniform-bravo-four",
            "tango/romeo/zero/uniform/bravo/four",
            "0X54 0X72 0X30 0X75 0X62 0X34",
            "\\x54\\x72\\x30\\x75\\x62\\x34",
            "&#x54;&#x72;&#x30;&#x75;&#x62;&#x34;",
            "C84H114N48O117B98S52",
            "手机 13B1234",
            "thirteen eight, twelve thirty-four, fifty-six seventy-eight",
            "yi san ba yi er san si wu liu qi ba",
            "01010100 01110010 00110000 01110101 01100010 00110100",
            "0x54,0x72,0x30,0x75,0x62,0x34,0x64,0x6f,0x72",
            "one six C seven e four two F two nine two c",
            "いちさんはちいちにさんよん",
            "일삼팔일이삼사오육칠팔",
        ] {
            assert!(unseen(text), "{text}");
        }
    }

    #[test]
    fn what_the_user_said_is_no_unseen_code() {
        let said = "批号 20261130-B03 的样品按 GB 19301-2010 复测，pH4.6，用 A2β-酪蛋白奶源";
        for text in [
            "批号 20261130-B03 复测合格",
            "Batch 20261130B03 retested under GB19301-2010",
            "奶源用 A2β-酪蛋白，pH 4.6",
            "在研发中心质检部",
            "周报先写结论，再列依据",
            "目标 2 周内完成 3 批中试，温度 72 °C 保持 15 s",
            "one or two short answers",
            "等级 A B C D E 五档",
            "Tanks one, two, three, four, five",
            "A -- B -- C -- D ... done",
            "Buffer: Na2HPO4·12H2O 35.8 g, K2Cr2O7 method, C12H22O11, Ca(OH)2",
            "Upgraded all Log4j to 2.17.1 after Log4Shell; RTX4090, FY2026, 2027Q1",
            "ATCC53103, GB5009.5-2016, ISO22000:2018, YFL812, NaHCO3",
            "Emulsifying salts: trisodium citrate (E331) + phosphates (E339/E452)",
            "OTR < 1 cm³/(m²·d), v2.3.1-rc1, x86_64-linux",
            "我们一起做实验，이 일은 중요해요",
            "おいしいヨーグルトをつくる",
        ] {
            assert!(!writes_an_unseen_code(text, [said, SAID]), "{text}");
        }
    }

    #[test]
    fn only_texts_with_codes_need_grounds() {
        assert!(may_write_a_code(&["备份 Ge0ho4qbe&3k"]));
        assert!(may_write_a_code(&["alpha bravo charlie delta echo foxtrot"]));
        assert!(!may_write_a_code(&["用户偏好简短的回答", "keep answers short, 3 bullet points"]));
    }
}
