//! The vocabulary of spec §1–§3 as types: what a message, slip, memory,
//! suggestion, event and tombstone are, and how their names are spelled.

use chrono::{DateTime, SubsecRound, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The longest memory, suggestion or slip statement, in characters: memories are short statements.
pub const MAX_STATEMENT_CHARS: usize = 500;
/// The longest quote a slip may rest on, in characters.
pub const MAX_QUOTE_CHARS: usize = 2000;
/// The shortest quote that counts as evidence, in characters after normalisation (spec §5).
pub const MIN_QUOTE_CHARS: usize = 4;

/// The longest user, conversation or message id, in characters.
pub const MAX_ID_CHARS: usize = 256;

/// Checks a user, conversation or message id the same way wherever one comes
/// in (ingest, the command line, the tools), so that no entry point stores an
/// id another refuses: not blank, at most [`MAX_ID_CHARS`] characters, no
/// control characters (a newline would split a line of output or log in
/// two), no invisible ones (`jay\u{200B}` and `\u{202E}jay` would show as
/// `jay` on a page), and not `*`, which stands for every user in a token's
/// or the MCP server's users. `what` names the id in the reason.
pub fn check_id(id: &str, what: &str) -> Result<(), String> {
    if id.trim().is_empty() {
        return Err(format!("{what} must not be empty"));
    }
    if id.chars().count() > MAX_ID_CHARS {
        return Err(format!("{what} is longer than {MAX_ID_CHARS} characters"));
    }
    if id.chars().any(char::is_control) {
        return Err(format!("{what} must not contain control characters such as a newline"));
    }
    // The zero-width joiner and the emoji presentation selector are part
    // of emoji sequences; every other invisible character hides.
    let hides = |c: char| crate::text::is_invisible(c) && !matches!(c, '\u{200D}' | '\u{FE0F}');
    if id.chars().any(hides) {
        return Err(format!(
            "{what} must not contain invisible characters such as a zero-width space or a bidi override"
        ));
    }
    if id == "*" {
        return Err(format!("{what} must not be '*', which stands for every user"));
    }
    Ok(())
}

/// Every time dreamd stores, truncated to milliseconds so SQLite and
/// PostgreSQL hold and return the same instant.
pub type Time = DateTime<Utc>;

pub fn truncate_time(t: Time) -> Time {
    t.trunc_subsecs(3)
}

/// Declares a closed set of names with their spelling in storage, JSON and the CLI.
/// Every spelling is its variant's name in snake_case: utoipa does not read a
/// `rename` whose value comes from a macro argument, so the OpenAPI schema
/// takes the spelling from `rename_all` (a unit test holds the two equal).
macro_rules! names {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, utoipa::ToSchema)]
        #[schema(rename_all = "snake_case")]
        pub enum $name { $(#[serde(rename = $text)] $variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = String;
            /// Refuses without repeating the text: it may be anything a
            /// person typed in the wrong place.
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(format!(
                        "not a valid {}; expected one of: {}",
                        stringify!($name).to_lowercase(),
                        [$($text),+].join(", ")
                    )),
                }
            }
        }
    };
}

names!(
    /// What a memory is about (spec §2); decides whether dreamd may write it alone.
    Kind {
        Presentation = "presentation",
        Background = "background",
        RecentFocus = "recent_focus",
        Terminology = "terminology",
        QueryDefault = "query_default",
    }
);
names!(Role { User = "user", Assistant = "assistant", System = "system", Tool = "tool" });
names!(
    /// Who made a memory: a person (`explicit`) or dreamd (`auto`). dreamd never changes explicit ones.
    Origin { Explicit = "explicit", Auto = "auto" }
);
names!(Status {
    Active = "active",
    Disabled = "disabled",
    Expired = "expired",
    Retired = "retired",
    Deleted = "deleted",
});
names!(Actor { User = "user", Dreamd = "dreamd" });
names!(Durability { Lasting = "lasting", Until = "until", OneOff = "one_off" });
names!(SlipState {
    New = "new",
    Deferred = "deferred",
    Consolidated = "consolidated",
    Consumed = "consumed",
    Erased = "erased",
});
names!(SuggestionOp { Create = "create", Update = "update", Retire = "retire", Enable = "enable" });
names!(
    /// `withdrawn`: its target was deleted before a person decided (spec §10.24).
    SuggestionStatus {
        Pending = "pending",
        Accepted = "accepted",
        Rejected = "rejected",
        Withdrawn = "withdrawn",
    }
);

