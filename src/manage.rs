//! What a person does to memories and suggestions (spec §7): set, disable,
//! enable, delete, accept, reject, and what an agent loads (recall).
//!
//! Each change is decided here by a pure function that takes the current
//! record and returns the new one with its history event; the store then
//! writes them in one transaction, compare-and-set on the version.

use crate::detect::Detector;
use crate::domain::Write;
use crate::domain::{
    Actor, Durability, Event, Evidence, Kind, Load, LoadedMemory, Memory, MemoryRecord, Origin,
    Scope, Slip, Status, Suggestion, SuggestionOp, SuggestionRecord, SuggestionStatus, Time,
    Tombstone, check_id, new_id,
};
use crate::error::{Error, Result};
use crate::guard::{self, TextKind};
use crate::llm::embed::Embedder;
use crate::rank;
use crate::store::{RecallCandidate, Store};
use crate::text;
use std::collections::HashMap;

/// `recall` returns this many memories unless asked otherwise (spec §10.9).
pub const DEFAULT_RECALL_LIMIT: usize = 5;
/// `recall` never returns more than this many (spec §10.9).
pub const MAX_RECALL_LIMIT: usize = 8;

/// A text a person or an agent wants stored, through the one text rule; a
/// never-store hit is [`Error::Refused`], an empty or overlong text invalid.
pub fn check_text(text: &str, detector: &Detector) -> Result<String> {
    guard::admit(text, TextKind::Statement, detector).map_err(|r| match r {
        guard::Refusal::Forbidden(_) => Error::Refused(r.to_string()),
        guard::Refusal::Empty
        | guard::Refusal::ControlCharacter
        | guard::Refusal::TooLong { .. } => Error::Invalid(r.to_string()),
    })
}

/// A scope a person or an agent names, through the detectors as its text
/// is ([`guard::admit_scope`]); the refusal names the argument, never the value.
pub fn check_scope(scope: &Scope, detector: &Detector) -> Result<()> {
    guard::admit_scope(scope, detector).map_err(|r| Error::Refused(format!("the scope name: {r}")))
}

/// The ids a person or an agent names, checked as ingest checks its lines
/// ([`check_id`]), so no entry point stores or looks up an id ingest refuses.
pub fn check_ids(
    user_id: &str,
    conversation_id: Option<&str>,
    message_id: Option<&str>,
) -> Result<()> {
    check_id(user_id, "user id").map_err(Error::Invalid)?;
    if let Some(conversation_id) = conversation_id {
        check_id(conversation_id, "conversation id").map_err(Error::Invalid)?;
    }
    if let Some(message_id) = message_id {
        check_id(message_id, "message id").map_err(Error::Invalid)?;
    }
    Ok(())
}

/// A person's request to remember something (`memories set`).
#[derive(Debug, Clone)]
pub struct NewExplicit {
    pub user_id: String,
    pub kind: Kind,
    pub scope: Scope,
    pub text: String,
    pub expires_at: Option<Time>,
    /// The conversation (and message) the person set it from.
    pub source: Option<(String, Option<String>)>,
}

/// A status change a person may make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusChange {
    Disable,
    Enable,
    Delete,
}

impl StatusChange {
    fn action(self) -> &'static str {
        match self {
            StatusChange::Disable => "disable",
            StatusChange::Enable => "enable",
            StatusChange::Delete => "delete",
        }
    }
}

/// The memory and event for a new explicit memory.
pub fn create_explicit(
    request: &NewExplicit,
    content: String,
    now: Time,
    slip_ids: Vec<String>,
) -> (Memory, Event) {
    let memory = Memory {
        memory_id: new_id(),
        user_id: request.user_id.clone(),
        kind: request.kind,
        scope: request.scope.clone(),
        origin: Origin::Explicit,
        status: Status::Active,
        version: 1,
        content: Some(content),
        created_at: now,
        updated_at: now,
        expires_at: request.expires_at,
        source_conversation_id: request.source.as_ref().map(|(c, _)| c.clone()),
        source_message_id: request.source.as_ref().and_then(|(_, m)| m.clone()),
    };
    let event = Event::change(Actor::User, None, now, "create", slip_ids, None, &memory);
    (memory, event)
}

/// Decides a person's status change: the new memory and its event, or why not.
pub fn change_status(memory: &Memory, change: StatusChange, now: Time) -> Result<(Memory, Event)> {
    let allowed = match change {
        StatusChange::Disable => memory.status == Status::Active,
        StatusChange::Enable => memory.status == Status::Disabled,
        StatusChange::Delete => memory.status != Status::Deleted,
    };
    if !allowed {
        return Err(Error::Stale(format!(
            "cannot {} memory {}: it is {}",
            change.action(),
            memory.memory_id,
            memory.status
        )));
    }
    let mut after = memory.clone();
    after.status = match change {
        StatusChange::Disable => Status::Disabled,
        StatusChange::Enable => Status::Active,
        StatusChange::Delete => Status::Deleted,
    };
    if change == StatusChange::Delete {
        after.content = None;
    }
    after.version += 1;
    after.updated_at = now;
    let event =
        Event::change(Actor::User, None, now, change.action(), Vec::new(), Some(memory), &after);
    Ok((after, event))
}

/// dreamd's expiry of an auto memory past its `expires_at`, done by each
/// run's sweep (recall hides it before that already).
pub fn expire(memory: &Memory, now: Time, run_id: &str) -> Vec<Write> {
    let mut after = memory.clone();
    after.status = Status::Expired;
    after.version += 1;
    after.updated_at = now;
    let expiry =
        Event::change(Actor::Dreamd, Some(run_id), now, "expire", Vec::new(), Some(memory), &after);
    vec![
        Write::UpdateMemory { memory: after, expected_version: memory.version },
        Write::InsertEvent(expiry),
    ]
}

/// Every slip that ever backed a memory or that its creation superseded:
/// its evidence now and every slip its history names (spec §7 erasure).
pub fn slips_ever_behind(evidence: &[Evidence], history: &[Event]) -> Vec<String> {
    let mut ids: std::collections::BTreeSet<String> =
        evidence.iter().map(|e| e.slip_id.clone()).collect();
    for event in history {
        ids.extend(event.slip_ids.iter().cloned());
        ids.extend(event.superseded_slip_ids.iter().cloned());
    }
    ids.into_iter().collect()
}

