package main

import (
	"context"
	"encoding/json"
	"fmt"
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

func runDemo(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("demo", stderr)
	db := dbFlag(fs)
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("demo takes no arguments")
	}
	st, err := openStore(ctx, *db, true)
	if err != nil {
		return err
	}
	defer st.Close()
	sums, err := writeDemo(ctx, st, newProgress(stderr, time.Now))
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

// writeDemo writes the deterministic demo dataset; writing it again changes
// nothing. It tells p what it is writing and how far it has got. Each
// dataset is one transaction, as an import is.
func writeDemo(ctx context.Context, w dataset.PartWriter, p *progress) ([]importSummary, error) {
	cat, err := catalog.New()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	recs := demo.Thermoelectric()
	lo, hi := yearSpan(recs)
	p.printf("demo data [1/2]: writing %s thermoelectric production records, %d-%d...", count(len(recs)), lo, hi)
	th, err := catalog.ImportData(ctx, w, cat, recs, nil, nil, start)
	if err != nil {
		return nil, fmt.Errorf("demo thermoelectric: %w", err)
	}
	thermo := newSummary("thermoelectric", 0, th["thermoelectric"], time.Since(start))
	p.printf("demo data [1/2]: thermoelectric production written (%s)", p.elapsed())

	start = time.Now()
	from, to := demo.LoadRange()
	p.printf("demo data [2/2]: computing quarter-hourly load for every zone, %s to %s...", from.DMY(), to.DMY())
	pts := demo.TotalLoad(from, to)
	p.printf("demo data [2/2]: writing %s load points (the longest step)...", count(len(pts)))
	ld, err := catalog.ImportData(ctx, w, cat, nil, nil, pts, start)
	if err != nil {
		return nil, fmt.Errorf("demo total load: %w", err)
	}
	p.printf("demo data [2/2]: load written; demo data complete (%s)", p.elapsed())
	return []importSummary{thermo, newSummary("total-load", 0, ld["total-load"], time.Since(start))}, nil
}

// yearSpan returns the first and last year of recs.
func yearSpan(recs []energy.ThermoRecord) (lo, hi int) {
	for i, r := range recs {
		if i == 0 || r.Year < lo {
			lo = r.Year
		}
		hi = max(hi, r.Year)
	}
	return lo, hi
}
