package dataset

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestImportMissingLeavesStoredParts imports a part, then imports records
// of that part and of another with ImportMissing: only the other part is
// written; with nothing left to write it returns ErrAllStored and records
// no import. HeldParts tells which parts are stored.
func TestImportMissingLeavesStoredParts(t *testing.T) {
	c := newTestCatalog(t, testSeries())
	d, _ := c.Lookup("test-series")
	m := NewMemory()
	ctx := context.Background()
	row := func(at string, v float64) Row {
		return Row{Time: rome(at), Text: []string{"North"}, Num: []float64{v, 0.5}}
	}
	if _, err := Import(ctx, m, c, d, []Row{row("2025-01-10 10:00", 1)}, time.Now()); err != nil {
		t.Fatal(err)
	}
	before, _ := m.DataVersion(ctx)
	st, err := ImportMissing(ctx, m, c, d, []Row{row("2025-01-10 10:00", 2), row("2025-01-11 10:00", 2), row("2025-02-10 10:00", 2)}, time.Now())
	if err != nil || st.Inserted != 1 {
		t.Fatalf("got %+v, %v; want February's one record inserted", st, err)
	}
	ch, err := m.ChangedParts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range ch.Parts {
		p, err := DecodePart(c.Layout(d), sp)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintln(sp.ID, p.Len(), p.Row(0).Num[0]); got != map[string]string{"2025-01": "2025-01 1 1\n", "2025-02": "2025-02 1 2\n"}[sp.ID] {
			t.Errorf("part %s: got %s", sp.ID, got)
		}
	}
	held, err := HeldParts(ctx, m, []PartRef{{"test-series", "2025-01"}, {"test-series", "2025-03"}})
	if err != nil || !held[PartRef{"test-series", "2025-01"}] || held[PartRef{"test-series", "2025-03"}] {
		t.Errorf("held: got %v, %v; want 2025-01 only", held, err)
	}
	after, _ := m.DataVersion(ctx)
	if _, err := ImportMissing(ctx, m, c, d, []Row{row("2025-02-11 10:00", 3)}, time.Now()); !errors.Is(err, ErrAllStored) {
		t.Errorf("all stored: got %v, want ErrAllStored", err)
	}
	if v, _ := m.DataVersion(ctx); v != after || after != before+1 {
		t.Errorf("data versions %d, %d, %d: want one step, for the one import that wrote", before, after, v)
	}
}

// TestDemoPeriodsNewestFirst lists a range's periods: each year, then its
// months, newest first, cut to the range; then the statistics' years.
func TestDemoPeriodsNewestFirst(t *testing.T) {
	in := DemoInput{First: energy.Date{Year: 2024, Month: time.November, Day: 15}, Last: energy.Date{Year: 2025, Month: time.January, Day: 3}, StatsFirst: 2022}
	got := DemoPeriods(in)
	if s := fmt.Sprint(got); s != "[2025 2025-01 2024 2024-12 2024-11 2023 2022]" {
		t.Errorf("got %s", s)
	}
	if got[4].First != in.First || got[1].Last != in.Last || got[5].First.Month != time.January {
		t.Errorf("got %+v, want the range's ends cut, the statistics' years whole", got)
	}
}
