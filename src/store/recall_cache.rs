//! Recall's candidates kept in memory between calls (spec §7, §10.25): a
//! user's active memories in the scopes an agent asks for, with their
//! evidence and their terms counted, valid for as long as the user's stamp in the database is
//! unchanged. The database moves the stamp
//! on every change recall could see (triggers in migration 0009), whoever
//! makes it, so a cached entry is never served after a change; a process
//! that never recalls twice gains nothing and loses nothing.

use crate::domain::{Evidence, Memory, MemoryRecord};
use crate::rank::IndexedDocument;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Users and scope lists whose candidates are kept; the least recently
/// recalled go first.
const CAPACITY: usize = 256;

/// An active memory of a user with its evidence: all recall returns, so a
/// kept candidate needs no further read. Its content and evidence quotes
/// are indexed for ranking on the first recall with a query that ranks it.
#[derive(Debug, Clone)]
pub struct RecallCandidate {
    pub memory: Memory,
    pub evidence: Vec<Evidence>,
    document: OnceLock<IndexedDocument>,
}

impl RecallCandidate {
    pub fn new(memory: Memory, evidence: Vec<Evidence>) -> Self {
        RecallCandidate { memory, evidence, document: OnceLock::new() }
    }

    /// The content and evidence quotes, indexed once.
    pub fn document(&self) -> &IndexedDocument {
        self.document.get_or_init(|| {
            let content = self.memory.content.as_deref().unwrap_or_default();
            IndexedDocument::new(content, self.evidence.iter().filter_map(|e| e.quote.as_deref()))
        })
    }

    /// The record recall returns.
    pub fn record(&self) -> MemoryRecord {
        MemoryRecord::new(self.memory.clone(), self.evidence.clone())
    }
}

impl AsRef<Memory> for RecallCandidate {
    fn as_ref(&self) -> &Memory {
        &self.memory
    }
}

/// A user's candidates in some scopes as read at one stamp.
pub type Candidates = Arc<[RecallCandidate]>;

struct Entry {
    stamp: i64,
    candidates: Candidates,
    last_used: u64,
}

/// Shared by every clone of a store.
#[derive(Default)]
pub struct RecallCache {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<Key, Entry>,
    clock: u64,
}

/// A user and the scopes recalled, in a canonical order.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    user_id: String,
    scopes: Vec<String>,
}

impl Key {
    fn new(user_id: &str, scopes: &[String]) -> Key {
        let mut scopes = scopes.to_vec();
        scopes.sort_unstable();
        scopes.dedup();
        Key { user_id: user_id.to_owned(), scopes }
    }
}

impl RecallCache {
    /// The user's candidates in `scopes` if they were read at `stamp`.
    pub fn get(&self, user_id: &str, scopes: &[String], stamp: i64) -> Option<Candidates> {
        let key = Key::new(user_id, scopes);
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.clock += 1;
        let now = inner.clock;
        let entry = inner.entries.get_mut(&key).filter(|e| e.stamp == stamp)?;
        entry.last_used = now;
        Some(entry.candidates.clone())
    }

    /// Keeps the user's candidates in `scopes` read at `stamp`, dropping the
    /// least recently used entry when full.
    pub fn put(&self, user_id: &str, scopes: &[String], stamp: i64, candidates: Candidates) {
        let key = Key::new(user_id, scopes);
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.clock += 1;
        let last_used = inner.clock;
        inner.entries.insert(key, Entry { stamp, candidates, last_used });
        if inner.entries.len() > CAPACITY {
            let oldest =
                inner.entries.iter().min_by_key(|(_, e)| e.last_used).map(|(k, _)| k.clone());
            if let Some(key) = oldest {
                inner.entries.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidates(n: usize) -> Candidates {
        Vec::<RecallCandidate>::with_capacity(n).into()
    }

    fn scopes(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn an_entry_is_served_only_at_the_stamp_it_was_read_at() {
        let cache = RecallCache::default();
        let global = scopes(&["global"]);
        assert!(cache.get("u1", &global, 7).is_none());
        cache.put("u1", &global, 7, candidates(0));
        assert!(cache.get("u1", &global, 7).is_some());
        assert!(cache.get("u1", &global, 8).is_none(), "the stamp moved: read again");
        assert!(cache.get("u2", &global, 7).is_none(), "another user's stamp says nothing");
        cache.put("u1", &global, 8, candidates(0));
        assert!(cache.get("u1", &global, 7).is_none(), "the newer read replaced the older");
    }

    #[test]
    fn an_entry_holds_the_scopes_it_was_read_for_in_any_order() {
        let cache = RecallCache::default();
        cache.put("u1", &scopes(&["global", "project:A"]), 7, candidates(0));
        assert!(cache.get("u1", &scopes(&["project:A", "global", "global"]), 7).is_some());
        assert!(cache.get("u1", &scopes(&["global"]), 7).is_none());
        assert!(cache.get("u1", &scopes(&["global", "project:A", "domain:recipe"]), 7).is_none());
    }

    #[test]
    fn the_least_recently_recalled_user_goes_first_when_full() {
        let cache = RecallCache::default();
        let global = scopes(&["global"]);
        for n in 0..CAPACITY {
            cache.put(&format!("u{n}"), &global, 1, candidates(0));
        }
        assert!(cache.get("u0", &global, 1).is_some(), "u0 used again, so u1 is now the oldest");
        cache.put("new", &global, 1, candidates(0));
        assert!(cache.get("u1", &global, 1).is_none());
        assert!(cache.get("u0", &global, 1).is_some());
        assert!(cache.get("new", &global, 1).is_some());
        assert!(cache.get(&format!("u{}", CAPACITY - 1), &global, 1).is_some());
    }
}