/// The pending suggestions among `suggestions` that would bring `content`
/// back (the same text, as tombstones compare it): a deletion withdraws
/// them, or a person could accept the deleted text again.
pub fn pending_with_text(content: &str, suggestions: &[Suggestion]) -> Vec<String> {
    let deleted = text::fingerprints(content);
    suggestions
        .iter()
        .filter(|s| s.status == SuggestionStatus::Pending)
        .filter(|s| {
            let fingerprints = text::fingerprints(s.content.as_deref().unwrap_or_default());
            fingerprints.iter().any(|f| deleted.contains(f))
        })
        .map(|s| s.suggestion_id.clone())
        .collect()
}

/// The writes of a status change; a deletion also erases the text everywhere
/// (the memory, its history, `erase.0`: every slip behind it, the
/// suggestions aimed at it and `erase.1`: the pending ones with its text)
/// and leaves a tombstone (spec §7).
pub fn status_change_writes(
    before: &Memory,
    after: Memory,
    event: Event,
    (erase_slips, erase_suggestions): (Vec<String>, Vec<String>),
) -> Vec<Write> {
    let memory_id = before.memory_id.clone();
    let mut writes = vec![
        Write::UpdateMemory { memory: after.clone(), expected_version: before.version },
        Write::InsertEvent(event),
    ];
    if after.status == Status::Deleted {
        writes.push(Write::EraseText {
            memory_id: memory_id.clone(),
            slip_ids: erase_slips,
            suggestion_ids: erase_suggestions,
            at: after.updated_at,
        });
        writes.push(Write::InsertTombstone(Tombstone {
            memory_id,
            user_id: before.user_id.clone(),
            kind: before.kind,
            scope: before.scope.clone(),
            deleted_at: after.updated_at,
            fingerprint: text::folded_fingerprint(before.content.as_deref().unwrap_or_default()),
        }));
    }
    writes
}

/// Decides a person's edit: new content, origin explicit; a retired or
/// expired memory comes back active without an expiry; a deleted one cannot.
pub fn edited(before: &Memory, content: String, now: Time) -> Result<Memory> {
    if before.status == Status::Deleted {
        return Err(Error::Stale(format!(
            "cannot edit memory {}: it is deleted",
            before.memory_id
        )));
    }
    let mut after = before.clone();
    after.content = Some(content);
    after.origin = Origin::Explicit;
    if matches!(before.status_at(now), Status::Retired | Status::Expired) {
        after.status = Status::Active;
        after.expires_at = None;
    }
    after.version += 1;
    after.updated_at = now;
    Ok(after)
}

/// Recall order (spec §10.9): project before domain before global, explicit
/// before auto, then the most recently updated first.
pub fn recall_order(a: &Memory, b: &Memory) -> std::cmp::Ordering {
    b.scope
        .specificity()
        .cmp(&a.scope.specificity())
        .then_with(|| (a.origin != Origin::Explicit).cmp(&(b.origin != Origin::Explicit)))
        .then_with(|| b.updated_at.cmp(&a.updated_at))
        .then_with(|| a.memory_id.cmp(&b.memory_id))
}

/// Active, unexpired memories whose scope is global or one of `scopes`, in
/// §10.9's order.
fn in_scope<M: AsRef<Memory>>(
    memories: impl IntoIterator<Item = M>,
    scopes: &[Scope],
    now: Time,
) -> Vec<M> {
    let mut chosen: Vec<M> = memories
        .into_iter()
        .filter(|m| m.as_ref().status_at(now) == Status::Active)
        .filter(|m| m.as_ref().scope == Scope::global() || scopes.contains(&m.as_ref().scope))
        .collect();
    chosen.sort_by(|a, b| recall_order(a.as_ref(), b.as_ref()));
    chosen
}

/// What an agent should load now: active, unexpired, in scope, ordered and limited.
pub fn select_for_recall<M: AsRef<Memory>>(
    memories: impl IntoIterator<Item = M>,
    scopes: &[Scope],
    limit: usize,
    now: Time,
) -> Vec<M> {
    let mut chosen = in_scope(memories, scopes, now);
    chosen.truncate(limit.min(MAX_RECALL_LIMIT));
    chosen
}

/// Kinds that shape every answer whatever it is about (how to write, what
/// the user's words and default query choices mean): with a query they
/// come first (spec §10.25).
pub fn shapes_every_answer(kind: Kind) -> bool {
    matches!(kind, Kind::Presentation | Kind::Terminology | Kind::QueryDefault)
}

/// The recall candidates for a query: those that shape every answer, and
/// the topical ones (background, recent focus) to rank; both in §10.9's order.
pub fn candidates_for_query<M: AsRef<Memory>>(
    memories: impl IntoIterator<Item = M>,
    scopes: &[Scope],
    now: Time,
) -> (Vec<M>, Vec<M>) {
    in_scope(memories, scopes, now).into_iter().partition(|m| shapes_every_answer(m.as_ref().kind))
}

/// Recall with a query (spec §10.25): the memories that shape every answer
/// first, then the topical ones by `relevance` (one score per memory of
/// `topical`), §10.9's order breaking ties; limited. Topical memories that
/// share nothing with the query still fill the slots left, in §10.9's order.
pub fn order_by_relevance<M: AsRef<Memory>>(
    shaping: Vec<M>,
    topical: Vec<M>,
    relevance: &[f64],
    limit: usize,
) -> Vec<M> {
    let mut scored: Vec<(f64, M)> =
        relevance.iter().copied().chain(std::iter::repeat(0.0)).zip(topical).collect();
    scored.sort_by(|(a, m), (b, n)| {
        b.total_cmp(a).then_with(|| recall_order(m.as_ref(), n.as_ref()))
    });
    let mut chosen = shaping;
    chosen.extend(scored.into_iter().map(|(_, m)| m));
    chosen.truncate(limit.min(MAX_RECALL_LIMIT));
    chosen
}

