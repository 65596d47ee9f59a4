-- Times of events (created, revoked, updated, started, finished) are Unix
-- microseconds, the precision PostgreSQL keeps, so both stores round-trip the
-- same values. Instants of load data are Unix seconds, the resolution of the
-- domain's natural keys (energy.LoadKey). Tables are STRICT so that a value of
-- the wrong type is an error instead of being silently stored.

CREATE TABLE versions (
    name    TEXT PRIMARY KEY NOT NULL,
    version INTEGER NOT NULL,
    updated INTEGER -- NULL until the first change
) STRICT;

INSERT INTO versions (name, version, updated) VALUES ('data', 0, NULL), ('clients', 0, NULL);

CREATE TABLE clients (
    id          TEXT PRIMARY KEY NOT NULL CHECK (id <> ''),
    name        TEXT NOT NULL,
    secret_hash BLOB NOT NULL,
    created     INTEGER NOT NULL,
    revoked     INTEGER -- NULL while the client is active
) STRICT;

CREATE INDEX clients_by_created ON clients (created, id);

CREATE TABLE signing_keys (
    kid         TEXT PRIMARY KEY NOT NULL CHECK (kid <> ''),
    private_key BLOB NOT NULL CHECK (length(private_key) = 64), -- ed25519.PrivateKey
    created     INTEGER NOT NULL
) STRICT;

CREATE TABLE server_secrets (
    name  TEXT PRIMARY KEY NOT NULL,
    value BLOB NOT NULL CHECK (length(value) > 0)
) STRICT;

-- zones names the codes that total_load stores: an integer key keeps the
-- two-million-row table and its primary key small.
CREATE TABLE zones (
    id   INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL UNIQUE
) STRICT;

INSERT INTO zones (id, name) VALUES
    (1, 'North'), (2, 'Centre-North'), (3, 'Centre-South'), (4, 'South'),
    (5, 'Calabria'), (6, 'Sicily'), (7, 'Sardinia'), (8, 'Italy');

CREATE TABLE thermoelectric (
    year           INTEGER NOT NULL,
    capacity_type  TEXT NOT NULL,
    region         TEXT NOT NULL,
    province       TEXT NOT NULL,
    category       TEXT NOT NULL,
    subcategory    TEXT NOT NULL,
    production_gwh REAL NOT NULL,
    PRIMARY KEY (year, capacity_type, region, province, category, subcategory)
) STRICT, WITHOUT ROWID;

CREATE TABLE total_load (
    ts          INTEGER NOT NULL, -- start of the quarter hour, Unix seconds
    zone        INTEGER NOT NULL REFERENCES zones (id),
    total_mw    REAL NOT NULL,
    forecast_mw REAL, -- NULL when the source gives no forecast
    PRIMARY KEY (ts, zone)
) STRICT, WITHOUT ROWID;

-- peak_valley keeps both the extremes derived from total_load and the ones
-- published as such; readers prefer 'imported' for a day that has both.
CREATE TABLE peak_valley (
    day       TEXT NOT NULL, -- Europe/Rome calendar day, yyyy-mm-dd
    source    TEXT NOT NULL CHECK (source IN ('derived', 'imported')),
    peak_ts   INTEGER NOT NULL, -- Unix seconds
    peak_gw   REAL NOT NULL,
    valley_ts INTEGER NOT NULL, -- Unix seconds
    valley_gw REAL NOT NULL,
    PRIMARY KEY (day, source)
) STRICT, WITHOUT ROWID;

CREATE TABLE import_runs (
    id        INTEGER PRIMARY KEY,
    dataset   TEXT NOT NULL CHECK (dataset IN ('thermoelectric', 'total-load', 'peak-valley')),
    started   INTEGER NOT NULL,
    finished  INTEGER NOT NULL,
    rows_read INTEGER NOT NULL,
    inserted  INTEGER NOT NULL,
    updated   INTEGER NOT NULL,
    unchanged INTEGER NOT NULL
) STRICT;

CREATE INDEX import_runs_by_dataset ON import_runs (dataset, finished);
