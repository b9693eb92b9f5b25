//! Passwords, passphrases, PINs, door codes and one-time codes stated in
//! any phrasing (spec §2): `密码是 X`, `登录密码X`, `password hunter2`,
//! `PIN 是 1234`, `X 是我的密码`, `log in with X`, `账号 admin / X`,
//! `the code to the lab door is 0613#`, typos such as `pasword`.
//!
//! Talk *about* passwords passes: policies (`密码：至少12位`, `the password
//! policy requires 12 characters`), fields and resets, lengths, masked or
//! placeholder values (`******`, `${DB_PASSWORD}`).

use super::context::{WordSet, clause_of, contains_word, mentions};
use super::credentials::is_placeholder;
use regex::Regex;
use std::sync::LazyLock;

/// The words that introduce a password, a passphrase, a PIN or a one-time
/// code, in English and Chinese.
static PASSWORD_WORD: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)pin码|\b[a-z0-9]{1,12}pass(?:word|wd)\b|\b(?:[a-z0-9]+[_\-])*(?:pass(?:word|wd|code|phrase)s?|pass ?word|p[a@]s{1,2}w[o0]?r?ds?|pas+owrd|pas+wrod|pas+ord|psswo?rd|passwort|kennwort|mima|pwd|pw|pass|pin(?: ?code| ?number| ?no\.?)?|otp|(?:2fa|mfa|one-time|verification|security|sms) ?(?:pass)?code|(?:keypad|door|gate|lock|locker|safe|unlock|padlock) ?(?:code|combination|combo|pin)|(?:wi-?fi|wlan|wireless|network|hotspot|router) ?(?:key|passkey|psk)|passkey|mot de passe|contrase[nñ]a|senha|palavra-passe|parola d'ordine|wachtwoord|l[oö]senord|has[lł]o|heslo|jelszo|jelszava|lozinka|salasana|passord|adgangskode|losenordet|kata sandi|mat khau|sifre(?:si|m|niz)?|clave(?: de acceso)?)(?:[_\-][a-z0-9]+)*\b|парол[ья]?|รหัสผ่าน|كلمة\s+(?:المرور|السر)|סיסמ[הא]|पासवर्ड|パスワード|パスコード|暗[証证]番号|비밀번호|비번|암호|密[\s\-·.]?码|口\s?令|暗号|蜜码|秘码|验证码|动态码|校验码|安全码|门禁码|门锁码|开门码|开锁码|解锁码|锁码",
    )
});

/// Links between a password word and its value that are words of their own
/// (`is`, `是`, `:`, `改成了`, `set to`, `for the LIMS is`, and the same in
/// German, French, Spanish and Korean: `fürs Labornetz ist`, `du poste, c'est`,
/// `del portal es`, `는`). A dash between spaces ends the clause (`mein
/// Passwort für das LIMS vergessen – wie kann ich es …`).
const LINK_WORDS: &str = r"\bas\b|\bis now\b|\bis still\b|\bit's\b|\bit is\b|\bset to\b|\bchanged to\b|\breset to\b|\bwill be\b|\bshould be\b|'s\b|\([^)\n]{0,20}\)|（[^）\n]{0,20}）|\b(?:for|of|to|f[uü]rs?|del?|du|des|pour|para|do|da|di|della|dello)\s+(?:[^:=\n\-?!;。？！；]|-\S){1,48}?(?:\s+ist|\s+is|\s+was|\s+lautet|\s+est|\s+es|\s+e\b|,?\s*c'est|\s*[:=]|\s*(?:->|=>|→))|\bist\b|\blautet\b|\bes\b|\best\b|\bc'est\b|is|was|are|=|:|:=|=>|->|是|为|就是|还是|都是|仍是|一直是|用的是|设的是|改成了?|改为|改成|设为|设成|设置为|设置成|换成了?|变成了?|重置为|就用|改用|统一用|先用|都用|用|默认是|は|が|는|은|默认为|初始是|初始为|\bto\b|\bnow\b";

/// Links that let free words in: `忘了`, `好像是`, a few Chinese characters
/// before `是`, a short phrase before a colon.
const LINK_FREE_WORDS: &str = r"忘了,?|忘记了,?|(?:好像|应该|大概|可能|估计|记得)是|[\p{Han}]{1,4}?(?:是|为)|[\p{Han}]{1,4}\s|[^:=\n,.。!?;]{1,12}?[:=]|\b[^:=\n,.!?;。]{1,30}?(?:\s+is|\s+was|\s+it's|\s*[:=])";

/// What may stand between the word and the value: nothing, or a verb or a
/// colon (`is`, `是`, `:`, `改成了`, `set to`), possibly several.
static PASSWORD_LINK: LazyLock<Regex> =
    LazyLock::new(|| super::re(&format!(r"(?i)^(?:\s*(?:{LINK_WORDS}|{LINK_FREE_WORDS})\s*)*")));

/// The same links without free words in between, so that a value right
/// after the word (`PIN 0000 is wrong`) is still read as one.
static PASSWORD_LINK_STRICT: LazyLock<Regex> =
    LazyLock::new(|| super::re(&format!(r"(?i)^(?:\s*(?:{LINK_WORDS})\s*)*")));

/// Links that say outright that a value follows (`是`, `:`, `is`, `改成`);
/// after other words (`密码保护的 Excel`) the value must look like a password.
static EXPLICIT_LINK: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)[:=是为는은]|\bis\b|\bist\b|\bes\b|\best\b|\blautet\b|\bwas\b|\bset\b|\bchanged\b|\breset\b|\bwill be\b|\bshould be\b|改|设|换|用|记得|好像|应该|大概|可能|估计",
    )
});

