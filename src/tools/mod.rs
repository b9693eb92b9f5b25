//! The memory tools of spec §11 for every transport: MCP over stdio and
//! streamable HTTP, the JSON API under `/v1` and the review pages. Each
//! operation is done here once, on the same library as the CLI (`manage`, so
//! no rule is implemented twice), after checking that the caller may act for
//! the user ([`Access`]) and that the ids it names belong to that user.
//! Refusals carry a [`Code`] each transport maps to its own form (an MCP
//! `isError` result, an HTTP status) and a message that never repeats the
//! refused text.

pub mod args;
pub mod loads;

use crate::detect::Detector;
use crate::domain::{
    Event, Kind, Load, MemoryRecord, Role, Scope, Status, SuggestionRecord, SuggestionStatus, Time,
    Write, truncate_time,
};
use crate::error::Error;
use crate::llm::embed::Embedder;
use crate::manage::{Manager, NewExplicit, StatusChange};
use crate::store::{SchemaState, Store};
use args::{
    ConversationArgs, EditArgs, ListArgs, LoadQuery, MemoryArgs, MemoryQuery, RecallArgs,
    RememberArgs, SuggestionArgs, SuggestionQuery,
};
use futures::future::BoxFuture;
use serde::Serialize;
use utoipa::ToSchema;

/// Page size of the list endpoints when the caller names none.
pub const DEFAULT_PAGE: usize = 50;
/// The largest page the list endpoints return.
pub const MAX_PAGE: usize = 200;

/// What kind of refusal, so each transport can answer in its own terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// A missing, malformed or out-of-range argument.
    InvalidArgument,
    /// A text dreamd never stores (spec §2).
    NeverStore,
    /// A user the caller may not act for, or an id of another user.
    Forbidden,
    NotFound,
    /// The record changed meanwhile (a suggestion's target moved, a run won the race).
    Stale,
    /// The store failed; the detail is in the server's log.
    Internal,
    /// The database cannot be reached; trying again later may succeed.
    Unavailable,
}

impl Code {
    /// The spelling in JSON errors.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidArgument => "invalid_argument",
            Code::NeverStore => "never_store",
            Code::Forbidden => "forbidden",
            Code::NotFound => "not_found",
            Code::Stale => "stale",
            Code::Internal => "internal",
            Code::Unavailable => "unavailable",
        }
    }
}

/// A call a tool refuses: why, in words that never repeat refused text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: Code,
    pub message: String,
}

impl Refusal {
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }

    pub fn invalid(message: impl Into<String>) -> Refusal {
        Refusal::new(Code::InvalidArgument, message)
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<Error> for Refusal {
    fn from(e: Error) -> Refusal {
        match e {
            Error::Invalid(m) | Error::Config(m) => Refusal::invalid(m),
            Error::Refused(m) => Refusal::new(Code::NeverStore, m),
            Error::NotFound { what, .. } => {
                Refusal::new(Code::NotFound, format!("{what}_id: no such {what}"))
            }
            Error::Stale(m) => Refusal::new(Code::Stale, m),
            Error::IngestRejected(_) => Refusal::invalid(e.to_string()),
            Error::Unreachable(_) => {
                tracing::warn!(error = %e, "a tool call found the database unreachable");
                Refusal::new(Code::Unavailable, "the database cannot be reached; try again later")
            }
            Error::Database { .. } if e.is_unreachable() || e.is_busy() => {
                tracing::warn!(error = %e, "a tool call found the database busy or unreachable");
                Refusal::new(
                    Code::Unavailable,
                    "the database is busy or cannot be reached; try again later",
                )
            }
            Error::Database { .. } | Error::Migrate(_) | Error::Corrupt(_) | Error::Io { .. } => {
                tracing::error!(error = %e, "a tool call failed in the store");
                Refusal::new(Code::Internal, "the store failed; the server's log has the detail")
            }
        }
    }
}

/// Where a caller's list of users comes from, to name it in refusals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// `mcp.users`, for `dreamd mcp` over stdio.
    McpUsers,
    /// One entry of `http.tokens`, for a caller over HTTP.
    HttpToken,
}

