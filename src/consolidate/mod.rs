//! Stage two (spec §6): for each user with new slips, the model (or the
//! offline rules) proposes operations over the groups that got new slips,
//! [`policy`] decides, and the decisions, their events and the slips' new
//! states are written in one transaction while this run holds the user's
//! claim. A failure costs that user for this run only.

pub mod policy;

use crate::config::Config;
use crate::detect;
use crate::domain::{Kind, Memory, Scope, Slip, SlipState, Status, SuggestionStatus, Time};
use crate::error::Error;
use crate::llm::wire::{Item, Proposal};
use crate::llm::{ConsolidationRequest, MemoryView, Provider, SlipView, SuggestionView, Usage};
use crate::step::{Ending, StepFailure};
use crate::store::Store;
use crate::text::estimate_tokens;
use policy::{Decisions, KnownSuggestion, UserState};
use std::collections::{BTreeSet, HashMap};
use tokio_util::sync::CancellationToken;

/// What happened to one user.
#[derive(Debug, Default)]
pub struct Outcome {
    pub decisions: Decisions,
    pub calls: u32,
    pub failures: u32,
    pub usage: Usage,
    pub ending: Ending,
    /// The newest of the user's `new` slips when the state was read: a failure
    /// is counted against it (spec §6 attempt limit).
    pub newest_new_slip: Option<String>,
    /// The model could not answer any call: the run stops taking users.
    pub model_unavailable: bool,
    /// The model server failed (timeouts, 429, 5xx): counted toward
    /// ending the run's work early.
    pub model_failing: bool,
}

/// Stage two for one run.
pub struct StageTwo<'a, S> {
    pub store: &'a S,
    pub provider: &'a Provider,
    pub config: &'a Config,
    pub run_id: &'a str,
    /// The claim owner; `None` in a dry run, which claims and writes nothing.
    pub owner: Option<&'a str>,
    /// The run's stop: once cancelled, a model call waiting to retry gives up.
    pub stop: &'a CancellationToken,
    /// Whether the model has answered a call this run ([`StepFailure::is_charged`]).
    pub model_answered: &'a std::sync::atomic::AtomicBool,
    /// What each user said to the model in this run's stage one.
    pub said: &'a std::sync::Arc<crate::said::SaidInRun>,
}

