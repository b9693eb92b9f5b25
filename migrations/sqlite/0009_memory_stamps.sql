-- Recall's per-user stamp (spec §10.25): a number that changes whenever
-- something recall ranks changes for a user (a memory, the evidence behind
-- it, the quotes of that evidence), so a long-running process (serve, MCP)
-- may keep a user's ranked candidates in memory and check one row per
-- recall instead of re-reading them all. Stamps come from one counter and
-- are never reused, so a purged user's stamp cannot come back.
CREATE TABLE memory_stamp_counter (n INTEGER NOT NULL);
INSERT INTO memory_stamp_counter VALUES (1);

CREATE TABLE memory_stamps (
    user_id TEXT PRIMARY KEY NOT NULL,
    stamp INTEGER NOT NULL
);
INSERT INTO memory_stamps (user_id, stamp) SELECT DISTINCT user_id, 1 FROM memories;

CREATE TRIGGER memories_stamp_insert AFTER INSERT ON memories
BEGIN
    UPDATE memory_stamp_counter SET n = n + 1;
    INSERT INTO memory_stamps (user_id, stamp) SELECT NEW.user_id, n FROM memory_stamp_counter WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = excluded.stamp;
END;

CREATE TRIGGER memories_stamp_update AFTER UPDATE ON memories
BEGIN
    UPDATE memory_stamp_counter SET n = n + 1;
    INSERT INTO memory_stamps (user_id, stamp) SELECT NEW.user_id, n FROM memory_stamp_counter WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = excluded.stamp;
END;

CREATE TRIGGER memories_stamp_delete AFTER DELETE ON memories
BEGIN
    UPDATE memory_stamp_counter SET n = n + 1;
    INSERT INTO memory_stamps (user_id, stamp) SELECT OLD.user_id, n FROM memory_stamp_counter WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = excluded.stamp;
END;

CREATE TRIGGER memory_evidence_stamp_insert AFTER INSERT ON memory_evidence
BEGIN
    UPDATE memory_stamp_counter SET n = n + 1;
    INSERT INTO memory_stamps (user_id, stamp)
    SELECT m.user_id, c.n FROM memories m, memory_stamp_counter c WHERE m.memory_id = NEW.memory_id
    ON CONFLICT (user_id) DO UPDATE SET stamp = excluded.stamp;
END;

CREATE TRIGGER memory_evidence_stamp_delete AFTER DELETE ON memory_evidence
BEGIN
    UPDATE memory_stamp_counter SET n = n + 1;
    INSERT INTO memory_stamps (user_id, stamp)
    SELECT m.user_id, c.n FROM memories m, memory_stamp_counter c WHERE m.memory_id = OLD.memory_id
    ON CONFLICT (user_id) DO UPDATE SET stamp = excluded.stamp;
END;

CREATE TRIGGER slips_stamp_quote AFTER UPDATE OF quote ON slips
BEGIN
    UPDATE memory_stamp_counter SET n = n + 1;
    INSERT INTO memory_stamps (user_id, stamp) SELECT NEW.user_id, n FROM memory_stamp_counter WHERE true
    ON CONFLICT (user_id) DO UPDATE SET stamp = excluded.stamp;
END;
