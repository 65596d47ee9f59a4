package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
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

// writeDemo writes the deterministic demo data of every dataset of the
// catalogue that declares a generator, in catalogue order; writing it again
// changes nothing. It tells p what it is writing and how far it has got.
// Each dataset is one transaction, as an import is.
func writeDemo(ctx context.Context, w dataset.PartWriter, p *progress) ([]importSummary, error) {
	cat, err := catalog.New()
	if err != nil {
		return nil, err
	}
	var gens []*dataset.Dataset
	needed := map[string]bool{} // datasets whose rows later generators read
	for _, d := range cat.All() {
		if d.Demo != nil {
			gens = append(gens, d)
			for _, from := range d.DemoFrom {
				needed[from] = true
			}
		}
	}
	generated := map[string][]dataset.Row{}
	var sums []importSummary
	for k, d := range gens {
		step := fmt.Sprintf("demo data [%d/%d]", k+1, len(gens))
		start := time.Now()
		p.printf("%s: generating %s...", step, d.Name)
		rows := d.Demo(generated)
		p.printf("%s: writing %s %s records...", step, count(len(rows)), d.Name)
		st, err := dataset.Import(ctx, w, cat, d, rows, start)
		if err != nil {
			return nil, fmt.Errorf("demo %s: %w", d.Name, err)
		}
		p.printf("%s: %s written (%s)", step, d.Name, p.elapsed())
		if needed[d.Name] {
			generated[d.Name] = rows
		}
		sums = append(sums, newSummary(d.Name, 0, st, time.Since(start)))
	}
	p.printf("demo data complete (%s)", p.elapsed())
	return sums, nil
}
