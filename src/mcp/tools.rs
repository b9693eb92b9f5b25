//! What each MCP tool does, on the same library as the CLI (`manage`): no
//! rule is implemented twice. Every call checks that its user is one
//! `mcp.users` allows and that the ids it names belong to that user.

use crate::domain::{Kind, Scope, Time, truncate_time};
use crate::error::Error;
use crate::llm::embed::Embedder;
use crate::manage::{Manager, NewExplicit, StatusChange};
use crate::store::Store;
use futures::future::BoxFuture;
use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RecallArgs {
    /// The user the agent is talking to.
    pub user_id: String,
    /// Scopes of the request, e.g. ["domain:standard", "project:A"]; global memories always apply.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// How many memories at most (default 5, at most 8).
    pub limit: Option<usize>,
    /// The conversation the memories are loaded into; recorded so the answer can be traced to them.
    pub conversation_id: Option<String>,
    /// The user's request exactly as you received it: memories about how to
    /// answer come first, then the user's background and current work that
    /// bear on this request.
    pub query: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RememberArgs {
    pub user_id: String,
    /// presentation, background, recent_focus, terminology or query_default.
    pub kind: String,
    /// global, domain:<name> or project:<name>.
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

#[derive(Debug, Deserialize, JsonSchema)]
pub struct MemoryArgs {
    pub user_id: String,
    pub memory_id: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EditArgs {
    pub user_id: String,
    pub memory_id: String,
    /// The corrected text, in the user's words.
    pub text: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ListArgs {
    pub user_id: String,
    /// Include inactive memories (or decided suggestions) too.
    #[serde(default)]
    pub all: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SuggestionArgs {
    pub user_id: String,
    pub suggestion_id: String,
}

/// A call the tool refuses, with a message that never repeats refused text.
pub type Refusal = String;

/// One tool call with its arguments.
#[derive(Debug)]
pub enum Call {
    Recall(RecallArgs),
    Remember(RememberArgs),
    Forget(MemoryArgs),
    Disable(MemoryArgs),
    Enable(MemoryArgs),
    Edit(EditArgs),
    Explain(MemoryArgs),
    ListMemories(ListArgs),
    ListSuggestions(ListArgs),
    AcceptSuggestion(SuggestionArgs),
    RejectSuggestion(SuggestionArgs),
}

/// The tools over one store, callable without knowing which store it is.
pub trait Engine: Send + Sync {
    fn call(&self, call: Call) -> BoxFuture<'_, Result<Value, Refusal>>;
}

pub struct Tools<S> {
    pub store: S,
    /// `mcp.users`: the user ids this server may touch, or `*`.
    pub users: Vec<String>,
    /// The global `--now`, when given.
    pub now: Option<Time>,
    /// The never-store detectors with the operator's patterns.
    pub detector: crate::detect::Detector,
    /// `llm.embedding_model`'s client, when set (spec §10.25).
    pub embedder: Option<Embedder>,
}

fn refuse(e: Error) -> Refusal {
    e.to_string()
}

impl<S: Store> Tools<S> {
    fn manager(&self) -> Manager<'_, S> {
        Manager::new(
            &self.store,
            self.now.unwrap_or_else(|| truncate_time(chrono::Utc::now())),
            &self.detector,
        )
        .with_embedder(self.embedder.as_ref())
    }

    fn allow(&self, user_id: &str) -> Result<(), Refusal> {
        if self.users.is_empty() {
            return Err(
                "this server may touch no user: set mcp.users (a list of user ids, or [\"*\"])"
                    .into(),
            );
        }
        if self.users.iter().any(|u| u == "*" || u == user_id) {
            return Ok(());
        }
        Err(format!("user '{user_id}' is not one this server may touch (mcp.users)"))
    }

    /// The memory, when it exists and belongs to the (allowed) user.
    async fn own_memory(&self, user_id: &str, memory_id: &str) -> Result<(), Refusal> {
        self.allow(user_id)?;
        match self.store.memory(memory_id).await.map_err(refuse)? {
            Some(m) if m.user_id == user_id => Ok(()),
            _ => Err(format!("memory '{memory_id}' not found for user '{user_id}'")),
        }
    }

    async fn own_suggestion(&self, user_id: &str, suggestion_id: &str) -> Result<(), Refusal> {
        self.allow(user_id)?;
        match self.store.suggestion(suggestion_id).await.map_err(refuse)? {
            Some(s) if s.user_id == user_id => Ok(()),
            _ => Err(format!("suggestion '{suggestion_id}' not found for user '{user_id}'")),
        }
    }

    async fn change(&self, a: MemoryArgs, change: StatusChange) -> Result<Value, Refusal> {
        self.own_memory(&a.user_id, &a.memory_id).await?;
        Ok(to_json(&self.manager().change(&a.memory_id, change).await.map_err(refuse)?))
    }

    async fn dispatch(&self, call: Call) -> Result<Value, Refusal> {
        let m = self.manager();
        match call {
            Call::Recall(a) => {
                self.allow(&a.user_id)?;
                let scopes =
                    a.scopes.iter().map(|s| s.parse::<Scope>()).collect::<Result<Vec<_>, _>>()?;
                let limit = a.limit.unwrap_or(crate::manage::DEFAULT_RECALL_LIMIT);
                let query = a.query.as_deref();
                match &a.conversation_id {
                    Some(c) => {
                        let (load_id, memories) = m
                            .recall_for(&a.user_id, &scopes, limit, query, c)
                            .await
                            .map_err(refuse)?;
                        Ok(json!({ "load_id": load_id, "memories": memories }))
                    }
                    None => {
                        let memories =
                            m.recall(&a.user_id, &scopes, limit, query).await.map_err(refuse)?;
                        Ok(json!({ "load_id": null, "memories": memories }))
                    }
                }
            }
            Call::Remember(a) => {
                self.allow(&a.user_id)?;
                let kind: Kind = a.kind.parse()?;
                let scope: Scope = a.scope.parse()?;
                let expires_at = a
                    .expires_at
                    .map(|t| {
                        chrono::DateTime::parse_from_rfc3339(&t).map(|t| truncate_time(t.to_utc()))
                    })
                    .transpose()
                    .map_err(|_| "expires_at must be an RFC 3339 time".to_owned())?;
                if a.message_id.is_some() && a.conversation_id.is_none() {
                    return Err("message_id needs conversation_id".into());
                }
                let source = a.conversation_id.map(|c| (c, a.message_id));
                let request = NewExplicit {
                    user_id: a.user_id,
                    kind,
                    scope,
                    text: a.text,
                    expires_at,
                    source,
                };
                Ok(to_json(&m.set(request).await.map_err(refuse)?))
            }
            Call::Forget(a) => self.change(a, StatusChange::Delete).await,
            Call::Disable(a) => self.change(a, StatusChange::Disable).await,
            Call::Enable(a) => self.change(a, StatusChange::Enable).await,
            Call::Edit(a) => {
                self.own_memory(&a.user_id, &a.memory_id).await?;
                Ok(to_json(&m.edit(&a.memory_id, &a.text).await.map_err(refuse)?))
            }
            Call::Explain(a) => {
                self.own_memory(&a.user_id, &a.memory_id).await?;
                let memory = m.show(&a.memory_id).await.map_err(refuse)?;
                let history = m.history(&a.memory_id).await.map_err(refuse)?;
                let loads = self.store.loads_of_memory(&a.memory_id).await.map_err(refuse)?;
                Ok(json!({ "memory": memory, "history": history, "loads": loads }))
            }
            Call::ListMemories(a) => {
                self.allow(&a.user_id)?;
                Ok(json!({ "memories": m.list(&a.user_id, a.all).await.map_err(refuse)? }))
            }
            Call::ListSuggestions(a) => {
                self.allow(&a.user_id)?;
                Ok(
                    json!({ "suggestions": m.suggestions(&a.user_id, a.all).await.map_err(refuse)? }),
                )
            }
            Call::AcceptSuggestion(a) => {
                self.own_suggestion(&a.user_id, &a.suggestion_id).await?;
                let (suggestion, memory) = m.accept(&a.suggestion_id).await.map_err(refuse)?;
                Ok(json!({ "suggestion": suggestion, "memory": memory }))
            }
            Call::RejectSuggestion(a) => {
                self.own_suggestion(&a.user_id, &a.suggestion_id).await?;
                Ok(json!({ "suggestion": m.reject(&a.suggestion_id).await.map_err(refuse)? }))
            }
        }
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    // Records are plain data with string keys: serialising them cannot fail.
    serde_json::to_value(value).expect("records serialise to JSON")
}

impl<S: Store + 'static> Engine for Tools<S> {
    fn call(&self, call: Call) -> BoxFuture<'_, Result<Value, Refusal>> {
        Box::pin(self.dispatch(call))
    }
}
