package storetest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// manyThermo returns n records of the given year with distinct keys.
func manyThermo(year, n int, gwh float64) []energy.ThermoRecord {
	recs := make([]energy.ThermoRecord, n)
	for i := range recs {
		recs[i] = thermo(year, "Lorda", fmt.Sprintf("Region %03d", i/100), fmt.Sprintf("Province %05d", i),
			"Combustibili fossili", "Gas naturale", gwh)
	}
	return recs
}

// italyDays returns Italy's load at every quarter hour of the given number of
// days from first, all at mw.
func italyDays(first energy.Date, days int, mw float64) []energy.LoadPoint {
	var pts []energy.LoadPoint
	start, end := first.Start(), first.AddDays(days).Start()
	for at := start; at.Before(end); at = at.Add(15 * time.Minute) {
		pts = append(pts, energy.LoadPoint{At: at, Zone: energy.Italy, TotalMW: mw, ForecastMW: nan()})
	}
	return pts
}

// seed gives a store some data of every dataset, so that a failed import has
// something to leave alone.
func seed(t testing.TB, s Store) {
	t.Helper()
	_, err := s.ImportThermoelectric(t.Context(), manyThermo(2023, 10, 100))
	noErr(t, "ImportThermoelectric", err)
	_, err = s.ImportTotalLoad(t.Context(), italyDays(day(t, 2024, 3, 30), 3, 30000))
	noErr(t, "ImportTotalLoad", err)
	_, err = s.ImportPeakValley(t.Context(), []energy.DayExtremes{{
		Day:    day(t, 2024, 5, 1),
		Peak:   energy.Extreme{At: at(t, "2024-05-01T12:00:00+02:00"), GW: 30},
		Valley: energy.Extreme{At: at(t, "2024-05-01T04:00:00+02:00"), GW: 18},
	}})
	noErr(t, "ImportPeakValley", err)
}

// state is everything an import may change.
type state struct {
	data    energy.Data
	parts   dataset.Changes // every part
	version int64
	totals  []energy.ImportTotal
}

func readState(t testing.TB, s Store) state {
	t.Helper()
	totals, err := s.ImportTotals(t.Context())
	noErr(t, "ImportTotals", err)
	return state{data: readData(t, s), parts: changedParts(t, s, nil), version: dataVersion(t, s), totals: totals}
}

// wantSameState fails the test unless nothing changed between before and after.
func wantSameState(t testing.TB, after, before state) {
	t.Helper()
	wantSameData(t, after.data, before.data)
	wantSameChanges(t, after.parts, before.parts)
	if after.version != before.version {
		t.Fatalf("DataVersion: got %d, want %d as before", after.version, before.version)
	}
	if !slices.EqualFunc(after.totals, before.totals, func(a, b energy.ImportTotal) bool {
		return a.Dataset == b.Dataset && a.Runs == b.Runs && a.Rows == b.Rows && a.Last.Equal(b.Last)
	}) {
		t.Fatalf("ImportTotals: got %+v, want %+v as before", after.totals, before.totals)
	}
}

func testAtomicity(t *testing.T, open func(t *testing.T) Store) {
	t.Run("Refused", func(t *testing.T) { testRefused(t, open) })
	t.Run("CancelledBefore", func(t *testing.T) { testCancelledBefore(t, open) })
	t.Run("CancelledDuring", func(t *testing.T) { testCancelledDuring(t, open) })
}

// testRefused imports batches that are valid but for one record, placed last
// in both slice and key order, so that a store that writes as it goes has
// written the rest when it meets it.
func testRefused(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	seed(t, s)
	load := func(mutate func(p *energy.LoadPoint)) []energy.LoadPoint {
		pts := italyDays(day(t, 2024, 6, 1), 10, 31000)
		mutate(&pts[len(pts)-1])
		return pts
	}
	thermoRecs := func(mutate func(r *energy.ThermoRecord)) []energy.ThermoRecord {
		recs := manyThermo(2024, 1000, 50)
		mutate(&recs[len(recs)-1])
		return recs
	}
	days := func(mutate func(d *energy.DayExtremes)) []energy.DayExtremes {
		var ds []energy.DayExtremes
		for i := range 30 {
			d := day(t, 2024, 7, 1).AddDays(i)
			ds = append(ds, energy.DayExtremes{Day: d,
				Peak:   energy.Extreme{At: d.Start().Add(12 * time.Hour), GW: 40},
				Valley: energy.Extreme{At: d.Start().Add(4 * time.Hour), GW: 20}})
		}
		mutate(&ds[len(ds)-1])
		return ds
	}
	lastDay := day(t, 2024, 7, 30)
	type refusal struct {
		name string
		do   func(ctx context.Context) (energy.ImportStats, error)
	}
	cases := []refusal{
		{"thermoelectric NaN", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportThermoelectric(ctx, thermoRecs(func(r *energy.ThermoRecord) { r.ProductionGWh = nan() }))
		}},
		{"thermoelectric infinite", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportThermoelectric(ctx, thermoRecs(func(r *energy.ThermoRecord) { r.ProductionGWh = -inf() }))
		}},
		{"thermoelectric text not UTF-8", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportThermoelectric(ctx, thermoRecs(func(r *energy.ThermoRecord) { r.Province = "Province \xff" }))
		}},
		{"thermoelectric text with NUL", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportThermoelectric(ctx, thermoRecs(func(r *energy.ThermoRecord) { r.Subcategory += "\x00" }))
		}},
		{"thermoelectric duplicate key", func(ctx context.Context) (energy.ImportStats, error) {
			recs := manyThermo(2024, 1000, 50)
			dup := recs[len(recs)-1]
			dup.ProductionGWh = 51
			return s.ImportThermoelectric(ctx, append(recs, dup))
		}},
		{"total load NaN", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportTotalLoad(ctx, load(func(p *energy.LoadPoint) { p.TotalMW = nan() }))
		}},
		{"total load infinite", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportTotalLoad(ctx, load(func(p *energy.LoadPoint) { p.TotalMW = inf() }))
		}},
		{"total load infinite forecast", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportTotalLoad(ctx, load(func(p *energy.LoadPoint) { p.ForecastMW = -inf() }))
		}},
		{"total load unknown zone", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportTotalLoad(ctx, load(func(p *energy.LoadPoint) { p.Zone = "Corsica" }))
		}},
		{"total load duplicate point", func(ctx context.Context) (energy.ImportStats, error) {
			pts := load(func(*energy.LoadPoint) {})
			dup := pts[len(pts)-1]
			dup.TotalMW++
			return s.ImportTotalLoad(ctx, append(pts, dup))
		}},
		{"peak valley NaN", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportPeakValley(ctx, days(func(d *energy.DayExtremes) { d.Valley.GW = nan() }))
		}},
		{"peak valley infinite", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportPeakValley(ctx, days(func(d *energy.DayExtremes) { d.Peak.GW = inf() }))
		}},
		{"peak valley not a day", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportPeakValley(ctx, days(func(d *energy.DayExtremes) { d.Day = energy.Date{Year: 2024, Month: 2, Day: 30} }))
		}},
		{"peak valley duplicate day", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportPeakValley(ctx, days(func(d *energy.DayExtremes) { d.Day = lastDay.AddDays(-1) }))
		}},
	}
	if math.MaxInt > math.MaxInt32 { // where int has 32 bits, every year fits
		cases = append(cases, refusal{"thermoelectric year beyond 32 bits", func(ctx context.Context) (energy.ImportStats, error) {
			return s.ImportThermoelectric(ctx, thermoRecs(func(r *energy.ThermoRecord) { r.Year = int(int64(math.MaxInt32) + 1) }))
		}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := readState(t, s)
			st, err := c.do(t.Context())
			wantCode(t, "import", err, energy.Invalid)
			if st != (energy.ImportStats{}) {
				t.Fatalf("stats of a refused import: got %+v, want zero", st)
			}
			wantSameState(t, readState(t, s), before)
		})
	}
}

