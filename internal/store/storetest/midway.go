package storetest

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
)

// Refusal is the message with which a test's database refuses a row (see
// FailingMidway).
const Refusal = "refused by test trigger"

// Tables lists every table an import writes, as both schemas name them.
func Tables() []string {
	return []string{"import_runs", "parts", "part_history"}
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
			counts[table] = count(t, table)
		}
		return counts
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := readState(t, s)
			beforeRows := rows(t)
			undo := refuse(t, c.table, c.after)
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
