//! Credentials: private keys (and wallet seed phrases), API keys and tokens
//! (spec §2); passwords and PINs are in [`super::passwords`], tried after
//! these.
//!
//! Vendor token formats are written from the vendors' documentation and the
//! rule sets of public secret scanners (gitleaks, trufflehog, GitHub secret
//! scanning). Beyond them, a value counts as a secret when it *looks*
//! generated (mixed classes that change often, as random strings do and
//! words, file names and code identifiers do not) and a key word labels it,
//! or when it is long and random enough to need no label.

use super::Category;
use super::passwords;
use regex::Regex;
use std::sync::LazyLock;

/// The credential category of `words` (or its digits view), if any.
pub(crate) fn find(words: &str, digits: &str) -> Option<Category> {
    if has_private_key(words) {
        Some(Category::PrivateKey)
    } else if has_secret(words) {
        Some(Category::Secret)
    } else if passwords::has_password(words) || (digits != words && passwords::has_password(digits))
    {
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
        // (`SEQUENCE { INTEGER 0 …`), SEC1 EC keys, Ed25519/X25519/Ed448/X448
        // PKCS#8, PBES2.
        r"b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/=]{8,}",
        r"MII[A-Za-z0-9+/]{2,3}(?:IBAAK|IBADAN|AgEAA)[A-Za-z0-9+/]{16,}",
        r"MIG[A-Za-z0-9+/]AgEA[A-Za-z0-9+/]{16,}",
        r"MHcCAQEE[A-Za-z0-9+/]{16,}|MIGkAgEBBD[A-Za-z0-9+/]{16,}|M[CE][A-Za-z0-9]CAQAwBQYDK2V[u-x][A-Za-z0-9+/]{8,}",
        r"BgkqhkiG9w0BBQ0w[A-Za-z0-9+/]{16,}",
        // A JSON Web Key with its private exponent.
        r#""kty"\s*:\s*"(?:RSA|EC|OKP)"[^}]{0,400}"d"\s*:\s*"[A-Za-z0-9_\-]{20,}"#,
        // WireGuard and similar: a labelled 32-byte base64 key.
        r"(?i)\bprivate[ _-]?key\b\s*[:=]\s*[A-Za-z0-9+/]{42,43}=",
        r"(?i)(?:私钥|\bprivate[ _-]?key\b)[^\n,;。公]{0,12}?[:=是为]\s*[A-Za-z0-9+/]{40,}={0,2}",
        // A labelled 32-byte key in hex (Ethereum and most wallets).
        r"(?i)(?:私钥|\bprivate[ _-]?key\b)[^\n,;。公]{0,12}?(?:0x)?[0-9a-f]{64}\b",
    ])
});

/// A wallet's seed or recovery phrase (BIP 39 and its kin): a label, then
/// twelve or more words (or single Chinese characters) in a row. The
/// phrase is the private key.
static SEED_PHRASE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:助记词|恢复短语|恢复词|种子短语|\bmnemonic(?:\s+(?:phrase|words|code))?|\b(?:seed|recovery|backup|secret\s+recovery|wallet)\s+(?:phrase|words|key\s+phrase))[^\n]{0,40}?(?:(?:(?:\d{1,2}[.):]\s*)?\b[a-z]{3,8}\b[\s,，、]+){11,}(?:\d{1,2}[.):]\s*)?\b[a-z]{3,8}\b|(?:\p{Han}[\s,，、]+){11,}\p{Han})",
    )
});

/// A labelled key as hex in groups, or as a JSON array of its bytes
/// (Solana-style keypair files); a fingerprint or a public key between
/// the label and the value makes it no secret.
static KEY_AS_NUMBERS: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:私钥|\b(?:private|secret)[ _-]?key\b|\bkeypair\b)(?P<gap>[^\n\[]{0,40}?)(?:(?:[0-9a-f]{4,16}[\s,:\-]+){7,}[0-9a-f]{4,16}\b|\[\s*(?:\d{1,3}\s*,\s*){31,})",
    )
});

