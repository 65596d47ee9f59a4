package web_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// recentDays is how many of the demo's last days the browser tests serve:
// the dashboard's default week and all of the v1.0 datasets, which cover
// the demo's last 14 days only. It is longer than those 14 days so that the
// datasets spanning the whole range show by starting on its first day.
const recentDays = 21

// clockChanges are the 2025 days the tests show besides the recent ones: a
// 23-hour day in March and a 25-hour day in October.
var clockChanges = []energy.Date{
	{Year: 2025, Month: time.March, Day: 30},
	{Year: 2025, Month: time.October, Day: 26},
}

// fullDemo returns the catalogue and what serve --demo writes for every
// dataset, on the days the browser tests show: the last recentDays days of
// the demo range, and the clock-change days of the datasets that span the
// whole range. Generators are smooth functions of the instant, so a day's
// records do not depend on the range asked (every answer of those days
// matched a serve --demo store when this was written); generating seven
// years under the race detector would take minutes. The monthly and yearly
// datasets built from the time series (imcei, demand coverage) hold only
// what these windows give, not serve --demo's figures; no browser test
// draws them. The data are generated once per test binary (no test writes
// them: a PartSource is read-only).
func fullDemo(tb testing.TB) (*dataset.Catalog, dataset.PartSource) {
	tb.Helper()
	fullDemoOnce.Do(func() { fullDemoOnce.cat, fullDemoOnce.src, fullDemoOnce.err = generateFullDemo() })
	if fullDemoOnce.err != nil {
		tb.Fatal(fullDemoOnce.err)
	}
	return fullDemoOnce.cat, fullDemoOnce.src
}

var fullDemoOnce struct {
	sync.Once
	cat *dataset.Catalog
	src dataset.PartSource
	err error
}

func generateFullDemo() (*dataset.Catalog, dataset.PartSource, error) {
	cat, err := catalog.New()
	if err != nil {
		return nil, nil, err
	}
	m := dataset.NewMemory()
	_, last := demo.LoadRange()
	recent := dataset.DemoInput{First: last.AddDays(1 - recentDays), Last: last, Seed: demo.DefaultSeed}
	// spanning names the datasets whose demo data start on the range's
	// first day (every time series, now that the v1.0 ones span the demo
	// range too), which serve --demo has on the clock-change days.
	spanning := map[string]bool{}
	err = cat.EachDemo(recent, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
		rows := generate()
		if len(rows) > 0 && d.Grain < dataset.Month && rows[0].Time < recent.First.AddDays(1).Start().Unix() {
			spanning[d.Name] = true
		}
		return importDemo(m, cat, d, rows)
	})
	for _, day := range clockChanges {
		if err != nil {
			break
		}
		in := dataset.DemoInput{First: day, Last: day, Seed: demo.DefaultSeed}
		err = cat.EachDemo(in, func(_, _ int, d *dataset.Dataset, generate func() []dataset.Row) error {
			rows := generate() // a later generator may read them
			if !spanning[d.Name] {
				return nil
			}
			return importDemo(m, cat, d, rows)
		})
	}
	if err != nil {
		return nil, nil, err
	}
	return cat, m, nil
}

func importDemo(m *dataset.Memory, cat *dataset.Catalog, d *dataset.Dataset, rows []dataset.Row) error {
	if len(rows) == 0 {
		return nil
	}
	if _, err := dataset.Import(context.Background(), m, cat, d, rows, time.Unix(0, 0)); err != nil {
		return fmt.Errorf("demo %s: %w", d.Name, err)
	}
	return nil
}
