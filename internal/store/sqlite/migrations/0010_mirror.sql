-- The mirror of an upstream deployment (issue 38). mirror_windows holds
-- every request window a mirror plans to fetch: its key, what it covers,
-- when it was last fetched (NULL: never) with the digest of the answer
-- then imported, and the lease of the mirror fetching it now. fetches
-- counts completed fetches, so that a mirror claims a window only in the
-- state it read: one that another completed meanwhile is not fetched again.
-- The window's completion is written in the transaction of its import.
CREATE TABLE mirror_windows (
    key         TEXT PRIMARY KEY NOT NULL CHECK (key <> ''),
    dataset     TEXT NOT NULL,
    first_day   TEXT NOT NULL,
    last_day    TEXT NOT NULL,
    priority    INTEGER NOT NULL,
    fetches     INTEGER NOT NULL DEFAULT 0,
    fetched_at  INTEGER,
    digest      TEXT NOT NULL DEFAULT '',
    records     INTEGER NOT NULL DEFAULT 0,
    changed_at  INTEGER,
    lease_owner TEXT,
    lease_until INTEGER
) STRICT;
CREATE INDEX mirror_windows_by_dataset ON mirror_windows (dataset, first_day);

-- The calls the mirrors of this store spent against the upstream's limits,
-- by period: 'day:2024-05-01' (UTC) and 'second:<unix second>'. A call is
-- claimed here, against both limits at once, before it is sent.
CREATE TABLE mirror_calls (
    period TEXT PRIMARY KEY NOT NULL,
    calls  INTEGER NOT NULL
) STRICT;

-- The mirror processes of this store, by the --id each runs under: one
-- process per ID at a time, with the upstream's limits it keeps to.
CREATE TABLE mirror_instances (
    id        TEXT PRIMARY KEY NOT NULL,
    host      TEXT NOT NULL,
    pid       INTEGER NOT NULL,
    upstream  TEXT NOT NULL,
    per_second INTEGER NOT NULL DEFAULT 0,
    per_day    INTEGER NOT NULL DEFAULT 0,
    heartbeat INTEGER NOT NULL
) STRICT;
