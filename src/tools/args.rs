//! The arguments of the memory tools (spec §11.2), as every transport
//! receives them: MCP tool calls, `POST /v1/<tool>` bodies and the query
//! strings of the HTTP list endpoints. One set of types, so the names and
//! their JSON schemas (schemars for MCP, utoipa for OpenAPI) cannot drift.

use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

/// Why arguments do not fit their type, naming the argument that fails and
/// never the value it holds (a caller may have put anything there): the
/// words every transport uses.
pub fn mismatch<E: std::fmt::Display>(e: serde_path_to_error::Error<E>) -> String {
    let path = e.path().to_string();
    let message = e.into_inner().to_string();
    if let Some(rest) = message.strip_prefix("unknown field `") {
        return unknown_argument(rest);
    }
    if let Some(field) = message.strip_prefix("duplicate field `").and_then(|m| m.split('`').next())
    {
        return format!("argument '{field}' is given twice; give it once");
    }
    match message.strip_prefix("missing field `").and_then(|m| m.split('`').next()) {
        Some(field) => format!("argument '{field}' is required"),
        None if path == "." => "the arguments must be a JSON object".to_owned(),
        None => format!("argument '{path}' has the wrong type or value"),
    }
}

/// An argument the tool does not take (`scope` for `scopes`, `expires` for
/// `expires_at`): refused, with the ones it takes, rather than ignored, so a
/// misspelt filter or expiry never quietly does nothing. `rest` is serde's
/// message after its opening quote: "scope`, expected one of `a`, `b`".
fn unknown_argument(rest: &str) -> String {
    let (name, expected) = rest.split_once('`').unwrap_or((rest, ""));
    let takes: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    // A name long enough to carry a value is not repeated.
    let name = if name.chars().count() <= 40 { name } else { "(a long name)" };
    if takes.is_empty() {
        return format!("unknown argument '{name}'; this takes no query arguments");
    }
    format!("unknown argument '{name}'; this tool takes {}", takes.join(", "))
}

/// Reads a tool's arguments from JSON, refused as [`mismatch`] says.
pub fn from_value<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(mismatch)
}

/// `recall`. New optional arguments go here and into `Tools::recall`; every
/// transport picks them up from this one type.
#[derive(Debug, Deserialize, JsonSchema, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecallArgs {
    /// The user the agent is talking to.
    #[schema(min_length = 1, max_length = 256)]
    pub user_id: String,
    /// Scopes of the request, e.g. ["domain:standard", "project:A"]; global memories always apply.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// How many memories at most (default 5, at most 8).
    #[schema(minimum = 1)]
    #[schemars(range(min = 1))]
    pub limit: Option<usize>,
    /// The conversation the memories are loaded into; recorded so the answer can be traced to them.
    pub conversation_id: Option<String>,
    /// The user's request exactly as you received it: memories about how to
    /// answer come first, then the user's background and current work that
    /// bear on this request.
    pub query: Option<String>,
}

/// `remember`.
#[derive(Debug, Deserialize, JsonSchema, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RememberArgs {
    #[schema(min_length = 1, max_length = 256)]
    pub user_id: String,
    /// presentation, background, recent_focus, terminology or query_default.
    #[schema(value_type = crate::domain::Kind)]
    pub kind: String,
    /// global, domain:<name> or project:<name> (a name of 1 to 64
    /// characters, without whitespace or ':').
    #[schema(pattern = r"^(global|(domain|project):[^\s:]{1,64})$")]
    pub scope: String,
    /// What to remember, in the user's words.
    pub text: String,
    /// When it stops applying (RFC 3339), if the user said so.
    pub expires_at: Option<String>,
    /// The conversation the user asked in.
    pub conversation_id: Option<String>,
    /// The message the user asked in.
    pub message_id: Option<String>,
}

/// `forget`, `disable`, `enable` and `explain`.
#[derive(Debug, Deserialize, JsonSchema, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemoryArgs {
    #[schema(min_length = 1, max_length = 256)]
    pub user_id: String,
    pub memory_id: String,
}

/// `edit`.
#[derive(Debug, Deserialize, JsonSchema, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EditArgs {
    #[schema(min_length = 1, max_length = 256)]
    pub user_id: String,
    pub memory_id: String,
    /// The corrected text, in the user's words.
    pub text: String,
}

/// `list_memories` and `list_suggestions`.
#[derive(Debug, Deserialize, JsonSchema, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ListArgs {
    #[schema(min_length = 1, max_length = 256)]
    pub user_id: String,
    /// Include inactive memories (or decided suggestions) too.
    #[serde(default)]
    pub all: bool,
}

/// `accept_suggestion` and `reject_suggestion`.
#[derive(Debug, Deserialize, JsonSchema, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SuggestionArgs {
    #[schema(min_length = 1, max_length = 256)]
    pub user_id: String,
    pub suggestion_id: String,
}

/// `GET /v1/memories`: a user's memories in creation order, a page at a time.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct MemoryQuery {
    #[param(min_length = 1, max_length = 256)]
    pub user_id: String,
    /// Only memories with this status (as of now: an active memory past its expiry is expired); every status when absent.
    #[param(value_type = Option<crate::domain::Status>)]
    pub status: Option<String>,
    /// Only memories of this kind.
    #[param(value_type = Option<crate::domain::Kind>)]
    pub kind: Option<String>,
    /// Only memories in this scope.
    pub scope: Option<String>,
    /// Page size (default 50, at most 200).
    #[param(minimum = 1)]
    pub limit: Option<usize>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// `GET /v1/suggestions`: a user's suggestions in creation order, a page at a time.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct SuggestionQuery {
    #[param(min_length = 1, max_length = 256)]
    pub user_id: String,
    /// Only suggestions with this status; every status when absent.
    #[param(value_type = Option<crate::domain::SuggestionStatus>)]
    pub status: Option<String>,
    /// Only suggestions of this kind.
    #[param(value_type = Option<crate::domain::Kind>)]
    pub kind: Option<String>,
    /// Only suggestions in this scope.
    pub scope: Option<String>,
    /// Page size (default 50, at most 200).
    #[param(minimum = 1)]
    pub limit: Option<usize>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// `GET /v1/loads`: which memories agents loaded, oldest first, a page at a time.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct LoadQuery {
    #[param(min_length = 1, max_length = 256)]
    pub user_id: String,
    /// Only loads into this conversation.
    pub conversation_id: Option<String>,
    /// Page size (default 50, at most 200).
    #[param(minimum = 1)]
    pub limit: Option<usize>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// A conversation of a user, for the review pages.
#[derive(Debug, Deserialize)]
pub struct ConversationArgs {
    pub user_id: String,
    pub conversation_id: String,
}