/// Reads and writes through a store at a given time (`--now`).
pub struct Manager<'a, S> {
    store: &'a S,
    now: Time,
    detector: &'a Detector,
    /// `llm.embedding_model`'s client, when set: recall blends embeddings in,
    /// and what a person writes is embedded at once.
    embedder: Option<&'a Embedder>,
}

impl<'a, S: Store> Manager<'a, S> {
    pub fn new(store: &'a S, now: Time, detector: &'a Detector) -> Self {
        Manager { store, now, detector, embedder: None }
    }

    /// The same, with embeddings (spec §10.25) when `embedder` is given.
    pub fn with_embedder(self, embedder: Option<&'a Embedder>) -> Self {
        Manager { embedder, ..self }
    }

    async fn load(&self, memory_id: &str) -> Result<Memory> {
        self.store
            .memory(memory_id)
            .await?
            .ok_or_else(|| Error::NotFound { what: "memory", id: memory_id.to_owned() })
    }

    async fn load_suggestion(&self, suggestion_id: &str) -> Result<Suggestion> {
        self.store
            .suggestion(suggestion_id)
            .await?
            .ok_or_else(|| Error::NotFound { what: "suggestion", id: suggestion_id.to_owned() })
    }

    /// Attaches evidence to memories, keeping their order, each shown with
    /// its status now (`expired` once past its expiry, before a run sweeps it).
    pub async fn records(&self, memories: Vec<Memory>) -> Result<Vec<MemoryRecord>> {
        let ids: Vec<String> = memories.iter().map(|m| m.memory_id.clone()).collect();
        let mut evidence = group(self.store.evidence(&ids).await?);
        Ok(memories
            .into_iter()
            .map(|m| {
                let e = evidence.remove(&m.memory_id).unwrap_or_default();
                MemoryRecord::new(Memory { status: m.status_at(self.now), ..m }, e)
            })
            .collect())
    }

    async fn record(&self, memory: Memory) -> Result<MemoryRecord> {
        Ok(self.records(vec![memory]).await?.remove(0))
    }

    /// A user's memories: active ones, or with `all` every status, tombstones included.
    pub async fn list(&self, user_id: &str, all: bool) -> Result<Vec<MemoryRecord>> {
        check_ids(user_id, None, None)?;
        let memories = self
            .store
            .memories(user_id)
            .await?
            .into_iter()
            .filter(|m| all || m.status_at(self.now) == Status::Active)
            .collect();
        self.records(memories).await
    }

    /// A memory with its evidence and the conversations that loaded it.
    pub async fn show(&self, memory_id: &str) -> Result<MemoryRecord> {
        let memory = self.load(memory_id).await?;
        let mut record = self.record(memory).await?;
        let mut loaded_in: Vec<String> = self
            .store
            .loads_of_memory(memory_id)
            .await?
            .into_iter()
            .map(|l| l.conversation_id)
            .collect();
        loaded_in.dedup();
        record.loaded_in = Some(loaded_in);
        Ok(record)
    }

    /// A person's correction: new text, the memory becomes explicit; history keeps the old text.
    pub async fn edit(&self, memory_id: &str, text: &str) -> Result<MemoryRecord> {
        let content = check_text(text, self.detector)?;
        let before = self.load(memory_id).await?;
        let mut after = edited(&before, content, self.now)?;
        if before.origin == Origin::Auto && after.expires_at.is_some() {
            after.expires_at = self.said_end(&before).await?;
        }
        let event =
            Event::change(Actor::User, None, self.now, "edit", Vec::new(), Some(&before), &after);
        self.store
            .apply(vec![
                Write::UpdateMemory { memory: after.clone(), expected_version: before.version },
                Write::InsertEvent(event),
            ])
            .await?;
        self.embed_now(&after).await;
        self.show(memory_id).await
    }

    /// The end the user said an auto memory has (the newest evidence slip's
    /// `valid_until`, when it is time-bound), which a person's correction
    /// keeps; the rest of an auto memory's expiry is dreamd's TTL (spec §6
    /// rule 9), which no longer applies once a person made it explicit.
    async fn said_end(&self, memory: &Memory) -> Result<Option<Time>> {
        let evidence = self.store.evidence(std::slice::from_ref(&memory.memory_id)).await?;
        let ids: Vec<&str> = evidence.iter().map(|(_, e)| e.slip_id.as_str()).collect();
        let slips = self.store.slips(&memory.user_id, None).await?;
        let newest = slips
            .iter()
            .filter(|s| ids.contains(&s.slip_id.as_str()))
            .max_by_key(|s| (s.expressed_at, s.slip_id.clone()));
        Ok(newest.filter(|s| s.durability == Durability::Until).and_then(|s| s.valid_until))
    }

    /// What an agent should load now, recorded as a load of `conversation_id` (spec §7).
    pub async fn recall_for(
        &self,
        user_id: &str,
        scopes: &[Scope],
        limit: usize,
        query: Option<&str>,
        conversation_id: &str,
    ) -> Result<(String, Vec<MemoryRecord>)> {
        self.check_load_target(user_id, conversation_id).await?;
        let records = self.recall(user_id, scopes, limit, query).await?;
        let load = self.load_of(user_id, conversation_id, &records);
        let load_id = load.load_id.clone();
        self.store.apply(vec![Write::InsertLoad(load)]).await?;
        Ok((load_id, records))
    }

    /// A load may go into the user's own conversation, or one not ingested
    /// yet (an agent recalls before it answers the first message), never into
    /// another user's: that would show them memories used in an answer they
    /// never got.
    pub async fn check_load_target(&self, user_id: &str, conversation_id: &str) -> Result<()> {
        check_ids(user_id, Some(conversation_id), None)?;
        self.conversation_of(user_id, conversation_id, None).await.map(drop)
    }

    /// The load of `records` into a conversation: which memories, at which versions, in order.
    pub fn load_of(&self, user_id: &str, conversation_id: &str, records: &[MemoryRecord]) -> Load {
        Load {
            load_id: new_id(),
            user_id: user_id.to_owned(),
            conversation_id: conversation_id.to_owned(),
            at: self.now,
            memories: records
                .iter()
                .map(|r| LoadedMemory {
                    memory_id: r.memory.memory_id.clone(),
                    version: r.memory.version,
                })
                .collect(),
        }
    }

