-- Self-service registration, as in the SQLite schema: what a registration
-- keeps besides its client, and the access tokens revoked before their
-- expiry (RFC 7009), by jti, kept until they expire.
CREATE TABLE registrations (
    client_id text COLLATE "C" PRIMARY KEY REFERENCES clients (id),
    contact   text NOT NULL,
    origin    text NOT NULL CHECK (origin IN ('web', 'rfc7591')),
    addr      text COLLATE "C" NOT NULL,
    created   timestamptz NOT NULL
);

CREATE INDEX registrations_by_addr ON registrations (addr, created);

CREATE TABLE revoked_tokens (
    jti       text COLLATE "C" PRIMARY KEY CHECK (jti <> ''),
    client_id text COLLATE "C" NOT NULL,
    expires   timestamptz NOT NULL
);