/// The value: printable ASCII without spaces, possibly quoted.
/// It starts with a letter, a digit or a symbol passwords start with, not
/// with punctuation that ends a sentence (`重置密码；the price…`).
static PASSWORD_VALUE: LazyLock<Regex> =
    LazyLock::new(|| super::re(r#"^["'「『(\[]?([A-Za-z0-9!@#$%^&*_+~][!-~]*)"#));

/// A quoted non-ASCII value after an explicit link (`口令是"芝麻开门"`).
static QUOTED_VALUE: LazyLock<Regex> =
    LazyLock::new(|| super::re(r#"^["「『]([^"」』\n]{2,20})["」』]"#));

/// A password given to a command on its command line: `mysql -p'…'`,
/// `--password=…`, `sshpass -p …`, `redis-cli -a …`, `curl -u user:…`,
/// `redis-server --requirepass …`, `kubectl … --from-literal=password=…`.
static CLI_PASSWORD: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r#"(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,80}?\s-p['"]?([^\s'"]{4,})|\s--password(?:=['"]?|\s+['"])([^\s'"]{4,})|\bsshpass\s+-p\s*['"]?([^\s'"]{4,})|\bredis-cli\b[^\n]{0,60}?\s-a\s+['"]?([^\s'"]{4,})|\bcurl\b[^\n]{0,80}?\s(?:-u|--user)\s+['"]?[^\s:'"]+:([^\s'"@]{4,})|\s--requirepass\s+['"]?([^\s'"]{4,})|\s--from-literal=(?:[\w-]*[_-])?(?:password|passwd|pwd|pass)=['"]?([^\s'"]{4,})"#,
    )
});

/// The value before the word: `hunter2 is my password`, `Abc@123 是我的密码`.
static PASSWORD_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:^|[\s:：,])([!-~]{4,})\s*(?:(?:is|was)\s+(?:my|his|her|their|our|the|the user's|your)\s+(?:[a-z]+\s+){0,2}(?:password|passcode|pin|passphrase)|(?:是|就是|为)(?:我|他|她|用户|你|我们)?的?[^,.。;!?\n]{0,10}?(?:密码|口令)|[(（]\s*(?:pw|pwd|password|passcode|passwort|密码|口令)\s*[)）])",
    )
});

/// Logging in with a value: `用 Abc@123 登录`, `log in with Abc@123`,
/// `账号 admin / Abc@123`.
static LOGIN_WITH: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:(?:用|以|拿|输入)\s*([!-~]{6,})\s*(?:登录|登陆|登入|解锁|打开|解压)|\b(?:protected|encrypted|locked)\b[^\n.;]{0,40}?\bopen(?:s|ed)?\s+(?:it\s+|them\s+|the\s+\w+\s+)?(?:with|using)\s+([!-~]{6,})|\b(?:logs? ?-?in|logged in|signs? ?-?in|signed in|unlocks?|authenticates?)\s+(?:with|using)\s+(?:the\s+)?(?:password\s+)?([!-~]{6,})|\b(?:use|used|uses|using|takes?|took|accepts?|accepted|set|sets)\s+([!-~]{4,})\s+(?:as|for)\s+(?:my|his|her|their|our|the)\s+(?:[a-z]+\s+){0,2}(?:password|passcode|pin|passphrase)|(?:用|拿)\s*([!-~]{4,})\s*(?:作为|当作?|做)(?:[^,.。\n]{0,6}?)(?:密码|口令))",
    )
});

/// A user name and its password after a login word: `login for the LIMS
/// is chemadmin / Chrom@2024!`, `LIMS login: user zhang / pass Lims2023!!`,
/// `账号 admin / Abc@123`.
static LOGIN_PAIR: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:账号|帐号|用户名|登录|登陆|登入|\busername|\buser|\blogin|\baccount|\bcredentials?|\bcreds)(?:\s+(?:for|of|to|on)\s+[^:=\n,.;/]{1,40}?|\s*[A-Za-z][A-Za-z0-9\-]{0,19}\s*(?:[:=]|用|是))?(?:\s+(?:is|are)(?:\s+(?:still|now|just|always|also))?|\s*[:=])?\s*(?:(?:user(?:name)?|用户名?|账号)\s*[:=]?\s*)?([A-Za-z0-9._@\-]{2,32})(?:\s*/\s*(?:(?:pass(?:word)?|pwd|pw|密码)\s*[:=]?\s*)?|\s*[,;]?\s+(?:pass(?:word)?|pwd|pw|密码)\s*[:=]?\s*)([!-~]{4,})",
    )
});

/// A wireless network and its password after a Wi-Fi word: `WiFi: RDC-Pilot
/// / ruqing2026#`, `无线 Lab-5G / Qc@2024`.
static WIFI_PAIR: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:\bwi-?fi\b|\bwlan\b|\bssid\b|无线网?络?|热点)\s*(?:名称|名|网络)?\s*(?:\bis\b|[:=]|是)?\s*([A-Za-z0-9._\-]{2,32})\s*/\s*([!-~]{6,})",
    )
});

/// A passphrase: three to six plain words right after a password word and
/// an explicit link, up to the end of the clause (`密码是 correct horse
/// battery staple`, `passphrase: purple monkey dishwasher`).
static PASSPHRASE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:pass ?phrase|password|密码|口令)\s*(?:是|为|[:=：]|\bis\b)\s*((?:[a-z]{3,12}[\s_.\-]+){2,5}[a-z]{3,12})\s*(?:$|[,，。.;；!?！？)）])",
    )
});

/// Words a passphrase is not made of: a sentence about passwords has them
/// (`password: at least twelve characters`, `密码是 required for login`).
static NOT_PASSPHRASE_WORDS: WordSet = WordSet::new(&[
    "the",
    "a",
    "an",
    "to",
    "for",
    "of",
    "at",
    "in",
    "on",
    "by",
    "and",
    "or",
    "not",
    "no",
    "is",
    "are",
    "be",
    "must",
    "should",
    "least",
    "most",
    "use",
    "used",
    "your",
    "our",
    "my",
    "with",
    "from",
    "this",
    "that",
    "set",
    "reset",
    "change",
    "changed",
    "required",
    "characters",
    "letters",
    "digits",
    "words",
    "long",
    "same",
    "as",
    "it",
    "via",
    "see",
    "ask",
    "stored",
    "vault",
    "manager",
    "sent",
    "email",
    "login",
    "account",
    "policy",
    "expired",
    "wrong",
]);

