package store_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/store"
)

func rec(year int, capacity, region, province string, gwh float64) energy.ThermoRecord {
	return energy.ThermoRecord{Year: year, CapacityType: capacity, Region: region, Province: province,
		Category: "C", Subcategory: "S", ProductionGWh: gwh}
}

func TestPrepareThermo(t *testing.T) {
	in := []energy.ThermoRecord{
		rec(2023, "Netta", "Lazio", "Roma", 1),
		rec(2023, "Lorda", "lazio", "Roma", 2),
		rec(2022, "Netta", "Lazio", "Roma", 3),
		rec(2023, "Lorda", "Lazio", "Roma", 4),
	}
	orig := slices.Clone(in)
	got, err := store.PrepareThermo(in)
	wantCode(t, "PrepareThermo", err, "")
	// Year first, then capacity type, then the rest, strings by bytes.
	want := []energy.ThermoRecord{in[2], in[3], in[1], in[0]}
	if !slices.Equal(got, want) {
		t.Fatalf("PrepareThermo:\ngot  %+v\nwant %+v", got, want)
	}
	if !slices.Equal(in, orig) {
		t.Fatalf("PrepareThermo changed its argument: got %+v, want %+v", in, orig)
	}
	if got, want := store.ThermoYears(got), []int{2022, 2023}; !slices.Equal(got, want) {
		t.Fatalf("ThermoYears: got %v, want %v", got, want)
	}

	type refusal struct {
		name   string
		mutate func(r *energy.ThermoRecord)
	}
	refused := []refusal{
		{"NaN", func(r *energy.ThermoRecord) { r.ProductionGWh = math.NaN() }},
		{"infinite", func(r *energy.ThermoRecord) { r.ProductionGWh = math.Inf(-1) }},
		{"text with NUL", func(r *energy.ThermoRecord) { r.Category = "C\x00" }},
		{"text not UTF-8", func(r *energy.ThermoRecord) { r.Region = "\xff" }},
		{"duplicate key", func(r *energy.ThermoRecord) { *r = in[0]; r.ProductionGWh = 9 }},
	}
	if math.MaxInt > math.MaxInt32 { // where int has 32 bits, every year fits
		refused = append(refused, refusal{"year beyond 32 bits", func(r *energy.ThermoRecord) { r.Year = int(int64(math.MinInt32) - 1) }})
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			recs := slices.Clone(in)
			c.mutate(&recs[len(recs)-1])
			got, err := store.PrepareThermo(recs)
			wantCode(t, "PrepareThermo", err, energy.Invalid)
			if got != nil {
				t.Fatalf("PrepareThermo: got %d records with the error, want none", len(got))
			}
		})
	}
}

// written is a write callback's record of what it was given.
type written[R any] struct {
	rec    R
	change store.Change
}

func TestDiffThermo(t *testing.T) {
	same, changed, fresh := rec(2023, "Lorda", "A", "P", 1), rec(2023, "Lorda", "B", "P", 2), rec(2023, "Lorda", "C", "P", 3)
	stored := map[energy.ThermoKey]float64{
		same.Key():                            1,
		changed.Key():                         2.5,
		rec(2023, "Lorda", "D", "P", 0).Key(): 4, // stored, not imported: left alone
	}
	var got []written[energy.ThermoRecord]
	st, err := store.DiffThermo([]energy.ThermoRecord{same, changed, fresh}, stored, func(r energy.ThermoRecord, c store.Change) error {
		got = append(got, written[energy.ThermoRecord]{r, c})
		return nil
	})
	wantCode(t, "DiffThermo", err, "")
	if want := (energy.ImportStats{Read: 3, Inserted: 1, Updated: 1, Unchanged: 1}); st != want {
		t.Fatalf("stats: got %+v, want %+v", st, want)
	}
	want := []written[energy.ThermoRecord]{{changed, store.Updated}, {fresh, store.Inserted}}
	if !slices.Equal(got, want) {
		t.Fatalf("written: got %+v, want %+v", got, want)
	}

	boom := errors.New("boom")
	st, err = store.DiffThermo([]energy.ThermoRecord{fresh}, nil, func(energy.ThermoRecord, store.Change) error { return boom })
	if !errors.Is(err, boom) || st != (energy.ImportStats{}) {
		t.Fatalf("failing write: got %+v, %v; want zero stats and %v", st, err, boom)
	}
}

