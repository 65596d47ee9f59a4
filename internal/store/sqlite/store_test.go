package sqlite

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
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
	want := "[0001_init]"

	s, err := Open(t.Context(), path)
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

	s = openStore(t, path)
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
		if got, want := fmt.Sprint(appliedMigrations(t, stores[0])), "[0001_init]"; got != want {
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

func TestProcessesShareFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "energy.db")
	a, b := openStore(t, path), openStore(t, path)

	t.Run("ImportsWaitForEachOther", func(t *testing.T) {
		const batches = 5
		var wg sync.WaitGroup
		for i, s := range []*Store{a, b} {
			wg.Go(func() {
				for j := range batches {
					recs := []energy.ThermoRecord{{Year: 2000 + 10*i + j, CapacityType: "Lorda", Region: "R",
						Province: "P", Category: "C", Subcategory: "S", ProductionGWh: 1}}
					if _, err := s.ImportThermoelectric(t.Context(), recs); err != nil {
						t.Errorf("store %d batch %d: %v", i, j, err)
					}
				}
			})
		}
		wg.Wait()
		for i, s := range []*Store{a, b} {
			d, err := s.ReadData(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Thermo) != 2*batches || d.Version != 2*batches {
				t.Fatalf("store %d: got %d records at version %d, want %d at version %d", i, len(d.Thermo), d.Version, 2*batches, 2*batches)
			}
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
	})
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

func TestParseMigrations(t *testing.T) {
	file := func(body string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(body)} }
	cases := []struct {
		name    string
		files   fstest.MapFS
		want    string // versions and names, or the error's start
		wantErr bool
	}{
		{"in order", fstest.MapFS{
			"m/0002_more.sql": file("B"), "m/0001_init.sql": file("A"), "m/README": file("x"),
		}, "[{1 init A} {2 more B}]", false},
		{"gap", fstest.MapFS{"m/0001_init.sql": file("A"), "m/0003_more.sql": file("B")},
			"migration 0003_more.sql: want version 2 next", true},
		{"no number", fstest.MapFS{"m/init.sql": file("A")},
			"migration init.sql: name is not NNNN_name.sql", true},
		{"short number", fstest.MapFS{"m/1_init.sql": file("A")},
			"migration 1_init.sql: name is not NNNN_name.sql", true},
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

func TestEmbeddedMigrationsParse(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatalf("embedded migrations: %v", err)
	}
	if ms[0].version != 1 || ms[0].name != "init" {
		t.Fatalf("first migration: got %04d_%s, want 0001_init", ms[0].version, ms[0].name)
	}
}

func TestZoneCodesMatchSchema(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
	rows, err := s.r.QueryContext(t.Context(), `SELECT id, name FROM zones ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id int64
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

// TestImportFailingMidwayLeavesNothing makes SQLite itself refuse a row once
// an import has already written part of its batch inside the transaction,
// and checks that none of it is visible or kept.
func TestImportFailingMidwayLeavesNothing(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
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

	// A TEMP trigger lives on the one writer connection only. It fires once
	// the table, inside the import's transaction, already holds the rows
	// the condition names, which proves the failure is half-way.
	cases := []struct {
		name    string
		trigger string
		do      func() error
	}{
		{"thermoelectric", `CREATE TEMP TRIGGER fail BEFORE INSERT ON main.thermoelectric
			WHEN (SELECT count(*) FROM main.thermoelectric) >= 500
			BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END`,
			func() error { _, err := s.ImportThermoelectric(ctx, thermo); return err }},
		{"total load rows", `CREATE TEMP TRIGGER fail BEFORE INSERT ON main.total_load
			WHEN (SELECT count(*) FROM main.total_load) >= 96 + 1000
			BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END`,
			func() error { _, err := s.ImportTotalLoad(ctx, load); return err }},
		{"total load derived day", `CREATE TEMP TRIGGER fail BEFORE INSERT ON main.peak_valley
			WHEN (SELECT count(*) FROM main.peak_valley) >= 1 + 10
			BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END`,
			func() error { _, err := s.ImportTotalLoad(ctx, load); return err }},
		{"import run", `CREATE TEMP TRIGGER fail BEFORE INSERT ON main.import_runs
			BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END`,
			func() error { _, err := s.ImportTotalLoad(ctx, load); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, err := s.ReadData(ctx)
			if err != nil {
				t.Fatal(err)
			}
			beforeRows := countRows(t, s)
			if _, err := s.w.ExecContext(ctx, c.trigger); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if _, err := s.w.ExecContext(ctx, `DROP TRIGGER temp.fail`); err != nil {
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
		if err := s.r.QueryRowContext(t.Context(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		counts[table] = n
	}
	return counts
}

// TestClockStampsImports checks that the data version's time and the import
// history come from the store's clock.
func TestClockStampsImports(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "energy.db"))
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
