//! The policy of spec §6: what of the model's proposals dreamd applies.
//!
//! Pure functions over a user's state. Each proposed operation is checked in
//! order against the state the ones before it left; the result is the list
//! of store writes, the counts for the run summary, and every rejection with
//! the id to look at. Nothing here can change an explicit memory: operations
//! aimed at one become suggestions for a person.

use crate::detect;
use crate::domain::{
    Actor, Applied, Event, Kind, KindPolicy, Memory, Origin, RejectReason, Rules, Scope, Slip,
    SlipState, Status, Suggestion, SuggestionOp, SuggestionStatus, Time, Tombstone, Write, new_id,
};
use crate::guard::{self, Refusal, TextKind};
use crate::llm::wire::{Item, Proposal};
use crate::said::SaidInRun;
use crate::text;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// A suggestion with the slips it rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct KnownSuggestion {
    pub suggestion: Suggestion,
    pub slip_ids: Vec<String>,
}

/// Everything the policy knows about one user, as read at the start.
#[derive(Debug, Clone)]
pub struct UserState {
    pub user_id: String,
    pub now: Time,
    pub run_id: String,
    /// Every memory of the user, by id, whatever its status.
    pub memories: BTreeMap<String, Memory>,
    /// Evidence slip ids of each memory.
    pub evidence: HashMap<String, Vec<String>>,
    /// The user's slips that are not erased, by id.
    pub slips: HashMap<String, Slip>,
    /// Pending and decided suggestions.
    pub suggestions: Vec<KnownSuggestion>,
    pub tombstones: Vec<Tombstone>,
    /// The recent messages of the user's conversations in which the
    /// detectors find a value (see `consolidate::StageTwo`): no text the
    /// model writes may carry a piece of one, a password without its label
    /// or four digits of an ID, which the model may have seen in stage one.
    pub messages_with_values: Vec<String>,
    /// New slips the model was not shown (more than a request holds): they
    /// stay `new` for the next run.
    pub unseen_slips: BTreeSet<String>,
    /// What each user said to the model in this run: no text the model
    /// writes for this user may carry words only another user said.
    pub said_in_run: Arc<SaidInRun>,
}

/// What the policy decided for one user.
#[derive(Debug, Default)]
pub struct Decisions {
    pub writes: Vec<Write>,
    /// Applied operations by name: create, update, confirm, retire, suggest.
    pub applied: BTreeMap<Applied, u64>,
    pub rejected: BTreeMap<RejectReason, u64>,
    /// Every rejection with the memory or slip id an operator should look at,
    /// when the op named one that belongs to the user (never a model's invention).
    pub rejections: Vec<Rejection>,
    pub deferred: u64,
    /// The new state of each slip this batch touched.
    pub slip_states: HashMap<String, SlipState>,
}

/// Why an operation was rejected, with the id of the user's to look at, if any.
pub type Rejection = (RejectReason, Option<String>);

fn reject(reason: RejectReason, id: &str) -> Rejection {
    (reason, Some(id.to_owned()).filter(|id| !id.is_empty()))
}

impl Decisions {
    /// Every slip the writes cite or move: they must still be there, unerased,
    /// when the writes are applied (spec §6 commit re-check).
    pub fn cited_slips(&self) -> Vec<String> {
        let mut ids = BTreeSet::new();
        for w in &self.writes {
            match w {
                Write::AddEvidence { slip_ids, .. }
                | Write::ReplaceEvidence { slip_ids, .. }
                | Write::InsertSuggestion { slip_ids, .. }
                | Write::AddSuggestionEvidence { slip_ids, .. }
                | Write::SetSlipStates { slip_ids, .. } => ids.extend(slip_ids.iter().cloned()),
                Write::InsertEvent(e) => {
                    ids.extend(e.slip_ids.iter().cloned());
                    ids.extend(e.superseded_slip_ids.iter().cloned());
                }
                _ => {}
            }
        }
        ids.into_iter().collect()
    }
}

/// Decides `proposals` in order and settles every slip of `groups` that is
/// still `new` (spec §6: none stays `new`), but those the model was not shown. A malformed proposal is counted
/// and costs only itself.
pub fn decide(
    state: &mut UserState,
    proposals: Vec<Item<Proposal>>,
    rules: &Rules,
    groups: &BTreeSet<(Kind, Scope)>,
) -> Decisions {
    let mut d = Decisions::default();
    let most = most_operations(state);
    for (i, proposal) in proposals.into_iter().enumerate() {
        let outcome = match &proposal {
            _ if i >= most => Err((RejectReason::TooMany, None)),
            Item::Valid(p) => decide_one(state, p, rules, &mut d),
            Item::Malformed => Err((RejectReason::Malformed, None)),
        };
        if let Err((reason, id)) = outcome {
            *d.rejected.entry(reason).or_default() += 1;
            d.rejections.push((reason, id));
        }
    }
    settle_slips(state, groups, &mut d);
    d
}

/// The most operations one answer may carry: each one cites a slip or aims
/// at a memory, so an honest answer has a few per slip and memory of the
/// user at most (and never fewer than [`MIN_OPERATIONS_CAP`] are read). The
/// rest are rejected (`too_many`) unread: an answer of thousands of creates
/// on one slip would otherwise fan one statement out into thousands of
/// memories, and each check reads the memories already decided.
fn most_operations(state: &UserState) -> usize {
    (OPERATIONS_PER_ITEM * (state.slips.len() + state.memories.len())).max(MIN_OPERATIONS_CAP)
}

const OPERATIONS_PER_ITEM: usize = 4;

/// The most live memories one slip is evidence of: one statement gives a
/// few lasting things, never dozens (a hostile answer made 64 memories of
/// one unrelated sentence).
const MAX_MEMORIES_PER_SLIP: usize = 4;
const MIN_OPERATIONS_CAP: usize = 64;

fn decide_one(
    state: &mut UserState,
    p: &Proposal,
    rules: &Rules,
    d: &mut Decisions,
) -> Result<(), Rejection> {
    match p {
        Proposal::Create { kind, scope, content, slip_ids, supersedes_slip_ids } => {
            create(state, rules, d, (kind, scope), content, slip_ids, supersedes_slip_ids)
        }
        Proposal::Update { memory_id, content, slip_ids } => {
            update(state, rules, d, memory_id, content, slip_ids)
        }
        Proposal::Confirm { memory_id, slip_ids } => confirm(state, rules, d, memory_id, slip_ids),
        Proposal::Retire { memory_id, reason, slip_ids } => {
            retire(state, rules, d, memory_id, reason, slip_ids)
        }
        Proposal::Suggest { kind, scope, content, memory_id, slip_ids } => suggest_proposed(
            state,
            rules,
            d,
            (kind, scope),
            content,
            memory_id.as_deref(),
            slip_ids,
        ),
    }
}

/// The op's kind and scope; a model's unknown spelling is `invalid` (and never logged).
fn parse_group(kind: &str, scope: &str) -> Result<(Kind, Scope), Rejection> {
    let k: Kind = kind.parse().map_err(|_| (RejectReason::Invalid, None))?;
    let s: Scope = scope.parse().map_err(|_| (RejectReason::Invalid, None))?;
    Ok((k, s))
}

/// A text the model wrote, through the one text rule (spec §10.22) and
/// free of pieces of what the user's messages hold (spec §2: every text
/// the model writes is checked, whatever it quotes).
fn checked_text(
    state: &UserState,
    text: &str,
    rules: &Rules,
    id: &str,
) -> Result<String, Rejection> {
    let text =
        guard::admit(text, TextKind::Statement, &rules.detector).map_err(
            |refusal| match refusal {
                Refusal::Forbidden(_) => reject(RejectReason::Forbidden, id),
                Refusal::Empty | Refusal::ControlCharacter | Refusal::TooLong { .. } => {
                    reject(RejectReason::Invalid, id)
                }
            },
        )?;
    let sources = state.messages_with_values.iter().map(String::as_str);
    if detect::carries_a_piece(&[&text], sources, &rules.detector) {
        return Err(reject(RejectReason::Forbidden, id));
    }
    if !state.messages_with_values.is_empty() && detect::writes_an_unseen_code(&text, state.shown())
    {
        return Err(reject(RejectReason::Forbidden, id));
    }
    Ok(text)
}

/// Rejects a text the model wrote that carries words only another user
/// said this run ([`SaidInRun`]) and what it was written from does not
/// hold: outright, not as a suggestion, which would show them to this user.
fn none_of_anothers_words<'a>(
    state: &UserState,
    content: &str,
    cited: impl IntoIterator<Item = &'a Slip>,
    memory: Option<&Memory>,
    id: &str,
) -> Result<(), Rejection> {
    // The quotes, not the slips' contents: a content the model wrote in
    // stage one may carry them already (a slip checked before the other
    // user's conversation was sent).
    let quotes = cited.into_iter().map(|s| s.quote.as_deref());
    let own = quotes.chain([memory.and_then(|m| m.content.as_deref())]).flatten();
    if state.said_in_run.carries_anothers_words(&state.user_id, content, own) {
        Err(reject(RejectReason::AnotherUsersWords, id))
    } else {
        Ok(())
    }
}

