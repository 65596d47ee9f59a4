package storetest

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/energyapi/energyapi/internal/budget"
	"github.com/energyapi/energyapi/internal/dataset"
)

// RunOnDemand tests a server that holds its parts' metadata only and reads
// their records from the store when a request needs them. open must return
// a new, empty store whose clock is now (dataset.Memory writes at the
// import's start, which the tests set to now as well).
func RunOnDemand(t *testing.T, c *dataset.Catalog, open func(t *testing.T, now func() time.Time) PartStore) {
	t.Run("SmallBudget", func(t *testing.T) { testSmallBudget(t, c, open) })
	t.Run("OneReadPerPart", func(t *testing.T) { testOneReadPerPart(t, open) })
	t.Run("LazyDerived", func(t *testing.T) { testLazyDerived(t, c, open) })
}

// testSmallBudget fills a store with months of quarter-hourly load, some of
// it corrected twice, and checks that a server whose budget holds a few
// parts answers every query, asOf and changedSince included, with the
// bytes, entity tag and Last-Modified of one whose budget holds them all,
// and that the bytes its budget counts never pass the limit.
func testSmallBudget(t *testing.T, c *dataset.Catalog, open func(t *testing.T, now func() time.Time) PartStore) {
	ctx := t.Context()
	clock := at(t, "2024-07-01T10:00:00Z")
	s := open(t, func() time.Time { return clock })
	load, pv := loadAndPeakValley(c)
	imp := loadImports(t, s, c, &clock)
	imp("2024-07-01T10:00:00Z", italyLoad(time.January, time.June, 0))
	imp("2024-07-02T10:00:00Z", italyLoad(time.March, time.March, 7))
	imp("2024-07-03T10:00:00Z", italyLoad(time.May, time.June, -3))

	big, err := dataset.NewLiveWith(ctx, c, s, dataset.LiveOptions{Budget: budget.New(math.MaxInt64)})
	noErr(t, "NewLive", err)
	p, err := big.Snapshot().Part(ctx, load, "2024-03")
	noErr(t, "Part", err)
	// Room for four parts: a cache keeps no value over a quarter of it.
	b := budget.New(4*p.Bytes() + 1)
	small, err := dataset.NewLiveWith(ctx, c, s, dataset.LiveOptions{Budget: b})
	noErr(t, "NewLive", err)
	var queries []string
	for m := 1; m <= 6; m++ {
		days := fmt.Sprintf("dateFrom=01/%02d/2024&dateTo=28/%02d/2024", m, m)
		queries = append(queries, days, days+"&asOf=2024-07-01T12:00:00Z", days+"&changedSince=2024-07-02T00:00:00Z",
			days+"&asOf=2024-07-02T12:00:00Z&changedSince=2024-07-01T12:00:00Z")
	}
	queries = append(queries, "dateFrom=25/02/2024&dateTo=05/04/2024", "dateFrom=20/05/2024&dateTo=10/06/2024&asOf=2024-07-02T12:00:00Z")
	for round := range 2 {
		for i := range queries {
			query := queries[(i*7+round)%len(queries)] // another order each round
			for _, d := range []*dataset.Dataset{load, pv} {
				want := answerOf(t, c, big, d, query)
				if got := answerOf(t, c, small, d, query); got != want {
					t.Fatalf("%s %s with a small budget:\ngot  %.300s\nwant %.300s", d.Name, query, got, want)
				}
				if b.Used() > b.Limit() {
					t.Fatalf("after %s %s: the budget counts %d bytes, over its limit of %d", d.Name, query, b.Used(), b.Limit())
				}
			}
		}
	}
	if all := big.Budget().Used(); all <= b.Limit() {
		t.Fatalf("the parts read take %d bytes, want more than the small budget (%d)", all, b.Limit())
	}
}

// loadImports returns a function that imports rows of total-load into s at
// stamp, to which it sets *clock first.
func loadImports(t *testing.T, s dataset.PartWriter, c *dataset.Catalog, clock *time.Time) func(stamp string, rows []dataset.Row) {
	load, _ := c.Lookup("total-load")
	return func(stamp string, rows []dataset.Row) {
		t.Helper()
		*clock = at(t, stamp)
		_, err := dataset.Import(t.Context(), s, c, load, rows, *clock)
		noErr(t, "import at "+stamp, err)
	}
}

