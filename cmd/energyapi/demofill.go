package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/auth"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
	"github.com/energyapi/energyapi/internal/energy"
)

// Demo data are written a period at a time (dataset.DemoPeriods: a month
// of the time series, a year of the yearly datasets), newest first, each
// dataset's period one import. `energyapi demo` writes every period before
// it returns; serve --demo writes the newest month before it serves and
// the rest in the background (runFill), only into parts the store does
// not hold, so that a restart resumes where it stopped and imports keep
// winning.

// Names of the store's write-once markers (ServerSecret) of the demo data.
const (
	// demoRangeMarker is the demo range of a store first filled by demo
	// data ("2019-01-01..2025-12-31 seed 123"), or "none" for a store that
	// held data before serve --demo first ran on it: only the former is
	// filled in the background.
	demoRangeMarker = "demo-data-range"
	// demoFilledMarker is written once the whole range is in the store, so
	// that later starts need not look.
	demoFilledMarker = "demo-data-filled"
)

// fillLogEvery is how many parts the background fill writes between two
// progress lines of the log.
const fillLogEvery = 100

// demoWriter is what writing demo data needs of the store.
type demoWriter interface {
	dataset.PartWriter
	ServerSecret(ctx context.Context, name string, gen func() ([]byte, error)) ([]byte, error)
}

// demoFill writes the demo data of in's range into w, period by period.
type demoFill struct {
	cat *dataset.Catalog
	w   dataset.PartWriter
	in  dataset.DemoInput
	// missingOnly writes only the parts the store does not hold (the
	// serve --demo fill); otherwise records are merged on their key as an
	// import merges them (`energyapi demo`).
	missingOnly bool
	// only, when set, picks the datasets to write.
	only func(d *dataset.Dataset) bool
	// idle, when set, is how long to pause after each import, as a
	// share of the time it took: the background fill leaves the CPU to
	// the requests it serves meanwhile.
	idle float64
	// written is told of each import: its dataset, its counts and how long
	// it took to generate and write.
	written func(d *dataset.Dataset, st energy.ImportStats, took time.Duration)
}

// period writes the demo data of p, one import per dataset, and returns
// the number of imports that wrote parts. With missingOnly, a dataset
// whose part of p the store holds is not even generated.
func (f *demoFill) period(ctx context.Context, p dataset.DemoPeriod) (int, error) {
	held := map[dataset.PartRef]bool{}
	if f.missingOnly {
		var err error
		if held, err = dataset.HeldParts(ctx, f.w, p.Refs(f.cat, f.in)); err != nil {
			return 0, err
		}
	}
	n := 0
	err := f.cat.EachDemoIn(f.in, p, func(d *dataset.Dataset, generate func() []dataset.Row) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if held[dataset.PartRef{Dataset: d.Name, ID: dataset.PartID(d.Grain, p.First.Start().Unix())}] || f.only != nil && !f.only(d) {
			return nil
		}
		start := time.Now()
		rows := generate()
		if len(rows) == 0 {
			return nil
		}
		imp := dataset.Import
		if f.missingOnly {
			imp = dataset.ImportMissing
		}
		st, err := imp(ctx, f.w, f.cat, d, rows, start)
		switch {
		case errors.Is(err, dataset.ErrAllStored):
			return nil
		case err != nil:
			return fmt.Errorf("demo %s %s: %w", d.Name, p, err)
		}
		n++
		took := time.Since(start)
		if f.written != nil {
			f.written(d, st, took)
		}
		if f.idle > 0 {
			pause := time.NewTimer(time.Duration(f.idle * float64(took)))
			defer pause.Stop()
			select {
			case <-ctx.Done():
			case <-pause.C:
			}
		}
		return nil
	})
	return n, err
}

// demoRange returns the marker value of in's range and seed.
func demoRange(in dataset.DemoInput) string {
	return fmt.Sprintf("%s..%s seed %d", in.First, in.Last, in.Seed)
}

// parseDemoRange reads a demoRange value; ok is false for any other.
func parseDemoRange(v string) (in dataset.DemoInput, ok bool) {
	days, seed, found := strings.Cut(v, " seed ")
	first, last, found2 := strings.Cut(days, "..")
	if !found || !found2 {
		return in, false
	}
	var err error
	if in.First, err = parseDay("from", first); err != nil {
		return in, false
	}
	if in.Last, err = parseDay("to", last); err != nil {
		return in, false
	}
	if _, err := fmt.Sscan(seed, &in.Seed); err != nil {
		return in, false
	}
	in.StatsFirst = demo.ThermoFirstYear
	return in, true
}

// errAbsent is the generator of a marker that must not be created.
var errAbsent = errors.New("absent")