names!(
    /// How a run ended, as its `run finished` line says (spec §10.15): all
    /// done; some conversations or users failed; work left for the next
    /// run (a stop, the token budget, a model that cannot answer); the run
    /// failed before its summary; abandoned at the shutdown bound or a
    /// second signal.
    RunOutcome {
        Done = "done",
        PartlyFailed = "partly_failed",
        LeftForNextRun = "left_for_next_run",
        Failed = "failed",
        Abandoned = "abandoned",
    }
);

names!(
    /// Why stage one dropped a proposed slip (spec §5), as the run summary counts it.
    DropReason {
        Malformed = "malformed",
        UnknownMessage = "unknown_message",
        ContextMessage = "context_message",
        NotUserMessage = "not_user_message",
        QuoteNotFound = "quote_not_found",
        QuoteTooShort = "quote_too_short",
        OneOff = "one_off",
        Forbidden = "forbidden",
        InvalidKind = "invalid_kind",
        InvalidDurability = "invalid_durability",
        ScopeUnknown = "scope_unknown",
        InvalidContent = "invalid_content",
        Duplicate = "duplicate",
        TooMany = "too_many",
        Tombstoned = "tombstoned",
        QuoteCut = "quote_cut",
    }
);
names!(
    /// Why the policy rejected a proposed operation (spec §6), as counted and logged.
    RejectReason {
        Malformed = "malformed",
        UnknownId = "unknown_id",
        ScopeMismatch = "scope_mismatch",
        Invalid = "invalid",
        Forbidden = "forbidden",
        Tombstoned = "tombstoned",
        NoEvidence = "no_evidence",
        StaleEvidence = "stale_evidence",
        NotActive = "not_active",
        InUse = "in_use",
        SuggestionRejected = "suggestion_rejected",
        TooMany = "too_many",
        Ungrounded = "ungrounded",
        AnotherUsersWords = "another_users_words",
    }
);
names!(
    /// An operation the policy applied (spec §6), as the run summary counts it.
    Applied { Create = "create", Update = "update", Confirm = "confirm", Retire = "retire", Suggest = "suggest" }
);

/// Where a memory applies (spec §3): `global`, `domain:<name>` or `project:<name>`.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(try_from = "String", into = "String")]
#[schema(value_type = String, example = "domain:standard")]
pub struct Scope(String);

impl Scope {
    pub fn global() -> Scope {
        Scope("global".to_owned())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Recall order: a project is more specific than a domain, a domain than global.
    pub fn specificity(&self) -> u8 {
        if self.0.starts_with("project:") {
            2
        } else if self.0.starts_with("domain:") {
            1
        } else {
            0
        }
    }

    /// Checks a `<name>` of a domain or project: 1–64 characters, no
    /// whitespace, no `:`, no control character (a scope is printed with
    /// every memory in it; an escape sequence would drive the terminal) and
    /// no invisible one (a zero-width space or a bidi override would make
    /// two scopes look alike). The errors never repeat the name: a refused
    /// one may hold anything.
    pub fn check_name(name: &str) -> Result<(), String> {
        let len = name.chars().count();
        if len == 0 || len > 64 {
            return Err("a scope name must be 1 to 64 characters".to_owned());
        }
        if name.chars().any(|c| {
            c.is_whitespace() || c == ':' || c.is_control() || crate::text::is_invisible(c)
        }) {
            return Err(
                "a scope name must not contain whitespace, ':', control or invisible characters"
                    .to_owned(),
            );
        }
        Ok(())
    }

    /// The `<name>` of a domain or project; empty for `global`.
    pub fn name(&self) -> &str {
        self.0.split_once(':').map_or("", |(_, name)| name)
    }
}

impl FromStr for Scope {
    type Err = String;
    fn from_str(s: &str) -> Result<Scope, String> {
        if s == "global" {
            return Ok(Scope::global());
        }
        let name =
            s.strip_prefix("domain:").or_else(|| s.strip_prefix("project:")).ok_or_else(|| {
                "a scope must be 'global', 'domain:<name>' or 'project:<name>'".to_owned()
            })?;
        Scope::check_name(name)?;
        Ok(Scope(s.to_owned()))
    }
}

impl TryFrom<String> for Scope {
    type Error = String;
    fn try_from(s: String) -> Result<Scope, String> {
        s.parse()
    }
}

impl From<Scope> for String {
    fn from(s: Scope) -> String {
        s.0
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What dreamd may do with one kind (spec §2).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct KindPolicy {
    pub auto: bool,
    /// Days an auto memory of this kind lives after its newest evidence; none when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_days: Option<u32>,
    pub min_evidence: u32,
}

/// The rules the policy applies (spec §2, §6, §9), built once from the
/// configuration: per-kind permissions and numbers, the suggestion cooldown
/// and the never-store detectors.
#[derive(Debug, Clone)]
pub struct Rules {
    pub kinds: std::collections::BTreeMap<Kind, KindPolicy>,
    pub suggestion_cooldown: chrono::Duration,
    pub detector: crate::detect::Detector,
}

impl Rules {
    /// The kind's policy. Cannot panic: `Config` is only built by
    /// validation, which refuses a configuration missing any kind.
    pub fn kind(&self, kind: Kind) -> &KindPolicy {
        &self.kinds[&kind]
    }
}

/// A validated message ready to be written by ingest (spec §8.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewMessage {
    /// The 1-based input line it came from, to name it in errors.
    pub line: usize,
    pub user_id: String,
    pub conversation_id: String,
    pub message_id: String,
    pub role: Role,
    pub content: String,
    pub created_at: Time,
    pub scopes: Vec<Scope>,
}

/// A stored message as stage one reads it; `seq` is its arrival order.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMessage {
    pub seq: i64,
    pub message_id: String,
    pub role: Role,
    pub content: String,
    pub created_at: Time,
}

/// What an agent loads (spec §8.2). `content` is `None` once deleted.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Memory {
    pub memory_id: String,
    pub user_id: String,
    pub kind: Kind,
    pub scope: Scope,
    pub origin: Origin,
    pub status: Status,
    pub version: i64,
    pub content: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Time,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Time,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<Time>,
    /// Where a person set an explicit memory from, when they said (`memories set --conversation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_conversation_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_message_id: Option<String>,
}

