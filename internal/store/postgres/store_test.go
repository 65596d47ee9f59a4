package postgres

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store/postgres/pgtest"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// cluster is the server every test of this binary creates its database on.
// TestMain owns it; tests only call Database.
var cluster *pgtest.Cluster

func TestMain(m *testing.M) {
	cluster = pgtest.New()
	code := m.Run()
	if err := cluster.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest: stopping the server:", err)
		code = 1
	}
	os.Exit(code)
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
	want := "[0001_init]"

	s, err := Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(appliedMigrations(t, s)); got != want {
		t.Fatalf("after first open: got %s, want %s", got, want)
	}
	if _, err := s.ImportThermoelectric(t.Context(), []energy.ThermoRecord{{Year: 2023, CapacityType: "Lorda",
		Region: "Lazio", Province: "Roma", Category: "C", Subcategory: "S", ProductionGWh: 7}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openStore(t, dsn)
	if got := fmt.Sprint(appliedMigrations(t, s)); got != want {
		t.Fatalf("after reopening: got %s, want %s", got, want)
	}
	d, err := s.ReadData(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Thermo) != 1 || d.Version != 1 {
		t.Fatalf("after reopening: got %d records at version %d, want 1 at version 1", len(d.Thermo), d.Version)
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
		if got, want := fmt.Sprint(appliedMigrations(t, stores[0])), "[0001_init]"; got != want {
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

func TestParseMigrations(t *testing.T) {
	file := func(body string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(body)} }
	cases := []struct {
		name    string
		files   fstest.MapFS
		want    string // versions and names, or the error
		wantErr bool
	}{
		{"in order", fstest.MapFS{
			"m/0002_more.sql": file("B"), "m/0001_init.sql": file("A"), "m/README": file("x"),
		}, "[{1 init A} {2 more B}]", false},
		{"gap", fstest.MapFS{"m/0001_init.sql": file("A"), "m/0003_more.sql": file("B")},
			"migration 0003_more.sql: want version 2 next", true},
		{"no number", fstest.MapFS{"m/init.sql": file("A")},
			"migration init.sql: name is not NNNN_name.sql", true},
		{"none", fstest.MapFS{"m/README": file("x")}, "no migrations", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ms, err := parseMigrations(c.files, "m")
			if c.wantErr {
				if err == nil || err.Error() != c.want {
					t.Fatalf("got error %v, want %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(ms); got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
}

func TestZoneCodesMatchSchema(t *testing.T) {
	s := newStore(t)
	rows, err := s.pool.Query(t.Context(), `SELECT id, name FROM zones ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id int16
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		n++
		if got, ok := zoneCode(energy.Zone(name)); !ok || got != id {
			t.Errorf("zoneCode(%q): got %d, %t, want %d, true", name, got, ok, id)
		}
		if got, ok := zoneOf(id); !ok || got != energy.Zone(name) {
			t.Errorf("zoneOf(%d): got %q, %t, want %q, true", id, got, ok, name)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := len(energy.Zones()); n != want {
		t.Fatalf("zones table: got %d rows, want %d", n, want)
	}
}

// TestTextOrderIsBytewise checks that ReadData and Clients order strings by
// their bytes, as SQLite does, whatever the database's collation. pgtest's
// own cluster defaults to an English collation, where "apple" sorts before
// "Banana" and "Émilie" before "Zara".
func TestTextOrderIsBytewise(t *testing.T) {
	s := newStore(t)
	regions := []string{"Émilie", "apple", "Zara", "Banana"}
	var recs []energy.ThermoRecord
	for _, r := range regions {
		recs = append(recs, energy.ThermoRecord{Year: 2023, CapacityType: "Lorda", Region: r, Province: "P",
			Category: "C", Subcategory: "S", ProductionGWh: 1})
	}
	if _, err := s.ImportThermoelectric(t.Context(), recs); err != nil {
		t.Fatal(err)
	}
	d, err := s.ReadData(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range d.Thermo {
		got = append(got, r.Region)
	}
	want := []string{"Banana", "Zara", "apple", "Émilie"} // by bytes: upper case, lower case, then UTF-8 multibyte
	if !slices.Equal(got, want) {
		t.Fatalf("thermoelectric regions: got %q, want %q", got, want)
	}

	for _, id := range regions {
		if err := s.CreateClient(t.Context(), newTestClient(id)); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := s.Clients(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, c := range cs {
		got = append(got, c.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("client IDs: got %q, want %q", got, want)
	}
}

// TestTextPostgresCannotStore covers the strings PostgreSQL's text cannot hold
// (NUL bytes, invalid UTF-8): a lookup finds no client instead of failing,
// since the token endpoint passes client IDs from requests as they came, and
// a write is refused as Invalid.
func TestTextPostgresCannotStore(t *testing.T) {
	s := newStore(t)
	for _, id := range []string{"nul\x00byte", "bad \xff utf-8"} {
		t.Run(fmt.Sprintf("%q", id), func(t *testing.T) {
			_, err := s.Client(t.Context(), id)
			if got := energy.ErrorCode(err); got != energy.NotFound {
				t.Errorf("Client: got %v (code %q), want code %q", err, got, energy.NotFound)
			}
			if got := energy.ErrorCode(s.RevokeClient(t.Context(), id, time.Now())); got != energy.NotFound {
				t.Errorf("RevokeClient: got code %q, want %q", got, energy.NotFound)
			}
			if got := energy.ErrorCode(s.SetClientSecret(t.Context(), id, []byte("h"))); got != energy.NotFound {
				t.Errorf("SetClientSecret: got code %q, want %q", got, energy.NotFound)
			}
			if got := energy.ErrorCode(s.CreateClient(t.Context(), newTestClient(id))); got != energy.Invalid {
				t.Errorf("CreateClient: got code %q, want %q", got, energy.Invalid)
			}
			_, err = s.ImportThermoelectric(t.Context(), []energy.ThermoRecord{{Year: 2023, CapacityType: "Lorda",
				Region: "R", Province: id, Category: "C", Subcategory: "S", ProductionGWh: 1}})
			if got := energy.ErrorCode(err); got != energy.Invalid {
				t.Errorf("ImportThermoelectric: got %v (code %q), want code %q", err, got, energy.Invalid)
			}
		})
	}
}

// TestProcessesShareDatabase uses two stores, each with its own pool, as two
// replicas would.
func TestProcessesShareDatabase(t *testing.T) {
	dsn := cluster.Database(t)
	a, b := openStore(t, dsn), openStore(t, dsn)

	t.Run("ImportsTakeTurns", func(t *testing.T) {
		// Both stores import overlapping Italy load for the same two days, so
		// each import's counts and derived days depend on whether it saw the
		// other's rows: exact only if the imports take turns.
		const batches = 5
		first := time.Date(2024, 3, 1, 0, 0, 0, 0, energy.Rome()) // two 24-hour days
		var wg sync.WaitGroup
		stats := make([][]energy.ImportStats, 2)
		for i, s := range []*Store{a, b} {
			wg.Go(func() {
				for j := range batches {
					var pts []energy.LoadPoint
					for k := range 192 {
						pts = append(pts, energy.LoadPoint{At: first.Add(time.Duration(k) * 15 * time.Minute),
							Zone: energy.Italy, TotalMW: float64(1000*i + j), ForecastMW: math.NaN()})
					}
					st, err := s.ImportTotalLoad(t.Context(), pts)
					if err != nil {
						t.Errorf("store %d batch %d: %v", i, j, err)
						return
					}
					stats[i] = append(stats[i], st)
				}
			})
		}
		wg.Wait()
		var inserted, updated int
		for _, ss := range stats {
			for _, st := range ss {
				inserted += st.Inserted
				updated += st.Updated
			}
		}
		// The first import inserts the 192 points; each of the other nine
		// changes every value, since no two batches share one.
		if inserted != 192 || updated != 9*192 {
			t.Fatalf("over all imports: got %d inserted and %d updated, want 192 and %d", inserted, updated, 9*192)
		}
		da, err := a.ReadData(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		db, err := b.ReadData(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if da.Version != 2*batches || db.Version != da.Version {
			t.Fatalf("versions: got %d and %d, want %d in both", da.Version, db.Version, 2*batches)
		}
		// Whichever import committed last, its value is every point's, and
		// the derived days agree with it.
		if len(da.PeakValley) != 2 || da.PeakValley[0].Peak.GW != da.PeakValley[0].Valley.GW ||
			da.PeakValley[1].Peak.GW != da.PeakValley[0].Peak.GW {
			t.Fatalf("derived days: got %+v, want two days each of one value", da.PeakValley)
		}
	})

	t.Run("ServerSecretAgrees", func(t *testing.T) {
		var got [2][]byte
		var errs [2]error
		var wg sync.WaitGroup
		for i, s := range []*Store{a, b} {
			wg.Go(func() {
				got[i], errs[i] = s.ServerSecret(t.Context(), "hash-key", func() ([]byte, error) {
					return []byte(fmt.Sprint("from store ", i)), nil
				})
			})
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("ServerSecret: got errors %v, %v", errs[0], errs[1])
		}
		if string(got[0]) != string(got[1]) {
			t.Fatalf("ServerSecret: store 0 got %q, store 1 got %q, want one value", got[0], got[1])
		}
	})

	t.Run("VersionsSeenAcrossProcesses", func(t *testing.T) {
		before, err := b.ClientsVersion(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if err := a.CreateClient(t.Context(), newTestClient("shared")); err != nil {
			t.Fatal(err)
		}
		after, err := b.ClientsVersion(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if after == before {
			t.Fatalf("ClientsVersion in the other store: got %d before and after, want a change", after)
		}
		dBefore, err := b.DataVersion(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.ImportPeakValley(t.Context(), []energy.DayExtremes{{
			Day:    energy.Date{Year: 2024, Month: 5, Day: 1},
			Peak:   energy.Extreme{At: time.Date(2024, 5, 1, 12, 0, 0, 0, energy.Rome()), GW: 30},
			Valley: energy.Extreme{At: time.Date(2024, 5, 1, 4, 0, 0, 0, energy.Rome()), GW: 18},
		}}); err != nil {
			t.Fatal(err)
		}
		dAfter, err := b.DataVersion(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if dAfter == dBefore {
			t.Fatalf("DataVersion in the other store: got %d before and after, want a change", dAfter)
		}
	})
}

// TestImportFailingMidwayLeavesNothing makes PostgreSQL itself refuse a row
// once an import has already written part of its rows inside the
// transaction, and checks that none of it is visible or kept.
func TestImportFailingMidwayLeavesNothing(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	var seed []energy.LoadPoint
	start := time.Date(2024, 3, 1, 0, 0, 0, 0, energy.Rome())
	for i := range 96 {
		seed = append(seed, energy.LoadPoint{At: start.Add(time.Duration(i) * 15 * time.Minute),
			Zone: energy.Italy, TotalMW: 30000, ForecastMW: math.NaN()})
	}
	if _, err := s.ImportTotalLoad(ctx, seed); err != nil {
		t.Fatal(err)
	}
	thermo := make([]energy.ThermoRecord, 1000)
	for i := range thermo {
		thermo[i] = energy.ThermoRecord{Year: 2023, CapacityType: "Lorda", Region: "R",
			Province: fmt.Sprintf("P%04d", i), Category: "C", Subcategory: "S", ProductionGWh: 1}
	}
	load := make([]energy.LoadPoint, 2000)
	for i := range load {
		load[i] = energy.LoadPoint{At: start.AddDate(0, 1, 0).Add(time.Duration(i) * 15 * time.Minute),
			Zone: energy.Italy, TotalMW: 31000, ForecastMW: math.NaN()}
	}

	// A row trigger that raises once the table, inside the import's
	// transaction, already holds the rows the condition names, which proves
	// the failure is half-way. The database is this test's own.
	cases := []struct {
		name, table, when string
		do                func() error
	}{
		{"thermoelectric", "thermoelectric", "(SELECT count(*) FROM thermoelectric) >= 500",
			func() error { _, err := s.ImportThermoelectric(ctx, thermo); return err }},
		{"total load rows", "total_load", "(SELECT count(*) FROM total_load) >= 96 + 1000",
			func() error { _, err := s.ImportTotalLoad(ctx, load); return err }},
		{"total load derived day", "peak_valley", "(SELECT count(*) FROM peak_valley) >= 1 + 10",
			func() error { _, err := s.ImportTotalLoad(ctx, load); return err }},
		{"import run", "import_runs", "true",
			func() error { _, err := s.ImportTotalLoad(ctx, load); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, err := s.ReadData(ctx)
			if err != nil {
				t.Fatal(err)
			}
			beforeRows := countRows(t, s)
			setup := fmt.Sprintf(`CREATE FUNCTION fail() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN
					IF %s THEN RAISE EXCEPTION 'refused by test trigger'; END IF;
					RETURN NEW;
				END $$;
				CREATE TRIGGER fail BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION fail();`, c.when, c.table)
			if _, err := s.pool.Exec(ctx, setup); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if _, err := s.pool.Exec(context.WithoutCancel(ctx), `DROP FUNCTION fail() CASCADE`); err != nil {
					t.Fatal(err)
				}
			}()
			err = c.do()
			if err == nil || !strings.Contains(err.Error(), "refused by test trigger") {
				t.Fatalf("import: got error %v, want the trigger's", err)
			}
			after, err := s.ReadData(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if after.Version != before.Version || len(after.Thermo) != len(before.Thermo) || len(after.PeakValley) != len(before.PeakValley) {
				t.Fatalf("ReadData: got version %d, %d records, %d days; want %d, %d, %d as before",
					after.Version, len(after.Thermo), len(after.PeakValley), before.Version, len(before.Thermo), len(before.PeakValley))
			}
			if got := countRows(t, s); !maps.Equal(got, beforeRows) {
				t.Fatalf("rows: got %v, want %v as before", got, beforeRows)
			}
		})
	}
}

// countRows returns the number of rows of every table an import writes.
func countRows(t testing.TB, s *Store) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, table := range []string{"thermoelectric", "total_load", "peak_valley", "import_runs"} {
		var n int
		if err := s.pool.QueryRow(t.Context(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		counts[table] = n
	}
	return counts
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
		_, err := s.ImportThermoelectric(ctx, []energy.ThermoRecord{{Year: 2023, CapacityType: "Lorda",
			Region: "R", Province: "P", Category: "C", Subcategory: "S", ProductionGWh: 1}})
		done <- err
	}()
	// The import must be seen waiting on the advisory lock.
	deadline := time.Now().Add(10 * time.Second)
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
	case <-time.After(30 * time.Second):
		t.Fatal("import did not finish within 30 s of the lock's release")
	}
}

// TestClockStampsImports checks that the data version's time and the import
// history come from the store's clock, to the microsecond.
func TestClockStampsImports(t *testing.T) {
	s := newStore(t)
	clock := time.Date(2025, 2, 3, 4, 5, 6, 7000, time.UTC)
	s.now = func() time.Time { return clock }
	_, err := s.ImportPeakValley(t.Context(), []energy.DayExtremes{{
		Day:    energy.DateOf(clock),
		Peak:   energy.Extreme{At: clock, GW: 2},
		Valley: energy.Extreme{At: clock, GW: 1},
	}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.ReadData(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !d.Updated.Equal(clock) {
		t.Fatalf("Updated: got %v, want %v", d.Updated, clock)
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