/// Rejects a memory's text the model wrote that does not rest on the
/// slips it cites and the memory it rewrites ([`text::rests_on`]): a model
/// that has seen another user's conversation may not write that user's
/// words into this one's memories (model review of December 2026, M4), nor
/// show them to this user as a suggestion. The slips wait, `deferred`, for
/// the next text written of them; stage one has kept the user's own words
/// in them.
fn grounded<'a>(
    content: &str,
    cited: impl IntoIterator<Item = &'a Slip>,
    memory: Option<&Memory>,
    id: &str,
) -> Result<(), Rejection> {
    let slips = cited.into_iter().flat_map(|s| [s.content.as_deref(), s.quote.as_deref()]);
    let evidence = slips.chain([memory.and_then(|m| m.content.as_deref())]).flatten();
    if text::rests_on(content, evidence) {
        Ok(())
    } else {
        Err(reject(RejectReason::Ungrounded, id))
    }
}

impl UserState {
    /// The texts a request may show the model: its memories, and its
    /// slips' contents and quotes.
    fn shown(&self) -> impl Iterator<Item = &str> {
        let memories = self.memories.values().map(|m| m.content.as_deref());
        let slips = self.slips.values().flat_map(|s| [s.content.as_deref(), s.quote.as_deref()]);
        memories.chain(slips).flatten()
    }

    fn memory(&self, id: &str) -> Result<&Memory, Rejection> {
        self.memories.get(id).ok_or((RejectReason::UnknownId, None))
    }

    /// The cited slips, all known and of the group (spec §6 rule 1).
    /// The slips an operation cites as its evidence, less those that are an
    /// explicit memory's evidence (they may not back what dreamd learns, or
    /// deleting that would erase the explicit memory's quote: spec §7
    /// erases every slip behind a deleted memory) and those that already
    /// back [`MAX_MEMORIES_PER_SLIP`] live memories.
    fn cited(&self, ids: &[String], group: &(Kind, Scope)) -> Result<Vec<Slip>, Rejection> {
        let mut slips = self.known(ids, group)?;
        slips.retain(|s| {
            !self.backs_explicit_memory(&s.slip_id)
                && self.live_memories_backed_by(&s.slip_id) < MAX_MEMORIES_PER_SLIP
        });
        Ok(slips)
    }

    /// The slips `ids` name: known and of the group (rule 1), each once.
    fn known(&self, ids: &[String], group: &(Kind, Scope)) -> Result<Vec<Slip>, Rejection> {
        let mut slips = Vec::new();
        for id in ids {
            let slip = self.slips.get(id).ok_or((RejectReason::UnknownId, None))?;
            if (slip.kind, &slip.scope) != (group.0, &group.1) {
                return Err(reject(RejectReason::ScopeMismatch, id));
            }
            if !slips.iter().any(|s: &Slip| &s.slip_id == id) {
                slips.push(slip.clone());
            }
        }
        Ok(slips)
    }

    /// The slips a create replaces: known, of the group (rule 1), older than
    /// the newest cited slip, and evidence of no other live memory.
    fn superseded(
        &self,
        ids: &[String],
        cited: &[Slip],
        group: &(Kind, Scope),
    ) -> Result<Vec<Slip>, Rejection> {
        let slips = self.known(ids, group)?;
        let newest = cited.iter().map(|s| s.expressed_at).max();
        let mut kept = Vec::new();
        for slip in slips {
            if cited.iter().any(|c| c.slip_id == slip.slip_id) {
                continue;
            }
            if newest.is_none_or(|n| slip.expressed_at >= n) {
                return Err(reject(RejectReason::StaleEvidence, &slip.slip_id));
            }
            if self.backs_live_memory(&slip.slip_id) {
                return Err(reject(RejectReason::InUse, &slip.slip_id));
            }
            kept.push(slip);
        }
        Ok(kept)
    }

    /// Whether a slip is evidence of an explicit memory, whatever its status.
    fn backs_explicit_memory(&self, slip_id: &str) -> bool {
        self.evidence.iter().any(|(memory_id, slips)| {
            slips.iter().any(|s| s == slip_id)
                && self.memories.get(memory_id).is_some_and(|m| m.origin == Origin::Explicit)
        })
    }

    /// Whether a slip is evidence of an active or disabled memory.
    fn backs_live_memory(&self, slip_id: &str) -> bool {
        self.live_memories_backed_by(slip_id) > 0
    }

    /// How many active or disabled memories a slip is evidence of.
    fn live_memories_backed_by(&self, slip_id: &str) -> usize {
        let live = |memory_id: &String| {
            self.memories
                .get(memory_id)
                .is_some_and(|m| matches!(m.status_at(self.now), Status::Active | Status::Disabled))
        };
        self.evidence
            .iter()
            .filter(|(memory_id, slips)| slips.iter().any(|s| s == slip_id) && live(memory_id))
            .count()
    }

    /// The last deletion or disable in a group: evidence expressed before it never counts (§10.8).
    fn blocked_until(&self, group: &(Kind, Scope)) -> Option<Time> {
        let deleted = self
            .tombstones
            .iter()
            .filter(|t| (t.kind, &t.scope) == (group.0, &group.1))
            .map(|t| t.deleted_at);
        let disabled = self
            .memories
            .values()
            .filter(|m| m.status == Status::Disabled && (m.kind, &m.scope) == (group.0, &group.1))
            .map(|m| m.updated_at);
        deleted.chain(disabled).max()
    }

    /// The slips that count as evidence: not consumed, not from before a deletion or disable.
    fn counting(&self, slips: Vec<Slip>, group: &(Kind, Scope)) -> Vec<Slip> {
        let blocked = self.blocked_until(group);
        slips
            .into_iter()
            .filter(|s| {
                s.state != SlipState::Consumed && blocked.is_none_or(|b| s.expressed_at > b)
            })
            .collect()
    }

    fn newest_evidence(&self, memory_id: &str) -> Option<Time> {
        self.evidence
            .get(memory_id)?
            .iter()
            .filter_map(|id| self.slips.get(id))
            .map(|s| s.expressed_at)
            .max()
    }

    /// A tombstone with the same text whose deletion came after some of the
    /// evidence, or whose text the evidence's quotes do not say again (§6
    /// rule 7: "the user said it again"): a deleted text comes back only on
    /// newer words of the user that share its terms, never on an unrelated
    /// slip (the quotes are the user's words; a slip's content is the model's).
    fn tombstoned(&self, content: &str, evidence: &[Slip]) -> bool {
        let oldest = evidence.iter().map(|s| s.expressed_at).min();
        let quotes: Vec<&str> = evidence.iter().filter_map(|s| s.quote.as_deref()).collect();
        crate::domain::keeps_out(&self.tombstones, content, &quotes, oldest)
    }

    /// A memory of the group in `status` that says what `content` says
    /// ([`text::loose_form`]: the same letters and numbers, whatever the
    /// punctuation, width or script), so that no two memories differ by a
    /// `！` and a person who deletes one does not find its twin recalled.
    fn equal_memory(
        &self,
        group: &(Kind, Scope),
        content: &str,
        status: Status,
    ) -> Option<&Memory> {
        let said = text::loose_form(content);
        self.memories.values().find(|m| {
            m.status_at(self.now) == status
                && (m.kind, &m.scope) == (group.0, &group.1)
                && m.content.as_deref().map(text::loose_form).as_deref() == Some(said.as_str())
        })
    }
}

fn nonempty(slips: Vec<Slip>, cited_any: bool) -> Result<Vec<Slip>, Rejection> {
    if slips.is_empty() {
        let reason = if cited_any { RejectReason::Tombstoned } else { RejectReason::NoEvidence };
        return Err((reason, None));
    }
    Ok(slips)
}

fn ids(slips: &[Slip]) -> Vec<String> {
    slips.iter().map(|s| s.slip_id.clone()).collect()
}

fn distinct_conversations(slips: &[Slip]) -> usize {
    slips.iter().map(|s| &s.conversation_id).collect::<BTreeSet<_>>().len()
}

