package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// openStore opens the file at path and closes it when the test ends.
func openStore(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func newTestClient(id string) auth.Client {
	return auth.Client{ID: id, Name: "Client " + id, SecretHash: []byte("hash"),
		Created: time.Date(2024, 5, 1, 9, 30, 0, 0, time.UTC)}
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store {
		return openStore(t, filepath.Join(t.TempDir(), "energy.db"))
	})
}

// TestProcessesShareFile opens one file twice, as a server and a
// command-line import would.
func TestProcessesShareFile(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T) (storetest.Store, storetest.Store) {
		path := filepath.Join(t.TempDir(), "energy.db")
		return openStore(t, path), openStore(t, path)
	})
}

// TestImportFailingMidwayLeavesNothing has SQLite itself refuse a row half-way
// through an import. A TEMP trigger lives on the one writer connection only,
// which every import uses.
func TestImportFailingMidwayLeavesNothing(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
	ctx := t.Context()
	refuse := func(t testing.TB, table string, after int) func() {
		t.Helper()
		trigger := fmt.Sprintf(`CREATE TEMP TRIGGER fail BEFORE INSERT ON main.%[1]s
			WHEN (SELECT count(*) FROM main.%[1]s) >= %[2]d
			BEGIN SELECT RAISE(ABORT, '%[3]s'); END`, table, after, storetest.Refusal)
		if _, err := s.w.ExecContext(ctx, trigger); err != nil {
			t.Fatal(err)
		}
		return func() {
			if _, err := s.w.ExecContext(ctx, `DROP TRIGGER temp.fail`); err != nil {
				t.Fatal(err)
			}
		}
	}
	count := func(t testing.TB, table string) int {
		t.Helper()
		var n int
		if err := s.r.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	storetest.FailingMidway(t, s, refuse, count)
}

func TestPragmas(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
	cases := []struct {
		db     string
		pragma string
		want   string
	}{
		{"writer", "journal_mode", "wal"},
		{"writer", "synchronous", "2"}, // FULL
		{"writer", "foreign_keys", "1"},
		{"writer", "busy_timeout", "10000"},
		{"writer", "query_only", "0"},
		{"reader", "journal_mode", "wal"},
		{"reader", "busy_timeout", "10000"},
		{"reader", "query_only", "1"},
	}
	for _, c := range cases {
		t.Run(c.db+" "+c.pragma, func(t *testing.T) {
			db := s.w
			if c.db == "reader" {
				db = s.r
			}
			var got string
			if err := db.QueryRowContext(t.Context(), "PRAGMA "+c.pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("PRAGMA %s: got %q, want %q", c.pragma, got, c.want)
			}
		})
	}
}

func TestReaderCannotWrite(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
	_, err := s.r.ExecContext(t.Context(), `UPDATE versions SET version = 99`)
	if err == nil {
		t.Fatalf("write through the read pool: got nil error, want one")
	}
}

func TestPaths(t *testing.T) {
	cases := []struct {
		name string
		path string // relative to the test's working directory
	}{
		{"plain", "energy.db"},
		{"in a directory", "data/energy.db"},
		{"URI characters", "odd name?x=1#frag%41.db"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "data"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			openStore(t, c.path)
			if _, err := os.Stat(filepath.Join(dir, c.path)); err != nil {
				t.Fatalf("database file: got %v, want it at %q", err, c.path)
			}
		})
	}
}

