package postgres

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/jackc/pgx/v5"
)

// zoneCode returns the zones table's id for z. The codes are fixed by
// migration 0001, match the SQLite store's, and must never be renumbered.
func zoneCode(z energy.Zone) (int16, bool) {
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
func zoneOf(code int16) (energy.Zone, bool) {
	zs := [...]energy.Zone{"", energy.North, energy.CentreNorth, energy.CentreSouth, energy.South,
		energy.Calabria, energy.Sicily, energy.Sardinia, energy.Italy}
	if code < 1 || int(code) >= len(zs) {
		return "", false
	}
	return zs[code], true
}

// loadRow is a total-load point as the table stores it.
type loadRow struct {
	ts       int64 // Unix seconds
	zone     int16 // zoneCode
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

// values returns the row as COPY sends it: NaN forecast as NULL.
func (a loadRow) values() []any {
	var forecast any
	if !math.IsNaN(a.forecast) {
		forecast = a.forecast
	}
	return []any{time.Unix(a.ts, 0).UTC(), a.zone, a.total, forecast}
}

// dayRun is one Rome day's imported rows, rows[i:j].
type dayRun struct {
	day  energy.Date
	i, j int
}

// ImportTotalLoad upserts pts on their natural key and recomputes the derived
// peak and valley of every Europe/Rome day they touch, from all the points of
// that day stored after the upsert, in one transaction. It returns an error
// with code Invalid, and stores nothing, if a zone is unknown, a total is not
// a finite number, a forecast is infinite, or two points share a key.
//
// It reads the stored points of the touched days once, compares them with
// the imported ones in memory (which gives the counts and each day's points
// for DeriveDay), and sends only new and changed points, with COPY.
func (s *Store) ImportTotalLoad(ctx context.Context, pts []energy.LoadPoint) (energy.ImportStats, error) {
	started := s.now()
	rows, err := sortLoad(pts)
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import total load: %w", err)
	}
	runs := dayRuns(rows)
	st := energy.ImportStats{Read: len(pts)}
	err = s.update(ctx, func(tx pgx.Tx) error {
		if err := lockImports(ctx, tx); err != nil {
			return err
		}
		stored, err := storedLoad(ctx, tx, runs)
		if err != nil {
			return err
		}
		var fresh, changed [][]any // rows as COPY sends them
		var derived []derivedDay
		var day []energy.LoadPoint // one day's points after the upsert, for DeriveDay
		k := 0                     // next stored row
		for _, run := range runs {
			end := run.day.End().Unix()
			l := k
			for l < len(stored) && stored[l].ts < end {
				l++
			}
			day = mergeDay(rows[run.i:run.j], stored[k:l], &st, &fresh, &changed, day[:0])
			k = l
			ext, ok := energy.DeriveDay(run.day, day)
			derived = append(derived, derivedDay{day: run.day, ext: ext, ok: ok})
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
		return s.finishImport(ctx, tx, datasetTotalLoad, started, st, len(fresh)+len(changed) > 0 || changedDays > 0)
	})
	if err != nil {
		return energy.ImportStats{}, fmt.Errorf("postgres: import total load: %w", err)
	}
	return st, nil
}

// mergeDay walks one day's imported rows and stored rows, both in key order.
// It counts each imported row in st, appends the new ones to fresh and the
// changed ones to changed, and appends to day every point the day will hold
// afterwards.
func mergeDay(imported, stored []loadRow, st *energy.ImportStats, fresh, changed *[][]any, day []energy.LoadPoint) []energy.LoadPoint {
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
			*changed = append(*changed, r.values())
		} else {
			st.Inserted++
			*fresh = append(*fresh, r.values())
		}
	}
	return day
}

// sortLoad validates pts and returns them as rows in key order, in which
// each Rome day is one run of rows.
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

// dayRuns splits rows, in key order, into one run per Rome day.
func dayRuns(rows []loadRow) []dayRun {
	var runs []dayRun
	for i := 0; i < len(rows); {
		d := energy.DateOf(time.Unix(rows[i].ts, 0))
		end := d.End().Unix()
		j := i + 1
		for j < len(rows) && rows[j].ts < end {
			j++
		}
		runs = append(runs, dayRun{day: d, i: i, j: j})
		i = j
	}
	return runs
}

// instant formats t for error messages as the API shows it, in Rome time.
func instant(t time.Time) string {
	return t.In(energy.Rome()).Format(time.RFC3339)
}

// storedLoad returns the stored points of the days of runs, in key order.
// Consecutive days are asked for as one range, so a year's import is one
// index range scan.
func storedLoad(ctx context.Context, tx pgx.Tx, runs []dayRun) ([]loadRow, error) {
	var firsts, stops []time.Time
	for _, r := range runs {
		start, end := r.day.Start(), r.day.End()
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
	var out []loadRow
	var r loadRow
	var ts time.Time
	var forecast *float64
	_, err = pgx.ForEachRow(rows, []any{&ts, &r.zone, &r.total, &forecast}, func() error {
		r.ts = ts.Unix()
		r.forecast = math.NaN()
		if forecast != nil {
			r.forecast = *forecast
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
	if !slices.IsSortedFunc(out, compareLoadKey) {
		slices.SortFunc(out, compareLoadKey)
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