/// A passphrase none of whose words is a word of talk about passwords.
fn passphrase(words: &str) -> bool {
    !words.split(|c: char| !c.is_ascii_alphabetic()).any(|w| mentions(w, &NOT_PASSPHRASE_WORDS))
}

/// A network and a password: a value no network name looks like, and
/// not a second network of the same name (`Lab-2G / Lab-5G`).
fn wifi_pair(ssid: &str, password: &str) -> bool {
    let prefix = |v: &str| v.chars().take(3).collect::<String>().to_ascii_lowercase();
    complex_value(password) && prefix(ssid) != prefix(password)
}

/// A code read out digit by digit after its word: `my pin's 8 8 3 0`,
/// `密码是 1-2-3-4-5-6`.
static SPACED_DIGITS: LazyLock<Regex> =
    LazyLock::new(|| super::re(r"^(\d(?:[ ,.\-]{1,2}\d){3,7})(?:[^0-9]|$)"));

/// A value set without a password word, as one tells a colleague about a
/// reset: `I reset it to P@ssw0rd_Mozz`, `已经改成 Mozz#2024 了`.
static RESET_TO: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r#"(?i)(?:\b(?:reset|changed|change|set|switched|updated)\s+(?:it|that|this|them|mine|ours|the\s+login|my\s+login)\s+(?:back\s+)?to\s+|(?:改成了?|改为|重置为|重置成|换成了?|设成了?|设为)\s*)["'「]?([!-~]{6,})"#,
    )
});

/// Words that say a value set without a password word is a login's: a
/// reset means a password only where a login, an account or a system to
/// sign in to is spoken of (`… so just use that for the MES`).
static LOGIN_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\b(?:log\s?-?in|logins?|sign\s?-?in|accounts?|users?|wi-?fi|mes|lims|erp|sap|hmi|scada|vpn|portal)\b|登录|登陆|账号|帐号|系统|解锁",
    )
});

/// A code that opens something, without a password word: `unlock with
/// 4729`, `the code to the lab door is 0613#`.
static OPENING_CODE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\bunlock(?:s|ed)?\s+(?:it\s+|the\s+[\w]+\s+)?(?:with|using)\s+(?:the\s+)?(?:code\s+|pin\s+|passcode\s+)?\d{4,8}#?(?:[^0-9A-Za-z]|$)|\bopen(?:s|ed)?\s+(?:it\s+|the\s+[\w]+\s+)?(?:with|using)\s+(?:the\s+)?(?:code|pin|passcode|combination|combo)\s+\d{4,8}[#*]?(?:[^0-9A-Za-z]|$)|\b(?:code|pin|combination|combo)\s+(?:to|for|of|on)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:door|gate|lock|safe|locker|keypad|cage)\b[^\n,.;]{0,12}?(?:\bis\b|\bwas\b|:|=)\s*\d{4,8}[#*]?(?:[^0-9A-Za-z]|$)",
    )
});

/// Words that follow "password" in talk *about* passwords: policies,
/// fields, resets. A value that is one of them is no password.
const POLICY_WORDS: &[&str] = &[
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "eight",
    "ten",
    "twelve",
    "sixteen",
    "twenty",
    "read",
    "stored",
    "kept",
    "loaded",
    "fetched",
    "pulled",
    "injected",
    "provided",
    "supplied",
    "managed",
    "rotated",
    "saved",
    "hashed",
    "encrypted",
    "masked",
    "hidden",
    "required",
    "require",
    "requires",
    "requirement",
    "requirements",
    "too",
    "wrong",
    "incorrect",
    "correct",
    "expired",
    "expires",
    "expiry",
    "expiration",
    "missing",
    "empty",
    "not",
    "reset",
    "resets",
    "changed",
    "change",
    "changes",
    "policy",
    "policies",
    "rule",
    "rules",
    "length",
    "must",
    "should",
    "needs",
    "need",
    "strength",
    "complexity",
    "manager",
    "managers",
    "field",
    "fields",
    "at",
    "a",
    "an",
    "the",
    "for",
    "of",
    "and",
    "or",
    "to",
    "in",
    "on",
    "with",
    "protected",
    "stored",
    "hashed",
    "encrypted",
    "sent",
    "set",
    "managed",
    "rotation",
    "login",
    "page",
    "form",
    "hint",
    "hints",
    "authentication",
    "auth",
    "based",
    "less",
    "more",
    "min",
    "max",
    "minimum",
    "maximum",
    "different",
    "same",
    "valid",
    "invalid",
    "strong",
    "weak",
    "secure",
    "also",
    "still",
    "now",
    "only",
    "will",
    "can",
    "cannot",
    "never",
    "always",
    "via",
    "from",
    "by",
    "is",
    "was",
    "be",
    "been",
    "updated",
    "update",
    "case-sensitive",
    "long",
    "short",
    "enough",
    "kept",
    "saved",
    "shared",
    "sharing",
    "reuse",
    "reused",
    "history",
    "prompt",
    "prompts",
    "dialog",
    "box",
    "input",
    "entry",
    "requests",
    "request",
    "recovery",
    "forgotten",
    "forgot",
    "lock",
    "locked",
    "lockout",
    "attempts",
    "see",
    "ask",
    "check",
    "please",
    "that",
    "this",
    "it",
    "which",
    "what",
    "if",
    "when",
    "you",
    "your",
    "my",
    "our",
    "their",
    "his",
    "her",
    "same.",
    "blank",
    "null",
    "none",
    "hash",
    "salt",
    "salted",
    "plain",
    "plaintext",
    "text",
    "has",
    "have",
    "had",
    "does",
    "do",
    "did",
    "stays",
    "remains",
    "expire",
    "complex",
    "simple",
    "storage",
    "vault",
    "file",
    "files",
    "tool",
    "tools",
    "column",
    "flow",
    "process",
    "screen",
    "window",
    "printed",
    "written",
    "posted",
    "taped",
    "displayed",
    "shown",
    "visible",
    "emailed",
    "known",
    "leaked",
    "lost",
    "compromised",
];

