-- Import runs become the updates feed (GET /updates), as in the SQLite
-- schema: the data version once a run committed and the first and last
-- part IDs of its dataset that it covered. Runs recorded before have neither.
ALTER TABLE import_runs ADD COLUMN version bigint;
ALTER TABLE import_runs ADD COLUMN first_part text COLLATE "C";
ALTER TABLE import_runs ADD COLUMN last_part text COLLATE "C";
