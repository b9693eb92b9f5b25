//! Stage one (spec §5): one conversation's new messages → note slips.
//!
//! For each chunk the provider proposes, [`validate`] disposes, and the kept
//! slips and the new watermark are written in one transaction, only while
//! this run still holds the conversation's claim. A failure costs that
//! conversation for this run and nothing else.

pub mod chunk;
pub mod validate;

use crate::config::Config;
use crate::domain::{DropReason, Role, Slip, Time, Tombstone};
use crate::error::Error;
use crate::llm::wire::Item;
use crate::llm::{Provider, StageOneRequest, Usage};
use crate::said::SaidInRun;
use crate::seen::SeenValues;
use crate::select::{Candidate, ConversationMessages, Window};
use crate::step::{Ending, StepFailure};
use crate::store::Store;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio_util::sync::CancellationToken;

/// What happened to one conversation.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Messages sent to the provider as new (not context).
    pub extracted: u64,
    pub skipped_out_of_window: u64,
    pub kept: Vec<Slip>,
    pub dropped: BTreeMap<DropReason, u64>,
    pub calls: u32,
    pub failures: u32,
    pub usage: Usage,
    pub ending: Ending,
    /// The database could not be reached: the run stops taking work.
    pub store_unreachable: bool,
    /// The model could not answer any call: the run stops taking work.
    pub model_unavailable: bool,
    /// The model server failed (timeouts, 429, 5xx): counted toward
    /// ending the run's work early.
    pub model_failing: bool,
}

/// Stage one for one run: what every conversation shares.
pub struct StageOne<'a, S> {
    pub store: &'a S,
    pub provider: &'a Provider,
    pub config: &'a Config,
    pub run_id: &'a str,
    /// The claim owner; `None` in a dry run, which claims and writes nothing.
    pub owner: Option<&'a str>,
    pub window: Window,
    /// Each user's messages with values, read once per run when a slip first
    /// could carry a piece of one.
    pub seen: SeenValues,
    /// The run's stop: once cancelled, a model call waiting to retry gives up.
    pub stop: &'a CancellationToken,
    /// Whether the model has answered a call this run ([`StepFailure::is_charged`]).
    pub model_answered: &'a AtomicBool,
    /// Each user's tombstones, read once per run.
    pub deleted: DeletedTexts,
    /// What each user said to the model in this run: recorded here as the
    /// messages are sent, asked before a slip or a memory is kept.
    pub said: &'a SaidInRun,
}

/// Each user's tombstones, read at the first slip of theirs a run checks
/// and kept for the run: one read per user, not one per conversation (a
/// run's conversations share the read pool). A deletion during the run is
/// still kept out of memories by stage two, which reads them anew.
#[derive(Default)]
pub struct DeletedTexts(std::sync::Mutex<HashMap<String, Arc<Vec<Tombstone>>>>);

