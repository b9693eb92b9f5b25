//! Personal identifiers: phone numbers, national ID numbers, bank card
//! numbers and e-mail addresses (spec §2).
//!
//! Numbers are read from the digits view's [`NumberRun`]s and validated, not
//! matched by shape alone: phone numbers by libphonenumber's metadata (the
//! `phonenumber` crate), resident IDs by their ISO 7064 check digit and birth
//! date, bank cards by the Luhn check and the card networks' number ranges.
//! Words around a number decide the doubtful cases both ways: `电话`, `card`,
//! `身份证` make a number that fails a check still count; `批号`, `sample`,
//! `version` make an unlabelled one not count.

use super::context::{WordSet, clause_around, mentions};
use super::view::{NumberRun, Views};
use phonenumber::Type;
use phonenumber::country::Id;
use phonenumber::metadata::{DATABASE, Metadata};
use regex::Regex;
use std::sync::LazyLock;

/// Words that say a number is a phone number.
static PHONE_WORDS: WordSet = WordSet::joined(&[PHONE_WORDS_MORE, PHONE_NOUN_LIST]);

/// The rest of [`PHONE_WORDS`]: verbs, and words that name a phone only
/// near its number.
const PHONE_WORDS_MORE: &[&str] = &[
    "联系",
    "座机",
    "固话",
    "传真",
    "分机",
    "致电",
    "打给",
    "拨打",
    "电联",
    "来电",
    "热线",
    "微信",
    "打我",
    "急事打",
    "有事打",
    "打这个",
    "打这个号",
    "手机号",
    "我的号",
    "他的号",
    "她的号",
    "新号",
    "my number",
    "his number",
    "erreichen",
    "anrufen",
    "rufen sie",
    "unter der nummer",
    "portable",
    "appeler",
    "appelez",
    "joindre",
    "numero de telefone",
    "llamar",
    "llamame",
    "komorka",
    "komorkowy",
    "mobiel",
    "telefonnummer",
    "сотовый",
    "เบอร์",
    "โทร",
    "연락처",
    "her number",
    "call",
    "tel",
    "fax",
    "wechat",
    "reach",
    "text me",
    "dial",
    "hotline",
    "contact",
    "ring",
];

/// Words that say a number is a phone number unless a word such as
/// `permit` or `批号` says what else it numbers (`the permit number is
/// 440300123`).
static WEAK_PHONE_WORDS: WordSet = WordSet::new(&["号码", "number is"]);

/// Words that make a number next to 电话 or call a meeting id, not a phone.
static MEETING_WORDS: WordSet = WordSet::new(&[
    "电话会议",
    "会议号",
    "会议室",
    "会议id",
    "腾讯会议",
    "zoom",
    "teams",
    "meeting id",
    "conference id",
    "webex",
    "passcode",
    "dial-in code",
]);

/// Words that say a number is a national ID number.
static ID_WORDS: WordSet = WordSet::new(&[
    "身份证",
    "证件",
    "身份号",
    "公民号",
    "id card",
    "identity",
    "national id",
    "id number",
    "id no",
    "resident id",
    "citizen id",
    "ssn",
    "social security",
    "社保",
    "户籍",
    "id",
    "id no",
    "id#",
]);

/// Words that say a number is a bank card or account number.
static CARD_WORDS: WordSet = WordSet::joined(&[CARD_WORDS_HERE, CARD_NAMES_ELSEWHERE]);

const CARD_WORDS_HERE: &[&str] = &[
    "卡号",
    "银行",
    "信用卡",
    "借记卡",
    "储蓄卡",
    "工资卡",
    "银联",
    "账号",
    "帐号",
    "账户",
    "帐户",
    "开户",
    "收款",
    "打款",
    "汇款",
    "转账",
    "card",
    "bank",
    "visa",
    "mastercard",
    "unionpay",
    "amex",
    "account",
    "iban",
    "debit",
    "credit",
    "cvv",
    "cvv2",
    "cvc",
    "cvn",
    "刷卡",
    "charge it",
    "charge the",
    "charged to",
    "charge to",
    "bill to",
    "bill it to",
    "pay with",
    "paid with",
    "扣款",
    "付款卡",
    "atm",
];

/// Words anywhere in a text that name a payment card or a charge to one.
static CARD_NAMES: WordSet = WordSet::joined(&[CARD_NAMES_HERE, CARD_NAMES_ELSEWHERE]);

const CARD_NAMES_HERE: &[&str] = &[
    "信用卡",
    "银行卡",
    "借记卡",
    "卡号",
    "visa",
    "mastercard",
    "amex",
    "unionpay",
    "credit card",
    "debit card",
    "card number",
    "card no",
    "charge it",
    "charge the",
    "charge to",
    "pay with",
    "paid with",
    "bill to",
];

/// Names of a payment card in other languages, in both sets: each names a
/// card wherever it stands.
const CARD_NAMES_ELSEWHERE: &[&str] = &[
    "tarjeta",
    "kreditkarte",
    "kartennummer",
    "carte bancaire",
    "numero de carte",
    "carte bleue",
    "cartao",
    "carta di credito",
    "карта",
    "карты",
    "карту",
    "kredi karti",
    "kart numarasi",
    "karta",
    "karty",
    "creditcard",
    "kartu kredit",
    "kartu debit",
    "บัตรเครดิต",
    "بطاقة",
    "カード",
    "카드",
];

/// Words that say a number is a technical identifier or a count: a batch,
/// a sample, a version, an order number, a barcode, a timestamp.
static TECH_WORDS: WordSet = WordSet::new(&[
    "批号",
    "批次",
    "样品",
    "样本",
    "编号",
    "序号",
    "序列号",
    "条码",
    "单号",
    "订单",
    "版本",
    "时间戳",
    "字符",
    "数量",
    "合计",
    "总计",
    "编码",
    "物料",
    "流水号",
    "运单",
    "快递",
    "项目号",
    "合同号",
    "发票",
    "工单",
    "凭证",
    "记录",
    "报告号",
    "测试号",
    "型号",
    "校验",
    "哈希",
    "batch",
    "lot",
    "sample",
    "serial",
    "sn",
    "barcode",
    "ean",
    "gtin",
    "order",
    "version",
    "timestamp",
    "token",
    "tokens",
    "characters",
    "count",
    "total",
    "hash",
    "id",
    "no",
    "code",
    "sku",
    "tracking",
    "invoice",
    "project",
    "ticket",
    "run",
    "job",
    "build",
    "seed",
    "row",
    "record",
    "report",
    "checksum",
    "cas",
    "isbn",
    "issn",
    "doi",
    "imei",
    "配方号",
    "配方",
    "物料号",
    "料号",
    "货号",
    "图号",
    "代码",
    "编码体系",
    "po",
    "so",
    "part",
    "model",
    "epoch",
    "ms",
    "bytes",
    "ip",
    "ipv4",
    "地址",
    "端口",
    "port",
    "permit",
    "licence",
    "license",
    "certificate",
    "registration",
    "许可证",
    "证书",
    "备案",
    "注册号",
    "cnpj",
    "ogrn",
    "огрн",
    "кпп",
    "siret",
    "siren",
    "regon",
    "krs",
    "npwp",
    "kvk",
    "ust-idnr",
    "vat",
]);