/// Lets recall's pure steps take memories or anything that carries one.
impl AsRef<Memory> for Memory {
    fn as_ref(&self) -> &Memory {
        self
    }
}

impl Memory {
    /// The status as of `now`: an active memory past its expiry is already expired,
    /// whether or not a run has swept it yet.
    pub fn status_at(&self, now: Time) -> Status {
        match self.expires_at {
            Some(t) if self.status == Status::Active && t <= now => Status::Expired,
            _ => self.status,
        }
    }

    /// The fields a history event records before and after a change.
    pub fn snapshot(&self) -> serde_json::Value {
        serde_json::json!({
            "kind": self.kind, "scope": self.scope, "origin": self.origin,
            "status": self.status, "version": self.version,
            "content": self.content, "expires_at": self.expires_at,
        })
    }
}

/// One slip that supports a memory or suggestion, as shown to people.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Evidence {
    pub slip_id: String,
    pub conversation_id: String,
    pub message_id: String,
    pub quote: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub expressed_at: Time,
}

/// A memory with its evidence: the JSON record of spec §8.2.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct MemoryRecord {
    #[serde(flatten)]
    pub memory: Memory,
    pub evidence: Vec<Evidence>,
    /// The conversations the evidence came from, so an agent can show where a memory came from.
    pub source_conversation_ids: Vec<String>,
    /// The conversations that loaded it (`memories show` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loaded_in: Option<Vec<String>>,
}

impl MemoryRecord {
    pub fn new(memory: Memory, evidence: Vec<Evidence>) -> MemoryRecord {
        let mut source_conversation_ids: Vec<String> = evidence
            .iter()
            .map(|e| e.conversation_id.clone())
            .chain(memory.source_conversation_id.clone())
            .collect();
        source_conversation_ids.sort();
        source_conversation_ids.dedup();
        MemoryRecord { memory, evidence, source_conversation_ids, loaded_in: None }
    }
}

/// One statement extracted from a user message (spec §1, §8.2).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Slip {
    pub slip_id: String,
    pub user_id: String,
    pub conversation_id: String,
    pub message_id: String,
    pub kind: Kind,
    pub scope: Scope,
    pub durability: Durability,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub valid_until: Option<Time>,
    pub content: Option<String>,
    pub quote: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub expressed_at: Time,
    pub state: SlipState,
    pub run_id: Option<String>,
}

