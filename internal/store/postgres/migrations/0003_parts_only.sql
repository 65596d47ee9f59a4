-- The per-dataset tables go. The migration's Go step (store.Steps)
-- has checked, in this same transaction, that they hold no records: this
-- program no longer moves the records of schemas 1 and 2 into parts.

DROP TABLE thermoelectric;
DROP TABLE total_load;
DROP TABLE peak_valley;
DROP TABLE zones;