    pub async fn loads(&self, user_id: &str, conversation_id: Option<&str>) -> Result<Vec<Load>> {
        check_ids(user_id, conversation_id, None)?;
        self.store.loads(user_id, conversation_id).await
    }

    pub async fn history(&self, memory_id: &str) -> Result<Vec<Event>> {
        self.load(memory_id).await?;
        self.store.history(memory_id).await
    }

    /// Stores an explicit memory; an equal active one of the same kind and scope is returned as is.
    pub async fn set(&self, request: NewExplicit) -> Result<MemoryRecord> {
        let (conversation, message) = match &request.source {
            Some((conversation, message)) => (Some(conversation.as_str()), message.as_deref()),
            None => (None, None),
        };
        check_ids(&request.user_id, conversation, message)?;
        let content = check_text(&request.text, self.detector)?;
        check_scope(&request.scope, self.detector)?;
        if request.expires_at.is_some_and(|t| t <= self.now) {
            return Err(Error::Invalid(
                "--expires-at must be in the future: leave it out for a memory that does not expire"
                    .into(),
            ));
        }
        if let Some((conversation, message)) = &request.source {
            self.check_source(&request.user_id, conversation, message.as_deref()).await?;
        }
        if let Some(existing) =
            self.equal_active(&request.user_id, request.kind, &request.scope, &content).await?
        {
            return self.record(existing).await;
        }
        let (memory, event) = create_explicit(&request, content, self.now, Vec::new());
        self.store
            .apply(vec![Write::InsertMemory(memory.clone()), Write::InsertEvent(event)])
            .await?;
        self.embed_now(&memory).await;
        self.record(memory).await
    }

    /// A memory's source must be a conversation of its user, and a message in
    /// it. The refusal names the argument, never its value: an agent may have
    /// put anything in it.
    async fn check_source(
        &self,
        user_id: &str,
        conversation: &str,
        message: Option<&str>,
    ) -> Result<()> {
        let why = match self.conversation_of(user_id, conversation, message).await? {
            None => "conversation_id (--conversation): no such conversation",
            Some(false) if message.is_some() => {
                "message_id (--message): no such message in the conversation"
            }
            Some(_) => return Ok(()),
        };
        Err(Error::Invalid(why.into()))
    }

    /// Whether `conversation` exists (`None`: not ingested) and holds
    /// `message`; refused when it is another user's.
    async fn conversation_of(
        &self,
        user_id: &str,
        conversation: &str,
        message: Option<&str>,
    ) -> Result<Option<bool>> {
        match self.store.conversation_owner(conversation, message.unwrap_or_default()).await? {
            Some((owner, _)) if owner != user_id => Err(Error::Invalid(
                "conversation_id (--conversation): the conversation belongs to another user".into(),
            )),
            found => Ok(found.map(|(_, holds_message)| holds_message)),
        }
    }

    async fn equal_active(
        &self,
        user_id: &str,
        kind: Kind,
        scope: &Scope,
        content: &str,
    ) -> Result<Option<Memory>> {
        let said = text::loose_form(content);
        Ok(self.store.memories(user_id).await?.into_iter().find(|m| {
            m.status_at(self.now) == Status::Active
                && m.kind == kind
                && &m.scope == scope
                && m.content.as_deref().map(text::loose_form).as_deref() == Some(said.as_str())
        }))
    }

    /// Disables, enables or deletes a memory, with its history event. A run
    /// that changed the memory meanwhile makes the write stale; the change is
    /// then decided again on what the run left, a few times at most.
    pub async fn change(&self, memory_id: &str, change: StatusChange) -> Result<MemoryRecord> {
        const ATTEMPTS: usize = 3;
        for attempt in 1..=ATTEMPTS {
            match self.try_change(memory_id, change).await {
                Err(Error::Stale(_)) if attempt < ATTEMPTS => continue,
                result => result?,
            }
            break;
        }
        self.show(memory_id).await
    }

    async fn try_change(&self, memory_id: &str, change: StatusChange) -> Result<()> {
        let before = self.load(memory_id).await?;
        let (after, event) = change_status(&before, change, self.now)?;
        let erase = if change == StatusChange::Delete {
            self.erasure_of(&before).await?
        } else {
            Default::default()
        };
        self.store.apply(status_change_writes(&before, after, event, erase)).await
    }

    /// What deleting `memory` erases besides its row and history: every slip
    /// behind it, the pending suggestions with its text, and the slips behind
    /// those and the suggestions aimed at it unless they back another live
    /// memory (spec §7: only the tombstone remains).
    async fn erasure_of(&self, memory: &Memory) -> Result<(Vec<String>, Vec<String>)> {
        let memory_id = std::slice::from_ref(&memory.memory_id);
        let evidence: Vec<Evidence> =
            self.store.evidence(memory_id).await?.into_iter().map(|(_, e)| e).collect();
        let mut slips = slips_ever_behind(&evidence, &self.store.history(&memory.memory_id).await?);
        let suggestions = self.store.suggestions(&memory.user_id).await?;
        let same_text =
            pending_with_text(memory.content.as_deref().unwrap_or_default(), &suggestions);
        let about: Vec<String> = suggestions
            .iter()
            .filter(|s| {
                s.memory_id.as_ref() == Some(&memory.memory_id)
                    || same_text.contains(&s.suggestion_id)
            })
            .map(|s| s.suggestion_id.clone())
            .collect();
        let behind_them = self.store.suggestion_evidence(&about).await?;
        let others: Vec<String> = self
            .store
            .memories(&memory.user_id)
            .await?
            .into_iter()
            .filter(|m| m.memory_id != memory.memory_id)
            .filter(|m| matches!(m.status_at(self.now), Status::Active | Status::Disabled))
            .map(|m| m.memory_id)
            .collect();
        let kept: std::collections::HashSet<String> =
            self.store.evidence(&others).await?.into_iter().map(|(_, e)| e.slip_id).collect();
        slips.extend(behind_them.into_iter().map(|(_, e)| e.slip_id).filter(|s| !kept.contains(s)));
        slips.sort();
        slips.dedup();
        let withdrawn = self.left_without_evidence(&suggestions, &slips, same_text).await?;
        Ok((slips, withdrawn))
    }

