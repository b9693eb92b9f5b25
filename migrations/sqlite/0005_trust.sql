-- Revision 3 of the spec (trust boundary).
-- Slips a creation superseded are recorded on its event, so a deletion can
-- erase them with the memory (spec §7).
ALTER TABLE memory_events ADD COLUMN superseded_slip_ids TEXT NOT NULL DEFAULT '[]';

-- Stage two failures per user (spec §6): a user that failed max_attempts
-- times in a row on the same new slips is passed over until a newer slip
-- arrives (slip ids are time-ordered, so "newer" is "greater").
CREATE TABLE user_failures (
    user_id TEXT PRIMARY KEY NOT NULL,
    newest_slip_id TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    reason TEXT NOT NULL,
    failed_at TEXT NOT NULL
);
