package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/api/apitest"
	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// grainWindows are the days around the grain changes the catalogue
// declares (internal/catalog/grain_changes.go) and the 2025 clock changes.
var grainWindows = [][2]energy.Date{
	{{Year: 2024, Month: time.December, Day: 31}, {Year: 2025, Month: time.January, Day: 1}},
	{{Year: 2025, Month: time.March, Day: 30}, {Year: 2025, Month: time.March, Day: 30}},
	{{Year: 2025, Month: time.September, Day: 30}, {Year: 2025, Month: time.October, Day: 1}},
	{{Year: 2025, Month: time.October, Day: 26}, {Year: 2025, Month: time.October, Day: 26}},
}

// grainOnce holds the demo data of grainWindows for the datasets whose
// grain changes, generated as serve --demo generates them.
var grainOnce struct {
	sync.Once
	cat *dataset.Catalog
	src dataset.PartSource
	err error
}

func grainHarness(t *testing.T) (*harness, *dataset.Catalog) {
	t.Helper()
	generateGrainDemo()
	if grainOnce.err != nil {
		t.Fatal(grainOnce.err)
	}
	return newHarnessWith(t, apitest.Options{Catalog: grainOnce.cat, Source: grainOnce.src}), grainOnce.cat
}

// generateGrainDemo fills grainOnce on its first call.
func generateGrainDemo() {
	grainOnce.Do(func() {
		grainOnce.cat, grainOnce.err = catalog.New()
		if grainOnce.err != nil {
			return
		}
		m := dataset.NewMemory()
		grainOnce.src = m
		for _, w := range grainWindows {
			in := dataset.DemoInput{First: w[0], Last: w[1], Seed: demo.DefaultSeed}
			grainOnce.err = grainOnce.cat.EachDemo(in, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
				if len(d.GrainChanges) == 0 {
					return nil
				}
				_, err := dataset.Import(context.Background(), m, grainOnce.cat, d, generate(), time.Unix(0, 0))
				return err
			})
			if grainOnce.err != nil {
				return
			}
		}
	})
}

// TestGrainChangesServedByTheDemo asks the served demo data of each
// dataset whose grain changes for single days: every series (the values
// of its text fields) has 24 hourly records on the last hourly day, 96
// quarter hours on the first quarter-hourly day, 100 on 26 October 2025
// (25 hours) and, on 30 March 2025 (23 hours), 92 quarter hours or 23
// hours as the dataset's grain is that day.
func TestGrainChangesServedByTheDemo(t *testing.T) {
	t.Parallel()
	h, cat := grainHarness(t)
	changed := 0
	for _, d := range cat.All() {
		if len(d.GrainChanges) == 0 {
			continue
		}
		changed++
		from := d.GrainChanges[0].From
		march := energy.Date{Year: 2025, Month: time.March, Day: 30}
		marchWant := 23
		if d.GrainOn(march) == dataset.QuarterHour {
			marchWant = 92
		}
		for _, tc := range []struct {
			name string
			day  energy.Date
			want int
		}{
			{"last hourly day", from.AddDays(-1), 24},
			{"first quarter-hourly day", from, 96},
			{"30 March 2025", march, marchWant},
			{"26 October 2025", energy.Date{Year: 2025, Month: time.October, Day: 26}, 100},
		} {
			t.Run(d.Name+"/"+tc.name, func(t *testing.T) {
				path := d.Path() + "?dateFrom=" + tc.day.DMY() + "&dateTo=" + tc.day.DMY()
				if d.Takes("sessionType") {
					path += "&sessionType=MSD1"
				}
				recs := recordsOf(t, path, h.get(t, path), d.Array)
				series := map[string]int{}
				for _, r := range recs {
					var key []string
					for _, f := range d.TextFields() {
						key = append(key, r[f])
					}
					series[strings.Join(key, "|")]++
				}
				if len(series) == 0 {
					t.Fatalf("%s: no records", path)
				}
				for k, n := range series {
					if n != tc.want {
						t.Errorf("%s: series %s has %d records, want %d", path, k, n, tc.want)
					}
				}
			})
		}
	}
	if changed < 2 {
		t.Errorf("%d datasets declare a grain change, want the generation and market series", changed)
	}
}

// TestGrainChangeResolution checks resolution across a grain change:
// PT15M is refused on a day of hourly records and answered from the
// change on, and PT1H gives 24 hours on both sides.
func TestGrainChangeResolution(t *testing.T) {
	t.Parallel()
	h, _ := grainHarness(t)
	const gen = "/generation/v2.0/actual-generation?type=Wind&"
	for _, tc := range []struct {
		name, query string
		status      int
		records     int
	}{
		{"PT15M on an hourly day", "dateFrom=31/12/2024&dateTo=01/01/2025&resolution=PT15M", http.StatusBadRequest, 0},
		{"PT15M from the change", "dateFrom=01/01/2025&dateTo=01/01/2025&resolution=PT15M", http.StatusOK, 96},
		{"PT1H across the change", "dateFrom=31/12/2024&dateTo=01/01/2025&resolution=PT1H", http.StatusOK, 48},
		{"P1D across the change", "dateFrom=31/12/2024&dateTo=01/01/2025&resolution=P1D", http.StatusOK, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.get(t, gen+tc.query)
			if r.status != tc.status {
				t.Fatalf("got %d %s, want %d", r.status, r.body, tc.status)
			}
			if tc.status != http.StatusOK {
				if !strings.Contains(string(r.body), "before 01/01/2025") {
					t.Errorf("refusal %s does not name the day of the change", r.body)
				}
				return
			}
			if got := len(recordsOf(t, tc.query, r, "actual_generation")); got != tc.records {
				t.Errorf("got %d records, want %d", got, tc.records)
			}
		})
	}
	// The quarter hours of the first quarter-hourly day average to the hours of the model.
	hourly := recordsOf(t, "PT1H", h.get(t, gen+"dateFrom=01/01/2025&dateTo=01/01/2025&resolution=PT1H"), "actual_generation")
	quarters := recordsOf(t, "raw", h.get(t, gen+"dateFrom=01/01/2025&dateTo=01/01/2025"), "actual_generation")
	for i, r := range hourly {
		if q := quarters[4*i]; fmt.Sprint(q["actual_generation_GWh"]) != r["actual_generation_GWh"] || q["date"] != r["date"] {
			t.Errorf("hour %s: %s GW, its first quarter hour %s %s GW", r["date"], r["actual_generation_GWh"], q["date"], q["actual_generation_GWh"])
		}
	}
}
