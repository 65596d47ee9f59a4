-- Plans and quotas (issue 27). A plan's limits are 0 for "none". A
-- client's plan lives apart from the clients table, so that a client
-- without a row takes the server's default plan.
CREATE TABLE plans (
    name           TEXT PRIMARY KEY,
    per_second     INTEGER NOT NULL,
    burst          INTEGER NOT NULL,
    per_day        INTEGER NOT NULL,
    max_range_days INTEGER NOT NULL
);
CREATE TABLE client_plans (
    client_id TEXT PRIMARY KEY REFERENCES clients (id),
    plan      TEXT NOT NULL REFERENCES plans (name)
);
-- Usage in aggregates: the calls a client made to a dataset on a UTC day.
CREATE TABLE usage (
    client_id TEXT NOT NULL,
    day       TEXT NOT NULL, -- yyyy-mm-dd, UTC
    dataset   TEXT NOT NULL,
    calls     INTEGER NOT NULL,
    PRIMARY KEY (client_id, day, dataset)
);
-- The daily quota every replica draws blocks of calls from: claimed is
-- what replicas hold or have used; last_grant is what the last claim got.
CREATE TABLE quota_claims (
    client_id  TEXT NOT NULL,
    day        TEXT NOT NULL,
    claimed    INTEGER NOT NULL,
    last_grant INTEGER NOT NULL,
    PRIMARY KEY (client_id, day)
);