/// Spec §6 rule 9: newest evidence + the kind's TTL, or the newest slip's end when it gave one.
pub fn expiry(kind_policy: &KindPolicy, evidence: &[Slip]) -> Option<Time> {
    let newest = evidence.iter().max_by_key(|s| s.expressed_at)?;
    let by_ttl =
        kind_policy.ttl_days.map(|d| newest.expressed_at + chrono::Duration::days(i64::from(d)));
    let until = newest.valid_until;
    match (by_ttl, until) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn dreamd_event(
    state: &UserState,
    action: Applied,
    slips: &[Slip],
    before: Option<&Memory>,
    after: &Memory,
) -> Event {
    Event::change(
        Actor::Dreamd,
        Some(&state.run_id),
        state.now,
        action.as_str(),
        ids(slips),
        before,
        after,
    )
}

fn mark(d: &mut Decisions, slips: &[Slip], slip_state: SlipState) {
    for s in slips {
        let entry = d.slip_states.entry(s.slip_id.clone()).or_insert(slip_state);
        if slip_state == SlipState::Consolidated {
            *entry = SlipState::Consolidated;
        }
    }
}

fn count(d: &mut Decisions, op: Applied) {
    *d.applied.entry(op).or_default() += 1;
}

fn create(
    state: &mut UserState,
    rules: &Rules,
    d: &mut Decisions,
    (kind, scope): (&str, &str),
    content: &str,
    slip_ids: &[String],
    supersedes: &[String],
) -> Result<(), Rejection> {
    let group = parse_group(kind, scope)?;
    let cited = state.cited(slip_ids, &group)?;
    let superseded = state.superseded(supersedes, &cited, &group)?;
    let first_slip = slip_ids.first().map_or("", |s| s.as_str());
    let content = checked_text(state, content, rules, first_slip)?;
    none_of_anothers_words(state, &content, cited.iter().chain(&superseded), None, first_slip)?;
    let evidence = nonempty(state.counting(cited.clone(), &group), !cited.is_empty())?;
    let superseded = state.counting(superseded, &group);
    if state.tombstoned(&content, &evidence) {
        return Err(reject(RejectReason::Tombstoned, &evidence[0].slip_id));
    }
    if let Some(disabled) = state.equal_memory(&group, &content, Status::Disabled).cloned() {
        return suggest_enable(state, rules, d, &disabled, &evidence);
    }
    if let Some(active) = state.equal_memory(&group, &content, Status::Active).cloned() {
        return confirm_memory(state, rules, d, &active, evidence);
    }
    let policy = rules.kind(group.0);
    if !policy.auto {
        return suggest(
            state,
            rules,
            d,
            SuggestionOp::Create,
            &group,
            Some(&content),
            None,
            &evidence,
        );
    }
    let all: Vec<Slip> = evidence.iter().chain(&superseded).cloned().collect();
    if distinct_conversations(&all) < policy.min_evidence as usize {
        d.deferred += 1;
        mark(d, &all, SlipState::Deferred);
        return Ok(());
    }
    grounded(&content, cited.iter().chain(&superseded), None, first_slip)?;
    let memory = Memory {
        memory_id: new_id(),
        user_id: state.user_id.clone(),
        kind: group.0,
        scope: group.1.clone(),
        origin: Origin::Auto,
        status: Status::Active,
        version: 1,
        content: Some(content),
        created_at: state.now,
        updated_at: state.now,
        expires_at: expiry(policy, &evidence),
        source_conversation_id: None,
        source_message_id: None,
    };
    let mut event = dreamd_event(state, Applied::Create, &evidence, None, &memory);
    event.superseded_slip_ids = ids(&superseded);
    d.writes.push(Write::InsertMemory(memory.clone()));
    d.writes.push(Write::InsertEvent(event));
    d.writes
        .push(Write::AddEvidence { memory_id: memory.memory_id.clone(), slip_ids: ids(&evidence) });
    mark(d, &evidence, SlipState::Consolidated);
    mark(d, &superseded, SlipState::Consumed);
    state.evidence.insert(memory.memory_id.clone(), ids(&evidence));
    state.memories.insert(memory.memory_id.clone(), memory);
    count(d, Applied::Create);
    Ok(())
}

/// A disabled memory said again: the person decides whether to enable it (spec §6 rule 7).
fn suggest_enable(
    state: &mut UserState,
    rules: &Rules,
    d: &mut Decisions,
    disabled: &Memory,
    evidence: &[Slip],
) -> Result<(), Rejection> {
    let group = (disabled.kind, disabled.scope.clone());
    suggest(state, rules, d, SuggestionOp::Enable, &group, None, Some(disabled), evidence)
}

/// The target of update, confirm and retire, with its group; `Err` when it is not active.
fn target(
    state: &UserState,
    memory_id: &str,
    slip_ids: &[String],
) -> Result<(Memory, Vec<Slip>), Rejection> {
    let memory = state.memory(memory_id)?.clone();
    let cited = state.cited(slip_ids, &(memory.kind, memory.scope.clone()))?;
    if !matches!(memory.status_at(state.now), Status::Active | Status::Disabled) {
        return Err(reject(RejectReason::NotActive, memory_id));
    }
    Ok((memory, cited))
}

/// Only active auto memories may be changed by dreamd (spec §6 rule 2).
fn changeable(memory: &Memory) -> bool {
    memory.origin == Origin::Auto && memory.status == Status::Active
}

fn newer_than_evidence(state: &UserState, memory: &Memory, slips: &[Slip]) -> Vec<Slip> {
    let newest = state.newest_evidence(&memory.memory_id);
    slips.iter().filter(|s| newest.is_none_or(|n| s.expressed_at > n)).cloned().collect()
}

fn update(
    state: &mut UserState,
    rules: &Rules,
    d: &mut Decisions,
    memory_id: &str,
    content: &str,
    slip_ids: &[String],
) -> Result<(), Rejection> {
    let (memory, cited) = target(state, memory_id, slip_ids)?;
    let group = (memory.kind, memory.scope.clone());
    let content = checked_text(state, content, rules, memory_id)?;
    none_of_anothers_words(state, &content, &cited, Some(&memory), memory_id)?;
    let evidence = nonempty(state.counting(cited.clone(), &group), !cited.is_empty())?;
    if state.tombstoned(&content, &evidence) {
        return Err(reject(RejectReason::Tombstoned, memory_id));
    }
    if let Some(disabled) = state
        .equal_memory(&group, &content, Status::Disabled)
        .filter(|m| m.memory_id != memory.memory_id)
        .cloned()
    {
        return suggest_enable(state, rules, d, &disabled, &evidence);
    }
    if !changeable(&memory) {
        grounded(&content, &cited, Some(&memory), memory_id)?;
        return suggest(
            state,
            rules,
            d,
            SuggestionOp::Update,
            &group,
            Some(&content),
            Some(&memory),
            &evidence,
        );
    }
    // Another memory says it already: the update would make a copy of it
    // (of an explicit one, beside it, and stale once a person corrects it).
    if let Some(active) = state
        .equal_memory(&group, &content, Status::Active)
        .filter(|m| m.memory_id != memory.memory_id)
        .cloned()
    {
        return confirm_memory(state, rules, d, &active, evidence);
    }
    if newer_than_evidence(state, &memory, &evidence).is_empty() {
        return Err(reject(RejectReason::StaleEvidence, memory_id));
    }
    grounded(&content, &cited, Some(&memory), memory_id)?;
    let mut after = memory.clone();
    after.content = Some(content);
    after.version += 1;
    after.updated_at = state.now;
    after.expires_at = expiry(rules.kind(memory.kind), &evidence);
    change(
        state,
        d,
        Change {
            action: Applied::Update,
            before: &memory,
            after,
            evidence: &evidence,
            replace: true,
            reason: None,
        },
    );
    Ok(())
}

fn confirm(
    state: &mut UserState,
    rules: &Rules,
    d: &mut Decisions,
    memory_id: &str,
    slip_ids: &[String],
) -> Result<(), Rejection> {
    let (memory, cited) = target(state, memory_id, slip_ids)?;
    let group = (memory.kind, memory.scope.clone());
    let evidence = nonempty(state.counting(cited.clone(), &group), !cited.is_empty())?;
    confirm_memory(state, rules, d, &memory, evidence)
}

/// Adds newer evidence and renews the expiry; a confirm on an explicit or
/// disabled memory is dropped without an event (spec §6 rule 2).
fn confirm_memory(
    state: &mut UserState,
    rules: &Rules,
    d: &mut Decisions,
    memory: &Memory,
    evidence: Vec<Slip>,
) -> Result<(), Rejection> {
    if !changeable(memory) {
        return Ok(());
    }
    let newer = newer_than_evidence(state, memory, &evidence);
    if newer.is_empty() {
        return Ok(());
    }
    let mut all: Vec<Slip> = state
        .evidence
        .get(&memory.memory_id)
        .into_iter()
        .flatten()
        .filter_map(|id| state.slips.get(id).cloned())
        .collect();
    all.extend(newer.iter().cloned());
    let mut after = memory.clone();
    after.version += 1;
    after.updated_at = state.now;
    after.expires_at = expiry(rules.kind(memory.kind), &all);
    change(
        state,
        d,
        Change {
            action: Applied::Confirm,
            before: memory,
            after,
            evidence: &newer,
            replace: false,
            reason: None,
        },
    );
    Ok(())
}

fn retire(
    state: &mut UserState,
    rules: &Rules,
    d: &mut Decisions,
    memory_id: &str,
    reason: &str,
    slip_ids: &[String],
) -> Result<(), Rejection> {
    let (memory, cited) = target(state, memory_id, slip_ids)?;
    let group = (memory.kind, memory.scope.clone());
    let reason = checked_text(state, reason, rules, memory_id)?;
    let evidence = nonempty(state.counting(cited.clone(), &group), !cited.is_empty())?;
    if !changeable(&memory) {
        return suggest(
            state,
            rules,
            d,
            SuggestionOp::Retire,
            &group,
            Some(&reason),
            Some(&memory),
            &evidence,
        );
    }
    let newer = newer_than_evidence(state, &memory, &evidence);
    if newer.is_empty() {
        return Err(reject(RejectReason::StaleEvidence, memory_id));
    }
    let mut after = memory.clone();
    after.status = Status::Retired;
    after.version += 1;
    after.updated_at = state.now;
    change(
        state,
        d,
        Change {
            action: Applied::Retire,
            before: &memory,
            after,
            evidence: &newer,
            replace: false,
            reason: Some(reason),
        },
    );
    Ok(())
}

/// A change dreamd makes to an auto memory.
struct Change<'a> {
    action: Applied,
    before: &'a Memory,
    after: Memory,
    /// The slips it rests on; with `replace` they become the whole evidence.
    evidence: &'a [Slip],
    replace: bool,
    /// Why a memory was retired, kept in the event.
    reason: Option<String>,
}

