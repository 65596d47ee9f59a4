package storetest

import (
	"math"
	"testing"

	"github.com/energyapi/energyapi/internal/energy"
)

// importStep is one import in a sequence that shares a store: what it
// imports, what it should report, whether the data version should move, and
// what ReadData should then return.
type importStep[T any] struct {
	name       string
	records    []T
	want       energy.ImportStats
	changes    bool
	wantThermo []energy.ThermoRecord // checked for thermoelectric steps
	wantDays   []dayView             // checked for load and peak-valley steps
}

func thermo(year int, capacity, region, province, category, sub string, gwh float64) energy.ThermoRecord {
	return energy.ThermoRecord{Year: year, CapacityType: capacity, Region: region, Province: province,
		Category: category, Subcategory: sub, ProductionGWh: gwh}
}

func testThermoelectric(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	milano := thermo(2023, "Lorda", "Lombardia", "Milano", "Combustibili fossili", "Gas naturale", 1234.5)
	brescia := thermo(2023, "Lorda", "Lombardia", "Brescia", "Combustibili fossili", "Gas naturale", 800.25)
	catania := thermo(2022, "Netta", "Sicilia", "Catania", "Bioenergie", "Biogas", 12)
	milanoMore := milano
	milanoMore.ProductionGWh = 1300
	milanoNet := thermo(2023, "Netta", "Lombardia", "Milano", "Combustibili fossili", "Gas naturale", 1200)

	steps := []importStep[energy.ThermoRecord]{{
		name:       "insert",
		records:    []energy.ThermoRecord{milano, brescia, catania},
		want:       energy.ImportStats{Read: 3, Inserted: 3},
		changes:    true,
		wantThermo: []energy.ThermoRecord{catania, brescia, milano},
	}, {
		name:       "same again",
		records:    []energy.ThermoRecord{catania, milano, brescia},
		want:       energy.ImportStats{Read: 3, Unchanged: 3},
		changes:    false,
		wantThermo: []energy.ThermoRecord{catania, brescia, milano},
	}, {
		name:       "subset again",
		records:    []energy.ThermoRecord{brescia},
		want:       energy.ImportStats{Read: 1, Unchanged: 1},
		changes:    false,
		wantThermo: []energy.ThermoRecord{catania, brescia, milano},
	}, {
		name:       "one changed one new",
		records:    []energy.ThermoRecord{milanoNet, milanoMore, brescia},
		want:       energy.ImportStats{Read: 3, Inserted: 1, Updated: 1, Unchanged: 1},
		changes:    true,
		wantThermo: []energy.ThermoRecord{catania, brescia, milanoMore, milanoNet},
	}, {
		name:       "empty",
		records:    nil,
		want:       energy.ImportStats{},
		changes:    false,
		wantThermo: []energy.ThermoRecord{catania, brescia, milanoMore, milanoNet},
	}}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			before := readData(t, s)
			st, err := s.ImportThermoelectric(t.Context(), step.records)
			noErr(t, "ImportThermoelectric", err)
			if st != step.want {
				t.Fatalf("stats: got %+v, want %+v", st, step.want)
			}
			after := readData(t, s)
			wantVersionMove(t, before, after, step.changes)
			if v := dataVersion(t, s); v != after.Version {
				t.Fatalf("DataVersion: got %d, ReadData's version is %d", v, after.Version)
			}
			wantThermo(t, after, step.wantThermo)
		})
	}
}

// wantVersionMove checks whether the data version and its time changed
// between two reads as expected.
func wantVersionMove(t testing.TB, before, after energy.Data, changes bool) {
	t.Helper()
	if changed := after.Version != before.Version; changed != changes {
		t.Fatalf("data version %d -> %d: got changed %t, want %t", before.Version, after.Version, changed, changes)
	}
	if changes && after.Updated.IsZero() {
		t.Fatalf("Updated: got zero after a change, want the time of the change")
	}
	if !changes && !after.Updated.Equal(before.Updated) {
		t.Fatalf("Updated: got %v, want %v as before", after.Updated, before.Updated)
	}
}

