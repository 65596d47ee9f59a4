package mirror

import (
	"slices"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

func day(y int, m time.Month, d int) energy.Date { return energy.Date{Year: y, Month: m, Day: d} }

// TestPlanWindows checks each kind of window on literal cases: a date
// range on the 60-day grid from 1 January 2000 (2024-02-24 is day 8820 =
// 147 x 60 of the grid), a day, a month, a year, and a required filter's
// values; and the order:
// the named datasets first, and within them the recent before the old.
func TestPlanWindows(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(names ...string) []*dataset.Dataset {
		var out []*dataset.Dataset
		for _, n := range names {
			d, ok := cat.Lookup(n)
			if !ok {
				t.Fatalf("no dataset %s", n)
			}
			out = append(out, d)
		}
		return out
	}
	ws := Plan(PlanOptions{
		Datasets: lookup("imcei", "total-load", "aste-fcr", "installed-capacity", "generation-unit-unavailability", "market-quantity"),
		Named:    1, First: day(2024, 2, 28), Last: day(2024, 3, 2), MaxRangeDays: 60, Today: day(2025, 1, 10),
	})
	var keys []string
	for _, w := range ws {
		keys = append(keys, w.Key)
	}
	want := []string{
		// imcei, named: first, by month, the recent first.
		"imcei/2024-03-01..2024-03-31",
		"imcei/2024-02-01..2024-02-29",
		// The others, by last day, the recent first, then in the order given.
		"installed-capacity/2024-01-01..2024-12-31",
		"total-load/2024-02-24..2024-04-23",
		"market-quantity/2024-02-24..2024-04-23?sessionType=MB",
	}
	for _, k := range want {
		if !slices.Contains(keys, k) {
			t.Errorf("the plan lacks %s: %v", k, keys)
		}
	}
	if len(keys) < 2 || keys[0] != want[0] || keys[1] != want[1] || keys[2] != want[2] {
		t.Errorf("the plan starts %v, want %v", keys[:min(3, len(keys))], want[:3])
	}
	for _, k := range []string{"aste-fcr/2024-02-28..2024-02-28", "aste-fcr/2024-03-02..2024-03-02", "generation-unit-unavailability/2024-02-24..2024-04-23"} {
		if !slices.Contains(keys, k) {
			t.Errorf("the plan lacks %s", k)
		}
	}
	for _, w := range ws {
		if w.Key == "total-load/2024-02-24..2024-04-23" && (w.Query.Get("dateFrom") != "24/02/2024" || w.Query.Get("dateTo") != "23/04/2024") {
			t.Errorf("%s asks %v", w.Key, w.Query)
		}
		if w.Key == "imcei/2024-03-01..2024-03-31" && (w.Query.Get("year") != "2024" || w.Query.Get("month") != "3") {
			t.Errorf("%s asks %v", w.Key, w.Query)
		}
	}
	// One window per session type and date range, each once.
	if n := len(slices.Compact(slices.Sorted(slices.Values(keys)))); n != len(keys) {
		t.Errorf("%d keys, %d distinct", len(keys), n)
	}
}
