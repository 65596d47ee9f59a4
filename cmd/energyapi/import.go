package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/energyapi/energyapi/internal/catalog"
	"github.com/energyapi/energyapi/internal/dataset"
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
	// IncompleteDays are the days the import touched for which a derived
	// dataset (peak-valley from total-load) derives nothing, with the reason.
	IncompleteDays []string `json:"incomplete_days,omitempty"`
}

func runImport(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cat, err := catalog.New()
	if err != nil {
		return err
	}
	var importable []string
	for _, d := range cat.All() {
		if d.Import != nil {
			importable = append(importable, d.Name)
		}
	}
	fs := newFlagSet("import", stderr)
	db := dbFlag(fs)
	allowIncomplete := fs.Bool("allow-incomplete", false, "also publish a peak and valley derived from what an incomplete day of total load holds (by default such a day gets none)")
	name := fs.String("dataset", "", "what the files hold: "+strings.Join(importable, ", ")+" (required; see energyapi datasets)")
	if err := parseFlags(fs, args, getenv); err != nil {
		return err
	}
	files := fs.Args()
	if *name == "" {
		return usagef("import needs --dataset: %s", strings.Join(importable, ", "))
	}
	d, ok := cat.Lookup(*name)
	if !ok || d.Import == nil {
		return invalidValue("--dataset", *name, "want "+strings.Join(importable, ", "))
	}
	if len(files) == 0 {
		return usagef("import needs at least one FILE")
	}
	start := time.Now()
	p := newProgress(stderr, time.Now)
	p.printf("import: parsing %d %s file(s)...", len(files), d.Name)
	// Parse and validate every file before touching the store: a bad row in
	// the last file must leave nothing of the first behind.
	rows, err := parseAll(cat, d, files, func(name string, rows int) {
		p.printf("import: parsed %s: %s rows (%s)", name, count(rows), p.elapsed())
	})
	if err != nil {
		return err
	}
	st, err := openStore(ctx, *db, true)
	if err != nil {
		return err
	}
	defer st.Close()
	batches := []dataset.Batch{{Dataset: d, Rows: rows}}
	if err := prepareDemo(ctx, cat, st, batches); err != nil {
		return err
	}
	if *allowIncomplete {
		extra, err := partialBatches(ctx, cat, d, st, rows)
		if err != nil {
			return err
		}
		batches = append(batches, extra...)
	}
	p.printf("import: writing %s rows to %s in one transaction...", count(len(rows)), storeName(*db))
	stats, err := dataset.ImportBatches(ctx, st, cat, batches, start)
	if err != nil {
		return err
	}
	p.printf("import: committed: %s inserted, %s updated, %s unchanged (%s)", count(stats.Inserted), count(stats.Updated), count(stats.Unchanged), p.elapsed())
	sum := newSummary(d.Name, len(files), stats, time.Since(start))
	if sum.IncompleteDays, err = gaps(ctx, cat, d, st, rows); err != nil {
		return err
	}
	for _, g := range sum.IncompleteDays {
		p.printf("import: no derived peak and valley for %s", g)
	}
	return json.NewEncoder(stdout).Encode(sum)
}

// partialBatches returns, for each dataset derived from d that can derive
// from incomplete periods, the records it derives from the incomplete days
// of rows once merged with what the store holds, to be imported with rows
// as published records of that dataset.
func partialBatches(ctx context.Context, cat *dataset.Catalog, d *dataset.Dataset, src dataset.PartSource, rows []dataset.Row) ([]dataset.Batch, error) {
	live, err := dataset.NewLive(ctx, cat, src)
	if err != nil {
		return nil, err
	}
	snap := live.Snapshot()
	byPart, days := map[string][]dataset.Row{}, map[int64]bool{}
	for _, r := range rows {
		id := dataset.PartID(d.Grain, r.Time)
		byPart[id] = append(byPart[id], r)
		days[dataset.Bucket(dataset.Day, r.Time)] = true
	}
	var out []dataset.Batch
	for _, e := range cat.All() {
		if e.Derive == nil || e.Derive.From != d.Name || e.Derive.Partial == nil {
			continue
		}
		b := dataset.Batch{Dataset: e}
		for id, rs := range byPart {
			stored, err := snap.Part(ctx, d, id)
			if err != nil {
				return nil, err
			}
			merged, _, changed, err := dataset.Merge(cat.Layout(d), d.Grain, id, stored, rs, 0)
			if err != nil {
				return nil, err
			}
			if !changed {
				merged = stored
			}
			for _, r := range e.Derive.Partial(merged) {
				if days[dataset.Bucket(dataset.Day, r.Time)] {
					b.Rows = append(b.Rows, r)
				}
			}
		}
		if len(b.Rows) > 0 {
			out = append(out, b)
		}
	}
	return out, nil
}

// gaps returns the days of rows, as now stored, from which a dataset derived
// from d derives nothing, with the reason.
func gaps(ctx context.Context, cat *dataset.Catalog, d *dataset.Dataset, src dataset.PartSource, rows []dataset.Row) ([]string, error) {
	var derived []*dataset.Dataset
	for _, e := range cat.All() {
		if e.Derive != nil && e.Derive.From == d.Name && e.Derive.Gaps != nil {
			derived = append(derived, e)
		}
	}
	if len(derived) == 0 {
		return nil, nil
	}
	parts, days := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		parts[dataset.PartID(d.Grain, r.Time)] = true
		days[time.Unix(r.Time, 0).In(energy.Rome()).Format("2006-01-02")] = true
	}
	live, err := dataset.NewLive(ctx, cat, src)
	if err != nil {
		return nil, err
	}
	snap := live.Snapshot()
	var out []string
	for _, e := range derived {
		for id := range parts {
			p, err := snap.Part(ctx, d, id)
			if err != nil {
				return nil, err
			}
			for _, g := range e.Derive.Gaps(p) {
				if day, _, _ := strings.Cut(g, ":"); days[day] {
					out = append(out, g)
				}
			}
		}
	}
	slices.Sort(out)
	return out, nil
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
func parseAll(cat *dataset.Catalog, d *dataset.Dataset, files []string, parsed func(name string, n int)) ([]dataset.Row, error) {
	var all []dataset.Row
	seen := map[string]string{}
	for _, name := range files {
		rows, err := parseFile(cat, d, name)
		if err != nil {
			return nil, err
		}
		parsed(name, len(rows))
		for _, r := range rows {
			k := cat.KeyOf(d, r)
			if prev, dup := seen[k]; dup && prev != name {
				return nil, energy.Errorf(energy.Invalid, "%s: holds the record %s that %s also holds", name, d.DescribeKey(r), prev)
			}
			seen[k] = name
		}
		all = append(all, rows...)
	}
	return all, nil
}

func parseFile(cat *dataset.Catalog, d *dataset.Dataset, name string) ([]dataset.Row, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ingest.ReadRows(cat, d, name, f)
}

// prepareDemo fills, on a store holding the demo data on demand, the demo
// parts the import falls in that the store does not hold yet, so that the
// import merges with them: the demo's records it does not replace stay.
// The fill is its own transaction before the import's: should the import
// fail, the store holds parts it served the same way already.
func prepareDemo(ctx context.Context, cat *dataset.Catalog, st store, batches []dataset.Batch) error {
	ds, err := demoOnDemand(ctx, st, cat, nil)
	if err != nil || ds == nil {
		return err
	}
	refs, err := dataset.BatchRefs(cat, batches)
	if err != nil {
		return err
	}
	return ds.Prepare(ctx, refs)
}