/// Writes a change to an auto memory with its event.
fn change(state: &mut UserState, d: &mut Decisions, c: Change) {
    debug_assert_eq!(c.before.origin, Origin::Auto, "the policy never changes explicit memories");
    let memory_id = c.before.memory_id.clone();
    let mut event = dreamd_event(state, c.action, c.evidence, Some(c.before), &c.after);
    if let (Some(reason), Some(serde_json::Value::Object(after))) = (c.reason, event.after.as_mut())
    {
        after.insert("reason".into(), serde_json::Value::String(reason));
    }
    d.writes
        .push(Write::UpdateMemory { memory: c.after.clone(), expected_version: c.before.version });
    d.writes.push(Write::InsertEvent(event));
    let slip_ids = ids(c.evidence);
    if c.replace {
        d.writes.push(Write::ReplaceEvidence {
            memory_id: memory_id.clone(),
            slip_ids: slip_ids.clone(),
        });
        state.evidence.insert(memory_id.clone(), slip_ids);
    } else {
        d.writes
            .push(Write::AddEvidence { memory_id: memory_id.clone(), slip_ids: slip_ids.clone() });
        state.evidence.entry(memory_id.clone()).or_default().extend(slip_ids);
    }
    mark(d, c.evidence, SlipState::Consolidated);
    state.memories.insert(memory_id, c.after);
    count(d, c.action);
}

fn suggest_proposed(
    state: &mut UserState,
    rules: &Rules,
    d: &mut Decisions,
    (kind, scope): (&str, &str),
    content: &str,
    memory_id: Option<&str>,
    slip_ids: &[String],
) -> Result<(), Rejection> {
    let group = parse_group(kind, scope)?;
    let target = memory_id.map(|id| state.memory(id).cloned()).transpose()?;
    if target.as_ref().is_some_and(|m| (m.kind, &m.scope) != (group.0, &group.1)) {
        return Err(reject(RejectReason::ScopeMismatch, memory_id.unwrap_or_default()));
    }
    if let Some(m) = &target
        && !matches!(m.status_at(state.now), Status::Active | Status::Disabled)
    {
        return Err(reject(RejectReason::NotActive, &m.memory_id));
    }
    let cited = state.cited(slip_ids, &group)?;
    let content = checked_text(state, content, rules, memory_id.unwrap_or(""))?;
    none_of_anothers_words(state, &content, &cited, target.as_ref(), memory_id.unwrap_or(""))?;
    let evidence = nonempty(state.counting(cited.clone(), &group), !cited.is_empty())?;
    if state.tombstoned(&content, &evidence) {
        return Err(reject(RejectReason::Tombstoned, &evidence[0].slip_id));
    }
    grounded(&content, &cited, target.as_ref(), memory_id.unwrap_or(""))?;
    let op = if target.is_some() { SuggestionOp::Update } else { SuggestionOp::Create };
    suggest(state, rules, d, op, &group, Some(&content), target.as_ref(), &evidence)
}

/// Records a suggestion, unless one with the same key is pending (its
/// evidence grows) or was rejected and is still blocked (spec §6 rule 10).
#[allow(clippy::too_many_arguments)]
fn suggest(
    state: &mut UserState,
    rules: &Rules,
    d: &mut Decisions,
    op: SuggestionOp,
    group: &(Kind, Scope),
    content: Option<&str>,
    target: Option<&Memory>,
    evidence: &[Slip],
) -> Result<(), Rejection> {
    let same_key = |s: &Suggestion| {
        (s.kind, &s.scope) == (group.0, &group.1)
            && match target {
                Some(m) => s.memory_id.as_deref() == Some(m.memory_id.as_str()),
                None => {
                    s.memory_id.is_none()
                        && s.content.as_deref().map(text::loose_form)
                            == content.map(text::loose_form)
                }
            }
    };
    let newest = evidence.iter().map(|s| s.expressed_at).max();
    for known in state.suggestions.iter_mut().filter(|k| same_key(&k.suggestion)) {
        match known.suggestion.status {
            SuggestionStatus::Pending => {
                let added: Vec<String> =
                    ids(evidence).into_iter().filter(|id| !known.slip_ids.contains(id)).collect();
                if !added.is_empty() {
                    d.writes.push(Write::AddSuggestionEvidence {
                        suggestion_id: known.suggestion.suggestion_id.clone(),
                        slip_ids: added.clone(),
                    });
                    known.slip_ids.extend(added);
                }
                mark(d, evidence, SlipState::Consolidated);
                count(d, Applied::Suggest);
                return Ok(());
            }
            SuggestionStatus::Rejected => {
                let decided = known.suggestion.decided_at.unwrap_or(known.suggestion.created_at);
                let cooling = state.now < decided + rules.suggestion_cooldown;
                let said_again = newest.is_some_and(|t| t > decided);
                if cooling || !said_again {
                    return Err(reject(
                        RejectReason::SuggestionRejected,
                        &known.suggestion.suggestion_id,
                    ));
                }
            }
            SuggestionStatus::Accepted | SuggestionStatus::Withdrawn => {}
        }
    }
    let suggestion = Suggestion {
        suggestion_id: new_id(),
        user_id: state.user_id.clone(),
        op,
        kind: group.0,
        scope: group.1.clone(),
        content: content.map(str::to_owned),
        memory_id: target.map(|m| m.memory_id.clone()),
        target_version: target.map(|m| m.version),
        status: SuggestionStatus::Pending,
        created_at: state.now,
        decided_at: None,
    };
    d.writes
        .push(Write::InsertSuggestion { suggestion: suggestion.clone(), slip_ids: ids(evidence) });
    state.suggestions.push(KnownSuggestion { suggestion, slip_ids: ids(evidence) });
    mark(d, evidence, SlipState::Consolidated);
    count(d, Applied::Suggest);
    Ok(())
}