func extremes(d energy.Date, peak, valley time.Time) energy.DayExtremes {
	return energy.DayExtremes{Day: d, Peak: energy.Extreme{At: peak, GW: 40}, Valley: energy.Extreme{At: valley, GW: 20}}
}

func TestPeakValley(t *testing.T) {
	d1 := energy.Date{Year: 2024, Month: 3, Day: 31}
	d2 := d1.AddDays(1)
	noon := func(d energy.Date) time.Time { return d.Start().Add(12 * time.Hour) }
	a := extremes(d1, noon(d1), d1.Start())
	b := extremes(d2, noon(d2), d2.Start())

	sorted, err := store.PreparePeakValley([]energy.DayExtremes{b, a})
	wantCode(t, "PreparePeakValley", err, "")
	if want := []energy.DayExtremes{a, b}; !slices.Equal(sorted, want) {
		t.Fatalf("PreparePeakValley: got %+v, want %+v", sorted, want)
	}
	for _, c := range []struct {
		name string
		days []energy.DayExtremes
	}{
		{"not a day", []energy.DayExtremes{extremes(energy.Date{Year: 2023, Month: 2, Day: 29}, noon(d1), noon(d1))}},
		{"zero day", []energy.DayExtremes{{}}},
		{"NaN peak", []energy.DayExtremes{{Day: d1, Peak: energy.Extreme{GW: math.NaN()}}}},
		{"infinite valley", []energy.DayExtremes{{Day: d1, Valley: energy.Extreme{GW: math.Inf(1)}}}},
		{"same day twice", []energy.DayExtremes{a, b, a}},
	} {
		_, err := store.PreparePeakValley(c.days)
		wantCode(t, "PreparePeakValley "+c.name, err, energy.Invalid)
	}

	// Instants are kept to the second, so a day that differs below it is
	// unchanged; one that differs in a value is updated.
	stored := map[energy.Date]store.PVRow{d1: store.PVRowOf(a), d2: store.PVRowOf(b)}
	finer := a
	finer.Peak.At = finer.Peak.At.Add(300 * time.Millisecond)
	higher := b
	higher.Peak.GW++
	var got []written[energy.DayExtremes]
	st, err := store.DiffPeakValley([]energy.DayExtremes{finer, higher}, stored, func(d energy.DayExtremes, c store.Change) error {
		got = append(got, written[energy.DayExtremes]{d, c})
		return nil
	})
	wantCode(t, "DiffPeakValley", err, "")
	if want := (energy.ImportStats{Read: 2, Updated: 1, Unchanged: 1}); st != want {
		t.Fatalf("stats: got %+v, want %+v", st, want)
	}
	if want := []written[energy.DayExtremes]{{higher, store.Updated}}; !slices.Equal(got, want) {
		t.Fatalf("written: got %+v, want %+v", got, want)
	}

	back := store.PVRowOf(finer).Extremes(d1)
	if back.Day != d1 || !back.Peak.At.Equal(a.Peak.At) || back.Peak.At.Location() != energy.Rome() ||
		back.Peak.GW != a.Peak.GW || !back.Valley.At.Equal(a.Valley.At) || back.Valley.GW != a.Valley.GW {
		t.Fatalf("PVRow.Extremes: got %+v, want %+v to the second, in Rome", back, finer)
	}
}

func TestZoneCodes(t *testing.T) {
	seen := map[int16]bool{}
	for i, z := range energy.Zones() {
		code, ok := store.ZoneCode(z)
		if !ok || code != int16(i+1) {
			t.Errorf("ZoneCode(%q): got %d, %t, want %d, true (the order of energy.Zones)", z, code, ok, i+1)
		}
		if back, ok := store.ZoneOf(code); !ok || back != z {
			t.Errorf("ZoneOf(%d): got %q, %t, want %q, true", code, back, ok, z)
		}
		seen[code] = true
	}
	if len(seen) != len(energy.Zones()) {
		t.Errorf("codes: got %d distinct, want %d", len(seen), len(energy.Zones()))
	}
	if _, ok := store.ZoneCode("Corsica"); ok {
		t.Errorf("ZoneCode(Corsica): got ok, want not")
	}
	for _, code := range []int16{-1, 0, 9} {
		if _, ok := store.ZoneOf(code); ok {
			t.Errorf("ZoneOf(%d): got ok, want not", code)
		}
	}
}