func appliedMigrations(t testing.TB, s *Store) []string {
	t.Helper()
	rows, err := s.r.QueryContext(t.Context(), `SELECT version, name FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var v int
		var name string
		if err := rows.Scan(&v, &name); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%04d_%s", v, name))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestMigrationsAppliedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "energy.db")
	want := "[0001_init 0002_parts 0003_parts_only 0004_import_events 0005_part_spans]"

	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(appliedMigrations(t, s)); got != want {
		t.Fatalf("after first open: got %s, want %s", got, want)
	}
	if _, err := s.UpdateParts(t.Context(), "test", time.Now(), nil, writePart("test", "2023")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openStore(t, path)
	if got := fmt.Sprint(appliedMigrations(t, s)); got != want {
		t.Fatalf("after reopening: got %s, want %s", got, want)
	}
	ch, err := s.ChangedParts(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Parts) != 1 || ch.Version != 1 {
		t.Fatalf("after reopening: got %d parts at version %d, want 1 at version 1", len(ch.Parts), ch.Version)
	}
}

// TestConcurrentOpenOfNewFile opens a new file from several stores at once,
// as processes started together would. The race it guards against (two
// connections converting the file to WAL) fails only some of the time, so it
// repeats on fresh files.
func TestConcurrentOpenOfNewFile(t *testing.T) {
	const rounds, n = 25, 4
	for round := range rounds {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("energy-%d.db", round))
		stores := make([]*Store, n)
		errs := make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				stores[i], errs[i] = Open(t.Context(), path)
			})
		}
		close(start)
		wg.Wait()
		for i, s := range stores {
			if errs[i] != nil {
				t.Fatalf("round %d: Open %d: %v", round, i, errs[i])
			}
			t.Cleanup(func() { s.Close() })
		}
		if got, want := fmt.Sprint(appliedMigrations(t, stores[0])), "[0001_init 0002_parts 0003_parts_only 0004_import_events 0005_part_spans]"; got != want {
			t.Fatalf("round %d: schema_migrations: got %s, want %s", round, got, want)
		}
		// Each store writes; every store sees all the writes.
		for i, s := range stores {
			if err := s.CreateClient(t.Context(), newTestClient(fmt.Sprint("c", i))); err != nil {
				t.Fatalf("round %d: CreateClient through store %d: %v", round, i, err)
			}
		}
		for i, s := range stores {
			cs, err := s.Clients(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != n {
				t.Fatalf("round %d: store %d: got %d clients, want %d", round, i, len(cs), n)
			}
		}
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "energy.db")
	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(t.Context(), `INSERT INTO schema_migrations (version, name) VALUES (9999, 'future')`); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(t.Context(), path)
	if err == nil {
		s.Close()
		t.Fatalf("Open of a newer schema: got nil error, want one")
	}
	if want := "schema version 9999 is newer than this program knows"; !strings.Contains(err.Error(), want) {
		t.Fatalf("Open of a newer schema: got %q, want it to say %q", err, want)
	}
}

func TestEmbeddedMigrationsParse(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatalf("embedded migrations: %v", err)
	}
	if got := ms[0].String(); got != "0001_init" {
		t.Fatalf("first migration: got %s, want 0001_init", got)
	}
}

// TestClockStampsImports checks that the data version's time and the import
// history come from the store's clock.
func TestClockStampsImports(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
	clock := time.Date(2025, 2, 3, 4, 5, 6, 7000, time.UTC)
	s.now = func() time.Time { return clock }
	_, err := s.UpdateParts(t.Context(), "test", clock, nil, writePart("test", "2025"))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := s.ChangedParts(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Updated.Equal(clock) {
		t.Fatalf("Updated: got %v, want %v", ch.Updated, clock)
	}
	totals, err := s.ImportTotals(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(totals) != 1 || !totals[0].Last.Equal(clock) {
		t.Fatalf("ImportTotals: got %+v, want one with Last %v", totals, clock)
	}
}

func TestPingAfterClose(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "energy.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(context.Background()); err == nil {
		t.Fatalf("Ping after Close: got nil error, want one")
	}
}

// writePart returns a merge that writes one part of dataset name.
func writePart(name, id string) dataset.MergeFunc {
	return func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
		return []dataset.StoredPart{{PartRef: dataset.PartRef{Dataset: name, ID: id}, Records: 1, Data: []byte("part " + id)}},
			energy.ImportStats{Read: 1, Inserted: 1}, nil
	}
}

func TestRevisions(t *testing.T) {
	storetest.RunRevisions(t, func(t *testing.T, now func() time.Time) storetest.HistoryStore {
		s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
		s.now = now
		return s
	})
}
