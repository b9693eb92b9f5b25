//! A workload for tests of many processes (replicas, kills, hours of
//! service): conversations whose every answer is a pure function of the
//! request, so that any split of the work between runs, processes and
//! restarts must end in the state one clean run reaches; and that state read
//! back in a form two databases can be compared by.
//!
//! Stage one: each user message yields a scripted number (0–2) of slips, a
//! hash of its conversation and message ids, each in a (kind, scope) group
//! drawn the same way. Stage two: one `create` per group of the request,
//! citing every slip of the group, with a text fixed by (user, kind, scope).
//! dreamd turns a create equal to an active memory into a confirm, defers a
//! `presentation` group until it has two conversations, and turns
//! `terminology` into a suggestion; so the final memories and suggestions do
//! not depend on which run saw which slips first — only a lost or doubled
//! write changes them.

use crate::fake_model;
use crate::helpers::{RawSql, line};
use dreamd::store::Store;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use wiremock::{MockServer, ResponseTemplate};

/// A small deterministic generator (splitmix64), so that a test that prints
/// its seed can draw the same random choices again.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The seed from `var` when set (to replay a failure), else from the clock.
pub fn seed(var: &str) -> u64 {
    match std::env::var(var) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{var} must be a number, not {v:?}")),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
    }
}

/// A number from `var`, or `default`.
pub fn env_number(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{var} must be a number, not {v:?}")))
        .unwrap_or(default)
}

/// FNV-1a: stable across processes and runs, unlike `std`'s hasher.
fn hash(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The (kind, scope) groups slips fall into, with the text stage two gives
/// each group's memory (or suggestion).
const GROUPS: &[(&str, &str, &str)] = &[
    ("recent_focus", "global", "works on the oat drink line"),
    ("recent_focus", "domain:recipe", "tunes the yoghurt recipes"),
    ("background", "global", "leads a dairy R&D team"),
    ("presentation", "global", "wants tables before prose"),
    ("presentation", "domain:report", "wants the result first in reports"),
    ("terminology", "domain:recipe", "says LC for lifecycle"),
];

const WORDS: &[&str] = &[
    "oat drinks",
    "yoghurt",
    "cheese rinds",
    "whey powder",
    "cold brew",
    "sourdough",
    "kefir",
    "butter churning",
    "soy milk",
    "ice cream",
    "tofu",
    "miso",
];

/// How many slips the scripted model finds in a user message.
pub fn slips_in(conversation_id: &str, message_id: &str) -> usize {
    (hash(&[conversation_id, message_id]) % 3) as usize
}

fn group_of(
    conversation_id: &str,
    message_id: &str,
    j: usize,
) -> &'static (&'static str, &'static str, &'static str) {
    let h = hash(&[conversation_id, message_id, &j.to_string()]);
    &GROUPS[(h % GROUPS.len() as u64) as usize]
}

/// The text of a memory or suggestion of `user` in a group.
fn group_text(user: &str, kind: &str, scope: &str) -> String {
    let topic = GROUPS.iter().find(|g| g.0 == kind && g.1 == scope).map_or("", |g| g.2);
    format!("{user} {topic}")
}

/// The scripted answer to either stage's request document.
pub fn answer(doc: &Value) -> ResponseTemplate {
    if fake_model::is_stage_one(doc) { stage_one(doc) } else { stage_two(doc) }
}

fn stage_one(doc: &Value) -> ResponseTemplate {
    let conversation = doc["conversation_id"].as_str().unwrap_or_default();
    let mut found = Vec::new();
    for m in doc["messages"].as_array().into_iter().flatten().filter(|m| m["role"] == "user") {
        let id = m["message_id"].as_str().unwrap_or_default();
        for j in 0..slips_in(conversation, id) {
            let (kind, scope, topic) = group_of(conversation, id, j);
            found.push(json!({"message_id": id, "quote": m["content"], "content": format!("{topic}, note {j}"),
                "kind": kind, "scope": scope, "durability": "lasting", "valid_until": null}));
        }
    }
    fake_model::slips(Value::Array(found))
}

