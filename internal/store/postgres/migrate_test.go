package postgres

import (
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

// TestMigrationKeepsImportRuns migrates a database from schema 1, whose
// import_runs accepts three dataset names only: the runs recorded before
// are kept, IDs included, and any name is accepted afterwards.
func TestMigrationKeepsImportRuns(t *testing.T) {
	dsn := cluster.Database(t)
	db := atVersion(t, dsn, 1)
	db.Exec(t, `INSERT INTO import_runs (id, dataset, started, finished, rows_read, inserted, updated, unchanged)
		OVERRIDING SYSTEM VALUE VALUES
		(1, 'thermoelectric', to_timestamp(1), to_timestamp(2), 10, 10, 0, 0),
		(2, 'total-load', to_timestamp(3), to_timestamp(4), 96, 90, 6, 0),
		(5, 'thermoelectric', to_timestamp(5), to_timestamp(6), 10, 0, 1, 9)`,
		`SELECT setval(pg_get_serial_sequence('import_runs', 'id'), 5)`)
	storetest.MigrationKeepsImportRuns(t, driver(t), dsn)
}

// TestMigrationKeepsRevokedTokens migrates a database from schema 8, whose
// revoked tokens have no place in a log: they become its first entry.
func TestMigrationKeepsRevokedTokens(t *testing.T) {
	dsn := cluster.Database(t)
	db := atVersion(t, dsn, 8)
	db.Exec(t, `INSERT INTO revoked_tokens (jti, client_id, expires) VALUES
		('old-live', 'c1', to_timestamp(4102444800)), ('old-expired', 'c1', to_timestamp(1))`)
	storetest.MigrationKeepsRevokedTokens(t, driver(t), dsn)
}
