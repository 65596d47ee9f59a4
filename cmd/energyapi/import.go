package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/energyapi/energyapi/internal/energy"
	"github.com/energyapi/energyapi/internal/ingest"
)

// importSummary is the one-line JSON report of an import.
type importSummary struct {
	Dataset    string `json:"dataset"`
	Files      int    `json:"files"`
	RowsRead   int    `json:"rows_read"`
	Inserted   int    `json:"inserted"`
	Updated    int    `json:"updated"`
	Unchanged  int    `json:"unchanged"`
	DurationMS int64  `json:"duration_ms"`
}

// Datasets that import knows.
const (
	dsThermo     = "thermoelectric"
	dsTotalLoad  = "total-load"
	dsPeakValley = "peak-valley"
)

func runImport(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlagSet("import", stderr)
	db := dbFlag(fs)
	dataset := fs.String("dataset", "", "what the files hold: thermoelectric, total-load or peak-valley (required)")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	files := fs.Args()
	switch *dataset {
	case dsThermo, dsTotalLoad, dsPeakValley:
	case "":
		return usagef("import needs --dataset: %s, %s or %s", dsThermo, dsTotalLoad, dsPeakValley)
	default:
		return invalidValue("--dataset", *dataset, fmt.Sprintf("want %s, %s or %s", dsThermo, dsTotalLoad, dsPeakValley))
	}
	if len(files) == 0 {
		return usagef("import needs at least one FILE")
	}
	start := time.Now()
	p := newProgress(stderr, time.Now)
	p.printf("import: parsing %d %s file(s)...", len(files), *dataset)
	onFile := func(name string, rows int) {
		p.printf("import: parsed %s: %s rows (%s)", name, count(rows), p.elapsed())
	}
	// Parse and validate every file before touching the store: a bad row in
	// the last file must leave nothing of the first behind.
	var (
		imp  func(energy.Writer) (energy.ImportStats, error)
		rows int
	)
	switch *dataset {
	case dsThermo:
		recs, err := parseAll(files, ingest.ParseThermoelectric, energy.ThermoRecord.Key, onFile)
		if err != nil {
			return err
		}
		rows = len(recs)
		imp = func(w energy.Writer) (energy.ImportStats, error) { return w.ImportThermoelectric(ctx, recs) }
	case dsTotalLoad:
		pts, err := parseAll(files, ingest.ParseTotalLoad, energy.LoadPoint.Key, onFile)
		if err != nil {
			return err
		}
		rows = len(pts)
		imp = func(w energy.Writer) (energy.ImportStats, error) { return w.ImportTotalLoad(ctx, pts) }
	case dsPeakValley:
		days, err := parseAll(files, ingest.ParsePeakValley, func(d energy.DayExtremes) energy.Date { return d.Day }, onFile)
		if err != nil {
			return err
		}
		rows = len(days)
		imp = func(w energy.Writer) (energy.ImportStats, error) { return w.ImportPeakValley(ctx, days) }
	}
	st, err := openStore(ctx, *db, true)
	if err != nil {
		return err
	}
	defer st.Close()
	p.printf("import: writing %s rows to %s in one transaction...", count(rows), storeName(*db))
	stats, err := imp(st)
	if err != nil {
		return err
	}
	p.printf("import: committed: %s inserted, %s updated, %s unchanged (%s)", count(stats.Inserted), count(stats.Updated), count(stats.Unchanged), p.elapsed())
	return json.NewEncoder(stdout).Encode(newSummary(*dataset, len(files), stats, time.Since(start)))
}

func newSummary(dataset string, files int, s energy.ImportStats, d time.Duration) importSummary {
	return importSummary{
		Dataset: dataset, Files: files, RowsRead: s.Read,
		Inserted: s.Inserted, Updated: s.Updated, Unchanged: s.Unchanged,
		DurationMS: d.Milliseconds(),
	}
}

// parseAll parses every file and refuses a record whose natural key another
// file already holds, since which of the two should win cannot be known.
// It calls parsed after each file with the number of records it holds.
func parseAll[T any, K comparable](files []string, parse func(string, io.Reader) ([]T, error), key func(T) K, parsed func(name string, n int)) ([]T, error) {
	var all []T
	seen := map[K]string{}
	for _, name := range files {
		recs, err := parseFile(name, parse)
		if err != nil {
			return nil, err
		}
		parsed(name, len(recs))
		for _, r := range recs {
			k := key(r)
			if prev, dup := seen[k]; dup && prev != name {
				return nil, energy.Errorf(energy.Invalid, "%s: holds a record for %v that %s also holds", name, k, prev)
			}
			seen[k] = name
		}
		all = append(all, recs...)
	}
	return all, nil
}

func parseFile[T any](name string, parse func(string, io.Reader) ([]T, error)) ([]T, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parse(name, f)
}
