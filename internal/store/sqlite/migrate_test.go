package sqlite

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// atVersion creates a database file at path with the schema that
// migrations 1 to v leave, as an older program would have, and returns the
// writer connection to it, which the test closes.
func atVersion(t testing.TB, path string, v int) *sql.DB {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	// The store's connections never create the file (mode=rw): an empty
	// file, owner-only as Open makes it, is a new database.
	if err := os.WriteFile(abs, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsn(abs, writeParams))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if err := setWAL(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t.Context(), db, ms[:v], steps(time.Now)); err != nil {
		t.Fatal(err)
	}
	return db
}

// exec runs statements on db, failing the test on the first error.
func exec(t testing.TB, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestMigrationKeepsImportRuns migrates a file from schema 1, whose
// import_runs accepts three dataset names only, and checks that the runs
// recorded before are kept, IDs included, and that any name is accepted
// afterwards.
func TestMigrationKeepsImportRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "energy.db")
	db := atVersion(t, path, 1)
	exec(t, db, `INSERT INTO import_runs (id, dataset, started, finished, rows_read, inserted, updated, unchanged) VALUES
		(1, 'thermoelectric', 1000000, 2000000, 10, 10, 0, 0),
		(2, 'total-load', 3000000, 4000000, 96, 90, 6, 0),
		(5, 'thermoelectric', 5000000, 6000000, 10, 0, 1, 9)`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s := openStore(t, path)
	if got, want := fmt.Sprint(appliedMigrations(t, s)), "[0001_init 0002_parts 0003_parts_only 0004_import_events 0005_part_spans]"; got != want {
		t.Fatalf("schema_migrations: got %s, want %s", got, want)
	}
	runs := func() []string {
		rows, err := s.r.QueryContext(t.Context(), `SELECT id, dataset, started, finished, rows_read, inserted, updated, unchanged FROM import_runs ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			var id, started, finished, read, ins, upd, unch int64
			var name string
			if err := rows.Scan(&id, &name, &started, &finished, &read, &ins, &upd, &unch); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d %s %d %d %d %d %d %d", id, name, started, finished, read, ins, upd, unch))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := []string{
		"1 thermoelectric 1000000 2000000 10 10 0 0",
		"2 total-load 3000000 4000000 96 90 6 0",
		"5 thermoelectric 5000000 6000000 10 0 1 9",
	}
	if got := runs(); !slices.Equal(got, want) {
		t.Fatalf("import_runs after the migration:\ngot  %q\nwant %q", got, want)
	}

	clock := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	s.now = func() time.Time { return clock }
	_, err := s.UpdateParts(t.Context(), "a-new-dataset", clock.Add(-time.Second), nil,
		func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
			return nil, energy.ImportStats{Read: 3, Unchanged: 3}, nil
		})
	if err != nil {
		t.Fatalf("an import run of a dataset schema 1 did not know: %v", err)
	}
	want = append(want, "6 a-new-dataset 1735787044000000 1735787045000000 3 0 0 3")
	if got := runs(); !slices.Equal(got, want) {
		t.Fatalf("import_runs after a new import:\ngot  %q\nwant %q", got, want)
	}
}
