package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

// DataVersion returns a number that changes whenever an import commits a
// change to the served data.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	v, err := s.readVersion(ctx, "data")
	if err != nil {
		return 0, fmt.Errorf("postgres: data version: %w", err)
	}
	return v, nil
}

// ReadData returns all served data and its version from one snapshot (a
// read-only REPEATABLE READ transaction): an import that commits meanwhile
// is either wholly in the result or not at all. Thermoelectric records come
// in key order (strings by bytes); peaks and valleys one per day, imported
// over derived, by day. Instants are in Europe/Rome.
func (s *Store) ReadData(ctx context.Context) (energy.Data, error) {
	var d energy.Data
	err := s.view(ctx, func(tx pgx.Tx) error {
		var updated *time.Time
		err := tx.QueryRow(ctx, `SELECT version, updated FROM versions WHERE name = 'data'`).Scan(&d.Version, &updated)
		if err != nil {
			return err
		}
		d.Updated = utc(updated)
		if d.Thermo, err = readThermo(ctx, tx); err != nil {
			return err
		}
		d.PeakValley, err = readPeakValley(ctx, tx)
		return err
	})
	if err != nil {
		return energy.Data{}, fmt.Errorf("postgres: read data: %w", err)
	}
	return d, nil
}

func readThermo(ctx context.Context, tx pgx.Tx) ([]energy.ThermoRecord, error) {
	// The key columns are COLLATE "C": byte order, as in SQLite.
	rows, err := tx.Query(ctx, `SELECT year, capacity_type, region, province, category, subcategory, production_gwh
		FROM thermoelectric ORDER BY year, capacity_type, region, province, category, subcategory`)
	if err != nil {
		return nil, err
	}
	var recs []energy.ThermoRecord
	var r energy.ThermoRecord
	_, err = pgx.ForEachRow(rows, []any{&r.Year, &r.CapacityType, &r.Region, &r.Province, &r.Category, &r.Subcategory, &r.ProductionGWh}, func() error {
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

func readPeakValley(ctx context.Context, tx pgx.Tx) ([]energy.DayExtremes, error) {
	// DISTINCT ON keeps the first row of each day: the imported one, if any.
	rows, err := tx.Query(ctx, `SELECT DISTINCT ON (day) day, peak_ts, peak_gw, valley_ts, valley_gw
		FROM peak_valley ORDER BY day, source = 'imported' DESC`)
	if err != nil {
		return nil, err
	}
	var days []energy.DayExtremes
	var day, peak, valley time.Time
	var v store.PVRow
	_, err = pgx.ForEachRow(rows, []any{&day, &peak, &v.PeakGW, &valley, &v.ValleyGW}, func() error {
		v.PeakTS, v.ValleyTS = peak.Unix(), valley.Unix() // stored to the second
		days = append(days, v.Extremes(dateOf(day)))
		return nil
	})
	return days, err
}

// ImportTotals sums the committed imports of each dataset that has any, by
// dataset name.
func (s *Store) ImportTotals(ctx context.Context) ([]energy.ImportTotal, error) {
	// sum(bigint) is numeric in PostgreSQL; the cast brings it back to int64.
	rows, err := s.pool.Query(ctx, `SELECT dataset, count(*), sum(rows_read)::bigint, max(finished)
		FROM import_runs GROUP BY dataset ORDER BY dataset`)
	if err != nil {
		return nil, fmt.Errorf("postgres: import totals: %w", err)
	}
	var ts []energy.ImportTotal
	var t energy.ImportTotal
	_, err = pgx.ForEachRow(rows, []any{&t.Dataset, &t.Runs, &t.Rows, &t.Last}, func() error {
		t.Last = t.Last.UTC()
		ts = append(ts, t)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: import totals: %w", err)
	}
	return ts, nil
}
