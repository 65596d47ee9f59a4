package catalog

import (
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

func TestDemoForeignFlowsArePlausible(t *testing.T) {
	in := dataset.DemoInput{First: energy.Date{Year: 2024, Month: time.January, Day: 1}, Last: energy.Date{Year: 2024, Month: time.December, Day: 30}}
	phys, sched := PhysicalForeignFlow().Demo(in), ScheduledForeignExchange().Demo(in)
	const hours = 365 * 24 // a year of Europe/Rome days: the 23-hour and 25-hour days make up
	if len(phys) != 7*hours || len(sched) != len(phys) {
		t.Fatalf("got %d and %d rows, want %d each", len(phys), len(sched), 7*hours)
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
