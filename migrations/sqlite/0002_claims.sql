-- Selection claims (spec §4): a run claims a conversation with an owner and an
-- expiry; only the owner may advance the watermark. `attempts` counts failed
-- tries at the current range; after selection.max_attempts the range is
-- recorded in failed_ranges and passed over.
ALTER TABLE conversations ADD COLUMN claim_owner TEXT;
ALTER TABLE conversations ADD COLUMN claim_expires_at TEXT;
ALTER TABLE conversations ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;

CREATE TABLE failed_ranges (
    conversation_id TEXT NOT NULL,
    from_seq INTEGER NOT NULL,
    to_seq INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    reason TEXT NOT NULL,
    failed_at TEXT NOT NULL,
    PRIMARY KEY (conversation_id, from_seq)
);
