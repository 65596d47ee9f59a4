package storetest

import (
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// SyntheticLoad returns quarter-hourly points of every zone for the given
// number of years from 2018, in time order: the seven bidding zones from a
// cheap deterministic formula and Italy as their sum, as the source files have
// it. Every tenth instant has no forecast. Both stores' benchmarks import it,
// so that their figures compare.
func SyntheticLoad(years int) []energy.LoadPoint {
	start := time.Date(2018, 1, 1, 0, 0, 0, 0, energy.Rome())
	end := start.AddDate(years, 0, 0)
	zones := energy.Zones()
	n := int(end.Sub(start) / (15 * time.Minute))
	pts := make([]energy.LoadPoint, 0, n*len(zones))
	for i := range n {
		at := start.Add(time.Duration(i) * 15 * time.Minute)
		var italy float64
		for z, zone := range zones[:7] {
			mw := float64(1000*(z+1) + (i*7919+z*104729)%1000)
			italy += mw
			pts = append(pts, energy.LoadPoint{At: at, Zone: zone, TotalMW: mw, ForecastMW: mw + 25})
		}
		forecast := italy + 100
		if i%10 == 0 {
			forecast = math.NaN()
		}
		pts = append(pts, energy.LoadPoint{At: at, Zone: energy.Italy, TotalMW: italy, ForecastMW: forecast})
	}
	return pts
}

// BenchImportTotalLoad times importing SyntheticLoad(years) into a new store
// per iteration, which open returns (outside the timer) and this closes;
// with again, the points are already stored, which times comparing without
// writing.
func BenchImportTotalLoad(b *testing.B, open func(b *testing.B) Store, years int, again bool) {
	pts := SyntheticLoad(years)
	ctx := b.Context()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		s := open(b)
		if again {
			if _, err := s.ImportTotalLoad(ctx, pts); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		st, err := s.ImportTotalLoad(ctx, pts)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if want := len(pts); st.Inserted+st.Unchanged != want {
			b.Fatalf("got %+v, want %d points inserted or unchanged", st, want)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(len(pts)), "points/op")
}
