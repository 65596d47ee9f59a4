-- The mirror of an upstream deployment (issue 38), as in the SQLite schema.
CREATE TABLE mirror_windows (
    key         text PRIMARY KEY CHECK (key <> ''),
    dataset     text NOT NULL,
    first_day   text NOT NULL,
    last_day    text NOT NULL,
    priority    bigint NOT NULL,
    fetches     bigint NOT NULL DEFAULT 0,
    fetched_at  timestamptz,
    digest      text NOT NULL DEFAULT '',
    records     bigint NOT NULL DEFAULT 0,
    changed_at  timestamptz,
    lease_owner text,
    lease_until timestamptz
);
CREATE INDEX mirror_windows_by_dataset ON mirror_windows (dataset, first_day);

CREATE TABLE mirror_calls (
    period text PRIMARY KEY,
    calls  bigint NOT NULL
);

CREATE TABLE mirror_instances (
    id        text PRIMARY KEY,
    host      text NOT NULL,
    pid       bigint NOT NULL,
    upstream  text NOT NULL,
    per_second bigint NOT NULL DEFAULT 0,
    per_day    bigint NOT NULL DEFAULT 0,
    heartbeat timestamptz NOT NULL
);
