package postgres

import (
	"context"
	"maps"
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store/storetest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// storeLegacy writes storetest.LegacyData into the per-dataset tables of
// the database of pool, at schema 1 or 2.
func storeLegacy(t testing.TB, pool *pgxpool.Pool) {
	t.Helper()
	l := storetest.LegacyData(t)
	err := pgx.BeginFunc(t.Context(), pool, func(tx pgx.Tx) error {
		ctx := t.Context()
		if _, err := tx.Exec(ctx, `UPDATE versions SET version = $1, updated = $2 WHERE name = 'data'`, l.Version, l.Updated); err != nil {
			return err
		}
		for _, r := range l.Thermo {
			if _, err := tx.Exec(ctx, `INSERT INTO thermoelectric (year, capacity_type, region, province, category, subcategory, production_gwh)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, r.Year, r.CapacityType, r.Region, r.Province, r.Category, r.Subcategory, r.ProductionGWh); err != nil {
				return err
			}
		}
		for _, p := range l.Load {
			var forecast *float64
			if !math.IsNaN(p.ForecastMW) {
				forecast = &p.ForecastMW
			}
			if _, err := tx.Exec(ctx, `INSERT INTO total_load (ts, zone, total_mw, forecast_mw)
				VALUES ($1, (SELECT id FROM zones WHERE name = $2), $3, $4)`, p.At, string(p.Zone), p.TotalMW, forecast); err != nil {
				return err
			}
		}
		for source, days := range map[string][]energy.DayExtremes{"imported": l.Imported, "derived": l.Derived} {
			for _, d := range days {
				if _, err := tx.Exec(ctx, `INSERT INTO peak_valley (day, source, peak_ts, peak_gw, valley_ts, valley_gw)
					VALUES ($1::date, $2, $3, $4, $5, $6)`, d.Day.String(), source, d.Peak.At, d.Peak.GW, d.Valley.At, d.Valley.GW); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// tables returns the tables of the database at dsn and how many rows each
// holds, with the data version.
func tables(t testing.TB, dsn string) (map[string]int, int64) {
	t.Helper()
	ctx := context.WithoutCancel(t.Context())
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT tablename FROM pg_tables
		WHERE schemaname = current_schema() AND tablename NOT IN ('versions', 'schema_migrations')`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, n := range names {
		var c int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{n}.Sanitize()).Scan(&c); err != nil {
			t.Fatal(err)
		}
		counts[n] = c
	}
	var v int64
	if err := conn.QueryRow(ctx, `SELECT version FROM versions WHERE name = 'data'`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return counts, v
}

// TestMoveLegacy opens a database that an older program left at schema 1
// with data in the per-dataset tables, and checks that the data are parts
// now and the tables gone.
func TestMoveLegacy(t *testing.T) {
	dsn, pool := atVersion(t, 1)
	storeLegacy(t, pool)
	pool.Close()
	s := openStore(t, dsn)
	storetest.WantLegacyMoved(t, s, false)
	counts, _ := tables(t, dsn)
	want := map[string]int{"clients": 0, "signing_keys": 0, "server_secrets": 0, "import_runs": 0, "parts": 7, "part_history": 0}
	if !maps.Equal(counts, want) {
		t.Fatalf("tables and their rows: got %v, want %v", counts, want)
	}
}

// TestMoveLegacyUnderParts opens a database at schema 2 that holds data
// both in the per-dataset tables and in parts.
func TestMoveLegacyUnderParts(t *testing.T) {
	dsn, pool := atVersion(t, 2)
	storeLegacy(t, pool)
	// This program records import runs and parts with columns schemas 4
	// and 5 add: lend them for the import, then leave the tables as schema
	// 2 had them.
	for _, q := range []string{
		`ALTER TABLE import_runs ADD COLUMN version bigint, ADD COLUMN first_part text, ADD COLUMN last_part text`,
		`ALTER TABLE parts ADD COLUMN first_time bigint, ADD COLUMN last_time bigint`,
		`ALTER TABLE part_history ADD COLUMN first_time bigint, ADD COLUMN last_time bigint`,
		``,
		`ALTER TABLE import_runs DROP COLUMN version, DROP COLUMN first_part, DROP COLUMN last_part`,
		`ALTER TABLE parts DROP COLUMN first_time, DROP COLUMN last_time`,
		`ALTER TABLE part_history DROP COLUMN first_time, DROP COLUMN last_time`,
	} {
		if q == "" {
			storetest.ImportBeforeMove(t, &Store{pool: pool, now: time.Now})
			continue
		}
		if _, err := pool.Exec(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	pool.Close()
	s := openStore(t, dsn)
	storetest.WantLegacyMoved(t, s, true)
	// The move replaced total-load/2024-04, which an import had written.
	if counts, _ := tables(t, dsn); counts["part_history"] != 1 {
		t.Fatalf("part_history: got %d rows, want 1", counts["part_history"])
	}
}

// TestMoveLegacyInterrupted cancels Open at every point in turn until it
// succeeds: a failed Open leaves the tables of schema 1 with all their
// rows and no part, whether it stopped before migration 3 or within it,
// or else everything moved.
func TestMoveLegacyInterrupted(t *testing.T) {
	dsn, pool := atVersion(t, 1)
	storeLegacy(t, pool)
	pool.Close()
	legacy := map[string]int{"clients": 0, "signing_keys": 0, "server_secrets": 0, "import_runs": 0,
		"zones": 8, "thermoelectric": 3, "total_load": 6, "peak_valley": 4}
	withParts := maps.Clone(legacy)
	withParts["parts"], withParts["part_history"] = 0, 0
	moved := map[string]int{"clients": 0, "signing_keys": 0, "server_secrets": 0, "import_runs": 0, "parts": 7, "part_history": 0}
	failed, within := 0, 0
	for n := int64(1); ; n++ {
		ctx, cancel := storetest.CancelAfter(t.Context(), n)
		s, err := Open(ctx, dsn)
		cancel()
		if err == nil {
			t.Cleanup(func() { s.Close() })
			storetest.WantLegacyMoved(t, s, false)
			break
		}
		failed++
		counts, v := tables(t, dsn)
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
	// The move runs dozens of statements: most points at which Open stops
	// at schema 2 are within it.
	if within < 20 {
		t.Fatalf("Open cancelled %d times at schema 2, want at least 20: the test no longer stops the move part way", within)
	}
}