/// The user ids a caller may act for (`*`: every user).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    users: Vec<String>,
    grant: Grant,
}

impl Access {
    pub fn new(users: Vec<String>, grant: Grant) -> Access {
        Access { users, grant }
    }

    /// The user ids as configured; `["*"]` stands for every user.
    pub fn users(&self) -> &[String] {
        &self.users
    }

    pub fn allows(&self, user_id: &str) -> bool {
        self.users.iter().any(|u| u == "*" || u == user_id)
    }

    /// Refuses a user the caller may not act for, naming the key that decides.
    pub fn check(&self, user_id: &str) -> Result<(), Refusal> {
        if self.users.is_empty() {
            let key = match self.grant {
                Grant::McpUsers => "mcp.users",
                Grant::HttpToken => "http.tokens",
            };
            return Err(Refusal::new(
                Code::Forbidden,
                format!(
                    "this server may touch no user: set {key} (a list of user ids, or [\"*\"])"
                ),
            ));
        }
        if self.allows(user_id) {
            return Ok(());
        }
        let why = match self.grant {
            Grant::McpUsers => "is not one this server may touch (mcp.users)",
            Grant::HttpToken => "is not one this token may act for (http.tokens)",
        };
        Err(Refusal::new(Code::Forbidden, format!("user_id {why}")))
    }
}

/// `recall`'s result: the memories, and the load recorded when a conversation was named.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Recalled {
    pub load_id: Option<String>,
    pub memories: Vec<MemoryRecord>,
}

/// `explain`'s result: a memory with its evidence, history and the loads that included it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Explained {
    pub memory: MemoryRecord,
    pub history: Vec<Event>,
    pub loads: Vec<Load>,
}

/// `list_memories`'s result.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MemoryList {
    pub memories: Vec<MemoryRecord>,
}

/// `list_suggestions`'s result.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SuggestionList {
    pub suggestions: Vec<SuggestionRecord>,
}

/// `accept_suggestion`'s result: the decided suggestion and the memory it made or changed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Accepted {
    pub suggestion: SuggestionRecord,
    pub memory: MemoryRecord,
}

/// `reject_suggestion`'s result.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Rejected {
    pub suggestion: SuggestionRecord,
}

/// One page of `GET /v1/memories`; `next_cursor` is absent on the last page.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MemoryPage {
    pub memories: Vec<MemoryRecord>,
    pub next_cursor: Option<String>,
}

/// One page of `GET /v1/suggestions`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SuggestionPage {
    pub suggestions: Vec<SuggestionRecord>,
    pub next_cursor: Option<String>,
}

/// One page of `GET /v1/loads`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LoadPage {
    pub loads: Vec<Load>,
    pub next_cursor: Option<String>,
}

/// One message of a conversation, as the review pages show it.
#[derive(Debug, Clone)]
pub struct MessageView {
    pub message_id: String,
    pub role: Role,
    pub content: String,
    pub created_at: Time,
}

/// A conversation for the review pages: its messages, the loads into it
/// and the memories those loads used, as they are now.
#[derive(Debug, Clone)]
pub struct Conversation {
    pub conversation_id: String,
    pub user_id: String,
    pub messages: Vec<MessageView>,
    pub loads: Vec<Load>,
    pub memories: Vec<MemoryRecord>,
}

/// Whether the store answers and its schema is the one this binary expects.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable` when the database does not answer or its schema is not current.
    pub status: String,
    pub database: String,
    /// `current`, `behind` (migrations missing), `ahead` (a newer dreamd migrated it) or `failed`.
    pub migrations: String,
}

