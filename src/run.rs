//! One run (spec §1): select → stage one → stage two → expiry sweep →
//! retention, with its summary (spec §8.2).

use crate::config::Config;
use crate::consolidate::StageTwo;
use crate::domain::{Applied, DropReason, RejectReason, RunOutcome, Slip, Time, Write, new_id};
use crate::error::Result;
use crate::extract::{Outcome, StageOne};
use crate::llm::Provider;
use crate::llm::embed::Embedder;
use crate::manage;
use crate::select::{Candidate, ConversationMessages, Window};
use crate::step::Ending;
use crate::store::{RunRecord, Store};
use futures::StreamExt;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

#[derive(Debug, Default, Clone, Serialize)]
pub struct ConversationCounts {
    pub selected: u64,
    pub done: u64,
    pub failed: u64,
    /// Claimed, then left for the next run (a stop, the token budget, a
    /// model that cannot answer).
    pub left: u64,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct MessageCounts {
    pub extracted: u64,
    pub skipped_out_of_window: u64,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct SlipCounts {
    pub kept: u64,
    pub dropped: BTreeMap<DropReason, u64>,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct UserCounts {
    pub consolidated: u64,
    pub failed: u64,
    /// Left for the next run (a stop, a model that cannot answer).
    pub left: u64,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct AppliedCounts {
    pub create: u64,
    pub update: u64,
    pub confirm: u64,
    pub retire: u64,
    pub suggest: u64,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct OperationCounts {
    pub applied: AppliedCounts,
    pub rejected: BTreeMap<RejectReason, u64>,
    pub deferred: u64,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct LlmCounts {
    pub calls: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub failures: u64,
}

/// The run summary of spec §8.2.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    pub run_id: String,
    pub started_at: Time,
    pub finished_at: Time,
    pub dry_run: bool,
    pub conversations: ConversationCounts,
    pub messages: MessageCounts,
    pub slips: SlipCounts,
    pub users: UserCounts,
    pub operations: OperationCounts,
    pub memories_expired: u64,
    /// Expiries that lost a race with a person's change; the next run's sweep retries them.
    pub expiry_retried: u64,
    pub slips_purged: u64,
    /// Memory versions embedded for recall (`llm.embedding_model`, spec §10.25).
    pub memories_embedded: u64,
    pub llm: LlmCounts,
    pub duration_ms: u64,
    /// The run stopped taking work before its backlog ended (a stop, the
    /// token budget, a model that cannot answer, the database gone).
    pub stopped_early: bool,
    /// The model answered no one (a wrong key, URL or model): the work it
    /// left waits uncharged, and `--run-once` still exits 3, so that a
    /// timer's run says something is wrong (not in the JSON of §8.2).
    #[serde(skip)]
    pub model_cannot_answer: bool,
    /// In a dry run: the slips a real run would have written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub would_write: Option<Vec<Slip>>,
}

impl RunSummary {
    fn new(run_id: String, started_at: Time, dry_run: bool) -> RunSummary {
        RunSummary {
            run_id,
            started_at,
            finished_at: started_at,
            dry_run,
            conversations: ConversationCounts::default(),
            messages: MessageCounts::default(),
            slips: SlipCounts::default(),
            users: UserCounts::default(),
            operations: OperationCounts::default(),
            memories_expired: 0,
            expiry_retried: 0,
            slips_purged: 0,
            memories_embedded: 0,
            llm: LlmCounts::default(),
            duration_ms: 0,
            stopped_early: false,
            model_cannot_answer: false,
            would_write: dry_run.then(Vec::new),
        }
    }

    /// Some conversations or users failed and will be retried.
    pub fn partly_failed(&self) -> bool {
        self.conversations.failed > 0 || self.users.failed > 0
    }

    /// Exit code 3: some work failed, or the model answered no one, and
    /// what is left is retried next run.
    pub fn retried_next_run(&self) -> bool {
        self.partly_failed() || self.model_cannot_answer
    }

    /// How the run ended, for its `run finished` line: a failure outweighs
    /// work left for the next run.
    pub fn outcome(&self) -> RunOutcome {
        if self.partly_failed() {
            RunOutcome::PartlyFailed
        } else if self.stopped_early || self.conversations.left > 0 || self.users.left > 0 {
            RunOutcome::LeftForNextRun
        } else {
            RunOutcome::Done
        }
    }

    fn add_user(&mut self, outcome: crate::consolidate::Outcome) {
        self.count_calls(outcome.calls, outcome.failures, &outcome.usage);
        match outcome.ending {
            Ending::LeftForLater => {
                self.users.left += 1;
                return;
            }
            Ending::Failed(_) => self.users.failed += 1,
            Ending::Done => self.users.consolidated += 1,
        }
        let d = outcome.decisions;
        let applied = &mut self.operations.applied;
        for (op, n) in d.applied {
            match op {
                Applied::Create => applied.create += n,
                Applied::Update => applied.update += n,
                Applied::Confirm => applied.confirm += n,
                Applied::Retire => applied.retire += n,
                Applied::Suggest => applied.suggest += n,
            }
        }
        for (reason, n) in d.rejected {
            *self.operations.rejected.entry(reason).or_default() += n;
        }
        self.operations.deferred += d.deferred;
    }

    /// The model calls of a step, whatever its ending (a step left for the
    /// next run because the model answers no one made calls too).
    fn count_calls(&mut self, calls: u32, failures: u32, usage: &crate::llm::Usage) {
        self.llm.calls += u64::from(calls);
        self.llm.failures += u64::from(failures);
        self.llm.prompt_tokens += usage.prompt_tokens;
        self.llm.completion_tokens += usage.completion_tokens;
    }

    fn add(&mut self, outcome: Outcome) {
        self.count_calls(outcome.calls, outcome.failures, &outcome.usage);
        match outcome.ending {
            Ending::LeftForLater => {
                self.conversations.left += 1;
                return;
            }
            Ending::Failed(_) => self.conversations.failed += 1,
            Ending::Done => self.conversations.done += 1,
        }
        self.conversations.selected += 1;
        self.messages.extracted += outcome.extracted;
        self.messages.skipped_out_of_window += outcome.skipped_out_of_window;
        self.slips.kept += outcome.kept.len() as u64;
        for (reason, n) in outcome.dropped {
            *self.slips.dropped.entry(reason).or_default() += n;
        }
        if let Some(slips) = &mut self.would_write {
            slips.extend(outcome.kept);
        }
    }
}

/// How a run is asked to go.
pub struct RunOptions<'a> {
    /// Also the owner of the run's claims, so an abandoned run's claims can be released.
    pub run_id: String,
    /// The start of the run (`--now`, or the clock); advanced by real elapsed time.
    pub now: Time,
    pub dry_run: bool,
    /// Once cancelled, the run takes no new conversation or user and finishes the ones in flight.
    pub cancel: CancellationToken,
    /// Called with (done, total) as conversations finish, for status lines.
    pub progress: Option<&'a (dyn Fn(usize, usize) + Sync)>,
}

impl RunOptions<'_> {
    /// A run on its own, as `--run-once` does it.
    pub fn once(now: Time, dry_run: bool) -> RunOptions<'static> {
        RunOptions {
            run_id: new_id(),
            now,
            dry_run,
            cancel: CancellationToken::new(),
            progress: None,
        }
    }
}

/// Performs one run at `now` (the `--now` clock, advanced by real elapsed time).
#[tracing::instrument(skip_all, fields(run_id))]
pub async fn run_once<S: Store>(
    store: &S,
    config: &Config,
    provider: &Provider,
    options: RunOptions<'_>,
) -> Result<RunSummary> {
    let RunOptions { run_id, now, dry_run, cancel, progress } = options;
    let started = Instant::now();
    tracing::Span::current().record("run_id", run_id.as_str());
    tracing::info!(dry_run, "run started");
    let clock = || {
        crate::domain::truncate_time(
            now + chrono::Duration::from_std(started.elapsed()).unwrap_or_default(),
        )
    };
    let window = Window::at(now, config);
    let mut summary = RunSummary::new(run_id.clone(), now, dry_run);

    summary.messages.skipped_out_of_window += store.skip_out_of_window(&window, dry_run).await?;
    let owner = (!dry_run).then_some(run_id.as_str());
    let seen = crate::seen::SeenValues::default();
    let said = std::sync::Arc::new(crate::said::SaidInRun::default());
    let stop = &cancel;
    let model = ModelWatch::new(config.llm.concurrency);
    let model_answered = &model.answered;
    let stage_one = StageOne {
        store,
        provider,
        config,
        run_id: &run_id,
        owner,
        window,
        seen,
        stop,
        model_answered,
        deleted: Default::default(),
        said: &said,
    };
    let extracted = with_claims_renewed(
        store,
        owner,
        config,
        &clock,
        extract_all(&stage_one, config, &clock, &cancel, &model, progress),
    )
    .await?;
    for outcome in extracted.outcomes {
        summary.add(outcome);
    }
    summary.conversations.left += extracted.left;
    summary.stopped_early = extracted.stopped_early;
    if let Some(owner) = owner {
        store.release_claims(owner).await?;
    }
    let stage_two = StageTwo {
        store,
        provider,
        config,
        run_id: &run_id,
        owner,
        stop,
        model_answered,
        said: &said,
    };
    let users = store.users_with_new_slips(config.selection.max_attempts).await?;
    let user_outcomes = with_claims_renewed(
        store,
        owner,
        config,
        &clock,
        consolidate_all(&stage_two, &users, config, &clock, &cancel, &model),
    )
    .await;
    for outcome in user_outcomes {
        summary.add_user(outcome);
    }
    summary.model_cannot_answer = model.unavailable.load(Ordering::Relaxed);

    match sweep_expired(store, clock(), &run_id, dry_run).await {
        Ok((expired, retried)) => {
            summary.memories_expired = expired;
            summary.expiry_retried = retried;
        }
        Err(e) => {
            tracing::warn!(error = %e, "the expiry sweep could not read; the next run sweeps")
        }
    }
    if !dry_run {
        let retention = config.policy.slip_ttl;
        match store.purge_slips(clock() - retention).await {
            Ok(purged) => summary.slips_purged = purged,
            Err(e) => tracing::warn!(error = %e, "slip retention failed; the next run purges"),
        }
        embed_memories(store, config, &cancel, &mut summary).await;
    }
    summary.finished_at = clock();
    summary.duration_ms = started.elapsed().as_millis() as u64;
    if !dry_run {
        store
            .save_run(&RunRecord {
                run_id: run_id.clone(),
                started_at: summary.started_at,
                finished_at: summary.finished_at,
                dry_run,
                // A summary is plain data with string keys: serialising it cannot fail.
                summary: serde_json::to_value(&summary).expect("summaries serialise"),
            })
            .await?;
    }
    let applied = &summary.operations.applied;
    tracing::info!(
        run_id = %summary.run_id,
        outcome = %summary.outcome(),
        dry_run = summary.dry_run,
        conversations_selected = summary.conversations.selected,
        conversations_done = summary.conversations.done,
        conversations_failed = summary.conversations.failed,
        conversations_left = summary.conversations.left,
        messages_extracted = summary.messages.extracted,
        messages_skipped_out_of_window = summary.messages.skipped_out_of_window,
        slips_kept = summary.slips.kept,
        slips_dropped = summary.slips.dropped.values().sum::<u64>(),
        slips_dropped_by_reason = %crate::step::by_reason(&summary.slips.dropped),
        users_consolidated = summary.users.consolidated,
        users_failed = summary.users.failed,
        users_left = summary.users.left,
        ops_create = applied.create,
        ops_update = applied.update,
        ops_confirm = applied.confirm,
        ops_retire = applied.retire,
        ops_suggest = applied.suggest,
        ops_deferred = summary.operations.deferred,
        ops_rejected = summary.operations.rejected.values().sum::<u64>(),
        ops_rejected_by_reason = %crate::step::by_reason(&summary.operations.rejected),
        memories_expired = summary.memories_expired,
        expiry_retried = summary.expiry_retried,
        slips_purged = summary.slips_purged,
        memories_embedded = summary.memories_embedded,
        llm_calls = summary.llm.calls,
        llm_failures = summary.llm.failures,
        prompt_tokens = summary.llm.prompt_tokens,
        completion_tokens = summary.llm.completion_tokens,
        duration_ms = summary.duration_ms,
        "run finished"
    );
    Ok(summary)
}

/// The most memories a run embeds, and how many go into one call.
const EMBEDDINGS_PER_RUN: u32 = 1024;
const EMBEDDINGS_PER_CALL: usize = 64;

/// Embeds the memories that have no embedding of their current version
/// (spec §10.25), when `llm.embedding_model` is set: those this run created
/// or changed, those a person wrote whose embedding failed, all of them once
/// the model changes. Never aborts the run: the first failure stops it,
/// logged by category, and the next run goes on where it stopped.
async fn embed_memories<S: Store>(
    store: &S,
    config: &Config,
    cancel: &CancellationToken,
    summary: &mut RunSummary,
) {
    let embedder = match Embedder::from_config(config) {
        Ok(Some(embedder)) => embedder,
        Ok(None) => return,
        Err(e) => return tracing::warn!(error = %e, "cannot embed memories"),
    };
    let memories = match store.memories_to_embed(embedder.model(), EMBEDDINGS_PER_RUN).await {
        Ok(memories) => memories,
        Err(e) => return tracing::warn!(error = %e, "could not read the memories to embed"),
    };
    for batch in memories.chunks(EMBEDDINGS_PER_CALL) {
        if cancel.is_cancelled() {
            return;
        }
        let texts: Vec<&str> =
            batch.iter().map(|m| m.content.as_deref().unwrap_or_default()).collect();
        let report = embedder.embed(&texts, cancel).await;
        summary.llm.calls += u64::from(report.calls);
        summary.llm.failures += u64::from(report.failures);
        summary.llm.prompt_tokens += report.usage.prompt_tokens;
        let Ok(vectors) = report.outcome else {
            return tracing::warn!("embedding memories stopped; the next run goes on");
        };
        let writes = batch
            .iter()
            .zip(vectors)
            .map(|(m, vector)| Write::SaveEmbedding {
                memory_id: m.memory_id.clone(),
                version: m.version,
                model: embedder.model().to_owned(),
                vector,
            })
            .collect();
        if let Err(e) = store.apply(writes).await {
            return tracing::warn!(error = %e, "could not store embeddings; the next run goes on");
        }
        summary.memories_embedded += batch.len() as u64;
    }
}

/// How many conversations a replica claims ahead per slot of `llm.concurrency`:
/// enough that a slot never waits for a claim, few enough that replicas share
/// the backlog instead of one taking it all.
const CLAIM_AHEAD_PER_SLOT: usize = 2;

/// What stage one did over the run's conversations.
struct Extracted {
    outcomes: Vec<Outcome>,
    /// Conversations claimed and left unstarted.
    left: u64,
    /// Whether a stop, the budget, the model or the database ended the
    /// claiming before it found the backlog empty or reached
    /// `max_conversations_per_run`.
    stopped_early: bool,
}

/// Stage one, `llm.concurrency` conversations at a time, claimed in small
/// batches as slots free up, until the backlog, `max_conversations_per_run`,
/// the run's token budget or a stop request ends it. Conversations already
/// claimed when the budget runs out or a stop comes are released for the
/// next run.
async fn extract_all<S: Store>(
    stage_one: &StageOne<'_, S>,
    config: &Config,
    clock: &(impl Fn() -> Time + Sync),
    cancel: &CancellationToken,
    model: &ModelWatch,
    progress: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> Result<Extracted> {
    let budget = config.llm.max_tokens_per_run;
    let spent = AtomicU64::new(0);
    let finished = AtomicUsize::new(0);
    let claimed = AtomicUsize::new(0);
    let unreachable = std::sync::atomic::AtomicBool::new(false);
    let left = AtomicUsize::new(0);
    let stopped = || {
        cancel.is_cancelled()
            || spent.load(Ordering::Relaxed) >= budget
            || unreachable.load(Ordering::Relaxed)
            || model.stop_reason().is_some()
    };
    let cut_short = std::sync::atomic::AtomicBool::new(false);
    let claims = Claims {
        stage_one,
        clock,
        claimed: &claimed,
        cut_short: &cut_short,
        queue: Default::default(),
        ready: Default::default(),
        done: false,
    };
    let outcomes: Vec<Result<Option<Outcome>>> = claims
        .stream(config, &stopped)
        .map(|candidate| {
            let (spent, finished, claimed, unreachable, left) =
                (&spent, &finished, &claimed, &unreachable, &left);
            async move {
                let (candidate, read) = candidate?;
                let span = tracing::info_span!(
                    "conversation",
                    conversation_id = %candidate.conversation_id,
                    user_id = %candidate.user_id
                );
                async move {
                    if stopped() {
                        left.fetch_add(1, Ordering::Relaxed);
                        leave_for_next_run(stage_one, &candidate).await;
                        return Ok(None);
                    }
                    // Said when work starts too: a model that hangs would
                    // otherwise leave the status at "selecting".
                    if let Some(report) = progress {
                        report(finished.load(Ordering::Relaxed), claimed.load(Ordering::Relaxed));
                    }
                    let outcome = stage_one.conversation(&candidate, read, clock()).await;
                    if outcome.store_unreachable {
                        unreachable.store(true, Ordering::Relaxed);
                    }
                    let answered = outcome.calls > outcome.failures;
                    model.note(outcome.model_unavailable, outcome.model_failing, answered);
                    let cost = outcome.usage.prompt_tokens + outcome.usage.completion_tokens;
                    spent.fetch_add(cost, Ordering::Relaxed);
                    let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Some(report) = progress {
                        report(done, claimed.load(Ordering::Relaxed));
                    }
                    Ok(Some(outcome))
                }
                .instrument(span)
                .await
            }
        })
        .buffer_unordered(config.llm.concurrency)
        .collect()
        .await;
    let outcomes: Vec<Outcome> =
        outcomes.into_iter().filter_map(Result::transpose).collect::<Result<_>>()?;
    let left = left.load(Ordering::Relaxed);
    let stopped_early = left > 0 || cut_short.load(Ordering::Relaxed);
    if stopped_early {
        let why = if cancel.is_cancelled() {
            "shutting down"
        } else if let Some(why) = model.stop_reason() {
            why
        } else if unreachable.load(Ordering::Relaxed) {
            "the database cannot be reached"
        } else {
            "token budget of this run spent (llm.max_tokens_per_run)"
        };
        tracing::info!(left, reason = why, "conversations left for the next run");
    }
    if unreachable.load(Ordering::Relaxed) {
        return Err(crate::error::Error::Unreachable(
            "the database could not be reached during stage one; the run stopped taking work and the next run goes on"
                .into(),
        ));
    }
    Ok(Extracted { outcomes, left: left as u64, stopped_early })
}

/// How the model fares this run, across both stages: whether the run
/// should stop taking work because of it. A model that answers no one
/// (a refused key, a wrong URL) stops it at the first call and charges
/// nothing; one that fails [`ModelWatch::trip_at`] steps in a row with
/// timeouts or server errors stops it too, charging the steps that failed:
/// every further step would likely wait out its timeout and retries the
/// same way, and a hung model would otherwise stretch a run to hours.
struct ModelWatch {
    /// Whether any step had an answer from the model this run: until one
    /// has, a server failing is an outage, charged to no one.
    answered: std::sync::atomic::AtomicBool,
    unavailable: std::sync::atomic::AtomicBool,
    failing_in_a_row: AtomicUsize,
    broken: std::sync::atomic::AtomicBool,
    trip_at: usize,
}

impl ModelWatch {
    /// Steps failing in a row that end the run's work: one wave of
    /// `llm.concurrency` failing together, and never fewer than three.
    fn new(concurrency: usize) -> ModelWatch {
        ModelWatch {
            answered: Default::default(),
            unavailable: Default::default(),
            failing_in_a_row: AtomicUsize::new(0),
            broken: Default::default(),
            trip_at: concurrency.max(3),
        }
    }

    /// Notes how one step (a conversation or a user) ended with the model:
    /// unavailable, failing, or `answered` at least once, which ends a
    /// series of failures.
    fn note(&self, unavailable: bool, failing: bool, answered: bool) {
        if unavailable && !self.unavailable.swap(true, Ordering::Relaxed) {
            tracing::error!(
                "the model cannot answer (see the step's reason): the run stops taking work and charges no conversation or user an attempt; check llm.base_url, llm.model and the API key"
            );
        }
        if failing {
            let in_a_row = self.failing_in_a_row.fetch_add(1, Ordering::Relaxed) + 1;
            if in_a_row >= self.trip_at && !self.broken.swap(true, Ordering::Relaxed) {
                tracing::error!(
                    in_a_row,
                    "the model failed this many steps in a row (timeouts, HTTP 429 or 5xx, broken connections): the run stops taking work, and the rest waits for the next run; check the model server"
                );
            }
        } else if answered {
            self.failing_in_a_row.store(0, Ordering::Relaxed);
        }
        if answered {
            self.answered.store(true, Ordering::Relaxed);
        }
    }

    /// Why the model keeps the run from taking more work, if it does.
    fn stop_reason(&self) -> Option<&'static str> {
        if self.unavailable.load(Ordering::Relaxed) {
            Some("the model cannot answer")
        } else if self.broken.load(Ordering::Relaxed) {
            Some("the model failed too many calls in a row")
        } else {
            None
        }
    }
}

/// Releases a claimed conversation the run will not work on.
/// The run says once, at its end, how many it left and why.
async fn leave_for_next_run<S: Store>(stage_one: &StageOne<'_, S>, c: &Candidate) {
    if let Some(owner) = stage_one.owner
        && let Err(e) = stage_one.store.release_claim(&c.conversation_id, owner).await
    {
        tracing::warn!(error = %e, "could not release the claim; it expires by itself");
    }
    tracing::debug!("conversation left for the next run");
}

/// The conversations a run takes, claimed a small batch at a time when the
/// last batch has been handed out (a dry run peeks once and claims nothing),
/// and read a batch at a time: one statement for a batch's messages.
struct Claims<'a, S, C> {
    stage_one: &'a StageOne<'a, S>,
    clock: &'a C,
    claimed: &'a AtomicUsize,
    /// Set when a stop ended the claiming with more to claim.
    cut_short: &'a std::sync::atomic::AtomicBool,
    /// Claimed, not read yet.
    queue: VecDeque<Candidate>,
    /// Claimed and read (`None`: the batch's read failed), to hand out.
    ready: VecDeque<Claimed>,
    done: bool,
}

type Claimed = (Candidate, Option<ConversationMessages>);

impl<'a, S: Store, C: Fn() -> Time + Sync> Claims<'a, S, C> {
    fn stream(
        self,
        config: &'a Config,
        stopped: &'a (impl Fn() -> bool + Sync),
    ) -> impl futures::Stream<Item = Result<Claimed>> + 'a {
        let batch = config.llm.concurrency * CLAIM_AHEAD_PER_SLOT;
        let ttl = config.selection.claim_ttl;
        let context = config.selection.context_messages;
        futures::stream::unfold(self, move |mut claims| async move {
            if claims.ready.is_empty() {
                if claims.queue.is_empty() && !claims.done && stopped() {
                    claims.cut_short.store(true, Ordering::Relaxed);
                } else if claims.queue.is_empty()
                    && !claims.done
                    && let Err(e) = claims.take(batch, ttl).await
                {
                    claims.done = true;
                    return Some((Err(e), claims));
                }
                claims.read(batch, context, stopped()).await;
            }
            let next = claims.ready.pop_front()?;
            Some((Ok(next), claims))
        })
    }