fn has_private_key(words: &str) -> bool {
    PRIVATE_KEY.is_match(words)
        || SEED_PHRASE.is_match(words)
        || KEY_AS_NUMBERS.captures_iter(words).any(|c| {
            let gap = c["gap"].to_ascii_lowercase();
            !["fingerprint", "指纹", "public", "公钥"].iter().any(|w| gap.contains(w))
        })
}

// ---- API keys and tokens ----

/// Vendor formats. Each is anchored on its documented prefix so that it is
/// exact; the body lengths are the documented ones, a little relaxed.
static VENDOR_TOKENS: LazyLock<Regex> = LazyLock::new(|| {
    any_of(&[
        // AWS access key ids (IAM users, STS, roles…).
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b",
        // The same written in groups (`AKIA-IOSF-ODNN-7EXA-MPLE`).
        r"\b(?:AKIA|ASIA)(?:[ \-_.][A-Z0-9]{4}){4}\b",
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
        // Azure storage and Service Bus connection strings.
        r"(?i)\b(?:AccountKey|SharedAccessKey)\s*=\s*[A-Za-z0-9+/]{40,}={0,2}",
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
        r"(?i)\b(?:[a-z0-9]+[_\-])*(?:api[ _\-]?keys?|api[ _\-]?secret|secret(?:[ _\-]?(?:key|id|access[ _\-]?key))?|(?:access|auth|refresh|bearer|session|private|personal|api|id)?[ _\-]?tokens?|access[ _\-]?keys?(?:[ _\-]?(?:id|secret))?|accesskey(?:id|secret)?|app[ _\-]?(?:secret|key)|secretkey|secretid|client[ _\-]?secret|credentials?|signing[ _\-]?key|encryption[ _\-]?key|webhook|license[ _\-]?key|aws|aliyun|ak|sk|keys?|account[ _\-]?key|shared[ _\-]?access[ _\-]?(?:key|signature)|(?:api[ _\-]?|zugangs)?schl[uü]ssel|cl[ée]s?(?:\s+(?:d'api|api|secr[eè]te|de\s+api))?|clave(?:\s+(?:de\s+)?api|\s+secreta)?)(?:[_\-][a-z0-9]+)*\b|密钥|秘钥|令牌|凭证|凭据|授权码|激活码|签名密钥|口令码|(?i:api)\s?キー|アクセスキー|シークレット|トークン|(?i:api)\s?키|시크릿|토큰|액세스\s?키",
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

/// Words that say a key is public, or a fingerprint of one, or that the
/// line is a signature header whose values are public hashes.
static PUBLIC_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\bpublic[ _\-]?keys?\b|\bpubkey\b|\bfingerprint\b|公钥|指纹|\bssh-(?:rsa|ed25519|dss)\b|\becdsa-sha2|\bdkim-signature\b|\bintegrity\b|\bidempotency[ _\-]?keys?\b",
    )
});

/// A digest written with its algorithm (`SHA256:…`, `sha512-…`, as SSH
/// fingerprints and subresource integrity write them), right before a token.
static DIGEST_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    super::re(r"(?i)\b(?:sha(?:1|224|256|384|512)|md5)[:\-]$|^(?:sha(?:1|224|256|384|512)|md5)-")
});

/// The start of an SSH public key body (`ssh-rsa AAAAB3NzaC1yc2E…`).
fn is_ssh_public_key(token: &str) -> bool {
    ["AAAAB3NzaC1", "AAAAC3NzaC1", "AAAAE2VjZHNh"].iter().any(|p| token.starts_with(p))
}

/// A PEM block of public material: a certificate, a public key, a request
/// or a signature, whose base64 body looks random and is no secret.
static PUBLIC_PEM: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"-----\s*BEGIN (?:CERTIFICATE|TRUSTED CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|CERTIFICATE REQUEST|NEW CERTIFICATE REQUEST|X509 CRL|PGP PUBLIC KEY BLOCK|PGP SIGNATURE|SSH2 PUBLIC KEY)\s*-----(?s:.*?)(?:-----\s*END[^-\n]*-----|$)",
    )
});

