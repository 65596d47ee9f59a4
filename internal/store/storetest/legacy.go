package storetest

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Legacy is what the tests of migration 3 store, with each store's own SQL,
// in the per-dataset tables of schema 1 (thermoelectric, total_load and
// peak_valley), before a store of this program opens the database and
// moves the records into parts.
type Legacy struct {
	Version  int64     // the data version
	Updated  time.Time // and its time
	Thermo   []energy.ThermoRecord
	Load     []energy.LoadPoint   // NaN forecast: NULL
	Imported []energy.DayExtremes // peak_valley rows with source 'imported'
	Derived  []energy.DayExtremes // and with source 'derived', which are not moved
}

// LegacyData returns the records of the tests of migration 3.
func LegacyData(t testing.TB) Legacy {
	t.Helper()
	nan := math.NaN()
	load := func(instant string, zone energy.Zone, total, forecast float64) energy.LoadPoint {
		return energy.LoadPoint{At: at(t, instant), Zone: zone, TotalMW: total, ForecastMW: forecast}
	}
	extremes := func(d energy.Date, peakAt string, peak float64, valleyAt string, valley float64) energy.DayExtremes {
		return energy.DayExtremes{Day: d,
			Peak:   energy.Extreme{At: at(t, peakAt), GW: peak},
			Valley: energy.Extreme{At: at(t, valleyAt), GW: valley}}
	}
	return Legacy{
		Version: 7,
		Updated: time.Date(2024, 6, 1, 8, 0, 0, 0, time.UTC),
		Thermo: []energy.ThermoRecord{
			thermo(2023, "Netta", "Sicilia", "Catania", "Bioenergie", "Biogas", 12),
			thermo(2022, "Lorda", "Lazio", "Roma", "Combustibili fossili", "Carbone", 7.25),
			thermo(2023, "Lorda", "Lombardia", "Milano", "Combustibili fossili", "Gas naturale", 1234.5),
		},
		Load: []energy.LoadPoint{
			load("2024-03-31T03:00:00+02:00", energy.North, 3000, 2950),
			load("2024-04-01T00:00:00+02:00", energy.Sardinia, 1500.125, nan), // Rome's April
			load("2024-03-31T01:45:00+01:00", energy.Italy, 25000, nan),
			load("2024-04-15T12:00:00+02:00", energy.Calabria, 800, nan),
			load("2024-01-01T00:00:00+01:00", energy.Sicily, 2000, 2100), // February holds nothing
			load("2024-03-31T03:00:00+02:00", energy.Italy, 30000, 29000),
		},
		Imported: []energy.DayExtremes{
			extremes(day(t, 2024, 5, 1), "2024-05-01T12:15:00+02:00", 30.5, "2024-05-01T03:45:00+02:00", 18.25),
			extremes(day(t, 2024, 3, 31), "2024-03-31T19:00:00+02:00", 42.5, "2024-03-31T04:00:00+02:00", 20.125),
		},
		Derived: []energy.DayExtremes{
			extremes(day(t, 2024, 3, 31), "2024-03-31T03:00:00+02:00", 30, "2024-03-31T01:45:00+01:00", 25),
			extremes(day(t, 2024, 4, 1), "2024-04-01T00:00:00+02:00", 1.5, "2024-04-01T00:00:00+02:00", 1.5),
		},
	}
}

func thermo(year int, capacity, region, province, category, sub string, gwh float64) energy.ThermoRecord {
	return energy.ThermoRecord{Year: year, CapacityType: capacity, Region: region, Province: province,
		Category: category, Subcategory: sub, ProductionGWh: gwh}
}

// ImportBeforeMove imports, through s, a store on a database at schema 2
// that holds LegacyData, records that overlap the tables': as a program of
// schema 2 could have before a program of schema 3 moved the tables.
func ImportBeforeMove(t testing.TB, s Store) {
	t.Helper()
	c, err := catalog.New()
	noErr(t, "catalog.New", err)
	load, _ := c.Lookup("total-load")
	thermo, _ := c.Lookup("thermoelectric")
	loadRow := func(instant string, zone string, total, forecast float64) dataset.Row {
		return dataset.Row{Time: at(t, instant).Unix(), Text: []string{zone}, Num: []float64{total, forecast}}
	}
	_, err = dataset.Import(t.Context(), s, c, load, []dataset.Row{
		loadRow("2024-04-01T00:00:00+02:00", "Sardinia", 1600, math.NaN()), // in the table too, with 1500.125
		loadRow("2024-04-02T12:00:00+02:00", "Italy", 31000, math.NaN()),
		loadRow("2024-06-01T12:00:00+02:00", "Italy", 33000, 32000),
	}, t0())
	noErr(t, "Import total-load", err)
	_, err = dataset.Import(t.Context(), s, c, thermo, []dataset.Row{{
		Time: time.Date(2022, time.January, 1, 0, 0, 0, 0, energy.Rome()).Unix(),
		Text: []string{"Lorda", "Lazio", "Roma", "Combustibili fossili", "Carbone"},
		Num:  []float64{8}, // in the table too, with 7.25
	}}, t0())
	noErr(t, "Import thermoelectric", err)
}

