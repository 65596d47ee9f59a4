package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// Demo client credentials: public by design, so that the README's examples
// work on a fresh machine. serve --demo refuses non-loopback addresses.
const (
	demoClientID     = "demo"
	demoClientSecret = "demo-secret"
)

// maxDemoYears bounds the range of `energyapi demo`: the quarter-hourly
// series of twenty years are about 6 million rows a dataset.
const maxDemoYears = 20

func runDemo(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("demo", stderr)
	db := dbFlag(fs)
	first, last := demo.LoadRange()
	from := fs.String("from", first.String(), "first day of the demo time series, yyyy-mm-dd")
	to := fs.String("to", last.String(), "last day of the demo time series, yyyy-mm-dd")
	seed := fs.Uint64("seed", demo.DefaultSeed, "seed of the synthetic power system's weather and noise")
	only := fs.String("periods", "", "write only these periods of the range, comma-separated: months (2025-12) and years (2025: the datasets kept in yearly parts); default every period")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("demo takes no arguments")
	}
	in := dataset.DemoInput{Seed: *seed, StatsFirst: demo.ThermoFirstYear}
	var err error
	if in.First, err = parseDay("--from", *from); err != nil {
		return err
	}
	if in.Last, err = parseDay("--to", *to); err != nil {
		return err
	}
	if in.First.Compare(in.Last) > 0 {
		return usagef("--from %s is after --to %s", in.First, in.Last)
	}
	if in.First.AddDays(366*maxDemoYears).Compare(in.Last) < 0 {
		return usagef("--from %s to --to %s: at most %d years of demo data", in.First, in.Last, maxDemoYears)
	}
	periods, err := pickPeriods(dataset.DemoPeriods(in), *only)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, *db, true)
	if err != nil {
		return err
	}
	defer st.Close()
	sums, err := writeDemo(ctx, st, newProgress(stderr, time.Now), in, periods)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for _, s := range sums {
		if err := enc.Encode(s); err != nil {
			return err
		}
	}
	return nil
}

// parseDay parses a day written yyyy-mm-dd for the flag name.
func parseDay(name, v string) (energy.Date, error) {
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return energy.Date{}, invalidValue(name, v, "a day, yyyy-mm-dd")
	}
	return energy.Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}, nil
}

// defaultDemo is the demo data serve --demo writes: the default range
// (demo.LoadRange) and seed.
func defaultDemo() dataset.DemoInput {
	first, last := demo.LoadRange()
	return dataset.DemoInput{First: first, Last: last, Seed: demo.DefaultSeed, StatsFirst: demo.ThermoFirstYear}
}

// pickPeriods returns the periods of all that list names (comma-separated,
// as DemoPeriod.String writes them), or all of them for an empty list.
func pickPeriods(all []dataset.DemoPeriod, list string) ([]dataset.DemoPeriod, error) {
	if list == "" {
		return all, nil
	}
	byName := map[string]dataset.DemoPeriod{}
	for _, p := range all {
		byName[p.String()] = p
	}
	var out []dataset.DemoPeriod
	for name := range strings.SplitSeq(list, ",") {
		p, ok := byName[strings.TrimSpace(name)]
		if !ok {
			return nil, invalidValue("--periods", name, "a month (yyyy-mm) or year (yyyy) of the demo range")
		}
		out = append(out, p)
	}
	return out, nil
}