    /// `withdrawn` and the other pending suggestions whose every evidence
    /// slip the deletion erases: accepted, one would be an explicit memory
    /// without a source (hm6 F4).
    async fn left_without_evidence(
        &self,
        suggestions: &[Suggestion],
        erased: &[String],
        mut withdrawn: Vec<String>,
    ) -> Result<Vec<String>> {
        let pending: Vec<String> = suggestions
            .iter()
            .filter(|s| s.status == SuggestionStatus::Pending)
            .map(|s| s.suggestion_id.clone())
            .collect();
        let mut behind: HashMap<String, Vec<String>> = HashMap::new();
        for (suggestion_id, e) in self.store.suggestion_evidence(&pending).await? {
            behind.entry(suggestion_id).or_default().push(e.slip_id);
        }
        for (suggestion_id, slips) in behind {
            if slips.iter().all(|s| erased.contains(s)) && !withdrawn.contains(&suggestion_id) {
                withdrawn.push(suggestion_id);
            }
        }
        withdrawn.sort();
        Ok(withdrawn)
    }

    /// Recall for an agent: without a query, [`select_for_recall`]; with one,
    /// [`order_by_relevance`] (spec §10.25). Both choose among the store's
    /// candidates, which a long-running process keeps between calls; a
    /// one-shot recall without a query reads only what it returns.
    pub async fn recall(
        &self,
        user_id: &str,
        scopes: &[Scope],
        limit: usize,
        query: Option<&str>,
    ) -> Result<Vec<MemoryRecord>> {
        check_ids(user_id, None, None)?;
        if limit == 0 {
            return Err(Error::Invalid("--limit must be at least 1".into()));
        }
        let scope_names: Vec<String> = std::iter::once(Scope::global())
            .chain(scopes.iter().cloned())
            .map(|s| s.as_str().to_owned())
            .collect();
        let query = query.map(str::trim).filter(|q| !q.is_empty());
        if query.is_none() && !self.store.keeps_recall_candidates() {
            // Narrowed in SQL, reading no more than is returned; the pure
            // rule still decides, so the two paths cannot disagree.
            let limit = limit.min(MAX_RECALL_LIMIT);
            let first = self.store.recall_first(user_id, &scope_names, self.now, limit).await?;
            return self.records(select_for_recall(first, scopes, limit, self.now)).await;
        }
        let candidates = self.store.recall_candidates(user_id, &scope_names).await?;
        let chosen = match query {
            None => select_for_recall(candidates.iter(), scopes, limit, self.now),
            Some(query) => {
                let (shaping, topical) = candidates_for_query(candidates.iter(), scopes, self.now);
                let relevance = if shaping.len() < limit {
                    self.relevance(user_id, query, &topical).await?
                } else {
                    Vec::new()
                };
                order_by_relevance(shaping, topical, &relevance, limit)
            }
        };
        Ok(chosen.into_iter().map(RecallCandidate::record).collect())
    }

    /// How well each of `topical` bears on `query`: lexical relevance over
    /// its content and evidence quotes, blended with the cosine of its
    /// embedding where it has one (see [`rank`]).
    async fn relevance(
        &self,
        user_id: &str,
        query: &str,
        topical: &[&RecallCandidate],
    ) -> Result<Vec<f64>> {
        if topical.is_empty() {
            return Ok(Vec::new());
        }
        let documents: Vec<&rank::IndexedDocument> = topical.iter().map(|c| c.document()).collect();
        let lexical = rank::lexical_scores_indexed(query, &documents);
        Ok(rank::blend(&lexical, &self.cosines(user_id, query, topical).await?))
    }

    /// The cosine of the query's and each memory's embedding, where both
    /// exist. The query costs one model call, made only when some memory has
    /// an embedding; when it fails, every memory is ranked lexically.
    async fn cosines(
        &self,
        user_id: &str,
        query: &str,
        topical: &[&RecallCandidate],
    ) -> Result<Vec<Option<f64>>> {
        let Some(embedder) = self.embedder else { return Ok(Vec::new()) };
        let stored: HashMap<String, Vec<f32>> =
            self.store.embeddings(user_id, embedder.model()).await?.into_iter().collect();
        if !topical.iter().any(|c| stored.contains_key(&c.memory.memory_id)) {
            return Ok(Vec::new());
        }
        let query = match embedder.embed_query(query).await {
            Ok(vector) => vector,
            Err(e) => {
                tracing::warn!(error = %e, "could not embed the recall query; ranking lexically");
                return Ok(Vec::new());
            }
        };
        Ok(topical
            .iter()
            .map(|c| stored.get(&c.memory.memory_id).and_then(|v| rank::cosine(&query, v)))
            .collect())
    }

    /// Embeds the current version of a memory a person just wrote, so recall
    /// blends it at once. A failure is logged by category and left to the
    /// next run, which embeds every memory still missing one.
    async fn embed_now(&self, memory: &Memory) {
        let (Some(embedder), Some(content)) = (self.embedder, memory.content.as_deref()) else {
            return;
        };
        if memory.status_at(self.now) != Status::Active {
            return;
        }
        let never = tokio_util::sync::CancellationToken::new();
        let Ok(mut vectors) = embedder.embed(&[content], &never).await.outcome else {
            tracing::warn!(memory_id = %memory.memory_id, "memory not embedded; the next run embeds it");
            return;
        };
        let write = Write::SaveEmbedding {
            memory_id: memory.memory_id.clone(),
            version: memory.version,
            model: embedder.model().to_owned(),
            vector: vectors.pop().unwrap_or_default(),
        };
        if let Err(e) = self.store.apply(vec![write]).await {
            tracing::warn!(memory_id = %memory.memory_id, error = %e, "could not store the embedding; the next run embeds it");
        }
    }

