package catalog

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// TestDemoSeriesHaveWholeDays proves, for every quarter-hourly and hourly
// dataset of the catalogue and every series in its demo data (one per
// combination of key values), that each Europe/Rome day holds exactly its
// quarter hours (92, 96 or 100) or hours (23, 24 or 25), and that the
// instants rise strictly, one step apart, from the first day to the last:
// the clock changes neither drop nor repeat an instant. It looks at the
// weeks of the clock changes of the demo range's last year (seven years
// of every dataset are tens of millions of records), which
// TestDemoPeriodsMatchTheWholeRange shows are as the whole range has them.
func TestDemoSeriesHaveWholeDays(t *testing.T) {
	t.Parallel()
	_, last := demo.LoadRange()
	for _, m := range []time.Month{time.March, time.October} {
		// The change is on the month's last Sunday.
		change := energy.Date{Year: last.Year, Month: m + 1, Day: 1}.AddDays(-1)
		for time.Date(change.Year, change.Month, change.Day, 12, 0, 0, 0, time.UTC).Weekday() != time.Sunday {
			change = change.AddDays(-1)
		}
		checkDemoWholeDays(t, dataset.DemoInput{First: change.AddDays(-3), Last: change.AddDays(3), Seed: demo.DefaultSeed})
	}
}

func checkDemoWholeDays(t *testing.T, in dataset.DemoInput) {
	t.Helper()
	c := mustNew(t)
	err := c.EachDemo(in, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
		rows := generate()
		var step int64
		// Each month checked lies on one side of any grain change.
		switch d.GrainOn(in.First) {
		case dataset.QuarterHour:
			step = 900
		case dataset.Hour:
			step = 3600
		default:
			return nil
		}
		lay := c.Layout(d)
		var keys []int
		for _, name := range d.KeyNames() {
			i, _ := lay.TextIndex(name)
			keys = append(keys, i)
		}
		series := map[string][]int64{}
		for _, r := range rows {
			var k strings.Builder
			for _, i := range keys {
				k.WriteString(r.Text[i] + "|")
			}
			series[k.String()] = append(series[k.String()], r.Time)
		}
		if len(series) == 0 {
			t.Errorf("%s: no demo data", d.Name)
		}
		for name, times := range series {
			if strings.HasSuffix(d.Name, "-requirement") && !strings.Contains(name, "|MSD1|") {
				continue // later sessions restate the hours ahead only: TestDemoLiveTiming
			}
			step := step
			// The Fees' quarter-hourly datasets hold hourly series too
			// (data_type Orario): such a series is checked as hourly.
			if step == 900 && len(times) > 1 && times[1]-times[0] == 3600 {
				step = 3600
			}
			checkWholeDays(t, d.Name+" "+name, times, step)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func checkWholeDays(t *testing.T, name string, times []int64, step int64) {
	t.Helper()
	first := energy.DateOf(time.Unix(times[0], 0))
	if times[0] != first.Start().Unix() {
		t.Errorf("%s: starts at %v, not at the start of a day", name, time.Unix(times[0], 0))
		return
	}
	for i := 1; i < len(times); i++ {
		if times[i]-times[i-1] != step {
			t.Errorf("%s: %v follows %v", name, time.Unix(times[i], 0).In(energy.Rome()), time.Unix(times[i-1], 0).In(energy.Rome()))
			return
		}
	}
	last := energy.DateOf(time.Unix(times[len(times)-1], 0))
	if end := last.End().Unix(); times[len(times)-1] != end-step {
		t.Errorf("%s: ends at %v, not at the end of a day", name, time.Unix(times[len(times)-1], 0))
	}
	// Count each Europe/Rome day's instants: 23, 24 or 25 hours' worth, and
	// 23 or 25 only on the days the clocks change.
	perDay := map[energy.Date]int64{}
	for _, u := range times {
		perDay[energy.DateOf(time.Unix(u, 0))]++
	}
	for d := first; d.Compare(last) <= 0; d = d.AddDays(1) {
		hours := perDay[d] * step / 3600
		_, startOff := d.Start().Zone()
		_, endOff := d.End().Zone()
		want := int64(24 + (startOff-endOff)/3600) // 23 in March, 25 in October
		if hours != want {
			t.Errorf("%s: %s has %d hours of data, want %d", name, d, hours, want)
		}
	}
}

// TestDemoIMCEIDoesNotDependOnTheRange generates 2024's industrial index
// alone and within 2019-2024: the index is the model's, so a range without
// its base year 2019 must give the same finite values, not +Inf.
func TestDemoIMCEIDoesNotDependOnTheRange(t *testing.T) {
	t.Parallel()
	c := mustNew(t)
	imcei := func(first energy.Date) map[string][2]float64 {
		out := map[string][2]float64{}
		in := dataset.DemoInput{First: first, Last: energy.Date{Year: 2024, Month: time.December, Day: 31}, Seed: demo.DefaultSeed}
		// The index alone, and the total load it reads, generated as
		// EachDemo generates them.
		err := c.EachDemoOf(in, []string{"imcei"}, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
			for _, r := range generate() {
				if d.Name == "imcei" && time.Unix(r.Time, 0).In(energy.Rome()).Year() == 2024 {
					out[fmt.Sprint(r.Time, r.Text)] = [2]float64{r.Num[0], r.Num[1]}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	alone, within := imcei(energy.Date{Year: 2024, Month: time.January, Day: 1}), imcei(energy.Date{Year: 2019, Month: time.January, Day: 1})
	if len(alone) == 0 || len(alone) != len(within) {
		t.Fatalf("got %d records of 2024 alone and %d within 2019-2024, want the same, not none", len(alone), len(within))
	}
	for k, v := range alone {
		if math.IsInf(v[0], 0) || math.IsNaN(v[0]) || v[0] <= 0 || v[0] > 1000 {
			t.Fatalf("%s: index %v, want a finite index", k, v[0])
		}
		if v != within[k] {
			t.Errorf("%s: %v generated alone, %v within 2019-2024, want the same", k, v, within[k])
		}
	}
}
