package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// DataVersion returns a number that changes whenever an import commits a
// change to the served data.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	v, err := readVersion(ctx, s.r, "data")
	if err != nil {
		return 0, fmt.Errorf("sqlite: data version: %w", err)
	}
	return v, nil
}

// ReadData returns all served data and its version from one snapshot: an
// import that commits meanwhile is either wholly in the result or not at all.
// Thermoelectric records come in key order (strings by bytes); peaks and
// valleys one per day, imported over derived, by day. Instants are in
// Europe/Rome.
func (s *Store) ReadData(ctx context.Context) (energy.Data, error) {
	var d energy.Data
	err := s.view(ctx, func(tx *sql.Tx) error {
		var updated sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT version, updated FROM versions WHERE name = 'data'`).
			Scan(&d.Version, &updated)
		if err != nil {
			return err
		}
		d.Updated = fromMicro(updated)
		if d.Thermo, err = readThermo(ctx, tx); err != nil {
			return err
		}
		d.PeakValley, err = readPeakValley(ctx, tx)
		return err
	})
	if err != nil {
		return energy.Data{}, fmt.Errorf("sqlite: read data: %w", err)
	}
	return d, nil
}

func readThermo(ctx context.Context, tx *sql.Tx) ([]energy.ThermoRecord, error) {
	rows, err := tx.QueryContext(ctx, `SELECT year, capacity_type, region, province, category, subcategory, production_gwh
		FROM thermoelectric ORDER BY year, capacity_type, region, province, category, subcategory`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var recs []energy.ThermoRecord
	for rows.Next() {
		var r energy.ThermoRecord
		if err := rows.Scan(&r.Year, &r.CapacityType, &r.Region, &r.Province, &r.Category, &r.Subcategory, &r.ProductionGWh); err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	return recs, rows.Err()
}

func readPeakValley(ctx context.Context, tx *sql.Tx) ([]energy.DayExtremes, error) {
	// For each day the imported row sorts first; the derived one, if any, is skipped.
	rows, err := tx.QueryContext(ctx, `SELECT day, peak_ts, peak_gw, valley_ts, valley_gw FROM peak_valley
		ORDER BY day, source = 'imported' DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var days []energy.DayExtremes
	var last string
	for rows.Next() {
		var day string
		var v store.PVRow
		if err := rows.Scan(&day, &v.PeakTS, &v.PeakGW, &v.ValleyTS, &v.ValleyGW); err != nil {
			return nil, err
		}
		if day == last {
			continue
		}
		last = day
		d, err := parseDay(day)
		if err != nil {
			return nil, err
		}
		days = append(days, v.Extremes(d))
	}
	return days, rows.Err()
}

// ImportTotals sums the committed imports of each dataset that has any, by
// dataset name.
func (s *Store) ImportTotals(ctx context.Context) ([]energy.ImportTotal, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT dataset, count(*), sum(rows_read), max(finished)
		FROM import_runs GROUP BY dataset ORDER BY dataset`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: import totals: %w", err)
	}
	defer rows.Close()
	var ts []energy.ImportTotal
	for rows.Next() {
		var t energy.ImportTotal
		var last int64
		if err := rows.Scan(&t.Dataset, &t.Runs, &t.Rows, &last); err != nil {
			return nil, fmt.Errorf("sqlite: import totals: %w", err)
		}
		t.Last = time.UnixMicro(last).UTC()
		ts = append(ts, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: import totals: %w", err)
	}
	return ts, nil
}
