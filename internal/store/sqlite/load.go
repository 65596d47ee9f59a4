package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

func nullFloat(f float64) sql.NullFloat64 {
	return sql.NullFloat64{Float64: f, Valid: !math.IsNaN(f)}
}

// ImportTotalLoad upserts pts on their natural key and recomputes the derived
// peak and valley of every Europe/Rome day they touch, from all the points of
// that day stored after the upsert, in one transaction. It returns an error
// with code Invalid, and stores nothing, if store.PrepareLoad refuses pts.
//
// It reads the stored points day by day, as store.DiffLoad asks for them,
// and writes new and changed points through one multi-row upsert.
func (s *Store) ImportTotalLoad(ctx context.Context, pts []energy.LoadPoint) (energy.ImportStats, error) {
	started := s.now()
	rows, err := store.PrepareLoad(pts)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import total load: %w", err)
	}
	days := store.SplitDays(rows)
	var st energy.ImportStats
	err = s.update(ctx, func(tx *sql.Tx) error {
		storedStmt, err := tx.PrepareContext(ctx, `SELECT ts, zone, total_mw, forecast_mw
			FROM total_load WHERE ts >= ? AND ts < ? ORDER BY ts, zone`)
		if err != nil {
			return err
		}
		defer storedStmt.Close()
		upsert := newBatch(tx,
			`INSERT INTO total_load (ts, zone, total_mw, forecast_mw) VALUES`,
			`(?, ?, ?, ?)`,
			`ON CONFLICT (ts, zone) DO UPDATE SET total_mw = excluded.total_mw, forecast_mw = excluded.forecast_mw`)
		defer upsert.close()
		derived, err := newDerivedWriter(ctx, tx)
		if err != nil {
			return err
		}
		defer derived.close()

		var buf []store.LoadRow // one day's stored rows, reused
		st, err = store.DiffLoad(days,
			func(d store.Day) ([]store.LoadRow, error) {
				var err error
				buf, err = storedLoad(ctx, storedStmt, d.Date.Start().Unix(), d.Date.End().Unix(), buf[:0])
				return buf, err
			},
			func(r store.LoadRow, _ store.Change) error {
				// The zone goes as int64, the type database/sql passes on
				// without reflection.
				return upsert.add(ctx, r.TS, int64(r.Zone), r.TotalMW, nullFloat(r.ForecastMW))
			},
			func(d energy.Date, ext energy.DayExtremes, ok bool) error {
				return derived.write(ctx, d, ext, ok)
			})
		if err != nil {
			return err
		}
		if err := upsert.flush(ctx); err != nil {
			return err
		}
		changed := st.Inserted+st.Updated > 0 || derived.changed > 0
		return s.finishImport(ctx, tx, store.DatasetTotalLoad, started, st, changed)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import total load: %w", err)
	}
	return st, nil
}

// storedLoad appends to buf the stored points with start <= ts < end, in key
// order.
func storedLoad(ctx context.Context, st *sql.Stmt, start, end int64, buf []store.LoadRow) ([]store.LoadRow, error) {
	rows, err := st.QueryContext(ctx, start, end)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	// The scan targets live outside the loop: Scan's arguments escape, so
	// targets declared per row would cost allocations per row.
	var r store.LoadRow
	var zone int64 // scanning into int64 needs no reflection
	var f sql.NullFloat64
	dest := []any{&r.TS, &zone, &r.TotalMW, &f}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		r.Zone = int16(zone) // the foreign key to zones keeps it small
		r.ForecastMW = math.NaN()
		if f.Valid {
			r.ForecastMW = f.Float64
		}
		buf = append(buf, r)
	}
	return buf, rows.Err()
}

// derivedWriter stores DeriveDay's results as the 'derived' rows of
// peak_valley.
type derivedWriter struct {
	upsert, remove *sql.Stmt
	changed        int64 // rows inserted, changed or deleted
}

func newDerivedWriter(ctx context.Context, tx *sql.Tx) (*derivedWriter, error) {
	// The WHERE clause skips rewriting an identical row, so that changed
	// counts only real changes and an idempotent re-import leaves the data
	// version alone.
	upsert, err := tx.PrepareContext(ctx, `INSERT INTO peak_valley
		(day, source, peak_ts, peak_gw, valley_ts, valley_gw) VALUES (?, 'derived', ?, ?, ?, ?)
		ON CONFLICT (day, source) DO UPDATE SET
			peak_ts = excluded.peak_ts, peak_gw = excluded.peak_gw,
			valley_ts = excluded.valley_ts, valley_gw = excluded.valley_gw
		WHERE (peak_ts, peak_gw, valley_ts, valley_gw)
			IS NOT (excluded.peak_ts, excluded.peak_gw, excluded.valley_ts, excluded.valley_gw)`)
	if err != nil {
		return nil, err
	}
	remove, err := tx.PrepareContext(ctx, `DELETE FROM peak_valley WHERE day = ? AND source = 'derived'`)
	if err != nil {
		upsert.Close()
		return nil, err
	}
	return &derivedWriter{upsert: upsert, remove: remove}, nil
}

// write stores ext as the derived extremes of day d, or removes d's derived
// row when ok is false (no instant of d qualifies).
func (w *derivedWriter) write(ctx context.Context, d energy.Date, ext energy.DayExtremes, ok bool) error {
	var res sql.Result
	var err error
	if ok {
		v := store.PVRowOf(ext)
		res, err = w.upsert.ExecContext(ctx, d.String(), v.PeakTS, v.PeakGW, v.ValleyTS, v.ValleyGW)
	} else {
		res, err = w.remove.ExecContext(ctx, d.String())
	}
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	w.changed += n
	return err
}

func (w *derivedWriter) close() {
	w.upsert.Close()
	w.remove.Close()
}
