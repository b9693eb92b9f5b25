//! Credentials: private keys, API keys and tokens, passwords and PINs
//! (spec §2).
//!
//! Vendor token formats are written from the vendors' documentation and the
//! rule sets of public secret scanners (gitleaks, trufflehog, GitHub secret
//! scanning). Beyond them, a value counts as a secret when it *looks*
//! generated (mixed classes that change often, as random strings do and
//! words, file names and code identifiers do not) and a key word labels it,
//! or when it is long and random enough to need no label.

use super::Category;
use super::context::{WordSet, clause_of, contains_word, mentions};
use regex::Regex;
use std::sync::LazyLock;

/// The credential category of `words` (or its digits view), if any.
pub(crate) fn find(words: &str, digits: &str) -> Option<Category> {
    if has_private_key(words) {
        Some(Category::PrivateKey)
    } else if has_secret(words) {
        Some(Category::Secret)
    } else if has_password(words) || (digits != words && has_password(digits)) {
        Some(Category::Password)
    } else {
        None
    }
}

/// One regex matching any of `patterns`: a single pass over the text
/// instead of one per pattern (most start with a literal prefix, which the
/// regex crate searches for all at once).
fn any_of(patterns: &[&str]) -> Regex {
    let alternation: Vec<String> = patterns.iter().map(|p| format!("(?:{p})")).collect();
    super::re(&alternation.join("|"))
}

// ---- private keys ----

static PRIVATE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    any_of(&[
        // PEM and PGP armour: RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP … PRIVATE KEY.
        r"-----\s*BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?\s*-----",
        r"PuTTY-User-Key-File-\d|Private-Lines:\s*\d",
        r"AGE-SECRET-KEY-1[0-9A-Z]{40,}",
        // Bare base64 bodies: OpenSSH (`openssh-key-v1`), PKCS#1 and PKCS#8 DER
        // (`SEQUENCE { INTEGER 0 …`), SEC1 EC keys, Ed25519 PKCS#8, PBES2.
        r"b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/=]{8,}",
        r"MII[A-Za-z0-9+/]{2,3}(?:IBAAK|IBADAN|AgEAA)[A-Za-z0-9+/]{16,}",
        r"MIG[A-Za-z0-9+/]AgEA[A-Za-z0-9+/]{16,}",
        r"MHcCAQEE[A-Za-z0-9+/]{16,}|MIGkAgEBBD[A-Za-z0-9+/]{16,}|MC4CAQAwBQYDK2Vw[A-Za-z0-9+/]{8,}",
        r"BgkqhkiG9w0BBQ0w[A-Za-z0-9+/]{16,}",
        // A JSON Web Key with its private exponent.
        r#""kty"\s*:\s*"(?:RSA|EC|OKP)"[^}]{0,400}"d"\s*:\s*"[A-Za-z0-9_\-]{20,}"#,
        // WireGuard and similar: a labelled 32-byte base64 key.
        r"(?i)\bprivate[ _-]?key\b\s*[:=]\s*[A-Za-z0-9+/]{42,43}=",
        r"(?i)(?:私钥|\bprivate[ _-]?key\b)[^\n,;。公]{0,12}?[:=是为]\s*[A-Za-z0-9+/]{40,}={0,2}",
    ])
});

fn has_private_key(words: &str) -> bool {
    PRIVATE_KEY.is_match(words)
}

// ---- API keys and tokens ----

