-- One storage schema for every dataset (see internal/dataset): a dataset's
-- records are held in parts, a month or a year each, and a part is stored
-- whole, encoded, under its dataset and part ID.
--
-- parts is an ordinary rowid table rather than WITHOUT ROWID: its rows are
-- large (a month of quarter-hourly load is hundreds of kilobytes), and
-- SQLite advises WITHOUT ROWID only for rows well under a page. data is the
-- last column, so that reading the others stops short of its overflow
-- pages, and parts_versions covers the listing of versions that every
-- reload starts with.

CREATE TABLE parts (
    dataset TEXT NOT NULL CHECK (dataset <> ''),
    id      TEXT NOT NULL CHECK (id <> ''),
    version INTEGER NOT NULL CHECK (version > 0), -- the data version that wrote it
    written INTEGER NOT NULL,                     -- when, Unix microseconds
    records INTEGER NOT NULL CHECK (records >= 0),
    data    BLOB NOT NULL CHECK (length(data) > 0), -- dataset.Part.Encode
    PRIMARY KEY (dataset, id)
) STRICT;

CREATE INDEX parts_versions ON parts (dataset, id, version);

-- part_history keeps every part that an import replaced, so that the data
-- as of any version can be read again: a part's bytes as of version V are
-- those of the row, here or in parts, with version <= V < replaced_by
-- (parts: no bound). The import that replaces a part writes its old row
-- here in the same transaction.
CREATE TABLE part_history (
    dataset     TEXT NOT NULL,
    id          TEXT NOT NULL,
    version     INTEGER NOT NULL,
    written     INTEGER NOT NULL,
    replaced_by INTEGER NOT NULL, -- the data version that replaced it
    replaced_at INTEGER NOT NULL, -- when, Unix microseconds
    records     INTEGER NOT NULL,
    data        BLOB NOT NULL,
    PRIMARY KEY (dataset, id, version),
    CHECK (replaced_by > version)
) STRICT;

-- import_runs takes any dataset's name now. SQLite cannot drop a CHECK
-- constraint, so the table is rebuilt, keeping its rows and their IDs.
CREATE TABLE import_runs_new (
    id        INTEGER PRIMARY KEY,
    dataset   TEXT NOT NULL CHECK (dataset <> ''),
    started   INTEGER NOT NULL,
    finished  INTEGER NOT NULL,
    rows_read INTEGER NOT NULL,
    inserted  INTEGER NOT NULL,
    updated   INTEGER NOT NULL,
    unchanged INTEGER NOT NULL
) STRICT;

INSERT INTO import_runs_new (id, dataset, started, finished, rows_read, inserted, updated, unchanged)
    SELECT id, dataset, started, finished, rows_read, inserted, updated, unchanged FROM import_runs;

DROP TABLE import_runs;

ALTER TABLE import_runs_new RENAME TO import_runs;

CREATE INDEX import_runs_by_dataset ON import_runs (dataset, finished);