/// The identifier category of the first number in `views` that is one.
pub(crate) fn find(views: &Views) -> Option<super::Category> {
    use super::Category;
    if has_email(&views.words) {
        return Some(Category::Email);
    }
    if views.runs.iter().any(has_national_id) || has_foreign_id(&views.words) {
        return Some(Category::NationalId);
    }
    if views.runs.iter().any(|run| has_bank_card(run, &views.words)) || has_iban(&views.words) {
        return Some(Category::BankCard);
    }
    if views.runs.iter().any(has_phone) {
        return Some(Category::Phone);
    }
    split_identifier(views)
}

/// Whether `run` is by itself a national ID, a bank card or a phone number.
pub(crate) fn is_identifier(run: &NumberRun, words: &str) -> bool {
    has_national_id(run) || has_bank_card(run, words) || has_phone(run)
}

/// An identifier written in parts with words between, under its label
/// (`身份证号 110101199003 后六位 074514`, `卡尾号 1111，前十二位
/// 411111111111`): two to four neighbouring numbers of the text, read
/// together in order (two also the other way round), that make an ID with
/// its check character, a card passing Luhn, or a Chinese mobile.
fn split_identifier(views: &Views) -> Option<super::Category> {
    use super::Category;
    let runs = &views.runs;
    if runs.len() < 2 {
        return None;
    }
    let labelled = |words: &WordSet| mentions(&views.words, words);
    let (id, card, phone) = (labelled(&ID_WORDS), labelled(&CARD_WORDS), labelled(&PHONE_WORDS));
    if !(id || card || phone) {
        return None;
    }
    let joined = (2..=4.min(runs.len())).flat_map(|n| {
        runs.windows(n).flat_map(move |parts| {
            let forward: String = parts.iter().map(|r| r.digits.as_str()).collect();
            let backward = (n == 2).then(|| format!("{}{}", parts[1].digits, parts[0].digits));
            std::iter::once(forward).chain(backward)
        })
    });
    joined.into_iter().find_map(|digits| match digits.len() {
        18 if id && is_resident_id(&digits, false) => Some(Category::NationalId),
        16 | 19 if card && in_card_range(&digits) && luhn_valid(&digits) => {
            Some(Category::BankCard)
        }
        11 if phone && is_chinese_mobile(&digits) => Some(Category::Phone),
        _ => None,
    })
}

/// The candidate digit strings of one number: the whole of it when its
/// grouping is plausible for one identifier, and every stretch of whole
/// groups of three digits or more (two numbers written side by side, or a
/// number followed by a date).
fn windows(run: &NumberRun) -> impl Iterator<Item = (usize, usize)> + '_ {
    let n = run.groups.len();
    let whole = plausible_grouping(run).then_some((0, n));
    let parts = (n > 1 && n <= 24)
        .then(|| {
            (0..n).flat_map(move |from| {
                (from + 1..=n)
                    .filter(move |&to| (from, to) != (0, n))
                    .take_while(move |&to| run.groups[to - 1] >= 3)
                    .filter(move |_| run.groups[from] >= 3)
                    .map(move |to| (from, to))
            })
        })
        .into_iter()
        .flatten();
    whole.into_iter().chain(parts)
}

/// Whether the groups of a number could be one identifier: few groups, or
/// many but written uniformly (`1 3 8 1 2 3 4 5 6 7 8`, `6222 0202 0011
/// 2233 446`), not a list of readings such as `4.5 3.2 6.1 2.8`.
fn plausible_grouping(run: &NumberRun) -> bool {
    let n = run.groups.len();
    n <= 5
        || (run.uniform_separators
            && (n <= 6
                || run.groups.iter().all(|&g| g == 1)
                || run.groups.iter().all(|&g| g == 4 || g == 3)))
}

// ---- phone numbers ----

/// A phone number: validated by libphonenumber as an international number
/// (after `+` or `00`), a Chinese mobile (with or without 86), a Chinese
/// landline with its trunk `0`, a North American number written 3-3-4, or
/// any 7–13 digits right after a word such as 电话 or phone.
fn has_phone(run: &NumberRun) -> bool {
    if run.glued || looks_like_ipv4(run) {
        return false;
    }
    let around = run.around();
    let technical = mentions(&around, &TECH_WORDS);
    let labelled = (mentions(&around, &PHONE_WORDS)
        || (!technical && mentions(&around, &WEAK_PHONE_WORDS)))
        && !mentions(&around, &MEETING_WORDS)
        || labelled_right_before(&run.before);
    // `leite em pó: +55 11 …`: a `+` before the digits outweighs a code
    // word (`po`) in the words around.
    if !labelled && technical && !run.plus {
        return false;
    }
    // Read out a digit or two at a time (`13 5 6 7 8 9 0 1 2 3 4`): a
    // phone with a word that says so, or a Chinese mobile without one.
    let read_out =
        run.uniform_separators && run.groups.len() >= 5 && run.groups.iter().all(|&g| g <= 2);
    let named_in_sentence = !technical
        && mentions(&run.sentence_before, &PHONE_NOUNS)
        && !mentions(&run.sentence_before, &MEETING_WORDS);
    if named_in_sentence && run.groups.len() >= 2 && in_a_national_plan(&run.digits) {
        return true;
    }
    (read_out && (labelled || is_chinese_mobile(&run.digits))
        || (labelled && run.groups.len() >= 7 && run.groups.iter().all(|&g| g == 1)))
        && is_phone_number(&run.digits, run.plus, &run.groups, true)
        || windows(run).any(|(from, to)| {
            let digits = run.window(from, to);
            let plus = from == 0 && run.plus;
            is_phone_number(digits, plus, &run.groups[from..to], labelled)
        })
}