/// Vendor formats. Each is anchored on its documented prefix so that it is
/// exact; the body lengths are the documented ones, a little relaxed.
static VENDOR_TOKENS: LazyLock<Regex> = LazyLock::new(|| {
    any_of(&[
        // AWS access key ids (IAM users, STS, roles…).
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b",
        // Alibaba Cloud (Aliyun) AccessKey ID; Tencent Cloud SecretId; Volcengine; Baidu; JD Cloud.
        r"\bLTAI[A-Za-z0-9]{12,30}\b",
        r"\bAKID[A-Za-z0-9]{13,40}\b",
        r"\bAKLT[A-Za-z0-9_\-]{20,}",
        r"\bALTAK[A-Za-z0-9\-]{10,}|\bbce-v3/[A-Za-z0-9\-]+/[A-Za-z0-9]{16,}",
        r"\bJDC_[A-Z0-9]{28,32}\b",
        // GitHub classic and fine-grained tokens.
        r"\bgh[pousr]_[A-Za-z0-9]{30,255}\b",
        r"\bgithub_pat_[A-Za-z0-9_]{22,255}",
        // GitLab tokens (personal, deploy, runner, pipeline trigger, CI job, OAuth, feed, agent…).
        r"\bgl(?:pat|dt|rt|ptt|cbt|oas|ft|soat|ffct|imt|agent|cd|sa)-[A-Za-z0-9_\-]{20,}",
        r"\bGR1348941[A-Za-z0-9_\-]{20,}",
        // Slack tokens and webhooks.
        r"\bxox[abposre]-[A-Za-z0-9\-]{10,}",
        r"\bxapp-\d-[A-Za-z0-9\-]{10,}",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{20,}",
        // Stripe keys and webhook secrets.
        r"\b(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,}",
        r"\bwhsec_[A-Za-z0-9+/=]{20,}",
        // OpenAI, Anthropic, DeepSeek, Moonshot, OpenRouter… (`sk-…`), Groq, Perplexity, xAI, Replicate.
        r"\bsk-(?:ant-(?:api|admin|sid)\d{2}-|proj-|svcacct-|admin-|or-v1-|None-)?[A-Za-z0-9_\-]{20,}",
        r"\bgsk_[A-Za-z0-9]{40,}|\bpplx-[A-Za-z0-9]{32,}|\bxai-[A-Za-z0-9]{40,}|\br8_[A-Za-z0-9]{30,}",
        // Google API keys, OAuth access and refresh tokens, OAuth client secrets.
        r"\bAIza[0-9A-Za-z_\-]{30,40}",
        r"\bya29\.[0-9A-Za-z_\-]{20,}",
        r"\b1//0[0-9A-Za-z_\-]{30,}",
        r"\bGOCSPX-[0-9A-Za-z_\-]{20,}",
        // Hugging Face, npm, PyPI, Docker Hub, DigitalOcean, Atlassian, Notion, Linear, Postman.
        r"\b(?:hf_|api_org_)[A-Za-z0-9]{30,}",
        r"\bnpm_[A-Za-z0-9]{36}\b",
        r"\bpypi-AgE[A-Za-z0-9_\-]{50,}",
        r"\bdckr_pat_[A-Za-z0-9_\-]{20,}",
        r"\bdo[opr]_v1_[a-f0-9]{64}\b",
        r"\bATATT3[A-Za-z0-9_\-=]{50,}",
        r"\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})\b",
        r"\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b",
        r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b",
        // Databricks, Grafana, Sentry, New Relic, Doppler, Vault, Pulumi, Terraform Cloud.
        r"\bdapi[a-f0-9]{32}(?:-\d)?\b",
        r"\bglc_[A-Za-z0-9+/]{32,}|\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b",
        r"\bsntry[su]_[A-Za-z0-9+/=_\-]{40,}",
        r"\bNR(?:AK|II|JS)-[A-Za-z0-9]{20,}",
        r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}",
        r"\bhv[sbr]\.[A-Za-z0-9_\-]{24,}",
        r"\bpul-[a-f0-9]{40}\b",
        r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,}",
        // SendGrid, Twilio, Mailgun, Mailchimp, Shopify, Square, Supabase, Fly.io, Heroku, JFrog.
        r"\bSG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,64}",
        r"\bSK[0-9a-f]{32}\b",
        r"\bkey-[0-9a-f]{32}\b",
        r"\b[0-9a-f]{32}-us\d{1,2}\b",
        r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b",
        r"\bsq0(?:atp|csp)-[0-9A-Za-z_\-]{22,}|\bEAAA[A-Za-z0-9_\-]{60,}",
        r"\bsbp_[a-f0-9]{40}\b|\bfo1_[A-Za-z0-9_\-]{40,}|\bHRKU-[A-Za-z0-9_\-]{30,}|\bAKCp[A-Za-z0-9]{60,}",
        // Facebook and Mapbox tokens, Azure AD client secrets, Telegram and Discord bots.
        r"\bEAA[CG][A-Za-z0-9]{30,}",
        r"\b[ps]k\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{16,}",
        r"\b[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}",
        r"\b\d{8,10}:AA[A-Za-z0-9_\-]{30,}",
        r"\b[MNO][A-Za-z0-9]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,}",
        // Chat-bot webhooks: DingTalk, Feishu/Lark, WeCom, Discord, Teams, Zapier.
        r"oapi\.dingtalk\.com/robot/send\?access_token=[A-Za-z0-9]{16,}",
        r"\bSEC[a-f0-9]{64}\b",
        r"open\.(?:feishu\.cn|larksuite\.com|larkoffice\.com)/open-apis/bot/v2/hook/[A-Za-z0-9\-]{16,}",
        r"qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=[A-Za-z0-9\-]{16,}",
        r"discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{30,}",
        r"webhook\.office\.com/webhookb2/[^\s]{20,}|outlook\.office\.com/webhook/[^\s]{20,}",
        r"hooks\.zapier\.com/hooks/catch/\d+/[A-Za-z0-9]{5,}",
        // Airtable, Bitbucket, Brevo/Sendinblue, Braintree, Contentful, Dropbox, Firebase, Django.
        r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b",
        r"\bATBB[A-Za-z0-9_=.\-]{20,}",
        r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b",
        r"access_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}",
        r"\bCFPAT-[A-Za-z0-9_\-]{40,}",
        r"\bsl\.[A-Za-z0-9_\-]{60,}",
        r"\bAAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{60,}",
        r"\bdjango-insecure-\S{20,}",
        // JSON Web Tokens.
        r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        r"\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}",
        // HTTP authorisation headers.
        r"(?i)\bbearer\s+[A-Za-z0-9._~+/\-]{16,}=*",
        r"(?i)\bauthorization\s*:\s*(?:basic|token|bearer|digest|apikey|sharedkey)?\s*[A-Za-z0-9._~+/\-]{12,}=*",
        r"(?i)\bbasic\s+[A-Za-z0-9+/]{12,}={0,2}(?:\s|$)",
    ])
});

