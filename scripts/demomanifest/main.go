// Command demomanifest writes the manifest of the default demo data
// (internal/catalog/demoparts.tsv): every part the demo generators make
// for demo.LoadRange and demo.DefaultSeed, with its records, span and
// publication time. Run it after changing a generator: go generate
// ./internal/catalog. It generates the whole range, a few minutes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/demo"
)

func main() {
	out := flag.String("o", "internal/catalog/demoparts.tsv", "the file to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "demomanifest:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	cat, err := catalog.New()
	if err != nil {
		return err
	}
	first, last := demo.LoadRange()
	in := dataset.DemoInput{First: first, Last: last, Seed: demo.DefaultSeed, StatsFirst: demo.ThermoFirstYear}
	start := time.Now()
	m, err := dataset.BuildDemoManifest(cat, in, func(p dataset.DemoPeriod) {
		fmt.Fprintf(os.Stderr, "%s (%s)\n", p, time.Since(start).Round(time.Second))
	})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		return err
	}
	// Written whole, then renamed: an interrupted run leaves the old file.
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}
