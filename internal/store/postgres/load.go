package postgres

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

// copyValues returns r as COPY sends it to total_load: NaN forecast as NULL.
func copyValues(r store.LoadRow) []any {
	var forecast any
	if !math.IsNaN(r.ForecastMW) {
		forecast = r.ForecastMW
	}
	return []any{time.Unix(r.TS, 0).UTC(), r.Zone, r.TotalMW, forecast}
}

// ImportTotalLoad upserts pts on their natural key and recomputes the derived
// peak and valley of every Europe/Rome day they touch, from all the points of
// that day stored after the upsert, in one transaction. It returns an error
// with code Invalid, and stores nothing, if store.PrepareLoad refuses pts.
//
// It reads the stored points of the touched days once, lets store.DiffLoad
// compare them with the imported ones in memory (which gives the counts and
// the derived days), and sends only new and changed points, with COPY.
func (s *Store) ImportTotalLoad(ctx context.Context, pts []energy.LoadPoint) (energy.ImportStats, error) {
	started := s.now()
	rows, err := store.PrepareLoad(pts)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import total load: %w", err)
	}
	days := store.SplitDays(rows)
	var st energy.ImportStats
	err = s.update(ctx, func(tx pgx.Tx) error {
		if err := lockImports(ctx, tx); err != nil {
			return err
		}
		stored, err := storedLoad(ctx, tx, days)
		if err != nil {
			return err
		}
		var fresh, changed [][]any // rows as COPY sends them
		var derived []derivedDay
		st, err = store.DiffLoad(days,
			func(d store.Day) ([]store.LoadRow, error) {
				// stored holds exactly the rows of days, in key order, so
				// each day's are the next run of it.
				end := d.Date.End().Unix()
				n := 0
				for n < len(stored) && stored[n].TS < end {
					n++
				}
				day := stored[:n]
				stored = stored[n:]
				return day, nil
			},
			func(r store.LoadRow, c store.Change) error {
				if c == store.Inserted {
					fresh = append(fresh, copyValues(r))
				} else {
					changed = append(changed, copyValues(r))
				}
				return nil
			},
			func(d energy.Date, ext energy.DayExtremes, ok bool) error {
				derived = append(derived, derivedDay{day: d, ext: ext, ok: ok})
				return nil
			})
		if err != nil {
			return err
		}
		if err := writeRows(ctx, tx, "total_load", []string{"ts", "zone", "total_mw", "forecast_mw"},
			`(ts, zone) DO UPDATE SET total_mw = excluded.total_mw, forecast_mw = excluded.forecast_mw`,
			fresh, changed); err != nil {
			return err
		}
		changedDays, err := writeDerived(ctx, tx, derived)
		if err != nil {
			return err
		}
		return s.finishImport(ctx, tx, store.DatasetTotalLoad, started, st, len(fresh)+len(changed) > 0 || changedDays > 0)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import total load: %w", err)
	}
	return st, nil
}

// storedLoad returns the stored points of days, in key order. Consecutive
// days are asked for as one range, so a year's import is one index range
// scan.
func storedLoad(ctx context.Context, tx pgx.Tx, days []store.Day) ([]store.LoadRow, error) {
	var firsts, stops []time.Time
	for _, d := range days {
		start, end := d.Date.Start(), d.Date.End()
		if n := len(stops); n > 0 && stops[n-1].Equal(start) {
			stops[n-1] = end
			continue
		}
		firsts, stops = append(firsts, start), append(stops, end)
	}
	if len(firsts) == 0 {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `SELECT l.ts, l.zone, l.total_mw, l.forecast_mw
		FROM unnest($1::timestamptz[], $2::timestamptz[]) AS r (first, stop)
		JOIN total_load l ON l.ts >= r.first AND l.ts < r.stop`, firsts, stops)
	if err != nil {
		return nil, err
	}
	var out []store.LoadRow
	var r store.LoadRow
	var ts time.Time
	var forecast *float64
	_, err = pgx.ForEachRow(rows, []any{&ts, &r.Zone, &r.TotalMW, &forecast}, func() error {
		r.TS = ts.Unix()
		r.ForecastMW = math.NaN()
		if forecast != nil {
			r.ForecastMW = *forecast
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The ranges are disjoint and ascending, so the rows usually come in key
	// order already; sorting here spares the server a sort it cannot know
	// it may skip.
	if !slices.IsSortedFunc(out, store.CompareLoad) {
		slices.SortFunc(out, store.CompareLoad)
	}
	return out, nil
}

// derivedDay is DeriveDay's result for one day; ok is false when no instant
// of the day qualifies, and the day must then have no derived row.
type derivedDay struct {
	day energy.Date
	ext energy.DayExtremes
	ok  bool
}

// writeDerived stores the derived extremes of each day, or removes them, and
// returns how many rows it inserted, changed or deleted.
func writeDerived(ctx context.Context, tx pgx.Tx, days []derivedDay) (int64, error) {
	var keep []energy.DayExtremes
	var drop []time.Time
	for _, d := range days {
		if d.ok {
			keep = append(keep, d.ext)
		} else {
			drop = append(drop, dateValue(d.day))
		}
	}
	var changed int64
	if len(drop) > 0 {
		tag, err := tx.Exec(ctx, `DELETE FROM peak_valley WHERE source = 'derived' AND day = ANY($1::date[])`, drop)
		if err != nil {
			return 0, err
		}
		changed += tag.RowsAffected()
	}
	n, err := upsertPeakValley(ctx, tx, "derived", keep)
	return changed + n, err
}