/// An operation waiting for a person (spec §1, §8.2).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Suggestion {
    pub suggestion_id: String,
    pub user_id: String,
    pub op: SuggestionOp,
    pub kind: Kind,
    pub scope: Scope,
    pub content: Option<String>,
    pub memory_id: Option<String>,
    /// The target's version when the suggestion was made; accept fails if it moved.
    #[serde(skip)]
    pub target_version: Option<i64>,
    pub status: SuggestionStatus,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Time,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub decided_at: Option<Time>,
}

/// A suggestion with its evidence: the JSON record of spec §8.2.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct SuggestionRecord {
    #[serde(flatten)]
    pub suggestion: Suggestion,
    pub evidence: Vec<Evidence>,
}

/// One change in a memory's history (spec §7, §8.2).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Event {
    pub event_id: String,
    pub memory_id: String,
    #[schema(value_type = String, format = DateTime)]
    pub at: Time,
    pub actor: Actor,
    pub action: String,
    pub run_id: Option<String>,
    pub slip_ids: Vec<String>,
    /// Older slips a creation replaced: not evidence, but erased with the memory.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub superseded_slip_ids: Vec<String>,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
}

impl Event {
    /// The event recording a change from `before` (absent for a creation) to `after`.
    pub fn change(
        actor: Actor,
        run_id: Option<&str>,
        at: Time,
        action: &str,
        slip_ids: Vec<String>,
        before: Option<&Memory>,
        after: &Memory,
    ) -> Event {
        Event {
            event_id: new_id(),
            memory_id: after.memory_id.clone(),
            at,
            actor,
            action: action.to_owned(),
            run_id: run_id.map(str::to_owned),
            slip_ids,
            superseded_slip_ids: Vec::new(),
            before: before.map(Memory::snapshot),
            after: Some(after.snapshot()),
        }
    }
}

/// A record that an agent was given certain memories for a conversation (spec §7).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Load {
    pub load_id: String,
    pub user_id: String,
    pub conversation_id: String,
    #[schema(value_type = String, format = DateTime)]
    pub at: Time,
    pub memories: Vec<LoadedMemory>,
}

/// One memory of a load, at the version the agent saw.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct LoadedMemory {
    pub memory_id: String,
    pub version: i64,
}

/// What stays of a deleted memory: never its text, only a fingerprint of it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Tombstone {
    pub memory_id: String,
    pub user_id: String,
    pub kind: Kind,
    pub scope: Scope,
    #[schema(value_type = String, format = DateTime)]
    pub deleted_at: Time,
    pub fingerprint: String,
}

/// Whether `content` is a deleted text that may not come back (§6 rule 7,
/// §7): a tombstone holds its fingerprint, and the quotes behind it do not
/// say it again (they share too few of its terms, or some were said before
/// the deletion). The quotes are the user's words; a content is the model's,
/// so a deleted text written under an unrelated quote stays out.
pub fn keeps_out(
    tombstones: &[Tombstone],
    content: &str,
    quotes: &[&str],
    oldest_said_at: Option<Time>,
) -> bool {
    if tombstones.is_empty() {
        return false;
    }
    let fingerprints = crate::text::fingerprints(content);
    // A deleted text written inside a longer one (`质检部，负责乳品微生物检测；
    // 另外关注燕麦饮`): any run of its clauses is checked too.
    let within: Vec<String> = crate::text::clause_runs(content)
        .into_iter()
        .map(crate::text::folded_fingerprint)
        .collect();
    let said_again = crate::text::restates(content, quotes.iter().copied());
    tombstones.iter().any(|t| {
        (fingerprints.contains(&t.fingerprint) || within.contains(&t.fingerprint))
            && (!said_again || oldest_said_at.is_none_or(|o| o <= t.deleted_at))
    })
}