/// A URL or connection string with a password in its user info:
/// `postgres://user:pass@host`, `redis://:pw@host`.
static URL_PASSWORD: LazyLock<Regex> =
    LazyLock::new(|| super::re(r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://([^\s/:@]*):([^\s@/]+)@[^\s]"));

/// A URL parameter carrying a token, a key, a signature or a password.
static URL_SECRET_PARAM: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)[?&#;](access_token|accesstoken|auth_token|authtoken|id_token|refresh_token|token|api_key|apikey|api-key|key|secret|client_secret|app_secret|appsecret|password|passwd|pwd|pass|sig|signature|x-amz-signature|x-amz-security-token|x-amz-credential|sessionid|session_id|sid|ticket|code|auth|credential)=([^&\s#]+)",
    )
});

/// Key words that label the value next to them as a secret.
static SECRET_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\b(?:[a-z0-9]+[_\-])*(?:api[ _\-]?keys?|api[ _\-]?secret|secret(?:[ _\-]?(?:key|id|access[ _\-]?key))?|(?:access|auth|refresh|bearer|session|private|personal|api|id)?[ _\-]?tokens?|access[ _\-]?keys?(?:[ _\-]?(?:id|secret))?|accesskey(?:id|secret)?|app[ _\-]?(?:secret|key)|secretkey|secretid|client[ _\-]?secret|credentials?|signing[ _\-]?key|encryption[ _\-]?key|webhook|license[ _\-]?key|aws|aliyun|ak|sk|keys?)(?:[_\-][a-z0-9]+)*\b|密钥|秘钥|令牌|凭证|凭据|授权码|激活码|签名密钥|口令码",
    )
});

/// Words that say the value next to them is a digest or an id, not a secret.
static DIGEST_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\b(?:commit|sha(?:1|256|512)?|md5|hash|digest|checksum|uuid|guid|request[ _\-]?id|trace[ _\-]?id|id|etag|revision|rev|build|version)\b|哈希|摘要|校验",
    )
});

/// A key word assigned a quoted value (`SECRET_KEY = '…'`), whose value
/// may hold any symbol.
static LABELLED_ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r#"(?i)(?:secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key|client[_\-]?secret|app[_\-]?secret|signing[_\-]?key|salt|credential)s?["']?\s*[:=]\s*["']([^"'\s]{12,})["']"#,
    )
});

