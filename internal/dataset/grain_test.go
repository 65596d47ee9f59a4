package dataset

import (
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
)

// TestGrainChangesChecked checks the declarations NewCatalog refuses and
// the grain each day gets from those it accepts.
func TestGrainChangesChecked(t *testing.T) {
	oct := energy.Date{Year: 2025, Month: time.October, Day: 1}
	for _, tc := range []struct {
		name    string
		grain   Grain
		changes []GrainChange
		ok      bool
	}{
		{"hourly to quarter-hourly", Hour, []GrainChange{{From: oct, Grain: QuarterHour}}, true},
		{"to the same grain", Hour, []GrainChange{{From: oct, Grain: Hour}}, false},
		{"to a day", Hour, []GrainChange{{From: oct, Grain: Day}}, false},
		{"from a day", Day, []GrainChange{{From: oct, Grain: QuarterHour}}, false},
		{"out of order", Hour, []GrainChange{{From: oct, Grain: QuarterHour}, {From: oct.AddDays(-1), Grain: Hour}}, false},
	} {
		d := testSeries()
		d.Grain, d.GrainChanges = tc.grain, tc.changes
		if _, err := NewCatalog(d); (err == nil) != tc.ok {
			t.Errorf("%s: NewCatalog error %v, want ok %v", tc.name, err, tc.ok)
		}
	}
	d := testSeries()
	d.GrainChanges = []GrainChange{{From: oct, Grain: QuarterHour}}
	for _, tc := range []struct {
		day  energy.Date
		want Grain
	}{{oct.AddDays(-1), Hour}, {oct, QuarterHour}, {oct.AddDays(400), QuarterHour}} {
		if got := d.GrainOn(tc.day); got != tc.want {
			t.Errorf("GrainOn(%s) = %v, want %v", tc.day, got, tc.want)
		}
		if got := d.GrainAt(tc.day.Start().Unix() + 3599); got != tc.want {
			t.Errorf("GrainAt(%s 00:59:59) = %v, want %v", tc.day, got, tc.want)
		}
	}
	if got := d.FinestGrain(); got != QuarterHour {
		t.Errorf("FinestGrain = %v, want quarter-hour", got)
	}
	if got := (DemoInput{}).GrainOn(oct); got != 0 {
		t.Errorf("a DemoInput made for no dataset gives grain %v, want 0", got)
	}
}