/// Words between "password" and a colon that make the sentence a rule
/// about passwords (`password length: 12`, `密码长度要求：12`).
static GAP_POLICY_WORDS: WordSet = WordSet::new(&[
    "if",
    "when",
    "whether",
    "unless",
    "如果",
    "policy",
    "policies",
    "rule",
    "rules",
    "requirement",
    "requirements",
    "length",
    "strength",
    "complexity",
    "manager",
    "managers",
    "field",
    "fields",
    "expiry",
    "expires",
    "expiration",
    "hint",
    "format",
    "prompt",
    "minimum",
    "maximum",
    "min",
    "max",
    "history",
    "rotation",
    "must",
    "needs",
    "need",
    "requires",
    "required",
    "characters",
    "chars",
    "digits",
    "长度",
    "不能",
    "不要",
    "不可",
    "禁止",
    "避免",
    "别",
    "弱",
    "不得",
    "要求",
    "规则",
    "策略",
    "复杂度",
    "有效期",
    "过期",
    "位数",
    "次数",
    "格式",
    "提示",
    "强度",
    "周期",
    "至少",
    "最少",
    "不少于",
    "必须",
    "包含",
    "规范",
    "字段",
    "管理",
]);

/// Parts of an identifier built on a password word that make it no
/// password (`password_hash`, `PIN_LENGTH`, `pwd-reset`).
const IDENTIFIER_POLICY_PARTS: &[&str] = &[
    "hash",
    "hashed",
    "salt",
    "hint",
    "policy",
    "field",
    "len",
    "length",
    "min",
    "max",
    "reset",
    "expiry",
    "expires",
    "file",
    "manager",
    "rule",
    "rules",
    "strength",
    "regex",
    "pattern",
    "label",
    "input",
    "prompt",
    "placeholder",
    "required",
    "encoder",
    "encrypt",
    "encrypted",
    "check",
    "validator",
    "form",
    "page",
];

/// Length specifications after a number: `12 位`, `12 characters`.
static LENGTH_SPEC: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)^\s*(?:位|个字符|字符|个字|位数|位以上|位以下|\bchars?\b|\bcharacters?\b|\bdigits?\b|\bletters?\b|\bsymbols?\b|\bor more\b|\+|\bminimum\b|\bmin\b|\bmax\b|次|天|days?\b|months?\b)",
    )
});

pub(super) fn has_password(text: &str) -> bool {
    let only_a_password_stated = |c: regex::Captures<'_>| {
        only_a_password(trim_value(&c[1]))
            && !is_clause_about_policy(text, c.get(0).map_or(0, |m| m.start()))
    };
    PASSWORD_WORD.find_iter(text).any(|m| {
        password_follows(text, m.as_str(), m.end(), &PASSWORD_LINK)
            || password_follows(text, m.as_str(), m.end(), &PASSWORD_LINK_STRICT)
    }) || PASSWORD_BEFORE.captures_iter(text).any(|c| {
        strong_value(&c[1]) && !is_clause_about_policy(text, c.get(0).map_or(0, |m| m.start()))
    }) || OPENING_CODE.is_match(text)
        || LOGIN_WITH.captures_iter(text).any(|c| {
            let value = (1..c.len()).find_map(|i| c.get(i)).map_or("", |m| m.as_str());
            strong_value(trim_value(value))
        })
        || LOGIN_PAIR.captures_iter(text).any(|c| login_pair(&c[1], trim_value(&c[2])))
        || WIFI_PAIR.captures_iter(text).any(|c| wifi_pair(&c[1], trim_value(&c[2])))
        || PASSPHRASE.captures_iter(text).any(|c| {
            passphrase(&c[1]) && !is_clause_about_policy(text, c.get(0).map_or(0, |m| m.start()))
        })
        || (LOGIN_CONTEXT.is_match(text)
            && RESET_TO.captures_iter(text).any(only_a_password_stated))
        || PASSWORD_LATER_IS.captures_iter(text).any(only_a_password_stated)
        || CLI_PASSWORD.captures_iter(text).any(|c| {
            let value = (1..c.len()).find_map(|i| c.get(i)).map_or("", |m| m.as_str());
            is_value_shaped(value) && !super::credentials::is_placeholder(value)
        })
        || PASSWORD_LATER.captures_iter(text).any(|c| {
            complex_value(trim_value(&c[1]))
                && !is_clause_about_policy(text, c.get(0).map_or(0, |m| m.start()))
        })
        || PASSWORD_LATER_ELSEWHERE.captures_iter(text).any(|c| {
            let value = trim_value(&c[1]);
            (complex_value(value) || symbols_in_both_cases(value))
                && !is_clause_about_policy(text, c.get(0).map_or(0, |m| m.start()))
        })
        || DOOR_CODE_ELSEWHERE.is_match(text)
        || table_password(text)
}

/// A table pasted as comma-separated rows whose header names a password
/// column (`区域,SSID,密码 中试车间,RY-Pilot-5G,Cheese*2025`; the line
/// break between the header and the first row is folded into a space):
/// the first row's cell in that column, when it looks like a password.
fn table_password(text: &str) -> bool {
    if !text.contains(',') {
        return false;
    }
    let text = text.replace('\n', " ");
    let cells: Vec<&str> = text.split(',').map(str::trim).collect();
    let Some(last) = cells.iter().skip(1).position(|c| c.contains(' ')).map(|i| i + 1) else {
        return false;
    };
    let header_end = cells[last].split(' ').next().unwrap_or("");
    let header: Vec<&str> = cells[..last].iter().copied().chain([header_end]).collect();
    let Some(column) = header.iter().position(|h| {
        let h = h.to_ascii_lowercase();
        ["密码", "口令", "password", "passwd", "pwd", "pin", "passcode", "门禁码"]
            .contains(&h.as_str())
    }) else {
        return false;
    };
    let row_start = cells[last].split_once(' ').map_or("", |(_, rest)| rest);
    let cell =
        if column == 0 { row_start } else { cells.get(last + column).copied().unwrap_or("") };
    let value = trim_value(cell.split(' ').next().unwrap_or(""));
    let pin = header[column].eq_ignore_ascii_case("pin") || header[column] == "门禁码";
    if pin {
        return (4..=8).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit());
    }
    is_value_shaped(value) && strong_value(value)
}