/// Words that say a key is public, or a fingerprint of one.
static PUBLIC_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\bpublic[ _\-]?keys?\b|\bpubkey\b|\bfingerprint\b|公钥|指纹|\bssh-(?:rsa|ed25519|dss)\b|\becdsa-sha2",
    )
});

/// The start of an SSH public key body (`ssh-rsa AAAAB3NzaC1yc2E…`).
fn is_ssh_public_key(token: &str) -> bool {
    ["AAAAB3NzaC1", "AAAAC3NzaC1", "AAAAE2VjZHNh"]
        .iter()
        .any(|p| token.starts_with(p))
}

/// Candidate values: runs of the characters keys and tokens are made of.
static TOKEN: LazyLock<Regex> = LazyLock::new(|| super::re(r"[A-Za-z0-9+/_\-.~]{8,}={0,2}"));

/// A vendor-style prefix before a random body: `xyz_live_…`, `abc-…`.
static PREFIXED_TOKEN: LazyLock<Regex> =
    LazyLock::new(|| super::re(r"\b[a-z]{2,10}[_\-](?:[a-z]{2,8}[_\-])?([A-Za-z0-9]{20,})\b"));

fn has_secret(words: &str) -> bool {
    VENDOR_TOKENS.is_match(words)
        || URL_PASSWORD
            .captures_iter(words)
            .any(|c| !is_placeholder(&c[2]) && !c[2].chars().all(|ch| ch.is_ascii_digit()))
        || URL_SECRET_PARAM
            .captures_iter(words)
            .any(|c| secret_param(&c[1], &c[2]))
        || PREFIXED_TOKEN
            .captures_iter(words)
            .any(|c| looks_generated(&c[1]) && has_digit_and_letter(&c[1]))
        || LABELLED_ASSIGNMENT
            .captures_iter(words)
            .any(|c| looks_generated_with_symbols(&c[1]))
        || TOKEN.find_iter(words).any(|m| {
            let token = trim_token(m.as_str());
            if is_ssh_public_key(token) {
                return false;
            }
            looks_random_unlabelled(token)
                || (looks_secret_value(token) && labelled(words, m.start(), m.end()))
        })
}

fn secret_param(name: &str, value: &str) -> bool {
    let value = value.trim_end_matches(['.', ',', ')', '\'', '"']);
    if is_placeholder(value) || value.len() < 6 {
        return false;
    }
    match name.to_ascii_lowercase().as_str() {
        "key" | "code" | "sid" | "auth" | "ticket" | "pass" => looks_secret_value(value),
        _ => true,
    }
}

