package catalog

import (
	"testing"

	"github.com/energyapi/energyapi/internal/demo"
)

// The demo transit limits rest on fixed link ratings while the flows come
// from the zonal balance; a margin below zero would mean a scheduled
// exchange beyond its limit, which the market never clears.
func TestDemoTransitMarginsNeverNegative(t *testing.T) {
	t.Parallel()
	_, last := demo.LoadRange()
	in := demoLoadInput(last.AddDays(-20), last)
	in.From["scheduled-internal-exchange"] = ScheduledInternalExchange().Demo(in)
	rows := MarketTransitMargins().Demo(in)
	if len(rows) == 0 {
		t.Fatal("no demo transit margins")
	}
	for _, r := range rows {
		if r.Num[0] < 0 {
			t.Errorf("%d %s -> %s %s: margin %v MW, want at least 0", r.Time, r.Text[0], r.Text[1], r.Text[2], r.Num[0])
		}
	}
}