// italyLoad returns Italy's total load at every quarter hour of the months
// from to to of 2024, shifted by delta MW.
func italyLoad(from, to time.Month, delta float64) []dataset.Row {
	rome := time.FixedZone("CET", 3600)
	var rows []dataset.Row
	start, end := time.Date(2024, from, 1, 0, 0, 0, 0, rome), time.Date(2024, to+1, 1, 0, 0, 0, 0, rome)
	for at, i := start, 0; at.Before(end); at, i = at.Add(15*time.Minute), i+1 {
		mw := 30000 + float64(i%96)*10 + float64(i%7) + delta
		rows = append(rows, dataset.Row{Time: at.Unix(), Text: []string{"Italy"}, Num: []float64{mw, mw + 1}})
	}
	return rows
}

// answerOf returns l's answer to query on d, as JSON and CSV, with its
// entity tag and Last-Modified.
func answerOf(t *testing.T, c *dataset.Catalog, l *dataset.Live, d *dataset.Dataset, query string) string {
	t.Helper()
	params, err := url.ParseQuery(query)
	noErr(t, "ParseQuery", err)
	q, err := c.ParseQuery(d, params, dataset.Limits{})
	noErr(t, "ParseQuery "+query, err)
	snap := l.Snapshot()
	view, err := l.AsOf(t.Context(), snap, q)
	noErr(t, "AsOf "+query, err)
	js, err := view.AppendJSON(t.Context(), nil, q)
	noErr(t, "AppendJSON "+query, err)
	csv, err := view.AppendCSV(t.Context(), nil, q)
	noErr(t, "AppendCSV "+query, err)
	modified, _ := snap.LastModified(q)
	return fmt.Sprintf("%s %s %s\n%s", snap.Tag(q, "json"), modified, js, csv)
}

// counting counts the parts read from a store.
type counting struct {
	PartStore
	mu    sync.Mutex
	reads map[dataset.PartRef]int
}

func (c *counting) ReadPart(ctx context.Context, ref dataset.PartRef, version int64) (dataset.StoredPart, error) {
	c.mu.Lock()
	c.reads[ref]++
	c.mu.Unlock()
	return c.PartStore.ReadPart(ctx, ref, version)
}

// testOneReadPerPart checks that a server reads no part to load a snapshot
// and serve its validators, and reads a part once however many requests
// need it at once.
func testOneReadPerPart(t *testing.T, open func(t *testing.T, now func() time.Time) PartStore) {
	ctx := t.Context()
	clock := t0()
	s := &counting{PartStore: open(t, func() time.Time { return clock }), reads: map[dataset.PartRef]int{}}
	c, d := sensorCatalog(t)
	_, err := dataset.Import(ctx, s, c, d, append(readings(2024, time.March, "A", 1), readings(2024, time.April, "A", 2)...), clock)
	noErr(t, "import", err)
	l, err := dataset.NewLive(ctx, c, s)
	noErr(t, "NewLive", err)
	q, err := c.ParseQuery(d, url.Values{}, dataset.Limits{}) // every record
	noErr(t, "ParseQuery", err)
	snap := l.Snapshot()
	if _, ok := snap.LastModified(q); !ok || snap.Tag(q, "json") == "" {
		t.Fatalf("LastModified: got none, want the April part's")
	}
	if len(s.reads) != 0 {
		t.Fatalf("loading a snapshot and its validators read parts %v, want none", s.reads)
	}
	var wg sync.WaitGroup
	bodies := make([]string, 32)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := snap.AppendJSON(ctx, nil, q)
			if err != nil {
				t.Error(err)
			}
			bodies[i] = string(b)
		}()
	}
	wg.Wait()
	march, april := dataset.PartRef{Dataset: d.Name, ID: "2024-03"}, dataset.PartRef{Dataset: d.Name, ID: "2024-04"}
	if s.reads[march] != 1 || s.reads[april] != 1 || len(s.reads) != 2 {
		t.Fatalf("32 requests for two cold parts read %v, want each once", s.reads)
	}
	for _, b := range bodies[1:] {
		if b != bodies[0] {
			t.Fatalf("answers differ:\n%.200s\n%.200s", b, bodies[0])
		}
	}
	// An import then costs a refresh the listing only, and an answer the
	// part it changed.
	clock = clock.Add(time.Hour)
	_, err = dataset.Import(ctx, s, c, d, readings(2024, time.April, "B", 3), clock)
	noErr(t, "second import", err)
	changed, err := l.Refresh(ctx)
	noErr(t, "Refresh", err)
	if !changed || s.reads[march] != 1 || s.reads[april] != 1 {
		t.Fatalf("Refresh after an import: got changed %v, reads %v; want a new snapshot and no read", changed, s.reads)
	}
	_, err = l.Snapshot().AppendJSON(ctx, nil, q)
	noErr(t, "AppendJSON", err)
	if s.reads[march] != 1 || s.reads[april] != 2 {
		t.Fatalf("an answer after the import read %v, want April once more and March not", s.reads)
	}
}
