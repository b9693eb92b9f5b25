//! The command line of spec §8, as clap definitions only.

use crate::domain::{Kind, Scope, Time};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "dreamd",
    version,
    about = "Long-term memory for AI agents: note slips from idle conversations, merged into each user's memories",
    long_about = "Long-term memory for AI agents: note slips from idle conversations, merged into each user's memories.\n\nWith no command, dreamd runs on its schedule (schedule.cron) until SIGTERM or SIGINT."
)]
pub struct Cli {
    /// Configuration file (default: $DREAMD_CONFIG, then /etc/dreamd/dreamd.toml if present).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Output format; json prints one JSON document on stdout (and, for the service, JSON logs).
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Act as if the current time were this (RFC 3339).
    #[arg(long, global = true, value_name = "RFC3339", value_parser = parse_time)]
    pub now: Option<Time>,
    /// Perform one run (select → extract → sweep) and exit.
    #[arg(long)]
    pub run_once: bool,
    /// With --run-once: call the model as usual but write nothing; print what would be written.
    #[arg(long, requires = "run_once")]
    pub dry_run: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// A command line clap refused (or a request for help), ready to print.
#[derive(Debug)]
pub struct Refused {
    /// clap's message, without any value that was typed.
    pub message: String,
    pub code: i32,
    /// Help and version go to standard output, errors to standard error.
    pub on_stdout: bool,
}

impl Cli {
    /// The command line, or what clap said of it, except that no value
    /// typed is repeated: a secret or a phone number typed into the wrong
    /// option, or as a stray word, would otherwise be printed back and end
    /// up in a terminal log or a CI transcript.
    pub fn parse_quietly() -> Result<Cli, Refused> {
        use clap::CommandFactory;
        Cli::try_parse().map_err(|error| {
            let error = with_its_reason(error, &mut Cli::command());
            let typed: Vec<String> =
                std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
            Refused {
                message: without_the_values(&error.render().to_string(), &typed),
                code: error.exit_code(),
                on_stdout: !error.use_stderr(),
            }
        })
    }
}

/// A bad-value error told as which option and why (the reason of the
/// value parser, or the values it takes), not as the value.
fn with_its_reason(error: clap::Error, cmd: &mut clap::Command) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let kind = error.kind();
    if !matches!(kind, ErrorKind::InvalidValue | ErrorKind::ValueValidation) {
        return error;
    }
    let option = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(option)) => option.clone(),
        _ => "an option".to_string(),
    };
    let why = match (error.get(ContextKind::ValidValue), std::error::Error::source(&error)) {
        (Some(ContextValue::Strings(valid)), _) => format!("expected one of: {}", valid.join(", ")),
        (_, Some(reason)) => reason.to_string(),
        _ => "not accepted".to_string(),
    };
    clap::Error::raw(kind, format!("invalid value for '{option}': {why}\n")).with_cmd(cmd)
}

/// `message` with every quoted word the person typed (a value, a stray
/// word, a mistyped command) replaced; option names stay, so a typo in one
/// is still shown.
fn without_the_values(message: &str, typed: &[String]) -> String {
    typed
        .iter()
        .filter_map(|arg| match arg.strip_prefix('-') {
            Some(option) => option.split_once('=').map(|(_, value)| value),
            None => Some(arg.as_str()),
        })
        .filter(|value| !value.is_empty())
        .fold(message.to_owned(), |out, value| {
            out.replace(&format!("'{value}'"), "(a value, not repeated here)")
        })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    #[command(flatten)]
    Store(StoreCommand),
    /// Serve the memory tools to an agent over MCP (stdio).
    Mcp,
    /// Serve the HTTP API, MCP over HTTP and the review pages (spec §13) until SIGTERM/SIGINT.
    Serve {
        /// Listen here instead of http.listen (127.0.0.1:0: any free port, logged at start).
        #[arg(long, value_name = "ADDRESS")]
        listen: Option<std::net::SocketAddr>,
    },
    /// Which never-store category a text falls into (or `ok`), never the text itself.
    Detect {
        /// The text; `-` or nothing reads standard input and checks each line.
        text: Option<String>,
    },
    /// Print the effective configuration, secrets masked.
    Config {
        /// Check everything instead: schedule, database, prompts, model endpoint.
        #[arg(long)]
        check: bool,
    },
    /// Score extraction and consolidation on a golden set (spec §12), each case in a scratch database.
    Eval(EvalArgs),
}

/// The commands that work on the configured database.
#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Load messages from JSON Lines (a file, or - for standard input).
    Ingest {
        #[arg(value_name = "PATH|-")]
        path: String,
    },
    /// See and manage a user's memories.
    #[command(subcommand)]
    Memories(MemoriesCommand),
    /// Review what dreamd may not change on its own.
    #[command(subcommand)]
    Suggestions(SuggestionsCommand),
    /// See the note slips extracted from conversations.
    #[command(subcommand)]
    Slips(SlipsCommand),
    /// What an agent should load now for a user.
    Recall(RecallArgs),
    /// Which memories agents loaded into which conversations.
    #[command(subcommand)]
    Loads(LoadsCommand),
    /// Everything dreamd holds about a user.
    #[command(subcommand)]
    Users(UsersCommand),
    /// Copy everything to another database (e.g. SQLite to PostgreSQL), history included, claims left behind.
    Copy {
        /// The target database: postgres://… or sqlite://PATH.
        #[arg(long, value_name = "URL")]
        to: String,
        /// Add to a target that already holds data (refused otherwise).
        #[arg(long)]
        into_non_empty: bool,
    },
    /// Last runs, backlog, claims held and failed ranges.
    Status {
        /// How many recent runs to show.
        #[arg(long, default_value_t = 10)]
        runs: u32,
    },
}