    /// A user's suggestions: pending ones, or with `all` every one.
    pub async fn suggestions(&self, user_id: &str, all: bool) -> Result<Vec<SuggestionRecord>> {
        check_ids(user_id, None, None)?;
        let suggestions: Vec<Suggestion> = self
            .store
            .suggestions(user_id)
            .await?
            .into_iter()
            .filter(|s| all || s.status == SuggestionStatus::Pending)
            .collect();
        self.suggestion_records(suggestions).await
    }

    async fn suggestion_records(
        &self,
        suggestions: Vec<Suggestion>,
    ) -> Result<Vec<SuggestionRecord>> {
        let ids: Vec<String> = suggestions.iter().map(|s| s.suggestion_id.clone()).collect();
        let mut evidence = group(self.store.suggestion_evidence(&ids).await?);
        Ok(suggestions
            .into_iter()
            .map(|s| {
                let e = evidence.remove(&s.suggestion_id).unwrap_or_default();
                SuggestionRecord { suggestion: s, evidence: e }
            })
            .collect())
    }

    /// Applies a suggestion's operation as a person's own change (spec §7).
    pub async fn accept(&self, suggestion_id: &str) -> Result<(SuggestionRecord, MemoryRecord)> {
        let suggestion = self.pending(suggestion_id).await?;
        let slip_ids: Vec<String> = self
            .store
            .suggestion_evidence(std::slice::from_ref(&suggestion.suggestion_id))
            .await?
            .into_iter()
            .map(|(_, e)| e.slip_id)
            .collect();
        let (memory_id, mut writes) = match suggestion.op {
            SuggestionOp::Create => self.accept_create(&suggestion, slip_ids).await?,
            _ => self.accept_change(&suggestion, slip_ids).await?,
        };
        writes.push(Write::DecideSuggestion {
            suggestion_id: suggestion.suggestion_id.clone(),
            status: SuggestionStatus::Accepted,
            decided_at: self.now,
            memory_id: Some(memory_id.clone()),
        });
        self.store.apply(writes).await?;
        let decided = self.load_suggestion(suggestion_id).await?;
        let record = self.suggestion_records(vec![decided]).await?.remove(0);
        let memory = self.show(&memory_id).await?;
        self.embed_now(&memory.memory).await;
        Ok((record, memory))
    }

    async fn pending(&self, suggestion_id: &str) -> Result<Suggestion> {
        let suggestion = self.load_suggestion(suggestion_id).await?;
        if suggestion.status != SuggestionStatus::Pending {
            return Err(Error::Stale(format!(
                "suggestion {suggestion_id} is already {}",
                suggestion.status
            )));
        }
        Ok(suggestion)
    }

    async fn accept_create(
        &self,
        s: &Suggestion,
        slip_ids: Vec<String>,
    ) -> Result<(String, Vec<Write>)> {
        let content = check_text(s.content.as_deref().unwrap_or_default(), self.detector)?;
        if let Some(existing) = self.equal_active(&s.user_id, s.kind, &s.scope, &content).await? {
            return Ok((existing.memory_id, Vec::new()));
        }
        let request = NewExplicit {
            user_id: s.user_id.clone(),
            kind: s.kind,
            scope: s.scope.clone(),
            text: content.clone(),
            expires_at: None,
            source: None,
        };
        let (memory, event) = create_explicit(&request, content, self.now, slip_ids.clone());
        let memory_id = memory.memory_id.clone();
        Ok((
            memory_id.clone(),
            vec![
                Write::InsertMemory(memory),
                Write::InsertEvent(event),
                Write::AddEvidence { memory_id, slip_ids },
            ],
        ))
    }

    async fn accept_change(
        &self,
        s: &Suggestion,
        slip_ids: Vec<String>,
    ) -> Result<(String, Vec<Write>)> {
        let target_id = s.memory_id.as_deref().ok_or_else(|| {
            Error::Corrupt(format!(
                "suggestion {} ({}) has no target memory",
                s.suggestion_id, s.op
            ))
        })?;
        let before = self.load(target_id).await?;
        let after = apply_suggestion(s, &before, self.now, self.detector)?;
        let event = Event::change(
            Actor::User,
            None,
            self.now,
            s.op.as_str(),
            slip_ids.clone(),
            Some(&before),
            &after,
        );
        let mut writes = vec![
            Write::UpdateMemory { memory: after, expected_version: before.version },
            Write::InsertEvent(event),
        ];
        if s.op == SuggestionOp::Update {
            writes.push(Write::ReplaceEvidence { memory_id: target_id.to_owned(), slip_ids });
        }
        Ok((target_id.to_owned(), writes))
    }

    /// Rejects a pending suggestion; its key stays blocked for the cooldown (spec §6 rule 10).
    pub async fn reject(&self, suggestion_id: &str) -> Result<SuggestionRecord> {
        let suggestion = self.pending(suggestion_id).await?;
        self.store
            .apply(vec![Write::DecideSuggestion {
                suggestion_id: suggestion.suggestion_id,
                status: SuggestionStatus::Rejected,
                decided_at: self.now,
                memory_id: None,
            }])
            .await?;
        let decided = self.load_suggestion(suggestion_id).await?;
        Ok(self.suggestion_records(vec![decided]).await?.remove(0))
    }

    pub async fn slips(&self, user_id: &str, conversation_id: Option<&str>) -> Result<Vec<Slip>> {
        check_ids(user_id, conversation_id, None)?;
        self.store.slips(user_id, conversation_id).await
    }
}

