-- Import runs become the updates feed (GET /updates): each run keeps the
-- data version the store had once it committed and the first and last part
-- IDs of its dataset that it covered. Runs recorded before have neither.
ALTER TABLE import_runs ADD COLUMN version INTEGER;
ALTER TABLE import_runs ADD COLUMN first_part TEXT;
ALTER TABLE import_runs ADD COLUMN last_part TEXT;
