-- The per-dataset tables go. Their records are in parts by now: the
-- migration's Go step (store.MoveLegacy) moved them, in this same
-- transaction, just before this file runs. The derived rows of
-- peak_valley are not kept: they are computed from total-load's parts.

DROP TABLE thermoelectric;
DROP TABLE total_load;
DROP TABLE peak_valley;
DROP TABLE zones;
