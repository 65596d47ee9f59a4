package store

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// ZoneCode returns the code under which both schemas store z: the id of its
// row in the zones table. Migration 0001 of each store fixes the codes, so
// they must never be renumbered.
func ZoneCode(z energy.Zone) (int16, bool) {
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

// ZoneOf is the inverse of ZoneCode.
func ZoneOf(code int16) (energy.Zone, bool) {
	zs := [...]energy.Zone{"", energy.North, energy.CentreNorth, energy.CentreSouth, energy.South,
		energy.Calabria, energy.Sicily, energy.Sardinia, energy.Italy}
	if code < 1 || int(code) >= len(zs) {
		return "", false
	}
	return zs[code], true
}

// LoadRow is a total-load point as both stores keep it.
type LoadRow struct {
	TS         int64 // the start of the quarter hour, Unix seconds
	Zone       int16 // ZoneCode
	TotalMW    float64
	ForecastMW float64 // NaN for none (NULL)
}

// CompareLoad orders rows by their key, instant then zone code: the order
// of both tables' primary key.
func CompareLoad(a, b LoadRow) int {
	return cmp.Or(cmp.Compare(a.TS, b.TS), cmp.Compare(a.Zone, b.Zone))
}

// SameValues reports whether a and b hold the same numbers. Floats compare
// exactly: a re-import of the same file yields the same bits. Two NaN
// forecasts (none) are the same.
func (a LoadRow) SameValues(b LoadRow) bool {
	return a.TotalMW == b.TotalMW &&
		(a.ForecastMW == b.ForecastMW || math.IsNaN(a.ForecastMW) && math.IsNaN(b.ForecastMW))
}

// Point returns the row as a LoadPoint.
func (a LoadRow) Point() energy.LoadPoint {
	z, _ := ZoneOf(a.Zone)
	return energy.LoadPoint{At: time.Unix(a.TS, 0), Zone: z, TotalMW: a.TotalMW, ForecastMW: a.ForecastMW}
}

// PrepareLoad validates pts and returns them as rows in key order
// (CompareLoad): the tables' order, so that inserts append to the index, and
// one in which each Europe/Rome day is one run of rows (SplitDays). It
// returns an error with code Invalid if a zone is unknown, a total is not a
// finite number, a forecast is infinite, or two points share a key.
func PrepareLoad(pts []energy.LoadPoint) ([]LoadRow, error) {
	rows := make([]LoadRow, len(pts))
	for i, p := range pts {
		z, ok := ZoneCode(p.Zone)
		if !ok {
			return nil, energy.Errorf(energy.Invalid, "total load %s: unknown zone %q", instant(p.At), p.Zone)
		}
		if math.IsNaN(p.TotalMW) || math.IsInf(p.TotalMW, 0) {
			return nil, energy.Errorf(energy.Invalid, "total load %s %s: total is not a finite number", instant(p.At), p.Zone)
		}
		if math.IsInf(p.ForecastMW, 0) {
			return nil, energy.Errorf(energy.Invalid, "total load %s %s: forecast is infinite", instant(p.At), p.Zone)
		}
		rows[i] = LoadRow{TS: p.At.Unix(), Zone: z, TotalMW: p.TotalMW, ForecastMW: p.ForecastMW}
	}
	// Importers usually hand over points in time order already.
	if !slices.IsSortedFunc(rows, CompareLoad) {
		slices.SortFunc(rows, CompareLoad)
	}
	for i := 1; i < len(rows); i++ {
		if CompareLoad(rows[i-1], rows[i]) == 0 {
			p := rows[i].Point()
			return nil, energy.Errorf(energy.Invalid, "total load %s %s appears twice", instant(p.At), p.Zone)
		}
	}
	return rows, nil
}

// instant formats t for error messages as the API shows it, in Rome time.
func instant(t time.Time) string {
	return t.In(energy.Rome()).Format(time.RFC3339)
}

// Day is the rows of one Europe/Rome day of a prepared batch: the unit for
// which an import recomputes the derived peak and valley.
type Day struct {
	Date energy.Date
	Rows []LoadRow // in key order; a sub-slice of the batch
}

// SplitDays splits rows, as PrepareLoad returns them, into one Day per
// Europe/Rome day they touch, in order.
func SplitDays(rows []LoadRow) []Day {
	var days []Day
	for i := 0; i < len(rows); {
		d := energy.DateOf(time.Unix(rows[i].TS, 0))
		end := d.End().Unix()
		j := i + 1
		for j < len(rows) && rows[j].TS < end {
			j++
		}
		days = append(days, Day{Date: d, Rows: rows[i:j:j]})
		i = j
	}
	return days
}

// DiffLoad compares the imported rows of days, as SplitDays returns them,
// with the stored ones and counts each imported row. For each day in order
// it:
//   - calls stored for the rows the store holds in [Date.Start, Date.End),
//     in key order (DiffLoad is done with them before it calls stored
//     again, so stored may reuse one buffer);
//   - calls write, in key order, with each imported row that is new or whose
//     values changed;
//   - calls derived with energy.DeriveDay's result for all the points the
//     day holds after the import: imported rows and stored rows it leaves
//     alone.
//
// It returns the first error of any of them.
func DiffLoad(days []Day,
	stored func(Day) ([]LoadRow, error),
	write func(LoadRow, Change) error,
	derived func(d energy.Date, ext energy.DayExtremes, ok bool) error,
) (energy.ImportStats, error) {
	var st energy.ImportStats
	var pts []energy.LoadPoint // one day's points after the import, reused
	for _, d := range days {
		old, err := stored(d)
		if err != nil {
			return energy.ImportStats{}, err
		}
		if pts, err = mergeDay(d.Rows, old, &st, write, pts[:0]); err != nil {
			return energy.ImportStats{}, err
		}
		ext, ok := energy.DeriveDay(d.Date, pts)
		if err := derived(d.Date, ext, ok); err != nil {
			return energy.ImportStats{}, err
		}
	}
	return st, nil
}

// mergeDay walks one day's imported rows and stored rows, both in key order.
// It counts each imported row in st, passes the new and changed ones to
// write, and appends to day every point the day holds afterwards.
func mergeDay(imported, stored []LoadRow, st *energy.ImportStats, write func(LoadRow, Change) error, day []energy.LoadPoint) ([]energy.LoadPoint, error) {
	st.Read += len(imported)
	a, b := 0, 0 // next imported, next stored
	for a < len(imported) || b < len(stored) {
		var c int
		switch {
		case b == len(stored):
			c = -1
		case a == len(imported):
			c = 1
		default:
			c = CompareLoad(imported[a], stored[b])
		}
		if c > 0 { // stored, not in this import: kept as is
			day = append(day, stored[b].Point())
			b++
			continue
		}
		r := imported[a]
		a++
		day = append(day, r.Point())
		change := Inserted
		if c == 0 {
			change = Updated
			if r.SameValues(stored[b]) {
				change = Unchanged
			}
			b++
		}
		count(st, change)
		if change == Unchanged {
			continue
		}
		if err := write(r, change); err != nil {
			return nil, err
		}
	}
	return day, nil
}