    /// Claims (or, in a dry run, peeks at) the next batch, oldest idle first.
    async fn take(&mut self, batch: usize, ttl: chrono::Duration) -> Result<()> {
        let window = self.stage_one.window;
        let limit = window.limit as usize;
        let taken = self.claimed.load(Ordering::Relaxed);
        let owner = self.stage_one.owner;
        let size = if owner.is_some() { batch.min(limit - taken) } else { limit };
        let window = Window { limit: size as u32, ..window };
        let claim = owner.map(|o| (o, (self.clock)() + ttl));
        let candidates = self.stage_one.store.select_conversations(&window, claim).await?;
        self.done = owner.is_none() || candidates.is_empty() || taken + candidates.len() >= limit;
        self.claimed.fetch_add(candidates.len(), Ordering::Relaxed);
        self.queue.extend(candidates);
        Ok(())
    }

    /// Reads the messages of the next `batch` claimed conversations in one
    /// statement, unless the run is `stopping` (they are left unread for
    /// the next run). A failed read is not the batch's failure: each
    /// conversation then reads its own, and fails on its own.
    async fn read(&mut self, batch: usize, context: u32, stopping: bool) {
        let next: Vec<Candidate> = self.queue.drain(..batch.min(self.queue.len())).collect();
        let wanted: Vec<(&str, i64)> =
            next.iter().map(|c| (c.conversation_id.as_str(), c.watermark_seq)).collect();
        let read = if stopping || wanted.is_empty() {
            Vec::new()
        } else {
            match self.stage_one.store.conversations_messages(&wanted, context).await {
                Ok(read) => read,
                Err(e) => {
                    tracing::debug!(error = %e, "a batch's read failed; each conversation reads its own");
                    Vec::new()
                }
            }
        };
        let mut read = read.into_iter();
        self.ready.extend(next.into_iter().map(|c| (c, read.next())));
    }
}