/// A phone word right before the number (`打我座机04712895796`, `手机：138…`,
/// `tel. 0471…`): it names this number, whatever words farther off (`会议室`,
/// `配方评审`) say.
fn labelled_right_before(before: &str) -> bool {
    const LABELS: &[&str] = &[
        "电话",
        "手机",
        "座机",
        "固话",
        "分机",
        "传真",
        "电话号码",
        "tel",
        "phone",
        "mobile",
        "cell",
        "fax",
        "mob",
        "handphone",
        "whatsapp",
    ];
    let label = before.trim_end_matches(|c: char| c.is_whitespace() || ":.=是为(号".contains(c));
    LABELS.iter().any(|l| {
        label.ends_with(l)
            && !label[..label.len() - l.len()]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

/// Four dot-separated groups of at most three digits: an IPv4 address.
fn looks_like_ipv4(run: &NumberRun) -> bool {
    run.groups.len() == 4 && run.separators_are(".") && run.groups.iter().all(|&g| g <= 3)
}

fn is_phone_number(digits: &str, plus: bool, groups: &[usize], labelled: bool) -> bool {
    let n = digits.len();
    // `00` is the international prefix only where it opens the number as a
    // group of its own or of a long digit string (`0086 138…`, `00 49 …`,
    // `008613…`), not in decimals such as `0.0012`.
    let idd = digits.starts_with("00") && matches!(groups.first(), Some(2 | 4) | Some(10..));
    if plus || idd {
        let international = if plus { digits } else { &digits[2..] };
        if (8..=15).contains(&international.len())
            && (labelled
                || valid_in(None, international)
                || (plus && groups.len() >= 2 && possible_international(international)))
        {
            return true;
        }
    }
    (n == 13 && digits.starts_with("86") && is_chinese_mobile(&digits[2..]))
        || (n == 11 && is_chinese_mobile(digits))
        || (digits.starts_with('0') && (10..=12).contains(&n) && valid_in(Some(Id::CN), digits))
        || (n == 10 && groups == [3, 3, 4] && valid_in(Some(Id::US), digits))
        || (digits.starts_with('0')
            && (10..=11).contains(&n)
            && groups.len() >= 3
            && NATIONAL_FORMATS.iter().any(|&region| valid_in(Some(region), digits)))
        || (labelled && (7..=13).contains(&n))
}

/// Nouns that name a phone number from anywhere in its sentence (`Il
/// cellulare del dott. Bianchi è 333 126 9060`), unlike verbs such as
/// `call` or `contact`, which take other objects.
static PHONE_NOUNS: WordSet = WordSet::new(PHONE_NOUN_LIST);

const PHONE_NOUN_LIST: &[&str] = &[
    "电话",
    "手机",
    "phone",
    "mobile",
    "cell",
    "telephone",
    "telefon",
    "telefono",
    "telefone",
    "telemovel",
    "celular",
    "movil",
    "cellulare",
    "handy",
    "komorki",
    "mobiele nummer",
    "telefoonnummer",
    "telepon",
    "dien thoai",
    "телефон",
    "мобильный",
    "هاتف",
    "جوال",
    "電話",
    "携帯",
    "전화",
    "휴대폰",
    "whatsapp",
    "my number",
    "sg number",
    "hk number",
    "handphone",
];

/// Countries whose national numbering plan a grouped number with a phone
/// noun in its sentence is checked against: the ones whose languages the
/// detectors read.
const SENTENCE_LABEL_REGIONS: [Id; 29] = [
    Id::CN,
    Id::US,
    Id::GB,
    Id::DE,
    Id::FR,
    Id::ES,
    Id::IT,
    Id::PT,
    Id::BR,
    Id::NL,
    Id::PL,
    Id::RU,
    Id::TR,
    Id::JP,
    Id::KR,
    Id::VN,
    Id::TH,
    Id::ID,
    Id::SA,
    Id::AE,
    Id::EG,
    Id::MX,
    Id::IN,
    Id::AU,
    Id::SG,
    Id::MY,
    Id::HK,
    Id::TW,
    Id::PH,
];

/// A valid number in one of [`SENTENCE_LABEL_REGIONS`]' national plans.
fn in_a_national_plan(digits: &str) -> bool {
    (7..=13).contains(&digits.len())
        && SENTENCE_LABEL_REGIONS.iter().any(|&region| valid_in(Some(region), digits))
}

/// Countries whose numbers are written nationally with a trunk `0` and in
/// groups (`0118 962 4410`, `090-4381-2276`), tried for grouped numbers.
const NATIONAL_FORMATS: [Id; 6] = [Id::GB, Id::JP, Id::DE, Id::FR, Id::KR, Id::AU];

fn is_chinese_mobile(digits: &str) -> bool {
    digits.len() == 11
        && digits.starts_with('1')
        && matches!(digits.as_bytes()[1], b'3'..=b'9')
        && valid_in(Some(Id::CN), digits)
}

/// libphonenumber's verdict on a string of digits, in a region (national
/// form, trunk prefix allowed) or, without one, as an international number
/// (country code first).
///
/// It asks the library's metadata directly — the number matches the
/// region's general pattern and one of its number types, which is what
/// `isValidNumber` checks — rather than `phonenumber::parse`, whose
/// free-text parser costs about ten times more and is not needed on digits.
fn valid_in(region: Option<Id>, digits: &str) -> bool {
    match region {
        Some(id) => DATABASE.by_id(id.as_ref()).is_some_and(|meta| valid_national(meta, digits)),
        None => in_some_country(digits, valid_national),
    }
}

/// Whether `digits`, read as a country calling code of one to three digits
/// and the number after it, `fits` one of the code's countries.
fn in_some_country(digits: &str, fits: impl Fn(&Metadata, &str) -> bool) -> bool {
    (1..=3).filter(|&k| k < digits.len()).any(|k| {
        digits[..k].parse::<u16>().is_ok_and(|code| {
            DATABASE
                .by_code(&code)
                .is_some_and(|metas| metas.iter().any(|meta| fits(meta, &digits[k..])))
        })
    })
}

/// A number written after `+` in groups that fits its country's general
/// pattern and lengths, though no number type (`+44 7700 900123`, a range
/// kept for fiction, is still someone's way of writing a phone number).
fn possible_international(digits: &str) -> bool {
    in_some_country(digits, |meta, national| meta.descriptors().general().is_match(national))
}

/// Whether `digits` (with or without the region's trunk prefix) is a valid
/// national significant number of the region `meta` describes.
fn valid_national(meta: &Metadata, digits: &str) -> bool {
    const TYPES: [Type; 10] = [
        Type::FixedLine,
        Type::Mobile,
        Type::TollFree,
        Type::PremiumRate,
        Type::SharedCost,
        Type::PersonalNumber,
        Type::Voip,
        Type::Pager,
        Type::Uan,
        Type::Voicemail,
    ];
    let valid = |national: &str| {
        let descriptors = meta.descriptors();
        descriptors.general().is_match(national)
            && TYPES.iter().any(|&t| descriptors.get(t).is_some_and(|d| d.is_match(national)))
    };
    let without_trunk = meta
        .national_prefix()
        .and_then(|prefix| digits.strip_prefix(prefix))
        .filter(|rest| !rest.is_empty());
    without_trunk.is_some_and(valid) || valid(digits)
}

// ---- national ID numbers ----

/// A Chinese resident ID: 18 characters with a valid check digit and birth
/// date, or 15 digits (the first generation) with a valid province and
/// birth date. With a word such as 身份证 nearby, a valid date is enough.
fn has_national_id(run: &NumberRun) -> bool {
    if run.glued {
        // Glued to letters (`ID:X110101199003074514`) only a whole ID with
        // its check character and birth date counts: no code is one by chance.
        return (run.digits.len() == 18 && is_resident_id(&run.digits, false))
            || (run.digits.len() == 17
                && run.trailing_x
                && is_resident_id(&format!("{}X", run.digits), false));
    }
    let around = run.around();
    let labelled = mentions(&around, &ID_WORDS);
    let doubtful =
        !labelled && (mentions(&run.before, &TECH_WORDS) || mentions(&around, &CARD_WORDS));
    let n = run.groups.len();
    windows(run).any(|(from, to)| {
        let digits = run.window(from, to);
        let x = to == n && run.trailing_x;
        match (digits.len(), x) {
            // The check character is evidence enough, whatever the words around.
            (17, true) => is_resident_id(&format!("{digits}X"), labelled),
            (18, false) => is_resident_id(digits, labelled),
            (15, false) => {
                !doubtful
                    && is_first_generation_id(digits)
                    && (labelled || matches!(run.groups[from..to], [15] | [6, 6, 3]))
            }
            _ => false,
        }
    })
}

/// GB 11643: province code, birth date and (unless `labelled`) the ISO 7064
/// MOD 11-2 check character.
pub(crate) fn is_resident_id(id: &str, labelled: bool) -> bool {
    let bytes = id.as_bytes();
    if bytes.len() != 18 || !bytes[..17].iter().all(u8::is_ascii_digit) {
        return false;
    }
    valid_province(&id[..2])
        && valid_date(&id[6..14])
        && (labelled || resident_id_check_char(&id[..17]) == Some(bytes[17].to_ascii_uppercase()))
}

/// The ISO 7064 MOD 11-2 check character of the first 17 digits.
pub(crate) fn resident_id_check_char(first17: &str) -> Option<u8> {
    const WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    const CHECK: &[u8; 11] = b"10X98765432";
    if first17.len() != 17 {
        return None;
    }
    let sum = first17
        .bytes()
        .zip(WEIGHTS)
        .map(|(b, w)| b.is_ascii_digit().then(|| u32::from(b - b'0') * w))
        .sum::<Option<u32>>()?;
    Some(CHECK[(sum % 11) as usize])
}

/// A 15-digit ID of 1985–1999: six-digit area code, YYMMDD birth date in
/// the 1900s, three digits.
pub(crate) fn is_first_generation_id(id: &str) -> bool {
    id.len() == 15
        && id.bytes().all(|b| b.is_ascii_digit())
        && valid_province(&id[..2])
        && valid_date(&format!("19{}", &id[6..12]))
}

/// Province-level codes of GB/T 2260 (and 71/81/82 for Taiwan, Hong Kong, Macau).
fn valid_province(code: &str) -> bool {
    matches!(
        code,
        "11" | "12"
            | "13"
            | "14"
            | "15"
            | "21"
            | "22"
            | "23"
            | "31"
            | "32"
            | "33"
            | "34"
            | "35"
            | "36"
            | "37"
            | "41"
            | "42"
            | "43"
            | "44"
            | "45"
            | "46"
            | "50"
            | "51"
            | "52"
            | "53"
            | "54"
            | "61"
            | "62"
            | "63"
            | "64"
            | "65"
            | "71"
            | "81"
            | "82"
            | "83"
            | "91"
    )
}

/// A real calendar date `YYYYMMDD` between 1900 and 2099.
fn valid_date(yyyymmdd: &str) -> bool {
    chrono::NaiveDate::parse_from_str(yyyymmdd, "%Y%m%d")
        .is_ok_and(|d| (1900..=2099).contains(&chrono::Datelike::year(&d)))
}

static TAIWAN_ID: LazyLock<Regex> = LazyLock::new(|| super::re(r"\b([A-Z])([12][0-9]{8})\b"));
static HONG_KONG_ID: LazyLock<Regex> =
    LazyLock::new(|| super::re(r"\b([A-Z]{1,2})([0-9]{6}) ?\(?([0-9A])\)?(?:[^0-9A-Za-z]|$)"));
/// A Hong Kong identity card number after its label: a mistyped check
/// digit does not make it less personal.
static HONG_KONG_ID_LABELLED: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:\bHKID\b|香港身份证|身份证)[^0-9\n,;。]{0,40}?\b(?-i:[A-Z]{1,2})[0-9]{6} ?\(?[0-9A]\)?(?:[^0-9A-Za-z]|$)",
    )
});
static US_SSN: LazyLock<Regex> = LazyLock::new(|| {
    super::re(r"(?:^|[^0-9-])([0-9]{3})[- ]([0-9]{2})[- ]([0-9]{4})(?:[^0-9-]|$)")
});
static PASSPORT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:护照|passport|通行证|permit)[^0-9A-Za-z\n]{0,12}(?:no\.?|number|num|号码?)?[^0-9A-Za-z\n]{0,4}(?:(?:is|was)\s+)?(?-i:[A-Z]{1,2})[0-9]{7,8}\b",
    )
});

