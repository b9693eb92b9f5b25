//! `dreamd config --check`: what the service needs, checked before it is
//! installed: the schedule, the database, the prompts and, for the `openai`
//! provider, the model endpoint. Each line says what is wrong and where.

use crate::cli::Format;
use crate::config::{Config, DatabaseUrl, Provider};
use crate::error::{Error, Result};
use crate::output::emit;
use crate::store::{PgStore, SqliteStore};
use crate::text::mask_url_secrets;
use serde::Serialize;
use std::fmt::Write;
use std::time::Duration;

#[derive(Debug, Serialize)]
pub struct Check {
    pub check: &'static str,
    pub ok: bool,
    pub detail: String,
    /// Failed for what is not the configuration's fault (a database or a
    /// model server that cannot be reached from here, I/O): exit 1, not 2.
    #[serde(skip)]
    pub not_the_configuration: bool,
}

/// A check's failure: what it says, and whether the configuration is at fault.
struct Failure {
    detail: String,
    not_the_configuration: bool,
}

impl From<String> for Failure {
    fn from(detail: String) -> Failure {
        Failure { detail, not_the_configuration: false }
    }
}

fn check(check: &'static str, result: std::result::Result<String, impl Into<Failure>>) -> Check {
    match result.map_err(Into::into) {
        Ok(detail) => Check { check, ok: true, detail, not_the_configuration: false },
        Err(Failure { detail, not_the_configuration }) => {
            Check { check, ok: false, detail, not_the_configuration }
        }
    }
}

/// Runs every check, prints the report, and fails if any failed: exit 2
/// when the configuration is at fault, 1 when only what it names cannot be
/// reached from here (spec §10.2).
pub async fn run(config: &Config, format: Format) -> Result<()> {
    let mut checks = vec![
        check(
            "schedule",
            Ok::<_, String>(format!("schedule.cron '{}' is valid", config.schedule.cron)),
        ),
        check("database", database(config).await),
        check("prompts", prompts(config)),
        check("model", model(config).await),
    ];
    if config.http.listen.is_some() || !config.http.tokens.is_empty() {
        checks.push(check("http", http_tokens(config)));
    }
    emit(format, &checks, |checks| {
        checks.iter().fold(String::new(), |mut out, c| {
            let _ = writeln!(
                out,
                "{:<4}  {:<8}  {}",
                if c.ok { "ok" } else { "FAIL" },
                c.check,
                c.detail
            );
            out
        })
    })?;
    let failed: Vec<&Check> = checks.iter().filter(|c| !c.ok).collect();
    let names = failed.iter().map(|c| c.check).collect::<Vec<_>>().join(", ");
    if failed.is_empty() {
        Ok(())
    } else if failed.iter().all(|c| c.not_the_configuration) {
        Err(Error::Io {
            context: "configuration check".into(),
            source: std::io::Error::other(format!(
                "{names} could not be reached from here; the configuration itself is valid"
            )),
        })
    } else {
        Err(Error::Invalid(format!("configuration check failed: {names}")))
    }
}

async fn database(config: &Config) -> std::result::Result<String, Failure> {
    match &config.database {
        DatabaseUrl::Sqlite(path) => sqlite(path).await,
        DatabaseUrl::Postgres(url) => PgStore::open(url)
            .await
            .map(|_| format!("PostgreSQL {} reachable, migrations applied", mask_url_secrets(url)))
            .map_err(|e| Failure {
                detail: e.to_string(),
                not_the_configuration: e.exit_code() == 1,
            }),
    }
}