func point(at time.Time, z energy.Zone, total, forecast float64) energy.LoadPoint {
	return energy.LoadPoint{At: at, Zone: z, TotalMW: total, ForecastMW: forecast}
}

func TestPrepareLoad(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 12, 0, 0, 0, energy.Rome())
	t1 := t0.Add(15 * time.Minute)
	in := []energy.LoadPoint{
		point(t1, energy.North, 1, 2),
		point(t0, energy.Italy, 3, math.NaN()),
		point(t0.UTC(), energy.North, 4, 5), // another location, the same kind of key
	}
	rows, err := store.PrepareLoad(in)
	wantCode(t, "PrepareLoad", err, "")
	var got []string
	for _, r := range rows {
		p := r.Point()
		got = append(got, p.At.UTC().Format(time.TimeOnly)+" "+string(p.Zone))
	}
	// By instant, then by zone code: North (1) before Italy (8).
	want := []string{"11:00:00 North", "11:00:00 Italy", "11:15:00 North"}
	if !slices.Equal(got, want) {
		t.Fatalf("PrepareLoad order: got %q, want %q", got, want)
	}
	if !math.IsNaN(rows[1].ForecastMW) || rows[0].ForecastMW != 5 {
		t.Fatalf("forecasts: got %v and %v, want 5 and NaN", rows[0].ForecastMW, rows[1].ForecastMW)
	}

	for _, c := range []struct {
		name   string
		mutate func(p *energy.LoadPoint)
	}{
		{"unknown zone", func(p *energy.LoadPoint) { p.Zone = "Corsica" }},
		{"NaN total", func(p *energy.LoadPoint) { p.TotalMW = math.NaN() }},
		{"infinite total", func(p *energy.LoadPoint) { p.TotalMW = math.Inf(1) }},
		{"infinite forecast", func(p *energy.LoadPoint) { p.ForecastMW = math.Inf(-1) }},
		{"duplicate key", func(p *energy.LoadPoint) { p.At, p.Zone = t0.In(time.UTC), energy.Italy }},
	} {
		pts := slices.Clone(in)
		c.mutate(&pts[0])
		_, err := store.PrepareLoad(pts)
		wantCode(t, "PrepareLoad "+c.name, err, energy.Invalid)
	}
}

func TestSplitDays(t *testing.T) {
	rome := energy.Rome()
	in := []energy.LoadPoint{
		point(time.Date(2024, 3, 30, 23, 45, 0, 0, rome), energy.Italy, 1, 0),
		point(time.Date(2024, 3, 31, 0, 0, 0, 0, rome), energy.Italy, 1, 0), // 23:00Z on the 30th
		point(time.Date(2024, 3, 31, 23, 45, 0, 0, rome), energy.Italy, 1, 0),
		point(time.Date(2024, 10, 27, 2, 15, 0, 0, rome).Add(time.Hour), energy.Italy, 1, 0), // the second 02:15
		point(time.Date(2024, 10, 27, 23, 45, 0, 0, rome), energy.North, 1, 0),
		point(time.Date(2024, 10, 27, 23, 45, 0, 0, rome), energy.Italy, 1, 0),
	}
	rows, err := store.PrepareLoad(in)
	wantCode(t, "PrepareLoad", err, "")
	days := store.SplitDays(rows)
	var got []string
	for _, d := range days {
		got = append(got, fmt.Sprintf("%s:%d", d.Date, len(d.Rows)))
	}
	if want := []string{"2024-03-30:1", "2024-03-31:2", "2024-10-27:3"}; !slices.Equal(got, want) {
		t.Fatalf("SplitDays: got %v, want %v", got, want)
	}
	// A day's rows cannot be appended to over the next day's.
	if d := days[1]; cap(d.Rows) != len(d.Rows) {
		t.Fatalf("SplitDays: a day's rows have capacity %d beyond their length %d", cap(d.Rows), len(d.Rows))
	}
	if len(store.SplitDays(nil)) != 0 {
		t.Fatalf("SplitDays(nil): got days, want none")
	}
}