/// One change, applied with others in a single transaction by `Store::apply`.
/// The `Expect…` variants write nothing: they re-check, inside the
/// transaction and under row locks, what the changes were decided on; when
/// one fails the whole transaction fails as stale and nothing is written.
#[derive(Debug, Clone, PartialEq)]
pub enum Write {
    /// `owner` still holds the user's stage-two claim at `now`.
    ExpectUserClaim {
        user_id: String,
        owner: String,
        now: Time,
    },
    /// The user's memories are exactly these, at these versions (no deletion,
    /// disable, edit or expiry since they were read), with this many tombstones.
    ExpectMemories {
        user_id: String,
        versions: Vec<(String, i64)>,
        tombstones: i64,
    },
    /// Every one of these slips still exists, is the user's, and is not erased
    /// (no deletion erased them, no purge removed the user).
    ExpectSlipsLive {
        user_id: String,
        slip_ids: Vec<String>,
    },
    InsertMemory(Memory),
    /// Replaces the memory's row, only if its version is still `expected_version`;
    /// otherwise the whole transaction fails as stale.
    UpdateMemory {
        memory: Memory,
        expected_version: i64,
    },
    AddEvidence {
        memory_id: String,
        slip_ids: Vec<String>,
    },
    ReplaceEvidence {
        memory_id: String,
        slip_ids: Vec<String>,
    },
    InsertEvent(Event),
    /// Erases the memory's text from its history (contents and retire
    /// reasons), the given slips (every slip that ever backed it or that its
    /// creation superseded), the suggestions aimed at it and the given ones
    /// (pending with the same text); pending ones become `withdrawn` at
    /// `at` (spec §7).
    EraseText {
        memory_id: String,
        slip_ids: Vec<String>,
        suggestion_ids: Vec<String>,
        at: Time,
    },
    InsertTombstone(Tombstone),
    InsertSlip(Slip),
    InsertSuggestion {
        suggestion: Suggestion,
        slip_ids: Vec<String>,
    },
    AddSuggestionEvidence {
        suggestion_id: String,
        slip_ids: Vec<String>,
    },
    /// Moves slips to `state`; erased slips stay erased.
    SetSlipStates {
        slip_ids: Vec<String>,
        state: SlipState,
    },
    InsertLoad(Load),
    /// Stores the embedding of a memory's text at `version` by `model`,
    /// replacing one of an older version (never one of a newer).
    SaveEmbedding {
        memory_id: String,
        version: i64,
        model: String,
        vector: Vec<f32>,
    },
    /// Records a person's decision, only if the suggestion is still pending;
    /// an accepted creation records the memory it made.
    DecideSuggestion {
        suggestion_id: String,
        status: SuggestionStatus,
        decided_at: Time,
        memory_id: Option<String>,
    },
}

impl Write {
    /// What the write does and to which record, for an error's context.
    pub fn describe(&self) -> String {
        match self {
            Write::InsertMemory(m) => format!("insert of memory {}", m.memory_id),
            Write::UpdateMemory { memory, .. } => format!("update of memory {}", memory.memory_id),
            Write::AddEvidence { memory_id, .. } | Write::ReplaceEvidence { memory_id, .. } => {
                format!("evidence of memory {memory_id}")
            }
            Write::InsertEvent(e) => format!("event {} of memory {}", e.event_id, e.memory_id),
            Write::EraseText { memory_id, .. } => format!("erasure of memory {memory_id}"),
            Write::ExpectUserClaim { user_id, .. } => format!("the claim on user {user_id}"),
            Write::ExpectMemories { user_id, .. } => format!("the memories of user {user_id}"),
            Write::ExpectSlipsLive { user_id, .. } => format!("the slips of user {user_id}"),
            Write::InsertTombstone(t) => format!("tombstone of memory {}", t.memory_id),
            Write::InsertSlip(s) => format!("insert of slip {}", s.slip_id),
            Write::InsertSuggestion { suggestion, .. } => {
                format!("insert of suggestion {}", suggestion.suggestion_id)
            }
            Write::AddSuggestionEvidence { suggestion_id, .. } => {
                format!("evidence of suggestion {suggestion_id}")
            }
            Write::SetSlipStates { state, .. } => format!("moving slips to {state}"),
            Write::InsertLoad(load) => format!("load {}", load.load_id),
            Write::SaveEmbedding { memory_id, .. } => format!("embedding of memory {memory_id}"),
            Write::DecideSuggestion { suggestion_id, .. } => {
                format!("decision on suggestion {suggestion_id}")
            }
        }
    }
}

