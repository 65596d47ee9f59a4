-- Every part keeps the moments (Unix seconds) of its first and last
-- records beside its bytes, so that a server can tell which parts a query
-- covers, and its answer's validators, from the listing alone, and read a
-- part only when a request needs its records (dataset.PartSource.ListParts).
-- NULL: a part without records. The migration's Go step decodes every
-- stored version once into part_spans (store.FillSpans); this copies them.
ALTER TABLE parts ADD COLUMN first_time bigint, ADD COLUMN last_time bigint;
ALTER TABLE part_history ADD COLUMN first_time bigint, ADD COLUMN last_time bigint;

UPDATE parts p SET first_time = s.first_time, last_time = s.last_time
    FROM part_spans s WHERE s.dataset = p.dataset AND s.id = p.id AND s.version = p.version;
UPDATE part_history p SET first_time = s.first_time, last_time = s.last_time
    FROM part_spans s WHERE s.dataset = p.dataset AND s.id = p.id AND s.version = p.version;

DROP TABLE part_spans;