/// An identity number after the name of its document, in any country's
/// shape (Singapore NRIC, Aadhaar, Canadian SIN, UK NI, Korean RRN,
/// passports): a label and six to twelve digits, maybe between letters.
static LABELLED_ID: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:\bpassport|护照|\bNRIC\b|\baadhaa?r\b|(?-i:\bSIN\b)|social\s+insurance|(?-i:\bNI\b)\s+(?:no|number)|national\s+insurance|(?-i:\bRRN\b)|resident\s+registration|social\s+security\s+(?:no|number|#)|\bnational\s+id|\bidentity\s+(?:card|number)|\bID\s+card\s+(?:no|number)|证件号|(?-i:\bCPF\b)|(?-i:\bDNI\b)|(?-i:\bNIE\b)|\bmykad\b|(?-i:\bI/?C\b)\s*(?:no\.?|number|#|:)|s[ée]curit[ée]\s+sociale|(?-i:\bNIR\b)|\bpesel\b|(?-i:\bBSN\b)|codice\s+fiscale|personnummer(?:et)?|personnumret|(?-i:\bCNP\b)|आधार|(?-i:\bMy\s?Number\b)|マイナンバー|(?-i:\bCURP\b)|(?-i:\bCPR\b)|(?-i:\bTFN\b)|\bsteuer-?id\b|steueridentifikationsnummer|personalausweis|numero\s+de\s+secu\b|снилс|паспорт|个人番号|\bcccd\b|can\s+cuoc|บัตรประชาชน|رقم\s+(?:الهوية|هويتي)|الهوية\s+الوطنية|\bNIF\b|\bNIK\b|kimlik|주민등록번호|주민번호|身分证)(?:\s*(?:no\.?|number|#|号码?))?[^\n0-9,;。]{0,50}?\b(?P<id>(?-i:[A-Z]{0,2})\s?\d(?:[\s.\-]?\d){5,16}\s?(?-i:[A-Z])?)(?:[^0-9A-Za-z]|$)",
    )
});

/// An Italian codice fiscale: surname, name, birth date and place, and a
/// check letter (`RSSMRC81A23F205J`), in either case.
static CODICE_FISCALE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(r"(?i)\b([A-Z]{6}[0-9]{2}[ABCDEHLMPRST][0-9]{2}[A-Z][0-9]{3})([A-Z])\b")
});

