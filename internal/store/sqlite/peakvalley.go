package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// pvRow is a peak_valley row's values.
type pvRow struct {
	peakTS   int64
	peakGW   float64
	valleyTS int64
	valleyGW float64
}

func pvRowOf(d energy.DayExtremes) pvRow {
	return pvRow{d.Peak.At.Unix(), d.Peak.GW, d.Valley.At.Unix(), d.Valley.GW}
}

// ImportPeakValley upserts published daily peaks and valleys, which readers
// prefer over the ones derived from total load, in one transaction. Instants
// are kept to the second. It returns an error with code Invalid, and stores
// nothing, if a day is not a calendar day, a value is not a finite number, or
// two entries share a day.
func (s *Store) ImportPeakValley(ctx context.Context, days []energy.DayExtremes) (energy.ImportStats, error) {
	started := s.now()
	sorted, err := sortPeakValley(days)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import peak valley: %w", err)
	}
	st := energy.ImportStats{Read: len(days)}
	err = s.update(ctx, func(tx *sql.Tx) error {
		var stored map[string]pvRow
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
		for _, d := range sorted {
			day, v := d.Day.String(), pvRowOf(d)
			old, ok := stored[day]
			switch {
			case !ok:
				st.Inserted++
			case old != v:
				st.Updated++
			default:
				st.Unchanged++
				continue
			}
			if err := upsert.add(ctx, day, v.peakTS, v.peakGW, v.valleyTS, v.valleyGW); err != nil {
				return err
			}
		}
		if err := upsert.flush(ctx); err != nil {
			return err
		}
		return s.finishImport(ctx, tx, datasetPeakValley, started, st, st.Inserted+st.Updated > 0)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import peak valley: %w", err)
	}
	return st, nil
}

func sortPeakValley(days []energy.DayExtremes) ([]energy.DayExtremes, error) {
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	for _, d := range days {
		if _, ok := energy.NewDate(d.Day.Year, d.Day.Month, d.Day.Day); !ok {
			return nil, energy.Errorf(energy.Invalid, "peak valley: %d-%d-%d is not a calendar day", d.Day.Year, d.Day.Month, d.Day.Day)
		}
		if !finite(d.Peak.GW) || !finite(d.Valley.GW) {
			return nil, energy.Errorf(energy.Invalid, "peak valley %s: load is not a finite number", d.Day)
		}
	}
	sorted := slices.Clone(days)
	slices.SortFunc(sorted, func(a, b energy.DayExtremes) int { return a.Day.Compare(b.Day) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Day == sorted[i-1].Day {
			return nil, energy.Errorf(energy.Invalid, "peak valley %s appears twice", sorted[i].Day)
		}
	}
	return sorted, nil
}

// storedPeakValley returns the imported rows of the days from first to last.
func storedPeakValley(ctx context.Context, tx *sql.Tx, first, last energy.Date) (map[string]pvRow, error) {
	// yyyy-mm-dd text sorts as the days do.
	rows, err := tx.QueryContext(ctx, `SELECT day, peak_ts, peak_gw, valley_ts, valley_gw FROM peak_valley
		WHERE source = 'imported' AND day BETWEEN ? AND ?`, first.String(), last.String())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	stored := make(map[string]pvRow)
	for rows.Next() {
		var day string
		var v pvRow
		if err := rows.Scan(&day, &v.peakTS, &v.peakGW, &v.valleyTS, &v.valleyGW); err != nil {
			return nil, err
		}
		stored[day] = v
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