/// A password stated further on in the sentence than a link right after
/// the word: `密码就是大写Q小写c… 就是Qc2024!`, `the new password is the old
/// one with a 9 at the end: Cheddar20199`. Only a complex value counts.
static PASSWORD_LATER: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:pass ?word|passwort|密\s?码|口令)[^@>}_。.!?\n][^。.!?\n]{0,59}?(?:[:=]|就是|是)\s*([!-~]{6,})",
    )
});

/// A password word of another language, a link of its own further on in
/// the sentence, and a complex value (holding a digit or a symbol, so that
/// a word after an earlier link, `Parola de la contul …`, is passed over) (`Mật khẩu wifi phòng lab là X`,
/// `Hasło do sieci … to X`, `Passwort vom Login auf X zurückgesetzt`,
/// `パスワードはX`). The words view has dropped the accents.
static PASSWORD_LATER_ELSEWHERE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:passwort|kennwort|wachtwoord|has[lł]o|heslo|jelszo|jelszava|lozinka|salasana|passord|l[oö]senord(?:et)?|senha|palavra-passe|\bmdp\b|mot de passe|contrase[nñ]a|\bclave\b|\bparola\b|kata sandi|mat khau|sifre(?:si|m|niz)?|парол[ья]?|κωδικ[οό]ς\s+πρ[οό]σβασης|パスワード|(?-i:\bPW\b)|비밀번호|비번|รหัสผ่าน|كلمة\s+(?:المرور|السر)|סיסמ[הא]|पासवर्ड)[^。.!?\n]{0,60}?(?:[:=：]|は|が|는|은|คือ|هي|είναι|\b(?:e|est|es|ist|lautet|jest|to|je|este|ar|er|la|adalah|ialah|auf|op|это|—)\b)\s*([A-Za-z]*[0-9!#-/:-@\[-\x60{-~][!-~]*)",
    )
});

/// A door, safe or badge code in another language, and its digits (`Der
/// Türcode … ist 8126`, `PIN do sejfu … to 6571`, `Код от двери — 2318`).
static DOOR_CODE_ELSEWHERE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:turcode|tuercode|deurcode|dorrkod|codice\s+(?:della|del)\s+(?:porta|cancello|lucchetto|cassaforte)|code\s+(?:du|de\s+la|de)\s+(?:badge|porte|cadenas|coffre)|codigo\s+(?:da|de\s+la|del)\s+(?:porta|puerta|cadeado|candado|cofre)|kod\s+do\s+(?:drzwi|sejfu)|pin\s+do\s+\w+|kapi\s+kodu|код\s+(?:от\s+)?(?:двери|сейфа|замка))[^.!?\n0-9]{0,40}?(?:[:=—–-]|\b(?:ist|is|e|est|es|to|je|este|ar|er|la)\b)\s*([0-9]{4,8})(?:[^0-9]|$)",
    )
});

/// The same with `is`, `its` or `it's` before the value (`changed my
/// password again, its Kefir#449 now`): only a value no name looks like.
static PASSWORD_LATER_IS: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:pass ?word|passwort|\bpwd?\b|密\s?码|口令)[^@。.!?\n][^。.!?\n]{0,59}?\b(?:is|its|it's|now)\s+([!-~]{6,})",
    )
});

/// A value of eight or more with a symbol and both cases (`fX@RWyleLUyQxZU`),
/// which no word of a sentence is, nor a call in code (`Hash([]byte(pw))`).
fn symbols_in_both_cases(value: &str) -> bool {
    let has = |f: fn(&u8) -> bool| value.as_bytes().iter().any(f);
    value.len() >= 8
        && has(u8::is_ascii_punctuation)
        && !(value.contains('(') && value.contains(')'))
        && has(u8::is_ascii_uppercase)
        && has(u8::is_ascii_lowercase)
        && !value.contains("://")
        && !is_placeholder(value)
}

/// A value that can only be a password: letters and digits, and a symbol
/// or both cases.
fn complex_value(value: &str) -> bool {
    let has = |f: fn(&u8) -> bool| value.as_bytes().iter().any(f);
    value.len() >= 6
        && has(u8::is_ascii_alphabetic)
        && has(u8::is_ascii_digit)
        && (has(u8::is_ascii_punctuation)
            || (has(u8::is_ascii_uppercase) && has(u8::is_ascii_lowercase)))
        && !value.contains("://")
        && !is_placeholder(value)
}

/// A value no product, file or batch name looks like: both cases, a digit
/// and a symbol that names do not use (`P@ssw0rd_Mozz`, `Mozz#2024a`).
fn only_a_password(value: &str) -> bool {
    let has = |f: fn(&u8) -> bool| value.as_bytes().iter().any(f);
    complex_value(value)
        && has(u8::is_ascii_uppercase)
        && has(u8::is_ascii_lowercase)
        && !value.starts_with('=')
        && value.bytes().any(|b| b"!@#$%^&*?~".contains(&b))
}

/// A user and a password: a strong password, or a default login whose
/// password is its user name (`admin/admin`), however weak.
fn login_pair(user: &str, password: &str) -> bool {
    let next_setting = super::credentials::is_next_setting(password);
    (!next_setting && strong_value(password))
        || (password.len() >= 4 && password.eq_ignore_ascii_case(user))
}