impl DeletedTexts {
    async fn of<S: Store>(&self, store: &S, user_id: &str) -> Result<Arc<Vec<Tombstone>>, Error> {
        let known = self.lock().get(user_id).cloned();
        if let Some(known) = known {
            return Ok(known);
        }
        let read = Arc::new(store.tombstones(user_id).await?);
        self.lock().insert(user_id.to_owned(), read.clone());
        Ok(read)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Vec<Tombstone>>>> {
        // A panic while holding the lock leaves a map of finished reads.
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl<S: Store> StageOne<'_, S> {
    /// Extracts one claimed conversation; never fails the run. `read` is
    /// what the run read of it with its batch; without it (that read
    /// failed), the conversation reads its own, and fails on its own.
    pub async fn conversation(
        &self,
        candidate: &Candidate,
        read: Option<ConversationMessages>,
        now: Time,
    ) -> Outcome {
        let mut outcome = Outcome::default();
        let mut progress = Progress {
            watermark: candidate.watermark_seq,
            working_to: candidate.last_seq,
            released: false,
        };
        let result = self.extract(candidate, read, now, &mut outcome, &mut progress).await;
        let Some(owner) = self.owner else {
            outcome.ending =
                result.map_or_else(|e| Ending::Failed(e.to_string()), |()| Ending::Done);
            return outcome;
        };
        if result.is_ok() {
            tracing::debug!(
                stage = "extract",
                outcome = "done",
                extracted = outcome.extracted,
                skipped_out_of_window = outcome.skipped_out_of_window,
                kept = outcome.kept.len(),
                dropped = ?outcome.dropped,
                "conversation done"
            );
        }
        match result {
            Ok(()) if !progress.released => {
                if let Err(e) = self.store.release_claim(&candidate.conversation_id, owner).await {
                    tracing::warn!(error = %e, "could not release the claim; it expires by itself");
                }
            }
            Ok(()) => {}
            Err(failure) if failure.model_unavailable() => {
                // The run says once why the model answers no one.
                // Its claim goes with the run's others when stage one ends:
                // released now, the run could take it again.
                outcome.model_unavailable = true;
                tracing::debug!(stage = "extract", reason = %failure, "conversation left for the next run");
                outcome.ending = Ending::LeftForLater;
            }
            Err(failure) => {
                let reason = failure.to_string();
                tracing::warn!(stage = "extract", outcome = "failed", reason = %reason, "conversation failed; it is retried next run");
                let range = (progress.watermark, progress.working_to);
                let max = self.config.selection.max_attempts;
                outcome.store_unreachable =
                    matches!(&failure, StepFailure::Store(e) if e.is_unreachable());
                outcome.model_failing = failure.model_failing();
                // Uncharged, its claim goes with the run's others when stage
                // one ends: released now, the run could take it again.
                let answered = self.model_answered.load(Ordering::Relaxed);
                if failure.is_charged(answered) && !outcome.store_unreachable {
                    match self
                        .store
                        .record_failure(&candidate.conversation_id, owner, range, max, &reason, now)
                        .await
                    {
                        Ok(true) => tracing::warn!(
                            from_seq = range.0 + 1,
                            to_seq = range.1,
                            "range failed too often; passed over"
                        ),
                        Ok(false) => {}
                        Err(e) => {
                            tracing::warn!(error = %e, "could not record the failure; the claim expires by itself")
                        }
                    }
                }
                outcome.ending = Ending::Failed(reason);
            }
        }
        outcome
    }

    async fn extract(
        &self,
        c: &Candidate,
        read: Option<ConversationMessages>,
        now: Time,
        outcome: &mut Outcome,
        progress: &mut Progress,
    ) -> Result<(), StepFailure> {
        let selection = &self.config.selection;
        let messages = match read {
            Some(messages) => messages,
            None => {
                self.store
                    .conversation_messages(
                        &c.conversation_id,
                        c.watermark_seq,
                        selection.context_messages,
                    )
                    .await?
            }
        };
        let budget =
            self.config.llm.max_prompt_tokens.saturating_sub(self.provider.prompt_tokens());
        let plan = chunk::plan(
            &messages.before,
            &messages.unprocessed,
            self.window.lookback_cutoff,
            selection.context_messages as usize,
            budget,
        );
        outcome.skipped_out_of_window = plan.skipped;
        let allowed = self.allowed_scopes(c, messages.memory_scopes);
        // Every number up to the claimed `last_seq` is committed or a gap (a
        // duplicate numbered and then skipped), never a message in flight:
        // the watermark may pass it, so the conversation is not taken again.
        let end_seq = plan.end_seq.max(c.last_seq);
        for chunk in &plan.chunks {
            progress.working_to = chunk.end_seq;
            let slips = self.chunk(c, chunk, now, &allowed, outcome).await?;
            self.commit(c, progress, chunk.end_seq >= end_seq, slips, outcome).await?;
            // Counted once written: a commit that fails extracted nothing.
            outcome.extracted += chunk.messages.len() as u64;
        }
        if progress.watermark < end_seq {
            progress.working_to = end_seq;
            self.commit(c, progress, true, Vec::new(), outcome).await?;
        }
        Ok(())
    }

    async fn chunk(
        &self,
        c: &Candidate,
        chunk: &chunk::Chunk,
        now: Time,
        allowed: &[String],
        outcome: &mut Outcome,
    ) -> Result<Vec<Slip>, StepFailure> {
        let mut proposed = Vec::new();
        let context = chunk.context.iter().map(|m| (m.role, &m.content));
        let new = chunk.messages.iter().map(|m| (m.role, &m.content));
        for (_, content) in context.chain(new).filter(|(role, _)| *role == Role::User) {
            self.said.record(&c.user_id, content);
        }
        for messages in &chunk.requests {
            let request = StageOneRequest {
                user_id: c.user_id.clone(),
                conversation_id: c.conversation_id.clone(),
                now,
                allowed_scopes: allowed.to_vec(),
                context: chunk.context.clone(),
                messages: messages.clone(),
                conversation_scopes: c.scopes.clone(),
            };
            let report = self.provider.stage_one(&request, self.stop).await;
            outcome.calls += report.calls;
            outcome.failures += report.failures;
            outcome.usage.prompt_tokens += report.usage.prompt_tokens;
            outcome.usage.completion_tokens += report.usage.completion_tokens;
            proposed.extend(report.outcome?.slips);
        }
        let texts: Vec<&str> = proposed
            .iter()
            .filter_map(|p| if let Item::Valid(p) = p { Some(p) } else { None })
            .flat_map(|p| [p.quote.as_str(), p.content.as_str()])
            .collect();
        let seen = self.seen.for_texts(self.store, self.config, &c.user_id, now, &texts).await?;
        let tombstones = if texts.is_empty() {
            Arc::default()
        } else {
            self.deleted.of(self.store, &c.user_id).await?
        };
        let checks = validate::Checks {
            user_id: &c.user_id,
            conversation_id: &c.conversation_id,
            run_id: self.run_id,
            now,
            messages: chunk
                .messages
                .iter()
                .map(|m| (m.message_id.as_str(), m))
                .collect::<HashMap<_, _>>(),
            context_ids: chunk.context.iter().map(|m| m.message_id.as_str()).collect(),
            context_texts: chunk.context.iter().map(|m| m.content.as_str()).collect(),
            seen: &seen,
            allowed_scopes: allowed,
            detector: self.config.detector(),
            tombstones: &tombstones,
            said: self.said,
        };
        let verdict = validate::validate(proposed, &checks);
        for (reason, n) in verdict.dropped {
            *outcome.dropped.entry(reason).or_default() += n;
        }
        Ok(verdict.kept)
    }

    /// Commits the range `progress` is working on; the `last` commit of
    /// the conversation also releases its claim.
    async fn commit(
        &self,
        c: &Candidate,
        progress: &mut Progress,
        last: bool,
        slips: Vec<Slip>,
        outcome: &mut Outcome,
    ) -> Result<(), StepFailure> {
        let range = (progress.watermark, progress.working_to);
        if let Some(owner) = self.owner {
            self.store
                .commit_extraction(&c.conversation_id, owner, range, slips.clone(), last)
                .await?;
            progress.released = last;
        }
        progress.watermark = progress.working_to;
        outcome.kept.extend(slips);
        Ok(())
    }

    /// Spec §3: global, the configured domains, the conversation's scopes and
    /// the scopes of the user's memories.
    fn allowed_scopes(&self, c: &Candidate, memory_scopes: Vec<String>) -> Vec<String> {
        let mut scopes: BTreeSet<String> = BTreeSet::from(["global".to_owned()]);
        scopes.extend(self.config.policy.domains.iter().map(|d| format!("domain:{d}")));
        scopes.extend(c.scopes.iter().cloned());
        scopes.extend(memory_scopes);
        scopes.into_iter().collect()
    }
}

/// How far a conversation got: its watermark, the end of the chunk being
/// worked on (the range a failure is counted against), and whether the
/// last commit released the claim.
struct Progress {
    watermark: i64,
    working_to: i64,
    released: bool,
}