/// Stage two for every user with new slips, `llm.concurrency` at a time.
async fn consolidate_all<S: Store>(
    stage_two: &StageTwo<'_, S>,
    users: &[String],
    config: &Config,
    clock: &(impl Fn() -> Time + Sync),
    cancel: &CancellationToken,
    model: &ModelWatch,
) -> Vec<crate::consolidate::Outcome> {
    futures::stream::iter(users)
        .map(|user_id| {
            let span = tracing::info_span!("user", user_id = %user_id);
            async move {
                let why =
                    if cancel.is_cancelled() { Some("shutting down") } else { model.stop_reason() };
                if let Some(why) = why {
                    tracing::info!(reason = why, "user left for the next run");
                    return crate::consolidate::Outcome {
                        ending: Ending::LeftForLater,
                        ..Default::default()
                    };
                }
                let outcome = stage_two.user(user_id, clock()).await;
                let answered = outcome.calls > outcome.failures;
                model.note(outcome.model_unavailable, outcome.model_failing, answered);
                outcome
            }
            .instrument(span)
        })
        .buffer_unordered(config.llm.concurrency)
        .collect()
        .await
}

/// Runs `work` while renewing `owner`'s claims every third of their lifetime.
async fn with_claims_renewed<S: Store, T>(
    store: &S,
    owner: Option<&str>,
    config: &Config,
    clock: &impl Fn() -> Time,
    work: impl Future<Output = T>,
) -> T {
    let Some(owner) = owner else {
        return work.await;
    };
    // The renewal runs beside the work, never in its way: a renewal waiting on
    // an unreachable database must not stall the work that notices it.
    tokio::select! {
        result = work => result,
        never = renew_forever(store, owner, config.selection.claim_ttl, clock) => match never {},
    }
}

