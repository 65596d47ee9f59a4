-- The PostgreSQL schema holds what the SQLite one holds (see
-- internal/store/sqlite/migrations), in PostgreSQL's own types: event times
-- and instants of load data are timestamptz (microsecond precision, what the
-- stores round-trip), days are date. Text that forms a key or an order is
-- COLLATE "C", so that ordering is byte-wise whatever the database's locale,
-- as in SQLite.

CREATE TABLE versions (
    name    text PRIMARY KEY,
    version bigint NOT NULL,
    updated timestamptz -- NULL until the first change
);

INSERT INTO versions (name, version, updated) VALUES ('data', 0, NULL), ('clients', 0, NULL);

CREATE TABLE clients (
    id          text COLLATE "C" PRIMARY KEY CHECK (id <> ''),
    name        text NOT NULL,
    secret_hash bytea NOT NULL,
    created     timestamptz NOT NULL,
    revoked     timestamptz -- NULL while the client is active
);

CREATE INDEX clients_by_created ON clients (created, id);

CREATE TABLE signing_keys (
    kid         text COLLATE "C" PRIMARY KEY CHECK (kid <> ''),
    private_key bytea NOT NULL CHECK (length(private_key) = 64), -- ed25519.PrivateKey
    created     timestamptz NOT NULL
);

CREATE TABLE server_secrets (
    name  text COLLATE "C" PRIMARY KEY,
    value bytea NOT NULL CHECK (length(value) > 0)
);

-- zones names the codes that total_load stores: a two-byte key keeps the
-- two-million-row table and its primary key small. The codes are those of
-- the SQLite schema. total_load checks its codes with a CHECK rather than a
-- foreign key: PostgreSQL checks a foreign key with a query per inserted row,
-- which made importing a year of load eight times slower.
CREATE TABLE zones (
    id   smallint PRIMARY KEY,
    name text NOT NULL UNIQUE
);

INSERT INTO zones (id, name) VALUES
    (1, 'North'), (2, 'Centre-North'), (3, 'Centre-South'), (4, 'South'),
    (5, 'Calabria'), (6, 'Sicily'), (7, 'Sardinia'), (8, 'Italy');

CREATE TABLE thermoelectric (
    year           integer NOT NULL,
    capacity_type  text COLLATE "C" NOT NULL,
    region         text COLLATE "C" NOT NULL,
    province       text COLLATE "C" NOT NULL,
    category       text COLLATE "C" NOT NULL,
    subcategory    text COLLATE "C" NOT NULL,
    production_gwh double precision NOT NULL,
    PRIMARY KEY (year, capacity_type, region, province, category, subcategory)
);

CREATE TABLE total_load (
    ts          timestamptz NOT NULL, -- start of the quarter hour, whole seconds
    zone        smallint NOT NULL CHECK (zone BETWEEN 1 AND 8), -- a zones id
    total_mw    double precision NOT NULL,
    forecast_mw double precision, -- NULL when the source gives no forecast
    PRIMARY KEY (ts, zone)
);

-- peak_valley keeps both the extremes derived from total_load and the ones
-- published as such; readers prefer 'imported' for a day that has both.
CREATE TABLE peak_valley (
    day       date NOT NULL, -- Europe/Rome calendar day
    source    text COLLATE "C" NOT NULL CHECK (source IN ('derived', 'imported')),
    peak_ts   timestamptz NOT NULL, -- whole seconds
    peak_gw   double precision NOT NULL,
    valley_ts timestamptz NOT NULL, -- whole seconds
    valley_gw double precision NOT NULL,
    PRIMARY KEY (day, source)
);

CREATE TABLE import_runs (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dataset   text COLLATE "C" NOT NULL CHECK (dataset IN ('thermoelectric', 'total-load', 'peak-valley')),
    started   timestamptz NOT NULL,
    finished  timestamptz NOT NULL,
    rows_read bigint NOT NULL,
    inserted  bigint NOT NULL,
    updated   bigint NOT NULL,
    unchanged bigint NOT NULL
);

CREATE INDEX import_runs_by_dataset ON import_runs (dataset, finished);
