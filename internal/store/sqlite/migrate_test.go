package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/energyapi/energyapi/internal/store/storetest"
)

// TestMigrationKeepsImportRuns migrates a file from schema 1, whose
// import_runs accepts three dataset names only: the runs recorded before
// are kept, IDs included, and any name is accepted afterwards.
func TestMigrationKeepsImportRuns(t *testing.T) {
	path, db := fileAt(t, 1)
	db.Exec(t, `INSERT INTO import_runs (id, dataset, started, finished, rows_read, inserted, updated, unchanged) VALUES
		(1, 'thermoelectric', 1000000, 2000000, 10, 10, 0, 0),
		(2, 'total-load', 3000000, 4000000, 96, 90, 6, 0),
		(5, 'thermoelectric', 5000000, 6000000, 10, 0, 1, 9)`)
	storetest.MigrationKeepsImportRuns(t, driver(t), path)
}

// TestMigrationKeepsRevokedTokens migrates a file from schema 8, whose
// revoked tokens have no place in a log: they become its first entry.
func TestMigrationKeepsRevokedTokens(t *testing.T) {
	path, db := fileAt(t, 8)
	db.Exec(t, `INSERT INTO revoked_tokens (jti, client_id, expires) VALUES
		('old-live', 'c1', 4102444800000000), ('old-expired', 'c1', 1000000)`)
	storetest.MigrationKeepsRevokedTokens(t, driver(t), path)
}

// fileAt returns the path of a new database file with the schema that
// migrations 1 to v leave (atVersion), and a connection to it.
func fileAt(t *testing.T, v int) (string, storetest.DB) {
	path := filepath.Join(t.TempDir(), "energy.db")
	return path, atVersion(t, path, v)
}