impl<S: Store> StageTwo<'_, S> {
    /// Consolidates one user; never fails the run.
    pub async fn user(&self, user_id: &str, now: Time) -> Outcome {
        let mut outcome = Outcome::default();
        if let Some(owner) = self.owner {
            let until = now + self.config.selection.claim_ttl;
            match self.store.claim_user(user_id, owner, now, until).await {
                Ok(true) => {}
                Ok(false) => {
                    outcome.ending = Ending::LeftForLater;
                    return outcome;
                }
                Err(e) => {
                    outcome.ending = Ending::Failed(e.to_string());
                    return outcome;
                }
            }
        }
        let started = std::time::Instant::now();
        let result = self.consolidate(user_id, now, started, &mut outcome).await;
        if self.owner.is_some() {
            self.count_attempt(user_id, now, &result, &outcome).await;
        }
        match result {
            Err(failure) if failure.model_unavailable() => {
                // The run says once why the model answers no one.
                outcome.model_unavailable = true;
                tracing::debug!(stage = "consolidate", reason = %failure, "user left for the next run");
                outcome.ending = Ending::LeftForLater;
            }
            Err(failure) => {
                outcome.model_failing = failure.model_failing();
                tracing::warn!(stage = "consolidate", outcome = "failed", reason = %failure, "user failed; retried next run");
                outcome.ending = Ending::Failed(failure.to_string());
            }
            Ok(()) => {}
        }
        log_rejections(&outcome.decisions);
        tracing::debug!(stage = "consolidate", applied = ?outcome.decisions.applied, deferred = outcome.decisions.deferred, "user done");
        if let Some(owner) = self.owner
            && let Err(e) = self.store.release_user(user_id, owner).await
        {
            tracing::warn!(error = %e, "could not release the user; the claim expires by itself");
        }
        outcome
    }

    /// Counts a failure against the user's newest new slip (a race with a
    /// person, or a model that answers no one, is not the user's fault and
    /// is not counted), or forgets past failures after a success.
    async fn count_attempt(
        &self,
        user_id: &str,
        now: Time,
        result: &Result<(), StepFailure>,
        outcome: &Outcome,
    ) {
        let answered = self.model_answered.load(std::sync::atomic::Ordering::Relaxed);
        let counted = match result {
            Ok(()) => self.store.clear_user_failure(user_id).await.map(|()| None),
            Err(failure) if !failure.is_charged(answered) => Ok(None),
            Err(failure) => match &outcome.newest_new_slip {
                Some(newest) => self
                    .store
                    .record_user_failure(user_id, newest, &failure.to_string(), now)
                    .await
                    .map(Some),
                None => Ok(None),
            },
        };
        match counted {
            Ok(Some(attempts)) if attempts >= i64::from(self.config.selection.max_attempts) => {
                tracing::warn!(
                    stage = "consolidate",
                    attempts,
                    "user failed too often on the same slips; passed over until a new slip arrives"
                );
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "could not record the user's attempt"),
        }
    }

    async fn consolidate(
        &self,
        user_id: &str,
        now: Time,
        started: std::time::Instant,
        outcome: &mut Outcome,
    ) -> Result<(), StepFailure> {
        let mut state = self.read_state(user_id, now).await?;
        outcome.newest_new_slip = state
            .slips
            .values()
            .filter(|s| s.state == SlipState::New)
            .map(|s| s.slip_id.clone())
            .max();
        let as_read = Snapshot::of(&state);
        let groups: BTreeSet<(Kind, Scope)> = state
            .slips
            .values()
            .filter(|s| s.state == SlipState::New)
            .map(|s| (s.kind, s.scope.clone()))
            .collect();
        let requests = self.requests(&state, &groups);
        let oldest = now - self.config.policy.slip_ttl;
        state.unseen_slips = unseen_new_slips(&state, &requests, oldest);
        let mut proposals = Vec::new();
        for request in requests {
            let report = self.provider.consolidate(&request, self.stop).await;
            outcome.calls += report.calls;
            outcome.failures += report.failures;
            outcome.usage.prompt_tokens += report.usage.prompt_tokens;
            outcome.usage.completion_tokens += report.usage.completion_tokens;
            proposals.extend(report.outcome?.operations);
        }
        state.messages_with_values = self.messages_with_values(user_id, now, &proposals).await?;
        let decisions = policy::decide(&mut state, proposals, &self.config.policy.rules, &groups);
        if let Some(owner) = self.owner
            && !decisions.writes.is_empty()
        {
            let commit_time =
                now + chrono::Duration::from_std(started.elapsed()).unwrap_or_default();
            let mut writes = as_read.expectations(user_id, owner, commit_time, &decisions);
            writes.extend(decisions.writes.iter().cloned());
            self.store.apply(writes).await?;
        }
        outcome.decisions = decisions;
        Ok(())
    }

    /// What the model may have seen of the user (see [`crate::seen`]),
    /// when a text of `proposals` could carry a piece of it.
    async fn messages_with_values(
        &self,
        user_id: &str,
        now: Time,
        proposals: &[Item<Proposal>],
    ) -> Result<Vec<String>, Error> {
        let texts: Vec<&str> = proposals.iter().filter_map(proposed_text).collect();
        if !detect::needs_what_the_user_said(&texts) {
            return Ok(Vec::new());
        }
        crate::seen::messages_with_values(self.store, self.config, user_id, now).await
    }

    async fn read_state(&self, user_id: &str, now: Time) -> Result<UserState, Error> {
        let memories = self.store.memories(user_id).await?;
        let memory_ids: Vec<String> = memories.iter().map(|m| m.memory_id.clone()).collect();
        let mut evidence: HashMap<String, Vec<String>> = HashMap::new();
        for (memory_id, e) in self.store.evidence(&memory_ids).await? {
            evidence.entry(memory_id).or_default().push(e.slip_id);
        }
        let suggestions = self.store.suggestions(user_id).await?;
        let suggestion_ids: Vec<String> =
            suggestions.iter().map(|s| s.suggestion_id.clone()).collect();
        let mut suggestion_evidence: HashMap<String, Vec<String>> = HashMap::new();
        for (suggestion_id, e) in self.store.suggestion_evidence(&suggestion_ids).await? {
            suggestion_evidence.entry(suggestion_id).or_default().push(e.slip_id);
        }
        Ok(UserState {
            user_id: user_id.to_owned(),
            now,
            run_id: self.run_id.to_owned(),
            memories: memories.into_iter().map(|m| (m.memory_id.clone(), m)).collect(),
            evidence,
            slips: self
                .store
                .slips(user_id, None)
                .await?
                .into_iter()
                .filter(|s| s.state != SlipState::Erased)
                .map(|s| (s.slip_id.clone(), s))
                .collect(),
            suggestions: suggestions
                .into_iter()
                .map(|s| {
                    let slip_ids = suggestion_evidence.remove(&s.suggestion_id).unwrap_or_default();
                    KnownSuggestion { suggestion: s, slip_ids }
                })
                .collect(),
            tombstones: self.store.tombstones(user_id).await?,
            messages_with_values: Vec::new(),
            unseen_slips: BTreeSet::new(),
            said_in_run: self.said.clone(),
        })
    }

    /// The request of spec §6 for the groups with new slips, split by group
    /// when it would exceed `llm.max_prompt_tokens`.
    fn requests(
        &self,
        state: &UserState,
        groups: &BTreeSet<(Kind, Scope)>,
    ) -> Vec<ConsolidationRequest> {
        let policy = &self.config.policy;
        let oldest = state.now - policy.slip_ttl;
        let budget = self
            .config
            .llm
            .max_prompt_tokens
            .saturating_sub(self.provider.consolidation_prompt_tokens());
        let mut requests: Vec<ConsolidationRequest> = Vec::new();
        let mut used = u64::MAX;
        for group in groups {
            let part = group_request(state, group, oldest, policy.max_slips_per_group);
            // A request is plain data with string keys: serialising it cannot fail.
            let cost = estimate_tokens(&serde_json::to_string(&part).expect("requests serialise"));
            match requests.last_mut() {
                Some(last) if used.saturating_add(cost) <= budget => {
                    last.memories.extend(part.memories);
                    last.suggestions.extend(part.suggestions);
                    last.slips.extend(part.slips);
                    used += cost;
                }
                _ => {
                    requests.push(part);
                    used = cost;
                }
            }
        }
        requests
    }
}

