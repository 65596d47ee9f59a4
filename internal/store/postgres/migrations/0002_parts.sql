-- One storage schema for every dataset, as in the SQLite schema (see its
-- 0002_parts.sql): parts holds each (dataset, part ID)'s encoded bytes with
-- the data version that wrote them, part_history every part an import
-- replaced. PostgreSQL keeps data out of line (TOAST), so listing the
-- versions of parts reads small rows.

CREATE TABLE parts (
    dataset text COLLATE "C" NOT NULL CHECK (dataset <> ''),
    id      text COLLATE "C" NOT NULL CHECK (id <> ''),
    version bigint NOT NULL CHECK (version > 0), -- the data version that wrote it
    written timestamptz NOT NULL,
    records integer NOT NULL CHECK (records >= 0),
    data    bytea NOT NULL CHECK (length(data) > 0), -- dataset.Part.Encode
    PRIMARY KEY (dataset, id)
);

-- A part's bytes as of version V are those of the row, here or in parts,
-- with version <= V < replaced_by (parts: no bound).
CREATE TABLE part_history (
    dataset     text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    version     bigint NOT NULL,
    written     timestamptz NOT NULL,
    replaced_by bigint NOT NULL, -- the data version that replaced it
    replaced_at timestamptz NOT NULL,
    records     integer NOT NULL,
    data        bytea NOT NULL,
    PRIMARY KEY (dataset, id, version),
    CHECK (replaced_by > version)
);

-- import_runs takes any dataset's name now.
ALTER TABLE import_runs DROP CONSTRAINT import_runs_dataset_check;
ALTER TABLE import_runs ADD CONSTRAINT import_runs_dataset_check CHECK (dataset <> '');
