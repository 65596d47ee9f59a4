package storetest

import (
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
)

// Refusal is the message with which a test's database refuses a row (see
// Driver.Refuse).
const Refusal = "refused by test trigger"

// Tables lists every table an import writes, as both schemas name them.
func Tables() []string {
	return []string{"import_runs", "parts", "part_history"}
}

// testFailingMidway makes the database itself refuse a row once an import
// has already written part of its rows inside its transaction (d.Refuse),
// and checks that none of them is visible or kept.
func testFailingMidway(t *testing.T, drv Driver) {
	loc := drv.NewDB(t)
	s, db := drv.open(t, loc, nil), drv.Raw(t, loc)
	ctx := t.Context()
	// One part stored; imports that add four parts, and that replace it.
	c, d := sensorCatalog(t)
	_, err := importRows(ctx, s, c, d, readings(2024, time.January, "a", 1))
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
		{"parts", "parts", 1 + 2, importNewParts},
		{"part replaced", "part_history", 0, importReplacing},
		{"import run", "import_runs", 0, importNewParts},
	}
	rows := func(t testing.TB) map[string]int {
		counts := map[string]int{}
		for _, table := range Tables() {
			n, err := strconv.Atoi(strings.Join(db.Query(t, "SELECT count(*) FROM "+table), ""))
			noErr(t, "count of "+table, err)
			counts[table] = n
		}
		return counts
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := readState(t, s)
			beforeRows := rows(t)
			undo := drv.Refuse(t, s, c.table, c.after)
			err := c.do()
			undo()
			if err == nil || !strings.Contains(err.Error(), Refusal) {
				t.Fatalf("import: got error %v, want the database's refusal", err)
			}
			wantSameState(t, readState(t, s), before)
			if got := rows(t); !maps.Equal(got, beforeRows) {
				t.Fatalf("rows: got %v, want %v as before", got, beforeRows)
			}
		})
	}
}