#[derive(Debug, Subcommand)]
pub enum MemoriesCommand {
    /// A user's active memories (--all: every status, deleted ones as tombstones).
    List {
        #[arg(long)]
        user: String,
        #[arg(long)]
        all: bool,
    },
    /// One memory with its evidence: quotes, conversations, times.
    Show { id: String },
    /// Every change to a memory.
    History { id: String },
    /// Remember something a person asked for (an explicit memory).
    Set(SetArgs),
    /// A person's correction: new text; the memory becomes explicit, its history keeps the old text.
    Edit { id: String, text: String },
    /// Stop loading a memory; dreamd will not learn it again from old evidence.
    Disable { id: String },
    /// Load a disabled memory again.
    Enable { id: String },
    /// Erase a memory's text, history text and evidence; a tombstone remains.
    Delete { id: String },
}

#[derive(Debug, Args)]
pub struct SetArgs {
    #[arg(long)]
    pub user: String,
    #[arg(long, value_parser = parse_kind)]
    pub kind: Kind,
    #[arg(long, value_parser = parse_scope)]
    pub scope: Scope,
    #[arg(long, value_name = "RFC3339", value_parser = parse_time)]
    pub expires_at: Option<Time>,
    /// The conversation the person said it in (its source).
    #[arg(long)]
    pub conversation: Option<String>,
    /// The message it was said in (with --conversation).
    #[arg(long, requires = "conversation")]
    pub message: Option<String>,
    /// What to remember, in the user's words.
    pub text: String,
}

#[derive(Debug, Args)]
#[command(long_about = "Score extraction and consolidation on a golden set (spec §12).\n\n\
Each case runs in a fresh scratch SQLite database in the temporary folder, never the configured one, \
with the configured provider (llm.provider; llm.concurrency cases at a time): explicit memories, \
ingest, a run at each of its times, then what dreamd stored is compared with what the case expects. \
Prints slip precision, recall and F1, memory precision and recall, suggestions expected and made \
(per kind and per language), never-store leaks, invalid quotes, one-off slips kept, explicit \
memories changed and the recall hit rate (recall with each check's query and scopes, limit 5). \
Exit code 4 when a gate is missed, 2 for a bad golden file.")]
pub struct EvalArgs {
    /// The golden set: JSON Lines, one case per line (see eval/README.md).
    #[arg(value_name = "GOLDEN")]
    pub golden: PathBuf,
    /// Also write one JSON file per case (expected vs found) and report.json into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Gate: slip precision, overall and in every language, must be at least P (0 to 1).
    #[arg(long, value_name = "P", value_parser = parse_fraction)]
    pub min_precision: Option<f64>,
    /// Gate: slip recall, overall and in every language, must be at least R (0 to 1).
    #[arg(long, value_name = "R", value_parser = parse_fraction)]
    pub min_recall: Option<f64>,
    /// Gate: at most N never-store leaks (expected-absent strings found in stored text).
    #[arg(long, value_name = "N")]
    pub max_leaks: Option<u64>,
    /// Gate: the share of recall checks (each a query with scopes, limit 5) whose expected
    /// memory comes back, overall and in every language, must be at least H (0 to 1).
    #[arg(long, value_name = "H", value_parser = parse_fraction)]
    pub min_recall_hit_rate: Option<f64>,
}

#[derive(Debug, Subcommand)]
pub enum SuggestionsCommand {
    /// A user's pending suggestions (--all: decided ones too).
    List {
        #[arg(long)]
        user: String,
        #[arg(long)]
        all: bool,
    },
    /// Apply a suggestion as if the person had made the change.
    Accept { id: String },
    /// Turn a suggestion down; dreamd will not repeat it for the cooldown.
    Reject { id: String },
}

#[derive(Debug, Subcommand)]
pub enum SlipsCommand {
    /// A user's note slips with quotes, message ids and state.
    List {
        #[arg(long)]
        user: String,
        #[arg(long)]
        conversation: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct RecallArgs {
    #[arg(long)]
    pub user: String,
    /// A scope of the request (repeatable); global memories always apply.
    #[arg(long = "scope", value_parser = parse_scope)]
    pub scopes: Vec<Scope>,
    /// How many memories at most (default 5, at most 8).
    #[arg(long, default_value_t = 5)]
    pub limit: usize,
    /// Record the result as loaded into this conversation (then prints {"load_id", "memories"}).
    #[arg(long)]
    pub conversation: Option<String>,
    /// The user's request as the agent received it: how-to-answer memories
    /// (presentation, terminology, query defaults) come first, then
    /// background and recent focus ranked by relevance to it.
    #[arg(long, value_name = "TEXT")]
    pub query: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum LoadsCommand {
    /// A user's loads, optionally of one conversation.
    List {
        #[arg(long)]
        user: String,
        #[arg(long)]
        conversation: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum UsersCommand {
    /// Erase everything dreamd holds about a user, messages included, in one transaction.
    Purge { user: String },
}

fn parse_time(s: &str) -> Result<Time, String> {
    chrono::DateTime::parse_from_rfc3339(s)
        .map(|t| crate::domain::truncate_time(t.to_utc()))
        .map_err(|_| "not an RFC 3339 time like 2026-11-29T12:00:00Z".to_string())
}

fn parse_kind(s: &str) -> Result<Kind, String> {
    s.parse()
}

fn parse_scope(s: &str) -> Result<Scope, String> {
    s.parse()
}

fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err("not a number from 0 to 1".to_string()),
    }
}
