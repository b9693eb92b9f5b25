-- Recall's per-user stamp (spec §10.25): a number that changes whenever
-- something recall ranks changes for a user (a memory, the evidence behind
-- it, the quotes of that evidence), so a long-running process (serve, MCP)
-- may keep a user's ranked candidates in memory and check one row per
-- recall instead of re-reading them all. Stamps come from one sequence and
-- are never reused, so a purged user's stamp cannot come back.
CREATE SEQUENCE memory_stamp_seq START 2;

CREATE TABLE memory_stamps (
    user_id TEXT PRIMARY KEY,
    stamp BIGINT NOT NULL
);
INSERT INTO memory_stamps (user_id, stamp) SELECT DISTINCT user_id, 1 FROM memories;

CREATE FUNCTION dreamd_bump_memory_stamp(who TEXT) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO memory_stamps (user_id, stamp) VALUES (who, nextval('memory_stamp_seq'))
    ON CONFLICT (user_id) DO UPDATE SET stamp = excluded.stamp
$$;

CREATE FUNCTION dreamd_stamp_memory() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM dreamd_bump_memory_stamp(OLD.user_id);
    ELSE
        PERFORM dreamd_bump_memory_stamp(NEW.user_id);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION dreamd_stamp_evidence() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM dreamd_bump_memory_stamp(user_id) FROM memories WHERE memory_id = OLD.memory_id;
    ELSE
        PERFORM dreamd_bump_memory_stamp(user_id) FROM memories WHERE memory_id = NEW.memory_id;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER memories_stamp AFTER INSERT OR UPDATE OR DELETE ON memories
FOR EACH ROW EXECUTE FUNCTION dreamd_stamp_memory();

CREATE TRIGGER memory_evidence_stamp AFTER INSERT OR DELETE ON memory_evidence
FOR EACH ROW EXECUTE FUNCTION dreamd_stamp_evidence();

CREATE TRIGGER slips_stamp_quote AFTER UPDATE OF quote ON slips
FOR EACH ROW EXECUTE FUNCTION dreamd_stamp_memory();
