-- dreamd's tables on SQLite. Times are UTC text 'YYYY-MM-DDTHH:MM:SS.SSSZ'
-- (milliseconds), so text order is time order; the CHECKs enforce it for
-- agents that write conversations and messages directly.

CREATE TABLE conversations (
    conversation_id TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL,
    -- JSON array of scopes set at ingest (spec §3).
    scopes TEXT NOT NULL DEFAULT '[]',
    -- Kept by the trigger below: newest message time and newest seq.
    last_message_at TEXT NOT NULL,
    last_seq INTEGER NOT NULL DEFAULT 0,
    -- Highest seq already extracted (spec §1 watermark).
    watermark_seq INTEGER NOT NULL DEFAULT 0
);

-- Selection (spec §4): conversations with unprocessed messages, by idle time,
-- without touching messages.
CREATE INDEX conversations_pending ON conversations (last_message_at)
    WHERE last_seq > watermark_seq;

CREATE TABLE messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    content TEXT NOT NULL,
    created_at TEXT NOT NULL CHECK (created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at)),
    UNIQUE (conversation_id, message_id)
);

-- A conversation belongs to one user; refuse a message that says otherwise.
CREATE TRIGGER messages_same_user BEFORE INSERT ON messages
WHEN EXISTS (SELECT 1 FROM conversations
             WHERE conversation_id = NEW.conversation_id AND user_id <> NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'conversation belongs to another user');
END;

-- Keeps each conversation's newest-message time and seq, so agents that
-- insert messages directly need not (spec §4).
CREATE TRIGGER messages_track_conversation AFTER INSERT ON messages
BEGIN
    INSERT INTO conversations (conversation_id, user_id, last_message_at, last_seq)
    VALUES (NEW.conversation_id, NEW.user_id, NEW.created_at, NEW.seq)
    ON CONFLICT (conversation_id) DO UPDATE SET
        last_message_at = max(last_message_at, excluded.last_message_at),
        last_seq = max(last_seq, excluded.last_seq);
END;

CREATE TABLE slips (
    slip_id TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    durability TEXT NOT NULL,
    valid_until TEXT,
    content TEXT,
    quote TEXT,
    expressed_at TEXT NOT NULL,
    state TEXT NOT NULL,
    run_id TEXT
);
CREATE INDEX slips_user_state ON slips (user_id, state);
CREATE INDEX slips_conversation ON slips (conversation_id);

CREATE TABLE memories (
    memory_id TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    origin TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    content TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    expires_at TEXT
);
CREATE INDEX memories_user ON memories (user_id, status);

CREATE TABLE memory_evidence (
    memory_id TEXT NOT NULL,
    slip_id TEXT NOT NULL,
    PRIMARY KEY (memory_id, slip_id)
);
CREATE INDEX memory_evidence_slip ON memory_evidence (slip_id);

CREATE TABLE memory_events (
    event_id TEXT PRIMARY KEY NOT NULL,
    memory_id TEXT NOT NULL,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    run_id TEXT,
    slip_ids TEXT NOT NULL DEFAULT '[]',
    before TEXT,
    after TEXT
);
CREATE INDEX memory_events_memory ON memory_events (memory_id, at);

CREATE TABLE suggestions (
    suggestion_id TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL,
    op TEXT NOT NULL,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    content TEXT,
    memory_id TEXT,
    target_version INTEGER,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    decided_at TEXT
);
CREATE INDEX suggestions_user ON suggestions (user_id, status);

CREATE TABLE suggestion_evidence (
    suggestion_id TEXT NOT NULL,
    slip_id TEXT NOT NULL,
    PRIMARY KEY (suggestion_id, slip_id)
);

CREATE TABLE tombstones (
    memory_id TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    deleted_at TEXT NOT NULL,
    fingerprint TEXT NOT NULL
);
CREATE INDEX tombstones_user ON tombstones (user_id);

CREATE TABLE runs (
    run_id TEXT PRIMARY KEY NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    dry_run INTEGER NOT NULL DEFAULT 0,
    summary TEXT
);
