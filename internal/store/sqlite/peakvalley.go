package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

// ImportPeakValley upserts published daily peaks and valleys, which readers
// prefer over the ones derived from total load, in one transaction. Instants
// are kept to the second. It returns an error with code Invalid, and stores
// nothing, if store.PreparePeakValley refuses days.
func (s *Store) ImportPeakValley(ctx context.Context, days []energy.DayExtremes) (energy.ImportStats, error) {
	started := s.now()
	sorted, err := store.PreparePeakValley(days)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import peak valley: %w", err)
	}
	var st energy.ImportStats
	err = s.update(ctx, func(tx *sql.Tx) error {
		var stored map[energy.Date]store.PVRow
		if len(sorted) > 0 {
			stored, err = storedPeakValley(ctx, tx, sorted[0].Day, sorted[len(sorted)-1].Day)
			if err != nil {
				return err
			}
		}
		upsert := newBatch(tx,
			`INSERT INTO peak_valley (day, source, peak_ts, peak_gw, valley_ts, valley_gw) VALUES`,
			`(?, 'imported', ?, ?, ?, ?)`,
			`ON CONFLICT (day, source) DO UPDATE SET
				peak_ts = excluded.peak_ts, peak_gw = excluded.peak_gw,
				valley_ts = excluded.valley_ts, valley_gw = excluded.valley_gw`)
		defer upsert.close()
		st, err = store.DiffPeakValley(sorted, stored, func(d energy.DayExtremes, _ store.Change) error {
			v := store.PVRowOf(d)
			return upsert.add(ctx, d.Day.String(), v.PeakTS, v.PeakGW, v.ValleyTS, v.ValleyGW)
		})
		if err != nil {
			return err
		}
		if err := upsert.flush(ctx); err != nil {
			return err
		}
		return s.finishImport(ctx, tx, store.DatasetPeakValley, started, st, st.Inserted+st.Updated > 0)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import peak valley: %w", err)
	}
	return st, nil
}

// storedPeakValley returns the imported rows of the days from first to last.
func storedPeakValley(ctx context.Context, tx *sql.Tx, first, last energy.Date) (map[energy.Date]store.PVRow, error) {
	// yyyy-mm-dd text sorts as the days do.
	rows, err := tx.QueryContext(ctx, `SELECT day, peak_ts, peak_gw, valley_ts, valley_gw FROM peak_valley
		WHERE source = 'imported' AND day BETWEEN ? AND ?`, first.String(), last.String())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	stored := make(map[energy.Date]store.PVRow)
	for rows.Next() {
		var day string
		var v store.PVRow
		if err := rows.Scan(&day, &v.PeakTS, &v.PeakGW, &v.ValleyTS, &v.ValleyGW); err != nil {
			return nil, err
		}
		d, err := parseDay(day)
		if err != nil {
			return nil, err
		}
		stored[d] = v
	}
	return stored, rows.Err()
}

// parseDay parses a peak_valley day.
func parseDay(s string) (energy.Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return energy.Date{}, fmt.Errorf("day %q: %w", s, err)
	}
	d, _ := energy.NewDate(t.Year(), t.Month(), t.Day()) // time.Parse has checked the day
	return d, nil
}
