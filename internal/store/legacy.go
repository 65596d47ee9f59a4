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

// Steps returns the steps in Go of the migrations, by version, for a store
// whose transactions are Tx: each runs in its migration's transaction,
// before its SQL. count returns the one integer that query gives in tx.
func Steps[Tx any](count func(ctx context.Context, tx Tx, query string) (int64, error)) map[int]func(context.Context, Tx) error {
	return map[int]func(context.Context, Tx) error{
		3: func(ctx context.Context, tx Tx) error {
			n, err := count(ctx, tx, legacyRecords)
			if err != nil || n == 0 {
				return err
			}
			return fmt.Errorf("the tables of schema 1 or 2 hold %d records, which this program no longer moves into parts: "+
				"import the source files into a new database instead", n)
		},
	}
}