/// Whether a password value follows the password word that ends at `end`.
fn password_follows(text: &str, word: &str, end: usize, links: &Regex) -> bool {
    let rest = &text[end..];
    // `postgres://USER:PASSWORD@HOST`, `<password>`, `{password}`: the word
    // holds the place of a password in a URL or a template.
    // `reason=bad_password`: the word is itself a value.
    let before = text[..end - word.len()].chars().next_back();
    // `os.environ["DB_PASSWORD"]`: the word is a key read in code.
    let closes = ["\"]", "']", "\")", "')"].iter().any(|c| rest.starts_with(c));
    if rest.starts_with(['@', '>', '}']) || matches!(before, Some('<' | '{' | '=')) || closes {
        return false;
    }
    // `DB_PASSWORD_FILE=…`, `sasl_password_env: KAFKA_PASSWORD`: the word
    // names where a password is kept, not the password.
    let lower_word = word.to_ascii_lowercase();
    if ["_file", "_env", "_path", "_var", "_ref", "_secret_name"]
        .iter()
        .any(|s| lower_word.ends_with(s))
    {
        return false;
    }
    let link = links.find(rest).map_or(0, |m| m.end());
    let linked = rest[..link].chars().any(|c| !c.is_whitespace());
    // `DB_PASSWORD= DB_NAME=mes`: an empty setting, then the next one.
    if EMPTY_SETTING.is_match(rest) {
        return false;
    }
    if mentions(&rest[..link], &GAP_POLICY_WORDS) {
        return false;
    }
    let after_link = rest[link..].trim_start();
    let word = word.to_ascii_lowercase();
    if word.split(['_', '-']).any(|part| IDENTIFIER_POLICY_PARTS.contains(&part)) {
        return false;
    }
    // `password-protected PDFs`, `password-free login`: what the word
    // describes, not a password (`free-wifi-password: X` still is one).
    let parts: Vec<&str> = word.split(['_', '-']).collect();
    if parts.windows(2).any(|w| {
        PASSWORD_WORD.is_match(w[0]) && ["protected", "protection", "less", "free"].contains(&w[1])
    }) {
        return false;
    }
    let word = word
        .rsplit(['_', '-'])
        .find(|part| PASSWORD_WORD.is_match(part))
        .unwrap_or(&word)
        .to_string();
    let numeric_only = matches!(
        word.as_str(),
        "otp"
            | "验证码"
            | "动态码"
            | "校验码"
            | "安全码"
            | "门禁码"
            | "门锁码"
            | "开门码"
            | "开锁码"
            | "解锁码"
            | "锁码"
    ) || word.starts_with("pin")
        || word.ends_with("pin")
        || word.ends_with("combination")
        || word.ends_with("combo")
        || (word.ends_with("code") && !word.starts_with("pass"));
    if let Some(q) = QUOTED_VALUE.captures(after_link)
        && linked
        && !numeric_only
        && !q[1].is_ascii()
    {
        return !is_policy_phrase(&q[1]);
    }
    let short_word = matches!(word.as_str(), "pw" | "pass");
    if let Some(code) = SPACED_DIGITS.captures(after_link).filter(|_| !short_word) {
        let after_code = &after_link[code.get(1).map_or(0, |m| m.end())..];
        return linked && !LENGTH_SPEC.is_match(after_code);
    }
    let Some(c) = PASSWORD_VALUE.captures(after_link) else {
        return false;
    };
    let value = trim_value(&c[1]);
    let value_end = c.get(1).map_or(0, |m| m.end());
    if !is_value_shaped(value) {
        return false;
    }
    let after_value = &after_link[value_end..];
    let next = is_next_key(value, after_value) || super::credentials::is_next_setting(value);
    if value.is_empty()
        || is_placeholder(value)
        || next
        || names_a_tool(value, after_value, &rest[..link])
    {
        return false;
    }
    if is_encoded(&rest[..link], value) {
        return true;
    }
    if numeric_only {
        // A keypad code may end in its enter key (`2580#`).
        let value = value.trim_end_matches(['#', '*']);
        return (4..=8).contains(&value.len())
            && value.bytes().all(|b| b.is_ascii_digit())
            && !LENGTH_SPEC.is_match(after_value);
    }
    if value.bytes().all(|b| b.is_ascii_digit()) && LENGTH_SPEC.is_match(after_value) {
        return false;
    }
    if POLICY_WORDS.contains(&value.to_ascii_lowercase().as_str()) || is_ascii_comparison(value) {
        return false;
    }
    // `pass: 12/12 batches`, `pass 98.5%`: a test result, not a password.
    if short_word && value.bytes().all(|b| b.is_ascii_digit() || b"/%.".contains(&b)) {
        return false;
    }
    if short_word {
        // `my pw for the LIMS is X`; but `pass` is also a noun of its own
        // (`the boarding pass for my flight is BA0287`), so only a colon,
        // `=` or a bare `is` states one.
        // `pw` names nothing else: a value may follow it at once (`my sap
        // acct pw Mocha&4884gt thx`).
        let gap = rest[..link].trim();
        let stated = gap.contains([':', '=', '>'])
            || gap == "is"
            || (word == "pw" && (gap.is_empty() || gap.ends_with(" is") || gap.ends_with(" was")));
        return stated && strong_value(value);
    }
    if is_quoted_example(text, end - word.len(), value) {
        return false;
    }
    if is_prompt(text, end - word.len(), rest) && !strong_value(value) {
        return false;
    }
    if linked && EXPLICIT_LINK.is_match(&rest[..link]) {
        value.len() >= 3
    } else {
        value.len() >= 4 && strong_value(value)
    }
}