// WantLegacyMoved fails the test unless s, a store of this program opened
// on a database that held LegacyData at schema 1 (or 2, with
// ImportBeforeMove's records too if imported), holds the same records as
// parts: the imported peaks and valleys but not the derived ones, every
// part at the next data version but those that an import before the move
// wrote and that the tables add nothing to, and no run for the move.
func WantLegacyMoved(t testing.TB, s Store, imported bool) {
	t.Helper()
	c, err := catalog.New()
	noErr(t, "catalog.New", err)
	ds := c.All()
	legacy := LegacyData(t)

	want := []partView{
		{"peak-valley/2024-03", 8, 2, rowLines(
			"2024-03-31T02:00:00Z valley [NaN 20.125]",
			"2024-03-31T17:00:00Z peak [42.5 NaN]",
		)},
		{"peak-valley/2024-05", 8, 2, rowLines(
			"2024-05-01T01:45:00Z valley [NaN 18.25]",
			"2024-05-01T10:15:00Z peak [30.5 NaN]",
		)},
		{"thermoelectric/2022", 8, 1, rowLines(
			"2021-12-31T23:00:00Z Lorda,Lazio,Roma,Combustibili fossili,Carbone [7.25]",
		)},
		{"thermoelectric/2023", 8, 2, rowLines(
			"2022-12-31T23:00:00Z Lorda,Lombardia,Milano,Combustibili fossili,Gas naturale [1234.5]",
			"2022-12-31T23:00:00Z Netta,Sicilia,Catania,Bioenergie,Biogas [12]",
		)},
		{"total-load/2024-01", 8, 1, rowLines(
			"2023-12-31T23:00:00Z Sicily [2000 2100]",
		)},
		{"total-load/2024-03", 8, 3, rowLines(
			"2024-03-31T00:45:00Z Italy [25000 NaN]",
			"2024-03-31T01:00:00Z Italy [30000 29000]",
			"2024-03-31T01:00:00Z North [3000 2950]",
		)},
		{"total-load/2024-04", 8, 2, rowLines(
			"2024-03-31T22:00:00Z Sardinia [1500.125 NaN]",
			"2024-04-15T10:00:00Z Calabria [800 NaN]",
		)},
	}
	version := int64(8)
	var runs []string
	if imported {
		// The imports were versions 8 (total-load) and 9 (thermoelectric);
		// the move is 10. What they stored wins over the tables, and a part
		// that holds every key of the table's records is left as it is.
		version = 10
		for i := range want {
			want[i].Version = 10
		}
		want[2] = partView{"thermoelectric/2022", 9, 1, rowLines(
			"2021-12-31T23:00:00Z Lorda,Lazio,Roma,Combustibili fossili,Carbone [8]",
		)}
		want[6] = partView{"total-load/2024-04", 10, 3, rowLines(
			"2024-03-31T22:00:00Z Sardinia [1600 NaN]",
			"2024-04-02T10:00:00Z Italy [31000 NaN]",
			"2024-04-15T10:00:00Z Calabria [800 NaN]",
		)}
		want = append(want, partView{"total-load/2024-06", 8, 1, rowLines(
			"2024-06-01T10:00:00Z Italy [33000 32000]",
		)})
		runs = []string{"thermoelectric 1 runs 1 rows", "total-load 1 runs 3 rows"}
	}

	ch := changedParts(t, s, nil)
	wantParts(t, viewParts(t, ch.Parts, ds...), want)
	if ch.Version != version || dataVersion(t, s) != version {
		t.Fatalf("data version: got %d (DataVersion %d), want %d", ch.Version, dataVersion(t, s), version)
	}
	if !ch.Updated.After(legacy.Updated) {
		t.Fatalf("Updated: got %v, want the time of the move, after %v", ch.Updated, legacy.Updated)
	}
	totals, err := s.ImportTotals(t.Context())
	noErr(t, "ImportTotals", err)
	var got []string
	for _, x := range totals {
		got = append(got, fmt.Sprintf("%s %d runs %d rows", x.Dataset, x.Runs, x.Rows))
	}
	if !slices.Equal(got, runs) {
		t.Fatalf("ImportTotals: got %q, want %q: the move is no import", got, runs)
	}
}
