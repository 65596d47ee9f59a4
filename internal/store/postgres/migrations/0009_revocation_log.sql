-- Revoked tokens as a log, as in the SQLite schema: each revocation takes
-- the next value of the 'revocations' version as its seq. The UPDATE that
-- advances the version locks its row until the revocation commits, so
-- seqs follow commit order across replicas, which a sequence would not: a
-- replica that has read up to seq n can never later find an n-1 committed.
-- The tokens revoked before this migration are the first entry, seq 1.
ALTER TABLE revoked_tokens ADD COLUMN seq bigint NOT NULL DEFAULT 1;
ALTER TABLE revoked_tokens ALTER COLUMN seq DROP DEFAULT;

-- RevokedSince reads by seq; RevokeToken drops the expired by expires.
CREATE INDEX revoked_tokens_by_seq ON revoked_tokens (seq);
CREATE INDEX revoked_tokens_by_expiry ON revoked_tokens (expires);

INSERT INTO versions (name, version, updated) VALUES ('revocations', 1, NULL);