/// Whether byte `at` of `words` lies inside a public PEM block.
fn in_public_pem(words: &str, at: usize) -> bool {
    words.contains("-----") && PUBLIC_PEM.find_iter(words).any(|block| block.range().contains(&at))
}

/// A vendor token's shape with a stand-in body (`ghp_xxxx…`, `sk-…000…`):
/// a real token is random, with a dozen distinct characters or more.
fn is_filler(token: &str) -> bool {
    let body = token.get(4..).unwrap_or("");
    let distinct: std::collections::BTreeSet<char> =
        body.chars().filter(char::is_ascii_alphanumeric).collect();
    distinct.len() <= 2
}

/// Whether `at` lies in a JSON Web Key without its private member (`"d"`):
/// the coordinates and modulus of a public key are random-looking and public.
fn in_public_jwk(words: &str, at: usize) -> bool {
    if !words.contains("\"kty\"") {
        return false;
    }
    let (Some(open), Some(close)) = (words[..at].rfind('{'), words[at..].find('}')) else {
        return false;
    };
    let object = &words[open..at + close];
    object.contains("\"kty\"") && !object.contains("\"d\"")
}

/// Candidate values: runs of the characters keys and tokens are made of.
static TOKEN: LazyLock<Regex> = LazyLock::new(|| super::re(r"[A-Za-z0-9+/_\-.~]{8,}={0,2}"));

/// A vendor-style prefix before a random body: `xyz_live_…`, `abc-…`.
static PREFIXED_TOKEN: LazyLock<Regex> =
    LazyLock::new(|| super::re(r"\b[a-z]{2,10}[_\-](?:[a-z]{2,8}[_\-])?([A-Za-z0-9]{20,})\b"));

fn has_secret(words: &str) -> bool {
    VENDOR_TOKENS.find_iter(words).any(|m| !is_filler(m.as_str()))
        || spaced_vendor_token(words)
        || URL_PASSWORD
            .captures_iter(words)
            .any(|c| !is_placeholder(&c[2]) && !c[2].chars().all(|ch| ch.is_ascii_digit()))
        || URL_SECRET_PARAM.captures_iter(words).any(|c| secret_param(&c[1], &c[2]))
        || PREFIXED_TOKEN
            .captures_iter(words)
            .any(|c| looks_generated(&c[1]) && has_digit_and_letter(&c[1]))
        || LABELLED_ASSIGNMENT.captures_iter(words).any(|c| looks_generated_with_symbols(&c[1]))
        || TOKEN.find_iter(words).any(|m| {
            let token = trim_token(m.as_str());
            let line_before = tail(words[..m.start()].rsplit('\n').next().unwrap_or_default(), 80);
            if is_ssh_public_key(token)
                || in_public_pem(words, m.start())
                || in_public_jwk(words, m.start())
                || DIGEST_PREFIX.is_match(tail(line_before, 8))
                || DIGEST_PREFIX.is_match(head(token, 7))
            {
                return false;
            }
            // `Accepted publickey for opc … SHA256:…`: a random-looking value
            // on a line about public material needs a secret's label.
            (looks_random_unlabelled(token) && !PUBLIC_LABEL.is_match(line_before))
                || (looks_secret_value(token) && labelled(words, m.start(), m.end()))
        })
}