/// A SQLite database as the service will find it, read without writing:
/// a check run as root in another directory must not create a database
/// there, nor leave files beside the service's that its user cannot open.
async fn sqlite(path: &std::path::Path) -> std::result::Result<String, Failure> {
    let shown = path.display();
    if !path.exists() {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        // Before the service's first start its state directory does not
        // exist either (systemd makes it): the install check runs then.
        return Ok(match dir {
            Some(dir) if !dir.is_dir() => format!(
                "SQLite {shown} does not exist yet, nor its directory {}: the unit's StateDirectory makes it at the first start (elsewhere, create it)",
                dir.display()
            ),
            _ => format!("SQLite {shown} does not exist yet; dreamd creates it at its first start"),
        });
    }
    let schema = SqliteStore::schema_untouched(path)
        .await
        .map_err(|e| Failure { detail: e.to_string(), not_the_configuration: true })?;
    if !schema.unknown.is_empty() || !schema.failed.is_empty() {
        return Err(format!(
            "SQLite {shown}: migrations {:?} are not this release's and {:?} failed; use the dreamd that wrote them",
            schema.unknown, schema.failed
        )
        .into());
    }
    Ok(match schema.missing.len() {
        0 => format!("SQLite {shown} readable, migrations current"),
        n => format!("SQLite {shown} readable; {n} migration(s) to apply at the next start"),
    })
}

/// The bearer tokens as the service reads them at start: every variable
/// set, long enough, and no token in two entries.
fn http_tokens(config: &Config) -> std::result::Result<String, String> {
    let tokens =
        crate::http::auth::Tokens::from_env(&config.http.tokens).map_err(|e| e.to_string())?;
    Ok(format!("{} bearer token(s) read from their variables", tokens.len()))
}

fn prompts(config: &Config) -> std::result::Result<String, String> {
    if let Some(dir) = config.prompts_dir.as_ref().filter(|d| !d.is_dir()) {
        return Err(format!("prompts.dir {} is not a directory", dir.display()));
    }
    let stage_one = crate::prompts::stage_one(config).map_err(|e| e.to_string())?;
    let consolidation = crate::prompts::consolidation(config).map_err(|e| e.to_string())?;
    let source = match &config.prompts_dir {
        None => "built in".to_owned(),
        Some(dir) => format!("from {}", dir.display()),
    };
    Ok(format!(
        "stage one {} tokens, consolidation {} tokens ({source})",
        crate::text::estimate_tokens(&stage_one),
        crate::text::estimate_tokens(&consolidation)
    ))
}

async fn model(config: &Config) -> std::result::Result<String, Failure> {
    let llm = &config.llm;
    if llm.provider == Provider::Rules {
        return Ok("llm.provider is \"rules\": offline, no model needed".into());
    }
    let key = llm.api_key().unwrap_or_default();
    let without_key = || format!("${}, which is {}", llm.api_key_env, llm.api_key_state());
    let client = reqwest::Client::builder()
        .timeout(llm.timeout.min(Duration::from_secs(15)))
        .build()
        .map_err(|e| e.to_string())?;
    let url = format!("{}/models", llm.base_url.trim_end_matches('/'));
    let shown = mask_url_secrets(&llm.base_url);
    let response = client.get(&url).bearer_auth(&key).send().await.map_err(|e| Failure {
        detail: format!("llm.base_url {shown} is unreachable: {}", e.without_url()),
        not_the_configuration: true,
    })?;
    match response.status().as_u16() {
        200..=299 if key.is_empty() => Ok(format!(
            "{shown} answered without an API key ({}; fine for a local server); model '{}'",
            without_key(),
            llm.model
        )),
        200..=299 => Ok(format!("{shown} answered; model '{}'", llm.model)),
        401 | 403 if key.is_empty() => Err(Failure::from(format!(
            "{shown} refused the request without an API key (HTTP {}); set {}",
            response.status().as_u16(),
            without_key()
        ))),
        401 | 403 => Err(Failure::from(format!(
            "{shown} refused the API key (HTTP {}); check ${}",
            response.status().as_u16(),
            llm.api_key_env
        ))),
        status => {
            Ok(format!("{shown} reachable (HTTP {status} for /models); model '{}'", llm.model))
        }
    }
}
