package postgres

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/energyapi/energyapi/internal/store/postgres/pgtest"
	"github.com/energyapi/energyapi/internal/store/storetest"
	"github.com/energyapi/energyapi/internal/testwait"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
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
	return storetest.Opened[*Store](t)(Open(t.Context(), dsn))
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
		_, err := s.UpdateParts(ctx, "test", time.Now(), nil, storetest.WritePart("test", "2023"))
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

// driver opens PostgreSQL stores for the shared tests, each on a database
// of its own in the test's cluster.
func driver(tb testing.TB) storetest.Driver {
	return storetest.Driver{
		Catalog:   storetest.Catalog(tb, catalog.New),
		NewDB:     cluster.Database,
		OpenStore: func(ctx context.Context, dsn string) (storetest.HistoryStore, error) { return Open(ctx, dsn) },
		SetClock:  func(s storetest.HistoryStore, now func() time.Time) { s.(*Store).now = now },
		Raw:       func(tb testing.TB, dsn string) storetest.DB { return raw(rawConn(tb, dsn)) },
		AtVersion: atVersion,
		Micros: func(col string) string {
			return "(extract(epoch FROM " + col + ") * 1000000)::bigint"
		},
		// The advisory lock must let exactly one of them apply each migration.
		Rounds: 3, Openers: 6,
		Size: func(b *testing.B, s storetest.Store) int64 {
			var n int64
			err := s.(*Store).pool.QueryRow(b.Context(), `SELECT pg_total_relation_size('parts')`).Scan(&n)
			if err != nil {
				b.Fatal(err)
			}
			return n
		},
		Refuse: refuse,
	}
}

// refuse has PostgreSQL itself refuse rows of table
// (storetest.Driver.Refuse), with a row trigger in the test's own database.
func refuse(tb testing.TB, st storetest.Store, table string, after int) func() {
	tb.Helper()
	s := st.(*Store)
	setup := fmt.Sprintf(`CREATE FUNCTION fail() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF (SELECT count(*) FROM %[1]s) >= %[2]d THEN RAISE EXCEPTION '%[3]s'; END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER fail BEFORE INSERT ON %[1]s FOR EACH ROW EXECUTE FUNCTION fail();`,
		table, after, storetest.Refusal)
	if _, err := s.pool.Exec(tb.Context(), setup); err != nil {
		tb.Fatal(err)
	}
	return func() {
		if _, err := s.pool.Exec(context.WithoutCancel(tb.Context()), `DROP FUNCTION fail() CASCADE`); err != nil {
			tb.Fatal(err)
		}
	}
}

// TestStore runs the shared tests against PostgreSQL.
func TestStore(t *testing.T) { storetest.RunDriver(t, driver(t)) }

// rawConn connects to the database at dsn until tb ends.
func rawConn(tb testing.TB, dsn string) *pgxpool.Pool {
	tb.Helper()
	pool, err := pgxpool.New(tb.Context(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(pool.Close)
	return pool
}

// raw is pool for the shared tests (storetest.DB).
func raw(pool *pgxpool.Pool) storetest.DB {
	return storetest.DB{
		ExecSQL:  storetest.ExecWith(pool.Exec),
		QuerySQL: func(ctx context.Context, q string) ([][]any, error) { return values(pool.Query(ctx, q)) },
	}
}

// values returns the values of each of rows, or err, Query's error.
func values(rows pgx.Rows, err error) ([][]any, error) {
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) ([]any, error) { return row.Values() })
}

// atVersion gives the new database at dsn the schema that migrations 1 to
// v leave, as an older program would have.
func atVersion(tb testing.TB, dsn string, v int) storetest.DB {
	tb.Helper()
	pool := rawConn(tb, dsn)
	if err := store.Migrate(tb.Context(), schema(pool), migrationFiles, v); err != nil {
		tb.Fatal(err)
	}
	return raw(pool)
}