/// How passwords are kept rather than one of them: a hashing or cipher
/// algorithm (`密码哈希用 bcrypt`, `the password hash is argon2id`), a
/// password manager, or a name used for something done with passwords
/// (`密码都用 KeePass 管理`, `密码存在 HashiCorp Vault 里`); not a value
/// given and then talked about (`密码是 Kx9#vault 里那个`, `密码用 Abc@123 登录`).
fn names_a_tool(value: &str, after_value: &str, gap: &str) -> bool {
    const TOOLS: &[&str] = &[
        "bcrypt",
        "scrypt",
        "yescrypt",
        "argon2",
        "argon2id",
        "argon2i",
        "argon2d",
        "pbkdf2",
        "md5",
        "sha1",
        "sha-1",
        "sha256",
        "sha-256",
        "sha512",
        "sha-512",
        "sha2",
        "sha3",
        "sm3",
        "sm4",
        "aes",
        "aes-128",
        "aes-256",
        "aes256",
        "rsa",
        "hmac",
        "ntlm",
        "tls",
        "tls1.2",
        "tls1.3",
        "keepass",
        "keepassxc",
        "bitwarden",
        "1password",
        "lastpass",
        "dashlane",
        "keychain",
        "vault",
        "hashicorp",
        "cyberark",
        "thycotic",
        "ldap",
        "sso",
        "okta",
    ];
    let lower = value.to_ascii_lowercase();
    let after = after_value.trim_start();
    let gap = gap.trim_end();
    let used_for = gap.ends_with('用')
        && [
            "管理", "保存", "存储", "存放", "托管", "加密", "生成", "同步", "哈希", "散列", "来管",
            "来存",
        ]
        .iter()
        .any(|verb| after.starts_with(verb) && !after.starts_with("管理员"));
    let kept_in = gap.ends_with('在') && after.starts_with(['里', '中']);
    TOOLS.contains(&lower.as_str()) || used_for || kept_in
}

/// `pw in hex: 41626340313233`, `密码的 base64：QWJjQDEyMw==`: a password
/// said to be encoded, and a value of that encoding's letters; whatever it
/// decodes to, it is the password written another way.
fn is_encoded(gap: &str, value: &str) -> bool {
    static ENCODING: LazyLock<Regex> =
        LazyLock::new(|| super::re(r"(?i)\b(?:hex|base64|base32|encoded|rot13)\b|十六进制|编码"));
    let letters = value.trim_end_matches('=');
    ENCODING.is_match(gap)
        && letters.len() >= 8
        && letters.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// `= DB_NAME=mes`, `= socket = …` right after a password setting's name:
/// the setting is empty and the next one's name follows (`:=` and `: 生产:`
/// are no such thing).
static EMPTY_SETTING: LazyLock<Regex> =
    LazyLock::new(|| super::re(r"^\s*[=:](?:\s+|$)[A-Za-z_][\w.\-]*\s*=(?:\s|[^=]|$)"));

/// `DB_PASSWORD= DB_NAME=mes`, `password = socket = …`: the setting is
/// empty and the next one's name follows (line breaks folded into spaces).
fn is_next_key(value: &str, after_value: &str) -> bool {
    let env_name = value.contains('_')
        && value.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    after_value.trim_start().starts_with('=')
        && !after_value.trim_start().starts_with("==")
        && (env_name || super::credentials::is_next_setting(&format!("{value}=")))
}

/// A program asking for a password (`Enter password:`, `[sudo] password
/// for ops:`, psql's `Password for user report:`): what follows is the
/// program's next output, a password only if it looks like one.
fn is_prompt(text: &str, word_start: usize, rest: &str) -> bool {
    let before = text[..word_start].to_ascii_lowercase();
    let before = before.trim_end();
    let output = PROGRAM_OUTPUT.is_match(rest);
    before.ends_with("[sudo]")
        || (before.ends_with("enter") && output)
        || PSQL_PROMPT.is_match(rest)
}

/// What a program prints after asking for a password (the typed password
/// is never echoed): `Enter password: Welcome to the MySQL monitor`.
static PROGRAM_OUTPUT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)^\s*:\s*(?:welcome|error|warning|access\s+denied|mysql|psql|login|last\s+login|connected)\b",
    )
});

/// psql's prompt, `Password for user report:`, followed by its output.
static PSQL_PROMPT: LazyLock<Regex> =
    LazyLock::new(|| super::re(r"(?i)^\s+for\s+user\s+\S+:\s*(?:psql|error|fatal|$)"));

/// Something that can be a password: it holds a letter or digit, does not
/// start like a path, an address or a list (`/PIN/passcode`, `@host`), and
/// does not name another password word.
fn is_value_shaped(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.bytes().any(|b| b.is_ascii_alphanumeric())
        && !value.starts_with(['/', '\\', '@', '|', '-', '>', '<', '{', '[', '}', ')', ']', '%'])
        && !super::credentials::is_variable(value)
        && !matches!(
            lower.as_str(),
            "pin"
                | "pins"
                | "pass"
                | "passcode"
                | "passcodes"
                | "password"
                | "passwords"
                | "pwd"
                | "otp"
                | "code"
                | "codes"
        )
}

/// `>=12`, `8-16`, `12+`: a length rule, not a password.
fn is_ascii_comparison(value: &str) -> bool {
    value.starts_with(['<', '>', '≥', '≤'])
        || value.chars().all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '~' | '.'))
            && value.contains(['-', '+', '~'])
}

fn trim_value(value: &str) -> &str {
    value.trim_end_matches([
        '.', ',', ';', ':', '!', '?', ')', ']', '}', '\'', '"', '」', '』', '(', '[',
    ])
}

/// A value that looks like a password without any link word: it holds a
/// digit or a symbol, or mixes cases inside.
fn strong_value(value: &str) -> bool {
    let value = trim_value(value);
    value.len() >= 4
        && !is_placeholder(value)
        && !POLICY_WORDS.contains(&value.to_ascii_lowercase().as_str())
        && !value.contains("://")
        && (value.bytes().any(|b| b.is_ascii_digit() || b.is_ascii_punctuation())
            || value.bytes().skip(1).any(|b| b.is_ascii_uppercase())
                && value.bytes().any(|b| b.is_ascii_lowercase()))
}

