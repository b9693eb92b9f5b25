-- One store implementation for both backends (the same column types):
-- conversation scopes as a JSON array like SQLite's, 64-bit integers everywhere.
ALTER TABLE conversations ALTER COLUMN scopes DROP DEFAULT;
ALTER TABLE conversations ALTER COLUMN scopes TYPE JSONB USING to_jsonb(scopes);
ALTER TABLE conversations ALTER COLUMN scopes SET DEFAULT '[]';
ALTER TABLE conversations ALTER COLUMN attempts TYPE BIGINT;
ALTER TABLE failed_ranges ALTER COLUMN attempts TYPE BIGINT;
ALTER TABLE load_memories ALTER COLUMN position TYPE BIGINT;