// testTotalLoad imports points around the 2024 daylight-saving days and checks
// the derived peaks and valleys against values worked out by hand.
//
// 2024-03-31 in Rome runs from 2024-03-30T23:00Z to 2024-03-31T22:00Z (23
// hours: 02:00 CET jumps to 03:00 CEST); 2024-10-27 runs from
// 2024-10-26T22:00Z to 2024-10-27T23:00Z (25 hours: 02:00-03:00 happens
// twice). A day is Rome's, not UTC's.
func testTotalLoad(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)

	var first []energy.LoadPoint
	add := func(pts ...energy.LoadPoint) { first = append(first, pts...) }
	// 2024-03-30: one instant, its last quarter hour.
	add(italy(t, "2024-03-30T23:45:00+01:00", 99000))
	// 2024-03-31.
	add(italy(t, "2024-03-31T00:00:00+01:00", 30000)) // 2024-03-30T23:00Z: still Rome's 31st
	add(italy(t, "2024-03-31T01:45:00+01:00", 25000))
	// The first quarter hour after the jump: no Italy, all seven zones: 7 × 3000 = 21000, the valley.
	add(zones(t, "2024-03-31T03:00:00+02:00", 3000, biddingZones()...)...)
	// Six zones and no Italy: the instant does not count (it would be a 600 MW valley).
	add(zones(t, "2024-03-31T12:00:00+02:00", 100, biddingZones()[:6]...)...)
	add(italy(t, "2024-03-31T20:00:00+02:00", 41000)) // the peak
	add(italy(t, "2024-03-31T23:45:00+02:00", 40000))
	// 2024-04-01 starts at 2024-03-31T22:00Z.
	add(italy(t, "2024-04-01T00:00:00+02:00", 50000))
	// 2024-04-02: only North, so no instant qualifies and the day has no row.
	add(zones(t, "2024-04-02T12:00:00+02:00", 1000, energy.North)...)
	// 2024-10-27.
	add(italy(t, "2024-10-27T00:00:00+02:00", 30000))
	add(italy(t, "2024-10-27T02:15:00+02:00", 20000)) // 00:15Z, the first 02:15
	add(italy(t, "2024-10-27T02:15:00+01:00", 19000)) // 01:15Z, the second 02:15: the valley
	add(italy(t, "2024-10-27T20:00:00+01:00", 35000)) // the peak: earliest of two equal maxima
	add(italy(t, "2024-10-27T23:45:00+01:00", 35000))
	// Italy is present at 23:45, so its 35000 wins over the zones' 7 × 10000.
	add(zones(t, "2024-10-27T23:45:00+01:00", 10000, biddingZones()...)...)
	if len(first) != 32 {
		t.Fatalf("test table has %d points, want 32", len(first))
	}

	firstDays := []dayView{
		{"2024-03-30", "2024-03-30T22:45:00Z", 99, "2024-03-30T22:45:00Z", 99},
		{"2024-03-31", "2024-03-31T18:00:00Z", 41, "2024-03-31T01:00:00Z", 21},
		{"2024-04-01", "2024-03-31T22:00:00Z", 50, "2024-03-31T22:00:00Z", 50},
		{"2024-10-27", "2024-10-27T19:00:00Z", 35, "2024-10-27T01:15:00Z", 19},
	}
	// Italy's own value appears where only the zones' sum was (and beats the
	// old peak), and the second 02:15 rises above the first.
	secondDays := []dayView{
		firstDays[0],
		{"2024-03-31", "2024-03-31T01:00:00Z", 45, "2024-03-31T00:45:00Z", 25},
		firstDays[2],
		{"2024-10-27", "2024-10-27T19:00:00Z", 35, "2024-10-27T00:15:00Z", 20},
	}
	forecast := italy(t, "2024-10-27T00:00:00+02:00", 30000)
	forecast.ForecastMW = 29500

	steps := []importStep[energy.LoadPoint]{{
		name:     "insert",
		records:  first,
		want:     energy.ImportStats{Read: 32, Inserted: 32},
		changes:  true,
		wantDays: firstDays,
	}, {
		name:     "same again",
		records:  first,
		want:     energy.ImportStats{Read: 32, Unchanged: 32},
		changes:  false,
		wantDays: firstDays,
	}, {
		name: "Italy added and a value changed",
		records: []energy.LoadPoint{
			italy(t, "2024-10-27T02:15:00+01:00", 25000),
			italy(t, "2024-03-31T03:00:00+02:00", 45000),
			italy(t, "2024-03-31T20:00:00+02:00", 41000),
		},
		want:     energy.ImportStats{Read: 3, Inserted: 1, Updated: 1, Unchanged: 1},
		changes:  true,
		wantDays: secondDays,
	}, {
		name:     "forecast given where there was none",
		records:  []energy.LoadPoint{forecast},
		want:     energy.ImportStats{Read: 1, Updated: 1},
		changes:  true,
		wantDays: secondDays,
	}, {
		name:     "forecast same again",
		records:  []energy.LoadPoint{forecast},
		want:     energy.ImportStats{Read: 1, Unchanged: 1},
		changes:  false,
		wantDays: secondDays,
	}}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			before := readData(t, s)
			st, err := s.ImportTotalLoad(t.Context(), step.records)
			noErr(t, "ImportTotalLoad", err)
			if st != step.want {
				t.Fatalf("stats: got %+v, want %+v", st, step.want)
			}
			after := readData(t, s)
			wantVersionMove(t, before, after, step.changes)
			wantDays(t, after, step.wantDays)
		})
	}

	t.Run("InstantsInRome", func(t *testing.T) {
		d := readData(t, s)
		for _, pv := range d.PeakValley {
			for _, x := range []energy.Extreme{pv.Peak, pv.Valley} {
				if energy.DateOf(x.At) != pv.Day {
					t.Fatalf("%s: extreme at %v is on Rome day %s, want the same day", pv.Day, x.At, energy.DateOf(x.At))
				}
			}
		}
	})
}