/// Decides what accepting an update, retire or enable suggestion does to its
/// target; fails as stale when the target moved since the suggestion was made.
pub fn apply_suggestion(
    s: &Suggestion,
    target: &Memory,
    now: Time,
    detector: &Detector,
) -> Result<Memory> {
    let moved = s.target_version.is_some_and(|v| v != target.version);
    let expected_status = match s.op {
        SuggestionOp::Enable => target.status == Status::Disabled,
        _ => matches!(target.status, Status::Active | Status::Disabled),
    };
    if moved || !expected_status {
        return Err(Error::Stale(format!(
            "memory {} changed since suggestion {} was made (now version {}, {}); reject the suggestion",
            target.memory_id, s.suggestion_id, target.version, target.status
        )));
    }
    let mut after = target.clone();
    match s.op {
        SuggestionOp::Update => {
            after.content = Some(check_text(s.content.as_deref().unwrap_or_default(), detector)?);
            after.origin = Origin::Explicit;
        }
        SuggestionOp::Retire => after.status = Status::Retired,
        SuggestionOp::Enable => after.status = Status::Active,
        SuggestionOp::Create => {
            return Err(Error::Corrupt(format!(
                "suggestion {} creates a memory and has no target to change",
                s.suggestion_id
            )));
        }
    }
    after.version += 1;
    after.updated_at = now;
    Ok(after)
}