/// After the operations no slip of the processed groups stays `new` (spec §6).
fn settle_slips(state: &UserState, groups: &BTreeSet<(Kind, Scope)>, d: &mut Decisions) {
    for slip in state.slips.values() {
        let in_group = groups.contains(&(slip.kind, slip.scope.clone()));
        let settled = d.slip_states.contains_key(&slip.slip_id);
        let waits = settled || state.unseen_slips.contains(&slip.slip_id);
        if in_group && slip.state == SlipState::New && !waits {
            d.slip_states.insert(slip.slip_id.clone(), SlipState::Deferred);
        }
    }
    let mut by_state: BTreeMap<SlipState, Vec<String>> = BTreeMap::new();
    for (id, new_state) in &d.slip_states {
        if state.slips.get(id).is_some_and(|s| s.state != *new_state) {
            by_state.entry(*new_state).or_default().push(id.clone());
        }
    }
    for (slip_state, mut slip_ids) in by_state {
        slip_ids.sort();
        d.writes.push(Write::SetSlipStates { slip_ids, state: slip_state });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Durability;

    const NOW: &str = "2026-11-29T12:00:00Z";

    fn at(s: &str) -> Time {
        s.parse().unwrap()
    }

    fn rules() -> Rules {
        crate::config::Config::from_toml("").unwrap().policy.rules
    }

    fn slip(id: &str, conversation: &str, kind: Kind, scope: &str, when: &str) -> Slip {
        Slip {
            slip_id: id.into(),
            user_id: "u1".into(),
            conversation_id: conversation.into(),
            message_id: format!("{id}-m"),
            kind,
            scope: scope.parse().unwrap(),
            durability: Durability::Lasting,
            valid_until: None,
            content: Some(said(id)),
            quote: Some(format!("quote {id}")),
            expressed_at: at(when),
            state: SlipState::New,
            run_id: Some("r0".into()),
        }
    }

    /// What a fixture slip says: the newer standard slips, what texts
    /// proposed from them rest on; the others `slip <id>`.
    fn said(id: &str) -> String {
        match id {
            "s2" => "标准列出条款号".into(),
            "s3" => "标准按流程卡整理，列出条款号".into(),
            _ => format!("slip {id}"),
        }
    }

    fn memory(
        id: &str,
        origin: Origin,
        status: Status,
        content: &str,
        evidence: &[&str],
    ) -> (Memory, Vec<String>) {
        let m = Memory {
            memory_id: id.into(),
            user_id: "u1".into(),
            kind: Kind::Presentation,
            scope: "domain:standard".parse().unwrap(),
            origin,
            status,
            version: 3,
            content: Some(content.into()),
            created_at: at("2026-11-01T00:00:00Z"),
            updated_at: at("2026-11-20T00:00:00Z"),
            expires_at: None,
            source_conversation_id: None,
            source_message_id: None,
        };
        (m, evidence.iter().map(|s| s.to_string()).collect())
    }

    /// A user with slips s1 (c1, 11-21), s2 (c2, 11-22), s3 (c3, 11-28) in
    /// presentation/domain:standard, t1 (terminology/global) and r1
    /// (presentation/domain:recipe); memories: `auto` (active auto, evidence
    /// s1), `explicit` (active explicit), `off` (disabled auto), `gone`
    /// (retired auto), `old` (active auto, expired by time).
    fn state() -> UserState {
        let p = Kind::Presentation;
        let slips = vec![
            slip("s1", "c1", p, "domain:standard", "2026-11-21T00:00:00Z"),
            slip("s2", "c2", p, "domain:standard", "2026-11-22T00:00:00Z"),
            slip("s3", "c3", p, "domain:standard", "2026-11-28T00:00:00Z"),
            slip("t1", "c1", Kind::Terminology, "global", "2026-11-28T00:00:00Z"),
            slip("r1", "c1", p, "domain:recipe", "2026-11-28T00:00:00Z"),
        ];
        let mut memories = vec![
            memory("auto", Origin::Auto, Status::Active, "标准按流程卡整理", &["s1"]),
            memory("explicit", Origin::Explicit, Status::Active, "复杂方案详细解释", &[]),
            memory("off", Origin::Auto, Status::Disabled, "表格对比配方", &[]),
            memory("gone", Origin::Auto, Status::Retired, "旧习惯", &[]),
            memory("old", Origin::Auto, Status::Active, "过期的", &[]),
        ];
        memories[2].0.updated_at = at("2026-11-10T00:00:00Z");
        memories[4].0.expires_at = Some(at("2026-11-25T00:00:00Z"));
        UserState {
            user_id: "u1".into(),
            now: at(NOW),
            run_id: "run-1".into(),
            evidence: memories.iter().map(|(m, e)| (m.memory_id.clone(), e.clone())).collect(),
            memories: memories.into_iter().map(|(m, _)| (m.memory_id.clone(), m)).collect(),
            slips: slips.into_iter().map(|s| (s.slip_id.clone(), s)).collect(),
            suggestions: Vec::new(),
            tombstones: Vec::new(),
            messages_with_values: Vec::new(),
            unseen_slips: BTreeSet::new(),
            said_in_run: Arc::default(),
        }
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn create(
        kind: &str,
        scope: &str,
        content: &str,
        slips: &[&str],
        supersedes: &[&str],
    ) -> Proposal {
        Proposal::Create {
            kind: kind.into(),
            scope: scope.into(),
            content: content.into(),
            slip_ids: ids(slips),
            supersedes_slip_ids: ids(supersedes),
        }
    }

    fn update(memory: &str, content: &str, slips: &[&str]) -> Proposal {
        Proposal::Update { memory_id: memory.into(), content: content.into(), slip_ids: ids(slips) }
    }

    fn confirm(memory: &str, slips: &[&str]) -> Proposal {
        Proposal::Confirm { memory_id: memory.into(), slip_ids: ids(slips) }
    }

    fn retire(memory: &str, reason: &str, slips: &[&str]) -> Proposal {
        Proposal::Retire { memory_id: memory.into(), reason: reason.into(), slip_ids: ids(slips) }
    }

    fn suggest(
        kind: &str,
        scope: &str,
        content: &str,
        memory: Option<&str>,
        slips: &[&str],
    ) -> Proposal {
        Proposal::Suggest {
            kind: kind.into(),
            scope: scope.into(),
            content: content.into(),
            memory_id: memory.map(Into::into),
            slip_ids: ids(slips),
        }
    }

    /// What one proposal came to, in a word.
    fn verdict(d: &Decisions) -> String {
        if let Some((reason, _)) = d.rejections.first() {
            return format!("rejected:{reason}");
        }
        if d.deferred > 0 {
            return "deferred".into();
        }
        for w in &d.writes {
            match w {
                Write::InsertSuggestion { suggestion, .. } => {
                    return format!("suggest:{}", suggestion.op);
                }
                Write::AddSuggestionEvidence { .. } => return "suggest:evidence".into(),
                _ => {}
            }
        }
        d.applied.keys().next().map_or("dropped".into(), |op| op.to_string())
    }

    fn check(setup: impl Fn(&mut UserState), proposal: Proposal, expected: &str) {
        let mut s = state();
        setup(&mut s);
        let explicit_before = s.memories["explicit"].clone();
        let groups = s.slips.values().map(|s| (s.kind, s.scope.clone())).collect();
        let d = decide(&mut s, vec![Item::Valid(proposal.clone())], &rules(), &groups);
        assert_eq!(verdict(&d), expected, "{proposal:?}");
        assert_eq!(
            s.memories["explicit"], explicit_before,
            "explicit memory changed by {proposal:?}"
        );
        let touches_explicit = d.writes.iter().any(
            |w| matches!(w, Write::UpdateMemory { memory, .. } if memory.memory_id == "explicit"),
        );
        assert!(!touches_explicit);
    }

    fn nothing(_: &mut UserState) {}

    fn tombstone(
        fingerprint_of: &str,
        group: (Kind, &str),
        deleted_at: &str,
    ) -> impl Fn(&mut UserState) {
        let t = Tombstone {
            memory_id: "deleted".into(),
            user_id: "u1".into(),
            kind: group.0,
            scope: group.1.parse().unwrap(),
            deleted_at: at(deleted_at),
            fingerprint: text::fingerprint(fingerprint_of),
        };
        move |s: &mut UserState| s.tombstones.push(t.clone())
    }

    fn known(
        status: SuggestionStatus,
        content: &str,
        decided_at: Option<&str>,
    ) -> impl Fn(&mut UserState) {
        let k = KnownSuggestion {
            suggestion: Suggestion {
                suggestion_id: "known".into(),
                user_id: "u1".into(),
                op: SuggestionOp::Create,
                kind: Kind::Terminology,
                scope: Scope::global(),
                content: Some(content.into()),
                memory_id: None,
                target_version: None,
                status,
                created_at: at("2026-11-01T00:00:00Z"),
                decided_at: decided_at.map(at),
            },
            slip_ids: vec![],
        };
        move |s: &mut UserState| s.suggestions.push(k.clone())
    }

    const PS: (&str, &str) = ("presentation", "domain:standard");

    #[test]
    fn rule_1_ids_must_exist_belong_to_the_user_and_match_the_group() {
        check(nothing, create(PS.0, PS.1, "x", &["s2", "nope"], &[]), "rejected:unknown_id");
        check(
            nothing,
            create(PS.0, PS.1, "x", &["someone-elses-slip"], &[]),
            "rejected:unknown_id",
        );
        check(nothing, update("someone-elses-memory", "x", &["s3"]), "rejected:unknown_id");
        check(nothing, create(PS.0, PS.1, "x", &["s2", "r1"], &[]), "rejected:scope_mismatch");
        check(nothing, update("auto", "x", &["t1"]), "rejected:scope_mismatch");
        check(nothing, create(PS.0, PS.1, "x", &[], &[]), "rejected:no_evidence");
        check(nothing, create("preference", PS.1, "x", &["s2"], &[]), "rejected:invalid");
    }

    #[test]
    fn rule_2_explicit_and_disabled_targets_become_suggestions_or_are_dropped() {
        check(nothing, update("explicit", "标准列出条款号", &["s3"]), "suggest:update");
        check(
            nothing,
            retire("explicit", "user now wants short answers", &["s3"]),
            "suggest:retire",
        );
        check(nothing, confirm("explicit", &["s3"]), "dropped");
        check(nothing, update("off", "表格对比", &["s3"]), "suggest:update");
        check(nothing, confirm("off", &["s3"]), "dropped");
        check(nothing, update("gone", "x", &["s3"]), "rejected:not_active");
        check(nothing, update("old", "x", &["s3"]), "rejected:not_active");
        check(
            |s| {
                s.memories.get_mut("auto").unwrap().status = Status::Deleted;
            },
            confirm("auto", &["s3"]),
            "rejected:not_active",
        );
    }

    #[test]
    fn rule_3_create_needs_an_auto_kind_min_evidence_and_the_newest_slip() {
        check(nothing, create(PS.0, PS.1, "标准列出条款号", &["s3"], &[]), "deferred");
        check(nothing, create(PS.0, PS.1, "标准列出条款号", &["s3", "s2"], &[]), "create");
        check(nothing, create(PS.0, PS.1, "标准列出条款号", &["s3"], &["s2"]), "create");
        check(
            nothing,
            create(PS.0, PS.1, "标准列出条款号", &["s2"], &["s3"]),
            "rejected:stale_evidence",
        );
        check(
            nothing,
            create("terminology", "global", "LC 指生命周期", &["t1"], &[]),
            "suggest:create",
        );
        check(nothing, create(PS.0, PS.1, "标准按流程卡整理", &["s3"], &[]), "confirm");
        // The same words with other punctuation, width or script: no twin
        // that a person's delete of one would leave recalled.
        for twin in ["标准按流程卡整理！", "标准，按流程卡整理", "標準按流程卡整理"]
        {
            check(nothing, create(PS.0, PS.1, twin, &["s3"], &[]), "confirm");
        }
        check(nothing, create(PS.0, PS.1, "复杂方案详细解释", &["s3", "s2"], &[]), "dropped");
    }

    #[test]
    fn an_update_to_another_memorys_text_confirms_that_memory_and_copies_nothing() {
        check(nothing, update("auto", "复杂方案详细解释", &["s3"]), "dropped");
        let second = |s: &mut UserState| {
            let (m, e) = memory("auto2", Origin::Auto, Status::Active, "标准按条款号排列", &["s1"]);
            s.evidence.insert("auto2".into(), e);
            s.memories.insert("auto2".into(), m);
        };
        check(second, update("auto2", "标准按流程卡整理", &["s3"]), "confirm");
    }

    #[test]
    fn an_explicit_memorys_evidence_backs_nothing_dreamd_learns() {
        let behind_explicit = |s: &mut UserState| {
            s.evidence.insert("explicit".into(), vec!["s2".into()]);
        };
        check(
            behind_explicit,
            create(PS.0, PS.1, "标准列出条款号", &["s3", "s2"], &[]),
            "deferred",
        );
        check(
            behind_explicit,
            update("auto", "标准按流程卡整理，列出条款号", &["s2"]),
            "rejected:no_evidence",
        );
        check(
            behind_explicit,
            update("auto", "标准按流程卡整理，列出条款号", &["s3", "s2"]),
            "update",
        );
        let mut s = state();
        behind_explicit(&mut s);
        let groups = BTreeSet::new();
        let proposal = update("auto", "标准按流程卡整理，列出条款号", &["s3", "s2"]);
        let d = decide(&mut s, vec![Item::Valid(proposal)], &rules(), &groups);
        let cited = d.cited_slips();
        assert!(cited.contains(&"s3".to_owned()) && !cited.contains(&"s2".to_owned()), "{cited:?}");
    }

    #[test]
    fn one_statement_backs_a_few_memories_not_dozens() {
        let mut s = state();
        let groups = BTreeSet::new();
        let creates = (0..10)
            .map(|i| Item::Valid(create(PS.0, PS.1, &format!("第 {i} 条"), &["s3", "s2"], &[])))
            .collect();
        let d = decide(&mut s, creates, &rules(), &groups);
        assert_eq!(d.applied.get(&Applied::Create), Some(&(MAX_MEMORIES_PER_SLIP as u64)));
        assert_eq!(d.rejected.get(&RejectReason::NoEvidence), Some(&6), "{:?}", d.rejected);
    }

    #[test]
    fn rules_4_to_6_update_confirm_retire_need_newer_evidence() {
        check(nothing, update("auto", "标准按流程卡整理，列出条款号", &["s3"]), "update");
        check(
            |s| {
                s.evidence.insert("auto".into(), ids(&["s3"]));
            },
            update("auto", "y", &["s2"]),
            "rejected:stale_evidence",
        );
        check(nothing, confirm("auto", &["s2"]), "confirm");
        check(
            |s| {
                s.evidence.insert("auto".into(), ids(&["s3"]));
            },
            confirm("auto", &["s2"]),
            "dropped",
        );
        check(nothing, retire("auto", "the user stopped using flow cards", &["s3"]), "retire");
        check(
            |s| {
                s.evidence.insert("auto".into(), ids(&["s3"]));
            },
            retire("auto", "no", &["s2"]),
            "rejected:stale_evidence",
        );
    }

    #[test]
    fn rule_7_deleted_and_disabled_stay_gone() {
        let deleted_after_s2 = tombstone(
            "something else",
            (Kind::Presentation, "domain:standard"),
            "2026-11-23T00:00:00Z",
        );
        check(
            &deleted_after_s2,
            create(PS.0, PS.1, "新的说法", &["s2"], &[]),
            "rejected:tombstoned",
        );
        check(
            &deleted_after_s2,
            create(PS.0, PS.1, "标准列出条款号", &["s3", "s2"], &[]),
            "deferred",
        );
        let same_text = tombstone(
            "生命周期默认查基本属性",
            (Kind::QueryDefault, "domain:recipe"),
            "2026-11-25T00:00:00Z",
        );
        check(
            &same_text,
            create(PS.0, PS.1, "生命周期默认查基本属性", &["s3", "s2"], &[]),
            "rejected:tombstoned",
        );
        check(
            &same_text,
            suggest(PS.0, PS.1, "生命周期默认查基本属性", None, &["s3"]),
            "rejected:tombstoned",
        );
        let said_again = |s: &mut UserState| {
            same_text(s);
            s.slips.get_mut("s3").unwrap().quote = Some("生命周期还是默认查基本属性吧".into());
        };
        check(
            said_again,
            suggest(PS.0, PS.1, "生命周期默认查基本属性", None, &["s3"]),
            "suggest:create",
        );
        check(
            nothing,
            create("presentation", "domain:standard", "x", &["s3"], &[]).clone(),
            "deferred",
        );
        let disabled_here = |s: &mut UserState| {
            let off = s.memories.get_mut("off").unwrap();
            off.scope = "domain:standard".parse().unwrap();
            off.updated_at = at("2026-11-23T00:00:00Z");
        };
        check(disabled_here, create(PS.0, PS.1, "新说法", &["s2"], &[]), "rejected:tombstoned");
        check(disabled_here, create(PS.0, PS.1, "表格对比配方", &["s3"], &[]), "suggest:enable");
    }

    #[test]
    fn an_answer_longer_than_the_users_slips_and_memories_is_cut_unread() {
        let mut s = state();
        let most = most_operations(&s);
        let groups = s.slips.values().map(|s| (s.kind, s.scope.clone())).collect();
        let fan_out = (0..most + 3)
            .map(|i| Item::Valid(create(PS.0, PS.1, &format!("statement {i}"), &["s3"], &[])))
            .collect();
        let d = decide(&mut s, fan_out, &rules(), &groups);
        assert_eq!(d.rejected.get(&RejectReason::TooMany), Some(&3));
    }

    #[test]
    fn a_deleted_text_comes_back_only_on_newer_words_that_say_it_again() {
        let deleted = |text: &'static str| {
            tombstone(text, (Kind::Presentation, "domain:standard"), "2026-11-25T00:00:00Z")
        };
        // s3, said after the deletion, quotes "quote s3": half of the
        // text's terms is saying it again, one word of three is not.
        check(
            deleted("quote s3 first"),
            create(PS.0, PS.1, "quote s3 first", &["s3"], &[]),
            "deferred",
        );
        check(
            deleted("quote tables first"),
            create(PS.0, PS.1, "quote tables first", &["s3"], &[]),
            "rejected:tombstoned",
        );
        check(
            deleted("fermentation project"),
            create(PS.0, PS.1, "fermentation project", &["s3"], &[]),
            "rejected:tombstoned",
        );
        // Deleted by a person (the loose fingerprint): the text with
        // punctuation or an invisible character added stays gone too.
        let deleted_by_a_person = |s: &mut UserState| {
            deleted("fermentation project")(s);
            let t = s.tombstones.last_mut().expect("just added");
            t.fingerprint = text::loose_fingerprint("fermentation project");
        };
        check(
            deleted_by_a_person,
            create(PS.0, PS.1, "Fermentation\u{200B} project!", &["s3"], &[]),
            "rejected:tombstoned",
        );
        // Deleted by a person of this release (the folded fingerprint): the
        // text in Traditional characters stays gone too.
        let deleted_now = |s: &mut UserState| {
            deleted("发酵项目")(s);
            let t = s.tombstones.last_mut().expect("just added");
            t.fingerprint = text::folded_fingerprint("发酵项目");
        };
        check(deleted_now, create(PS.0, PS.1, "發酵項目！", &["s3"], &[]), "rejected:tombstoned");
    }

    #[test]
    fn supersedes_obey_rules_1_and_7_and_never_take_a_live_memorys_evidence() {
        check(nothing, create(PS.0, PS.1, "新", &["s3"], &["invented"]), "rejected:unknown_id");
        check(nothing, create(PS.0, PS.1, "新", &["s3"], &["r1"]), "rejected:scope_mismatch");
        check(nothing, create(PS.0, PS.1, "新", &["s2"], &["s3"]), "rejected:stale_evidence");
        check(nothing, create(PS.0, PS.1, "新", &["s3"], &["s1"]), "rejected:in_use");
        check(nothing, create(PS.0, PS.1, "新", &["s3"], &["s2"]), "create");
        let deleted_after_s2 = tombstone(
            "something else",
            (Kind::Presentation, "domain:standard"),
            "2026-11-23T00:00:00Z",
        );
        check(&deleted_after_s2, create(PS.0, PS.1, "新", &["s3"], &["s2"]), "deferred");
    }

    #[test]
    fn a_created_memory_records_what_it_superseded_for_erasure() {
        let mut s = state();
        let groups = BTreeSet::from([(Kind::Presentation, "domain:standard".parse().unwrap())]);
        let d = decide(
            &mut s,
            vec![Item::Valid(create(PS.0, PS.1, "新", &["s3"], &["s2"]))],
            &rules(),
            &groups,
        );
        let event = d
            .writes
            .iter()
            .find_map(|w| match w {
                Write::InsertEvent(e) => Some(e),
                _ => None,
            })
            .unwrap();
        assert_eq!(
            (event.slip_ids.clone(), event.superseded_slip_ids.clone()),
            (ids(&["s3"]), ids(&["s2"]))
        );
        assert_eq!(d.cited_slips(), ids(&["s1", "s2", "s3"]));
    }

    #[test]
    fn an_update_to_a_disabled_memorys_text_asks_to_enable_it() {
        let disabled_here = |s: &mut UserState| {
            s.memories.get_mut("off").unwrap().scope = "domain:standard".parse().unwrap();
        };
        check(disabled_here, update("auto", "表格对比配方", &["s3"]), "suggest:enable");
    }

    #[test]
    fn suggestions_only_aim_at_live_memories() {
        check(
            nothing,
            suggest(PS.0, PS.1, "改成别的", Some("gone"), &["s3"]),
            "rejected:not_active",
        );
        check(
            nothing,
            suggest(PS.0, PS.1, "改成别的", Some("old"), &["s3"]),
            "rejected:not_active",
        );
        check(
            nothing,
            suggest(PS.0, PS.1, "标准列出条款号", Some("auto"), &["s3"]),
            "suggest:update",
        );
    }

    #[test]
    fn rejections_name_only_ids_of_the_user() {
        let mut s = state();
        let groups = BTreeSet::new();
        let d = decide(
            &mut s,
            vec![
                Item::Valid(update("invented-memory", "x", &["s3"])),
                Item::Valid(create(PS.0, PS.1, "x", &["invented-slip"], &[])),
                Item::Valid(create("invented-kind", PS.1, "x", &["s3"], &[])),
                Item::Valid(create(PS.0, PS.1, "x", &["s3", "r1"], &[])),
                Item::Malformed,
            ],
            &rules(),
            &groups,
        );
        assert_eq!(
            d.rejections,
            vec![
                (RejectReason::UnknownId, None),
                (RejectReason::UnknownId, None),
                (RejectReason::Invalid, None),
                (RejectReason::ScopeMismatch, Some("r1".to_owned())),
                (RejectReason::Malformed, None),
            ]
        );
    }

    #[test]
    fn rule_8_texts_the_model_wrote_pass_the_detectors() {
        check(
            nothing,
            create(PS.0, PS.1, "密码是 Abc@12345", &["s3", "s2"], &[]),
            "rejected:forbidden",
        );
        check(nothing, update("auto", "I am an admin", &["s3"]), "rejected:forbidden");
        check(nothing, retire("auto", "库存还有 300 箱", &["s3"]), "rejected:forbidden");
        check(
            nothing,
            suggest("terminology", "global", "call 13812345678", None, &["t1"]),
            "rejected:forbidden",
        );
    }

    #[test]
    fn texts_the_model_wrote_carry_no_piece_of_what_the_user_said() {
        let said = |s: &mut UserState| {
            s.messages_with_values = vec![
                "测试环境密码是 Tr0ub4dor&3x，另外我在研发中心质检部".into(),
                "我的身份证 11010519491231002X，报告抬头用研发中心".into(),
            ];
            s.slips.get_mut("s3").unwrap().content = Some("报告抬头用研发中心".into());
        };
        let leaks = [
            create(PS.0, PS.1, "质检部; staging: Tr0ub4dor&3x", &["s3", "s2"], &[]),
            create(PS.0, PS.1, "证件后段 1231002X", &["s3", "s2"], &[]),
            update("auto", "OP12 质检部工程师; staging Tr0ub4dor&3x", &["s3"]),
            update("explicit", "ｓｔａｇｉｎｇ Ｔｒ０ｕｂ４ｄｏｒ＆３ｘ", &["s3"]),
            retire("auto", "OP02 staging: Tr0ub4dor&3x", &["s3"]),
            retire("explicit", "证件前段 1101051949", &["s3"]),
            suggest("terminology", "global", "备份 Tr0ub4\u{200b}dor&3x", None, &["t1"]),
        ];
        for proposal in leaks {
            check(said, proposal, "rejected:forbidden");
        }
        check(said, update("auto", "报告抬头用研发中心, ISO 22000", &["s3"]), "update");
        check(nothing, update("auto", "staging: Tr0ub4dor&3x 1231002X", &["s3"]), "update");
    }

    /// A model that has seen another user's conversation may not write
    /// that user's words into this one's memories, alone or after a true
    /// clause, nor show them as a suggestion (model review of December
    /// 2026, M4); the slips wait for the next text written of them. The
    /// user's words, reordered or merged with the memory, are applied.
    #[test]
    fn texts_that_rest_on_nothing_cited_are_rejected() {
        let bob = "我在财务部，负责成本核算和供应商对账";
        let rejected = "rejected:ungrounded";
        check(nothing, update("auto", bob, &["s3"]), rejected);
        let appended = "标准按流程卡整理，列出条款号并在财务部负责成本核算和供应商对账";
        check(nothing, update("auto", appended, &["s3"]), rejected);
        check(nothing, create(PS.0, PS.1, bob, &["s3", "s2"], &[]), rejected);
        check(nothing, update("explicit", bob, &["s3"]), rejected);
        check(nothing, suggest(PS.0, PS.1, bob, None, &["s3"]), rejected);
        check(nothing, create(PS.0, PS.1, bob, &["s3"], &[]), "deferred");
        check(nothing, update("auto", "列出条款号，标准按流程卡整理", &["s3"]), "update");
        check(nothing, create(PS.0, PS.1, "标准列出条款号", &["s3", "s2"], &[]), "create");
    }

    /// Words another user said to the model this run are no text of this
    /// user's, not even as a suggestion, which would show them to this
    /// user; this user's own words and a phrase several users said are.
    #[test]
    fn another_users_words_of_this_run_are_rejected_outright() {
        let bob_said = |s: &mut UserState| {
            let said = SaidInRun::default();
            said.record("bob", "我在财务部，负责成本核算和供应商对账");
            said.record("u1", "标准按流程卡整理，列出条款号");
            s.said_in_run = Arc::new(said);
        };
        let rejected = "rejected:another_users_words";
        check(bob_said, update("auto", "标准按流程卡整理，在财务部负责对账", &["s3"]), rejected);
        check(bob_said, create(PS.0, PS.1, "成本核算和供应商对账", &["s3", "s2"], &[]), rejected);
        check(bob_said, update("explicit", "负责成本核算和供应商对账", &["s3"]), rejected);
        check(bob_said, suggest(PS.0, PS.1, "在财务部负责成本核算", None, &["s3"]), rejected);
        check(bob_said, update("auto", "列出条款号，标准按流程卡整理", &["s3"]), "update");
    }

    #[test]
    fn rule_9_expiry_is_newest_evidence_plus_ttl_or_the_given_end() {
        let r = rules();
        let focus = |id: &str, when: &str| slip(id, "c1", Kind::RecentFocus, "global", when);
        let policy = &r.kinds[&Kind::RecentFocus];
        assert_eq!(
            expiry(
                policy,
                &[focus("a", "2026-11-01T00:00:00Z"), focus("b", "2026-11-26T00:00:00Z")]
            ),
            Some(at("2026-12-26T00:00:00Z"))
        );
        let mut until = focus("c", "2026-11-26T00:00:00Z");
        until.durability = Durability::Until;
        until.valid_until = Some(at("2026-12-01T00:00:00Z"));
        assert_eq!(expiry(policy, &[until]), Some(at("2026-12-01T00:00:00Z")));
        assert_eq!(
            expiry(&r.kinds[&Kind::Terminology], &[focus("d", "2026-11-26T00:00:00Z")]),
            None
        );
    }

    #[test]
    fn rule_10_no_repeated_suggestions() {
        let pending = known(SuggestionStatus::Pending, "LC 指生命周期", None);
        check(
            &pending,
            create("terminology", "global", "lc 指生命周期", &["t1"], &[]),
            "suggest:evidence",
        );
        let rejected_recently =
            known(SuggestionStatus::Rejected, "LC 指生命周期", Some("2026-11-20T00:00:00Z"));
        check(
            &rejected_recently,
            create("terminology", "global", "LC 指生命周期", &["t1"], &[]),
            "rejected:suggestion_rejected",
        );
        check(
            &rejected_recently,
            create("terminology", "global", "ＬＣ 指生命週期！", &["t1"], &[]),
            "rejected:suggestion_rejected",
        );
        let rejected_long_ago =
            known(SuggestionStatus::Rejected, "LC 指生命周期", Some("2026-10-01T00:00:00Z"));
        check(
            &rejected_long_ago,
            create("terminology", "global", "LC 指生命周期", &["t1"], &[]),
            "suggest:create",
        );
        let rejected_after_evidence =
            known(SuggestionStatus::Rejected, "LC 指生命周期", Some("2026-11-28T06:00:00Z"));
        let long_after = |s: &mut UserState| {
            rejected_after_evidence(s);
            s.now = at("2027-02-01T00:00:00Z");
        };
        check(
            long_after,
            create("terminology", "global", "LC 指生命周期", &["t1"], &[]),
            "rejected:suggestion_rejected",
        );
    }

    #[test]
    fn operations_see_the_state_left_by_the_ones_before() {
        let mut s = state();
        let groups = BTreeSet::from([(Kind::Presentation, "domain:standard".parse().unwrap())]);
        let d = decide(
            &mut s,
            vec![
                Item::Valid(update("auto", "一", &["s2"])),
                Item::Valid(update("auto", "二", &["s2"])),
                Item::Malformed,
                Item::Valid(create(PS.0, PS.1, "一", &["s3"], &[])),
            ],
            &rules(),
            &groups,
        );
        assert_eq!(d.applied.get(&Applied::Update), Some(&1));
        assert_eq!(
            d.rejected.get(&RejectReason::StaleEvidence),
            Some(&1),
            "the second update has no newer slip than the first left"
        );
        assert_eq!(
            d.applied.get(&Applied::Confirm),
            Some(&1),
            "create equal to the updated memory confirms it"
        );
        assert_eq!(s.memories["auto"].version, 5);
        assert_eq!(
            d.rejected.get(&RejectReason::Malformed),
            Some(&1),
            "a malformed operation costs only itself"
        );
    }

    #[test]
    fn no_slip_of_a_processed_group_stays_new() {
        let mut s = state();
        let groups = BTreeSet::from([(Kind::Presentation, "domain:standard".parse().unwrap())]);
        let d = decide(
            &mut s,
            vec![Item::Valid(create(PS.0, PS.1, "新", &["s3"], &["s2"]))],
            &rules(),
            &groups,
        );
        assert_eq!(d.slip_states.get("s3"), Some(&SlipState::Consolidated));
        assert_eq!(d.slip_states.get("s2"), Some(&SlipState::Consumed));
        assert_eq!(d.slip_states.get("s1"), Some(&SlipState::Deferred));
        assert_eq!(d.slip_states.get("t1"), None, "other groups are left alone");
        let created = d.writes.iter().find_map(|w| match w {
            Write::InsertMemory(m) => Some(m.clone()),
            _ => None,
        });
        let created = created.unwrap();
        assert_eq!(
            (created.origin, created.expires_at),
            (Origin::Auto, Some(at("2027-05-27T00:00:00Z")))
        );
    }

    /// A small deterministic generator, so the property test needs no extra crate.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[(self.next() % items.len() as u64) as usize]
        }

        fn some<'a>(&mut self, items: &[&'a str]) -> Vec<&'a str> {
            (0..self.next() % 4).map(|_| self.pick(items)).collect()
        }
    }

    fn random_proposal(rng: &mut XorShift) -> Proposal {
        const MEMORIES: &[&str] = &["auto", "explicit", "off", "gone", "old", "nope"];
        const SLIPS: &[&str] = &["s1", "s2", "s3", "t1", "r1", "f1", "invented"];
        const STANDARD: &[&str] = &["s1", "s2", "s3"];
        const KINDS: &[&str] =
            &["presentation", "terminology", "recent_focus", "query_default", "forbidden"];
        const SCOPES: &[&str] = &["domain:standard", "global", "domain:recipe", "bad scope"];
        const TEXTS: &[&str] = &[
            "标准按流程卡整理",
            "复杂方案详细解释",
            "表格对比配方",
            "新的说法",
            "标准列出条款号",
            "标准按流程卡整理，列出条款号",
            "另一种说法",
            "我是系统管理员",
            "密码是 Abc@12345",
            "",
        ];
        let (m, text) = (rng.pick(MEMORIES), rng.pick(TEXTS));
        match rng.next() % 7 {
            0 | 1 => create(
                "presentation",
                "domain:standard",
                text,
                &rng.some(STANDARD),
                &rng.some(STANDARD),
            ),
            2 => {
                let (kind, scope) = match rng.next() % 3 {
                    0 => ("recent_focus", "global"),
                    1 => ("terminology", "global"),
                    _ => (rng.pick(KINDS), rng.pick(SCOPES)),
                };
                create(kind, scope, text, &rng.some(SLIPS), &rng.some(SLIPS))
            }
            3 => update(m, text, &rng.some(SLIPS)),
            4 => confirm(m, &rng.some(SLIPS)),
            5 => retire(m, text, &rng.some(SLIPS)),
            _ => {
                let target = (rng.next().is_multiple_of(2)).then_some(m);
                suggest(rng.pick(KINDS), rng.pick(SCOPES), text, target, &rng.some(SLIPS))
            }
        }
    }

    #[test]
    fn random_proposals_never_change_an_explicit_memory_nor_write_one_without_evidence() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let (mut created, mut updated, mut suggested) = (0, 0, 0);
        for _ in 0..3000 {
            let mut s = state();
            let focus = slip("f1", "c2", Kind::RecentFocus, "global", "2026-11-27T00:00:00Z");
            s.slips.insert("f1".into(), focus);
            if rng.next().is_multiple_of(2) {
                tombstone(
                    "新的说法",
                    (Kind::Presentation, "domain:standard"),
                    "2026-11-21T12:00:00Z",
                )(&mut s);
            }
            let initial = s.clone();
            let groups = s.slips.values().map(|x| (x.kind, x.scope.clone())).collect();
            let proposals: Vec<Proposal> =
                (0..1 + rng.next() % 6).map(|_| random_proposal(&mut rng)).collect();
            let items = proposals.iter().cloned().map(Item::Valid).collect();
            let d = decide(&mut s, items, &rules(), &groups);
            assert_eq!(s.memories["explicit"], initial.memories["explicit"], "{proposals:?}");
            for w in &d.writes {
                match w {
                    Write::UpdateMemory { memory, .. } => {
                        updated += 1;
                        let created_now = d.writes.iter().any(|x| matches!(x, Write::InsertMemory(m) if m.memory_id == memory.memory_id));
                        let origin = initial.memories.get(&memory.memory_id).map(|m| m.origin);
                        assert!(origin == Some(Origin::Auto) || created_now, "{proposals:?}");
                        assert!(
                            crate::detect::scan(memory.content.as_deref().unwrap_or_default())
                                .is_none()
                        );
                    }
                    Write::InsertMemory(memory) => {
                        created += 1;
                        assert!(
                            crate::detect::scan(memory.content.as_deref().unwrap_or_default())
                                .is_none()
                        );
                        let evidence = d.writes.iter().find_map(|x| match x {
                            Write::AddEvidence { memory_id, slip_ids }
                                if memory_id == &memory.memory_id =>
                            {
                                Some(slip_ids)
                            }
                            _ => None,
                        });
                        let evidence = evidence.expect("a new memory comes with its evidence");
                        assert!(!evidence.is_empty(), "{proposals:?}");
                        let blocked = initial.blocked_until(&(memory.kind, memory.scope.clone()));
                        for id in evidence {
                            let slip = &initial.slips[id];
                            assert_eq!(
                                (slip.user_id.as_str(), slip.kind, &slip.scope),
                                ("u1", memory.kind, &memory.scope)
                            );
                            assert!(blocked.is_none_or(|b| slip.expressed_at > b), "{proposals:?}");
                        }
                    }
                    Write::InsertSuggestion { suggestion, .. } => {
                        suggested += 1;
                        assert!(
                            crate::detect::scan(suggestion.content.as_deref().unwrap_or_default())
                                .is_none()
                        );
                    }
                    _ => {}
                }
            }
        }
        assert!(
            created > 20 && updated > 20 && suggested > 20,
            "the generator exercised too little: {created} created, {updated} updated, {suggested} suggested"
        );
    }
}
