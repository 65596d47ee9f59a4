package postgres

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store/postgres/pgtest"
	"github.com/energyapi/energyapi/internal/store/storetest"
	"github.com/energyapi/energyapi/internal/testwait"
)

// cluster is the server every test of this binary creates its database on.
// TestMain owns it; tests only call Database.
var cluster *pgtest.Cluster

func TestMain(m *testing.M) {
	cluster = pgtest.New()
	os.Exit(cluster.Run(m))
}

// openStore opens dsn and closes the store when the test ends.
func openStore(t testing.TB, dsn string) *Store {
	t.Helper()
	s, err := Open(t.Context(), dsn)
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

// newStore opens a store on a new database of its own.
func newStore(t testing.TB) *Store {
	t.Helper()
	return openStore(t, cluster.Database(t))
}

func newTestClient(id string) auth.Client {
	return auth.Client{ID: id, Name: "Client " + id, SecretHash: []byte("hash"),
		Created: time.Date(2024, 5, 1, 9, 30, 0, 0, time.UTC)}
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store { return newStore(t) })
}

// TestProcessesShareDatabase uses two stores, each with its own pool, as two
// replicas would.
func TestProcessesShareDatabase(t *testing.T) {
	storetest.RunShared(t, func(t *testing.T) (storetest.Store, storetest.Store) {
		dsn := cluster.Database(t)
		return openStore(t, dsn), openStore(t, dsn)
	})
}

// TestImportFailingMidwayLeavesNothing has PostgreSQL itself refuse a row
// half-way through an import, with a row trigger in the test's own database.
func TestImportFailingMidwayLeavesNothing(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	refuse := func(t testing.TB, table string, after int) func() {
		t.Helper()
		setup := fmt.Sprintf(`CREATE FUNCTION fail() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN
				IF (SELECT count(*) FROM %[1]s) >= %[2]d THEN RAISE EXCEPTION '%[3]s'; END IF;
				RETURN NEW;
			END $$;
			CREATE TRIGGER fail BEFORE INSERT ON %[1]s FOR EACH ROW EXECUTE FUNCTION fail();`,
			table, after, storetest.Refusal)
		if _, err := s.pool.Exec(ctx, setup); err != nil {
			t.Fatal(err)
		}
		return func() {
			if _, err := s.pool.Exec(context.WithoutCancel(ctx), `DROP FUNCTION fail() CASCADE`); err != nil {
				t.Fatal(err)
			}
		}
	}
	count := func(t testing.TB, table string) int {
		t.Helper()
		var n int
		if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	storetest.FailingMidway(t, s, refuse, count)
}

func appliedMigrations(t testing.TB, s *Store) []string {
	t.Helper()
	rows, err := s.pool.Query(t.Context(), `SELECT version, name FROM schema_migrations ORDER BY version`)
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
	dsn := cluster.Database(t)
	want := "[0001_init 0002_parts 0003_parts_only 0004_import_events 0005_part_spans]"

	s, err := Open(t.Context(), dsn)
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

	s = openStore(t, dsn)
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

// TestConcurrentOpenOfNewDatabase opens a new database from several stores at
// once, as replicas started together would: the advisory lock must let
// exactly one of them apply each migration.
func TestConcurrentOpenOfNewDatabase(t *testing.T) {
	const rounds, n = 3, 6
	for round := range rounds {
		dsn := cluster.Database(t)
		stores := make([]*Store, n)
		errs := make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				stores[i], errs[i] = Open(t.Context(), dsn)
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
	dsn := cluster.Database(t)
	s := openStore(t, dsn)
	if _, err := s.pool.Exec(t.Context(), `INSERT INTO schema_migrations (version, name) VALUES (9999, 'future')`); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(t.Context(), dsn)
	if err == nil {
		s2.Close()
		t.Fatalf("Open of a newer schema: got nil error, want one")
	}
	if want := "schema version 9999 is newer than this program knows"; !strings.Contains(err.Error(), want) {
		t.Fatalf("Open of a newer schema: got %q, want it to say %q", err, want)
	}
}

func TestOpenErrorHidesPassword(t *testing.T) {
	// Port 1 on the loopback address: nothing listens there.
	_, err := Open(t.Context(), "postgres://energy:hunter2@127.0.0.1:1/energy?connect_timeout=5")
	if err == nil {
		t.Fatal("Open of an unreachable server: got nil error, want one")
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("Open error shows the password: %v", err)
	}
	_, err = Open(t.Context(), "postgres://energy:hunter2@127.0.0.1:notaport/energy")
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("Open of a malformed URL: got %v, want an error without the password", err)
	}
}

// TestImportWaitsForAnother holds the import lock in a transaction of the
// test's own and checks that an import waits for it instead of running
// beside it.
func TestImportWaitsForAnother(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := lockImports(ctx, tx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.UpdateParts(ctx, "test", time.Now(), nil, writePart("test", "2023"))
		done <- err
	}()
	// The import must be seen waiting on the advisory lock.
	deadline := time.Now().Add(testwait.Scale(10 * time.Second))
	for {
		var waiting bool
		err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks
			WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))`).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("import finished (error %v) while another held the import lock", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the import did not wait on the import lock within 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("import after the lock was released: %v", err)
		}
	case <-time.After(testwait.Scale(30 * time.Second)):
		t.Fatal("import did not finish within 30 s of the lock's release")
	}
}

// TestClockStampsImports checks that the data version's time and the import
// history come from the store's clock, to the microsecond.
func TestClockStampsImports(t *testing.T) {
	s := newStore(t)
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
	s, err := Open(t.Context(), cluster.Database(t))
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
		s := newStore(t)
		s.now = now
		return s
	})
}