/// What stage two decided on, re-checked inside the applying transaction
/// (spec §6, revision 3): a person's deletion, disable or edit, a purge or a
/// lost claim between the read and the commit makes the commit write nothing.
struct Snapshot {
    versions: Vec<(String, i64)>,
    tombstones: i64,
}

impl Snapshot {
    fn of(state: &UserState) -> Snapshot {
        Snapshot {
            versions: state.memories.values().map(|m| (m.memory_id.clone(), m.version)).collect(),
            tombstones: state.tombstones.len() as i64,
        }
    }

    fn expectations(
        self,
        user_id: &str,
        owner: &str,
        now: Time,
        decisions: &Decisions,
    ) -> Vec<crate::domain::Write> {
        use crate::domain::Write;
        vec![
            Write::ExpectUserClaim { user_id: user_id.to_owned(), owner: owner.to_owned(), now },
            Write::ExpectMemories {
                user_id: user_id.to_owned(),
                versions: self.versions,
                tombstones: self.tombstones,
            },
            Write::ExpectSlipsLive {
                user_id: user_id.to_owned(),
                slip_ids: decisions.cited_slips(),
            },
        ]
    }
}

/// One group's part of the request: its live memories, pending suggestions
/// and the newest slips within the slip TTL, oldest first.
fn group_request(
    state: &UserState,
    group: &(Kind, Scope),
    oldest: Time,
    max_slips: usize,
) -> ConsolidationRequest {
    let in_group = |kind: Kind, scope: &Scope| (kind, scope) == (group.0, &group.1);
    let memories = state
        .memories
        .values()
        .filter(|m| {
            in_group(m.kind, &m.scope)
                && matches!(m.status_at(state.now), Status::Active | Status::Disabled)
        })
        .map(memory_view)
        .collect();
    let suggestions = state
        .suggestions
        .iter()
        .map(|k| &k.suggestion)
        .filter(|s| s.status == SuggestionStatus::Pending && in_group(s.kind, &s.scope))
        .map(|s| SuggestionView {
            suggestion_id: s.suggestion_id.clone(),
            op: s.op,
            memory_id: s.memory_id.clone(),
            kind: s.kind,
            scope: s.scope.as_str().to_owned(),
            content: s.content.clone(),
        })
        .collect();
    let mut slips: Vec<&Slip> = state
        .slips
        .values()
        .filter(|s| {
            in_group(s.kind, &s.scope) && s.expressed_at >= oldest && s.state != SlipState::Consumed
        })
        .collect();
    // New slips first, then those waiting for more evidence, then the
    // rest, each newest first: a group's older evidence never crowds out
    // what the model has not seen (a new slip older than fifty consolidated
    // ones was deferred unseen, and never sent again).
    let waiting = |state: SlipState| match state {
        SlipState::New => 0,
        SlipState::Deferred => 1,
        _ => 2,
    };
    slips.sort_by_key(|s| (waiting(s.state), std::cmp::Reverse(s.expressed_at), &s.slip_id));
    slips.truncate(max_slips);
    slips.sort_by_key(|s| (s.expressed_at, &s.slip_id));
    ConsolidationRequest {
        user_id: state.user_id.clone(),
        now: state.now,
        memories,
        suggestions,
        slips: slips.into_iter().map(slip_view).collect(),
    }
}

