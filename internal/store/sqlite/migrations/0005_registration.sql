-- Self-service registration: what a registration keeps besides its client
-- (the contact, how and from where, as a fingerprint, it came), and the
-- access tokens revoked before their expiry (RFC 7009), by jti, kept until
-- they expire.
CREATE TABLE registrations (
    client_id TEXT PRIMARY KEY NOT NULL REFERENCES clients (id),
    contact   TEXT NOT NULL,
    origin    TEXT NOT NULL CHECK (origin IN ('web', 'rfc7591')),
    addr      TEXT NOT NULL,
    created   INTEGER NOT NULL
) STRICT;

CREATE INDEX registrations_by_addr ON registrations (addr, created);

CREATE TABLE revoked_tokens (
    jti       TEXT PRIMARY KEY NOT NULL CHECK (jti <> ''),
    client_id TEXT NOT NULL,
    expires   INTEGER NOT NULL
) STRICT;