/// A value with a key word before it (same line, up to 40 characters) or
/// right after it, and no digest word directly before it.
fn labelled(words: &str, start: usize, end: usize) -> bool {
    let line_start = words[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = tail(&words[line_start..start], 40);
    let after = head(&words[end..], 24);
    let after = after.split('\n').next().unwrap_or("");
    let near_before = tail(before, 14);
    if DIGEST_LABEL.is_match(near_before) && !SECRET_LABEL.is_match(near_before) {
        return false;
    }
    if PUBLIC_LABEL.is_match(before) || PUBLIC_LABEL.is_match(after) {
        return false;
    }
    SECRET_LABEL.is_match(before) || SECRET_LABEL.is_match(after)
}

/// The last `n` characters of `s`.
fn tail(s: &str, n: usize) -> &str {
    let start = s
        .char_indices()
        .rev()
        .nth(n.saturating_sub(1))
        .map_or(0, |(i, _)| i);
    &s[start..]
}

/// The first `n` characters of `s`.
fn head(s: &str, n: usize) -> &str {
    let end = s.char_indices().nth(n).map_or(s.len(), |(i, _)| i);
    &s[..end]
}

fn trim_token(token: &str) -> &str {
    token.trim_matches(|c: char| matches!(c, '.' | '-' | '_' | '~' | '/'))
}

/// A stand-in rather than a value: `***`, `xxx`, `<password>`, `${PASS}`.
fn is_placeholder(value: &str) -> bool {
    let v = value.trim_matches(|c: char| matches!(c, '\'' | '"' | '(' | ')' | '[' | ']'));
    let lower = v.to_ascii_lowercase();
    v.is_empty()
        || v.chars()
            .all(|c| matches!(c, '*' | 'x' | 'X' | '.' | '#' | '?' | '-' | '_' | '…'))
        || v.starts_with('<')
        || v.starts_with('$')
        || v.starts_with('{')
        || v.starts_with('%')
        || lower.contains("xxxx")
        || lower.contains("****")
        || matches!(
            lower.as_str(),
            "password"
                | "pass"
                | "passwd"
                | "pwd"
                | "secret"
                | "token"
                | "changeme"
                | "your_password"
                | "yourpassword"
                | "your-password"
                | "mypassword"
                | "user"
                | "username"
                | "redacted"
                | "hidden"
                | "none"
                | "null"
                | "empty"
                | "example"
        )
}

fn has_digit_and_letter(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit()) && s.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The share of neighbouring characters of different classes (upper, lower,
/// digit, other). Random strings change class at most positions (about 0.6
/// for base62); words, `CamelCase` identifiers and `snake_case` names keep
/// long runs of one class (0.1–0.35).
fn class_changes(s: &str) -> f64 {
    fn class(c: char) -> u8 {
        match c {
            'A'..='Z' => 0,
            'a'..='z' => 1,
            '0'..='9' => 2,
            _ => 3,
        }
    }
    let classes: Vec<u8> = s.chars().map(class).collect();
    if classes.len() < 2 {
        return 0.0;
    }
    let changes = classes.windows(2).filter(|w| w[0] != w[1]).count();
    changes as f64 / (classes.len() - 1) as f64
}

/// Shannon entropy in bits per character.
fn entropy(s: &str) -> f64 {
    let mut counts = [0usize; 128];
    let mut n = 0usize;
    for b in s.bytes().filter(u8::is_ascii) {
        counts[b as usize] += 1;
        n += 1;
    }
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n as f64;
            -p * p.log2()
        })
        .sum()
}

/// Made of words joined by `_`, `-` or `.`, or a file name: an identifier,
/// a path segment or a document, not a generated value.
fn looks_like_name(token: &str) -> bool {
    let words = token
        .split(['_', '-', '.', '/'])
        .filter(|part| is_wordish(part))
        .count();
    let extension = token.rsplit_once('.').is_some_and(|(_, ext)| {
        (2..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphabetic())
    });
    words >= 2 || extension || camel_words(token) >= 3
}

/// A part of a name: three letters or more, written as words are
/// (`recipe`, `Recipe`, `RECIPE`), not mixed at random (`wJalrXUtn`).
fn is_wordish(part: &str) -> bool {
    let mut chars = part.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest: Vec<char> = chars.collect();
    part.len() >= 3
        && first_ok
        && (rest.iter().all(char::is_ascii_lowercase) || rest.iter().all(char::is_ascii_uppercase))
}