/// A German identity card's number after its label: nine characters of its
/// alphabet and a check digit (`Y8KMZ4XK39`).
static PERSONALAUSWEIS: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:personalausweis|ausweisnummer|ausweis-nr)[^\n0-9,;.]{0,40}?\b((?-i:[CFGHJKLMNPRTVWXYZ0-9]{9}))([0-9])\b",
    )
});

/// A Russian passport's series and number after its name (`паспорт …
/// серия 50 23 № 938990`; NFKC reads `№` as `No`).
static RUSSIAN_PASSPORT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(r"(?i)паспорт[^\n]{0,40}?сери[яи]\s*[0-9]{2}\s?[0-9]{2}\s*(?:no|n)?\.?\s*[0-9]{6}")
});

/// A Russian taxpayer number of a person (twelve digits; an organisation's
/// has ten and is public) after its name.
static RUSSIAN_INN: LazyLock<Regex> = LazyLock::new(|| {
    super::re(r"(?i)(?:^|[^\p{Cyrillic}])инн(?:$|[^\p{Cyrillic}])[^\n0-9]{0,30}?\b([0-9]{12})\b")
});

/// The two check digits of a person's INN.
fn is_russian_inn(digits: &str) -> bool {
    let d: Vec<u32> = digits.bytes().map(|b| u32::from(b - b'0')).collect();
    let check = |weights: &[u32]| weights.iter().zip(&d).map(|(w, x)| w * x).sum::<u32>() % 11 % 10;
    d.len() == 12
        && check(&[7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) == d[10]
        && check(&[3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) == d[11]
}

/// The codice fiscale's check letter: odd places (from one) by a table of
/// their own, even places by their value.
fn is_codice_fiscale(body: &str, check: &str) -> bool {
    const ODD: [u32; 26] = [
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24,
        23,
    ];
    let value = |c: u8| match c {
        b'0'..=b'9' => u32::from(c - b'0'),
        _ => u32::from(c.to_ascii_uppercase() - b'A'),
    };
    let sum: u32 = body
        .bytes()
        .enumerate()
        .map(|(i, c)| if i % 2 == 0 { ODD[value(c) as usize] } else { value(c) })
        .sum();
    check.bytes().next().is_some_and(|c| u32::from(c.to_ascii_uppercase() - b'A') == sum % 26)
}

/// The German identity card's check digit: weights 7, 3, 1 over the
/// characters' values (letters from 10).
fn is_personalausweis(body: &str, check: &str) -> bool {
    let value = |c: u8| match c {
        b'0'..=b'9' => u32::from(c - b'0'),
        _ => u32::from(c - b'A') + 10,
    };
    let sum: u32 = body.bytes().zip([7, 3, 1].iter().cycle()).map(|(c, w)| value(c) * w).sum();
    check.parse::<u32>().is_ok_and(|d| d == sum % 10)
}

/// Other national identity numbers that carry a check digit or a label:
/// Taiwan and Hong Kong IDs, Italian codici fiscali and German identity
/// cards (checksummed), US social security numbers in their 3-2-4 form with
/// valid ranges, passport numbers after a label.
fn has_foreign_id(words: &str) -> bool {
    TAIWAN_ID.captures_iter(words).any(|c| is_taiwan_id(&c[1], &c[2]))
        || HONG_KONG_ID.captures_iter(words).any(|c| is_hong_kong_id(&c[1], &c[2], &c[3]))
        || HONG_KONG_ID_LABELLED.is_match(words)
        || LABELLED_ID.captures_iter(words).any(|c| !is_date(&c["id"]))
        || US_SSN.captures_iter(words).any(|c| is_ssn(&c[1], &c[2], &c[3]))
        || PASSPORT.is_match(words)
        || CODICE_FISCALE.captures_iter(words).any(|c| is_codice_fiscale(&c[1], &c[2]))
        || PERSONALAUSWEIS.captures_iter(words).any(|c| is_personalausweis(&c[1], &c[2]))
        || RUSSIAN_PASSPORT.is_match(words)
        || RUSSIAN_INN.captures_iter(words).any(|c| is_russian_inn(&c[1]))
}

/// `2026-11-20`, `20261129`: a date after a document's name (a renewal
/// deadline, a lot), not its number.
fn is_date(value: &str) -> bool {
    let digits: String = value.chars().filter(char::is_ascii_digit).collect();
    digits.len() == 8 && valid_date(&digits)
}

fn is_taiwan_id(letter: &str, digits: &str) -> bool {
    const CODES: &str = "ABCDEFGHJKLMNPQRSTUVXYWZIO";
    let Some(code) = CODES.find(letter).map(|i| i as u32 + 10) else {
        return false;
    };
    let d: Vec<u32> = digits.bytes().map(|b| u32::from(b - b'0')).collect();
    let weights = [8, 7, 6, 5, 4, 3, 2, 1];
    let sum = code / 10
        + (code % 10) * 9
        + d[..8].iter().zip(weights).map(|(a, w)| a * w).sum::<u32>()
        + d[8];
    sum.is_multiple_of(10)
}

fn is_hong_kong_id(letters: &str, digits: &str, check: &str) -> bool {
    let value = |c: u8| match c {
        b'A'..=b'Z' => u32::from(c - b'A') + 10,
        _ => u32::from(c - b'0'),
    };
    let letters = letters.as_bytes();
    let mut sum = if letters.len() == 2 {
        value(letters[0]) * 9 + value(letters[1]) * 8
    } else {
        36 * 9 + value(letters[0]) * 8
    };
    sum += digits.bytes().zip((2..=7).rev()).map(|(b, w)| value(b) * w).sum::<u32>();
    let expected = (11 - sum % 11) % 11;
    let actual = if check == "A" { 10 } else { value(check.as_bytes()[0]) };
    expected == actual
}

fn is_ssn(area: &str, group: &str, serial: &str) -> bool {
    area != "000" && area != "666" && !area.starts_with('9') && group != "00" && serial != "0000"
}

// ---- bank cards ----

/// A bank card number: 13–19 digits in a card network's range, not all the
/// same digit, passing the Luhn check. With a word such as 卡号 or card
/// nearby, 16–19 digits in range are enough (a mistyped card is still one).
/// A word such as `sample` before it makes it a code, unless the text
/// (`words`) names a card (`corporate Visa for sample purchases: …`).
fn has_bank_card(run: &NumberRun, words: &str) -> bool {
    if run.digits.len() < 13 {
        return false;
    }
    if run.glued {
        // Glued to letters (`x4111111111111111`): a whole card of 16 or 19
        // digits, in a network's range, passing Luhn; a code or a hash
        // rarely holds such a run of digits alone.
        let d = &run.digits;
        return matches!(d.len(), 16 | 19) && in_card_range(d) && luhn_valid(d);
    }
    let labelled = mentions(&run.around(), &CARD_WORDS);
    if !labelled && mentions(&run.before, &TECH_WORDS) && !mentions(words, &CARD_NAMES) {
        return false;
    }
    windows(run).any(|(from, to)| {
        let digits = run.window(from, to);
        in_card_range(digits)
            && !digits.bytes().all(|b| b == digits.as_bytes()[0])
            && (luhn_valid(digits) || (labelled && digits.len() >= 16))
    })
}

/// An IBAN as printed or written together: country, check digits, then
/// the account in groups of four.
static IBAN: LazyLock<Regex> = LazyLock::new(|| {
    super::re(r"(?i)\b([A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?)\b")
});

/// A bank account number in IBAN form, its ISO 13616 check (mod 97) valid.
fn has_iban(words: &str) -> bool {
    IBAN.captures_iter(words).any(|c| iban_valid(&c[1]))
}

fn iban_valid(iban: &str) -> bool {
    let compact: String =
        iban.chars().filter(|c| !c.is_whitespace()).map(|c| c.to_ascii_uppercase()).collect();
    // `\d` also matches other scripts' digits (`QG𑛂5…`): an IBAN is ASCII.
    if !compact.is_ascii()
        || !(15..=34).contains(&compact.len())
        || !compact.bytes().skip(4).any(|b| b.is_ascii_digit())
    {
        return false;
    }
    let (head, tail) = compact.split_at(4);
    let remainder = tail.chars().chain(head.chars()).try_fold(0u32, |acc, c| {
        let value = c.to_digit(36)?;
        let shift = if value < 10 { 10 } else { 100 };
        Some((acc * shift + value) % 97)
    });
    remainder == Some(1)
}

/// Issuer ranges and lengths of the networks (ISO/IEC 7812 IINs as the
/// networks publish them): Visa 4; Mastercard 51–55 and 2221–2720; American
/// Express 34/37; JCB 3528–3589; Diners 30/36/38/39; UnionPay 62 and the
/// other 6-series (Discover, Maestro); the domestic 9-series of Chinese banks.
fn in_card_range(digits: &str) -> bool {
    let n = digits.len();
    if !(12..=19).contains(&n) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let prefix = |k: usize| digits[..k].parse::<u32>().unwrap_or(0);
    match digits.as_bytes()[0] {
        b'4' => matches!(n, 13 | 16 | 19),
        b'5' => match prefix(2) {
            51..=55 => n == 16,
            50 | 56..=59 => (12..=19).contains(&n),
            _ => false,
        },
        // Mastercard's 2-series; Mir.
        b'2' => {
            (2221..=2720).contains(&prefix(4)) && n == 16
                || (2200..=2204).contains(&prefix(4)) && (16..=19).contains(&n)
        }
        b'3' => match prefix(2) {
            34 | 37 => n == 15,
            35 => (3528..=3589).contains(&prefix(4)) && (16..=19).contains(&n),
            30 | 36 | 38 | 39 => (14..=19).contains(&n),
            _ => false,
        },
        b'6' | b'9' => (16..=19).contains(&n),
        _ => false,
    }
}

/// The Luhn (mod 10) check of ISO/IEC 7812.
pub(crate) fn luhn_valid(digits: &str) -> bool {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            match (i % 2 == 1, d * 2) {
                (true, doubled) if doubled > 9 => doubled - 9,
                (true, doubled) => doubled,
                (false, _) => d,
            }
        })
        .sum();
    digits.bytes().all(|b| b.is_ascii_digit()) && sum.is_multiple_of(10)
}

