package catalog

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// someDemoLoad is the demo input of a week across the spring 2024 change,
// with its total load.
func someDemoLoad() dataset.DemoInput {
	from := energy.Date{Year: 2024, Month: time.March, Day: 27}
	return demoLoadInput(from, from.AddDays(6))
}

// demoLoadInput is the input of the generators that read total-load, for
// the days first to last with the default seed.
func demoLoadInput(first, last energy.Date) dataset.DemoInput {
	return dataset.DemoInput{First: first, Last: last, Seed: demo.DefaultSeed,
		From: map[string][]dataset.Row{"total-load": TotalLoadRows(demo.TotalLoad(first, last))}}
}

func TestDemoMarketLoadFollowsTotalLoad(t *testing.T) {
	t.Parallel()
	src := someDemoLoad()
	rows := MarketLoad().Demo(src)
	if len(rows) != len(src.From["total-load"]) {
		t.Fatalf("got %d rows, want one per total-load row (%d)", len(rows), len(src.From["total-load"]))
	}
	var zones float64
	for i, r := range rows {
		tot := src.From["total-load"][i]
		if r.Time != tot.Time || r.Text[0] != tot.Text[0] {
			t.Fatalf("row %d: got %v %s, want %v %s", i, r.Time, r.Text[0], tot.Time, tot.Text[0])
		}
		if share := 1 - r.Num[0]/tot.Num[0]; share < 0.02 || share > 0.07 {
			t.Errorf("row %d %s: market %v is %.3f below total %v, want 2..7%%", i, r.Text[0], r.Num[0], share, tot.Num[0])
		}
		if miss := math.Abs(r.Num[1]/r.Num[0] - tot.Num[1]/tot.Num[0]); miss > 0.011 {
			t.Errorf("row %d: forecast error differs from total-load's by %.4f, want at most 1%%", i, miss)
		}
		if r.Text[0] == string(energy.Italy) {
			if math.Abs(r.Num[0]-zones) > 1e-6 {
				t.Errorf("row %d: Italy %v, want the zones' sum %v", i, r.Num[0], zones)
			}
			zones = 0
		} else {
			zones += r.Num[0]
		}
	}
}

func TestDemoPeakValleyDetailsAddUp(t *testing.T) {
	t.Parallel()
	rows := PeakValleyLoadDetails().Demo(someDemoLoad())
	// Seven days, a peak and a valley each, eight sources each.
	if len(rows) != 7*2*8 {
		t.Fatalf("got %d rows, want %d", len(rows), 7*2*8)
	}
	for i := 0; i < len(rows); i += 8 {
		var sum float64
		total := rows[i].Num[0]
		if math.IsNaN(total) {
			total = rows[i].Num[1]
		}
		for _, r := range rows[i : i+8] {
			if r.Time != rows[i].Time {
				t.Fatalf("record %d: sources of one moment at different times", i)
			}
			sum += r.Num[2]
		}
		if math.Abs(sum-total) > 0.0015 || total < 15 || total > 60 {
			t.Errorf("moment %v: sources add up to %.3f, want the load %.3f GW (15..60)", time.Unix(rows[i].Time, 0), sum, total)
		}
		if thermal := rows[i].Num[2]; thermal < 2 {
			t.Errorf("moment %v: thermal %v GW, want at least 2", time.Unix(rows[i].Time, 0), thermal)
		}
	}
}

func TestPeakValleyDetailsImportNeedsExactlyOneValue(t *testing.T) {
	for name, row := range map[string]string{
		"both":    "2024-07-16 15:00:00,52.1,24,30.5,Thermal",
		"neither": "2024-07-16 15:00:00,,,30.5,Thermal",
	} {
		_, err := importPeakValleyDetails("d.csv", strings.NewReader("date,peak_load_GW,valley_load_GW,primary_source_GW,type\n"+row+"\n"))
		if err == nil || !strings.Contains(err.Error(), "exactly one of peak_load_GW and valley_load_GW") {
			t.Errorf("%s: got %v, want an error asking for exactly one value", name, err)
		}
	}
	rows, err := importPeakValleyDetails("d.csv", strings.NewReader("date,peak_load_GW,valley_load_GW,primary_source_GW,type\n"+
		"2024-07-16 15:00:00,52.1,,30.5,Thermal\n2024-07-16 04:00:00,,24,3,Thermal\n"))
	if err != nil || len(rows) != 2 || rows[0].Text[1] != peakKind || rows[1].Text[1] != valleyKind {
		t.Errorf("got %+v, %v; want a peak and a valley record", rows, err)
	}
}
