-- Every part keeps the moments (Unix seconds) of its first and last
-- records beside its bytes, so that a server can tell which parts a query
-- covers, and its answer's validators, from the listing alone, and read a
-- part only when a request needs its records (dataset.PartSource.ListParts).
-- NULL: a part without records. The migration's Go step decodes every
-- stored version once into part_spans (store.FillSpans); this copies them.
ALTER TABLE parts ADD COLUMN first_time INTEGER;
ALTER TABLE parts ADD COLUMN last_time INTEGER;
ALTER TABLE part_history ADD COLUMN first_time INTEGER;
ALTER TABLE part_history ADD COLUMN last_time INTEGER;

UPDATE parts SET first_time = s.first_time, last_time = s.last_time
    FROM part_spans s WHERE s.dataset = parts.dataset AND s.id = parts.id AND s.version = parts.version;
UPDATE part_history SET first_time = s.first_time, last_time = s.last_time
    FROM part_spans s WHERE s.dataset = part_history.dataset AND s.id = part_history.id AND s.version = part_history.version;

DROP TABLE part_spans;