/// Words that introduce an example of what not to say, right before its
/// opening quote.
const EXAMPLE_WORDS: &[&str] = &[
    "like",
    "such as",
    "e.g.",
    "for example",
    "for instance",
    "类似",
    "比如",
    "例如",
    "像是",
    "诸如",
];

/// `Never share things like 'my password is 1234'`: a quoted sentence
/// after an example word whose value is one of the passwords every
/// warning uses, not anyone's.
fn is_quoted_example(text: &str, word_start: usize, value: &str) -> bool {
    const TEXTBOOK: &[&str] = &[
        "1234",
        "12345",
        "123456",
        "12345678",
        "123456789",
        "0000",
        "000000",
        "111111",
        "888888",
        "abc123",
        "qwerty",
        "letmein",
        "passw0rd",
    ];
    let before = &text[..word_start];
    let Some(quote) = before.rfind(['\'', '"', '「', '『', '“', '‘']) else {
        return false;
    };
    let lead = before[..quote].trim_end().to_lowercase();
    TEXTBOOK.contains(&value.to_ascii_lowercase().as_str())
        && EXAMPLE_WORDS.iter().any(|w| lead.ends_with(w))
        && !before[quote..].contains(['.', '。', '!', '?', ';'])
}

fn is_policy_phrase(value: &str) -> bool {
    [
        "至少",
        "最少",
        "不少于",
        "必须",
        "需要",
        "要求",
        "长度",
        "位",
        "字符",
        "包含",
        "定期",
        "复杂",
        "规则",
        "策略",
    ]
    .iter()
    .any(|w| value.contains(w))
}

fn is_clause_about_policy(text: &str, pos: usize) -> bool {
    let clause = clause_of(text, pos, pos);
    ["policy", "rule", "requirement", "策略", "规则", "要求"]
        .iter()
        .any(|w| contains_word(clause, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_need_a_value_not_a_policy() {
        assert!(has_password("password hunter2"));
        assert!(has_password("my pin's 8 8 3 0 if you need it"));
        assert!(has_password("I reset it to P@ssw0rd_Mozz, use that for the LIMS login"));
        assert!(!has_password("I updated it to Rev#3b after the review"));
        assert!(!has_password("I reset it to Batch-2024-A for the trial"));
        assert!(!has_password("never share things like 'my password is 1234' here"));
        assert!(has_password("things like 'my password is Hunter2!' stay mine"));
        assert!(has_password("登录密码Abc@123"));
        assert!(has_password("PIN 是 1234"));
        assert!(has_password("my password is dragon"));
        assert!(has_password("The keypad code for cold room B is 2580#"));
        assert!(has_password("If SAP asks for my password again it's Winter$Milk9"));
        assert!(has_password("The login for the HPLC workstation is chemadmin / Chrom@2024!"));
        assert!(!has_password("How do I reset my LIMS password if the portal is down?"));
        assert!(!has_password("门禁码每季度换一次"));
        assert!(!has_password("密码:至少12位"));
        assert!(!has_password("the password policy requires 12 characters"));
        assert!(!has_password("password: 12 characters minimum"));
        assert!(!has_password("密码要定期改"));
        assert!(!has_password("PIN 4 digits"));
        assert!(has_password("MES login: user qa_li / pass Mes#2025x"));
        assert!(has_password("the login for the old scale is still root/root"));
        assert!(has_password("登录 ERP 用 liming / Lm@erp2025"));
        assert!(has_password("the zip is encrypted, open it with Whey_2025!"));
        assert!(!has_password("the login for the portal is email/phone"));
        assert!(!has_password("Sensory results: pass: 9/10, fail: 1"));
        assert!(!has_password("DSN template: mysql://USER:PASSWORD@HOST/DB"));
        assert!(has_password("the wifi password, careful with the case, is: Lab5Wifi"));
        assert!(has_password("密码我念一下，大写的M然后是 Milk@88"));
        assert!(!has_password("password rules: at least 12 characters, e.g. Abc123!x"));
    }

    #[test]
    fn a_network_and_its_password_after_a_wifi_word() {
        assert!(has_password("WiFi: RDC-Pilot / ruqing2026#  中试车间那边信号弱"));
        assert!(has_password("无线:Lab-Guest / milk@2026x"));
        assert!(has_password("SSID: QC-Lab / Whey#2099"));
        // Two networks, not a network and its password.
        assert!(!has_password("WiFi: Lab-2.4G / Lab-5G"));
        assert!(!has_password("wifi: RDC-Pilot / RDC-Pilot-5G"));
        assert!(!has_password("Wi-Fi 连不上的话看一下 RDC-Pilot / RDC-Guest 哪个信号好"));
    }

    #[test]
    fn a_password_said_encoded_or_labelled_after_it_is_one() {
        assert!(has_password("pw in hex: 41626340313233"));
        assert!(has_password("密码的 base64：QWJjQDEyMzQ1"));
        assert!(has_password("the code to get in is Abc@12345 (pw)"));
        assert!(has_password("The passcode to unlock the shared folder is 73Kw!pQz, keep it"));
        assert!(!has_password("password hashes are stored in hex: 64 characters"));
        assert!(!has_password("Abc@12345 (password manager entry)"));
    }

    #[test]
    fn how_passwords_are_kept_is_no_password() {
        for kept in [
            "存密码哈希用 bcrypt 还是 argon2id 比较好？",
            "the password hash is bcrypt",
            "我们组的密码都用 KeePass 管理",
            "团队的密码用 1Password 保存",
            "密码存在 HashiCorp Vault 里",
        ] {
            assert!(!has_password(kept), "{kept}");
        }
        for stated in [
            "密码用 Abc@123 登录",
            "密码是 Kx9#vault 里面那个",
            "密码是 Abc@123 保存好",
            "密码用 Abc@123 管理员账号",
        ] {
            assert!(has_password(stated), "{stated}");
        }
    }
}
