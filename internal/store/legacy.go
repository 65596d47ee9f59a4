package store

import (
	"context"
	"fmt"
)

// Schemas 1 and 2 kept three datasets in tables of their own
// (thermoelectric, total_load, peak_valley and its zones), which migration 3
// drops. Those schemas lived on the development branch for a day and a half
// and were never released, so this program no longer converts their records
// into parts: migration 3 refuses, rather than drops, tables that still hold
// records, and an empty database of schema 1 or 2 migrates as before.

// legacyRecords counts the records of the per-dataset tables of schemas 1
// and 2.
const legacyRecords = `SELECT (SELECT count(*) FROM thermoelectric) + (SELECT count(*) FROM total_load) + (SELECT count(*) FROM peak_valley)`

// Steps returns the steps in Go of the migrations, by version, for the
// schema s: each runs in its migration's transaction, before its SQL.
// Migration 3 refuses the records of schemas 1 and 2; migration 7 fills
// the parts' spans (FillSpans) into s.SpansTable.
func Steps[Tx any](s Schema[Tx]) map[int]func(context.Context, Tx) error {
	return map[int]func(context.Context, Tx) error{
		3: func(ctx context.Context, tx Tx) error {
			var n int64
			if err := s.Querier(tx).QueryRow(ctx, legacyRecords).Scan(&n); err != nil || n == 0 {
				return err
			}
			return fmt.Errorf("the tables of schema 1 or 2 hold %d records, which this program no longer moves into parts: "+
				"import the source files into a new database instead", n)
		},
		7: func(ctx context.Context, tx Tx) error {
			q := s.Querier(tx)
			if _, err := q.Exec(ctx, s.SpansTable); err != nil {
				return err
			}
			return FillSpans(ctx, spanQuerier{q})
		},
	}
}