/// The new slips within the slip TTL (expressed at `oldest` or later) that
/// no request carries (more than `policy.max_slips_per_group` new in one
/// group): they stay `new`, for the next run, instead of being deferred
/// unseen. Older ones could never be shown; they are deferred as before.
fn unseen_new_slips(
    state: &UserState,
    requests: &[ConsolidationRequest],
    oldest: Time,
) -> BTreeSet<String> {
    let sent: BTreeSet<&str> =
        requests.iter().flat_map(|r| &r.slips).map(|s| s.slip_id.as_str()).collect();
    state
        .slips
        .values()
        .filter(|s| s.state == SlipState::New && s.expressed_at >= oldest)
        .filter(|s| !sent.contains(s.slip_id.as_str()))
        .map(|s| s.slip_id.clone())
        .collect()
}

/// The most rejections of one user logged a line each; the rest are
/// counted in one line. An answer of thousands of bad operations would
/// otherwise write thousands of lines (3.6 MB from one hostile answer).
const REJECTIONS_LISTED: usize = 10;

/// A warning per rejected operation, up to [`REJECTIONS_LISTED`], with the
/// id to look at, then one with the count of the others and every count by reason.
fn log_rejections(decisions: &Decisions) {
    for (reason, id) in decisions.rejections.iter().take(REJECTIONS_LISTED) {
        match id {
            Some(id) => {
                tracing::warn!(stage = "consolidate", reason = %reason, id = %id, "operation rejected")
            }
            None => tracing::warn!(stage = "consolidate", reason = %reason, "operation rejected"),
        }
    }
    let unlisted = decisions.rejections.len().saturating_sub(REJECTIONS_LISTED);
    if unlisted > 0 {
        tracing::warn!(stage = "consolidate", more = unlisted, rejected = %crate::step::by_reason(&decisions.rejected), "more operations rejected; counted, not listed");
    }
}

/// The text a proposal would store: a memory's or suggestion's content, a retire reason.
fn proposed_text(item: &Item<Proposal>) -> Option<&str> {
    match item {
        Item::Valid(
            Proposal::Create { content, .. }
            | Proposal::Update { content, .. }
            | Proposal::Suggest { content, .. },
        ) => Some(content),
        Item::Valid(Proposal::Retire { reason, .. }) => Some(reason),
        Item::Valid(Proposal::Confirm { .. }) | Item::Malformed => None,
    }
}

fn memory_view(m: &Memory) -> MemoryView {
    MemoryView {
        memory_id: m.memory_id.clone(),
        version: m.version,
        origin: m.origin,
        kind: m.kind,
        scope: m.scope.as_str().to_owned(),
        content: m.content.clone(),
        status: m.status,
        updated_at: m.updated_at,
        expires_at: m.expires_at,
    }
}

fn slip_view(s: &Slip) -> SlipView {
    SlipView {
        slip_id: s.slip_id.clone(),
        conversation_id: s.conversation_id.clone(),
        kind: s.kind,
        scope: s.scope.as_str().to_owned(),
        content: s.content.clone(),
        quote: s.quote.clone(),
        expressed_at: s.expressed_at,
        durability: s.durability,
        valid_until: s.valid_until,
        new: s.state == SlipState::New,
    }
}
