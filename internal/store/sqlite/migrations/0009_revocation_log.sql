-- Revoked tokens as a log (issue 33, item 8): each revocation takes the
-- next value of the 'revocations' version as its seq, so that a replica
-- reads only the revocations after the last one it has, rather than every
-- client and every revoked token whenever one token is revoked. The tokens
-- revoked before this migration are the first entry, seq 1. The table is
-- made anew so that seq has no default: a revocation must name its own.
CREATE TABLE revoked_tokens_log (
    jti       TEXT PRIMARY KEY NOT NULL CHECK (jti <> ''),
    client_id TEXT NOT NULL,
    expires   INTEGER NOT NULL,
    seq       INTEGER NOT NULL
) STRICT;
INSERT INTO revoked_tokens_log (jti, client_id, expires, seq) SELECT jti, client_id, expires, 1 FROM revoked_tokens;
DROP TABLE revoked_tokens;
ALTER TABLE revoked_tokens_log RENAME TO revoked_tokens;

-- RevokedSince reads by seq; RevokeToken drops the expired by expires.
CREATE INDEX revoked_tokens_by_seq ON revoked_tokens (seq);
CREATE INDEX revoked_tokens_by_expiry ON revoked_tokens (expires);

INSERT INTO versions (name, version, updated) VALUES ('revocations', 1, NULL);
