package storetest

import (
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// syntheticLoad returns quarter-hourly points of every zone from start to
// end, in time order: the seven bidding zones from a cheap deterministic
// formula and Italy as their sum, as the source files have it. Every tenth
// instant has no forecast. Both stores' benchmarks import it, so that their
// figures compare.
func syntheticLoad(start, end time.Time) []energy.LoadPoint {
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

// loadRows returns pts as rows of catalog.TotalLoad.
func loadRows(pts []energy.LoadPoint) []dataset.Row {
	rows := make([]dataset.Row, len(pts))
	for i, p := range pts {
		rows[i] = dataset.Row{Time: p.At.Unix(), Text: []string{string(p.Zone)}, Num: []float64{p.TotalMW, p.ForecastMW}}
	}
	return rows
}

// syntheticLoadYear returns syntheticLoad's points of one year from 2018
// (0 for 2018) as rows of catalog.TotalLoad.
func syntheticLoadYear(year int) []dataset.Row {
	start := time.Date(2018+year, 1, 1, 0, 0, 0, 0, energy.Rome())
	return loadRows(syntheticLoad(start, start.AddDate(1, 0, 0)))
}

// totalLoad returns the total-load dataset of c.
func totalLoad(b *testing.B, c *dataset.Catalog) *dataset.Dataset {
	d, ok := c.Lookup("total-load")
	if !ok {
		b.Fatal("catalogue lacks total-load")
	}
	return d
}

// benchImportParts times importing a year of syntheticLoad, 280,320
// points, as parts of total-load (dataset.Import) into a new store per
// iteration, which drv opens (outside the timer) and this closes; with
// again, the points are already stored, which times comparing without
// writing. If drv.Size is not nil, it reports its figure for the store
// after the import (the bytes that hold the parts) per point, as B/point.
func benchImportParts(b *testing.B, drv Driver, again bool) {
	c, size := drv.Catalog, drv.Size
	d := totalLoad(b, c)
	rows := syntheticLoadYear(0)
	ctx := b.Context()
	var bytes int64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		s, err := drv.Open(ctx, drv.NewDB(b), nil)
		if err != nil {
			b.Fatal(err)
		}
		if again {
			if _, err := dataset.Import(ctx, s, c, d, rows, time.Now()); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		st, err := dataset.Import(ctx, s, c, d, rows, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if want := len(rows); st.Inserted+st.Unchanged != want {
			b.Fatalf("got %+v, want %d points inserted or unchanged", st, want)
		}
		if size != nil {
			bytes = size(b, s)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(len(rows)), "points/op")
	if size != nil {
		b.ReportMetric(float64(bytes)/float64(len(rows)), "B/point")
	}
}

// benchChangedParts stores seven years of syntheticLoad as parts of
// total-load (84 monthly parts, about two million points) in a store that
// drv opens, and then times ChangedParts: of every part (a server that
// starts), or with all parts current (a reload after an import that
// changed another dataset).
func benchChangedParts(b *testing.B, drv Driver, all bool) {
	c := drv.Catalog
	d := totalLoad(b, c)
	ctx := b.Context()
	s, err := drv.Open(ctx, drv.NewDB(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for y := range 7 {
		if _, err := dataset.Import(ctx, s, c, d, syntheticLoadYear(y), time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	ch, err := s.ChangedParts(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	if len(ch.Parts) != 84 {
		b.Fatalf("got %d parts, want 84", len(ch.Parts))
	}
	var have map[dataset.PartRef]int64
	var size int
	for _, p := range ch.Parts {
		size += len(p.Data)
	}
	if !all {
		have = map[dataset.PartRef]int64{}
		for _, p := range ch.Parts {
			have[p.PartRef] = p.Version
		}
		size = 0
	}
	b.ReportAllocs()
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		ch, err := s.ChangedParts(ctx, have)
		if err != nil {
			b.Fatal(err)
		}
		if all && len(ch.Parts) != 84 || !all && len(ch.Parts) != 0 {
			b.Fatalf("got %d parts", len(ch.Parts))
		}
	}
}

// Bench runs the benchmarks of the stores that drv opens:
//   - ImportPartsYear imports a year of every zone (280,320 points) as
//     parts of total-load into a new database, and reports drv.Size per
//     point;
//   - ReimportPartsYear imports a year that is already stored;
//   - ChangedParts7Years reads every part of seven years of load;
//   - ChangedPartsNone7Years asks for the parts of seven years of load
//     that changed, when none did.
func Bench(b *testing.B, drv Driver) {
	b.Run("ImportPartsYear", func(b *testing.B) { benchImportParts(b, drv, false) })
	b.Run("ReimportPartsYear", func(b *testing.B) { benchImportParts(b, drv, true) })
	b.Run("ChangedParts7Years", func(b *testing.B) { benchChangedParts(b, drv, true) })
	b.Run("ChangedPartsNone7Years", func(b *testing.B) { benchChangedParts(b, drv, false) })
}
