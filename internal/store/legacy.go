package store

import "fmt"

// Schemas 1 and 2 kept three datasets in tables of their own
// (thermoelectric, total_load, peak_valley and its zones), which migration 3
// drops. Those schemas lived on the development branch for a day and a half
// and were never released, so this program no longer converts their records
// into parts: migration 3 refuses, rather than drops, tables that still hold
// records, and an empty database of schema 1 or 2 migrates as before.

// LegacyRecordsQuery counts the records of the per-dataset tables of
// schemas 1 and 2; both stores run it in migration 3's transaction.
const LegacyRecordsQuery = `SELECT (SELECT count(*) FROM thermoelectric) + (SELECT count(*) FROM total_load) + (SELECT count(*) FROM peak_valley)`

// RefuseLegacy returns the error of migration 3 when the per-dataset tables
// hold n records, and nil when they hold none.
func RefuseLegacy(n int64) error {
	if n == 0 {
		return nil
	}
	return fmt.Errorf("the tables of schema 1 or 2 hold %d records, which this program no longer moves into parts: "+
		"import the source files into a new database instead", n)
}