/// How many capitalised words of three or more letters a token holds
/// (`ProcessRecipeLifecycle2Handler3Impl` holds six).
fn camel_words(token: &str) -> usize {
    let chars: Vec<char> = token.chars().collect();
    let mut count = 0;
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_uppercase() {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_lowercase() {
                j += 1;
            }
            if j - i >= 4 && has_vowel(&chars[i..j]) {
                count += 1;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    count
}

fn has_vowel(chars: &[char]) -> bool {
    chars.iter().any(|c| "aeiouAEIOU".contains(*c))
}

/// Generated-looking: changes class often and carries enough entropy.
fn looks_generated(token: &str) -> bool {
    token.len() >= 16
        && class_changes(token) >= 0.35
        && entropy(token) >= 3.5
        && !looks_like_name(token)
}

/// A quoted value after a key word: generated-looking, symbols allowed.
fn looks_generated_with_symbols(value: &str) -> bool {
    let classes = [
        value.bytes().any(|b| b.is_ascii_lowercase()),
        value.bytes().any(|b| b.is_ascii_uppercase()),
        value.bytes().any(|b| b.is_ascii_digit()),
        value.bytes().any(|b| !b.is_ascii_alphanumeric()),
    ];
    value.len() >= 16
        && classes.iter().filter(|&&c| c).count() >= 2
        && value.bytes().any(|b| b.is_ascii_digit())
        && class_changes(value) >= 0.3
        && !is_placeholder(value)
        && !looks_like_name(value)
}

/// A value a key word may label as a secret: long hex (with or without
/// dashes), or letters and digits mixed the way generated values mix them.
fn looks_secret_value(token: &str) -> bool {
    let token = token.trim_end_matches('=');
    if token.len() < 8 || token.contains("://") || is_placeholder(token) || looks_like_name(token) {
        return false;
    }
    let compact: String = token.chars().filter(|&c| c != '-').collect();
    let hex = compact.len() >= 16 && compact.chars().all(|c| c.is_ascii_hexdigit());
    let digits = token.bytes().filter(u8::is_ascii_digit).count();
    let letters = token.bytes().filter(u8::is_ascii_alphabetic).count();
    let upper = token.bytes().filter(u8::is_ascii_uppercase).count();
    let lower = token.bytes().filter(u8::is_ascii_lowercase).count();
    let (digit_runs, letter_runs) = (
        runs(token, |c| c.is_ascii_digit()),
        runs(token, |c| c.is_ascii_alphabetic()),
    );
    let symbols = token.bytes().filter(|b| !b.is_ascii_alphanumeric()).count();
    (hex && digits > 0 && letters > 0)
        || (token.len() >= 30
            && upper >= 3
            && lower >= 3
            && digits + symbols >= 1
            && class_changes(token) >= 0.3)
        || (token.len() >= 10
            && digit_runs >= 3
            && letter_runs >= 3
            && class_changes(token) >= 0.3
            && entropy(token) >= 2.8)
        || (token.len() >= 20 && upper >= 2 && lower >= 2 && class_changes(token) >= 0.4)
}

/// How many maximal runs of characters satisfying `class` a token holds.
fn runs(token: &str, class: fn(char) -> bool) -> usize {
    let mut count = 0;
    let mut inside = false;
    for c in token.chars() {
        let now = class(c);
        if now && !inside {
            count += 1;
        }
        inside = now;
    }
    count
}

/// So random that no label is needed: 20+ characters mixing upper case,
/// lower case and digits, changing class at nearly every step.
fn looks_random_unlabelled(token: &str) -> bool {
    let token = token.trim_end_matches('=');
    if token.len() < 20 || looks_like_name(token) {
        return false;
    }
    let count = |f: fn(&u8) -> bool| token.bytes().filter(f).count();
    count(u8::is_ascii_uppercase) >= 2
        && count(u8::is_ascii_lowercase) >= 2
        && count(u8::is_ascii_digit) >= 2
        && class_changes(token) >= 0.45
        && entropy(token) >= 3.8
}

// ---- passwords and PINs ----

/// The words that introduce a password, a passphrase, a PIN or a one-time
/// code, in English and Chinese.
static PASSWORD_WORD: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)pin码|\b(?:[a-z0-9]+[_\-])*(?:pass(?:word|wd|code|phrase)s?|pass ?word|pwd|pw|pass|pin(?: ?code| ?number| ?no\.?)?|otp|(?:2fa|mfa|one-time|verification|security|sms) ?(?:pass)?code)(?:[_\-][a-z0-9]+)*\b|密码|口令|暗号|验证码|动态码|校验码|安全码",
    )
});

/// What may stand between the word and the value: nothing, or a verb or a
/// colon (`is`, `是`, `:`, `改成了`, `set to`), possibly several.
static PASSWORD_LINK: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)^(?:\s*(?:\([^)\n]{0,20}\)|（[^）\n]{0,20}）|\bfor\s+[^:=\n]{1,30}?(?:\s+is|\s+was|\s*[:=])|\bof\s+[^:=\n]{1,30}?(?:\s+is|\s+was|\s*[:=])|is|was|are|=|:|:=|=>|->|是|为|就是|还是|都是|仍是|一直是|用的是|设的是|改成了?|改为|改成|设为|设成|设置为|设置成|换成了?|变成了?|重置为|就用|改用|统一用|先用|都用|用|默认是|默认为|初始是|初始为|忘了,?|忘记了,?|(?:好像|应该|大概|可能|估计|记得)是|[\p{Han}]{1,4}?(?:是|为)|\bis now\b|\bis still\b|\bset to\b|\bchanged to\b|\breset to\b|\bwill be\b|\bshould be\b|[^:=\n,.。!?;]{1,12}?[:=]|\s[^:=\n,.!?;。]{1,30}?(?:\s+is|\s+was|\s*[:=]))\s*)*",
    )
});

