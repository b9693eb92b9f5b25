-- Stage two holds a per-user claim from building the request to the commit
-- (spec §6), so two replicas never consolidate one user at once.
CREATE TABLE user_claims (
    user_id TEXT PRIMARY KEY NOT NULL,
    owner TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