// ---- e-mail ----

/// A plain address. The top-level domain is letters, and not a file
/// extension (`logo@2x.png` is an image).
static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)([a-z0-9][a-z0-9._%+\-]{0,63})\s?@\s?((?:[a-z0-9](?:[a-z0-9\-]{0,62}[a-z0-9])?\.)+([a-z]{2,24}))\b",
    )
});

/// Characters spelled out one by one (`w a n g @ s i n a . c o m`).
static SPACED_OUT: LazyLock<Regex> =
    LazyLock::new(|| super::re(r"(?:[A-Za-z0-9@._\-] ){5,}[A-Za-z0-9@._\-]"));

/// An address with its `@` or dots disguised: `(at)`, `[at]`, `{at}`,
/// ` at `, `#`, `艾特`, ` chiocciola `, ` arobase `; `(dot)`, `[dot]`,
/// ` dot `, ` punto `, ` point `, `点`, ` .com`.
static OBFUSCATED_EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    let at = r"(?:\s*(?:\(at\)|\[at\]|\{at\}|<at>|\(@\)|\[@\]|\{@\}|@|#|艾特|圈a|在|at)\s*|\s+at\s+|\s+(?:chiocciola|arobase|arroba|klammeraffe|malpa|собака)\s+)";
    let dot = r"(?:\s*(?:\(dot\)|\[dot\]|\{dot\}|<dot>|\(\.\)|\[\.\]|点|。)\s*|\s+dot\s+|\s+period\s+|\s+(?:punto|point|punkt|ponto|punt|точка)\s+|\s+\.\s*|\.)";
    super::re(&format!(
        r"(?i)([a-z0-9][a-z0-9._%+\-]{{0,63}})({at})([a-z0-9][a-z0-9\-]{{0,62}}(?:{dot}[a-z0-9][a-z0-9\-]{{0,62}})*)({dot})([a-z]{{2,6}})\b"
    ))
});

/// Top-level domains an obfuscated address may end in (a disguised address
/// must end in a real one, so that `look at page dot top` style prose does
/// not count unless it really names a domain).
const TLDS: &[&str] = &[
    "com", "cn", "net", "org", "edu", "gov", "io", "co", "uk", "de", "jp", "hk", "tw", "us",
    "info", "biz", "me", "ai", "app", "dev", "top", "xyz", "cc", "tv", "fr", "sg", "au", "ca",
    "ru", "in", "kr", "mo", "nl", "ch", "it", "es", "se", "email", "mail", "work", "tech", "site",
    "online", "pl", "dk", "fi", "nz", "br", "mx", "za", "ie", "pt", "cz", "tr", "th", "vn", "ph",
    "ae", "il", "ar", "cl", "gr", "hu", "ro", "eu", "lu", "li", "ee", "lv", "lt", "si", "sk", "hr",
    "bg", "ua", "kz", "uz", "az", "ir", "iq", "sa", "qa", "kw", "bh", "om", "jo", "lb", "eg", "tn",
    "dz", "ng", "ke", "gh", "tz", "ug", "zm", "zw", "pk", "bd", "lk", "np", "mm", "kh", "mn", "pe",
    "ve", "ec", "uy", "bo", "cr", "gt", "cu", "pr", "jm", "mt", "cy", "mk", "ba", "asia", "shop",
    "store", "cloud", "group", "company", "global", "club", "network",
];

/// Free mail providers: an address written `name at qq.com` counts even
/// without any other sign that it is one.
const MAIL_PROVIDERS: &[&str] = &[
    "qq",
    "163",
    "126",
    "gmail",
    "outlook",
    "hotmail",
    "foxmail",
    "sina",
    "sohu",
    "yahoo",
    "icloud",
    "aliyun",
    "yeah",
    "139",
    "189",
    "live",
    "msn",
    "proton",
    "protonmail",
    "mail",
    "tom",
    "21cn",
    "me",
];