func testPeakValley(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	_, err := s.ImportTotalLoad(t.Context(), []energy.LoadPoint{
		italy(t, "2024-03-31T10:00:00+02:00", 30000),
		italy(t, "2024-03-31T11:00:00+02:00", 32000),
		italy(t, "2024-04-01T10:00:00+02:00", 31000),
	})
	noErr(t, "ImportTotalLoad", err)

	extremes := func(d energy.Date, peakAt string, peak float64, valleyAt string, valley float64) energy.DayExtremes {
		return energy.DayExtremes{Day: d,
			Peak:   energy.Extreme{At: at(t, peakAt), GW: peak},
			Valley: energy.Extreme{At: at(t, valleyAt), GW: valley}}
	}
	march31 := extremes(day(t, 2024, 3, 31), "2024-03-31T19:00:00+02:00", 42.5, "2024-03-31T04:00:00+02:00", 20.125)
	may1 := extremes(day(t, 2024, 5, 1), "2024-05-01T12:15:00+02:00", 30.5, "2024-05-01T03:45:00+02:00", 18.25)
	may1Revised := may1
	may1Revised.Peak.GW = 30.75

	derived := []dayView{
		{"2024-03-31", "2024-03-31T09:00:00Z", 32, "2024-03-31T08:00:00Z", 30},
		{"2024-04-01", "2024-04-01T08:00:00Z", 31, "2024-04-01T08:00:00Z", 31},
	}
	t.Run("derived only", func(t *testing.T) {
		wantDays(t, readData(t, s), derived)
	})

	importedDays := []dayView{
		{"2024-03-31", "2024-03-31T17:00:00Z", 42.5, "2024-03-31T02:00:00Z", 20.125},
		derived[1],
		{"2024-05-01", "2024-05-01T10:15:00Z", 30.5, "2024-05-01T01:45:00Z", 18.25},
	}
	revisedDays := []dayView{
		importedDays[0],
		derived[1],
		{"2024-05-01", "2024-05-01T10:15:00Z", 30.75, "2024-05-01T01:45:00Z", 18.25},
	}
	steps := []importStep[energy.DayExtremes]{{
		name:     "imported wins over derived",
		records:  []energy.DayExtremes{may1, march31},
		want:     energy.ImportStats{Read: 2, Inserted: 2},
		changes:  true,
		wantDays: importedDays,
	}, {
		name:     "same again",
		records:  []energy.DayExtremes{march31, may1},
		want:     energy.ImportStats{Read: 2, Unchanged: 2},
		changes:  false,
		wantDays: importedDays,
	}, {
		name:     "revised",
		records:  []energy.DayExtremes{march31, may1Revised},
		want:     energy.ImportStats{Read: 2, Updated: 1, Unchanged: 1},
		changes:  true,
		wantDays: revisedDays,
	}}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			before := readData(t, s)
			st, err := s.ImportPeakValley(t.Context(), step.records)
			noErr(t, "ImportPeakValley", err)
			if st != step.want {
				t.Fatalf("stats: got %+v, want %+v", st, step.want)
			}
			after := readData(t, s)
			wantVersionMove(t, before, after, step.changes)
			wantDays(t, after, step.wantDays)
		})
	}

	t.Run("new load keeps imported day", func(t *testing.T) {
		before := readData(t, s)
		st, err := s.ImportTotalLoad(t.Context(), []energy.LoadPoint{italy(t, "2024-03-31T12:00:00+02:00", 60000)})
		noErr(t, "ImportTotalLoad", err)
		if want := (energy.ImportStats{Read: 1, Inserted: 1}); st != want {
			t.Fatalf("stats: got %+v, want %+v", st, want)
		}
		after := readData(t, s)
		wantVersionMove(t, before, after, true)
		wantDays(t, after, revisedDays)
	})
}

// nan and inf are values the stores must refuse where a number is required.
func nan() float64 { return math.NaN() }
func inf() float64 { return math.Inf(1) }
