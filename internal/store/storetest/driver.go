package storetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
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
	// OpenStore opens the store at loc, migrating its schema. The caller
	// closes it.
	OpenStore func(ctx context.Context, loc string) (HistoryStore, error)
	// SetClock makes now the clock of s, which OpenStore opened.
	SetClock func(s HistoryStore, now func() time.Time)
	// Raw connects to the database at loc, outside any store, until tb
	// ends.
	Raw func(tb testing.TB, loc string) DB
	// AtVersion creates a new database at loc with the schema that
	// migrations 1 to v leave, as the program of schema v would have, and
	// connects to it as Raw does.
	AtVersion func(tb testing.TB, loc string, v int) DB
	// Micros is the SQL expression of the time column col as Unix
	// microseconds.
	Micros func(col string) string
	// Rounds and Openers: how many times that many stores open a new
	// database at once.
	Rounds, Openers int
	// Refuse makes the database of s fail, with an error that says
	// Refusal, every insert into table while it holds at least after rows
	// (counting an import's own, uncommitted ones), and returns a function
	// that undoes that.
	Refuse func(tb testing.TB, s Store, table string, after int) (undo func())
	// Size, if not nil, returns the bytes that hold s's parts, which the
	// import benchmark reports per point.
	Size func(b *testing.B, s Store) int64
}

// DB is a connection to a database outside any store, as an older program
// or an operator's shell would have it: a store's package gives the two
// functions in its driver's terms.
type DB struct {
	// ExecSQL runs one statement.
	ExecSQL func(ctx context.Context, stmt string) error
	// QuerySQL returns the values of each row of q.
	QuerySQL func(ctx context.Context, q string) ([][]any, error)
}

// ExecWith returns an ExecSQL that runs each statement with exec, a
// connection's own method, dropping what it returns but the error.
func ExecWith[R any](exec func(ctx context.Context, sql string, args ...any) (R, error)) func(context.Context, string) error {
	return func(ctx context.Context, stmt string) error {
		_, err := exec(ctx, stmt)
		return err
	}
}

// Exec runs statements, failing tb on the first error.
func (db DB) Exec(tb testing.TB, stmts ...string) {
	tb.Helper()
	for _, q := range stmts {
		if err := db.ExecSQL(tb.Context(), q); err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
	}
}

// Query returns the rows of q, each as its values separated by spaces,
// bytes as text.
func (db DB) Query(tb testing.TB, q string) []string {
	tb.Helper()
	rows, err := db.QuerySQL(tb.Context(), q)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	out := make([]string, len(rows))
	for i, vals := range rows {
		line := make([]string, len(vals))
		for j, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			line[j] = fmt.Sprint(v)
		}
		out[i] = strings.Join(line, " ")
	}
	return out
}

// Migrations are the migrations of either store, by NNNN_name.
const Migrations = "[0001_init 0002_parts 0003_parts_only 0004_import_events 0005_registration 0006_plans 0007_part_spans 0008_parts_listing 0009_revocation_log 0010_mirror]"

// Applied returns the migrations applied to db, as Migrations lists them.
func Applied(tb testing.TB, db DB) string {
	tb.Helper()
	var names []string
	for _, row := range db.Query(tb, `SELECT version, name FROM schema_migrations ORDER BY version`) {
		v, name, _ := strings.Cut(row, " ")
		n, err := strconv.Atoi(v)
		noErr(tb, "schema_migrations version", err)
		names = append(names, fmt.Sprintf("%04d_%s", n, name))
	}
	return fmt.Sprint(names)
}

// Open opens the store at loc (OpenStore) with now as its clock (time.Now
// if nil). The caller closes it.
func (d Driver) Open(ctx context.Context, loc string, now func() time.Time) (HistoryStore, error) {
	s, err := d.OpenStore(ctx, loc)
	if err == nil && now != nil {
		d.SetClock(s, now)
	}
	return s, err
}

