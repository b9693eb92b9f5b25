-- dreamd's tables on PostgreSQL. Same shape as the SQLite schema, with native
-- types: timestamptz, jsonb, text[].

CREATE TABLE conversations (
    conversation_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    scopes TEXT[] NOT NULL DEFAULT '{}',
    -- Kept by the trigger below: newest message time and newest seq.
    last_message_at TIMESTAMPTZ NOT NULL,
    last_seq BIGINT NOT NULL DEFAULT 0,
    -- Highest seq already extracted (spec §1 watermark).
    watermark_seq BIGINT NOT NULL DEFAULT 0
);

-- Selection (spec §4): conversations with unprocessed messages, by idle time.
CREATE INDEX conversations_pending ON conversations (last_message_at)
    WHERE last_seq > watermark_seq;

CREATE TABLE messages (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    conversation_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    content TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (conversation_id, message_id)
);

-- Keeps each conversation's newest-message time and seq once per statement,
-- so agents that insert messages directly need not (spec §4), and refuses a
-- message whose conversation belongs to another user.
CREATE FUNCTION dreamd_track_conversations() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM new_rows n JOIN conversations c USING (conversation_id)
               WHERE c.user_id <> n.user_id)
       OR EXISTS (SELECT 1 FROM new_rows GROUP BY conversation_id
                  HAVING count(DISTINCT user_id) > 1) THEN
        RAISE EXCEPTION 'conversation belongs to another user';
    END IF;
    INSERT INTO conversations (conversation_id, user_id, last_message_at, last_seq)
    SELECT conversation_id, min(user_id), max(created_at), max(seq)
    FROM new_rows GROUP BY conversation_id
    ON CONFLICT (conversation_id) DO UPDATE SET
        last_message_at = GREATEST(conversations.last_message_at, excluded.last_message_at),
        last_seq = GREATEST(conversations.last_seq, excluded.last_seq);
    RETURN NULL;
END $$;

CREATE TRIGGER messages_track_conversations AFTER INSERT ON messages
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION dreamd_track_conversations();

CREATE TABLE slips (
    slip_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    durability TEXT NOT NULL,
    valid_until TIMESTAMPTZ,
    content TEXT,
    quote TEXT,
    expressed_at TIMESTAMPTZ NOT NULL,
    state TEXT NOT NULL,
    run_id TEXT
);
CREATE INDEX slips_user_state ON slips (user_id, state);
CREATE INDEX slips_conversation ON slips (conversation_id);

CREATE TABLE memories (
    memory_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    origin TEXT NOT NULL,
    status TEXT NOT NULL,
    version BIGINT NOT NULL,
    content TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ
);
CREATE INDEX memories_user ON memories (user_id, status);

CREATE TABLE memory_evidence (
    memory_id TEXT NOT NULL,
    slip_id TEXT NOT NULL,
    PRIMARY KEY (memory_id, slip_id)
);
CREATE INDEX memory_evidence_slip ON memory_evidence (slip_id);

CREATE TABLE memory_events (
    event_id TEXT PRIMARY KEY,
    memory_id TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    run_id TEXT,
    slip_ids JSONB NOT NULL DEFAULT '[]',
    before JSONB,
    after JSONB
);
CREATE INDEX memory_events_memory ON memory_events (memory_id, at);

CREATE TABLE suggestions (
    suggestion_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    op TEXT NOT NULL,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    content TEXT,
    memory_id TEXT,
    target_version BIGINT,
    status TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    decided_at TIMESTAMPTZ
);
CREATE INDEX suggestions_user ON suggestions (user_id, status);

CREATE TABLE suggestion_evidence (
    suggestion_id TEXT NOT NULL,
    slip_id TEXT NOT NULL,
    PRIMARY KEY (suggestion_id, slip_id)
);

CREATE TABLE tombstones (
    memory_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    deleted_at TIMESTAMPTZ NOT NULL,
    fingerprint TEXT NOT NULL
);
CREATE INDEX tombstones_user ON tombstones (user_id);

CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    started_at TIMESTAMPTZ NOT NULL,
    finished_at TIMESTAMPTZ,
    dry_run BOOLEAN NOT NULL DEFAULT false,
    summary JSONB
);
