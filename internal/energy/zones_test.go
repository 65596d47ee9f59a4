package energy

import (
	"slices"
	"testing"
)

// TestBiddingZonesTable checks the one table of the zones: Zones is it
// with Italy, each vocabulary names seven different zones, every zone
// sits in a known macrozone and macroarea, and the commercial balance
// zones hold each zone's code once.
func TestBiddingZonesTable(t *testing.T) {
	zs := BiddingZones()
	if got := Zones(); len(got) != len(zs)+1 || got[len(got)-1] != Italy {
		t.Fatalf("Zones() = %v, want the %d bidding zones and Italy", got, len(zs))
	}
	for i, z := range zs {
		if Zones()[i] != z.Zone {
			t.Errorf("Zones()[%d] = %s, want %s", i, Zones()[i], z.Zone)
		}
		if !slices.Contains(Macrozones(), z.Macrozone) || !slices.Contains(Macroareas(), z.Macroarea) {
			t.Errorf("%s: macrozone %q or macroarea %q unknown", z.Zone, z.Macrozone, z.Macroarea)
		}
	}
	for _, v := range ZoneVocabs() {
		names := v.Names()
		if len(names) != 7 || len(slices.Compact(slices.Sorted(slices.Values(names)))) != 7 {
			t.Errorf("vocabulary %d names %v, want seven different names", v, names)
		}
	}
	var codes []string
	for _, b := range BalanceZones() {
		codes = append(codes, b.Code)
	}
	for _, z := range zs {
		if n := len(slices.DeleteFunc(slices.Clone(codes), func(c string) bool { return c != z.Code })); n != 1 {
			t.Errorf("BalanceZones holds %s %d times, want once", z.Code, n)
		}
	}
}
