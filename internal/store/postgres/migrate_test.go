package postgres

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// atVersion creates a database with the schema that migrations 1 to v
// leave, as an older program would have, and returns its URL and a pool on
// it, which the test closes.
func atVersion(t testing.TB, v int) (string, *pgxpool.Pool) {
	t.Helper()
	dsn := cluster.Database(t)
	pool, err := pgxpool.New(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t.Context(), pool, ms[:v], steps(time.Now)); err != nil {
		t.Fatal(err)
	}
	return dsn, pool
}

// exec runs statements on pool, failing the test on the first error.
func exec(t testing.TB, pool *pgxpool.Pool, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := pool.Exec(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestMigrationKeepsImportRuns migrates a database from schema 1, whose
// import_runs accepts three dataset names only, and checks that the runs
// recorded before are kept, IDs included, and that any name is accepted
// afterwards.
func TestMigrationKeepsImportRuns(t *testing.T) {
	dsn, pool := atVersion(t, 1)
	exec(t, pool, `INSERT INTO import_runs (id, dataset, started, finished, rows_read, inserted, updated, unchanged)
		OVERRIDING SYSTEM VALUE VALUES
		(1, 'thermoelectric', '2024-01-01T00:00:01Z', '2024-01-01T00:00:02Z', 10, 10, 0, 0),
		(2, 'total-load', '2024-01-01T00:00:03Z', '2024-01-01T00:00:04Z', 96, 90, 6, 0),
		(5, 'thermoelectric', '2024-01-01T00:00:05Z', '2024-01-01T00:00:06Z', 10, 0, 1, 9)`,
		`SELECT setval(pg_get_serial_sequence('import_runs', 'id'), 5)`)
	pool.Close()

	s := openStore(t, dsn)
	if got, want := fmt.Sprint(appliedMigrations(t, s)), "[0001_init 0002_parts 0003_parts_only 0004_import_events 0005_part_spans]"; got != want {
		t.Fatalf("schema_migrations: got %s, want %s", got, want)
	}
	runs := func() []string {
		rows, err := s.pool.Query(t.Context(), `SELECT id, dataset, started, finished, rows_read, inserted, updated, unchanged FROM import_runs ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		var id, read, ins, upd, unch int64
		var name string
		var started, finished time.Time
		_, err = pgx.ForEachRow(rows, []any{&id, &name, &started, &finished, &read, &ins, &upd, &unch}, func() error {
			got = append(got, fmt.Sprintf("%d %s %s %s %d %d %d %d", id, name,
				started.UTC().Format(time.RFC3339), finished.UTC().Format(time.RFC3339), read, ins, upd, unch))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := []string{
		"1 thermoelectric 2024-01-01T00:00:01Z 2024-01-01T00:00:02Z 10 10 0 0",
		"2 total-load 2024-01-01T00:00:03Z 2024-01-01T00:00:04Z 96 90 6 0",
		"5 thermoelectric 2024-01-01T00:00:05Z 2024-01-01T00:00:06Z 10 0 1 9",
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
	want = append(want, "6 a-new-dataset 2025-01-02T03:04:04Z 2025-01-02T03:04:05Z 3 0 0 3")
	if got := runs(); !slices.Equal(got, want) {
		t.Fatalf("import_runs after a new import:\ngot  %q\nwant %q", got, want)
	}
}
