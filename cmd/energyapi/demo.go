package main

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
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
	st, err := openStore(ctx, *db, true)
	if err != nil {
		return err
	}
	defer st.Close()
	sums, err := writeDemo(ctx, st, newProgress(stderr, time.Now), in)
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

// writeDemo writes the deterministic demo data of every dataset of the
// catalogue that declares a generator, for in's range and seed, period by
// period (dataset.DemoPeriods); writing it again changes nothing. It marks
// the store as holding demo data of in's range, unless it is marked
// already, so that serve --demo completes the range if this stops midway,
// and, once it is written, as complete.
// It tells p what it is writing and how far it has got, and returns a
// summary per dataset.
func writeDemo(ctx context.Context, w demoWriter, p *progress, in dataset.DemoInput) ([]importSummary, error) {
	mark := demoRange(in)
	got, err := w.ServerSecret(ctx, demoRangeMarker, func() ([]byte, error) { return []byte(mark), nil })
	if err != nil {
		return nil, err
	}
	sums, err := writePeriods(ctx, &demoFill{w: w, in: in}, p, dataset.DemoPeriods(in))
	if err != nil {
		return nil, err
	}
	if string(got) == mark { // the store's demo range is complete: serve --demo has nothing to fill
		if _, err := w.ServerSecret(ctx, demoFilledMarker, func() ([]byte, error) { return []byte(mark), nil }); err != nil {
			return nil, err
		}
	}
	p.printf("demo data complete (%s)", p.elapsed())
	return sums, nil
}

// writePeriods writes periods of the demo data as f says, telling p of
// each period; it returns what each dataset's imports did, in the order
// the datasets were first written. It sets f's catalogue and written.
func writePeriods(ctx context.Context, f *demoFill, p *progress, periods []dataset.DemoPeriod) ([]importSummary, error) {
	var err error
	if f.cat, err = catalog.New(); err != nil {
		return nil, err
	}
	var order []string
	byName := map[string]*importSummary{}
	f.written = func(d *dataset.Dataset, st energy.ImportStats, took time.Duration) {
		s := byName[d.Name]
		if s == nil {
			s = &importSummary{Dataset: d.Name}
			byName[d.Name] = s
			order = append(order, d.Name)
		}
		s.RowsRead += st.Read
		s.Inserted += st.Inserted
		s.Updated += st.Updated
		s.Unchanged += st.Unchanged
		s.DurationMS += took.Milliseconds()
	}
	for k, per := range periods {
		p.printf("demo data [%d/%d]: generating and writing %s...", k+1, len(periods), per)
		n, err := f.period(ctx, per)
		if err != nil {
			return nil, err
		}
		p.printf("demo data [%d/%d]: %s: %d datasets written (%s)", k+1, len(periods), per, n, p.elapsed())
	}
	sums := make([]importSummary, len(order))
	for i, name := range order {
		sums[i] = *byName[name]
	}
	return sums, nil
}