/// The tools over one store, with the time and the never-store detectors they use.
pub struct Tools<S> {
    pub store: S,
    /// The global `--now`, when given; the clock otherwise.
    pub now: Option<Time>,
    pub detector: Detector,
    /// `llm.embedding_model`'s client, when set (spec §10.25).
    pub embedder: Option<Embedder>,
    /// Where recall's loads go when they are written off the request path
    /// (the HTTP server); written at once when `None`.
    pub loads: Option<loads::LoadWriter>,
}

fn parse_kind(text: &str, argument: &str) -> Result<Kind, Refusal> {
    text.parse().map_err(|_| {
        let names: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
        Refusal::invalid(format!("{argument} must be one of: {}", names.join(", ")))
    })
}

fn parse_scope(text: &str, argument: &str) -> Result<Scope, Refusal> {
    text.parse().map_err(|_| {
        Refusal::invalid(format!(
            "{argument} must be global, domain:<name> or project:<name> (a name of 1 to 64 characters, no spaces or ':')"
        ))
    })
}

fn parse_time(text: &str, argument: &str) -> Result<Time, Refusal> {
    chrono::DateTime::parse_from_rfc3339(text)
        .map(|t| truncate_time(t.to_utc()))
        .map_err(|_| Refusal::invalid(format!("{argument} must be an RFC 3339 time")))
}

fn parse_name<T: std::str::FromStr>(
    text: &str,
    argument: &str,
    names: &[&str],
) -> Result<T, Refusal> {
    text.parse()
        .map_err(|_| Refusal::invalid(format!("{argument} must be one of: {}", names.join(", "))))
}

/// The page size asked for, within bounds.
fn page_size(limit: Option<usize>) -> Result<usize, Refusal> {
    match limit {
        None => Ok(DEFAULT_PAGE),
        Some(0) => Err(Refusal::invalid("limit must be at least 1")),
        Some(n) => Ok(n.min(MAX_PAGE)),
    }
}

/// A page cursor as given: `None`, or an id as dreamd writes them (the
/// `next_cursor` of an earlier page). Anything else is refused, not read as
/// "after every item": a corrupted or truncated cursor answered an empty
/// last page, and its client stopped paging (HTTP round 4, L7).
fn checked_cursor(cursor: Option<&str>) -> Result<Option<&str>, Refusal> {
    let made_by_dreamd =
        |c: &str| uuid::Uuid::try_parse(c).is_ok_and(|id| id.hyphenated().to_string() == c);
    match cursor {
        Some(c) if !made_by_dreamd(c) => Err(Refusal::invalid(
            "cursor is not one this endpoint returned: pass the previous page's next_cursor as it is, or leave it out for the first page",
        )),
        _ => Ok(cursor),
    }
}

/// The items after `cursor` (items are in ascending id order), at most
/// `limit` of them, and the cursor of the next page when there is one.
fn page<T>(
    items: Vec<T>,
    id: impl Fn(&T) -> &str,
    cursor: Option<&str>,
    limit: usize,
) -> (Vec<T>, Option<String>) {
    let mut after: Vec<T> =
        items.into_iter().filter(|item| cursor.is_none_or(|c| id(item) > c)).collect();
    let next = (after.len() > limit).then(|| id(&after[limit - 1]).to_owned());
    after.truncate(limit);
    (after, next)
}

impl<S: Store> Tools<S> {
    fn now(&self) -> Time {
        self.now.unwrap_or_else(|| truncate_time(chrono::Utc::now()))
    }