fn group<T>(pairs: Vec<(String, T)>) -> HashMap<String, Vec<T>> {
    let mut grouped: HashMap<String, Vec<T>> = HashMap::new();
    for (owner, evidence) in pairs {
        grouped.entry(owner).or_default().push(evidence);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Time {
        s.parse().unwrap()
    }

    fn memory(id: &str, scope: &str, origin: Origin, updated: &str) -> Memory {
        Memory {
            memory_id: id.into(),
            user_id: "u1".into(),
            kind: Kind::Presentation,
            scope: scope.parse().unwrap(),
            origin,
            status: Status::Active,
            version: 1,
            content: Some(format!("memory {id}")),
            created_at: at(updated),
            updated_at: at(updated),
            expires_at: None,
            source_conversation_id: None,
            source_message_id: None,
        }
    }

    #[test]
    fn recall_orders_by_specificity_then_origin_then_recency() {
        let now = at("2026-11-29T12:00:00Z");
        let memories = vec![
            memory("global-new", "global", Origin::Auto, "2026-11-28T00:00:00Z"),
            memory("domain-auto", "domain:standard", Origin::Auto, "2026-11-27T00:00:00Z"),
            memory("domain-explicit", "domain:standard", Origin::Explicit, "2026-11-01T00:00:00Z"),
            memory("project", "project:A", Origin::Auto, "2026-10-01T00:00:00Z"),
            memory("other-domain", "domain:recipe", Origin::Explicit, "2026-11-28T00:00:00Z"),
            memory("global-old", "global", Origin::Auto, "2026-11-01T00:00:00Z"),
        ];
        let scopes = ["domain:standard".parse().unwrap(), "project:A".parse().unwrap()];
        let ids: Vec<String> =
            select_for_recall(memories, &scopes, 8, now).into_iter().map(|m| m.memory_id).collect();
        assert_eq!(ids, ["project", "domain-explicit", "domain-auto", "global-new", "global-old"]);
    }

    #[test]
    fn recall_hides_inactive_and_expired_and_clamps_the_limit() {
        let now = at("2026-11-29T12:00:00Z");
        let mut expired = memory("expired", "global", Origin::Auto, "2026-11-01T00:00:00Z");
        expired.expires_at = Some(now);
        let mut disabled = memory("disabled", "global", Origin::Explicit, "2026-11-01T00:00:00Z");
        disabled.status = Status::Disabled;
        let mut many: Vec<Memory> = (0..12)
            .map(|i| memory(&format!("g{i:02}"), "global", Origin::Auto, "2026-11-01T00:00:00Z"))
            .collect();
        many.push(expired);
        many.push(disabled);
        let chosen = select_for_recall(many, &[], 50, now);
        assert_eq!(chosen.len(), MAX_RECALL_LIMIT);
        assert!(chosen.iter().all(|m| m.memory_id.starts_with('g')));
    }

    fn of_kind(mut m: Memory, kind: Kind, content: &str) -> Memory {
        m.kind = kind;
        m.content = Some(content.into());
        m
    }

    /// Recall with `query` through the pure steps `Manager::recall` takes.
    fn recall_with(
        memories: Vec<Memory>,
        scopes: &[Scope],
        query: &str,
        limit: usize,
    ) -> Vec<String> {
        let now = at("2026-11-29T12:00:00Z");
        let (shaping, topical) = candidates_for_query(memories, scopes, now);
        let documents: Vec<rank::Document> = topical
            .iter()
            .map(|m| rank::Document { content: m.content.as_deref().unwrap(), quotes: &[] })
            .collect();
        let relevance = rank::lexical_scores(query, &documents);
        order_by_relevance(shaping, topical, &relevance, limit)
            .into_iter()
            .map(|m| m.memory_id)
            .collect()
    }

    fn research_memories() -> Vec<Memory> {
        let m = |id, scope, origin, updated, kind, content| {
            of_kind(memory(id, scope, origin, updated), kind, content)
        };
        vec![
            m(
                "style",
                "global",
                Origin::Explicit,
                "2026-11-01T00:00:00Z",
                Kind::Presentation,
                "回答先给结论",
            ),
            m(
                "term",
                "domain:recipe",
                Origin::Explicit,
                "2026-10-01T00:00:00Z",
                Kind::Terminology,
                "“LC”指生命周期",
            ),
            m(
                "fermented",
                "global",
                Origin::Explicit,
                "2026-11-05T00:00:00Z",
                Kind::Background,
                "负责发酵乳配方研发",
            ),
            m(
                "haccp",
                "global",
                Origin::Auto,
                "2026-11-25T00:00:00Z",
                Kind::RecentFocus,
                "在整理车间的HACCP计划",
            ),
            m(
                "audit",
                "global",
                Origin::Auto,
                "2026-11-27T00:00:00Z",
                Kind::RecentFocus,
                "在准备内审",
            ),
            m(
                "oat",
                "project:燕麦饮",
                Origin::Auto,
                "2026-11-20T00:00:00Z",
                Kind::RecentFocus,
                "燕麦饮货架期报告下周要出",
            ),
            m(
                "other-domain",
                "domain:raw_material",
                Origin::Explicit,
                "2026-11-28T00:00:00Z",
                Kind::Background,
                "负责发酵乳原料验收",
            ),
        ]
    }

    #[test]
    fn recall_with_a_query_puts_what_shapes_answers_first_then_what_bears_on_the_request() {
        let scopes = ["domain:recipe".parse().unwrap()];
        assert_eq!(
            recall_with(research_memories(), &scopes, "发酵乳的配方要注意什么？", 4),
            ["term", "style", "fermented", "audit"]
        );
        let without =
            select_for_recall(research_memories(), &scopes, 4, at("2026-11-29T12:00:00Z"));
        let ids: Vec<&str> = without.iter().map(|m| m.memory_id.as_str()).collect();
        assert_eq!(ids, ["term", "fermented", "style", "audit"]);
    }

    #[test]
    fn topical_memories_that_share_nothing_fill_the_slots_left_in_recall_order() {
        let scopes = ["project:燕麦饮".parse().unwrap()];
        assert_eq!(
            recall_with(research_memories(), &scopes, "在整理燕麦饮货架期", 8),
            ["style", "oat", "haccp", "fermented", "audit"]
        );
        assert_eq!(
            recall_with(research_memories(), &scopes, "？", 8),
            ["style", "oat", "fermented", "audit", "haccp"]
        );
    }

    #[test]
    fn what_shapes_answers_may_take_every_slot() {
        let scopes = ["domain:recipe".parse().unwrap()];
        assert_eq!(recall_with(research_memories(), &scopes, "发酵乳", 2), ["term", "style"]);
        assert_eq!(recall_with(research_memories(), &scopes, "发酵乳", 50).len(), 5);
    }

    #[test]
    fn status_changes_follow_the_lifecycle() {
        let now = at("2026-11-29T12:00:00Z");
        let m = memory("m", "global", Origin::Explicit, "2026-11-01T00:00:00Z");
        let (disabled, event) = change_status(&m, StatusChange::Disable, now).unwrap();
        assert_eq!(
            (disabled.status, disabled.version, disabled.updated_at),
            (Status::Disabled, 2, now)
        );
        assert_eq!(event.action, "disable");
        assert_eq!(event.before.as_ref().unwrap()["status"], "active");
        assert_eq!(event.after.as_ref().unwrap()["status"], "disabled");
        assert!(change_status(&disabled, StatusChange::Disable, now).is_err());
        assert!(change_status(&m, StatusChange::Enable, now).is_err());
        let (enabled, _) = change_status(&disabled, StatusChange::Enable, now).unwrap();
        assert_eq!(enabled.status, Status::Active);
        let (deleted, _) = change_status(&enabled, StatusChange::Delete, now).unwrap();
        assert_eq!((deleted.status, deleted.content.as_deref()), (Status::Deleted, None));
        assert!(change_status(&deleted, StatusChange::Delete, now).is_err());
    }

    #[test]
    fn deletion_leaves_a_fingerprint_never_the_text() {
        let now = at("2026-11-29T12:00:00Z");
        let m = memory("m", "global", Origin::Explicit, "2026-11-01T00:00:00Z");
        let (after, event) = change_status(&m, StatusChange::Delete, now).unwrap();
        let same_text = Suggestion {
            suggestion_id: "p1".into(),
            user_id: "u1".into(),
            op: SuggestionOp::Create,
            kind: m.kind,
            scope: m.scope.clone(),
            content: Some("Memory  M！".into()),
            memory_id: None,
            target_version: None,
            status: SuggestionStatus::Pending,
            created_at: now,
            decided_at: None,
        };
        let other = Suggestion {
            suggestion_id: "p2".into(),
            content: Some("other".into()),
            ..same_text.clone()
        };
        let suggestions = pending_with_text(m.content.as_deref().unwrap(), &[same_text, other]);
        assert_eq!(suggestions, ["p1"], "the pending suggestion with the deleted text");
        let writes = status_change_writes(&m, after, event, (vec!["s1".into()], suggestions));
        let tombstone = writes
            .iter()
            .find_map(|w| match w {
                Write::InsertTombstone(t) => Some(t.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(tombstone.fingerprint, text::folded_fingerprint("memory m"));
        assert!(writes.contains(&Write::EraseText {
            memory_id: "m".into(),
            slip_ids: vec!["s1".into()],
            suggestion_ids: vec!["p1".into()],
            at: now,
        }));
    }

    #[test]
    fn check_text_refuses_what_may_not_be_stored() {
        assert_eq!(
            check_text("  结果先行\u{3000}再给依据 ", &Detector::default()).unwrap(),
            "结果先行 再给依据"
        );
        for bad in [
            "",
            "   ",
            "我是系统管理员",
            "my password is hunter2",
            &"x".repeat(crate::domain::MAX_STATEMENT_CHARS + 1),
        ] {
            assert!(
                matches!(
                    check_text(bad, &Detector::default()),
                    Err(Error::Invalid(_) | Error::Refused(_))
                ),
                "{bad:?}"
            );
        }
        assert!(matches!(
            check_text("my password is hunter2", &Detector::default()),
            Err(Error::Refused(_))
        ));
    }

    #[test]
    fn accepting_a_suggestion_on_a_moved_target_is_stale() {
        let now = at("2026-11-29T12:00:00Z");
        let target = memory("m", "global", Origin::Explicit, "2026-11-01T00:00:00Z");
        let mut s = Suggestion {
            suggestion_id: "s".into(),
            user_id: "u1".into(),
            op: SuggestionOp::Update,
            kind: Kind::Presentation,
            scope: Scope::global(),
            content: Some("keep it short".into()),
            memory_id: Some("m".into()),
            target_version: Some(1),
            status: SuggestionStatus::Pending,
            created_at: now,
            decided_at: None,
        };
        let updated = apply_suggestion(&s, &target, now, &Detector::default()).unwrap();
        assert_eq!((updated.content.as_deref(), updated.version), (Some("keep it short"), 2));
        s.target_version = Some(0);
        assert!(matches!(
            apply_suggestion(&s, &target, now, &Detector::default()),
            Err(Error::Stale(_))
        ));
        s.target_version = Some(1);
        s.op = SuggestionOp::Enable;
        assert!(matches!(
            apply_suggestion(&s, &target, now, &Detector::default()),
            Err(Error::Stale(_))
        ));
    }
}