/// Renews `owner`'s claims every third of their lifetime, for as long as it is polled.
async fn renew_forever<S: Store>(
    store: &S,
    owner: &str,
    ttl: chrono::Duration,
    clock: &impl Fn() -> Time,
) -> std::convert::Infallible {
    let every = ttl.to_std().unwrap_or_default().div_f64(3.0).max(Duration::from_secs(1));
    loop {
        tokio::time::sleep(every).await;
        if let Err(e) = store.renew_claims(owner, clock() + ttl).await {
            tracing::warn!(error = %e, "could not renew claims");
        }
    }
}

/// Marks auto memories past their expiry as expired, each with its event.
/// Never aborts the run (spec §10.23): a memory a person changed meanwhile is
/// left for the next run's sweep and counted in `retried`.
async fn sweep_expired<S: Store>(
    store: &S,
    now: Time,
    run_id: &str,
    dry_run: bool,
) -> Result<(u64, u64)> {
    let due = store.expiring_memories(now).await?;
    if dry_run {
        return Ok((due.len() as u64, 0));
    }
    let (mut expired, mut retried) = (0, 0);
    for memory in &due {
        match store.apply(manage::expire(memory, now, run_id)).await {
            Ok(()) => expired += 1,
            Err(e) => {
                retried += 1;
                tracing::warn!(memory_id = %memory.memory_id, error = %e, "could not expire the memory; the next run tries again");
            }
        }
    }
    Ok((expired, retried))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_watch_stops_the_run_only_after_failures_in_a_row() {
        let watch = ModelWatch::new(1);
        for _ in 0..2 {
            watch.note(false, true, false);
        }
        watch.note(false, false, true);
        for _ in 0..2 {
            watch.note(false, true, false);
        }
        watch.note(false, false, false);
        assert_eq!(
            watch.stop_reason(),
            None,
            "an answer ends a series; a step with no call does not"
        );
        watch.note(false, true, false);
        assert_eq!(watch.stop_reason(), Some("the model failed too many calls in a row"));
    }

    #[test]
    fn one_wave_of_failures_trips_the_watch_at_high_concurrency() {
        let watch = ModelWatch::new(8);
        for _ in 0..7 {
            watch.note(false, true, false);
        }
        assert_eq!(watch.stop_reason(), None);
        watch.note(false, true, false);
        assert!(watch.stop_reason().is_some());
    }

    #[test]
    fn a_model_that_answers_no_one_stops_the_run_at_once() {
        let watch = ModelWatch::new(8);
        watch.note(true, false, false);
        assert_eq!(watch.stop_reason(), Some("the model cannot answer"));
    }
}