fn stage_two(doc: &Value) -> ResponseTemplate {
    let user = doc["user_id"].as_str().unwrap_or_default();
    let mut groups: BTreeMap<(String, String), Vec<Value>> = BTreeMap::new();
    for s in doc["slips"].as_array().into_iter().flatten() {
        let key = (s["kind"].as_str().unwrap_or_default(), s["scope"].as_str().unwrap_or_default());
        groups.entry((key.0.to_owned(), key.1.to_owned())).or_default().push(s["slip_id"].clone());
    }
    let operations: Vec<Value> = groups
        .into_iter()
        .map(|((kind, scope), ids)| {
            json!({"op": "create", "kind": kind, "scope": scope, "content": group_text(user, &kind, &scope),
                   "slip_ids": ids, "supersedes_slip_ids": []})
        })
        .collect();
    fake_model::operations(Value::Array(operations))
}

/// The scripted model, stage one answering after `stage_one` and stage two
/// after `stage_two`, so that kills and replicas meet work in flight.
pub async fn model(stage_one: std::time::Duration, stage_two: std::time::Duration) -> MockServer {
    fake_model::start_both(
        move |doc: &Value| answer(doc).set_delay(stage_one),
        move |doc: &Value| answer(doc).set_delay(stage_two),
    )
    .await
}

/// Input lines and what the scripted model must have made of them.
#[derive(Default)]
pub struct Workload {
    pub lines: Vec<String>,
    /// Slips each in-window message must end with, by (conversation, message).
    pub expected: BTreeMap<(String, String), usize>,
    /// Messages older than the window: never sent, never extracted.
    pub out_of_window: BTreeSet<(String, String)>,
    next_message: BTreeMap<String, usize>,
}

impl Workload {
    /// Adds `messages` messages (user and assistant turns in turn, starting
    /// with the user) to `conversation` of `user`, a minute apart from `start`.
    pub fn conversation(
        &mut self,
        user: &str,
        conversation: &str,
        messages: usize,
        start: chrono::DateTime<chrono::Utc>,
        in_window: bool,
    ) {
        let next = self.next_message.entry(conversation.to_owned()).or_default();
        for i in 0..messages {
            let n = *next + i;
            let id = format!("m{n}");
            let at = (start + chrono::Duration::minutes(i as i64)).to_rfc3339();
            let (role, content) = if n.is_multiple_of(2) {
                let h = hash(&[conversation, &id]) as usize;
                // What the message's slips will say, said in it: a slip's
                // content rests on its conversation.
                let said: String = (0..slips_in(conversation, &id))
                    .map(|j| format!("; I {}", group_of(conversation, &id, j).2))
                    .collect();
                let text = format!(
                    "Lately I work on {} and {}{said}",
                    WORDS[h % WORDS.len()],
                    WORDS[(h / 7) % WORDS.len()]
                );
                ("user", text)
            } else {
                ("assistant", "Noted, I will keep that in mind.".to_owned())
            };
            self.lines.push(line(user, conversation, &id, role, &content, &at));
            let key = (conversation.to_owned(), id.clone());
            if !in_window {
                self.out_of_window.insert(key);
            } else if role == "user" {
                self.expected.insert(key, slips_in(conversation, &id));
            } else {
                self.expected.insert(key, 0);
            }
        }
        *next += messages;
    }

    /// The lines added since `from` (a round's input).
    pub fn since(&self, from: usize) -> &[String] {
        &self.lines[from..]
    }

    /// Slips expected in all, and for each message with any.
    pub fn expected_slips(&self) -> BTreeMap<(String, String), usize> {
        self.expected.iter().filter(|(_, n)| **n > 0).map(|(k, n)| (k.clone(), *n)).collect()
    }

    pub fn total_slips(&self) -> usize {
        self.expected.values().sum()
    }
}

/// What a database holds after the work, in a form two databases compare by.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct State {
    pub slips_per_message: BTreeMap<(String, String), usize>,
    /// Per user: (kind, scope, origin, status, content) of every memory, sorted.
    pub memories: BTreeMap<String, Vec<String>>,
    /// Per user: (op, kind, scope, status, content) of every suggestion, sorted.
    pub suggestions: BTreeMap<String, Vec<String>>,
}