// Catalog returns the catalogue newCatalog makes (catalog.New, which no
// package under internal/store imports), failing tb on an error.
func Catalog(tb testing.TB, newCatalog func() (*dataset.Catalog, error)) *dataset.Catalog {
	tb.Helper()
	c, err := newCatalog()
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// open opens the store at loc for tb and closes it when tb ends.
func (d Driver) open(tb testing.TB, loc string, now func() time.Time) HistoryStore {
	tb.Helper()
	return Opened[HistoryStore](tb)(d.Open(tb.Context(), loc, now))
}

// Opened returns a function that fails tb unless err is nil and otherwise
// returns s, which it closes when tb ends: a test writes
// storetest.Opened[*Store](t)(Open(ctx, path)).
func Opened[S io.Closer](tb testing.TB) func(s S, err error) S {
	return func(s S, err error) S {
		tb.Helper()
		noErr(tb, "Open", err)
		tb.Cleanup(func() {
			if err := s.Close(); err != nil {
				tb.Errorf("Close: %v", err)
			}
		})
		return s
	}
}

// RunDriver runs every shared test against the stores d opens: the
// contract (Run), two stores on one database (RunShared), revisions
// (RunRevisions), filling parts (RunFill) and the rules on opening and
// migrating a database.
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
	t.Run("RefusesLegacyRecords", func(t *testing.T) { testRefusesLegacyRecords(t, d) })
	t.Run("PartHistory", func(t *testing.T) { testPartHistory(t, d) })
	t.Run("ImportFailingMidway", func(t *testing.T) { testFailingMidway(t, d) })
	t.Run("Fill", func(t *testing.T) { testFillDriver(t, d) })
	t.Run("ImportThen", func(t *testing.T) { testImportThen(t, d) })
}

// thenWriter is a store whose imports may write more in their own
// transaction (store.DB.UpdatePartsThen).
type thenWriter interface {
	UpdatePartsThen(ctx context.Context, name string, started time.Time, refs []dataset.PartRef, merge dataset.MergeFunc,
		then func(ctx context.Context, tx store.Querier) error) (energy.ImportStats, error)
}

// testImportThen checks that UpdatePartsThen runs then in the import's
// transaction: what then writes commits with the import, and its error
// rolls the import back.
func testImportThen(t *testing.T, d Driver) {
	ctx := t.Context()
	s := d.open(t, d.NewDB(t), nil)
	setClients := func(ctx context.Context, tx store.Querier) error {
		_, err := tx.Exec(ctx, `UPDATE versions SET version = 41 WHERE name = 'clients'`)
		return err
	}
	refused := errors.New("then refused")
	_, err := s.(thenWriter).UpdatePartsThen(ctx, "test", time.Now(), nil, WritePart("test", "2023"), func(ctx context.Context, tx store.Querier) error {
		noErr(t, "then's write", setClients(ctx, tx))
		return refused
	})
	if !errors.Is(err, refused) {
		t.Fatalf("UpdatePartsThen: got %v, want then's error", err)
	}
	if parts, v := listParts(t, s).Parts, clientsVersion(t, s); len(parts) != 0 || v == 41 {
		t.Fatalf("after then failed: got parts %v and clients version %d, want neither the import nor then's write", refsOf(parts), v)
	}
	_, err = s.(thenWriter).UpdatePartsThen(ctx, "test", time.Now(), nil, WritePart("test", "2023"), setClients)
	noErr(t, "UpdatePartsThen", err)
	if parts, v := listParts(t, s).Parts, clientsVersion(t, s); len(parts) != 1 || v != 41 {
		t.Fatalf("after then succeeded: got parts %v and clients version %d, want the import's part and 41", refsOf(parts), v)
	}
}

// clientsVersion returns s's clients version.
func clientsVersion(t *testing.T, s Store) int64 {
	t.Helper()
	v, err := s.ClientsVersion(t.Context())
	noErr(t, "ClientsVersion", err)
	return v
}