    fn manager(&self) -> Manager<'_, S> {
        Manager::new(&self.store, self.now(), &self.detector).with_embedder(self.embedder.as_ref())
    }

    /// Refuses another user's conversation as the other ids of spec §13
    /// (403); whether the conversation exists at all.
    async fn not_anothers_conversation(
        &self,
        user_id: &str,
        conversation_id: &str,
    ) -> Result<bool, Refusal> {
        match self.store.conversation_owner(conversation_id, "").await? {
            Some((owner, _)) if owner != user_id => Err(Refusal::new(
                Code::Forbidden,
                "conversation_id: the conversation belongs to another user than user_id",
            )),
            found => Ok(found.is_some()),
        }
    }

    /// `message_id`, when given, is a message of the (stored) conversation.
    async fn check_message(
        &self,
        conversation_id: &str,
        message_id: Option<&str>,
    ) -> Result<(), Refusal> {
        let Some(message_id) = message_id else { return Ok(()) };
        match self.store.conversation_owner(conversation_id, message_id).await? {
            Some((_, false)) => {
                Err(Refusal::invalid("message_id: no such message in the conversation"))
            }
            _ => Ok(()),
        }
    }

    /// The memory belongs to `user_id`, whom the caller may act for.
    async fn own_memory(
        &self,
        access: &Access,
        user_id: &str,
        memory_id: &str,
    ) -> Result<(), Refusal> {
        access.check(user_id)?;
        match self.store.memory(memory_id).await? {
            Some(m) if m.user_id == user_id => Ok(()),
            Some(_) => Err(Refusal::new(
                Code::Forbidden,
                "memory_id: the memory belongs to another user than user_id",
            )),
            None => Err(Refusal::new(Code::NotFound, "memory_id: no such memory of user_id")),
        }
    }

    async fn own_suggestion(
        &self,
        access: &Access,
        user_id: &str,
        suggestion_id: &str,
    ) -> Result<(), Refusal> {
        access.check(user_id)?;
        match self.store.suggestion(suggestion_id).await? {
            Some(s) if s.user_id == user_id => Ok(()),
            Some(_) => Err(Refusal::new(
                Code::Forbidden,
                "suggestion_id: the suggestion belongs to another user than user_id",
            )),
            None => {
                Err(Refusal::new(Code::NotFound, "suggestion_id: no such suggestion of user_id"))
            }
        }
    }

    async fn change(
        &self,
        access: &Access,
        a: MemoryArgs,
        change: StatusChange,
    ) -> Result<MemoryRecord, Refusal> {
        self.own_memory(access, &a.user_id, &a.memory_id).await?;
        Ok(self.manager().change(&a.memory_id, change).await?)
    }

    pub async fn recall(&self, access: &Access, a: RecallArgs) -> Result<Recalled, Refusal> {
        access.check(&a.user_id)?;
        let scopes =
            a.scopes.iter().map(|s| parse_scope(s, "scopes")).collect::<Result<Vec<_>, _>>()?;
        let limit = a.limit.unwrap_or(crate::manage::DEFAULT_RECALL_LIMIT);
        if limit == 0 {
            return Err(Refusal::invalid("limit must be at least 1"));
        }
        let query = a.query.as_deref();
        let m = self.manager();
        if let Some(conversation) = &a.conversation_id {
            self.not_anothers_conversation(&a.user_id, conversation).await?;
            m.check_load_target(&a.user_id, conversation).await?;
        }
        let memories = m.recall(&a.user_id, &scopes, limit, query).await?;
        let Some(conversation) = &a.conversation_id else {
            return Ok(Recalled { load_id: None, memories });
        };
        let load = m.load_of(&a.user_id, conversation, &memories);
        let load_id = Some(load.load_id.clone());
        match &self.loads {
            Some(writer) => writer.record(load).await?,
            None => self.store.apply(vec![Write::InsertLoad(load)]).await?,
        }
        Ok(Recalled { load_id, memories })
    }

    /// Waits until the loads recorded so far are written, before loads are read.
    async fn flush_loads(&self) {
        if let Some(writer) = &self.loads {
            writer.flush().await;
        }
    }

    /// Writes the loads still queued and stops their writer (the server stops).
    async fn close_loads(&self) {
        if let Some(writer) = &self.loads {
            writer.close().await;
        }
    }

    pub async fn remember(
        &self,
        access: &Access,
        a: RememberArgs,
    ) -> Result<MemoryRecord, Refusal> {
        access.check(&a.user_id)?;
        let kind = parse_kind(&a.kind, "kind")?;
        let scope = parse_scope(&a.scope, "scope")?;
        let expires_at =
            a.expires_at.as_deref().map(|t| parse_time(t, "expires_at")).transpose()?;
        if a.message_id.is_some() && a.conversation_id.is_none() {
            return Err(Refusal::invalid("message_id needs conversation_id"));
        }
        if expires_at.is_some_and(|t| t <= self.now()) {
            return Err(Refusal::invalid(
                "expires_at must be in the future: leave it out for a memory that does not expire",
            ));
        }
        match &a.conversation_id {
            Some(c) if !self.not_anothers_conversation(&a.user_id, c).await? => {
                return Err(Refusal::new(Code::NotFound, "conversation_id: no such conversation"));
            }
            Some(c) => self.check_message(c, a.message_id.as_deref()).await?,
            None => {}
        }
        let source = a.conversation_id.map(|c| (c, a.message_id));
        let request =
            NewExplicit { user_id: a.user_id, kind, scope, text: a.text, expires_at, source };
        Ok(self.manager().set(request).await?)
    }

    pub async fn forget(&self, access: &Access, a: MemoryArgs) -> Result<MemoryRecord, Refusal> {
        self.change(access, a, StatusChange::Delete).await
    }

    pub async fn disable(&self, access: &Access, a: MemoryArgs) -> Result<MemoryRecord, Refusal> {
        self.change(access, a, StatusChange::Disable).await
    }

    pub async fn enable(&self, access: &Access, a: MemoryArgs) -> Result<MemoryRecord, Refusal> {
        self.change(access, a, StatusChange::Enable).await
    }

    pub async fn edit(&self, access: &Access, a: EditArgs) -> Result<MemoryRecord, Refusal> {
        self.own_memory(access, &a.user_id, &a.memory_id).await?;
        Ok(self.manager().edit(&a.memory_id, &a.text).await?)
    }

    pub async fn explain(&self, access: &Access, a: MemoryArgs) -> Result<Explained, Refusal> {
        self.own_memory(access, &a.user_id, &a.memory_id).await?;
        self.explained(&a.memory_id).await
    }

    async fn explained(&self, memory_id: &str) -> Result<Explained, Refusal> {
        self.flush_loads().await;
        let m = self.manager();
        Ok(Explained {
            memory: m.show(memory_id).await?,
            history: m.history(memory_id).await?,
            loads: self.store.loads_of_memory(memory_id).await?,
        })
    }

    pub async fn list_memories(&self, access: &Access, a: ListArgs) -> Result<MemoryList, Refusal> {
        access.check(&a.user_id)?;
        Ok(MemoryList { memories: self.manager().list(&a.user_id, a.all).await? })
    }

    pub async fn list_suggestions(
        &self,
        access: &Access,
        a: ListArgs,
    ) -> Result<SuggestionList, Refusal> {
        access.check(&a.user_id)?;
        Ok(SuggestionList { suggestions: self.manager().suggestions(&a.user_id, a.all).await? })
    }

    pub async fn accept_suggestion(
        &self,
        access: &Access,
        a: SuggestionArgs,
    ) -> Result<Accepted, Refusal> {
        self.own_suggestion(access, &a.user_id, &a.suggestion_id).await?;
        let (suggestion, memory) = self.manager().accept(&a.suggestion_id).await?;
        Ok(Accepted { suggestion, memory })
    }

    pub async fn reject_suggestion(
        &self,
        access: &Access,
        a: SuggestionArgs,
    ) -> Result<Rejected, Refusal> {
        self.own_suggestion(access, &a.user_id, &a.suggestion_id).await?;
        Ok(Rejected { suggestion: self.manager().reject(&a.suggestion_id).await? })
    }

    /// A page of a user's memories, filtered, in creation order (ids are time-ordered).
    pub async fn memories(&self, access: &Access, q: MemoryQuery) -> Result<MemoryPage, Refusal> {
        access.check(&q.user_id)?;
        let status: Option<Status> = q
            .status
            .as_deref()
            .map(|s| {
                parse_name(s, "status", &Status::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>())
            })
            .transpose()?;
        let kind = q.kind.as_deref().map(|k| parse_kind(k, "kind")).transpose()?;
        let scope = q.scope.as_deref().map(|s| parse_scope(s, "scope")).transpose()?;
        let limit = page_size(q.limit)?;
        let now = self.now();
        let mut memories: Vec<_> = self
            .store
            .memories(&q.user_id)
            .await?
            .into_iter()
            .filter(|m| status.is_none_or(|s| m.status_at(now) == s))
            .filter(|m| kind.is_none_or(|k| m.kind == k))
            .filter(|m| scope.as_ref().is_none_or(|s| &m.scope == s))
            .collect();
        memories.sort_by(|a, b| a.memory_id.cmp(&b.memory_id));
        let cursor = checked_cursor(q.cursor.as_deref())?;
        let (memories, next_cursor) = page(memories, |m| &m.memory_id, cursor, limit);
        Ok(MemoryPage { memories: self.manager().records(memories).await?, next_cursor })
    }

    /// A page of a user's suggestions, filtered, in creation order.
    pub async fn suggestions(
        &self,
        access: &Access,
        q: SuggestionQuery,
    ) -> Result<SuggestionPage, Refusal> {
        access.check(&q.user_id)?;
        let status: Option<SuggestionStatus> = q
            .status
            .as_deref()
            .map(|s| {
                let names: Vec<&str> = SuggestionStatus::ALL.iter().map(|s| s.as_str()).collect();
                parse_name(s, "status", &names)
            })
            .transpose()?;
        let kind = q.kind.as_deref().map(|k| parse_kind(k, "kind")).transpose()?;
        let scope = q.scope.as_deref().map(|s| parse_scope(s, "scope")).transpose()?;
        let limit = page_size(q.limit)?;
        let mut all = self.manager().suggestions(&q.user_id, true).await?;
        all.retain(|r| {
            let s = &r.suggestion;
            status.is_none_or(|x| s.status == x)
                && kind.is_none_or(|k| s.kind == k)
                && scope.as_ref().is_none_or(|x| &s.scope == x)
        });
        all.sort_by(|a, b| a.suggestion.suggestion_id.cmp(&b.suggestion.suggestion_id));
        let (suggestions, next_cursor) =
            page(all, |r| &r.suggestion.suggestion_id, checked_cursor(q.cursor.as_deref())?, limit);
        Ok(SuggestionPage { suggestions, next_cursor })
    }

    /// A page of a user's loads, optionally into one conversation, oldest first.
    pub async fn loads(&self, access: &Access, q: LoadQuery) -> Result<LoadPage, Refusal> {
        access.check(&q.user_id)?;
        let limit = page_size(q.limit)?;
        if let Some(conversation) = &q.conversation_id {
            self.not_anothers_conversation(&q.user_id, conversation).await?;
        }
        self.flush_loads().await;
        let mut loads = self.store.loads(&q.user_id, q.conversation_id.as_deref()).await?;
        loads.sort_by(|a, b| a.load_id.cmp(&b.load_id));
        let cursor = checked_cursor(q.cursor.as_deref())?;
        let (loads, next_cursor) = page(loads, |l| &l.load_id, cursor, limit);
        Ok(LoadPage { loads, next_cursor })
    }

    /// A memory by id alone (its owner decides who may read it), explained.
    pub async fn memory(&self, access: &Access, memory_id: String) -> Result<Explained, Refusal> {
        let owner = match self.store.memory(&memory_id).await? {
            Some(m) => m.user_id,
            None => {
                return Err(Refusal::new(Code::NotFound, "memory_id: no such memory"));
            }
        };
        if !access.allows(&owner) {
            return Err(Refusal::new(
                Code::Forbidden,
                "memory_id: the memory belongs to a user this caller may not act for",
            ));
        }
        self.explained(&memory_id).await
    }

    /// A user's conversation with its messages and the memories loaded into
    /// it. One known only by its loads (an agent recalls before the first
    /// messages reach dreamd) is shown with no messages: the memory pages
    /// link to it (HTTP round 4, M4).
    pub async fn conversation(
        &self,
        access: &Access,
        a: ConversationArgs,
    ) -> Result<Conversation, Refusal> {
        access.check(&a.user_id)?;
        let c = &a.conversation_id;
        let stored = self.not_anothers_conversation(&a.user_id, c).await?;
        self.flush_loads().await;
        let loads = self.store.loads(&a.user_id, Some(c)).await?;
        if !stored && loads.is_empty() {
            return Err(Refusal::new(Code::NotFound, "conversation_id: no such conversation"));
        }
        let messages = self
            .store
            .conversation_messages(c, -1, 0)
            .await?
            .unprocessed
            .into_iter()
            .map(|m| MessageView {
                message_id: m.message_id,
                role: m.role,
                content: m.content,
                created_at: m.created_at,
            })
            .collect();
        let mut used: Vec<String> =
            loads.iter().flat_map(|l| l.memories.iter().map(|m| m.memory_id.clone())).collect();
        used.sort();
        used.dedup();
        let mut memories = Vec::new();
        for id in used {
            if let Some(m) = self.store.memory(&id).await? {
                memories.push(m);
            }
        }
        let memories = self.manager().records(memories).await?;
        Ok(Conversation {
            conversation_id: a.conversation_id,
            user_id: a.user_id,
            messages,
            loads,
            memories,
        })
    }

    /// The store answers and holds the schema this binary expects.
    pub async fn health(&self) -> Health {
        match self.store.schema().await {
            Ok(schema) => Health {
                status: if schema.is_current() { "ok" } else { "unavailable" }.into(),
                database: "reachable".into(),
                migrations: describe_schema(&schema).into(),
            },
            Err(e) => {
                tracing::warn!(error = %e, "health check: the database does not answer");
                Health {
                    status: "unavailable".into(),
                    database: "unreachable".into(),
                    migrations: "unknown".into(),
                }
            }
        }
    }
}