// markerSet reports whether the store holds the marker name.
func markerSet(ctx context.Context, st demoWriter, name string) (bool, error) {
	_, err := st.ServerSecret(ctx, name, func() ([]byte, error) { return nil, errAbsent })
	switch {
	case errors.Is(err, errAbsent):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// runFill writes every period of f's range that the store lacks, newest
// first, logging progress every fillLogEvery parts, until it is done or
// ctx ends; then it marks the store filled. It pauses after each import as
// long as the import took (unless f says otherwise), so that requests
// served meanwhile keep at least one CPU of two. Its errors are logged: a
// demo that lacks some history still serves, and the next start resumes.
func runFill(ctx context.Context, log *slog.Logger, st demoWriter, f *demoFill) {
	if f.idle == 0 {
		f.idle = 1
	}
	start := time.Now()
	periods := dataset.DemoPeriods(f.in)
	log.Info("demo fill started", "range", demoRange(f.in), "periods", len(periods))
	parts, logged := 0, 0
	for _, p := range periods {
		n, err := f.period(ctx, p)
		parts += n
		if ctx.Err() != nil {
			log.Info("demo fill stopped", "period", p.String(), "parts", parts)
			return
		}
		if err != nil {
			log.Error("demo fill failed", "period", p.String(), "err", err)
			return
		}
		if parts-logged >= fillLogEvery {
			log.Info("demo fill", "period", p.String(), "parts", parts, "duration_ms", time.Since(start).Milliseconds())
			logged = parts
		}
	}
	mark := demoRange(f.in)
	if _, err := st.ServerSecret(ctx, demoFilledMarker, func() ([]byte, error) { return []byte(mark), nil }); err != nil {
		log.Error("demo fill: marking the store filled", "err", err)
	}
	log.Info("demo fill complete", "parts", parts, "duration_ms", time.Since(start).Milliseconds())
}

// writeDemoData ensures the demo client and, on a store first filled by
// demo data, the demo data (ensureDemo), through a connection of its own:
// SQLite keeps the memory of a large write until its connection closes,
// which serving should not carry. It returns the fill of the rest of the
// range, to run in the background until ctx ends (it closes that
// connection), or nil when there is nothing to fill.
func writeDemoData(ctx context.Context, db string, log *slog.Logger, reg *auth.Registry, cat *dataset.Catalog, stderr io.Writer) (fill func(context.Context), err error) {
	dst, err := openStore(ctx, db, true)
	if err != nil {
		return nil, err
	}
	in, err := ensureDemo(ctx, log, dst, reg, newProgress(stderr, time.Now))
	if err != nil || in == nil {
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		return nil, err
	}
	return func(ctx context.Context) {
		defer dst.Close()
		runFill(ctx, log, dst, &demoFill{cat: cat, w: dst, in: *in, missingOnly: true})
	}, nil
}

// demoStore is what ensureDemo needs of the store.
type demoStore interface {
	demoWriter
	DataVersion(context.Context) (int64, error)
}

// ensureDemo makes sure the demo client exists and, on a store first
// filled by demo data, that they are complete: on an empty store it writes
// the newest month of the demo range of the v2.0 series (load, generation,
// transmission), which the first requests ask for, telling p how it goes
// (the v1.0 areas' month holds nine records in ten and takes several
// seconds: it comes first in the background), and it returns the range for runFill to complete
// in the background, or nil when there is nothing to fill. A store that
// held data before serve --demo first ran on it gets no demo data.
func ensureDemo(ctx context.Context, log *slog.Logger, st demoStore, reg *auth.Registry, p *progress) (*dataset.DemoInput, error) {
	if err := reg.Ensure(ctx, demoClientID, "demo", demoClientSecret); err != nil {
		return nil, fmt.Errorf("demo client: %w", err)
	}
	v, err := st.DataVersion(ctx)
	if err != nil {
		return nil, err
	}
	origin := "none"
	if v == 0 {
		origin = demoRange(defaultDemo())
	}
	mark, err := st.ServerSecret(ctx, demoRangeMarker, func() ([]byte, error) { return []byte(origin), nil })
	if err != nil {
		return nil, err
	}
	in, ok := parseDemoRange(string(mark))
	if !ok {
		return nil, nil
	}
	if filled, err := markerSet(ctx, st, demoFilledMarker); err != nil || filled {
		return nil, err
	}
	if v == 0 {
		sync := &demoFill{w: st, in: in, missingOnly: true, only: func(d *dataset.Dataset) bool { return d.Version == "v2.0" }}
		sums, err := writePeriods(ctx, sync, p, newestMonth(in))
		if err != nil {
			return nil, err
		}
		for _, s := range sums {
			log.Info("demo data written", "dataset", s.Dataset, "rows", s.RowsRead, "duration_ms", s.DurationMS)
		}
	}
	return &in, nil
}

// newestMonth returns the newest month period of in's range.
func newestMonth(in dataset.DemoInput) []dataset.DemoPeriod {
	for _, p := range dataset.DemoPeriods(in) {
		if !p.Year {
			return []dataset.DemoPeriod{p}
		}
	}
	return nil
}