/// The same links without free words in between, so that a value right
/// after the word (`PIN 0000 is wrong`) is still read as one.
static PASSWORD_LINK_STRICT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)^(?:\s*(?:\([^)\n]{0,20}\)|（[^）\n]{0,20}）|\bfor\s+[^:=\n]{1,30}?(?:\s+is|\s+was|\s*[:=])|\bof\s+[^:=\n]{1,30}?(?:\s+is|\s+was|\s*[:=])|is|was|are|=|:|:=|=>|->|是|为|就是|还是|都是|仍是|一直是|用的是|设的是|改成了?|改为|改成|设为|设成|设置为|设置成|换成了?|变成了?|重置为|就用|改用|统一用|先用|都用|用|默认是|默认为|初始是|初始为|\bis now\b|\bis still\b|\bset to\b|\bchanged to\b|\breset to\b|\bwill be\b|\bshould be\b)\s*)*",
    )
});

/// The value: printable ASCII without spaces, possibly quoted.
static PASSWORD_VALUE: LazyLock<Regex> = LazyLock::new(|| super::re(r#"^["'「『(\[]?([!-~]+)"#));

/// A quoted non-ASCII value after an explicit link (`口令是"芝麻开门"`).
static QUOTED_VALUE: LazyLock<Regex> =
    LazyLock::new(|| super::re(r#"^["「『]([^"」』\n]{2,20})["」』]"#));

/// The value before the word: `hunter2 is my password`, `Abc@123 是我的密码`.
static PASSWORD_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:^|[\s:：,])([!-~]{4,})\s*(?:(?:is|was)\s+(?:my|his|her|their|our|the|the user's|your)\s+(?:[a-z]+\s+){0,2}(?:password|passcode|pin|passphrase)|(?:是|就是|为)(?:我|他|她|用户|你|我们)?的?[^,.。\n]{0,10}?(?:密码|口令))",
    )
});

/// Logging in with a value: `用 Abc@123 登录`, `log in with Abc@123`,
/// `账号 admin / Abc@123`.
static LOGIN_WITH: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:(?:用|以|拿|输入)\s*([!-~]{6,})\s*(?:登录|登陆|登入|解锁)|\b(?:logs? ?-?in|logged in|signs? ?-?in|signed in|unlocks?|authenticates?)\s+(?:with|using)\s+(?:the\s+)?(?:password\s+)?([!-~]{6,})|(?:账号|帐号|用户名|\busername|\buser|\blogin|\baccount)(?:\s+is|\s*[:=])?\s*[A-Za-z0-9._@\-]{2,32}\s*/\s*([!-~]{4,})|\b(?:use|used|uses|using)\s+([!-~]{4,})\s+(?:as|for)\s+(?:my|his|her|their|our|the)\s+(?:[a-z]+\s+){0,2}(?:password|passcode|pin|passphrase)|(?:用|拿)\s*([!-~]{4,})\s*(?:作为|当作?|做)(?:[^,.。\n]{0,6}?)(?:密码|口令))",
    )
});

/// Words that follow "password" in talk *about* passwords: policies,
/// fields, resets. A value that is one of them is no password.
const POLICY_WORDS: &[&str] = &[
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
];

