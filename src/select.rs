//! Selection (spec §4): which conversations a run takes and what of them
//! stage one reads. The store serves it through an index and claims; these
//! are the terms it is asked and answers in.

use crate::config::Config;
use crate::domain::{StoredMessage, Time};

/// Which conversations a run may take (spec §4), as absolute times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub now: Time,
    /// A conversation is idle when its newest message is at or before this.
    pub idle_cutoff: Time,
    /// Unprocessed messages created before this are skipped, never extracted.
    pub lookback_cutoff: Time,
    pub limit: u32,
}

impl Window {
    /// The selection window at `now` under the configured numbers.
    pub fn at(now: Time, config: &Config) -> Window {
        let s = &config.selection;
        Window {
            now,
            idle_cutoff: now - s.idle,
            lookback_cutoff: now - s.lookback,
            limit: s.max_conversations_per_run,
        }
    }
}

/// A conversation a run took (or, in a dry run, would take).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub conversation_id: String,
    pub user_id: String,
    pub watermark_seq: i64,
    pub last_seq: i64,
    pub last_message_at: Time,
    pub scopes: Vec<String>,
}

/// A conversation's messages as stage one needs them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConversationMessages {
    /// Up to the requested number of messages at or below the watermark, oldest first.
    pub before: Vec<StoredMessage>,
    /// Every message above the watermark, in arrival order.
    pub unprocessed: Vec<StoredMessage>,
    /// The scopes of the conversation's user's memories, whatever their
    /// status, once each: slips may take them (spec §3). Read with the
    /// messages, in the same statement.
    pub memory_scopes: Vec<String>,
}