/// The state of a database, and the work it has left.
pub async fn state<S: Store + RawSql>(store: &S) -> State {
    let mut state = State::default();
    for user in store.users().await.unwrap() {
        for slip in store.slips(&user, None).await.unwrap() {
            *state.slips_per_message.entry((slip.conversation_id, slip.message_id)).or_default() +=
                1;
        }
        let mut memories: Vec<String> = store
            .memories(&user)
            .await
            .unwrap()
            .into_iter()
            .map(|m| {
                let text = json!([m.kind, m.scope, m.origin, m.status, m.content]);
                text.to_string()
            })
            .collect();
        memories.sort();
        if !memories.is_empty() {
            state.memories.insert(user.clone(), memories);
        }
        let mut suggestions: Vec<String> = store
            .suggestions(&user)
            .await
            .unwrap()
            .into_iter()
            .map(|s| json!([s.op, s.kind, s.scope, s.status, s.content]).to_string())
            .collect();
        suggestions.sort();
        if !suggestions.is_empty() {
            state.suggestions.insert(user, suggestions);
        }
    }
    state
}

/// What is left undone or held: each must be 0 once all work is done.
#[derive(Debug, Default, PartialEq, Eq, Clone, Copy)]
pub struct Leftovers {
    /// In-window conversations whose watermark is below their last message.
    pub unextracted: i64,
    pub new_slips: i64,
    pub conversation_claims: i64,
    pub user_claims: i64,
    pub failed_ranges: i64,
}

/// What `store` has left; claims counted whatever their expiry, or with
/// `live_at` only those still unexpired at that time. (A process killed
/// between a commit and the release of its claim leaves an expired claim on
/// finished work; nothing reads it, and the next claim of that conversation
/// or user overwrites it.)
pub async fn leftovers<S: RawSql>(
    store: &S,
    lookback_cutoff: &str,
    live_at: Option<&str>,
) -> Leftovers {
    let cutoff = store.time_literal(lookback_cutoff);
    let (conversations, users) = match live_at {
        Some(at) => {
            let at = store.time_literal(at);
            (format!(" AND claim_expires_at > {at}"), format!(" WHERE expires_at > {at}"))
        }
        None => (String::new(), String::new()),
    };
    Leftovers {
        unextracted: store
            .count(&format!(
                "SELECT count(*) FROM conversations WHERE last_seq > watermark_seq AND last_message_at >= {cutoff}"
            ))
            .await,
        new_slips: store.count("SELECT count(*) FROM slips WHERE state = 'new'").await,
        conversation_claims: store
            .count(&format!(
                "SELECT count(*) FROM conversations WHERE claim_owner IS NOT NULL{conversations}"
            ))
            .await,
        user_claims: store.count(&format!("SELECT count(*) FROM user_claims{users}")).await,
        failed_ranges: store.count("SELECT count(*) FROM failed_ranges").await,
    }
}

/// How often each message was sent to stage one as one to extract from.
pub async fn sent_per_message(server: &MockServer) -> BTreeMap<(String, String), usize> {
    let mut sent = BTreeMap::new();
    for doc in fake_model::documents(server, true).await {
        let conversation = doc["conversation_id"].as_str().unwrap().to_owned();
        for m in doc["messages"].as_array().unwrap() {
            let id = m["message_id"].as_str().unwrap().to_owned();
            *sent.entry((conversation.clone(), id)).or_default() += 1;
        }
    }
    sent
}

/// The differences between two maps, at most `limit` of them, for a failure message.
pub fn differences<K: Ord + std::fmt::Debug, V: PartialEq + std::fmt::Debug>(
    found: &BTreeMap<K, V>,
    expected: &BTreeMap<K, V>,
    limit: usize,
) -> Vec<String> {
    let keys: BTreeSet<&K> = found.keys().chain(expected.keys()).collect();
    keys.into_iter()
        .filter(|k| found.get(k) != expected.get(k))
        .take(limit)
        .map(|k| format!("{k:?}: found {:?}, expected {:?}", found.get(k), expected.get(k)))
        .collect()
}

/// Polls `check` until it says done, up to `bound`; on timeout fails with
/// what `check` last said was missing.
pub async fn wait_for(
    what: &str,
    bound: std::time::Duration,
    mut check: impl AsyncFnMut() -> Result<(), String>,
) {
    let start = std::time::Instant::now();
    loop {
        match check().await {
            Ok(()) => return,
            Err(missing) if start.elapsed() > bound => {
                panic!("timed out after {bound:?} waiting for {what}: {missing}")
            }
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(200)).await,
        }
    }
}