/// Words between "password" and a colon that make the sentence a rule
/// about passwords (`password length: 12`, `密码长度要求：12`).
static GAP_POLICY_WORDS: WordSet = WordSet::new(&[
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

fn has_password(text: &str) -> bool {
    PASSWORD_WORD.find_iter(text).any(|m| {
        password_follows(text, m.as_str(), m.end(), &PASSWORD_LINK)
            || password_follows(text, m.as_str(), m.end(), &PASSWORD_LINK_STRICT)
    }) || PASSWORD_BEFORE.captures_iter(text).any(|c| {
        strong_value(&c[1]) && !is_clause_about_policy(text, c.get(0).map_or(0, |m| m.start()))
    }) || LOGIN_WITH.captures_iter(text).any(|c| {
        let value = (1..c.len())
            .find_map(|i| c.get(i))
            .map_or("", |m| m.as_str());
        strong_value(trim_value(value))
    })
}

/// Whether a password value follows the password word that ends at `end`.
fn password_follows(text: &str, word: &str, end: usize, links: &Regex) -> bool {
    let rest = &text[end..];
    let link = links.find(rest).map_or(0, |m| m.end());
    let linked = rest[..link].chars().any(|c| !c.is_whitespace());
    if mentions(&rest[..link], &GAP_POLICY_WORDS) {
        return false;
    }
    let after_link = rest[link..].trim_start();
    let word = word.to_ascii_lowercase();
    if word
        .split(['_', '-'])
        .any(|part| IDENTIFIER_POLICY_PARTS.contains(&part))
    {
        return false;
    }
    let word = word
        .rsplit(['_', '-'])
        .find(|part| PASSWORD_WORD.is_match(part))
        .unwrap_or(&word)
        .to_string();
    let numeric_only = matches!(
        word.as_str(),
        "otp" | "验证码" | "动态码" | "校验码" | "安全码"
    ) || word.starts_with("pin")
        || word.ends_with("code") && !word.starts_with("pass");
    if let Some(q) = QUOTED_VALUE.captures(after_link)
        && linked
        && !numeric_only
        && !q[1].is_ascii()
    {
        return !is_policy_phrase(&q[1]);
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
    let short_word = matches!(word.as_str(), "pw" | "pass");
    if value.is_empty() || is_placeholder(value) {
        return false;
    }
    if numeric_only {
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
    if short_word {
        return rest[..link].contains([':', '=']) && strong_value(value);
    }
    if linked {
        value.len() >= 3
    } else {
        value.len() >= 4 && strong_value(value)
    }
}

/// Something that can be a password: it holds a letter or digit, does not
/// start like a path, an address or a list (`/PIN/passcode`, `@host`), and
/// does not name another password word.
fn is_value_shaped(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.bytes().any(|b| b.is_ascii_alphanumeric())
        && !value.starts_with([
            '/', '\\', '@', '|', '-', '>', '<', '{', '[', '}', ')', ']', '$', '%',
        ])
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
        || value
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '~' | '.'))
            && value.contains(['-', '+', '~'])
}

fn trim_value(value: &str) -> &str {
    value.trim_end_matches([
        '.', ',', ';', ':', '!', '?', ')', ']', '\'', '"', '」', '』', '(', '[',
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
        && (value
            .bytes()
            .any(|b| b.is_ascii_digit() || b.is_ascii_punctuation())
            || value.bytes().skip(1).any(|b| b.is_ascii_uppercase())
                && value.bytes().any(|b| b.is_ascii_lowercase()))
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
    fn class_changes_tell_random_from_names() {
        assert!(class_changes("Xk9mP2qR7vL4nW8sT3yB6cF1hJ5") > 0.6);
        assert!(class_changes("ProcessRecipeLifecycle2Handler3Impl") < 0.35);
        assert!(looks_like_name("Yogurt_Texture_Study_2024Q3_v2_Final.xlsx"));
        assert!(looks_like_name("ProcessRecipeLifecycle2Handler3Impl"));
        assert!(!looks_like_name("Xk9mP2qR7vL4nW8sT3yB6cF1hJ5"));
    }

    #[test]
    fn labelled_values_need_to_look_generated() {
        assert!(looks_secret_value("3f9a7c21e8b04d5f"));
        assert!(looks_secret_value("a1b2c3d4e5f6g7h8"));
        assert!(!looks_secret_value("results_v2_final"));
        assert!(!looks_secret_value("2000000"));
        assert!(!looks_secret_value("OPENAI_API_KEY"));
    }

    #[test]
    fn passwords_need_a_value_not_a_policy() {
        assert!(has_password("password hunter2"));
        assert!(has_password("登录密码Abc@123"));
        assert!(has_password("PIN 是 1234"));
        assert!(has_password("my password is dragon"));
        assert!(!has_password("密码:至少12位"));
        assert!(!has_password("the password policy requires 12 characters"));
        assert!(!has_password("password: 12 characters minimum"));
        assert!(!has_password("密码要定期改"));
        assert!(!has_password("PIN 4 digits"));
    }
}
