-- Plans and quotas (issue 27), as in the SQLite schema. A plan's limits
-- are 0 for "none"; a client without a client_plans row takes the
-- server's default plan.
CREATE TABLE plans (
    name           text COLLATE "C" PRIMARY KEY,
    per_second     integer NOT NULL,
    burst          integer NOT NULL,
    per_day        integer NOT NULL,
    max_range_days integer NOT NULL
);
CREATE TABLE client_plans (
    client_id text COLLATE "C" PRIMARY KEY REFERENCES clients (id),
    plan      text COLLATE "C" NOT NULL REFERENCES plans (name)
);
-- Usage in aggregates: the calls a client made to a dataset on a UTC day.
CREATE TABLE usage (
    client_id text COLLATE "C" NOT NULL,
    day       text COLLATE "C" NOT NULL, -- yyyy-mm-dd, UTC
    dataset   text COLLATE "C" NOT NULL,
    calls     bigint NOT NULL,
    PRIMARY KEY (client_id, day, dataset)
);
-- The daily quota every replica draws blocks of calls from (UPDATE ...
-- RETURNING, one row per client and day): claimed is what replicas hold or
-- have used; last_grant is what the last claim got.
CREATE TABLE quota_claims (
    client_id  text COLLATE "C" NOT NULL,
    day        text COLLATE "C" NOT NULL,
    claimed    bigint NOT NULL,
    last_grant bigint NOT NULL,
    PRIMARY KEY (client_id, day)
);