func testCancelledBefore(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	seed(t, s)
	cases := []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"thermoelectric", func(ctx context.Context) error {
			_, err := s.ImportThermoelectric(ctx, manyThermo(2024, 100, 1))
			return err
		}},
		{"total load", func(ctx context.Context) error {
			_, err := s.ImportTotalLoad(ctx, italyDays(day(t, 2024, 6, 1), 2, 1))
			return err
		}},
		{"peak valley", func(ctx context.Context) error {
			d := day(t, 2024, 6, 1)
			_, err := s.ImportPeakValley(ctx, []energy.DayExtremes{{Day: d,
				Peak: energy.Extreme{At: d.Start(), GW: 1}, Valley: energy.Extreme{At: d.Start(), GW: 1}}})
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := readState(t, s)
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if err := c.do(ctx); err == nil {
				t.Fatalf("import with a cancelled context: got nil error, want one")
			}
			wantSameState(t, readState(t, s), before)
		})
	}
}

// cancelAfter is a context that cancels itself the n-th time its Done channel
// is asked for. database/sql and drivers ask before and during every
// statement, so different n stop an import at different points; which points
// depends on the store, so each test run tries many n.
type cancelAfter struct {
	context.Context
	cancel context.CancelFunc
	left   atomic.Int64
}

func newCancelAfter(parent context.Context, n int64) *cancelAfter {
	ctx, cancel := context.WithCancel(parent)
	c := &cancelAfter{Context: ctx, cancel: cancel}
	c.left.Store(n)
	return c
}

func (c *cancelAfter) Done() <-chan struct{} {
	if c.left.Add(-1) == 0 {
		c.cancel()
	}
	return c.Context.Done()
}

// testCancelledDuring cancels imports part way. Whatever the point, an import
// either fails and changes nothing, or succeeds and is wholly visible.
func testCancelledDuring(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	seed(t, s)
	var failed, succeeded int
	for i, n := range []int64{1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597} {
		t.Run(fmt.Sprintf("thermoelectric after %d", n), func(t *testing.T) {
			before := readState(t, s)
			recs := manyThermo(3000+i, 2000, float64(n))
			ctx := newCancelAfter(t.Context(), n)
			defer ctx.cancel()
			_, err := s.ImportThermoelectric(ctx, recs)
			after := readState(t, s)
			if err != nil {
				failed++
				wantSameState(t, after, before)
				return
			}
			succeeded++
			if after.version == before.version {
				t.Fatalf("DataVersion: got %d after a successful import, want a change", after.version)
			}
			if got, want := len(after.data.Thermo), len(before.data.Thermo)+len(recs); got != want {
				t.Fatalf("Thermo: got %d records after a successful import, want %d", got, want)
			}
		})
		t.Run(fmt.Sprintf("total load after %d", n), func(t *testing.T) {
			before := readState(t, s)
			const days = 10
			pts := italyDays(day(t, 2030+i, 1, 10), days, float64(n))
			ctx := newCancelAfter(t.Context(), n)
			defer ctx.cancel()
			_, err := s.ImportTotalLoad(ctx, pts)
			after := readState(t, s)
			if err != nil {
				failed++
				wantSameState(t, after, before)
				return
			}
			succeeded++
			if got, want := len(after.data.PeakValley), len(before.data.PeakValley)+days; got != want {
				t.Fatalf("PeakValley: got %d days after a successful import, want %d", got, want)
			}
		})
	}
	t.Logf("imports cancelled part way: %d failed, %d completed", failed, succeeded)
}