// testMigrationsAppliedOnce opens a new database, writes, and opens it
// again: the second open applies nothing and finds the data.
func testMigrationsAppliedOnce(t *testing.T, d Driver) {
	loc := d.NewDB(t)
	s, err := d.Open(t.Context(), loc, nil)
	noErr(t, "Open", err)
	if got := Applied(t, d.Raw(t, loc)); got != Migrations {
		t.Fatalf("after first open: got %s, want %s", got, Migrations)
	}
	_, err = s.UpdateParts(t.Context(), "test", time.Now(), nil, WritePart("test", "2023"))
	noErr(t, "UpdateParts", err)
	noErr(t, "Close", s.Close())

	s = d.open(t, loc, nil)
	if got := Applied(t, d.Raw(t, loc)); got != Migrations {
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
		if got := Applied(t, d.Raw(t, loc)); got != Migrations {
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
	d.open(t, loc, nil)
	d.Raw(t, loc).Exec(t, `INSERT INTO schema_migrations (version, name) VALUES (9999, 'future')`)
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
	_, err := s.UpdateParts(t.Context(), "test", clock, nil, WritePart("test", "2025"))
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

// testRefusesLegacyRecords opens a database of schema 2 whose per-dataset
// tables hold a record: the migration that drops them fails and leaves the
// database at schema 2, its record in place.
func testRefusesLegacyRecords(t *testing.T, d Driver) {
	loc := d.NewDB(t)
	db := d.AtVersion(t, loc, 2)
	db.Exec(t, `INSERT INTO thermoelectric VALUES (2023, 'Lorda', 'Sicilia', 'Catania', 'Bioenergie', 'Biogas', 12)`)
	if s, err := d.Open(t.Context(), loc, nil); err == nil || !strings.Contains(err.Error(), "hold 1 records") {
		if err == nil {
			s.Close()
		}
		t.Fatalf("Open of a schema 2 database with a record: got error %v, want the migration's refusal", err)
	}
	got := db.Query(t, `SELECT max(version), (SELECT count(*) FROM thermoelectric) FROM schema_migrations`)
	if want := []string{"2 1"}; !slices.Equal(got, want) {
		t.Fatalf("after the refusal: got schema and records %q, want %q", got, want)
	}
}

// testPartHistory checks that an import that replaces a part keeps the
// replaced one in part_history, stamped with the store's clock, and that
// the current part carries the time it was written.
func testPartHistory(t *testing.T, d Driver) {
	loc := d.NewDB(t)
	var clock time.Time
	s := d.open(t, loc, func() time.Time { return clock })
	ref := dataset.PartRef{Dataset: "test", ID: "2024-01"}
	write := func(at time.Time, records int, data string) {
		t.Helper()
		clock = at
		_, err := s.UpdateParts(t.Context(), "test", at, []dataset.PartRef{ref},
			func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
				return []dataset.StoredPart{{PartRef: ref, Records: records, Data: []byte(data)}}, energy.ImportStats{}, nil
			})
		noErr(t, "UpdateParts", err)
	}
	write(time.Date(2025, 1, 1, 0, 0, 0, 1000, time.UTC), 1, "one")
	write(time.Date(2025, 1, 2, 0, 0, 0, 2000, time.UTC), 2, "two")
	write(time.Date(2025, 1, 3, 0, 0, 0, 3000, time.UTC), 3, "three")

	db := d.Raw(t, loc)
	cases := []struct {
		query string
		want  []string
	}{
		{`SELECT dataset, id, version, ` + d.Micros("written") + `, records, data FROM parts`,
			[]string{"test 2024-01 3 1735862400000003 3 three"}},
		{`SELECT dataset, id, version, ` + d.Micros("written") + `, replaced_by, ` + d.Micros("replaced_at") + `, records, data
			FROM part_history ORDER BY version`,
			[]string{
				"test 2024-01 1 1735689600000001 2 1735776000000002 1 one",
				"test 2024-01 2 1735776000000002 3 1735862400000003 2 two",
			}},
	}
	for _, c := range cases {
		if got := db.Query(t, c.query); !slices.Equal(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.query, got, c.want)
		}
	}
}

// MigrationKeepsImportRuns opens the database at loc, which has schema 1
// and, in its import_runs, runs 1 and 5 of thermoelectric and run 2 of
// total-load, started and finished at Unix seconds 1 to 6 (the rows it
// wants below). The migration must keep them, IDs included, and accept any
// dataset name afterwards.
func MigrationKeepsImportRuns(t *testing.T, d Driver, loc string) {
	clock := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	s := d.open(t, loc, func() time.Time { return clock })
	db := d.Raw(t, loc)
	if got := Applied(t, db); got != Migrations {
		t.Fatalf("schema_migrations: got %s, want %s", got, Migrations)
	}
	runs := `SELECT id, dataset, ` + d.Micros("started") + `, ` + d.Micros("finished") + `, rows_read, inserted, updated, unchanged
		FROM import_runs ORDER BY id`
	want := []string{
		"1 thermoelectric 1000000 2000000 10 10 0 0",
		"2 total-load 3000000 4000000 96 90 6 0",
		"5 thermoelectric 5000000 6000000 10 0 1 9",
	}
	if got := db.Query(t, runs); !slices.Equal(got, want) {
		t.Fatalf("import_runs after the migration:\ngot  %q\nwant %q", got, want)
	}
	_, err := s.UpdateParts(t.Context(), "a-new-dataset", clock.Add(-time.Second), nil,
		func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
			return nil, energy.ImportStats{Read: 3, Unchanged: 3}, nil
		})
	if err != nil {
		t.Fatalf("an import run of a dataset schema 1 did not know: %v", err)
	}
	want = append(want, "6 a-new-dataset 1735787044000000 1735787045000000 3 0 0 3")
	if got := db.Query(t, runs); !slices.Equal(got, want) {
		t.Fatalf("import_runs after a new import:\ngot  %q\nwant %q", got, want)
	}
}

