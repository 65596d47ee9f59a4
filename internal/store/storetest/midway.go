package storetest

import (
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// Refusal is the message with which a test's database refuses a row (see
// FailingMidway).
const Refusal = "refused by test trigger"

// Tables lists every table an import writes, as both schemas name them.
func Tables() []string {
	return []string{"thermoelectric", "total_load", "peak_valley", "import_runs", "parts", "part_history"}
}

// FailingMidway makes the database itself refuse a row once an import has
// already written part of its rows inside its transaction, and checks that
// none of them is visible or kept.
//
// s must be a new, empty store. refuse must make the database fail, with an
// error that says Refusal, every insert into table while it holds at least
// after rows (counting the import's own, uncommitted ones), and return a
// function that undoes that; count returns how many rows table holds. Both
// need SQL, which is each store's own.
func FailingMidway(t *testing.T, s Store, refuse func(t testing.TB, table string, after int) (undo func()), count func(t testing.TB, table string) int) {
	ctx := t.Context()
	start := time.Date(2024, 3, 1, 0, 0, 0, 0, energy.Rome())
	var seed []energy.LoadPoint
	for i := range 96 {
		seed = append(seed, energy.LoadPoint{At: start.Add(time.Duration(i) * 15 * time.Minute),
			Zone: energy.Italy, TotalMW: 30000, ForecastMW: nan()})
	}
	_, err := s.ImportTotalLoad(ctx, seed)
	noErr(t, "ImportTotalLoad", err)
	recs := make([]energy.ThermoRecord, 1000)
	for i := range recs {
		recs[i] = thermo(2023, "Lorda", "R", fmt.Sprintf("P%04d", i), "C", "S", 1)
	}
	load := make([]energy.LoadPoint, 2000)
	for i := range load {
		load[i] = energy.LoadPoint{At: start.AddDate(0, 1, 0).Add(time.Duration(i) * 15 * time.Minute),
			Zone: energy.Italy, TotalMW: 31000, ForecastMW: nan()}
	}
	importThermo := func() error { _, err := s.ImportThermoelectric(ctx, recs); return err }
	importLoad := func() error { _, err := s.ImportTotalLoad(ctx, load); return err }

	// One part stored; imports that add four parts, and that replace it.
	c, d := sensorCatalog(t)
	_, err = importRows(ctx, s, c, d, readings(2024, time.January, "a", 1))
	noErr(t, "Import", err)
	var newParts []dataset.Row
	for m := time.January; m <= time.April; m++ {
		newParts = append(newParts, readings(2025, m, "a", 1)...)
	}
	importNewParts := func() error { _, err := importRows(ctx, s, c, d, newParts); return err }
	importReplacing := func() error {
		_, err := importRows(ctx, s, c, d, readings(2024, time.January, "a", 2))
		return err
	}

	cases := []struct {
		name  string
		table string
		after int // rows the table holds, within the import, when it refuses
		do    func() error
	}{
		{"thermoelectric", "thermoelectric", 500, importThermo},
		{"total load rows", "total_load", 96 + 1000, importLoad},
		{"total load derived day", "peak_valley", 1 + 10, importLoad},
		{"import run", "import_runs", 0, importLoad},
		{"parts", "parts", 1 + 2, importNewParts},
		{"part replaced", "part_history", 0, importReplacing},
		{"part import run", "import_runs", 0, importNewParts},
	}
	rows := func(t testing.TB) map[string]int {
		counts := map[string]int{}
		for _, table := range Tables() {
			counts[table] = count(t, table)
		}
		return counts
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := readData(t, s)
			beforeParts := changedParts(t, s, nil)
			beforeRows := rows(t)
			undo := refuse(t, c.table, c.after)
			err := c.do()
			undo()
			if err == nil || !strings.Contains(err.Error(), Refusal) {
				t.Fatalf("import: got error %v, want the database's refusal", err)
			}
			after := readData(t, s)
			if after.Version != before.Version || len(after.Thermo) != len(before.Thermo) || len(after.PeakValley) != len(before.PeakValley) {
				t.Fatalf("ReadData: got version %d, %d records, %d days; want %d, %d, %d as before",
					after.Version, len(after.Thermo), len(after.PeakValley), before.Version, len(before.Thermo), len(before.PeakValley))
			}
			wantSameChanges(t, changedParts(t, s, nil), beforeParts)
			if got := rows(t); !maps.Equal(got, beforeRows) {
				t.Fatalf("rows: got %v, want %v as before", got, beforeRows)
			}
		})
	}
}
