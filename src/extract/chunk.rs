//! How a conversation's new messages are cut into calls (spec §5 "Size",
//! §10.5): whole messages per chunk, each chunk with its own context, never
//! truncated; a message too long for any chunk is sent alone in overlapping
//! pieces. A chunk is the unit that commits (slips and watermark together).

use crate::domain::{StoredMessage, Time};
use crate::llm::MessageView;
use crate::text::{estimate_tokens, is_cjk};

/// The fixed cost of one message in the request document (ids, role, time, quotes).
const MESSAGE_OVERHEAD_TOKENS: u64 = 24;
/// The fixed cost of the request document around the messages.
const REQUEST_OVERHEAD_TOKENS: u64 = 120;
/// How much consecutive pieces of a long message share, so no quote is cut in two.
const PIECE_OVERLAP_CHARS: usize = 200;

/// What a conversation's unprocessed messages become.
#[derive(Debug, Default)]
pub struct Plan {
    /// Unprocessed messages older than the window: skipped, never sent.
    pub skipped: u64,
    pub chunks: Vec<Chunk>,
    /// The seq the watermark reaches when everything is done.
    pub end_seq: i64,
}

/// One commit unit: one request, or several for the pieces of one long message.
#[derive(Debug)]
pub struct Chunk {
    pub context: Vec<MessageView>,
    /// Each request's messages; more than one only for the pieces of a long message.
    pub requests: Vec<Vec<MessageView>>,
    /// The whole messages of the chunk, for checking quotes.
    pub messages: Vec<StoredMessage>,
    /// The watermark after this chunk commits.
    pub end_seq: i64,
}

pub fn view(m: &StoredMessage) -> MessageView {
    MessageView {
        message_id: m.message_id.clone(),
        role: m.role,
        created_at: m.created_at,
        content: m.content.clone(),
    }
}

fn cost(content: &str) -> u64 {
    estimate_tokens(content) + MESSAGE_OVERHEAD_TOKENS
}

/// Plans the calls for `unprocessed` messages, given `before` (up to
/// `context_messages` already processed ones) and a prompt budget.
pub fn plan(
    before: &[StoredMessage],
    unprocessed: &[StoredMessage],
    lookback_cutoff: Time,
    context_messages: usize,
    budget_tokens: u64,
) -> Plan {
    let Some(last) = unprocessed.last() else {
        return Plan::default();
    };
    let all: Vec<&StoredMessage> = before.iter().chain(unprocessed).collect();
    let new: Vec<&StoredMessage> =
        unprocessed.iter().filter(|m| m.created_at >= lookback_cutoff).collect();
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut i = 0;
    while i < new.len() {
        let first_seq = new[i].seq;
        let context = context_before(&all, first_seq, context_messages, budget_tokens / 2);
        let room = budget_tokens
            .saturating_sub(REQUEST_OVERHEAD_TOKENS)
            .saturating_sub(context.iter().map(|m| cost(&m.content)).sum::<u64>())
            .max(MESSAGE_OVERHEAD_TOKENS * 4);
        let mut taken: Vec<StoredMessage> = Vec::new();
        let mut used = 0;
        while i < new.len() && (taken.is_empty() || used + cost(&new[i].content) <= room) {
            used += cost(&new[i].content);
            taken.push(new[i].clone());
            i += 1;
        }
        let requests = if used > room && taken.len() == 1 {
            pieces(&taken[0], room).into_iter().map(|p| vec![p]).collect()
        } else {
            vec![taken.iter().map(view).collect()]
        };
        if let Some(previous) = chunks.last_mut() {
            previous.end_seq = first_seq - 1;
        }
        chunks.push(Chunk { context, requests, messages: taken, end_seq: last.seq });
    }
    Plan { skipped: (unprocessed.len() - new.len()) as u64, chunks, end_seq: last.seq }
}

/// Up to `limit` messages just before `first_seq`, dropping the oldest that do not fit in `budget`.
fn context_before(
    all: &[&StoredMessage],
    first_seq: i64,
    limit: usize,
    budget: u64,
) -> Vec<MessageView> {
    let mut context: Vec<MessageView> = Vec::new();
    let mut used = 0;
    for m in all.iter().rev().filter(|m| m.seq < first_seq).take(limit) {
        used += cost(&m.content);
        if used > budget {
            break;
        }
        context.push(view(m));
    }
    context.reverse();
    context
}

