package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

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
	sums, err := writeDemo(ctx, st)
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

// writeDemo writes the deterministic demo dataset; writing it again changes nothing.
func writeDemo(ctx context.Context, w energy.Writer) ([]importSummary, error) {
	start := time.Now()
	th, err := w.ImportThermoelectric(ctx, demo.Thermoelectric())
	if err != nil {
		return nil, fmt.Errorf("demo thermoelectric: %w", err)
	}
	thermo := newSummary(dsThermo, 0, th, time.Since(start))
	start = time.Now()
	ld, err := w.ImportTotalLoad(ctx, demo.TotalLoad(demo.LoadRange()))
	if err != nil {
		return nil, fmt.Errorf("demo total load: %w", err)
	}
	return []importSummary{thermo, newSummary(dsTotalLoad, 0, ld, time.Since(start))}, nil
}
