package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// zoneCode returns the zones table's id for z. The codes are fixed by
// migration 0001 and must never be renumbered.
func zoneCode(z energy.Zone) (int64, bool) {
	switch z {
	case energy.North:
		return 1, true
	case energy.CentreNorth:
		return 2, true
	case energy.CentreSouth:
		return 3, true
	case energy.South:
		return 4, true
	case energy.Calabria:
		return 5, true
	case energy.Sicily:
		return 6, true
	case energy.Sardinia:
		return 7, true
	case energy.Italy:
		return 8, true
	}
	return 0, false
}

// zoneOf is the inverse of zoneCode.
func zoneOf(code int64) (energy.Zone, bool) {
	zs := [...]energy.Zone{"", energy.North, energy.CentreNorth, energy.CentreSouth, energy.South,
		energy.Calabria, energy.Sicily, energy.Sardinia, energy.Italy}
	if code < 1 || code >= int64(len(zs)) {
		return "", false
	}
	return zs[code], true
}

// loadRow is a total-load point as the table stores it.
type loadRow struct {
	ts       int64 // Unix seconds
	zone     int64 // zoneCode
	total    float64
	forecast float64 // NaN for NULL
}

func compareLoadKey(a, b loadRow) int {
	return cmp.Or(cmp.Compare(a.ts, b.ts), cmp.Compare(a.zone, b.zone))
}

// sameValues reports whether a and b store the same numbers. Floats compare
// exactly: a re-import of the same file yields the same bits.
func (a loadRow) sameValues(b loadRow) bool {
	return a.total == b.total &&
		(a.forecast == b.forecast || math.IsNaN(a.forecast) && math.IsNaN(b.forecast))
}

func (a loadRow) point() energy.LoadPoint {
	z, _ := zoneOf(a.zone)
	return energy.LoadPoint{At: time.Unix(a.ts, 0), Zone: z, TotalMW: a.total, ForecastMW: a.forecast}
}

func nullFloat(f float64) sql.NullFloat64 {
	return sql.NullFloat64{Float64: f, Valid: !math.IsNaN(f)}
}

// ImportTotalLoad upserts pts on their natural key and recomputes the derived
// peak and valley of every Europe/Rome day they touch, from all the points of
// that day stored after the upsert, in one transaction. It returns an error
// with code Invalid, and stores nothing, if a zone is unknown, a total is not
// a finite number, a forecast is infinite, or two points share a key.
func (s *Store) ImportTotalLoad(ctx context.Context, pts []energy.LoadPoint) (energy.ImportStats, error) {
	started := s.now()
	rows, err := sortLoad(pts)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import total load: %w", err)
	}
	st := energy.ImportStats{Read: len(pts)}
	err = s.update(ctx, func(tx *sql.Tx) error {
		stored, err := tx.PrepareContext(ctx, `SELECT ts, zone, total_mw, forecast_mw
			FROM total_load WHERE ts >= ? AND ts < ? ORDER BY ts, zone`)
		if err != nil {
			return err
		}
		defer stored.Close()
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

		var buf []loadRow
		var day []energy.LoadPoint // the day's points after the upsert, for DeriveDay
		for i := 0; i < len(rows); {
			// rows are sorted by time, so each Rome day is one run of them.
			d := energy.DateOf(time.Unix(rows[i].ts, 0))
			start, end := d.Start().Unix(), d.End().Unix()
			j := i + 1
			for j < len(rows) && rows[j].ts < end {
				j++
			}
			if buf, err = storedLoad(ctx, stored, start, end, buf[:0]); err != nil {
				return err
			}
			day, err = mergeDay(ctx, rows[i:j], buf, &st, upsert, day[:0])
			if err != nil {
				return err
			}
			if err := derived.write(ctx, d, day); err != nil {
				return err
			}
			i = j
		}
		if err := upsert.flush(ctx); err != nil {
			return err
		}
		changed := st.Inserted+st.Updated > 0 || derived.changed > 0
		return s.finishImport(ctx, tx, datasetTotalLoad, started, st, changed)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("sqlite: import total load: %w", err)
	}
	return st, nil
}