const FILE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "pdf", "xlsx", "xls", "docx", "doc", "csv",
    "txt", "json", "js", "ts", "rs", "py", "md", "html", "css", "zip", "gz", "tar", "log", "yaml",
    "yml", "toml",
];

/// An address with a domain in another script (`jay@例子.中国`): its
/// top-level domain one of [`TLDS`] or of the common internationalised ones.
static IDN_EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)([\p{L}\p{N}][\p{L}\p{M}\p{N}._%+\-]{0,63})\s?@\s?(?:[\p{L}\p{N}][\p{L}\p{M}\p{N}\-]{0,62}\.)+([\p{L}\p{M}]{2,24})",
    )
});

const IDN_TLDS: &[&str] = &[
    "中国",
    "中國",
    "公司",
    "网络",
    "網絡",
    "香港",
    "台湾",
    "台灣",
    "рф",
    "한국",
    "ไทย",
    "भारत",
    "укр",
    "срб",
    "ελ",
    "مصر",
    "السعودية",
    "امارات",
    "ایران",
    "新加坡",
    "みんな",
];

fn has_idn_email(words: &str) -> bool {
    if !words.contains('@') || words.is_ascii() {
        return false;
    }
    IDN_EMAIL.captures_iter(words).any(|c| {
        let tld = c[2].to_lowercase();
        !c[0].is_ascii()
            && (IDN_TLDS.contains(&tld.as_str()) || TLDS.contains(&tld.as_str()))
            && could_be_address(&c[1], &tld)
    })
}

/// A free mailbox named without its domain's ending (`jay at gmail`).
static MAILBOX_AT_PROVIDER: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\b([a-z0-9][a-z0-9._\-]{1,63})\s*(?:@|\bat\b|艾特|在)\s*(?:gmail|googlemail|qq|163|126|outlook|hotmail|foxmail|yahoo|icloud|sina|sohu|aliyun|protonmail)\b",
    )
});

/// An address written backwards (`moc.elpmaxe@yaj`), read the right way round.
fn has_reversed_email(words: &str) -> bool {
    words.split_whitespace().filter(|token| token.contains('@')).any(|token| {
        let reversed: String = token.chars().rev().collect();
        EMAIL.captures(&reversed).is_some_and(|c| could_be_address(&c[1], &c[3]))
            && !EMAIL.is_match(token)
    })
}

fn has_email(words: &str) -> bool {
    if has_idn_email(words) || has_reversed_email(words) {
        return true;
    }
    if MAILBOX_AT_PROVIDER
        .captures_iter(words)
        .any(|c| !ENGLISH_WORDS.contains(&c[1].to_ascii_lowercase().as_str()))
    {
        return true;
    }
    let plain = |text: &str| {
        EMAIL.captures_iter(text).any(|c| {
            let start = c.get(0).map_or(0, |m| m.start());
            // `decorator @app.route`: an `@` set apart by a space starts a
            // handle or a decorator unless a real top-level domain ends it.
            let spaced = c[0].contains(" @") || c[0].contains("@ ");
            let known_tld = TLDS.contains(&c[3].to_ascii_lowercase().as_str());
            could_be_address(&c[1], &c[3])
                && !text[..start].ends_with("://")
                && (!spaced || known_tld)
        })
    };
    plain(words)
        || SPACED_OUT.find_iter(words).any(|m| plain(&m.as_str().replace(' ', "")))
        || overlapping(&OBFUSCATED_EMAIL, words).any(|c| {
            let (local, at, domain, dot, tld) =
                (&c[1], c[2].trim().to_ascii_lowercase(), &c[3], &c[4], &c[5]);
            if !could_be_address(local, tld) || !TLDS.contains(&tld.to_ascii_lowercase().as_str()) {
                return false;
            }
            // `rbac.authorization.k8s.io`: an `at` inside a word is no `@`
            // (`lei.wangAT163.com`, in capitals or at a mail provider, is).
            let provider = domain.split(['.', ' ']).next().unwrap_or("").to_ascii_lowercase();
            if &c[2] == "at" && !MAIL_PROVIDERS.contains(&provider.as_str()) {
                return false;
            }
            // `lunch at Cafe。Al 也来`: a capitalised word after a lower-case
            // name starts a sentence (an address in capitals is still one).
            let title_case = tld.starts_with(|c: char| c.is_ascii_uppercase())
                && tld.chars().skip(1).all(|c| c.is_ascii_lowercase());
            if title_case && local.chars().any(|c| c.is_ascii_lowercase()) {
                return false;
            }
            let provider = domain.split(['.', ' ']).next().unwrap_or("").to_ascii_lowercase();
            let known_provider = MAIL_PROVIDERS.contains(&provider.as_str());
            let disguised_dot = dot.trim() != ".";
            let plain_word_at = at == "at" || at == "#";
            let looks_like_handle =
                local.chars().any(|ch| ch.is_ascii_digit() || matches!(ch, '.' | '_' | '-'));
            let prose = clause_around(words, c.get(0).map_or(0, |m| m.start()));
            let a_word = ENGLISH_WORDS.contains(&local.to_ascii_lowercase().as_str());
            // `jay at example.com`: a name, then a domain with its dot.
            let word_tld =
                ["it", "in", "me", "us", "to", "co"].contains(&tld.to_ascii_lowercase().as_str());
            let dotted_domain = !disguised_dot && (at == "at" || at == "#") && !word_tld;
            !plain_word_at
                || known_provider
                || (disguised_dot && !a_word)
                || (dotted_domain && !a_word && !prose.contains("http"))
                || (looks_like_handle && !prose.contains("http"))
        })
}

/// Every match of `regex` in `text` that starts a word, also those that
/// start inside an earlier match: `auditor at m.tanaka` (no address:
/// `tanaka` is no domain) must not hide `m.tanaka[at]qa-audit[dot]jp`
/// that overlaps it. A match starting inside a word (`ook at acme dot
/// com` in `look at …`) is not one.
fn overlapping<'r, 't>(
    regex: &'r Regex,
    text: &'t str,
) -> impl Iterator<Item = regex::Captures<'t>> + use<'r, 't> {
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            if from > text.len() {
                return None;
            }
            let c = regex.captures_at(text, from)?;
            let start = c.get(0).map_or(text.len(), |m| m.start());
            from = start + text[start..].chars().next().map_or(1, char::len_utf8);
            let inside_a_word = text[..start]
                .chars()
                .next_back()
                .is_some_and(|p| p.is_ascii_alphanumeric() || "._%+-".contains(p));
            if !inside_a_word {
                return Some(c);
            }
        }
    })
}

/// Not an image name (`logo@2x.png`) or a Git remote (`git@github.com:…`).
fn could_be_address(local: &str, tld: &str) -> bool {
    let tld = tld.to_ascii_lowercase();
    !FILE_EXTENSIONS.contains(&tld.as_str())
        && !["internal", "local", "lan", "localdomain", "intranet", "svc", "cluster"]
            .contains(&tld.as_str())
        && !local.eq_ignore_ascii_case("git")
}