fn describe_schema(schema: &SchemaState) -> &'static str {
    if !schema.failed.is_empty() {
        "failed"
    } else if !schema.unknown.is_empty() {
        "ahead"
    } else if !schema.missing.is_empty() {
        "behind"
    } else {
        "current"
    }
}

/// A boxed future of a tool's answer, so the tools can sit behind `dyn`.
pub type Answer<'a, T> = BoxFuture<'a, Result<T, Refusal>>;

/// Declares [`Engine`], the tools callable without knowing which store they
/// run on, and implements it for every [`Tools`] by calling the method of
/// the same name.
macro_rules! engine {
    ($($(#[$doc:meta])* fn $name:ident($arg:ty) -> $out:ty;)+) => {
        /// The tools behind one store, for transports that must not be
        /// generic over it (MCP's handler, the HTTP router).
        pub trait Engine: Send + Sync {
            $($(#[$doc])* fn $name<'a>(&'a self, access: &'a Access, args: $arg) -> Answer<'a, $out>;)+
            /// Whether the store answers with the expected schema.
            fn health(&self) -> BoxFuture<'_, Health>;
            /// Writes the loads still queued and stops their writer.
            fn close_loads(&self) -> BoxFuture<'_, ()>;
        }

        impl<S: Store + 'static> Engine for Tools<S> {
            $(fn $name<'a>(&'a self, access: &'a Access, args: $arg) -> Answer<'a, $out> {
                Box::pin(Tools::$name(self, access, args))
            })+
            fn health(&self) -> BoxFuture<'_, Health> {
                Box::pin(Tools::health(self))
            }
            fn close_loads(&self) -> BoxFuture<'_, ()> {
                Box::pin(Tools::close_loads(self))
            }
        }
    };
}

engine! {
    fn recall(RecallArgs) -> Recalled;
    fn remember(RememberArgs) -> MemoryRecord;
    fn forget(MemoryArgs) -> MemoryRecord;
    fn disable(MemoryArgs) -> MemoryRecord;
    fn enable(MemoryArgs) -> MemoryRecord;
    fn edit(EditArgs) -> MemoryRecord;
    fn explain(MemoryArgs) -> Explained;
    fn list_memories(ListArgs) -> MemoryList;
    fn list_suggestions(ListArgs) -> SuggestionList;
    fn accept_suggestion(SuggestionArgs) -> Accepted;
    fn reject_suggestion(SuggestionArgs) -> Rejected;
    fn memories(MemoryQuery) -> MemoryPage;
    fn suggestions(SuggestionQuery) -> SuggestionPage;
    fn loads(LoadQuery) -> LoadPage;
    /// A memory by id alone; its owner must be one the caller may act for.
    fn memory(String) -> Explained;
    fn conversation(ConversationArgs) -> Conversation;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_follow_the_cursor_and_end_without_one() {
        let items: Vec<String> = (1..=5).map(|i| format!("id{i}")).collect();
        let (first, next) = page(items.clone(), |s| s, None, 2);
        assert_eq!((first, next.as_deref()), (vec!["id1".to_owned(), "id2".into()], Some("id2")));
        let (second, next) = page(items.clone(), |s| s, Some("id2"), 2);
        assert_eq!((second, next.as_deref()), (vec!["id3".to_owned(), "id4".into()], Some("id4")));
        let (last, next) = page(items.clone(), |s| s, Some("id4"), 2);
        assert_eq!((last, next), (vec!["id5".to_owned()], None));
        let (exact, next) = page(items, |s| s, None, 5);
        assert_eq!((exact.len(), next), (5, None));
    }

    #[test]
    fn a_cursor_is_an_id_as_dreamd_writes_it() {
        let id = crate::domain::new_id();
        assert_eq!(checked_cursor(Some(&id)).unwrap(), Some(id.as_str()));
        assert_eq!(checked_cursor(None).unwrap(), None);
        let upper = id.to_uppercase();
        let truncated = &id[..id.len() - 1];
        for bad in ["zzz", "", truncated, &upper, &id.replace('-', ""), "{id}"] {
            let refused = checked_cursor(Some(bad)).unwrap_err();
            assert_eq!(refused.code, Code::InvalidArgument, "{bad}");
            assert!(refused.message.contains("next_cursor"), "{}", refused.message);
        }
    }

    #[test]
    fn access_names_the_key_that_decides() {
        let none = Access::new(Vec::new(), Grant::McpUsers);
        assert!(none.check("jay").unwrap_err().message.contains("set mcp.users"));
        let jay = Access::new(vec!["jay".into()], Grant::HttpToken);
        assert!(jay.check("jay").is_ok());
        let refused = jay.check("emma").unwrap_err();
        assert_eq!(refused.code, Code::Forbidden);
        assert!(refused.message.contains("http.tokens"), "{}", refused.message);
        assert!(Access::new(vec!["*".into()], Grant::HttpToken).check("anyone").is_ok());
    }

    #[test]
    fn argument_refusals_name_the_argument_never_the_value() {
        for refusal in [
            parse_kind("secret-kind", "kind").unwrap_err(),
            parse_scope("secret scope", "scope").unwrap_err(),
            parse_time("secret time", "expires_at").unwrap_err(),
        ] {
            assert_eq!(refusal.code, Code::InvalidArgument);
            assert!(!refusal.message.contains("secret"), "{}", refusal.message);
        }
    }
}