// mergeDay walks one day's imported rows and stored rows, both in key order.
// It counts each imported row in st, queues the new and changed ones on
// upsert, and appends to day every point the day will hold afterwards.
func mergeDay(ctx context.Context, imported, stored []loadRow, st *energy.ImportStats, upsert *batch, day []energy.LoadPoint) ([]energy.LoadPoint, error) {
	a, b := 0, 0 // next imported, next stored
	for a < len(imported) || b < len(stored) {
		var c int
		switch {
		case b == len(stored):
			c = -1
		case a == len(imported):
			c = 1
		default:
			c = compareLoadKey(imported[a], stored[b])
		}
		if c > 0 { // stored, not in this import: kept as is
			day = append(day, stored[b].point())
			b++
			continue
		}
		r := imported[a]
		a++
		day = append(day, r.point())
		if c == 0 {
			same := r.sameValues(stored[b])
			b++
			if same {
				st.Unchanged++
				continue
			}
			st.Updated++
		} else {
			st.Inserted++
		}
		if err := upsert.add(ctx, r.ts, r.zone, r.total, nullFloat(r.forecast)); err != nil {
			return nil, err
		}
	}
	return day, nil
}

// sortLoad validates pts and returns them as rows in key order, which is the
// table's order, so that inserts append to the B-tree and each Rome day is
// one run of rows.
func sortLoad(pts []energy.LoadPoint) ([]loadRow, error) {
	rows := make([]loadRow, len(pts))
	for i, p := range pts {
		z, ok := zoneCode(p.Zone)
		if !ok {
			return nil, energy.Errorf(energy.Invalid, "total load %s: unknown zone %q", instant(p.At), p.Zone)
		}
		if math.IsNaN(p.TotalMW) || math.IsInf(p.TotalMW, 0) {
			return nil, energy.Errorf(energy.Invalid, "total load %s %s: total is not a finite number", instant(p.At), p.Zone)
		}
		if math.IsInf(p.ForecastMW, 0) {
			return nil, energy.Errorf(energy.Invalid, "total load %s %s: forecast is infinite", instant(p.At), p.Zone)
		}
		rows[i] = loadRow{ts: p.At.Unix(), zone: z, total: p.TotalMW, forecast: p.ForecastMW}
	}
	// Importers usually hand over points in time order already.
	if !slices.IsSortedFunc(rows, compareLoadKey) {
		slices.SortFunc(rows, compareLoadKey)
	}
	for i := 1; i < len(rows); i++ {
		if compareLoadKey(rows[i-1], rows[i]) == 0 {
			p := rows[i].point()
			return nil, energy.Errorf(energy.Invalid, "total load %s %s appears twice", instant(p.At), p.Zone)
		}
	}
	return rows, nil
}

// instant formats t for error messages as the API shows it, in Rome time.
func instant(t time.Time) string {
	return t.In(energy.Rome()).Format(time.RFC3339)
}

// storedLoad appends to buf the stored points with start <= ts < end, in key
// order.
func storedLoad(ctx context.Context, st *sql.Stmt, start, end int64, buf []loadRow) ([]loadRow, error) {
	rows, err := st.QueryContext(ctx, start, end)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r loadRow
		var f sql.NullFloat64
		if err := rows.Scan(&r.ts, &r.zone, &r.total, &f); err != nil {
			return nil, err
		}
		r.forecast = math.NaN()
		if f.Valid {
			r.forecast = f.Float64
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

// write stores the derived extremes of day d from pts, all of d's stored
// points, or removes them when no instant of d qualifies.
func (w *derivedWriter) write(ctx context.Context, d energy.Date, pts []energy.LoadPoint) error {
	var res sql.Result
	var err error
	if ext, ok := energy.DeriveDay(d, pts); ok {
		res, err = w.upsert.ExecContext(ctx, d.String(),
			ext.Peak.At.Unix(), ext.Peak.GW, ext.Valley.At.Unix(), ext.Valley.GW)
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