/// A new, time-ordered identifier for memories, events, slips and suggestions.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each name is spelt as its variant in snake_case, which is what the
    /// OpenAPI schemas say (`names!` explains why they cannot read the spelling).
    fn spelt_in_snake_case<T: fmt::Debug + fmt::Display>(all: &[T]) {
        for name in all {
            let mut snake = String::new();
            for (i, c) in format!("{name:?}").chars().enumerate() {
                if c.is_ascii_uppercase() && i > 0 {
                    snake.push('_');
                }
                snake.push(c.to_ascii_lowercase());
            }
            assert_eq!(name.to_string(), snake);
        }
    }

    #[test]
    fn every_name_is_its_variant_in_snake_case() {
        spelt_in_snake_case(Kind::ALL);
        spelt_in_snake_case(Role::ALL);
        spelt_in_snake_case(Origin::ALL);
        spelt_in_snake_case(Status::ALL);
        spelt_in_snake_case(Actor::ALL);
        spelt_in_snake_case(Durability::ALL);
        spelt_in_snake_case(SlipState::ALL);
        spelt_in_snake_case(SuggestionOp::ALL);
        spelt_in_snake_case(SuggestionStatus::ALL);
        spelt_in_snake_case(DropReason::ALL);
        spelt_in_snake_case(RejectReason::ALL);
        spelt_in_snake_case(Applied::ALL);
    }

    #[test]
    fn scopes_parse_as_spec_3_says() {
        for ok in ["global", "domain:recipe", "project:A", "domain:标准", "project:奶制品-2026"]
        {
            assert_eq!(ok.parse::<Scope>().unwrap().as_str(), ok);
        }
        for bad in [
            "",
            "recipe",
            "domain:",
            "domain:a b",
            "domain:a:b",
            "team:x",
            "Global",
            &format!("project:{}", "x".repeat(65)),
            "project:nul\u{0}",
            "domain:\u{1b}]52;c;cm0=\u{7}",
            "project:del\u{7f}",
            "project:a\u{200b}b",
            "project:\u{202e}drowssap",
            "domain:soft\u{ad}hyphen",
            "project:arabic\u{61c}mark",
            "project:\u{2800}",
            "project:hangul\u{3164}filler",
        ] {
            let refusal = bad.parse::<Scope>().expect_err(bad);
            assert!(bad.is_empty() || !refusal.contains(bad), "never repeated: {refusal}");
        }
        for (scope, name) in
            [("global", ""), ("domain:recipe", "recipe"), ("project:奶制品-2026", "奶制品-2026")]
        {
            assert_eq!(scope.parse::<Scope>().unwrap().name(), name);
        }
    }

    #[test]
    fn ids_are_not_blank_not_too_long_visible_and_on_one_line() {
        for ok in ["jay", "用户-1", " jay", &"x".repeat(MAX_ID_CHARS)] {
            assert_eq!(check_id(ok, "user_id"), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("", "must not be empty"),
            ("  ", "must not be empty"),
            (&"x".repeat(MAX_ID_CHARS + 1), "longer than 256"),
            ("jay\nemma", "control characters"),
            ("jay\u{0}", "control characters"),
            ("\u{200B}", "invisible characters"),
            ("jay\u{200B}", "invisible characters"),
            ("\u{202E}jay", "invisible characters"),
            ("*", "every user"),
        ] {
            let err = check_id(bad, "user_id").unwrap_err();
            assert!(err.starts_with("user_id ") && err.contains(why), "{bad:?}: {err}");
        }
    }

    #[test]
    fn specificity_orders_project_domain_global() {
        let s = |x: &str| x.parse::<Scope>().unwrap().specificity();
        assert!(s("project:A") > s("domain:recipe"));
        assert!(s("domain:recipe") > s("global"));
    }

    #[test]
    fn names_round_trip_and_refuse_unknown_spellings() {
        for k in Kind::ALL {
            assert_eq!(k.as_str().parse::<Kind>().unwrap(), *k);
        }
        let err = "preference".parse::<Kind>().unwrap_err();
        assert!(err.contains("presentation") && !err.contains("preference"), "{err}");
    }

    #[test]
    fn an_active_memory_past_expiry_is_expired_before_any_sweep() {
        let now: Time = "2026-11-29T12:00:00Z".parse().unwrap();
        let mut m = Memory {
            memory_id: "m".into(),
            user_id: "u".into(),
            kind: Kind::RecentFocus,
            scope: Scope::global(),
            origin: Origin::Auto,
            status: Status::Active,
            version: 1,
            content: Some("dairy".into()),
            created_at: now,
            updated_at: now,
            expires_at: Some(now),
            source_conversation_id: None,
            source_message_id: None,
        };
        assert_eq!(m.status_at(now), Status::Expired);
        m.expires_at = Some(now + chrono::Duration::seconds(1));
        assert_eq!(m.status_at(now), Status::Active);
        m.status = Status::Disabled;
        m.expires_at = Some(now);
        assert_eq!(m.status_at(now), Status::Disabled);
    }
}
