package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
	"github.com/jackc/pgx/v5"
)

// ImportPeakValley upserts published daily peaks and valleys, which readers
// prefer over the ones derived from total load, in one transaction. Instants
// are kept to the second. It returns an error with code Invalid, and stores
// nothing, if store.PreparePeakValley refuses days.
func (s *Store) ImportPeakValley(ctx context.Context, days []energy.DayExtremes) (energy.ImportStats, error) {
	started := s.now()
	sorted, err := store.PreparePeakValley(days)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import peak valley: %w", err)
	}
	var st energy.ImportStats
	err = s.update(ctx, func(tx pgx.Tx) error {
		if err := lockImports(ctx, tx); err != nil {
			return err
		}
		var stored map[energy.Date]store.PVRow
		if len(sorted) > 0 {
			stored, err = storedPeakValley(ctx, tx, sorted[0].Day, sorted[len(sorted)-1].Day)
			if err != nil {
				return err
			}
		}
		var write []energy.DayExtremes
		st, err = store.DiffPeakValley(sorted, stored, func(d energy.DayExtremes, _ store.Change) error {
			write = append(write, d)
			return nil
		})
		if err != nil {
			return err
		}
		if _, err := upsertPeakValley(ctx, tx, "imported", write); err != nil {
			return err
		}
		return s.finishImport(ctx, tx, store.DatasetPeakValley, started, st, len(write) > 0)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import peak valley: %w", err)
	}
	return st, nil
}

// storedPeakValley returns the imported rows of the days from first to last.
func storedPeakValley(ctx context.Context, tx pgx.Tx, first, last energy.Date) (map[energy.Date]store.PVRow, error) {
	rows, err := tx.Query(ctx, `SELECT day, peak_ts, peak_gw, valley_ts, valley_gw FROM peak_valley
		WHERE source = 'imported' AND day BETWEEN $1 AND $2`, dateValue(first), dateValue(last))
	if err != nil {
		return nil, err
	}
	stored := make(map[energy.Date]store.PVRow)
	var day, peak, valley time.Time
	var v store.PVRow
	_, err = pgx.ForEachRow(rows, []any{&day, &peak, &v.PeakGW, &valley, &v.ValleyGW}, func() error {
		v.PeakTS, v.ValleyTS = peak.Unix(), valley.Unix()
		stored[dateOf(day)] = v
		return nil
	})
	return stored, err
}

// upsertPeakValley writes days as rows of the given source and returns how
// many rows it inserted or changed: an identical stored row is left alone and
// not counted, so that an idempotent re-import leaves the data version as it
// was. The days travel as arrays in one statement: there are at most a few
// thousand, too few for COPY to pay for its staging table.
func upsertPeakValley(ctx context.Context, tx pgx.Tx, source string, days []energy.DayExtremes) (int64, error) {
	if len(days) == 0 {
		return 0, nil
	}
	dates := make([]time.Time, len(days))
	peakTS := make([]time.Time, len(days))
	peakGW := make([]float64, len(days))
	valleyTS := make([]time.Time, len(days))
	valleyGW := make([]float64, len(days))
	for i, d := range days {
		v := store.PVRowOf(d) // instants to the second
		dates[i] = dateValue(d.Day)
		peakTS[i], peakGW[i] = time.Unix(v.PeakTS, 0).UTC(), v.PeakGW
		valleyTS[i], valleyGW[i] = time.Unix(v.ValleyTS, 0).UTC(), v.ValleyGW
	}
	tag, err := tx.Exec(ctx, `INSERT INTO peak_valley (day, source, peak_ts, peak_gw, valley_ts, valley_gw)
		SELECT d, $1, pt, pg, vt, vg
		FROM unnest($2::date[], $3::timestamptz[], $4::float8[], $5::timestamptz[], $6::float8[]) AS u (d, pt, pg, vt, vg)
		ON CONFLICT (day, source) DO UPDATE SET
			peak_ts = excluded.peak_ts, peak_gw = excluded.peak_gw,
			valley_ts = excluded.valley_ts, valley_gw = excluded.valley_gw
		WHERE (peak_valley.peak_ts, peak_valley.peak_gw, peak_valley.valley_ts, peak_valley.valley_gw)
			IS DISTINCT FROM (excluded.peak_ts, excluded.peak_gw, excluded.valley_ts, excluded.valley_gw)`,
		source, dates, peakTS, peakGW, valleyTS, valleyGW)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

// dateValue returns d as pgx encodes a date: midnight UTC of that day.
func dateValue(d energy.Date) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

// dateOf is the inverse of dateValue for a date PostgreSQL returned.
func dateOf(t time.Time) energy.Date {
	return energy.Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}
}