/// Words that precede ` at ` in ordinary English (`look at`, `work at`), so
/// `work at acme dot com` is not taken for an address.
const ENGLISH_WORDS: &[&str] = &[
    "look",
    "looking",
    "work",
    "works",
    "working",
    "based",
    "available",
    "hosted",
    "find",
    "found",
    "me",
    "us",
    "him",
    "her",
    "them",
    "it",
    "this",
    "that",
    "stop",
    "arrive",
    "arrived",
    "meet",
    "aim",
    "aimed",
    "good",
    "best",
    "great",
    "is",
    "are",
    "was",
    "be",
    "up",
    "down",
    "out",
    "in",
    "on",
    "sold",
    "bought",
    "buy",
    "order",
    "ordered",
    "listed",
    "posted",
    "published",
    "registered",
    "signed",
    "logged",
    "login",
    "log",
    "online",
    "visit",
    "visiting",
    "shop",
    "shopping",
    "download",
    "downloaded",
    "check",
    "checked",
    "go",
    "went",
    "see",
    "seen",
    "read",
    "here",
    "there",
    "live",
    "sign",
];

#[cfg(test)]
mod tests {

    #[test]
    fn an_iban_shape_with_another_scripts_digit_is_no_iban_and_no_panic() {
        assert!(!iban_valid("QG\u{116C2}5PASSWORDISXXXX"));
    }

    use super::super::view::Views;
    use super::*;

    fn phone(text: &str) -> bool {
        Views::of(text).runs.iter().any(has_phone)
    }

    #[test]
    fn resident_ids_need_a_valid_check_digit_and_birth_date() {
        assert!(is_resident_id("11010519491231002X", false));
        assert!(!is_resident_id("110105194912310021", false));
        assert!(!is_resident_id("110105194913310029", false));
        assert!(
            is_resident_id("110105194912310021", true),
            "a label makes the check digit optional"
        );
        assert_eq!(resident_id_check_char("11010519491231002"), Some(b'X'));
    }

    #[test]
    fn first_generation_ids_need_a_province_and_a_date() {
        assert!(is_first_generation_id("110105491231002"));
        assert!(!is_first_generation_id("110105491331002"), "month 13");
        assert!(!is_first_generation_id("990105491231002"), "no province 99");
    }

    #[test]
    fn ibans_need_their_check_digits() {
        assert!(iban_valid("DE89 3704 0044 0532 0130 00"));
        assert!(iban_valid("GB82WEST12345698765432"));
        assert!(!iban_valid("DE88 3704 0044 0532 0130 00"));
        assert!(!iban_valid("AB12 CDEF GHIJ KLMN"));
    }

    #[test]
    fn luhn_accepts_valid_numbers_only() {
        assert!(luhn_valid("4111111111111111"));
        assert!(!luhn_valid("4111111111111112"));
        assert!(luhn_valid("79927398713"));
    }

    #[test]
    fn card_ranges_follow_the_networks() {
        assert!(in_card_range("4111111111111111"));
        assert!(in_card_range("5500000000000004"));
        assert!(in_card_range("2221000000000009"));
        assert!(in_card_range("378282246310005"));
        assert!(!in_card_range("2024010120240331"), "dates are not Mastercard 2-series");
        assert!(!in_card_range("1234567890123456"));
    }

    #[test]
    fn taiwan_and_hong_kong_ids_are_checksummed() {
        assert!(is_taiwan_id("A", "123456789"));
        assert!(!is_taiwan_id("A", "123456788"));
        assert!(is_hong_kong_id("A", "123456", "3"));
        assert!(!is_hong_kong_id("A", "123456", "4"));
    }

    #[test]
    fn metadata_validation_agrees_with_the_parser() {
        let parsed = |region: Option<Id>, digits: &str| {
            let text = if region.is_some() { digits.to_string() } else { format!("+{digits}") };
            phonenumber::parse(region, text).is_ok_and(|n| phonenumber::is_valid(&n))
        };
        for digits in [
            "13812345678",
            "19912345678",
            "14512345678",
            "10012345678",
            "12345678901",
            "0571876543",
            "057187654321",
            "02166668888",
            "01088886666",
            "0755268812345",
            "02012345678",
            "0123456789",
            "4008208820",
            "04001234567",
            "0999123456",
        ] {
            assert_eq!(valid_in(Some(Id::CN), digits), parsed(Some(Id::CN), digits), "CN {digits}");
        }
        for digits in ["4155550132", "6502530000", "5551234567", "2125550100", "1234567890"] {
            assert_eq!(valid_in(Some(Id::US), digits), parsed(Some(Id::US), digits), "US {digits}");
        }
        for digits in [
            "4930123456",
            "493012345678",
            "447700900123",
            "85291234567",
            "6591234567",
            "81312345678",
            "33612345678",
            "61412345678",
            "14155550132",
            "8613812345678",
            "86571876543",
            "6491234567",
            "12345",
            "999123456789",
        ] {
            assert_eq!(valid_in(None, digits), parsed(None, digits), "+{digits}");
        }
    }

    #[test]
    fn phones_are_validated_by_libphonenumber() {
        assert!(phone("13812345678"));
        assert!(phone("+86 138 1234 5678"));
        assert!(phone("0086-138-1234-5678"));
        assert!(phone("010-8888 6666"));
        assert!(phone("(0571)8765-4321"));
        assert!(phone("021 6666 8888 转 123"));
        assert!(phone("+49 30 1234 5678"));
        assert!(phone("(415) 555-0132"));
        assert!(phone("电话 8888 6666"));
        assert!(phone("手机 138 1234 5678 2024-11-30 联系"));
        assert!(!phone("批号 13812345678"));
        assert!(phone("the number is 7788 2365"));
        assert!(phone("号码是 139 后面 1122 再 3344"));
        assert!(phone("一三九 然后 一一二二 然后 三三四四"));
        assert!(!phone("第 3 步再 5 步"));
        assert!(phone("号码 7788 2365"));
        assert!(!phone("Our discharge permit number is 440300123"));
        assert!(!phone("排污许可证号码 440300123"));
        assert!(!phone("GB 4789.3-2016"));
        assert!(!phone("2026-11-20 09:00"));
        assert!(!phone("20261129001"));
        assert!(!phone("读数 13.8 12.4 5.6 7.8 9.1 2.3"));
    }

    #[test]
    fn a_phone_word_right_before_the_number_outweighs_words_farther_off() {
        // 会议室 (a meeting word) and 配方 (a code word) sit in the context,
        // but 座机 names the number glued to it.
        assert!(phone("在 2 号会议室开配方评审，外地同事直接打我座机04712895796"));
        assert!(phone("配方评审改到会议室，有事打我手机:13912345678"));
        assert!(!phone("会议室 1381 已订"));
        assert!(!phone("电话会议号 88123456"));
        assert!(labelled_right_before("打我座机"));
        assert!(labelled_right_before("tel. "));
        assert!(!labelled_right_before("hotel "));
        assert!(!labelled_right_before("批号 "));
    }
}
