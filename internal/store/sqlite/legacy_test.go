package sqlite

import (
	"database/sql"
	"maps"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store/storetest"
)

// storeLegacy writes storetest.LegacyData into the per-dataset tables of db,
// a file at schema 1 or 2.
func storeLegacy(t testing.TB, db *sql.DB) {
	t.Helper()
	ctx := t.Context()
	l := storetest.LegacyData(t)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	must := func(_ sql.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tx.ExecContext(ctx, `UPDATE versions SET version = ?, updated = ? WHERE name = 'data'`, l.Version, l.Updated.UnixMicro()))
	for _, r := range l.Thermo {
		must(tx.ExecContext(ctx, `INSERT INTO thermoelectric (year, capacity_type, region, province, category, subcategory, production_gwh)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, r.Year, r.CapacityType, r.Region, r.Province, r.Category, r.Subcategory, r.ProductionGWh))
	}
	for _, p := range l.Load {
		forecast := sql.NullFloat64{Float64: p.ForecastMW, Valid: !math.IsNaN(p.ForecastMW)}
		must(tx.ExecContext(ctx, `INSERT INTO total_load (ts, zone, total_mw, forecast_mw)
			VALUES (?, (SELECT id FROM zones WHERE name = ?), ?, ?)`, p.At.Unix(), string(p.Zone), p.TotalMW, forecast))
	}
	for source, days := range map[string][]energy.DayExtremes{"imported": l.Imported, "derived": l.Derived} {
		for _, d := range days {
			must(tx.ExecContext(ctx, `INSERT INTO peak_valley (day, source, peak_ts, peak_gw, valley_ts, valley_gw)
				VALUES (?, ?, ?, ?, ?, ?)`, d.Day.String(), source, d.Peak.At.Unix(), d.Peak.GW, d.Valley.At.Unix(), d.Valley.GW))
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// tables returns the tables of the file at path and how many rows each
// holds, with the data version.
func tables(t testing.TB, path string) (map[string]int, int64) {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path, readParams))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(t.Context(), `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT IN ('versions', 'schema_migrations')`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	counts := map[string]int{}
	for _, n := range names {
		var c int
		if err := db.QueryRowContext(t.Context(), "SELECT count(*) FROM "+n).Scan(&c); err != nil {
			t.Fatal(err)
		}
		counts[n] = c
	}
	var v int64
	if err := db.QueryRowContext(t.Context(), `SELECT version FROM versions WHERE name = 'data'`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return counts, v
}

// TestMoveLegacy opens a file that an older program left at schema 1 with
// data in the per-dataset tables, and checks that the data are parts now
// and the tables gone.
func TestMoveLegacy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "energy.db")
	db := atVersion(t, path, 1)
	storeLegacy(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, path)
	storetest.WantLegacyMoved(t, s, false)
	counts, _ := tables(t, path)
	want := map[string]int{"clients": 0, "signing_keys": 0, "server_secrets": 0, "import_runs": 0, "parts": 7, "part_history": 0}
	if !maps.Equal(counts, want) {
		t.Fatalf("tables and their rows: got %v, want %v", counts, want)
	}
}

// TestMoveLegacyUnderParts opens a file at schema 2 that holds data both in
// the per-dataset tables and in parts.
func TestMoveLegacyUnderParts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "energy.db")
	db := atVersion(t, path, 2)
	storeLegacy(t, db)
	// This program records import runs and parts with columns schemas 4
	// and 5 add: lend them for the import, then leave the tables as schema
	// 2 had them.
	for _, q := range []string{
		`ALTER TABLE import_runs ADD COLUMN version INTEGER`, `ALTER TABLE import_runs ADD COLUMN first_part TEXT`,
		`ALTER TABLE import_runs ADD COLUMN last_part TEXT`,
		`ALTER TABLE parts ADD COLUMN first_time INTEGER`, `ALTER TABLE parts ADD COLUMN last_time INTEGER`,
		`ALTER TABLE part_history ADD COLUMN first_time INTEGER`, `ALTER TABLE part_history ADD COLUMN last_time INTEGER`, ``,
		`ALTER TABLE import_runs DROP COLUMN version`, `ALTER TABLE import_runs DROP COLUMN first_part`,
		`ALTER TABLE import_runs DROP COLUMN last_part`,
		`ALTER TABLE parts DROP COLUMN first_time`, `ALTER TABLE parts DROP COLUMN last_time`,
		`ALTER TABLE part_history DROP COLUMN first_time`, `ALTER TABLE part_history DROP COLUMN last_time`,
	} {
		if q == "" {
			storetest.ImportBeforeMove(t, &Store{w: db, r: db, now: time.Now})
			continue
		}
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, path)
	storetest.WantLegacyMoved(t, s, true)
	// The move replaced total-load/2024-04, which an import had written.
	if counts, _ := tables(t, path); counts["part_history"] != 1 {
		t.Fatalf("part_history: got %d rows, want 1", counts["part_history"])
	}
}

// TestMoveLegacyInterrupted cancels Open at every point in turn until it
// succeeds: a failed Open leaves the tables of schema 1 with all their
// rows and no part, whether it stopped before migration 3 or within it,
// or else everything moved.
func TestMoveLegacyInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "energy.db")
	db := atVersion(t, path, 1)
	storeLegacy(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	legacy := map[string]int{"clients": 0, "signing_keys": 0, "server_secrets": 0, "import_runs": 0,
		"zones": 8, "thermoelectric": 3, "total_load": 6, "peak_valley": 4}
	withParts := maps.Clone(legacy)
	withParts["parts"], withParts["part_history"] = 0, 0
	moved := map[string]int{"clients": 0, "signing_keys": 0, "server_secrets": 0, "import_runs": 0, "parts": 7, "part_history": 0}
	failed, within := 0, 0
	for n := int64(1); ; n++ {
		ctx, cancel := storetest.CancelAfter(t.Context(), n)
		s, err := Open(ctx, path)
		cancel()
		if err == nil {
			t.Cleanup(func() { s.Close() })
			storetest.WantLegacyMoved(t, s, false)
			break
		}
		failed++
		counts, v := tables(t, path)
		switch {
		case maps.Equal(counts, legacy) && v == 7:
		case maps.Equal(counts, withParts) && v == 7:
			within++ // migration 2 had committed
		case maps.Equal(counts, moved) && v == 8:
			// Migration 3 had committed; Open failed after it.
		default:
			t.Fatalf("after Open failed (%v): got tables %v at data version %d; want %v or %v at 7, or %v at 8",
				err, counts, v, legacy, withParts, moved)
		}
	}
	t.Logf("Open cancelled %d times, %d of them at schema 2", failed, within)
	// The move reads and writes dozens of statements: most points at which
	// Open stops at schema 2 are within it.
	if within < 50 {
		t.Fatalf("Open cancelled %d times at schema 2, want at least 50: the test no longer stops the move part way", within)
	}
}