// MigrationKeepsRevokedTokens opens the database at loc, which has schema 8
// and, in its revoked_tokens, "old-live" of client "c1", expiring at the
// start of 2100 UTC, and "old-expired", expiring at Unix second 1. The
// migration must keep them as the first entry of the log (Seq 1), and the
// next revocation must follow it.
func MigrationKeepsRevokedTokens(t *testing.T, d Driver, loc string) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	rs, ok := d.open(t, loc, nil).(auth.RegistrationStore)
	if !ok {
		t.Fatal("the store keeps no revoked tokens")
	}
	got, err := rs.RevokedSince(t.Context(), 0, now)
	noErr(t, "RevokedSince", err)
	live := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	if len(got) != 1 || got[0].ID != "old-live" || got[0].ClientID != "c1" || !got[0].Expires.Equal(live) || got[0].Seq != 1 {
		t.Fatalf("RevokedSince(0) after the migration: got %+v, want old-live of c1 expiring %v at Seq 1", got, live)
	}
	noErr(t, "RevokeToken", rs.RevokeToken(t.Context(), auth.RevokedToken{ID: "new", ClientID: "c1", Expires: live}, now))
	if got, err := rs.RevokedSince(t.Context(), 1, now); err != nil || len(got) != 1 || got[0].ID != "new" || got[0].Seq <= 1 {
		t.Fatalf("RevokedSince(1) after a new revocation: got %+v (%v), want the new one, with a Seq above 1", got, err)
	}
}

// WritePart returns a merge that writes one part of dataset name.
func WritePart(name, id string) dataset.MergeFunc {
	return func([]dataset.StoredPart, time.Time) ([]dataset.StoredPart, energy.ImportStats, error) {
		return []dataset.StoredPart{{PartRef: dataset.PartRef{Dataset: name, ID: id}, Records: 1, Data: []byte("part " + id)}},
			energy.ImportStats{Read: 1, Inserted: 1}, nil
	}
}
