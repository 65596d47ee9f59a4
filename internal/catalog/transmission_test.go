package catalog

import (
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

func TestDemoForeignFlowsArePlausible(t *testing.T) {
	t.Parallel()
	in := dataset.DemoInput{First: energy.Date{Year: 2024, Month: time.January, Day: 1}, Last: energy.Date{Year: 2024, Month: time.December, Day: 30}}
	phys, all := PhysicalForeignFlow().Demo(in), ScheduledForeignExchange().Demo(in)
	// The scheduled exchanges add Corsica, which no border carries: within
	// the Sardinia - Corsica links' 450 MW, and otherwise the borders'.
	var sched []dataset.Row
	for _, r := range all {
		if r.Text[0] != energy.Corsica {
			sched = append(sched, r)
		} else if math.Abs(r.Num[0]) > 450 {
			t.Fatalf("Corsica %v MW at %d, want within 450", r.Num[0], r.Time)
		}
	}
	const hours = 365 * 24 // a year of Europe/Rome days: the 23-hour and 25-hour days make up
	if len(phys) != 7*hours || len(sched) != len(phys) || len(all) != 8*hours {
		t.Fatalf("got %d, %d and %d rows (Corsica's too), want %d, %d and %d", len(phys), len(sched), len(all), 7*hours, 7*hours, 8*hours)
	}
	var net, north, diff float64
	for i, r := range phys {
		imp, exp, flow := r.Num[0], r.Num[1], r.Num[2]
		if imp < 0 || exp < 0 || math.Abs(imp-exp-flow) > 1e-9 || (imp > 0 && exp > 0) {
			t.Fatalf("row %d: import %v, export %v, net %v", i, imp, exp, flow)
		}
		net += flow
		switch r.Text[0] {
		case "France", "Switzerland", "Austria", "Slovenia":
			north += flow
		}
		if sched[i].Time != r.Time || sched[i].Text[0] != r.Text[0] {
			t.Fatalf("row %d: scheduled and physical rows differ in key", i)
		}
		diff += math.Abs(sched[i].Num[0] - flow)
	}
	n := float64(hours)
	if avg := net / n; avg < 5000 || avg > 6500 {
		t.Errorf("average net import %.0f MW, want 5000..6500", avg)
	}
	if north/net < 0.85 {
		t.Errorf("north borders bring %.0f%% of the import, want most", 100*north/net)
	}
	if avg := diff / float64(len(phys)); avg > 100 {
		t.Errorf("scheduled exchanges differ from physical flows by %.0f MW on average, want less than 100", avg)
	}
}