/// `sk-proj- abcd EFGH 1234 …`: a vendor's prefix, then its token's body
/// in groups set apart by spaces (as read out, or to slip past a pattern),
/// read joined.
fn spaced_vendor_token(words: &str) -> bool {
    static SPACED: LazyLock<Regex> = LazyLock::new(|| {
        super::re(
            r"\b(sk-(?:proj-|ant-api\d\d-|svcacct-|admin-)?|gh[pousr]_|github_pat_|glpat-|xox[abposre]-|AKIA|ASIA|AIza|hf_|gsk_|pplx-|xai-|r8_|npm_)\s*((?:[A-Za-z0-9_]{2,8}[ \-]+){3,}[A-Za-z0-9_]{2,8})",
        )
    });
    SPACED.captures_iter(words).any(|c| {
        let body: String = c[2].chars().filter(|ch| !matches!(ch, ' ' | '-')).collect();
        let joined = format!("{}{body}", &c[1]);
        VENDOR_TOKENS.find(&joined).is_some_and(|m| !is_filler(m.as_str()))
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

/// A value with a key word before it (same sentence, up to 40 characters)
/// or right after it, and no digest word directly before it.
fn labelled(words: &str, start: usize, end: usize) -> bool {
    let ends_sentence = |c: char| matches!(c, '\n' | ';' | '。' | '!' | '?');
    let sentence_start = words[..start]
        .char_indices()
        .rev()
        .find(|&(_, c)| ends_sentence(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let before = tail(&words[sentence_start..start], 40);
    let after = head(&words[end..], 24);
    let after = after.split(ends_sentence).next().unwrap_or("");
    let near_before = tail(before, 14);
    if DIGEST_LABEL.is_match(near_before) && !SECRET_LABEL.is_match(near_before) {
        return false;
    }
    if PUBLIC_LABEL.is_match(before) || PUBLIC_LABEL.is_match(after) {
        return false;
    }
    // After the value, a label names it only before the next key
    // (`X is my token`, not `"qwen2.5", "usage": {"prompt_tokens"`), and
    // only when it is no key itself (`model: qwen2.5-14b api_key: EMPTY`,
    // a config whose line breaks were folded).
    let names_it = |label: regex::Match| {
        let next_key = after[label.end()..].trim_start_matches(['"', '\'']).trim_start();
        !after[..label.start()].contains([':', '=', ',', '{', '"'])
            && !next_key.starts_with([':', '='])
    };
    SECRET_LABEL.is_match(before) || SECRET_LABEL.find(after).is_some_and(names_it)
}

/// The last `n` characters of `s`.
fn tail(s: &str, n: usize) -> &str {
    let start = s.char_indices().rev().nth(n.saturating_sub(1)).map_or(0, |(i, _)| i);
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

/// A shell or template variable (`$PASS`, `${PASS}`, `$(cat pw.txt)`), an
/// environment variable's name (`KAFKA_PASSWORD`) or a read of one
/// (`os.environ["…"]`, `process.env.PASS`), not a value: `$g$iD86eXr48` is
/// a value, with a `$` inside.
pub(super) fn is_variable(value: &str) -> bool {
    let dollar = value.strip_prefix('$').is_some_and(|rest| {
        rest.starts_with(['{', '('])
            || (!rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    });
    // `SMTP_PASS= SMTP_TLS=true`: an empty value, then the next setting.
    let name = value.split_once('=').map_or(value, |(name, _)| name);
    let secret_suffix = ["_PASSWORD", "_PASS", "_PWD", "_TOKEN", "_KEY", "_SECRET", "_CREDENTIALS"];
    let env_name = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && (secret_suffix.iter().any(|s| name.ends_with(s))
            || (name.contains('_') && value.contains('=')));
    let lower = value.to_ascii_lowercase();
    let env_read =
        ["os.environ", "os.getenv", "getenv(", "process.env", "env(", "env[", "system.getenv"]
            .iter()
            .any(|r| lower.starts_with(r));
    dollar || env_name || env_read
}

/// A stand-in rather than a value: `***`, `xxx`, `<password>`, `${PASS}`.
pub(super) fn is_placeholder(value: &str) -> bool {
    let v = value.trim_matches(|c: char| matches!(c, '\'' | '"' | '(' | ')' | '[' | ']'));
    let lower = v.to_ascii_lowercase();
    v.is_empty()
        || v.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '.' | '#' | '?' | '-' | '_' | '…'))
        || v.starts_with('<')
        || is_variable(v)
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
                | "filtered"
                | "masked"
                | "string"
                | "str"
                | "secretstr"
                | "securestring"
                | "yes"
                | "no"
                | "true"
                | "false"
                | "nil"
                | "undefined"
                | "required"
                | "optional"
                | "valuefrom"
                | "secretkeyref"
        )
}

/// `Timeout=30` after `Password=`: an empty setting, then the next one
/// (a config file whose line breaks were folded into spaces), named as
/// connection settings are named.
pub(super) fn is_next_setting(value: &str) -> bool {
    const SETTINGS: &[&str] = &[
        "timeout",
        "port",
        "host",
        "server",
        "database",
        "db",
        "dbname",
        "user",
        "username",
        "uid",
        "name",
        "charset",
        "encoding",
        "ssl",
        "sslmode",
        "socket",
        "schema",
        "driver",
        "lang",
        "client",
        "mode",
        "path",
        "url",
        "uri",
        "retries",
        "pool",
        "poolsize",
        "connecttimeout",
        "connection_timeout",
        "max_connections",
        "namespace",
        "domain",
    ];
    value
        .split_once('=')
        .is_some_and(|(name, _)| SETTINGS.contains(&name.to_ascii_lowercase().as_str()))
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
    let words = token.split(['_', '-', '.', '/']).filter(|part| is_wordish(part)).count();
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
/// (`ProcessRecipeLifecycle2Handler3Impl` holds six), counted only when
/// such words make up most of its letters: a generated value's capitals
/// also start runs of small letters (`QPRZOPTieaMFTjBunxdjbJCtopx2KJoi`
/// holds `Tiea`, `Bunxdjb`, `Ctopx`), among capitals that start none, and
/// its runs are often unpronounceable (`nxdjb`).
fn camel_words(token: &str) -> usize {
    let chars: Vec<char> = token.chars().collect();
    let (mut count, mut covered) = (0, 0);
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_uppercase() {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_lowercase() {
                j += 1;
            }
            if j - i >= 4 && has_vowel(&chars[i..j]) && longest_consonant_run(&chars[i..j]) <= 4 {
                count += 1;
                covered += j - i;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    let letters = chars.iter().filter(|c| c.is_ascii_alphabetic()).count();
    if covered * 5 >= letters * 3 { count } else { 0 }
}

/// The most consonants in a row (`y` counts as a vowel: `Rhythm`, `Glycol`).
fn longest_consonant_run(chars: &[char]) -> usize {
    let consonant = |c: &char| c.is_ascii_alphabetic() && !"aeiouyAEIOUY".contains(*c);
    chars.split(|c| !consonant(c)).map(<[char]>::len).max().unwrap_or(0)
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
    let (digit_runs, letter_runs) =
        (runs(token, |c| c.is_ascii_digit()), runs(token, |c| c.is_ascii_alphabetic()));
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
        assert!(!looks_like_name("QPRZOPTieaMFTjBunxdjbJCtopx2KJoi"));
        assert!(looks_like_name("MyHTTPServerConfigV2Handler"));
        assert!(looks_like_name("StrengthTestSchwarzwald"));
    }

    #[test]
    fn a_value_after_a_wide_full_stop_is_read_without_a_panic() {
        assert!(has_secret("记一下。然后 key 是 aB3dE5gH7jK9mN1pQ"));
        assert!(!has_secret("好的。以后看报告都先说结果"));
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
    fn public_pem_blocks_are_no_secret() {
        let body = "C6BOxZZzbXKXtQU79dZPjcxwUgMLdqX6h7e9LONoYCWCNoQEtuizS/Ro3kc/";
        assert!(has_secret(&format!("token: {body}")));
        for kind in ["CERTIFICATE", "PUBLIC KEY"] {
            let pem = format!("-----BEGIN {kind}-----\n{body}\n-----END {kind}-----");
            assert!(!has_secret(&pem), "{kind}");
        }
    }
}
