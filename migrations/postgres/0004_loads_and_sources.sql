-- Loads (spec §7): which memories, at which version, an agent was given for
-- a conversation. Explicit memories may name the conversation and message
-- they were set from.
CREATE TABLE loads (
    load_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL
);
CREATE INDEX loads_user ON loads (user_id, conversation_id);

CREATE TABLE load_memories (
    load_id TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (load_id, memory_id)
);
CREATE INDEX load_memories_memory ON load_memories (memory_id);

ALTER TABLE memories ADD COLUMN source_conversation_id TEXT;
ALTER TABLE memories ADD COLUMN source_message_id TEXT;