func TestDiffLoad(t *testing.T) {
	rome := energy.Rome()
	d1 := energy.Date{Year: 2024, Month: 3, Day: 1}
	d2 := d1.AddDays(1)
	at := func(d energy.Date, h int) time.Time { return time.Date(d.Year, d.Month, d.Day, h, 0, 0, 0, rome) }
	row := func(p energy.LoadPoint) store.LoadRow {
		rows, err := store.PrepareLoad([]energy.LoadPoint{p})
		wantCode(t, "PrepareLoad", err, "")
		return rows[0]
	}

	imported := []energy.LoadPoint{
		point(at(d1, 1), energy.Italy, 30000, math.NaN()), // stored the same, no forecast either
		point(at(d1, 2), energy.Italy, 31000, 100),        // stored with another forecast
		point(at(d1, 3), energy.Italy, 32000, math.NaN()), // new
		point(at(d2, 1), energy.North, 5000, math.NaN()),  // new; no Italy on that day
	}
	stored := map[energy.Date][]store.LoadRow{
		d1: {
			row(point(at(d1, 1), energy.Italy, 30000, math.NaN())),
			row(point(at(d1, 2), energy.Italy, 31000, math.NaN())),
			row(point(at(d1, 20), energy.Italy, 45000, math.NaN())), // not imported: kept, and the day's peak
		},
	}
	rows, err := store.PrepareLoad(imported)
	wantCode(t, "PrepareLoad", err, "")

	var asked []energy.Date
	var got []written[store.LoadRow]
	type derivedDay struct {
		day      energy.Date
		peakGW   float64
		valleyGW float64
		ok       bool
	}
	var derived []derivedDay
	st, err := store.DiffLoad(store.SplitDays(rows),
		func(d store.Day) ([]store.LoadRow, error) {
			asked = append(asked, d.Date)
			return stored[d.Date], nil
		},
		func(r store.LoadRow, c store.Change) error {
			got = append(got, written[store.LoadRow]{r, c})
			return nil
		},
		func(d energy.Date, ext energy.DayExtremes, ok bool) error {
			derived = append(derived, derivedDay{d, ext.Peak.GW, ext.Valley.GW, ok})
			return nil
		})
	wantCode(t, "DiffLoad", err, "")
	if want := (energy.ImportStats{Read: 4, Inserted: 2, Updated: 1, Unchanged: 1}); st != want {
		t.Fatalf("stats: got %+v, want %+v", st, want)
	}
	if want := []energy.Date{d1, d2}; !slices.Equal(asked, want) {
		t.Fatalf("stored asked for: got %v, want %v", asked, want)
	}
	wantWritten := []written[store.LoadRow]{{rows[1], store.Updated}, {rows[2], store.Inserted}, {rows[3], store.Inserted}}
	if len(got) != len(wantWritten) {
		t.Fatalf("written: got %d rows, want %d", len(got), len(wantWritten))
	}
	for i, w := range wantWritten {
		// SameValues, not ==: NaN forecasts are not == to themselves.
		if g := got[i]; g.change != w.change || store.CompareLoad(g.rec, w.rec) != 0 || !g.rec.SameValues(w.rec) {
			t.Fatalf("written %d: got %+v, want %+v", i, g, w)
		}
	}
	wantDerived := []derivedDay{{d1, 45, 30, true}, {d2, 0, 0, false}}
	if !slices.Equal(derived, wantDerived) {
		t.Fatalf("derived: got %+v, want %+v", derived, wantDerived)
	}

	boom := errors.New("boom")
	for _, fail := range []struct {
		name    string
		stored  func(store.Day) ([]store.LoadRow, error)
		write   func(store.LoadRow, store.Change) error
		derived func(energy.Date, energy.DayExtremes, bool) error
	}{
		{name: "stored", stored: func(store.Day) ([]store.LoadRow, error) { return nil, boom }},
		{name: "write", write: func(store.LoadRow, store.Change) error { return boom }},
		{name: "derived", derived: func(energy.Date, energy.DayExtremes, bool) error { return boom }},
	} {
		if fail.stored == nil {
			fail.stored = func(store.Day) ([]store.LoadRow, error) { return nil, nil }
		}
		if fail.write == nil {
			fail.write = func(store.LoadRow, store.Change) error { return nil }
		}
		if fail.derived == nil {
			fail.derived = func(energy.Date, energy.DayExtremes, bool) error { return nil }
		}
		st, err := store.DiffLoad(store.SplitDays(rows), fail.stored, fail.write, fail.derived)
		if !errors.Is(err, boom) || st != (energy.ImportStats{}) {
			t.Errorf("failing %s: got %+v, %v; want zero stats and %v", fail.name, st, err, boom)
		}
	}
}