/// A long message as overlapping pieces of at most `room` tokens each.
fn pieces(message: &StoredMessage, room: u64) -> Vec<MessageView> {
    let chars: Vec<char> = message.content.chars().collect();
    let piece_tokens = room.saturating_sub(MESSAGE_OVERHEAD_TOKENS).max(1);
    let mut out = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let (mut end, mut cjk, mut other) = (start, 0u64, 0u64);
        while end < chars.len() {
            let (c, o) = if is_cjk(chars[end]) { (cjk + 1, other) } else { (cjk, other + 1) };
            if c + o.div_ceil(4) > piece_tokens && end > start {
                break;
            }
            (cjk, other, end) = (c, o, end + 1);
        }
        let mut piece = view(message);
        piece.content = chars[start..end].iter().collect();
        out.push(piece);
        if end >= chars.len() {
            break;
        }
        start = end.saturating_sub(PIECE_OVERLAP_CHARS).max(start + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Role;

    fn msg(seq: i64, content: &str, at: &str) -> StoredMessage {
        StoredMessage {
            seq,
            message_id: format!("m{seq}"),
            role: Role::User,
            content: content.into(),
            created_at: at.parse().unwrap(),
        }
    }

    const CUTOFF: &str = "2026-11-22T00:00:00Z";

    #[test]
    fn a_short_conversation_is_one_chunk_with_its_context() {
        let before: Vec<_> = (1..=10).map(|s| msg(s, "earlier", "2026-11-20T09:00:00Z")).collect();
        let new: Vec<_> = (11..=13).map(|s| msg(s, "new", "2026-11-28T09:00:00Z")).collect();
        let plan = plan(&before, &new, CUTOFF.parse().unwrap(), 8, 8000);
        assert_eq!((plan.chunks.len(), plan.skipped, plan.end_seq), (1, 0, 13));
        let chunk = &plan.chunks[0];
        let context: Vec<&str> = chunk.context.iter().map(|m| m.message_id.as_str()).collect();
        assert_eq!(context, ["m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10"]);
        assert_eq!(chunk.requests[0].len(), 3);
        assert_eq!(chunk.end_seq, 13);
    }

    #[test]
    fn messages_before_the_window_are_skipped_but_the_watermark_passes_them() {
        let unprocessed = vec![
            msg(5, "old", "2026-11-01T00:00:00Z"),
            msg(6, "new", "2026-11-28T00:00:00Z"),
            msg(7, "late old", "2026-11-02T00:00:00Z"),
        ];
        let plan = plan(&[], &unprocessed, CUTOFF.parse().unwrap(), 8, 8000);
        assert_eq!((plan.skipped, plan.end_seq), (2, 7));
        let chunk = &plan.chunks[0];
        assert_eq!(
            chunk.requests[0].iter().map(|m| m.message_id.as_str()).collect::<Vec<_>>(),
            ["m6"]
        );
        assert_eq!(
            chunk.context.iter().map(|m| m.message_id.as_str()).collect::<Vec<_>>(),
            ["m5"],
            "old messages may still be context"
        );
        assert_eq!(chunk.end_seq, 7);
    }

    #[test]
    fn a_long_conversation_is_split_on_message_boundaries_and_nothing_is_lost() {
        let text = "以".repeat(400);
        let new: Vec<_> = (1..=20).map(|s| msg(s, &text, "2026-11-28T00:00:00Z")).collect();
        let plan = plan(&[], &new, CUTOFF.parse().unwrap(), 8, 2000);
        assert!(plan.chunks.len() > 1);
        let sent: Vec<i64> =
            plan.chunks.iter().flat_map(|c| c.messages.iter().map(|m| m.seq)).collect();
        assert_eq!(sent, (1..=20).collect::<Vec<_>>());
        for pair in plan.chunks.windows(2) {
            assert_eq!(pair[0].end_seq + 1, pair[1].messages[0].seq);
        }
        for chunk in &plan.chunks {
            let tokens: u64 =
                chunk.requests[0].iter().chain(&chunk.context).map(|m| cost(&m.content)).sum();
            assert!(tokens + REQUEST_OVERHEAD_TOKENS <= 2000, "{tokens}");
            assert!(chunk.requests[0].iter().all(|m| m.content == text), "never truncated");
        }
    }

    #[test]
    fn a_message_longer_than_the_budget_goes_alone_in_overlapping_pieces() {
        let text: String = (0..3000).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let plan =
            plan(&[], &[msg(1, &text, "2026-11-28T00:00:00Z")], CUTOFF.parse().unwrap(), 8, 400);
        let chunk = &plan.chunks[0];
        assert!(chunk.requests.len() > 1);
        let pieces: Vec<&str> = chunk.requests.iter().map(|r| r[0].content.as_str()).collect();
        assert!(pieces.iter().all(|p| text.contains(p)));
        assert!(text.starts_with(pieces[0]) && text.ends_with(pieces.last().unwrap()));
        let covered: usize = pieces.iter().map(|p| p.len()).sum();
        assert!(covered > text.len(), "pieces overlap");
    }
}
