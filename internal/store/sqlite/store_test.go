package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// openStore opens the file at path and closes it when the test ends.
func openStore(t testing.TB, path string) *Store {
	t.Helper()
	return storetest.Opened[*Store](t)(Open(t.Context(), path))
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

func TestEmbeddedMigrationsParse(t *testing.T) {
	ms, err := store.ParseMigrations(migrationFiles, "migrations")
	if err != nil {
		t.Fatalf("embedded migrations: %v", err)
	}
	if got := ms[0].String(); got != "0001_init" {
		t.Fatalf("first migration: got %s, want 0001_init", got)
	}
}

// driver opens SQLite stores for the shared tests, each on a file of its own.
func driver(tb testing.TB) storetest.Driver {
	return storetest.Driver{
		Catalog:   storetest.Catalog(tb, catalog.New),
		NewDB:     func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "energy.db") },
		OpenStore: func(ctx context.Context, path string) (storetest.HistoryStore, error) { return Open(ctx, path) },
		SetClock:  func(s storetest.HistoryStore, now func() time.Time) { s.(*Store).now = now },
		Raw:       func(tb testing.TB, path string) storetest.DB { return raw(rawConn(tb, path)) },
		AtVersion: atVersion,
		Micros:    func(col string) string { return col }, // as stored
		// Converting a new file to WAL races only some of the time.
		Rounds: 25, Openers: 4,
		Size:   fileSize,
		Refuse: refuse,
	}
}

// refuse has SQLite itself refuse rows of table (storetest.Driver.Refuse).
// A TEMP trigger lives on the one writer connection only, which every
// import uses.
func refuse(tb testing.TB, st storetest.Store, table string, after int) func() {
	tb.Helper()
	s := st.(*Store)
	trigger := fmt.Sprintf(`CREATE TEMP TRIGGER fail BEFORE INSERT ON main.%[1]s
		WHEN (SELECT count(*) FROM main.%[1]s) >= %[2]d
		BEGIN SELECT RAISE(ABORT, '%[3]s'); END`, table, after, storetest.Refusal)
	if _, err := s.w.ExecContext(tb.Context(), trigger); err != nil {
		tb.Fatal(err)
	}
	return func() {
		if _, err := s.w.ExecContext(tb.Context(), `DROP TRIGGER temp.fail`); err != nil {
			tb.Fatal(err)
		}
	}
}

// TestStore runs the shared tests against SQLite.
func TestStore(t *testing.T) { storetest.RunDriver(t, driver(t)) }

// rawConn connects to the file at path, as the store's writer does, until
// tb ends.
func rawConn(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsn(abs, writeParams))
	if err != nil {
		tb.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	tb.Cleanup(func() { db.Close() })
	return db
}

// raw is db for the shared tests (storetest.DB).
func raw(db *sql.DB) storetest.DB {
	return storetest.DB{ExecSQL: storetest.ExecWith(db.ExecContext), QuerySQL: func(ctx context.Context, q string) ([][]any, error) {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		cols, err := rows.Columns()
		var out [][]any
		for err == nil && rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			err = rows.Scan(ptrs...)
			out = append(out, vals)
		}
		if err != nil {
			return nil, err
		}
		return out, rows.Err()
	}}
}

// atVersion creates a database file at path with the schema that
// migrations 1 to v leave, as an older program would have.
func atVersion(tb testing.TB, path string, v int) storetest.DB {
	tb.Helper()
	// The store's connections never create the file (mode=rw): an empty
	// file, owner-only as Open makes it, is a new database.
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		tb.Fatal(err)
	}
	db := rawConn(tb, path)
	if err := setWAL(tb.Context(), db); err != nil {
		tb.Fatal(err)
	}
	if err := store.Migrate(tb.Context(), schema(db), migrationFiles, v); err != nil {
		tb.Fatal(err)
	}
	return raw(db)
}
