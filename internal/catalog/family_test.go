package catalog

import (
	"math"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestDemoFCRAuctions proves the demo FCR auctions' calendar and values:
// the v1.0 window's days (December 2025) answer zeros, as the live service
// does before the auctions start; every day from 3 June 2026 for at least
// a month, beyond the other datasets' end, has both areas' auctions in
// both directions; the procured capacity never exceeds the requirement;
// and some Sardinian auction cleared nothing, with no price.
func TestDemoFCRAuctions(t *testing.T) {
	in := dataset.DemoInput{First: energy.Date{Year: 2025, Month: time.December, Day: 1}, Last: energy.Date{Year: 2025, Month: time.December, Day: 31}, Seed: demo.DefaultSeed}
	perDay := map[energy.Date]int{}
	nulls := 0
	for _, r := range AsteFCR().Demo(in) {
		day := energy.DateOf(time.Unix(r.Time, 0))
		perDay[day]++
		price, qty, req := r.Num[0], r.Num[1], r.Num[2]
		if day.Compare(demo.FCRStart) < 0 {
			if price != 0 || qty != 0 || req != 0 {
				t.Errorf("%s %v: got %v, want zeros before the auctions start", day, r.Text, r.Num)
			}
			continue
		}
		if math.IsNaN(price) {
			nulls++
			if qty != 0 || r.Text[1] != "Sardegna" {
				t.Errorf("%s %v: no price but %v MW procured", day, r.Text, qty)
			}
		}
		if req <= 0 || qty > req {
			t.Errorf("%s %v: procured %v of %v MW", day, r.Text, qty, req)
		}
	}
	for d := energy.DateOf(time.Date(2025, 12, 18, 12, 0, 0, 0, energy.Rome())); d.Compare(in.Last) <= 0; d = d.AddDays(1) {
		if perDay[d] != 4 {
			t.Errorf("%s: %d records, want 4 (zeros)", d, perDay[d])
		}
	}
	for d := demo.FCRStart; d.Compare(demo.FCRStart.AddDays(30)) <= 0; d = d.AddDays(1) {
		if perDay[d] != 4 {
			t.Errorf("%s: %d auctions, want 4", d, perDay[d])
		}
	}
	if nulls == 0 {
		t.Error("no auction without a price; want some, as the live service sends null")
	}
}
