-- The listing every server reads at start and on each data version
-- (ListParts): with every column but data in one index, and the table
-- vacuumed, PostgreSQL answers it by an index-only scan rather than
-- reading the heap. (SQLite, where first_time and last_time sit after
-- the part's bytes, needs this index far more: see its 0008.)
CREATE INDEX parts_listing ON parts (dataset, id, version, written, records, first_time, last_time);
