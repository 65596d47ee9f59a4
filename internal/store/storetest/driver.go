package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Driver is one kind of store as the suite opens it: each store package
// fills one in and hands it to RunDriver and its benchmarks to the Bench
// functions, so that the tests they share are written once, here.
type Driver struct {
	// Catalog is the catalogue the server serves (catalog.New), which the
	// caller hands in: nothing under internal/store imports the catalogue.
	Catalog *dataset.Catalog
	// NewDB returns where a new, empty database is for tb: a file path or
	// a URL.
	NewDB func(tb testing.TB) string
	// Open opens the store at loc, migrating its schema, with now as its
	// clock (time.Now if nil). The caller closes it.
	Open func(ctx context.Context, loc string, now func() time.Time) (HistoryStore, error)
	// Migrations lists the migrations applied to s's database, as
	// NNNN_name, in order.
	Migrations func(tb testing.TB, s Store) []string
	// Exec runs one statement on s's database.
	Exec func(tb testing.TB, s Store, stmt string)
	// Rounds and Openers: how many times that many stores open a new
	// database at once.
	Rounds, Openers int
	// Size, if not nil, returns the bytes that hold s's parts, which the
	// import benchmark reports per point.
	Size func(b *testing.B, s Store) int64
}

// Migrations are the migrations of either store, by NNNN_name.
const Migrations = "[0001_init 0002_parts 0003_parts_only 0004_import_events]"

// open opens the store at loc for tb and closes it when tb ends.
func (d Driver) open(tb testing.TB, loc string, now func() time.Time) HistoryStore {
	tb.Helper()
	s, err := d.Open(tb.Context(), loc, now)
	noErr(tb, "Open", err)
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return s
}

// RunDriver runs every shared test against the stores d opens: the
// contract (Run), two stores on one database (RunShared), revisions
// (RunRevisions) and the rules on opening and migrating a database.
func RunDriver(t *testing.T, d Driver) {
	t.Run("Contract", func(t *testing.T) {
		Run(t, d.Catalog, func(t *testing.T) Store { return d.open(t, d.NewDB(t), nil) })
	})
	t.Run("Shared", func(t *testing.T) {
		RunShared(t, func(t *testing.T) (Store, Store) {
			loc := d.NewDB(t)
			return d.open(t, loc, nil), d.open(t, loc, nil)
		})
	})
	t.Run("Revisions", func(t *testing.T) {
		RunRevisions(t, d.Catalog, func(t *testing.T, now func() time.Time) HistoryStore {
			return d.open(t, d.NewDB(t), now)
		})
	})
	t.Run("MigrationsAppliedOnce", func(t *testing.T) { testMigrationsAppliedOnce(t, d) })
	t.Run("ConcurrentOpen", func(t *testing.T) { testConcurrentOpen(t, d) })
	t.Run("NewerSchemaRefused", func(t *testing.T) { testNewerSchemaRefused(t, d) })
	t.Run("ClockStampsImports", func(t *testing.T) { testClockStampsImports(t, d) })
	t.Run("PingAfterClose", func(t *testing.T) { testPingAfterClose(t, d) })
}

// testMigrationsAppliedOnce opens a new database, writes, and opens it
// again: the second open applies nothing and finds the data.
func testMigrationsAppliedOnce(t *testing.T, d Driver) {
	loc := d.NewDB(t)
	s, err := d.Open(t.Context(), loc, nil)
	noErr(t, "Open", err)
	if got := fmt.Sprint(d.Migrations(t, s)); got != Migrations {
		t.Fatalf("after first open: got %s, want %s", got, Migrations)
	}
	_, err = s.UpdateParts(t.Context(), "test", time.Now(), nil, writePart("test", "2023"))
	noErr(t, "UpdateParts", err)
	noErr(t, "Close", s.Close())

	s = d.open(t, loc, nil)
	if got := fmt.Sprint(d.Migrations(t, s)); got != Migrations {
		t.Fatalf("after reopening: got %s, want %s", got, Migrations)
	}
	ch, err := s.ChangedParts(t.Context(), nil)
	noErr(t, "ChangedParts", err)
	if len(ch.Parts) != 1 || ch.Version != 1 {
		t.Fatalf("after reopening: got %d parts at version %d, want 1 at version 1", len(ch.Parts), ch.Version)
	}
}

// testConcurrentOpen opens a new database from several stores at once, as
// processes started together would: each migration must be applied once,
// and every store then sees the writes of all. The races it guards against
// fail only some of the time, so it repeats on new databases.
func testConcurrentOpen(t *testing.T, d Driver) {
	for round := range d.Rounds {
		loc := d.NewDB(t)
		stores := make([]HistoryStore, d.Openers)
		errs := make([]error, d.Openers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range d.Openers {
			wg.Go(func() {
				<-start
				stores[i], errs[i] = d.Open(t.Context(), loc, nil)
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
		if got := fmt.Sprint(d.Migrations(t, stores[0])); got != Migrations {
			t.Fatalf("round %d: schema_migrations: got %s, want %s", round, got, Migrations)
		}
		for i, s := range stores {
			c := auth.Client{ID: fmt.Sprint("c", i), Name: "Client", SecretHash: []byte("hash"), Created: t0()}
			if err := s.CreateClient(t.Context(), c); err != nil {
				t.Fatalf("round %d: CreateClient through store %d: %v", round, i, err)
			}
		}
		for i, s := range stores {
			cs, err := s.Clients(t.Context())
			noErr(t, "Clients", err)
			if len(cs) != d.Openers {
				t.Fatalf("round %d: store %d: got %d clients, want %d", round, i, len(cs), d.Openers)
			}
		}
	}
}

// testNewerSchemaRefused opens a database that a newer program migrated.
func testNewerSchemaRefused(t *testing.T, d Driver) {
	loc := d.NewDB(t)
	d.Exec(t, d.open(t, loc, nil), `INSERT INTO schema_migrations (version, name) VALUES (9999, 'future')`)
	s, err := d.Open(t.Context(), loc, nil)
	if err == nil {
		s.Close()
		t.Fatalf("Open of a newer schema: got nil error, want one")
	}
	if want := "schema version 9999 is newer than this program knows"; !strings.Contains(err.Error(), want) {
		t.Fatalf("Open of a newer schema: got %q, want it to say %q", err, want)
	}
}

// testClockStampsImports checks that the data version's time and the
// import history come from the store's clock.
func testClockStampsImports(t *testing.T, d Driver) {
	clock := time.Date(2025, 2, 3, 4, 5, 6, 7000, time.UTC)
	s := d.open(t, d.NewDB(t), func() time.Time { return clock })
	_, err := s.UpdateParts(t.Context(), "test", clock, nil, writePart("test", "2025"))
	noErr(t, "UpdateParts", err)
	ch, err := s.ChangedParts(t.Context(), nil)
	noErr(t, "ChangedParts", err)
	if !ch.Updated.Equal(clock) {
		t.Fatalf("Updated: got %v, want %v", ch.Updated, clock)
	}
	totals, err := s.ImportTotals(t.Context())
	noErr(t, "ImportTotals", err)
	if len(totals) != 1 || !totals[0].Last.Equal(clock) {
		t.Fatalf("ImportTotals: got %+v, want one with Last %v", totals, clock)
	}
}

func testPingAfterClose(t *testing.T, d Driver) {
	s, err := d.Open(t.Context(), d.NewDB(t), nil)
	noErr(t, "Open", err)
	noErr(t, "Close", s.Close())
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
