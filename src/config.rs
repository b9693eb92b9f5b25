//! Configuration in two phases, as spec §9 layers it: figment merges the raw
//! values (built-in defaults, a file, `DREAMD_…` variables), then
//! [`RawConfig::validate`] turns them into the typed [`Config`] every other
//! module takes. Every error names the key and where its value came from.

use crate::detect::{Detector, ExtraPattern};
use crate::domain::{Kind, KindPolicy, Rules, Scope};
use crate::error::Error;
use crate::text::mask_url_secrets;
use figment::Figment;
use figment::providers::{Env, Format, Toml};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The built-in defaults, compiled in so a fresh machine needs no file.
pub const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// The file read when neither `--config` nor `DREAMD_CONFIG` names one.
pub const SYSTEM_CONFIG: &str = "/etc/dreamd/dreamd.toml";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConfig {
    pub database: DatabaseSection,
    pub schedule: ScheduleSection,
    pub selection: SelectionSection,
    pub llm: LlmSection,
    pub policy: PolicySection,
    pub prompts: PromptsSection,
    pub log: LogSection,
    pub metrics: MetricsSection,
    pub mcp: McpSection,
    pub never_store: NeverStoreSection,
    pub http: HttpSection,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseSection {
    pub url: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleSection {
    pub cron: String,
    pub run_on_start: bool,
    pub shutdown_timeout_secs: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectionSection {
    pub idle_hours: u32,
    pub lookback_days: u32,
    pub context_messages: u32,
    pub max_conversations_per_run: u32,
    pub claim_ttl_secs: u64,
    pub max_attempts: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    Rules,
    Openai,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructuredOutput {
    JsonSchema,
    JsonObject,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmSection {
    pub provider: Provider,
    pub base_url: String,
    pub model: String,
    pub api_key_env: String,
    pub structured_output: StructuredOutput,
    pub timeout_secs: u64,
    pub max_retries: u32,
    pub concurrency: u32,
    pub max_prompt_tokens: u32,
    pub max_tokens_per_run: u64,
    /// A number, or `"none"` to send no temperature (reasoning models refuse any but their default).
    pub temperature: TemperatureSetting,
    /// The embedding model recall blends with lexical relevance; empty: off.
    pub embedding_model: String,
}

/// `llm.temperature` as written: a number, or the word `none` (spec §10.26).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TemperatureSetting {
    Number(f64),
    Word(String),
}

impl TemperatureSetting {
    /// The temperature to send, or `None` to send none; `Err` names what is wrong.
    fn value(&self) -> Result<Option<f32>, String> {
        match self {
            TemperatureSetting::Number(t) if (0.0..=2.0).contains(t) => Ok(Some(*t as f32)),
            TemperatureSetting::Number(t) => Err(format!("{t} is not between 0 and 2")),
            TemperatureSetting::Word(w) if w == "none" => Ok(None),
            TemperatureSetting::Word(w) => Err(format!(
                "'{w}' is neither a number from 0 to 2 nor \"none\" (send no temperature)"
            )),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicySection {
    pub slip_ttl_days: u32,
    pub domains: Vec<String>,
    pub max_slips_per_group: u32,
    pub suggestion_cooldown_days: u32,
    pub kinds: BTreeMap<String, KindPolicy>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptsSection {
    pub dir: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSection {
    pub format: LogFormat,
    pub level: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsSection {
    pub listen: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpSection {
    pub users: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NeverStoreSection {
    pub extra: Vec<ExtraNeverStore>,
}

/// An operator's own never-store category: a name and a regular expression
/// run on the detection view of every text dreamd would store (spec §9).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraNeverStore {
    pub name: String,
    pub pattern: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpSection {
    pub listen: String,
    pub tokens: Vec<HttpToken>,
    pub header_timeout_secs: u64,
    pub body_timeout_secs: u64,
    pub max_connections: u32,
}

/// One bearer token of the HTTP API (spec §13): the variable that holds it
/// (never the token itself) and the user ids it may act for (`*` for all).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HttpToken {
    pub token_env: String,
    pub users: Vec<String>,
}

/// The most connections `http.max_connections` may allow: beyond it a
/// server runs out of file descriptors before it reaches the cap.
const MAX_HTTP_CONNECTIONS: u32 = 65_536;

/// The HTTP API and review pages (`http`, spec §13).
#[derive(Debug, Clone)]
pub struct Http {
    /// Where to serve (`http.listen`); off when absent.
    pub listen: Option<std::net::SocketAddr>,
    /// The tokens, by the variables that hold them; read at start-up.
    pub tokens: Vec<HttpToken>,
    pub limits: ConnectionLimits,
}

/// What keeps slow, idle or numerous clients from holding the HTTP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// How long a client has to send a request's headers, from its first
    /// byte or, on a kept-alive connection, from the previous answer
    /// (`http.header_timeout_secs`); then the connection is closed.
    pub header_timeout: std::time::Duration,
    /// How long a request's body may take to arrive, from the end of its
    /// headers (`http.body_timeout_secs`); then it is refused with 408.
    pub body_timeout: std::time::Duration,
    /// Connections served at once (`http.max_connections`); more wait in the
    /// listen queue until one ends.
    pub max_connections: u32,
}

/// Where the database lives, parsed from `database.url` (spec §10.16).
#[derive(Clone, PartialEq, Eq)]
pub enum DatabaseUrl {
    Sqlite(PathBuf),
    /// Kept whole for the driver; may hold a password, so never printed as is.
    Postgres(String),
}

impl std::fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatabaseUrl::Sqlite(p) => write!(f, "Sqlite({p:?})"),
            DatabaseUrl::Postgres(url) => write!(f, "Postgres({})", mask_url_secrets(url)),
        }
    }
}

impl DatabaseUrl {
    pub fn parse(url: &str) -> Result<DatabaseUrl, String> {
        if let Some(path) = url.strip_prefix("sqlite://") {
            if path.is_empty() {
                return Err("a sqlite URL needs a file path, e.g. sqlite://dreamd.db".into());
            }
            return Ok(DatabaseUrl::Sqlite(PathBuf::from(path)));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(DatabaseUrl::Postgres(url.to_owned()));
        }
        Err(format!(
            "'{}' is not a supported database URL; use sqlite://PATH or postgres://…",
            mask_url_secrets(url)
        ))
    }
}

/// The validated configuration every module takes: typed values (durations,
/// addresses, the policy's rules built once), never the raw strings.
#[derive(Debug, Clone)]
pub struct Config {
    raw: RawConfig,
    pub database: DatabaseUrl,
    pub schedule: Schedule,
    pub selection: Selection,
    pub llm: Llm,
    pub policy: Policy,
    /// A directory of prompt overrides (`prompts.dir`), when set.
    pub prompts_dir: Option<PathBuf>,
    pub log: LogSection,
    /// Where to serve Prometheus metrics (`metrics.listen`), when set.
    pub metrics_listen: Option<std::net::SocketAddr>,
    /// The users `dreamd mcp` may touch (`mcp.users`); `*` for all.
    pub mcp_users: Vec<String>,
    pub http: Http,
}

#[derive(Debug, Clone)]
pub struct Schedule {
    /// Six fields, seconds first; checked against the scheduler's parser.
    pub cron: String,
    pub run_on_start: bool,
    pub shutdown_timeout: std::time::Duration,
}

#[derive(Debug, Clone)]
pub struct Selection {
    pub idle: chrono::Duration,
    pub lookback: chrono::Duration,
    pub context_messages: u32,
    pub max_conversations_per_run: u32,
    pub claim_ttl: chrono::Duration,
    pub max_attempts: u32,
}

#[derive(Debug, Clone)]
pub struct Llm {
    pub provider: Provider,
    pub base_url: String,
    pub model: String,
    /// The name of the variable holding the API key, never the key.
    pub api_key_env: String,
    pub structured_output: StructuredOutput,
    pub timeout: std::time::Duration,
    pub max_retries: u32,
    pub concurrency: usize,
    pub max_prompt_tokens: u64,
    pub max_tokens_per_run: u64,
    /// The temperature to send, or `None` to send none (spec §10.26).
    pub temperature: Option<f32>,
    /// The model that embeds memories and queries at `base_url`'s
    /// `/embeddings` (spec §10.25); `None`: recall ranks lexically only.
    pub embedding_model: Option<String>,
}

impl Llm {
    /// The API key from `api_key_env`; `None` when the variable is unset
    /// or blank, which one word covers everywhere (`check`, the run's
    /// warning, `config`): an empty variable is no key (ops round 4, L8).
    pub fn api_key(&self) -> Option<String> {
        std::env::var(&self.api_key_env).ok().filter(|key| !key.trim().is_empty())
    }

    /// The key's state in words: `set`, or why there is none.
    pub fn api_key_state(&self) -> &'static str {
        match std::env::var_os(&self.api_key_env) {
            None => "not set",
            Some(_) if self.api_key().is_none() => "empty",
            Some(_) => "set",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Policy {
    pub rules: Rules,
    pub slip_ttl: chrono::Duration,
    pub domains: Vec<String>,
    pub max_slips_per_group: usize,
}

impl Config {
    /// Loads the layers of spec §9: defaults, then `file` (or `DREAMD_CONFIG`, or
    /// [`SYSTEM_CONFIG`] when it exists), then `DREAMD_<SECTION>__<KEY>` variables.
    pub fn load(file: Option<&Path>) -> Result<Config, Error> {
        let env_file = std::env::var_os("DREAMD_CONFIG").map(PathBuf::from);
        let file = match file.map(Path::to_path_buf).or(env_file) {
            Some(path) if !path.is_file() => {
                return Err(Error::Config(format!(
                    "config file {} does not exist or is not a file",
                    path.display()
                )));
            }
            Some(path) => Some(path),
            None => Some(PathBuf::from(SYSTEM_CONFIG)).filter(|p| p.is_file()),
        };
        if let Some(path) = &file {
            check_readable(path)?;
        }
        let figment = layered(file.as_deref());
        let raw: RawConfig = figment.extract().map_err(describe_figment_error)?;
        raw.validate(&figment)
    }

    /// The built-in defaults with `overrides` (TOML) on top, and nothing from
    /// the environment: a configuration for tests and embedders.
    pub fn from_toml(overrides: &str) -> Result<Config, Error> {
        let figment = Figment::from(Toml::string(DEFAULT_TOML)).merge(Toml::string(overrides));
        let raw: RawConfig = figment.extract().map_err(describe_figment_error)?;
        raw.validate(&figment)
    }

    /// The never-store detectors with the operator's patterns.
    pub fn detector(&self) -> &Detector {
        &self.policy.rules.detector
    }

    /// The kind's policy; every kind has one after validation.
    pub fn kind(&self, kind: Kind) -> &KindPolicy {
        self.policy.rules.kind(kind)
    }

    /// The effective configuration as TOML with secrets masked, for `dreamd config`.
    pub fn to_masked(&self) -> RawConfig {
        let mut raw = self.raw.clone();
        raw.database.url = mask_url_secrets(&raw.database.url);
        raw.llm.base_url = mask_url_secrets(&raw.llm.base_url);
        raw
    }
}

/// Reads the file once before figment does: figment reports a file it cannot
/// read without its name and as a bad value (exit 2), while a file that cannot
/// be read is an I/O failure (exit 1, spec §10.2) and one that is not UTF-8
/// text is bad input (exit 2), both named.
fn check_readable(path: &Path) -> Result<(), Error> {
    match std::fs::read_to_string(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            Err(Error::Config(format!("config file {} is not UTF-8 text", path.display())))
        }
        Err(e) => Err(Error::io(format!("reading config file {}", path.display()))(e)),
    }
}

fn layered(file: Option<&Path>) -> Figment {
    let mut figment = Figment::from(Toml::string(DEFAULT_TOML));
    if let Some(path) = file {
        figment = figment.merge(Toml::file_exact(path));
    }
    let exempt = exempt_env_key(&figment.clone().merge(config_env(None)));
    figment.merge(config_env(exempt))
}

fn days(n: u32) -> chrono::Duration {
    chrono::Duration::days(i64::from(n))
}

/// The environment provider: `DREAMD_` variables with `__` (spec §10.3),
/// minus the one that holds the API key.
fn config_env(exempt: Option<String>) -> Env {
    Env::prefixed("DREAMD_")
        .filter(move |key| {
            let key = key.as_str();
            key.contains("__") && exempt.as_deref().is_none_or(|e| !key.eq_ignore_ascii_case(e))
        })
        .split("__")
}

/// The variable named by `llm.api_key_env`, as figment sees it after the prefix,
/// when that name itself starts with `DREAMD_`.
fn exempt_env_key(figment: &Figment) -> Option<String> {
    let name: String = figment.extract_inner("llm.api_key_env").ok()?;
    let upper = name.to_ascii_uppercase();
    upper.strip_prefix("DREAMD_").map(str::to_owned)
}

/// Where a key's value came from, in words an operator can act on.
fn source_of(figment: &Figment, key: &str) -> String {
    match figment.find_metadata(key) {
        Some(meta) => describe_source(meta, key),
        None => "the built-in defaults".into(),
    }
}

fn describe_source(meta: &figment::Metadata, key: &str) -> String {
    match &meta.source {
        Some(figment::Source::File(path)) => format!("file {}", path.display()),
        _ if meta.name.contains("environment") => {
            format!("environment variable {}", env_var_name(key))
        }
        _ => "the built-in defaults".into(),
    }
}

fn env_var_name(key: &str) -> String {
    format!("DREAMD_{}", key.replace('.', "__").to_ascii_uppercase())
}

fn describe_figment_error(error: figment::Error) -> Error {
    let messages: Vec<String> = error
        .into_iter()
        .map(|e| {
            let mut key = e.path.join(".");
            let what = match &e.kind {
                figment::error::Kind::UnknownField(field, expected) => {
                    if e.path.last() != Some(field) {
                        key = [key.as_str(), field].join(".").trim_start_matches('.').to_owned();
                    }
                    format!("unknown key; expected one of: {}", expected.join(", "))
                }
                kind => kind.to_string(),
            };
            let source = e
                .metadata
                .as_ref()
                .map(|m| describe_source(m, &key))
                .unwrap_or_else(|| "the configuration".into());
            if key.is_empty() {
                return format!("{source}: {}", without_quoted_lines(&what));
            }
            format!("{key}: {what} (from {source})")
        })
        .collect();
    Error::Config(messages.join("; "))
}

/// A parser's message on one line, without the lines it quotes from the
/// file (`3 | api_key = sk-…` and its caret): the file may hold a secret
/// typed in the wrong place, and the message goes to the journal (ops
/// round 4, L1). What is left says where and what: `TOML parse error at
/// line 3, column 11: invalid string, expected `"`, `'``.
fn without_quoted_lines(message: &str) -> String {
    let quoted = |line: &str| {
        let line = line.trim_start();
        line.starts_with('|')
            || line.split_once('|').is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
    };
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty() && !quoted(l));
    let first = lines.next().unwrap_or("the file does not parse").to_owned();
    let rest: Vec<&str> = lines.collect();
    if rest.is_empty() { first } else { format!("{first}: {}", rest.join(", ")) }
}

impl RawConfig {
    /// Checks what types alone cannot, and builds the typed [`Config`].
    pub fn validate(self, figment: &Figment) -> Result<Config, Error> {
        let bad = |key: &str, why: String| {
            Error::Config(format!("{key}: {why} (from {})", source_of(figment, key)))
        };
        let database =
            DatabaseUrl::parse(&self.database.url).map_err(|e| bad("database.url", e))?;
        check_cron(&self.schedule.cron).map_err(|e| bad("schedule.cron", e))?;
        for (key, value) in [
            ("llm.concurrency", u64::from(self.llm.concurrency)),
            ("llm.max_prompt_tokens", u64::from(self.llm.max_prompt_tokens)),
            ("llm.timeout_secs", self.llm.timeout_secs),
            (
                "selection.max_conversations_per_run",
                u64::from(self.selection.max_conversations_per_run),
            ),
            ("selection.claim_ttl_secs", self.selection.claim_ttl_secs),
            ("selection.max_attempts", u64::from(self.selection.max_attempts)),
            ("selection.lookback_days", u64::from(self.selection.lookback_days)),
            ("policy.max_slips_per_group", u64::from(self.policy.max_slips_per_group)),
            ("policy.slip_ttl_days", u64::from(self.policy.slip_ttl_days)),
        ] {
            if value == 0 {
                return Err(bad(key, "must be at least 1".into()));
            }
        }
        if self.llm.provider == Provider::Openai && self.llm.model.trim().is_empty() {
            return Err(bad(
                "llm.model",
                "must name a model when llm.provider is \"openai\"".into(),
            ));
        }
        if self.llm.api_key_env.trim().is_empty() {
            return Err(bad("llm.api_key_env", "must name an environment variable".into()));
        }
        for domain in &self.policy.domains {
            Scope::check_name(domain).map_err(|e| bad("policy.domains", e))?;
        }
        let kinds = self.kind_policies(&bad)?;
        check_log_level(&self.log.level).map_err(|e| bad("log.level", e))?;
        if !self.metrics.listen.is_empty()
            && self.metrics.listen.parse::<std::net::SocketAddr>().is_err()
        {
            return Err(bad(
                "metrics.listen",
                format!("'{}' is not an address like 127.0.0.1:9464", self.metrics.listen),
            ));
        }
        let http = self.http(&bad)?;
        let temperature = self.llm.temperature.value().map_err(|e| bad("llm.temperature", e))?;
        let metrics_listen = self.metrics.listen.parse().ok();
        let rules = Rules {
            kinds,
            suggestion_cooldown: days(self.policy.suggestion_cooldown_days),
            detector: self.detector(&bad)?,
        };
        Ok(Config {
            database,
            schedule: Schedule {
                cron: self.schedule.cron.clone(),
                run_on_start: self.schedule.run_on_start,
                shutdown_timeout: std::time::Duration::from_secs(
                    self.schedule.shutdown_timeout_secs,
                ),
            },
            selection: Selection {
                idle: chrono::Duration::hours(i64::from(self.selection.idle_hours)),
                lookback: days(self.selection.lookback_days),
                context_messages: self.selection.context_messages,
                max_conversations_per_run: self.selection.max_conversations_per_run,
                claim_ttl: chrono::Duration::seconds(self.selection.claim_ttl_secs as i64),
                max_attempts: self.selection.max_attempts,
            },
            llm: Llm {
                provider: self.llm.provider,
                base_url: self.llm.base_url.clone(),
                model: self.llm.model.clone(),
                api_key_env: self.llm.api_key_env.clone(),
                structured_output: self.llm.structured_output,
                timeout: std::time::Duration::from_secs(self.llm.timeout_secs),
                max_retries: self.llm.max_retries,
                concurrency: self.llm.concurrency as usize,
                max_prompt_tokens: u64::from(self.llm.max_prompt_tokens),
                max_tokens_per_run: self.llm.max_tokens_per_run,
                temperature,
                embedding_model: Some(self.llm.embedding_model.trim().to_owned())
                    .filter(|m| !m.is_empty()),
            },
            policy: Policy {
                rules,
                slip_ttl: days(self.policy.slip_ttl_days),
                domains: self.policy.domains.clone(),
                max_slips_per_group: self.policy.max_slips_per_group as usize,
            },
            prompts_dir: Some(PathBuf::from(&self.prompts.dir))
                .filter(|_| !self.prompts.dir.is_empty()),
            log: self.log.clone(),
            metrics_listen,
            mcp_users: self.mcp.users.clone(),
            http,
            raw: self,
        })
    }

    /// `http.listen` as an address and every `http.tokens` entry complete;
    /// whether the variables are set is checked when the server starts.
    fn http(&self, bad: &dyn Fn(&str, String) -> Error) -> Result<Http, Error> {
        let listen = match self.http.listen.as_str() {
            "" => None,
            text => Some(text.parse().map_err(|_| {
                bad("http.listen", format!("'{text}' is not an address like 127.0.0.1:8464"))
            })?),
        };
        for (i, token) in self.http.tokens.iter().enumerate() {
            let entry = i + 1;
            if token.token_env.trim().is_empty() {
                return Err(bad(
                    "http.tokens",
                    format!(
                        "entry {entry} needs token_env: the environment variable holding the token"
                    ),
                ));
            }
            if token.users.is_empty() || token.users.iter().any(|u| u.trim().is_empty()) {
                return Err(bad(
                    "http.tokens",
                    format!(
                        "entry {entry} ({}) needs users: the user ids it may act for, or [\"*\"]",
                        token.token_env
                    ),
                ));
            }
        }
        if self.http.header_timeout_secs == 0 {
            return Err(bad("http.header_timeout_secs", "must be at least 1".into()));
        }
        if self.http.body_timeout_secs == 0 {
            return Err(bad("http.body_timeout_secs", "must be at least 1".into()));
        }
        if !(1..=MAX_HTTP_CONNECTIONS).contains(&self.http.max_connections) {
            return Err(bad(
                "http.max_connections",
                format!("must be from 1 to {MAX_HTTP_CONNECTIONS}"),
            ));
        }
        let limits = ConnectionLimits {
            header_timeout: std::time::Duration::from_secs(self.http.header_timeout_secs),
            body_timeout: std::time::Duration::from_secs(self.http.body_timeout_secs),
            max_connections: self.http.max_connections,
        };
        Ok(Http { listen, tokens: self.http.tokens.clone(), limits })
    }

    /// The built-in detectors plus `never_store.extra`; a bad entry is named.
    fn detector(&self, bad: &dyn Fn(&str, String) -> Error) -> Result<Detector, Error> {
        let mut extra = Vec::new();
        for (i, entry) in self.never_store.extra.iter().enumerate() {
            let key = "never_store.extra";
            if entry.name.trim().is_empty() {
                return Err(bad(
                    key,
                    format!("entry {} needs a name (what the pattern protects)", i + 1),
                ));
            }
            let regex = regex::Regex::new(&entry.pattern).map_err(|e| {
                bad(
                    key,
                    format!(
                        "entry {} ('{}'): the pattern is not a regular expression: {e}",
                        i + 1,
                        entry.name
                    ),
                )
            })?;
            extra.push(ExtraPattern { name: entry.name.clone(), regex });
        }
        Ok(Detector::new(extra))
    }

    fn kind_policies(
        &self,
        bad: &dyn Fn(&str, String) -> Error,
    ) -> Result<BTreeMap<Kind, KindPolicy>, Error> {
        let mut kinds = BTreeMap::new();
        for (name, policy) in &self.policy.kinds {
            let key = format!("policy.kinds.{name}");
            let kind: Kind = name.parse().map_err(|e| bad(&key, e))?;
            if policy.auto && matches!(kind, Kind::Terminology | Kind::QueryDefault) {
                return Err(bad(
                    &format!("{key}.auto"),
                    format!(
                        "cannot be true: {kind} changes what a business query means, so only people set it (dreamd makes suggestions)"
                    ),
                ));
            }
            if policy.min_evidence == 0 {
                return Err(bad(&format!("{key}.min_evidence"), "must be at least 1".into()));
            }
            kinds.insert(kind, policy.clone());
        }
        if let Some(missing) = Kind::ALL.iter().find(|k| !kinds.contains_key(k)) {
            return Err(bad("policy.kinds", format!("has no entry for kind '{missing}'")));
        }
        Ok(kinds)
    }
}

/// Checks `log.level`: a level (`off`, `error`, `warn`, `info`, `debug`,
/// `trace`), or comma-separated directives that each end in `=level`
/// (`info,dreamd::run=debug`). The tracing filter alone is not enough: it
/// reads a word it does not know (`warning`) as a target to log at every
/// level, which silently switches off every other log line.
fn check_log_level(level: &str) -> std::result::Result<(), String> {
    let directives: Vec<&str> = level.split(',').map(str::trim).filter(|d| !d.is_empty()).collect();
    if directives.is_empty() {
        return Err("is empty: use a level such as \"info\"".into());
    }
    for directive in directives {
        let named = directive.rsplit_once('=').map_or(directive, |(_, level)| level);
        if named.is_empty() || named.parse::<tracing_subscriber::filter::LevelFilter>().is_err() {
            return Err(format!(
                "'{directive}' is neither a level (off, error, warn, info, debug, trace) nor a directive ending in one (e.g. dreamd=debug)"
            ));
        }
    }
    tracing_subscriber::EnvFilter::try_new(level)
        .map(|_| ())
        .map_err(|e| format!("'{level}' is not a tracing filter: {e}"))
}

/// Checks a cron expression the way the scheduler will read it.
pub fn check_cron(cron: &str) -> std::result::Result<(), String> {
    tokio_cron_scheduler::Job::new_async(cron, |_, _| Box::pin(async {}))
        .map(|_| ())
        .map_err(|_| format!("'{cron}' is not a valid schedule: use 6 fields, seconds first (e.g. \"0 */15 * * * *\")"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_urls_parse_as_spec_10_16_says() {
        assert_eq!(
            DatabaseUrl::parse("sqlite://data/dreamd.db").unwrap(),
            DatabaseUrl::Sqlite("data/dreamd.db".into())
        );
        assert_eq!(
            DatabaseUrl::parse("sqlite:///var/lib/dreamd/dreamd.db").unwrap(),
            DatabaseUrl::Sqlite("/var/lib/dreamd/dreamd.db".into())
        );
        assert!(matches!(
            DatabaseUrl::parse("postgres://u@h/d").unwrap(),
            DatabaseUrl::Postgres(_)
        ));
        let err = DatabaseUrl::parse("mysql://u:pw@h/d").unwrap_err();
        assert!(err.contains("mysql://u:****@h/d"), "{err}");
        assert!(DatabaseUrl::parse("sqlite://").is_err());
    }

    #[test]
    fn only_people_may_set_terminology_and_query_defaults() {
        for kind in ["terminology", "query_default"] {
            let err = Config::from_toml(&format!(
                "[policy.kinds.{kind}]\nauto = true\nmin_evidence = 1\n"
            ))
            .unwrap_err()
            .to_string();
            assert!(err.contains(&format!("policy.kinds.{kind}.auto")), "{err}");
        }
    }

    #[test]
    fn operator_patterns_are_checked_and_named() {
        let config = Config::from_toml(
            "[never_store]\nextra = [{ name = \"customer\", pattern = \"(?i)acme\" }]\n",
        )
        .unwrap();
        assert_eq!(
            config.detector().scan("the ACME report").map(|f| f.name().to_owned()),
            Some("customer".to_owned())
        );
        let err = Config::from_toml(
            "[never_store]\nextra = [{ name = \"customer\", pattern = \"(unclosed\" }]\n",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("never_store.extra") && err.contains("customer"), "{err}");
    }

    #[test]
    fn http_tokens_are_complete_and_listen_is_an_address() {
        let config = Config::from_toml(
            "[http]\nlisten = \"127.0.0.1:0\"\ntokens = [{ token_env = \"T_JAY\", users = [\"jay\"] }]\n",
        )
        .unwrap();
        assert_eq!(config.http.listen, Some("127.0.0.1:0".parse().unwrap()));
        assert_eq!(config.http.tokens[0].users, ["jay"]);
        assert_eq!(Config::from_toml("").unwrap().http.listen, None);
        assert_eq!(
            Config::from_toml("").unwrap().http.limits,
            ConnectionLimits {
                header_timeout: std::time::Duration::from_secs(10),
                body_timeout: std::time::Duration::from_secs(10),
                max_connections: 512
            }
        );
        for (bad, key) in [
            ("listen = \"localhost\"", "http.listen"),
            ("tokens = [{ token_env = \"\", users = [\"jay\"] }]", "http.tokens"),
            ("tokens = [{ token_env = \"T\", users = [] }]", "http.tokens"),
            ("tokens = [{ token_env = \"T\", users = [\"jay\"], token = \"x\" }]", "token"),
            ("port = 80", "http.port"),
            ("header_timeout_secs = 0", "http.header_timeout_secs"),
            ("body_timeout_secs = 0", "http.body_timeout_secs"),
            ("max_connections = 0", "http.max_connections"),
        ] {
            let err = Config::from_toml(&format!("[http]\n{bad}\n")).unwrap_err().to_string();
            assert!(err.contains(key), "{bad}: {err}");
        }
    }

    #[test]
    fn temperature_is_a_number_or_none() {
        assert_eq!(Config::from_toml("").unwrap().llm.temperature, Some(0.0));
        assert_eq!(
            Config::from_toml("[llm]\ntemperature = \"none\"\n").unwrap().llm.temperature,
            None
        );
        assert_eq!(
            Config::from_toml("[llm]\ntemperature = 0.7\n").unwrap().llm.temperature,
            Some(0.7)
        );
        for bad in ["3", "\"hot\""] {
            let err = Config::from_toml(&format!("[llm]\ntemperature = {bad}\n"))
                .unwrap_err()
                .to_string();
            assert!(err.contains("llm.temperature"), "{err}");
        }
    }

    #[test]
    fn log_level_is_a_level_or_directives_that_end_in_one() {
        for good in ["info", "WARN", "off", "info,dreamd::run=debug", "dreamd=trace,sqlx=warn"] {
            let config = Config::from_toml(&format!("[log]\nlevel = \"{good}\"\n"));
            assert!(config.is_ok(), "{good}: {:?}", config.err());
        }
        for bad in ["warning", "verbose!!", "", "dreamd", "info,dreamd=", "dreamd=loud"] {
            let err =
                Config::from_toml(&format!("[log]\nlevel = \"{bad}\"\n")).unwrap_err().to_string();
            assert!(err.contains("log.level"), "{bad}: {err}");
        }
    }

    #[test]
    fn embeddings_are_off_unless_a_model_is_named() {
        assert_eq!(Config::from_toml("").unwrap().llm.embedding_model, None);
        assert_eq!(
            Config::from_toml("[llm]\nembedding_model = \"  \"\n").unwrap().llm.embedding_model,
            None
        );
        let on = Config::from_toml("[llm]\nembedding_model = \"bge-m3\"\n").unwrap();
        assert_eq!(on.llm.embedding_model.as_deref(), Some("bge-m3"));
    }

    #[test]
    fn the_built_in_defaults_are_valid_and_match_the_spec() {
        let figment = Figment::from(Toml::string(DEFAULT_TOML));
        let raw: RawConfig = figment.extract().unwrap();
        let config = raw.validate(&figment).unwrap();
        assert_eq!(config.selection.idle, chrono::Duration::hours(6));
        assert_eq!(config.llm.max_retries, 2);
        assert_eq!(config.kind(Kind::Presentation).min_evidence, 2);
        assert_eq!(config.kind(Kind::RecentFocus).ttl_days, Some(30));
        assert!(!config.kind(Kind::Terminology).auto);
        assert_eq!(config.kind(Kind::QueryDefault).ttl_days, None);
    }
}
